// Testbench of l1d_two_level (gen/blocks/l1d_two_level.cpp) against golden::TwoLevelBypassUnit
// (SPEC section 6) on every configuration of RTL_TB_CONFIGS: the golden model's directed cases
// (each decision branch, the rounded Q8 thresholds at their exact boundaries, the occupancy limit
// and one warp-cycle below it, the decision at the window's last cycle, bypass periods of exactly
// their length, accesses ignored in B mode, kernel start in a window, in a period and at a window
// end, zero accesses, 13-bit saturation where the window is long enough to reach it), >= 10^5
// random cycles with per-window profiles aimed at the thresholds, and the netlist co-simulation.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <ostream>
#include <random>

#include "golden/two_level_bypass.h"
#include "l1d_two_level_models.h"
#include "tb/testbench.h"

namespace {

using l1d::golden::TwoLevelBypassUnit;

constexpr uint64_t kRandomCycles = 2'000'000;  // 400 windows of 5000 cycles
constexpr uint64_t kCosimCycles = 100'000;

uint32_t q8(double th) { return static_cast<uint32_t>(std::lround(th * 256.0)); }

// The port binding (tb/testbench.h). golden() returns the unit's registered outputs, then runs
// the cycle in the order the RTL (and the golden L1) uses: access, kernel start, tick.
struct TwoLevelIo {
  struct In {
    bool access = false, miss = false;
    uint32_t occupancy = 0;
    bool kernel_start = false;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("access_i {} miss_i {} occupancy_i {} kernel_start_i {}", in.access, in.miss,
                               in.occupancy, in.kernel_start);
    }
  };
  struct Out {
    bool bypass = false;
    uint32_t accesses = 0, misses = 0;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format("bypass_o {} accesses_o {} misses_o {}", o.bypass, o.accesses, o.misses);
    }
  };

  explicit TwoLevelIo(const l1d::Config& c)
      : cfg(c.policy.two_level), max_warps(c.core.warps_per_sm), model(cfg, max_warps) {}

  template <class M>
  void drive(M& m, const In& in) const {
    m.access_i = in.access;
    m.miss_i = in.miss;
    tb::put(m.occupancy_i, in.occupancy);
    m.kernel_start_i = in.kernel_start;
  }
  template <class M>
  Out sample(const M& m) const {
    return {m.bypass_o != 0, static_cast<uint32_t>(tb::get(m.accesses_o)), static_cast<uint32_t>(tb::get(m.misses_o))};
  }
  Out golden(const In& in) {
    const Out o{model.bypass(), model.accesses(), model.misses()};
    if (in.access) model.record_access(in.miss);
    if (in.kernel_start) model.kernel_start();
    model.tick(in.occupancy);
    return o;
  }
  // Co-simulation stimulus: mostly accesses, a miss rate around one half, occupancy anywhere up
  // to MaxWarps, and a rare kernel start.
  In random(std::mt19937_64& rng) const {
    const uint64_t r = rng();
    return {(r & 3) != 0, ((r >> 2) & 1) != 0, static_cast<uint32_t>((r >> 8) % (max_warps + 1)),
            (r >> 20) % 30011 == 0};
  }

  l1d::TwoLevelConfig cfg;
  uint32_t max_warps;
  TwoLevelBypassUnit model;
};

using Board = tb::Scoreboard<TwoLevelIo::In, TwoLevelIo::Out>;
namespace models = tb::l1d_two_level;

template <class Config>
class TwoLevel : public ::testing::Test {
 protected:
  static constexpr const char* kMainTest = "RandomMatchesGolden";  // its waves: <block>.fst
  TwoLevel()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   "),
        window(io.cfg.window_cycles),
        period(io.cfg.bypass_period_cycles) {
    dut.reset();
  }
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  void step(bool access, bool miss, uint32_t occupancy, bool kernel_start = false) {
    tb::check_cycle(dut, io, board, {access, miss, occupancy, kernel_start});
  }
  void idle(uint64_t n, uint32_t occupancy) {
    for (uint64_t i = 0; i < n; ++i) step(false, false, occupancy);
  }
  // One whole window from its first cycle: `accesses` accesses in its first cycles (one per
  // cycle, the last `misses` of them missing, so accesses <= window), at a constant occupancy.
  void run_window(uint32_t accesses, uint32_t misses, uint32_t occupancy) {
    ASSERT_LE(accesses, window);
    for (uint32_t i = 0; i < window; ++i) step(i < accesses, i < accesses && i >= accesses - misses, occupancy);
  }
  bool bypass() { return dut->bypass_o != 0; }
  uint32_t decisions() const { return io.model.decisions_bypass() + io.model.decisions_cache(); }

  TwoLevelIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  uint32_t window, period;
};
TYPED_TEST_SUITE(TwoLevel, models::Configs);

// StartsSamplingInCacheMode, ZeroAccessesSelectsCache, LowMissRateSelectsCacheMode,
// HighMissRateSelectsBypassMode, MiddleBand{High,Low}Occupancy..., in one run.
TYPED_TEST(TwoLevel, EachDecisionBranch) {
  const uint32_t w = this->io.max_warps;
  this->step(false, false, 0);
  EXPECT_FALSE(this->bypass());
  this->run_window(0, 0, 0);  // no accesses: C, even at zero occupancy
  EXPECT_EQ(this->io.model.decisions_cache(), 1U);
  this->run_window(10, 0, 0);  // 0 % misses: C
  this->run_window(10, 10, w);  // 100 % misses: B, even at full occupancy
  this->dut.settle();
  EXPECT_TRUE(this->bypass());
  this->idle(this->period, w);
  EXPECT_FALSE(this->bypass());
  this->run_window(10, 5, w);  // 50 %: middle band, full occupancy -> C
  this->run_window(10, 5, 0);  // middle band, no warps -> B
  EXPECT_EQ(this->io.model.decisions_bypass(), 2U);
  EXPECT_EQ(this->io.model.decisions_cache(), 3U);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// LowThresholdUsesRoundedQ8 / HighThresholdUsesRoundedQ8 generalised: for 100 and 10 accesses,
// the miss counts just below, at and just above misses * 256 == th_q8 * accesses, at zero
// occupancy (middle band bypasses) and at full occupancy (middle band caches).
TYPED_TEST(TwoLevel, MissRateThresholdBoundaries) {
  for (uint32_t n : {10U, 100U}) {
    if (n > this->window) continue;
    for (double th : {this->io.cfg.th_low, this->io.cfg.th_high}) {
      const uint32_t at = q8(th) * n / 256;
      for (uint32_t m = at > 0 ? at - 1 : 0; m <= std::min(at + 1, n); ++m) {
        for (uint32_t occ : {0U, this->io.max_warps}) {
          this->run_window(n, m, occ);
          if (this->bypass()) this->idle(this->period, occ);
        }
      }
    }
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// OccupancyExactlyAtThresholdCaches / OccupancyOneWarpCycleBelowThresholdBypasses: a middle-band
// miss rate and an occupancy sum of exactly ceil(th_warp_q8 * MaxWarps * window / 256) (not below
// the limit: C), then one warp-cycle less (B).
TYPED_TEST(TwoLevel, OccupancyLimitAndOneWarpCycleBelow) {
  const uint64_t limit_q8 = uint64_t{q8(this->io.cfg.th_warp)} * this->io.max_warps * this->window;
  const uint64_t at = (limit_q8 + 255) / 256;
  const uint32_t n = std::min<uint32_t>(this->window, 10);
  // A miss count strictly inside the band, when one exists for n accesses.
  uint32_t m = n + 1;
  for (uint32_t k = 0; k <= n; ++k) {
    if (uint64_t{k} * 256 >= uint64_t{q8(this->io.cfg.th_low)} * n &&
        uint64_t{k} * 256 <= uint64_t{q8(this->io.cfg.th_high)} * n) {
      m = k;
      break;
    }
  }
  if (m > n) GTEST_SKIP() << "no middle-band miss count for " << n << " accesses";
  for (uint64_t sum : {at, at > 0 ? at - 1 : 0}) {
    const uint32_t decided = this->decisions();
    for (uint32_t i = 0; i < this->window; ++i) {
      // Spread `sum` over the window: the first cycles take one warp more.
      const auto occ = static_cast<uint32_t>(sum / this->window + (i < sum % this->window ? 1 : 0));
      this->step(i < n, i < m, occ);
    }
    EXPECT_EQ(this->decisions(), decided + 1);
    if (this->bypass()) this->idle(this->period, 0);
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// DecisionHappensExactlyAtWindowEnd / BypassPeriodLastsExactlyItsLength /
// RecordAccessAndOccupancyIgnoredInBypassMode / NewWindowAfterBypassPeriodCanReturnToCache.
TYPED_TEST(TwoLevel, WindowEndAndBypassPeriodTiming) {
  const uint32_t n = std::min<uint32_t>(this->window, 10);
  for (uint32_t i = 0; i + 1 < this->window; ++i) this->step(i < n, true, 1);
  this->dut.settle();
  EXPECT_FALSE(this->bypass());
  EXPECT_EQ(this->dut->accesses_o, n);
  this->step(false, false, 1);  // the window's last cycle decides
  this->dut.settle();
  EXPECT_TRUE(this->bypass());
  EXPECT_EQ(this->dut->accesses_o, 0U);  // monitors cleared at the decision
  for (uint32_t i = 0; i + 1 < this->period; ++i) {
    this->step(true, true, this->io.max_warps);  // ignored in B mode
    this->dut.settle();
    EXPECT_TRUE(this->bypass());
    EXPECT_EQ(this->dut->accesses_o, 0U);
    EXPECT_EQ(this->dut->misses_o, 0U);
  }
  this->step(true, true, this->io.max_warps);  // the period's last cycle
  this->dut.settle();
  EXPECT_FALSE(this->bypass());
  this->run_window(n, 0, 1);  // a good window: back to C for good
  EXPECT_FALSE(this->bypass());
  EXPECT_EQ(this->io.model.decisions_cache(), 1U);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// KernelStartResetsWindow / KernelStartEndsBypassPeriodAndKeepsStatistics, and the orders of
// one cycle: an access in the kernel-start cycle is dropped (access first, then the start),
// a start in a window's last cycle abandons it (no decision), a start in a bypass period's
// cycles returns to C mode at once.
TYPED_TEST(TwoLevel, KernelStart) {
  const uint32_t n = std::min<uint32_t>(this->window, 10);
  for (uint32_t i = 0; i + 1 < this->window; ++i) this->step(i < n, true, 0);
  this->step(true, true, 0, /*kernel_start=*/true);  // would have decided B here
  this->dut.settle();
  EXPECT_FALSE(this->bypass());
  EXPECT_EQ(this->dut->accesses_o, 0U);
  EXPECT_EQ(this->decisions(), 0U);
  this->step(true, true, 0);  // the new window (its first cycle was the start's) samples again
  this->dut.settle();
  EXPECT_EQ(this->dut->accesses_o, 1U);
  this->idle(this->window - 2, 0);  // the new window's end: 1 access, 1 miss -> B
  this->dut.settle();
  EXPECT_TRUE(this->bypass());
  EXPECT_EQ(this->decisions(), 1U);
  if (this->period > 1) {
    this->step(true, true, 0);
    this->step(true, true, 0, /*kernel_start=*/true);
    this->dut.settle();
    EXPECT_FALSE(this->bypass());
    EXPECT_EQ(this->dut->accesses_o, 0U);
    this->step(true, false, 3);
    this->dut.settle();
    EXPECT_EQ(this->dut->accesses_o, 1U);
  }
  this->step(false, false, 0, true);
  this->step(false, false, 0, true);  // back-to-back starts
  this->idle(this->window + 2, 0);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// CountersSaturateAtThirteenBits / SaturatedAccessesSkewTheMissRateAsInHardware: needs a window
// of more than 8191 cycles (one access per cycle); on shorter windows the counters count the
// whole window without saturating, which the test checks instead.
TYPED_TEST(TwoLevel, ThirteenBitSaturation) {
  const uint32_t n = std::min<uint32_t>(this->window - 1, 9000);
  for (uint32_t i = 0; i < n; ++i) this->step(true, i % 20 < 3 || i % 2 == 0, 0);
  this->dut.settle();
  EXPECT_EQ(this->dut->accesses_o, std::min<uint32_t>(n, TwoLevelBypassUnit::kCounterMax));
  this->idle(this->window - n, 0);
  if (this->bypass()) this->idle(this->period, 0);
  for (uint32_t i = 0; i < this->window; ++i) this->step(true, true, 0);  // both counters saturate
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Random: each phase draws a profile (access rate 0..100 %, a miss rate near th_low, th_high,
// in between or at the extremes, occupancy near th_warp * MaxWarps or anywhere), and kernel
// starts come rarely, at any point of a window or bypass period.
TYPED_TEST(TwoLevel, RandomMatchesGolden) {
  std::mt19937_64 r(5);
  const uint32_t w = this->io.max_warps;
  const double occ_mid = this->io.cfg.th_warp * w;
  uint32_t acc_pct = 0, miss_pct = 0, occ_lo = 0, occ_hi = 0;
  const auto draw = [&] {
    acc_pct = std::array<uint32_t, 6>{0, 1, 30, 90, 100, 100}[r() % 6];
    const double th = std::array<double, 6>{0.0, this->io.cfg.th_low, this->io.cfg.th_low,
                                            (this->io.cfg.th_low + this->io.cfg.th_high) / 2, this->io.cfg.th_high,
                                            1.0}[r() % 6];
    miss_pct = static_cast<uint32_t>(std::clamp(th * 100 + static_cast<double>(r() % 5) - 2, 0.0, 100.0));
    if (r() % 3 == 0) {
      occ_lo = 0;
      occ_hi = w;
    } else {
      occ_lo = static_cast<uint32_t>(std::max(0.0, std::floor(occ_mid) - static_cast<double>(r() % 2)));
      occ_hi = std::min<uint32_t>(w, static_cast<uint32_t>(std::ceil(occ_mid)) + static_cast<uint32_t>(r() % 2));
    }
  };
  uint64_t windows = 0;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    if (this->io.model.cycle_in_phase() == 0) {
      draw();
      windows += !this->io.model.bypass();
    }
    const bool access = r() % 100 < acc_pct;
    const bool miss = r() % 100 < miss_pct;
    const auto occ = static_cast<uint32_t>(occ_lo + r() % (occ_hi - occ_lo + 1));
    this->step(access, miss, occ, r() % 50'000 == 0);
  }
  std::cout << "[ coverage   ] " << windows << " windows, " << this->io.model.decisions_bypass() << " B and "
            << this->io.model.decisions_cache() << " C decisions\n";
  EXPECT_GT(this->io.model.decisions_bypass(), 10U);
  EXPECT_GT(this->io.model.decisions_cache(), 10U);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class TwoLevelNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(TwoLevelNetlist, models::Configs);

TYPED_TEST(TwoLevelNetlist, NetlistMatchesRtl) {
  const TwoLevelIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
