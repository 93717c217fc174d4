// l1d_gran_selector: the DyCache granularity selector (SPEC section 4, paper Fig. 7; golden
// model: golden::GranularitySelector). Samples SampleRequests recorded requests, then decides.
#include <string>

#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

class GranSelector final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_gran_selector"; }
  std::string_view summary() const override {
    return "granularity selector: sample counters, miss-rate and fine-access thresholds, decision (SPEC 4)";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::DyCacheConfig& d = cfg.policy.dycache;
    if (d.sample_requests == 0 || d.threshold_pct > 100) {
      throw l1d::ConfigError("l1d_gran_selector: dycache.sample_requests must be >= 1 and threshold_pct <= 100");
    }
    Module m(name());
    m.describe("DyCache granularity selector (SPEC section 4, golden::GranularitySelector).");
    m.describe("Each cycle with record_i counts one L1 request: size_i (0 = 32 B, 1 = 64 B, 2 = 128 B; the");
    m.describe("illegal 3 counts as neither 32 B nor 64 B) and miss_i (a miss or a partial hit). The request");
    m.describe("that completes a sample of SampleRequests decides with the sample's counts, n = SampleRequests:");
    m.describe("  poor locality: misses * 100 > ThresholdPct * n; fine access: (n32 + n64) * 100 > ThresholdPct * n;");
    m.describe("  good locality keeps gran_o; poor and fine -> 32 B if n32 > n64, else 64 B; poor and coarse -> 128 B;");
    m.describe("then a new sample starts. For integers, x * 100 > ThresholdPct * n <=> x > Limit with the constant");
    m.describe("Limit = ThresholdPct * n / 100 (rounded down), so the compares need no multiplier.");
    m.describe("gran_o resets to ResetGran; switch_o pulses for one cycle with a changed gran_o (both registered).");
    m.describe("next_gran_o / next_switch_o: what this cycle's request makes of them at the edge (combinational;");
    m.describe("the staged L1 starts a flush walk in the cycle its stage M2 decides the switch, contract 16.3).");
    Expr samples = m.param("SampleRequests", d.sample_requests);
    Expr threshold = m.param("ThresholdPct", d.threshold_pct);
    Expr reset_gran = m.param("ResetGran", Type::logic(2), lit(2, 2));

    m.clk();
    m.rst_n();
    Expr record = m.input("record_i");
    Expr size = m.input("size_i", 2);
    Expr miss = m.input("miss_i");
    Expr gran = m.output("gran_o", 2);
    Expr switch_o = m.output("switch_o");
    Expr next_gran = m.output("next_gran_o", 2);
    Expr next_switch = m.output("next_switch_o");

    Expr count_bits = m.localparam("CountBits", clog2(samples + 1));
    Expr limit = m.localparam("Limit", threshold * samples / 100);

    Expr gran_d = m.logic("gran_d", 2);
    Expr gran_q = m.logic("gran_q", 2);
    Expr switch_d = m.logic("switch_d");
    Expr switch_q = m.logic("switch_q");
    Expr sampled_d = m.logic("sampled_d", count_bits);
    Expr sampled_q = m.logic("sampled_q", count_bits);
    Expr misses_d = m.logic("misses_d", count_bits);
    Expr misses_q = m.logic("misses_q", count_bits);
    Expr n32_d = m.logic("n32_d", count_bits);
    Expr n32_q = m.logic("n32_q", count_bits);
    Expr n64_d = m.logic("n64_d", count_bits);
    Expr n64_q = m.logic("n64_q", count_bits);

    m.comment("The sample's counts including this cycle's request.");
    Expr misses_new = m.logic("misses_new", count_bits);
    Expr n32_new = m.logic("n32_new", count_bits);
    Expr n64_new = m.logic("n64_new", count_bits);
    Expr fine_new = m.logic("fine_new", count_bits);
    m.assign(misses_new, misses_q + cast(count_bits, record.land(miss)));
    m.assign(n32_new, n32_q + cast(count_bits, record.land(size.eq(lit(2, 0)))));
    m.assign(n64_new, n64_q + cast(count_bits, record.land(size.eq(lit(2, 1)))));
    m.assign(fine_new, n32_new + n64_new);

    m.comment("The decision, taken by the request that completes the sample.");
    Expr sample_end = m.logic("sample_end");
    Expr poor_locality = m.logic("poor_locality");
    Expr fine_access = m.logic("fine_access");
    Expr decision = m.logic("decision", 2);
    m.assign(sample_end, record.land(sampled_q.eq(cast(count_bits, samples - 1))));
    m.assign(poor_locality, misses_new.gt(cast(count_bits, limit)));
    m.assign(fine_access, fine_new.gt(cast(count_bits, limit)));
    m.always_comb({{decision, gran_q}}, [&](Block& b) {
      b.if_(poor_locality.land(fine_access), [&](Block& t) {
        t.assign(decision, mux(n32_new.gt(n64_new), lit(2, 0), lit(2, 1)));
      }).else_if(poor_locality, [&](Block& t) { t.assign(decision, lit(2, 2)); });
    });

    m.always_comb({{gran_d, gran_q},
                   {switch_d, bit(false)},
                   {sampled_d, sampled_q},
                   {misses_d, misses_q},
                   {n32_d, n32_q},
                   {n64_d, n64_q}},
                  [&](Block& b) {
                    b.if_(sample_end, [&](Block& t) {
                      t.assign(gran_d, decision);
                      t.assign(switch_d, decision.ne(gran_q));
                      t.assign(sampled_d, zeros());
                      t.assign(misses_d, zeros());
                      t.assign(n32_d, zeros());
                      t.assign(n64_d, zeros());
                    }).else_if(record, [&](Block& t) {
                      t.assign(sampled_d, sampled_q + cast(count_bits, 1));
                      t.assign(misses_d, misses_new);
                      t.assign(n32_d, n32_new);
                      t.assign(n64_d, n64_new);
                    });
                  });

    m.always_ff({{gran_q, reset_gran},
                 {switch_q, bit(false)},
                 {sampled_q, zeros()},
                 {misses_q, zeros()},
                 {n32_q, zeros()},
                 {n64_q, zeros()}},
                [&](Block& b) {
                  b.assign(gran_q, gran_d);
                  b.assign(switch_q, switch_d);
                  b.assign(sampled_q, sampled_d);
                  b.assign(misses_q, misses_d);
                  b.assign(n32_q, n32_d);
                  b.assign(n64_q, n64_d);
                });

    m.assign(gran, gran_q);
    m.assign(switch_o, switch_q);
    m.assign(next_gran, gran_d);
    m.assign(next_switch, switch_d);
    return m;
  }
};

}  // namespace

const RtlBlock& gran_selector_block() {
  static const GranSelector block;
  return block;
}

}  // namespace gen::blocks
