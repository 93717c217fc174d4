// Replacement policies (SPEC section 8, DESIGN.md "Policies are plug-ins"). Every policy
// gets a test that its state moves on the hooks that should move it and only on those.
#include "golden/replacement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace l1d::golden {
namespace {

using Ranks = std::vector<uint32_t>;

Ranks ranks_of(const ReplacementPolicy& p, uint32_t set) {
  Ranks r;
  for (uint32_t w = 0; w < p.ways(); ++w) r.push_back(p.rank(set, w));
  return r;
}

bool is_permutation_of_ways(const Ranks& r) {
  Ranks sorted = r;
  std::sort(sorted.begin(), sorted.end());
  Ranks iota(r.size());
  std::iota(iota.begin(), iota.end(), 0u);
  return sorted == iota;
}

WayMask only(uint32_t way) { return WayMask().set(way); }

WayMask first_n(uint32_t ways) {
  WayMask m;
  for (uint32_t w = 0; w < ways; ++w) m.set(w);
  return m;
}

// Exposes the protected rank helpers of the base class.
class RankProbe final : public ReplacementPolicy {
 public:
  using ReplacementPolicy::ReplacementPolicy;
  using ReplacementPolicy::demote;
  using ReplacementPolicy::lru_of;
  using ReplacementPolicy::promote;
  std::string name() const override { return "probe"; }
  void on_access(uint32_t) override {}
  void on_hit(uint32_t, uint32_t, const AccessInfo&) override {}
  void on_miss(uint32_t, const AccessInfo&) override {}
  void on_fill(uint32_t, uint32_t, const AccessInfo&) override {}
  uint32_t victim(uint32_t set, const VictimContext& ctx) const override { return lru_of(set, ctx.eligible); }
};

// One set of a cache driven through the hooks in the L1's order: every access calls on_access;
// then a hit calls on_hit; a miss calls on_miss, takes an invalid way or asks victim(), then
// calls on_fill.
class MiniSet {
 public:
  MiniSet(ReplacementPolicy& p, uint32_t set) : p_(p), set_(set), tags_(p.ways(), -1) {}

  bool access(int tag) {
    p_.on_access(set_);
    for (uint32_t w = 0; w < tags_.size(); ++w) {
      if (tags_[w] == tag) {
        p_.on_hit(set_, w, {});
        return true;
      }
    }
    p_.on_miss(set_, {});
    const auto invalid = std::find(tags_.begin(), tags_.end(), -1);
    last_victim_ = invalid != tags_.end() ? static_cast<uint32_t>(invalid - tags_.begin())
                                          : p_.victim(set_, VictimContext{first_n(p_.ways())});
    tags_[last_victim_] = tag;
    p_.on_fill(set_, last_victim_, {});
    return false;
  }
  uint32_t last_victim() const { return last_victim_; }

 private:
  ReplacementPolicy& p_;
  uint32_t set_;
  std::vector<int> tags_;
  uint32_t last_victim_ = 0;
};

int hits_on_cyclic_stream(ReplacementPolicy& p, uint32_t set, int distinct_tags, int rounds) {
  MiniSet s(p, set);
  int hits = 0;
  for (int r = 0; r < rounds; ++r) {
    for (int t = 0; t < distinct_tags; ++t) hits += s.access(t);
  }
  return hits;
}

// ---------------------------------------------------------------- shared rank state

TEST(RankState, ResetGivesWayItsIndexInEverySet) {
  RankProbe p(3, 4);
  for (uint32_t s = 0; s < 3; ++s) EXPECT_EQ(ranks_of(p, s), (Ranks{0, 1, 2, 3}));
}

TEST(RankState, PromoteAgesOnlyTheMoreRecentWays) {
  RankProbe p(1, 4);
  p.promote(0, 2);
  EXPECT_EQ(ranks_of(p, 0), (Ranks{1, 2, 0, 3}));  // way 3 was less recent: untouched
  p.promote(0, 2);
  EXPECT_EQ(ranks_of(p, 0), (Ranks{1, 2, 0, 3}));  // promoting the MRU way is a no-op
}

TEST(RankState, DemoteMovesUpOnlyTheLessRecentWays) {
  RankProbe p(1, 4);
  p.demote(0, 1);
  EXPECT_EQ(ranks_of(p, 0), (Ranks{0, 3, 1, 2}));  // way 0 was more recent: untouched
  p.demote(0, 1);
  EXPECT_EQ(ranks_of(p, 0), (Ranks{0, 3, 1, 2}));
}

TEST(RankState, HooksTouchOnlyTheirOwnSet) {
  RankProbe p(2, 4);
  p.promote(1, 3);
  p.demote(1, 0);
  EXPECT_EQ(ranks_of(p, 0), (Ranks{0, 1, 2, 3}));
  EXPECT_EQ(ranks_of(p, 1), (Ranks{3, 1, 2, 0}));
}

TEST(RankState, LruOfPicksTheLargestRankInsideTheMask) {
  RankProbe p(1, 4);
  p.promote(0, 3);  // ranks {1, 2, 3, 0}
  EXPECT_EQ(p.lru_of(0, first_n(4)), 2u);
  EXPECT_EQ(p.lru_of(0, WayMask().set(0).set(3)), 0u);
  EXPECT_EQ(p.lru_of(0, only(3)), 3u);
  EXPECT_EQ(p.lru_of(0, WayMask().set(1).set(40)), 1u);  // bits beyond the ways are ignored
}

TEST(RankState, EmptyEligibleMaskIsACallerBug) {
  RankProbe p(1, 4);
  EXPECT_THROW(p.lru_of(0, WayMask()), std::logic_error);
  EXPECT_THROW(p.lru_of(0, only(4)), std::logic_error);
}

TEST(RankState, GeometryIsValidated) {
  EXPECT_THROW(RankProbe(0, 4), std::invalid_argument);
  EXPECT_THROW(RankProbe(4, 0), std::invalid_argument);
  EXPECT_THROW(RankProbe(4, kMaxWays + 1), std::invalid_argument);
  RankProbe widest(1, kMaxWays);
  widest.promote(0, kMaxWays - 1);
  EXPECT_EQ(widest.rank(0, 0), 1u);
  EXPECT_TRUE(is_permutation_of_ways(ranks_of(widest, 0)));
}

TEST(RankState, OutOfRangeSetOrWayThrows) {
  RankProbe p(2, 4);
  EXPECT_THROW(p.promote(2, 0), std::out_of_range);
  EXPECT_THROW(p.demote(0, 4), std::out_of_range);
}

// ---------------------------------------------------------------- LFSR

TEST(Lfsr16, StepsFollowTheGaloisDefinition) {
  Lfsr16 l(0xACE1);
  EXPECT_EQ(l.next(), 0xE270);  // bit 0 was 1: 0x5670 ^ 0xB400
  EXPECT_EQ(l.next(), 0x7138);  // bit 0 was 0: plain shift
  EXPECT_EQ(l.state(), 0x7138);
}

TEST(Lfsr16, ZeroSeedIsReplacedByOne) {
  Lfsr16 l(0);
  EXPECT_EQ(l.state(), 1);
  EXPECT_EQ(l.next(), 0xB400);
}

TEST(Lfsr16, HasMaximalPeriod) {
  Lfsr16 l(1);
  uint32_t steps = 0;
  do {
    ++steps;
  } while (l.next() != 1 && steps < 70000);
  EXPECT_EQ(steps, 65535u);
}

// ---------------------------------------------------------------- every policy

struct PolicyCase {
  ReplacementKind kind;
  const char* name;
  bool hit_promotes;          // FIFO ignores hits
  bool fill_always_promotes;  // BIP and DIP may insert at LRU
  bool victim_is_lru = true;  // RPR ranks lines by predicted reuse first
};

const PolicyCase kCases[] = {
    {ReplacementKind::kLru, "lru", true, true},      {ReplacementKind::kFifo, "fifo", false, true},
    {ReplacementKind::kBip, "bip", true, false},     {ReplacementKind::kDip, "dip", true, false},
    {ReplacementKind::kAgeLru, "agelru", true, true}, {ReplacementKind::kRpr, "rpr", true, true, false},
};

class EveryPolicy : public ::testing::TestWithParam<PolicyCase> {
 protected:
  static constexpr uint32_t kSets = 64;
  static constexpr uint32_t kWays = 8;

  std::unique_ptr<ReplacementPolicy> make() const {
    return make_replacement(GetParam().kind, kSets, kWays, PolicyConfig{});
  }
  // All lines filled by one running warp: AgeLRU then reduces to LRU, the others ignore it.
  VictimContext ctx(WayMask eligible) const { return VictimContext{eligible, awid_.data(), &ages_}; }

  // Random accesses, hits, misses and fills over a few sets (victim calls interleaved when asked).
  void random_hooks(ReplacementPolicy& p, uint32_t seed, int steps, bool call_victim) const {
    std::mt19937 rng(seed);
    for (int i = 0; i < steps; ++i) {
      const uint32_t set = rng() % kSets, way = rng() % kWays;
      const AccessInfo info{static_cast<uint32_t>(rng() % 256), static_cast<uint8_t>(rng() % 64)};
      switch (rng() % 4) {
        case 0: p.on_hit(set, way, info); break;
        case 1: p.on_miss(set, info); break;
        case 2: p.on_access(set); break;
        default: p.on_fill(set, way, info); break;
      }
      if (call_victim) (void)p.victim(set, ctx(first_n(kWays)));
    }
  }

  std::array<uint8_t, kWays> awid_{};
  AgeLruCounters ages_ = [] {
    AgeLruCounters c;
    c.launch();
    return c;
  }();
};

TEST_P(EveryPolicy, NameIsTheRegistryName) { EXPECT_EQ(make()->name(), GetParam().name); }

TEST_P(EveryPolicy, MissLeavesRanksAlone) {
  auto p = make();
  for (uint32_t s = 0; s < kSets; ++s) p->on_miss(s, {});
  for (uint32_t s = 0; s < kSets; ++s) EXPECT_EQ(ranks_of(*p, s), ranks_of(RankProbe(kSets, kWays), s));
}

TEST_P(EveryPolicy, HitMovesTheWayToMruExactlyWhenThePolicyUsesRecency) {
  auto p = make();
  const Ranks before = ranks_of(*p, 5);
  p->on_hit(5, kWays - 1, {});
  const Ranks after = ranks_of(*p, 5);
  if (GetParam().hit_promotes) {
    EXPECT_EQ(after, (Ranks{1, 2, 3, 4, 5, 6, 7, 0}));
  } else {
    EXPECT_EQ(after, before);
  }
  EXPECT_EQ(ranks_of(*p, 4), before);  // a neighbouring set never moves
}

TEST_P(EveryPolicy, FillMovesTheWayToAnEnd) {
  auto p = make();
  const Ranks before = ranks_of(*p, 33);  // a DIP follower
  p->on_fill(33, 3, {});
  const Ranks after = ranks_of(*p, 33);
  EXPECT_NE(after, before);
  if (GetParam().fill_always_promotes) {
    EXPECT_EQ(after[3], 0u);
  } else {
    EXPECT_TRUE(after[3] == 0u || after[3] == kWays - 1) << after[3];
  }
}

TEST_P(EveryPolicy, RanksStayAPermutationUnderRandomHooks) {
  auto p = make();
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    random_hooks(*p, static_cast<uint32_t>(rng()), 2000, false);
    for (uint32_t s = 0; s < kSets; ++s) ASSERT_TRUE(is_permutation_of_ways(ranks_of(*p, s))) << "set " << s;
  }
}

TEST_P(EveryPolicy, SingleEligibleWayIsTheVictim) {
  auto p = make();
  random_hooks(*p, 11, 3000, false);
  for (uint32_t s = 0; s < kSets; s += 7) {
    for (uint32_t w = 0; w < kWays; ++w) EXPECT_EQ(p->victim(s, ctx(only(w))), w);
  }
}

TEST_P(EveryPolicy, VictimIsTheLeastRecentEligibleWay) {
  if (!GetParam().victim_is_lru) GTEST_SKIP() << "victims follow predicted reuse (RprPolicy tests)";
  auto p = make();
  random_hooks(*p, 13, 3000, false);
  std::mt19937 rng(17);
  for (int i = 0; i < 500; ++i) {
    const uint32_t set = rng() % kSets;
    WayMask eligible(rng() & 0xFF);
    if (eligible.none()) eligible.set(rng() % kWays);
    const uint32_t v = p->victim(set, ctx(eligible));
    ASSERT_TRUE(eligible.test(v));
    for (uint32_t w = 0; w < kWays; ++w) {
      if (eligible.test(w)) {
        ASSERT_GE(p->rank(set, v), p->rank(set, w));
      }
    }
  }
}

TEST_P(EveryPolicy, VictimChangesNoState) {
  // Twins see the same hooks; one is also asked for victims. BIP's LFSR must not notice.
  auto quiet = make();
  auto asked = make();
  random_hooks(*quiet, 23, 5000, false);
  random_hooks(*asked, 23, 5000, true);
  for (uint32_t s = 0; s < kSets; ++s) ASSERT_EQ(ranks_of(*asked, s), ranks_of(*quiet, s));
}

std::string case_name(const ::testing::TestParamInfo<PolicyCase>& c) { return c.param.name; }
INSTANTIATE_TEST_SUITE_P(Policies, EveryPolicy, ::testing::ValuesIn(kCases), case_name);

// ---------------------------------------------------------------- LRU and FIFO

TEST(Lru, VictimSequenceOnAHandWrittenPattern) {
  LruPolicy p(1, 4);
  MiniSet s(p, 0);
  for (int tag : {'A', 'B', 'C', 'D'}) EXPECT_FALSE(s.access(tag));  // fill ways 0..3
  EXPECT_TRUE(s.access('A'));
  EXPECT_FALSE(s.access('E'));
  EXPECT_EQ(s.last_victim(), 1u);  // B was least recent
  EXPECT_TRUE(s.access('C'));
  EXPECT_FALSE(s.access('F'));
  EXPECT_EQ(s.last_victim(), 3u);  // recency now C E A D: D goes
  EXPECT_FALSE(s.access('B'));
  EXPECT_EQ(s.last_victim(), 0u);  // F C E A: A goes
  EXPECT_TRUE(s.access('E'));
  EXPECT_FALSE(s.access('D'));
  EXPECT_EQ(s.last_victim(), 2u);  // E B F C: C goes
}

TEST(Lru, CyclicStreamLargerThanTheSetNeverHits) {
  LruPolicy p(1, 4);
  EXPECT_EQ(hits_on_cyclic_stream(p, 0, 5, 50), 0);
}

TEST(Fifo, HitsDoNotSaveTheOldestLine) {
  FifoPolicy p(1, 4);
  MiniSet s(p, 0);
  for (int tag : {'A', 'B', 'C', 'D'}) s.access(tag);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(s.access('A'));
  EXPECT_FALSE(s.access('E'));
  EXPECT_EQ(s.last_victim(), 0u);  // LRU would have evicted B (way 1)
}

TEST(Fifo, VictimsRotateInFillOrder) {
  FifoPolicy p(1, 4);
  MiniSet s(p, 0);
  for (int tag = 0; tag < 4; ++tag) s.access(tag);
  std::vector<uint32_t> victims;
  // Tags 1 and 3 are hit just before their turn; FIFO evicts them anyway.
  for (int tag : {4, 1, 5, 6, 3, 7, 8}) {
    if (!s.access(tag)) victims.push_back(s.last_victim());
  }
  EXPECT_EQ(victims, (std::vector<uint32_t>{0, 1, 2, 3, 0}));
}

// ---------------------------------------------------------------- BIP

TEST(Bip, ExactlyTheLfsrChosenFillsGoToMru) {
  const BipConfig cfg;  // 1 in 32, seed 0xACE1
  BipPolicy p(4, 8, cfg);
  Lfsr16 reference(static_cast<uint16_t>(cfg.lfsr_seed));
  int mru = 0;
  for (int i = 0; i < 4000; ++i) {
    const uint32_t set = static_cast<uint32_t>(i % 4), way = static_cast<uint32_t>(i % 8);
    p.on_hit(set, (way + 3) % 8, {});  // hits and misses must not consume LFSR steps
    p.on_miss(set, {});
    p.on_fill(set, way, {});
    const bool expect_mru = (reference.next() & (cfg.mru_one_in - 1)) == 0;
    ASSERT_EQ(p.rank(set, way), expect_mru ? 0u : 7u) << "fill " << i;
    mru += expect_mru;
  }
  EXPECT_GT(mru, 0);  // the test saw both outcomes
}

TEST(Bip, AboutOneFillIn32GoesToMru) {
  BipPolicy p(1, 4, BipConfig{});
  int mru = 0;
  const int fills = 32768;
  for (int i = 0; i < fills; ++i) {
    p.on_fill(0, 1, {});
    mru += p.rank(0, 1) == 0;
  }
  EXPECT_NEAR(mru, fills / 32, fills / 32 / 10);
}

TEST(Bip, MruOneInOneIsLruInsertion) {
  BipPolicy p(1, 4, BipConfig{1, 0xACE1});
  for (uint32_t w = 0; w < 4; ++w) {
    p.on_fill(0, w, {});
    EXPECT_EQ(p.rank(0, w), 0u);
  }
}

TEST(Bip, KeepsPartOfAThrashingWorkingSet) {
  // 5 lines cycling through 4 ways: LRU never hits, BIP pins most of the set.
  BipPolicy bip(1, 4, BipConfig{});
  LruPolicy lru(1, 4);
  const int bip_hits = hits_on_cyclic_stream(bip, 0, 5, 200);
  EXPECT_EQ(hits_on_cyclic_stream(lru, 0, 5, 200), 0);
  EXPECT_GT(bip_hits, 200 * 5 / 2);
}

TEST(Bip, RejectsConfigsTheHardwareCannotDo) {
  EXPECT_THROW(BipPolicy(1, 4, (BipConfig{0, 1})), std::invalid_argument);
  EXPECT_THROW(BipPolicy(1, 4, (BipConfig{24, 1})), std::invalid_argument);
  EXPECT_THROW(BipPolicy(1, 4, (BipConfig{32, 0x10000})), std::invalid_argument);
}

// ---------------------------------------------------------------- DIP

DipConfig dip_cfg(uint32_t psel_bits, uint32_t leaders) {
  DipConfig c;
  c.psel_bits = psel_bits;
  c.leader_sets_per_policy = leaders;
  return c;
}

TEST(Dip, LeaderSetsFollowTheModulo32Rule) {
  using Role = DipPolicy::Role;
  const DipPolicy one(64, 4, dip_cfg(10, 1), BipConfig{});
  EXPECT_EQ(one.role(0), Role::kLruLeader);
  EXPECT_EQ(one.role(32), Role::kLruLeader);
  EXPECT_EQ(one.role(31), Role::kBipLeader);
  EXPECT_EQ(one.role(63), Role::kBipLeader);
  for (uint32_t s : {1u, 17u, 30u, 33u, 62u}) EXPECT_EQ(one.role(s), Role::kFollower) << s;

  const DipPolicy four(32, 4, dip_cfg(10, 4), BipConfig{});
  for (uint32_t s = 0; s < 32; ++s) {
    const Role expected = s < 4 ? Role::kLruLeader : s >= 28 ? Role::kBipLeader : Role::kFollower;
    EXPECT_EQ(four.role(s), expected) << s;
  }
}

TEST(Dip, PselStartsAtItsMidpoint) {
  const DipPolicy p(64, 4, dip_cfg(10, 1), BipConfig{});
  EXPECT_EQ(p.psel(), 512u);
  EXPECT_EQ(p.psel_midpoint(), 512u);
  EXPECT_EQ(p.psel_max(), 1023u);
}

TEST(Dip, PselMovesOnlyOnLeaderMisses) {
  DipPolicy p(64, 4, dip_cfg(10, 1), BipConfig{});
  p.on_miss(0, {});  // LRU leader: LRU missed, vote for BIP
  EXPECT_EQ(p.psel(), 513u);
  p.on_miss(63, {});  // BIP leader
  p.on_miss(31, {});
  EXPECT_EQ(p.psel(), 511u);
  p.on_miss(5, {});  // follower
  p.on_hit(0, 1, {});
  p.on_fill(31, 2, {});
  EXPECT_EQ(p.psel(), 511u);
}

TEST(Dip, PselSaturatesAtBothEnds) {
  DipPolicy p(64, 4, dip_cfg(2, 1), BipConfig{});
  for (int i = 0; i < 10; ++i) p.on_miss(0, {});
  EXPECT_EQ(p.psel(), 3u);
  for (int i = 0; i < 10; ++i) p.on_miss(31, {});
  EXPECT_EQ(p.psel(), 0u);
}

TEST(Dip, FollowersSwitchInsertionWhenPselCrossesTheMidpoint) {
  const BipConfig bip;
  DipPolicy p(64, 8, dip_cfg(10, 1), bip);
  Lfsr16 reference(static_cast<uint16_t>(bip.lfsr_seed));
  const uint32_t follower = 10;

  p.on_miss(31, {});  // PSEL = midpoint - 1: followers insert like LRU
  for (uint32_t i = 0; i < 50; ++i) {
    p.on_fill(follower, i % 8, {});
    ASSERT_EQ(p.rank(follower, i % 8), 0u);
  }
  p.on_miss(0, {});  // back to the midpoint: followers insert like BIP, from an unused LFSR
  ASSERT_EQ(p.psel(), p.psel_midpoint());
  int lru_inserts = 0;
  for (uint32_t i = 0; i < 200; ++i) {
    p.on_fill(follower, i % 8, {});
    const bool mru = (reference.next() & 31) == 0;
    ASSERT_EQ(p.rank(follower, i % 8), mru ? 0u : 7u) << i;
    lru_inserts += !mru;
  }
  EXPECT_GT(lru_inserts, 150);
}

TEST(Dip, LeadersIgnorePselAndOnlyBipInsertionsStepTheLfsr) {
  const BipConfig bip;
  DipPolicy p(64, 8, dip_cfg(4, 1), bip);
  Lfsr16 reference(static_cast<uint16_t>(bip.lfsr_seed));
  for (int i = 0; i < 20; ++i) p.on_miss(31, {});  // PSEL 0: LRU is winning
  ASSERT_EQ(p.psel(), 0u);
  for (uint32_t i = 0; i < 300; ++i) {
    p.on_fill(0, i % 8, {});  // LRU leader: always MRU, no LFSR step
    ASSERT_EQ(p.rank(0, i % 8), 0u);
    p.on_fill(31, i % 8, {});  // BIP leader: BIP although PSEL says LRU
    ASSERT_EQ(p.rank(31, i % 8), (reference.next() & 31) == 0 ? 0u : 7u) << i;
  }
}

TEST(Dip, ThrashingStreamPushesFollowersToBip) {
  DipPolicy p(64, 4, dip_cfg(10, 1), BipConfig{});
  const int lru_leader_hits = hits_on_cyclic_stream(p, 0, 5, 100);
  const int bip_leader_hits = hits_on_cyclic_stream(p, 31, 5, 100);
  EXPECT_EQ(lru_leader_hits, 0);
  EXPECT_GT(bip_leader_hits, 0);
  EXPECT_GT(p.psel(), p.psel_midpoint());
  EXPECT_GT(hits_on_cyclic_stream(p, 7, 5, 100), 0);  // a follower now resists thrashing
}

TEST(Dip, FewerThan32SetsHaveNoBipLeader) {
  // Documented corner: the s % 32 rule is kept, so 8 sets give set 0 to LRU and none to BIP.
  DipPolicy p(8, 4, dip_cfg(10, 1), BipConfig{});
  EXPECT_EQ(p.role(0), DipPolicy::Role::kLruLeader);
  for (uint32_t s = 1; s < 8; ++s) EXPECT_EQ(p.role(s), DipPolicy::Role::kFollower);
}

TEST(Dip, RejectsImpossibleConfigs) {
  EXPECT_THROW(DipPolicy(64, 4, dip_cfg(0, 1), BipConfig{}), std::invalid_argument);
  EXPECT_THROW(DipPolicy(64, 4, dip_cfg(17, 1), BipConfig{}), std::invalid_argument);
  EXPECT_THROW(DipPolicy(64, 4, dip_cfg(10, 17), BipConfig{}), std::invalid_argument);
}

// ---------------------------------------------------------------- AgeLRU

class AgeLru : public ::testing::Test {
 protected:
  AgeLruPolicy p{1, 4};
  AgeLruCounters ages;
  std::array<uint8_t, 4> awid{};

  void SetUp() override {
    ages.set(10, 20, false);
    for (uint32_t w : {3u, 2u, 1u, 0u}) p.on_fill(0, w, {});  // recency: way 0 MRU ... way 3 LRU
  }
  uint32_t victim(WayMask eligible = first_n(4)) const {
    return p.victim(0, VictimContext{eligible, awid.data(), &ages});
  }
};

TEST_F(AgeLru, InactiveWarpsLineGoesFirst) {
  awid = {5, 20, 11, 12};  // way 0 (MRU) was filled by warp 5, which has exited
  EXPECT_EQ(victim(), 0u);
}

TEST_F(AgeLru, InactiveLinesAreTieBrokenByLru) {
  awid = {5, 21, 11, 12};  // warps 5 and 21 are outside [10, 20]
  EXPECT_EQ(victim(), 1u);
  p.on_hit(0, 1, {});
  EXPECT_EQ(victim(), 0u);
}

TEST_F(AgeLru, OtherwiseTheYoungestWarpsLineGoes) {
  awid = {20, 10, 15, 12};  // all active; warp 20 is youngest although its line is MRU
  EXPECT_EQ(victim(), 0u);
}

TEST_F(AgeLru, YoungestWarpsLinesAreTieBrokenByLru) {
  awid = {18, 18, 10, 18};
  EXPECT_EQ(victim(), 3u);
  p.on_hit(0, 3, {});
  EXPECT_EQ(victim(), 1u);
}

TEST_F(AgeLru, AgesCountAcrossTheWrap) {
  ages.set(250, 5, false);
  awid = {255, 3, 250, 0};  // 3 is the youngest (relative age 9), not the numerically largest
  EXPECT_EQ(victim(), 1u);
  awid = {255, 3, 249, 0};  // 249 is just below Oldest: inactive
  EXPECT_EQ(victim(), 2u);
}

TEST_F(AgeLru, EligibleMaskLimitsBothSteps) {
  awid = {5, 20, 12, 11};
  EXPECT_EQ(victim(WayMask().set(1).set(2).set(3)), 1u);  // inactive way 0 filtered out
  EXPECT_EQ(victim(WayMask().set(2).set(3)), 2u);         // youngest eligible is warp 12
}

TEST_F(AgeLru, AllLinesOfTheOldestRunningWarpStillYieldAVictim) {
  // No-eligible-victim corner: nothing inactive, nothing younger; fall back to plain LRU.
  awid = {10, 10, 10, 10};
  EXPECT_EQ(victim(), 3u);
  EXPECT_EQ(victim(only(0)), 0u);
}

TEST_F(AgeLru, NoRunningWarpMakesEveryLineInactive) {
  awid = {10, 20, 15, 12};
  ages.set(10, 20, true);
  EXPECT_EQ(victim(), 3u);
}

TEST_F(AgeLru, HitsAndFillsUpdateRecency) {
  p.on_hit(0, 3, {});
  EXPECT_EQ(ranks_of(p, 0), (Ranks{1, 2, 3, 0}));
  p.on_fill(0, 2, {});
  EXPECT_EQ(ranks_of(p, 0), (Ranks{2, 3, 0, 1}));
}


TEST(AgeLruPolicy, AgeFilterOffIsPlainLru) {
  AgeLruPolicy p(1, 4);
  AgeLruCounters ages;
  for (int i = 0; i < 4; ++i) ages.launch();
  std::array<uint8_t, kMaxWays> awid{};
  awid[0] = 3;  // youngest warp's line, but way 0 is MRU below
  p.on_fill(0, 1, {});
  p.on_fill(0, 2, {});
  p.on_fill(0, 3, {});
  p.on_fill(0, 0, {});  // LRU order now: 1, 2, 3, 0 (1 least recent)
  VictimContext with{first_n(4), awid.data(), &ages};
  EXPECT_EQ(p.victim(0, with), 0u);  // the age filter picks the youngest warp's line
  VictimContext without = with;
  without.age_filter = false;
  EXPECT_EQ(p.victim(0, without), 1u);  // plain LRU
}

TEST_F(AgeLru, VictimWithoutAgeContextThrows) {
  EXPECT_THROW(p.victim(0, VictimContext{first_n(4), nullptr, &ages}), std::logic_error);
  EXPECT_THROW(p.victim(0, VictimContext{first_n(4), awid.data(), nullptr}), std::logic_error);
}

// ---------------------------------------------------------------- registry

TEST(Registry, NamesAreTheSixPoliciesInKindOrder) {
  EXPECT_EQ(replacement_names(), (std::vector<std::string>{"lru", "fifo", "bip", "dip", "agelru", "rpr"}));
}

TEST(Registry, EveryKindBuildsAPolicyWithItsName) {
  for (const PolicyCase& c : kCases) {
    const auto p = make_replacement(c.kind, 32, 4, PolicyConfig{});
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->name(), c.name);
    EXPECT_EQ(p->sets(), 32u);
    EXPECT_EQ(p->ways(), 4u);
  }
}

TEST(Registry, UnknownKindThrows) {
  EXPECT_THROW(make_replacement(static_cast<ReplacementKind>(200), 32, 4, PolicyConfig{}), std::invalid_argument);
}

TEST(Registry, PolicyConfigReachesThePolicy) {
  PolicyConfig cfg;
  cfg.dip.psel_bits = 4;
  cfg.bip.mru_one_in = 1;
  const auto dip = make_replacement(ReplacementKind::kDip, 64, 4, cfg);
  EXPECT_EQ(dynamic_cast<const DipPolicy&>(*dip).psel(), 8u);
  auto bip = make_replacement(ReplacementKind::kBip, 1, 4, cfg);
  bip->on_fill(0, 3, {});
  EXPECT_EQ(bip->rank(0, 3), 0u);  // 1 in 1 goes to MRU
}

}  // namespace
}  // namespace l1d::golden
