// l1d_two_level: the two-level bypassing decision unit of one SM (SPEC section 6, Kim & Kim;
// golden model: golden::TwoLevelBypassUnit, whose cycle semantics it follows exactly).
// The Q8 thresholds are computed here from the configuration the way the golden model rounds
// them (round(th * 256)), so both sides compare the same integers.
#include <cmath>
#include <string>

#include "common/config.h"
#include "gen/blocks/block.h"
#include "golden/two_level_bypass.h"

namespace gen::blocks {
namespace {

constexpr unsigned kCounterBits = 13;  // golden::TwoLevelBypassUnit::kCounterMax = 2^13 - 1
static_assert(l1d::golden::TwoLevelBypassUnit::kCounterMax == (1U << kCounterBits) - 1);

uint32_t to_q8(double th, const char* name) {
  if (!(th >= 0.0 && th <= 1.0)) {
    throw l1d::ConfigError(std::string("l1d_two_level: two_level.") + name + " must be in [0, 1]");
  }
  return static_cast<uint32_t>(std::lround(th * 256.0));
}

class TwoLevel final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_two_level"; }
  std::string_view summary() const override {
    return "two-level bypassing: 13-bit access/miss counters, occupancy accumulator, C/B decision and periods (SPEC 6)";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::TwoLevelConfig& t = cfg.policy.two_level;
    if (t.window_cycles == 0 || t.bypass_period_cycles == 0 || cfg.core.warps_per_sm == 0) {
      throw l1d::ConfigError("l1d_two_level: window, bypass period and warps per SM must be > 0");
    }
    Module m(name());
    m.describe("Two-level L1D bypassing of one SM (SPEC section 6), the cycle semantics of");
    m.describe("golden::TwoLevelBypassUnit. Per cycle, in this order: access_i (with miss_i) is counted when");
    m.describe("sampling (C mode; 13-bit saturating counters); kernel_start_i starts a new window; then the");
    m.describe("cycle ends: the phase cycle counts up and, in C mode, occupancy_i is added to the occupancy sum.");
    m.describe("The cycle that completes WindowCycles decides (with this cycle's counts): no accesses -> C;");
    m.describe("misses*256 < ThLowQ8*accesses -> C; misses*256 > ThHighQ8*accesses -> B;");
    m.describe("occupancy_sum*256 < ThWarpQ8*MaxWarps*WindowCycles -> B; else C. C starts a new window at");
    m.describe("once; B clears the monitors and lasts BypassPeriodCycles cycles, then a window starts in C mode.");
    m.describe("bypass_o is the registered mode (loads bypass L1 in B mode); accesses_o and misses_o the counters.");
    m.describe("Thresholds are Q8 fixed point, round(th * 256), computed by the generator from the configuration.");
    Expr window = m.param("WindowCycles", t.window_cycles);
    Expr period = m.param("BypassPeriodCycles", t.bypass_period_cycles);
    Expr max_warps = m.param("MaxWarps", cfg.core.warps_per_sm);
    Expr th_low = m.param("ThLowQ8", to_q8(t.th_low, "th_low"));
    Expr th_high = m.param("ThHighQ8", to_q8(t.th_high, "th_high"));
    Expr th_warp = m.param("ThWarpQ8", to_q8(t.th_warp, "th_warp"));

    m.clk();
    m.rst_n();
    Expr access = m.input("access_i");
    Expr miss = m.input("miss_i");
    Expr occupancy = m.input("occupancy_i", clog2(max_warps + 1));
    Expr kernel_start = m.input("kernel_start_i");
    Expr bypass = m.output("bypass_o");
    Expr accesses = m.output("accesses_o", kCounterBits);
    Expr misses = m.output("misses_o", kCounterBits);

    m.comment("Phase cycle counter (window or bypass period) and occupancy sum over a window. The counters");
    m.comment("saturate at 2^13 - 1 as the golden model's, but a window records at most one access a cycle");
    m.comment("for at most WindowCycles cycles, so they need only CountBits (13 for a window of 4096 or more).");
    Expr cycle_bits = m.localparam("CycleBits", clog2(mux(window.gt(period), window, period) + 1));
    Expr occ_bits = m.localparam("OccBits", clog2(max_warps * window + 1));
    Expr cnt_max = m.localparam("CounterMax", Expr((1U << kCounterBits) - 1));
    Expr count_bits = m.localparam("CountBits", clog2(mux(window.lt(cnt_max), window, cnt_max) + 1));
    m.comment("The miss-rate compares' products (a count times a Q8 threshold of at most 256) are kept as");
    m.comment("running sums beside the counts (one threshold added per recorded access), so no multiply is");
    m.comment("in any cycle, and the decision is prepared for each way this cycle's access may count.");
    Expr prod_bits = m.localparam("ProdBits", count_bits + 9);

    Expr bypass_d = m.logic("bypass_d");
    Expr bypass_q = m.logic("bypass_q");
    Expr cycle_d = m.logic("cycle_d", cycle_bits);
    Expr cycle_q = m.logic("cycle_q", cycle_bits);
    Expr accesses_d = m.logic("accesses_d", count_bits);
    Expr accesses_q = m.logic("accesses_q", count_bits);
    Expr misses_d = m.logic("misses_d", count_bits);
    Expr misses_q = m.logic("misses_q", count_bits);
    Expr high_d = m.logic("high_d", prod_bits);  // ThHighQ8 * accesses_q
    Expr high_q = m.logic("high_q", prod_bits);
    Expr low_d = m.logic("low_d", prod_bits);  // ThLowQ8 * accesses_q
    Expr low_q = m.logic("low_q", prod_bits);
    Expr occ_sum_d = m.logic("occ_sum_d", occ_bits);
    Expr occ_sum_q = m.logic("occ_sum_q", occ_bits);

    m.comment("1. Record the access (C mode only), each counter saturating.");
    Expr record = m.logic("record");
    Expr inc_acc = m.logic("inc_acc");
    Expr inc_miss = m.logic("inc_miss");
    m.assign(record, access.land(!bypass_q));
    m.assign(inc_acc, record.land(accesses_q.ne(cast(count_bits, cnt_max))));
    m.assign(inc_miss, record.land(miss).land(misses_q.ne(cast(count_bits, cnt_max))));
    Expr high_inc = m.logic("high_inc", prod_bits);
    Expr low_inc = m.logic("low_inc", prod_bits);
    m.assign(high_inc, high_q + cast(prod_bits, th_high));
    m.assign(low_inc, low_q + cast(prod_bits, th_low));

    m.comment("2. Kernel start: a new window in C mode, monitors cleared (this cycle's access with them).");
    Expr in_bypass = m.logic("in_bypass");
    Expr acc_cur = m.logic("acc_cur", count_bits);
    Expr miss_cur = m.logic("miss_cur", count_bits);
    Expr high_cur = m.logic("high_cur", prod_bits);
    Expr low_cur = m.logic("low_cur", prod_bits);
    m.assign(in_bypass, bypass_q.land(!kernel_start));
    m.assign(acc_cur, mux(kernel_start, zeros(), accesses_q + cast(count_bits, inc_acc)));
    m.assign(miss_cur, mux(kernel_start, zeros(), misses_q + cast(count_bits, inc_miss)));
    m.assign(high_cur, mux(kernel_start, zeros(), mux(inc_acc, high_inc, high_q)));
    m.assign(low_cur, mux(kernel_start, zeros(), mux(inc_acc, low_inc, low_q)));

    m.comment("3. The cycle ends: count it, sum the occupancy while sampling, close the phase at its length.");
    Expr cycle_tick = m.logic("cycle_tick", cycle_bits);
    Expr occ_tick = m.logic("occ_tick", occ_bits);
    Expr window_end = m.logic("window_end");
    Expr period_end = m.logic("period_end");
    m.assign(cycle_tick, mux(kernel_start, zeros(), cycle_q) + cast(cycle_bits, 1));
    m.assign(occ_tick, mux(kernel_start.lor(in_bypass), zeros(), occ_sum_q) +
                           mux(in_bypass, zeros(), cast(occ_bits, occupancy)));
    m.assign(window_end, (!in_bypass).land(cycle_tick.eq(cast(cycle_bits, window))));
    m.assign(period_end, in_bypass.land(cycle_tick.eq(cast(cycle_bits, period))));

    m.comment("The decision at a window end, cross-multiplied as in the golden model (no division): for each");
    m.comment("(access counted, miss counted) from the registers, then chosen by this cycle's increments.");
    Expr miss_q8 = m.logic("miss_q8", prod_bits);
    Expr miss_inc_q8 = m.logic("miss_inc_q8", prod_bits);
    m.assign(miss_q8, cast(prod_bits, concat({misses_q, lit(8, 0)})));
    m.assign(miss_inc_q8, miss_q8 + cast(prod_bits, 256));
    Expr decide_var = m.logic("decide_var", 4);  // bit 2 * inc_acc + inc_miss
    Expr low_occupancy = m.logic("low_occupancy");
    for (unsigned v = 0; v < 4; ++v) {
      const bool a = (v & 2) != 0, b = (v & 1) != 0;
      const Expr mq = b ? miss_inc_q8 : miss_q8;
      const Expr hi = a ? high_inc : high_q;
      const Expr lo = a ? low_inc : low_q;
      const std::string sfx = std::to_string(v);
      Expr high_rate = m.logic("high_miss_rate_" + sfx);
      Expr low_rate = m.logic("low_miss_rate_" + sfx);
      m.assign(high_rate, mq.gt(hi));
      m.comment("A zero threshold makes a compare constant (nothing is below it): emitted as a constant.");
      m.gen_if(th_low.gt(0), "g_low_rate_" + sfx, [&](Scope& sc) { sc.assign(low_rate, mq.lt(lo)); })
          .else_("g_no_low_rate_" + sfx, [&](Scope& sc) { sc.assign(low_rate, bit(false)); });
      // An access counted makes the count non-zero (it is below the maximum before).
      const Expr nonzero = a ? bit(true) : accesses_q.ne(zeros());
      m.assign(decide_var[Expr(v)], nonzero.land(!low_rate).land(high_rate.lor(low_occupancy)));
    }
    m.comment("occ_tick * 256 < OccLimitQ8 iff occ_tick < ceil(OccLimitQ8 / 256), which is at most");
    m.comment("MaxWarps * WindowCycles and so fits OccBits.");
    m.gen_if(th_warp.gt(0), "g_low_occupancy", [&](Scope& sc) {
      Expr occ_limit = sc.localparam("OccLimit", Type::logic(64),
                                     (cast(64, th_warp) * cast(64, max_warps) * cast(64, window) + cast(64, 255)) /
                                         cast(64, 256));
      sc.assign(low_occupancy, occ_tick.lt(cast(occ_bits, occ_limit)));
    }).else_("g_no_low_occupancy", [&](Scope& sc) { sc.assign(low_occupancy, bit(false)); });
    Expr decide_bypass = m.logic("decide_bypass");
    m.assign(decide_bypass, (!kernel_start).land(decide_var[concat({inc_acc, inc_miss})]));

    m.always_comb({{bypass_d, in_bypass},
                   {cycle_d, cycle_tick},
                   {accesses_d, acc_cur},
                   {misses_d, miss_cur},
                   {high_d, high_cur},
                   {low_d, low_cur},
                   {occ_sum_d, occ_tick}},
                  [&](Block& b) {
                    b.if_(window_end.lor(period_end), [&](Block& e) {
                      e.comment("A window or a bypass period ends: the next phase starts with clear monitors.");
                      e.assign(bypass_d, window_end.land(decide_bypass));
                      e.assign(cycle_d, zeros());
                      e.assign(accesses_d, zeros());
                      e.assign(misses_d, zeros());
                      e.assign(high_d, zeros());
                      e.assign(low_d, zeros());
                      e.assign(occ_sum_d, zeros());
                    });
                  });

    m.always_ff({{bypass_q, bit(false)},
                 {cycle_q, zeros()},
                 {accesses_q, zeros()},
                 {misses_q, zeros()},
                 {high_q, zeros()},
                 {low_q, zeros()},
                 {occ_sum_q, zeros()}},
                [&](Block& b) {
                  b.assign(bypass_q, bypass_d);
                  b.assign(cycle_q, cycle_d);
                  b.assign(accesses_q, accesses_d);
                  b.assign(misses_q, misses_d);
                  b.assign(high_q, high_d);
                  b.assign(low_q, low_d);
                  b.assign(occ_sum_q, occ_sum_d);
                });

    m.assign(bypass, bypass_q);
    m.assign(accesses, cast(kCounterBits, accesses_q));
    m.assign(misses, cast(kCounterBits, misses_q));
    return m;
  }
};

}  // namespace

const RtlBlock& two_level_block() {
  static const TwoLevel block;
  return block;
}

}  // namespace gen::blocks
