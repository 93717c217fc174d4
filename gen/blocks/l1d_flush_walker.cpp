// l1d_flush_walker: the flush walker's issue side in the staged L1 (docs/l1d-microarchitecture.md
// sections 7, 9 and 16.2-16.3): while a flush runs, the cursor names the next line (set-major,
// way-minor) stage A may take; stage M2 (the decision, three cycles after A) reports a visit that
// waits for miss-queue room (rewind to it) and the completion of the last line. Golden
// counterpart: golden::L1's flushing_ and flush cursor (golden/l1_staged.cpp).
#include <string>

#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

class FlushWalker final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_flush_walker"; }
  std::string_view summary() const override {
    return "staged L1 flush walker: active flag and line cursor with M2's rewinds, start and cancel";
  }

  Module module(const l1d::Config& cfg) const override {
    Module m(name());
    m.describe("The flush walk's issue cursor (contract 7, 9, 16.2-16.3). Lines = sets x ways, line = set * Ways");
    m.describe("+ way. active_o: a flush runs (stage A takes no core request meanwhile); valid_o: a line is left");
    m.describe("to issue (line_o). At the edge, in this order: take_i (A took line_o) moves the cursor on;");
    m.describe("rewind_i (M2's visit of rewind_line_i waits for miss-queue room) puts it back there; finish_i (M2");
    m.describe("completed the last line) ends the walk; start_i (a granularity switch at M2 or a kernel-end flush)");
    m.describe("starts a walk at line 0, over all; cancel_i (kernel end without dirty state, an event applied at");
    m.describe("the end of its cycle) ends the walk, also one start_i begins in that cycle.");
    // l1.carveout adaptive (contract 15, 16.5): Lines of the largest L1, and lines_i the active sets'.
    const bool adaptive = rtl_staged_array_sets(cfg) != cfg.l1.sets();
    if (adaptive) {
      m.describe("lines_i (l1.carveout adaptive): the lines of the active sets (at most Lines); the walk issues");
      m.describe("lines 0 .. lines_i - 1. It changes only while no flush runs (l1d_top's TopResizeIdle_A).");
    }
    Expr lines = m.param("Lines", rtl_staged_array_sets(cfg) * cfg.l1.ways);
    Expr line_bits = m.localparam("LineBits", clog2(lines + 1));

    m.clk();
    m.rst_n();
    Expr start = m.input("start_i");
    Expr cancel = m.input("cancel_i");
    Expr take = m.input("take_i");
    Expr rewind = m.input("rewind_i");
    Expr rewind_line = m.input("rewind_line_i", line_bits);
    Expr finish = m.input("finish_i");
    Expr active_lines = adaptive ? m.input("lines_i", line_bits) : cast(line_bits, lines);
    Expr active_o = m.output("active_o");
    Expr valid_o = m.output("valid_o");
    Expr line_o = m.output("line_o", line_bits);

    Expr active_q = m.logic("active_q");
    Expr cursor_q = m.logic("cursor_q", line_bits);
    m.assign(active_o, active_q);
    m.assign(valid_o, active_q.land(cursor_q.lt(active_lines)));
    m.assign(line_o, cursor_q);

    Expr active_d = m.logic("active_d");
    Expr cursor_d = m.logic("cursor_d", line_bits);
    m.always_comb({{active_d, active_q}, {cursor_d, cursor_q}}, [&](Block& b) {
      b.if_(take.land(valid_o), [&](Block& t) { t.assign(cursor_d, cursor_q + lit(1, 1)); });
      b.if_(rewind, [&](Block& t) { t.assign(cursor_d, rewind_line); });
      b.if_(finish, [&](Block& t) { t.assign(active_d, bit(false)); });
      b.if_(start, [&](Block& t) {
        t.assign(active_d, bit(true));
        t.assign(cursor_d, zeros());
      });
      b.if_(cancel, [&](Block& t) { t.assign(active_d, bit(false)); });
    });
    m.always_ff({{active_q, bit(false)}, {cursor_q, zeros()}}, [&](Block& b) {
      b.assign(active_q, active_d);
      b.assign(cursor_q, cursor_d);
    });

    m.verification("Assertions (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
      v.assert_clocked("FlushRewindWhileActive_A", (!rewind).lor(active_q));
      v.assert_clocked("FlushRewindLineInRange_A", (!rewind).lor(rewind_line.lt(active_lines)));
    });
    return m;
  }
};

}  // namespace

const RtlBlock& flush_walker_block() {
  static const FlushWalker block;
  return block;
}

}  // namespace gen::blocks
