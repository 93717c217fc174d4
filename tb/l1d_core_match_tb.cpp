// Testbench of l1d_core_match (gen/blocks/l1d_core_match.cpp), a core request's lookup decision,
// against golden::chunk_match and golden::find_copies (SPEC section 3) and a model of the rest
// written from docs/l1d-microarchitecture.md section 4 (tb/core_match_model.h: sectors, the bypass
// decision, the copies a miss drops and their write-back order) on random one-copy-invariant sets
// with every policy's bypass code; and the netlist co-simulation. Its two halves have their own
// testbenches on the same model (l1d_core_match_m1, l1d_core_match_m2).
#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <bit>
#include <iostream>
#include <random>
#include <set>

#include "l1d_core_match_models.h"
#include "tb/core_match_model.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 100'000;
constexpr uint64_t kCosimCycles = 20'000;

struct CoreMatchIo : tb::CoreMatchModel {
  using In = tb::CoreMatchModel::In;
  struct Out {
    Lookup lookup;
    Decision decision;
    uint64_t held = 0;  // held_o (sector mode)
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << o.lookup << ' ' << o.decision << " held " << o.held;
    }
  };
  using tb::CoreMatchModel::CoreMatchModel;

  template <class M>
  void drive(M& m, const In& in) const {
    drive_request(m, in);
    drive_tags(m, in);
    drive_flops(m, in);
    tb::put(m.cfg_sector_i, in.sector);
    for (unsigned w = 0; w < ways; ++w)
      tb::put(m.row_reserved_i, w < in.reserved.size() ? in.reserved[w] : 0, w * kSlots, kSlots);
  }
  template <class M>
  Out sample(const M& m) const {
    return {sample_lookup(m), sample_decision(m), tb::get(m.held_o)};
  }
  Out golden(const In& in) {
    if (in.sector) return sector(in);
    const Lookup l = lookup(in);
    return {l, decision(in, copy_sectors(in)), 0};
  }

  // Contract section 14 (golden::L1::sector_line, sector_load, sector_store): the held way is the
  // first way whose common-tag is the request's with a valid or reserved slot of its line (slot i
  // holds chunk i; l1.allocation on_miss reserves slots), valid its valid ones; hit when every needed
  // sector is valid there; a load fetches and probes its missing sectors and
  // drops no copy; a store probes its needed sectors and drops their valid copies (write-backs by slot).
  Out sector(const In& in) const {
    Out o;
    o.lookup = lookup(in);  // needed and the bypass reason are section 4's
    const uint64_t needed = o.lookup.needed;
    const uint64_t line = in.chunk_tag >> 2;
    uint64_t valid = 0, dirty = 0, way = 0;
    bool held = false;
    for (unsigned w = 0; w < ways && !held; ++w) {
      if (in.way_common[w] != in.common) continue;
      uint64_t v = 0, r = 0;
      const uint64_t res = w < in.reserved.size() ? in.reserved[w] : 0;
      for (unsigned s = 0; s < kSlots; ++s) {
        if (in.tag[w * kSlots + s] >> 2 != line) continue;
        if ((in.valid[w] >> s) & 1) v |= uint64_t{1} << s;
        if ((res >> s) & 1) r |= uint64_t{1} << s;
      }
      if ((v | r) != 0) held = true, way = w, valid = v, dirty = in.dirty[w];
    }
    const uint64_t missing = needed & ~valid;
    o.lookup.fetch = missing;  // bypass_fetch stays section 4's (read under on_miss only)
    o.lookup.probe = in.store ? needed : missing;
    Decision& d = o.decision;
    d.hit = held && missing == 0;
    d.partial = !d.hit && (needed & valid) != 0;
    d.hit_way = way;
    d.hit_slots = d.hit ? needed : 0;
    d.copies.assign(ways, 0);
    const uint64_t copy = in.store ? needed & valid : 0;
    if (held) d.copies[way] = copy;
    for (unsigned c = 0; c < kSlots; ++c) {
      if (!((copy >> c) & 1)) continue;
      d.cp_way[c] = way, d.cp_slot[c] = c;
      if ((dirty >> c) & 1) d.cp_wb |= uint64_t{1} << c;
    }
    for (unsigned c = 0; c < kSlots; ++c)
      if ((copy >> c) & 1) d.cp_off[c] = static_cast<uint64_t>(std::popcount(d.cp_wb & ((uint64_t{1} << c) - 1)));
    d.wb_n = static_cast<uint64_t>(std::popcount(d.cp_wb));
    o.held = held;
    return o;
  }
  // A sector-mode set (G = 128): each filled way holds one line of three (the request's among
  // them, one way per line and common-tag), slot i chunk i, random valid and dirty masks, and in
  // half the sets random reserved masks on the invalid slots (l1.allocation on_miss).
  In random_sector(std::mt19937_64& rng) const {
    In in = random(rng);
    auto below = [&](uint64_t n) { return rng() % n; };
    in.sector = 1;
    in.gran = 2;
    std::set<std::pair<uint64_t, uint64_t>> used;  // (common-tag, line)
    const bool reserving = below(2) == 0;
    in.reserved.assign(ways, 0);
    const uint64_t line0 = in.chunk_tag >> 2;
    const std::array<uint64_t, 3> lines = {line0, line0 ^ 1, line0 ^ 2};
    for (unsigned w = 0; w < ways; ++w) {
      in.valid[w] = in.dirty[w] = 0;
      const uint64_t common = below(4) == 0 ? in.common ^ 1 : in.common;
      const uint64_t line = lines[below(2) == 0 ? 0 : 1 + below(2)];
      in.way_common[w] = common & ((uint64_t{1} << common_bits) - 1);
      for (unsigned s = 0; s < kSlots; ++s) in.tag[w * kSlots + s] = line << 2 | s;
      if (below(4) == 0 || !used.insert({in.way_common[w], line}).second) continue;  // left empty
      in.valid[w] = below(16);
      in.dirty[w] = in.valid[w] & below(16);
      if (reserving) in.reserved[w] = below(16) & ~in.valid[w];
    }
    in.extra = 0;
    return in;
  }
};

using Board = tb::Scoreboard<CoreMatchIo::In, CoreMatchIo::Out>;
namespace models = tb::l1d_core_match;

template <class Config>
class CoreMatch : public ::testing::Test {};
TYPED_TEST_SUITE(CoreMatch, models::Configs);

TYPED_TEST(CoreMatch, RandomMatchesGolden) {
  using Config = TypeParam;
  CoreMatchIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "golden", "rtl   ");
  std::mt19937_64 rng(17);
  tb::CoreMatchCoverage coverage;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const CoreMatchIo::In in = io.random(rng);
    const CoreMatchIo::Out want = io.golden(in);
    tb::check_cycle(dut, io, board, in);
    coverage.add(want.lookup, want.decision);
  }
  EXPECT_TRUE(coverage.report(fmt::format("{}/{}", models::kBlock, Config::kName)));
  EXPECT_EQ(board.mismatches(), 0U);
}

// Sector mode (contract 14) on random sector sets: hits, sector misses with valid needed sectors,
// line misses, store copies with write-backs must all be drawn.
TYPED_TEST(CoreMatch, SectorRandomMatchesModel) {
  using Config = TypeParam;
  CoreMatchIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} sector", models::kBlock, Config::kName), "model ", "rtl   ");
  std::mt19937_64 rng(29);
  uint64_t hits = 0, partials = 0, line_misses = 0, sector_misses = 0, store_wbs = 0, reserved_held = 0;
  constexpr uint64_t kCycles = 5'000;
  for (uint64_t c = 0; c < kCycles; ++c) {
    const CoreMatchIo::In in = io.random_sector(rng);
    const CoreMatchIo::Out want = io.golden(in);
    tb::check_cycle(dut, io, board, in);
    hits += want.decision.hit;
    partials += want.decision.partial;
    line_misses += !want.held;
    sector_misses += want.held && !want.decision.hit;
    store_wbs += want.decision.wb_n >= 2;
    CoreMatchIo::In unreserved = in;  // a line held only through reserved slots (on_miss)
    unreserved.reserved.clear();
    reserved_held += want.held && !io.golden(unreserved).held;
  }
  std::cout << fmt::format("[ coverage ] sector: {} hits, {} partial, {} sector misses, {} line misses, {} stores "
                           "with 2+ write-backs, {} lines held by reserved slots only\n",
                           hits, partials, sector_misses, line_misses, store_wbs, reserved_held);
  for (uint64_t n : {hits, partials, line_misses, sector_misses, store_wbs, reserved_held})
    EXPECT_GT(n, kCycles / 100);
  EXPECT_EQ(board.mismatches(), 0U);
}

// Directed: one way holds the line with sectors 0 and 2 valid (sector 2 dirty).
TYPED_TEST(CoreMatch, SectorDirected) {
  using Config = TypeParam;
  CoreMatchIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  CoreMatchIo::In in;
  const unsigned ways = io.ways;
  in.way_common.assign(ways, 0);
  in.valid.assign(ways, 0);
  in.dirty.assign(ways, 0);
  in.tag.assign(size_t{ways} * 4, 0);
  in.sector = 1, in.gran = 2, in.size = 2, in.common = 1, in.chunk_tag = 5 << 2;
  const unsigned w = ways - 1;  // the last way holds line 5: slots 0 and 2 valid, 2 dirty
  in.way_common[w] = 1;
  for (unsigned s = 0; s < 4; ++s) in.tag[w * 4 + s] = 5 << 2 | s;
  in.valid[w] = 0b0101;
  in.dirty[w] = 0b0100;
  auto run = [&](std::array<uint32_t, 4> mask, bool store) {
    in.mask = mask;
    in.store = store;
    io.drive(*dut, in);
    dut.settle();
    const CoreMatchIo::Out out = io.sample(*dut);
    EXPECT_EQ(out, io.golden(in));  // the sector model agrees on every output
    dut.tick();
    return out;
  };
  // A load of sectors 0 and 2: a hit on exactly those slots.
  CoreMatchIo::Out o = run({1, 0, 1, 0}, false);
  EXPECT_TRUE(o.decision.hit);
  EXPECT_EQ(o.decision.hit_slots, 0b0101U);
  EXPECT_EQ(o.decision.hit_way, w);
  EXPECT_EQ(o.held, 1U);
  // A load of sectors 1 and 2: a sector miss fetching sector 1 only, partial, no copy dropped.
  o = run({0, 1, 1, 0}, false);
  EXPECT_FALSE(o.decision.hit);
  EXPECT_TRUE(o.decision.partial);
  EXPECT_EQ(o.lookup.fetch, 0b0010U);
  EXPECT_EQ(o.lookup.probe, 0b0010U);
  EXPECT_EQ(o.decision.copies[w], 0U);
  EXPECT_EQ(o.held, 1U);
  // A store of sectors 1 and 2: a miss probing both, dropping (writing back) sector 2's copy.
  o = run({0, 1, 1, 0}, true);
  EXPECT_FALSE(o.decision.hit);
  EXPECT_EQ(o.lookup.probe, 0b0110U);
  EXPECT_EQ(o.decision.copies[w], 0b0100U);
  EXPECT_EQ(o.decision.cp_wb, 0b0100U);
  EXPECT_EQ(o.decision.wb_n, 1U);
  EXPECT_EQ(o.decision.cp_way[2], w);
  EXPECT_EQ(o.decision.cp_slot[2], 2U);
  // Another line of the same common-tag: a line miss, not held, fetching every needed sector.
  in.chunk_tag = 6 << 2;
  o = run({1, 1, 0, 0}, false);
  EXPECT_FALSE(o.decision.hit);
  EXPECT_FALSE(o.decision.partial);
  EXPECT_EQ(o.held, 0U);
  EXPECT_EQ(o.lookup.fetch, 0b0011U);
  // The same with cfg_sector_i low: held_o stays 0.
  in.chunk_tag = 5 << 2;
  in.sector = 0;
  o = run({1, 0, 1, 0}, false);
  EXPECT_EQ(o.held, 0U);
}

TYPED_TEST(CoreMatch, NetlistMatchesRtl) {
  CoreMatchIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 9);
}

}  // namespace
