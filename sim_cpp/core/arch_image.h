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

#include "common/byte_lanes.h"
#include "common/types.h"
#include "golden/line_bytes.h"
#include "sim_cpp/mem/functional_memory.h"

namespace l1d::sim {

// Zeroes the bytes of d outside m (the golden L1's helper: one implementation of the masking).
using golden::line_bytes::keep_masked;

class ArchImage {
 public:
  explicit ArchImage(const FunctionalMemory& backing) : backing_(backing) {}
  ArchImage(const ArchImage&) = delete;
  ArchImage& operator=(const ArchImage&) = delete;

  const LineData& line(Addr line_addr) { return slot(line_addr & ~Addr{kLineBytes - 1}); }

  // Writes the bytes of `data` (indexed by offset in the line) that `mask` selects.
  void write(Addr line_addr, const ByteMask& mask, const LineData& data) {
    byte_lanes::merge_masked(slot(line_addr & ~Addr{kLineBytes - 1}), data, mask);
  }

  template <typename T>
  T read(Addr a) {
    T v;
    uint8_t b[sizeof(T)];
    for (size_t i = 0; i < sizeof(T); ++i) b[i] = line(a + i)[(a + i) % kLineBytes];
    std::memcpy(&v, b, sizeof(T));
    return v;
  }

  size_t lines() const { return lines_; }

 private:
  // Lines are kept in pages of 32 neighbouring lines (4 KB: few map nodes, neighbouring lines
  // together in host memory), each line copied from the backing image when first used.
  static constexpr uint32_t kPageLines = 32;
  struct Page {
    std::array<LineData, kPageLines> lines;
    uint32_t present = 0;  // bit i: lines[i] holds the line
  };

  LineData& slot(Addr line_addr) {
    const Addr page = line_addr / (kLineBytes * kPageLines);
    Entry& e = cache_[page % cache_.size()];
    if (e.page != page || !e.ptr) {
      e.page = page;
      e.ptr = &pages_[page];  // node-based map: stable
    }
    const auto i = static_cast<uint32_t>(line_addr / kLineBytes % kPageLines);
    if (!((e.ptr->present >> i) & 1)) {
      e.ptr->lines[i] = backing_.line(line_addr);
      e.ptr->present |= 1u << i;
      ++lines_;
    }
    return e.ptr->lines[i];
  }

  struct Entry {
    Addr page = 0;
    Page* ptr = nullptr;
  };
  const FunctionalMemory& backing_;
  std::unordered_map<Addr, Page> pages_;
  size_t lines_ = 0;
  std::array<Entry, 4096> cache_{};  // direct-mapped page cache in front of pages_ (16 MB of pages)
};

}  // namespace l1d::sim
