// l1d_pcal_tokens: the PCAL warp-token unit of one warp scheduler (SPEC section 7; golden model:
// golden::PcalTokenUnit). Tokens sit on the oldest resident warps, up to a limit.
//
// The age order is kept as one age rank per warp slot (0 = oldest resident warp), i.e. launch
// sequence numbers kept compact: a launch gets the number of resident warps, an exit lowers
// the ranks above the leaving warp's by one. Then "the holders are the min(limit, resident)
// oldest resident warps" (golden::PcalTokenUnit's invariant) is simply rank < limit, one
// comparator per warp. Why not a free-running launch counter: a warp may stay resident
// through any number of later launches, so finite numbers wrap and stop being exact. Why not
// an age matrix: MaxWarps^2 flops and a MaxWarps-input population count per warp to get the
// rank, against MaxWarps * $clog2(MaxWarps) flops here.
//
// MaxWarps is the warp slots of one scheduler (gen/blocks/pcal_warps.h): the SM has one unit
// per scheduler, as sim_cpp's Sm has one golden::PcalTokenUnit per scheduler.
#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/pcal_warps.h"

namespace gen::blocks {
namespace {

class PcalTokens final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_pcal_tokens"; }
  std::string_view summary() const override {
    return "PCAL warp tokens of one scheduler: per-warp age ranks, tokens on the oldest warps up to a limit (SPEC 7)";
  }

  Module module(const l1d::Config& cfg) const override {
    Module m(name());
    m.describe("PCAL warp-token unit of one warp scheduler (SPEC section 7, golden::PcalTokenUnit). Warps are");
    m.describe("its slots 0..MaxWarps-1; age is launch order. Each resident warp has an age rank, 0 = oldest,");
    m.describe("ranks 0..resident-1 (compact launch sequence numbers). Outputs, combinational on registered state:");
    m.describe("  resident_o[w]; token_o[w] = resident and rank < limit, i.e. the tokens are on the min(limit,");
    m.describe("  resident) oldest resident warps: a holder keeps its token until it exits, and then the token");
    m.describe("  passes to the oldest warp without one. Reset: nothing resident, limit = MaxWarps (all hold).");
    m.describe("Registered updates; one cycle applies launch, then exit, then set_tokens, the simulator's order");
    m.describe("(sim_cpp Sm: launch events, then exits at issue; the PCAL controller sets the token count");
    m.describe("between cycles). The state after a cycle depends on that order only when launch_warp_i ==");
    m.describe("exit_warp_i: the warp launches and exits in that cycle (it may issue its exit at once).");
    m.describe("  launch_i: the warp becomes the youngest (rank = resident count); it holds a token iff");
    m.describe("  fewer than limit warps are resident before it.");
    m.describe("  exit_i: the ranks of the younger resident warps drop by one (a holder's token passes on).");
    m.describe("  set_tokens_i: limit = tokens_i; it counts at once (extra tokens to the oldest non-holders,");
    m.describe("  surplus ones off the youngest holders). A limit above MaxWarps acts as MaxWarps (no clamp");
    m.describe("  needed: every rank is below MaxWarps).");
    m.describe("Illegal requests (the golden model throws) change nothing: a launch of a resident warp or of a");
    m.describe("slot >= MaxWarps, an exit of a warp not resident after this cycle's launch.");
    m.describe("WarpIdxBits and CountBits are port widths derived from MaxWarps (do not override them).");
    Expr max_warps = m.param("MaxWarps", pcal_max_warps(cfg));
    Expr idx_bits = m.param("WarpIdxBits", mux(max_warps.gt(1), clog2(max_warps), 1));
    Expr count_bits = m.param("CountBits", clog2(max_warps + 1));

    m.clk();
    m.rst_n();
    Expr launch = m.input("launch_i");
    Expr launch_warp = m.input("launch_warp_i", idx_bits);
    Expr exit_in = m.input("exit_i");
    Expr exit_warp = m.input("exit_warp_i", idx_bits);
    Expr set_tokens = m.input("set_tokens_i");
    Expr tokens = m.input("tokens_i", count_bits);
    Expr token_o = m.output("token_o", max_warps);
    Expr resident_o = m.output("resident_o", max_warps);

    Expr count_d = m.logic("count_d", count_bits);
    Expr count_q = m.logic("count_q", count_bits);
    Expr limit_d = m.logic("limit_d", count_bits);
    Expr limit_q = m.logic("limit_q", count_bits);

    m.comment("Per-warp decodes of the warp numbers, and the registered resident bits.");
    Expr launch_sel = m.logic("launch_sel", max_warps);
    Expr exit_sel = m.logic("exit_sel", max_warps);
    Expr resident = m.logic("resident", max_warps);
    m.comment("After this cycle's launch: the resident bits, and every warp's rank at [w*WarpIdxBits +:");
    m.comment("WarpIdxBits] (the launched warp's is the old resident count).");
    Expr resident_mid = m.logic("resident_mid", max_warps);
    Expr ranks_mid = m.logic("ranks_mid", max_warps * idx_bits);

    m.comment("The requests that take effect: a launch of a free slot, an exit of a warp resident after it.");
    Expr launch_ok = m.logic("launch_ok");
    Expr exit_ok = m.logic("exit_ok");
    Expr exit_rank = m.logic("exit_rank", idx_bits);
    m.assign(launch_ok, launch.land(red_or(launch_sel & ~resident)));
    m.assign(exit_ok, exit_in.land(red_or(exit_sel & resident_mid)));
    m.comment("Read only when exit_ok, i.e. when exit_warp_i < MaxWarps.");
    m.assign(exit_rank, ranks_mid.part(exit_warp * idx_bits, idx_bits));

    m.always_comb({{count_d, count_q}}, [&](Block& b) {
      b.if_(launch_ok.land(!exit_ok), [&](Block& t) { t.assign(count_d, count_q + cast(count_bits, 1)); })
          .else_if(exit_ok.land(!launch_ok), [&](Block& t) { t.assign(count_d, count_q - cast(count_bits, 1)); });
    });
    m.assign(limit_d, mux(set_tokens, tokens, limit_q));
    m.always_ff({{count_q, zeros()}, {limit_q, cast(count_bits, max_warps)}}, [&](Block& b) {
      b.assign(count_q, count_d);
      b.assign(limit_q, limit_d);
    });

    m.gen_for("g_warp", "w", 0, max_warps, [&](Scope& s, const Expr& w) {
      Expr resident_d = s.logic("resident_d");
      Expr resident_q = s.logic("resident_q");
      Expr rank_d = s.logic("rank_d", idx_bits);
      Expr rank_q = s.logic("rank_q", idx_bits);
      Expr launched = s.logic("launched");
      Expr rank_mid = s.logic("rank_mid", idx_bits);
      Expr older_exits = s.logic("older_exits");
      s.assign(launch_sel[w], launch_warp.eq(cast(idx_bits, w)));
      s.assign(exit_sel[w], exit_warp.eq(cast(idx_bits, w)));
      s.assign(resident[w], resident_q);
      s.assign(launched, launch_ok.land(launch_sel[w]));
      s.assign(resident_mid[w], resident_q.lor(launched));
      s.assign(rank_mid, mux(launched, cast(idx_bits, count_q), rank_q));
      s.assign(ranks_mid.part(w * idx_bits, idx_bits), rank_mid);
      s.comment("A resident warp younger than the exiting one moves up one place.");
      s.assign(older_exits, exit_ok.land(resident_mid[w]).land(rank_mid.gt(exit_rank)));
      s.assign(resident_d, resident_mid[w].land(!exit_ok.land(exit_sel[w])));
      s.assign(rank_d, mux(older_exits, rank_mid - cast(idx_bits, 1), rank_mid));
      s.always_ff({{resident_q, bit(false)}, {rank_q, zeros()}}, [&](Block& b) {
        b.assign(resident_q, resident_d);
        b.assign(rank_q, rank_d);
      });
      s.assign(token_o[w], resident_q.land(cast(count_bits, rank_q).lt(limit_q)));
    });
    m.assign(resident_o, resident);
    return m;
  }
};

}  // namespace

const RtlBlock& pcal_tokens_block() {
  static const PcalTokens block;
  return block;
}

}  // namespace gen::blocks
