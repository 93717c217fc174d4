// A packed copy of the L1's tag state, kept in step with the lines, so that a lookup does not
// walk every way's 200-byte CacheLine (docs/performance.md):
//   - per way the common tag and per slot the chunk tag or "empty", in flat arrays;
//   - per (set, common tag, memory line) the ways holding a valid chunk of that line;
//   - per set, one bit per way, the ways with a live slot (valid or written), with a reserved slot,
//     and with the PCAL priority flag, and per way the filler's AWID: what L1::choose_placement
//     reads, so that a fill does not walk the 48-64 lines of a large set.
// It holds no state of its own: L1::check_invariants compares it with the lines.
#pragma once

#include <cstdint>
#include <vector>

#include "golden/cache_line.h"
#include "common/flat_map.h"

namespace l1d::golden {

class TagIndex {
 public:
  // lines_per_way: the most memory lines one way's valid slots can hold chunks of (kSlotsPerLine
  // under DyCache's granularities; 1 on a sector L1, whose slot i holds sector i of the way's one
  // line). It sizes the line index, whose slots a lookup misses in the cache on a large L1: a
  // sector L1's table is a quarter of the size (qv100 at 128 KB: 64 KB per SM instead of 256 KB).
  TagIndex(uint32_t sets, uint32_t ways, uint32_t lines_per_way = kSlotsPerLine);

  // Re-reads way `way` of set `set` after its common tag, a slot's valid, written or reserved bit or
  // chunk tag, or the line's priority or AWID changed.
  void sync(uint32_t set, uint32_t way, const CacheLine& line);
  // Every line's priority flag cleared (kernel end) without a sync of each way.
  void clear_priority() {
    for (SetMasks& m : masks_) m.prio = 0;
  }
  // Per set, one bit per way (see the file comment).
  struct SetMasks {
    uint64_t live = 0;  // a slot valid or written (l1.write_allocate)
    uint64_t held = 0;  // a slot reserved (l1.allocation on_miss)
    uint64_t prio = 0;  // CacheLine::priority
  };
  const SetMasks& masks(uint32_t set) const { return masks_[set]; }
  const uint8_t* awids(uint32_t set) const { return &awid_[size_t{set} * ways_]; }
  bool in_step(uint32_t set, uint32_t way, const CacheLine& line) const;
  // No valid slot in way `way` of set `set`: one bit of a packed array, so that a kernel-end walk
  // over a large L1 (L1::flush_step) reads a few hundred bytes per SM, not every way's slots.
  bool way_empty(uint32_t set, uint32_t way) const {
    const size_t i = size_t{set} * ways_ + way;
    return !((occupied_[i / 64] >> (i % 64)) & 1);
  }
  // (way, memory line) pairs in the line index; with in_step on every way, equal to the pairs
  // the lines hold exactly when the index has no stale entry.
  uint64_t indexed_pairs() const;

  // One set's tag state: a TagSetView for chunk_match / find_copies (golden/chunk_match.h).
  struct Set {
    const TagIndex* index;
    uint32_t set;
    uint32_t ways() const { return index->ways_; }
    uint64_t common_tag(uint32_t w) const { return index->way_[base() + w].common; }
    bool valid(uint32_t w, uint32_t s) const { return (index->way_[base() + w].valid >> s) & 1; }
    uint32_t chunk_tag(uint32_t w, uint32_t s) const { return index->way_[base() + w].chunk[s]; }
    // The ways that may hold a chunk of memory line `line_part` (chunk tag >> 2) with common_tag.
    uint64_t candidate_ways(uint64_t common_tag, uint32_t line_part) const {
      const uint64_t* m = index->lines_.find(LineKey{common_tag, set, line_part});
      return m ? *m : 0;
    }
    size_t base() const { return size_t{set} * index->ways_; }
    uint64_t slot(uint32_t w, uint32_t s) const { return index->way_[base() + w].slot(s); }
  };
  Set set(uint32_t set) const { return Set{this, set}; }

 private:
  // Chunk tags are at most 32 bits wide (l1.chunk_tag_bits), so kEmpty is never a real tag.
  static constexpr uint64_t kEmpty = uint64_t{1} << 32;
  struct LineKey {
    uint64_t common = 0;
    uint32_t set = 0, line_part = 0;
    bool operator==(const LineKey&) const = default;
  };
  struct LineKeyHash {
    size_t operator()(const LineKey& k) const {
      return mix64(k.common * 0x9e3779b97f4a7c15ull ^ (uint64_t{k.set} << 32) ^ k.line_part);
    }
  };
  uint64_t packed(const CacheLine& line, uint32_t s) const {
    return line.slot[s].valid ? uint64_t{line.slot[s].chunk_tag} : kEmpty;
  }

  uint32_t ways_;
  // A way's common tag beside its slots: a lookup reads one cache line per way, not a line of a
  // common-tag array and another of a slot array (both missed on a large L1). 32 bytes, aligned:
  // two ways to a host cache line and none across two (with a 64-bit word per slot, kEmpty for an
  // empty one, it was 40 bytes and half the ways straddled two lines; docs/performance.md,
  // sixteenth round).
  struct alignas(32) WayTags {
    uint64_t common = 0;
    uint32_t chunk[kSlotsPerLine] = {};  // 0 where the slot is empty
    uint8_t valid = 0;                   // bit s: slot s holds chunk[s]
    uint64_t slot(uint32_t s) const { return (valid >> s) & 1 ? uint64_t{chunk[s]} : kEmpty; }
  };
  static_assert(sizeof(WayTags) == 32);
  std::vector<WayTags> way_;
  std::vector<uint64_t> occupied_;  // bit set * ways + way: the way has a valid slot
  std::vector<SetMasks> masks_;     // per set
  std::vector<uint8_t> awid_;       // set * ways + way: CacheLine::awid
  FlatMap<LineKey, uint64_t, LineKeyHash> lines_;  // way mask per memory line held
};

}  // namespace l1d::golden
