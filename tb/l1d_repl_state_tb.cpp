// Testbench of l1d_repl_state (gen/blocks/l1d_repl_state.cpp) against golden::ReplacementPolicy
// (the policy each configuration names; SPEC section 8) on every configuration of RTL_TB_CONFIGS
// (all LRU) and on the block's own tb/block_configs/repl_{fifo,bip,dip,agelru}.yaml:
// - the golden model's directed cases, through the ports: reset ranks in every set; each hook on
//   its own set only; the LRU and FIFO hand-written victim sequences; BIP's LFSR-chosen MRU fills
//   (against an independent golden::Lfsr16); DIP's PSEL saturation, follower switching and
//   leaders that ignore PSEL; the AgeLRU victim cases (inactive warps, youngest warp, the wrap,
//   the eligible mask, no running warp, age filter off), which the other policies must ignore;
// - >= 10^5 random cycles in phases: hit, miss and fill together or one per cycle (as golden::L1
//   calls them), hot sets (DIP: leaders and followers), fills at the golden victim or anywhere,
//   eligible masks from one way to all, warp ages with ties, wraps and empty SMs;
// - the netlist co-simulation.
// Each cycle compares victim_o and ranks_o (the ranks of set_i) with the golden model before the
// cycle's hooks, which golden() then calls in the block's order: on_hit, on_miss, on_fill.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <iostream>
#include <memory>
#include <ostream>
#include <random>
#include <vector>

#include "common/address.h"
#include "golden/agelru_counters.h"
#include "golden/replacement.h"
#include "l1d_repl_state_models.h"
#include "tb/testbench.h"

namespace {

using l1d::ReplacementKind;
using l1d::golden::AgeLruCounters;
using l1d::golden::ReplacementPolicy;
using l1d::golden::VictimContext;
using l1d::golden::WayMask;

constexpr uint64_t kRandomCycles = 200'000;
constexpr uint64_t kCosimCycles = 20'000;

uint64_t all_ways(uint32_t ways) { return ways >= 64 ? ~uint64_t{0} : (uint64_t{1} << ways) - 1; }

// The inputs of one cycle. The AgeLRU ports are given as what produces them in l1d_top: the
// SM's age counters and each way's AWID; drive() turns them into way_active_i / way_rel_age_i
// with golden::AgeLruCounters, which l1d_agelru_ages' query ports match (its own testbench).
struct ReplIn {
  bool hit = false;
  uint32_t hit_set = 0, hit_way = 0;
  bool miss = false;
  uint32_t miss_set = 0;
  bool fill = false;
  uint32_t fill_set = 0, fill_way = 0;
  uint32_t set = 0;
  uint64_t eligible = 1;
  uint32_t oldest = 0, youngest = 255;
  bool empty = true;
  std::vector<uint32_t> awid;  // per way (missing ways: AWID 0)
  bool age_filter = true;

  AgeLruCounters ages() const {
    AgeLruCounters c;
    c.set(static_cast<uint8_t>(oldest), static_cast<uint8_t>(youngest), empty);
    return c;
  }
  uint8_t awid_of(uint32_t w) const { return static_cast<uint8_t>(w < awid.size() ? awid[w] : 0); }

  bool operator==(const ReplIn&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const ReplIn& in) {
    os << fmt::format(
        "hit_i {} hit_set_i {} hit_way_i {} miss_i {} miss_set_i {} fill_i {} fill_set_i {} fill_way_i {} "
        "set_i {} eligible_i {:#x} ages (oldest {} youngest {} empty {}) age_filter_i {} awids",
        in.hit, in.hit_set, in.hit_way, in.miss, in.miss_set, in.fill, in.fill_set, in.fill_way, in.set, in.eligible,
        in.oldest, in.youngest, in.empty, in.age_filter);
    for (uint32_t a : in.awid) os << ' ' << a;
    return os;
  }
};

struct ReplOut {
  uint32_t victim = 0;
  std::vector<uint32_t> ranks;
  bool operator==(const ReplOut&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const ReplOut& o) {
    os << "victim_o " << o.victim << " ranks_o";
    for (uint32_t r : o.ranks) os << ' ' << r;
    return os;
  }
};

// The random stimulus, in phases of kPhase cycles (shared by the random test and the netlist
// co-simulation; with a golden model it also places some fills at the golden victim).
class Stimulus {
 public:
  static constexpr uint64_t kPhase = 2000;

  Stimulus(const l1d::Config& cfg, uint32_t sets)
      : sets_(sets), ways_(cfg.l1.ways), dip_(cfg.policy.replacement == ReplacementKind::kDip),
        leaders_(cfg.policy.dip.leader_sets_per_policy) {}

  ReplIn next(std::mt19937_64& r, const ReplacementPolicy* model) {
    if (cycle_++ % kPhase == 0) new_phase(r);
    ReplIn in;
    const auto pct = [&](uint32_t p) { return r() % 100 < p; };
    const auto way = [&] { return static_cast<uint32_t>(r() % ways_); };
    in.hit_set = pick_set(r);
    in.hit_way = way();
    in.miss_set = miss_set(r);
    in.fill_set = pick_set(r);
    in.fill_way = way();
    if (one_event_) {
      if (pct(event_rate_)) {
        const uint64_t e = r() % 3;
        in.hit = e == 0;
        in.miss = e == 1;
        in.fill = e == 2;
      }
    } else {
      in.hit = pct(p_hit_);
      in.miss = pct(p_miss_);
      in.fill = pct(p_fill_);
    }
    // The query: often the fill's set, as in the fill unit; else a hot set or any.
    in.set = in.fill && pct(60) ? in.fill_set : pick_set(r);
    const uint64_t all = all_ways(ways_);
    const uint64_t k = r() % 10;
    in.eligible = k < 6 ? all : k < 9 ? (r() & all) : (uint64_t{1} << way());
    if (in.eligible == 0) in.eligible = uint64_t{1} << way();
    in.oldest = oldest_;
    in.youngest = static_cast<uint8_t>(oldest_ + span_);
    in.empty = empty_;
    for (uint32_t w = 0; w < ways_; ++w) in.awid.push_back(pool_[r() % pool_.size()]);
    in.age_filter = pct(90);
    // The fill unit replaces the victim of the set it queries.
    if (model != nullptr && in.fill && in.set == in.fill_set && pct(victim_fill_)) {
      const AgeLruCounters ages = in.ages();
      std::array<uint8_t, l1d::golden::kMaxWays> awid{};
      for (uint32_t w = 0; w < ways_; ++w) awid[w] = in.awid_of(w);
      in.fill_way = model->victim(in.set, VictimContext{WayMask(in.eligible), awid.data(), &ages, in.age_filter});
    }
    return in;
  }

 private:
  void new_phase(std::mt19937_64& r) {
    one_event_ = r() % 2 == 0;
    event_rate_ = std::array<uint32_t, 3>{30, 70, 100}[r() % 3];
    p_hit_ = std::array<uint32_t, 3>{10, 40, 80}[r() % 3];
    p_miss_ = std::array<uint32_t, 3>{10, 40, 80}[r() % 3];
    p_fill_ = std::array<uint32_t, 3>{10, 40, 80}[r() % 3];
    victim_fill_ = std::array<uint32_t, 3>{0, 50, 90}[r() % 3];
    miss_mode_ = static_cast<uint32_t>(r() % 4);
    hot_.clear();
    const uint64_t n = 1 + r() % 4;
    for (uint64_t i = 0; i < n; ++i) hot_.push_back(dip_ ? dip_set(r, static_cast<uint32_t>(r() % 3)) : any_set(r));
    // Warp ages: an empty SM, or Oldest anywhere with a live range of 1 to 256 AWIDs; the lines'
    // AWIDs come from a small pool near both ends of the range (ties, inactive neighbours).
    empty_ = r() % 10 == 0;
    oldest_ = static_cast<uint8_t>(r());
    span_ = static_cast<uint8_t>(std::array<uint32_t, 7>{0, 1, 3, 10, 47, 200, 255}[r() % 7]);
    pool_.clear();
    const uint64_t m = 2 + r() % 5;
    for (uint64_t i = 0; i < m; ++i) {
      const int delta = static_cast<int>(r() % 3) - 1;
      const uint64_t where = r() % 3;
      pool_.push_back(where == 0   ? static_cast<uint8_t>(oldest_ + delta)
                      : where == 1 ? static_cast<uint8_t>(oldest_ + span_ + delta)
                                   : static_cast<uint8_t>(r()));
    }
  }
  uint32_t any_set(std::mt19937_64& r) const { return static_cast<uint32_t>(r() % sets_); }
  // A set of a DIP role: 0 an LRU leader, 1 a BIP leader, 2 a follower (any set if none exists).
  uint32_t dip_set(std::mt19937_64& r, uint32_t role) const {
    for (int tries = 0; tries < 64; ++tries) {
      const uint32_t s = any_set(r), pos = s % 32;
      const uint32_t is = pos < leaders_ ? 0 : pos >= 32 - leaders_ ? 1 : 2;
      if (is == role) return s;
    }
    return any_set(r);
  }
  uint32_t pick_set(std::mt19937_64& r) const { return r() % 4 != 0 ? hot_[r() % hot_.size()] : any_set(r); }
  // DIP phases steer the misses: to the hot sets, to LRU leaders, to BIP leaders, or anywhere,
  // so that PSEL sits at either end and crosses its midpoint.
  uint32_t miss_set(std::mt19937_64& r) const {
    if (!dip_ || miss_mode_ == 0) return pick_set(r);
    if (miss_mode_ == 3) return any_set(r);
    return dip_set(r, miss_mode_ - 1);
  }

  uint32_t sets_, ways_;
  bool dip_;
  uint32_t leaders_;
  uint64_t cycle_ = 0;
  bool one_event_ = true;
  uint32_t event_rate_ = 0, p_hit_ = 0, p_miss_ = 0, p_fill_ = 0, victim_fill_ = 0, miss_mode_ = 0;
  std::vector<uint32_t> hot_;
  bool empty_ = true;
  uint8_t oldest_ = 0, span_ = 0;
  std::vector<uint8_t> pool_;
};

// The port binding (tb/testbench.h). golden() returns the victim and the ranks of set_i on the
// state before the cycle, then calls the cycle's hooks: on_hit, on_miss, on_fill.
struct ReplIo {
  using In = ReplIn;
  using Out = ReplOut;

  explicit ReplIo(const l1d::Config& c)
      : cfg(c),
        sets(l1d::largest_l1_sets(c.l1)),
        ways(c.l1.ways),
        way_bits(ways > 1 ? static_cast<uint32_t>(std::bit_width(ways - 1)) : 1),
        model(l1d::golden::make_replacement(c.policy.replacement, sets, ways, c.policy)),
        stim(c, sets) {}

  template <class M>
  void drive(M& m, const In& in) const {
    m.hit_i = in.hit;
    tb::put(m.hit_set_i, in.hit_set);
    tb::put(m.hit_way_i, in.hit_way);
    m.miss_i = in.miss;
    tb::put(m.miss_set_i, in.miss_set);
    m.fill_i = in.fill;
    tb::put(m.fill_set_i, in.fill_set);
    tb::put(m.fill_way_i, in.fill_way);
    tb::put(m.set_i, in.set);
    tb::put(m.eligible_i, in.eligible);
    const AgeLruCounters ages = in.ages();
    for (uint32_t w = 0; w < ways; ++w) {
      tb::put(m.way_active_i, ages.active(in.awid_of(w)) ? 1 : 0, w, 1);
      tb::put(m.way_rel_age_i, ages.relative_age(in.awid_of(w)), w * 8, 8);
    }
    m.age_filter_i = in.age_filter;
  }
  template <class M>
  Out sample(const M& m) const {
    Out o{static_cast<uint32_t>(tb::get(m.victim_o)), {}};
    for (uint32_t w = 0; w < ways; ++w) o.ranks.push_back(static_cast<uint32_t>(tb::get(m.ranks_o, w * way_bits, way_bits)));
    return o;
  }
  Out golden(const In& in) {
    const AgeLruCounters ages = in.ages();
    std::array<uint8_t, l1d::golden::kMaxWays> awid{};
    for (uint32_t w = 0; w < ways; ++w) awid[w] = in.awid_of(w);
    Out o{model->victim(in.set, VictimContext{WayMask(in.eligible), awid.data(), &ages, in.age_filter}), {}};
    for (uint32_t w = 0; w < ways; ++w) o.ranks.push_back(model->rank(in.set, w));
    // The RTL's policies read no AccessInfo and have no access hook (RPR, which does, has no RTL).
    if (in.hit) model->on_hit(in.hit_set, in.hit_way, {});
    if (in.miss) model->on_miss(in.miss_set, {});
    if (in.fill) model->on_fill(in.fill_set, in.fill_way, {});
    return o;
  }
  In random(std::mt19937_64& rng) const { return stim.next(rng, nullptr); }

  ReplacementKind policy() const { return cfg.policy.replacement; }

  l1d::Config cfg;
  uint32_t sets, ways, way_bits;
  std::unique_ptr<ReplacementPolicy> model;
  mutable Stimulus stim;  // random() is const in tb::run_netlist_cosim; the phases are stimulus state
};

using Board = tb::Scoreboard<ReplIn, ReplOut>;
using In = ReplIn;
using Out = ReplOut;
namespace models = tb::l1d_repl_state;

template <class Config>
class ReplState : public ::testing::Test {
 protected:
  static constexpr const char* kMainTest = "RandomMatchesGolden";  // its waves: <block>.fst
  ReplState()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {
    dut.reset();
  }
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  // A cycle without hooks that queries `set` with every way eligible.
  In query(uint32_t set) const {
    In in;
    in.set = set;
    in.eligible = all_ways(io.ways);
    return in;
  }
  void cycle(const In& in) { tb::check_cycle(dut, io, board, in); }
  void hit(uint32_t set, uint32_t way) {
    In in = query(set);
    in.hit = true, in.hit_set = set, in.hit_way = way;
    cycle(in);
  }
  void miss(uint32_t set) {
    In in = query(set);
    in.miss = true, in.miss_set = set;
    cycle(in);
  }
  void fill(uint32_t set, uint32_t way) {
    In in = query(set);
    in.fill = true, in.fill_set = set, in.fill_way = way;
    cycle(in);
  }
  // The RTL's outputs for `in` without ending the cycle.
  Out peek(const In& in) {
    io.drive(*dut, in);
    dut.settle();
    return io.sample(*dut);
  }
  std::vector<uint32_t> rtl_ranks(uint32_t set) { return peek(query(set)).ranks; }
  // The DIP role of a set: 0 LRU leader, 1 BIP leader, 2 follower (golden DipPolicy::role).
  uint32_t role(uint32_t set) const {
    const uint32_t l = io.cfg.policy.dip.leader_sets_per_policy, pos = set % 32;
    return pos < l ? 0 : pos >= 32 - l ? 1 : 2;
  }
  bool bip_insertion() const { return io.policy() == ReplacementKind::kBip || io.policy() == ReplacementKind::kDip; }
  uint32_t mru_mask() const { return io.cfg.policy.bip.mru_one_in - 1; }

  ReplIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
};
TYPED_TEST_SUITE(ReplState, models::Configs);

// RankState.ResetGivesWayItsIndexInEverySet, checked also without the golden model.
TYPED_TEST(ReplState, ResetGivesWayItsIndexInEverySet) {
  for (uint32_t s = 0; s < this->io.sets; ++s) {
    const std::vector<uint32_t> ranks = this->rtl_ranks(s);
    for (uint32_t w = 0; w < this->io.ways; ++w) EXPECT_EQ(ranks[w], w) << "set " << s;
    this->cycle(this->query(s));
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// RankState.HooksTouchOnlyTheirOwnSet, EveryPolicy.MissLeavesRanksAlone and
// HitMovesTheWayToMruExactlyWhenThePolicyUsesRecency / FillMovesTheWayToAnEnd: hooks on one set,
// then every set is read back (a change elsewhere is a mismatch).
TYPED_TEST(ReplState, HooksTouchOnlyTheirOwnSet) {
  const uint32_t last = this->io.ways - 1, sets = this->io.sets;
  for (uint32_t s : {0U, sets - 1, sets / 2}) {
    this->miss(s);
    this->hit(s, last);
    const std::vector<uint32_t> after_hit = this->rtl_ranks(s);
    if (this->io.policy() == ReplacementKind::kFifo) {
      EXPECT_EQ(after_hit[last], last) << "FIFO ignores hits";
    } else {
      EXPECT_EQ(after_hit[last], 0U);
    }
    this->fill(s, 0);
    const uint32_t r = this->rtl_ranks(s)[0];
    EXPECT_TRUE(r == 0 || (this->bip_insertion() && r == last)) << r;
    for (uint32_t t = 0; t < sets; ++t) this->cycle(this->query(t));
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Lru.VictimSequenceOnAHandWrittenPattern and Fifo.VictimsRotateInFillOrder through the ports:
// one set used as a 4-way cache (ways 0..3 eligible), a miss cycle, then a fill of an invalid
// way or of victim_o. On an LRU / FIFO configuration the victims are the golden tests' ones.
TYPED_TEST(ReplState, HandWrittenVictimSequences) {
  if (this->io.ways < 4) GTEST_SKIP() << "the sequences need 4 ways";
  const uint32_t set = this->io.sets > 10 ? 10 : 0;  // a DIP follower where there is one
  std::array<int, 4> tags{-1, -1, -1, -1};
  std::vector<uint32_t> victims;
  const auto access = [&](int tag) {
    for (uint32_t w = 0; w < 4; ++w) {
      if (tags[w] == tag) return this->hit(set, w);
    }
    this->miss(set);
    In in = this->query(set);
    in.eligible = 0xF;
    uint32_t way = 0;
    const auto invalid = std::find(tags.begin(), tags.end(), -1);
    if (invalid != tags.end()) {
      way = static_cast<uint32_t>(invalid - tags.begin());
    } else {
      way = this->peek(in).victim;
      victims.push_back(way);
    }
    tags[way] = tag;
    in.fill = true, in.fill_set = set, in.fill_way = way;
    this->cycle(in);
  };
  // Lru: A B C D, A hits, E evicts B, C hits, F evicts D, B evicts A, E hits, D evicts C.
  for (int tag : {'A', 'B', 'C', 'D', 'A', 'E', 'C', 'F', 'B', 'E', 'D'}) access(tag);
  if (this->io.policy() == ReplacementKind::kLru) { EXPECT_EQ(victims, (std::vector<uint32_t>{1, 3, 0, 2})); }
  // Fifo: a fresh fill order 0..3; tags hit just before their turn are evicted anyway.
  victims.clear();
  tags = {-1, -1, -1, -1};
  for (int tag = 0; tag < 4; ++tag) access(tag);
  for (int tag : {4, 1, 5, 6, 3, 7, 8}) access(tag);
  if (this->io.policy() == ReplacementKind::kFifo) { EXPECT_EQ(victims, (std::vector<uint32_t>{0, 1, 2, 3, 0})); }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Bip.ExactlyTheLfsrChosenFillsGoToMru, against an independent golden::Lfsr16 on BIP
// configurations (hits and misses must not step it), and every fill to MRU on LRU, FIFO and
// AgeLRU ones. On DIP the same traffic goes to a BIP leader (where one exists).
TYPED_TEST(ReplState, LfsrChosenFillsGoToMru) {
  const uint32_t ways = this->io.ways, sets = this->io.sets;
  l1d::golden::Lfsr16 reference(static_cast<uint16_t>(this->io.cfg.policy.bip.lfsr_seed));
  uint32_t bip_set = 0;
  while (bip_set < sets && this->io.policy() == ReplacementKind::kDip && this->role(bip_set) != 1) ++bip_set;
  const bool exact = this->io.policy() == ReplacementKind::kBip || (this->io.policy() == ReplacementKind::kDip && bip_set < sets);
  int mru = 0, lru = 0;
  for (uint32_t i = 0; i < 4000; ++i) {
    const uint32_t set = exact && this->io.policy() == ReplacementKind::kDip ? bip_set : i % sets;
    const uint32_t way = i % ways;
    this->hit(set, (way + 3) % ways);
    this->miss(set);
    this->fill(set, way);
    const uint32_t r = this->rtl_ranks(set)[way];
    if (exact) {
      ASSERT_EQ(r, (reference.next() & this->mru_mask()) == 0 ? 0U : ways - 1) << "fill " << i;
    } else if (!this->bip_insertion()) {
      ASSERT_EQ(r, 0U) << "fill " << i;
    }
    mru += r == 0;
    lru += r == ways - 1 && ways > 1;
  }
  if (exact) {
    EXPECT_GT(mru, 0);
    EXPECT_GT(lru, 0);
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Dip.PselSaturatesAtBothEnds, FollowersSwitchInsertionWhenPselCrossesTheMidpoint and
// LeadersIgnorePselAndOnlyBipInsertionsStepTheLfsr, through the ports (PSEL is seen through the
// followers' insertions). Other policies get the same traffic and must ignore the misses.
TYPED_TEST(ReplState, DipSetDueling) {
  const uint32_t ways = this->io.ways, sets = this->io.sets;
  const bool dip = this->io.policy() == ReplacementKind::kDip;
  uint32_t lru_leader = sets, bip_leader = sets, follower = sets;
  for (uint32_t s = sets; s-- > 0;) {
    (this->role(s) == 0 ? lru_leader : this->role(s) == 1 ? bip_leader : follower) = s;
  }
  if (lru_leader == sets || bip_leader == sets || follower == sets) {
    GTEST_SKIP() << "needs LRU leaders, BIP leaders and followers (32 sets or more)";
  }
  const uint32_t psel_max = (1U << this->io.cfg.policy.dip.psel_bits) - 1;
  l1d::golden::Lfsr16 reference(static_cast<uint16_t>(this->io.cfg.policy.bip.lfsr_seed));
  // BIP-style insertion in `set`: the way's rank follows the reference LFSR (DIP only).
  const auto bip_fill = [&](uint32_t set, uint32_t way) {
    this->fill(set, way);
    if (dip) { EXPECT_EQ(this->rtl_ranks(set)[way], (reference.next() & this->mru_mask()) == 0 ? 0U : ways - 1); }
  };
  const auto lru_fill = [&](uint32_t set, uint32_t way) {
    this->fill(set, way);
    if (dip) { EXPECT_EQ(this->rtl_ranks(set)[way], 0U); }
  };
  // PSEL to its maximum (LRU leaders keep missing): followers insert like BIP.
  for (uint32_t i = 0; i < psel_max + 3; ++i) this->miss(lru_leader);
  for (uint32_t i = 0; i < 40; ++i) bip_fill(follower, i % ways);
  // To 0 (BIP leaders keep missing): followers insert like LRU, and the leaders ignore PSEL.
  for (uint32_t i = 0; i < psel_max + 3; ++i) this->miss(bip_leader);
  for (uint32_t i = 0; i < 40; ++i) {
    lru_fill(follower, i % ways);
    lru_fill(lru_leader, i % ways);
    bip_fill(bip_leader, i % ways);
  }
  // Across the midpoint: PSEL = midpoint - 1 inserts like LRU, the midpoint like BIP.
  for (uint32_t i = 0; i < (psel_max + 1) / 2 - 1; ++i) this->miss(lru_leader);
  lru_fill(follower, 1 % ways);
  this->miss(lru_leader);
  for (uint32_t i = 0; i < 20; ++i) bip_fill(follower, i % ways);
  this->miss(bip_leader);
  lru_fill(follower, 0);
  // A miss and a fill in one cycle: the fill sees PSEL after the miss.
  In both = this->query(follower);
  both.miss = true, both.miss_set = lru_leader, both.fill = true, both.fill_set = follower, both.fill_way = 0;
  this->cycle(both);
  if (dip) { EXPECT_EQ(this->rtl_ranks(follower)[0], (reference.next() & this->mru_mask()) == 0 ? 0U : ways - 1); }
  if (dip) {
    const auto& p = dynamic_cast<const l1d::golden::DipPolicy&>(*this->io.model);
    EXPECT_EQ(p.psel(), p.psel_midpoint());
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// The AgeLru fixture's cases (golden/test/replacement_test.cpp) on ways 0..3 of one set (only
// they are eligible): recency way 0 MRU .. way 3 LRU among them, ages Oldest 10, Youngest 20.
// On an AgeLRU configuration the victims are the golden tests' ones; every other policy must
// pick the plain LRU way whatever the ages say.
TYPED_TEST(ReplState, AgeLruVictimCases) {
  if (this->io.ways < 4) GTEST_SKIP() << "the cases need 4 ways";
  const ReplacementKind policy = this->io.policy();
  const bool agelru = policy == ReplacementKind::kAgeLru;
  // Fills insert at MRU: in a DIP LRU leader (set 0); BIP has no such set (no literal victims).
  const uint32_t set = policy == ReplacementKind::kDip ? 0 : this->io.sets - 1;
  for (uint32_t w : {3U, 2U, 1U, 0U}) this->fill(set, w);
  const auto victim = [&](std::vector<uint32_t> awid, uint64_t eligible, uint32_t oldest, uint32_t youngest,
                          bool empty, bool filter) {
    In in = this->query(set);
    in.eligible = eligible;
    in.awid = std::move(awid);
    in.oldest = oldest, in.youngest = youngest, in.empty = empty, in.age_filter = filter;
    const uint32_t v = this->peek(in).victim;
    this->cycle(in);
    return v;
  };
  const auto expect = [&](uint32_t got, uint32_t agelru_victim, uint32_t lru_victim) {
    if (policy != ReplacementKind::kBip) { EXPECT_EQ(got, agelru ? agelru_victim : lru_victim); }
  };
  expect(victim({5, 20, 11, 12}, 0xF, 10, 20, false, true), 0, 3);   // InactiveWarpsLineGoesFirst
  expect(victim({5, 21, 11, 12}, 0xF, 10, 20, false, true), 1, 3);   // InactiveLinesAreTieBrokenByLru
  expect(victim({20, 10, 15, 12}, 0xF, 10, 20, false, true), 0, 3);  // OtherwiseTheYoungestWarpsLineGoes
  expect(victim({18, 18, 10, 18}, 0xF, 10, 20, false, true), 3, 3);  // YoungestWarpsLinesAreTieBrokenByLru
  expect(victim({255, 3, 250, 0}, 0xF, 250, 5, false, true), 1, 3);  // AgesCountAcrossTheWrap
  expect(victim({255, 3, 249, 0}, 0xF, 250, 5, false, true), 2, 3);
  expect(victim({5, 20, 12, 11}, 0xE, 10, 20, false, true), 1, 3);   // EligibleMaskLimitsBothSteps
  expect(victim({5, 20, 12, 11}, 0xC, 10, 20, false, true), 2, 3);
  expect(victim({10, 10, 10, 10}, 0xF, 10, 20, false, true), 3, 3);  // AllLinesOfTheOldestRunningWarp...
  expect(victim({10, 10, 10, 10}, 0x1, 10, 20, false, true), 0, 0);
  expect(victim({10, 20, 15, 12}, 0xF, 10, 20, true, true), 3, 3);   // NoRunningWarpMakesEveryLineInactive
  expect(victim({20, 10, 15, 12}, 0xF, 10, 20, false, false), 3, 3); // AgeFilterOffIsPlainLru
  this->hit(set, 3);  // YoungestWarpsLinesAreTieBrokenByLru, second half: way 3 is now MRU (not in FIFO)
  expect(victim({18, 18, 10, 18}, 0xF, 10, 20, false, true), 1, policy == ReplacementKind::kFifo ? 3 : 2);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Random: Stimulus phases for kRandomCycles cycles, with coverage of what the policy does.
TYPED_TEST(ReplState, RandomMatchesGolden) {
  std::mt19937_64 r(13);
  const uint32_t ways = this->io.ways;
  uint64_t fills = 0, fills_mru = 0, fills_lru = 0, same_set = 0, psel_min = 0, psel_max = 0, inactive_path = 0,
           youngest_path = 0, age_changed = 0;
  const auto* dip = dynamic_cast<const l1d::golden::DipPolicy*>(this->io.model.get());
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const In in = this->io.stim.next(r, this->io.model.get());
    // AgeLRU coverage: which step decides, and whether the ages change the plain-LRU choice.
    const AgeLruCounters ages = in.ages();
    bool any_inactive = false;
    uint32_t lru_way = 0, best = 0;
    bool found = false;
    for (uint32_t w = 0; w < ways; ++w) {
      if (((in.eligible >> w) & 1) == 0) continue;
      any_inactive |= !ages.active(in.awid_of(w));
      const uint32_t rank = this->io.model->rank(in.set, w);
      if (!found || rank > best) found = true, best = rank, lru_way = w;
    }
    std::array<uint8_t, l1d::golden::kMaxWays> awid{};
    for (uint32_t w = 0; w < ways; ++w) awid[w] = in.awid_of(w);
    const uint32_t victim =
        this->io.model->victim(in.set, VictimContext{WayMask(in.eligible), awid.data(), &ages, in.age_filter});
    age_changed += victim != lru_way;
    this->cycle(in);
    if (in.age_filter) ++(any_inactive ? inactive_path : youngest_path);
    same_set += in.hit && in.fill && in.hit_set == in.fill_set;
    if (in.fill) {
      ++fills;
      const uint32_t rank = this->io.model->rank(in.fill_set, in.fill_way);
      fills_mru += rank == 0;
      fills_lru += ways > 1 && rank == ways - 1;
    }
    if (dip != nullptr) {
      psel_min += dip->psel() == 0;
      psel_max += dip->psel() == dip->psel_max();
    }
  }
  std::cout << "[ coverage   ] " << fills << " fills (" << fills_mru << " to MRU, " << fills_lru << " to LRU), "
            << same_set << " hit+fill in one set and cycle; AgeLRU steps: " << inactive_path << " inactive, "
            << youngest_path << " youngest, " << age_changed << " victims not the plain LRU way; DIP cycles at PSEL 0 / max: " << psel_min << " / " << psel_max << "\n";
  EXPECT_GT(same_set, 1000U);
  if (this->bip_insertion()) {
    EXPECT_GT(fills_mru, fills / 100);
    EXPECT_GT(fills_lru, fills / 4);
  }
  if (dip != nullptr) {
    EXPECT_GT(psel_min, 1000U);
    EXPECT_GT(psel_max, 1000U);
  }
  if (this->io.policy() == ReplacementKind::kAgeLru) {
    EXPECT_GT(inactive_path, 10000U);
    EXPECT_GT(youngest_path, 10000U);
    EXPECT_GT(age_changed, 10000U);
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class ReplStateNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(ReplStateNetlist, models::Configs);

TYPED_TEST(ReplStateNetlist, NetlistMatchesRtl) {
  const ReplIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
