// AgeLRU warp-age bookkeeping of one SM (SPEC section 8): two 8-bit wrap-around counters,
// Oldest-AWID and Youngest-AWID. AWIDs are assigned in launch order, mod 256.
#pragma once

#include <cstdint>
#include <optional>

namespace l1d::golden {

class AgeLruCounters {
 public:
  AgeLruCounters() { reset(); }

  // Reset: no warp active, Youngest = 255 so that the first warp gets AWID 0.
  void reset();
  // A warp launches: it gets Youngest + 1 (mod 256), and Youngest advances. Returns its AWID.
  uint8_t launch();
  // A warp exits. If it is the oldest, Oldest advances to next_oldest (the AWID of the oldest
  // warp still running), or, when none is left, the counters become empty.
  void exit(uint8_t awid, std::optional<uint8_t> next_oldest);

  // Active test: no wrap (Oldest <= Youngest): Oldest <= id <= Youngest; wrapped: id >= Oldest
  // or id <= Youngest. Nothing is active while no warp runs.
  bool active(uint8_t id) const;
  // (id - Oldest) mod 256: 0 is the oldest warp.
  uint8_t relative_age(uint8_t id) const { return static_cast<uint8_t>(id - oldest_); }

  uint8_t oldest() const { return oldest_; }
  uint8_t youngest() const { return youngest_; }
  bool empty() const { return empty_; }

  // Direct state load (tests and RTL scoreboards).
  void set(uint8_t oldest, uint8_t youngest, bool empty) {
    oldest_ = oldest;
    youngest_ = youngest;
    empty_ = empty;
  }

 private:
  uint8_t oldest_ = 0;
  uint8_t youngest_ = 255;
  bool empty_ = true;
};

}  // namespace l1d::golden
