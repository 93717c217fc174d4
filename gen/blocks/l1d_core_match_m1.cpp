// l1d_core_match_m1: the half of a core request's lookup decision (docs/l1d-microarchitecture.md
// section 4) that reads no flip-flop state: the sectors it needs, fetches and probes, the bypass
// reason, and the chunk match's request decode and tag compares (l1d_match_request,
// l1d_tag_compare) on the set's SRAM fields. Combinational.
//
// Why a unit of its own: the staged L1 (contract 16.5) registers all of it at M1; the valid and
// any-dirty bits (flip-flops the operation ahead may change) wait for M2 (l1d_core_match_m2).
// l1d_core_match composes the two in one cycle, so the single-cycle l1d_top's lockstep checks both.
// Golden counterpart: golden::L1's lookup (load / store) and bypass_decision.
#include <algorithm>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/core_request_ports.h"
#include "gen/blocks/wide_select.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = 4;

class CoreMatchM1 final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_core_match_m1"; }
  std::string_view summary() const override {
    return "a core request's lookup, stage M1: sectors, bypass reason, the chunk match's decode and tag compares";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);
    const unsigned ways = cfg.l1.ways;
    const unsigned ct_bits = split.chunk_tag_bits();
    const unsigned cm_bits = std::max(split.common_tag_bits(), 1U);
    Module m(name());
    m.describe("A core request's lookup, the part that reads no flip-flop (contract section 4; stage M1 of 16.5).");
    m.describe("The request and configuration inputs as l1d_core_match's; the set's SRAM fields: per way");
    m.describe("row_common_tag_i, per slot (bit 4w+s) row_chunk_tag_i. Outputs: needed_o, fetch_o, probe_o and");
    m.describe("reason_o, bypass_fetch_o and extra_copies_i as l1d_core_match's; the chunk match's request decode (legal_o ... free_slots_o, as");
    m.describe("l1d_match_request's) and its tag compares with probe_o as the sectors (common_eq_o, tag_ok_o,");
    m.describe("held_o, copy_o, as l1d_tag_compare's); slot_chunk_o[2(4w+s) +: 2], the chunk index each slot's");
    m.describe("tag holds (for the order of the copies' write-backs).");

    const auto [store, size, chunk, mask, token, common, chunk_tag, gran, cfg_bypass, cfg_bto, cfg_opp,
                cfg_line_fetch, agcb_bypass, tl_bypass] = core_request_ports(m, cm_bits, ct_bits);
    const Expr row_common = m.input("row_common_tag_i", ways * cm_bits);
    const Expr row_tag = m.input("row_chunk_tag_i", ways * kSlots * ct_bits);
    const Expr extra_copies = m.input("extra_copies_i", kSlots);

    const Expr needed = m.output("needed_o", kSlots);
    const Expr fetch = m.output("fetch_o", kSlots);
    const Expr probe = m.output("probe_o", kSlots);
    const Expr reason = m.output("reason_o", 2);
    const Expr bypass_fetch = m.output("bypass_fetch_o", kSlots);
    const Expr legal = m.output("legal_o");
    const Expr compared = m.output("compared_o", kSlots);
    const Expr mask_chunk = m.output("mask_chunk_o", kSlots * 2);
    const Expr req_chunks = m.output("req_chunks_o", kSlots);
    const Expr need_slots = m.output("need_slots_o", kSlots);
    const Expr head_mask = m.output("head_mask_o", 2);
    const Expr free_slots = m.output("free_slots_o", kSlots);
    const Expr common_eq = m.output("common_eq_o", ways);
    const Expr tag_ok = m.output("tag_ok_o", ways * kSlots);
    const Expr held = m.output("held_o", ways * kSlots);
    const Expr copy = m.output("copy_o", ways * kSlots);
    const Expr slot_chunk = m.output("slot_chunk_o", ways * kSlots * 2);

    m.comment("Sectors: needed (touched by the byte mask), range (the request's R-aligned block), fetch (what a");
    m.comment("new fill brings: the max(R, G) block when it may allocate, else range, the whole line with");
    m.comment("l1.bypass_fetch line (cfg_line_fetch_i, contract 13.2) or, with BTO, needed).");
    m.gen_for("g_needed", "gc", 0, kSlots, [&](Scope& g, const Expr& c) {
      g.assign(needed[c], red_or(mask.part(c * 32, 32)));
    });
    Expr range = m.logic("range", kSlots);
    m.assign(range, mux(size.eq(lit(2, 2)), lit(4, 0xF), mux(size.eq(lit(2, 1)), lit(4, 3) << chunk, lit(4, 1) << chunk)));
    m.comment("The bypass decision; AgeLRU bypassing decides at the fill.");
    m.always_comb({{reason, lit(2, 0)}}, [&](Block& b) {
      b.unique_case(cfg_bypass, [&](CaseBuilder& cb) {
        cb.item(lit(3, 1), [&](Block& t) { t.if_(agcb_bypass, [&](Block& u) { u.assign(reason, lit(2, 1)); }); });
        cb.item(lit(3, 2), [&](Block& t) { t.if_(tl_bypass, [&](Block& u) { u.assign(reason, lit(2, 2)); }); });
        cb.item(lit(3, 3), [&](Block& t) { t.if_(!token, [&](Block& u) { u.assign(reason, lit(2, 3)); }); });
        cb.default_([&](Block& t) { t.assign(reason, lit(2, 0)); });
      });
    });
    Expr may_alloc = m.logic("may_alloc");
    m.assign(may_alloc, reason.eq(lit(2, 0)) | reason.eq(lit(2, 1)) | (reason.eq(lit(2, 3)) & cfg_opp));
    Expr span = m.logic("span", 2);
    m.assign(span, mux(gran.gt(size), gran, size));
    Expr alloc_fetch = m.logic("alloc_fetch", kSlots);
    m.assign(alloc_fetch, mux(span.eq(lit(2, 2)), lit(4, 0xF),
                              mux(span.eq(lit(2, 1)), lit(4, 3) << (chunk & lit(2, 2)), lit(4, 1) << chunk)));
    m.assign(bypass_fetch, mux(cfg_bto, needed, mux(cfg_line_fetch, lit(4, 0xF), range)));
    m.assign(fetch, mux(may_alloc, alloc_fetch, bypass_fetch));
    m.assign(probe, mux(store, range, fetch));

    m.comment("The chunk match's request decode and its compares of the set's tags (copies of the probed");
    m.comment("sectors and of extra_copies_i's).");
    Expr copy_sectors = m.logic("copy_sectors", kSlots);
    m.assign(copy_sectors, probe | extra_copies);
    m.instance("u_request", match_request_block().module(cfg), {},
               {{"chunk_tag_i", chunk_tag}, {"size_i", size}, {"gran_i", gran}, {"legal_o", legal},
                {"compared_o", compared}, {"mask_chunk_o", mask_chunk}, {"req_chunks_o", req_chunks},
                {"need_slots_o", need_slots}, {"head_mask_o", head_mask}, {"free_slots_o", free_slots}});
    m.instance("u_compare", tag_compare_block().module(cfg), {},
               {{"common_tag_i", common}, {"line_tag_i", chunk_tag.slice(Expr(ct_bits - 1), Expr(2U))},
                {"compared_i", compared}, {"mask_chunk_i", mask_chunk}, {"req_chunks_i", req_chunks},
                {"sectors_i", copy_sectors}, {"way_common_tag_i", row_common}, {"slot_tag_i", row_tag},
                {"common_eq_o", common_eq}, {"tag_ok_o", tag_ok}, {"held_o", held}, {"copy_o", copy}});
    m.gen_for("g_chunk", "gs", 0, ways * kSlots, [&](Scope& g, const Expr& s) {
      g.assign(slot_chunk.part(s * 2, 2), row_tag.part(s * ct_bits, 2));
    });
    return m;
  }
};

}  // namespace

const RtlBlock& core_match_m1_block() {
  static const CoreMatchM1 block;
  return block;
}

}  // namespace gen::blocks
