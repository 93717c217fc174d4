// Run-time selects and writes of fixed-width fields of wide vectors, in the forms Yosys 0.23
// synthesizes quickly (shared by l1d_top and its decision units).
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

#include "gen/ir.h"

namespace gen::blocks {

inline unsigned bits_for(uint64_t n) {  // $clog2(n), at least 1
  return n <= 2 ? 1U : static_cast<unsigned>(std::bit_width(n - 1));
}

// vec[index * width +: width] for an index that varies at run time (0..count-1), as a chain of
// `index == k ?` selects: Yosys 0.23 maps a variable part select of a wide vector to a barrel
// shifter over the whole vector (4096 x 13 multiplexers for a way of the 4 KB set row), the
// chain to count - 1 multiplexers of `width` bits.
inline Expr select_part(const Expr& vec, const Expr& index, unsigned count, unsigned width) {
  Expr out = vec.part(Expr((count - 1) * width), width);
  for (unsigned k = count - 1; k-- > 0;) out = mux(cast(32, index).eq(Expr(k)), vec.part(Expr(k * width), width), out);
  return out;
}

// vec[index * stride + offset +: width] for an index that varies at run time (0..count-1), as the
// same chain of selects as select_part (`offset`, empty for none, is a constant or a genvar).
inline Expr select_strided(const Expr& vec, const Expr& index, unsigned count, unsigned stride, unsigned width,
                           const Expr& offset = Expr()) {
  auto at = [&](unsigned k) { return vec.part(offset.empty() ? Expr(k * stride) : Expr(k * stride) + offset, width); };
  Expr out = at(count - 1);
  for (unsigned k = count - 1; k-- > 0;) out = mux(cast(32, index).eq(Expr(k)), at(k), out);
  return out;
}

// One write of write_at: vec[index * stride + offset +: width] = value; `offset` (empty: none)
// is a constant or a loop variable.
struct Put {
  Expr vec;
  unsigned stride, width;
  Expr value;
  Expr offset = Expr();
};

// Writes at positions that vary at run time with `index` (0..count-1), as one loop of
// fixed-position writes under `index == k`. The logic is the same as variable part selects', but
// Yosys 0.23 turns each variable-position write in a process into a shift of the whole vector
// ($bitselwrite), and its proc_mux then needs hours for the actors of l1d_top
// (docs/synthesis.md); the decoded form takes seconds.
inline void write_at(Block& b, const Expr& index, unsigned count, const std::vector<Put>& puts) {
  b.for_("k", 0, Expr(count), [&](Block& bk, const Expr& k) {
    bk.if_(cast(32, index).eq(k), [&](Block& u) {
      for (const Put& p : puts) {
        const Expr at = p.stride == 1 ? k : k * p.stride;
        const Expr base = p.offset.empty() ? at : at + p.offset;
        u.assign(p.width == 1 ? p.vec[base] : p.vec.part(base, p.width), p.value);
      }
    });
  });
}

}  // namespace gen::blocks
