// common/byte_lanes.h against the byte-at-a-time definition it replaced: for random and edge
// masks, keep_chunk zeroes exactly the bytes whose bit is clear and merge_chunk / merge_masked
// copy exactly the bytes whose bit is set.
#include "common/byte_lanes.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace l1d {
namespace {

std::array<uint8_t, kChunkBytes> random_chunk(std::mt19937_64& rng) {
  std::array<uint8_t, kChunkBytes> c{};
  for (uint8_t& b : c) b = static_cast<uint8_t>(rng() | 1);  // no zero byte: a kept byte stays visible
  return c;
}

std::vector<uint32_t> chunk_masks(std::mt19937_64& rng) {
  std::vector<uint32_t> m = {0u, 0xFFFFFFFFu, 1u, 0x80000000u, 0x0000FF00u, 0xF0F0F0F0u, 0x0F0F0F0Fu, 0x00FF00FFu};
  for (int i = 0; i < 200; ++i) m.push_back(static_cast<uint32_t>(rng()));
  return m;
}

TEST(ByteLanes, LaneTableSpreadsEachBitOverItsByte) {
  EXPECT_EQ(byte_lanes::kLanes[0x00], 0u);
  EXPECT_EQ(byte_lanes::kLanes[0x01], 0xFFull);
  EXPECT_EQ(byte_lanes::kLanes[0x80], 0xFF00000000000000ull);
  EXPECT_EQ(byte_lanes::kLanes[0xA5], 0xFF00FF0000FF00FFull);
  EXPECT_EQ(byte_lanes::kLanes[0xFF], ~0ull);
}

TEST(ByteLanes, KeepChunkZeroesExactlyTheUnselectedBytes) {
  std::mt19937_64 rng(7);
  for (const uint32_t bits : chunk_masks(rng)) {
    const auto before = random_chunk(rng);
    auto after = before;
    byte_lanes::keep_chunk(after.data(), bits);
    for (uint32_t b = 0; b < kChunkBytes; ++b)
      EXPECT_EQ(after[b], ((bits >> b) & 1) ? before[b] : 0) << std::hex << "mask 0x" << bits << " byte " << b;
  }
}

TEST(ByteLanes, MergeChunkCopiesExactlyTheSelectedBytes) {
  std::mt19937_64 rng(11);
  for (const uint32_t bits : chunk_masks(rng)) {
    const auto to = random_chunk(rng), from = random_chunk(rng);
    auto out = to;
    byte_lanes::merge_chunk(out.data(), from.data(), bits);
    for (uint32_t b = 0; b < kChunkBytes; ++b)
      EXPECT_EQ(out[b], ((bits >> b) & 1) ? from[b] : to[b]) << std::hex << "mask 0x" << bits << " byte " << b;
  }
}

TEST(ByteLanes, MergeMaskedCopiesTheSelectedBytesOfTheLine) {
  std::mt19937_64 rng(13);
  for (int i = 0; i < 200; ++i) {
    LineData to{}, from{};
    for (uint32_t b = 0; b < kLineBytes; ++b) to[b] = static_cast<uint8_t>(rng()), from[b] = static_cast<uint8_t>(rng());
    ByteMask m;
    // Whole chunks, empty chunks and scattered bytes, mixed.
    for (uint32_t c = 0; c < kSlotsPerLine; ++c) {
      const uint64_t kind = rng() % 3, r = rng();
      for (uint32_t b = 0; b < kChunkBytes; ++b)
        m[c * kChunkBytes + b] = kind == 0 ? false : kind == 1 ? true : ((r >> b) & 1) != 0;
    }
    LineData out = to;
    byte_lanes::merge_masked(out, from, m);
    for (uint32_t b = 0; b < kLineBytes; ++b) EXPECT_EQ(out[b], m[b] ? from[b] : to[b]) << "case " << i << " byte " << b;
  }
}

}  // namespace
}  // namespace l1d
