// The model of a core request's lookup, for the testbenches of l1d_core_match and of its two stage
// halves, l1d_core_match_m1 and l1d_core_match_m2: golden::chunk_match and golden::find_copies
// (SPEC section 3) and a model of the rest written from docs/l1d-microarchitecture.md section 4
// (sectors, the bypass decision, the copies a miss drops and their write-back order), on random
// sets that keep the L1's one-copy invariant (a chunk of memory in at most one slot), drawn from
// few lines so that hits, partial hits, misses and copies are all frequent, with every policy's
// bypass code.
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <iostream>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/address.h"
#include "golden/chunk_match.h"
#include "tb/golden_set.h"
#include "tb/ports.h"

namespace tb {

struct CoreMatchModel {
  static constexpr unsigned kSlots = l1d::kSlotsPerLine;

  struct In {
    uint64_t store = 0, size = 0, token = 0, common = 0, chunk_tag = 0, gran = 0, bypass = 0, bto = 0, opp = 0,
             line_fetch = 0, agcb = 0, two_level = 0;
    uint64_t extra = 0;  // extra_copies_i: sectors whose copies are wanted besides the probe's
    uint64_t sector = 0;  // cfg_sector_i (l1d_core_match only; contract section 14)
    std::array<uint32_t, 4> mask{};  // 32 bits per chunk
    std::vector<uint64_t> way_common, valid, dirty;  // per way; valid / dirty: bit s = slot s
    std::vector<uint64_t> tag;                       // [w * 4 + s]
    std::vector<uint64_t> reserved;  // per way, row_reserved_i (l1d_core_match in sector mode); empty: none
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      os << fmt::format("store {} size {} token {} common {:#x} chunk_tag {:#x} gran {} bypass {} bto {} opp {} "
                        "line_fetch {} agcb {} two_level {} extra {:04b} sector {} mask {:08x} {:08x} {:08x} {:08x}",
                        in.store, in.size, in.token, in.common, in.chunk_tag, in.gran, in.bypass, in.bto, in.opp,
                        in.line_fetch, in.agcb, in.two_level, in.extra, in.sector, in.mask[3], in.mask[2], in.mask[1],
                        in.mask[0]);
      for (size_t w = 0; w < in.way_common.size(); ++w) {
        os << fmt::format("\n    way {:2}: common {:#x} valid {:04b} dirty {:04b} tags", w, in.way_common[w],
                          in.valid[w], in.dirty[w]);
        for (unsigned s = 0; s < kSlots; ++s) os << fmt::format(" {:#x}", in.tag[w * kSlots + s]);
        if (w < in.reserved.size()) os << fmt::format(" reserved {:04b}", in.reserved[w]);
      }
      return os;
    }
  };
  // What reads no flip-flop: the sectors and the bypass reason (stage M1).
  struct Lookup {
    uint64_t needed = 0, fetch = 0, probe = 0, reason = 0, bypass_fetch = 0;
    bool operator==(const Lookup&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Lookup& o) {
      return os << fmt::format("needed {:04b} fetch {:04b} probe {:04b} reason {} bypass_fetch {:04b}", o.needed,
                               o.fetch, o.probe, o.reason, o.bypass_fetch);
    }
  };
  // What the valid and any-dirty bits decide (stage M2): the match and the copies.
  struct Decision {
    bool hit = false, partial = false;
    uint64_t hit_way = 0, hit_slots = 0;
    std::vector<uint64_t> copies;  // per way
    std::array<uint64_t, 4> cp_way{}, cp_slot{}, cp_off{};
    uint64_t cp_wb = 0, wb_n = 0;
    bool operator==(const Decision&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Decision& o) {
      os << fmt::format("hit {} partial {} way {} slots {:04b} cp_wb {:04b} ({})", o.hit, o.partial, o.hit_way,
                        o.hit_slots, o.cp_wb, o.wb_n);
      for (unsigned c = 0; c < kSlots; ++c)
        os << fmt::format(" | c{}: way {} slot {} off {}", c, o.cp_way[c], o.cp_slot[c], o.cp_off[c]);
      for (size_t w = 0; w < o.copies.size(); ++w)
        if (o.copies[w] != 0) os << fmt::format(" copies w{} {:04b}", w, o.copies[w]);
      return os;
    }
  };

  explicit CoreMatchModel(const l1d::Config& cfg)
      : ways(cfg.l1.ways),
        bits(cfg.l1.chunk_tag_bits),
        common_bits(l1d::AddressSplit(cfg.l1).common_tag_bits()),
        port_common_bits(std::max(common_bits, 1U)),
        way_bits(ways <= 2 ? 1U : static_cast<unsigned>(std::bit_width(ways - 1U))),
        set(ways) {}

  // The request and configuration ports (l1d_core_match, l1d_core_match_m1).
  template <class M>
  void drive_request(M& m, const In& in) const {
    tb::put(m.store_i, in.store);
    tb::put(m.size_i, in.size);
    tb::put(m.chunk_i, in.chunk_tag & 3);
    for (unsigned c = 0; c < kSlots; ++c) tb::put(m.mask_i, in.mask[c], c * 32, 32);
    tb::put(m.token_i, in.token);
    tb::put(m.common_tag_i, in.common);
    tb::put(m.chunk_tag_i, in.chunk_tag);
    tb::put(m.gran_i, in.gran);
    tb::put(m.cfg_bypass_i, in.bypass);
    tb::put(m.cfg_bto_i, in.bto);
    tb::put(m.cfg_opportunistic_i, in.opp);
    tb::put(m.cfg_line_fetch_i, in.line_fetch);
    tb::put(m.agcb_bypass_i, in.agcb);
    tb::put(m.two_level_bypass_i, in.two_level);
    tb::put(m.extra_copies_i, in.extra);
  }
  // The set's SRAM fields (l1d_core_match, l1d_core_match_m1).
  template <class M>
  void drive_tags(M& m, const In& in) const {
    for (unsigned w = 0; w < ways; ++w) {
      tb::put(m.row_common_tag_i, in.way_common[w], w * port_common_bits, port_common_bits);
      for (unsigned s = 0; s < kSlots; ++s) tb::put(m.row_chunk_tag_i, in.tag[w * kSlots + s], (w * kSlots + s) * bits, bits);
    }
  }
  // The set's flip-flops (l1d_core_match, l1d_core_match_m2).
  template <class M>
  void drive_flops(M& m, const In& in) const {
    for (unsigned w = 0; w < ways; ++w) {
      tb::put(m.row_valid_i, in.valid[w], w * kSlots, kSlots);
      tb::put(m.row_dirty_any_i, in.dirty[w], w * kSlots, kSlots);
    }
  }
  template <class M>
  static Lookup sample_lookup(const M& m) {
    return {tb::get(m.needed_o), tb::get(m.fetch_o), tb::get(m.probe_o), tb::get(m.reason_o), tb::get(m.bypass_fetch_o)};
  }
  template <class M>
  Decision sample_decision(const M& m) const {
    Decision o;
    o.hit = tb::get(m.hit_o) != 0;
    o.partial = tb::get(m.partial_o) != 0;
    o.hit_way = tb::get(m.hit_way_o);
    o.hit_slots = tb::get(m.hit_slots_o);
    o.copies.resize(ways);
    for (unsigned w = 0; w < ways; ++w) o.copies[w] = tb::get(m.copies_o, w * kSlots, kSlots);
    for (unsigned c = 0; c < kSlots; ++c) {
      o.cp_way[c] = tb::get(m.cp_way_o, c * way_bits, way_bits);
      o.cp_slot[c] = tb::get(m.cp_slot_o, c * 2, 2);
      o.cp_off[c] = tb::get(m.cp_off_o, c * 3, 3);
    }
    o.cp_wb = tb::get(m.cp_wb_o);
    o.wb_n = tb::get(m.writebacks_o);
    return o;
  }

  // Section 4's sectors and bypass reason.
  static Lookup lookup(const In& in) {
    Lookup o;
    const uint64_t chunk = in.chunk_tag & 3;
    for (unsigned c = 0; c < kSlots; ++c) o.needed |= uint64_t{in.mask[c] != 0} << c;
    auto block = [&](uint64_t size_code) {  // the size-aligned block of the request's first chunk
      return size_code == 2 ? uint64_t{0xF} : size_code == 1 ? uint64_t{3} << (chunk & 2) : uint64_t{1} << chunk;
    };
    const uint64_t range = block(in.size);
    // Section 4: AGCB and two-level bypass on their prediction, PCAL without a token; AgeLRU (4)
    // and none decide nothing here.
    if (in.bypass == 1 && in.agcb) o.reason = 1;
    if (in.bypass == 2 && in.two_level) o.reason = 2;
    if (in.bypass == 3 && !in.token) o.reason = 3;
    const bool may_alloc = o.reason == 0 || o.reason == 1 || (o.reason == 3 && in.opp);
    // A bypassing miss fetches its range, or the whole line (l1.bypass_fetch line), or with BTO
    // only what it touches (golden L1::lookup).
    o.bypass_fetch = in.bto ? o.needed : in.line_fetch ? 0xF : range;
    o.fetch = may_alloc ? block(std::max(in.gran, in.size)) : o.bypass_fetch;
    o.probe = in.store ? range : o.fetch;
    return o;
  }
  // The sectors whose copies the unit finds: the probe's and extra_copies_i's (contract 13.1: an
  // AgeLRU bypass at an on_miss miss drops the copies of what a bypassing load fetches).
  static uint64_t copy_sectors(const In& in) { return lookup(in).probe | in.extra; }
  // golden::chunk_match and find_copies on the set (copies of `probe`), the copies by chunk and
  // their write-back order.
  Decision decision(const In& in, uint64_t probe) {
    tb::load_golden_set(set, in.way_common, in.valid, in.tag);
    Decision o;
    const l1d::golden::MatchResult r =
        l1d::golden::chunk_match(set, in.common, static_cast<uint32_t>(in.chunk_tag), 32U << in.size, 32U << in.gran);
    o.hit = r.kind == l1d::golden::MatchKind::kHit;
    o.partial = r.kind == l1d::golden::MatchKind::kPartial;
    if (o.hit) o.hit_way = r.way, o.hit_slots = r.slots;
    const l1d::golden::WaySlotMasks copies = l1d::golden::find_copies(
        set, in.common, static_cast<uint32_t>(in.chunk_tag), static_cast<l1d::SectorMask>(probe));
    o.copies.assign(copies.begin(), copies.begin() + ways);
    // Each copy by the chunk it holds; the dirty ones are written back by (way, slot).
    std::array<uint64_t, 4> key{};
    for (unsigned w = 0; w < ways; ++w) {
      for (unsigned s = 0; s < kSlots; ++s) {
        if (!((copies[w] >> s) & 1)) continue;
        const uint64_t c = in.tag[w * kSlots + s] & 3;
        o.cp_way[c] = w, o.cp_slot[c] = s;
        if ((in.dirty[w] >> s) & 1) o.cp_wb |= uint64_t{1} << c;
      }
    }
    for (unsigned c = 0; c < kSlots; ++c) key[c] = o.cp_way[c] * 4 + o.cp_slot[c];
    for (unsigned c = 0; c < kSlots; ++c) {
      for (unsigned d = 0; d < kSlots; ++d) o.cp_off[c] += ((o.cp_wb >> d) & 1) && key[d] < key[c];
    }
    o.wb_n = static_cast<uint64_t>(std::popcount(o.cp_wb));
    return o;
  }

  // A random request and a set that keeps the one-copy invariant: pieces of a random granularity
  // from three lines (the request's among them) and two common-tags; a chunk already placed is
  // left out (its slot invalid), as the L1 never holds two copies.
  In random(std::mt19937_64& rng) const {
    auto below = [&](uint64_t n) { return rng() % n; };
    In in;
    in.way_common.assign(ways, 0);
    in.valid.assign(ways, 0);
    in.dirty.assign(ways, 0);
    in.tag.assign(size_t{ways} * kSlots, 0);
    const uint64_t line_space = uint64_t{1} << (bits - 2);
    const std::array<uint64_t, 3> lines = {below(line_space), below(line_space), below(line_space)};
    const uint64_t common_space = uint64_t{1} << common_bits;
    const std::array<uint64_t, 2> commons = {below(common_space), below(common_space)};
    in.size = below(3);
    in.gran = below(3);
    in.common = commons[0];
    in.chunk_tag = lines[0] << 2 | (below(4) & ~((uint64_t{1} << in.size) - 1));
    const uint64_t range = in.size == 2 ? 0xF : in.size == 1 ? uint64_t{3} << (in.chunk_tag & 2) : uint64_t{1} << (in.chunk_tag & 3);
    for (unsigned c = 0; c < kSlots; ++c) {
      if ((range >> c) & 1) in.mask[c] = below(4) == 0 ? 0U : static_cast<uint32_t>(rng());
    }
    std::set<std::pair<uint64_t, uint64_t>> held;  // (common-tag, chunk-tag)
    const unsigned filled = static_cast<unsigned>(below(ways + 1));  // ways beyond stay empty
    for (unsigned w = 0; w < filled; ++w) {
      in.way_common[w] = commons[below(4) == 0 ? 1 : 0];
      const uint64_t piece = uint64_t{1} << (below(4) != 0 ? in.gran : below(3));
      for (uint64_t p = 0; p < kSlots; p += piece) {
        if (below(4) == 0) continue;
        const uint64_t line = lines[below(2) == 0 ? 0 : 1 + below(2)];
        const uint64_t first = below(4) & ~(piece - 1);
        for (uint64_t i = 0; i < piece; ++i) {
          const uint64_t tag = line << 2 | (first + i);
          in.tag[w * kSlots + p + i] = tag;
          if (!held.insert({in.way_common[w], tag}).second) continue;
          in.valid[w] |= uint64_t{1} << (p + i);
          in.dirty[w] |= uint64_t{below(2)} << (p + i);
        }
      }
    }
    in.store = below(3) == 0;
    in.token = below(2);
    in.bypass = below(5);
    in.bto = below(2);
    in.opp = below(2);
    in.line_fetch = below(2);
    in.agcb = below(2);
    in.two_level = below(2);
    in.extra = below(4) == 0 ? below(16) : 0;
    return in;
  }

  unsigned ways, bits, common_bits, port_common_bits, way_bits;
  std::vector<l1d::golden::CacheLine> set;
};

// What a random run drew: each kind of answer and every bypass reason must be frequent.
struct CoreMatchCoverage {
  uint64_t cycles = 0, hits = 0, partials = 0, misses = 0, with_copies = 0, two_wb = 0;
  std::array<uint64_t, 4> reasons{};
  void add(const CoreMatchModel::Lookup& l, const CoreMatchModel::Decision& d) {
    ++cycles;
    (d.hit ? hits : d.partial ? partials : misses)++;
    with_copies += std::any_of(d.copies.begin(), d.copies.end(), [](uint64_t m) { return m != 0; });
    two_wb += d.wb_n >= 2;
    ++reasons[l.reason];
  }
  // Prints the counts and returns whether each is frequent enough.
  bool report(const std::string& name) const {
    std::cout << fmt::format("[ coverage ] {}: {} hits, {} partial hits, {} misses, {} with copies, {} with 2+ "
                             "write-backs, reasons {} {} {} {}\n",
                             name, hits, partials, misses, with_copies, two_wb, reasons[0], reasons[1], reasons[2],
                             reasons[3]);
    bool ok = true;
    for (uint64_t n : {hits, partials, misses, with_copies, two_wb}) ok = ok && n > cycles / 100;
    for (uint64_t n : reasons) ok = ok && n > cycles / 20;
    return ok;
  }
};

}  // namespace tb
