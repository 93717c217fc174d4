// DyCache tag-mask tables (SPEC section 3). For granularity G and request size R, entry s
// tells how slot s of a line takes part in the match: kNotCompared, or the offset added to
// the request's base chunk-tag (the chunk-tag aligned down to max(R, G) / 32 slots).
// This is one of the constant-table functions the generator may share (SPEC section 3).
#pragma once

#include <array>
#include <cstdint>

#include "common/types.h"

namespace l1d::golden {

inline constexpr int8_t kNotCompared = -1;
using TagMask = std::array<int8_t, kSlotsPerLine>;

// G in {32, 64, 128}, R in {32, 64, 128}; throws std::invalid_argument otherwise.
TagMask tag_mask(uint32_t granularity, uint32_t request_size);

// The tag processor: the chunk-tag each slot is compared with (valid only where the mask
// compares), for a request whose chunk-tag is `chunk_tag`.
struct ComputedTags {
  std::array<bool, kSlotsPerLine> compared{};
  std::array<uint32_t, kSlotsPerLine> tag{};
};
ComputedTags compute_chunk_tags(uint32_t granularity, uint32_t request_size, uint32_t chunk_tag,
                                uint32_t chunk_tag_bits);

}  // namespace l1d::golden
