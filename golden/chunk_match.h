// DyCache chunk-tag match controller (SPEC section 3, microarchitecture doc section 4):
// hit / partial hit / miss of one request against the lines of one set.
//
// The match reads only the tag state of a set: per way the common tag, per slot the valid bit
// and the chunk tag. It runs on any view of that state (TagSetView below): the L1 keeps a packed
// copy of it (golden/tag_index.h) so a lookup walks a few cache lines instead of every way's
// data; tests pass a set of CacheLines (LineSetView).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <utility>
#include <vector>

#include "golden/cache_line.h"
#include "golden/tag_mask.h"

namespace l1d::golden {

enum class MatchKind : uint8_t { kMiss, kHit, kPartial };

struct MatchResult {
  MatchKind kind = MatchKind::kMiss;
  uint32_t way = 0;       // hit only
  uint32_t position = 0;  // hit only: first slot of the matching aligned position
  uint8_t slots = 0;      // hit only: the slots that hold the request's chunks
};

// Per way, the slots of one set selected by a search (ways beyond the set are 0).
inline constexpr uint32_t kMaxSetWays = 64;
using WaySlotMasks = std::array<uint8_t, kMaxSetWays>;

template <typename V>
concept TagSetView = requires(const V& v, uint32_t w, uint32_t s) {
  { v.ways() } -> std::convertible_to<uint32_t>;
  { v.common_tag(w) } -> std::convertible_to<uint64_t>;
  { v.valid(w, s) } -> std::convertible_to<bool>;
  { v.chunk_tag(w, s) } -> std::convertible_to<uint32_t>;
};

// The ways to search for chunks of memory line `line_part` (chunk tag >> 2): a view with a line
// index (TagIndex::Set::candidate_ways) names them; otherwise every way. A way outside the mask
// holds no valid chunk of that line.
template <TagSetView V>
uint64_t ways_to_search(const V& set, uint64_t common_tag, uint32_t line_part) {
  if constexpr (requires { set.candidate_ways(common_tag, line_part); })
    return set.candidate_ways(common_tag, line_part);
  else
    return set.ways() >= 64 ? ~uint64_t{0} : (uint64_t{1} << set.ways()) - 1;
}

// A set of CacheLines seen as tag state.
struct LineSetView {
  const std::vector<CacheLine>& lines;
  uint32_t ways() const { return static_cast<uint32_t>(lines.size()); }
  uint64_t common_tag(uint32_t w) const { return lines[w].common_tag; }
  bool valid(uint32_t w, uint32_t s) const { return lines[w].slot[s].valid; }
  uint32_t chunk_tag(uint32_t w, uint32_t s) const { return lines[w].slot[s].chunk_tag; }
};

// The valid slots of way w holding a chunk of memory line `line_part` (with common_tag) whose chunk
// index is in `sectors`.
template <TagSetView V>
uint8_t way_copies(const V& set, uint32_t w, uint64_t common_tag, uint32_t line_part, SectorMask sectors) {
  uint8_t m = 0;
  if (set.common_tag(w) != common_tag) return 0;
  for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
    const uint32_t t = set.chunk_tag(w, s);
    if (set.valid(w, s) && (t >> 2) == line_part && (sectors >> (t & 3)) & 1) m = static_cast<uint8_t>(m | (1u << s));
  }
  return m;
}

// Per way, the valid slots holding a chunk of memory line `chunk_tag >> 2` (with common_tag)
// whose chunk index is in `sectors`.
template <TagSetView V>
WaySlotMasks find_copies(const V& set, uint64_t common_tag, uint32_t chunk_tag, SectorMask sectors) {
  WaySlotMasks masks{};
  const uint32_t line_part = chunk_tag >> 2;
  for (uint64_t ways = ways_to_search(set, common_tag, line_part); ways; ways &= ways - 1) {
    const auto w = static_cast<uint32_t>(std::countr_zero(ways));
    masks[w] = way_copies(set, w, common_tag, line_part, sectors);
  }
  return masks;
}

// The lowest way of find_copies with a copy and its slots ({0, 0}: none), without building the
// per-way array (a sector L1's lookup needs only the one way that holds its line).
template <TagSetView V>
std::pair<uint32_t, uint8_t> first_copy(const V& set, uint64_t common_tag, uint32_t chunk_tag, SectorMask sectors) {
  const uint32_t line_part = chunk_tag >> 2;
  for (uint64_t ways = ways_to_search(set, common_tag, line_part); ways; ways &= ways - 1) {
    const auto w = static_cast<uint32_t>(std::countr_zero(ways));
    if (const uint8_t m = way_copies(set, w, common_tag, line_part, sectors)) return {w, m};
  }
  return {0, 0};
}

// tag_mask(G, R) from a table built once: the match runs on every lookup, and building the mask
// each time was 1 % of a gtx480 run. Sizes outside {32, 64, 128} go to tag_mask, which throws.
inline const TagMask& match_tag_mask(uint32_t granularity, uint32_t request_size) {
  constexpr uint32_t kSizes[3] = {32, 64, 128};
  static const std::array<TagMask, 9> table = [&] {
    std::array<TagMask, 9> t{};
    for (uint32_t g = 0; g < 3; ++g)
      for (uint32_t r = 0; r < 3; ++r) t[g * 3 + r] = tag_mask(kSizes[g], kSizes[r]);
    return t;
  }();
  const auto index = [](uint32_t bytes) -> uint32_t { return bytes == 32 ? 0 : bytes == 64 ? 1 : bytes == 128 ? 2 : 3; };
  const uint32_t g = index(granularity), r = index(request_size);
  if (g == 3 || r == 3) tag_mask(granularity, request_size);  // throws std::invalid_argument
  return table[g * 3 + r];
}

// Hit, partial hit (a valid copy of one of the request's chunks elsewhere) or miss of a request
// of request_size R and chunk tag `chunk_tag` at granularity G (R, G in {32, 64, 128}).
template <TagSetView V>
MatchResult chunk_match(const V& set, uint64_t common_tag, uint32_t chunk_tag, uint32_t request_size,
                        uint32_t granularity) {
  const TagMask& mask = match_tag_mask(granularity, request_size);
  const uint32_t units = std::max(request_size, granularity) / kChunkBytes;
  const uint32_t base = chunk_tag & ~(units - 1);
  const uint32_t chunks = request_size / kChunkBytes;
  // Does way w hold the request at the aligned position starting at slot p? The pieces hold
  // their blocks in order, so the request's chunk c sits at p + (chunk_tag - base) + c.
  const auto position_hits = [&](uint32_t w, uint32_t p) {
    for (uint32_t s = p; s < p + units; ++s) {
      if (mask[s] == kNotCompared) continue;
      if (!set.valid(w, s) || set.chunk_tag(w, s) != base + static_cast<uint32_t>(mask[s])) return false;
    }
    for (uint32_t c = 0; c < chunks; ++c)
      if (!set.valid(w, p + (chunk_tag - base) + c)) return false;
    return true;
  };

  // Every position compares its first slot (a piece head) with a chunk of the request's line,
  // so only the ways holding a chunk of that line can hit; they are searched lowest first.
  for (uint64_t ways = ways_to_search(set, common_tag, chunk_tag >> 2); ways; ways &= ways - 1) {
    const auto w = static_cast<uint32_t>(std::countr_zero(ways));
    if (set.common_tag(w) != common_tag) continue;
    for (uint32_t p = 0; p < kSlotsPerLine; p += units) {
      if (!position_hits(w, p)) continue;
      MatchResult r{MatchKind::kHit, w, p, 0};
      for (uint32_t c = 0; c < chunks; ++c) r.slots = static_cast<uint8_t>(r.slots | (1u << (p + (chunk_tag - base) + c)));
      return r;
    }
  }

  // A partial hit needs only whether some way holds a copy: first_copy stops at the first one and
  // reads only the candidate ways (find_copies' 64-way array, built and read whole, was most of
  // the match on a 4-way gtx480 L1; docs/performance.md).
  const auto wanted = static_cast<SectorMask>(((1u << chunks) - 1) << (chunk_tag & 3));
  if (first_copy(set, common_tag, chunk_tag, wanted).second) return MatchResult{MatchKind::kPartial, 0, 0, 0};
  return MatchResult{};
}

inline MatchResult chunk_match(const std::vector<CacheLine>& set, uint64_t common_tag, uint32_t chunk_tag,
                               uint32_t request_size, uint32_t granularity) {
  return chunk_match(LineSetView{set}, common_tag, chunk_tag, request_size, granularity);
}
inline WaySlotMasks find_copies(const std::vector<CacheLine>& set, uint64_t common_tag, uint32_t chunk_tag,
                                SectorMask sectors) {
  return find_copies(LineSetView{set}, common_tag, chunk_tag, sectors);
}

}  // namespace l1d::golden
