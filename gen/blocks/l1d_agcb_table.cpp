// l1d_agcb_table: the AGCB PC-indexed bypass prediction table (SPEC section 5; golden model:
// golden::AgcbPredictor). Entries saturating counters with a combinational read port for the
// request's PC and two registered update ports (hit decrement, victim increment).
#include <bit>
#include <string>

#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

// The shapes golden::AgcbPredictor accepts (the configuration loader checks them too).
void validate(const l1d::Config& cfg) {
  const l1d::AgcbConfig& a = cfg.policy.agcb;
  if (!std::has_single_bit(a.entries) || a.entries < 2) {
    throw l1d::ConfigError("l1d_agcb_table: agcb.entries must be a power of two >= 2, got " +
                           std::to_string(a.entries));
  }
  if (a.counter_bits < 1 || a.counter_bits > 8) {
    throw l1d::ConfigError("l1d_agcb_table: agcb.counter_bits must be 1..8, got " + std::to_string(a.counter_bits));
  }
  const uint32_t max = (1U << a.counter_bits) - 1;
  if (a.reset_value > max || a.threshold > max) {
    throw l1d::ConfigError("l1d_agcb_table: agcb.reset_value and agcb.threshold must fit in counter_bits");
  }
  if (!std::has_single_bit(cfg.core.instruction_bytes)) {
    throw l1d::ConfigError("l1d_agcb_table: core.instruction_bytes must be a power of two, got " +
                           std::to_string(cfg.core.instruction_bytes));
  }
}

class AgcbTable final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_agcb_table"; }
  std::string_view summary() const override {
    return "AGCB prediction table: PC hash and bypass read, registered hit-decrement and victim-increment (SPEC 5)";
  }

  Module module(const l1d::Config& cfg) const override {
    validate(cfg);
    const l1d::AgcbConfig& a = cfg.policy.agcb;
    Module m(name());
    m.describe("AGCB PC-based bypass prediction table (SPEC section 5): Entries saturating counters of");
    m.describe("CounterBits bits, all reset to ResetValue.");
    m.describe("Read (combinational): hpc_o = pc_i[PcShift +: $clog2(Entries)] (the PC without its");
    m.describe("instruction-size bits), bypass_o = counter[hpc_o] >= Threshold.");
    m.describe("Updates (registered): dec_i decrements counter[dec_idx_i] saturating at 0 (a read hit),");
    m.describe("inc_i increments counter[inc_idx_i] saturating at the maximum (a victim's PC); both on one");
    m.describe("index in one cycle: decrement, then increment. The ports are registered and the counters");
    m.describe("updated a cycle later; the read forwards that pending update, so bypass_o is as if applied at");
    m.describe("once (nothing is observable but the timing). Decoded writes, one always_ff per group of");
    m.describe("at most 16 entries, which skips its entries when no port writes into the group.");
    Expr entries = m.param("Entries", a.entries);
    Expr counter_bits = m.param("CounterBits", a.counter_bits);
    Expr reset_value = m.param("ResetValue", a.reset_value);
    Expr threshold = m.param("Threshold", a.threshold);
    Expr pc_shift = m.param("PcShift", static_cast<uint32_t>(std::countr_zero(cfg.core.instruction_bytes)));
    Expr pc_bits = m.param("PcBits", 64);

    m.clk();
    m.rst_n();
    Expr pc = m.input("pc_i", pc_bits);
    Expr dec = m.input("dec_i");
    Expr dec_idx = m.input("dec_idx_i", clog2(entries));
    Expr inc = m.input("inc_i");
    Expr inc_idx = m.input("inc_idx_i", clog2(entries));
    Expr hpc = m.output("hpc_o", clog2(entries));
    Expr bypass = m.output("bypass_o");

    Expr idx_bits = m.localparam("IdxBits", clog2(entries));

    m.comment("The update ports, registered: the counters' read-modify-write starts at these flip-flops");
    m.comment("instead of at the caller's decision (the staged L1's M2), a cycle later.");
    Expr dec_q = m.logic("dec_q");
    Expr dec_idx_q = m.logic("dec_idx_q", clog2(entries));
    Expr inc_q = m.logic("inc_q");
    Expr inc_idx_q = m.logic("inc_idx_q", clog2(entries));
    m.always_ff({{dec_q, bit(false)}, {inc_q, bit(false)}}, [&](Block& b) {
      b.assign(dec_q, dec);
      b.assign(inc_q, inc);
    });
    m.always_ff_noreset([&](Block& b) {
      b.assign(dec_idx_q, dec_idx);
      b.assign(inc_idx_q, inc_idx);
    });
    m.comment("Only the hashed bits of the PC take part.");
    Expr unused_pc = m.logic("unused_pc");
    m.assign(unused_pc, red_xor(pc));
    m.assign(hpc, pc.part(pc_shift, idx_bits));

    m.comment("Every counter, entry e at [e*CounterBits +: CounterBits] (the flops are in g_group).");
    Expr counters = m.logic("counters", entries * counter_bits);
    Expr read_value = m.logic("read_value", counter_bits);
    m.assign(read_value, counters.part(hpc * counter_bits, counter_bits));
    m.gen_if(threshold.gt(0), "g_threshold", [&](Scope& s) {
      s.comment("The pending update of the read entry, forwarded as compares of the read value against");
      s.comment("Threshold and its neighbours: a decrement leaves it >= Threshold iff it was >= Threshold + 1,");
      s.comment("an increment iff it was >= Threshold - 1, both (decrement, then increment: 0 becomes 1,");
      s.comment("any other value stays) iff it was >= Threshold or Threshold is 1.");
      Expr dec_hit = s.logic("dec_hit");
      Expr inc_hit = s.logic("inc_hit");
      Expr ge = s.logic("ge_threshold");
      Expr ge_above = s.logic("ge_above");
      Expr ge_below = s.logic("ge_below");
      s.assign(dec_hit, dec_q.land(dec_idx_q.eq(hpc)));
      s.assign(inc_hit, inc_q.land(inc_idx_q.eq(hpc)));
      s.assign(ge, read_value.ge(cast(counter_bits, threshold)));
      s.assign(ge_above, cast(counter_bits + 1, read_value).ge(cast(counter_bits + 1, threshold + 1)));
      s.assign(ge_below, read_value.ge(cast(counter_bits, threshold - 1)));
      s.assign(bypass, mux(dec_hit, mux(inc_hit, threshold.eq(1).lor(ge), ge_above), mux(inc_hit, ge_below, ge)));
    }).else_("g_always_bypass", [&](Scope& s) {
      s.comment("Threshold 0: every counter value predicts bypass.");
      Expr unused_read = s.logic("unused_read");
      s.assign(unused_read, red_xor(concat({read_value, dec_q, inc_q})));
      s.assign(bypass, bit(true));
    });

    m.comment("The update values, computed once: the decremented counter[dec_idx_i] (its own value when");
    m.comment("dec_i is low, so that writing it back changes nothing), and the incremented");
    m.comment("counter[inc_idx_i], which is the decremented value when both ports name one entry.");
    Expr dec_old = m.logic("dec_old", counter_bits);
    Expr dec_new = m.logic("dec_new", counter_bits);
    Expr same_idx = m.logic("same_idx");
    Expr inc_old = m.logic("inc_old", counter_bits);
    Expr inc_new = m.logic("inc_new", counter_bits);
    m.assign(dec_old, counters.part(dec_idx_q * counter_bits, counter_bits));
    m.assign(dec_new, mux(dec_q.land(dec_old.ne(zeros())), dec_old - cast(counter_bits, 1), dec_old));
    m.assign(same_idx, dec_q.land(dec_idx_q.eq(inc_idx_q)));
    m.assign(inc_old, mux(same_idx, dec_new, counters.part(inc_idx_q * counter_bits, counter_bits)));
    m.assign(inc_new, mux(inc_old.ne(ones()), inc_old + cast(counter_bits, 1), inc_old));

    // The writes, per entry: inc_hit ? inc_new : dec_hit ? dec_new : keep. Written as one loop per
    // group of 16 entries under the condition that a port writes into the group, so that a
    // simulator tests the entries of at most two groups per clock edge: with one always_ff per
    // entry, Verilator tested both hits of all 256 entries on every edge (17 % of a verilated
    // kmeans run; the hit decrement writes in most cycles there, so a condition on
    // `inc_i || dec_i` alone saved little). The decrement's entry condition leaves out dec_i
    // (dec_new is then the entry's own value), so that the group condition takes the place of the
    // AND with dec_i. Yosys 0.23, 256 entries: 6 841 generic cells, against 7 046 with one
    // always_ff per entry, 6 794 with groups of 64 and 7 003 with groups of 8.
    Expr group = m.localparam("GroupEntries", mux(entries.gt(16), 16, entries));
    Expr group_bits = m.localparam("GroupBits", clog2(group));
    m.gen_for("g_group", "g", 0, entries / group, [&](Scope& s, const Expr& g) {
      Expr group_q = s.logic("group_q", group * counter_bits);
      s.always_ff({{group_q, repl(group, cast(counter_bits, reset_value))}}, [&](Block& b) {
        const Expr in_group = inc_q.land((inc_idx_q >> group_bits).eq(cast(idx_bits, g)))
                                  .lor(dec_q.land((dec_idx_q >> group_bits).eq(cast(idx_bits, g))));
        b.if_(in_group, [&](Block& t) {
          t.for_("i", 0, group, [&](Block& body, const Expr& i) {
            const Expr e = cast(idx_bits, g * group + i);
            body.if_(inc_q.land(inc_idx_q.eq(e)), [&](Block& w) {
              w.assign(group_q.part(i * counter_bits, counter_bits), inc_new);
            }).else_if(dec_idx_q.eq(e), [&](Block& w) {
              w.assign(group_q.part(i * counter_bits, counter_bits), dec_new);
            });
          });
        });
      });
      s.assign(counters.part(g * group * counter_bits, group * counter_bits), group_q);
    });

    m.verification("Assertions (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
      v.comment("The counters saturate: an update moves a counter by at most one step and never wraps");
      v.comment("(a decrement of 0 stays 0, an increment of the maximum stays the maximum).");
      v.assert_comb("AgcbDecNoUnderflow_A", dec_new.le(dec_old).land((dec_old - dec_new).le(cast(counter_bits, 1))));
      v.assert_comb("AgcbIncNoOverflow_A", inc_new.ge(inc_old).land((inc_new - inc_old).le(cast(counter_bits, 1))));
    });
    return m;
  }
};

}  // namespace

const RtlBlock& agcb_table_block() {
  static const AgcbTable block;
  return block;
}

}  // namespace gen::blocks
