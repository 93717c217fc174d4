// The request's decode for the chunk match (l1d_match_request's outputs, l1d_match_combine's
// inputs), written from SPEC section 3: the tag mask and tag processor from golden::tag_mask's
// tables (compute_chunk_tags), and what a hit's position needs: U = max(G, R) / 32 slots form a
// position (head_mask names its slot-index bits); the request's chunks are the R / 32 chunks from
// its (aligned) first one; a slot must be valid in a hitting position when the chunk at its index
// is one of the request's; a slot neither compared nor needed is free (any content passes).
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <ostream>

#include "golden/tag_mask.h"
#include "tb/ports.h"

namespace tb {

struct MatchRequestDecode {
  uint64_t legal = 0, compared = 0, mask_chunk = 0, req_chunks = 0, need_slots = 0, head_mask = 0, free_slots = 0;
  bool operator==(const MatchRequestDecode&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const MatchRequestDecode& d) {
    return os << fmt::format("legal {} compared {:04b} mask_chunk {:08b} req_chunks {:04b} need_slots {:04b} "
                             "head_mask {:02b} free_slots {:04b}",
                             d.legal, d.compared, d.mask_chunk, d.req_chunks, d.need_slots, d.head_mask, d.free_slots);
  }

  // size and gran: 0 = 32 B, 1 = 64 B, 2 = 128 B (the codes are log2 of the size in chunks). Legal
  // codes only: l1d_match_request's other outputs are not defined for the illegal code 3.
  static MatchRequestDecode of(uint64_t chunk_tag, uint64_t size, uint64_t gran, unsigned chunk_tag_bits) {
    MatchRequestDecode d;
    d.legal = 1;
    const uint64_t u = uint64_t{1} << std::max(size, gran);  // slots of a position
    const uint64_t r = uint64_t{1} << size;                  // chunks of the request
    d.head_mask = ~(u - 1) & 3;
    const uint64_t first = chunk_tag & 3 & ~(r - 1);
    for (uint64_t s = 0; s < 4; ++s) {
      d.req_chunks |= uint64_t{s >= first && s < first + r} << s;
      // Slot s of a position holds the chunk with s's bits below the position, the request's above.
      const uint64_t chunk_at = (first & ~(u - 1)) | (s & (u - 1));
      d.need_slots |= uint64_t{chunk_at >= first && chunk_at < first + r} << s;
    }
    const l1d::golden::ComputedTags tags = l1d::golden::compute_chunk_tags(
        32u << gran, 32u << size, static_cast<uint32_t>(chunk_tag), chunk_tag_bits);
    for (unsigned s = 0; s < 4; ++s) {
      if (!tags.compared[s]) continue;
      d.compared |= uint64_t{1} << s;
      d.mask_chunk |= uint64_t{tags.tag[s] & 3} << (2 * s);
    }
    d.free_slots = ~(d.compared | d.need_slots) & 0xF;
    return d;
  }

  template <class M>
  static MatchRequestDecode get(const M& m) {
    return {tb::get(m.legal_o),      tb::get(m.compared_o), tb::get(m.mask_chunk_o), tb::get(m.req_chunks_o),
            tb::get(m.need_slots_o), tb::get(m.head_mask_o), tb::get(m.free_slots_o)};
  }
  // The part l1d_match_combine reads (the rest went into l1d_tag_compare's slot checks).
  template <class M>
  void put_combine(M& m) const {
    tb::put(m.legal_i, legal);
    tb::put(m.free_slots_i, free_slots);
    tb::put(m.need_slots_i, need_slots);
    tb::put(m.head_mask_i, head_mask);
  }
};

}  // namespace tb
