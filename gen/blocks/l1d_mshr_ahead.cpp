// l1d_mshr for the staged pipe: the probe's line compares read a cycle ahead (docs/l1d-microarchitecture.md
// 16.5, "The MSHR probe's line compares read a cycle ahead"). Not observable: the same per-entry
// "valid and of the probed line" bits as the direct compare, in every cycle where probe_line_i is the
// previous cycle's probe_next_line_i, which the staged l1d_top guarantees (M2's request register is
// M1's, loaded at every edge).
//
// Why it is exact: an entry's line and valid bit change only at an edge where the unit allocates that
// entry (valid, alloc_line_i) or frees it (release_i: invalid), and at most one of the two happens at
// an edge (one operation is at M2). So the compares of the previous cycle's state with the next line,
// registered, are this cycle's but for that one entry, whose bit is the registered compare of the
// allocated line with the next line (two ports, no entry read) or 0 when it was freed.
#include "gen/blocks/l1d_mshr_doc.h"

namespace gen::blocks {

Expr mshr_probe_ahead(Module& m, const MshrAheadSignals& s) {
  m.describe("Staged pipe (contract 16.5): the probe's line compares are read a cycle ahead. probe_next_line_i");
  m.describe("is probe_line_i of the next cycle (M1's line, M2's at the next edge); each valid entry's line is");
  m.describe("compared with it and registered (ahead_same_q), with the entry allocated at that edge");
  m.describe("(ahead_alloc_q), whether alloc_line_i is the next line (ahead_alloc_eq_q) and the entry freed");
  m.describe("(ahead_free_q); the probe reads those, not a compare with probe_line_i: the same bits whenever");
  m.describe("probe_line_i is the registered probe_next_line_i (MshrProbeAheadEqual_A).");
  Expr next_line = m.input("probe_next_line_i", s.line_bits);
  Expr next_same = m.logic("ahead_next_same", s.entries);
  m.comment("Every valid entry of the next cycle's probe line, on this cycle's state.");
  m.gen_for("g_ahead", "e", 0, s.entries, [&](Scope& g, const Expr& e) {
    g.assign(next_same[e], s.valid[e].land(s.lines.part(e * s.line_bits, s.line_bits).eq(next_line)));
  });
  Expr same_q = m.logic("ahead_same_q", s.entries);
  Expr alloc_q = m.logic("ahead_alloc_q", s.entries);  // one-hot or zero: the entry allocated at the edge
  Expr free_q = m.logic("ahead_free_q", s.entries);    // one-hot or zero: the entry freed at the edge
  Expr alloc_eq_q = m.logic("ahead_alloc_eq_q");
  m.always_ff({{same_q, zeros()}, {alloc_q, zeros()}, {free_q, zeros()}, {alloc_eq_q, bit(false)}}, [&](Block& b) {
    b.assign(same_q, next_same);
    b.assign(alloc_q, mux(s.alloc, s.first_free, zeros()));
    b.assign(free_q, mux(s.release, cast(s.entries, lit(1, 1)) << s.release_entry, zeros()));
    b.assign(alloc_eq_q, s.alloc_line.eq(next_line));
  });
  m.comment("The probe's per-entry line match: the allocated entry's from its registered compare, a freed one");
  m.comment("none, every other entry's as registered (an entry allocated is free before, so never also freed).");
  Expr same = m.logic("ahead_same", s.entries);
  m.assign(same, (alloc_q & repl(s.entries, alloc_eq_q)) | (same_q & ~(alloc_q | free_q)));
  m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
    Expr direct = v.logic("direct_same", s.entries);
    v.always_comb({{direct, zeros()}}, [&](Block& b) {
      b.for_("i", 0, s.entries, [&](Block& body, const Expr& i) {
        body.assign(direct[i], s.valid[i].land(s.lines.part(i * s.line_bits, s.line_bits).eq(s.probe_line)));
      });
    });
    v.comment("The line match from the compares a cycle ahead is the direct compare whenever probe_line_i is");
    v.comment("last cycle's probe_next_line_i (always in the staged l1d_top; from reset on: every register 0).");
    Expr prev_next = v.logic("prev_next_line_q", s.line_bits);
    v.always_ff_noreset([&](Block& b) { b.assign(prev_next, next_line); });
    v.assert_comb("MshrProbeAheadEqual_A", s.probe_line.ne(prev_next).lor(same.eq(direct)));
  });
  return same;
}

}  // namespace gen::blocks
