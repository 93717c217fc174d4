// l1-golden-demo: drives golden::L1 with a built-in synthetic stream behind a random-latency
// memory, checks every load's data, and prints the L1's counters.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "common/config.h"
#include "golden/l1_testbench.h"

using namespace l1d;

namespace {

void print_counters(const golden::L1Counters& c, const golden::TestbenchResult& r, uint32_t g) {
  auto pct = [](uint64_t a, uint64_t b) { return b ? 100.0 * static_cast<double>(a) / static_cast<double>(b) : 0.0; };
  fmt::print("  cycles                {:>12}\n", c.cycles);
  fmt::print("  requests              {:>12}  (loads {}, stores {})\n", c.accesses, c.loads, c.stores);
  fmt::print("  hits                  {:>12}  ({:.1f} %)  by size 32/64/128: {}/{}/{}\n", c.hits, pct(c.hits, c.accesses),
             c.hits_by_size[0], c.hits_by_size[1], c.hits_by_size[2]);
  fmt::print("  misses                {:>12}  ({:.1f} %)  by size 32/64/128: {}/{}/{}\n", c.misses,
             pct(c.misses, c.accesses), c.misses_by_size[0], c.misses_by_size[1], c.misses_by_size[2]);
  fmt::print("  partial hits          {:>12}\n", c.partial_hits);
  fmt::print("  bypasses              {:>12}  (AGCB overrides by L2 bit: {})\n", c.bypasses, c.agcb_overrides);
  fmt::print("  MSHR merges           {:>12}\n", c.merges);
  fmt::print("  fills                 {:>12}  (allocated {})\n", c.fills, c.fills_allocated);
  fmt::print("  write-backs           {:>12}\n", c.writebacks);
  fmt::print("  granularity switches  {:>12}  (final G = {} B, flush cycles {})\n", c.granularity_switches, g,
             c.flush_cycles);
  fmt::print("  reservation failures  mshr_full {}, merge_full {}, mshr_conflict {}, miss_queue_full {}, line_alloc {}\n",
             c.res_fail[0], c.res_fail[1], c.res_fail[2], c.res_fail[3], c.res_fail[4]);
  fmt::print("  pending hits          {:>12}  widening reads {}\n", c.pending_hits, c.widening_reads);
  fmt::print("  loads checked         {:>12}  data mismatches {}{}\n", r.loads_checked, r.data_mismatches,
             r.drained ? "" : "  (NOT DRAINED)");
}

// One row per policy: the numbers a quick comparison needs. no-alloc% is the share of fills
// that did not allocate (every bypass kind, including AgeLRU's fill-time bypass).
int run_table(const Config& base, const std::vector<std::string>& policies, const std::string& stream,
              uint64_t requests, uint64_t seed) {
  fmt::print("{} L1 {} KB {}-way, stream {} x {} requests, seed {}\n\n", base.name, base.l1.size_bytes / 1024,
             base.l1.ways, stream, requests, seed);
  fmt::print("{:<18} {:>9} {:>7} {:>8} {:>8} {:>9} {:>9} {:>8} {:>10}\n", "policy", "cycles", "hit %", "partial",
             "no-alloc%", "G switch", "wbacks", "res.fail", "mismatches");
  int status = 0;
  for (const std::string& name : policies) {
    Config cfg = base;
    apply_policy_preset(cfg, name);
    golden::L1Testbench tb(cfg, golden::MemoryModel{}, seed);
    const golden::TestbenchResult r = tb.run(golden::make_stream(stream, cfg), requests);
    const golden::L1Counters& c = tb.l1().counters();
    uint64_t fails = 0;
    for (uint64_t f : c.res_fail) fails += f;
    const double n = static_cast<double>(std::max<uint64_t>(c.accesses, 1));
    fmt::print("{:<18} {:>9} {:>7.1f} {:>8} {:>8.1f} {:>9} {:>9} {:>8} {:>10}{}\n", name, c.cycles,
               100.0 * static_cast<double>(c.hits) / n, c.partial_hits,
               100.0 * static_cast<double>(c.fills - c.fills_allocated) / static_cast<double>(std::max<uint64_t>(c.fills, 1)),
               c.granularity_switches, c.writebacks, fails, r.data_mismatches, r.drained ? "" : "  STUCK");
    if (r.data_mismatches || !r.drained) status = 1;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Drive the golden L1 model with a synthetic request stream and print its counters.\n"
               "Every load's data is checked against a shadow memory; exit 1 on a mismatch or a stuck request,\n"
               "exit 2 on a bad configuration."};
  std::string preset = "gtx480", config_file, policy = "baseline", policy_file, stream = "mixed";
  uint64_t requests = 200000, seed = 1;
  auto* p = app.add_option("--preset", preset, "GPU preset: configs/NAME.yaml")->capture_default_str();
  app.add_option("--config", config_file, "any YAML file of the preset schema (instead of --preset)")->excludes(p);
  auto* pol = app.add_option("--policy", policy, "policy preset: configs/policies/NAME.yaml")->capture_default_str();
  app.add_option("--policy-file", policy_file, "a policy YAML file (instead of --policy)")->excludes(pol);
  app.add_option("--stream", stream, "synthetic stream: " + fmt::format("{}", fmt::join(l1d::golden::stream_names(), ", ")))
      ->capture_default_str();
  app.add_option("--requests", requests, "requests to send")->capture_default_str()->check(CLI::Range(1ull, 1ull << 40));
  app.add_option("--seed", seed, "random seed (stream, memory latency)")->capture_default_str();
  bool list = false;
  app.add_flag("--list", list, "list presets, policies and streams, then exit");
  std::vector<std::string> table_policies;
  app.add_option("--table", table_policies,
                 "run each of these policy presets and print one table row per policy instead of the counters")
      ->delimiter(',');
  CLI11_PARSE(app, argc, argv);

  try {
    if (list) {
      for (const auto& n : list_presets()) fmt::print("preset {}\n", n);
      for (const auto& n : list_policy_presets()) fmt::print("policy {}\n", n);
      for (const auto& n : golden::stream_names()) fmt::print("stream {}\n", n);
      return 0;
    }
    if (!table_policies.empty()) return run_table(config_file.empty() ? load_preset(preset) : load_config_file(config_file),
                                                  table_policies, stream, requests, seed);
    Config cfg = config_file.empty() ? load_preset(preset) : load_config_file(config_file);
    if (!policy_file.empty()) apply_policy_file(cfg, policy_file);
    else if (config_file.empty() || app.count("--policy")) apply_policy_preset(cfg, policy);  // else the file's own
    golden::RequestSource source = golden::make_stream(stream, cfg);

    fmt::print("l1-golden-demo: {} L1 {} KB {}-way ({} sets), policy {} (replacement {}, bypass {}, granularity {}{})\n",
               cfg.name, cfg.l1.size_bytes / 1024, cfg.l1.ways, cfg.l1.sets(), cfg.policy.name,
               to_string(cfg.policy.replacement), to_string(cfg.policy.bypass), to_string(cfg.policy.granularity),
               cfg.policy.bto ? ", BTO" : "");
    fmt::print("stream {} x {} requests, seed {}\n", stream, requests, seed);
    golden::L1Testbench tb(cfg, golden::MemoryModel{}, seed);
    const golden::TestbenchResult r = tb.run(source, requests);
    print_counters(tb.l1().counters(), r, tb.l1().granularity());
    if (r.data_mismatches) {
      fmt::print(stderr, "error: {}\n", r.first_mismatch);
      return 1;
    }
    if (!r.drained) {
      fmt::print(stderr, "error: requests stuck after the stream ended:\n{}", tb.l1().describe_state());
      return 1;
    }
    return 0;
  } catch (const ConfigError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  }
}
