// Storage aligned to a host cache line (64 bytes), for per-set and per-line arrays that a lookup
// reads whole: a 64-way set's recency ranks are then one host line and a line's 128 data bytes
// two, where a vector's default 16-byte alignment made them straddle one more
// (docs/performance.md, sixteenth round). Only where the bytes sit changes, never their values.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace l1d::golden {

inline constexpr size_t kHostLineBytes = 64;

template <typename T>
struct LineAlignedAllocator {
  using value_type = T;
  LineAlignedAllocator() = default;
  template <typename U>
  LineAlignedAllocator(const LineAlignedAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{kHostLineBytes})); }
  void deallocate(T* p, size_t n) { ::operator delete(p, n * sizeof(T), std::align_val_t{kHostLineBytes}); }
  template <typename U>
  bool operator==(const LineAlignedAllocator<U>&) const {
    return true;
  }
};

template <typename T>
using LineAlignedVector = std::vector<T, LineAlignedAllocator<T>>;

}  // namespace l1d::golden
