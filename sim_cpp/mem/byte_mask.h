// Chunk-sized views of a 128-bit byte mask: whole-word tests instead of 128 single-bit ones
// (the simulator's hot paths look at masks chunk by chunk).
#pragma once

#include <cstdint>

#include "common/types.h"

namespace l1d::sim {

// Bits 64h .. 64h+63 of m (h = 0 or 1).
inline uint64_t mask_half(const ByteMask& m, uint32_t h) {
  return ((h ? m >> 64 : m) & ByteMask{~uint64_t{0}}).to_ullong();
}

// The 32 mask bits of chunk c (bytes 32c .. 32c+31).
inline uint32_t mask_word(const ByteMask& m, uint32_t c) {
  return static_cast<uint32_t>(mask_half(m, c / 2) >> (c % 2 * kChunkBytes));
}

}  // namespace l1d::sim
