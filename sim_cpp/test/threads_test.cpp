// gpusim --threads (SimOptions::threads, docs/performance.md): the SMs' cycles run on several
// threads with statistics identical to one thread, byte for byte, on workloads whose SMs share
// lines (merges across SMs, stores, graph rounds) and under runtime controllers; the options
// that cannot run threaded are refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/config.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/policies.h"
#include "sim_cpp/workload/workload.h"

namespace l1d::sim {
namespace {

std::string run_stats(const std::string& preset, const std::string& workload, const std::string& policy,
                      unsigned threads) {
  Config cfg = load_preset(preset);
  SimOptions opt;
  opt.controllers = apply_policy(cfg, policy);
  opt.threads = threads;
  opt.parallel_min_sms = 2;  // every cycle with two clocked SMs runs in parallel
  Gpu gpu(cfg, opt);
  auto w = make_workload(workload);
  const RunResult r = gpu.run(*w, WorkloadScale::kTest);
  EXPECT_EQ(r.stop, StopReason::kCompleted) << workload << " " << policy << " threads " << threads;
  EXPECT_EQ(r.load_mismatches, 0u);
  // "Really used": over 5 % of the cycles ran the SMs on the threads (gtx1080-jips atax: 9.97 %, a
  // test-scale run with few CTAs; 0 would mean the threads never ran). Of the cycles ticked: a
  // skipped cycle (SimOptions::cycle_skip) runs on no thread.
  if (threads > 1) {
    EXPECT_GT(gpu.parallel_cycles(), (r.cycles - gpu.skipped_cycles()) / 20)
        << workload << ": the threads were hardly used";
  }
  return gpu.stats_json().dump();
}

struct Point {
  const char* preset;
  const char* workload;
  const char* policy;
};

TEST(GpuThreads, StatisticsAreIdenticalForOneTwoAndThreeThreads) {
  const Point points[] = {{"gtx480", "bfs", "baseline"},
                          {"gtx480", "kmeans", "dynamic-pcal"},
                          {"gtx1080", "streamcluster", "two-level"},
                          {"gtx480-gpgpusim", "backprop", "agelru-bypass-bto"},
                          {"gtx1080-jips", "atax", "two-level"}};  // before-tag pipe, 11012 direct loads
  for (const Point& p : points) {
    const std::string one = run_stats(p.preset, p.workload, p.policy, 1);
    for (unsigned t : {2u, 3u})
      EXPECT_EQ(run_stats(p.preset, p.workload, p.policy, t), one)
          << p.preset << " " << p.workload << " " << p.policy << ": " << t << " threads differ from one";
  }
}

TEST(GpuThreads, RefusesZeroThreadsAndANonGoldenL1) {
  const Config cfg = load_preset("gtx480");
  SimOptions zero;
  zero.threads = 0;
  EXPECT_THROW(Gpu(cfg, zero), ConfigError);
  SimOptions verilated;
  verilated.threads = 2;
  verilated.l1 = "verilated";
  try {
    Gpu gpu(cfg, verilated, [](const Config& c, uint32_t) { return make_golden_l1(c); });
    FAIL() << "--threads 2 with a non-golden L1 was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("--threads: value 2 not allowed with --l1 verilated"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace l1d::sim
