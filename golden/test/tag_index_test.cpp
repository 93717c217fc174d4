// The golden L1's indexes (docs/performance.md): the flat hash map against std::unordered_map,
// and chunk_match / find_copies through the packed tag index against the same search over the
// CacheLines themselves, on random sets with few distinct tags (so ways share lines).
#include <random>
#include <unordered_map>

#include <gtest/gtest.h>

#include "golden/chunk_match.h"
#include "common/flat_map.h"
#include "golden/tag_index.h"

namespace l1d::golden {
namespace {

struct IdentityHash {  // every key of a residue class collides: long probe runs, many shifts
  size_t operator()(uint64_t k) const { return k % 7; }
};

TEST(FlatMap, MatchesUnorderedMapUnderRandomInsertEraseWithCollisions) {
  std::mt19937_64 rng(3);
  FlatMap<uint64_t, uint32_t, IdentityHash> map(40);
  std::unordered_map<uint64_t, uint32_t> ref;
  for (int step = 0; step < 200000; ++step) {
    const uint64_t k = rng() % 64;
    if (rng() % 2 && (ref.size() < 40 || ref.count(k))) {
      map[k] += 1;
      ref[k] += 1;
    } else {
      map.erase(k);
      ref.erase(k);
    }
    ASSERT_EQ(map.size(), ref.size()) << "step " << step;
    const uint64_t q = rng() % 64;
    const uint32_t* v = map.find(q);
    ASSERT_EQ(v != nullptr, ref.count(q) == 1) << "step " << step << " key " << q;
    if (v) {
      ASSERT_EQ(*v, ref[q]);
    }
  }
}

TEST(FlatMap, RefusesMoreKeysThanItsBound) {
  FlatMap<uint64_t, int, IdentityHash> map(2);
  map[1] = 1;
  map[2] = 2;
  EXPECT_THROW(map[3], std::logic_error);
  EXPECT_EQ(map[2], 2);  // an existing key is no insert
}

TEST(TagIndex, SearchesGiveTheSameResultsAsTheLines) {
  std::mt19937 rng(11);  // 32-bit draws
  const uint32_t sets = 2, ways = 64;
  std::vector<std::vector<CacheLine>> lines(sets, std::vector<CacheLine>(ways));
  TagIndex index(sets, ways);
  for (int step = 0; step < 20000; ++step) {
    const auto s = static_cast<uint32_t>(rng() % sets), w = static_cast<uint32_t>(rng() % ways);
    CacheLine& l = lines[s][w];
    l.common_tag = rng() % 3;
    for (Slot& slot : l.slot) {
      slot.valid = rng() % 3 != 0;
      slot.chunk_tag = static_cast<uint32_t>(rng() % 24);  // six memory lines of four chunks
    }
    index.sync(s, w, l);
    ASSERT_TRUE(index.in_step(s, w, l));
    for (uint32_t g : {32u, 64u, 128u})
      for (uint32_t r : {32u, 64u, 128u}) {
        const uint64_t common = rng() % 3;
        const auto chunk_tag = static_cast<uint32_t>(rng() % 24) & ~(r / kChunkBytes - 1);
        const MatchResult a = chunk_match(index.set(s), common, chunk_tag, r, g);
        const MatchResult b = chunk_match(lines[s], common, chunk_tag, r, g);
        ASSERT_EQ(a.kind, b.kind) << "step " << step << " G " << g << " R " << r;
        ASSERT_EQ(a.way, b.way);
        ASSERT_EQ(a.position, b.position);
        ASSERT_EQ(a.slots, b.slots);
        const auto sectors = static_cast<SectorMask>(rng() % 16);
        ASSERT_EQ(find_copies(index.set(s), common, chunk_tag, sectors), find_copies(lines[s], common, chunk_tag, sectors));
      }
  }
}

// The per-set placement masks (L1::choose_placement reads them instead of the lines): after each
// sync they equal a scan of the lines, and in_step notices a line changed without a sync.
TEST(TagIndex, PlacementMasksMatchTheLinesAndStaleOnesAreCaught) {
  std::mt19937 rng(5);
  const uint32_t sets = 3, ways = 48;
  std::vector<std::vector<CacheLine>> lines(sets, std::vector<CacheLine>(ways));
  TagIndex index(sets, ways);
  for (int step = 0; step < 20000; ++step) {
    const auto s = static_cast<uint32_t>(rng() % sets), w = static_cast<uint32_t>(rng() % ways);
    CacheLine& l = lines[s][w];
    for (Slot& slot : l.slot) {
      const auto state = static_cast<uint32_t>(rng() % 5);  // invalid, valid, reserved, written, invalid
      slot.valid = state == 1;
      slot.reserved = state == 2;
      slot.written = state == 3;
    }
    l.priority = rng() % 2 != 0;
    l.awid = static_cast<uint8_t>(rng() % 64);
    index.sync(s, w, l);
    uint64_t live = 0, held = 0, prio = 0;
    for (uint32_t v = 0; v < ways; ++v) {
      const CacheLine& x = lines[s][v];
      for (const Slot& slot : x.slot) {
        if (slot.valid || slot.written) live |= uint64_t{1} << v;
        if (slot.reserved) held |= uint64_t{1} << v;
      }
      if (x.priority) prio |= uint64_t{1} << v;
      ASSERT_EQ(index.awids(s)[v], x.awid) << "step " << step << " way " << v;
    }
    ASSERT_EQ(index.masks(s).live, live) << "step " << step;
    ASSERT_EQ(index.masks(s).held, held) << "step " << step;
    ASSERT_EQ(index.masks(s).prio, prio) << "step " << step;
  }
  CacheLine& l = lines[1][7];
  l.slot = {};
  l.priority = false;
  index.sync(1, 7, l);
  ASSERT_TRUE(index.in_step(1, 7, l));
  l.slot[2].reserved = true;  // no sync: the reserved mask is stale
  EXPECT_FALSE(index.in_step(1, 7, l));
  index.sync(1, 7, l);
  l.priority = true;
  EXPECT_FALSE(index.in_step(1, 7, l));
  index.sync(1, 7, l);
  EXPECT_TRUE(index.in_step(1, 7, l));
  index.clear_priority();
  EXPECT_EQ(index.masks(1).prio, 0u);
  EXPECT_FALSE(index.in_step(1, 7, l));  // the line still says priority
}

}  // namespace
}  // namespace l1d::golden
