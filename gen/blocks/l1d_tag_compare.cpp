// l1d_tag_compare: the part of the DyCache chunk-tag match (SPEC section 3) that reads only the tag
// SRAM's fields: per way, the common-tag against the request's; per slot, the memory line its
// chunk-tag names against the request's line and the chunk index it holds against the request's
// decode (l1d_match_request). Combinational.
//
// Why a unit of its own: the staged L1 (docs/l1d-microarchitecture.md 16.5) does this in stage M1,
// right behind the SRAM row, and registers the vectors; the valid bits (flip-flops) and everything
// that combines the vectors (l1d_match_combine) wait for M2, where the operation decided just
// before can still correct them (l1d_match_fix). The 2-bit chunk-index checks are here, not in M2,
// because they were the start of M2's critical path (docs/synthesis.md: l1d_match_combine 20-32 FO4
// with them, within 25 without). l1d_chunk_match composes this unit with l1d_match_request and
// l1d_match_combine in one cycle, and so do l1d_core_match_m1 and l1d_core_match_m2 inside
// l1d_core_match, so the single-cycle l1d_top's lockstep checks all three.
#include <algorithm>

#include "common/address.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = l1d::kSlotsPerLine;

class TagCompare final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_tag_compare"; }
  std::string_view summary() const override {
    return "the chunk match's compares of a set's tags (common-tag per way; per slot its line and chunk): stage M1";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);
    Module m(name());
    m.describe("The compares of the chunk-tag match that read only the set's tags (SRAM fields), for stage M1 of");
    m.describe("the staged L1 (contract 16.5). line_tag_i: the request's chunk-tag without its two chunk-index");
    m.describe("bits (its memory line); compared_i, mask_chunk_i, req_chunks_i: the request's decode");
    m.describe("(l1d_match_request's outputs); sectors_i: the chunks whose copies are wanted. Per way w:");
    m.describe("common_eq_o[w] (way_common_tag_i's field equals common_tag_i). Per slot s of way w (bit w*4+s),");
    m.describe("for the slot's chunk-tag, valid or not: tag_ok_o (slot s is not compared, or the chunk-tag is the");
    m.describe("one compared there: the request's line, chunk mask_chunk_i[2s +: 2]), held_o (it names a chunk of");
    m.describe("the request's line set in req_chunks_i), copy_o (likewise in sectors_i). Valid bits are not read.");
    Expr ways = m.param("Ways", cfg.l1.ways);
    Expr ct_bits = m.param("ChunkTagBits", split.chunk_tag_bits());
    Expr cm_bits = m.param("CommonTagBits", std::max(split.common_tag_bits(), 1U));

    Expr common_tag = m.input("common_tag_i", cm_bits);
    Expr line_tag = m.input("line_tag_i", ct_bits - 2);
    Expr compared = m.input("compared_i", kSlots);
    Expr mask_chunk = m.input("mask_chunk_i", kSlots * 2);
    Expr req_chunks = m.input("req_chunks_i", kSlots);
    Expr sectors = m.input("sectors_i", kSlots);
    Expr way_common_tag = m.input("way_common_tag_i", ways * cm_bits);
    Expr slot_tag = m.input("slot_tag_i", ways * kSlots * ct_bits);
    Expr common_eq = m.output("common_eq_o", ways);
    Expr tag_ok = m.output("tag_ok_o", ways * kSlots);
    Expr held = m.output("held_o", ways * kSlots);
    Expr copy = m.output("copy_o", ways * kSlots);

    m.gen_for("g_way", "w", 0, ways, [&](Scope& g, const Expr& w) {
      g.assign(common_eq[w], way_common_tag.part(w * cm_bits, cm_bits).eq(common_tag));
      g.gen_for("g_slot", "s", 0, kSlots, [&](Scope& gs, const Expr& s) {
        Expr tag = gs.logic("tag", ct_bits);
        Expr line_eq = gs.logic("line_eq");  // the slot's chunk-tag names the request's memory line
        Expr chunk = gs.logic("chunk", 2);   // the chunk index it holds
        gs.assign(tag, slot_tag.part((w * kSlots + s) * ct_bits, ct_bits));
        gs.assign(line_eq, tag.slice(ct_bits - 1, 2).eq(line_tag));
        gs.assign(chunk, tag.slice(1, 0));
        gs.assign(tag_ok[w * kSlots + s], (!compared[s]).lor(line_eq.land(chunk.eq(mask_chunk.part(s * 2, 2)))));
        gs.assign(held[w * kSlots + s], line_eq & req_chunks[chunk]);
        gs.assign(copy[w * kSlots + s], line_eq & sectors[chunk]);
      });
    });
    return m;
  }
};

}  // namespace

const RtlBlock& tag_compare_block() {
  static const TagCompare block;
  return block;
}

}  // namespace gen::blocks
