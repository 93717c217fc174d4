// l1d_fill_place_m1: the half of the fill unit's placement decision (docs/l1d-microarchitecture.md
// section 6, step 0 of a fill) that reads no flip-flop state: the set's common-tags (SRAM fields)
// against the block's, and whether the block may allocate at all (its bypass reason and size
// against G). Combinational.
//
// Why a unit of its own: the staged L1 (contract 16.5) registers it at M1; the valid, priority,
// rank and any-dirty bits, the victim and the AgeLRU ages are flip-flops read at M2
// (l1d_fill_place_m2). l1d_fill_place composes the two in one cycle, so the single-cycle l1d_top's
// lockstep checks both. Golden counterpart: the common-tag test of golden::L1::choose_placement
// and the allocation rule of section 6.
#include <algorithm>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

class FillPlaceM1 final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_fill_place_m1"; }
  std::string_view summary() const override {
    return "fill placement, stage M1: the set's common-tags against the block's, and whether it may allocate";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);
    const unsigned ways = cfg.l1.ways;
    const unsigned cm_bits = std::max(split.common_tag_bits(), 1U);
    Module m(name());
    m.describe("The fill's placement, the part that reads no flip-flop (contract section 6; stage M1 of 16.5).");
    m.describe("row_common_tag_i: the set's common-tags (SRAM fields); the block: common_i, slots_i (1, 2 or 4");
    m.describe("chunks), bypass_i (0 none, 1 AGCB, 2 two-level, 3 PCAL), l2_bit_i, gran_i (G: 0 32 B, 1 64 B,");
    m.describe("2 128 B), cfg_opportunistic_i. common_eq_o[w]: way w's common-tag is the block's; wanted_o: the");
    m.describe("block allocates unless AGCB without the L2's bit, two-level, PCAL without opportunistic caching,");
    m.describe("or a block smaller than G (fetched before a small-to-large switch).");

    const Expr common = m.input("row_common_tag_i", ways * cm_bits);
    const Expr fill_common = m.input("common_tag_i", cm_bits);
    const Expr slots = m.input("slots_i", 3);
    const Expr bypass = m.input("bypass_i", 2);
    const Expr l2_bit = m.input("l2_bit_i");
    const Expr gran = m.input("gran_i", 2);
    const Expr opportunistic = m.input("cfg_opportunistic_i");
    const Expr common_eq = m.output("common_eq_o", ways);
    const Expr wanted = m.output("wanted_o");

    m.gen_for("g_way", "gw", 0, ways, [&](Scope& g, const Expr& w) {
      g.assign(common_eq[w], common.part(w * cm_bits, cm_bits).eq(fill_common));
    });
    m.comment("The block's size code (0 32 B, 1 64 B, 2 128 B) from its chunk count.");
    Expr size = m.logic("size", 2);
    m.assign(size, mux(slots.eq(lit(3, 4)), lit(2, 2), mux(slots.eq(lit(3, 2)), lit(2, 1), lit(2, 0))));
    m.assign(wanted, (bypass.eq(lit(2, 0)) | (bypass.eq(lit(2, 1)) & l2_bit) | (bypass.eq(lit(2, 3)) & opportunistic)) &
                         size.ge(gran));
    return m;
  }
};

}  // namespace

const RtlBlock& fill_place_m1_block() {
  static const FillPlaceM1 block;
  return block;
}

}  // namespace gen::blocks
