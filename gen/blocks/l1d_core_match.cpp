// l1d_core_match: the lookup decision of a core request (docs/l1d-microarchitecture.md section 4)
// on its set's row: which sectors it needs and would fetch, the bypass decision, the chunk-tag
// match (l1d_chunk_match) and the copies of its chunks that a miss or a store drops, with their
// write-back order. Combinational; the single-cycle l1d_top's S1 and the staged L1's M1 and M2 use
// it, with the MSHR probe (l1d_mshr) on its sector outputs. Golden counterpart: golden::L1's
// lookup (load / store), bypass_decision and count_dirty, with chunk_match and find_copies.
#include <string>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/wide_select.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = 4;
constexpr unsigned kMaskBits = 128;

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
    m.describe("the write-backs, by way then slot); writebacks_o counts them.");

    const Expr store = m.input("store_i");
    const Expr size = m.input("size_i", 2);
    const Expr chunk = m.input("chunk_i", 2);
    const Expr mask = m.input("mask_i", kMaskBits);
    const Expr token = m.input("token_i");
    const Expr common = m.input("common_tag_i", cm_bits);
    const Expr chunk_tag = m.input("chunk_tag_i", ct_bits);
    const Expr gran = m.input("gran_i", 2);
    const Expr cfg_bypass = m.input("cfg_bypass_i", 3);
    const Expr cfg_bto = m.input("cfg_bto_i");
    const Expr cfg_opp = m.input("cfg_opportunistic_i");
    const Expr agcb_bypass = m.input("agcb_bypass_i");
    const Expr tl_bypass = m.input("two_level_bypass_i");
    const Expr row_common = m.input("row_common_tag_i", ways * cm_bits);
    const Expr row_valid = m.input("row_valid_i", ways * kSlots);
    const Expr row_tag = m.input("row_chunk_tag_i", ways * kSlots * ct_bits);
    const Expr row_dirty_any = m.input("row_dirty_any_i", ways * kSlots);

    const Expr needed = m.output("needed_o", kSlots);
    const Expr fetch = m.output("fetch_o", kSlots);
    const Expr probe = m.output("probe_o", kSlots);
    const Expr reason = m.output("reason_o", 2);
    const Expr hit = m.output("hit_o");
    const Expr partial = m.output("partial_o");
    const Expr hit_way = m.output("hit_way_o", way_bits);
    const Expr hit_slots = m.output("hit_slots_o", kSlots);
    const Expr copies = m.output("copies_o", ways * kSlots);
    const Expr cp_way = m.output("cp_way_o", kSlots * way_bits);
    const Expr cp_slot = m.output("cp_slot_o", kSlots * 2);
    const Expr cp_wb = m.output("cp_wb_o", kSlots);
    const Expr cp_off = m.output("cp_off_o", kSlots * 3);
    const Expr dirty_n = m.output("writebacks_o", 3);

    m.comment("Sectors: needed (touched by the byte mask), range (the request's R-aligned block), fetch (what a");
    m.comment("new fill brings: the max(R, G) block when it may allocate, else range or, with BTO, needed).");
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
    m.assign(fetch, mux(may_alloc, alloc_fetch, mux(cfg_bto, needed, range)));
    m.assign(probe, mux(store, range, fetch));

    m.comment("The chunk-tag match against the set (copies of the probed sectors).");
    m.instance("u_match", chunk_match_block().module(cfg), {},
               {{"common_tag_i", common}, {"chunk_tag_i", chunk_tag}, {"size_i", size}, {"gran_i", gran},
                {"sectors_i", probe}, {"way_common_tag_i", row_common}, {"slot_valid_i", row_valid},
                {"slot_tag_i", row_tag}, {"hit_o", hit}, {"partial_o", partial}, {"hit_way_o", hit_way},
                {"hit_slots_o", hit_slots}, {"copies_o", copies}});

    m.comment("Copies by chunk: the one-copy invariant puts each chunk of the line in at most one slot, so a");
    m.comment("request writes back at most four slots.");
    Expr cp_valid = m.logic("cp_valid", kSlots);
    Expr cp_dirty = m.logic("cp_dirty", kSlots);
    m.always_comb({{cp_valid, zeros()}, {cp_dirty, zeros()}, {cp_way, zeros()}, {cp_slot, zeros()}}, [&](Block& b) {
      b.for_("w", 0, Expr(ways), [&](Block& bw, const Expr& w) {
        bw.for_("s", 0, Expr(kSlots), [&](Block& bs, const Expr& s) {
          bs.if_(copies[w * kSlots + s], [&](Block& t) {
            Expr c = row_tag.part((w * kSlots + s) * ct_bits, 2);
            write_at(t, c, kSlots,
                     {{cp_valid, 1, 1, bit(true)},
                      {cp_dirty, 1, 1, row_dirty_any[w * kSlots + s]},
                      {cp_way, way_bits, way_bits, cast(way_bits, w)},
                      {cp_slot, 2, 2, cast(2, s)}});
          });
        });
      });
    });
    m.assign(cp_wb, cp_valid & cp_dirty);
    m.assign(dirty_n, cast(3, countones(cp_wb)));
    m.comment("Position of chunk c's write-back among the request's write-backs: those with a smaller key");
    m.comment("(way, then slot), the golden L1's order.");
    m.gen_for("g_cp", "gc", 0, kSlots, [&](Scope& g, const Expr& c) {
      Expr key = g.logic("key", way_bits + 2);
      Expr before = g.logic("earlier", kSlots);
      g.assign(key, concat({cp_way.part(c * way_bits, way_bits), cp_slot.part(c * 2, 2)}));
      g.gen_for("g_other", "go", 0, kSlots, [&](Scope& go, const Expr& o) {
        go.assign(before[o], cp_wb[o].land(concat({cp_way.part(o * way_bits, way_bits), cp_slot.part(o * 2, 2)}).lt(key)));
      });
      g.assign(cp_off.part(c * 3, 3), cast(3, countones(before)));
    });
    return m;
  }
};

}  // namespace

const RtlBlock& core_match_block() {
  static const CoreMatch block;
  return block;
}

}  // namespace gen::blocks
