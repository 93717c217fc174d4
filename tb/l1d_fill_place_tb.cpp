// Testbench of l1d_fill_place (gen/blocks/l1d_fill_place.cpp), the fill unit's placement decision,
// against a model written from docs/l1d-microarchitecture.md section 6 (golden::L1's
// choose_placement, placement_dirty and agelru_bypasses without reservations): random rows drawn
// so that partial placements, free lines, victims, PCAL's priority lines and AgeLRU bypasses are
// all frequent, directed cases with their expected outputs written out, and the netlist
// co-simulation.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <ostream>
#include <random>
#include <vector>

#include "common/address.h"
#include "l1d_fill_place_models.h"
#include "tb/testbench.h"

namespace {

constexpr unsigned kSlots = 4;
constexpr uint64_t kRandomCycles = 100'000;
constexpr uint64_t kCosimCycles = 20'000;

struct FillPlaceIo {
  struct Way {
    uint64_t valid = 0, common = 0, prio = 0, dirty = 0, active = 0, rel = 0;
    std::array<uint64_t, kSlots> rank{};
    bool operator==(const Way&) const = default;
  };
  struct In {
    std::vector<Way> row;
    uint64_t common = 0, slots = 4, bypass = 0, l2 = 0, gran = 2, opp = 0, victim = 0, age_en = 0, req_rel = 0;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      os << fmt::format("common {:#x} slots {} bypass {} l2 {} gran {} opp {} victim {} age_en {} req_rel {}",
                        in.common, in.slots, in.bypass, in.l2, in.gran, in.opp, in.victim, in.age_en, in.req_rel);
      for (size_t w = 0; w < in.row.size(); ++w) {
        const Way& r = in.row[w];
        os << fmt::format("\n    way {:2}: valid {:04b} common {:#x} prio {} dirty {:04b} ranks {} {} {} {} active {} rel {}",
                          w, r.valid, r.common, r.prio, r.dirty, r.rank[0], r.rank[1], r.rank[2], r.rank[3], r.active,
                          r.rel);
      }
      return os;
    }
  };
  struct Out {
    uint64_t eligible = 0;
    bool allocates = false;
    uint64_t way = 0, pos = 0;
    bool whole = true;
    uint64_t replace = 0, block = 0;
    bool replaces_valid = false;
    uint64_t wb = 0, wb_n = 0;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format(
                 "eligible {:#x} allocates {} way {} pos {} whole {} replace {:04b} block {:04b} replaces_valid {} "
                 "wb {:04b} ({})",
                 o.eligible, o.allocates, o.way, o.pos, o.whole, o.replace, o.block, o.replaces_valid, o.wb, o.wb_n);
    }
  };

  explicit FillPlaceIo(const l1d::Config& cfg)
      : ways(cfg.l1.ways), cm_bits(std::max(l1d::AddressSplit(cfg.l1).common_tag_bits(), 1U)) {}

  template <class M>
  void drive(M& m, const In& in) const {
    for (unsigned w = 0; w < ways; ++w) {
      const Way& r = in.row[w];
      tb::put(m.row_valid_i, r.valid, w * kSlots, kSlots);
      tb::put(m.row_common_tag_i, r.common, w * cm_bits, cm_bits);
      tb::put(m.row_priority_i, r.prio, w, 1);
      for (unsigned s = 0; s < kSlots; ++s) tb::put(m.row_rank_i, r.rank[s], (w * kSlots + s) * 2, 2);
      tb::put(m.row_dirty_any_i, r.dirty, w * kSlots, kSlots);
      tb::put(m.way_active_i, r.active, w, 1);
      tb::put(m.way_rel_age_i, r.rel, w * 8, 8);
    }
    tb::put(m.common_tag_i, in.common);
    tb::put(m.slots_i, in.slots);
    tb::put(m.bypass_i, in.bypass);
    tb::put(m.l2_bit_i, in.l2);
    tb::put(m.gran_i, in.gran);
    tb::put(m.cfg_opportunistic_i, in.opp);
    tb::put(m.victim_i, in.victim);
    tb::put(m.age_bypass_en_i, in.age_en);
    tb::put(m.req_rel_age_i, in.req_rel);
  }
  template <class M>
  Out sample(const M& m) const {
    Out o;
    for (unsigned w = 0; w < ways; ++w) o.eligible |= tb::get(m.eligible_o, w, 1) << w;
    o.allocates = m.allocates_o != 0;
    o.way = tb::get(m.way_o);
    o.pos = tb::get(m.pos_o);
    o.whole = m.whole_o != 0;
    o.replace = tb::get(m.replace_slots_o);
    o.block = tb::get(m.block_slots_o);
    o.replaces_valid = m.replaces_valid_o != 0;
    o.wb = tb::get(m.writeback_slots_o);
    o.wb_n = tb::get(m.writebacks_o);
    return o;
  }

  // Section 6, step 0, for a row without reservations.
  Out golden(const In& in) {
    Out o;
    const bool pcal = in.bypass == 3;
    std::vector<bool> eligible(ways);
    for (unsigned w = 0; w < ways; ++w) {
      eligible[w] = !pcal || in.row[w].valid == 0 || in.row[w].prio == 0;
      if (eligible[w]) o.eligible |= uint64_t{1} << w;
    }
    // A smaller block goes into the lowest eligible line of its common-tag, at the aligned run whose
    // most recent valid slot is oldest (4 when none is valid), ties to the lowest position.
    bool partial = false;
    if (in.slots < kSlots) {
      for (unsigned w = 0; w < ways && !partial; ++w) {
        const Way& r = in.row[w];
        if (r.valid == 0 || r.common != in.common || !eligible[w]) continue;
        partial = true;
        o.way = w;
        uint64_t best_age = 0;
        for (unsigned p = 0; p < kSlots; p += static_cast<unsigned>(in.slots)) {
          uint64_t age = kSlots;
          for (unsigned s = p; s < p + in.slots; ++s) {
            if ((r.valid >> s) & 1) age = std::min(age, r.rank[s]);
          }
          if (p == 0 || age > best_age) o.pos = p, best_age = age;
        }
      }
    }
    bool any = partial;
    if (!partial) {
      // A whole line: the lowest free eligible line, else the replacement policy's victim.
      any = o.eligible != 0;
      o.way = in.victim;
      for (unsigned w = 0; w < ways; ++w) {
        if (eligible[w] && in.row[w].valid == 0) {
          o.way = w;
          break;
        }
      }
    }
    o.whole = !partial;
    const uint64_t run = in.slots == 4 ? 0xF : in.slots == 2 ? 3 : 1;
    o.replace = partial ? run << o.pos : 0xF;
    o.block = run << o.pos;
    const Way& v = in.row[o.way];
    o.replaces_valid = (v.valid & o.replace) != 0;
    o.wb = o.replace & v.valid & v.dirty;
    o.wb_n = static_cast<uint64_t>(std::popcount(o.wb));
    const uint64_t size = in.slots == 4 ? 2 : in.slots == 2 ? 1 : 0;
    const bool wanted = (in.bypass == 0 || (in.bypass == 1 && in.l2) || (pcal && in.opp)) && size >= in.gran;
    const bool age_bypass = o.replaces_valid && in.age_en && v.active && in.req_rel > v.rel;
    o.allocates = wanted && any && !age_bypass;
    return o;
  }

  In random(std::mt19937_64& rng) const {
    In in;
    in.row.resize(ways);
    const uint64_t commons[2] = {rng() & tb::low_mask(cm_bits), rng() & tb::low_mask(cm_bits)};
    // Row modes, so that victims and rows without an eligible line occur at every way count: half of
    // the rows have no free line, a quarter hold priority lines only.
    const uint64_t mode = rng();
    const bool no_free = (mode & 1) != 0, all_prio = ((mode >> 1) & 3) == 0;
    for (Way& r : in.row) {
      const uint64_t x = rng();
      r.valid = (x & 3) == 0 && !no_free ? 0 : ((x >> 2) & 0xF) | (no_free ? 1 : 0);
      r.common = commons[(x >> 6) & 1];
      r.prio = all_prio ? 1 : (x >> 7) & 1;
      r.dirty = (x >> 8) & 0xF;
      r.active = (x >> 12) & 1;
      r.rel = (x >> 13) & 0xFF;
      std::array<uint64_t, kSlots> perm = {0, 1, 2, 3};
      std::shuffle(perm.begin(), perm.end(), rng);
      r.rank = perm;
    }
    const uint64_t x = rng();
    in.common = commons[x & 1];
    in.slots = std::array<uint64_t, 3>{1, 2, 4}[(x >> 1) % 3];
    in.bypass = (x >> 3) & 3;
    in.l2 = (x >> 5) & 1;
    in.gran = ((x >> 6) & 3) % 3;
    in.opp = (x >> 8) & 1;
    in.victim = (x >> 9) % ways;
    in.age_en = (x >> 20) & 1;
    in.req_rel = (x >> 21) & 0xFF;
    return in;
  }

  unsigned ways, cm_bits;
};

using Board = tb::Scoreboard<FillPlaceIo::In, FillPlaceIo::Out>;
namespace models = tb::l1d_fill_place;

template <class Config>
class FillPlace : public ::testing::Test {};
TYPED_TEST_SUITE(FillPlace, models::Configs);

// Random rows: every kind of placement must be frequent and every output checked every cycle.
TYPED_TEST(FillPlace, RandomMatchesModel) {
  using Config = TypeParam;
  FillPlaceIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "model", "rtl  ");
  std::mt19937_64 rng(5);
  uint64_t partial = 0, free_line = 0, victim = 0, none = 0, age_bypass = 0, writebacks = 0, pcal_blocked = 0;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const FillPlaceIo::In in = io.random(rng);
    const FillPlaceIo::Out want = io.golden(in);
    tb::check_cycle(dut, io, board, in);
    if (!want.whole) {
      ++partial;
    } else if (want.eligible == 0) {
      ++none;
    } else if (want.way == in.victim && in.row[want.way].valid != 0) {
      ++victim;
    } else {
      ++free_line;
    }
    pcal_blocked += in.bypass == 3 && want.eligible != (uint64_t{1} << io.ways) - 1;
    age_bypass += want.replaces_valid && in.age_en && in.row[want.way].active && in.req_rel > in.row[want.way].rel;
    writebacks += want.wb_n;
  }
  std::cout << fmt::format("[ coverage ] {}/{}: {} partial, {} free line, {} victim, {} no line, {} AgeLRU bypass, "
                           "{} PCAL-ineligible rows, {} write-backs\n",
                           models::kBlock, Config::kName, partial, free_line, victim, none, age_bypass, pcal_blocked,
                           writebacks);
  for (uint64_t n : {partial, free_line, victim, age_bypass, pcal_blocked, writebacks}) EXPECT_GT(n, kRandomCycles / 100);
  EXPECT_GT(none, 0U);
  EXPECT_EQ(board.mismatches(), 0U);
}

// Hand-worked cases on the configuration's first two ways (the others free and ineligible to
// the partial search: another common-tag), with the expected outputs written out.
TYPED_TEST(FillPlace, DirectedPlacements) {
  using Config = TypeParam;
  FillPlaceIo io(tb::load_config<Config>());
  if (io.ways < 2) GTEST_SKIP() << "needs two ways";
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock, "directed"), 1);
  Board board(fmt::format("{}/{} directed", models::kBlock, Config::kName), "model", "rtl  ");
  auto base = [&] {
    FillPlaceIo::In in;
    in.row.assign(io.ways, FillPlaceIo::Way{});
    for (auto& r : in.row) r.valid = 0xF, r.common = 1, r.rank = {0, 1, 2, 3};
    in.common = 0;
    return in;
  };
  auto expect = [&](const FillPlaceIo::In& in, uint64_t way, uint64_t pos, bool whole, uint64_t wb, bool alloc) {
    tb::check_cycle(dut, io, board, in);
    const FillPlaceIo::Out o = io.sample(*dut);
    EXPECT_EQ(o.way, way);
    EXPECT_EQ(o.pos, pos);
    EXPECT_EQ(o.whole, whole);
    EXPECT_EQ(o.wb, wb);
    EXPECT_EQ(o.allocates, alloc);
  };
  // A 32 B block of common-tag 0; way 1 holds the common-tag with slots 0 and 3 valid, ranks 0..3:
  // slots 1 and 2 are empty (age 4): the lowest, slot 1, takes it.
  FillPlaceIo::In in = base();
  in.slots = 1, in.gran = 0;
  in.row[1].common = 0, in.row[1].valid = 0b1001;
  expect(in, 1, 1, false, 0, true);
  // The same with every slot valid and ranks 3,2,1,0: slot 0 is the oldest.
  in.row[1].valid = 0xF, in.row[1].rank = {3, 2, 1, 0}, in.row[1].dirty = 0b0001;
  expect(in, 1, 0, false, 0b0001, true);
  // A 64 B block: runs {0,1} (most recent rank 2) and {2,3} (rank 0): {0,1} is older.
  in.slots = 2, in.gran = 1;
  expect(in, 1, 0, false, 0b0001, true);
  // A 128 B block never goes into a partial position: way 2 (free) if there is one, else the victim.
  in.slots = 4, in.gran = 2, in.victim = 1;
  if (io.ways > 2) {
    in.row[2].valid = 0;
    expect(in, 2, 0, true, 0, true);
    in.row[2].valid = 0xF;
  }
  expect(in, 1, 0, true, 0b0001, true);
  // PCAL (bypass 3) without opportunistic caching never allocates; with it, not into a priority line.
  in.bypass = 3;
  expect(in, 1, 0, true, 0b0001, false);
  in.opp = 1;
  expect(in, 1, 0, true, 0b0001, true);
  // AgeLRU: the victim's owner is active and older than the requester: bypass.
  in.bypass = 0, in.age_en = 1, in.row[1].active = 1, in.row[1].rel = 3, in.req_rel = 7;
  expect(in, 1, 0, true, 0b0001, false);
  in.req_rel = 2;
  expect(in, 1, 0, true, 0b0001, true);
  EXPECT_EQ(board.mismatches(), 0U);
}

TYPED_TEST(FillPlace, NetlistMatchesRtl) {
  const FillPlaceIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 3);
}

}  // namespace
