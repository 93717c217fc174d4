// The simulator's functional memory image: what DRAM holds. Sparse, 128 B lines; a line
// never written reads as initial_byte(addr) (a fixed function of the address, so that stale
// data is visible). Workloads initialise their inputs through it.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "common/types.h"

namespace l1d::sim {

class FunctionalMemory {
 public:
  static uint8_t initial_byte(Addr a) { return static_cast<uint8_t>((a * 0x9E3779B1u) >> 13); }

  LineData line(Addr line_addr) const;
  uint8_t read8(Addr a) const;
  void write8(Addr a, uint8_t v);
  template <typename T>
  T read(Addr a) const {
    T v;
    uint8_t b[sizeof(T)];
    for (size_t i = 0; i < sizeof(T); ++i) b[i] = read8(a + i);
    std::memcpy(&v, b, sizeof(T));
    return v;
  }
  template <typename T>
  void write(Addr a, const T& v) {
    uint8_t b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    for (size_t i = 0; i < sizeof(T); ++i) write8(a + i, b[i]);
  }
  // Bytes [a, a + n) into out / from data: what n calls of read8 / write8 would read / leave, a
  // line at a time (the workloads' inputs and result checks: docs/performance.md).
  void read_bytes(Addr a, void* out, uint64_t n) const;
  void write_bytes(Addr a, const void* data, uint64_t n);
  // Applies a write request (byte mask) or returns a read's sectors, as the L2 does.
  void apply_write(const MemReq& r);
  LineData read_sectors(Addr line_addr, SectorMask sectors) const;

 private:
  // Lines are stored in pages of 32 neighbouring lines (4 KB), a page created when a line of it
  // is first written. A line holds data once it is written (its bit in `stored`); until then it
  // reads as initial, as a line of an absent page does. So a page's creation writes no byte, and a
  // line written whole (a copy's line at init, apply_write) is never filled with initial bytes
  // first (docs/performance.md, twentieth round). Fewer, larger map nodes: a lookup is cheap and
  // neighbouring lines sit together in host memory.
  static constexpr uint32_t kPageLines = 32;
  struct Page {
    Page() {}  // lines left unwritten: only those in `stored` are read
    std::array<LineData, kPageLines> lines;
    uint32_t stored = 0;  // bit i: lines[i] holds the line's data
  };
  static Addr page_of(Addr line_addr) { return line_addr / (kLineBytes * kPageLines); }
  static uint32_t index_in_page(Addr line_addr) { return static_cast<uint32_t>(line_addr / kLineBytes % kPageLines); }

  // The line's storage, its page created if need be; a line not stored before is filled with its
  // initial bytes unless the caller writes it whole (`whole`).
  LineData& line_ref(Addr line_addr, bool whole = false);
  // The stored line or nullptr, through a one-page cache: read<T>/write<T> go byte by byte, so
  // consecutive calls nearly always hit the same page. Node-based map: pointers stay valid
  // (pages are never erased). Not thread-safe (the simulator is single-threaded).
  const LineData* find_line(Addr line_addr) const;
  // Reset whenever the memory is copied or moved (it points into one map's nodes).
  struct PageCache {
    Addr page = ~Addr{0};
    Page* ptr = nullptr;  // pages_[page], or nullptr when that page is not stored
    PageCache() = default;
    PageCache(const PageCache&) {}
    PageCache(PageCache&& o) noexcept { o.reset(); }
    PageCache& operator=(const PageCache&) { return reset(); }
    PageCache& operator=(PageCache&& o) noexcept { o.reset(); return reset(); }
    PageCache& reset() {
      page = ~Addr{0};
      ptr = nullptr;
      return *this;
    }
  };
  Page* find_page(Addr page) const;
  std::unordered_map<Addr, Page> pages_;
  mutable PageCache cache_;
};

}  // namespace l1d::sim
