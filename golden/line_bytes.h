// Byte and sector helpers of the golden L1 (golden/l1.cpp, golden/l1_sector.cpp): masks of the 128 B
// line's bytes and 32 B sectors, and chunk copies between line buffers.
#pragma once

#include <cstdint>
#include <cstring>

#include "common/byte_lanes.h"
#include "common/types.h"

namespace l1d::golden::line_bytes {

// The sectors of the `size`-byte block starting at chunk index `first`.
inline SectorMask range_sectors(uint32_t first, uint32_t size) {
  return static_cast<SectorMask>(((1u << (size / kChunkBytes)) - 1) << first);
}

// A byte mask as its two 64-bit words (bytes 0-63, 64-127): the helpers below test whole
// words instead of 128 single bits (a speed matter only).
struct MaskWords {
  uint64_t w[2];
};
inline MaskWords words_of(const ByteMask& m) {
  return {{(m & ByteMask{~uint64_t{0}}).to_ullong(), (m >> 64).to_ullong()}};
}

inline SectorMask sectors_of(const ByteMask& m) {
  const MaskWords mw = words_of(m);
  SectorMask s = 0;
  for (uint32_t c = 0; c < kSlotsPerLine; ++c)
    if ((mw.w[c / 2] >> (c % 2 * kChunkBytes)) & 0xFFFFFFFFull) s = static_cast<SectorMask>(s | (1u << c));
  return s;
}

// Zeroes the bytes of d that m does not select (chunk by chunk: requests mostly select whole
// chunks or none; a partial chunk eight bytes at a time, common/byte_lanes.h).
inline void keep_masked(LineData& d, const ByteMask& m) {
  const MaskWords mw = words_of(m);
  for (uint32_t c = 0; c < kSlotsPerLine; ++c) {
    const auto bits = static_cast<uint32_t>(mw.w[c / 2] >> (c % 2 * kChunkBytes));
    uint8_t* p = d.data() + c * kChunkBytes;
    if (bits == 0xFFFFFFFFu) continue;
    if (bits == 0) {
      std::memset(p, 0, kChunkBytes);
      continue;
    }
    byte_lanes::keep_chunk(p, bits);
  }
}

// The sectors set in a mask, by table: std::popcount is a libgcc call on the baseline x86-64
// target (no POPCNT instruction), and the L1 counts sectors on every lookup (1 % of a gtx480 run).
inline uint32_t sectors_in(SectorMask m) {
  constexpr uint8_t kBits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  return kBits[m & 0xF] + kBits[(m >> 4) & 0xF];
}

inline const MemReq kNoMemReq{};  // the memory request output while the miss queue is empty
constexpr SectorMask kAllSectors = 0xF;

inline uint32_t size_index(uint32_t size) { return size == 32 ? 0 : size == 64 ? 1 : 2; }

inline void copy_chunk(LineData& to, uint32_t to_chunk, const LineData& from, uint32_t from_chunk, const ByteMask* mask) {
  if (!mask) {
    std::memcpy(to.data() + to_chunk * kChunkBytes, from.data() + from_chunk * kChunkBytes, kChunkBytes);
    return;
  }
  const MaskWords mw = words_of(*mask);
  const auto bits = static_cast<uint32_t>(mw.w[from_chunk / 2] >> (from_chunk % 2 * kChunkBytes));
  byte_lanes::merge_chunk(to.data() + to_chunk * kChunkBytes, from.data() + from_chunk * kChunkBytes, bits);
}

}  // namespace l1d::golden::line_bytes
