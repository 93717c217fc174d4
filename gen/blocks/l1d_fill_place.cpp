// l1d_fill_place: the fill unit's placement decision (docs/l1d-microarchitecture.md section 6, step
// 0 of a fill): whether the block allocates, into which way and position, which slots it replaces
// and which of those are written back, and the AgeLRU bypass. Combinational on the set's row as
// the fill sees it; the single-cycle l1d_top uses it in its fill actor.
// Golden counterpart: golden::L1::choose_placement, placement_dirty and agelru_bypasses. The
// single-cycle l1d_top also asks it for S1's place under l1.allocation on_miss (contract 13.1).
//
// Structure: two units along the staged L1's stage line (contract 16.5): l1d_fill_place_m1 (the
// common-tag compares and the allocation rule, which read no flip-flop) and l1d_fill_place_m2
// (everything that reads the set's flip-flops). Here they are wired back to back, so the
// single-cycle l1d_top's lockstep checks both.
#include <algorithm>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/fill_place_ports.h"
#include "gen/blocks/wide_select.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = 4;

class FillPlace final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_fill_place"; }
  std::string_view summary() const override {
    return "fill placement (section 6): allocate?, way and position, replaced and written-back slots, AgeLRU bypass";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);
    const unsigned ways = cfg.l1.ways;
    const unsigned cm_bits = std::max(split.common_tag_bits(), 1U);
    const unsigned way_bits = bits_for(ways);
    Module m(name());
    m.describe("The fill unit's placement (contract section 6). Row inputs: the set's slot valid bits, common-tags,");
    m.describe("priority bits (PCAL), slot ranks (2 bits per slot, 0 = most recent) and any-dirty bits; bit 4w+s is");
    m.describe("slot s of way w. The block: common_i (its common-tag), slots_i (1, 2 or 4 chunks), bypass_i (the");
    m.describe("entry's bypass reason: 0 none, 1 AGCB, 2 two-level, 3 PCAL), l2_bit_i, gran_i (G: 0 32 B, 1 64 B,");
    m.describe("2 128 B). eligible_o goes to the replacement state, whose victim comes back on victim_i.");
    m.describe("age_bypass_en_i: AgeLRU bypassing is on (policy AgeLRU and agelru_enable); req_rel_age_i is the");
    m.describe("requester's relative age, way_active_i / way_rel_age_i the owners' of the set's lines.");
    m.describe("row_reserved_i (l1.allocation on_miss, contract 13.1): slots held for a fill in flight; a line");
    m.describe("holding one is never a victim, and a position holding one never takes a partial block.");

    const Expr valid = m.input("row_valid_i", ways * kSlots);
    const Expr common = m.input("row_common_tag_i", ways * cm_bits);
    const Expr prio = m.input("row_priority_i", ways);
    const Expr rank = m.input("row_rank_i", ways * kSlots * 2);
    const Expr dirty_any = m.input("row_dirty_any_i", ways * kSlots);
    const Expr reserved = m.input("row_reserved_i", ways * kSlots);
    const Expr fill_common = m.input("common_tag_i", cm_bits);
    const Expr slots = m.input("slots_i", 3);
    const Expr bypass = m.input("bypass_i", 2);
    const Expr l2_bit = m.input("l2_bit_i");
    const Expr gran = m.input("gran_i", 2);
    const Expr opportunistic = m.input("cfg_opportunistic_i");
    const auto [victim, age_bypass_en, way_active, way_rel, req_rel, eligible_o, allocates_o, way_o, pos_o, whole_o,
                posmask_o, slotmask_o, replaces_o, wb_o, dirty_n_o, age_bypass_o] = placement_ports(m, ways, way_bits);

    m.comment("Stage M1's half: the common-tag compares and the allocation rule.");
    Expr common_eq = m.logic("common_eq", ways);
    Expr wanted = m.logic("wanted");
    m.instance("u_m1", fill_place_m1_block().module(cfg), {},
               {{"row_common_tag_i", common}, {"common_tag_i", fill_common}, {"slots_i", slots}, {"bypass_i", bypass},
                {"l2_bit_i", l2_bit}, {"gran_i", gran}, {"cfg_opportunistic_i", opportunistic},
                {"common_eq_o", common_eq}, {"wanted_o", wanted}});
    m.comment("Stage M2's half: the set's flip-flops, the victim and the ages.");
    std::vector<Conn> m2_ports = {{"row_valid_i", valid}, {"row_priority_i", prio}, {"row_rank_i", rank},
                {"row_dirty_any_i", dirty_any}, {"row_reserved_i", reserved}, {"common_eq_i", common_eq}, {"wanted_i", wanted}, {"slots_i", slots},
                {"bypass_i", bypass}, {"victim_i", victim}, {"age_bypass_en_i", age_bypass_en},
                {"way_active_i", way_active}, {"way_rel_age_i", way_rel}, {"req_rel_age_i", req_rel},
                {"eligible_o", eligible_o}, {"allocates_o", allocates_o}, {"way_o", way_o}, {"pos_o", pos_o},
                {"whole_o", whole_o}, {"replace_slots_o", posmask_o}, {"block_slots_o", slotmask_o},
                {"replaces_valid_o", replaces_o}, {"writeback_slots_o", wb_o}, {"writebacks_o", dirty_n_o},
                {"age_bypass_o", age_bypass_o}};
    if (cfg.l1.pipeline == l1d::L1Pipeline::kStaged) {  // the staged half's queue room (l1d_fill_place_m2)
      m.describe("room_n_i / room_o (staged only): the miss queue's room for k = 0..4 write-backs; for this placement's.");
      m2_ports.push_back({"room_n_i", m.input("room_n_i", 5)});
      m2_ports.push_back({"room_o", m.output("room_o")});
    }
    m.instance("u_m2", fill_place_m2_block().module(cfg), {}, std::move(m2_ports));
    return m;
  }
};

}  // namespace

const RtlBlock& fill_place_block() {
  static const FillPlace block;
  return block;
}

}  // namespace gen::blocks
