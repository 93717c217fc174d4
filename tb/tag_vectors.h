// The vectors a tag compare gives the chunk match (l1d_tag_compare's outputs; l1d_match_fix's and
// l1d_match_combine's inputs): per way the common-tag equality, per slot the tag check, the
// request's chunk held and the copy. The model of the compare is written here from its definition
// (the request's common-tag, memory line and decode against a set's tags), for the three
// testbenches.
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

// What a set's tags say about a request before its decode is applied: per way the common-tag
// equality, per slot the line equality and the chunk index held.
struct SlotFields {
  std::vector<uint64_t> common_eq;  // per way, 0 or 1
  std::vector<uint64_t> line_eq;    // per way, bit s = slot s
  std::vector<uint64_t> chunk;      // per way, bits [2s +: 2] = slot s's chunk index
  bool operator==(const SlotFields&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const SlotFields& v) {
    os << "common_eq ";
    for (uint64_t b : v.common_eq) os << b;
    for (size_t w = 0; w < v.line_eq.size(); ++w) os << fmt::format(" | w{} {:04b} {:08b}", w, v.line_eq[w], v.chunk[w]);
    return os;
  }

  // The compare of a request (common-tag, memory line = chunk-tag >> 2) against a set's tags.
  static SlotFields compare(uint64_t common_tag, uint64_t line, const std::vector<uint64_t>& way_common,
                            const std::vector<uint64_t>& slot_tag) {
    SlotFields v;
    for (size_t w = 0; w < way_common.size(); ++w) {
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
};

// The request's decode the slot checks read (l1d_match_request's compared, mask_chunk and
// req_chunks) and the sectors whose copies are wanted.
struct SlotCheckRequest {
  uint64_t compared = 0, mask_chunk = 0, req_chunks = 0, sectors = 0;
  bool operator==(const SlotCheckRequest&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const SlotCheckRequest& r) {
    return os << fmt::format("compared {:04b} mask_chunk {:08b} req_chunks {:04b} sectors {:04b}", r.compared,
                             r.mask_chunk, r.req_chunks, r.sectors);
  }
  // Any bits: the checks are defined for every decode, not only the ones a request gives.
  template <class Rng>
  static SlotCheckRequest random(Rng& rng) {
    return {rng() & 0xF, rng() & 0xFF, rng() & 0xF, rng() & 0xF};
  }
  template <class M>
  void put(M& m) const {
    tb::put(m.compared_i, compared);
    tb::put(m.mask_chunk_i, mask_chunk);
    tb::put(m.req_chunks_i, req_chunks);
    tb::put(m.sectors_i, sectors);
  }
};

struct TagVectors {
  std::vector<uint64_t> common_eq;  // per way, 0 or 1
  std::vector<uint64_t> tag_ok;     // per way, bit s = slot s: not compared, or holds the compared chunk-tag
  std::vector<uint64_t> held;       // per way: holds a chunk of the request's line set in req_chunks
  std::vector<uint64_t> copy;       // per way: holds a chunk of the request's line set in sectors
  bool operator==(const TagVectors&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const TagVectors& v) {
    os << "common_eq ";
    for (uint64_t b : v.common_eq) os << b;
    for (size_t w = 0; w < v.tag_ok.size(); ++w)
      os << fmt::format(" | w{} ok {:04b} held {:04b} copy {:04b}", w, v.tag_ok[w], v.held[w], v.copy[w]);
    return os;
  }

  // The slot checks, from their definition: per slot, with its line equality and chunk index.
  static TagVectors check(const SlotFields& f, const SlotCheckRequest& r) {
    TagVectors v;
    v.common_eq = f.common_eq;
    for (size_t w = 0; w < f.line_eq.size(); ++w) {
      uint64_t ok = 0, held = 0, copy = 0;
      for (unsigned s = 0; s < 4; ++s) {
        const bool line_eq = (f.line_eq[w] >> s) & 1;
        const uint64_t chunk = (f.chunk[w] >> 2 * s) & 3;
        const bool compared = (r.compared >> s) & 1;
        ok |= uint64_t{!compared || (line_eq && chunk == ((r.mask_chunk >> 2 * s) & 3))} << s;
        held |= uint64_t{line_eq && ((r.req_chunks >> chunk) & 1)} << s;
        copy |= uint64_t{line_eq && ((r.sectors >> chunk) & 1)} << s;
      }
      v.tag_ok.push_back(ok);
      v.held.push_back(held);
      v.copy.push_back(copy);
    }
    return v;
  }
  static TagVectors compare(uint64_t common_tag, uint64_t line, const std::vector<uint64_t>& way_common,
                            const std::vector<uint64_t>& slot_tag, const SlotCheckRequest& r) {
    return check(SlotFields::compare(common_tag, line, way_common, slot_tag), r);
  }

  template <class P1, class P2, class P3, class P4>
  void put(P1& common_port, P2& ok_port, P3& held_port, P4& copy_port) const {
    for (unsigned w = 0; w < common_eq.size(); ++w) {
      tb::put(common_port, common_eq[w], w, 1);
      tb::put(ok_port, tag_ok[w], w * 4, 4);
      tb::put(held_port, held[w], w * 4, 4);
      tb::put(copy_port, copy[w], w * 4, 4);
    }
  }
  template <class P1, class P2, class P3, class P4>
  static TagVectors get(unsigned ways, const P1& common_port, const P2& ok_port, const P3& held_port,
                        const P4& copy_port) {
    TagVectors v;
    for (unsigned w = 0; w < ways; ++w) {
      v.common_eq.push_back(tb::get(common_port, w, 1));
      v.tag_ok.push_back(tb::get(ok_port, w * 4, 4));
      v.held.push_back(tb::get(held_port, w * 4, 4));
      v.copy.push_back(tb::get(copy_port, w * 4, 4));
    }
    return v;
  }
};

}  // namespace tb
