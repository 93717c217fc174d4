// l1d_chunk_match: the DyCache chunk-tag match controller (SPEC section 3, microarchitecture doc
// section 4; golden model: golden::chunk_match and golden::find_copies). Combinational.
//
// Structure: three units. l1d_match_request decodes the request (l1d_tag_mask, the positions);
// l1d_tag_compare compares the set's tags with it (the common-tag per way; per slot, the upper
// ChunkTagBits-2 bits of its chunk-tag with the request's line, once, and its chunk index against
// the decode: the tag check, the request's chunks, the copies); l1d_match_combine adds the valid
// bits, checks the positions and picks the first hitting way. The staged L1 registers the first
// two's outputs (contract 16.5: stages M1 and M2).
#include <algorithm>

#include "common/address.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = l1d::kSlotsPerLine;

class ChunkMatch final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_chunk_match"; }
  std::string_view summary() const override {
    return "chunk-tag match controller: hit / partial hit / way / slots, and the copies of a line's chunks (SPEC 3)";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);  // refuses a geometry the golden model refuses
    Module m(name());
    m.describe("DyCache chunk-tag match controller (SPEC section 3), combinational: one request against the");
    m.describe("Ways lines of one set. gran_i and size_i: 0 = 32 B, 1 = 64 B, 2 = 128 B.");
    m.describe("Per way w: way_common_tag_i[w*CommonTagBits +: CommonTagBits], slot_valid_i[w*4 +: 4] and, for");
    m.describe("slot s, slot_tag_i[(w*4+s)*ChunkTagBits +: ChunkTagBits].");
    m.describe("hit_o: the first hitting way (hit_way_o) at its lowest hitting position; hit_slots_o are the");
    m.describe("slots holding the request's chunks (both zero without a hit). partial_o: no hit, but a valid");
    m.describe("slot of a way with the request's common-tag holds one of the request's chunks.");
    m.describe("copies_o[w*4 +: 4]: the valid slots of way w (with the request's common-tag) holding a chunk");
    m.describe("of the request's memory line (chunk_tag_i >> 2) whose index is set in sectors_i.");
    m.describe("A request is aligned to its size: the low log2(R/32) bits of chunk_tag_i are ignored.");
    m.describe("The illegal code 3 (of gran_i or size_i) neither hits nor partially hits (copies_o ignores both).");
    m.describe("WayIdxBits and CommonTagBits are at least 1 (do not override WayIdxBits): with one way, or");
    m.describe("no common-tag bits in the address, that port keeps one bit, driven and read as zero.");
    Expr ways = m.param("Ways", cfg.l1.ways);
    Expr ct_bits = m.param("ChunkTagBits", split.chunk_tag_bits());
    Expr cm_bits = m.param("CommonTagBits", std::max(split.common_tag_bits(), 1U));
    Expr way_bits = m.param("WayIdxBits", mux(ways.gt(1), clog2(ways), 1));

    Expr common_tag = m.input("common_tag_i", cm_bits);
    Expr chunk_tag = m.input("chunk_tag_i", ct_bits);
    Expr size = m.input("size_i", 2);
    Expr gran = m.input("gran_i", 2);
    Expr sectors = m.input("sectors_i", kSlots);
    Expr way_common_tag = m.input("way_common_tag_i", ways * cm_bits);
    Expr slot_valid = m.input("slot_valid_i", ways * kSlots);
    Expr slot_tag = m.input("slot_tag_i", ways * kSlots * ct_bits);
    Expr hit = m.output("hit_o");
    Expr partial = m.output("partial_o");
    Expr hit_way = m.output("hit_way_o", way_bits);
    Expr hit_slots = m.output("hit_slots_o", kSlots);
    Expr copies = m.output("copies_o", ways * kSlots);

    m.comment("The request's decode, which reads no tag, and the compares of the set's tags against it (stage");
    m.comment("M1 of the staged L1); then the decision (stage M2).");
    Expr legal = m.logic("legal");
    Expr compared = m.logic("compared", kSlots);
    Expr mask_chunk = m.logic("mask_chunk", kSlots * 2);
    Expr req_chunks = m.logic("req_chunks", kSlots);
    Expr need_slots = m.logic("need_slots", kSlots);
    Expr head_mask = m.logic("head_mask", 2);
    Expr free_slots = m.logic("free_slots", kSlots);
    m.instance("u_request", match_request_block().module(cfg), {{"ChunkTagBits", ct_bits}},
               {{"chunk_tag_i", chunk_tag},
                {"size_i", size},
                {"gran_i", gran},
                {"legal_o", legal},
                {"compared_o", compared},
                {"mask_chunk_o", mask_chunk},
                {"req_chunks_o", req_chunks},
                {"need_slots_o", need_slots},
                {"head_mask_o", head_mask},
                {"free_slots_o", free_slots}});
    Expr common_eq = m.logic("common_eq", ways);
    Expr tag_ok = m.logic("tag_ok", ways * kSlots);
    Expr held = m.logic("held", ways * kSlots);
    Expr copy = m.logic("copy", ways * kSlots);
    m.instance("u_compare", tag_compare_block().module(cfg),
               {{"Ways", ways}, {"ChunkTagBits", ct_bits}, {"CommonTagBits", cm_bits}},
               {{"common_tag_i", common_tag},
                {"line_tag_i", chunk_tag.slice(ct_bits - 1, 2)},
                {"compared_i", compared},
                {"mask_chunk_i", mask_chunk},
                {"req_chunks_i", req_chunks},
                {"sectors_i", sectors},
                {"way_common_tag_i", way_common_tag},
                {"slot_tag_i", slot_tag},
                {"common_eq_o", common_eq},
                {"tag_ok_o", tag_ok},
                {"held_o", held},
                {"copy_o", copy}});
    m.instance("u_combine", match_combine_block().module(cfg), {{"Ways", ways}, {"WayIdxBits", way_bits}},
               {{"legal_i", legal},
                {"free_slots_i", free_slots},
                {"need_slots_i", need_slots},
                {"head_mask_i", head_mask},
                {"common_eq_i", common_eq},
                {"tag_ok_i", tag_ok},
                {"held_i", held},
                {"copy_i", copy},
                {"slot_valid_i", slot_valid},
                {"hit_o", hit},
                {"partial_o", partial},
                {"hit_way_o", hit_way},
                {"hit_slots_o", hit_slots},
                {"copies_o", copies}});
    return m;
  }
};

}  // namespace

const RtlBlock& chunk_match_block() {
  static const ChunkMatch block;
  return block;
}

}  // namespace gen::blocks
