// Masked byte operations on one 32 B chunk of a line, eight bytes at a time: the golden L1
// (golden/line_bytes.h) and the LDST unit's data check (sim_cpp/core/arch_image.h) zero the bytes a
// request does not select, and merge a store's selected bytes, on every response and store. Done
// one byte per mask bit, a partial chunk cost about 130 instructions; gtx480 comd's requests
// select words scattered over the line, and those loops were 5 % of its run
// (docs/performance.md, seventh round).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "common/types.h"

namespace l1d::byte_lanes {

// A 64-bit load holds byte i of memory in bits 8i .. 8i+7 only on a little-endian host.
static_assert(std::endian::native == std::endian::little, "byte_lanes assumes a little-endian host");

// kLanes[b]: byte i is 0xFF where bit i of b is set, 0x00 elsewhere.
inline constexpr std::array<uint64_t, 256> kLanes = [] {
  std::array<uint64_t, 256> t{};
  for (uint32_t b = 0; b < 256; ++b)
    for (uint32_t i = 0; i < 8; ++i)
      if ((b >> i) & 1) t[b] |= uint64_t{0xFF} << (8 * i);
  return t;
}();

// Zeroes the bytes of the chunk at p whose bit in `bits` (bit b: byte b) is clear.
inline void keep_chunk(uint8_t* p, uint32_t bits) {
  for (uint32_t g = 0; g < kChunkBytes; g += 8) {
    uint64_t v;
    std::memcpy(&v, p + g, 8);
    v &= kLanes[(bits >> g) & 0xFF];
    std::memcpy(p + g, &v, 8);
  }
}

// Copies to `to` the bytes of the chunk at `from` whose bit in `bits` is set.
inline void merge_chunk(uint8_t* to, const uint8_t* from, uint32_t bits) {
  for (uint32_t g = 0; g < kChunkBytes; g += 8) {
    uint64_t t, f;
    std::memcpy(&t, to + g, 8);
    std::memcpy(&f, from + g, 8);
    const uint64_t m = kLanes[(bits >> g) & 0xFF];
    t = (t & ~m) | (f & m);
    std::memcpy(to + g, &t, 8);
  }
}

// Copies to `to` the bytes of `from` that m selects (a store merged into a line): whole chunks
// by memcpy, partial ones by merge_chunk.
inline void merge_masked(LineData& to, const LineData& from, const ByteMask& m) {
  const uint64_t half[2] = {(m & ByteMask{~uint64_t{0}}).to_ullong(), (m >> 64).to_ullong()};
  for (uint32_t c = 0; c < kSlotsPerLine; ++c) {
    const auto bits = static_cast<uint32_t>(half[c / 2] >> (c % 2 * kChunkBytes));
    const uint32_t o = c * kChunkBytes;
    if (bits == 0) continue;
    if (bits == 0xFFFFFFFFu)
      std::memcpy(to.data() + o, from.data() + o, kChunkBytes);
    else
      merge_chunk(to.data() + o, from.data() + o, bits);
  }
}

}  // namespace l1d::byte_lanes
