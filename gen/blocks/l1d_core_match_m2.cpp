// l1d_core_match_m2: the half of a core request's lookup decision (docs/l1d-microarchitecture.md
// section 4) that reads flip-flop state: the chunk match's decision (l1d_match_combine) on the
// slots' valid bits, and the copies of the request's chunks that a miss or a store drops, with
// their write-back order. Combinational.
//
// Why a unit of its own: the staged L1 (contract 16.5) runs it at M2 on l1d_core_match_m1's
// registered vectors (after l1d_match_fix), where the valid and any-dirty bits are read after the
// edge of the operation ahead. l1d_core_match composes the two in one cycle. Golden counterpart:
// golden::L1's lookup with chunk_match, find_copies and count_dirty.
#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/core_request_ports.h"
#include "gen/blocks/wide_select.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = 4;

class CoreMatchM2 final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_core_match_m2"; }
  std::string_view summary() const override {
    return "a core request's lookup, stage M2: the chunk match's decision, the copies and their write-back order";
  }

  Module module(const l1d::Config& cfg) const override {
    const unsigned ways = cfg.l1.ways;
    const unsigned way_bits = bits_for(ways);
    Module m(name());
    m.describe("A core request's lookup, the part that reads flip-flops (contract section 4; stage M2 of 16.5).");
    m.describe("From l1d_core_match_m1: the request's decode (legal_i, free_slots_i, need_slots_i, head_mask_i),");
    m.describe("the tag compares (common_eq_i, tag_ok_i, held_i, copy_i) and slot_chunk_i; the set's flip-flops:");
    m.describe("per slot (bit 4w+s) row_valid_i and row_dirty_any_i. Outputs as l1d_core_match's: the match");
    m.describe("(hit_o, partial_o, hit_way_o, hit_slots_o, copies_o), and per chunk c the copy a miss or store");
    m.describe("drops: cp_way_o, cp_slot_o, cp_wb_o (dirty: written back), cp_off_o (its place among the");
    m.describe("write-backs, by way then slot); writebacks_o counts them.");

    const Expr legal = m.input("legal_i");
    const Expr free_slots = m.input("free_slots_i", kSlots);
    const Expr need_slots = m.input("need_slots_i", kSlots);
    const Expr head_mask = m.input("head_mask_i", 2);
    const Expr common_eq = m.input("common_eq_i", ways);
    const Expr tag_ok = m.input("tag_ok_i", ways * kSlots);
    const Expr held = m.input("held_i", ways * kSlots);
    const Expr copy = m.input("copy_i", ways * kSlots);
    const Expr slot_chunk = m.input("slot_chunk_i", ways * kSlots * 2);
    const Expr row_valid = m.input("row_valid_i", ways * kSlots);
    const Expr row_dirty_any = m.input("row_dirty_any_i", ways * kSlots);

    const auto [hit, partial, hit_way, hit_slots, copies, cp_way, cp_slot, cp_wb, cp_off, dirty_n] =
        core_decision_ports(m, ways, way_bits);

    m.comment("The chunk match's decision (copies of the probed sectors).");
    m.instance("u_combine", match_combine_block().module(cfg), {},
               {{"legal_i", legal}, {"free_slots_i", free_slots}, {"need_slots_i", need_slots},
                {"head_mask_i", head_mask}, {"common_eq_i", common_eq}, {"tag_ok_i", tag_ok}, {"held_i", held},
                {"copy_i", copy}, {"slot_valid_i", row_valid}, {"hit_o", hit}, {"partial_o", partial},
                {"hit_way_o", hit_way}, {"hit_slots_o", hit_slots}, {"copies_o", copies}});

    m.comment("Copies by chunk: the one-copy invariant puts each chunk of the line in at most one slot, so a");
    m.comment("request writes back at most four slots.");
    Expr cp_valid = m.logic("cp_valid", kSlots);
    Expr cp_dirty = m.logic("cp_dirty", kSlots);
    m.always_comb({{cp_valid, zeros()}, {cp_dirty, zeros()}, {cp_way, zeros()}, {cp_slot, zeros()}}, [&](Block& b) {
      b.for_("w", 0, Expr(ways), [&](Block& bw, const Expr& w) {
        bw.for_("s", 0, Expr(kSlots), [&](Block& bs, const Expr& s) {
          bs.if_(copies[w * kSlots + s], [&](Block& t) {
            Expr c = slot_chunk.part((w * kSlots + s) * 2, 2);
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

const RtlBlock& core_match_m2_block() {
  static const CoreMatchM2 block;
  return block;
}

}  // namespace gen::blocks
