// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): assertions of the staged pipe's
// invariants (docs/rtl-verification.md, "Assertions"; contract 16.3-16.5), beside the four
// Staged*_A that l1d_top_staged*.cpp emit with the logic they check. Each keeps its own shadow
// state in the verification region, computed from the pipe's inputs rather than read from the
// register it checks, so that a broken update of that register shows.
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

void Top::staged_assertions() {
  constexpr unsigned kNone = 0, kCore = 1, kFill = 2, kFlush = 3;  // l1d_issue's kinds
  m.verification("Assertions of the staged pipe's invariants (docs/rtl-verification.md); not synthesized.",
                 [&](Scope& v) {
    v.comment("A squashed operation never reaches M2, so it never decides or commits: M2 holds M1's");
    v.comment("operation unless M2's outcome squashed that operation's source at the edge (16.3).");
    Expr m1_dead = v.logic("sva_m1_dead");
    v.assign(m1_dead, (sq_core & iss_m1_kind.eq(lit(2, kCore))) | (sq_fill & iss_m1_kind.eq(lit(2, kFill))) |
                          (sq_flush & iss_m1_kind.eq(lit(2, kFlush))));
    Expr m2_kind_sh = v.logic("sva_m2_kind_q", 2);
    v.always_ff({{m2_kind_sh, lit(2, kNone)}},
                [&](Block& b) { b.assign(m2_kind_sh, mux(m1_dead, lit(2, kNone), iss_m1_kind)); });
    v.assert_comb("StagedSquashedNeverDecides_A", m2_kind_q.eq(m2_kind_sh));

    // staged_tags() keeps the C write's registers and M2's set local: named here (a rename is an
    // undeclared identifier at lint).
    v.comment("C writes the tag/state row only for the operation M2 held in the cycle before, and to the");
    v.comment("set whose row M2 read (l1d_tag_read's m2_set_o), never to another operation's set (16.5).");
    Expr c_live = v.logic("sva_c_live_q");
    Expr c_set = v.logic("sva_c_set_q", set_idx_bits_);
    v.always_ff({{c_live, bit(false)}}, [&](Block& b) { b.assign(c_live, m2_kind_q.ne(lit(2, kNone))); });
    v.always_ff_noreset([&](Block& b) { b.assign(c_set, ref("m2_set")); });
    v.assert_comb("StagedRowWriteOfM2Op_A",
                  (!ref("tag_wr_en_c_q")).lor(c_live.land(ref("tag_wr_set_c_q").eq(c_set))));

    v.comment("The counters' carries never overflow their chunk: a carry pending into chunk k + 1 was");
    v.comment("made by the edge that wrapped chunk k, which then holds what the wrap left, at most");
    v.comment("2^IncBits - 2 for chunk 0 (the increment is at most 7), 0 for chunks 1 and 2 (their");
    v.comment("increment is one carry). Otherwise the read-out (chunks + carries) would count 2^16 twice.");
    const unsigned n = static_cast<unsigned>(cnt_o.size());
    Expr chunks = v.logic("sva_chunks", n * kCounterBits);
    v.assign(chunks, concat(std::vector<Expr>(cnt_o.rbegin(), cnt_o.rend())));
    Expr carry_ok = v.logic("sva_carry_ok", n);
    v.always_comb({{carry_ok, zeros()}}, [&](Block& b) {
      b.for_("i", 0, Expr(n), [&](Block& bi, const Expr& i) {
        const auto chunk = [&](unsigned k) { return chunks.part(i * kCounterBits + Expr(16 * k), 16); };
        const auto no_carry = [&](unsigned k) { return !cnt_carry_o_[i * 3 + Expr(k)]; };
        bi.assign(carry_ok[i], no_carry(0).lor(chunk(0).lt(lit(16, 7)))
                                   .land(no_carry(1).lor(chunk(1).eq(zeros())))
                                   .land(no_carry(2).lor(chunk(2).eq(zeros()))));
      });
    });
    v.assert_comb("StagedCarryWithinChunk_A", red_and(carry_ok));
  });
}

}  // namespace gen::blocks::top_gen
