#include "golden/tag_index.h"

#include <bit>

namespace l1d::golden {

// At most one key per valid slot, and lines_per_way per way (FlatMap throws beyond it).
TagIndex::TagIndex(uint32_t sets, uint32_t ways, uint32_t lines_per_way)
    : ways_(ways),
      way_(size_t{sets} * ways),
      occupied_((size_t{sets} * ways + 63) / 64, 0),
      masks_(sets),
      awid_(size_t{sets} * ways, 0),
      lines_(size_t{sets} * ways * lines_per_way) {}

namespace {
// The distinct memory lines (chunk tag >> 2) of up to kSlotsPerLine slots.
struct LineParts {
  uint32_t part[kSlotsPerLine];
  uint32_t n = 0;
  bool holds(uint32_t p) const {
    for (uint32_t k = 0; k < n; ++k)
      if (part[k] == p) return true;
    return false;
  }
  void add(uint32_t p) {
    if (!holds(p)) part[n++] = p;
  }
};

struct PlacementBits {
  bool live = false, held = false;
};
PlacementBits placement_bits(const CacheLine& line) {
  PlacementBits b;
  for (const Slot& s : line.slot) {
    b.live |= s.valid || s.written;
    b.held |= s.reserved;
  }
  return b;
}
}  // namespace

void TagIndex::sync(uint32_t set, uint32_t way, const CacheLine& line) {
  const size_t i = size_t{set} * ways_ + way;
  WayTags& t = way_[i];
  const uint64_t bit = uint64_t{1} << way;
  // Only the keys of memory lines the way stops or starts holding change: a line it keeps under
  // the same common tag keeps its key as it is. (Removing and re-inserting every slot's key, most
  // of them the same line's, was 3 % of a gtx480 run; docs/performance.md.)
  LineParts before, after;
  for (uint32_t s = 0; s < kSlotsPerLine; ++s)
    if ((t.valid >> s) & 1) before.add(t.chunk[s] >> 2);
  for (uint32_t s = 0; s < kSlotsPerLine; ++s)
    if (line.slot[s].valid) after.add(line.slot[s].chunk_tag >> 2);
  const bool same_common = t.common == line.common_tag;
  for (uint32_t k = 0; k < before.n; ++k) {
    if (same_common && after.holds(before.part[k])) continue;
    const LineKey key{t.common, set, before.part[k]};
    if (uint64_t* m = lines_.find(key); m && (*m &= ~bit) == 0) lines_.erase(key);
  }
  for (uint32_t k = 0; k < after.n; ++k)
    if (!same_common || !before.holds(after.part[k])) lines_[LineKey{line.common_tag, set, after.part[k]}] |= bit;
  t.common = line.common_tag;
  t.valid = 0;
  for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
    t.chunk[s] = line.slot[s].valid ? line.slot[s].chunk_tag : 0;
    t.valid = static_cast<uint8_t>(t.valid | (line.slot[s].valid ? 1u << s : 0u));
  }
  const uint64_t word_bit = uint64_t{1} << (i % 64);
  occupied_[i / 64] = after.n ? occupied_[i / 64] | word_bit : occupied_[i / 64] & ~word_bit;
  const PlacementBits b = placement_bits(line);
  SetMasks& m = masks_[set];
  m.live = b.live ? m.live | bit : m.live & ~bit;
  m.held = b.held ? m.held | bit : m.held & ~bit;
  m.prio = line.priority ? m.prio | bit : m.prio & ~bit;
  awid_[i] = line.awid;
}

bool TagIndex::in_step(uint32_t set, uint32_t way, const CacheLine& line) const {
  const size_t i = size_t{set} * ways_ + way;
  if (way_[i].common != line.common_tag) return false;
  bool any = false;
  for (uint32_t s = 0; s < kSlotsPerLine; ++s) any |= line.slot[s].valid;
  if (way_empty(set, way) == any) return false;
  const PlacementBits b = placement_bits(line);
  const SetMasks& sm = masks_[set];
  const auto has = [way](uint64_t mask) { return ((mask >> way) & 1) != 0; };
  if (has(sm.live) != b.live || has(sm.held) != b.held || has(sm.prio) != line.priority || awid_[i] != line.awid)
    return false;
  for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
    if (way_[i].slot(s) != packed(line, s)) return false;
    if (!line.slot[s].valid) continue;
    const uint64_t* m = lines_.find(LineKey{line.common_tag, set, line.slot[s].chunk_tag >> 2});
    if (!m || !((*m >> way) & 1)) return false;
  }
  return true;
}

uint64_t TagIndex::indexed_pairs() const {
  uint64_t n = 0;
  lines_.for_each([&](const LineKey&, uint64_t ways) { n += static_cast<uint64_t>(std::popcount(ways)); });
  return n;
}

}  // namespace l1d::golden
