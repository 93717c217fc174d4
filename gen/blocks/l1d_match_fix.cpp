// l1d_match_fix: stage M2's correction of a registered tag compare (docs/l1d-microarchitecture.md
// 16.5, "Same-set hazards are forwarded"). The operation at M2 (Y) compared its set's tags at M1
// while the operation ahead of it (X) was being decided; X's tag writes reach the SRAM only at C,
// after Y's M1. Every operation writes the tags of at most one way, all of one memory line (a
// fill's or sector fill's placement, an on_miss reservation, a sector store's allocation:
// golden::L1 take_placement, add_sectors, take_sector_line), so M1 compares Y once against X's
// common-tag and line (older_common_eq_i, older_line_eq_i) and M2 replaces what X rewrote:
// a way whose common-tag X wrote compares as X's, a slot whose chunk-tag X wrote is checked as
// holding X's chunk (the request's decode against that 2-bit index: per slot index, not per way).
// A few gates per slot in front of l1d_match_combine, instead of a second compare. Combinational.
#include <algorithm>

#include "common/address.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = l1d::kSlotsPerLine;

class MatchFix final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_match_fix"; }
  std::string_view summary() const override {
    return "stage M2's correction of M1's tag compares with the tag write of the operation decided just before";
  }

  Module module(const l1d::Config& cfg) const override {
    Module m(name());
    m.describe("Corrects the vectors l1d_tag_compare gave at M1 (common_eq_i, tag_ok_i, held_i, copy_i; same");
    m.describe("layout) with the tag write of the operation decided in the cycle they were made (contract 16.5).");
    m.describe("compared_i, mask_chunk_i, req_chunks_i, sectors_i: the request's decode, as l1d_tag_compare had it.");
    m.describe("older_wr_i: that operation wrote tags of this set; older_way_i: the way; older_common_wr_i: it wrote");
    m.describe("the way's common-tag; older_slots_i[s]: it wrote slot s's chunk-tag, holding chunk");
    m.describe("older_chunk_i[2s +: 2] of its memory line; older_common_eq_i / older_line_eq_i: its common-tag /");
    m.describe("line equal the request's (compared at M1). Outputs: the vectors as a compare after the write.");
    Expr ways = m.param("Ways", cfg.l1.ways);
    Expr way_bits = m.param("WayIdxBits", mux(ways.gt(1), clog2(ways), 1));

    Expr common_eq = m.input("common_eq_i", ways);
    Expr tag_ok = m.input("tag_ok_i", ways * kSlots);
    Expr held = m.input("held_i", ways * kSlots);
    Expr copy = m.input("copy_i", ways * kSlots);
    Expr compared = m.input("compared_i", kSlots);
    Expr mask_chunk = m.input("mask_chunk_i", kSlots * 2);
    Expr req_chunks = m.input("req_chunks_i", kSlots);
    Expr sectors = m.input("sectors_i", kSlots);
    Expr older_wr = m.input("older_wr_i");
    Expr older_way = m.input("older_way_i", way_bits);
    Expr older_common_wr = m.input("older_common_wr_i");
    Expr older_slots = m.input("older_slots_i", kSlots);
    Expr older_chunk = m.input("older_chunk_i", kSlots * 2);
    Expr older_common_eq = m.input("older_common_eq_i");
    Expr older_line_eq = m.input("older_line_eq_i");
    Expr common_eq_o = m.output("common_eq_o", ways);
    Expr tag_ok_o = m.output("tag_ok_o", ways * kSlots);
    Expr held_o = m.output("held_o", ways * kSlots);
    Expr copy_o = m.output("copy_o", ways * kSlots);

    m.comment("The checks of the older operation's chunk-tags, per slot index (the same in every way).");
    Expr new_ok = m.logic("new_ok", kSlots);
    Expr new_held = m.logic("new_held", kSlots);
    Expr new_copy = m.logic("new_copy", kSlots);
    m.gen_for("g_new", "s", 0, kSlots, [&](Scope& g, const Expr& s) {
      Expr chunk = g.logic("chunk", 2);
      g.assign(chunk, older_chunk.part(s * 2, 2));
      g.assign(new_ok[s], (!compared[s]).lor(older_line_eq.land(chunk.eq(mask_chunk.part(s * 2, 2)))));
      g.assign(new_held[s], older_line_eq & req_chunks[chunk]);
      g.assign(new_copy[s], older_line_eq & sectors[chunk]);
    });
    m.gen_for("g_way", "w", 0, ways, [&](Scope& g, const Expr& w) {
      Expr written = g.logic("written");  // the older operation wrote tags of this way
      g.assign(written, older_wr.land(older_way.eq(cast(way_bits, w))));
      g.assign(common_eq_o[w], mux(written.land(older_common_wr), older_common_eq, common_eq[w]));
      g.gen_for("g_slot", "s", 0, kSlots, [&](Scope& gs, const Expr& s) {
        Expr slot_wr = gs.logic("slot_wr");
        gs.assign(slot_wr, written.land(older_slots[s]));
        gs.assign(tag_ok_o[w * kSlots + s], mux(slot_wr, new_ok[s], tag_ok[w * kSlots + s]));
        gs.assign(held_o[w * kSlots + s], mux(slot_wr, new_held[s], held[w * kSlots + s]));
        gs.assign(copy_o[w * kSlots + s], mux(slot_wr, new_copy[s], copy[w * kSlots + s]));
      });
    });
    return m;
  }
};

}  // namespace

const RtlBlock& match_fix_block() {
  static const MatchFix block;
  return block;
}

}  // namespace gen::blocks
