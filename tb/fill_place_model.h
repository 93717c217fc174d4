// The model of the fill unit's placement, for the testbenches of l1d_fill_place and of its two
// stage halves, l1d_fill_place_m1 and l1d_fill_place_m2: written from
// docs/l1d-microarchitecture.md section 6 (golden::L1's choose_placement, placement_dirty and
// agelru_bypasses) with section 13.1's reservations (l1.allocation on_miss: a line holding a
// reserved slot is no victim, a position holding one takes no partial block), on random rows drawn
// so that partial placements, free lines, victims, PCAL's priority lines, AgeLRU bypasses and
// reserved slots are all frequent.
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <iostream>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "common/address.h"
#include "tb/ports.h"

namespace tb {

struct FillPlaceModel {
  static constexpr unsigned kSlots = 4;

  struct Way {
    uint64_t valid = 0, common = 0, prio = 0, dirty = 0, active = 0, rel = 0, res = 0;
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
        os << fmt::format("\n    way {:2}: valid {:04b} common {:#x} prio {} dirty {:04b} ranks {} {} {} {} active {} rel {} "
                          "reserved {:04b}",
                          w, r.valid, r.common, r.prio, r.dirty, r.rank[0], r.rank[1], r.rank[2], r.rank[3], r.active,
                          r.rel, r.res);
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
    bool age_bypass = false;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format(
                 "eligible {:#x} allocates {} way {} pos {} whole {} replace {:04b} block {:04b} replaces_valid {} "
                 "wb {:04b} ({}) age_bypass {}",
                 o.eligible, o.allocates, o.way, o.pos, o.whole, o.replace, o.block, o.replaces_valid, o.wb, o.wb_n,
                 o.age_bypass);
    }
  };

  explicit FillPlaceModel(const l1d::Config& cfg)
      : ways(cfg.l1.ways), cm_bits(std::max(l1d::AddressSplit(cfg.l1).common_tag_bits(), 1U)) {}

  // The ports stage M1's half reads (l1d_fill_place, l1d_fill_place_m1): the SRAM's common-tags and
  // the block.
  template <class M>
  void drive_m1(M& m, const In& in) const {
    for (unsigned w = 0; w < ways; ++w) tb::put(m.row_common_tag_i, in.row[w].common, w * cm_bits, cm_bits);
    tb::put(m.common_tag_i, in.common);
    tb::put(m.l2_bit_i, in.l2);
    tb::put(m.gran_i, in.gran);
    tb::put(m.cfg_opportunistic_i, in.opp);
    drive_block(m, in);
  }
  // The ports stage M2's half reads besides M1's vectors (l1d_fill_place, l1d_fill_place_m2): the
  // set's flip-flops, the victim, the ages.
  template <class M>
  void drive_m2(M& m, const In& in) const {
    for (unsigned w = 0; w < ways; ++w) {
      const Way& r = in.row[w];
      tb::put(m.row_valid_i, r.valid, w * kSlots, kSlots);
      tb::put(m.row_priority_i, r.prio, w, 1);
      for (unsigned s = 0; s < kSlots; ++s) tb::put(m.row_rank_i, r.rank[s], (w * kSlots + s) * 2, 2);
      tb::put(m.row_dirty_any_i, r.dirty, w * kSlots, kSlots);
      tb::put(m.row_reserved_i, r.res, w * kSlots, kSlots);
      tb::put(m.way_active_i, r.active, w, 1);
      tb::put(m.way_rel_age_i, r.rel, w * 8, 8);
    }
    tb::put(m.victim_i, in.victim);
    tb::put(m.age_bypass_en_i, in.age_en);
    tb::put(m.req_rel_age_i, in.req_rel);
    drive_block(m, in);
  }
  template <class M>
  void drive_block(M& m, const In& in) const {
    tb::put(m.slots_i, in.slots);
    tb::put(m.bypass_i, in.bypass);
  }
  // Section 6's allocation rule: AGCB needs the L2's bit, two-level never, PCAL only opportunistic,
  // and a block smaller than G never allocates.
  static bool wanted(const In& in) {
    const uint64_t size = in.slots == 4 ? 2 : in.slots == 2 ? 1 : 0;
    return (in.bypass == 0 || (in.bypass == 1 && in.l2) || (in.bypass == 3 && in.opp)) && size >= in.gran;
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
    o.age_bypass = m.age_bypass_o != 0;
    return o;
  }

  // Section 6, step 0, with section 13.1's reservations.
  Out golden(const In& in) const {
    Out o;
    const bool pcal = in.bypass == 3;
    std::vector<bool> allowed(ways), eligible(ways);
    for (unsigned w = 0; w < ways; ++w) {
      allowed[w] = !pcal || in.row[w].valid == 0 || in.row[w].prio == 0;
      eligible[w] = allowed[w] && in.row[w].res == 0;  // a line holding a reserved slot is no victim
      if (eligible[w]) o.eligible |= uint64_t{1} << w;
    }
    // A smaller block goes into the lowest allowed line of its common-tag (valid or reserved) that
    // has an aligned run without a reserved slot, at the run whose most recent valid slot is oldest
    // (4 when none is valid), ties to the lowest position.
    bool partial = false;
    if (in.slots < kSlots) {
      for (unsigned w = 0; w < ways && !partial; ++w) {
        const Way& r = in.row[w];
        if ((r.valid | r.res) == 0 || r.common != in.common || !allowed[w]) continue;
        bool found = false;
        uint64_t best_age = 0;
        for (unsigned p = 0; p < kSlots; p += static_cast<unsigned>(in.slots)) {
          const uint64_t run = ((uint64_t{1} << in.slots) - 1) << p;
          if ((r.res & run) != 0) continue;
          uint64_t age = kSlots;
          for (unsigned s = p; s < p + in.slots; ++s) {
            if ((r.valid >> s) & 1) age = std::min(age, r.rank[s]);
          }
          if (!found || age > best_age) o.pos = p, best_age = age, found = true;
        }
        if (!found) continue;
        partial = true;
        o.way = w;
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
    const bool age_bypass = o.replaces_valid && in.age_en && v.active && in.req_rel > v.rel;
    o.allocates = wanted(in) && any && !age_bypass;
    o.age_bypass = wanted(in) && any && age_bypass;
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
      // A quarter of the rows reserve slots (never valid ones, as l1.allocation on_miss keeps them).
      r.res = ((mode >> 3) & 3) == 0 ? (x >> 21) & 0xF & ~r.valid : 0;
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

// What a random run drew: every kind of placement must be frequent.
struct FillPlaceCoverage {
  uint64_t cycles = 0, partial = 0, free_line = 0, victim = 0, none = 0, age_bypass = 0, writebacks = 0,
           pcal_blocked = 0, reserved_rows = 0, reserved_partial = 0;
  void add(const FillPlaceModel& model, const FillPlaceModel::In& in, const FillPlaceModel::Out& want) {
    ++cycles;
    if (!want.whole) {
      ++partial;
    } else if (want.eligible == 0) {
      ++none;
    } else if (want.way == in.victim && in.row[want.way].valid != 0) {
      ++victim;
    } else {
      ++free_line;
    }
    pcal_blocked += in.bypass == 3 && want.eligible != (uint64_t{1} << model.ways) - 1;
    age_bypass += want.replaces_valid && in.age_en && in.row[want.way].active && in.req_rel > in.row[want.way].rel;
    writebacks += want.wb_n;
    bool held = false;
    for (const FillPlaceModel::Way& r : in.row) held |= r.res != 0;
    reserved_rows += held;
    reserved_partial += !want.whole && in.row[want.way].res != 0;  // beside a reserved run
  }
  // Prints the counts and returns whether each is frequent enough.
  bool report(const std::string& name) const {
    std::cout << fmt::format("[ coverage ] {}: {} partial, {} free line, {} victim, {} no line, {} AgeLRU bypass, "
                             "{} PCAL-ineligible rows, {} write-backs, {} rows with reserved slots, {} partial "
                             "placements beside reserved slots\n",
                             name, partial, free_line, victim, none, age_bypass, pcal_blocked, writebacks, reserved_rows,
                             reserved_partial);
    bool ok = none > 0 && reserved_partial > 0;
    for (uint64_t n : {partial, free_line, victim, age_bypass, pcal_blocked, writebacks, reserved_rows})
      ok = ok && n > cycles / 100;
    return ok;
  }
};

}  // namespace tb
