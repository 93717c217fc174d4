// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): a fill step over the staged pipe's M1
// and M2 (docs/l1d-microarchitecture.md 16.5, "M1 prepares, M2 decides").
//
// M1 reads the step's MSHR entry (its record, request and data: l1d_mshr's read port addressed by
// M1's entry and step) and registers it into M2, so that M2's fill starts from flip-flops instead of
// the fill FIFO's head, the entry select and the address decode. What M1 reads cannot change before
// M2, except the entry's request count (a load M2 merges into the entry in M1's cycle: counted at
// M2 by a registered increment): the entry is filled (its record and data were written before it
// joined the fill FIFO), request i exists since A issued step i (i < count), and the entry is freed
// only by its last step, which no later step of it follows.
//
// M1 also runs l1d_fill_place_m1 on M1's row (the set's common-tags, SRAM fields) and registers its
// vectors, corrected on their way into M2 for the fill M2 decides in M1's cycle (the only writer of
// common-tags with allocation on_fill: the way it filled whole compares as its common-tag; since
// timing14 the correction is made before the register, so M2's placement starts at flip-flops), and
// M2 decides with l1d_fill_place_m2 on the flip-flops it reads. G is flip-flop state the operation decided in M1's
// cycle can change, so M1's half runs at G = 32 B (no size test) and M2 tests the block's size
// against its own G.
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

// The MSHR read port's outputs at M1 (returned in l1d_mshr's rd_*_o order: valid, filled, line,
// sectors, bypass, hpc, awid, token, l2 bit, count, data, id, warp, mask, reserve), and their
// registers into M2: the mr_* the fill at M2 reads.
std::vector<Expr> Top::staged_fill_read() {
  constexpr size_t kCount = 9;  // outs[kCount] is the request count
  const std::vector<std::tuple<Expr, std::string, unsigned>> outs = {
      {mr_valid, "valid", 1},       {mr_filled, "filled", 1},     {mr_line, "line", line_bits_},
      {mr_sectors, "sectors", kSlots}, {mr_bypass, "bypass", 2}, {mr_hpc, "hpc", hpc_bits_},
      {mr_awid, "awid", kAwidBits}, {mr_token, "token", 1},      {mr_l2, "l2", 1},
      {mr_count, "count", count_bits_}, {mr_data, "data", kLineBits}, {mr_id, "id", kIdBits},
      {mr_warp, "warp", kWarpBits}, {mr_mask, "mask", kMaskBits}};
  std::vector<Expr> m1;
  m.comment("The fill step's MSHR entry, read at M1 (M1's entry and step) and registered into M2.");
  for (const auto& [q, n, w] : outs) m1.push_back(m.logic("m1_mr_" + n, w));
  // The entry's reservation {reserved, way, first slot}: registered into M2 when the staged pipe is
  // generated for allocation on_miss (M2's reserved fill), else unused.
  const Expr m1_reserve = staged_onmiss_ ? m.logic("m1_mr_reserve", 3 + way_bits_) : mr_reserve;
  m1.push_back(m1_reserve);
  m1_mr_line_ = m1[2];
  m1_mr_sectors_ = m1[3];
  m1_mr_bypass_ = m1[4];
  m1_mr_l2_ = m1[8];
  std::vector<Expr> regs;
  for (const auto& [q, n, w] : outs) regs.push_back(m.logic("m2_mr_" + n + "_q", w));
  Expr count_inc_q = m.logic("m2_mr_count_inc_q");
  Expr reserve_q = staged_onmiss_ ? m.logic("m2_mr_reserve_q", 3 + way_bits_) : Expr();
  m.always_ff_noreset([&](Block& b) {
    for (size_t i = 0; i < outs.size(); ++i) b.assign(regs[i], m1[i]);
    if (staged_onmiss_) b.assign(reserve_q, m1_reserve);
    b.comment("A load M2 merges into M1's entry in M1's cycle: one more request at M2.");
    b.assign(count_inc_q, mshr_add & p_merge_entry.eq(m1_entry_q));
  });
  for (size_t i = 0; i < outs.size(); ++i) {
    const Expr& q = std::get<0>(outs[i]);
    m.assign(q, i == kCount ? regs[i] + cast(count_bits_, count_inc_q) : regs[i]);
  }
  if (staged_onmiss_) m.assign(mr_reserve, reserve_q);
  return m1;
}

// ---------------------------------------------------------------------------------------
// The fill's placement: l1d_fill_place_m1 at M1, registered; the correction and l1d_fill_place_m2
// at M2. Drives what fill_decision's l1d_fill_place drives in the single-cycle pipe.
void Top::staged_fill_place(const Expr& age_bypass_en, const Expr& bypass, const Expr& l2) {
  m.comment("Stage M1 of the fill's placement: M1's row's common-tags against the block's.");
  Expr m1_addr = m.logic("m1_fill_addr", addr_bits_);
  m.assign(m1_addr, concat({m1_mr_line_, lit(7, 0)}));  // the common-tag is of the line
  m1_fill_common_ = m.logic("m1_fill_common", cm_bits_);
  m.instance("u_m1_fill_decode", addr_decode_block().module(cfg_), {},  // carveout adaptive: the active sets
             with_set_bits({{"addr_i", m1_addr}, {"set_o", m.logic("unused_m1_fill_set", set_idx_bits_)},
                            {"common_tag_o", m1_fill_common_}, {"chunk_tag_o", m.logic("unused_m1_fill_tag", ct_bits_)},
                            {"chunk_o", m.logic("unused_m1_fill_chunk", 2)}}));
  Expr m1_slots = m.logic("m1_fill_slots", 3);
  m.assign(m1_slots, cast(3, countones(m1_mr_sectors_)));
  Expr m1_eq = m.logic("m1_fill_common_eq", ways_);
  Expr m1_wanted = m.logic("m1_fill_wanted");
  m.instance("u_m1_fill_place", fill_place_m1_block().module(cfg_), {},
             {{"row_common_tag_i", m1_row_.part(Expr(0U), ways_ * cm_bits_)}, {"common_tag_i", m1_fill_common_},
              {"slots_i", m1_slots}, {"bypass_i", m1_mr_bypass_}, {"l2_bit_i", m1_mr_l2_}, {"gran_i", lit(2, 0)},
              {"cfg_opportunistic_i", cfg_opp}, {"common_eq_o", m1_eq}, {"wanted_o", m1_wanted}});
  // The compares are registered corrected (staged_match_older): a way the fill decided in M1's cycle
  // filled whole holds that fill's common-tag.
  fill_eq_m1_ = m1_eq;
  fill_eq_q_ = m.logic("m2_fill_common_eq_q", ways_);
  Expr wanted_q = m.logic("m2_fill_wanted_q");
  m.always_ff_noreset([&](Block& b) { b.assign(wanted_q, m1_wanted); });

  m.comment("Stage M2: the block's size against M2's G; then the decision on the set's flip-flops and the");
  m.comment("common-tag compares as corrected at M1's edge.");
  const Expr common_eq = fill_eq_q_;
  Expr size = m.logic("m2_fill_size", 2);
  const Expr slots = staged_sector_ ? pl_slots : fill_slots;  // sector mode: a whole line (contract 14)
  m.assign(size, mux(slots.eq(lit(3, 4)), lit(2, 2), mux(slots.eq(lit(3, 2)), lit(2, 1), lit(2, 0))));
  Expr wanted = m.logic("m2_fill_wanted");
  m.assign(wanted, wanted_q & size.ge(gran));
  Expr place_eq = common_eq, place_wanted = wanted, place_valid = t_valid;
  if (staged_onmiss_) {
    m.comment("Allocation on_miss (contract 13.1, 16.5): M2's core load miss asks the same unit for its place, with");
    m.comment("its corrected common-tag compares (staged_core_match), its max(R, G) block (pl_slots) and bypass");
    m.comment("reason, on the valid bits without the block's copies (pl_valid: miss_reserve).");
    Expr core_size = m.logic("m2_res_size", 2);
    m.assign(core_size, mux(pl_slots.eq(lit(3, 4)), lit(2, 2), mux(pl_slots.eq(lit(3, 2)), lit(2, 1), lit(2, 0))));
    Expr core_wanted = m.logic("m2_res_wanted");
    m.assign(core_wanted, (bypass.eq(lit(2, 0)) | (bypass.eq(lit(2, 3)) & cfg_opp)) & core_size.ge(gran));
    place_eq = m.logic("m2_place_common_eq", ways_);
    place_wanted = m.logic("m2_place_wanted");
    m.assign(place_eq, mux(act_fill, common_eq, m2_core_common_eq_));
    m.assign(place_wanted, mux(act_fill, wanted, core_wanted));
    place_valid = pl_valid;
    if (lazy_gen_) {  // write allocation: a written slot holds data for placement (contract 14), as a valid one
      place_valid = m.logic("pl_live", ways_ * kSlots);
      m.assign(place_valid, pl_valid | t_written);
    }
    Expr unused = m.logic("unused_pl_fields");  // M1 read the fill's L2 bit; a core request has none
    m.assign(unused, l2);
  } else {
    Expr unused = m.logic("unused_pl_fields");  // pl_valid is t_valid (allocation on_fill); M1 read the L2 bit
    m.assign(unused, red_or(concat({pl_valid, l2})));
  }
  // Sector mode: the placement unit's answer (fp_*), which a fill into the way holding its line replaces.
  std::vector<Expr> fp = {fill_allocates, fill_way, fill_pos, fill_whole, fill_posmask, fill_slotmask,
                          fill_replaces, fill_wb, fill_dirty_n};
  if (staged_sector_) {
    const std::vector<std::pair<std::string, unsigned>> names = {
        {"allocates", 1}, {"way", way_bits_}, {"pos", 2}, {"whole", 1}, {"posmask", kSlots}, {"slotmask", kSlots},
        {"replaces", 1},  {"wb", kSlots},     {"dirty_n", 3}};
    for (size_t i = 0; i < fp.size(); ++i) fp[i] = m.logic("fp_" + names[i].first, names[i].second);
  }
  m.comment("The miss queue's room for 0..4 write-backs (from its registered count: actors), so that the");
  m.comment("placement prepares the room check per way and the fill's stall only selects.");
  fill_room_n_ = m.logic("fill_room_n", kSlots + 1);
  fill_room_ = m.logic("fill_room_place");
  const Expr fp_room = staged_sector_ ? m.logic("fp_room") : fill_room_;
  m.instance("u_fill_place_m2", fill_place_m2_block().module(cfg_), {},
             {{"row_valid_i", place_valid}, {"row_priority_i", t_prio}, {"row_rank_i", t_rank},
              {"row_dirty_any_i", t_dirty_any}, {"row_reserved_i", t_res}, {"common_eq_i", place_eq},
              {"wanted_i", place_wanted}, {"slots_i", pl_slots}, {"bypass_i", bypass}, {"victim_i", rp_victim},
              {"age_bypass_en_i", age_bypass_en}, {"way_active_i", way_active}, {"way_rel_age_i", way_rel},
              {"req_rel_age_i", age_rel.part(Expr(ways_ * kAwidBits), kAwidBits)}, {"eligible_o", rp_eligible},
              {"allocates_o", fp[0]}, {"way_o", fp[1]}, {"pos_o", fp[2]}, {"whole_o", fp[3]},
              {"replace_slots_o", fp[4]}, {"block_slots_o", fp[5]},
              {"replaces_valid_o", fp[6]}, {"writeback_slots_o", fp[7]}, {"writebacks_o", fp[8]},
              {"age_bypass_o", pl_age_bypass}, {"room_n_i", fill_room_n_}, {"room_o", fp_room}});
  fp.push_back(fp_room);  // fp[9]: the placement's queue room
  if (staged_sector_) staged_sector_fill(fp);
}

// Sector mode (contract 14, 16.5): the way holding the fill's line, found at M2 on M2's row (the
// single-cycle pipe's search: valid or reserved slots of the line), takes the entry's sectors; no
// victim, write-back, AGCB update, AgeLRU bypass or PCAL priority filter. Generated for on_miss too
// (res_sector_gen), M2's load miss of a line a way holds reserves its missing slots there, the same
// way as such a fill (res_held; contract 16.5, "Allocation on miss", "In sector mode").
void Top::staged_sector_fill(const std::vector<Expr>& fp) {
  m.comment("Sector mode: the way holding the fill's line (M2's row) takes the entry's sectors.");
  const auto [f_any, f_way] = fill_held_search();
  Expr f_wanted = m.logic("sf_wanted");
  m.assign(f_wanted, mr_bypass.eq(lit(2, 0)) | (mr_bypass.eq(lit(2, 1)) & mr_l2) | (mr_bypass.eq(lit(2, 3)) & cfg_opp));
  m.assign(fill_held, sector_ & act_fill & red_or(f_any));
  Expr held = fill_held, way = mux(fill_held, f_way, fp[1]), slotmask = mr_sectors;
  if (res_sector_gen()) {
    m.comment("on_miss: M2's load reserves in the way holding its line (s1_held: valid or reserved slots),");
    m.comment("like a fill into it: no victim (l1d_top_reserve.cpp); it promotes the slots it reserves.");
    res_held = m.logic("res_held");
    pl_held = m.logic("pl_held");  // the place is the way holding the line (the fill's or M2's load's)
    s1_res_slots = m.logic("s1_res_slots", kSlots);  // driven by miss_reserve
    m.assign(res_held, sector_ & on_miss_ & !act_fill & !s1_store_q & s1_held);
    m.assign(pl_held, fill_held | res_held);
    held = pl_held;
    way = mux(fill_held, f_way, mux(res_held, m_way, fp[1]));
    slotmask = mux(act_fill, mr_sectors, s1_res_slots);
  }
  m.assign(fill_allocates, mux(fill_held, f_wanted, fp[0]));
  m.assign(fill_way, way);
  m.assign(fill_pos, mux(held, lit(2, 0), fp[2]));
  m.assign(fill_whole, fp[3] & !held);
  m.assign(fill_posmask, mux(held, zeros(), fp[4]));
  m.comment("A sector fill makes valid (and promotes) its entry's sectors only.");
  m.assign(fill_slotmask, mux(sector_, slotmask, fp[5]));
  if (lazy_gen_) {  // the AGCB increment counts valid slots replaced, not written ones (golden take_placement)
    m.assign(fill_replaces, fp[6] & !held & red_or(select_part(pl_valid, fp[1], ways_, kSlots) & fp[4]));
  } else {
    m.assign(fill_replaces, fp[6] & !held);
  }
  m.assign(fill_wb, mux(held, zeros(), fp[7]));
  m.assign(fill_dirty_n, mux(held, lit(3, 0), fp[8]));
  m.assign(fill_room_, mux(held, fill_room_n_[Expr(0U)], fp[9]));  // the way holding the line: no write-back
}

}  // namespace gen::blocks::top_gen
