// A fixed-capacity hash map from 128 B line address to a small index (the L2 MSHR lookup):
// open addressing with linear probing and backward-shift deletion, no allocation after
// construction. The table is kept at most half full.
#pragma once

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "common/types.h"

namespace l1d::sim {

class LineTable {
 public:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;

  explicit LineTable(uint32_t max_entries)
      : slots_(std::bit_ceil(uint64_t{max_entries} * 2 < 4 ? 4 : uint64_t{max_entries} * 2)),
        mask_(slots_.size() - 1),
        max_(max_entries) {}

  uint32_t find(Addr line) const {
    for (size_t i = home(line);; i = (i + 1) & mask_) {
      if (slots_[i].value == kNone) return kNone;
      if (slots_[i].key == line) return slots_[i].value;
    }
  }
  void insert(Addr line, uint32_t value) {
    if (size_ >= max_) throw std::logic_error("LineTable full");
    size_t i = home(line);
    while (slots_[i].value != kNone) {
      if (slots_[i].key == line) throw std::logic_error("LineTable: duplicate key");
      i = (i + 1) & mask_;
    }
    slots_[i] = Slot{line, value};
    ++size_;
  }
  void erase(Addr line) {
    size_t i = home(line);
    while (slots_[i].key != line || slots_[i].value == kNone) {
      if (slots_[i].value == kNone) throw std::logic_error("LineTable: erase of a missing key");
      i = (i + 1) & mask_;
    }
    // Backward-shift: pull later members of the probe run into the hole when their home
    // position does not lie cyclically in (hole, j].
    for (size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      if (slots_[j].value == kNone) break;
      const size_t h = home(slots_[j].key);
      const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (stays) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i].value = kNone;
    --size_;
  }
  uint32_t size() const { return size_; }

 private:
  struct Slot {
    Addr key = 0;
    uint32_t value = kNone;
  };
  size_t home(Addr line) const { return static_cast<size_t>(((line >> 7) * 0x9E3779B97F4A7C15ull) >> 32) & mask_; }

  std::vector<Slot> slots_;
  size_t mask_;
  uint32_t max_;
  uint32_t size_ = 0;
};

}  // namespace l1d::sim
