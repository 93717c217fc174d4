// l1d_fill_issue: the fill unit's issue side in the staged L1 (docs/l1d-microarchitecture.md
// 16.2-16.3): the fill FIFO of MSHR ids in response order and the cursor (FIFO position, step)
// of the next fill step stage A may take. Stage M2 (the decision, three cycles after A) reports
// what became of the steps: the head entry done (its last step answered), or a rewind to one of
// the head entry's steps (step 0 after a placement that waits for miss-queue room; a later step
// when a load merged after the cursor passed it). The pipe's depth between A and M2 is not the
// unit's business: the cursor only moves on at A and back at M2. Golden counterpart: golden::L1's
// fill_fifo_ and fill cursor (golden/l1_staged.cpp).
#include <string>

#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

class FillIssue final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_fill_issue"; }
  std::string_view summary() const override {
    return "staged L1 fill FIFO of MSHR ids and the fill unit's issue cursor (entry, step) with rewinds";
  }

  Module module(const l1d::Config& cfg) const override {
    if (cfg.l1.mshr_entries < 2) throw l1d::ConfigError("l1d_fill_issue: l1.mshr_entries must be >= 2");
    Module m(name());
    m.describe("The fill FIFO (MSHR ids, each at most once) and the fill unit's cursor (contract 16.2-16.3).");
    m.describe("valid_o: the cursor names a step to issue: an entry at FIFO position pos and a step below");
    m.describe("count_i, the number of requests of that entry (cursor_entry_o), read from the MSHR file's");
    m.describe("registered state. take_i (stage A took it): the cursor moves to the next step, or to step 0 of");
    m.describe("the next entry after the last. At the edge, in this order: push_i appends push_entry_i (a memory");
    m.describe("response completed that entry); done_i (M2 answered the head entry's last step) pops the head");
    m.describe("and moves the cursor back one position; rewind_i (M2) puts the cursor at the head entry's step");
    m.describe("rewind_step_i. done_i and rewind_i never come together.");
    Expr entries = m.param("Entries", cfg.l1.mshr_entries);
    Expr max_merge = m.param("MaxMerge", cfg.l1.mshr_max_merge);
    Expr id_bits = m.localparam("IdBits", clog2(entries));
    Expr ptr_bits = m.localparam("PtrBits", clog2(entries) + 1);
    Expr step_bits = m.localparam("StepBits", mux(max_merge.gt(1), clog2(max_merge), 1));
    Expr count_bits = m.localparam("CountBits", clog2(max_merge + 1));

    m.clk();
    m.rst_n();
    Expr push = m.input("push_i");
    Expr push_entry = m.input("push_entry_i", id_bits);
    Expr count = m.input("count_i", count_bits);
    Expr take = m.input("take_i");
    Expr done = m.input("done_i");
    Expr rewind = m.input("rewind_i");
    Expr rewind_step = m.input("rewind_step_i", step_bits);
    Expr valid_o = m.output("valid_o");
    Expr cursor_entry_o = m.output("cursor_entry_o", id_bits);
    Expr step_o = m.output("step_o", step_bits);
    Expr head_o = m.output("head_entry_o", id_bits);
    Expr empty_o = m.output("empty_o");

    m.comment("The FIFO: a ring of Entries ids; head, size and the cursor's position from the head.");
    Expr ids_q = m.logic("ids_q", id_bits, {entries});
    Expr head_q = m.logic("head_q", id_bits);
    Expr size_q = m.logic("size_q", ptr_bits);
    Expr pos_q = m.logic("pos_q", ptr_bits);
    Expr step_q = m.logic("step_q", step_bits);

    // Ring positions: head + k wraps at Entries, which need not be a power of two.
    const auto ring = [&](const std::string& n, const Expr& k) {
      Expr sum = m.logic(n + "_sum", ptr_bits);
      Expr slot = m.logic(n, id_bits);
      m.assign(sum, cast(ptr_bits, head_q) + k);
      m.assign(slot, cast(id_bits, mux(sum.ge(cast(ptr_bits, entries)), sum - cast(ptr_bits, entries), sum)));
      return slot;
    };
    Expr cursor_slot = ring("cursor_slot", pos_q);
    Expr tail = ring("tail", size_q);
    Expr head_next = ring("head_next", cast(ptr_bits, lit(1, 1)));
    Expr last_step = m.logic("last_step");
    m.assign(cursor_entry_o, ids_q[cursor_slot]);
    m.assign(valid_o, pos_q.lt(size_q).land(cast(count_bits, step_q).lt(count)));
    m.assign(step_o, step_q);
    m.assign(head_o, ids_q[head_q]);
    m.assign(empty_o, size_q.eq(zeros()));
    m.assign(last_step, (cast(count_bits, step_q) + lit(1, 1)).ge(count));

    m.comment("A take advances the cursor; then done moves it back with the pop, or a rewind resets it.");
    Expr pos_d = m.logic("pos_d", ptr_bits);
    Expr step_d = m.logic("step_d", step_bits);
    m.always_comb({{pos_d, pos_q}, {step_d, step_q}}, [&](Block& b) {
      b.if_(take.land(valid_o).land(last_step), [&](Block& t) {
        t.assign(pos_d, pos_q + lit(1, 1));
        t.assign(step_d, zeros());
      }).else_if(take.land(valid_o), [&](Block& t) { t.assign(step_d, step_q + lit(1, 1)); });
      b.if_(done, [&](Block& t) { t.assign(pos_d, pos_d - lit(1, 1)); })
          .else_if(rewind, [&](Block& t) {
            t.assign(pos_d, zeros());
            t.assign(step_d, rewind_step);
          });
    });

    m.always_ff({{head_q, zeros()}, {size_q, zeros()}, {pos_q, zeros()}, {step_q, zeros()}}, [&](Block& b) {
      b.assign(head_q, mux(done, head_next, head_q));
      b.assign(size_q, size_q + cast(ptr_bits, push) - cast(ptr_bits, done));
      b.assign(pos_q, pos_d);
      b.assign(step_q, step_d);
    });
    m.always_ff_noreset([&](Block& b) { b.if_(push, [&](Block& t) { t.assign(ids_q[tail], push_entry); }); });

    m.verification("Assertions (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
      v.assert_clocked("FillPushNotFull_A", (!push).lor(size_q.lt(cast(ptr_bits, entries))));
      v.assert_clocked("FillDoneNotEmpty_A", (!done).lor(size_q.ne(zeros()).land(pos_q.ne(zeros()))));
      v.assert_clocked("FillDoneOrRewind_A", !(done.land(rewind)));
    });
    return m;
  }
};

}  // namespace

const RtlBlock& fill_issue_block() {
  static const FillIssue block;
  return block;
}

}  // namespace gen::blocks
