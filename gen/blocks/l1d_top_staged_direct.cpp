// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): the staged pipe's answers to the two
// questions the SM's LDST unit asks under l1.bypass_path direct (contract 13.6, 16.5 "The direct
// path"; golden::L1::two_level() and golden::L1::store_pending), generated for such a configuration
// only (staged_direct_, gen/blocks/block.h rtl_staged_direct). The direct load itself never enters
// the L1: the LDST unit sends it to memory and takes its response (sim_cpp/core/sm.cpp).
//
// B mode is the two-level unit's mode flop, as in the single-cycle pipe. A store waits in more
// places here than S1 and the miss queue: l1d_issue's input and replay FIFOs and its T and M1
// registers, M2's request, the final request M2 queued on its way through C and D, and the miss
// queue's ring. Each is searched with the line registered from store_query_line_i at the last edge,
// so the answer during cycle t + 1 is about the state after the edge that ends t (golden's
// store_pending() after its step of cycle t), from registers only (Moore).
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

// Before l1d_issue's instance (staged_front): the ports, the registered line and the issue unit's
// key. A core request carries {store, line} at l1d_issue's KeyLsb (the store bit above the address).
void Top::staged_direct_ports() {
  sd_bypass_o_ = m.output("two_level_bypass_o");
  Expr query_i = m.input("store_query_line_i", line_bits_);
  sd_pending_o_ = m.output("store_pending_o");
  m.comment("l1.bypass_path direct (contract 13.6, 16.5): the store query's line, registered like a request");
  m.comment("(not reset: the answer means nothing before a line was given), and the keys the FIFOs' and the");
  m.comment("ring's searches compare: {store, line} of a core request, {line, store} of a memory request.");
  sd_query_q_ = m.logic("store_query_line_q", line_bits_);
  m.always_ff_noreset([&](Block& b) { b.assign(sd_query_q_, query_i); });
  sd_key_ = m.logic("store_find_core", line_bits_ + 1);
  m.assign(sd_key_, concat({bit(true), sd_query_q_}));
  sd_key_mem_ = m.logic("store_find_mem", line_bits_ + 1);
  m.assign(sd_key_mem_, concat({sd_query_q_, bit(true)}));
}

std::vector<Conn> Top::staged_find_conns(const Expr& key, const Expr& found) const {
  if (!staged_direct_) return {};
  return {{"find_i", key}, {"found_o", found}};
}

// After the miss queue's instance (staged_miss_queue): the answer.
void Top::staged_direct_queries() {
  const ReqLayout& L = req_layout_;
  m.comment("B mode: the two-level unit's mode flop (golden's two_level().bypass() at the start of the cycle).");
  m.assign(sd_bypass_o_, tl_bypass);
  m.comment("A store to the queried line: in l1d_issue (both FIFOs, T, M1), at M2, queued by M2 and on its way");
  m.comment("through C or D (the batch's final request; write-backs are stores too, but direct runs without");
  m.comment("dirty state queue none), or in the miss queue's ring: every place golden's store_pending searches.");
  const auto final_store = [&](const Expr& push, const Expr& req) {
    return push & req[Expr(L.store)] & req.part(Expr(L.line), line_bits_).eq(sd_query_q_);
  };
  Expr m2_hit = m.logic("store_pend_m2");
  Expr c_hit = m.logic("store_pend_c");
  Expr d_hit = m.logic("store_pend_d");
  m.assign(m2_hit, s1_valid_q & s1_store_q & s1_line.eq(sd_query_q_));
  m.assign(c_hit, final_store(pipe_c_[2], pipe_c_[13]));                   // push_final_c_q, final_req_c_q
  m.assign(d_hit, final_store(staged_batch_[3], staged_batch_[5]));        // push_final_d_q, final_req_d_q
  m.assign(sd_pending_o_, sd_issue_found_ | m2_hit | c_hit | d_hit | sd_mq_found_);
}

}  // namespace gen::blocks::top_gen
