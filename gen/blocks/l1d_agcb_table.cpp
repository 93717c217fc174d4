// l1d_agcb_table: the AGCB PC-indexed bypass prediction table (SPEC section 5; golden model:
// golden::AgcbPredictor). Entries saturating counters with a combinational read port for the
// request's PC and two registered update ports (hit decrement, victim increment). For
// `l1.pipeline: staged` (contract 16.5) the read is made a cycle ahead: pc_next_i (the pc the
// caller's pc_i holds at the next edge, the staged L1's M1) reads the table and the pending
// update, and the prediction is registered (the read's threshold compares, chosen by whether the
// update arriving at that edge names the same entry: twice, without and with its increment, and
// whether the increment names it as a flop of its own), so bypass_o is a 2:1 mux of flip-flops (no
// counter read, index compare or forward on the caller's M2 path).
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
    // The staged pipe (contract 16.5): the read a cycle ahead, from the pc pc_i holds next.
    const bool ahead = cfg.l1.pipeline == l1d::L1Pipeline::kStaged;
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
    if (ahead) {
      m.describe("Staged pipe (contract 16.5): pc_i must hold at each edge the pc_next_i of the cycle before");
      m.describe("(the staged L1's M2 pc is its M1 pc registered). pc_next_i reads counter[hpc(pc_next_i)] with");
      m.describe("the pending update applied (as the counters hold it after this edge), forwards the update");
      m.describe("dec_i / inc_i register at this edge to it and registers the prediction, without and with inc_i's");
      m.describe("increment, and whether inc_i names that entry: bypass_o is a 2:1 mux of those flops.");
    }
    Expr entries = m.param("Entries", a.entries);
    Expr counter_bits = m.param("CounterBits", a.counter_bits);
    Expr reset_value = m.param("ResetValue", a.reset_value);
    Expr threshold = m.param("Threshold", a.threshold);
    Expr pc_shift = m.param("PcShift", static_cast<uint32_t>(std::countr_zero(cfg.core.instruction_bytes)));
    Expr pc_bits = m.param("PcBits", 64);

    m.clk();
    m.rst_n();
    Expr pc = m.input("pc_i", pc_bits);
    Expr pc_next = ahead ? m.input("pc_next_i", pc_bits) : Expr();
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
    Expr hpc_next;
    if (ahead) {
      Expr unused_pc_next = m.logic("unused_pc_next");
      m.assign(unused_pc_next, red_xor(pc_next));
      hpc_next = m.logic("hpc_next", clog2(entries));
      m.assign(hpc_next, pc_next.part(pc_shift, idx_bits));
    }

    m.comment("Every counter, entry e at [e*CounterBits +: CounterBits] (the flops are in g_group).");
    Expr counters = m.logic("counters", entries * counter_bits);
    Expr read_value = m.logic("read_value", counter_bits);
    m.assign(read_value, counters.part(hpc * counter_bits, counter_bits));
    m.gen_if(threshold.gt(0), "g_threshold", [&](Scope& s) {
      // The three compares of a counter value v with Threshold, Threshold + 1 and Threshold - 1.
      const auto ge_t = [&](const Expr& v) { return v.ge(cast(counter_bits, threshold)); };
      const auto ge_t_above = [&](const Expr& v) {
        return cast(counter_bits + 1, v).ge(cast(counter_bits + 1, threshold + 1));
      };
      const auto ge_t_below = [&](const Expr& v) { return v.ge(cast(counter_bits, threshold - 1)); };
      // The prediction of value v with an update forwarded: decrement (dh) and / or increment (ih).
      const auto predict = [&](const Expr& dh, const Expr& ih, const Expr& ge, const Expr& ge_above,
                               const Expr& ge_below) {
        return mux(dh, mux(ih, threshold.eq(1).lor(ge), ge_above), mux(ih, ge_below, ge));
      };
      s.comment("The pending update of the read entry, forwarded as compares of the read value against");
      s.comment("Threshold and its neighbours: a decrement leaves it >= Threshold iff it was >= Threshold + 1,");
      s.comment("an increment iff it was >= Threshold - 1, both (decrement, then increment: 0 becomes 1,");
      s.comment("any other value stays) iff it was >= Threshold or Threshold is 1.");
      if (!ahead) {
        Expr dec_hit = s.logic("dec_hit");
        Expr inc_hit = s.logic("inc_hit");
        Expr ge = s.logic("ge_threshold");
        Expr ge_above = s.logic("ge_above");
        Expr ge_below = s.logic("ge_below");
        s.assign(dec_hit, dec_q.land(dec_idx_q.eq(hpc)));
        s.assign(inc_hit, inc_q.land(inc_idx_q.eq(hpc)));
        s.assign(ge, ge_t(read_value));
        s.assign(ge_above, ge_t_above(read_value));
        s.assign(ge_below, ge_t_below(read_value));
        s.assign(bypass, predict(dec_hit, inc_hit, ge, ge_above, ge_below));
      } else {
        s.comment("The read a cycle ahead: counter[hpc_next] as the counters hold it after this edge (the");
        s.comment("pending update applied: decrement, then increment, both saturating). The prediction pc_i");
        s.comment("reads in the next cycle is registered: those compares, chosen by whether the update");
        s.comment("registered at this edge (dec_i / inc_i, pending in the next cycle) names hpc_next. So");
        s.comment("bypass_o is a 2:1 mux of flip-flops: no index compare and no fan-out of the pending update's");
        s.comment("indexes on the caller's M2 path (before timing9 the compare of dec_idx_q with hpc_o ran in");
        s.comment("pc_i's cycle).");
        Expr next_raw = s.logic("next_raw", counter_bits);
        Expr next_dec = s.logic("next_dec", counter_bits);
        Expr next_value = s.logic("next_value", counter_bits);
        Expr dec_hit_next = s.logic("dec_hit_next");
        Expr inc_hit_next = s.logic("inc_hit_next");
        Expr bypass_q = s.logic("bypass_q");
        s.assign(next_raw, counters.part(hpc_next * counter_bits, counter_bits));
        s.assign(next_dec, mux(dec_q.land(dec_idx_q.eq(hpc_next)).land(next_raw.ne(zeros())),
                               next_raw - cast(counter_bits, 1), next_raw));
        s.assign(next_value, mux(inc_q.land(inc_idx_q.eq(hpc_next)).land(next_dec.ne(ones())),
                                 next_dec + cast(counter_bits, 1), next_dec));
        s.assign(dec_hit_next, dec.land(dec_idx.eq(hpc_next)));
        s.assign(inc_hit_next, inc.land(inc_idx.eq(hpc_next)));
        s.comment("The increment arriving at this edge is the caller's latest input (the staged L1's fill");
        s.comment("placement and its queue-room check decide it), so the prediction is registered twice,");
        s.comment("without and with that increment (bypass_q, bypass_inc_q), and whether it names hpc_next");
        s.comment("as a bit of its own (inc_hit_q): the increment's path ends at one AND of its index compare,");
        s.comment("not behind the prediction's selects; pc_i's cycle selects by the flop (since timing15).");
        s.comment("Their reset: the compares of ResetValue, the value every counter resets to (nothing pending).");
        Expr rst_ge = s.localparam("ResetGe", Type::logic(1), reset_value.ge(threshold));
        Expr rst_ge_below = s.localparam("ResetGeBelow", Type::logic(1), reset_value.ge(threshold - 1));
        Expr bypass_inc_q = s.logic("bypass_inc_q");
        Expr inc_hit_q = s.logic("inc_hit_q");
        s.always_ff({{bypass_q, rst_ge}, {bypass_inc_q, rst_ge_below}, {inc_hit_q, bit(false)}}, [&](Block& b) {
          b.assign(bypass_q, mux(dec_hit_next, ge_t_above(next_value), ge_t(next_value)));
          b.assign(bypass_inc_q, mux(dec_hit_next, threshold.eq(1).lor(ge_t(next_value)), ge_t_below(next_value)));
          b.assign(inc_hit_q, inc_hit_next);
        });
        s.comment("pc_i's read is the registered one: the counters' read-out at hpc_o is unused here.");
        Expr unused_read = s.logic("unused_read");
        s.assign(unused_read, red_xor(read_value));
        s.assign(bypass, mux(inc_hit_q, bypass_inc_q, bypass_q));
      }
    }).else_("g_always_bypass", [&](Scope& s) {
      s.comment("Threshold 0: every counter value predicts bypass.");
      Expr unused_read = s.logic("unused_read");
      s.assign(unused_read, red_xor(concat({read_value, dec_q, inc_q})));
      if (ahead) {
        Expr unused_next = s.logic("unused_hpc_next");
        s.assign(unused_next, red_xor(hpc_next));
      }
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
      if (ahead) {
        v.comment("The staged read a cycle ahead equals the read of pc_i's counter with the pending update");
        v.comment("applied (the single-cycle table's bypass_o), given that pc_i is last cycle's pc_next_i.");
        Expr fv_value = v.logic("fv_read_value", counter_bits);
        Expr fv_dec = v.logic("fv_dec_value", counter_bits);
        Expr fv_fwd = v.logic("fv_value_fwd", counter_bits);
        v.assign(fv_value, counters.part(hpc * counter_bits, counter_bits));
        v.assign(fv_dec, mux(dec_q.land(dec_idx_q.eq(hpc)).land(fv_value.ne(zeros())),
                             fv_value - cast(counter_bits, 1), fv_value));
        v.assign(fv_fwd, mux(inc_q.land(inc_idx_q.eq(hpc)).land(fv_dec.ne(ones())), fv_dec + cast(counter_bits, 1),
                             fv_dec));
        v.assert_comb("AgcbAheadEqual_A", bypass.eq(fv_fwd.ge(cast(counter_bits, threshold))));
      }
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
