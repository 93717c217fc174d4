// The architectural memory image the LDST unit checks loads against (ldst_unit.h): what memory
// holds in program order, i.e. with every store the L1s have accepted. Sparse, 128 B lines,
// filled lazily from the memory system's image: a line no accepted store has touched still
// holds its initial value there, because every write that reaches the memory system (a store
// or a write-back of stored data) comes from a store accepted earlier, which brought the line
// here first.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "common/types.h"
#include "sim_cpp/mem/functional_memory.h"

namespace l1d::sim {

// The 32 mask bits of chunk c (bytes 32c .. 32c+31).
inline uint32_t mask_word(const ByteMask& m, uint32_t c) {
  static const ByteMask kLow(0xFFFFFFFFull);
  return static_cast<uint32_t>(((m >> (c * kChunkBytes)) & kLow).to_ulong());
}

// Zeroes the bytes of d outside m.
inline void keep_masked(LineData& d, const ByteMask& m) {
  for (uint32_t c = 0; c < kSlotsPerLine; ++c) {
    const uint32_t w = mask_word(m, c);
    if (w == 0xFFFFFFFFu) continue;
    uint8_t* p = d.data() + c * kChunkBytes;
    if (w == 0) {
      std::memset(p, 0, kChunkBytes);
      continue;
    }
    for (uint32_t b = 0; b < kChunkBytes; ++b)
      if (!((w >> b) & 1)) p[b] = 0;
  }
}

class ArchImage {
 public:
  explicit ArchImage(const FunctionalMemory& backing) : backing_(backing) {}
  ArchImage(const ArchImage&) = delete;
  ArchImage& operator=(const ArchImage&) = delete;

  const LineData& line(Addr line_addr) { return slot(line_addr & ~Addr{kLineBytes - 1}); }

  // Writes the bytes of `data` (indexed by offset in the line) that `mask` selects.
  void write(Addr line_addr, const ByteMask& mask, const LineData& data) {
    LineData& l = slot(line_addr & ~Addr{kLineBytes - 1});
    for (uint32_t c = 0; c < kSlotsPerLine; ++c) {
      const uint32_t w = mask_word(mask, c);
      if (w == 0) continue;
      const uint32_t o = c * kChunkBytes;
      if (w == 0xFFFFFFFFu) {
        std::memcpy(l.data() + o, data.data() + o, kChunkBytes);
        continue;
      }
      for (uint32_t b = 0; b < kChunkBytes; ++b)
        if ((w >> b) & 1) l[o + b] = data[o + b];
    }
  }

  template <typename T>
  T read(Addr a) {
    T v;
    uint8_t b[sizeof(T)];
    for (size_t i = 0; i < sizeof(T); ++i) b[i] = line(a + i)[(a + i) % kLineBytes];
    std::memcpy(&v, b, sizeof(T));
    return v;
  }

  size_t lines() const { return lines_.size(); }

 private:
  LineData& slot(Addr line_addr) {
    Entry& e = cache_[(line_addr / kLineBytes) % cache_.size()];
    if (e.line == line_addr && e.data) return *e.data;
    auto it = lines_.find(line_addr);
    if (it == lines_.end()) it = lines_.emplace(line_addr, backing_.line(line_addr)).first;
    e.line = line_addr;
    e.data = &it->second;  // node-based map: stable
    return it->second;
  }

  struct Entry {
    Addr line = 0;
    LineData* data = nullptr;
  };
  const FunctionalMemory& backing_;
  std::unordered_map<Addr, LineData> lines_;
  std::array<Entry, 4096> cache_{};
};

}  // namespace l1d::sim
