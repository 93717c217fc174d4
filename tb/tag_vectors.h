// The vectors a tag compare gives the chunk match (l1d_tag_compare's outputs; l1d_match_fix's and
// l1d_match_combine's inputs): per way the common-tag equality, per slot the line equality and
// the chunk index held. The model of the compare is written here from its definition (the
// request's common-tag and memory line against a set's tags), for the three testbenches.
#pragma once
#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include "tb/ports.h"

namespace tb {

// A request and a set of `ways` lines drawn from two common-tags and three memory lines (the
// request's own first of each), so that equal and unequal fields are both frequent.
struct TagSetDraw {
  uint64_t commons[2], lines[3];
  std::vector<uint64_t> way_common, slot_tag;  // per way; [w * 4 + s]

  template <class Rng>
  static TagSetDraw draw(Rng& rng, unsigned ways, uint64_t common_mask, uint64_t line_mask) {
    TagSetDraw d{{rng() & common_mask, rng() & common_mask}, {rng() & line_mask, rng() & line_mask, rng() & line_mask},
                 {}, {}};
    for (unsigned w = 0; w < ways; ++w) {
      d.way_common.push_back(d.commons[rng() % 2]);
      for (unsigned s = 0; s < 4; ++s) d.slot_tag.push_back(d.lines[rng() % 3] << 2 | (rng() & 3));
    }
    return d;
  }
};

struct TagVectors {
  std::vector<uint64_t> common_eq;  // per way, 0 or 1
  std::vector<uint64_t> line_eq;    // per way, bit s = slot s
  std::vector<uint64_t> chunk;      // per way, bits [2s +: 2] = slot s's chunk index
  bool operator==(const TagVectors&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const TagVectors& v) {
    os << "common_eq ";
    for (uint64_t b : v.common_eq) os << b;
    for (size_t w = 0; w < v.line_eq.size(); ++w) os << fmt::format(" | w{} {:04b} {:08b}", w, v.line_eq[w], v.chunk[w]);
    return os;
  }

  // The compare of a request (common-tag, memory line = chunk-tag >> 2) against a set's tags.
  static TagVectors compare(uint64_t common_tag, uint64_t line, const std::vector<uint64_t>& way_common,
                            const std::vector<uint64_t>& slot_tag) {
    TagVectors v;
    const size_t ways = way_common.size();
    for (size_t w = 0; w < ways; ++w) {
      v.common_eq.push_back(way_common[w] == common_tag ? 1 : 0);
      uint64_t eq = 0, chunks = 0;
      for (unsigned s = 0; s < 4; ++s) {
        const uint64_t tag = slot_tag[w * 4 + s];
        eq |= uint64_t{(tag >> 2) == line} << s;
        chunks |= (tag & 3) << (2 * s);
      }
      v.line_eq.push_back(eq);
      v.chunk.push_back(chunks);
    }
    return v;
  }

  template <class P1, class P2, class P3>
  void put(P1& common_port, P2& line_port, P3& chunk_port) const {
    for (unsigned w = 0; w < common_eq.size(); ++w) {
      tb::put(common_port, common_eq[w], w, 1);
      tb::put(line_port, line_eq[w], w * 4, 4);
      tb::put(chunk_port, chunk[w], w * 8, 8);
    }
  }
  template <class P1, class P2, class P3>
  static TagVectors get(unsigned ways, const P1& common_port, const P2& line_port, const P3& chunk_port) {
    TagVectors v;
    for (unsigned w = 0; w < ways; ++w) {
      v.common_eq.push_back(tb::get(common_port, w, 1));
      v.line_eq.push_back(tb::get(line_port, w * 4, 4));
      v.chunk.push_back(tb::get(chunk_port, w * 8, 8));
    }
    return v;
  }
};

}  // namespace tb
