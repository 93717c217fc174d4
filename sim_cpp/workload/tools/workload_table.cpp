// workload-table: the suite table of docs/workloads.md. Runs every registered workload (or the
// ones named with --workload) through gpusim's GPU on one preset and policy (default: gtx480,
// baseline, --scale small), checks its result with Workload::verify() on the memory image the
// run leaves, and prints one Markdown row per workload: suite, regular / irregular,
// cache-sensitive, input, footprint, L1 miss rate, the occupancy of the run (CTAs, SMs that ran
// a CTA, mean resident warps per scheduler over busy cycles), kernel launches, cycles, L2 read
// hit rate, check. --update FILE replaces the table
// between the `<!-- workload-table:begin -->` and `<!-- workload-table:end -->` lines of FILE.
// Exit code 1 when a run does not complete, has a load-data mismatch or fails its check; 2 (one
// error line) for a bad option or file.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "common/config.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/policies.h"
#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/workload.h"

namespace {

using namespace l1d;
using namespace l1d::sim;

constexpr const char* kBegin = "<!-- workload-table:begin -->";
constexpr const char* kEnd = "<!-- workload-table:end -->";

std::string bytes_str(uint64_t b) {
  if (b >= (10u << 20)) return fmt::format("{:.0f} MB", static_cast<double>(b) / (1 << 20));
  if (b >= (1u << 20)) return fmt::format("{:.1f} MB", static_cast<double>(b) / (1 << 20));
  return fmt::format("{:.0f} KB", static_cast<double>(b) / 1024);
}

struct Row {
  std::string line;
  bool ok = false;
};

Row run_one(const std::string& name, const std::string& preset, const std::string& policy, WorkloadScale scale,
            const std::string& scale_name) {
  Config cfg = load_preset(preset);
  SimOptions opt;
  opt.controllers = apply_policy(cfg, policy);
  opt.workload_name = name;
  opt.scale_name = scale_name;
  Gpu gpu(cfg, opt);
  auto w = make_workload(name);
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult r = gpu.run(*w, scale);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const WorkloadInfo info = w->info();
  const auto* gen = dynamic_cast<const wl::GeneratedWorkload*>(w.get());
  const nlohmann::json stats = gpu.stats_json();
  const nlohmann::json& l1 = stats.at("l1");
  const nlohmann::json& occ = stats.at("occupancy");
  const auto ctas = occ.at("ctas").get<uint64_t>();
  const auto sms_used = occ.at("sms_used").get<uint32_t>();
  const auto resident = occ.at("resident_warps_per_scheduler_mean").get<double>();
  const auto l2_hit = stats.at("memory").at("l2_read_hit_rate").get<double>();
  const size_t launches = stats.at("result").at("kernels").size();
  const auto accesses = l1.at("accesses").get<uint64_t>(), misses = l1.at("misses").get<uint64_t>();
  std::string check;
  bool ok = true;
  if (r.stop != StopReason::kCompleted) {
    check = std::string("run stopped: ") + to_string(r.stop), ok = false;
  } else if (r.load_mismatches) {
    check = fmt::format("{} load-data mismatches", r.load_mismatches), ok = false;
  } else {
    check = w->verify(gpu.image());
    ok = check.empty();
    if (ok) check = "passed";
  }
  std::cerr << fmt::format("{:<14} {:>10} cycles {:>9} warp insts {:>6} CTAs {:>3} SMs {:5.1f} warps/sched  {:6.1f} s  {}\n",
                           name, r.cycles, r.warp_instructions, ctas, sms_used, resident, secs, check);
  Row row;
  row.ok = ok;
  row.line = fmt::format("| {} | {} | {} | {} | {}{} | {} | {:.1f} % | {} | {} | {:.1f} | {} | {} | {:.1f} % | {} |",
                         name, info.suite,
                         info.irregular ? "irregular" : "regular", info.cache_sensitive ? "yes" : "no", info.input,
                         info.input_format.empty() ? "" : " (or a " + info.input_format + " file)",
                         gen ? bytes_str(gen->footprint_bytes()) : "-",
                         accesses ? 100.0 * static_cast<double>(misses) / static_cast<double>(accesses) : 0.0, ctas,
                         sms_used, resident, launches, r.cycles, 100.0 * l2_hit, check);
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"workload-table: run every workload once and print the docs/workloads.md suite table"};
  std::string preset = "gtx480", policy = "baseline", scale = "small", update;
  std::vector<std::string> names;
  app.add_option("--preset", preset, "GPU preset")->capture_default_str();
  app.add_option("--policy", policy, "L1 policy")->capture_default_str();
  app.add_option("--scale", scale, "input size: test, small, full or paper")
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(kScaleNames), std::end(kScaleNames))))
      ->capture_default_str();
  app.add_option("--workload", names, "only these workloads (repeatable; default: all)");
  app.add_option("--update", update, "replace the table between the workload-table markers of this file");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {  // one line, as gpusim's
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  if (names.empty()) names = workload_names();
  const WorkloadScale sc = *parse_scale(scale);
  std::ostringstream table;
  table << "| workload | suite | access pattern | cache-sensitive | input (" << scale
        << ") | footprint | L1 miss rate (" << preset << ", " << policy
        << ") | CTAs | SMs used | resident warps / scheduler | kernel launches | cycles | L2 read hit rate | check |\n"
        << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  bool all_ok = true;
  try {
    for (const auto& n : names) {
      const Row r = run_one(n, preset, policy, sc, scale);
      all_ok = all_ok && r.ok;
      table << r.line << "\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  if (update.empty()) {
    std::cout << table.str();
    return all_ok ? 0 : 1;
  }
  std::ifstream in(update);
  if (!in) {
    std::cerr << "error: cannot read " << update << "\n";
    return 2;
  }
  std::stringstream whole;
  whole << in.rdbuf();
  const std::string text = whole.str();
  const auto b = text.find(kBegin), e = text.find(kEnd);
  if (b == std::string::npos || e == std::string::npos || e < b) {
    std::cerr << "error: " << update << " has no " << kBegin << " ... " << kEnd << " section\n";
    return 2;
  }
  const std::string out = text.substr(0, b) + kBegin + "\n" + table.str() + text.substr(e);
  std::ofstream(update) << out;
  return all_ok ? 0 : 1;
}
