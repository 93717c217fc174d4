// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): state_updates, counters, outputs, assertions.
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

// ---------------------------------------------------------------------------------------
void Top::state_updates() {
  if (!staged_) {  // staged: l1d_issue takes the request (staged_front)
    m.comment("core_req_ready: S1 is empty or completes this cycle.");
    m.assign(req_ready, (!s1_valid_q).lor(s1_complete));
    Expr fire = m.logic("req_fire");
    m.assign(fire, req_valid & req_ready);
    m.always_ff({{s1_valid_q, bit(false)}}, [&](Block& b) {
      b.if_(fire, [&](Block& t) { t.assign(s1_valid_q, bit(true)); })
          .else_if(s1_complete, [&](Block& t) { t.assign(s1_valid_q, bit(false)); });
    });
    m.always_ff({{s1_id_q, zeros()}, {s1_warp_q, zeros()}, {s1_awid_q, zeros()}, {s1_token_q, bit(false)},
                 {s1_pc_q, zeros()}, {s1_store_q, bit(false)}, {s1_addr_q, zeros()}, {s1_size_q, lit(2, 0)},
                 {s1_mask_q, zeros()}, {s1_data_q, zeros()}},
                [&](Block& b) {
                  b.if_(fire, [&](Block& t) {
                    t.assign(s1_id_q, req_id);
                    t.assign(s1_warp_q, req_warp);
                    t.assign(s1_awid_q, req_awid);
                    t.assign(s1_token_q, req_token);
                    t.assign(s1_pc_q, req_pc);
                    t.assign(s1_store_q, req_store);
                    t.assign(s1_addr_q, req_addr);
                    t.assign(s1_size_q, req_size);
                    t.assign(s1_mask_q, req_mask);
                    t.assign(s1_data_q, req_data);
                  });
                });
  }
  m.always_ff({{resp_valid_q, bit(false)}, {resp_id_q, zeros()}, {resp_warp_q, zeros()}, {resp_outcome_q, lit(2, 0)}},
              [&](Block& b) {
                b.assign(resp_valid_q, resp_valid_d);
                b.assign(resp_id_q, resp_id_d);
                b.assign(resp_warp_q, resp_warp_d);
                b.assign(resp_outcome_q, resp_outcome_d);
              });
  if (!staged_) m.always_ff({{resp_data_q, zeros()}}, [&](Block& b) { b.assign(resp_data_q, resp_data_d); });

  m.comment("Fill unit state.");
  m.always_comb({{fill_placed_d, fill_placed_q}, {fill_alloc_d, fill_alloc_q}, {fill_index_d, fill_index_q}},
                [&](Block& b) {
                  b.if_(mshr_release, [&](Block& t) {
                    t.assign(fill_placed_d, bit(false));
                    t.assign(fill_alloc_d, bit(false));
                    t.assign(fill_index_d, zeros());
                  }).else_if(fill_answer, [&](Block& t) {
                    t.assign(fill_placed_d, bit(true));
                    t.if_(fill_placing, [&](Block& u) { u.assign(fill_alloc_d, fill_alloc_now); });
                    t.assign(fill_index_d, fill_index_q + cast(req_idx_bits_, 1));
                  });
                });
  m.always_ff({{fill_placed_q, bit(false)}, {fill_alloc_q, bit(false)}, {fill_index_q, zeros()}}, [&](Block& b) {
    b.assign(fill_placed_q, fill_placed_d);
    b.assign(fill_alloc_q, fill_alloc_d);
    b.assign(fill_index_q, fill_index_d);
  });

  m.comment("Flush walker state: kernel end (re)starts a full flush from line 0; with l1.kernel_end");
  m.comment("invalidate it clears the valid bits instead (u_tags) and ends a granularity walk.");
  m.always_comb({{flushing_d, flush_on}, {flush_all_d, flush_all_q}, {flush_set_d, walk_set}, {flush_way_d, walk_way}},
                [&](Block& b) {
                  b.if_(walk_step.land(walk_last), [&](Block& t) {
                    t.assign(flushing_d, bit(false));
                    t.assign(flush_all_d, bit(false));
                    t.assign(flush_set_d, zeros());
                    t.assign(flush_way_d, zeros());
                  }).else_if(walk_step.land(walk_way.eq(cast(way_bits_, ways_ - 1))), [&](Block& t) {
                    t.assign(flush_way_d, zeros());
                    t.assign(flush_set_d, walk_set + cast(set_idx_bits_, 1));
                  }).else_if(walk_step, [&](Block& t) { t.assign(flush_way_d, walk_way + cast(way_bits_, 1)); });
                  b.if_(ev_kend, [&](Block& t) {
                    t.assign(flushing_d, !cfg_kinv);
                    t.assign(flush_all_d, !cfg_kinv);
                    t.assign(flush_set_d, zeros());
                    t.assign(flush_way_d, zeros());
                  });
                });
  std::vector<Init> walk_regs = {{flushing_q, bit(false)}, {flush_all_q, bit(false)}, {flush_set_q, zeros()},
                                 {flush_way_q, zeros()}, {agelru_en_q, bit(true)}};
  if (!staged_) walk_regs.push_back({gran_prev_q, lit(2, 2)});  // the staged pipe reads next_gran_o
  m.always_ff(walk_regs, [&](Block& b) {
    b.assign(flushing_q, flushing_d);
    b.assign(flush_all_q, flush_all_d);
    b.assign(flush_set_q, flush_set_d);
    b.assign(flush_way_q, flush_way_d);
    b.assign(agelru_en_q, agelru_enable);
    if (!staged_) b.assign(gran_prev_q, sel_gran);
  });

  m.comment("Policy units' per-cycle inputs.");
  m.assign(tl_access, (s1_hit_done | s1_miss_done) & !s1_store_q & cfg_bypass.eq(lit(3, 2)));
  m.assign(tl_miss, !s1_hit_done);
  m.assign(sel_record, (s1_hit_done | s1_miss_done) & dynamic);
  m.assign(sel_miss, !s1_hit_done);
}

std::vector<std::string> Top::pipe_counter_names() const {
  std::vector<std::string> names = counter_names();
  if (!staged_) names.insert(names.end(), option_counter_names().begin(), option_counter_names().end());
  if (staged_onmiss_) {  // allocation on_miss's (contract 13.1), in option_counter_names' order
    for (const std::string& n : option_counter_names())
      if (n == "fail_line_alloc" || n == "pending_hits") names.push_back(n);
  }
  if (staged_block_) names.push_back("widening_reads");  // mshr_merge block's (contract 13.3)
  if (staged_sector_) {  // sector mode's (contract 14), in option_counter_names' order
    for (const std::string& n : option_counter_names())
      if (n.starts_with("sector_misses")) names.push_back(n);
  }
  return names;
}

// ---------------------------------------------------------------------------------------
void Top::counters() {
  m.comment("Counters (golden::L1Counters). The granularity switch is counted when the selector decides,");
  m.comment("which is the cycle before its registered switch_o: the output adds the pending pulse.");
  const std::vector<std::string> names = pipe_counter_names();
  Expr switched = m.logic("gran_switched");
  m.assign(switched, sel_switch & dynamic);
  for (size_t i = 0; i < names.size(); ++i) {
    Expr q = m.logic("cnt_" + names[i] + "_q", kCounterBits);
    Expr add = names[i] == "gran_switches" ? cast(kCounterBits, switched) : cast(kCounterBits, inc_[i]);
    m.always_ff({{q, zeros()}}, [&](Block& b) { b.assign(q, q + add); });
    if (names[i] == "gran_switches") {
      Expr unused = m.logic("unused_inc_gran_switches");
      m.assign(unused, red_or(inc_[i]));
      m.assign(cnt_o[i], q + cast(kCounterBits, switched));
    } else {
      m.assign(cnt_o[i], q);
    }
  }
}

void Top::outputs() {
  m.assign(resp_valid_o, resp_valid_q);
  m.assign(resp_id_o, resp_id_q);
  m.assign(resp_warp_o, resp_warp_q);
  m.assign(resp_outcome_o, resp_outcome_q);
  m.assign(resp_data_o, resp_data_q);
  m.assign(gran_o, gran);
  m.assign(idle_o, (!s1_valid_q) & mshr_in_use.eq(zeros()) & mq_count_q.eq(zeros()) & fifo_count_q.eq(zeros()) &
                       !flush_on & !resp_valid_q);
  m.comment("quiet_o, for a simulator that skips the clock edges that would change nothing (gpusim's");
  m.comment("verilated L1): no actor acts and no response or granularity switch is pending, so with");
  m.comment("core_req_valid_i, mem_resp_valid_i and the events low, mem_req_ready_i low or the miss queue");
  m.comment("empty, and agelru_enable_i and the cfg_* inputs as at the last edge, the edge changes no");
  m.comment("register but cnt_cycles_q and the two-level unit's, which only two-level mode uses (never");
  m.comment("quiet there). Waiting MSHRs and a miss queue stalled by memory are quiet. The AGCB table");
  m.comment("applies an update one edge after it is registered; a skipped edge leaves it pending, which");
  m.comment("nothing can observe: the table's read forwards it, and the next clocked edge applies it.");
  const Expr quiet = (!s1_valid_q) & fifo_count_q.eq(zeros()) & !flush_on & !resp_valid_q & !sel_switch &
                     cfg_bypass.ne(lit(3, 2));
  m.assign(quiet_o, adaptive_ ? quiet & !resize_q_ : quiet);  // carveout adaptive: resize_q clears at the edge
}

// The whole-cache assertions (gen/blocks/l1d_top_assert.cpp) on this module's signals.
void Top::assertions() {
  TopAssertSignals a;
  a.cfg_in = cfg_in_;
  a.cfg_q = cfg_q_;
  a.mem_valid = mem_valid_o;
  a.mem_ready = mem_ready;
  a.mem_payload = {mem_line_o, mem_store_o, mem_sectors_o, mem_mask_o,
                   mem_data_o, mem_bypass_o, mem_agcb_o, mem_mshr_o};
  a.mem_payload_bits = line_bits_ + 1 + kSlots + kMaskBits + kLineBits + 1 + 1 + kMshrPortBits;
  a.act_fill = act_fill;
  a.act_flush = act_flush;
  a.act_s1 = act_s1;
  // A replacement hit is S1's, except a sector fill's into the way holding its line (contract 14:
  // on_hit; fill_held implies act_fill); S1's reservation in a held sector line is an on_hit too.
  a.fill_actions = {fill_placing, fill_answer, fill_write, mshr_release, rp_fill, rp_hit & fill_held};
  a.flush_actions = {walk_step};
  a.fill_actions.push_back(res_fill);
  a.s1_actions = {s1_complete, load_hit, store_hit, evict_hit, wb_from_s1, push_final, mshr_alloc, mshr_add,
                  rp_hit & !fill_held, rp_miss, s1_reserve};
  a.queue_count = mq_count_q;
  a.queue_pop = mq_pop_;
  a.queue_pushes = mq_pushes_;
  a.queue_entries = queue_;
  a.queue_count_bits = queue_count_bits_;
  a.fifo_count = staged_ ? Expr(!fi_empty) : fifo_count_q;  // staged: holds an id or not
  a.fifo_pop = mshr_release;
  a.fifo_entries = mshrs_;
  a.exclusive_groups = {
      {mshr_alloc, mshr_add}, {!res_sector_gen() ? rp_hit : rp_hit & !s1_reserve, rp_miss, rp_fill}, {fill_write, res_fill, walk_step, wb_from_s1, store_hit, evict_hit}};
  a.ways = ways_;
  a.slots = kSlots;
  a.common_bits = cm_bits_;
  a.chunk_tag_bits = ct_bits_;
  a.w_en = w_en;
  a.t_common = t_common;
  a.t_valid = t_valid;
  a.t_tag = t_tag;
  a.w_common = w_common;
  a.w_valid = w_valid;
  a.w_tag = w_tag;
  if (staged_) a.row_read = m2_kind_q.ne(lit(2, 0));
  top_assertions(m, a);
  if (adaptive_) {
    m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
      v.comment("l1.carveout adaptive (contract 15): the active set count changes only while the L1 is idle: no");
      v.comment("core request, nothing in S1, the response register, the miss queue, the fill FIFO or the MSHR");
      v.comment("file, no flush (that no slot is valid or reserved is the golden model's check).");
      if (staged_) v.comment("Staged (contract 16.5): no core request and idle_o (both FIFOs and every stage too).");
      const Expr busy = staged_ ? req_valid | !idle_o
                                : req_valid | s1_valid_q | resp_valid_q | flushing_q | mq_count_q.ne(zeros()) |
                                      fifo_count_q.ne(zeros()) | mshr_in_use.ne(zeros());
      v.assert_clocked("TopResizeIdle_A", (!resize_).lor(!busy));
    });
  }
}

}  // namespace gen::blocks::top_gen
