// A fixed-capacity map from 128 B line address to a small index (the L2 MSHR lookup), over
// FlatMap (common/flat_map.h: open addressing, no allocation after construction), with the
// checks its user relies on: no duplicate key, no erase of a missing one, no more than
// max_entries keys.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "common/flat_map.h"
#include "common/types.h"

namespace l1d::sim {

class LineTable {
 public:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;

  explicit LineTable(uint32_t max_entries) : map_(max_entries) {}

  uint32_t find(Addr line) const {
    const uint32_t* v = map_.find(line);
    return v ? *v : kNone;
  }
  void insert(Addr line, uint32_t value) {
    if (map_.find(line)) throw std::logic_error("LineTable: duplicate key");
    if (map_.size() >= max_entries()) throw std::logic_error("LineTable full");
    map_[line] = value;
  }
  void erase(Addr line) {
    if (!map_.find(line)) throw std::logic_error("LineTable: erase of a missing key");
    map_.erase(line);
  }
  uint32_t size() const { return static_cast<uint32_t>(map_.size()); }

 private:
  struct LineHash {
    size_t operator()(Addr line) const { return mix64(line >> 7); }
  };
  uint32_t max_entries() const { return static_cast<uint32_t>(map_.max_keys()); }

  FlatMap<Addr, uint32_t, LineHash> map_;
};

}  // namespace l1d::sim
