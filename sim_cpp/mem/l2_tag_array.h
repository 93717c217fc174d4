// An L2 slice's tag array (l2_bank.h): sets x ways of 128 B lines, each way with its line address,
// per-sector valid and dirty bits (valid 0: the way is empty) and an LRU stamp.
//
// Kept as three arrays, not one array of ways, for the host's caches: a request reads the set's
// line addresses, and only the matching way's masks and stamp (a miss: the set's masks and stamps
// to choose a victim). Between two requests to one slice the other 63 slices and 80 SMs run, so
// each lookup is cold: with a 24-byte way (address, stamp, masks) a 24-way set was nine host lines
// to compare, now three (8-byte addresses, the array host-line aligned; docs/performance.md,
// seventeenth round). A miss's victim scan reads the set's stamps (a 24-way set's 192 bytes:
// three host lines aligned, four where a vector's 16-byte alignment let them straddle) and masks
// (48 bytes), so those arrays are host-line aligned too (eighteenth round). Only where the bytes
// sit differs from one array of ways: the same lookups, victims and stamps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/types.h"
#include "golden/line_aligned.h"

namespace l1d::sim {

class L2TagArray {
 public:
  static constexpr size_t kNone = ~size_t{0};

  L2TagArray(uint32_t sets, uint32_t ways)
      : ways_(ways), lines_(size_t{sets} * ways, 0), stamps_(size_t{sets} * ways, 0), masks_(size_t{sets} * ways) {}

  // The way of `set` (its index in the whole array) that holds `line_addr` with a valid sector,
  // or kNone: the first such way in way order.
  size_t find(uint32_t set, Addr line_addr) const {
    const size_t first = size_t{set} * ways_;
    const Addr* lines = lines_.data() + first;
    for (uint32_t w = 0; w < ways_; ++w)
      if (lines[w] == line_addr && masks_[first + w].valid != 0) return first + w;
    return kNone;
  }
  // The way of `set` to replace: the first empty one, else the least recently used (the first of
  // the oldest stamp).
  size_t victim(uint32_t set) const {
    const size_t first = size_t{set} * ways_;
    size_t v = first;
    for (size_t i = first; i < first + ways_; ++i) {
      if (masks_[i].valid == 0) return i;
      if (stamps_[i] < stamps_[v]) v = i;
    }
    return v;
  }

  Addr line(size_t way) const { return lines_[way]; }
  SectorMask valid(size_t way) const { return masks_[way].valid; }
  SectorMask dirty(size_t way) const { return masks_[way].dirty; }
  uint64_t stamp(size_t way) const { return stamps_[way]; }

  // The way now holds `line_addr` with no sector valid or dirty (its stamp is kept).
  void assign(size_t way, Addr line_addr) {
    lines_[way] = line_addr;
    masks_[way] = {};
  }
  void add_valid(size_t way, SectorMask s) { masks_[way].valid = static_cast<SectorMask>(masks_[way].valid | s); }
  void add_dirty(size_t way, SectorMask s) { masks_[way].dirty = static_cast<SectorMask>(masks_[way].dirty | s); }
  void set_stamp(size_t way, uint64_t stamp) { stamps_[way] = stamp; }

 private:
  struct Masks {
    SectorMask valid = 0;  // 0: the way is empty
    SectorMask dirty = 0;
  };

  uint32_t ways_;
  golden::LineAlignedVector<Addr> lines_;      // set-major
  golden::LineAlignedVector<uint64_t> stamps_;  // LRU: larger is more recent
  golden::LineAlignedVector<Masks> masks_;
};

}  // namespace l1d::sim
