// l1d_top: the L1 data cache of one SM (docs/l1d-microarchitecture.md, the contract; golden
// model golden::L1). It composes the blocks: address decoders, the tag/state array, the data
// array, the MSHR file, the replacement state, the AGCB table, the two-level unit, the
// granularity selector, the AgeLRU ages, and the decision units the staged L1's M1 and M2 share
// (l1d_core_match around the chunk-tag match controller, l1d_fill_place, l1d_flush_keep); and adds
// what belongs to the whole cache: the lookup stage S1, the fill unit, the flush walker, the miss
// queue, the fill FIFO, the response register and the counters.
//
// Structure of the cycle (microarchitecture doc section 3). One actor uses the arrays per cycle
// (fill > flush > S1); each actor's decision is combinational on the state at the start of the
// cycle (its own section below computes it), and one always_comb (`actors`) turns the acting
// actor's decision into flags and narrow outputs: the MSHR operations, the write-backs and the
// final push for the miss queue, the response's valid/id/outcome, and the counter increments.
// The wide writes (the tag/state row and the data row of one set, the response data, the miss
// queue's entries) are computed outside it from those flags, every candidate once, and selected
// with slot masks and one-hot flags (row_writes, response, miss_queue): written as partial
// assignments inside the actors' branches, each became a multiplexer of its whole width in Yosys. Every output is a register or a
// function of registers (Moore), as the contract requires.
//
// Bypassing, granularity and their options are selected by static configuration inputs (cfg_*_i,
// registered, held constant after reset), so one model serves every policy preset that shares a
// replacement policy; the replacement policy is built into l1d_repl_state (its generator emits only the
// chosen policy's logic), and numeric policy settings (AGCB table shape and threshold,
// two-level thresholds, DyCache sample, BIP/DIP constants) are parameters of the instantiated
// blocks, taken from the configuration.
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

// The counters of golden::L1Counters, in its order, with the names the ports carry.
const std::vector<std::string>& counter_names() {
  static const std::vector<std::string> kNames = {
      "cycles",         "accesses",         "loads",           "stores",           "hits",
      "misses",         "partial_hits",     "hits_32",         "hits_64",          "hits_128",
      "misses_32",      "misses_64",        "misses_128",      "bypasses",         "merges",
      "fail_mshr_full", "fail_merge_full",  "fail_conflict",   "fail_queue_full",  "fills",
      "fills_allocated", "agcb_overrides",  "writebacks",      "mem_reads",        "mem_writes",
      "gran_switches",  "flush_cycles",     "s1_stall_cycles", "fill_stall_cycles"};
  return kNames;
}

const std::vector<std::string>& option_counter_names() {
  static const std::vector<std::string> kNames = {"fail_line_alloc",  "pending_hits",     "widening_reads",
                                                  "sector_misses",    "sector_misses_32", "sector_misses_64",
                                                  "sector_misses_128"};
  return kNames;
}

Module Top::build() {
  if (staged_ && lazy_gen_ && !staged_onmiss_)  // its store places with the on_miss reservation's unit (16.5)
    throw l1d::ConfigError("l1d_top: l1.write_allocate lazy_fetch_on_read with l1.pipeline staged needs l1.allocation on_miss");
  if (staged_block_ && !staged_smerge_ && cfg_.l1.sector)
    throw l1d::ConfigError("l1d_top: l1.mshr_merge block with l1.sector true runs on l1.pipeline single_cycle only "
                           "(contract 13.3, 14, 16.5)");
  describe();
  ports();
  registers();
  if (staged_) staged_front();
  decode_and_select();
  storage();
  policy_units();
  s1_decision();
  fill_decision();
  miss_reserve();
  flush_decision();
  actors();
  row_writes();
  response();
  if (staged_) {
    miss_candidates();
    staged_data();
    staged_miss_queue();
  } else {
    miss_queue();
    fill_fifo();
    direct_queries();
  }
  state_updates();
  if (staged_) {
    staged_control();
    staged_counters();
    staged_outputs();
  } else {
    counters();
    outputs();
  }
  assertions();
  return std::move(m);
}

// ---------------------------------------------------------------------------------------
// Registers of the whole cache (the blocks hold their own).
void Top::registers() {
  // Staged: the core request M2 decides, unpacked from its pipe register (staged_front).
  const std::string s1 = staged_ ? "m2_" : "s1_";
  const std::string q = staged_ ? "" : "_q";
  m.comment(staged_ ? "M2's core request (l1d_issue's request, registered from M1 in staged_front's m2_req_q)."
                    : "S1, the lookup stage: the request that fired on the core port last cycle.");
  s1_valid_q = m.logic(s1 + (staged_ ? "core" : "valid_q"));
  s1_id_q = m.logic(s1 + "id" + q, kIdBits);
  s1_warp_q = m.logic(s1 + "warp" + q, kWarpBits);
  s1_awid_q = m.logic(s1 + "awid" + q, kAwidBits);
  s1_token_q = m.logic(s1 + "token" + q);
  s1_pc_q = m.logic(s1 + "pc" + q, kPcBits);
  s1_store_q = m.logic(s1 + "store" + q);
  s1_addr_q = m.logic(s1 + "addr" + q, addr_bits_);
  s1_size_q = m.logic(s1 + "size" + q, 2);
  s1_mask_q = m.logic(s1 + "mask" + q, kMaskBits);
  s1_data_q = m.logic(s1 + "data" + q, kLineBits);
  fill_head = m.logic("fill_head", mshr_bits_);
  m.comment(staged_ ? "The response M2 decides (resp_*_d), registered at C (resp_*_q), then D and R."
                    : "The response register: what the actor of the last cycle answered.");
  resp_valid_d = m.logic("resp_valid_d");
  resp_valid_q = m.logic("resp_valid_q");
  resp_id_d = m.logic("resp_id_d", kIdBits);
  resp_id_q = m.logic("resp_id_q", kIdBits);
  resp_warp_d = m.logic("resp_warp_d", kWarpBits);
  resp_warp_q = m.logic("resp_warp_q", kWarpBits);
  resp_outcome_d = m.logic("resp_outcome_d", 2);
  resp_outcome_q = m.logic("resp_outcome_q", 2);
  // Staged: the bytes are assembled at D from the data array (resp_data_r_q, staged_data).
  if (!staged_) {
    resp_data_d = m.logic("resp_data_d", kLineBits);
    resp_data_q = m.logic("resp_data_q", kLineBits);
  }
  m.comment("Fill unit: the head entry is placed (cycle 0 done), whether it allocated, the next request.");
  fill_placed_d = m.logic("fill_placed_d");
  fill_placed_q = m.logic("fill_placed_q");
  fill_alloc_d = m.logic("fill_alloc_d");
  fill_alloc_q = m.logic("fill_alloc_q");
  fill_index_d = m.logic("fill_index_d", req_idx_bits_);
  fill_index_q = m.logic("fill_index_q", req_idx_bits_);
  m.comment("Flush walker: the next line (set-major, way-minor) and whether it is a kernel-end flush.");
  flushing_d = m.logic("flushing_d");
  flushing_q = m.logic("flushing_q");
  flush_all_d = m.logic("flush_all_d");
  flush_all_q = m.logic("flush_all_q");
  flush_set_d = m.logic("flush_set_d", set_idx_bits_);
  flush_set_q = m.logic("flush_set_q", set_idx_bits_);
  flush_way_d = m.logic("flush_way_d", way_bits_);
  flush_way_q = m.logic("flush_way_q", way_bits_);
  m.comment("Dynamic-AgeLRU voting input (registered, contract section 1) and the last cycle's G.");
  agelru_en_q = m.logic("agelru_en_q");
  if (!staged_) gran_prev_q = m.logic("gran_prev_q", 2);
}

// ---------------------------------------------------------------------------------------
// Address decoders, the current granularity and the acting actor.
void Top::decode_and_select() {
  const Module decode = addr_decode_block().module(cfg_);
  m.comment("S1's address.");
  s1_set = m.logic("s1_set", set_idx_bits_);
  s1_common = m.logic("s1_common", cm_bits_);
  s1_chunk_tag = m.logic("s1_chunk_tag", ct_bits_);
  s1_chunk = m.logic("s1_chunk", 2);
  m.instance("u_s1_decode", decode, {}, with_set_bits({{"addr_i", s1_addr_q}, {"set_o", s1_set}, {"common_tag_o", s1_common},
                                                       {"chunk_tag_o", s1_chunk_tag}, {"chunk_o", s1_chunk}}));

  m.comment("The fill unit's head entry (MSHR read port) and the address of its block's first chunk.");
  mr_valid = m.logic("mr_valid");
  mr_filled = m.logic("mr_filled");
  mr_line = m.logic("mr_line", line_bits_);
  mr_sectors = m.logic("mr_sectors", kSlots);
  mr_bypass = m.logic("mr_bypass", 2);
  mr_hpc = m.logic("mr_hpc", hpc_bits_);
  mr_awid = m.logic("mr_awid", kAwidBits);
  mr_token = m.logic("mr_token");
  mr_l2 = m.logic("mr_l2");
  mr_count = m.logic("mr_count", count_bits_);
  mr_data = m.logic("mr_data", kLineBits);
  mr_id = m.logic("mr_id", kIdBits);
  mr_warp = m.logic("mr_warp", kWarpBits);
  mr_mask = m.logic("mr_mask", kMaskBits);
  fill_first = m.logic("fill_first", 2);
  fill_slots = m.logic("fill_slots", 3);
  m.always_comb({{fill_first, lit(2, 0)}}, [&](Block& b) {
    b.comment("The lowest fetched sector (an allocating fetch is one aligned block).");
    for (int s = kSlots - 1; s >= 0; --s) {
      b.if_(mr_sectors[static_cast<unsigned>(s)], [&](Block& t) { t.assign(fill_first, lit(2, static_cast<uint64_t>(s))); });
    }
  });
  m.assign(fill_slots, cast(3, countones(mr_sectors)));
  fill_addr = m.logic("fill_addr", addr_bits_);
  m.assign(fill_addr, concat({mr_line, fill_first, lit(5, 0)}));
  fill_set = m.logic("fill_set", set_idx_bits_);
  fill_common = m.logic("fill_common", cm_bits_);
  fill_chunk_tag = m.logic("fill_chunk_tag", ct_bits_);
  Expr unused_fill_chunk = m.logic("unused_fill_chunk", 2);
  Expr unused_fill_tag_low = m.logic("unused_fill_tag_low");
  m.assign(unused_fill_tag_low, red_or(fill_chunk_tag.slice(1, 0)));
  m.instance("u_fill_decode", decode, {}, with_set_bits({{"addr_i", fill_addr}, {"set_o", fill_set}, {"common_tag_o", fill_common},
                                                         {"chunk_tag_o", fill_chunk_tag}, {"chunk_o", unused_fill_chunk}}));

  m.comment("The current granularity G: fixed by the mode, or the selector's.");
  sel_gran = m.logic("sel_gran", 2);
  sel_switch = m.logic("sel_switch");
  // What this cycle's record makes of G at the edge: the staged pipe starts a walk from it.
  sel_next_gran = m.logic(staged_ ? "sel_next_gran" : "unused_sel_next_gran", 2);
  sel_next_switch = m.logic(staged_ ? "sel_next_switch" : "unused_sel_next_switch");
  gran = m.logic("gran", 2);
  dynamic = m.logic("dynamic");
  m.assign(dynamic, cfg_gran.eq(lit(2, 3)));
  m.assign(gran, mux(dynamic, sel_gran, mux(cfg_gran.eq(lit(2, 1)), lit(2, 1),
                                            mux(cfg_gran.eq(lit(2, 2)), lit(2, 0), lit(2, 2)))));

  m.comment("Actors. The selector's switch is registered with the new G, so a small-to-large switch");
  m.comment("decided last cycle starts the flush walker now (flush_start): the golden L1 flushes from the");
  m.comment("cycle after the decision, as here.");
  flush_start = m.logic("flush_start");
  flush_on = m.logic("flush_on");
  act_fill = m.logic("act_fill");
  act_flush = m.logic("act_flush");
  act_s1 = m.logic("act_s1");
  if (staged_) {
    m.comment("Staged: the actor is M2's operation; a switch to a larger G decided at M2 starts the walk at this");
    m.comment("edge (16.3; flush_start: policy_units, from the selector's next_switch_o and switch_gran_o).");
    m.assign(flush_on, flushing_q.lor(flush_start));
    m.assign(act_fill, m2_kind_q.eq(lit(2, 2)));
    m.assign(act_flush, m2_kind_q.eq(lit(2, 3)));
    m.assign(act_s1, s1_valid_q);  // m2_core: M2 holds a core request (staged_front)
  } else {
    fifo_count_q = m.logic("fifo_count_q", bits_for(mshrs_ + 1));
    m.assign(flush_start, sel_switch.land(dynamic).land(sel_gran.gt(gran_prev_q)).land(!flushing_q));
    m.assign(flush_on, flushing_q.lor(flush_start));
    m.assign(act_fill, fifo_count_q.ne(zeros()));
    m.assign(act_flush, (!act_fill).land(flush_on));
    m.assign(act_s1, (!act_fill).land(!flush_on).land(s1_valid_q));
  }

  m.comment("The line the flush walker visits (line 0 when it starts).");
  walk_set = m.logic("walk_set", set_idx_bits_);
  walk_way = m.logic("walk_way", way_bits_);
  m.assign(walk_set, mux(flushing_q, flush_set_q, zeros()));
  m.assign(walk_way, mux(flushing_q, flush_way_q, zeros()));
  rd_set = m.logic("rd_set", set_idx_bits_);
  m.assign(rd_set, mux(act_fill, fill_set, mux(act_flush, walk_set, s1_set)));
}

// ---------------------------------------------------------------------------------------
// Tag/state array, data array, MSHR file.
void Top::storage() {
  m.comment("The set the acting actor works on: every way's state and data.");
  t_common = m.logic("t_common", ways_ * cm_bits_);
  t_valid = m.logic("t_valid", ways_ * kSlots);
  t_dirty = m.logic("t_dirty", ways_ * kSlots * 32);
  t_tag = m.logic("t_tag", ways_ * kSlots * ct_bits_);
  t_rank = m.logic("t_rank", ways_ * kSlots * 2);
  t_hpc = m.logic("t_hpc", ways_ * hpc_bits_);
  t_awid = m.logic("t_awid", ways_ * kAwidBits);
  t_prio = m.logic("t_prio", ways_);
  w_en = m.logic("w_en", ways_);
  w_common = m.logic("w_common", ways_ * cm_bits_);
  w_valid = m.logic("w_valid", ways_ * kSlots);
  w_dirty = m.logic("w_dirty", ways_ * kSlots * 32);
  w_tag = m.logic("w_tag", ways_ * kSlots * ct_bits_);
  w_rank = m.logic("w_rank", ways_ * kSlots * 2);
  w_hpc = m.logic("w_hpc", ways_ * hpc_bits_);
  w_awid = m.logic("w_awid", ways_ * kAwidBits);
  w_prio = m.logic("w_prio", ways_);
  t_res = m.logic("t_res", ways_ * kSlots);
  if (res_gen()) w_res = m.logic("w_res", ways_ * kSlots);
  if (staged_) {
    // No reservations unless generated for allocation on_miss (l1d_line_state's reserved bits).
    if (!staged_onmiss_) m.assign(t_res, zeros());
    staged_tags();
  } else {
    m.instance("u_tags", tag_array_block().module(cfg_), {},
               with_extra(written_ports(), {{"clk_i", clk}, {"rst_ni", rst}, {"rd_set_i", rd_set},
                {"rd_common_tag_o", t_common}, {"rd_valid_o", t_valid}, {"rd_dirty_o", t_dirty},
                {"rd_chunk_tag_o", t_tag}, {"rd_slot_rank_o", t_rank}, {"rd_hpc_o", t_hpc},
                {"rd_awid_o", t_awid}, {"rd_priority_o", t_prio},
                {"wr_set_i", rd_set}, {"wr_way_en_i", w_en}, {"wr_common_tag_i", w_common},
                {"wr_valid_i", w_valid}, {"wr_dirty_i", w_dirty}, {"wr_chunk_tag_i", w_tag},
                {"wr_slot_rank_i", w_rank}, {"wr_hpc_i", w_hpc}, {"wr_awid_i", w_awid},
                {"wr_priority_i", w_prio}, {"rd_reserved_o", t_res}, {"wr_reserved_i", w_res},
                {"clear_priority_i", ev_kend}, {"clear_valid_i", ev_kend & cfg_kinv}}));
  }

  m.comment("Whether each slot of the row has a dirty byte (bit 4w+s: slot s of way w).");
  t_dirty_any = m.logic("t_dirty_any", ways_ * kSlots);
  m.gen_for("g_dirty_any", "gi", 0, ways_ * kSlots, [&](Scope& g, const Expr& i) {
    g.assign(t_dirty_any[i], red_or(t_dirty.part(i * 32, 32)));
  });

  d_be = m.logic("d_be", ways_ * kMaskBits);
  d_line = m.logic("d_line", kLineBits);  // the written way's new bytes (d_be selects)
  if (!staged_) {  // staged: l1d_data_stage, read at C and written at D (staged_data)
    t_data = m.logic("t_data", ways_ * kLineBits);
    m.instance("u_data", data_sram_block().module(cfg_), {},
               {{"clk_i", clk}, {"rd_set_i", rd_set}, {"rd_data_o", t_data}, {"wr_set_i", rd_set},
                {"wr_be_i", d_be}, {"wr_data_i", repl(Expr(ways_), d_line)}});
  }

  m.comment("MSHR file: S1 probes, allocates and merges; the memory response fills; the fill unit reads");
  m.comment("its head entry and releases it.");
  p_merge = m.logic("p_merge");
  p_merge_full = m.logic("p_merge_full");
  p_merge_entry = m.logic("p_merge_entry", mshr_bits_);
  p_conflict = m.logic("p_conflict"), p_free = m.logic("p_free");
  p_free_entry = m.logic("p_free_entry", mshr_bits_);
  mshr_in_use = m.logic("mshr_in_use", bits_for(mshrs_ + 1));
  s1_line = m.logic("s1_line", line_bits_);
  m.assign(s1_line, s1_addr_q.slice(addr_bits_ - 1, 7));
  s1_needed = m.logic("s1_needed", kSlots);
  s1_fetch = m.logic("s1_fetch", kSlots);
  s1_probe_sectors = m.logic("s1_probe_sectors", kSlots);
  mshr_alloc = m.logic("mshr_alloc"), mshr_add = m.logic("mshr_add"), mshr_release = m.logic("mshr_release");
  s1_hpc = m.logic("s1_hpc", hpc_bits_);
  s1_reason = m.logic("s1_reason", 2);
  m.comment("S1's fetch, MSHR probe sectors and bypass reason after an AgeLRU bypass at the miss (on_miss).");
  s1_fetch_eff = m.logic("s1_fetch_eff", kSlots), s1_probe_eff = m.logic("s1_probe_eff", kSlots);
  s1_reason_eff = m.logic("s1_reason_eff", 2);
  const unsigned res_bits = 3 + way_bits_;
  mr_reserve = m.logic(res_gen() ? "mr_reserve" : "unused_mr_reserve", res_bits);
  p_merge_res = m.logic(res_gen() ? "p_merge_res" : "unused_merge_res");
  s1_reserve = m.logic("s1_reserve");
  p_missing = m.logic("p_missing", kSlots);
  p_filled = m.logic(merge_gen() ? "p_filled" : "unused_merge_filled");
  p_merge_bypass = m.logic(staged_ && !staged_smerge_ ? "unused_merge_bypass" : "p_merge_bypass");
  mshr_widen = m.logic("mshr_widen");
  rsp_fills = m.logic(merge_gen() ? "rsp_fills" : "unused_rsp_fills");
  fill_pos = m.logic("fill_pos_eff", 2);
  fill_way = m.logic("fill_way", way_bits_);
  rsp_entry = m.logic("rsp_entry", mshr_bits_);
  m.assign(rsp_entry, rsp_mshr.slice(mshr_bits_ - 1, 0));
  Expr unused_rsp_mshr = m.logic("unused_rsp_mshr");
  m.assign(unused_rsp_mshr, mshr_bits_ < kMshrPortBits ? red_or(rsp_mshr.slice(kMshrPortBits - 1, mshr_bits_))
                                                       : bit(false));
  if (mshrs_ < (1U << kMshrPortBits)) {
    m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
      v.comment("A memory response names an existing MSHR: u_mshr sees only the low bits of its id.");
      v.assert_clocked("TopMemRespMshrInRange_A", (!rsp_valid).lor(rsp_mshr.lt(lit(kMshrPortBits, mshrs_))));
    });
  }
  m.comment("A load merges into an entry holding its needed sectors, in sector mode its missing ones; there");
  m.comment("the valid needed ones go into the entry's buffer with the held way's bytes (contract 14).");
  Expr s1_probe_needed = m.logic("s1_probe_needed", kSlots);
  m.assign(s1_probe_needed, mux(sector_, s1_fetch, s1_needed));
  s1_buffer = m.logic("s1_buffer", kSlots);
  s1_held_data = m.logic("s1_held_data", kLineBits);
  // Staged: the MSHR buffer's bytes come at D in sector mode (l1d_top_staged_data.cpp).
  std::vector<Conn> late_buffer = staged_ ? staged_buffer_ports() : std::vector<Conn>{};
  // Staged: the probe's line compares are read a cycle ahead, on M1's line (contract 16.5).
  if (staged_) late_buffer.push_back({"probe_next_line_i", staged_probe_next_line()});
  // Staged: the fill step's entry is read at M1 and registered into M2 (staged_fill_read).
  const std::vector<Expr> rd = staged_ ? staged_fill_read()
                                       : std::vector<Expr>{mr_valid, mr_filled, mr_line, mr_sectors, mr_bypass,
                                                           mr_hpc, mr_awid, mr_token, mr_l2, mr_count, mr_data,
                                                           mr_id, mr_warp, mr_mask, mr_reserve};
  m.instance("u_mshr", mshr_block().module(cfg_), {},
             with_extra(late_buffer, {{"clk_i", clk}, {"rst_ni", rst},
              {"probe_line_i", s1_line}, {"probe_needed_i", s1_probe_needed}, {"probe_fetch_i", s1_probe_eff},
              {"probe_store_i", s1_store_q}, {"block_i", block_}, {"merge_o", p_merge}, {"merge_full_o", p_merge_full},
              {"merge_entry_o", p_merge_entry}, {"conflict_o", p_conflict}, {"free_o", p_free},
              {"free_entry_o", p_free_entry}, {"in_use_o", mshr_in_use}, {"merge_reserved_o", p_merge_res},
              {"merge_missing_o", p_missing}, {"merge_filled_o", p_filled}, {"merge_bypass_o", p_merge_bypass},
              {"alloc_i", mshr_alloc}, {"alloc_line_i", s1_line}, {"alloc_sectors_i", s1_fetch_eff},
              {"alloc_bypass_i", s1_reason_eff}, {"alloc_hpc_i", s1_hpc}, {"alloc_awid_i", s1_awid_q},
              {"alloc_token_i", s1_token_q}, {"alloc_id_i", s1_id_q}, {"alloc_warp_i", s1_warp_q},
              {"alloc_mask_i", s1_mask_q}, {"alloc_reserve_i", concat({s1_reserve, fill_way, fill_pos})},
              {"add_i", mshr_add}, {"add_entry_i", p_merge_entry}, {"add_id_i", s1_id_q},
              {"add_warp_i", s1_warp_q}, {"add_mask_i", s1_mask_q}, {"widen_i", mshr_widen},
              {"widen_sectors_i", p_missing}, {"widen_place_i", sector_merge_}, {"alloc_buffer_i", s1_buffer},
              {"add_buffer_i", s1_buffer},
              {"buffer_data_i", s1_held_data},
              {"resp_i", rsp_valid}, {"resp_entry_i", rsp_entry}, {"resp_l2_bit_i", rsp_l2},
              {"resp_data_i", rsp_data}, {"resp_sectors_i", rsp_sectors}, {"resp_fills_o", rsp_fills},
              {"rd_entry_i", staged_ ? m1_entry_q : fill_head}, {"rd_req_i", staged_ ? m1_step_q : fill_index_q},
              {"rd_valid_o", rd[0]}, {"rd_filled_o", rd[1]}, {"rd_line_o", rd[2]}, {"rd_sectors_o", rd[3]},
              {"rd_bypass_o", rd[4]}, {"rd_hpc_o", rd[5]}, {"rd_awid_o", rd[6]}, {"rd_token_o", rd[7]},
              {"rd_l2_bit_o", rd[8]}, {"rd_count_o", rd[9]}, {"rd_data_o", rd[10]}, {"rd_id_o", rd[11]},
              {"rd_warp_o", rd[12]}, {"rd_mask_o", rd[13]}, {"rd_reserve_o", rd[14]},
              {"cnt_entry_i", staged_ ? fill_cursor_entry : fill_head},
              {"cnt_count_o", staged_ ? fill_cursor_count : m.logic("unused_cnt_count", count_bits_)},
              {"cnt_line_o", staged_ ? fill_cursor_line : m.logic("unused_cnt_line", line_bits_)},
              {"release_i", mshr_release}, {"release_entry_i", fill_head}}));
  Expr unused_mr = m.logic("unused_mr");
  m.assign(unused_mr, mr_valid ^ mr_filled);
}

}  // namespace gen::blocks::top_gen

namespace gen::blocks {

namespace {

class L1dTop final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_top"; }
  std::string_view summary() const override {
    return "the L1 data cache of one SM: S1, fill unit, flush walker, miss queue, counters over every block";
  }
  Module module(const l1d::Config& cfg) const override { return top_gen::Top(cfg, name()).build(); }
};

}  // namespace

const RtlBlock& top_block() {
  static const L1dTop block;
  return block;
}

}  // namespace gen::blocks
