// l1d_core_match: the lookup decision of a core request (docs/l1d-microarchitecture.md section 4)
// on its set's row: which sectors it needs and would fetch, the bypass decision, the chunk-tag
// match and the copies of its chunks that a miss or a store drops, with their write-back order.
// Combinational; the single-cycle l1d_top's S1 uses it, with the MSHR probe (l1d_mshr) on its
// sector outputs. Golden counterpart: golden::L1's lookup (load / store), bypass_decision and
// count_dirty, with chunk_match and find_copies.
//
// Structure: two units along the staged L1's stage line (contract 16.5): l1d_core_match_m1 (what
// reads no flip-flop: sectors, bypass reason, the chunk match's decode and tag compares) and
// l1d_core_match_m2 (the valid and any-dirty bits: the match's decision, the copies). The staged
// L1 registers the first one's outputs; here they are wired back to back, so the single-cycle
// l1d_top's lockstep checks both.
#include <algorithm>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/core_request_ports.h"
#include "gen/blocks/wide_select.h"  // bits_for

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = 4;

class CoreMatch final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_core_match"; }
  std::string_view summary() const override {
    return "a core request's lookup (section 4): sectors, bypass decision, chunk match, copies and their write-backs";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);
    const unsigned ways = cfg.l1.ways;
    const unsigned ct_bits = split.chunk_tag_bits();
    const unsigned cm_bits = std::max(split.common_tag_bits(), 1U);
    const unsigned way_bits = bits_for(ways);
    Module m(name());
    m.describe("A core request's lookup (contract section 4). The request: store_i, size_i (0 32 B, 1 64 B,");
    m.describe("2 128 B), chunk_i (its first chunk), mask_i (byte mask), token_i (PCAL), common_tag_i, chunk_tag_i;");
    m.describe("gran_i: G; cfg_bypass_i: 0 none, 1 AGCB, 2 two-level, 3 PCAL, 4 AgeLRU (decides at the fill);");
    m.describe("agcb_bypass_i / two_level_bypass_i: those units' predictions. The set's row: per way row_common_tag_i,");
    m.describe("per slot (bit 4w+s) row_valid_i, row_chunk_tag_i, row_dirty_any_i. Outputs: needed_o (chunks the mask");
    m.describe("touches), fetch_o (what a new entry fetches), probe_o (the MSHR probe's sectors: the request's");
    m.describe("R-aligned block for a store, fetch for a load), reason_o (0 none, 1 AGCB, 2 two-level, 3");
    m.describe("PCAL), the match (hit_o, partial_o, hit_way_o, hit_slots_o, copies_o), and per chunk c the copy a");
    m.describe("miss or store drops: cp_way_o, cp_slot_o, cp_wb_o (dirty: written back), cp_off_o (its place among");
    m.describe("the write-backs, by way then slot); writebacks_o counts them. bypass_fetch_o: what the load fetches");
    m.describe("if it does not allocate (fetch_o of a bypassing load); extra_copies_i: sectors whose copies are");
    m.describe("found besides probe_o's (l1.allocation on_miss: AgeLRU may turn the load into a bypass at the");
    m.describe("miss, which then drops the copies of bypass_fetch_o; contract 13.1).");

    const auto [store, size, chunk, mask, token, common, chunk_tag, gran, cfg_bypass, cfg_bto, cfg_opp,
                cfg_line_fetch, agcb_bypass, tl_bypass] = core_request_ports(m, cm_bits, ct_bits);
    const Expr row_common = m.input("row_common_tag_i", ways * cm_bits);
    const Expr row_valid = m.input("row_valid_i", ways * kSlots);
    const Expr row_tag = m.input("row_chunk_tag_i", ways * kSlots * ct_bits);
    const Expr row_dirty_any = m.input("row_dirty_any_i", ways * kSlots);
    const Expr extra_copies = m.input("extra_copies_i", kSlots);

    const Expr needed = m.output("needed_o", kSlots);
    const Expr fetch = m.output("fetch_o", kSlots);
    const Expr probe = m.output("probe_o", kSlots);
    const Expr reason = m.output("reason_o", 2);
    const Expr bypass_fetch = m.output("bypass_fetch_o", kSlots);
    const auto [hit, partial, hit_way, hit_slots, copies, cp_way, cp_slot, cp_wb, cp_off, dirty_n] =
        core_decision_ports(m, ways, way_bits);

    m.comment("Stage M1's half: what reads no flip-flop.");
    const Expr legal = m.logic("legal");
    const Expr compared = m.logic("compared", kSlots);
    const Expr mask_chunk = m.logic("mask_chunk", kSlots * 2);
    const Expr req_chunks = m.logic("req_chunks", kSlots);
    const Expr need_slots = m.logic("need_slots", kSlots);
    const Expr head_mask = m.logic("head_mask", 2);
    const Expr free_slots = m.logic("free_slots", kSlots);
    const Expr common_eq = m.logic("common_eq", ways);
    const Expr tag_ok = m.logic("tag_ok", ways * kSlots);
    const Expr held = m.logic("held", ways * kSlots);
    const Expr copy = m.logic("copy", ways * kSlots);
    const Expr slot_chunk = m.logic("slot_chunk", ways * kSlots * 2);
    const Expr unused_m1 = m.logic("unused_m1");
    m.instance("u_m1", core_match_m1_block().module(cfg), {},
               {{"store_i", store}, {"size_i", size}, {"chunk_i", chunk}, {"mask_i", mask}, {"token_i", token},
                {"common_tag_i", common}, {"chunk_tag_i", chunk_tag}, {"gran_i", gran}, {"cfg_bypass_i", cfg_bypass},
                {"cfg_bto_i", cfg_bto}, {"cfg_opportunistic_i", cfg_opp}, {"cfg_line_fetch_i", cfg_line_fetch},
                {"agcb_bypass_i", agcb_bypass},
                {"two_level_bypass_i", tl_bypass}, {"row_common_tag_i", row_common}, {"row_chunk_tag_i", row_tag},
                {"extra_copies_i", extra_copies}, {"needed_o", needed}, {"fetch_o", fetch}, {"probe_o", probe},
                {"reason_o", reason}, {"bypass_fetch_o", bypass_fetch},
                {"legal_o", legal}, {"compared_o", compared}, {"mask_chunk_o", mask_chunk},
                {"req_chunks_o", req_chunks}, {"need_slots_o", need_slots}, {"head_mask_o", head_mask},
                {"free_slots_o", free_slots}, {"common_eq_o", common_eq}, {"tag_ok_o", tag_ok}, {"held_o", held},
                {"copy_o", copy}, {"slot_chunk_o", slot_chunk}});
    m.comment("The decode l1d_match_fix reads in the staged L1: nothing to correct here.");
    m.assign(unused_m1, red_xor(concat({compared, mask_chunk, req_chunks})));
    m.comment("Stage M2's half: the valid and any-dirty bits.");
    m.instance("u_m2", core_match_m2_block().module(cfg), {},
               {{"legal_i", legal}, {"free_slots_i", free_slots}, {"need_slots_i", need_slots},
                {"head_mask_i", head_mask}, {"common_eq_i", common_eq}, {"tag_ok_i", tag_ok}, {"held_i", held},
                {"copy_i", copy}, {"slot_chunk_i", slot_chunk}, {"row_valid_i", row_valid},
                {"row_dirty_any_i", row_dirty_any}, {"hit_o", hit}, {"partial_o", partial}, {"hit_way_o", hit_way},
                {"hit_slots_o", hit_slots}, {"copies_o", copies}, {"cp_way_o", cp_way}, {"cp_slot_o", cp_slot},
                {"cp_wb_o", cp_wb}, {"cp_off_o", cp_off}, {"writebacks_o", dirty_n}});
    return m;
  }
};

}  // namespace

const RtlBlock& core_match_block() {
  static const CoreMatch block;
  return block;
}

}  // namespace gen::blocks
