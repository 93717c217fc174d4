// l1d_miss_queue: the staged L1's miss queue (docs/l1d-microarchitecture.md sections 5 and 16.4),
// the last stop of an operation's memory requests before the memory request port. Golden
// counterpart: golden::L1's miss_queue_ with miss_queue_visible_ / last_visible_
// (golden/l1_staged.cpp): the k-th request the operation decided at M in cycle m queues is
// presented from max(m + 3 + k, p + 1), p the cycle the request before it became presentable.
//
// The interface follows the pipe: M gives the operation's request count (counted from m + 1, as
// golden's room check counts it), D (m + 2, when the data SRAM's write-back words have arrived)
// the requests themselves, all at once. Request k of a batch at D could be presented from
// D + 1 + k, but its predecessor k - 1 is presented from D + k at the earliest, so only a batch's
// first request ever waits for its own time, and that is D + 1, the cycle after it is written:
// the contract's rule is "one more request becomes presentable at every clock edge while the
// queue (with the batch arriving at that edge) holds one that is not" (vis_q below). The output is
// a register (Moore), loaded at each edge with the head the edge leaves: from the ring, or from
// batch lane 0 when the ring is empty after the edge's pop.
//
// The late field (LateLsb, LateBits; issue 24's "write-back buffer", contract 16.5): bits
// [LateLsb +: LateBits] of every request arrive one cycle after the rest, on r_late_i (l1d_top: a
// write-back's data words, registered out of the data SRAM at D so that no macro output runs through
// the batch's lane selects into the ring). The ring writes them at the next edge into the entries the
// batch took (pend_q), and the two places that read an entry in the cycle between take them from
// r_late_i instead: the output register loaded with lane 0 at D's edge (out_late_q: the port's late
// bits come from r_late_i's lane 0 for that cycle), and the next edge's head read (forwarded). Not
// observable: the port offers the same request in the same cycles.
//
// Storage: flops, every entry written by any lane of a batch (a Batch:1 select per entry), never
// an l1d_sram_1r1w. Why not one write per cycle into an SRAM (contract 16.5's plan): golden's room
// check counts a request from m + 1 and lets the next operations queue on that count, so the
// requests that have reached D and are not yet presentable can be almost the whole queue
// (gtx480: two 4-write-back flush visits at m and m + 1 leave 6 of 8 waiting at m + 4; the
// testbench's random traffic reaches 6 of 8 on gtx480 and 28 of 32 on gtx1080). One write per
// cycle would need a staging buffer that deep with Batch write lanes in front of the SRAM: the
// same flops and selects again, plus the SRAM. At the presets' depths flops win anyway
// (docs/synthesis.md, "Tilings of gtx480's L1 arrays": gtx480's 8 x 1481-bit payload takes 47
// two-port macros, 9.4 mm2 on sky130 and 4.5 mm2 on sg13g2, against about 0.8 mm2 of sg13g2 flops),
// so there is no size-based choice to make. docs/l1d-microarchitecture.md 16.5 names the contract
// change that would let a deep queue keep its payload in a 1r1w array.
#include <string>

#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

// The requests one operation queues at most (golden/l1.cpp): a load miss that reserves its line
// (l1.allocation on_miss, write-back) writes back up to 4 dirty copies of the fetched block and up
// to 4 dirty slots of its victim, then reads (9, as common/config.cpp's check of
// miss_queue_entries says); otherwise up to 4 write-backs (copies of a load's or store's block,
// a fill's victim slots, a flush visit's line) and one read or store.
unsigned max_batch(const l1d::L1Config& l1) {
  return l1.allocation == l1d::AllocationPolicy::kOnMiss && l1.write_policy == l1d::WritePolicy::kWriteBack ? 9 : 5;
}

class MissQueue final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_miss_queue"; }
  std::string_view summary() const override {
    return "staged L1 miss queue: a batch per operation (count at M, requests at D), head presented from m + 3 + k";
  }

  Module module(const l1d::Config& cfg) const override {
    Module m(name());
    m.describe("The staged L1's miss queue (contract 5, 16.4); requests are opaque (ReqBits; l1d_top packs");
    m.describe("a MemReq). m_count_i: the number of requests the operation M decides this cycle queues");
    m.describe("(0..Batch; only with room: count_o + m_count_i <= Entries). Two cycles later (stage D) its");
    m.describe("requests arrive on d_req_i, request k at [k*ReqBits +: ReqBits], in queue order (write-backs,");
    m.describe("then the read or store); lanes >= the count are ignored. The k-th request of the operation");
    m.describe("decided in cycle m is offered (mem_req_valid_o, mem_req_o, both registered) from cycle");
    m.describe("max(m + 3 + k, p + 1), p the cycle the request queued before it became presentable, and");
    m.describe("stays offered, unchanged, until it fires (mem_req_ready_i). count_o: the requests queued and");
    m.describe("not taken, counted from the cycle after M's decision (golden's miss_queue_.size(), what M's");
    m.describe("room check uses), the sum of two registers: the count settled up to the operation decided two");
    m.describe("cycles ago (updated from the registered pulses, so m_count_i ends in a plain register) and the");
    m.describe("last cycle's count. r_late_i: bits [LateLsb +: LateBits] of the requests d_req_i gave one");
    m.describe("cycle earlier (those bits of d_req_i are ignored), lane k's at [k*LateBits +: LateBits].");
    m.describe("Reset: pointers, counts and valid only.");
    const bool find = rtl_staged_direct(cfg);
    if (find) {
      m.describe("found_o (l1.bypass_path direct, contract 16.5 \"The direct path\"): a request in the ring has");
      m.describe("find_i at bits [KeyLsb +: KeyBits] (l1d_top: a store to the queried line; the batches between M");
      m.describe("and D are l1d_top's to search).");
    }
    Expr entries = m.param("Entries", cfg.l1.miss_queue_entries);
    Expr batch = m.param("Batch", max_batch(cfg.l1));
    Expr req_bits = m.param("ReqBits", 64);
    Expr late_lsb = m.param("LateLsb", 0);  // the defaults are the testbench's (64-bit requests)
    Expr late_bits = m.param("LateBits", 8);
    Expr key_lsb = find ? m.param("KeyLsb", 0) : Expr();
    Expr key_bits = find ? m.param("KeyBits", 1) : Expr();
    Expr idx_bits = m.localparam("IdxBits", mux(entries.gt(1), clog2(entries), 1));
    Expr cnt_bits = m.localparam("CntBits", clog2(entries + 1));
    Expr n_bits = m.localparam("NBits", clog2(batch + 1));
    Expr lane_bits = m.localparam("LaneBits", mux(batch.gt(1), clog2(batch), 1));
    // Sums of a count, a batch and a ring position stay below 2 * Entries + Batch.
    Expr wide = m.localparam("WideBits", clog2(entries * 2 + batch + 1));

    m.clk();
    m.rst_n();
    Expr m_count = m.input("m_count_i", n_bits);
    Expr d_req = m.input("d_req_i", batch * req_bits);
    Expr r_late = m.input("r_late_i", batch * late_bits);
    Expr ready = m.input("mem_req_ready_i");
    Expr valid_o = m.output("mem_req_valid_o");
    Expr req_o = m.output("mem_req_o", req_bits);
    Expr count_o = m.output("count_o", cnt_bits);
    Expr find_i = find ? m.input("find_i", key_bits) : Expr();
    Expr found_o = find ? m.output("found_o") : Expr();

    m.comment("Operations between M and D: their request counts (n_d_q's already in settled_q, n_c_q's not yet).");
    Expr n_c_q = m.logic("n_c_q", n_bits);
    Expr n_d_q = m.logic("n_d_q", n_bits);
    m.comment("The count settled up to the operation decided two cycles ago: updated from the registered");
    m.comment("pulses (n_c_q, the pop), so M's decision (m_count_i) ends in n_c_q, not in an adder.");
    Expr settled_q = m.logic("settled_q", cnt_bits);
    m.comment("The ring: total_q requests from head_q, the first vis_q of them presentable.");
    Expr ring_q = m.register_table("ring_q", req_bits, entries);
    Expr head_q = m.logic("head_q", idx_bits);
    Expr total_q = m.logic("total_q", cnt_bits);
    Expr vis_q = m.logic("vis_q", cnt_bits);
    Expr out_valid_q = m.logic("out_valid_q");
    Expr out_q = m.logic("out_q", req_bits);

    const auto w = [&](const Expr& x) { return cast(wide, x); };
    const auto wrap = [&](const Expr& x) {  // a ring position of a WideBits sum below 2 * Entries
      return cast(idx_bits, mux(x.ge(w(entries)), x - w(entries), x));
    };
    Expr pop = m.logic("pop");
    Expr tail = m.logic("tail", idx_bits);
    Expr head_d = m.logic("head_d", idx_bits);
    Expr left = m.logic("left", cnt_bits);
    Expr reveal = m.logic("reveal");
    m.assign(pop, out_valid_q.land(ready));
    m.assign(tail, wrap(w(head_q) + w(total_q)));
    m.assign(head_d, mux(pop, wrap(w(head_q) + w(lit(1, 1))), head_q));
    m.assign(left, total_q - cast(cnt_bits, pop));
    m.comment("One more request becomes presentable at each edge while one in the ring or in the arriving");
    m.comment("batch is not (the contract's max(m + 3 + k, p + 1), module header).");
    m.assign(reveal, (w(total_q) + w(n_d_q)).gt(w(vis_q)));

    m.comment("Entry e takes lane (e - tail) mod Entries of the arriving batch when that is below its count.");
    Expr wr_en = m.logic("wr_en", entries);
    Expr wr_lane = m.logic("wr_lane", entries * lane_bits);
    m.gen_for("g_wr", "ge", 0, entries, [&](Scope& g, const Expr& e) {
      Expr off = g.logic("off", wide);
      g.assign(off, mux(w(e).ge(w(tail)), w(e) - w(tail), w(e) + w(entries) - w(tail)));
      g.assign(wr_en[e], off.lt(w(n_d_q)));
      g.assign(wr_lane.part(e * lane_bits, lane_bits), cast(lane_bits, off));
    });

    m.comment("The late field: the entries the last edge's batch took (their late bits arrive now, on");
    m.comment("r_late_i, lane pend_lane_q), and whether out_q was loaded from that batch's lane 0.");
    Expr pend_q = m.logic("pend_q", entries);
    Expr pend_lane_q = m.logic("pend_lane_q", entries * lane_bits);
    Expr out_late_q = m.logic("out_late_q");
    Expr late_mask = m.logic("late_mask", req_bits);  // ones at [LateLsb +: LateBits]
    m.assign(late_mask, ((cast(req_bits, lit(1, 1)) << late_bits) - cast(req_bits, lit(1, 1))) << late_lsb);
    const auto with_late = [&](const Expr& req, const Expr& late) {  // req with its late field replaced
      return (req & ~late_mask) | ((cast(req_bits, late) << late_lsb) & late_mask);
    };
    const auto late_lane = [&](Block& b, const Expr& lane, const Expr& out) {  // r_late_i's lane `lane`
      b.for_("k", 0, batch, [&](Block& bk, const Expr& k) {
        bk.if_(cast(32, lane).eq(k), [&](Block& t) { t.assign(out, r_late.part(k * late_bits, late_bits)); });
      });
    };
    Expr head_lane = m.logic("head_lane", lane_bits);
    Expr head_late = m.logic("head_late", late_bits);
    m.assign(head_lane, pend_lane_q.part(head_d * lane_bits, lane_bits));
    m.always_comb({{head_late, zeros()}}, [&](Block& b) { late_lane(b, head_lane, head_late); });

    m.comment("The output register takes the head the edge leaves: lane 0 of the arriving batch when the");
    m.comment("ring is empty after the pop (its late bits follow on r_late_i), else the ring's entry at the");
    m.comment("new head (one read; its late bits from r_late_i when the last edge's batch wrote it).");
    Expr out_d = m.logic("out_d", req_bits);
    m.assign(out_d, mux(left.eq(zeros()), d_req.part(0, req_bits),
                        mux(pend_q[head_d], with_late(ring_q[head_d], head_late), ring_q[head_d])));

    Expr vis_d = m.logic("vis_d", cnt_bits);
    m.assign(vis_d, vis_q - cast(cnt_bits, pop) + cast(cnt_bits, reveal));
    m.always_ff({{n_c_q, zeros()}, {n_d_q, zeros()}, {settled_q, zeros()}, {head_q, zeros()}, {total_q, zeros()},
                 {vis_q, zeros()}, {out_valid_q, bit(false)}, {pend_q, zeros()}, {out_late_q, bit(false)}},
                [&](Block& b) {
                  b.assign(pend_q, wr_en);
                  b.assign(out_late_q, left.eq(zeros()));
                  b.assign(n_c_q, m_count);
                  b.assign(n_d_q, n_c_q);
                  b.assign(settled_q, settled_q - cast(cnt_bits, pop) + cast(cnt_bits, n_c_q));
                  b.assign(head_q, head_d);
                  b.assign(total_q, left + cast(cnt_bits, n_d_q));
                  b.assign(vis_q, vis_d);
                  b.assign(out_valid_q, vis_d.ne(zeros()));
                });
    // Each entry's write decoded over the batch's lanes: a lane picked by a run-time part select
    // (d_req_i[lane * ReqBits +: ReqBits]) is a barrel shifter over the whole batch in Yosys 0.23
    // (gen/blocks/wide_select.h), which at the staged top's 1 481-bit requests kept its synthesis
    // in techmap for minutes (docs/rtl-verification.md, "Gate-level lockstep").
    // The late write comes first: an entry the new batch takes at the same edge (one freed by the
    // cycle's pop) gets the new request, whose own late bits follow at the next edge.
    m.always_ff_noreset([&](Block& b) {
      b.assign(pend_lane_q, wr_lane);
      b.for_("i", 0, entries, [&](Block& body, const Expr& i) {
        body.for_("k", 0, batch, [&](Block& bk, const Expr& k) {
          bk.if_(pend_q[i].land(cast(32, pend_lane_q.part(i * lane_bits, lane_bits)).eq(k)), [&](Block& t) {
            t.assign(ring_q[i], with_late(ring_q[i], r_late.part(k * late_bits, late_bits)));
          });
        });
      });
      b.for_("i", 0, entries, [&](Block& body, const Expr& i) {
        body.for_("k", 0, batch, [&](Block& bk, const Expr& k) {
          bk.if_(wr_en[i].land(cast(32, wr_lane.part(i * lane_bits, lane_bits)).eq(k)), [&](Block& t) {
            t.assign(ring_q[i], d_req.part(k * req_bits, req_bits));
          });
        });
      });
      b.assign(out_q, out_d);
    });
    m.assign(valid_o, out_valid_q);
    m.comment("The port: out_q, its late field from r_late_i's lane 0 in the cycle after it took lane 0.");
    m.assign(req_o, mux(out_late_q, with_late(out_q, r_late.part(0, late_bits)), out_q));
    m.comment("The count at the start of the cycle, as before the split: settled plus last cycle's operation.");
    m.assign(count_o, settled_q + cast(cnt_bits, n_c_q));
    if (find) {
      m.comment("The key search over the ring: entry e is queued when (e - head_q) mod Entries is below total_q.");
      Expr hit = m.logic("find_hit", entries);
      m.gen_for("g_find", "ge", 0, entries, [&](Scope& g, const Expr& e) {
        Expr off = g.logic("off", wide);
        g.assign(off, mux(w(e).ge(w(head_q)), w(e) - w(head_q), w(e) + w(entries) - w(head_q)));
        g.assign(hit[e], off.lt(w(total_q)).land(ring_q[e].part(key_lsb, key_bits).eq(find_i)));
      });
      m.assign(found_o, red_or(hit));
    }

    m.verification("Assertions (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
      Expr occupancy = v.logic("occupancy", wide);
      v.assign(occupancy, w(total_q) + w(n_c_q) + w(n_d_q));
      v.comment("Input contract: M queues only with room (the requests held and on their way, after the pop).");
      v.assert_clocked("MqNoOverflow_A", (occupancy + w(m_count)).le(w(entries) + w(pop)));
      v.comment("The offered request is one the ring holds: no pop of an empty queue.");
      v.assert_comb("MqNoUnderflow_A", vis_q.le(total_q).land(out_valid_q.eq(vis_q.ne(zeros()))));
      v.comment("A request offered and not taken is offered again, unchanged (a copy of the port's last cycle).");
      Expr stalled = v.logic("stalled_q");
      Expr offered = v.logic("offered_q", req_bits);
      v.always_ff({{stalled, bit(false)}}, [&](Block& b) { b.assign(stalled, out_valid_q.land(!ready)); });
      v.always_ff_noreset([&](Block& b) { b.assign(offered, req_o); });
      v.assert_comb("MqHeldUntilReady_A", (!stalled).lor(out_valid_q.land(req_o.eq(offered))));
      v.assert_comb("MqCountWithinCapacity_A", w(count_o).le(w(entries)));
    });
    return m;
  }
};

}  // namespace

const RtlBlock& miss_queue_block() {
  static const MissQueue block;
  return block;
}

}  // namespace gen::blocks
