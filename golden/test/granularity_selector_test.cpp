// DyCache granularity selector (SPEC section 4).
#include "golden/granularity_selector.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace l1d::golden {
namespace {

DyCacheConfig config(uint32_t sample_requests, uint32_t threshold_pct = 50) {
  DyCacheConfig c;
  c.sample_requests = sample_requests;
  c.threshold_pct = threshold_pct;
  return c;
}

// The make-up of one sample; requests not counted in n32/n64 are 128 B.
struct Mix {
  uint32_t misses;
  uint32_t n32;
  uint32_t n64;
};

// Records one whole sample of `n` requests with the given mix. Every request but the last
// must leave G alone (the decision is taken only at the end of a sample); returns what the
// last one returned.
std::optional<uint32_t> run_sample(GranularitySelector& sel, uint32_t n, Mix mix) {
  EXPECT_EQ(sel.sampled(), 0u) << "run_sample must start at a sample boundary";
  const uint32_t before = sel.granularity();
  for (uint32_t i = 0; i + 1 < n; ++i) {
    const uint32_t size = i < mix.n32 ? 32 : i < mix.n32 + mix.n64 ? 64 : 128;
    const bool miss = i >= n - mix.misses;  // misses at the end, independent of the sizes
    EXPECT_EQ(sel.record(size, miss), std::nullopt) << "request " << i;
    EXPECT_EQ(sel.granularity(), before);
  }
  const uint32_t last = n - 1;
  const uint32_t size = last < mix.n32 ? 32 : last < mix.n32 + mix.n64 ? 64 : 128;
  return sel.record(size, mix.misses > 0);
}

constexpr uint32_t kN = 100;  // with 100 requests a count is its own percentage

std::string sample_size_name(const testing::TestParamInfo<uint32_t>& p) { return "N" + std::to_string(p.param); }
std::string threshold_name(const testing::TestParamInfo<uint32_t>& p) { return "T" + std::to_string(p.param); }

// --- Construction and counting ---

TEST(GranularitySelector, StartsAt128WithAnEmptySample) {
  const GranularitySelector sel(config(1000));
  EXPECT_EQ(sel.granularity(), 128u);
  EXPECT_EQ(sel.sampled(), 0u);
  EXPECT_EQ(sel.misses(), 0u);
  EXPECT_EQ(sel.n32(), 0u);
  EXPECT_EQ(sel.n64(), 0u);
  EXPECT_EQ(GranularitySelector(config(1000), 32).granularity(), 32u);
}

TEST(GranularitySelector, CountsEveryRequestBeforeTheSampleEnds) {
  GranularitySelector sel(config(1000));
  sel.record(32, true);
  sel.record(32, false);
  sel.record(64, true);
  sel.record(128, true);
  sel.record(128, false);
  EXPECT_EQ(sel.sampled(), 5u);
  EXPECT_EQ(sel.misses(), 3u);
  EXPECT_EQ(sel.n32(), 2u);
  EXPECT_EQ(sel.n64(), 1u);
}

TEST(GranularitySelector, InvalidConfigurationThrows) {
  EXPECT_THROW(GranularitySelector(config(0)), std::invalid_argument);
  EXPECT_THROW(GranularitySelector(config(1000, 101)), std::invalid_argument);
  EXPECT_THROW(GranularitySelector(config(1000), 96), std::invalid_argument);
  EXPECT_THROW(GranularitySelector(config(1000), 0), std::invalid_argument);
}

TEST(GranularitySelector, IllegalRequestSizeThrowsAndIsNotCounted) {
  GranularitySelector sel(config(1000));
  EXPECT_THROW(sel.record(16, true), std::invalid_argument);
  EXPECT_THROW(sel.record(256, false), std::invalid_argument);
  EXPECT_EQ(sel.sampled(), 0u);
  EXPECT_EQ(sel.misses(), 0u);
}

// --- The four quadrants of the paper's Fig. 7 ---

TEST(GranularitySelector, GoodLocalityKeepsEveryGranularity) {
  for (uint32_t g : {32u, 64u, 128u}) {
    SCOPED_TRACE(g);
    GranularitySelector fine(config(kN), g);
    EXPECT_EQ(run_sample(fine, kN, {10, 90, 0}), std::nullopt);  // fine access, good locality
    EXPECT_EQ(fine.granularity(), g);
    GranularitySelector coarse(config(kN), g);
    EXPECT_EQ(run_sample(coarse, kN, {10, 0, 0}), std::nullopt);  // coarse access, good locality
    EXPECT_EQ(coarse.granularity(), g);
  }
}

TEST(GranularitySelector, PoorCoarseFrom32SwitchesTo128) {
  GranularitySelector sel(config(kN), 32);
  EXPECT_EQ(run_sample(sel, kN, {80, 20, 10}), 128u);
  EXPECT_EQ(sel.granularity(), 128u);
}

TEST(GranularitySelector, PoorCoarseFrom64SwitchesTo128) {
  GranularitySelector sel(config(kN), 64);
  EXPECT_EQ(run_sample(sel, kN, {80, 0, 30}), 128u);
  EXPECT_EQ(sel.granularity(), 128u);
}

TEST(GranularitySelector, PoorCoarseAt128Stays) {
  GranularitySelector sel(config(kN), 128);
  EXPECT_EQ(run_sample(sel, kN, {100, 0, 0}), std::nullopt);
  EXPECT_EQ(sel.granularity(), 128u);
}

TEST(GranularitySelector, PoorFineWithMore32SwitchesTo32) {
  GranularitySelector sel(config(kN), 128);
  EXPECT_EQ(run_sample(sel, kN, {70, 40, 39}), 32u);
  EXPECT_EQ(sel.granularity(), 32u);
}

TEST(GranularitySelector, PoorFineWithMore64SwitchesTo64) {
  GranularitySelector sel(config(kN), 128);
  EXPECT_EQ(run_sample(sel, kN, {70, 10, 60}), 64u);
  EXPECT_EQ(sel.granularity(), 64u);
}

TEST(GranularitySelector, PoorFineTieBetween32And64ChoosesPaper64) {
  GranularitySelector sel(config(kN), 128);
  EXPECT_EQ(run_sample(sel, kN, {70, 30, 30}), 64u);
}

TEST(GranularitySelector, PoorFineMovesBetweenFineGranularities) {
  GranularitySelector sel(config(kN), 64);
  EXPECT_EQ(run_sample(sel, kN, {90, 80, 5}), 32u);
  EXPECT_EQ(run_sample(sel, kN, {90, 5, 80}), 64u);
}

TEST(GranularitySelector, PoorFineAlreadyAtChoiceReportsNoChange) {
  GranularitySelector sel(config(kN), 32);
  EXPECT_EQ(run_sample(sel, kN, {90, 80, 5}), std::nullopt);
  EXPECT_EQ(sel.granularity(), 32u);
}

// --- Threshold boundaries (strictly greater than T) ---

TEST(GranularitySelector, MissRateExactlyAtThresholdIsGoodLocality) {
  GranularitySelector sel(config(kN, 50), 128);
  EXPECT_EQ(run_sample(sel, kN, {50, 100, 0}), std::nullopt);  // 50 % misses: not poor
  EXPECT_EQ(sel.granularity(), 128u);
  EXPECT_EQ(run_sample(sel, kN, {51, 100, 0}), 32u);  // 51 %: poor
}

TEST(GranularitySelector, FineRatioExactlyAtThresholdIsCoarse) {
  GranularitySelector at(config(kN, 50), 64);
  EXPECT_EQ(run_sample(at, kN, {100, 50, 0}), 128u);  // 50 % fine: coarse
  GranularitySelector above(config(kN, 50), 64);
  EXPECT_EQ(run_sample(above, kN, {100, 51, 0}), 32u);  // 51 % fine
}

TEST(GranularitySelector, RatiosAreExactIntegersForOddSampleSizes) {
  // N = 3: 1/3 = 33.3 % and 2/3 = 66.7 % must fall on the right side of T without rounding.
  GranularitySelector t33(config(3, 33), 128);
  EXPECT_EQ(run_sample(t33, 3, {1, 3, 0}), 32u);  // 33.3 % > 33 %
  GranularitySelector t34(config(3, 34), 128);
  EXPECT_EQ(run_sample(t34, 3, {1, 3, 0}), std::nullopt);  // 33.3 % <= 34 %
  GranularitySelector t66(config(3, 66), 128);
  EXPECT_EQ(run_sample(t66, 3, {2, 2, 0}), 32u);  // 66.7 % > 66 % for both ratios
}

TEST(GranularitySelector, ExtremeThresholds) {
  GranularitySelector never(config(kN, 100), 128);
  EXPECT_EQ(run_sample(never, kN, {100, 100, 0}), std::nullopt);  // nothing exceeds 100 %
  GranularitySelector always(config(kN, 0), 128);
  EXPECT_EQ(run_sample(always, kN, {1, 0, 1}), 64u);  // any miss and any fine request count
}

// --- Sample boundaries ---

TEST(GranularitySelector, DecidesExactlyAtTheNthRequestAndRestarts) {
  GranularitySelector sel(config(1000), 128);
  for (uint32_t i = 1; i < 1000; ++i) {
    ASSERT_EQ(sel.record(32, true), std::nullopt) << "request " << i;
    ASSERT_EQ(sel.sampled(), i);
  }
  EXPECT_EQ(sel.granularity(), 128u);
  EXPECT_EQ(sel.record(32, true), 32u);  // the 1000th request completes the sample
  EXPECT_EQ(sel.sampled(), 0u);
  EXPECT_EQ(sel.misses(), 0u);
  EXPECT_EQ(sel.n32(), 0u);
  EXPECT_EQ(sel.n64(), 0u);
}

TEST(GranularitySelector, UnchangedDecisionStillStartsANewSample) {
  GranularitySelector sel(config(kN), 128);
  EXPECT_EQ(run_sample(sel, kN, {0, 0, 0}), std::nullopt);
  EXPECT_EQ(sel.sampled(), 0u);
  EXPECT_EQ(sel.misses(), 0u);
}

TEST(GranularitySelector, NewSampleIgnoresThePreviousOne) {
  GranularitySelector sel(config(kN), 128);
  // Sample 1: poor fine -> 32. Sample 2: 49 % misses on its own (99 % if sample 1's misses
  // were still counted) -> good locality, stay at 32.
  EXPECT_EQ(run_sample(sel, kN, {100, 100, 0}), 32u);
  EXPECT_EQ(run_sample(sel, kN, {49, 0, 0}), std::nullopt);
  EXPECT_EQ(sel.granularity(), 32u);
}

class GranularitySelectorSampleSize : public testing::TestWithParam<uint32_t> {};

TEST_P(GranularitySelectorSampleSize, DecidesOncePerSample) {
  const uint32_t n = GetParam();
  GranularitySelector sel(config(n), 128);
  // 60 % misses, 70 % fine with more 64 B than 32 B requests.
  EXPECT_EQ(run_sample(sel, n, {n / 10 * 6, n / 10 * 2, n / 2}), 64u);
  // Next sample: poor and coarse -> back to 128, again only at its Nth request.
  EXPECT_EQ(run_sample(sel, n, {n, 0, 0}), 128u);
  // Exactly 50 % misses: keep.
  EXPECT_EQ(run_sample(sel, n, {n / 2, n, 0}), std::nullopt);
  EXPECT_EQ(sel.granularity(), 128u);
}

INSTANTIATE_TEST_SUITE_P(PaperSampleSizes, GranularitySelectorSampleSize, testing::Values(1000u, 5000u, 10000u),
                         sample_size_name);

class GranularitySelectorThreshold : public testing::TestWithParam<uint32_t> {};

TEST_P(GranularitySelectorThreshold, SwitchesOnlyStrictlyAboveThreshold) {
  const uint32_t t = GetParam();
  const uint32_t n = 1000;
  const uint32_t at = t * n / 100;  // exactly T percent of the sample
  GranularitySelector sel(config(n, t), 128);
  EXPECT_EQ(run_sample(sel, n, {at, n, 0}), std::nullopt) << "miss rate == T is good locality";
  EXPECT_EQ(run_sample(sel, n, {at + 1, 0, at}), std::nullopt) << "fine ratio == T is coarse, already 128";
  EXPECT_EQ(run_sample(sel, n, {at + 1, at + 1, 0}), 32u) << "both just above T";
  EXPECT_EQ(run_sample(sel, n, {at + 1, 0, at}), 128u) << "poor and coarse from 32";
}

INSTANTIATE_TEST_SUITE_P(PaperThresholds, GranularitySelectorThreshold, testing::Values(25u, 50u, 75u),
                         threshold_name);

TEST(GranularitySelector, LongSequenceFlipsStepByStep) {
  struct Step {
    Mix mix;
    std::optional<uint32_t> change;
    uint32_t granularity;
  };
  const std::vector<Step> steps = {
      {{20, 90, 0}, std::nullopt, 128},  // good locality, fine: keep 128
      {{80, 70, 20}, 32u, 32},           // poor, fine, mostly 32
      {{80, 10, 70}, 64u, 64},           // poor, fine, mostly 64
      {{30, 0, 0}, std::nullopt, 64},    // good locality, coarse: keep 64
      {{90, 10, 10}, 128u, 128},         // poor, coarse
      {{90, 0, 0}, std::nullopt, 128},   // poor, coarse, already 128
      {{60, 30, 30}, 64u, 64},           // poor, fine, tie -> 64
      {{60, 55, 5}, 32u, 32},            // poor, fine, mostly 32
      {{60, 55, 5}, std::nullopt, 32},   // same again: no change
      {{51, 0, 50}, 128u, 128},          // poor, fine ratio exactly 50 %: coarse
  };
  GranularitySelector sel(config(kN), 128);
  for (size_t i = 0; i < steps.size(); ++i) {
    SCOPED_TRACE("sample " + std::to_string(i));
    EXPECT_EQ(run_sample(sel, kN, steps[i].mix), steps[i].change);
    EXPECT_EQ(sel.granularity(), steps[i].granularity);
    EXPECT_EQ(sel.sampled(), 0u);
  }
}

}  // namespace
}  // namespace l1d::golden
