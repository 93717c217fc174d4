// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): policy_units, s1_decision, fill_decision, flush_decision.
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

// ---------------------------------------------------------------------------------------
// AGCB table, two-level unit, granularity selector, AgeLRU ages, replacement state.
void Top::policy_units() {
  agcb_dec = m.logic("agcb_dec");
  agcb_dec_idx = m.logic("agcb_dec_idx", hpc_bits_);
  agcb_inc = m.logic("agcb_inc");
  agcb_inc_idx = m.logic("agcb_inc_idx", hpc_bits_);
  agcb_bypass = m.logic("agcb_bypass");
  std::vector<Conn> agcb_ports = {{"clk_i", clk},      {"rst_ni", rst},        {"pc_i", s1_pc_q},
                                  {"dec_i", agcb_dec}, {"dec_idx_i", agcb_dec_idx}, {"inc_i", agcb_inc},
                                  {"inc_idx_i", agcb_inc_idx}, {"hpc_o", s1_hpc}, {"bypass_o", agcb_bypass}};
  // Staged (contract 16.5): the table reads M1's pc a cycle ahead and registers the prediction.
  if (staged_) agcb_ports.insert(agcb_ports.begin() + 3, Conn{"pc_next_i", m1_pc_});
  m.instance("u_agcb", agcb_table_block().module(cfg_), {}, std::move(agcb_ports));

  tl_access = m.logic("tl_access");
  tl_miss = m.logic("tl_miss");
  tl_bypass = m.logic("tl_bypass");
  Expr tl_accesses = m.logic("unused_tl_accesses", 13);
  Expr tl_misses = m.logic("unused_tl_misses", 13);
  m.instance("u_two_level", two_level_block().module(cfg_), {},
             {{"clk_i", clk}, {"rst_ni", rst}, {"access_i", tl_access}, {"miss_i", tl_miss},
              {"occupancy_i", occupancy}, {"kernel_start_i", ev_kstart}, {"bypass_o", tl_bypass},
              {"accesses_o", tl_accesses}, {"misses_o", tl_misses}});

  sel_record = m.logic("sel_record");
  sel_miss = m.logic("sel_miss");
  std::vector<Conn> sel_ports = {{"clk_i", clk},           {"rst_ni", rst},           {"record_i", sel_record},
                                 {"size_i", s1_size_q},    {"miss_i", sel_miss},      {"gran_o", sel_gran},
                                 {"switch_o", sel_switch}, {"next_gran_o", sel_next_gran}, {"next_switch_o", sel_next_switch}};
  if (staged_) {  // M1 prepares the lookup for the G a switch goes to (l1d_top_staged_match.cpp)
    sel_switch_gran_ = m.logic("sel_switch_gran", 2);
    sel_ports.push_back({"switch_gran_o", sel_switch_gran_});
    // 16.5: a switch goes to switch_gran_o (flip-flops and M2's size; GranSwitchTarget_A), so whether it
    // grows G is known before M2's decision, which only gates it through next_switch_o.
    m.assign(flush_start, sel_next_switch.land(dynamic).land(sel_switch_gran_.gt(sel_gran)).land(!flushing_q));
    m.assign(m.logic("unused_sel_next_gran"), red_or(sel_next_gran));
  }
  m.instance("u_gran_selector", gran_selector_block().module(cfg_), {}, std::move(sel_ports));

  m.comment("AgeLRU ages: one query per way of the set being worked on, and one for the fill's requester.");
  age_ids = m.logic("age_ids", (ways_ + 1) * kAwidBits);
  age_active = m.logic("age_active", ways_ + 1);
  age_rel = m.logic("age_rel", (ways_ + 1) * kAwidBits);
  age_oldest = m.logic("age_oldest", kAwidBits);
  age_youngest = m.logic("age_youngest", kAwidBits);
  age_empty = m.logic("age_empty");
  m.comment("The requester: the fill's first request, or under on_miss S1's (its AgeLRU bypass at the miss).");
  m.assign(age_ids, concat({res_gen() ? mux(act_fill, mr_awid, s1_awid_q) : mr_awid, t_awid}));
  m.instance("u_ages", agelru_ages_block().module(cfg_), {},
             {{"clk_i", clk}, {"rst_ni", rst}, {"launch_i", ev_launch}, {"exit_i", ev_exit},
              {"exit_awid_i", ev_exit_awid}, {"exit_has_next_i", ev_exit_has_next}, {"exit_next_i", ev_exit_next},
              {"id_i", age_ids}, {"oldest_o", age_oldest}, {"youngest_o", age_youngest}, {"empty_o", age_empty},
              {"active_o", age_active}, {"rel_age_o", age_rel}});

  m.comment("Replacement state: S1 hits and misses, fills, and the fill's victim query.");
  rp_hit = m.logic("rp_hit");
  rp_miss = m.logic("rp_miss");
  rp_fill = m.logic("rp_fill");
  rp_fill_any = m.logic("rp_fill_any");  // the fill's on_fill, or S1's at an on_miss reservation
  // Sector mode (res_sector_gen): a reservation in a held line hears on_hit instead (contract 14).
  if (lazy_gen_) {  // and a store's new line (write allocation, contract 14)
    m.assign(rp_fill_any, rp_fill | (s1_reserve & !rp_hit) | lz_fill);
  } else {
    m.assign(rp_fill_any, rp_fill | (!res_sector_gen() ? s1_reserve : s1_reserve & !rp_hit));
  }
  rp_way = m.logic("rp_way", way_bits_);  // the hit or filled way
  rp_eligible = m.logic("rp_eligible", ways_);
  rp_victim = m.logic("rp_victim", way_bits_);
  Expr rp_ranks = m.logic("unused_rp_ranks", ways_ * way_bits_);
  way_active = m.logic("way_active", ways_);
  way_rel = m.logic("way_rel", ways_ * kAwidBits);
  m.assign(way_active, age_active.slice(ways_ - 1, 0));
  m.assign(way_rel, age_rel.slice(ways_ * kAwidBits - 1, 0));
  std::vector<Conn> repl_ports = {
      {"clk_i", clk}, {"rst_ni", adaptive_ ? rst & !resize_q_ : rst},  // adaptive: fresh after a resize
      {"hit_i", rp_hit}, {"hit_set_i", rd_set}, {"hit_way_i", rp_way},
      {"miss_i", rp_miss}, {"miss_set_i", rd_set},
      {"fill_i", rp_fill_any}, {"fill_set_i", rd_set}, {"fill_way_i", rp_way},
      {"set_i", rd_set}, {"eligible_i", rp_eligible}, {"way_active_i", way_active},
      {"way_rel_age_i", way_rel}, {"age_filter_i", agelru_en_q}, {"victim_o", rp_victim},
      {"ranks_o", rp_ranks}};
  // Staged (contract 16.5): the victim's order is read a cycle ahead, with M1's set (M2's set next).
  if (staged_) repl_ports.insert(repl_ports.begin() + 11, Conn{"set_next_i", m1_set_});
  m.instance("u_repl", repl_state_block().module(cfg_), {}, std::move(repl_ports));
  Expr unused_ages = m.logic("unused_ages");
  m.comment("The requester's active bit is not needed (only its relative age is compared).");
  m.assign(unused_ages, red_or(age_oldest) ^ red_or(age_youngest) ^ age_empty ^ age_active[Expr(ways_)]);
}

// ---------------------------------------------------------------------------------------
// S1: the match, the bypass decision, the sectors and the copies (l1d_core_match).
void Top::s1_decision() {
  m_hit = m.logic("m_hit");
  m_partial = m.logic("m_partial");
  m_way = m.logic("m_way", way_bits_);
  m_slots = m.logic("m_slots", kSlots);
  m_copies = m.logic("m_copies", ways_ * kSlots);
  cp_way = m.logic("cp_way", kSlots * way_bits_);
  cp_slot = m.logic("cp_slot", kSlots * 2);
  cp_wb = m.logic("cp_wb", kSlots);
  cp_off = m.logic("cp_off", kSlots * 3);
  s1_dirty_n = m.logic("s1_dirty_n", 3);
  if (staged_) {  // the two halves at M1 and M2 (gen/blocks/l1d_top_staged_match.cpp)
    staged_core_match();
    return;
  }
  s1_bypass_fetch = m.logic("s1_bypass_fetch", kSlots);
  s1_held = m.logic("s1_held");  // sector mode: a way holds S1's line (a miss is a sector miss)
  s1_extra_copies = m.logic("s1_extra_copies", kSlots);
  m.comment("Under on_miss an AgeLRU bypass at the miss fetches (and drops the copies of) bypass_fetch_o.");
  m.assign(s1_extra_copies, mux(on_miss_ & !s1_store_q & cfg_bypass.eq(lit(3, 4)), s1_bypass_fetch, zeros()));
  std::vector<Conn> written;  // l1.write_allocate (rtl_written_state)
  if (lazy_gen_) written = {{"row_written_i", t_written}, {"lazy_i", lazy_}};
  m.instance("u_core_match", core_match_block().module(cfg_), {},
             with_extra(written, {{"store_i", s1_store_q}, {"size_i", s1_size_q}, {"chunk_i", s1_chunk}, {"mask_i", s1_mask_q},
              {"token_i", s1_token_q}, {"common_tag_i", s1_common}, {"chunk_tag_i", s1_chunk_tag}, {"gran_i", gran},
              {"cfg_bypass_i", cfg_bypass}, {"cfg_bto_i", cfg_bto}, {"cfg_opportunistic_i", cfg_opp},
              {"cfg_line_fetch_i", cfg_line_fetch}, {"agcb_bypass_i", agcb_bypass}, {"two_level_bypass_i", tl_bypass}, {"row_common_tag_i", t_common},
              {"row_valid_i", t_valid}, {"row_chunk_tag_i", t_tag}, {"row_dirty_any_i", t_dirty_any},
              {"row_reserved_i", t_res}, {"extra_copies_i", s1_extra_copies}, {"cfg_sector_i", sector_}, {"held_o", s1_held},
              {"needed_o", s1_needed}, {"fetch_o", s1_fetch},
              {"probe_o", s1_probe_sectors}, {"reason_o", s1_reason}, {"bypass_fetch_o", s1_bypass_fetch}, {"hit_o", m_hit}, {"partial_o", m_partial}, {"hit_way_o", m_way},
              {"hit_slots_o", m_slots}, {"copies_o", m_copies}, {"cp_way_o", cp_way}, {"cp_slot_o", cp_slot},
              {"cp_wb_o", cp_wb}, {"cp_off_o", cp_off}, {"writebacks_o", s1_dirty_n}}));
  m.comment("l1.sector: a load's needed sectors that are valid (needed & ~fetch) and the held way's bytes.");
  m.assign(s1_buffer, mux(sector_ & !s1_store_q, s1_needed & ~s1_fetch, zeros()));
  m.assign(s1_held_data, select_part(t_data, m_way, ways_, kLineBits));
}

// ---------------------------------------------------------------------------------------
// Fill unit, cycle 0: allocate? where? write-backs? (contract section 6; l1d_fill_place)
void Top::fill_decision() {
  fill_whole = m.logic("fill_whole");
  fill_posmask = m.logic("fill_posmask", kSlots);
  fill_slotmask = m.logic("fill_slotmask", kSlots);
  fill_replaces = m.logic("fill_replaces");
  fill_wb = m.logic("fill_wb", kSlots);
  fill_dirty_n = m.logic("fill_dirty_n", 3);
  fill_allocates = m.logic("fill_allocates");
  fill_held = m.logic("fill_held");  // sector mode: the fill goes into the way holding its line
  Expr age_bypass_en = m.logic("fill_age_bypass_en");
  m.assign(age_bypass_en, cfg_bypass.eq(lit(3, 4)) & agelru_en_q);
  m.comment("The placement's block: the fill's, or under on_miss S1's (miss_reserve), on the row without");
  m.comment("S1's copies (the state the miss leaves, contract 13.1).");
  pl_valid = m.logic("pl_valid", ways_ * kSlots);
  pl_common = m.logic("pl_common", cm_bits_);
  pl_slots = m.logic("pl_slots", 3);
  pl_first = m.logic("pl_first", 2);
  pl_ct = m.logic("pl_ct", ct_bits_ - 2);  // the block's line part of its chunk-tags
  Expr pl_bypass = m.logic("pl_bypass", 2);
  Expr pl_l2 = m.logic("pl_l2");
  // Write allocation: a store's line is placed with no bypass reason (golden store_allocate).
  m.assign(pl_bypass, !res_gen() ? mr_bypass
                                 : mux(act_fill, mr_bypass, lazy_gen_ ? mux(s1_store_q, lit(2, 0), s1_reason) : s1_reason));
  m.assign(pl_l2, !res_gen() ? mr_l2 : act_fill & mr_l2);
  pl_age_bypass = m.logic(res_gen() ? "pl_age_bypass" : "unused_age_bypass");
  if (staged_) {  // over M1 and M2 (l1d_top_staged_fill.cpp)
    if (!staged_sector_) m.assign(fill_held, bit(false));
    staged_fill_place(age_bypass_en, pl_bypass, pl_l2);
    return;
  }
  m.comment("The placement unit's answer (fp_*), which a sector fill into the way holding its line replaces.");
  const Expr fp_alloc = m.logic("fp_allocates");
  const Expr fp_way = m.logic("fp_way", way_bits_);
  const Expr fp_pos = m.logic("fp_pos", 2);
  const Expr fp_whole = m.logic("fp_whole");
  const Expr fp_posmask = m.logic("fp_posmask", kSlots);
  const Expr fp_slotmask = m.logic("fp_slotmask", kSlots);
  const Expr fp_replaces = m.logic("fp_replaces");
  const Expr fp_wb = m.logic("fp_wb", kSlots);
  const Expr fp_dirty_n = m.logic("fp_dirty_n", 3);
  Expr pl_live = pl_valid;  // write allocation: a written slot holds data for placement (contract 14)
  if (lazy_gen_) {
    pl_live = m.logic("pl_live", ways_ * kSlots);
    m.assign(pl_live, pl_valid | t_written);
  }
  m.instance("u_fill_place", fill_place_block().module(cfg_), {},
             {{"row_valid_i", pl_live}, {"row_common_tag_i", t_common}, {"row_priority_i", t_prio},
              {"row_rank_i", t_rank}, {"row_dirty_any_i", t_dirty_any}, {"row_reserved_i", t_res},
              {"common_tag_i", pl_common}, {"slots_i", pl_slots}, {"bypass_i", pl_bypass}, {"l2_bit_i", pl_l2},
              {"gran_i", gran},
              {"cfg_opportunistic_i", cfg_opp}, {"victim_i", rp_victim}, {"age_bypass_en_i", age_bypass_en},
              {"way_active_i", way_active}, {"way_rel_age_i", way_rel},
              {"req_rel_age_i", age_rel.part(Expr(ways_ * kAwidBits), kAwidBits)},
              {"eligible_o", rp_eligible}, {"allocates_o", fp_alloc}, {"way_o", fp_way},
              {"pos_o", fp_pos}, {"whole_o", fp_whole}, {"replace_slots_o", fp_posmask},
              {"block_slots_o", fp_slotmask}, {"replaces_valid_o", fp_replaces}, {"writeback_slots_o", fp_wb},
              {"writebacks_o", fp_dirty_n}, {"age_bypass_o", pl_age_bypass}});

  const auto [f_any, f_way] = fill_held_search();
  Expr f_wanted = m.logic("sf_wanted");
  m.assign(f_wanted, mr_bypass.eq(lit(2, 0)) | (mr_bypass.eq(lit(2, 1)) & mr_l2) | (mr_bypass.eq(lit(2, 3)) & cfg_opp));
  m.assign(fill_held, sector_ & act_fill & red_or(f_any));
  m.comment("on_miss in sector mode: S1's load reserves in the way holding its line (s1_held: valid or reserved");
  m.comment("slots), like a fill into it: no victim (l1d_top_reserve.cpp).");
  res_held = m.logic("res_held");
  pl_held = m.logic("pl_held");  // the place is the way holding the line (the fill's or S1's)
  s1_res_slots = m.logic("s1_res_slots", kSlots);  // driven by miss_reserve
  m.assign(res_held, sector_ & on_miss_ & !act_fill & !s1_store_q & s1_held);
  m.assign(pl_held, fill_held | res_held);
  m.assign(fill_allocates, mux(fill_held, f_wanted, fp_alloc));
  m.assign(fill_way, mux(fill_held, f_way, mux(res_held, m_way, fp_way)));
  m.assign(fill_pos, mux(pl_held, lit(2, 0), fp_pos));
  m.assign(fill_whole, fp_whole & !pl_held);
  m.assign(fill_posmask, mux(pl_held, zeros(), fp_posmask));
  m.comment("A sector fill promotes (and makes valid) its entry's sectors only; a sector reservation promotes");
  m.comment("(and reserves) the slots S1 reads (s1_read_sectors).");
  m.assign(fill_slotmask, mux(sector_, mux(act_fill, mr_sectors, s1_res_slots), fp_slotmask));
  // The AGCB increment counts valid slots replaced, not written ones (golden take_placement).
  if (lazy_gen_) {
    m.assign(fill_replaces, fp_replaces & !pl_held & red_or(select_part(pl_valid, fp_way, ways_, kSlots) & fp_posmask));
  } else {
    m.assign(fill_replaces, fp_replaces & !pl_held);
  }
  m.assign(fill_wb, mux(pl_held, zeros(), fp_wb));
  m.assign(fill_dirty_n, mux(pl_held, lit(3, 0), fp_dirty_n));
}

// ---------------------------------------------------------------------------------------
// Sector mode (contract 14): the way holding the fill's line on the row the fill reads (t_*: S1's
// row, or the staged pipe's M2 row): per way whether it holds it, and the lowest such way.
std::pair<Expr, Expr> Top::fill_held_search() {
  m.comment("Sector mode (contract 14): the way holding the fill's line (a valid or reserved slot of it: the");
  m.comment("lowest such way, one-hot) takes the entry's sectors; no victim, write-back, AGCB update, AgeLRU bypass or");
  m.comment("PCAL priority filter; the allocation decision is section 6 step 1's alone.");
  const Expr f_common_eq = m.logic("sf_common_eq", ways_);
  const Expr f_copy = m.logic("sf_copy", ways_ * kSlots);
  const Expr f_tag_ok = m.logic("unused_sf_tag_ok", ways_ * kSlots);  // no request decode here
  const Expr f_held_unused = m.logic("unused_sf_held", ways_ * kSlots);
  m.instance("u_fill_compare", tag_compare_block().module(cfg_), {},
             {{"common_tag_i", fill_common}, {"line_tag_i", fill_chunk_tag.slice(ct_bits_ - 1, 2)},
              {"compared_i", lit(kSlots, 0)}, {"mask_chunk_i", lit(2 * kSlots, 0)}, {"req_chunks_i", lit(kSlots, 0)},
              {"sectors_i", lit(kSlots, 0xF)}, {"way_common_tag_i", t_common}, {"slot_tag_i", t_tag},
              {"common_eq_o", f_common_eq}, {"tag_ok_o", f_tag_ok}, {"held_o", f_held_unused}, {"copy_o", f_copy}});
  const Expr f_any = m.logic("sf_way_any", ways_);
  const Expr f_sel = m.logic("sf_way_sel", ways_);
  const Expr f_way = m.logic("sf_way", way_bits_);
  m.gen_for("g_sf_way", "gfw", 0, ways_, [&](Scope& g, const Expr& w) {
    Expr live = t_valid.part(w * kSlots, kSlots) | t_res.part(w * kSlots, kSlots);
    if (lazy_gen_) live = live | t_written.part(w * kSlots, kSlots);  // a written slot holds its line
    g.assign(f_any[w], f_common_eq[w] & red_or(f_copy.part(w * kSlots, kSlots) & live));
  });
  m.assign(f_sel[Expr(0U)], f_any[Expr(0U)]);
  m.gen_for("g_sf_sel", "gfs", 1, ways_, [&](Scope& g, const Expr& w) {
    g.assign(f_sel[w], f_any[w] & !red_or(f_any.slice(w - 1, 0)));
  });
  m.always_comb({{f_way, zeros()}}, [&](Block& b) {
    b.for_("fi", 0, Expr(ways_), [&](Block& body, const Expr& i) {
      body.assign(f_way, f_way | mux(f_sel[i], cast(way_bits_, i), zeros()));
    });
  });
  return {f_any, f_way};
}

// ---------------------------------------------------------------------------------------
// Flush walker: the slots it keeps (keep_large_pieces) and writes back (section 7; l1d_flush_keep).
void Top::flush_decision() {
  Expr valid, tag, dirty_any;
  if (!staged_) {  // staged: every way's (staged_flush_keep)
    valid = m.logic("walk_valid", kSlots);
    tag = m.logic("walk_tag", kSlots * ct_bits_);
    dirty_any = m.logic("walk_dirty_any", kSlots);
    m.assign(valid, select_part(t_valid, walk_way, ways_, kSlots));
    m.assign(tag, select_part(t_tag, walk_way, ways_, kSlots * ct_bits_));
    m.assign(dirty_any, select_part(t_dirty_any, walk_way, ways_, kSlots));
  }
  Expr keep_any = m.logic("walk_keep_any");
  m.assign(keep_any, cfg_keep & !flush_all_q);
  walk_keep = m.logic("walk_keep", kSlots);
  walk_wb = m.logic("walk_wb", kSlots);
  walk_dirty_n = m.logic("walk_dirty_n", 3);
  if (staged_) {
    staged_flush_keep(keep_any);
  } else {
    m.instance("u_flush_keep", flush_keep_block().module(cfg_), {},
               {{"valid_i", valid}, {"chunk_tag_i", tag}, {"dirty_any_i", dirty_any}, {"gran_i", gran},
                {"keep_i", keep_any}, {"keep_o", walk_keep}, {"writeback_slots_o", walk_wb},
                {"writebacks_o", walk_dirty_n}});
  }
  walk_last = m.logic("walk_last");
  // l1.carveout adaptive: the last active set (contract 15).
  m.assign(walk_last, walk_set.eq(adaptive_ ? set_last_ : cast(set_idx_bits_, sets_ - 1)) &
                          walk_way.eq(cast(way_bits_, ways_ - 1)));
}

// Staged (contract 16.5, "The flush visit"): M2's visit runs l1d_flush_keep on every way of M2's row
// at once, each with the miss queue's room for its own write-backs (mq_room_n_, from the registered
// count), and the visited way only selects among the prepared outcomes: the way's fan-out and the
// room's adder no longer sit in front of and behind the unit. The same outcome in every cycle.
void Top::staged_flush_keep(const Expr& keep_any) {
  mq_room_n_ = m.logic("mq_room_n", 8);  // bit k: the queue has room for k more (actors)
  walk_room_ = m.logic("walk_room");
  Expr room_w = m.logic("walk_room_w", ways_);
  std::vector<Expr> keep_ws, wb_ws, n_ws;  // per way, msb first
  for (unsigned w = 0; w < ways_; ++w) {
    const Expr lo = Expr(w * kSlots);
    const std::string sfx = "_w" + std::to_string(w);
    Expr n = m.logic("walk_dirty_n" + sfx, 3);
    keep_ws.insert(keep_ws.begin(), m.logic("walk_keep" + sfx, kSlots));
    wb_ws.insert(wb_ws.begin(), m.logic("walk_wb" + sfx, kSlots));
    n_ws.insert(n_ws.begin(), n);
    m.instance("u_flush_keep" + sfx, flush_keep_block().module(cfg_), {},
               {{"valid_i", t_valid.part(lo, kSlots)}, {"chunk_tag_i", t_tag.part(Expr(w * kSlots * ct_bits_), kSlots * ct_bits_)},
                {"dirty_any_i", t_dirty_any.part(lo, kSlots)}, {"gran_i", gran}, {"keep_i", keep_any},
                {"keep_o", keep_ws.front()}, {"writeback_slots_o", wb_ws.front()}, {"writebacks_o", n}});
    m.assign(room_w[Expr(w)], select_part(mq_room_n_, n, 8, 1));
  }
  Expr keep_w = m.logic("walk_keep_w", ways_ * kSlots);
  Expr wb_w = m.logic("walk_wb_w", ways_ * kSlots);
  Expr wb_n_w = m.logic("walk_dirty_n_w", ways_ * 3);
  m.assign(keep_w, concat(keep_ws));
  m.assign(wb_w, concat(wb_ws));
  m.assign(wb_n_w, concat(n_ws));
  m.assign(walk_keep, select_part(keep_w, walk_way, ways_, kSlots));
  m.assign(walk_wb, select_part(wb_w, walk_way, ways_, kSlots));
  m.assign(walk_dirty_n, select_part(wb_n_w, walk_way, ways_, 3));
  m.assign(walk_room_, select_part(room_w, walk_way, ways_, 1));
}

}  // namespace gen::blocks::top_gen
