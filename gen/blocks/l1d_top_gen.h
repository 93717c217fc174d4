// The generator of l1d_top (gen/blocks/l1d_top*.cpp): the class that builds the module, shared
// by the files that emit its parts (one file per part of the cache: see build()).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/l1d_top_assert.h"
#include "gen/blocks/l1d_top_variant.h"
#include "gen/blocks/wide_select.h"

namespace gen::blocks::top_gen {

constexpr unsigned kSlots = 4;
constexpr unsigned kLineBits = 1024;  // 128 B
constexpr unsigned kMaskBits = 128;
constexpr unsigned kSlotBits = 256;   // 32 B
constexpr unsigned kIdBits = 32;
constexpr unsigned kWarpBits = 8;
constexpr unsigned kAwidBits = 8;
constexpr unsigned kPcBits = 64;
constexpr unsigned kMshrPortBits = 8;  // MemReq::mshr / MemResp::mshr
constexpr unsigned kCounterBits = 64;

// The counters of golden::L1Counters, in its order, with the names the ports carry.
const std::vector<std::string>& counter_names();
// The single-cycle l1d_top's further counters (contract 13.1, 13.3, 14): res_fail[kLineAlloc],
// pending_hits, widening_reads, sector_misses and its three sizes. After counter_names() in the
// ports; the staged pipe has none yet.
const std::vector<std::string>& option_counter_names();

// Miss-queue request fields (LSB first): a MemReq without its data and mask, and whether the
// entry is a write-back (its payload is a slot, placed at its sector when sent).
struct ReqLayout {
  unsigned line_bits;
  unsigned mshr = 0, agcb = kMshrPortBits, bypass = agcb + 1, wb = bypass + 1, sectors = wb + 1,
           store = sectors + kSlots, line = store + 1;
  unsigned width() const { return line + line_bits; }
  Expr pack(const Expr& line_v, const Expr& store_v, const Expr& sectors_v, const Expr& wb_v, const Expr& bypass_v,
            const Expr& agcb_v, const Expr& mshr_v) const {
    return concat({line_v, store_v, sectors_v, wb_v, bypass_v, agcb_v, mshr_v});
  }
};

// An instance's connections and, after them, those only some configurations have.
inline std::vector<Conn> with_extra(const std::vector<Conn>& extra, std::vector<Conn> ports) {
  ports.insert(ports.end(), extra.begin(), extra.end());
  return ports;
}

class Top {
 public:
  Top(const l1d::Config& cfg, std::string_view name) : cfg_(cfg), split_(cfg.l1), m(name) {
    sets_ = rtl_array_sets(cfg);
    ways_ = cfg.l1.ways;
    addr_bits_ = cfg.l1.address_bits;
    line_bits_ = addr_bits_ - 7;
    set_idx_bits_ = std::max(static_cast<unsigned>(std::countr_zero(sets_)), 1U);
    ct_bits_ = split_.chunk_tag_bits();
    cm_bits_ = std::max(split_.common_tag_bits(), 1U);
    way_bits_ = bits_for(ways_);
    hpc_bits_ = static_cast<unsigned>(std::countr_zero(cfg.policy.agcb.entries));
    mshrs_ = cfg.l1.mshr_entries;
    mshr_bits_ = bits_for(mshrs_);
    merge_ = cfg.l1.mshr_max_merge;
    req_idx_bits_ = bits_for(merge_);
    count_bits_ = static_cast<unsigned>(std::bit_width(merge_));
    queue_ = cfg.l1.miss_queue_entries;
    queue_idx_bits_ = bits_for(queue_);
    queue_count_bits_ = static_cast<unsigned>(std::bit_width(queue_));
    occ_bits_ = static_cast<unsigned>(std::bit_width(cfg.core.warps_per_sm));
    req_layout_.line_bits = line_bits_;
    staged_ = cfg.l1.pipeline == l1d::L1Pipeline::kStaged;
    adaptive_ = rtl_adaptive_sets(cfg);
    lazy_gen_ = rtl_written_state(cfg);
    staged_sector_ = staged_ && cfg.l1.sector;
    staged_onmiss_ = staged_ && cfg.l1.allocation == l1d::AllocationPolicy::kOnMiss;
    staged_block_ = staged_ && cfg.l1.mshr_merge != l1d::MshrMerge::kStall;  // block or sector: by line
    staged_smerge_ = staged_ && cfg.l1.mshr_merge == l1d::MshrMerge::kSector;
    staged_direct_ = rtl_staged_direct(cfg);
    check_top_variant(top_variant(), cfg);  // dcgen --variant (gen/blocks/l1d_top_variant.h)
    conventional_ = top_variant() == TopVariant::kConventional;
  }

  Module build();

 private:
  void describe();
  std::string staged_options_text() const;  // what a staged pipe runs, for its header and assertions

  void ports();

  void registers();

  void decode_and_select();

  void storage();

  void policy_units();

  void s1_decision();

  void fill_decision();

  void staged_flush_keep(const Expr& keep_any);  // l1d_top_units.cpp
  void flush_decision();

  Expr copies_in(const std::string& name, const Expr& sectors);  // S1's copies of those sectors
  void miss_reserve();  // l1.allocation on_miss at S1 (single-cycle; gen/blocks/l1d_top_reserve.cpp)
  // l1.write_allocate lazy_fetch_on_read (contract 14; gen/blocks/l1d_top_lazy.cpp): a store's
  // allocation at S1 (its actor branch: s1_actor; its row writes: row_writes). Only when lazy_gen_.
  void lazy_decision();
  std::vector<Conn> written_ports();  // l1d_tag_array's written ports (t_written, w_written), or none
  void lazy_assertions();  // after row_writes: the invariants of the written bits

  void actors();

  template <class Inc> void fill_actor(Block& f, const Inc& inc);

  template <class Inc> void walk_actor(Block& f, const Inc& inc);

  template <class Inc> void s1_actor(Block& f, const Inc& inc);

  void row_writes();

  void response();

  void miss_queue();

  Expr compose_line(Scope& g, const Expr& common, const Expr& tag, const Expr& set);

  void fill_fifo();

  // l1.bypass_path direct (contract 13.6): B mode and the store-pending query (single-cycle;
  // gen/blocks/l1d_top_direct.cpp).
  void direct_queries();
  // The same on the staged pipe generated for it (contract 16.5, "The direct path";
  // gen/blocks/l1d_top_staged_direct.cpp): the ports, the registered line and the search key before
  // l1d_issue's and l1d_miss_queue's instances (staged_direct_ports), then the answer
  // (staged_direct_queries). staged_direct_ false: none of it exists.
  bool staged_direct_ = false;
  void staged_direct_ports();
  void staged_direct_queries();
  std::vector<Conn> staged_find_conns(const Expr& key, const Expr& found) const;  // find_i/found_o, if any
  Expr sd_bypass_o_, sd_pending_o_, sd_query_q_, sd_key_, sd_key_mem_, sd_issue_found_, sd_mq_found_;
  std::vector<Expr> pipe_c_;  // pipe_to_d's C registers, in its order (l1d_top_staged_data.cpp)

  void state_updates();

  void counters();
  // The counters this pipe keeps: counter_names(), then option_counter_names() on the single-cycle pipe.
  std::vector<std::string> pipe_counter_names() const;

  void outputs();

  void assertions();

  // The staged pipe (contract 16; gen/blocks/l1d_top_staged.cpp). Its stage M2 decides with the
  // single-cycle cache's decision logic (the sections above); these add what is around it.
  void staged_front();                  // stage A's units and the operations' T, M1, M2 registers
  void staged_control();                // M2's squashes, rewinds and completions
  void staged_miss_queue();             // the batch of M2 into l1d_miss_queue at D
  void staged_counters();               // increments registered once: read from m + 2
  void staged_outputs();
  void staged_assertions();            // the pipe's invariants (gen/blocks/l1d_top_staged_assert.cpp)
  void staged_onmiss_assertions();     // the reservations' (staged_onmiss_ only; same file)
  void staged_block_assertions();      // merging by line's (staged_block_ only; same file)
  void staged_smerge_assertions();     // merging by sector's (staged_smerge_ only; same file)
  void staged_direct_assertions();     // the direct path's store query (staged_direct_ only; same file)
  void staged_lazy_assertions();       // write allocation's written bits (lazy_gen_ only; same file)
  std::vector<std::pair<Expr, unsigned>> core_req_fields() const;  // a core request, LSB first
  void miss_candidates();  // final_req_, mq_pushes_ (both pipes); wb_req_, wb_dirty_, wb_pay_ (single-cycle)
  void mem_outputs(const Expr& valid, const Expr& head_req, const Expr& head_wb, const Expr& head_st);
  Expr wb_req_, wb_pay_, wb_dirty_, final_req_, resp_be_;
  Expr row_lanes(const Expr& row, const Expr& ways, const Expr& slots);
  void response_bytes(const Expr& be, const Expr& fill, const Expr& fill_data, const Expr& lanes, const Expr& out);
  void staged_data();
  void staged_tags();  // the tag/state row in l1d_tag_read (read at A, written at C), the flop fields
  Expr walk_line_set();  // the set of the flush walker's line (l1d_top_staged_tags.cpp)
  void staged_line_state();  // l1d_line_state read at M1, registered into M2 with the write forwarded
  void staged_core_match();   // a core request's lookup over M1 and M2 (l1d_top_staged_match.cpp)
  Expr staged_probe_next_line();  // M1's line: l1d_mshr's probe line of the next cycle (same file)
  void staged_match_older();  // the tag write of M2's operation, for M1's request's correction
  // --variant conventional (gen/blocks/l1d_top_staged_conv.cpp): the policy inputs tied to the
  // baseline inside the module, and the tag row of one tag per way.
  void conventional_cfg();
  unsigned staged_row_bits() const;  // the tag/state row's width (l1d_tag_read's RowBits)
  Expr staged_row_tags(const Expr& row, const std::string& name);  // a row's chunk-tags, every slot
  // The stored row fields, LSB first, as (M2's field, the write's field, width of all ways).
  std::vector<std::tuple<Expr, Expr, unsigned>> staged_row_fields();
  // A fill step over M1 and M2 (l1d_top_staged_fill.cpp): the MSHR read at M1 (l1d_mshr's rd_*_o
  // at M1, registered into mr_*), and the placement split.
  std::vector<Expr> staged_fill_read();
  void staged_fill_place(const Expr& age_bypass_en, const Expr& bypass, const Expr& l2);
  Expr wb_payloads(const Expr& dirty, const Expr& lanes);  // {dirty mask, bytes} per write-back
  std::pair<Expr, Expr> staged_wb_at_c();  // the write-backs' requests and masks, built at C (staged_data)
  struct WbRow {  // a row and the write-back lanes' (way, slot) that wb_lanes reads
    Expr way, slot, tag, common, dirty, own, line, set;
  };
  void wb_lanes(const std::string& name, const WbRow& r, const Expr& req, const Expr& dirty);
  std::vector<Expr> pipe_to_d(const std::vector<std::pair<std::string, Expr>>& sigs,
                              const std::vector<unsigned>& widths, size_t flags);
  std::vector<Expr> staged_batch_;
  Expr wb_buf_r_;  // staged: the write-back buffer, {wb_en, wb_off, the lanes' data words} registered at D
  Expr cnt_carry_o_;  // D's copies of what the miss queue's batch is made of  // the data array at C and D, the response's and write-backs' bytes at D
  std::vector<Expr> inc_q_;  // staged: the registered increments, in counter_names() order but gran_switches

  const l1d::Config& cfg_;
  l1d::AddressSplit split_;
  unsigned sets_ = 0, ways_ = 0, addr_bits_ = 0, line_bits_ = 0, set_idx_bits_ = 0, ct_bits_ = 0, cm_bits_ = 0,
           way_bits_ = 0, hpc_bits_ = 0, mshrs_ = 0, mshr_bits_ = 0, merge_ = 0, req_idx_bits_ = 0, count_bits_ = 0,
           queue_ = 0, queue_idx_bits_ = 0, queue_count_bits_ = 0, occ_bits_ = 0;
  ReqLayout req_layout_{};

 public:
  Module m;

 private:
  std::vector<Expr> cfg_in_, cfg_q_;
  // l1.carveout adaptive (contract 15; gen/blocks/l1d_top_ports.cpp): the active set count's log2
  // (cfg_set_bits_q), its last set index (set_last_) and the flop that holds u_repl in reset for the
  // cycle after a change (resize_q_). adaptive_ false: none exist.
  bool adaptive_ = false;
  Expr cfg_set_bits_, set_last_, resize_q_, resize_;
  void carveout_ports();
  std::vector<Conn> with_set_bits(std::vector<Conn> ports) const;
  Expr s1_held, s1_buffer, s1_held_data, fill_held;
  Expr res_held, pl_held, s1_res_slots;  // on_miss in sector mode (l1d_top_reserve.cpp)
  Expr sector_;   // l1.sector (cfg_sector_i; constant 0 in a staged pipe generated without sector mode)
  // The staged pipe generated for l1.sector true (contract 16.5, "Sector mode"): sector mode's logic is
  // emitted and cfg_sector_i turns it on; otherwise the staged l1d_top has none (sector_ is 0).
  bool staged_sector_ = false;
  // The way holding a fill's line at M2 (sector mode): emitted by fill_held_search (l1d_top_units.cpp).
  std::pair<Expr, Expr> fill_held_search();  // {any way holds it (per way), the held way}
  void staged_sector_fill(const std::vector<Expr>& fp);  // the held way's fill (l1d_top_staged_fill.cpp)
  void staged_sector_buffer(const Expr& row, const Expr& buf_any);
  std::vector<Conn> staged_buffer_ports();  // l1d_mshr's staged buffer inputs (l1d_top_staged_data.cpp)  // the MSHR buffer's bytes at D (l1d_top_staged_data.cpp)
  Expr buf_wr_d_, buf_entry_d_, buf_data_d_, buf_pending_;  // l1d_mshr's staged buffer write (staged_sector_)
  // l1.write_allocate lazy_fetch_on_read (rtl_written_state: the single-cycle array has a written bit
  // per slot): lazy_ is the option on (sector mode written through); the row's written bits and their
  // write; a store's allocation: it writes (actor flag), its way, whether it may (held, or a way
  // found), the slots made valid and marked written.
  bool lazy_gen_ = false;
  Expr lazy_, t_written, w_written, lz_write, lz_fill, lz_way, lz_ok, lz_valid_set, lz_written_set;
  Expr on_miss_;  // l1.allocation on_miss (cfg_alloc_i; constant 0 in a staged pipe generated without it)
  // The staged pipe generated for l1.allocation on_miss (contract 16.5, "Allocation on miss"): the
  // reservation logic is emitted and cfg_alloc_i turns it on; otherwise the staged l1d_top has none.
  bool staged_onmiss_ = false;
  // Whether this l1d_top has the reservation logic (reserved bits, reserved fills): the single-cycle
  // one always, the staged one when generated for on_miss.
  bool res_gen() const { return !staged_ || staged_onmiss_; }
  // Sector mode's reservations (contract 14: the held way's missing slots, a whole line's missing slots):
  // the single-cycle l1d_top always, the staged one when generated for on_miss and sector mode (16.5,
  // "Allocation on miss", "In sector mode"). Elsewhere a reservation is a placed block (place_run).
  bool res_sector_gen() const { return !staged_ || (staged_onmiss_ && staged_sector_); }
  // The staged pipe generated for l1.mshr_merge block or sector (contract 16.5, "Merging by line"): the
  // widening logic and the memory response's sectors; cfg_merge_i 1 (or 2) turns it on.
  bool staged_block_ = false;
  // ... generated for l1.mshr_merge sector (sector mode's; contract 16.5, "Merging by sector"): the
  // widenings placed (widen_place_i) and marked with the entry's bypass; cfg_merge_i 2 turns it on.
  bool staged_smerge_ = false;
  bool merge_gen() const { return !staged_ || staged_block_; }
  // A sector-merging widening of a reserved entry reserves its widened slots (contract 14, 16.5
  // "Allocation on miss", "With merging by sector"): the single-cycle l1d_top always, the staged one
  // when generated for on_miss, sector mode and sector merging together.
  bool res_widen_gen() const { return !staged_ || (res_sector_gen() && staged_smerge_); }
  Expr m2_core_common_eq_;  // staged on_miss: M2's corrected common-tag compares of its core request
  // l1.mshr_merge block or sector (cfg_merge_i != 0; 0 in the staged pipe): the merge entry's missing
  // sectors and filled bit, S1 widens it (decision and actor flag), the response's sectors, the fills.
  Expr block_, p_missing, p_filled, s1_widening, mshr_widen, rsp_sectors, rsp_fills;
  // l1.mshr_merge sector (cfg_merge_i == 2, contract 14): widenings are placed; the merge entry's bypass.
  Expr sector_merge_, p_merge_bypass;
  Expr write_back_, write_evict_, clk, rst, cfg_bypass, cfg_gran, cfg_bto, cfg_opp, cfg_keep, cfg_line_fetch, cfg_write, cfg_kinv;
  Expr req_valid, req_ready, req_id, req_warp, req_awid, req_token, req_pc, req_store, req_addr, req_size, req_mask,
      req_data;
  Expr resp_valid_o, resp_id_o, resp_warp_o, resp_outcome_o, resp_data_o;
  Expr mem_valid_o, mem_ready, mem_line_o, mem_store_o, mem_sectors_o, mem_mask_o, mem_data_o, mem_bypass_o,
      mem_agcb_o, mem_mshr_o;
  Expr rsp_valid, rsp_mshr, rsp_data, rsp_l2;
  Expr ev_launch, ev_exit, ev_exit_awid, ev_exit_has_next, ev_exit_next, ev_kstart, ev_kend, occupancy, agelru_enable;
  Expr idle_o, quiet_o, gran_o;
  std::vector<Expr> cnt_o, inc_;
  Expr s1_valid_q, s1_id_q, s1_warp_q, s1_awid_q, s1_token_q, s1_pc_q, s1_store_q, s1_addr_q, s1_size_q, s1_mask_q,
      s1_data_q;
  Expr resp_valid_d, resp_valid_q, resp_id_d, resp_id_q, resp_warp_d, resp_warp_q, resp_outcome_d, resp_outcome_q,
      resp_data_d, resp_data_q;
  Expr fill_placed_d, fill_placed_q, fill_alloc_d, fill_alloc_q, fill_index_d, fill_index_q;
  Expr flushing_d, flushing_q, flush_all_d, flush_all_q, flush_set_d, flush_set_q, flush_way_d, flush_way_q;
  Expr agelru_en_q, gran_prev_q;
  Expr s1_set, s1_common, s1_chunk_tag, s1_chunk;
  Expr fill_head, mr_valid, mr_filled, mr_line, mr_sectors, mr_bypass, mr_hpc, mr_awid, mr_token, mr_l2, mr_count,
      mr_data, mr_id, mr_warp, mr_mask;
  Expr fill_first, fill_slots, fill_addr, fill_set, fill_common, fill_chunk_tag;
  Expr sel_gran, sel_switch, gran, dynamic, fifo_count_q, flush_start, flush_on, act_fill, act_flush, act_s1;
  Expr walk_set, walk_way, rd_set;
  Expr t_dirty_any;
  Expr t_common, t_valid, t_dirty, t_tag, t_rank, t_hpc, t_awid, t_prio;
  Expr w_en, w_common, w_valid, w_dirty, w_tag, w_rank, w_hpc, w_awid, w_prio;
  Expr t_data, d_be, d_line;
  Expr p_merge, p_merge_full, p_merge_entry, p_conflict, p_free, p_free_entry, mshr_in_use;
  Expr s1_line, s1_needed, s1_fetch, s1_probe_sectors, mshr_alloc, mshr_add, mshr_release, s1_hpc, s1_reason,
      rsp_entry;
  Expr agcb_dec, agcb_dec_idx, agcb_inc, agcb_inc_idx, agcb_bypass, tl_access, tl_miss, tl_bypass, sel_record, sel_miss;
  Expr age_ids, age_active, age_rel, age_oldest, age_youngest, age_empty;
  Expr rp_hit, rp_miss, rp_fill, rp_way, rp_eligible, rp_victim;
  Expr m_hit, m_partial, m_way, m_slots, m_copies, cp_way, cp_slot, cp_wb, s1_dirty_n, cp_off;
  Expr fill_way, fill_pos, fill_posmask, fill_whole, fill_replaces, fill_wb, fill_dirty_n, fill_allocates;
  // l1.allocation on_miss (contract 13.1): the slots' reserved bits (row and write), the fill
  // entry's reservation {reserved, way, pos}, the placement's inputs (the fill's block or S1's), S1's
  // decision (reserve, AgeLRU bypass, line_alloc failure) and its effective fetch, probe, reason and
  // copies, the fill of a reserved block, and the merged entry's reserved bit.
  Expr t_res, w_res, mr_reserve, mr_res, mr_res_way, mr_res_pos, pl_valid, pl_common, pl_slots, pl_first, pl_ct,
      pl_age_bypass, s1_reserve, s1_age_bypass, line_alloc_fail, s1_fetch_eff, s1_probe_eff, s1_reason_eff,
      s1_bypass_fetch, s1_extra_copies, s1_copies, s1_place, res_fill, res_place, fill_alloc_now, fill_normal, p_merge_res,
      rp_fill_any;
  Expr walk_keep, walk_wb, walk_dirty_n, walk_last;
  Expr room_s1, room_one, room_fill, room_walk, rank_sel, wr_way, way_active, way_rel, fill_slotmask;
  std::vector<Expr> mq_req_q_;  // the miss queue's request registers, and its head (direct_queries)
  Expr mq_head_q_;
  Expr mq_count_q, mq_pop_, mq_pushes_, wb_en, wb_way, wb_slot, wb_off, wb_from_s1, push_final, final_off;
  Expr fill_write, load_hit, store_hit, evict_hit, rank_new, hit_chunk, hit_mask, lane_way, lane_slot, lane_data;
  Expr s1_complete, s1_hit_done, s1_miss_done, s1_partial_done, fill_placing, fill_answer, walk_step;
  Expr stall_event_, sel_next_gran, sel_next_switch, fill_cursor_entry, fill_cursor_count;
  Expr sel_switch_gran_;  // staged: the G a switch at this edge goes to (l1d_gran_selector's switch_gran_o)
  // Staged only: M2's operation (kind, the fill step's entry and step, the flush visit's line), the
  // units of stage A, the response pipe.
  bool staged_ = false;
  bool conventional_ = false;  // dcgen --variant conventional (staged only)
  Expr m2_kind_q, m2_req_q, m2_entry_q, m2_step_q, m2_line_q, resp_data_r_, a_req_, fill_cursor_line;
  Expr iss_a_kind, iss_t_kind, iss_m1_kind, iss_m1_squash, iss_t_squash, iss_empty, iss_stall;
  Expr fi_valid, fi_step, fi_empty, fw_active, fw_valid, fw_line, fi_take, fw_take;
  Expr t_entry_q, t_step_q, t_line_q, m1_entry_q, m1_step_q, m1_line_q;
  Expr m1_req_, m1_row_, m1_set_, m1_common_, m1_chunk_tag_;  // M1's core request, row and set
  Expr m1_pc_;  // M1's core request's pc: the AGCB table's read a cycle ahead (staged)
  Expr older_wr_q_, older_way_q_, older_common_wr_q_, older_slots_q_, older_chunk_q_, older_common_eq_q_,
      older_line_eq_q_;  // l1d_match_fix's inputs: the operation decided in M1's cycle
  Expr m1_mr_line_, m1_mr_sectors_, m1_mr_bypass_, m1_mr_l2_, m1_fill_common_;  // M1's fill step
  Expr fill_eq_m1_, fill_eq_q_;  // M1's fill's common-tag compares, and M2's corrected register of them
  // Staged: the miss queue's room for k = 0..4 write-backs (actors) and l1d_fill_place_m2's room for
  // the fill's own, prepared per way (staged_fill_place; room_fill is it).
  Expr fill_room_n_, fill_room_;
  // Staged: bit k = the miss queue has room for k = 0..7 more (actors); the flush visit's (flush_decision).
  Expr mq_room_n_, walk_room_;
  Expr sq_core, sq_failed, sq_fill, sq_flush, fi_done, fi_rewind, fi_rewind_step, fw_rewind, fw_finish, fw_start;
};

}  // namespace gen::blocks::top_gen
