// l1d_flush_keep: what a flush visit does to one line (docs/l1d-microarchitecture.md sections 7
// and 9): with DyCache's keep_large_pieces (and not at kernel end) every aligned piece of the
// granularity G that is complete and in order stays; every other valid slot is invalidated, the
// dirty ones written back. Combinational; the single-cycle l1d_top's flush walker and the staged
// L1's M1 and M2 use it. Golden counterpart: golden::L1::flush_step.
#include <string>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = 4;

class FlushKeep final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_flush_keep"; }
  std::string_view summary() const override {
    return "a flush visit of one line (sections 7, 9): the complete pieces it keeps, the slots it writes back";
  }

  Module module(const l1d::Config& cfg) const override {
    const unsigned ct_bits = l1d::AddressSplit(cfg.l1).chunk_tag_bits();
    Module m(name());
    m.describe("A flush visit of one line (contract sections 7, 9). The line: valid_i, chunk_tag_i (per slot),");
    m.describe("dirty_any_i (a slot holds a dirty byte); gran_i: G (0 32 B, 1 64 B, 2 128 B); keep_i: keep complete");
    m.describe("pieces (DyCache keep_large_pieces, not at a kernel-end flush). keep_o: the slots that stay;");
    m.describe("writeback_slots_o: the valid dirty slots that go; writebacks_o counts them.");
    const Expr valid = m.input("valid_i", kSlots);
    const Expr tag = m.input("chunk_tag_i", kSlots * ct_bits);
    const Expr dirty_any = m.input("dirty_any_i", kSlots);
    const Expr gran = m.input("gran_i", 2);
    const Expr keep_en = m.input("keep_i");
    const Expr keep = m.output("keep_o", kSlots);
    const Expr wb = m.output("writeback_slots_o", kSlots);
    const Expr wb_n = m.output("writebacks_o", 3);

    std::vector<Expr> slot_tag;
    for (unsigned s = 0; s < kSlots; ++s) {
      slot_tag.push_back(m.logic("tag" + std::to_string(s), ct_bits));
      m.assign(slot_tag[s], tag.part(Expr(s * ct_bits), ct_bits));
    }
    m.comment("A 64 B piece: two valid slots holding an aligned chunk pair in order; a 128 B piece: four.");
    Expr piece64 = m.logic("piece64", 2);
    Expr piece128 = m.logic("piece128");
    if (cfg.l1.pipeline == l1d::L1Pipeline::kStaged) {
      // The staged L1 visits at M2 (contract 16.5): the same pieces without the adders. With chunk c
      // aligned (its low bit, or its two low bits, 0), c + k only sets those bits, so "in order" is an
      // equal upper part and the low bits k: compares only (FlushKeepPieces_A checks the direct form).
      const unsigned hi = ct_bits - 1;
      for (unsigned p = 0; p < 2; ++p) {
        const unsigned s = 2 * p;
        m.assign(piece64[p], valid[s] & valid[s + 1] & !slot_tag[s][0] & slot_tag[s + 1][0] &
                                 slot_tag[s + 1].slice(hi, 1).eq(slot_tag[s].slice(hi, 1)));
      }
      Expr in_order = slot_tag[0].slice(1, 0).eq(lit(2, 0));
      for (unsigned k = 1; k < kSlots; ++k)
        in_order = in_order & slot_tag[k].slice(1, 0).eq(lit(2, k)) & slot_tag[k].slice(hi, 2).eq(slot_tag[0].slice(hi, 2));
      m.assign(piece128, red_and(valid) & in_order);
      m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
        v.comment("The pieces equal the direct form's (the single-cycle unit's adders).");
        Expr d64 = v.logic("fv_piece64", 2);
        for (unsigned p = 0; p < 2; ++p) {
          const unsigned s = 2 * p;
          v.assign(d64[p], valid[s] & valid[s + 1] & !slot_tag[s][0] & slot_tag[s + 1].eq(slot_tag[s] + cast(ct_bits, 1)));
        }
        Expr d128 = red_and(valid) & slot_tag[0].slice(1, 0).eq(lit(2, 0)) &
                    slot_tag[1].eq(slot_tag[0] + cast(ct_bits, 1)) & slot_tag[2].eq(slot_tag[0] + cast(ct_bits, 2)) &
                    slot_tag[3].eq(slot_tag[0] + cast(ct_bits, 3));
        v.assert_comb("FlushKeepPieces_A", piece64.eq(d64).land(piece128.eq(d128)));
      });
    } else {
      for (unsigned p = 0; p < 2; ++p) {
        const unsigned s = 2 * p;
        m.assign(piece64[p], valid[s] & valid[s + 1] & !slot_tag[s][0] & slot_tag[s + 1].eq(slot_tag[s] + cast(ct_bits, 1)));
      }
      m.assign(piece128, red_and(valid) & slot_tag[0].slice(1, 0).eq(lit(2, 0)) &
                             slot_tag[1].eq(slot_tag[0] + cast(ct_bits, 1)) & slot_tag[2].eq(slot_tag[0] + cast(ct_bits, 2)) &
                             slot_tag[3].eq(slot_tag[0] + cast(ct_bits, 3)));
    }
    m.assign(keep, mux(keep_en, mux(gran.eq(lit(2, 0)), valid,
                                    mux(gran.eq(lit(2, 1)), concat({piece64[1], piece64[1], piece64[0], piece64[0]}),
                                        repl(4, piece128))),
                       lit(4, 0)));
    m.assign(wb, ~keep & valid & dirty_any);
    m.assign(wb_n, cast(3, countones(wb)));
    return m;
  }
};

}  // namespace

const RtlBlock& flush_keep_block() {
  static const FlushKeep block;
  return block;
}

}  // namespace gen::blocks
