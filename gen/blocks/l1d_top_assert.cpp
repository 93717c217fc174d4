// The assertions of l1d_top over the whole cache (docs/rtl-verification.md, "Assertions").
#include "gen/blocks/l1d_top_assert.h"

namespace gen::blocks {

namespace {

Expr any_of(const std::vector<Expr>& flags) { return flags.empty() ? bit(false) : red_or(concat(flags)); }

// The one-copy invariant (contract section 2, SPEC 3): no two valid slots of the row the clock
// edge writes hold the same chunk (equal common tag and chunk tag). Every row change goes through
// this write of the set being worked on, and the reset leaves every slot invalid, so checking the
// written row keeps the invariant over the whole array at O((ways * slots)^2) compares per
// evaluation, not O(sets) times that.
void one_copy(Scope& v, const TopAssertSignals& s) {
  const unsigned n = s.ways * s.slots, cm = s.common_bits, ct = s.chunk_tag_bits;
  Expr valid = v.logic("oc_valid", n);
  Expr common = v.logic("oc_common", s.ways * cm);
  Expr tag = v.logic("oc_tag", n * ct);
  v.comment("The row after the edge: the written ways' new fields, the others as read.");
  v.gen_for("g_oc_way", "gw", 0, Expr(s.ways), [&](Scope& g, const Expr& w) {
    g.assign(valid.part(w * s.slots, s.slots),
             mux(s.w_en[w], s.w_valid.part(w * s.slots, s.slots), s.t_valid.part(w * s.slots, s.slots)));
    g.assign(common.part(w * cm, cm), mux(s.w_en[w], s.w_common.part(w * cm, cm), s.t_common.part(w * cm, cm)));
    g.assign(tag.part(w * (s.slots * ct), s.slots * ct),
             mux(s.w_en[w], s.w_tag.part(w * (s.slots * ct), s.slots * ct),
                 s.t_tag.part(w * (s.slots * ct), s.slots * ct)));
  });
  Expr dup = v.logic("oc_dup", n);
  v.comment("oc_dup[i]: a later slot holds the chunk slot i holds.");
  v.always_comb({{dup, zeros()}}, [&](Block& b) {
    b.for_("i", 0, Expr(n), [&](Block& bi, const Expr& i) {
      bi.for_("j", 0, Expr(n), [&](Block& bj, const Expr& j) {
        const Expr same = tag.part(i * ct, ct).eq(tag.part(j * ct, ct)) &
                          common.part((i / Expr(s.slots)) * cm, cm).eq(common.part((j / Expr(s.slots)) * cm, cm));
        bj.if_(j.gt(i).land(valid[i]).land(valid[j]).land(same), [&](Block& t) { t.assign(dup[i], bit(true)); });
      });
    });
  });
  v.assert_comb("TopOneCopyPerChunk_A", (!s.row_read).lor(dup.eq(zeros())));
}

}  // namespace

void top_assertions(Scope& m, const TopAssertSignals& s) {
  m.verification("Assertions of the whole cache (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
    v.comment("The configuration inputs are set before reset and held (the reset edge loads cfg_*_q).");
    v.assert_clocked("TopCfgStable_A", concat(s.cfg_in).eq(concat(s.cfg_q)));

    v.comment("Memory request port: a valid request not taken (ready low) is offered again, unchanged,");
    v.comment("at the next edge.");
    Expr stalled = v.logic("mem_stalled_q");
    Expr offered = v.logic("mem_offered_q", s.mem_payload_bits);
    Expr payload = v.logic("mem_offer", s.mem_payload_bits);
    v.assign(payload, concat(s.mem_payload));
    v.always_ff({{stalled, bit(false)}}, [&](Block& b) { b.assign(stalled, s.mem_valid & !s.mem_ready); });
    v.always_ff_noreset([&](Block& b) { b.assign(offered, payload); });
    v.assert_clocked("TopMemReqHeld_A", (!stalled).lor(s.mem_valid.land(payload.eq(offered))));

    v.comment("At most one actor acts (fill > flush > S1), and each action is its actor's.");
    v.assert_comb("TopActorOneHot_A", onehot0(concat({s.act_fill, s.act_flush, s.act_s1})));
    v.assert_comb("TopActionOfActor_A", ((!any_of(s.fill_actions)).lor(s.act_fill))
                                            .land((!any_of(s.flush_actions)).lor(s.act_flush))
                                            .land((!any_of(s.s1_actions)).lor(s.act_s1)));
    Expr exclusive = onehot0(concat(s.exclusive_groups.at(0)));
    for (size_t g = 1; g < s.exclusive_groups.size(); ++g) {
      exclusive = exclusive.land(onehot0(concat(s.exclusive_groups[g])));
    }
    v.assert_comb("TopOpsExclusive_A", exclusive);

    v.comment("The miss queue never holds more than its entries after the edge (S1, the fill and the walker");
    v.comment("check room before they push; a pop needs an entry), and the fill FIFO is released only");
    v.comment("when it holds an id and never holds more ids than there are MSHRs.");
    const unsigned qw = s.queue_count_bits + 3;
    v.assert_comb("TopMissQueueNoOverflow_A", (cast(qw, s.queue_count) + cast(qw, s.queue_pushes))
                                                  .le(cast(qw, Expr(s.queue_entries)) + cast(qw, s.queue_pop)));
    v.assert_comb("TopFillFifoInRange_A",
                  (!s.fifo_pop).lor(s.fifo_count.ne(zeros())).land(cast(32, s.fifo_count).le(Expr(s.fifo_entries))));

    one_copy(v, s);
  });
}

}  // namespace gen::blocks
