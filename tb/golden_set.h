// A set of golden::CacheLines from a testbench's per-way port values (the tag-state view the
// golden chunk_match / find_copies read): common-tag per way, valid bits (bit s = slot s) per
// way, chunk-tags [w * 4 + s].
#pragma once
#include <cstdint>
#include <vector>

#include "golden/cache_line.h"

namespace tb {

inline void load_golden_set(std::vector<l1d::golden::CacheLine>& set, const std::vector<uint64_t>& common,
                            const std::vector<uint64_t>& valid, const std::vector<uint64_t>& tags) {
  constexpr unsigned kSlots = l1d::kSlotsPerLine;
  for (size_t w = 0; w < set.size(); ++w) {
    set[w].common_tag = common[w];
    for (unsigned s = 0; s < kSlots; ++s) {
      set[w].slot[s].valid = ((valid[w] >> s) & 1) != 0;
      set[w].slot[s].chunk_tag = static_cast<uint32_t>(tags[w * kSlots + s]);
    }
  }
}

}  // namespace tb
