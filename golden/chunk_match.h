// DyCache chunk-tag match controller (SPEC section 3, microarchitecture doc section 4):
// hit / partial hit / miss of one request against the lines of one set.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "golden/cache_line.h"

namespace l1d::golden {

enum class MatchKind : uint8_t { kMiss, kHit, kPartial };

struct MatchResult {
  MatchKind kind = MatchKind::kMiss;
  uint32_t way = 0;       // hit only
  uint32_t position = 0;  // hit only: first slot of the matching aligned position
  uint8_t slots = 0;      // hit only: the slots that hold the request's chunks
};

// `set` holds the ways of one set. request_size R and granularity G in {32, 64, 128}.
MatchResult chunk_match(const std::vector<CacheLine>& set, uint64_t common_tag, uint32_t chunk_tag,
                        uint32_t request_size, uint32_t granularity);

// Per way, the valid slots holding a chunk of memory line `chunk_tag >> 2` (with common_tag)
// whose chunk index is in `sectors`: one mask per way (ways beyond set.size() are 0).
inline constexpr uint32_t kMaxSetWays = 64;
using WaySlotMasks = std::array<uint8_t, kMaxSetWays>;
WaySlotMasks find_copies(const std::vector<CacheLine>& set, uint64_t common_tag, uint32_t chunk_tag,
                                 SectorMask sectors);

}  // namespace l1d::golden
