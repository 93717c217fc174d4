// A fixed-capacity hash map with open addressing (linear probing, backward-shift erase): no
// allocation after construction, a few cache lines per lookup. For indexes whose key count the
// indexed structure bounds: the golden L1's tag and MSHR indexes (golden/tag_index.h,
// golden/mshr.h) and the L2's MSHR lookup (sim_cpp/mem/line_table.h).
#pragma once

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace l1d {

template <typename Key, typename Value, typename Hash>
class FlatMap {
 public:
  // Holds up to max_keys keys; the table is kept at most half full.
  explicit FlatMap(size_t max_keys)
      : slots_(std::bit_ceil(2 * (max_keys > 0 ? max_keys : 1))), mask_(slots_.size() - 1), max_keys_(max_keys) {}

  Value* find(const Key& k) {
    for (size_t i = home(k);; i = (i + 1) & mask_) {
      if (!slots_[i].used) return nullptr;
      if (slots_[i].key == k) return &slots_[i].value;
    }
  }
  const Value* find(const Key& k) const { return const_cast<FlatMap*>(this)->find(k); }

  // The value of k, value-initialised if k was absent.
  Value& operator[](const Key& k) {
    size_t i = home(k);
    for (; slots_[i].used; i = (i + 1) & mask_)
      if (slots_[i].key == k) return slots_[i].value;
    if (size_ == max_keys_) throw std::logic_error("FlatMap: more keys than the structure it indexes can hold");
    ++size_;
    slots_[i] = Slot{true, k, Value{}};
    return slots_[i].value;
  }

  void erase(const Key& k) {
    size_t i = home(k);
    for (;; i = (i + 1) & mask_) {
      if (!slots_[i].used) return;
      if (slots_[i].key == k) break;
    }
    // Backward shift: move later members of the probe run into the hole when their home
    // position does not lie cyclically in (hole, their slot].
    for (size_t j = (i + 1) & mask_; slots_[j].used; j = (j + 1) & mask_) {
      const size_t h = home(slots_[j].key);
      const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (stays) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i].used = false;
    --size_;
  }

  size_t size() const { return size_; }
  size_t max_keys() const { return max_keys_; }
  template <typename F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_)
      if (s.used) f(s.key, s.value);
  }

 private:
  struct Slot {
    bool used = false;
    Key key{};
    Value value{};
  };
  size_t home(const Key& k) const { return Hash{}(k) & mask_; }

  std::vector<Slot> slots_;
  size_t mask_;
  size_t max_keys_;
  size_t size_ = 0;
};

// A 64-bit finaliser (SplitMix64's): consecutive line addresses spread over the table.
inline uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace l1d
