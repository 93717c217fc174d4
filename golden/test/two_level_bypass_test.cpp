// Two-level bypassing unit (SPEC section 6): miss-rate monitor, occupancy monitor, decision.
#include "golden/two_level_bypass.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace l1d::golden {
namespace {

using Mode = TwoLevelBypassUnit::Mode;

constexpr uint32_t kWarps = 48;
constexpr uint32_t kWindow = 10;
constexpr uint32_t kPeriod = 6;

// Short phases keep the tests readable; thresholds are the SPEC defaults.
TwoLevelConfig short_config() {
  TwoLevelConfig cfg;
  cfg.window_cycles = kWindow;
  cfg.bypass_period_cycles = kPeriod;
  return cfg;
}

void record(TwoLevelBypassUnit& u, uint32_t accesses, uint32_t misses) {
  for (uint32_t i = 0; i < accesses; ++i) u.record_access(i < misses);
}

void ticks(TwoLevelBypassUnit& u, uint32_t n, uint32_t occupancy) {
  for (uint32_t i = 0; i < n; ++i) u.tick(occupancy);
}

// Records the accesses, then runs one whole window at a constant occupancy.
void run_window(TwoLevelBypassUnit& u, uint32_t accesses, uint32_t misses, uint32_t occupancy) {
  record(u, accesses, misses);
  ticks(u, kWindow, occupancy);
}

TEST(TwoLevelBypass, StartsSamplingInCacheMode) {
  const TwoLevelBypassUnit u(short_config(), kWarps);
  EXPECT_EQ(u.mode(), Mode::kCache);
  EXPECT_FALSE(u.bypass());
  EXPECT_EQ(u.cycle_in_phase(), 0u);
  EXPECT_EQ(u.accesses(), 0u);
  EXPECT_EQ(u.decisions_cache() + u.decisions_bypass(), 0u);
}

TEST(TwoLevelBypass, LowMissRateSelectsCacheMode) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  run_window(u, 10, 2, 1);  // 20 % < 30 %, even with almost no warps
  EXPECT_EQ(u.mode(), Mode::kCache);
  EXPECT_EQ(u.decisions_cache(), 1u);
  EXPECT_EQ(u.decisions_bypass(), 0u);
}

TEST(TwoLevelBypass, HighMissRateSelectsBypassMode) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  run_window(u, 10, 10, kWarps);  // 100 % > 90 %, even at full occupancy
  EXPECT_TRUE(u.bypass());
  EXPECT_EQ(u.decisions_bypass(), 1u);
  EXPECT_EQ(u.decisions_cache(), 0u);
}

TEST(TwoLevelBypass, MiddleBandHighOccupancyCaches) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  run_window(u, 10, 5, 30);  // 50 % miss rate, 30/48 warps >= 0.5
  EXPECT_EQ(u.mode(), Mode::kCache);
  EXPECT_EQ(u.decisions_cache(), 1u);
}

TEST(TwoLevelBypass, MiddleBandLowOccupancyBypasses) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  run_window(u, 10, 5, 10);  // 50 % miss rate, 10/48 warps < 0.5
  EXPECT_TRUE(u.bypass());
  EXPECT_EQ(u.decisions_bypass(), 1u);
}

// thW = 0.5 -> 128 in Q8: the limit is 128 * 48 * 10 = 61440 = (24 * 10 cycles) * 256.
TEST(TwoLevelBypass, OccupancyExactlyAtThresholdCaches) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  run_window(u, 10, 5, 24);
  EXPECT_EQ(u.decisions_cache(), 1u);
  EXPECT_FALSE(u.bypass());
}

TEST(TwoLevelBypass, OccupancyOneWarpCycleBelowThresholdBypasses) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  record(u, 10, 5);
  ticks(u, kWindow - 1, 24);
  u.tick(23);  // sum 239 < 240: the average is just under 24 warps
  EXPECT_EQ(u.decisions_bypass(), 1u);
  EXPECT_TRUE(u.bypass());
}

// th_low 0.3 -> round(76.8) = 77, so 3/10 (768 < 770) is below thL in the RTL's arithmetic.
TEST(TwoLevelBypass, LowThresholdUsesRoundedQ8) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  run_window(u, 10, 3, 0);  // zero occupancy would bypass if this reached the second level
  EXPECT_EQ(u.decisions_cache(), 1u);
  // 31/100: 7936 >= 7700, so it is in the middle band and low occupancy bypasses.
  run_window(u, 100, 31, 0);
  EXPECT_EQ(u.decisions_bypass(), 1u);
}

// th_high 0.9 -> round(230.4) = 230: 9/10 (2304 > 2300) is above thH; 8/10 is not.
TEST(TwoLevelBypass, HighThresholdUsesRoundedQ8) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  run_window(u, 10, 9, kWarps);  // full occupancy would cache if this reached the second level
  EXPECT_EQ(u.decisions_bypass(), 1u);

  TwoLevelBypassUnit v(short_config(), kWarps);
  run_window(v, 10, 8, kWarps);
  EXPECT_EQ(v.decisions_cache(), 1u);
}

TEST(TwoLevelBypass, DecisionHappensExactlyAtWindowEnd) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  record(u, 10, 10);
  ticks(u, kWindow - 1, 5);
  EXPECT_EQ(u.cycle_in_phase(), kWindow - 1);
  EXPECT_EQ(u.decisions_bypass() + u.decisions_cache(), 0u);
  EXPECT_FALSE(u.bypass());
  EXPECT_EQ(u.occupancy_sum(), 5u * (kWindow - 1));
  u.tick(5);  // cycle window_cycles closes the window
  EXPECT_EQ(u.decisions_bypass(), 1u);
  EXPECT_TRUE(u.bypass());
  EXPECT_EQ(u.cycle_in_phase(), 0u);
}

TEST(TwoLevelBypass, CacheDecisionStartsNewWindowAtOnce) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  run_window(u, 10, 0, 20);
  EXPECT_EQ(u.decisions_cache(), 1u);
  EXPECT_EQ(u.cycle_in_phase(), 0u);
  EXPECT_EQ(u.accesses(), 0u);
  EXPECT_EQ(u.misses(), 0u);
  EXPECT_EQ(u.occupancy_sum(), 0u);
  // The very next window measures and decides on its own data.
  run_window(u, 10, 10, 20);
  EXPECT_EQ(u.decisions_bypass(), 1u);
}

TEST(TwoLevelBypass, CountersSaturateAtThirteenBits) {
  TwoLevelConfig cfg = short_config();
  TwoLevelBypassUnit u(cfg, kWarps);
  record(u, 9000, 9000);
  EXPECT_EQ(u.accesses(), 8191u);
  EXPECT_EQ(u.misses(), 8191u);
  EXPECT_EQ(TwoLevelBypassUnit::kCounterMax, 8191u);
}

TEST(TwoLevelBypass, SaturatedAccessesSkewTheMissRateAsInHardware) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  // 20000 accesses, 3000 misses (15 %): the access counter sticks at 8191, so the
  // hardware sees 3000/8191 = 36.6 %, in the middle band; low occupancy then bypasses.
  for (uint32_t i = 0; i < 20000; ++i) u.record_access(i % 20 < 3);
  EXPECT_EQ(u.accesses(), 8191u);
  EXPECT_EQ(u.misses(), 3000u);
  ticks(u, kWindow, 0);
  EXPECT_EQ(u.decisions_bypass(), 1u);
}

TEST(TwoLevelBypass, BypassPeriodLastsExactlyItsLength) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  run_window(u, 10, 10, 5);
  ASSERT_TRUE(u.bypass());
  ticks(u, kPeriod - 1, 5);
  EXPECT_TRUE(u.bypass());
  EXPECT_EQ(u.cycle_in_phase(), kPeriod - 1);
  u.tick(5);
  EXPECT_FALSE(u.bypass());
  EXPECT_EQ(u.cycle_in_phase(), 0u);
  EXPECT_EQ(u.decisions_bypass(), 1u);  // ending a period is not a decision
  EXPECT_EQ(u.decisions_cache(), 0u);
}

TEST(TwoLevelBypass, RecordAccessAndOccupancyIgnoredInBypassMode) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  run_window(u, 10, 10, 5);
  ASSERT_TRUE(u.bypass());
  EXPECT_EQ(u.accesses(), 0u);  // monitors are cleared at the decision
  record(u, 50, 50);
  ticks(u, kPeriod - 1, 40);
  EXPECT_EQ(u.accesses(), 0u);
  EXPECT_EQ(u.misses(), 0u);
  EXPECT_EQ(u.occupancy_sum(), 0u);
}

TEST(TwoLevelBypass, NewWindowAfterBypassPeriodCanReturnToCache) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  run_window(u, 10, 10, 5);
  ticks(u, kPeriod, 5);
  ASSERT_FALSE(u.bypass());
  run_window(u, 10, 1, 5);
  EXPECT_EQ(u.decisions_cache(), 1u);
  EXPECT_FALSE(u.bypass());
  // And a bad window after that bypasses again.
  run_window(u, 10, 10, 5);
  EXPECT_EQ(u.decisions_bypass(), 2u);
}

TEST(TwoLevelBypass, ZeroAccessesSelectsCache) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  ticks(u, kWindow, 0);  // no loads and no warps: nothing argues for bypassing
  EXPECT_EQ(u.decisions_cache(), 1u);
  EXPECT_FALSE(u.bypass());
}

TEST(TwoLevelBypass, KernelStartResetsWindow) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  record(u, 10, 10);
  ticks(u, kWindow - 1, 5);
  u.kernel_start();
  EXPECT_EQ(u.cycle_in_phase(), 0u);
  EXPECT_EQ(u.accesses(), 0u);
  EXPECT_EQ(u.misses(), 0u);
  EXPECT_EQ(u.occupancy_sum(), 0u);
  u.tick(5);  // the old window would have closed here
  EXPECT_EQ(u.decisions_bypass() + u.decisions_cache(), 0u);
  EXPECT_EQ(u.cycle_in_phase(), 1u);
}

TEST(TwoLevelBypass, KernelStartEndsBypassPeriodAndKeepsStatistics) {
  TwoLevelBypassUnit u(short_config(), kWarps);
  run_window(u, 10, 10, 5);
  ticks(u, 2, 5);
  ASSERT_TRUE(u.bypass());
  u.kernel_start();
  EXPECT_FALSE(u.bypass());
  EXPECT_EQ(u.cycle_in_phase(), 0u);
  u.record_access(true);  // sampling again
  EXPECT_EQ(u.accesses(), 1u);
  EXPECT_EQ(u.decisions_bypass(), 1u);
}

TEST(TwoLevelBypass, DefaultFiveThousandCycleWindow) {
  TwoLevelBypassUnit u(TwoLevelConfig{}, kWarps);
  record(u, 4000, 2000);  // 50 %: middle band
  ticks(u, 4999, 10);
  EXPECT_EQ(u.decisions_bypass(), 0u);
  u.tick(10);
  EXPECT_EQ(u.decisions_bypass(), 1u);
  ticks(u, 4999, 10);
  EXPECT_TRUE(u.bypass());
  u.tick(10);
  EXPECT_FALSE(u.bypass());
}

TEST(TwoLevelBypass, RejectsInvalidConfigurationAndOccupancy) {
  TwoLevelConfig cfg = short_config();
  cfg.window_cycles = 0;
  EXPECT_THROW(TwoLevelBypassUnit(cfg, kWarps), std::invalid_argument);
  cfg = short_config();
  cfg.bypass_period_cycles = 0;
  EXPECT_THROW(TwoLevelBypassUnit(cfg, kWarps), std::invalid_argument);
  cfg = short_config();
  cfg.th_high = 1.5;
  EXPECT_THROW(TwoLevelBypassUnit(cfg, kWarps), std::invalid_argument);
  cfg = short_config();
  cfg.th_warp = -0.1;
  EXPECT_THROW(TwoLevelBypassUnit(cfg, kWarps), std::invalid_argument);
  EXPECT_THROW(TwoLevelBypassUnit(short_config(), 0), std::invalid_argument);

  TwoLevelBypassUnit u(short_config(), kWarps);
  EXPECT_THROW(u.tick(kWarps + 1), std::invalid_argument);
}

// Cycle skipping (sim_cpp/gpu/gpu.cpp): counting_ticks() ticks only count, and advance() over them
// leaves the unit as ticking would, in a window and in a bypass period; the tick after them is
// the phase's last.
TEST(TwoLevelBypass, AdvanceOverCountingTicksEqualsTicking) {
  TwoLevelBypassUnit ticked(short_config(), kWarps), advanced(short_config(), kWarps);
  for (TwoLevelBypassUnit* u : {&ticked, &advanced}) {
    record(*u, 10, 10);
    u->tick(5);
  }
  EXPECT_EQ(advanced.counting_ticks(7), kWindow - 2);
  EXPECT_EQ(advanced.counting_ticks(kWarps + 1), 0u);  // a bad occupancy throws in tick()
  ticks(ticked, kWindow - 2, 7);
  advanced.advance(advanced.counting_ticks(7), 7);
  EXPECT_EQ(advanced.cycle_in_phase(), ticked.cycle_in_phase());
  EXPECT_EQ(advanced.occupancy_sum(), ticked.occupancy_sum());
  EXPECT_EQ(advanced.counting_ticks(7), 0u);
  for (TwoLevelBypassUnit* u : {&ticked, &advanced}) u->tick(7);  // the window's last tick decides
  ASSERT_TRUE(ticked.bypass());
  ASSERT_TRUE(advanced.bypass());
  EXPECT_EQ(advanced.counting_ticks(0), kPeriod - 1);
  ticks(ticked, kPeriod - 1, 3);
  advanced.advance(kPeriod - 1, 3);
  EXPECT_EQ(advanced.occupancy_sum(), ticked.occupancy_sum());  // not summed in B mode
  for (TwoLevelBypassUnit* u : {&ticked, &advanced}) u->tick(3);  // the period's last tick
  EXPECT_FALSE(ticked.bypass());
  EXPECT_FALSE(advanced.bypass());
  EXPECT_EQ(advanced.cycle_in_phase(), ticked.cycle_in_phase());
}

}  // namespace
}  // namespace l1d::golden
