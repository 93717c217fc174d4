// l1d_issue: stage A of the staged L1 (docs/l1d-microarchitecture.md sections 16.2-16.3): the
// core input FIFO, the replay FIFO of failed core requests, the arbiter (fill > flush > replay >
// core) and the pipe register of stage T. The fill unit and the flush walker keep their own issue
// cursors; this unit only says when it takes their operation. Core request payloads are opaque
// (ReqBits wide): l1d_top packs a CoreReq into them.
#include <string>
#include <vector>

#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

// Operation kinds, as on a_kind_o / t_kind_o.
constexpr uint64_t kNone = 0, kCore = 1, kFill = 2, kFlush = 3;

class Issue final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_issue"; }
  std::string_view summary() const override {
    return "staged L1 stage A: core input FIFO (2), replay FIFO (3), arbiter fill > flush > replay > core, T register";
  }

  Module module(const l1d::Config& cfg) const override {
    (void)cfg;
    Module m(name());
    m.describe("Stage A of the staged L1 (contract 16.2-16.3). Kinds: 0 none, 1 core, 2 fill, 3 flush.");
    m.describe("core_req_ready_o: the 2-entry input FIFO holds fewer than 2 (registered). A takes, in order:");
    m.describe("a fill step (fill_valid_i), a flush line (flush_valid_i; while flush_active_i no core request");
    m.describe("is taken, with or without a line), the replay FIFO's head, the input FIFO's head. a_*_o is");
    m.describe("A's pick this cycle (the tag SRAM is addressed from it); it enters T at the clock edge unless");
    m.describe("squashed. Squashes from M at the edge: squash_core_i sends back to the front of the replay FIFO,");
    m.describe("oldest first, the failed M request (failed_valid_i, failed_req_i) and the core requests in T");
    m.describe("and A; squash_fill_i / squash_flush_i drop the fill / flush operations in T and A (their units");
    m.describe("rewind). t_squash_o says the T operation does not enter M. stall_o: a core request waits while a");
    m.describe("fill step or the flush holds A (s1_stall_cycles). Only valid bits are reset, never payloads.");
    Expr req_bits = m.param("ReqBits", 64);

    m.clk();
    m.rst_n();
    Expr core_valid = m.input("core_req_valid_i");
    Expr core_req = m.input("core_req_i", req_bits);
    Expr core_ready = m.output("core_req_ready_o");
    Expr fill_valid = m.input("fill_valid_i");
    Expr flush_active = m.input("flush_active_i");
    Expr flush_valid = m.input("flush_valid_i");
    Expr squash_core = m.input("squash_core_i");
    Expr failed_valid = m.input("failed_valid_i");
    Expr failed_req = m.input("failed_req_i", req_bits);
    Expr squash_fill = m.input("squash_fill_i");
    Expr squash_flush = m.input("squash_flush_i");
    Expr fill_take = m.output("fill_take_o");
    Expr flush_take = m.output("flush_take_o");
    Expr a_kind_o = m.output("a_kind_o", 2);
    Expr a_req_o = m.output("a_req_o", req_bits);
    Expr t_kind_o = m.output("t_kind_o", 2);
    Expr t_req_o = m.output("t_req_o", req_bits);
    Expr t_squash_o = m.output("t_squash_o");
    Expr stall_o = m.output("stall_o");

    // The FIFOs: entry 0 is the head; valid bits are packed to the front.
    const auto entries = [&](const std::string& fifo, unsigned n) {
      std::vector<std::pair<Expr, Expr>> e;  // (valid, payload) registers
      for (unsigned k = 0; k < n; ++k)
        e.emplace_back(m.logic(fifo + std::to_string(k) + "_valid_q"), m.logic(fifo + std::to_string(k) + "_q", req_bits));
      return e;
    };
    const auto in_fifo = entries("in", 2);
    const auto replay = entries("replay", 3);
    Expr t_kind_q = m.logic("t_kind_q", 2);
    Expr t_req_q = m.logic("t_req_q", req_bits);

    m.comment("Arbitration on the state at the start of the cycle.");
    Expr core_blocked = m.logic("core_blocked");
    Expr take_replay = m.logic("take_replay");
    Expr take_in = m.logic("take_in");
    Expr a_kind = m.logic("a_kind", 2);
    m.assign(core_ready, !in_fifo[1].first);
    m.assign(core_blocked, fill_valid.lor(flush_active));
    m.assign(take_replay, (!core_blocked).land(replay[0].first));
    m.assign(take_in, (!core_blocked).land(!replay[0].first).land(in_fifo[0].first));
    m.assign(fill_take, fill_valid);
    m.assign(flush_take, (!fill_valid).land(flush_active).land(flush_valid));
    m.assign(a_kind, mux(fill_take, lit(2, kFill),
                         mux(flush_take, lit(2, kFlush), mux(take_replay.lor(take_in), lit(2, kCore), lit(2, kNone)))));
    m.assign(a_kind_o, a_kind);
    m.assign(a_req_o, mux(take_replay, replay[0].second, in_fifo[0].second));
    m.assign(stall_o, replay[0].first.lor(in_fifo[0].first).land(core_blocked));

    m.comment("Squashes at the edge (contract 16.3).");
    const auto squashed = [&](const Expr& kind) {
      return (squash_core.land(kind.eq(lit(2, kCore))))
          .lor(squash_fill.land(kind.eq(lit(2, kFill))))
          .lor(squash_flush.land(kind.eq(lit(2, kFlush))));
    };
    Expr t_back = m.logic("t_back");
    Expr a_back = m.logic("a_back");
    m.assign(t_squash_o, squashed(t_kind_q));
    m.assign(t_back, squash_core.land(t_kind_q.eq(lit(2, kCore))));
    m.assign(a_back, squash_core.land(a_kind.eq(lit(2, kCore))));

    m.comment("Input FIFO: pop the head A took, then push a fired request behind what is left.");
    Expr fire = m.logic("fire");
    m.assign(fire, core_valid.land(core_ready));
    Expr head_left = m.logic("head_left");  // entry 0 holds a request after the pop
    m.assign(head_left, mux(take_in, in_fifo[1].first, in_fifo[0].first));
    Expr in0_valid_d = m.logic("in0_valid_d");
    Expr in1_valid_d = m.logic("in1_valid_d");
    Expr in0_d = m.logic("in0_d", req_bits);
    Expr in1_d = m.logic("in1_d", req_bits);
    m.always_comb({{in0_valid_d, in_fifo[0].first}, {in1_valid_d, in_fifo[1].first}, {in0_d, in_fifo[0].second},
                   {in1_d, in_fifo[1].second}},
                  [&](Block& b) {
                    b.if_(take_in, [&](Block& t) {
                      t.assign(in0_valid_d, in_fifo[1].first);
                      t.assign(in0_d, in_fifo[1].second);
                      t.assign(in1_valid_d, bit(false));
                    });
                    b.if_(fire.land(!head_left), [&](Block& t) {
                      t.assign(in0_valid_d, bit(true));
                      t.assign(in0_d, core_req);
                    }).else_if(fire, [&](Block& t) {
                      t.assign(in1_valid_d, bit(true));
                      t.assign(in1_d, core_req);
                    });
                  });

    m.comment("Replay FIFO: pop the head A took; on squash_core_i put the failed M request, then the core");
    m.comment("requests of T and A, in front of what is left (at most 3 in all: asserted).");
    Expr back_count = m.logic("back_count", 2);
    m.assign(back_count, cast(2, failed_valid.land(squash_core)) + cast(2, t_back) + cast(2, a_back));
    std::vector<Expr> kept_v, kept_p, rv, rp;  // after the pop; next state
    for (unsigned k = 0; k < 3; ++k) {
      kept_v.push_back(m.logic("kept" + std::to_string(k) + "_valid"));
      kept_p.push_back(m.logic("kept" + std::to_string(k), req_bits));
      rv.push_back(m.logic("replay" + std::to_string(k) + "_valid_d"));
      rp.push_back(m.logic("replay" + std::to_string(k) + "_d", req_bits));
    }
    for (unsigned k = 0; k < 3; ++k) {
      const bool last = k + 1 == 3;
      m.assign(kept_v[k], last ? (replay[k].first.land(!take_replay)) : mux(take_replay, replay[k + 1].first, replay[k].first));
      m.assign(kept_p[k], last ? replay[k].second : mux(take_replay, replay[k + 1].second, replay[k].second));
    }
    // The requests going back, oldest first: failed, T's, A's (those present), packed to the front.
    Expr back0 = m.logic("back0", req_bits);
    Expr back1 = m.logic("back1", req_bits);
    Expr back2 = m.logic("back2", req_bits);
    Expr has_failed = m.logic("has_failed");
    m.assign(has_failed, failed_valid.land(squash_core));
    m.assign(back0, mux(has_failed, failed_req, mux(t_back, t_req_q, a_req_o)));
    m.assign(back1, mux(has_failed.land(t_back), t_req_q, a_req_o));
    m.assign(back2, a_req_o);
    const std::vector<Expr> back = {back0, back1, back2};
    std::vector<Init> replay_next;
    for (unsigned k = 0; k < 3; ++k) {
      replay_next.push_back({rv[k], kept_v[k]});
      replay_next.push_back({rp[k], kept_p[k]});
    }
    m.always_comb(replay_next, [&](Block& b) {
      for (unsigned k = 0; k < 3; ++k) {
        // Slot k: the k-th request going back, else the kept entry k - back_count.
        b.if_(back_count.gt(lit(2, k)), [&](Block& t) {
          t.assign(rv[k], bit(true));
          t.assign(rp[k], back[k]);
        });
        for (unsigned n = 1; n <= k; ++n)
          b.if_(back_count.eq(lit(2, n)), [&](Block& t) {
            t.assign(rv[k], kept_v[k - n]);
            t.assign(rp[k], kept_p[k - n]);
          });
      }
    });

    std::vector<Init> valid_resets = {{t_kind_q, lit(2, kNone)}};
    for (const auto& [v, p] : in_fifo) valid_resets.push_back({v, bit(false)});
    for (const auto& [v, p] : replay) valid_resets.push_back({v, bit(false)});
    m.always_ff(valid_resets, [&](Block& b) {
      b.assign(t_kind_q, mux(squashed(a_kind), lit(2, kNone), a_kind));
      b.assign(in_fifo[0].first, in0_valid_d);
      b.assign(in_fifo[1].first, in1_valid_d);
      for (unsigned k = 0; k < 3; ++k) b.assign(replay[k].first, rv[k]);
    });
    m.always_ff_noreset([&](Block& b) {
      b.assign(t_req_q, a_req_o);
      b.assign(in_fifo[0].second, in0_d);
      b.assign(in_fifo[1].second, in1_d);
      for (unsigned k = 0; k < 3; ++k) b.assign(replay[k].second, rp[k]);
    });
    m.assign(t_kind_o, t_kind_q);
    m.assign(t_req_o, t_req_q);

    m.verification("Assertions (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
      v.assert_clocked("IssueFailedNeedsSquash_A", (!failed_valid).lor(squash_core));
      v.assert_clocked("IssueReplayWithinThree_A",
                       (!squash_core).lor((cast(3, back_count) + cast(3, kept_v[0]) + cast(3, kept_v[1]) +
                                           cast(3, kept_v[2]))
                                              .le(lit(3, 3))));
    });
    return m;
  }
};

}  // namespace

const RtlBlock& issue_block() {
  static const Issue block;
  return block;
}

}  // namespace gen::blocks
