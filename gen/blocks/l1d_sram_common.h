// Shared by the SRAM primitives l1d_sram_1rw and l1d_sram_1r1w (gen/blocks/l1d_sram_*.cpp): the
// parameters every SRAM shape has, and the masked write, which both write the same way.
#pragma once

#include "gen/ir.h"

namespace gen::blocks::sram {

// The shape parameters: Words, Width, GranBits (bits written per write-mask bit) and AddrBits,
// derived from Words (one bit for one word, so that no port is zero wide).
struct Shape {
  Expr words, width, gran, addr_w, mask_w;
};

inline Shape shape_params(Module& m, unsigned words, unsigned width, unsigned gran) {
  Shape s;
  s.words = m.param("Words", words);
  s.width = m.param("Width", width);
  s.gran = m.param("GranBits", gran);
  s.addr_w = m.param("AddrBits", mux(s.words.gt(1), clog2(s.words), 1));
  s.mask_w = s.width / s.gran;
  return s;
}

// mem_q[addr] takes data where mask (one bit per GranBits bits) is set, the rest of the word kept,
// in one write statement: a write per mask bit would give Yosys one write port per bit group.
inline void masked_write(Module& m, const Shape& s, const Expr& mem_q, const Expr& en, const Expr& addr,
                         const Expr& data, const Expr& mask) {
  Expr bit_mask = m.logic("bit_mask", s.width);
  m.gen_for("g_mask", "g", 0, s.mask_w, [&](Scope& g, const Expr& i) {
    g.assign(bit_mask.part(i * s.gran, s.gran), repl(s.gran, mask[i]));
  });
  const Expr old_word = mem_q[addr];
  m.always_ff_noreset([&](Block& b) {
    b.if_(en, [&](Block& t) { t.assign(mem_q[addr], old_word ^ ((old_word ^ data) & bit_mask)); });
  });
}

}  // namespace gen::blocks::sram
