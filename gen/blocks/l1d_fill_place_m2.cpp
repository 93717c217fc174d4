// l1d_fill_place_m2: the half of the fill unit's placement decision (docs/l1d-microarchitecture.md
// section 6, step 0 of a fill) that reads flip-flop state: from l1d_fill_place_m1's common-tag
// equalities and allocation rule and the set's valid, priority, rank and any-dirty bits, the
// victim and the AgeLRU ages: whether the block allocates, into which way and position, which
// slots it replaces and which of those are written back, and the AgeLRU bypass. Combinational.
//
// Why a unit of its own: the staged L1 (contract 16.5) runs it at M2 on M1's registered vectors,
// reading the flip-flops after the edge of the operation ahead. l1d_fill_place composes the two in
// one cycle. Golden counterpart: golden::L1::choose_placement, placement_dirty and agelru_bypasses,
// with the reservations of l1.allocation on_miss (contract 13.1).
#include <string>

#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/fill_place_ports.h"
#include "gen/blocks/wide_select.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = 4;
constexpr unsigned kAwidBits = 8;

// The partial position in a line whose slots are `valid`, `rank` (2 bits a slot) and `res`: the
// aligned run of `slots` slots without a reserved slot whose most recent valid slot is oldest (age 4
// when none is valid); ties to the lowest. Emitted for both forms of the block (age1, age2, best1,
// pos); returns pos. `tree` (the staged form): the oldest of the four slots by a tree of two
// compares deep (each pair's older, ties to its lower slot, then the older pair's) instead of the
// single-cycle form's chain of three; the same answer.
Expr partial_position(Scope& m, const Expr& slots, const Expr& valid, const Expr& rank, const Expr& res,
                      bool tree = false) {
  Expr age1 = m.logic("age1", kSlots * 3);
  Expr age2 = m.logic("age2", 2 * 3);
  for (unsigned s = 0; s < kSlots; ++s) {
    m.assign(age1.part(Expr(s * 3), 3),
             mux(res[Expr(s)], lit(3, 0), mux(valid[Expr(s)], cast(3, rank.part(Expr(s * 2), 2)) + lit(3, 1), lit(3, 5))));
  }
  for (unsigned q = 0; q < 2; ++q) {
    Expr a = age1.part(Expr(q * 6), 3), b = age1.part(Expr(q * 6 + 3), 3);
    m.assign(age2.part(Expr(q * 3), 3), mux(b.lt(a), b, a));
  }
  Expr best1 = m.logic("best1", 2);
  if (tree) {
    const Expr a0 = age1.part(Expr(0U), 3), a1 = age1.part(Expr(3U), 3), a2 = age1.part(Expr(6U), 3),
               a3 = age1.part(Expr(9U), 3);
    Expr i01 = m.logic("best01", 2), i23 = m.logic("best23", 2);
    Expr b01 = m.logic("best01_age", 3), b23 = m.logic("best23_age", 3);
    m.assign(i01, mux(a1.gt(a0), lit(2, 1), lit(2, 0)));
    m.assign(b01, mux(a1.gt(a0), a1, a0));
    m.assign(i23, mux(a3.gt(a2), lit(2, 3), lit(2, 2)));
    m.assign(b23, mux(a3.gt(a2), a3, a2));
    m.assign(best1, mux(b23.gt(b01), i23, i01));
  } else {
    Expr best1_age = m.logic("best1_age", 3);
    m.always_comb({{best1, lit(2, 0)}, {best1_age, age1.part(Expr(0), 3)}}, [&](Block& b) {
      b.for_("p", 1, Expr(kSlots), [&](Block& bp, const Expr& p) {
        bp.if_(age1.part(p * 3, 3).gt(best1_age), [&](Block& t) {
          t.assign(best1, cast(2, p));
          t.assign(best1_age, age1.part(p * 3, 3));
        });
      });
    });
  }
  Expr pos = m.logic("pos", 2);
  m.assign(pos, mux(slots.eq(lit(3, 1)), best1, mux(age2.part(Expr(3), 3).gt(age2.part(Expr(0), 3)), lit(2, 2), lit(2, 0))));
  return pos;
}

class FillPlaceM2 final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_fill_place_m2"; }
  std::string_view summary() const override {
    return "fill placement, stage M2: allocate?, way and position, replaced and written-back slots, AgeLRU bypass";
  }

  Module module(const l1d::Config& cfg) const override {
    const unsigned ways = cfg.l1.ways;
    const unsigned way_bits = bits_for(ways);
    Module m(name());
    m.describe("The fill's placement, the part that reads flip-flops (contract section 6; stage M2 of 16.5).");
    m.describe("Row inputs: the set's slot valid bits, priority bits (PCAL), slot ranks (2 bits per slot, 0 = most");
    m.describe("recent) and any-dirty bits; bit 4w+s is slot s of way w. From l1d_fill_place_m1: common_eq_i (way w");
    m.describe("has the block's common-tag) and wanted_i (the block may allocate). The block: slots_i (1, 2 or 4");
    m.describe("chunks), bypass_i (the entry's bypass reason: 3 is PCAL). eligible_o goes to the replacement state,");
    m.describe("whose victim comes back on victim_i.");
    m.describe("age_bypass_en_i: AgeLRU bypassing is on (policy AgeLRU and agelru_enable); req_rel_age_i is the");
    m.describe("requester's relative age, way_active_i / way_rel_age_i the owners' of the set's lines.");
    m.describe("row_reserved_i (l1.allocation on_miss, contract 13.1): slots held for a fill in flight; a line");
    m.describe("holding one is never a victim, and a position holding one never takes a partial block.");

    const Expr valid = m.input("row_valid_i", ways * kSlots);
    const Expr prio = m.input("row_priority_i", ways);
    const Expr rank = m.input("row_rank_i", ways * kSlots * 2);
    const Expr dirty_any = m.input("row_dirty_any_i", ways * kSlots);
    const Expr reserved = m.input("row_reserved_i", ways * kSlots);
    const Expr common_eq = m.input("common_eq_i", ways);
    const Expr wanted = m.input("wanted_i");
    const Expr slots = m.input("slots_i", 3);
    const Expr bypass = m.input("bypass_i", 2);
    const auto [victim, age_bypass_en, way_active, way_rel, req_rel, eligible_o, allocates_o, way_o, pos_o, whole_o,
                posmask_o, slotmask_o, replaces_o, wb_o, dirty_n_o, age_bypass_o] = placement_ports(m, ways, way_bits);

    m.comment("Per way: the line holds a valid slot; PCAL opportunistic fills take no priority line; a line");
    m.comment("holding a reserved slot is no victim; a line of the block's common-tag (valid or reserved) can");
    m.comment("take a smaller block at a position without a reserved slot.");
    Expr line_valid = m.logic("line_valid", ways);
    Expr line_held = m.logic("line_held", ways);
    Expr allowed = m.logic("allowed", ways);
    Expr pos_free = m.logic("pos_free", ways);
    Expr same_common = m.logic("same_common", ways);
    Expr pcal_opp = m.logic("pcal_opp");
    m.assign(pcal_opp, bypass.eq(lit(2, 3)));
    m.gen_for("g_way", "gw", 0, ways, [&](Scope& g, const Expr& w) {
      Expr res = g.logic("res", kSlots);
      g.assign(res, reserved.part(w * kSlots, kSlots));
      g.assign(line_valid[w], red_or(valid.part(w * kSlots, kSlots)));
      g.assign(line_held[w], red_or(res));
      g.assign(allowed[w], (!pcal_opp).lor(!line_valid[w]).lor(!prio[w]));
      g.assign(eligible_o[w], allowed[w] & !line_held[w]);
      g.assign(pos_free[w], mux(slots.eq(lit(3, 1)), !red_and(res),
                                (!(res[Expr(0U)] | res[Expr(1U)])).lor(!(res[Expr(2U)] | res[Expr(3U)]))));
      g.assign(same_common[w], (line_valid[w] | line_held[w]) & allowed[w] & common_eq[w] & pos_free[w]);
    });

    Expr partial_found = m.logic("partial_found");
    Expr partial_way = m.logic("partial_way", way_bits);
    Expr invalid_found = m.logic("invalid_found");
    Expr invalid_way = m.logic("invalid_way", way_bits);
    m.comment("The lowest line of the same common-tag, and the lowest free eligible line.");
    m.always_comb({{partial_found, bit(false)}, {partial_way, zeros()}, {invalid_found, bit(false)},
                   {invalid_way, zeros()}},
                  [&](Block& b) {
                    b.for_("w", 0, Expr(ways), [&](Block& bw, const Expr& w) {
                      bw.if_((!partial_found).land(same_common[w]), [&](Block& t) {
                        t.assign(partial_found, bit(true));
                        t.assign(partial_way, cast(way_bits, w));
                      });
                      bw.if_((!invalid_found).land(eligible_o[w]).land(!line_valid[w]), [&](Block& t) {
                        t.assign(invalid_found, bit(true));
                        t.assign(invalid_way, cast(way_bits, w));
                      });
                    });
                  });
    Expr use_partial = m.logic("use_partial");
    m.assign(use_partial, slots.lt(lit(3, 4)) & partial_found);
    Expr any = m.logic("any");
    m.assign(any, use_partial | red_or(eligible_o));
    m.assign(way_o, mux(use_partial, partial_way, mux(invalid_found, invalid_way, victim)));
    m.assign(whole_o, !use_partial);
    if (cfg.l1.pipeline == l1d::L1Pipeline::kStaged) {
      const PlacementPorts p{victim,     age_bypass_en, way_active, way_rel,    req_rel,   eligible_o,
                             allocates_o, way_o,        pos_o,      whole_o,    posmask_o, slotmask_o,
                             replaces_o, wb_o,          dirty_n_o,  age_bypass_o};
      m.describe("room_n_i (staged only): bit k = the miss queue has room for k more write-backs (k = 0..4);");
      m.describe("room_o = room_n_i[writebacks_o], prepared per way beside the victim query.");
      const Expr room_n = m.input("room_n_i", kSlots + 1);
      const Expr room_o = m.output("room_o");
      const Expr age_bypass =
          victim_selects(m, p, {valid, rank, dirty_any, reserved, slots, use_partial, partial_way, invalid_found,
                                line_valid, room_n, room_o},
                         ways);
      m.assign(allocates_o, wanted & any & !age_bypass);
      m.assign(age_bypass_o, wanted & any & age_bypass);
      return m;
    }

    m.comment("The partial position in the chosen line: the aligned run of slots_i slots without a reserved");
    m.comment("slot whose most recent valid slot is oldest (age 4 when none is valid); ties to the lowest.");
    Expr way_valid = m.logic("way_valid", kSlots);
    Expr way_rank = m.logic("way_rank", kSlots * 2);
    Expr way_res = m.logic("way_res", kSlots);
    m.assign(way_valid, select_part(valid, way_o, ways, kSlots));
    m.assign(way_rank, select_part(rank, way_o, ways, kSlots * 2));
    m.assign(way_res, select_part(reserved, way_o, ways, kSlots));
    m.comment("age1[p]: 1 + slot p's rank if valid, else 5, and 0 (never chosen) if reserved; age2[q]: the");
    m.comment("smaller of slots 2q and 2q+1 likewise, 0 if either is reserved.");
    Expr pos = partial_position(m, slots, way_valid, way_rank, way_res);
    m.assign(pos_o, mux(use_partial, pos, lit(2, 0)));
    m.comment("The slots the fill replaces (its position, or the whole line) and the ones the block goes");
    m.comment("into (slots_i slots from pos_o).");
    m.assign(posmask_o, mux(use_partial, mux(slots.eq(lit(3, 1)), lit(4, 1) << pos, lit(4, 3) << pos), lit(4, 0xF)));
    m.assign(slotmask_o, mux(slots.eq(lit(3, 4)), lit(4, 0xF),
                             mux(slots.eq(lit(3, 2)), lit(4, 3) << pos_o, lit(4, 1) << pos_o)));
    m.assign(replaces_o, red_or(way_valid & posmask_o));
    m.assign(wb_o, posmask_o & way_valid & select_part(dirty_any, way_o, ways, kSlots));
    m.assign(dirty_n_o, cast(3, countones(wb_o)));

    m.comment("AgeLRU bypass: the victim line's owner is active and the requester is younger.");
    Expr victim_active = m.logic("victim_active");
    Expr victim_rel = m.logic("victim_rel", kAwidBits);
    m.assign(victim_active, way_active[way_o]);
    m.assign(victim_rel, select_part(way_rel, way_o, ways, kAwidBits));
    Expr age_bypass = m.logic("age_bypass");
    m.assign(age_bypass, replaces_o & age_bypass_en & victim_active & req_rel.gt(victim_rel));
    m.assign(allocates_o, wanted & any & !age_bypass);
    m.assign(age_bypass_o, wanted & any & age_bypass);
    return m;
  }

 private:
  struct Row {  // the set's fields and the victim-independent choices victim_selects reads
    Expr valid, rank, dirty_any, reserved, slots, use_partial, partial_way, invalid_found, line_valid;
    Expr room_n, room_o;  // the miss queue's room for 0..4 write-backs; for this placement's
  };

  // The staged pipe's form (contract 16.5, emitted for l1.pipeline staged only, so that rtl/'s
  // single-cycle l1d_fill_place keeps the form above): the same outputs, with the victim (the
  // replacement state's answer to eligible_o, the longest input) only selecting. A partial block
  // goes into the line of its common-tag (partial_way, victim-independent); a whole line into a free
  // line replaces nothing; into the victim, each way's whole-line outcome (written-back slots and
  // their count, valid, the AgeLRU bypass) is prepared beside the query, and the victim picks one.
  // Since timing16 each way's partial outcome is prepared too (partial_way, the lowest line of the
  // common-tag, only selects), and so is the miss queue's room for each outcome's write-backs
  // (room_o: the fill's stall, which gates its every write, no longer waits for the count and the
  // queue's compare). Returns the AgeLRU bypass. Equal to the form above for every input, with
  // room_o = room_n_i[writebacks_o] (scripts/fill_place_equiv.sh).
  static Expr victim_selects(Module& m, const PlacementPorts& p, const Row& r, unsigned ways) {
    m.comment("Each way's outcome if a partial block goes into it (the line of the block's common-tag, chosen");
    m.comment("by partial_way: prepared for every way so that the choice only selects). The partial position:");
    m.comment("the aligned run of slots_i slots without a reserved slot whose most recent valid slot is oldest");
    m.comment("(age 4 when none is valid); ties to the lowest. age1[s]: 1 + slot s's rank if valid, else 5, 0");
    m.comment("if reserved; age2[q]: the smaller of slots 2q and 2q+1, 0 if either is reserved. Then its");
    m.comment("replaced and written-back slots, their count's queue room and the AgeLRU bypass.");
    Expr part_pos = m.logic("part_pos", ways * 2);
    Expr part_mask_w = m.logic("part_mask_w", ways * kSlots);
    Expr part_wb_w = m.logic("part_wb_w", ways * kSlots);
    Expr part_wb_n_w = m.logic("part_wb_n_w", ways * 3);
    Expr part_rep_w = m.logic("part_rep_w", ways);
    Expr part_room_w = m.logic("part_room_w", ways);
    Expr part_age_w = m.logic("part_age_w", ways);
    m.gen_for("g_way_part", "gw", 0, ways, [&](Scope& g, const Expr& w) {
      Expr v = g.logic("v", kSlots);
      Expr rk = g.logic("rk", kSlots * 2);
      Expr rs = g.logic("rs", kSlots);
      Expr mask = g.logic("mask", kSlots);
      g.assign(v, r.valid.part(w * kSlots, kSlots));
      g.assign(rk, r.rank.part(w * (kSlots * 2), kSlots * 2));
      g.assign(rs, r.reserved.part(w * kSlots, kSlots));
      Expr pos = partial_position(g, r.slots, v, rk, rs, true);
      g.assign(part_pos.part(w * 2, 2), pos);
      // Each position's outcome too (cand_*, position q at q), so that the position only selects.
      Expr cmask = g.logic("cand_mask", kSlots * kSlots);
      Expr cwb = g.logic("cand_wb", kSlots * kSlots);
      Expr cwbn = g.logic("cand_wb_n", kSlots * 3);
      Expr crep = g.logic("cand_rep", kSlots);
      Expr croom = g.logic("cand_room", kSlots);
      for (unsigned q = 0; q < kSlots; ++q) {
        const Expr cm = cmask.part(Expr(q * kSlots), kSlots);
        g.assign(cm, mux(r.slots.eq(lit(3, 1)), lit(4, (1U << q) & 0xFU), lit(4, (3U << q) & 0xFU)));
        g.assign(cwb.part(Expr(q * kSlots), kSlots), cm & v & r.dirty_any.part(w * kSlots, kSlots));
        g.assign(cwbn.part(Expr(q * 3), 3), cast(3, countones(cwb.part(Expr(q * kSlots), kSlots))));
        g.assign(crep[Expr(q)], red_or(v & cm));
        g.assign(croom[Expr(q)], select_part(r.room_n, cwbn.part(Expr(q * 3), 3), kSlots + 1, 1));
      }
      g.assign(mask, select_part(cmask, pos, kSlots, kSlots));
      g.assign(part_mask_w.part(w * kSlots, kSlots), mask);
      g.assign(part_wb_w.part(w * kSlots, kSlots), select_part(cwb, pos, kSlots, kSlots));
      g.assign(part_wb_n_w.part(w * 3, 3), select_part(cwbn, pos, kSlots, 3));
      g.assign(part_rep_w[w], select_part(crep, pos, kSlots, 1));
      g.assign(part_room_w[w], select_part(croom, pos, kSlots, 1));
      g.assign(part_age_w[w], part_rep_w[w] & p.age_bypass_en & p.way_active[w] &
                                  p.req_rel.gt(p.way_rel.part(w * kAwidBits, kAwidBits)));
    });
    Expr pos = m.logic("part_pos_sel", 2);
    Expr part_mask = m.logic("part_mask", kSlots);
    Expr part_wb = m.logic("part_wb", kSlots);
    m.assign(pos, select_part(part_pos, r.partial_way, ways, 2));
    m.assign(part_mask, select_part(part_mask_w, r.partial_way, ways, kSlots));
    m.assign(part_wb, select_part(part_wb_w, r.partial_way, ways, kSlots));

    m.comment("Each way's outcome if the victim is it and the block fills it whole: its valid dirty slots are");
    m.comment("written back (and need that much queue room); AgeLRU turns the block away if the line is valid,");
    m.comment("its owner older (and active: way_active_i is read at the victim, as in the form above).");
    Expr way_wb = m.logic("way_wb", ways * kSlots);
    Expr way_wb_n = m.logic("way_wb_n", ways * 3);
    Expr way_age = m.logic("way_age", ways);
    Expr way_room = m.logic("way_room", ways);
    m.gen_for("g_way_out", "gw", 0, ways, [&](Scope& g, const Expr& w) {
      g.assign(way_wb.part(w * kSlots, kSlots), r.valid.part(w * kSlots, kSlots) & r.dirty_any.part(w * kSlots, kSlots));
      g.assign(way_wb_n.part(w * 3, 3), cast(3, countones(way_wb.part(w * kSlots, kSlots))));
      g.assign(way_age[w], r.line_valid[w] & p.age_bypass_en & p.req_rel.gt(p.way_rel.part(w * kAwidBits, kAwidBits)));
      g.assign(way_room[w], select_part(r.room_n, way_wb_n.part(w * 3, 3), kSlots + 1, 1));
    });
    Expr to_victim = m.logic("to_victim");  // a whole block into the victim (no free eligible line)
    m.assign(to_victim, (!r.use_partial).land(!r.invalid_found));
    m.assign(p.pos_o, mux(r.use_partial, pos, lit(2, 0)));
    m.assign(p.posmask_o, mux(r.use_partial, part_mask, lit(4, 0xF)));
    m.assign(p.slotmask_o, mux(r.slots.eq(lit(3, 4)), lit(4, 0xF),
                               mux(r.slots.eq(lit(3, 2)), lit(4, 3) << p.pos_o, lit(4, 1) << p.pos_o)));
    m.assign(p.replaces_o, mux(r.use_partial, select_part(part_rep_w, r.partial_way, ways, 1),
                               to_victim & select_part(r.line_valid, p.victim, ways, 1)));
    m.assign(p.wb_o, mux(r.use_partial, part_wb, mux(to_victim, select_part(way_wb, p.victim, ways, kSlots), lit(4, 0))));
    m.assign(p.dirty_n_o, mux(r.use_partial, select_part(part_wb_n_w, r.partial_way, ways, 3),
                              mux(to_victim, select_part(way_wb_n, p.victim, ways, 3), lit(3, 0))));
    m.comment("The miss queue's room for the write-backs, selected as they are (a free line: none).");
    m.assign(r.room_o, mux(r.use_partial, select_part(part_room_w, r.partial_way, ways, 1),
                           mux(to_victim, select_part(way_room, p.victim, ways, 1), r.room_n[Expr(0U)])));
    Expr age_bypass = m.logic("age_bypass");
    m.assign(age_bypass, mux(r.use_partial, select_part(part_age_w, r.partial_way, ways, 1),
                             to_victim & p.way_active[p.victim] & select_part(way_age, p.victim, ways, 1)));
    return age_bypass;
  }
};

}  // namespace

const RtlBlock& fill_place_m2_block() {
  static const FillPlaceM2 block;
  return block;
}

}  // namespace gen::blocks
