// A flat bit vector for the wide ports of the storage blocks (l1d_tag_array, l1d_data_sram,
// l1d_mshr): fields are packed into / read out of whole 32-bit words, so that a port of
// thousands of bits is driven and sampled in one copy per cycle (tb::get / tb::put of
// tb/ports.h go bit by bit, which is fine for narrow ports but slow for a 64-way set).
//
//   tb::BitVec v(width);
//   v.set(lsb, w, value);  v.get(lsb, w);       // fields of up to 64 bits at any position
//   v.store(m.wr_dirty_i);  v.load(m.rd_dirty_o);  // any port type (CData ... VlWide<N>)
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

namespace tb {

class BitVec {
 public:
  BitVec() = default;
  explicit BitVec(unsigned width) : width_(width), words_((width + 31) / 32, 0U) {}

  unsigned width() const { return width_; }

  uint64_t get(unsigned lsb, unsigned width) const {
    uint64_t v = 0;
    for (unsigned done = 0; done < width;) {
      const unsigned b = lsb + done;
      const unsigned take = std::min(32 - b % 32, width - done);
      const uint64_t word = (words_[b / 32] >> (b % 32)) & mask32(take);
      v |= word << done;
      done += take;
    }
    return v;
  }

  void set(unsigned lsb, unsigned width, uint64_t value) {
    for (unsigned done = 0; done < width;) {
      const unsigned b = lsb + done;
      const unsigned take = std::min(32 - b % 32, width - done);
      const uint32_t m = mask32(take) << (b % 32);
      const auto bits = static_cast<uint32_t>(((value >> done) & mask32(take)) << (b % 32));
      words_[b / 32] = (words_[b / 32] & ~m) | bits;
      done += take;
    }
  }

  // The port's bits (its width must be this vector's).
  template <class P>
  void load(const P& port) {
    if constexpr (std::is_integral_v<P>) {
      set(0, width_, static_cast<uint64_t>(port));
    } else {
      for (size_t i = 0; i < words_.size(); ++i) words_[i] = port[i];
    }
  }
  template <class P>
  void store(P& port) const {
    if constexpr (std::is_integral_v<P>) {
      port = static_cast<P>(get(0, width_));
    } else {
      for (size_t i = 0; i < words_.size(); ++i) port[i] = words_[i];
    }
  }

  bool operator==(const BitVec&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const BitVec& v) {
    std::string s;
    for (size_t i = v.words_.size(); i-- > 0;) s += fmt::format("{:08x}", v.words_[i]);
    return os << v.width_ << "'h" << s;
  }

 private:
  static uint32_t mask32(unsigned w) { return w >= 32 ? ~0U : (1U << w) - 1; }

  unsigned width_ = 0;
  std::vector<uint32_t> words_;
};

}  // namespace tb
