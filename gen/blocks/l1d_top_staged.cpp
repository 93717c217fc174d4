// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): the staged pipe of contract v2
// (docs/l1d-microarchitecture.md section 16), generated for `l1.pipeline: staged`.
//
// The staged l1d_top (issue 24), built in steps under lockstep with the staged golden model
// (contract 16.5, "Status"). Stage A is l1d_issue (input and replay FIFOs, the arbiter, the T and
// M1 registers of core operations) with l1d_fill_issue and l1d_flush_walker; this file adds the
// fill and flush operations' payload registers through T and M1, the M2 register, M2's squashes,
// rewinds and completions (16.3), the response pipe (answer at m + 3) and the carry-save counters
// (l1d_perf_counters, read from m + 2). The tag/state row is in l1d_tag_read's SRAM
// (l1d_top_staged_tags.cpp), the data in l1d_data_stage's banks with the miss queue's batch built at
// D (l1d_top_staged_data.cpp). A core request's lookup (l1d_top_staged_match.cpp) and a fill
// step's MSHR read and placement (l1d_top_staged_fill.cpp) are split over M1 and M2; a flush visit
// is decided at M2 with the single-cycle cache's logic on the row M2 holds, which is the state the
// golden model's per-operation M2 sees. Still to come: its split, and the MSHR payloads in 1r1w
// arrays.
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

namespace {
constexpr unsigned kKindNone = 0, kKindCore = 1, kKindFill = 2, kKindFlush = 3;  // l1d_issue's kinds
constexpr unsigned kBatch = kSlots + 1;  // four write-backs and the read or store (allocation on_fill)
}  // namespace

// A core request as l1d_issue carries it, LSB first.
std::vector<std::pair<Expr, unsigned>> Top::core_req_fields() const {
  return {{req_data, kLineBits}, {req_mask, kMaskBits}, {req_size, 2},      {req_addr, addr_bits_},
          {req_store, 1},        {req_pc, kPcBits},     {req_token, 1},     {req_awid, kAwidBits},
          {req_warp, kWarpBits}, {req_id, kIdBits}};
}

// ---------------------------------------------------------------------------------------
// Stage A (l1d_issue) and the registers that carry every operation to M2.
void Top::staged_front() {
  if (conventional_) conventional_cfg();  // the policy inputs tied to the baseline (l1d_top_staged_conv.cpp)
  const auto fields = core_req_fields();
  unsigned rb = 0;
  std::vector<Expr> msb_first;
  for (const auto& [e, w] : fields) {
    rb += w;
    msb_first.insert(msb_first.begin(), e);
  }
  m.comment("Stage A: the core request port into l1d_issue, which holds the core operations to M1.");
  Expr core_req = m.logic("core_req", rb);
  m.assign(core_req, concat(msb_first));
  m2_kind_q = m.logic("m2_kind_q", 2);
  m2_req_q = m.logic("m2_req_q", rb);
  sq_core = m.logic("squash_core");
  sq_failed = m.logic("squash_failed");
  sq_fill = m.logic("squash_fill");
  sq_flush = m.logic("squash_flush");
  fi_valid = m.logic("fill_valid");
  fw_active = m.logic("flush_active");
  fw_valid = m.logic("flush_valid");
  fi_take = m.logic("fill_take");
  fw_take = m.logic("flush_take");
  iss_a_kind = m.logic("a_kind", 2);
  iss_t_kind = m.logic("t_kind", 2);
  iss_t_squash = m.logic("unused_t_squash");  // T's payload registers need no valid: the kinds say
  iss_m1_kind = m.logic("m1_kind", 2);
  iss_m1_squash = m.logic("m1_squash");
  iss_stall = m.logic("a_stall");
  iss_empty = m.logic("issue_empty");
  m1_req_ = m.logic("m1_req", rb);
  a_req_ = m.logic("a_req", rb);
  Expr unused_t_req = m.logic("unused_t_req", rb);
  std::vector<Conn> issue_params = {{"ReqBits", Expr(rb)}};
  if (staged_direct_) {  // l1.bypass_path direct: the store query's search of l1d_issue's requests
    staged_direct_ports();
    // {store, line}: core_req_fields' address (field 3) from its bit 7 up, then the store bit (field 4).
    const unsigned key_lsb = fields[0].second + fields[1].second + fields[2].second;
    if (fields[3].second != addr_bits_ || fields[4].second != 1)
      throw std::logic_error("l1d_top: core_req_fields must put the store bit right above the address");
    issue_params.push_back({"KeyLsb", Expr(key_lsb + 7)});
    issue_params.push_back({"KeyBits", Expr(line_bits_ + 1)});
    sd_issue_found_ = m.logic("store_pend_issue");
  }
  m.instance("u_issue", issue_block().module(cfg_), issue_params,
             with_extra(staged_find_conns(sd_key_, sd_issue_found_),
                        {{"clk_i", clk}, {"rst_ni", rst}, {"core_req_valid_i", req_valid}, {"core_req_i", core_req},
              {"core_req_ready_o", req_ready}, {"fill_valid_i", fi_valid}, {"flush_active_i", fw_active},
              {"flush_valid_i", fw_valid}, {"squash_core_i", sq_core}, {"failed_valid_i", sq_failed},
              {"failed_req_i", m2_req_q}, {"squash_fill_i", sq_fill}, {"squash_flush_i", sq_flush},
              {"fill_take_o", fi_take}, {"flush_take_o", fw_take}, {"a_kind_o", iss_a_kind}, {"a_req_o", a_req_},
              {"t_kind_o", iss_t_kind}, {"t_req_o", unused_t_req}, {"t_squash_o", iss_t_squash},
              {"m1_kind_o", iss_m1_kind}, {"m1_req_o", m1_req_}, {"m1_squash_o", iss_m1_squash},
              {"stall_o", iss_stall}, {"empty_o", iss_empty}}));

  m.comment("M2's core request, unpacked.");
  unsigned lsb = 0;
  const std::vector<Expr> m2_fields = {s1_data_q, s1_mask_q, s1_size_q, s1_addr_q, s1_store_q,
                                       s1_pc_q,   s1_token_q, s1_awid_q, s1_warp_q, s1_id_q};
  m1_pc_ = m.logic("m1_pc", kPcBits);
  for (size_t i = 0; i < fields.size(); ++i) {
    m.assign(m2_fields[i], m2_req_q.part(Expr(lsb), fields[i].second));
    if (i == 5) {  // s1_pc_q's field (core_req_fields: req_pc)
      m.comment("M1's pc, M2's at the next edge (m2_req_q is M1's request registered): the AGCB table's read.");
      m.assign(m1_pc_, m1_req_.part(Expr(lsb), fields[i].second));
    }
    lsb += fields[i].second;
  }
  m.assign(s1_valid_q, m2_kind_q.eq(lit(2, kKindCore)));

  m.comment("A fill step's (entry, step) and a flush visit's line, from A through T and M1 to M2 (payloads,");
  m.comment("not reset: l1d_issue's kinds say which register holds an operation).");
  const unsigned line_bits = bits_for(sets_ * ways_ + 1);  // l1d_flush_walker's LineBits: a line or the end
  fill_cursor_entry = m.logic("fill_cursor_entry", mshr_bits_);
  fill_cursor_count = m.logic("fill_cursor_count", count_bits_);
  fill_cursor_line = m.logic("fill_cursor_line", line_bits_);
  fi_step = m.logic("fill_step", req_idx_bits_);
  fw_line = m.logic("flush_line", line_bits);
  t_entry_q = m.logic("t_entry_q", mshr_bits_);
  t_step_q = m.logic("t_step_q", req_idx_bits_);
  t_line_q = m.logic("t_line_q", line_bits);
  m1_entry_q = m.logic("m1_entry_q", mshr_bits_);
  m1_step_q = m.logic("m1_step_q", req_idx_bits_);
  m1_line_q = m.logic("m1_line_q", line_bits);
  m2_entry_q = m.logic("m2_entry_q", mshr_bits_);
  m2_step_q = m.logic("m2_step_q", req_idx_bits_);
  m2_line_q = m.logic("m2_line_q", line_bits);
  m.always_ff_noreset([&](Block& b) {
    b.assign(t_entry_q, fill_cursor_entry);
    b.assign(t_step_q, fi_step);
    b.assign(t_line_q, fw_line);
    b.assign(m1_entry_q, t_entry_q);
    b.assign(m1_step_q, t_step_q);
    b.assign(m1_line_q, t_line_q);
    b.assign(m2_entry_q, m1_entry_q);
    b.assign(m2_step_q, m1_step_q);
    b.assign(m2_line_q, m1_line_q);
    b.assign(m2_req_q, m1_req_);
  });
  m.always_ff({{m2_kind_q, lit(2, kKindNone)}},
              [&](Block& b) { b.assign(m2_kind_q, mux(iss_m1_squash, lit(2, kKindNone), iss_m1_kind)); });
}

// ---------------------------------------------------------------------------------------
// M2's outcome for the pipe (contract 16.3): a failed core request and the younger core
// operations go back to the replay FIFO; a fill step that waits, or whose successor was issued
// before a late merge, rewinds the fill cursor; a flush visit that waits rewinds the walker; a
// flush that starts squashes the younger core operations and restarts the walk at line 0.
void Top::staged_control() {
  fw_start = m.logic("flush_begin");
  fi_done = m.logic("fill_done");
  fi_rewind = m.logic("fill_rewind");
  fi_rewind_step = m.logic("fill_rewind_step", req_idx_bits_);
  fw_rewind = m.logic("flush_rewind");
  fw_finish = m.logic("flush_finish");
  fi_empty = m.logic("fill_empty");
  Expr core_fail = m.logic("core_fail");
  m.assign(core_fail, act_s1 & !s1_complete);
  m.comment("A kernel end starts the walk, or with l1.kernel_end invalidate ends a granularity walk (the");
  m.comment("valid bits clear at the same edge, u_line_state) and squashes its visits behind M2; a walk that");
  m.comment("a granularity switch starts in that cycle still squashes the core operations behind M2.");
  Expr fw_cancel = m.logic("flush_cancel");
  m.assign(fw_cancel, ev_kend & cfg_kinv);
  m.assign(fw_start, flush_start | (ev_kend & !cfg_kinv));
  m.assign(sq_core, core_fail | fw_start);
  m.assign(sq_failed, core_fail);

  m.comment("The fill step M2 expects next of the head entry, and the oldest fill operation behind M2 (in");
  m.comment("M1, T or A). Fill steps have A's first priority, so when none is behind M2 the cursor is past");
  m.comment("the FIFO's end and a late merge's steps must be issued again: a rewind.");
  Expr fill_next = m.logic("fill_next", req_idx_bits_);
  m.assign(fill_next, mux(fill_answer, fill_index_q + cast(req_idx_bits_, 1), zeros()));
  Expr next_entry = m.logic("behind_entry", mshr_bits_);
  Expr next_step = m.logic("behind_step", req_idx_bits_);
  Expr next_any = m.logic("behind_any");
  m.always_comb({{next_entry, fill_cursor_entry}, {next_step, fi_step}, {next_any, iss_a_kind.eq(lit(2, kKindFill))}},
                [&](Block& b) {
                  b.if_(iss_m1_kind.eq(lit(2, kKindFill)), [&](Block& t) {
                    t.assign(next_entry, m1_entry_q);
                    t.assign(next_step, m1_step_q);
                    t.assign(next_any, bit(true));
                  }).else_if(iss_t_kind.eq(lit(2, kKindFill)), [&](Block& t) {
                    t.assign(next_entry, t_entry_q);
                    t.assign(next_step, t_step_q);
                    t.assign(next_any, bit(true));
                  });
                });
  Expr in_step = m.logic("fill_in_step");
  m.assign(in_step, next_any & next_entry.eq(fill_head) & next_step.eq(fill_next));
  m.assign(fi_done, mshr_release);
  m.assign(fi_rewind, act_fill & !mshr_release & !in_step);
  m.assign(fi_rewind_step, fill_next);
  m.assign(sq_fill, fi_rewind);

  m.comment("The flush visit at M2 waits for miss-queue room: the walk is issued again from its line.");
  m.assign(fw_rewind, act_flush & !walk_step);
  m.assign(fw_finish, walk_step & walk_last);
  staged_match_older();
  m.assign(sq_flush, fw_rewind | fw_start | fw_cancel);

  m.instance("u_fill_issue", fill_issue_block().module(cfg_), {},
             {{"clk_i", clk}, {"rst_ni", rst}, {"push_i", staged_block_ ? rsp_fills : rsp_valid}, {"push_entry_i", rsp_entry},
              {"count_i", fill_cursor_count}, {"take_i", fi_take}, {"done_i", fi_done}, {"rewind_i", fi_rewind},
              {"rewind_step_i", fi_rewind_step}, {"valid_o", fi_valid}, {"cursor_entry_o", fill_cursor_entry},
              {"step_o", fi_step}, {"head_entry_o", fill_head}, {"empty_o", fi_empty}});
  std::vector<Conn> walker_lines;  // l1.carveout adaptive: the active sets' lines, Ways << cfg_set_bits_q (16.5)
  if (adaptive_) walker_lines.push_back({"lines_i", cast(bits_for(sets_ * ways_ + 1), ways_) << cfg_set_bits_});
  m.instance("u_flush_walker", flush_walker_block().module(cfg_), {},
             with_extra(walker_lines,
                        {{"clk_i", clk}, {"rst_ni", rst}, {"start_i", fw_start}, {"cancel_i", fw_cancel},
                         {"take_i", fw_take}, {"rewind_i", fw_rewind}, {"rewind_line_i", m2_line_q},
                         {"finish_i", fw_finish}, {"active_o", fw_active}, {"valid_o", fw_valid}, {"line_o", fw_line}}));

  m.verification("Assertions of the staged pipe (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
    v.comment("M2 takes the head entry's fill steps in order, the walk's lines in order, and no core");
    v.comment("request while a flush runs (the golden model throws on each).");
    v.assert_comb("StagedFillInOrder_A",
                  (!act_fill).lor(m2_entry_q.eq(fill_head).land(m2_step_q.eq(mux(fill_placed_q, fill_index_q, zeros())))));
    v.assert_comb("StagedNoCoreInFlush_A", (!act_s1).lor(!flushing_q));
    v.assert_comb("StagedFlushInOrder_A", (!act_flush).lor(flushing_q));
  });
}

// ---------------------------------------------------------------------------------------
// Counters: an event M2 decides in cycle m is in the value read from m + 2 (contract 16.4): the
// increments are registered once (C), then added by the carry-save unit l1d_perf_counters, whose
// chunks and pending carries the reader adds. The granularity switch's registered pulse comes a
// cycle after the decision already, so it goes in as it comes.
void Top::staged_counters() {
  const std::vector<std::string> names = pipe_counter_names();
  const unsigned n = static_cast<unsigned>(names.size());
  Expr switched = m.logic("gran_switched");
  m.assign(switched, sel_switch & dynamic);
  std::vector<Expr> msb_first;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == "gran_switches") {
      Expr unused = m.logic("unused_inc_gran_switches");
      m.assign(unused, red_or(inc_[i]));
      msb_first.insert(msb_first.begin(), cast(3, switched));
    } else {
      Expr inc_q = m.logic("inc_" + names[i] + "_q", 3);
      inc_q_.push_back(inc_q);
      m.always_ff({{inc_q, lit(3, 0)}}, [&](Block& b) { b.assign(inc_q, inc_[i]); });
      msb_first.insert(msb_first.begin(), inc_q);
    }
  }
  Expr incs = m.logic("cnt_incs", n * 3);
  Expr chunks = m.logic("cnt_chunks", n * kCounterBits);
  m.assign(incs, concat(msb_first));
  m.instance("u_counters", perf_counters_block().module(cfg_), {{"Counters", Expr(n)}, {"IncBits", Expr(3U)}},
             {{"clk_i", clk}, {"rst_ni", rst}, {"inc_i", incs}, {"count_o", chunks}, {"carry_o", cnt_carry_o_}});
  for (unsigned i = 0; i < n; ++i) m.assign(cnt_o[i], chunks.part(Expr(i * kCounterBits), kCounterBits));
}

void Top::staged_outputs() {
  m.comment("The response pipe: C (resp_*_q, from M2), D, and R, the output register (m + 3).");
  const std::vector<std::pair<Expr, unsigned>> c = {
      {resp_valid_q, 1}, {resp_id_q, kIdBits}, {resp_warp_q, kWarpBits}, {resp_outcome_q, 2}};
  const std::vector<Expr> outs = {resp_valid_o, resp_id_o, resp_warp_o, resp_outcome_o};
  const std::vector<std::string> names = {"valid", "id", "warp", "outcome"};
  std::vector<Expr> d, r;
  for (size_t i = 0; i < c.size(); ++i) {
    d.push_back(m.logic("resp_" + names[i] + "_d_q", c[i].second));
    r.push_back(m.logic("resp_" + names[i] + "_r_q", c[i].second));
  }
  m.always_ff({{d[0], bit(false)}, {r[0], bit(false)}}, [&](Block& b) {
    b.assign(d[0], c[0].first);
    b.assign(r[0], d[0]);
  });
  m.always_ff_noreset([&](Block& b) {
    for (size_t i = 1; i < c.size(); ++i) {
      b.assign(d[i], c[i].first);
      b.assign(r[i], d[i]);
    }
  });
  for (size_t i = 0; i < c.size(); ++i) m.assign(outs[i], r[i]);
  m.assign(resp_data_o, resp_data_r_);  // assembled at D (staged_data)
  m.assign(gran_o, gran);

  m.comment("idle_o: no operation anywhere in the pipe, nothing queued or waiting, no flush.");
  Expr pipe_empty = m.logic("pipe_empty");
  m.assign(pipe_empty, iss_empty & m2_kind_q.eq(lit(2, kKindNone)) & !resp_valid_q & !d[0] & !r[0]);
  m.assign(idle_o, pipe_empty & mshr_in_use.eq(zeros()) & mq_count_q.eq(zeros()) & fi_empty & !flushing_q);
  m.comment("quiet_o (as in the single-cycle L1): no operation in the pipe, no fill step or flush to issue,");
  m.comment("nothing queued, no counter increment or switch pending, not two-level mode: with idle inputs");
  m.comment("the edge changes no register but the cycle counter. Waiting MSHRs are quiet.");
  Expr incs = m.logic("inc_pending");
  std::vector<Expr> pending;
  for (size_t i = 0; i < inc_q_.size(); ++i)
    if (i != 0) pending.push_back(red_or(inc_q_[i]));  // inc_q_[0] is cycles: always 1
  m.assign(incs, red_or(concat(pending)));
  Expr quiet = pipe_empty & mq_count_q.eq(zeros()) & fi_empty & !flushing_q & !incs & !sel_switch & cfg_bypass.ne(lit(3, 2));
  if (staged_sector_) quiet = quiet & !buf_pending_;  // sector mode: the MSHR buffer's write at D
  m.assign(quiet_o, adaptive_ ? quiet & !resize_q_ : quiet);  // carveout adaptive: resize_q clears at the edge
  staged_assertions();
}

}  // namespace gen::blocks::top_gen
