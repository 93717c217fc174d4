// Occupancy statistics (`occupancy` in --stats, issue 21): CTAs, SMs used, resident warps per
// scheduler (mean and max over busy cycles) and the two-level paper's active-warp occupancy, on
// constructed ALU-only kernels whose residency is known in advance.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/config.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/scripted_workload.h"

namespace l1d::sim {
namespace {

// `ctas` CTAs of `warps` warps; every warp waits `latency` cycles on one ALU instruction and exits,
// so all warps of a CTA stay resident together for about `latency` cycles.
scripted::ScriptedWorkload alu_only(uint32_t ctas, uint32_t warps, uint32_t latency) {
  scripted::KernelSpec k;
  k.name = "alu";
  k.grid = {ctas, warps};
  k.body = [latency](uint32_t, uint32_t) { return scripted::Program{scripted::alu(latency), scripted::exit()}; };
  return scripted::ScriptedWorkload({k});
}

Config small_gpu() {
  Config cfg = load_preset("gtx480");
  cfg.core.num_sms = 4;
  cfg.core.warps_per_sm = 8;  // 4 warp slots per scheduler (2 schedulers)
  return cfg;
}

TEST(Occupancy, CountsCtasSmsAndResidentWarps) {
  // 5 CTAs x 4 warps on 4 SMs of 8 slots: the block scheduler gives SMs 0-3 one CTA each in the
  // first cycle and SM 0 the fifth in the next (it still has 4 free slots). SM 0 then holds 8
  // warps (4 per scheduler: slot w is on scheduler w mod 2), the others 4 (2 per scheduler).
  const Config cfg = small_gpu();
  Gpu gpu(cfg, {});
  auto w = alu_only(5, 4, 2000);
  ASSERT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
  const nlohmann::json o = gpu.stats_json().at("occupancy");
  EXPECT_EQ(o.at("ctas").get<uint64_t>(), 5u);
  EXPECT_EQ(o.at("sms_used").get<uint32_t>(), 4u);
  EXPECT_EQ(o.at("resident_warps_per_scheduler_max").get<uint32_t>(), 4u);
  const nlohmann::json& sm = o.at("per_sm");
  ASSERT_EQ(sm.size(), 4u);
  EXPECT_EQ(sm[0].at("ctas").get<uint64_t>(), 2u);
  EXPECT_EQ(sm[0].at("resident_warps_per_scheduler_max").get<uint32_t>(), 4u);
  for (int i = 1; i < 4; ++i) {
    EXPECT_EQ(sm[i].at("ctas").get<uint64_t>(), 1u);
    EXPECT_EQ(sm[i].at("resident_warps_per_scheduler_max").get<uint32_t>(), 2u);
  }
  // The warps launch one per cycle and exit a few cycles apart: outside those few ramp cycles of
  // the ~2000 busy cycles every warp is resident, so the means sit just under 4 and 2.
  const double m0 = sm[0].at("resident_warps_per_scheduler_mean").get<double>();
  EXPECT_GT(m0, 3.95);
  EXPECT_LE(m0, 4.0);
  const double m1 = sm[1].at("resident_warps_per_scheduler_mean").get<double>();
  EXPECT_GT(m1, 1.98);
  EXPECT_LE(m1, 2.0);
  // GPU-wide: weighted by busy cycles (about equal here), so about (4 + 3 x 2) / 4 = 2.5.
  EXPECT_NEAR(o.at("resident_warps_per_scheduler_mean").get<double>(), 2.5, 0.02);
  // Active warps (valid i-buffer) over the 8 slots: all of SM 0's, half of the others'.
  EXPECT_NEAR(sm[0].at("active_warp_occupancy").get<double>(), 1.0, 0.01);
  EXPECT_NEAR(sm[1].at("active_warp_occupancy").get<double>(), 0.5, 0.01);
  EXPECT_GT(sm[0].at("busy_cycles").get<uint64_t>(), 2000u);
}

TEST(Occupancy, IdleSmsAreNotUsedAndDoNotDiluteTheMean) {
  // 2 CTAs on 4 SMs: SMs 2 and 3 never run a CTA, have no busy cycle and a mean of 0, and the
  // GPU-wide mean is that of the two busy SMs (3 warps / 2 schedulers = 1.5).
  const Config cfg = small_gpu();
  Gpu gpu(cfg, {});
  auto w = alu_only(2, 3, 2000);
  ASSERT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
  const nlohmann::json o = gpu.stats_json().at("occupancy");
  EXPECT_EQ(o.at("ctas").get<uint64_t>(), 2u);
  EXPECT_EQ(o.at("sms_used").get<uint32_t>(), 2u);
  EXPECT_EQ(o.at("resident_warps_per_scheduler_max").get<uint32_t>(), 2u);  // slots 0, 2 on scheduler 0
  EXPECT_EQ(o.at("per_sm")[2].at("busy_cycles").get<uint64_t>(), 0u);
  EXPECT_EQ(o.at("per_sm")[3].at("resident_warps_per_scheduler_mean").get<double>(), 0.0);
  EXPECT_NEAR(o.at("resident_warps_per_scheduler_mean").get<double>(), 1.5, 0.01);
  EXPECT_NE(gpu.summary().find("occupancy: 2 CTAs on 2 of 4 SMs; resident warps per scheduler mean 1.5, max 2 (of 4)"),
            std::string::npos)
      << gpu.summary();
}

TEST(Occupancy, CtasWaitingForSlotsKeepTheSmFull) {
  // 24 CTAs of 4 warps on 4 SMs of 8 slots: three rounds of two CTAs per SM, each SM full
  // (4 per scheduler) except while a finished CTA's slots wait for the next one.
  const Config cfg = small_gpu();
  Gpu gpu(cfg, {});
  auto w = alu_only(24, 4, 1500);
  ASSERT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
  const nlohmann::json o = gpu.stats_json().at("occupancy");
  EXPECT_EQ(o.at("ctas").get<uint64_t>(), 24u);
  EXPECT_EQ(o.at("sms_used").get<uint32_t>(), 4u);
  EXPECT_EQ(o.at("resident_warps_per_scheduler_max").get<uint32_t>(), 4u);
  for (const auto& sm : o.at("per_sm")) EXPECT_EQ(sm.at("ctas").get<uint64_t>(), 6u);
  EXPECT_GT(o.at("resident_warps_per_scheduler_mean").get<double>(), 3.9);
}

}  // namespace
}  // namespace l1d::sim
