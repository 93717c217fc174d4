// A FIFO ring buffer over a power-of-two array: the queue type of the memory system. Pushing
// into a full ring doubles it (amortised; bounded queues check full() against their own
// capacity first, so in steady state nothing allocates).
#pragma once

#include <bit>
#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

namespace l1d::sim {

template <typename T>
class Ring {
 public:
  explicit Ring(size_t initial_capacity = 8) : buf_(std::bit_ceil(initial_capacity < 2 ? 2 : initial_capacity)) {}

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return buf_.size(); }

  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& back() { return buf_[(head_ + size_ - 1) & (buf_.size() - 1)]; }
  // i-th element from the front.
  T& operator[](size_t i) { return buf_[(head_ + i) & (buf_.size() - 1)]; }
  const T& operator[](size_t i) const { return buf_[(head_ + i) & (buf_.size() - 1)]; }

  void push_back(const T& v) {
    if (size_ == buf_.size()) grow();
    buf_[(head_ + size_) & (buf_.size() - 1)] = v;
    ++size_;
  }
  // Slot for a new element at the back, to fill in place (avoids copying a temporary).
  T& emplace_slot() {
    if (size_ == buf_.size()) grow();
    T& slot = buf_[(head_ + size_) & (buf_.size() - 1)];
    ++size_;
    return slot;
  }
  void pop_front() {
    if (size_ == 0) throw std::logic_error("Ring::pop_front on an empty ring");
    head_ = (head_ + 1) & (buf_.size() - 1);
    --size_;
  }

 private:
  void grow() {
    std::vector<T> bigger(buf_.size() * 2);
    for (size_t i = 0; i < size_; ++i) bigger[i] = std::move((*this)[i]);
    buf_ = std::move(bigger);
    head_ = 0;
  }

  std::vector<T> buf_;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace l1d::sim
