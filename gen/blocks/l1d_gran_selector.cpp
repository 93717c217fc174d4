// l1d_gran_selector: the DyCache granularity selector (SPEC section 4, paper Fig. 7; golden
// model: golden::GranularitySelector). Samples SampleRequests recorded requests, then decides.
#include <string>

#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

// The selector's registers and inputs, and the next values the staged variant drives.
struct SelState {
  Expr samples, limit, count_bits, record, size, miss, gran_q, sampled_q, misses_q, n32_q, n64_q;
};
struct SelNext {
  Expr gran_d, switch_d, sampled_d, misses_d, n32_d, n64_d, switch_gran;
};

// The staged variant's next state: the sample-end decision prepared for a hit and for a miss
// (record_i high), selected by miss_i and gated by record_i at the end, so that no adder or
// compare sits behind the late inputs. A verification region checks it against the direct form.
void staged_decision(Module& m, const SelState& r, const SelNext& n) {
  const Expr& cb = r.count_bits;
  m.comment("Staged: the counts as if this cycle's request is recorded (size_i is M2's, early), and the");
  m.comment("sample-end decision for a hit and for a miss, from flip-flops; record_i and miss_i only select.");
  Expr n32_rec = m.logic("n32_rec", cb);
  Expr n64_rec = m.logic("n64_rec", cb);
  Expr fine_rec = m.logic("fine_rec", cb);
  Expr misses_inc = m.logic("misses_inc", cb);
  m.assign(n32_rec, r.n32_q + cast(cb, r.size.eq(lit(2, 0))));
  m.assign(n64_rec, r.n64_q + cast(cb, r.size.eq(lit(2, 1))));
  m.assign(fine_rec, n32_rec + n64_rec);
  m.assign(misses_inc, r.misses_q + cast(cb, 1));
  Expr at_end = m.logic("at_end");
  Expr fine_access = m.logic("fine_access");
  Expr smaller = m.logic("smaller", 2);
  Expr decision_hit = m.logic("decision_hit", 2);
  Expr decision_miss = m.logic("decision_miss", 2);
  m.assign(at_end, r.sampled_q.eq(cast(cb, r.samples - 1)));
  m.assign(fine_access, fine_rec.gt(cast(cb, r.limit)));
  m.assign(smaller, mux(n32_rec.gt(n64_rec), lit(2, 0), lit(2, 1)));
  m.comment("Poor locality: misses > Limit, with this request a hit (misses_q) or a miss (misses_q + 1).");
  m.assign(decision_hit, mux(r.misses_q.gt(cast(cb, r.limit)), mux(fine_access, smaller, lit(2, 2)), r.gran_q));
  m.assign(decision_miss, mux(misses_inc.gt(cast(cb, r.limit)), mux(fine_access, smaller, lit(2, 2)), r.gran_q));
  Expr switch_hit = m.logic("switch_hit");
  Expr switch_miss = m.logic("switch_miss");
  m.assign(switch_hit, at_end.land(decision_hit.ne(r.gran_q)));
  m.assign(switch_miss, at_end.land(decision_miss.ne(r.gran_q)));
  m.comment("A switch goes to the poor-locality decision whether this request hits or misses: the G the");
  m.comment("staged M1 prepares for beside the current one (switch_gran_o; contract 16.5).");
  m.assign(n.switch_gran, mux(fine_access, smaller, lit(2, 2)));
  Expr sample_end = m.logic("sample_end");
  m.assign(sample_end, r.record.land(at_end));
  m.assign(n.switch_d, r.record.land(mux(r.miss, switch_miss, switch_hit)));
  m.assign(n.gran_d, mux(sample_end, mux(r.miss, decision_miss, decision_hit), r.gran_q));
  m.assign(n.sampled_d, mux(sample_end, zeros(), mux(r.record, r.sampled_q + cast(cb, 1), r.sampled_q)));
  m.assign(n.misses_d, mux(sample_end, zeros(), mux(r.record.land(r.miss), misses_inc, r.misses_q)));
  m.assign(n.n32_d, mux(sample_end, zeros(), mux(r.record, n32_rec, r.n32_q)));
  m.assign(n.n64_d, mux(sample_end, zeros(), mux(r.record, n64_rec, r.n64_q)));

  m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
    v.comment("The prepared decision equals the direct one (the single-cycle unit's): the counts with this");
    v.comment("request, the compares with Limit, the decision of the request that completes the sample.");
    Expr fv_misses = v.logic("fv_misses_new", cb);
    Expr fv_n32 = v.logic("fv_n32_new", cb);
    Expr fv_n64 = v.logic("fv_n64_new", cb);
    Expr fv_poor = v.logic("fv_poor_locality");
    Expr fv_fine = v.logic("fv_fine_access");
    Expr fv_decision = v.logic("fv_decision", 2);
    Expr fv_end = v.logic("fv_sample_end");
    v.assign(fv_misses, r.misses_q + cast(cb, r.record.land(r.miss)));
    v.assign(fv_n32, r.n32_q + cast(cb, r.record.land(r.size.eq(lit(2, 0)))));
    v.assign(fv_n64, r.n64_q + cast(cb, r.record.land(r.size.eq(lit(2, 1)))));
    v.assign(fv_poor, fv_misses.gt(cast(cb, r.limit)));
    v.assign(fv_fine, (fv_n32 + fv_n64).gt(cast(cb, r.limit)));
    v.assign(fv_decision,
             mux(fv_poor, mux(fv_fine, mux(fv_n32.gt(fv_n64), lit(2, 0), lit(2, 1)), lit(2, 2)), r.gran_q));
    v.assign(fv_end, r.record.land(r.sampled_q.eq(cast(cb, r.samples - 1))));
    v.assert_comb("GranStagedEqual_A", n.switch_d.eq(fv_end.land(fv_decision.ne(r.gran_q)))
                                           .land(n.gran_d.eq(mux(fv_end, fv_decision, r.gran_q)))
                                           .land(n.misses_d.eq(mux(fv_end, zeros(), fv_misses))));
    v.comment("A switch at this edge goes to switch_gran_o, known before record_i and miss_i.");
    v.assert_comb("GranSwitchTarget_A", (!n.switch_d).lor(n.gran_d.eq(n.switch_gran)));
  });
}

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
    const bool staged = cfg.l1.pipeline == l1d::L1Pipeline::kStaged;
    if (staged) {
      m.describe("switch_gran_o (staged only): the G a switch at this edge goes to, from the flip-flops and");
      m.describe("size_i alone (combinational): stage M1 prepares its lookup for it (contract 16.5).");
    }
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
    Expr switch_gran = staged ? m.output("switch_gran_o", 2) : Expr();

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

    // The staged pipe (contract 16.5) drives record_i and miss_i late, from M2's decision, and
    // starts a flush walk from next_switch_o in the same cycle: its variant takes the decision for
    // both values of miss_i (with record_i high) from the flip-flops and size_i, and lets the late
    // inputs only select (the same function; the single-cycle L1's unit is unchanged).
    if (staged) {
      staged_decision(m, {samples, limit, count_bits, record, size, miss, gran_q, sampled_q, misses_q, n32_q, n64_q},
                      {gran_d, switch_d, sampled_d, misses_d, n32_d, n64_d, switch_gran});
    } else {
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
    }

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
