// Chunk-tag match controller: hit / partial hit / miss (SPEC section 3).
#include "golden/chunk_match.h"

#include <gtest/gtest.h>

#include "common/address.h"

namespace l1d::golden {
namespace {

CacheLine line_with(uint64_t common, std::initializer_list<std::pair<uint32_t, uint32_t>> slot_tags) {
  CacheLine l;
  l.common_tag = common;
  for (auto [slot, tag] : slot_tags) l.slot[slot] = Slot{.valid = true, .chunk_tag = tag};
  return l;
}

TEST(ChunkMatch, PaperExampleHitsWithSlots0And2) {
  AddressSplit split(32, 16, 32, SetIndexHash::kLinear);
  DecodedAddr d = split.decode(0x04000100);
  std::vector<CacheLine> set(4);
  set[1] = line_with(0x01, {{0, 0x0000}, {1, 0x0001}, {2, 0x0002}, {3, 0x0003}});
  MatchResult m = chunk_match(set, d.common_tag, d.chunk_tag, 128, 64);
  EXPECT_EQ(m.kind, MatchKind::kHit);
  EXPECT_EQ(m.way, 1u);
  EXPECT_EQ(m.slots, 0xF);
}

TEST(ChunkMatch, PaperExampleNeedsValidCoveringSlots) {
  std::vector<CacheLine> set(4);
  // Heads 0 and 2 match, but slot 3 (part of the second 64 B piece) is invalid.
  set[0] = line_with(0x01, {{0, 0x0000}, {1, 0x0001}, {2, 0x0002}});
  EXPECT_EQ(chunk_match(set, 0x01, 0x0000, 128, 64).kind, MatchKind::kPartial);
}

TEST(ChunkMatch, PaperExampleWrongCommonTagMisses) {
  std::vector<CacheLine> set(4);
  set[0] = line_with(0x02, {{0, 0x0000}, {1, 0x0001}, {2, 0x0002}, {3, 0x0003}});
  EXPECT_EQ(chunk_match(set, 0x01, 0x0000, 128, 64).kind, MatchKind::kMiss);
}

TEST(ChunkMatch, G128ComparesOnlyTheHead) {
  std::vector<CacheLine> set(4);
  set[2] = line_with(0x5, {{0, 0x40}, {1, 0x41}, {2, 0x42}, {3, 0x43}});
  MatchResult m = chunk_match(set, 0x5, 0x42, 32, 128);
  EXPECT_EQ(m.kind, MatchKind::kHit);
  EXPECT_EQ(m.way, 2u);
  EXPECT_EQ(m.slots, 0x4);
}

TEST(ChunkMatch, G32SmallPiecesAnywhereInTheLine) {
  std::vector<CacheLine> set(4);
  // Elastic: slot 3 holds chunk 1 of memory line 0x77, slot 0 chunk 2 of line 0x10.
  set[0] = line_with(0x3, {{0, 0x42}, {3, (0x77 << 2) | 1}});
  MatchResult m = chunk_match(set, 0x3, (0x77 << 2) | 1, 32, 32);
  EXPECT_EQ(m.kind, MatchKind::kHit);
  EXPECT_EQ(m.slots, 0x8);
}

TEST(ChunkMatch, G32R64EitherPosition) {
  std::vector<CacheLine> set(2);
  set[0] = line_with(0x3, {{2, 0x10}, {3, 0x11}});
  MatchResult m = chunk_match(set, 0x3, 0x10, 64, 32);
  EXPECT_EQ(m.kind, MatchKind::kHit);
  EXPECT_EQ(m.position, 2u);
  EXPECT_EQ(m.slots, 0xC);
  // The same chunks out of order (slots 2,3 swapped) are not a hit but a partial hit.
  set[0] = line_with(0x3, {{2, 0x11}, {3, 0x10}});
  EXPECT_EQ(chunk_match(set, 0x3, 0x10, 64, 32).kind, MatchKind::kPartial);
}

TEST(ChunkMatch, G64R32FindsChunkInsidePiece) {
  std::vector<CacheLine> set(2);
  set[1] = line_with(0x9, {{2, 0x24}, {3, 0x25}});  // a 64 B piece (chunks 0,1 of line 0x9) at slots 2-3
  MatchResult m = chunk_match(set, 0x9, 0x25, 32, 64);
  EXPECT_EQ(m.kind, MatchKind::kHit);
  EXPECT_EQ(m.slots, 0x8);
}

TEST(ChunkMatch, PartialAcrossLines) {
  std::vector<CacheLine> set(4);
  set[0] = line_with(0x1, {{0, 0x20}});
  set[3] = line_with(0x1, {{1, 0x21}});
  // A 64 B request at G=32 needs chunks 0x20,0x21 at one position of one line.
  EXPECT_EQ(chunk_match(set, 0x1, 0x20, 64, 32).kind, MatchKind::kPartial);
  WaySlotMasks c = find_copies(set, 0x1, 0x20, 0x3);
  EXPECT_EQ(c[0], 0x1);
  EXPECT_EQ(c[3], 0x2);
  EXPECT_EQ(c[1], 0);
}

TEST(ChunkMatch, CopiesOutsideTheRangeAreNotPartial) {
  std::vector<CacheLine> set(2);
  set[0] = line_with(0x1, {{0, 0x22}, {1, 0x23}});
  EXPECT_EQ(chunk_match(set, 0x1, 0x20, 64, 32).kind, MatchKind::kMiss);
  EXPECT_EQ(find_copies(set, 0x1, 0x20, 0xF)[0], 0x3);
}

TEST(ChunkMatch, InvalidSlotsNeverMatch) {
  std::vector<CacheLine> set(1);
  set[0] = line_with(0x1, {{0, 0x20}});
  set[0].slot[0].valid = false;
  EXPECT_EQ(chunk_match(set, 0x1, 0x20, 32, 32).kind, MatchKind::kMiss);
}

}  // namespace
}  // namespace l1d::golden
