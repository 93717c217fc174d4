// l1d_match_request: the request's half of the chunk-tag match (SPEC section 3; golden::tag_mask,
// compute_chunk_tags and the positions golden::chunk_match scans): from the request's size, the
// granularity and its chunk index alone (never the set): which slots are compared and with which
// chunk index, which of the line's chunks are the request's, and the candidate positions.
// Combinational.
//
// Why a unit of its own: none of it reads the set, and it is the deep start of the match (the
// critical path of l1d_match_combine began at size and G, docs/synthesis.md), so the staged L1
// computes it in stage M1 beside the tag compares and registers it for M2 (contract 16.5).
#include "common/address.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = l1d::kSlotsPerLine;

class MatchRequest final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_match_request"; }
  std::string_view summary() const override {
    return "the chunk match's decode of the request (tag mask, positions) from size, G and chunk index: stage M1";
  }

  Module module(const l1d::Config& cfg) const override {
    const Module tag_mask = tag_mask_block().module(cfg);
    Module m(name());
    m.describe("The request's half of the chunk-tag match (SPEC section 3), combinational. chunk_tag_i: the");
    m.describe("request's chunk-tag (only its chunk index, the low two bits, reaches an output); size_i and gran_i:");
    m.describe("0 = 32 B, 1 = 64 B, 2 = 128 B (3 illegal: legal_o low).");
    m.describe("Per slot or chunk index s: compared_o (the tag mask compares slot s), mask_chunk_o[2s +: 2] (the");
    m.describe("chunk index it must hold), req_chunks_o (chunk s is one of the request's), need_slots_o (a hitting");
    m.describe("position keeps one of them in slot s); head_mask_o: the slot-index bits that name a position of");
    m.describe("max(G, R) / 32 slots (the positions themselves follow from it, in l1d_match_combine);");
    m.describe("free_slots_o: slot s is neither compared nor needed, so a position takes whatever it holds.");
    Expr ct_bits = m.param("ChunkTagBits", l1d::AddressSplit(cfg.l1).chunk_tag_bits());
    Expr chunk_tag = m.input("chunk_tag_i", ct_bits);
    Expr size = m.input("size_i", 2);
    Expr gran = m.input("gran_i", 2);
    Expr legal = m.output("legal_o");
    Expr compared = m.output("compared_o", kSlots);
    Expr mask_chunk = m.output("mask_chunk_o", kSlots * 2);
    Expr req_chunks_o = m.output("req_chunks_o", kSlots);
    Expr need_slots_o = m.output("need_slots_o", kSlots);
    Expr head_mask_o = m.output("head_mask_o", 2);
    Expr free_slots_o = m.output("free_slots_o", kSlots);
    Expr req_chunks = m.logic("req_chunks", kSlots);
    Expr need_slots = m.logic("need_slots", kSlots);
    Expr head_mask = m.logic("head_mask", 2);

    m.comment("The tag-mask table and the tag processor: the compared slots (piece heads) and their chunk-tags.");
    m.comment("Their upper ChunkTagBits-2 bits are the request's line, which l1d_tag_compare compares, so only");
    m.comment("the low two bits of each (the chunk index the slot must hold) leave this unit.");
    Expr mask_tags = m.logic("mask_tags", kSlots * ct_bits);
    Expr unused_mask_tags = m.logic("unused_mask_tags");
    m.instance("u_tag_mask", tag_mask, {{"ChunkTagBits", ct_bits}},
               {{"gran_i", gran},
                {"size_i", size},
                {"chunk_tag_i", chunk_tag},
                {"compared_o", compared},
                {"tags_o", mask_tags}});
    m.gen_for("g_mask", "s", 0, kSlots, [&](Scope& g, const Expr& s) {
      g.assign(mask_chunk.part(s * 2, 2), mask_tags.part(s * ct_bits, 2));
    });
    m.assign(unused_mask_tags, red_xor(mask_tags));

    m.comment("U = max(G, R) / 32 slots form a candidate position; head_mask keeps the slot-index bits that");
    m.comment("name the position (2'b11 << log2(U)), size_mask the chunk-index bits that name the request.");
    Expr span_log2 = m.logic("span_log2", 2);
    Expr size_mask = m.logic("size_mask", 2);
    m.assign(legal, gran.ne(lit(2, 3)).land(size.ne(lit(2, 3))));
    m.assign(span_log2, mux(gran.gt(size), gran, size));
    m.assign(head_mask, bin(2, 3) << span_log2);
    m.assign(size_mask, bin(2, 3) << size);

    m.comment("Per index s: req_chunks (chunk s of the memory line is one of the request's), need_slots (a");
    m.comment("hitting position keeps one of the request's chunks in slot s, so it must be valid).");
    m.gen_for("g_index", "s", 0, kSlots, [&](Scope& g, const Expr& s) {
      Expr diff = g.logic("diff", 2);  // where chunk / slot s differs from the request's first chunk
      g.assign(diff, cast(2, s) ^ chunk_tag.slice(1, 0));
      g.assign(req_chunks[s], (diff & size_mask).eq(lit(2, 0)));
      g.assign(need_slots[s], (diff & size_mask & ~head_mask).eq(lit(2, 0)));
    });

    m.assign(req_chunks_o, req_chunks);
    m.assign(need_slots_o, need_slots);
    m.assign(head_mask_o, head_mask);
    m.comment("Registered at M1 so that M2's per-slot check is one AND-OR with the valid bit.");
    m.assign(free_slots_o, ~compared & ~need_slots);
    return m;
  }
};

}  // namespace

const RtlBlock& match_request_block() {
  static const MatchRequest block;
  return block;
}

}  // namespace gen::blocks
