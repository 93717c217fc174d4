// core.kernel_launch_cycles: the GPU waits that many cycles before each kernel's first CTA
// (Accel-Sim's -gpgpu_kernel_launch_latency), counted in the kernel's cycles.
#include <gtest/gtest.h>

#include <vector>

#include "common/config.h"
#include "sim_cpp/core/memory_port.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/scripted_workload.h"

namespace l1d::sim {
namespace {

using scripted::Program;

// Two kernels of 2 CTAs x 2 warps: a load, an ALU instruction, exit.
scripted::ScriptedWorkload two_kernels() {
  const auto body = [](Addr base) {
    return [base](uint32_t cta, uint32_t w) {
      const Addr a = base + Addr{cta} * 0x1000 + Addr{w} * 0x100;
      return Program{scripted::load(0x100, [a](uint32_t l) { return a + l * 4; }), scripted::alu(4), scripted::exit()};
    };
  };
  scripted::KernelSpec k0{"first", {2, 2}, body(0x100000)};
  scripted::KernelSpec k1{"second", {2, 2}, body(0x200000)};
  return scripted::ScriptedWorkload({k0, k1});
}

struct LaunchRun {
  RunResult result;
  std::vector<uint64_t> issue_cycles;  // every issued instruction's cycle
};

LaunchRun run(uint32_t launch_cycles, bool real_memory) {
  Config cfg = load_preset("gtx480");
  cfg.core.num_sms = 2;
  cfg.core.kernel_launch_cycles = launch_cycles;
  MemoryFactory mem;
  if (!real_memory)
    mem = [](const Config& c, FunctionalMemory& img) { return make_fixed_latency_memory(c.core.num_sms, img, 50); };
  Gpu gpu(cfg, {}, {}, mem);
  LaunchRun r;
  gpu.set_issue_observer([&](uint32_t, uint64_t c, uint32_t, const WarpInst&) { r.issue_cycles.push_back(c); });
  auto w = two_kernels();
  r.result = gpu.run(w, WorkloadScale::kTest);
  return r;
}

TEST(KernelLaunch, EveryKernelStartsLaunchCyclesLater) {
  const LaunchRun base = run(0, false);
  const LaunchRun late = run(1000, false);
  ASSERT_EQ(base.result.stop, StopReason::kCompleted);
  ASSERT_EQ(late.result.stop, StopReason::kCompleted);
  EXPECT_EQ(late.result.load_mismatches, 0u);
  ASSERT_EQ(base.issue_cycles.size(), late.issue_cycles.size());
  ASSERT_FALSE(base.issue_cycles.empty());
  // The first issue is delayed by exactly the launch overhead; with an ideal memory the whole run
  // is the same shifted by one overhead per kernel.
  EXPECT_EQ(late.issue_cycles.front(), base.issue_cycles.front() + 1000);
  EXPECT_EQ(late.result.cycles, base.result.cycles + 2 * 1000);
  const size_t per_kernel = base.issue_cycles.size() / 2;
  for (size_t i = 0; i < base.issue_cycles.size(); ++i)
    EXPECT_EQ(late.issue_cycles[i], base.issue_cycles[i] + (i < per_kernel ? 1000 : 2000)) << i;
}

TEST(KernelLaunch, ZeroIsTodayAndALongWaitIsNotAWatchdogStall) {
  // With the real memory system too; a wait longer than the watchdog's window does not stop the run.
  const LaunchRun base = run(0, true);
  const LaunchRun late = run(150000, true);
  ASSERT_EQ(base.result.stop, StopReason::kCompleted);
  ASSERT_EQ(late.result.stop, StopReason::kCompleted) << late.result.watchdog_report;
  EXPECT_EQ(late.issue_cycles.front(), base.issue_cycles.front() + 150000);
  EXPECT_GE(late.result.cycles, base.result.cycles + 2 * 150000);
  EXPECT_EQ(late.result.load_mismatches, 0u);
}

}  // namespace
}  // namespace l1d::sim
