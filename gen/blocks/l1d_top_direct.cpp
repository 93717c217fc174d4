// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): direct_queries, the two questions the
// SM's LDST unit asks the L1 under l1.bypass_path direct (contract 13.6; golden::L1::two_level() and
// golden::L1::store_pending): is the two-level unit in B mode, and is a store to a 128 B line in S1
// or in the miss queue. Single-cycle pipe only: the staged pipe would also have to search its
// pipe registers and its two FIFOs (gpusim refuses direct there).
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

void Top::direct_queries() {
  const ReqLayout& L = req_layout_;
  const unsigned Q = queue_;
  const unsigned cw = queue_count_bits_ + 1;  // holds e + Q - head for e, head < Q
  Expr bypass_o = m.output("two_level_bypass_o");
  Expr query_i = m.input("store_query_line_i", line_bits_);
  Expr pending_o = m.output("store_pending_o");
  m.comment("l1.bypass_path direct (contract 13.6): B mode is the two-level unit's mode flop, as golden's");
  m.comment("two_level().bypass() at the start of the cycle. The store query is registered like a request:");
  m.comment("the line given in one cycle is answered in the next, about the state that cycle starts with");
  m.comment("(golden's store_pending() after its step). Only the stores' line fields are compared: S1's and");
  m.comment("the live miss-queue entries', which is every place a store waits in this pipe.");
  m.assign(bypass_o, tl_bypass);
  Expr query_q = m.logic("store_query_line_q", line_bits_);
  m.always_ff_noreset([&](Block& b) { b.assign(query_q, query_i); });

  Expr s1_hit = m.logic("store_pend_s1");
  m.assign(s1_hit, s1_valid_q & s1_store_q & s1_line.eq(query_q));
  // Write-backs are stores too (golden's MemReq op); direct runs without dirty state, so none is queued.
  m.comment("Entry e is live when its distance from the head, (e - head) mod Q, is below the count.");
  Expr live = m.logic("store_pend_live", Q);
  Expr mq_hit = m.logic("store_pend_mq", Q);
  for (unsigned e = 0; e < Q; ++e) {
    const Expr& req = mq_req_q_[e];
    const Expr ahead = lit(cw, e + Q) - cast(cw, mq_head_q_);  // in e + 1 .. e + Q
    m.assign(live[Expr(e)], mux(ahead.ge(lit(cw, Q)), ahead - lit(cw, Q), ahead).lt(cast(cw, mq_count_q)));
    m.assign(mq_hit[Expr(e)], live[Expr(e)] & req[Expr(L.store)] & req.part(Expr(L.line), line_bits_).eq(query_q));
  }
  m.assign(pending_o, s1_hit | red_or(mq_hit));
}

}  // namespace gen::blocks::top_gen
