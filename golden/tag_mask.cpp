// Tag-mask tables of the DyCache chunk-tag match controller (SPEC section 3).
//
// The masks are derived from one rule rather than stored, so that the golden model and the
// generator's emitted constant table cannot disagree:
//   U = max(R, G) / 32 is the number of slots one candidate position spans (a fill of
//   max(R, G) bytes lands in one such aligned position);
//   slot s is compared only if it is the head of a piece (s is a multiple of G / 32),
//   and then it holds chunk (s mod U) of the max(R, G)-aligned block, i.e. op = s mod U.
#include "golden/tag_mask.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace l1d::golden {
namespace {

bool is_legal_size(uint32_t bytes) { return bytes == 32 || bytes == 64 || bytes == 128; }

void check_sizes(uint32_t granularity, uint32_t request_size) {
  if (!is_legal_size(granularity))
    throw std::invalid_argument("tag_mask: granularity " + std::to_string(granularity) +
                                " is not 32, 64 or 128");
  if (!is_legal_size(request_size))
    throw std::invalid_argument("tag_mask: request size " + std::to_string(request_size) +
                                " is not 32, 64 or 128");
}

// Slots spanned by one candidate position: the aligned block a hit must come from.
uint32_t position_slots(uint32_t granularity, uint32_t request_size) {
  return std::max(granularity, request_size) / kChunkBytes;
}

}  // namespace

TagMask tag_mask(uint32_t granularity, uint32_t request_size) {
  check_sizes(granularity, request_size);
  const uint32_t piece_slots = granularity / kChunkBytes;
  const uint32_t span = position_slots(granularity, request_size);
  TagMask mask{};
  for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
    // Non-head slots of a piece hold the piece's continuation in order; their chunk-tags are
    // implied by the head's, so comparing them would add nothing (paper: "when G is 128 only
    // the first chunk-tag is compared").
    const bool piece_head = s % piece_slots == 0;
    mask[s] = piece_head ? static_cast<int8_t>(s % span) : kNotCompared;
  }
  return mask;
}

ComputedTags compute_chunk_tags(uint32_t granularity, uint32_t request_size, uint32_t chunk_tag,
                                uint32_t chunk_tag_bits) {
  // Same legal range as AddressSplit: two bits of chunk index plus at least one tag bit.
  if (chunk_tag_bits < 3 || chunk_tag_bits > 32)
    throw std::invalid_argument("compute_chunk_tags: chunk_tag_bits " + std::to_string(chunk_tag_bits) +
                                " is not in 3..32");
  const TagMask mask = tag_mask(granularity, request_size);

  // The tag processor sees only chunk_tag_bits wires, so higher input bits are dropped.
  const uint32_t width_mask = chunk_tag_bits == 32 ? ~0u : (1u << chunk_tag_bits) - 1;
  const uint32_t span = position_slots(granularity, request_size);
  // Aligning down to the span makes b + op stay inside the low log2(span) <= 2 bits: no carry
  // into the line-tag part, so the result never leaves the request's block.
  const uint32_t base = (chunk_tag & width_mask) & ~(span - 1);

  ComputedTags out;
  for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
    if (mask[s] == kNotCompared) continue;
    out.compared[s] = true;
    out.tag[s] = (base + static_cast<uint32_t>(mask[s])) & width_mask;
  }
  return out;
}

}  // namespace l1d::golden
