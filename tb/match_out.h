// What the chunk match answers (l1d_chunk_match's and l1d_match_combine's outputs), sampled from a
// model and computed by the golden model (golden::chunk_match and golden::find_copies) on a set,
// for those two testbenches.
#pragma once
#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include "golden/chunk_match.h"
#include "tb/ports.h"

namespace tb {

struct MatchOut {
  bool hit = false, partial = false;
  uint64_t hit_way = 0, hit_slots = 0;
  std::vector<uint64_t> copies;  // per way
  bool operator==(const MatchOut&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const MatchOut& o) {
    os << fmt::format("hit_o {} partial_o {} hit_way_o {} hit_slots_o {:04b} copies_o (non-zero ways):", int{o.hit},
                      int{o.partial}, o.hit_way, o.hit_slots);
    for (size_t w = 0; w < o.copies.size(); ++w) {
      if (o.copies[w] != 0) os << fmt::format(" w{} {:04b}", w, o.copies[w]);
    }
    return os;
  }

  template <class M>
  static MatchOut sample(const M& m, unsigned ways) {
    MatchOut o;
    o.hit = tb::get(m.hit_o) != 0;
    o.partial = tb::get(m.partial_o) != 0;
    o.hit_way = tb::get(m.hit_way_o);
    o.hit_slots = tb::get(m.hit_slots_o);
    for (unsigned w = 0; w < ways; ++w) o.copies.push_back(tb::get(m.copies_o, w * 4, 4));
    return o;
  }

  // The golden model on `set` (its first `ways` lines), plus what the modules' headers define
  // outside its contract: the illegal code 3 of size or gran neither hits nor partially hits, and
  // the chunk-tag is aligned down to the request size.
  static MatchOut golden(const std::vector<l1d::golden::CacheLine>& set, unsigned ways, uint64_t common_tag,
                         uint64_t chunk_tag, uint64_t size, uint64_t gran, uint64_t sectors) {
    MatchOut o;
    const auto tag = static_cast<uint32_t>(chunk_tag);
    const l1d::golden::WaySlotMasks copies =
        l1d::golden::find_copies(set, common_tag, tag, static_cast<l1d::SectorMask>(sectors));
    o.copies.assign(copies.begin(), copies.begin() + ways);
    if (gran == 3 || size == 3) return o;
    const uint32_t aligned = tag & ~((1U << size) - 1);
    const l1d::golden::MatchResult r = l1d::golden::chunk_match(set, common_tag, aligned, 32U << size, 32U << gran);
    o.hit = r.kind == l1d::golden::MatchKind::kHit;
    o.partial = r.kind == l1d::golden::MatchKind::kPartial;
    if (o.hit) {
      o.hit_way = r.way;
      o.hit_slots = r.slots;
    }
    return o;
  }
};

}  // namespace tb
