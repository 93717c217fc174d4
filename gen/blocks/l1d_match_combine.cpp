// l1d_match_combine: the DyCache chunk-tag match controller's decision (SPEC section 3,
// microarchitecture doc section 4; golden model: golden::chunk_match and golden::find_copies) from
// the per-slot checks l1d_tag_compare made and the slots' valid bits: hit / partial hit / way /
// slots and the copies of the line's chunks. Combinational.
//
// Structure: the request comes decoded (l1d_match_request) and every slot's tag checked
// (l1d_tag_compare), so per slot only the valid bit is left: one AND-OR. A position is a single
// slot, a pair or the whole line (U = 1, 2, 4 slots), so the lowest hitting position of a way is
// written out for each U; the first hitting way is a one-hot select whose "no lower way hits" is
// an OR reduction per way (log depth), not a chain through the ways. The staged L1 runs it in stage
// M2 on M1's registered vectors, after l1d_match_fix has applied the decision of the operation
// ahead (contract 16.5).
#include "common/address.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = l1d::kSlotsPerLine;

class MatchCombine final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_match_combine"; }
  std::string_view summary() const override {
    return "the chunk match's decision from the slot checks and valid bits: hit / partial / way / slots, copies";
  }

  Module module(const l1d::Config& cfg) const override {
    Module m(name());
    m.describe("The chunk-tag match's decision (SPEC section 3), combinational, from l1d_tag_compare's vectors:");
    m.describe("per way common_eq_i[w]; per slot s of way w (bit w*4+s) tag_ok_i, held_i, copy_i and");
    m.describe("slot_valid_i; the request as l1d_match_request decodes it (legal_i, free_slots_i, need_slots_i,");
    m.describe("head_mask_i: 2'b11, 2'b10 or 2'b00 for positions of 1, 2 or 4 slots; 2'b01 never hits).");
    m.describe("Outputs as l1d_chunk_match's: hit_o (the first hitting way, hit_way_o, at its lowest hitting");
    m.describe("position; hit_slots_o the slots holding the request's chunks), partial_o (no hit, but a valid");
    m.describe("slot of a way with the request's common-tag holds one of its chunks), copies_o[w*4 +: 4] (valid");
    m.describe("slots of way w, common-tag equal, with copy_i). An illegal request (legal_i low) neither hits nor");
    m.describe("partially hits.");
    Expr ways = m.param("Ways", cfg.l1.ways);
    Expr way_bits = m.param("WayIdxBits", mux(ways.gt(1), clog2(ways), 1));

    Expr legal = m.input("legal_i");
    Expr free_slots = m.input("free_slots_i", kSlots);
    Expr need_slots = m.input("need_slots_i", kSlots);
    Expr head_mask = m.input("head_mask_i", 2);
    Expr common_eq = m.input("common_eq_i", ways);
    Expr tag_ok = m.input("tag_ok_i", ways * kSlots);
    Expr held_in = m.input("held_i", ways * kSlots);
    Expr copy_in = m.input("copy_i", ways * kSlots);
    Expr slot_valid = m.input("slot_valid_i", ways * kSlots);
    Expr hit = m.output("hit_o");
    Expr partial = m.output("partial_o");
    Expr hit_way = m.output("hit_way_o", way_bits);
    Expr hit_slots = m.output("hit_slots_o", kSlots);
    Expr copies = m.output("copies_o", ways * kSlots);

    m.comment("The position size: u1 (one slot), u2 (an aligned pair), u4 (the whole line).");
    Expr u1 = m.logic("u1");
    Expr u2 = m.logic("u2");
    Expr u4 = m.logic("u4");
    m.assign(u1, head_mask.eq(bin(2, 3)));
    m.assign(u2, head_mask.eq(bin(2, 2)));
    m.assign(u4, head_mask.eq(bin(2, 0)));

    Expr way_hit = m.logic("way_hit", ways);
    Expr way_partial = m.logic("way_partial", ways);
    Expr way_slots = m.logic("way_slots", ways * kSlots);
    m.comment("Per way: slot_ok (the slot passes its position's check: free, or valid and its tag check");
    m.comment("passed), lo / hi / all (the pairs and the line pass), first (the slots of the lowest passing");
    m.comment("position), held and copy (valid slots holding a chunk of the request / of sectors).");
    m.gen_for("g_way", "w", 0, ways, [&](Scope& g, const Expr& w) {
      Expr valid = g.logic("valid", kSlots);
      Expr slot_ok = g.logic("slot_ok", kSlots);
      Expr lo = g.logic("lo");
      Expr hi = g.logic("hi");
      Expr all = g.logic("all");
      Expr first = g.logic("first", kSlots);
      Expr way_ok = g.logic("way_ok");  // legal, and the way has the request's common-tag
      g.assign(valid, slot_valid.part(w * kSlots, kSlots));
      g.assign(slot_ok, free_slots | (valid & tag_ok.part(w * kSlots, kSlots)));
      g.assign(lo, slot_ok[0] & slot_ok[1]);
      g.assign(hi, slot_ok[2] & slot_ok[3]);
      g.assign(all, lo & hi);
      g.assign(way_ok, legal & common_eq[w]);
      g.assign(first[0], (u1 & slot_ok[0]) | (u2 & lo) | (u4 & all));
      g.assign(first[1], (u1 & slot_ok[1] & !slot_ok[0]) | (u2 & lo) | (u4 & all));
      g.assign(first[2], (u1 & slot_ok[2] & !slot_ok[1] & !slot_ok[0]) | (u2 & hi & !lo) | (u4 & all));
      g.assign(first[3], (u1 & slot_ok[3] & !(slot_ok[2] | slot_ok[1] | slot_ok[0])) | (u2 & hi & !lo) | (u4 & all));
      g.assign(way_slots.part(w * kSlots, kSlots), first & need_slots);
      g.assign(way_hit[w], way_ok & ((u1 & red_or(slot_ok)) | (u2 & (lo | hi)) | (u4 & all)));
      g.assign(way_partial[w], common_eq[w] & red_or(valid & held_in.part(w * kSlots, kSlots)));
      g.assign(copies.part(w * kSlots, kSlots),
               mux(common_eq[w], valid & copy_in.part(w * kSlots, kSlots), zeros()));
    });

    // --- The set.
    m.comment("The first hitting way (the lowest index, as golden::chunk_match scans them), one-hot: a way");
    m.comment("is chosen when no lower way hits, an OR over the lower ways (a balanced tree in synthesis).");
    Expr way_sel = m.logic("way_sel", ways);
    m.assign(way_sel[0], way_hit[0]);
    m.gen_for("g_sel", "w", 1, ways, [&](Scope& g, const Expr& w) {
      g.assign(way_sel[w], way_hit[w] & !red_or(way_hit.slice(w - 1, 0)));
    });
    m.always_comb({{hit_way, zeros()}, {hit_slots, zeros()}}, [&](Block& b) {
      b.for_("i", 0, ways, [&](Block& body, const Expr& i) {
        body.assign(hit_way, hit_way | mux(way_sel[i], cast(way_bits, i), zeros()));
        body.assign(hit_slots, hit_slots | mux(way_sel[i], way_slots.part(i * kSlots, kSlots), zeros()));
      });
    });
    m.assign(hit, red_or(way_hit));
    m.assign(partial, legal & !hit & red_or(way_partial));
    return m;
  }
};

}  // namespace

const RtlBlock& match_combine_block() {
  static const MatchCombine block;
  return block;
}

}  // namespace gen::blocks
