// l1.carveout adaptive (docs/simulator.md "L1 carveout"): each kernel's L1 is what its shared memory
// leaves of the unified array, taken at the kernel's start; kernels[].l1_bytes reports it; the
// resized L1 really holds that much; the result does not depend on --threads; the SM's resize
// meets an empty L1 also with the before-tag pipe and kernel-end invalidation (qv100-accelsim).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "common/config.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/scripted_workload.h"
#include "sim_cpp/workload/workload.h"

namespace l1d::sim {
namespace {

using scripted::Program;

constexpr uint32_t kWarps = 4, kLinesPerWarp = 128;  // 512 lines = 64 KB per kernel

// One CTA of 4 warps; each warp loads its 128 lines (one 128 B line per instruction) twice. 64 KB
// fit a 128 KB L1 (16 sets x 64 ways: 32 lines per set) but thrash a 32 KB one (4 sets: 128 lines
// per set of 64 ways, LRU): the second pass hits every line or almost none.
scripted::KernelSpec two_passes(const std::string& name, uint64_t shared_bytes, Addr base) {
  scripted::KernelSpec k;
  k.name = name;
  k.grid = {1, kWarps};
  k.shared_bytes = shared_bytes;
  k.body = [base](uint32_t, uint32_t w) {
    Program p;
    for (int pass = 0; pass < 2; ++pass)
      for (uint32_t i = 0; i < kLinesPerWarp; ++i) {
        const Addr line = base + (Addr{i} * kWarps + w) * 128;
        p.push_back(scripted::load(0x100 + 8 * i, [line](uint32_t l) { return line + l * 4; }));
      }
    p.push_back(scripted::exit());
    return p;
  };
  return k;
}

Config one_sm(const std::string& preset) {
  Config cfg = load_preset(preset);
  cfg.core.num_sms = 1;
  return cfg;
}

nlohmann::json run_stats(const Config& cfg, std::vector<scripted::KernelSpec> kernels, unsigned threads = 1) {
  SimOptions opt;
  opt.threads = threads;
  opt.parallel_min_sms = 2;
  Gpu gpu(cfg, opt);
  scripted::ScriptedWorkload w(std::move(kernels));
  const RunResult r = gpu.run(w, WorkloadScale::kTest);
  EXPECT_EQ(r.stop, StopReason::kCompleted) << r.watchdog_report;
  EXPECT_EQ(r.load_mismatches, 0u) << r.first_mismatch;
  return gpu.stats_json();
}

// qv100: 128 KB unified, options 0, 8, 16, 32, 64, 96 KB, 64 ways.
TEST(Carveout, KernelsGetTheL1TheirSharedMemoryLeaves) {
  // CTAs per SM: 64 warp slots / 4 = 16, and at most 96 KB / per-CTA shared memory.
  const nlohmann::json s = run_stats(one_sm("qv100"), {two_passes("none", 0, 0x100000),
                                                      two_passes("huge", 96 * 1024, 0x200000),  // 1 CTA: 96 KB
                                                      two_passes("some", 1024, 0x300000),       // 16 KB
                                                      two_passes("none", 0, 0x400000)});
  const nlohmann::json& k = s.at("result").at("kernels");
  ASSERT_EQ(k.size(), 4u);
  const uint32_t expect_bytes[] = {131072, 32768, 65536, 131072};
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(k[i].at("l1_bytes").get<uint32_t>(), expect_bytes[i]) << i;
  const uint64_t lines = kWarps * kLinesPerWarp;
  EXPECT_EQ(k[0].at("l1").at("hits").get<uint64_t>(), lines);  // 128 KB: the whole second pass hits
  EXPECT_LT(k[1].at("l1").at("hits").get<uint64_t>(), lines / 10);  // 32 KB: it thrashes
  EXPECT_EQ(k[2].at("l1").at("hits").get<uint64_t>(), lines);  // 64 KB: 8 sets x 64 ways hold 512 lines
  EXPECT_EQ(k[3].at("l1").at("hits").get<uint64_t>(), lines);
}

TEST(Carveout, FixedCarveoutKeepsSizeBytesWhateverTheSharedMemory) {
  Config cfg = one_sm("qv100");
  cfg.l1.carveout = Carveout::kFixed;
  const nlohmann::json s = run_stats(cfg, {two_passes("none", 0, 0x100000), two_passes("huge", 96 * 1024, 0x200000)});
  for (const nlohmann::json& k : s.at("result").at("kernels")) {
    EXPECT_EQ(k.at("l1_bytes").get<uint32_t>(), 32768u);
    EXPECT_LT(k.at("l1").at("hits").get<uint64_t>(), kWarps * kLinesPerWarp / 10);
  }
}

TEST(Carveout, SummaryNamesEachKernelsCarveout) {
  Gpu gpu(one_sm("qv100"), {});
  scripted::ScriptedWorkload w({two_passes("none", 0, 0x100000), two_passes("huge", 96 * 1024, 0x200000),
                                two_passes("none", 0, 0x300000)});
  ASSERT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
  EXPECT_NE(gpu.summary().find("L1 carveout: kernel none 128 KB (shared 0 KB) x 2; kernel huge 32 KB (shared 96 KB)\n"),
            std::string::npos)
      << gpu.summary();
  Gpu fixed(one_sm("gtx480"), {});
  scripted::ScriptedWorkload w2({two_passes("none", 0, 0x100000)});
  ASSERT_EQ(fixed.run(w2, WorkloadScale::kTest).stop, StopReason::kCompleted);
  EXPECT_EQ(fixed.summary().find("L1 carveout"), std::string::npos);
  EXPECT_EQ(fixed.stats_json().at("result").at("kernels")[0].at("l1_bytes").get<uint32_t>(), 16384u);
}

TEST(Carveout, SharedMemoryBeyondTheLargestOptionIsAConfigError) {
  Gpu gpu(one_sm("qv100"), {});
  scripted::ScriptedWorkload w({two_passes("toobig", 96 * 1024 + 1, 0x100000)});
  try {
    gpu.run(w, WorkloadScale::kTest);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "kernel toobig: 98305 B of shared memory per CTA exceed the largest l1.shared_options_kb option (96 KB) "
              "of preset qv100");
  }
}

// qv100-accelsim: before-tag pipe, kernel-end invalidate, direct bypass path; two SMs on the
// threads. Alternating sizes resize at every kernel start; the run is that of one thread.
TEST(Carveout, ResizeUnderThePipeAndThreadsGivesTheSameRun) {
  Config cfg = load_preset("qv100-accelsim");
  cfg.core.num_sms = 2;
  const auto kernels = [] {
    std::vector<scripted::KernelSpec> v;
    for (uint32_t i = 0; i < 4; ++i) {
      scripted::KernelSpec k = two_passes(i % 2 ? "huge" : "none", i % 2 ? 96 * 1024 : 0, 0x100000 * (i + 1));
      k.grid.ctas = 2;
      v.push_back(k);
    }
    return v;
  };
  const nlohmann::json one = run_stats(cfg, kernels(), 1);
  const nlohmann::json& k = one.at("result").at("kernels");
  ASSERT_EQ(k.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(k[i].at("l1_bytes").get<uint32_t>(), i % 2 ? 32768u : 131072u) << i;
  EXPECT_EQ(run_stats(cfg, kernels(), 2).dump(), one.dump());
}

}  // namespace
}  // namespace l1d::sim
