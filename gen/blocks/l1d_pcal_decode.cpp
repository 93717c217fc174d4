// l1d_pcal_decode: the PCAL EBTNum decode of one warp scheduler (SPEC section 7; golden model:
// golden::pcal_decode). Combinational: (warp-opt, EBTNum) -> (active warps, tokens), whose
// tokens_o is what l1d_pcal_tokens' tokens_i takes and active_warps_o the scheduler's issue limit.
//
// The ports are as narrow as the distinct behaviours: warp-opt up to 2^CountBits - 1 (at least
// MaxWarps) and EBTNum in [-2^CountBits, 2^CountBits - 1]. Any EBTNum beyond that range decodes
// like the nearest end of it for every warp-opt the port can carry (a positive one caps the
// active warps at MaxWarps, a negative one leaves one token), so a wider EBTNum register is
// clamped to the port by whoever drives it; the testbench checks that claim on the golden model.
#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/pcal_warps.h"

namespace gen::blocks {
namespace {

class PcalDecode final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_pcal_decode"; }
  std::string_view summary() const override {
    return "PCAL EBTNum decode of one scheduler: (warp-opt, EBTNum) -> (active warps, tokens) (SPEC 7)";
  }

  Module module(const l1d::Config& cfg) const override {
    Module m(name());
    m.describe("PCAL EBTNum decode of one warp scheduler (SPEC section 7, golden::pcal_decode), combinational.");
    m.describe("EBTNum 0: active = tokens = warp-opt (pure throttling). EBTNum > 0: active = warp-opt + EBTNum,");
    m.describe("tokens = warp-opt (extra non-token warps). EBTNum < 0: active = warp-opt, tokens = max(1,");
    m.describe("warp-opt + EBTNum). Then active is capped at MaxWarps and tokens at active.");
    m.describe("ebt_num_i is two's complement. warp_opt_i = 0 (refused by the golden model) gives tokens 0 and");
    m.describe("active = min(max(EBTNum, 0), MaxWarps). An EBTNum outside the port decodes like the port's");
    m.describe("nearest value: clamp a wider register. CountBits and EbtBits are port widths derived from");
    m.describe("MaxWarps (do not override them); MaxWarps is the warp slots of one scheduler.");
    Expr max_warps = m.param("MaxWarps", pcal_max_warps(cfg));
    Expr count_bits = m.param("CountBits", clog2(max_warps + 1));
    Expr ebt_bits = m.param("EbtBits", count_bits + 1);

    Expr warp_opt = m.input("warp_opt_i", count_bits);
    Expr ebt_num = m.input("ebt_num_i", ebt_bits);
    Expr active_o = m.output("active_warps_o", count_bits);
    Expr tokens_o = m.output("tokens_o", count_bits);

    m.comment("Unsigned arithmetic on EbtBits = CountBits + 1 bits: warp-opt + a positive EBTNum is at most");
    m.comment("2^(CountBits+1) - 2, and a negative EBTNum's magnitude at most 2^CountBits.");
    Expr ebt_neg = m.logic("ebt_neg");
    Expr ebt_pos = m.logic("ebt_pos");
    Expr opt_wide = m.logic("opt_wide", ebt_bits);
    Expr ebt_mag = m.logic("ebt_mag", ebt_bits);
    Expr active_raw = m.logic("active_raw", ebt_bits);
    Expr tokens_raw = m.logic("tokens_raw", ebt_bits);
    Expr active = m.logic("active", ebt_bits);
    m.assign(ebt_neg, ebt_num[ebt_bits - 1]);
    m.assign(ebt_pos, (!ebt_neg).land(ebt_num.ne(zeros())));
    m.assign(opt_wide, concat({bit(false), warp_opt}));
    m.assign(ebt_mag, ~ebt_num + cast(ebt_bits, 1));

    m.comment("Strategy one (EBTNum > 0) adds non-token warps; strategy two (< 0) takes tokens, keeping one.");
    m.assign(active_raw, mux(ebt_pos, opt_wide + ebt_num, opt_wide));
    m.assign(tokens_raw, mux(ebt_neg, mux(opt_wide.gt(ebt_mag), opt_wide - ebt_mag, cast(ebt_bits, 1)), opt_wide));
    m.comment("The scheduler has MaxWarps slots, and a token needs an active warp.");
    m.assign(active, mux(active_raw.gt(cast(ebt_bits, max_warps)), cast(ebt_bits, max_warps), active_raw));
    m.assign(active_o, cast(count_bits, active));
    m.assign(tokens_o, cast(count_bits, mux(tokens_raw.gt(active), active, tokens_raw)));
    return m;
  }
};

}  // namespace

const RtlBlock& pcal_decode_block() {
  static const PcalDecode block;
  return block;
}

}  // namespace gen::blocks
