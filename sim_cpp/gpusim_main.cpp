// gpusim: runs a workload on a GPU preset with an L1 policy (docs/simulator.md).
// Exit codes: 0 completed (or stopped by --max-cycles), 1 load-data mismatch, failed result
// check (Workload::verify) or internal error, 2 bad configuration or command line, 3 watchdog
// stop, 4 lockstep mismatch (--l1 lockstep: the verilated RTL L1 and the golden one differ).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/config.h"
#include "sim_cpp/core/controllers.h"
#include "sim_cpp/core/scheduler.h"
#include "sim_cpp/gpu/agcb_timeline.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/policies.h"
#include "sim_cpp/trace/auto_preset.h"
#include "sim_cpp/trace/trace_error.h"
#ifdef GPUSIM_VERILATED_L1
#include "sim_cpp/verilated/verilated_l1.h"
#endif
#include "sim_cpp/trace/trace_workload.h"
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
  std::string agcb_timeline_file;
  uint64_t agcb_every = 5000;

  auto* o_preset = app.add_option("--preset", preset,
                                  "GPU preset: configs/NAME.yaml (gtx480, gtx1080, qv100, a100, rtx3070, h100, ...), or auto "
                                  "with --trace: the preset of the trace's binary version");
  auto* o_config = app.add_option("--config", config_file, "GPU configuration file (preset schema)");
  o_preset->excludes(o_config);
  app.add_option("--workload", workload_name, "workload to run (--list-workloads)");
  std::string input_file;
  app.add_option("--input", input_file,
                 "the workload's input instead of the generated one: a Matrix Market file (spmv) or a SNAP "
                 "edge list (bfs, sssp, cc, gc, tc, bc, dc)");
  std::string generator;
  app.add_option("--generator", generator,
                 "the shape of the generated input, where a workload has more than one: kronecker or road for "
                 "the graph workloads (default: road for bfs and sssp at small scale, else kronecker), unroll4 "
                 "for kmeans (docs/workloads.md)");
  std::string trace_path;
  std::optional<uint32_t> trace_isa;
  app.add_option("--trace", trace_path, "run an Accel-Sim / NVBit trace: DIR/kernelslist.g or DIR (instead of --workload)");
  app.add_option("--trace-isa", trace_isa, "time the trace's SASS as this binary version (e.g. 61), not its own");
  auto* o_policy = app.add_option("--policy", policy, "L1 policy: configs/policies/NAME.yaml or an alias (--list-policies)");
  auto* o_policy_file = app.add_option("--policy-file", policy_file, "L1 policy file (policy-section schema)");
  o_policy->excludes(o_policy_file);
  app.add_option("--scale", scale, "input size: test, small, full or paper (docs/workloads.md)")
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(kScaleNames), std::end(kScaleNames))))
      ->capture_default_str();
  app.add_option("--seed", seed, "seed (default: the preset's)");
  std::string l1_impl = "golden", l1_waves;
  uint64_t l1_waves_from = 0, l1_waves_to = UINT64_MAX;
  app.add_option("--l1", l1_impl,
                 "L1 implementation: golden (C++), verilated (the RTL l1d_top), lockstep (both, compared every cycle) "
                 "or netlist (golden and the gate-level l1d_top, compared every cycle)")
      ->check(CLI::IsMember({"golden", "verilated", "lockstep", "netlist"}))
      ->capture_default_str();
  app.add_option("--l1-waves", l1_waves, "FST waves of SM 0's verilated L1 (--l1 verilated or lockstep)");
  app.add_option("--l1-waves-from", l1_waves_from, "first cycle in --l1-waves");
  app.add_option("--l1-waves-to", l1_waves_to, "cycles from this one on are not in --l1-waves");
  std::string lockstep_waves;
  app.add_option("--lockstep-waves", lockstep_waves,
                 "--l1 lockstep: every SM's RTL writes its last 2000-4000 cycles to DIR/l1d_smN.fst (and .prev.fst), "
                 "for the waves before a mismatch");
  app.add_option("--stats", stats_file, "write every statistic as JSON to this file");
  app.add_option("--agcb-timeline", agcb_timeline_file,
                 "AGCB policies: write the predictor's counters over time as CSV (--l1 golden or lockstep)");
  app.add_option("--agcb-every", agcb_every, "--agcb-timeline's sampling period, cycles")
      ->capture_default_str()
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  app.add_option("--max-cycles", opt.max_cycles, "stop after this many cycles (0: no limit)")
      ->capture_default_str();
  app.add_option("--watchdog", opt.watchdog, "cycles without progress that stop the run with exit code 3 (0: off)")
      ->capture_default_str();
  app.add_option("--threads", opt.threads,
                 "threads that run the SMs' cycles (--l1 golden) and read a --trace; the statistics are the same "
                 "for every count (docs/performance.md)")
      ->check(CLI::Range(1u, 256u))
      ->capture_default_str();
  bool no_cycle_skip = false;
  app.add_flag("--no-cycle-skip", no_cycle_skip,
               "tick every cycle instead of jumping over idle ones (the statistics are the same; also "
               "GPUSIM_NO_CYCLE_SKIP=1; docs/performance.md)");
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
  std::string explain_preset;
  app.add_option("--explain-preset", explain_preset,
                 "print every field of preset NAME (with --policy/--policy-file applied), its value and the file "
                 "that set it, then exit");
  app.add_flag("--list-workloads", list_workloads, "print the workloads, one per line");
  app.add_flag("--list-policies", list_policies, "print the policies, one per line");
  app.add_flag("--list-schedulers", list_schedulers, "print the warp schedulers, one per line");
  app.add_flag("--list-controllers", list_controllers, "print the runtime controllers, one per line");
  app.add_option("--drop-response", drop_response,
                 "fault injection: swallow the N-th memory response (the watchdog must stop the run)");
  std::optional<uint64_t> l1_fault_cycle;
  auto fault_injected = std::make_shared<bool>(false);  // set by SM 0's verilated L1 at the fault
  app.add_option("--l1-fault-cycle", l1_fault_cycle,
                 "fault injection: SM 0's RTL hit counter gains one at the clock edge ending cycle N of its L1 "
                 "(--l1 lockstep must stop there with exit code 4)");
  app.add_flag("--quiet", quiet, "no summary on stdout");
  app.add_flag("--no-progress", no_progress, "no progress line on stderr");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what(), 2);
  }
  if (no_cycle_skip) opt.cycle_skip = false;

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
    if (!explain_preset.empty()) {
      Config cfg = load_preset(explain_preset);
      if (!policy.empty()) apply_policy(cfg, policy);
      if (!policy_file.empty()) apply_policy_file(cfg, policy_file);
      std::cout << fmt::format("# {}: every field, its value, and the file that set it (default: built in)\n",
                               cfg.source);
      for (const ConfigField& f : describe_config(cfg))
        std::cout << fmt::format("{:<36} {:<16} {}\n", f.path, f.value, f.source.empty() ? "default" : f.source);
      return 0;
    }
    if (preset.empty() && config_file.empty()) return fail("one of --preset or --config is required", 2);
    if (preset == "auto" && trace_path.empty())
      return fail("--preset auto needs --trace (it picks the preset from the trace's binary version)", 2);
    if (workload_name.empty() && trace_path.empty()) return fail("--workload or --trace is required (--list-workloads)", 2);
    if (!workload_name.empty() && !trace_path.empty()) return fail("--workload and --trace exclude each other", 2);
    if (!input_file.empty() && workload_name.empty()) return fail("--input needs --workload", 2);
    if (!generator.empty() && workload_name.empty()) return fail("--generator needs --workload", 2);
    if (!generator.empty() && !input_file.empty()) return fail("--generator and --input exclude each other", 2);

    if (preset == "auto") {  // the GPU the trace was taken on (sim_cpp/trace/auto_preset.h)
      try {
        const trace::AutoPreset a = trace::choose_auto_preset(trace_path);
        preset = a.preset;
        opt.auto_preset_binary_version = a.binary_version;
      } catch (const trace::TraceError& e) {
        return fail(e.what(), 2);
      }
    }
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
    opt.l1 = l1_impl;
    opt.workload_name = trace_path.empty() ? workload_name : "trace:" + trace_path;
    opt.scale_name = scale;

    std::unique_ptr<Workload> w;
    trace::TraceWorkload* tw = nullptr;  // w, when it is a trace
    try {
      if (!trace_path.empty()) {
        auto t = trace::load_trace_workload(trace_path, {trace_isa, cfg.l1.address_bits, opt.threads});
        tw = t.get();
        w = std::move(t);
      } else {
        w = make_workload(workload_name);
        if (!input_file.empty()) w->set_input_file(input_file);
        if (!generator.empty()) w->set_generator(generator);
      }
    } catch (const std::invalid_argument& e) {
      return fail(e.what(), 2);
    } catch (const trace::TraceError& e) {
      return fail(e.what(), 2);
    }
    const WorkloadScale sc = *parse_scale(scale);  // --scale is checked against kScaleNames
    MemoryFactory mem;
    if (drop_response)
      mem = [drop_response](const Config& c, FunctionalMemory& image) {
        return make_dropping_memory(make_memory_port(c, image), drop_response);
      };
    L1Factory l1;
    if (l1_impl != "golden") {
#ifdef GPUSIM_VERILATED_L1
      const bool netlist = l1_impl == "netlist";  // lockstep against the gate-level model
      if (!has_verilated_l1(cfg, netlist)) {  // make_verilated_l1 throws a ConfigError naming the built models
        VerilatedOptions probe;
        probe.netlist = netlist;
        make_verilated_l1(cfg, probe);
      }
      const bool lockstep = l1_impl == "lockstep" || netlist;
      if (netlist && l1_fault_cycle)
        return fail("--l1-fault-cycle needs --l1 verilated or lockstep (the netlist has no named flop)", 2);
      if (!lockstep_waves.empty()) {
        if (!lockstep) return fail("--lockstep-waves needs --l1 lockstep", 2);
        if (!l1_waves.empty()) return fail("--lockstep-waves and --l1-waves exclude each other", 2);
        std::filesystem::create_directories(lockstep_waves);
      }
      l1 = [=](const Config& c, uint32_t sm) {
        VerilatedOptions vo;
        vo.netlist = netlist;
        vo.settled_counters = true;  // the statistics count every cycle run, as golden's (staged pipe: contract 16.4)
        // The RTL's assertions are checked in lockstep (and by tb_l1d_top); --l1 verilated, the fast
        // path, skips their checks (4 % of the staged model's evaluation; docs/performance.md).
        vo.assertions = lockstep;
        if (sm == 0 && l1_fault_cycle) {
          vo.fault_cycle = *l1_fault_cycle;
          vo.fault_injected = fault_injected;
        }
        if (!lockstep_waves.empty()) {
          vo.trace_file = fmt::format("{}/l1d_sm{}.fst", lockstep_waves, sm);
          vo.rotate_cycles = 2000;
        } else if (sm == 0) {
          vo.trace_file = l1_waves;
          vo.trace_from = l1_waves_from;
          vo.trace_to = l1_waves_to;
        }
        return lockstep ? make_lockstep_l1(c, sm, vo) : make_verilated_l1(c, vo);
      };
#else
      return fail("--l1 " + l1_impl + ": this gpusim was built without the verilated L1 (no Verilator)", 2);
#endif
    } else if (!l1_waves.empty()) {
      return fail("--l1-waves needs --l1 verilated or lockstep", 2);
    } else if (l1_fault_cycle) {
      return fail("--l1-fault-cycle needs --l1 verilated or lockstep (the fault is in the RTL)", 2);
    }
    Gpu gpu(cfg, opt, l1, mem);
    if (tw) trace::attach_copies(gpu, *tw);
    std::optional<AgcbTimeline> timeline;
    if (!agcb_timeline_file.empty()) {
      timeline.emplace(gpu);
      timeline->attach(gpu, agcb_every);
    }
    const RunResult r = gpu.run(*w, sc);
    // A fault cycle SM 0's L1 never reached injects nothing: say so, or the run reads as a pass
    // of a check that did not happen.
    if (l1_fault_cycle && !*fault_injected)
      std::cerr << fmt::format("gpusim: warning: --l1-fault-cycle {}: SM 0's L1 ran fewer cycles, no fault was "
                               "injected\n",
                               *l1_fault_cycle);
    // Not a statistic (the statistics do not depend on cycle skipping): a diagnostic on request.
    if (const char* e = std::getenv("GPUSIM_REPORT_SKIPPED"); e != nullptr && *e != '\0')
      std::cerr << fmt::format("gpusim: {} of {} cycles skipped, {} SM-cycles only counted\n", gpu.skipped_cycles(),
                               r.cycles, gpu.skipped_sm_cycles());
    if (timeline) {
      std::ofstream f(agcb_timeline_file);
      if (!f) return fail("cannot write " + agcb_timeline_file, 2);
      timeline->write_csv(f);
    }
    if (!stats_file.empty()) {
      std::ofstream f(stats_file);
      if (!f) return fail("cannot write " + stats_file, 2);
      nlohmann::json j = gpu.stats_json();
      if (tw) j["trace"] = tw->report_json();
      f << j.dump(2) << "\n";
    }
    if (!quiet) std::cout << gpu.summary();
    if (!quiet && tw) std::cout << tw->report();
    if (r.stop == StopReason::kWatchdog) {
      std::cerr << r.watchdog_report;
      return 3;
    }
    if (r.load_mismatches) {
      std::cerr << "error: " << r.load_mismatches << " load-data mismatches; first: " << r.first_mismatch << "\n";
      return 1;
    }
    if (r.stop == StopReason::kCompleted && w->has_verify()) {  // the workload's own result check
      const std::string check = w->verify(gpu.image());
      if (!check.empty()) return fail("result check failed: " + check, 1);
      if (!quiet) std::cout << "result check: passed\n";
    }
    return 0;
  } catch (const ConfigError& e) {
    return fail(e.what(), 2);
#ifdef GPUSIM_VERILATED_L1
  } catch (const LockstepMismatch& e) {
    return fail(e.what(), 4);
#endif
  } catch (const std::exception& e) {
    return fail(std::string("internal: ") + e.what(), 1);
  }
}
