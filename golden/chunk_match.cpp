#include "golden/chunk_match.h"

#include <algorithm>

#include "golden/tag_mask.h"

namespace l1d::golden {

namespace {

// Does `line` hold the request at the aligned position starting at slot p?
bool position_hits(const CacheLine& line, const TagMask& mask, uint32_t p, uint32_t units, uint32_t base,
                   uint32_t chunk_tag, uint32_t chunks) {
  for (uint32_t s = p; s < p + units; ++s) {
    if (mask[s] == kNotCompared) continue;
    const Slot& slot = line.slot[s];
    if (!slot.valid || slot.chunk_tag != base + static_cast<uint32_t>(mask[s])) return false;
  }
  // The pieces hold their blocks in order, so the request's chunk c sits at p + (c - base).
  for (uint32_t c = 0; c < chunks; ++c)
    if (!line.slot[p + (chunk_tag - base) + c].valid) return false;
  return true;
}

}  // namespace

MatchResult chunk_match(const std::vector<CacheLine>& set, uint64_t common_tag, uint32_t chunk_tag,
                        uint32_t request_size, uint32_t granularity) {
  const TagMask mask = tag_mask(granularity, request_size);
  const uint32_t units = std::max(request_size, granularity) / kChunkBytes;
  const uint32_t base = chunk_tag & ~(units - 1);
  const uint32_t chunks = request_size / kChunkBytes;

  for (uint32_t w = 0; w < set.size(); ++w) {
    const CacheLine& line = set[w];
    if (line.common_tag != common_tag) continue;
    for (uint32_t p = 0; p < kSlotsPerLine; p += units) {
      if (!position_hits(line, mask, p, units, base, chunk_tag, chunks)) continue;
      MatchResult r{MatchKind::kHit, w, p, 0};
      for (uint32_t c = 0; c < chunks; ++c) r.slots = static_cast<uint8_t>(r.slots | (1u << (p + (chunk_tag - base) + c)));
      return r;
    }
  }

  SectorMask wanted = static_cast<SectorMask>(((1u << chunks) - 1) << (chunk_tag & 3));
  for (uint8_t m : find_copies(set, common_tag, chunk_tag, wanted))
    if (m) return MatchResult{MatchKind::kPartial, 0, 0, 0};
  return MatchResult{};
}

WaySlotMasks find_copies(const std::vector<CacheLine>& set, uint64_t common_tag, uint32_t chunk_tag,
                                 SectorMask sectors) {
  WaySlotMasks masks{};
  const uint32_t line_part = chunk_tag >> 2;
  for (uint32_t w = 0; w < set.size(); ++w) {
    const CacheLine& line = set[w];
    if (line.common_tag != common_tag) continue;
    for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
      const Slot& slot = line.slot[s];
      if (slot.valid && (slot.chunk_tag >> 2) == line_part && (sectors >> (slot.chunk_tag & 3)) & 1)
        masks[w] = static_cast<uint8_t>(masks[w] | (1u << s));
    }
  }
  return masks;
}

}  // namespace l1d::golden
