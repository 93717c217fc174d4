// l1d_issue: stage A of the staged L1 (docs/l1d-microarchitecture.md sections 16.2-16.3): the
// core input FIFO, the replay FIFO of failed core requests, the arbiter (fill > flush > replay >
// core) and the pipe registers of stages T and M1 (the decision is taken at M2, outside). The fill
// unit and the flush walker keep their own issue cursors; this unit only says when it takes their
// operation. Core request payloads are opaque (ReqBits wide): l1d_top packs a CoreReq into them.
#include <algorithm>
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
    return "staged L1 stage A: core input FIFO (2), replay FIFO (4), arbiter fill > flush > replay > core, T and M1 "
           "registers";
  }

  Module module(const l1d::Config& cfg) const override {
    Module m(name());
    m.describe("Stage A of the staged L1 (contract 16.2-16.3). Kinds: 0 none, 1 core, 2 fill, 3 flush.");
    m.describe("core_req_ready_o: the 2-entry input FIFO holds fewer than 2 (registered). A takes, in order:");
    m.describe("a fill step (fill_valid_i), a flush line (flush_valid_i; while flush_active_i no core request");
    m.describe("is taken, with or without a line), the replay FIFO's head, the input FIFO's head. a_*_o is");
    m.describe("A's pick this cycle (the tag SRAM is addressed from it); it enters T, and T's operation enters");
    m.describe("M1, at the clock edge unless squashed. Squashes from M2 at the edge: squash_core_i sends back to");
    m.describe("the front of the replay FIFO, oldest first, the failed M2 request (failed_valid_i, failed_req_i)");
    m.describe("and the core requests in M1, T and A; squash_fill_i / squash_flush_i drop the fill / flush");
    m.describe("operations in M1, T and A (their units rewind). t_squash_o: the T operation does not enter M1;");
    m.describe("m1_squash_o: the M1 operation does not enter M2. stall_o: a core request waits while a fill");
    m.describe("step or the flush holds A (s1_stall_cycles). empty_o: both FIFOs, T and M1 hold nothing (the");
    m.describe("L1's idle output). Only valid bits are reset, never payloads.");
    const bool find = rtl_staged_direct(cfg);
    if (find) {
      m.describe("found_o (l1.bypass_path direct, contract 16.5 \"The direct path\"): a core request in either");
      m.describe("FIFO, T or M1 has find_i at bits [KeyLsb +: KeyBits] (l1d_top: a store to the queried line).");
    }
    Expr req_bits = m.param("ReqBits", 64);
    Expr key_lsb = find ? m.param("KeyLsb", 0) : Expr();
    Expr key_bits = find ? m.param("KeyBits", 1) : Expr();

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
    Expr m1_kind_o = m.output("m1_kind_o", 2);
    Expr m1_req_o = m.output("m1_req_o", req_bits);
    Expr m1_squash_o = m.output("m1_squash_o");
    Expr stall_o = m.output("stall_o");
    Expr empty_o = m.output("empty_o");
    Expr find_i = find ? m.input("find_i", key_bits) : Expr();
    Expr found_o = find ? m.output("found_o") : Expr();

    // The FIFOs: entry 0 is the head; valid bits are packed to the front.
    const auto entries = [&](const std::string& fifo, unsigned n) {
      std::vector<std::pair<Expr, Expr>> e;  // (valid, payload) registers
      for (unsigned k = 0; k < n; ++k)
        e.emplace_back(m.logic(fifo + std::to_string(k) + "_valid_q"), m.logic(fifo + std::to_string(k) + "_q", req_bits));
      return e;
    };
    const auto in_fifo = entries("in", 2);
    const auto replay = entries("replay", kReplayDepth);
    // The replay queue A sees: the FIFO with the requests of the last squash in front (replay_fifo).
    std::vector<std::pair<Expr, Expr>> queue;
    for (unsigned k = 0; k < kReplayDepth; ++k)
      queue.emplace_back(m.logic("queue" + std::to_string(k) + "_valid"), m.logic("queue" + std::to_string(k), req_bits));
    Expr t_kind_q = m.logic("t_kind_q", 2);
    Expr t_req_q = m.logic("t_req_q", req_bits);
    Expr m1_kind_q = m.logic("m1_kind_q", 2);
    Expr m1_req_q = m.logic("m1_req_q", req_bits);

    m.comment("Arbitration on the state at the start of the cycle.");
    Expr core_blocked = m.logic("core_blocked");
    Expr take_replay = m.logic("take_replay");
    Expr take_in = m.logic("take_in");
    Expr a_kind = m.logic("a_kind", 2);
    m.assign(core_ready, !in_fifo[1].first);
    m.assign(core_blocked, fill_valid.lor(flush_active));
    m.assign(take_replay, (!core_blocked).land(queue[0].first));
    m.assign(take_in, (!core_blocked).land(!queue[0].first).land(in_fifo[0].first));
    m.assign(fill_take, fill_valid);
    m.assign(flush_take, (!fill_valid).land(flush_active).land(flush_valid));
    m.assign(a_kind, mux(fill_take, lit(2, kFill),
                         mux(flush_take, lit(2, kFlush), mux(take_replay.lor(take_in), lit(2, kCore), lit(2, kNone)))));
    m.assign(a_kind_o, a_kind);
    m.assign(a_req_o, mux(take_replay, queue[0].second, in_fifo[0].second));
    m.assign(stall_o, queue[0].first.lor(in_fifo[0].first).land(core_blocked));
    m.assign(empty_o, (!queue[0].first).land(!in_fifo[0].first).land(t_kind_q.eq(lit(2, kNone)))
                          .land(m1_kind_q.eq(lit(2, kNone))));

    m.comment("Squashes at the edge (contract 16.3).");
    const auto squashed = [&](const Expr& kind) {
      return (squash_core.land(kind.eq(lit(2, kCore))))
          .lor(squash_fill.land(kind.eq(lit(2, kFill))))
          .lor(squash_flush.land(kind.eq(lit(2, kFlush))));
    };
    m.assign(t_squash_o, squashed(t_kind_q));
    m.assign(m1_squash_o, squashed(m1_kind_q));

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

    const Expr replay_total = replay_fifo(m, replay, take_replay, take_in, squash_core, failed_valid, failed_req,
                                          m1_kind_q, m1_req_q, t_kind_q, t_req_q, queue, req_bits);

    std::vector<Init> valid_resets = {{t_kind_q, lit(2, kNone)}, {m1_kind_q, lit(2, kNone)}};
    for (const auto& [v, p] : in_fifo) valid_resets.push_back({v, bit(false)});
    m.always_ff(valid_resets, [&](Block& b) {
      b.assign(t_kind_q, mux(squashed(a_kind), lit(2, kNone), a_kind));
      b.assign(m1_kind_q, mux(t_squash_o, lit(2, kNone), t_kind_q));
      b.assign(in_fifo[0].first, in0_valid_d);
      b.assign(in_fifo[1].first, in1_valid_d);
    });
    m.always_ff_noreset([&](Block& b) {
      b.assign(t_req_q, a_req_o);
      b.assign(m1_req_q, t_req_q);
      b.assign(in_fifo[0].second, in0_d);
      b.assign(in_fifo[1].second, in1_d);
    });
    m.assign(t_kind_o, t_kind_q);
    m.assign(t_req_o, t_req_q);
    m.assign(m1_kind_o, m1_kind_q);
    m.assign(m1_req_o, m1_req_q);
    if (find) {
      m.comment("The key search: every place a core request waits before M2 (golden store_pending's FIFOs, T, M1;");
      m.comment("the replay FIFO is the queue A sees, P ++ FIFO: a squash's requests wait in P for a cycle).");
      std::vector<Expr> hits;
      const auto key_of = [&](const Expr& req) { return req.part(key_lsb, key_bits).eq(find_i); };
      for (const auto& [v, p] : in_fifo) hits.push_back(v.land(key_of(p)));
      for (const auto& [v, p] : queue) hits.push_back(v.land(key_of(p)));
      hits.push_back(t_kind_q.eq(lit(2, kCore)).land(key_of(t_req_q)));
      hits.push_back(m1_kind_q.eq(lit(2, kCore)).land(key_of(m1_req_q)));
      Expr any = hits[0];
      for (size_t k = 1; k < hits.size(); ++k) any = any.lor(hits[k]);
      m.assign(found_o, any);
    }
    m.verification("Assertions (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
      v.assert_clocked("IssueFailedNeedsSquash_A", (!failed_valid).lor(squash_core));
      v.assert_clocked("IssueReplayWithinFour_A", replay_total.le(lit(3, kReplayDepth)));
    });
    return m;
  }

 private:
  static constexpr unsigned kReplayDepth = 4;  // contract 16.2: A, T, M1 and M2 hold at most 4 core requests

  // The replay FIFO, as the queue L = P ++ R: R the FIFO's registers (packed to the front), P the
  // requests a core squash sends back (the failed M2 request, M1's, T's and A's core pick, each with
  // its valid bit), registered at the squash's edge and moved in front of R at the next edge. The
  // queue A sees in a cycle is L, with the same contents and order the contract's replay FIFO has
  // (16.3: the failed request, the squashed younger ones, then the FIFO's earlier contents), so
  // nothing of this is observable. The squash only sets P's four valid bits; P's payloads are taken
  // every cycle, and L's compaction and A's pop read flip-flops only (docs/synthesis.md, timing10).
  // P holds for one cycle only, the one after the squash, when T's request is in m1_req_q and A's
  // pick in t_req_q (the pipe's payloads move at every edge): only the failed and M1's requests
  // need registers of their own (back_failed_q, back_m1_q; timing11: -2 x the request's bits).
  static Expr replay_fifo(Module& m, const std::vector<std::pair<Expr, Expr>>& replay,
                          const Expr& take_replay, const Expr& take_in, const Expr& squash_core,
                          const Expr& failed_valid, const Expr& failed_req, const Expr& m1_kind_q,
                          const Expr& m1_req_q, const Expr& t_kind_q, const Expr& t_req_q,
                          const std::vector<std::pair<Expr, Expr>>& queue, const Expr& req_bits) {
    m.comment("Replay FIFO: a core squash sends the failed M2 request and the core requests of M1, T and A");
    m.comment("(A's pick back) to P, in that order (T's and A's are m1_req_q and t_req_q in the next cycle,");
    m.comment("the others registered); at the next edge P goes in front of the FIFO, whose");
    m.comment("head A takes from the queue P ++ FIFO (at most 4 requests in all: asserted).");
    const unsigned n = kReplayDepth;
    Expr has_failed = m.logic("has_failed");
    Expr m1_back = m.logic("m1_back");
    Expr t_back = m.logic("t_back");
    Expr a_back = m.logic("a_back");
    m.assign(has_failed, failed_valid.land(squash_core));
    m.assign(m1_back, squash_core.land(m1_kind_q.eq(lit(2, kCore))));
    m.assign(t_back, squash_core.land(t_kind_q.eq(lit(2, kCore))));
    m.assign(a_back, squash_core.land(take_replay.lor(take_in)));
    // P, oldest first: (valid, payload) and what they take at the edge; T's and A's payloads are
    // the pipe's own registers of the next cycle (m1_req_q, t_req_q), the others registered here.
    const std::vector<std::string> pn = {"back_failed", "back_m1", "back_t", "back_a"};
    const std::vector<Expr> p_take_v = {has_failed, m1_back, t_back, a_back};
    const std::vector<Expr> p_take_p = {failed_req, m1_req_q};
    std::vector<std::pair<Expr, Expr>> p;
    for (unsigned k = 0; k < pn.size(); ++k) {
      p.emplace_back(m.logic(pn[k] + "_valid_q"),
                     k < p_take_p.size() ? m.logic(pn[k] + "_q", req_bits) : (k == 2 ? m1_req_q : t_req_q));
    }

    // The queue L: R with P's requests put in front, youngest (A's) first.
    std::vector<Expr> qv, qp;
    for (unsigned k = 0; k < n; ++k) {
      qv.push_back(queue[k].first);
      qp.push_back(queue[k].second);
    }
    std::vector<Init> q_init;
    for (unsigned k = 0; k < n; ++k) {
      q_init.push_back({qv[k], replay[k].first});
      q_init.push_back({qp[k], replay[k].second});
    }
    m.always_comb(q_init, [&](Block& b) {
      for (unsigned i = n; i-- > 0;) {
        b.if_(p[i].first, [&](Block& t) {
          for (unsigned k = n; k-- > 1;) {
            t.assign(qv[k], qv[k - 1]);
            t.assign(qp[k], qp[k - 1]);
          }
          t.assign(qv[0], bit(true));
          t.assign(qp[0], p[i].second);
        });
      }
    });

    std::vector<Expr> rv, rp;  // next state: L after A's pop
    for (unsigned k = 0; k < n; ++k) {
      const std::string i = std::to_string(k);
      rv.push_back(m.logic("replay" + i + "_valid_d"));
      rp.push_back(m.logic("replay" + i + "_d", req_bits));
      const bool last = k + 1 == n;
      m.assign(rv[k], last ? qv[k].land(!take_replay) : mux(take_replay, qv[k + 1], qv[k]));
      m.assign(rp[k], last ? qp[k] : mux(take_replay, qp[k + 1], qp[k]));
    }
    std::vector<Init> resets;
    for (const auto& [v, pl] : replay) resets.push_back({v, bit(false)});
    for (const auto& [v, pl] : p) resets.push_back({v, bit(false)});
    m.always_ff(resets, [&](Block& b) {
      for (unsigned k = 0; k < n; ++k) b.assign(replay[k].first, rv[k]);
      for (unsigned k = 0; k < n; ++k) b.assign(p[k].first, p_take_v[k]);
    });
    m.always_ff_noreset([&](Block& b) {
      for (unsigned k = 0; k < n; ++k) b.assign(replay[k].second, rp[k]);
      for (unsigned k = 0; k < p_take_p.size(); ++k) b.assign(p[k].second, p_take_p[k]);
    });
    // The requests the queue holds (at most 4: asserted by the caller).
    Expr total = cast(3, replay[0].first);
    for (unsigned k = 1; k < n; ++k) total = total + cast(3, replay[k].first);
    for (unsigned k = 0; k < n; ++k) total = total + cast(3, p[k].first);
    return total;
  }
};

}  // namespace

const RtlBlock& issue_block() {
  static const Issue block;
  return block;
}

}  // namespace gen::blocks
