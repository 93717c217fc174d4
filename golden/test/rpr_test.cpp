// RPR (SPEC 9, dissertation ch. 6; docs/l1d-microarchitecture.md section 12): the signature,
// the reuse-history table's updates and averages against hand-computed values, the sampler's
// reuse distances, the per-line RD/RC bookkeeping and the victim order of every score mode.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <stdexcept>

#include "golden/replacement.h"
#include "golden/rpr_history.h"
#include "golden/rpr_sampler.h"

namespace l1d::golden {
namespace {

WayMask first_n(uint32_t ways) {
  WayMask m;
  for (uint32_t w = 0; w < ways; ++w) m.set(w);
  return m;
}

// ---------------------------------------------------------------- signature

TEST(RprSignature, IsFiveHashedPcBitsAboveAFourBitAgeBucket) {
  EXPECT_EQ(rpr_signature(0, 0), 0u);
  EXPECT_EQ(rpr_signature(2, 7), (2u << 4) | 1u);      // ages 4..7 share bucket 1
  EXPECT_EQ(rpr_signature(0x3F, 0), 31u << 4);         // only the low 5 PC bits count
  EXPECT_EQ(rpr_signature(0xE1, 59), (1u << 4) | 14u);  // 59 / 4 = 14
  EXPECT_EQ(rpr_signature(0, 60), 15u);                // bucket 15 from age 60 on
  EXPECT_EQ(rpr_signature(1, 255), (1u << 4) | 15u);
  EXPECT_LT(rpr_signature(0xFFFFFFFF, 255), kRprHistoryEntries);
}

// ---------------------------------------------------------------- reuse-history table

TEST(RprHistory, NewSignatureHasNoPrediction) {
  RprHistoryTable t;
  for (uint32_t s = 0; s < kRprHistoryEntries; ++s) ASSERT_FALSE(t.predict(s)) << s;
  EXPECT_THROW((void)t.entry(kRprHistoryEntries), std::out_of_range);
  EXPECT_THROW(t.hit_update(kRprHistoryEntries, 1), std::out_of_range);
}

TEST(RprHistory, UpdatesAccumulateUntilACounterSaturates) {
  RprHistoryTable t;
  t.hit_update(7, 5);
  t.hit_update(7, 3);
  t.miss_update(7);
  const auto& e = t.entry(7);
  EXPECT_EQ(e.sum_rd, 8u);
  EXPECT_EQ(e.total_rc, 2u);
  EXPECT_EQ(e.fetch, 1u);
  EXPECT_FALSE(e.predicted);
  EXPECT_EQ(t.entry(6).total_rc, 0u);  // entries are independent
}

TEST(RprHistory, FetchSaturationAveragesAndResets) {
  RprHistoryTable t;
  for (int i = 0; i < 20; ++i) t.hit_update(3, 5);  // sum 100, total 20
  for (int i = 0; i < 30; ++i) t.miss_update(3);
  EXPECT_FALSE(t.predict(3));
  t.miss_update(3);  // fetch reaches 31
  const auto& e = t.entry(3);
  EXPECT_TRUE(e.predicted);
  EXPECT_EQ(e.avg_rd, 5u);  // 100 / 20
  EXPECT_EQ(e.avg_rc, 0u);  // 20 / 31: these blocks are dead on arrival
  EXPECT_EQ(e.sum_rd, 0u);
  EXPECT_EQ(e.total_rc, 0u);
  EXPECT_EQ(e.fetch, 0u);
  ASSERT_TRUE(t.predict(3));
  EXPECT_EQ(t.predict(3)->rd, 5u);
  EXPECT_EQ(t.predict(3)->rc, 0u);
}

TEST(RprHistory, TotalReuseSaturationAverages) {
  RprHistoryTable t;
  for (int i = 0; i < 30; ++i) t.miss_update(9);
  for (int i = 0; i < 254; ++i) t.hit_update(9, 0);
  EXPECT_FALSE(t.predict(9));
  t.hit_update(9, 0);  // total_rc reaches 255
  ASSERT_TRUE(t.predict(9));
  EXPECT_EQ(t.predict(9)->rd, 0u);  // 0 / 255
  EXPECT_EQ(t.predict(9)->rc, 8u);  // 255 / 30 = 8.5
}

TEST(RprHistory, SumSaturationAveragesWithTruncation) {
  RprHistoryTable t;
  for (int i = 0; i < 10; ++i) t.miss_update(100);
  for (int i = 0; i < 136; ++i) t.hit_update(100, 15);  // sum 2040
  EXPECT_FALSE(t.predict(100));
  t.hit_update(100, 15);  // 2055 saturates at 2047, total 137
  ASSERT_TRUE(t.predict(100));
  EXPECT_EQ(t.predict(100)->rd, 14u);  // 2047 / 137 = 14.94
  EXPECT_EQ(t.predict(100)->rc, 13u);  // 137 / 10
}

TEST(RprHistory, AveragesClampToFourBitsAndEmptyDenominatorsMeanFifteen) {
  RprHistoryTable t;
  for (int i = 0; i < 6; ++i) t.miss_update(1);
  for (int i = 0; i < 20; ++i) t.hit_update(1, 100);  // sum 2000, total 20
  t.hit_update(1, 100);                              // 2047, total 21
  EXPECT_EQ(t.predict(1)->rd, 15u);                  // 2047 / 21 = 97
  EXPECT_EQ(t.predict(1)->rc, 3u);                   // 21 / 6

  t.hit_update(2, 5000);  // one distance beyond the field: saturates at once, no fetch seen
  EXPECT_EQ(t.predict(2)->rd, 15u);
  EXPECT_EQ(t.predict(2)->rc, 15u);  // hits without fetches: reused a lot

  for (int i = 0; i < 31; ++i) t.miss_update(4);  // fetches without hits
  EXPECT_EQ(t.predict(4)->rd, 15u);               // no distance seen: far
  EXPECT_EQ(t.predict(4)->rc, 0u);
}

TEST(RprHistory, ANewWindowReplacesTheAveragesOnlyWhenItFills) {
  RprHistoryTable t;
  for (int i = 0; i < 31; ++i) t.miss_update(5);  // window 1: rd 15, rc 0
  for (int i = 0; i < 62; ++i) t.hit_update(5, 2);
  EXPECT_EQ(t.predict(5)->rd, 15u);  // window 2 still open: the old averages stand
  EXPECT_EQ(t.predict(5)->rc, 0u);
  for (int i = 0; i < 31; ++i) t.miss_update(5);
  EXPECT_EQ(t.predict(5)->rd, 2u);  // 124 / 62
  EXPECT_EQ(t.predict(5)->rc, 2u);  // 62 / 31
}

// ---------------------------------------------------------------- sampler

TEST(RprSamplerTest, SamplesEverySampleEveryThSet) {
  RprSampler s(32, 4, 4);
  for (uint32_t set = 0; set < 32; ++set) EXPECT_EQ(s.sampled(set), set % 4 == 0) << set;
  RprSampler all(8, 2, 1);
  for (uint32_t set = 0; set < 8; ++set) EXPECT_TRUE(all.sampled(set));
  RprSampler one(4, 2, 4);
  EXPECT_TRUE(one.sampled(0));
  EXPECT_FALSE(one.sampled(1));
}

TEST(RprSamplerTest, RejectsImpossibleShapes) {
  EXPECT_THROW(RprSampler(32, 4, 3), std::invalid_argument);
  EXPECT_THROW(RprSampler(32, 4, 0), std::invalid_argument);
  EXPECT_THROW(RprSampler(256, 4, 128), std::invalid_argument);
  EXPECT_THROW(RprSampler(4, 4, 8), std::invalid_argument);  // more than the sets
  EXPECT_THROW(RprSampler(4, 0, 4), std::invalid_argument);
}

TEST(RprSamplerTest, ReuseDistanceCountsSetAccessesSinceTheLastTouch) {
  RprSampler s(32, 4, 4);
  s.on_fill(4, 1, 77);  // counter 0
  EXPECT_EQ(s.signature(4, 1), 77u);
  for (int i = 0; i < 3; ++i) s.on_access(4);
  s.on_access(5);  // other sets' accesses do not count
  s.on_access(0);
  auto h = s.on_hit(4, 1);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->signature, 77u);
  EXPECT_EQ(h->distance, 3u);
  EXPECT_EQ(s.last_touch(4, 1), 3u);
  s.on_access(4);  // the access of the next hit itself (the L1 calls on_access first)
  h = s.on_hit(4, 1);
  EXPECT_EQ(h->distance, 1u);
  EXPECT_EQ(s.counter(4), 4u);
  EXPECT_EQ(s.counter(0), 1u);
}

TEST(RprSamplerTest, AFillRestartsTheWayAndUnsampledSetsGiveNothing) {
  RprSampler s(32, 4, 4);
  s.on_fill(0, 2, 10);
  for (int i = 0; i < 5; ++i) s.on_access(0);
  s.on_fill(0, 2, 11);  // a new block in the way
  s.on_access(0);
  const auto h = s.on_hit(0, 2);
  EXPECT_EQ(h->signature, 11u);
  EXPECT_EQ(h->distance, 1u);
  s.on_fill(3, 0, 12);
  s.on_access(3);
  EXPECT_FALSE(s.on_hit(3, 0));
  EXPECT_THROW((void)s.counter(3), std::out_of_range);
}

TEST(RprSamplerTest, CountersWrapAtSixteenBits) {
  RprSampler s(4, 1, 4);
  s.on_fill(0, 0, 1);
  for (int i = 0; i < 70000; ++i) s.on_access(0);
  EXPECT_EQ(s.counter(0), 70000u % 65536u);
  EXPECT_EQ(s.on_hit(0, 0)->distance, 70000u % 65536u);
}

// ---------------------------------------------------------------- policy: line fields

RprConfig rpr_cfg(RprScore score = RprScore::kReuseDistance, uint32_t default_rd = 8, uint32_t default_rc = 1) {
  RprConfig c;
  c.score = score;
  c.default_rd = default_rd;
  c.default_rc = default_rc;
  return c;
}

TEST(RprPolicyTest, NoPredictionGivesTheConfiguredDefaults) {
  RprPolicy p(8, 4, rpr_cfg(RprScore::kReuseDistance, 11, 3));
  p.on_fill(1, 2, AccessInfo{5, 9});
  EXPECT_EQ(p.line_rd(1, 2), 11u);
  EXPECT_EQ(p.line_rc(1, 2), 3u);
}

TEST(RprPolicyTest, AccessesCountRdDownInTheirSetAndHitsCountRcDown) {
  RprPolicy p(8, 4, rpr_cfg(RprScore::kReuseDistance, 8, 2));
  p.on_fill(1, 0, {});
  p.on_fill(1, 3, {});
  p.on_fill(2, 0, {});
  for (int i = 0; i < 3; ++i) p.on_access(1);
  EXPECT_EQ(p.line_rd(1, 0), 5u);
  EXPECT_EQ(p.line_rd(1, 3), 5u);
  EXPECT_EQ(p.line_rd(2, 0), 8u);  // another set
  for (int i = 0; i < 10; ++i) p.on_access(1);
  EXPECT_EQ(p.line_rd(1, 0), 0u);  // saturates at 0
  p.on_hit(1, 3, {});
  EXPECT_EQ(p.line_rc(1, 3), 1u);
  EXPECT_EQ(p.line_rc(1, 0), 2u);
  p.on_hit(1, 3, {});
  p.on_hit(1, 3, {});
  EXPECT_EQ(p.line_rc(1, 3), 0u);  // saturates at 0
  EXPECT_EQ(p.line_rd(1, 3), 0u);  // a hit does not restart RD
}

TEST(RprPolicyTest, SampledSetsTrainTheTableAndFillsAnywhereUseIt) {
  RprPolicy p(8, 4, rpr_cfg());  // sample_every 4: sets 0 and 4
  const AccessInfo a{0x25, 6};   // signature (5 << 4) | 1
  const uint32_t sig = rpr_signature(a.hpc, a.rel_age);
  p.on_fill(0, 1, a);
  EXPECT_EQ(p.sampler().signature(0, 1), sig);
  for (int i = 0; i < 62; ++i) {  // 62 hits, each 2 set accesses after the previous touch
    p.on_access(0);
    p.on_access(0);
    p.on_hit(0, 1, AccessInfo{0x1F, 40});  // the hitter's own signature is not what is trained
  }
  EXPECT_EQ(p.history().entry(sig).total_rc, 62u);
  EXPECT_EQ(p.history().entry(sig).sum_rd, 124u);
  EXPECT_EQ(p.history().entry(rpr_signature(0x1F, 40)).total_rc, 0u);
  for (int i = 0; i < 31; ++i) p.on_miss(1, a);  // set 1 is not sampled: no training
  EXPECT_EQ(p.history().entry(sig).fetch, 0u);
  for (int i = 0; i < 31; ++i) {
    p.on_access(4);
    p.on_miss(4, a);
  }
  ASSERT_TRUE(p.history().predict(sig));
  p.on_fill(3, 2, a);  // an unsampled set uses the prediction too
  EXPECT_EQ(p.line_rd(3, 2), 2u);  // 124 / 62
  EXPECT_EQ(p.line_rc(3, 2), 2u);  // 62 / 31
  p.on_fill(3, 1, AccessInfo{0x25, 60});  // same PC, another age bucket: no prediction yet
  EXPECT_EQ(p.line_rd(3, 1), 8u);
  EXPECT_EQ(p.line_rc(3, 1), 1u);
}

TEST(RprPolicyTest, RejectsConfigsTheFieldsCannotHold) {
  EXPECT_THROW(RprPolicy(8, 4, rpr_cfg(RprScore::kReuseDistance, 16, 1)), std::invalid_argument);
  EXPECT_THROW(RprPolicy(8, 4, rpr_cfg(RprScore::kReuseDistance, 8, 16)), std::invalid_argument);
  RprConfig c;
  c.sample_every = 16;
  EXPECT_THROW(RprPolicy(8, 4, c), std::invalid_argument);
}

TEST(RprPolicyTest, ScoresFollowTheDissertationsEquations) {
  EXPECT_EQ(RprPolicy::score(RprScore::kReuseDistance, 3, 9, 100), 253u);
  EXPECT_EQ(RprPolicy::score(RprScore::kCounter, 3, 9, 100), 265u);
  EXPECT_EQ(RprPolicy::score(RprScore::kCounter, 3, 0, 100), 0u);
  EXPECT_EQ(RprPolicy::score(RprScore::kAge, 3, 9, 100), 156u);
}

// ---------------------------------------------------------------- policy: victims

// One set (set 1 of 4, not sampled) of four lines, all of running warps of ages 10..20.
class RprVictim : public ::testing::Test {
 protected:
  AgeLruCounters ages;
  std::array<uint8_t, kMaxWays> awid{};

  void SetUp() override {
    ages.set(10, 20, false);
    awid[0] = awid[1] = awid[2] = awid[3] = 12;
  }
  uint32_t victim(const RprPolicy& p, WayMask eligible = first_n(4)) const {
    return p.victim(1, VictimContext{eligible, awid.data(), &ages});
  }
  // Fills ways 0..3 in order with `accesses_between` set accesses after each fill but the
  // last: way 0 is LRU and has the smallest RD left.
  static void fill_all(RprPolicy& p, int accesses_between) {
    for (uint32_t w = 0; w < 4; ++w) {
      p.on_fill(1, w, {});
      if (w < 3)
        for (int i = 0; i < accesses_between; ++i) p.on_access(1);
    }
  }
};

TEST_F(RprVictim, ReuseDistanceEvictsTheFarthestReuseNotTheLru) {
  RprPolicy p(4, 4, rpr_cfg());
  fill_all(p, 1);  // RD 5, 6, 7, 8
  EXPECT_EQ(p.line_rd(1, 0), 5u);
  EXPECT_EQ(p.line_rd(1, 3), 8u);
  EXPECT_EQ(victim(p), 3u);  // the MRU line, predicted to be reused farthest away
  EXPECT_EQ(victim(p, first_n(3)), 2u);
}

TEST_F(RprVictim, EqualScoresFallBackToLru) {
  RprPolicy p(4, 4, rpr_cfg());
  fill_all(p, 0);  // all RD 8
  EXPECT_EQ(victim(p), 0u);
  p.on_hit(1, 0, {});  // RC of way 0 goes to 0: dead
  EXPECT_EQ(victim(p), 0u);
  RprPolicy two_reuses(4, 4, rpr_cfg(RprScore::kReuseDistance, 8, 2));
  fill_all(two_reuses, 0);
  two_reuses.on_hit(1, 0, {});  // RC 1: alive, now MRU
  EXPECT_EQ(victim(two_reuses), 1u);
}

TEST_F(RprVictim, ALineWithNoReuseLeftIsDeadAndGoesFirst) {
  RprPolicy p(4, 4, rpr_cfg());
  fill_all(p, 1);
  p.on_hit(1, 1, {});  // RC 1 -> 0
  EXPECT_EQ(victim(p), 1u);  // dead beats the lowest score (way 3)
  EXPECT_EQ(victim(p, WayMask().set(0).set(3)), 3u);
}

TEST_F(RprVictim, AnInactiveWarpsLineIsDeadAndDeadLinesGoByLru) {
  RprPolicy p(4, 4, rpr_cfg());
  fill_all(p, 1);
  p.on_hit(1, 1, {});  // way 1 dead by RC, now MRU
  awid[2] = 5;         // way 2 dead: warp 5 has exited
  EXPECT_EQ(victim(p), 2u);
  awid[2] = 12;
  awid[0] = 21;  // beyond Youngest: inactive too; way 0 is the LRU dead line
  EXPECT_EQ(victim(p), 0u);
}

TEST_F(RprVictim, CounterScoreKeepsTheLinesWithMoreReusesLeft) {
  RprPolicy p(4, 4, rpr_cfg(RprScore::kCounter, 8, 3));
  fill_all(p, 0);
  p.on_hit(1, 2, {});
  p.on_hit(1, 2, {});  // RC 1
  EXPECT_EQ(victim(p), 2u);

  RprPolicy q(4, 4, rpr_cfg(RprScore::kCounter, 8, 3));
  fill_all(q, 0);
  q.on_hit(1, 0, {});
  q.on_hit(1, 3, {});  // RC 2, 3, 3, 2; recency MRU 3, 0, 2, 1
  EXPECT_EQ(victim(q), 0u);  // the older of the two lowest scores
  q.on_hit(1, 0, {});
  q.on_hit(1, 0, {});  // way 0 dead
  EXPECT_EQ(victim(q), 0u);
  EXPECT_EQ(victim(q, WayMask().set(1).set(2).set(3)), 3u);
}

TEST_F(RprVictim, AgeScoreIsAgeLruAndIgnoresTheReuseCount) {
  RprPolicy p(4, 4, rpr_cfg(RprScore::kAge, 8, 0));  // RC 0 everywhere: dead in any other mode
  fill_all(p, 0);
  awid = {};
  awid[0] = 11;
  awid[1] = 18;
  awid[2] = 18;
  awid[3] = 15;
  EXPECT_EQ(victim(p), 1u);  // the youngest warp's lines, LRU among them
  p.on_hit(1, 1, {});
  EXPECT_EQ(victim(p), 2u);
  awid[3] = 9;  // inactive
  EXPECT_EQ(victim(p), 3u);

  RprPolicy rd(4, 4, rpr_cfg(RprScore::kReuseDistance, 8, 0));
  fill_all(rd, 0);
  awid[3] = 15;
  EXPECT_EQ(victim(rd), 0u);  // every line dead by RC 0: plain LRU
}

TEST_F(RprVictim, VictimNeedsTheAgeContext) {
  RprPolicy p(4, 4, rpr_cfg());
  EXPECT_THROW(p.victim(1, VictimContext{first_n(4), nullptr, &ages}), std::logic_error);
  EXPECT_THROW(p.victim(1, VictimContext{first_n(4), awid.data(), nullptr}), std::logic_error);
  EXPECT_THROW(p.victim(1, VictimContext{WayMask(), awid.data(), &ages}), std::logic_error);
}

// The age score must choose exactly AgeLRU's victims whatever the hooks did before.
TEST(RprAgeScore, ChoosesTheAgeLruVictimUnderRandomHooks) {
  constexpr uint32_t kSets = 16, kWays = 8;
  RprPolicy rpr(kSets, kWays, rpr_cfg(RprScore::kAge, 8, 0));
  AgeLruPolicy agelru(kSets, kWays);
  std::mt19937 rng(99);
  AgeLruCounters ages;
  std::array<uint8_t, kMaxWays> awid{};
  for (int i = 0; i < 50000; ++i) {
    const uint32_t set = rng() % kSets, way = rng() % kWays;
    const AccessInfo info{static_cast<uint32_t>(rng()), static_cast<uint8_t>(rng())};
    switch (rng() % 4) {
      case 0:
        rpr.on_access(set);
        agelru.on_access(set);
        break;
      case 1:
        rpr.on_hit(set, way, info);
        agelru.on_hit(set, way, info);
        break;
      case 2:
        rpr.on_miss(set, info);
        agelru.on_miss(set, info);
        break;
      default:
        rpr.on_fill(set, way, info);
        agelru.on_fill(set, way, info);
        break;
    }
    const uint8_t oldest = static_cast<uint8_t>(rng());
    ages.set(oldest, static_cast<uint8_t>(oldest + rng() % 64), rng() % 16 == 0);
    for (uint32_t w = 0; w < kWays; ++w) awid[w] = static_cast<uint8_t>(oldest + rng() % 80 - 8);
    WayMask eligible(rng() & 0xFF);
    if (eligible.none()) eligible.set(rng() % kWays);
    const VictimContext ctx{eligible, awid.data(), &ages};
    ASSERT_EQ(rpr.victim(set, ctx), agelru.victim(set, ctx)) << "step " << i;
  }
}

}  // namespace
}  // namespace l1d::golden
