// The C++ reference model of the SRAM primitives l1d_sram_1rw and l1d_sram_1r1w
// (gen/blocks/l1d_sram_*.cpp, docs/rtl-blocks.md), for their testbenches and l1d_sram_demo's:
// Words words of Width bits with masked writes (one mask bit per GranBits bits) and a read
// register that keeps the last word read. The arrays have no reset, so every bit carries a
// "known" flag (written since the start, or read from a written bit), and SramOut compares only
// the bits both sides know.
#pragma once

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <vector>

#include "tb/bitvec.h"

namespace tb {

// An output word with the bits the reference knows. Equality ignores the bits either side does
// not know (the RTL side knows every bit), so a check does not depend on the order in which the
// testbench asks the two sides.
struct SramOut {
  BitVec data, known;
  bool operator==(const SramOut& o) const {
    for (unsigned b = 0; b < data.width(); b += 64) {
      const unsigned w = std::min(64U, data.width() - b);
      const uint64_t care = known.get(b, w) & o.known.get(b, w);
      if (((data.get(b, w) ^ o.data.get(b, w)) & care) != 0) return false;
    }
    return true;
  }
  friend std::ostream& operator<<(std::ostream& os, const SramOut& o) { return os << o.data << " known " << o.known; }
  // The RTL's side: every bit known.
  static SramOut all(const BitVec& data) {
    SramOut o{data, BitVec(data.width())};
    for (unsigned b = 0; b < data.width(); b += 64) o.known.set(b, std::min(64U, data.width() - b), ~0ULL);
    return o;
  }
};

class SramModel {
 public:
  SramModel(unsigned words, unsigned width, unsigned gran)
      : width_(width), gran_(gran), mem_(words, BitVec(width)), known_(words, BitVec(width)), rd_{BitVec(width), BitVec(width)} {}

  unsigned words() const { return static_cast<unsigned>(mem_.size()); }
  unsigned width() const { return width_; }
  unsigned mask_bits() const { return width_ / gran_; }
  // The read register (rdata_o / rd_data_o) before this cycle's clock edge.
  const SramOut& rdata() const { return rd_; }

  // At the clock edge: word addr into the read register (an address >= Words reads nothing known).
  void read(uint64_t addr) {
    if (addr >= mem_.size()) {
      rd_.known = BitVec(width_);
      return;
    }
    rd_ = SramOut{mem_[addr], known_[addr]};
  }
  // At the clock edge: the bits of word addr whose mask bit is set take data.
  void write(uint64_t addr, const BitVec& data, const BitVec& mask) {
    if (addr >= mem_.size()) return;
    for (unsigned g = 0; g < mask_bits(); ++g) {
      if (mask.get(g, 1) == 0) continue;
      for (unsigned b = g * gran_; b < (g + 1) * gran_; b += 64) {
        const unsigned w = std::min(64U, (g + 1) * gran_ - b);
        mem_[addr].set(b, w, data.get(b, w));
        known_[addr].set(b, w, ~0ULL);
      }
    }
  }

 private:
  unsigned width_, gran_;
  std::vector<BitVec> mem_, known_;
  SramOut rd_;
};

// A random word of `width` bits, and a random mask that is all ones one time in four (so that
// whole words get known quickly) and otherwise random.
template <class Rng>
BitVec random_bits(Rng& rng, unsigned width) {
  BitVec v(width);
  for (unsigned b = 0; b < width; b += 64) v.set(b, std::min(64U, width - b), rng());
  return v;
}
template <class Rng>
BitVec random_mask(Rng& rng, unsigned bits) {
  BitVec m = random_bits(rng, bits);
  if ((rng() & 3) == 0) {
    for (unsigned b = 0; b < bits; b += 64) m.set(b, std::min(64U, bits - b), ~0ULL);
  }
  return m;
}

}  // namespace tb
