// l1d_match_combine: the DyCache chunk-tag match controller's decision (SPEC section 3,
// microarchitecture doc section 4; golden model: golden::chunk_match and golden::find_copies) from
// the compares l1d_tag_compare made and the slots' valid bits: hit / partial hit / way / slots and
// the copies of the line's chunks. Combinational.
//
// Structure: the request comes decoded (l1d_match_request); per way (g_way), every slot checks
// its chunk index and valid bit; positions are checked per head slot, and the first hitting way is
// picked by a priority loop. The staged L1 runs it in stage M2 on M1's registered compares, after
// l1d_match_fix has applied the decision of the operation ahead (contract 16.5).
#include "common/address.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = l1d::kSlotsPerLine;

class MatchCombine final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_match_combine"; }
  std::string_view summary() const override {
    return "the chunk match's decision from the tag compares and valid bits: hit / partial / way / slots, copies";
  }

  Module module(const l1d::Config& cfg) const override {
    Module m(name());
    m.describe("The chunk-tag match's decision (SPEC section 3), combinational, from l1d_tag_compare's vectors:");
    m.describe("per way common_eq_i[w]; per slot s of way w (bit w*4+s) line_eq_i, slot_chunk_i[(w*4+s)*2 +: 2]");
    m.describe("and slot_valid_i; the request as l1d_match_request decodes it (legal_i ... head_mask_i, same");
    m.describe("names) and sectors_i. Outputs as l1d_chunk_match's: hit_o (the first hitting way, hit_way_o, at its lowest");
    m.describe("hitting position; hit_slots_o the slots holding the request's chunks), partial_o (no hit, but a");
    m.describe("valid slot of a way with the request's common-tag holds one of its chunks), copies_o[w*4 +: 4]");
    m.describe("(valid slots of way w, common-tag equal, holding a chunk of the request's line set in sectors_i).");
    m.describe("An illegal request (legal_i low) neither hits nor partially hits.");
    Expr ways = m.param("Ways", cfg.l1.ways);
    Expr way_bits = m.param("WayIdxBits", mux(ways.gt(1), clog2(ways), 1));

    Expr legal = m.input("legal_i");
    Expr compared = m.input("compared_i", kSlots);
    Expr mask_chunk = m.input("mask_chunk_i", kSlots * 2);
    Expr req_chunks = m.input("req_chunks_i", kSlots);
    Expr need_slots = m.input("need_slots_i", kSlots);
    Expr head_mask = m.input("head_mask_i", 2);
    Expr sectors = m.input("sectors_i", kSlots);
    Expr common_eq_in = m.input("common_eq_i", ways);
    Expr line_eq_in = m.input("line_eq_i", ways * kSlots);
    Expr slot_chunk = m.input("slot_chunk_i", ways * kSlots * 2);
    Expr slot_valid = m.input("slot_valid_i", ways * kSlots);
    Expr hit = m.output("hit_o");
    Expr partial = m.output("partial_o");
    Expr hit_way = m.output("hit_way_o", way_bits);
    Expr hit_slots = m.output("hit_slots_o", kSlots);
    Expr copies = m.output("copies_o", ways * kSlots);

    m.comment("The positions, from head_mask alone: pos_head (slot s heads a position) and pos_slots (the slots");
    m.comment("of the position headed by s; none if s is no head).");
    Expr pos_head = m.logic("pos_head", kSlots);
    Expr pos_slots = m.logic("pos_slots", kSlots * kSlots);
    m.gen_for("g_pos", "s", 0, kSlots, [&](Scope& g, const Expr& s) {
      g.assign(pos_head[s], (cast(2, s) & ~head_mask).eq(lit(2, 0)));
      g.gen_for("g_member", "t", 0, kSlots, [&](Scope& gm, const Expr& t) {
        gm.assign(pos_slots[s * kSlots + t], pos_head[s].land((cast(2, t) & head_mask).eq(cast(2, s))));
      });
    });

    // --- Per way: positions, partial-hit chunks and copies.
    Expr way_hit = m.logic("way_hit", ways);
    Expr way_partial = m.logic("way_partial", ways);
    Expr way_slots = m.logic("way_slots", ways * kSlots);
    m.comment("Per way: common_eq (the request's common-tag); per slot line_eq (holds a chunk of the request's");
    m.comment("memory line; both from l1d_tag_compare), slot_ok (if compared, holds its chunk-tag; if needed, valid), held (holds one of the");
    m.comment("request's chunks), copy (holds a chunk of sectors_i); pos_hit (the position headed by the slot");
    m.comment("hits) and first_pos, the lowest of those.");
    m.gen_for("g_way", "w", 0, ways, [&](Scope& g, const Expr& w) {
      Expr common_eq = g.logic("common_eq");
      Expr valid = g.logic("valid", kSlots);
      Expr line_eq = g.logic("line_eq", kSlots);  // the slot holds a chunk of the request's memory line
      Expr slot_ok = g.logic("slot_ok", kSlots);  // compared: holds its chunk-tag; needed: valid
      Expr held = g.logic("held", kSlots);        // holds one of the request's chunks
      Expr copy = g.logic("copy", kSlots);        // holds a chunk of sectors_i
      Expr pos_hit = g.logic("pos_hit", kSlots);  // the position headed by this slot hits
      Expr first_pos = g.logic("first_pos", kSlots);
      g.assign(common_eq, common_eq_in[w]);
      g.assign(valid, slot_valid.part(w * kSlots, kSlots));
      g.assign(line_eq, line_eq_in.part(w * kSlots, kSlots));
      g.gen_for("g_slot", "s", 0, kSlots, [&](Scope& gs, const Expr& s) {
        Expr chunk = gs.logic("chunk", 2);  // the chunk index the slot holds
        gs.assign(chunk, slot_chunk.part((w * kSlots + s) * 2, 2));
        Expr holds_tag = valid[s].land(line_eq[s]).land(chunk.eq(mask_chunk.part(s * 2, 2)));
        gs.assign(slot_ok[s], (!compared[s]).lor(holds_tag).land((!need_slots[s]).lor(valid[s])));
        gs.assign(held[s], valid[s] & line_eq[s] & req_chunks[chunk]);
        gs.assign(copy[s], valid[s] & line_eq[s] & sectors[chunk]);
        gs.assign(pos_hit[s], pos_head[s] & red_and(slot_ok | ~pos_slots.part(s * kSlots, kSlots)));
        gs.assign(way_slots[w * kSlots + s], need_slots[s] & first_pos[cast(2, s) & head_mask]);
      });
      g.comment("The lowest hitting position (the lowest set bit), as golden::chunk_match scans them.");
      g.assign(first_pos, pos_hit & -pos_hit);
      g.assign(way_hit[w], legal & common_eq & red_or(pos_hit));
      g.assign(way_partial[w], common_eq & red_or(held));
      g.assign(copies.part(w * kSlots, kSlots), mux(common_eq, copy, zeros()));
    });

    // --- The set.
    m.comment("The first hitting way (the lowest index), as golden::chunk_match scans them.");
    m.always_comb({{hit, bit(false)}, {hit_way, zeros()}, {hit_slots, zeros()}}, [&](Block& b) {
      b.for_("i", 0, ways, [&](Block& body, const Expr& i) {
        body.if_((!hit).land(way_hit[i]), [&](Block& t) {
          t.assign(hit, bit(true));
          t.assign(hit_way, cast(way_bits, i));
          t.assign(hit_slots, way_slots.part(i * kSlots, kSlots));
        });
      });
    });
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
