// The simulator's functional memory image: what DRAM holds. Sparse, 128 B lines; a line
// never written reads as initial_byte(addr) (a fixed function of the address, so that stale
// data is visible). Workloads initialise their inputs through it.
#pragma once

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
  // Applies a write request (byte mask) or returns a read's sectors, as the L2 does.
  void apply_write(const MemReq& r);
  LineData read_sectors(Addr line_addr, SectorMask sectors) const;

 private:
  LineData& line_ref(Addr line_addr);
  // The stored line or nullptr, through a one-line cache: read<T>/write<T> go byte by byte, so
  // consecutive calls nearly always hit the same line. Node-based map: pointers stay valid
  // (lines are never erased). Not thread-safe (the simulator is single-threaded).
  const LineData* find_line(Addr line_addr) const;
  // Reset whenever the memory is copied or moved (it points into one map's nodes).
  struct LineCache {
    Addr addr = ~Addr{0};
    LineData* line = nullptr;  // lines_[addr], or nullptr when addr is not stored
    LineCache() = default;
    LineCache(const LineCache&) {}
    LineCache(LineCache&& o) noexcept { o.reset(); }
    LineCache& operator=(const LineCache&) { return reset(); }
    LineCache& operator=(LineCache&& o) noexcept { o.reset(); return reset(); }
    LineCache& reset() {
      addr = ~Addr{0};
      line = nullptr;
      return *this;
    }
  };
  std::unordered_map<Addr, LineData> lines_;
  mutable LineCache cache_;
};

}  // namespace l1d::sim
