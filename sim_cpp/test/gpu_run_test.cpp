// The GPU level: watchdog on an injected stuck request, deterministic statistics, the stop
// conditions, CTA dispatch, policy aliases and controller selection.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/config.h"
#include "sim_cpp/core/memory_port.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/policies.h"
#include "sim_cpp/gpu/scripted_workload.h"

namespace l1d::sim {
namespace {

using scripted::Program;

// One kernel of `ctas` CTAs x 4 warps: each warp loads 8 lines its CTA shares (merges, hits),
// stores one line of its own and loads 8 lines of its own.
scripted::KernelSpec streaming_kernel(uint32_t ctas) {
  scripted::KernelSpec k;
  k.name = "stream";
  k.grid = {ctas, 4};
  k.body = [](uint32_t cta, uint32_t w) {
    const Addr base = 0x1000000 + Addr{cta} * 0x4000;
    const auto strided = [](Addr b) { return [b](uint32_t l) { return b + Addr{l % 8} * 128 + (l / 8) * 4; }; };
    Program p;
    p.push_back(scripted::load(0x100, strided(base)));
    p.push_back(scripted::alu(4));
    p.push_back(scripted::store(0x108, [base, w](uint32_t l) { return base + 0x2000 + w * 128 + l * 4; },
                                [cta, w](uint32_t l) { return cta * 1000 + w * 100 + l; }));
    p.push_back(scripted::load(0x110, strided(base + 0x1000 + w * 1024)));
    p.push_back(scripted::exit());
    return p;
  };
  return k;
}

scripted::ScriptedWorkload streaming(uint32_t ctas) { return scripted::ScriptedWorkload({streaming_kernel(ctas)}); }

// The progress line names the running launch of how many (gc at paper scale: its Jones-Plassmann
// rounds, which init() computes), counting from 1, on one line.
TEST(GpuRun, ProgressLineSaysWhichKernelOfHowMany) {
  EXPECT_EQ(progress_text(340000000, 212, 437, 102000000, 1250.0),
            "gpusim: cycle 340000000, kernel 213 of 437, 102000000 warp instructions, IPC 0.300, 272 k cycles/s");
  EXPECT_EQ(progress_text(0, 0, 1, 0, 0.0), "gpusim: cycle 0, kernel 1 of 1, 0 warp instructions, IPC 0.000, 0 k cycles/s");
}

TEST(GpuRun, WatchdogStopsARunWithAStuckRequestAndSaysWhereItSits) {
  Config cfg = load_preset("gtx480");
  SimOptions opt;
  opt.watchdog = 3000;
  Gpu gpu(cfg, opt, {}, [](const Config& c, FunctionalMemory& img) {
    return make_dropping_memory(make_memory_port(c, img), 5);
  });
  auto w = streaming(30);
  const RunResult r = gpu.run(w, WorkloadScale::kTest);
  ASSERT_EQ(r.stop, StopReason::kWatchdog);
  EXPECT_LT(r.cycles, 20000u);
  EXPECT_NE(r.watchdog_report.find("no progress for 3000 cycles"), std::string::npos);
  EXPECT_NE(r.watchdog_report.find("dropped response #5"), std::string::npos) << r.watchdog_report;
  EXPECT_NE(r.watchdog_report.find("waiting for memory"), std::string::npos) << r.watchdog_report;  // the MSHR
  EXPECT_NE(r.watchdog_report.find("waits for"), std::string::npos) << r.watchdog_report;           // the warp
  EXPECT_NE(r.watchdog_report.find("requests awaiting an L1 response: "), std::string::npos);      // the LDST unit
  EXPECT_NE(r.watchdog_report.find("memory system"), std::string::npos);
  EXPECT_EQ(gpu.stats_json()["result"]["stop"], "watchdog");
}

TEST(GpuRun, CompletesWithoutTheFaultAndChecksEveryLoad) {
  Config cfg = load_preset("gtx480");
  Gpu gpu(cfg, {});
  auto w = streaming(30);
  const RunResult r = gpu.run(w, WorkloadScale::kTest);
  ASSERT_EQ(r.stop, StopReason::kCompleted);
  EXPECT_EQ(r.load_mismatches, 0u) << r.first_mismatch;
  EXPECT_EQ(r.warp_instructions, 30u * 4 * 5);
  EXPECT_GT(r.loads_checked, 0u);
  // Every CTA ran, round robin over the 15 SMs: two each.
  for (uint32_t s = 0; s < 15; ++s) EXPECT_EQ(gpu.sm(s).stats().ctas, 2u);
  // The kernel-end flush wrote the stores back: the memory image holds them.
  EXPECT_EQ(gpu.image().read<uint32_t>(0x1000000 + 7 * 0x4000 + 0x2000 + 3 * 128 + 5 * 4), 7u * 1000 + 300 + 5);
  EXPECT_TRUE(gpu.memory().idle());
  for (uint32_t s = 0; s < 15; ++s) EXPECT_TRUE(gpu.sm(s).l1().idle());
}

TEST(GpuRun, SameSeedGivesByteIdenticalStatistics) {
  for (const std::string policy : {"combined", "dynamic-agelru"}) {
    std::string dumps[2];
    for (auto& d : dumps) {
      Config cfg = load_preset("gtx480");
      SimOptions opt;
      opt.controllers = apply_policy(cfg, policy);
      opt.controller.window = 500;
      Gpu gpu(cfg, opt);
      auto w = streaming(45);
      ASSERT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
      d = gpu.stats_json().dump(2);
    }
    EXPECT_EQ(dumps[0], dumps[1]) << policy;
    EXPECT_EQ(dumps[0].find("wall"), std::string::npos);
  }
}

TEST(GpuRun, MaxCyclesStopsTheRun) {
  Config cfg = load_preset("gtx480");
  SimOptions opt;
  opt.max_cycles = 300;
  Gpu gpu(cfg, opt);
  auto w = streaming(30);
  const RunResult r = gpu.run(w, WorkloadScale::kTest);
  EXPECT_EQ(r.stop, StopReason::kMaxCycles);
  EXPECT_EQ(r.cycles, 300u);
}

TEST(GpuRun, CtasWaitForFreeWarpSlots) {
  Config cfg = load_preset("gtx480");
  cfg.core.num_sms = 2;
  cfg.core.warps_per_sm = 8;  // two 4-warp CTAs per SM at a time
  Gpu gpu(cfg, {});
  uint32_t max_live[2] = {0, 0};
  gpu.set_issue_observer([&](uint32_t sm, uint64_t, uint32_t, const WarpInst&) {
    max_live[sm] = std::max(max_live[sm], gpu.sm(sm).resident_warps());
  });
  auto w = streaming(9);
  ASSERT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
  EXPECT_EQ(gpu.sm(0).stats().ctas + gpu.sm(1).stats().ctas, 9u);
  EXPECT_LE(max_live[0], 8u);
  EXPECT_EQ(max_live[0], 8u);
}

TEST(GpuRun, PolicyAliasesAddTheirController) {
  Config cfg = load_preset("gtx480");
  EXPECT_EQ(apply_policy(cfg, "dynamic-agelru"), std::vector<std::string>{"dynamic-agelru"});
  EXPECT_EQ(cfg.policy.replacement, ReplacementKind::kAgeLru);
  EXPECT_EQ(cfg.policy.name, "dynamic-agelru");
  EXPECT_EQ(apply_policy(cfg, "dynamic-pcal"), std::vector<std::string>{"dynamic-pcal"});
  EXPECT_EQ(cfg.policy.bypass, BypassKind::kPcal);
  EXPECT_TRUE(apply_policy(cfg, "baseline").empty());
  EXPECT_THROW(apply_policy(cfg, "no-such-policy"), ConfigError);
  const auto names = policy_names();
  for (const char* n : {"baseline", "dycache", "agcb", "two-level", "pcal", "agelru", "bip", "combined",
                        "dynamic-agelru", "dynamic-pcal"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
}

TEST(GpuRun, BadOptionsAreConfigErrors) {
  Config cfg = load_preset("gtx480");
  SimOptions opt;
  opt.controllers = {"dynamic-pcal"};  // baseline has no PCAL
  EXPECT_THROW(Gpu(cfg, opt), ConfigError);
  opt.controllers = {"dynamic-agelru"};
  EXPECT_THROW(Gpu(cfg, opt), ConfigError);
  opt.controllers = {"no-such-controller"};
  EXPECT_THROW(Gpu(cfg, opt), ConfigError);
  opt.controllers = {};
  opt.scheduler = "fifo";
  EXPECT_THROW(Gpu(cfg, opt), ConfigError);
  opt.scheduler = "two-level";
  EXPECT_NO_THROW(Gpu(cfg, opt));
}

TEST(GpuRun, DefaultPcalEbtGivesAThirdOfTheWarpsTokens) {
  EXPECT_EQ(default_pcal_ebt(24), -16);
  EXPECT_EQ(default_pcal_ebt(8), -6);
  EXPECT_EQ(default_pcal_ebt(1), 0);
}

TEST(GpuRun, DynamicControllersRunAndDecide) {
  for (const std::string policy : {"dynamic-pcal", "dynamic-agelru"}) {
    Config cfg = load_preset("gtx480");
    SimOptions opt;
    opt.controllers = apply_policy(cfg, policy);
    opt.controller.window = 300;
    Gpu gpu(cfg, opt);
    auto w = streaming(120);
    const RunResult r = gpu.run(w, WorkloadScale::kTest);
    ASSERT_EQ(r.stop, StopReason::kCompleted) << policy;
    EXPECT_EQ(r.load_mismatches, 0u) << policy;
    const auto report = gpu.stats_json()["controllers"][policy];
    EXPECT_GT(report["decisions"].get<uint64_t>(), 1u) << policy << report.dump();
  }
}

// Launches of one short kernel (as CFD's 2.7 K-cycle kernels against a 10 K-cycle window): a
// window longer than any launch completes only when what the runtime controllers and the
// two-level unit sample runs on across launches (policy *.keep_across_launches).
constexpr uint32_t kShortLaunches = 12;
scripted::ScriptedWorkload short_launches() {
  return scripted::ScriptedWorkload(std::vector<scripted::KernelSpec>(kShortLaunches, streaming_kernel(30)));
}

// Runs short_launches() on gtx480 with policy, keep_across_launches = keep and a window of
// `window` cycles (the controllers' and the two-level unit's); returns the statistics.
nlohmann::json run_short_launches(const std::string& policy, bool keep, uint32_t window) {
  Config cfg = load_preset("gtx480");
  SimOptions opt;
  opt.controllers = apply_policy(cfg, policy);
  cfg.policy.pcal.keep_across_launches = cfg.policy.agelru.keep_across_launches = keep;
  cfg.policy.two_level.keep_across_launches = keep;
  cfg.policy.two_level.window_cycles = window;
  cfg.policy.two_level.th_low = cfg.policy.two_level.th_high = 0;  // any miss in a window: B mode
  opt.controller.window = window;
  Gpu gpu(cfg, opt);
  auto w = short_launches();
  EXPECT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted) << policy;
  return gpu.stats_json();
}

// One more cycle than the longest launch takes with no window ever closing (the policy as it
// starts: a window of a million cycles).
uint32_t window_beyond_longest_launch(const std::string& policy) {
  uint64_t longest = 0;
  const nlohmann::json stats = run_short_launches(policy, false, 1'000'000);
  for (const auto& k : stats["result"]["kernels"]) longest = std::max(longest, k["cycles"].get<uint64_t>());
  EXPECT_GT(longest, 0u) << policy;
  EXPECT_LT(longest, 1'000'000u) << policy;
  return static_cast<uint32_t>(longest + 1);
}

TEST(GpuRun, DynamicControllersFinishWindowsAcrossShortLaunchesOnlyWhenKept) {
  for (const std::string policy : {"dynamic-pcal", "dynamic-agelru"}) {
    const uint32_t window = window_beyond_longest_launch(policy);
    for (const bool keep : {false, true}) {
      const auto log = run_short_launches(policy, keep, window)["controllers"][policy]["log"];
      const auto windows = std::count_if(log.begin(), log.end(), [](const auto& e) { return e.contains("window"); });
      const auto kept = std::count_if(log.begin(), log.end(),
                                      [](const auto& e) { return e["event"] == "kernel start: state kept"; });
      EXPECT_EQ(kept, keep ? kShortLaunches - 1 : 0) << policy;
      if (keep)
        EXPECT_GT(windows, 0) << policy << log.dump();
      else
        EXPECT_EQ(windows, 0) << policy << log.dump();
    }
  }
}

TEST(GpuRun, TwoLevelDecidesAcrossShortLaunchesOnlyWhenKept) {
  const uint32_t window = window_beyond_longest_launch("two-level");
  EXPECT_EQ(run_short_launches("two-level", false, window)["l1"]["bypasses"].get<uint64_t>(), 0u);
  EXPECT_GT(run_short_launches("two-level", true, window)["l1"]["bypasses"].get<uint64_t>(), 0u);
}

// Two SMs write different bytes of one 32 B sector in one kernel; SM 0 also holds the line
// (it read it) and store-hits it. Its kernel-end write-back must carry only the bytes it
// wrote (per-byte dirty masks), so SM 1's bytes survive and the next kernel reads both.
TEST(GpuRun, CrossSmWritesToOneSectorSurviveWriteBack) {
  Config cfg = load_preset("gtx480");
  cfg.core.num_sms = 2;
  Gpu gpu(cfg, {});
  const Addr line = 0x10000000;
  scripted::KernelSpec k1{"writers", {2, 1}, [line](uint32_t cta, uint32_t) {
    if (cta == 0)
      return Program{scripted::load(0x100, [line](uint32_t) { return line; }, 4, 1), scripted::alu(500),
                     scripted::store(0x108, [line](uint32_t) { return line + 4; }, [](uint32_t) { return 0x11111111u; }, 4, 1),
                     scripted::exit()};
    return Program{scripted::store(0x110, [line](uint32_t) { return line + 8; }, [](uint32_t) { return 0x22222222u; }, 4, 1),
                   scripted::exit()};
  }};
  scripted::KernelSpec k2{"reader", {1, 1}, [line](uint32_t, uint32_t) {
    return Program{scripted::load(0x200, [line](uint32_t l) { return line + l * 4; }), scripted::exit()};
  }};
  scripted::ScriptedWorkload w({k1, k2});
  const RunResult r = gpu.run(w, WorkloadScale::kTest);
  ASSERT_EQ(r.stop, StopReason::kCompleted);
  EXPECT_EQ(r.load_mismatches, 0u) << r.first_mismatch;
  EXPECT_EQ(gpu.image().read<uint32_t>(line + 4), 0x11111111u);
  EXPECT_EQ(gpu.image().read<uint32_t>(line + 8), 0x22222222u);
}

}  // namespace
}  // namespace l1d::sim
