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

    m.comment("Phase cycle counter (window or bypass period), occupancy sum over a window, and the");
    m.comment("products of the miss-rate compares (13-bit counts times Q8 thresholds of at most 256).");
    Expr cycle_bits = m.localparam("CycleBits", clog2(mux(window.gt(period), window, period) + 1));
    Expr occ_bits = m.localparam("OccBits", clog2(max_warps * window + 1));
    Expr prod_bits = m.localparam("ProdBits", kCounterBits + 9);

    Expr bypass_d = m.logic("bypass_d");
    Expr bypass_q = m.logic("bypass_q");
    Expr cycle_d = m.logic("cycle_d", cycle_bits);
    Expr cycle_q = m.logic("cycle_q", cycle_bits);
    Expr accesses_d = m.logic("accesses_d", kCounterBits);
    Expr accesses_q = m.logic("accesses_q", kCounterBits);
    Expr misses_d = m.logic("misses_d", kCounterBits);
    Expr misses_q = m.logic("misses_q", kCounterBits);
    Expr occ_sum_d = m.logic("occ_sum_d", occ_bits);
    Expr occ_sum_q = m.logic("occ_sum_q", occ_bits);

    m.comment("1. Record the access (C mode only), each counter saturating.");
    Expr record = m.logic("record");
    Expr acc_rec = m.logic("acc_rec", kCounterBits);
    Expr miss_rec = m.logic("miss_rec", kCounterBits);
    m.assign(record, access.land(!bypass_q));
    m.assign(acc_rec, accesses_q + cast(kCounterBits, record.land(accesses_q.ne(ones()))));
    m.assign(miss_rec, misses_q + cast(kCounterBits, record.land(miss).land(misses_q.ne(ones()))));

    m.comment("2. Kernel start: a new window in C mode, monitors cleared.");
    Expr in_bypass = m.logic("in_bypass");
    Expr acc_cur = m.logic("acc_cur", kCounterBits);
    Expr miss_cur = m.logic("miss_cur", kCounterBits);
    m.assign(in_bypass, bypass_q.land(!kernel_start));
    m.assign(acc_cur, mux(kernel_start, zeros(), acc_rec));
    m.assign(miss_cur, mux(kernel_start, zeros(), miss_rec));

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

    m.comment("The decision at a window end, cross-multiplied as in the golden model (no division).");
    Expr miss_q8 = m.logic("miss_q8", prod_bits);
    Expr high_limit = m.logic("high_limit", prod_bits);
    Expr low_miss_rate = m.logic("low_miss_rate");
    Expr high_miss_rate = m.logic("high_miss_rate");
    Expr low_occupancy = m.logic("low_occupancy");
    Expr decide_bypass = m.logic("decide_bypass");
    m.assign(miss_q8, cast(prod_bits, concat({miss_cur, lit(8, 0)})));
    m.assign(high_limit, cast(prod_bits, th_high) * cast(prod_bits, acc_cur));
    m.assign(high_miss_rate, miss_q8.gt(high_limit));
    m.comment("A zero threshold makes a compare constant (nothing is below it): emitted as a constant.");
    m.gen_if(th_low.gt(0), "g_low_rate", [&](Scope& s) {
      Expr low_limit = s.logic("low_limit", prod_bits);
      s.assign(low_limit, cast(prod_bits, th_low) * cast(prod_bits, acc_cur));
      s.assign(low_miss_rate, miss_q8.lt(low_limit));
    }).else_("g_no_low_rate", [&](Scope& s) { s.assign(low_miss_rate, bit(false)); });
    m.gen_if(th_warp.gt(0), "g_low_occupancy", [&](Scope& s) {
      Expr occ_limit =
          s.localparam("OccLimitQ8", Type::logic(64), cast(64, th_warp) * cast(64, max_warps) * cast(64, window));
      s.assign(low_occupancy, cast(64, concat({occ_tick, lit(8, 0)})).lt(occ_limit));
    }).else_("g_no_low_occupancy", [&](Scope& s) { s.assign(low_occupancy, bit(false)); });
    m.assign(decide_bypass,
             acc_cur.ne(zeros()).land(!low_miss_rate).land(high_miss_rate.lor(low_occupancy)));

    m.always_comb({{bypass_d, in_bypass},
                   {cycle_d, cycle_tick},
                   {accesses_d, acc_cur},
                   {misses_d, miss_cur},
                   {occ_sum_d, occ_tick}},
                  [&](Block& b) {
                    b.if_(window_end.lor(period_end), [&](Block& e) {
                      e.comment("A window or a bypass period ends: the next phase starts with clear monitors.");
                      e.assign(bypass_d, window_end.land(decide_bypass));
                      e.assign(cycle_d, zeros());
                      e.assign(accesses_d, zeros());
                      e.assign(misses_d, zeros());
                      e.assign(occ_sum_d, zeros());
                    });
                  });

    m.always_ff({{bypass_q, bit(false)},
                 {cycle_q, zeros()},
                 {accesses_q, zeros()},
                 {misses_q, zeros()},
                 {occ_sum_q, zeros()}},
                [&](Block& b) {
                  b.assign(bypass_q, bypass_d);
                  b.assign(cycle_q, cycle_d);
                  b.assign(accesses_q, accesses_d);
                  b.assign(misses_q, misses_d);
                  b.assign(occ_sum_q, occ_sum_d);
                });

    m.assign(bypass, bypass_q);
    m.assign(accesses, accesses_q);
    m.assign(misses, misses_q);
    return m;
  }
};

}  // namespace

const RtlBlock& two_level_block() {
  static const TwoLevel block;
  return block;
}

}  // namespace gen::blocks
