// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): the staged tag/state row's layout, and
// dcgen --variant conventional (gen/blocks/l1d_top_variant.h; docs/generator.md "Variants").
//
// The full staged top stores per way a common-tag, four chunk-tags, four 32-bit dirty byte masks,
// the hpc (AGCB's PC hash) and the awid (AgeLRU's warp id). The conventional L1 is the same staged
// pipe as a plain 128 B-line, LRU, write-back cache: the policy inputs are tied to the baseline
// inside the module (conventional_cfg), and the row stores per way one tag, i.e. the common-tag
// and the line-tag bits that the chunk-tags share (a 128 B block holds chunk s in slot s, so slot
// s's chunk-tag is {line-tag, s}), plus the dirty byte masks, which gtx480's write-back needs
// (contract 10: a write-back carries only the dirty bytes). No hpc, no awid: read as 0.
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

namespace {
constexpr unsigned kDirtyBits = kSlots * 32;  // a way's dirty byte masks

// Every slot's chunk-tag from the ways' line-tags (lw bits each): slot s of way w is {line-tag w, s}.
Expr chunk_tags_of(Module& m, const Expr& lines, unsigned ways, unsigned lw, unsigned ct_bits, const std::string& name) {
  Expr tags = m.logic(name, ways * kSlots * ct_bits);
  std::vector<Expr> msb_first;
  for (unsigned w = 0; w < ways; ++w) {
    for (unsigned s = 0; s < kSlots; ++s) msb_first.insert(msb_first.begin(), concat({lines.part(Expr(w * lw), lw), lit(2, s)}));
  }
  m.assign(tags, concat(msb_first));
  return tags;
}
}  // namespace

unsigned Top::staged_row_bits() const {
  if (conventional_) return ways_ * (cm_bits_ + (ct_bits_ - 2) + kDirtyBits);
  return rtl_staged_row_bits(cfg_);
}

// Both layouts start with the common-tags, then the chunk-tags (full) or line-tags (conventional).
Expr Top::staged_row_tags(const Expr& row, const std::string& name) {
  const unsigned slots = ways_ * kSlots;
  if (!conventional_) {
    Expr tags = m.logic(name, slots * ct_bits_);
    m.assign(tags, row.part(Expr(ways_ * cm_bits_), slots * ct_bits_));
    return tags;
  }
  const unsigned lw = ct_bits_ - 2;
  Expr lines = m.logic(name + "_line", ways_ * lw);
  m.assign(lines, row.part(Expr(ways_ * cm_bits_), ways_ * lw));
  return chunk_tags_of(m, lines, ways_, lw, ct_bits_, name);
}

std::vector<std::tuple<Expr, Expr, unsigned>> Top::staged_row_fields() {
  if (!conventional_) {
    return {{t_common, w_common, ways_ * cm_bits_},
            {t_tag, w_tag, ways_ * kSlots * ct_bits_},
            {t_dirty, w_dirty, ways_ * kDirtyBits},
            {t_hpc, w_hpc, ways_ * hpc_bits_},
            {t_awid, w_awid, ways_ * kAwidBits}};
  }
  const unsigned lw = ct_bits_ - 2;
  m.comment("Conventional row: one tag per way (common-tag, line-tag) and the dirty byte masks. The");
  m.comment("chunk-tags are the line-tag with the slot's chunk; no hpc, no awid (read as 0).");
  Expr t_line = m.logic("t_line_tag", ways_ * lw);
  Expr w_line = m.logic("w_line_tag", ways_ * lw);
  Expr unused_w = m.logic("unused_conv_row_writes");
  std::vector<Expr> unused;
  m.gen_for("g_conv_line", "gw", 0, ways_, [&](Scope& g, const Expr& w) {
    g.assign(w_line.part(w * lw, lw), w_tag.part(w * (kSlots * ct_bits_) + 2, lw));  // slot 0's line bits
  });
  for (unsigned w = 0; w < ways_; ++w) {
    for (unsigned s = 0; s < kSlots; ++s) {
      const unsigned lsb = (w * kSlots + s) * ct_bits_;
      unused.push_back(w_tag.part(Expr(lsb), s == 0 ? 2 : ct_bits_));  // slot 0's chunk, the others whole
    }
  }
  unused.push_back(w_hpc);
  unused.push_back(w_awid);
  m.assign(unused_w, red_or(concat(unused)));
  m.assign(t_tag, chunk_tags_of(m, t_line, ways_, lw, ct_bits_, "t_conv_chunk_tag"));
  m.assign(t_hpc, zeros());
  m.assign(t_awid, zeros());
  m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
    v.comment("--variant conventional: a written way's valid slots hold the chunks of one 128 B line, chunk s");
    v.comment("in slot s (what the one-tag row stores).");
    for (unsigned w = 0; w < ways_; ++w) {
      std::vector<Expr> ok;  // per slot: not written valid, or {its way's line-tag, its chunk}
      for (unsigned s = 0; s < kSlots; ++s) {
        const unsigned lsb = (w * kSlots + s) * ct_bits_;
        const Expr same = w_tag.part(Expr(lsb), ct_bits_).eq(concat({w_line.part(Expr(w * lw), lw), lit(2, s)}));
        ok.push_back((!(w_en[Expr(w)] & w_valid[Expr(w * kSlots + s)])).lor(same));
      }
      v.assert_comb("ConvOneTagWay" + std::to_string(w) + "_A", red_and(concat(ok)));
    }
  });
  return {{t_common, w_common, ways_ * cm_bits_}, {t_line, w_line, ways_ * lw}, {t_dirty, w_dirty, ways_ * kDirtyBits}};
}

void Top::conventional_cfg() {
  m.comment("--variant conventional: the policy inputs tied to the baseline (no bypass, fixed 128 B, no BTO,");
  m.comment("no opportunistic caching, no keep-large); the registered inputs are only checked.");
  const std::vector<Expr> regs = {cfg_bypass, cfg_gran, cfg_bto, cfg_opp, cfg_keep};
  cfg_bypass = m.logic("base_bypass", 3);
  cfg_gran = m.logic("base_gran", 2);
  cfg_bto = m.logic("base_bto");
  cfg_opp = m.logic("base_opportunistic");
  cfg_keep = m.logic("base_keep_large");
  for (const Expr& e : {cfg_bypass, cfg_gran, cfg_bto, cfg_opp, cfg_keep}) m.assign(e, zeros());
  Expr inputs = m.logic("unused_conv_cfg_q", 3 + 2 + 3);
  m.assign(inputs, concat(regs));
  m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
    v.comment("The conventional L1 runs the baseline policy only: its policy inputs must say so.");
    v.assert_clocked("ConvBaselinePolicy_A", inputs.eq(zeros()));
  });
}

}  // namespace gen::blocks::top_gen
