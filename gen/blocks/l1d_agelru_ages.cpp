// l1d_agelru_ages: the AgeLRU Oldest-/Youngest-AWID counters of one SM with combinational
// active-test and relative-age query ports (SPEC section 8; golden model:
// golden::AgeLruCounters).
#include <string>

#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

constexpr unsigned kAwidBits = 8;

class AgeLruAges final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_agelru_ages"; }
  std::string_view summary() const override {
    return "AgeLRU 8-bit wrap-around Oldest/Youngest AWID counters, active test and relative age queries (SPEC 8)";
  }

  Module module(const l1d::Config& cfg) const override {
    Module m(name());
    m.describe("AgeLRU warp ages of one SM (SPEC section 8, golden::AgeLruCounters): two 8-bit wrap-around");
    m.describe("counters, Oldest-AWID and Youngest-AWID, and empty (no warp runs). Reset: empty, Youngest 255.");
    m.describe("Per cycle, launch first, then exit (the golden L1's order), registered:");
    m.describe("  launch_i: Youngest += 1 (mod 256), the launched warp's AWID; if empty it is also the Oldest.");
    m.describe("  exit_i of the Oldest (exit_awid_i == Oldest, not empty): Oldest = exit_next_i when");
    m.describe("  exit_has_next_i, else empty with Oldest = Youngest + 1. Exits of other warps change nothing.");
    m.describe("Queries (combinational on the registered counters), Queries of them, query q at [q*8 +: 8]:");
    m.describe("  active_o[q]: not empty and Oldest <= id <= Youngest (no wrap) or id >= Oldest || id <= Youngest");
    m.describe("  (wrapped); rel_age_o: (id - Oldest) mod 256, 0 = the oldest warp.");
    m.describe("The default Queries is one per L1 way (the lines' AWIDs) plus the request's.");
    Expr queries = m.param("Queries", cfg.l1.ways + 1);

    m.clk();
    m.rst_n();
    Expr launch = m.input("launch_i");
    Expr exit_in = m.input("exit_i");
    Expr exit_awid = m.input("exit_awid_i", kAwidBits);
    Expr exit_has_next = m.input("exit_has_next_i");
    Expr exit_next = m.input("exit_next_i", kAwidBits);
    Expr ids = m.input("id_i", queries * kAwidBits);
    Expr oldest_o = m.output("oldest_o", kAwidBits);
    Expr youngest_o = m.output("youngest_o", kAwidBits);
    Expr empty_o = m.output("empty_o");
    Expr active_o = m.output("active_o", queries);
    Expr rel_age_o = m.output("rel_age_o", queries * kAwidBits);

    Expr oldest_d = m.logic("oldest_d", kAwidBits);
    Expr oldest_q = m.logic("oldest_q", kAwidBits);
    Expr youngest_d = m.logic("youngest_d", kAwidBits);
    Expr youngest_q = m.logic("youngest_q", kAwidBits);
    Expr empty_d = m.logic("empty_d");
    Expr empty_q = m.logic("empty_q");

    m.comment("Launch: the new warp's AWID; an empty SM's first warp is also its oldest.");
    Expr launch_oldest = m.logic("launch_oldest", kAwidBits);
    Expr launch_empty = m.logic("launch_empty");
    Expr oldest_exits = m.logic("oldest_exits");
    m.assign(youngest_d, mux(launch, youngest_q + lit(kAwidBits, 1), youngest_q));
    m.assign(launch_oldest, mux(launch.land(empty_q), youngest_d, oldest_q));
    m.assign(launch_empty, empty_q.land(!launch));
    m.comment("Exit, after the launch: only the oldest warp moves Oldest.");
    m.assign(oldest_exits, exit_in.land(!launch_empty).land(exit_awid.eq(launch_oldest)));
    m.always_comb({{oldest_d, launch_oldest}, {empty_d, launch_empty}}, [&](Block& b) {
      b.if_(oldest_exits.land(exit_has_next), [&](Block& t) { t.assign(oldest_d, exit_next); })
          .else_if(oldest_exits, [&](Block& t) {
            t.comment("The last warp is gone: Oldest = Youngest + 1, the AWID the next launch gets.");
            t.assign(empty_d, bit(true));
            t.assign(oldest_d, youngest_d + lit(kAwidBits, 1));
          });
    });

    m.always_ff({{oldest_q, zeros()}, {youngest_q, all_ones(kAwidBits)}, {empty_q, bit(true)}}, [&](Block& b) {
      b.assign(oldest_q, oldest_d);
      b.assign(youngest_q, youngest_d);
      b.assign(empty_q, empty_d);
    });

    m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
      v.comment("The counters are consistent: an empty SM has Oldest = Youngest + 1, the AWID its next launch");
      v.comment("gets, so that launch makes Oldest = Youngest (reset: 0 and 255).");
      v.assert_comb("AgeEmptyOldestFollowsYoungest_A", (!empty_q).lor(oldest_q.eq(youngest_q + lit(kAwidBits, 1))));
    });

    m.assign(oldest_o, oldest_q);
    m.assign(youngest_o, youngest_q);
    m.assign(empty_o, empty_q);

    m.comment("The queries. Without wrap (Oldest <= Youngest) the live range is [Oldest, Youngest];");
    m.comment("wrapped, it is [Oldest, 255] and [0, Youngest].");
    Expr wrapped = m.logic("wrapped");
    m.assign(wrapped, oldest_q.gt(youngest_q));
    m.gen_for("g_query", "q", 0, queries, [&](Scope& s, const Expr& q) {
      Expr id = s.logic("id", kAwidBits);
      Expr above_oldest = s.logic("above_oldest");
      Expr below_youngest = s.logic("below_youngest");
      s.assign(id, ids.part(q * kAwidBits, kAwidBits));
      s.assign(above_oldest, id.ge(oldest_q));
      s.assign(below_youngest, id.le(youngest_q));
      s.assign(active_o[q], (!empty_q).land(mux(wrapped, above_oldest.lor(below_youngest),
                                                above_oldest.land(below_youngest))));
      s.assign(rel_age_o.part(q * kAwidBits, kAwidBits), id - oldest_q);
    });
    return m;
  }
};

}  // namespace

const RtlBlock& agelru_ages_block() {
  static const AgeLruAges block;
  return block;
}

}  // namespace gen::blocks
