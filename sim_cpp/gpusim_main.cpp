// gpusim: runs a workload on a GPU preset with an L1 policy (docs/simulator.md).
// Exit codes: 0 completed (or stopped by --max-cycles), 1 load-data mismatch or internal
// error, 2 bad configuration or command line, 3 watchdog stop.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/config.h"
#include "sim_cpp/core/controllers.h"
#include "sim_cpp/core/scheduler.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/policies.h"
#include "sim_cpp/workload/workload.h"

namespace {

using namespace l1d;
using namespace l1d::sim;

int fail(const std::string& msg, int code) {
  std::cerr << "error: " << msg << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gpusim: cycle-level GPU simulator around the L1 data cache"};
  std::string preset, config_file, workload_name, policy, policy_file, scale = "small", stats_file;
  std::optional<uint64_t> seed;
  std::optional<int32_t> ebt;
  SimOptions opt;
  std::vector<std::string> controllers;
  bool list_workloads = false, list_policies = false, list_schedulers = false, list_controllers = false;
  bool quiet = false, no_progress = false;
  uint64_t drop_response = 0;

  auto* o_preset = app.add_option("--preset", preset, "GPU preset: configs/NAME.yaml (gtx480, gtx1080, qv100)");
  auto* o_config = app.add_option("--config", config_file, "GPU configuration file (preset schema)");
  o_preset->excludes(o_config);
  app.add_option("--workload", workload_name, "workload to run (--list-workloads)");
  auto* o_policy = app.add_option("--policy", policy, "L1 policy: configs/policies/NAME.yaml or an alias (--list-policies)");
  auto* o_policy_file = app.add_option("--policy-file", policy_file, "L1 policy file (policy-section schema)");
  o_policy->excludes(o_policy_file);
  app.add_option("--scale", scale, "input size: test, small or full")->check(CLI::IsMember({"test", "small", "full"}))
      ->capture_default_str();
  app.add_option("--seed", seed, "seed (default: the preset's)");
  app.add_option("--stats", stats_file, "write every statistic as JSON to this file");
  app.add_option("--max-cycles", opt.max_cycles, "stop after this many cycles (0: no limit)")
      ->capture_default_str();
  app.add_option("--watchdog", opt.watchdog, "cycles without progress that stop the run with exit code 3 (0: off)")
      ->capture_default_str();
  app.add_option("--l1", opt.l1, "L1 implementation: golden")->check(CLI::IsMember({"golden"}))
      ->capture_default_str();
  app.add_option("--scheduler", opt.scheduler, "warp scheduler: gto, lrr, two-level (default: the preset's)");
  app.add_option("--active-warps", opt.active_set, "two-level scheduler: active-set size per scheduler")
      ->check(CLI::Range(1u, 256u))
      ->capture_default_str();
  app.add_option("--warp-limit", opt.warp_limit,
                 "warp-opt: warps per scheduler allowed to issue (throttling, PCAL); 0 = all")
      ->capture_default_str();
  app.add_option("--ebt", ebt, "PCAL EBTNum (default: a third of warp-opt hold tokens)");
  app.add_option("--controller", controllers, "SM-level runtime controller (repeatable; --list-controllers)");
  app.add_option("--window", opt.controller.window, "controller sampling window, cycles")->check(CLI::Range(1u, 1u << 30))
      ->capture_default_str();
  app.add_option("--phase-threshold", opt.controller.phase_threshold,
                 "phase detector: relative IPC / absolute miss-rate change")
      ->capture_default_str();
  app.add_option("--phase-windows", opt.controller.phase_windows, "phase detector: windows the change must last")
      ->capture_default_str();
  app.add_option("--pcal-noc-limit", opt.controller.noc_latency_limit,
                 "dynamic PCAL: NoC latency (cycles) up to which TLP may grow")
      ->capture_default_str();
  app.add_option("--pcal-stall-limit", opt.controller.stall_limit,
                 "dynamic PCAL: LDST stall ratio up to which TLP may grow")
      ->capture_default_str();
  app.add_flag("--list-workloads", list_workloads, "print the workloads, one per line");
  app.add_flag("--list-policies", list_policies, "print the policies, one per line");
  app.add_flag("--list-schedulers", list_schedulers, "print the warp schedulers, one per line");
  app.add_flag("--list-controllers", list_controllers, "print the runtime controllers, one per line");
  app.add_option("--drop-response", drop_response,
                 "fault injection: swallow the N-th memory response (the watchdog must stop the run)");
  app.add_flag("--quiet", quiet, "no summary on stdout");
  app.add_flag("--no-progress", no_progress, "no progress line on stderr");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what(), 2);
  }

  try {
    if (list_workloads || list_policies || list_schedulers || list_controllers) {
      if (list_workloads)
        for (const auto& n : workload_names()) std::cout << n << "\n";
      if (list_policies)
        for (const auto& n : policy_names()) std::cout << n << "\n";
      if (list_schedulers)
        for (const auto& n : scheduler_names()) std::cout << n << "\n";
      if (list_controllers)
        for (const auto& n : controller_names()) std::cout << n << "\n";
      return 0;
    }
    if (preset.empty() && config_file.empty()) return fail("one of --preset or --config is required", 2);
    if (workload_name.empty()) return fail("--workload is required (--list-workloads)", 2);

    Config cfg = preset.empty() ? load_config_file(config_file) : load_preset(preset);
    std::vector<std::string> implied;
    if (!policy.empty()) implied = apply_policy(cfg, policy);
    if (!policy_file.empty()) apply_policy_file(cfg, policy_file);
    if (seed) cfg.seed = *seed;

    for (const auto& c : implied) opt.controllers.push_back(c);
    for (const auto& c : controllers)
      if (std::find(opt.controllers.begin(), opt.controllers.end(), c) == opt.controllers.end())
        opt.controllers.push_back(c);
    const bool dynamic_pcal =
        std::find(opt.controllers.begin(), opt.controllers.end(), "dynamic-pcal") != opt.controllers.end();
    const bool has_throttle =
        std::find(opt.controllers.begin(), opt.controllers.end(), "throttle") != opt.controllers.end();
    if (opt.warp_limit && !dynamic_pcal && !has_throttle) opt.controllers.insert(opt.controllers.begin(), "throttle");
    opt.ebt = ebt;
    opt.progress = !no_progress;
    opt.workload_name = workload_name;
    opt.scale_name = scale;

    std::unique_ptr<Workload> w;
    try {
      w = make_workload(workload_name);
    } catch (const std::invalid_argument& e) {
      return fail(e.what(), 2);
    }
    const WorkloadScale sc = scale == "test" ? WorkloadScale::kTest : scale == "full" ? WorkloadScale::kFull
                                                                                       : WorkloadScale::kSmall;
    MemoryFactory mem;
    if (drop_response)
      mem = [drop_response](const Config& c, FunctionalMemory& image) {
        return make_dropping_memory(make_memory_port(c, image), drop_response);
      };
    Gpu gpu(cfg, opt, {}, mem);
    const RunResult r = gpu.run(*w, sc);
    if (!stats_file.empty()) {
      std::ofstream f(stats_file);
      if (!f) return fail("cannot write " + stats_file, 2);
      f << gpu.stats_json().dump(2) << "\n";
    }
    if (!quiet) std::cout << gpu.summary();
    if (r.stop == StopReason::kWatchdog) {
      std::cerr << r.watchdog_report;
      return 3;
    }
    if (r.load_mismatches) {
      std::cerr << "error: " << r.load_mismatches << " load-data mismatches; first: " << r.first_mismatch << "\n";
      return 1;
    }
    return 0;
  } catch (const ConfigError& e) {
    return fail(e.what(), 2);
  } catch (const std::exception& e) {
    return fail(std::string("internal: ") + e.what(), 1);
  }
}
