// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): miss_queue, compose_line, fill_fifo.
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

namespace {

// The queue's order and no-loss check (verification region, docs/rtl-verification.md): pushes and
// pops numbered from reset, golden's order within a cycle (write-back k after the enabled lanes
// below k, then the final push), each number computed from the enables alone, apart from the
// offsets that place the entries (mq_wb_at, mq_final_at). Each entry keeps the number of the push
// that wrote it (wb_hit / final_hit: where the RTL writes); the entry the port offers (the head,
// while the queue holds any) must carry the number of the next pop, and the pushes less the pops
// must be the queue's count. A push placed at the wrong entry, an entry overwritten or skipped, a
// pop of the wrong entry or a count that drifts from the pushes and pops all break it.
struct OrderCheck {
  unsigned entries, idx_bits;
  Expr wb_en, push_final, wb_hit, final_hit, head_q, count_q, pop;
};

void miss_queue_order(Scope& m, const OrderCheck& c) {
  m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
    constexpr unsigned W = 32;  // push and pop numbers: no wrap within a testbench or gpusim run
    v.comment("Pushes and pops numbered from reset; write-back k of a cycle is push sva_mq_pushed_q +");
    v.comment("the enabled lanes below k, the final push follows the write-backs.");
    Expr pushed = v.logic("sva_mq_pushed_q", W);
    Expr popped = v.logic("sva_mq_popped_q", W);
    std::vector<Expr> wb_num;
    Expr final_num = v.logic("sva_mq_final_num", W);
    // A running sum of the enables (pushed + countones(wb_en & ((1 << k) - 1)); Verilator 5.006's DFG
    // stops with an internal error on that $countones in a 32-bit cast), one signal per lane (parts
    // of one vector reading each other are a loop to Verilator, UNOPTFLAT).
    Expr num_k = pushed;
    for (unsigned k = 0; k < kSlots; ++k) {
      wb_num.push_back(v.logic("sva_mq_wb" + std::to_string(k) + "_num", W));
      v.assign(wb_num[k], num_k);
      num_k = wb_num[k] + cast(W, c.wb_en[Expr(k)]);
    }
    v.assign(final_num, num_k);
    v.always_ff({{pushed, zeros()}, {popped, zeros()}}, [&](Block& b) {
      b.assign(pushed, final_num + cast(W, c.push_final));
      b.assign(popped, popped + cast(W, c.pop));
    });
    v.comment("Per entry the number of the push that last wrote it (all ones from reset: none).");
    std::vector<Expr> num;
    for (unsigned e = 0; e < c.entries; ++e) {
      num.push_back(v.logic("sva_mq" + std::to_string(e) + "_num_q", W));
      v.always_ff({{num[e], ones()}}, [&](Block& b) {
        for (unsigned k = 0; k < kSlots; ++k) {
          b.if_(c.wb_hit[Expr(e * kSlots + k)], [&](Block& t) { t.assign(num[e], wb_num[k]); });
        }
        b.if_(c.final_hit[Expr(e)], [&](Block& t) { t.assign(num[e], final_num); });
      });
    }
    Expr head_num = v.logic("sva_mq_head_num", W);
    Expr out = num[c.entries - 1];
    for (unsigned e = c.entries - 1; e-- > 0;) out = mux(c.head_q.eq(lit(c.idx_bits, e)), num[e], out);
    v.assign(head_num, out);
    v.comment("The offered (and popped) entry is the oldest: the push numbered as the pops so far; and");
    v.comment("the queue holds exactly the pushes not popped.");
    v.assert_comb("TopMissQueueInOrder_A", (c.count_q.eq(zeros())).lor(head_num.eq(popped))
                                               .land((pushed - popped).eq(cast(W, c.count_q))));
  });
}

}  // namespace

// ---------------------------------------------------------------------------------------
// The miss queue: up to four write-backs and one read/store pushed per cycle, one popped.
void Top::miss_queue() {
  const ReqLayout& L = req_layout_;
  const unsigned R = L.width();
  const unsigned Q = queue_;
  m.comment("Entry e: the request's fields but its data and mask (mq<e>_req_q), and one of two payloads:");
  m.comment("a write-back's slot (mq<e>_wb_q: its 32 B and dirty mask, unshifted, placed at its sector when");
  m.comment("the entry is sent) or S1's store data and mask (mq<e>_st_q, the whole line; a read sends zeros).");
  m.comment("An entry that is written takes the request and one payload: no multiplexer of the other one,");
  m.comment("and S1's line and mask go into mq<e>_st_q unselected.");
  // One register per entry and field, not a (* mem2reg *) table: Verilator gives every write
  // statement into a table a delayed-write value of the word's width, which it zeroes on every
  // clock edge (32 x 288 + 8 x 1152 bits for the payloads, 7-9 % of a verilated kmeans run).
  // Plain registers written from one always_ff each need no such temporary; Yosys makes the
  // same flops and the same head select of them.
  std::vector<Expr> req_q, wbp_q, stp_q;
  for (unsigned e = 0; e < Q; ++e) {
    req_q.push_back(m.logic("mq" + std::to_string(e) + "_req_q", R));
    wbp_q.push_back(m.logic("mq" + std::to_string(e) + "_wb_q", kSlotBits + 32));
    stp_q.push_back(m.logic("mq" + std::to_string(e) + "_st_q", kLineBits + kMaskBits));
  }
  mq_req_q_ = req_q;
  Expr head_d = m.logic("mq_head_d", queue_idx_bits_);
  Expr head_q = mq_head_q_ = m.logic("mq_head_q", queue_idx_bits_);
  Expr count_d = m.logic("mq_count_d", queue_count_bits_);
  Expr pop = mq_pop_ = m.logic("mq_pop");
  m.assign(pop, mq_count_q.ne(zeros()) & mem_ready);

  miss_candidates();
  const Expr& wb_req = wb_req_;
  const Expr& wb_pay = wb_pay_;
  const Expr& final_req = final_req_;
  const Expr& pushes = mq_pushes_;
  const unsigned pw = queue_count_bits_ + 2;
  auto wrap = [&](const Expr& x) {  // (head + count + off) mod Q for a pw-bit x < 2Q
    return mux(x.ge(lit(pw, Q)), x - lit(pw, Q), x);
  };
  Expr tail = m.logic("mq_tail", queue_count_bits_ + 1);
  m.assign(tail, cast(queue_count_bits_ + 1, head_q) + cast(queue_count_bits_ + 1, mq_count_q));
  m.comment("Where each push goes: write-back k at tail + wb_off[k], the final push at tail + final_off.");
  Expr wb_at = m.logic("mq_wb_at", kSlots * queue_idx_bits_);
  Expr final_at = m.logic("mq_final_at", queue_idx_bits_);
  for (unsigned k = 0; k < kSlots; ++k) {
    m.assign(wb_at.part(Expr(k * queue_idx_bits_), queue_idx_bits_),
             cast(queue_idx_bits_, wrap(cast(pw, tail) + cast(pw, wb_off.part(Expr(k * 3), 3)))));
  }
  m.assign(final_at, cast(queue_idx_bits_, wrap(cast(pw, tail) + cast(pw, final_off))));
  m.comment("Which pushes write entry e: write-back k (mq_wb_hit[e*4 + k]) or the final push (mq_final_hit[e]).");
  Expr wb_hit = m.logic("mq_wb_hit", Q * kSlots);
  Expr final_hit = m.logic("mq_final_hit", Q);
  m.gen_for("g_mq", "ge", 0, Expr(Q), [&](Scope& g, const Expr& e) {
    for (unsigned k = 0; k < kSlots; ++k) {
      g.assign(wb_hit[e * kSlots + Expr(k)],
               wb_en[Expr(k)] & wb_at.part(Expr(k * queue_idx_bits_), queue_idx_bits_).eq(cast(queue_idx_bits_, e)));
    }
    g.assign(final_hit[e], push_final & final_at.eq(cast(queue_idx_bits_, e)));
  });
  for (unsigned e = 0; e < Q; ++e) {
    m.comment("Entry " + std::to_string(e) + ": a later push to the same entry wins (none does: the offsets differ).");
    m.always_ff_noreset([&](Block& b) {
      b.for_("k", 0, Expr(kSlots), [&](Block& bk, const Expr& k) {
        bk.if_(wb_hit[Expr(e * kSlots) + k], [&](Block& t) {
          t.assign(req_q[e], wb_req.part(k * R, R));
          t.assign(wbp_q[e], wb_pay.part(k * (kSlotBits + 32), kSlotBits + 32));
        });
      });
      b.if_(final_hit[Expr(e)], [&](Block& t) {
        t.assign(req_q[e], final_req);
        t.assign(stp_q[e], concat({s1_mask_q, s1_data_q}));
      });
    });
  }
  m.assign(head_d, mux(pop, cast(queue_idx_bits_, wrap(cast(pw, head_q) + lit(pw, 1))), head_q));
  m.assign(count_d, mq_count_q - cast(queue_count_bits_, pop) + cast(queue_count_bits_, pushes));
  m.always_ff({{head_q, zeros()}, {mq_count_q, zeros()}}, [&](Block& b) {
    b.assign(head_q, head_d);
    b.assign(mq_count_q, count_d);
  });
  miss_queue_order(m, {Q, queue_idx_bits_, wb_en, push_final, wb_hit, final_hit, head_q, mq_count_q, pop});

  m.comment("The head entry (a chain of selects, as select_part) and the request it sends: a write-back's");
  m.comment("payload at its sector, a store's line and mask, zeros for a read.");
  Expr head_req = m.logic("mq_head_req", R);
  Expr head_wb = m.logic("mq_head_wb", kSlotBits + 32);
  Expr head_st = m.logic("mq_head_st", kLineBits + kMaskBits);
  auto entry = [&](const std::vector<Expr>& regs) {
    Expr out = regs[Q - 1];
    for (unsigned e = Q - 1; e-- > 0;) out = mux(head_q.eq(lit(queue_idx_bits_, e)), regs[e], out);
    return out;
  };
  m.assign(head_req, entry(req_q));
  m.assign(head_wb, entry(wbp_q));
  m.assign(head_st, entry(stp_q));
  mem_outputs(mq_count_q.ne(zeros()), head_req, head_wb, head_st);
}

// The requests M2 (S1) may queue this cycle: write-back k (k = 0..3) and the final read or store,
// and how many it queues (mq_pushes).
void Top::miss_candidates() {
  const ReqLayout& L = req_layout_;
  const unsigned R = L.width();
  if (!staged_) {  // the staged pipe builds them at C from M2's registered row (staged_wb_at_c)
    m.comment("Write-back k: slot wb_slot[k] of way wb_way[k], the chunk it holds, at its memory address");
    m.comment("(S1's own line, or composed from the set and the slot's tags).");
    wb_req_ = m.logic("wb_req", kSlots * R);
    wb_dirty_ = m.logic("wb_dirty", kSlots * 32);
    Expr wb_set = m.logic("wb_set", set_idx_bits_);
    m.assign(wb_set, rd_set);
    wb_lanes("g_wb", WbRow{lane_way, lane_slot, t_tag, t_common, t_dirty, wb_from_s1, s1_line, wb_set}, wb_req_,
             wb_dirty_);
  }
  m.comment("S1's read (its fetch, bypass reason and new MSHR entry; or under mshr_merge block the sectors");
  m.comment("its line's entry lacks, a bypass read for that entry, under sector marked bypass iff the entry");
  m.comment("bypasses, contract 14) or store (its needed sectors).");
  Expr final_req = final_req_ = m.logic("final_req", R);
  Expr read_entry = m.logic("read_entry", mshr_bits_);
  m.assign(read_entry, mux(s1_widening, p_merge_entry, p_free_entry));
  m.assign(final_req, L.pack(s1_line, s1_store_q,
                             mux(s1_store_q, s1_needed, mux(s1_widening, p_missing, s1_fetch_eff)), bit(false),
                             (!s1_store_q) & mux(s1_widening, (!sector_merge_) | p_merge_bypass,
                                                 s1_reason_eff.ne(lit(2, 0))),
                             (!s1_store_q) & !s1_widening & s1_reason_eff.eq(lit(2, 1)),
                             mux(s1_store_q, lit(kMshrPortBits, 0),
                                 cast(kMshrPortBits, read_entry))));

  // A write-back's payload: its dirty mask over its 32 B (staged: the bytes come at D, staged_data).
  if (!staged_) wb_pay_ = wb_payloads(wb_dirty_, lane_data);
  Expr pushes = mq_pushes_ = m.logic("mq_pushes", 3);
  m.assign(pushes, cast(3, countones(wb_en)) + cast(3, push_final));
}

// Write-back k's request and dirty mask (k = 0..3, generate block `name`): slot `slot[k]` of way
// `way[k]` of a row's chunk-tags, common-tags and dirty masks, at its memory address (the operation's
// own line when `own`, else composed from the set and the slot's tags). The single-cycle pipe reads S1's
// row, the staged pipe M2's row registered for C.
void Top::wb_lanes(const std::string& name, const WbRow& r, const Expr& req, const Expr& dirty) {
  const ReqLayout& L = req_layout_;
  const unsigned R = L.width();
  m.gen_for(name, "gk", 0, kSlots, [&](Scope& g, const Expr& k) {
    Expr way = g.logic("way", way_bits_);
    Expr slot = g.logic("slot", 2);
    Expr tag = g.logic("tag", ct_bits_);
    Expr chunk = g.logic("chunk", 2);
    Expr line = g.logic("line", line_bits_);
    Expr common = g.logic("common", cm_bits_);
    g.assign(way, r.way.part(k * way_bits_, way_bits_));
    g.assign(slot, r.slot.part(k * 2, 2));
    g.comment("The slot's tag and dirty mask (selects over the row's 16 slots) and its data, lane k.");
    g.assign(tag, select_part(r.tag, concat({way, slot}), ways_ * kSlots, ct_bits_));
    g.assign(chunk, tag.slice(1, 0));
    g.assign(common, select_part(r.common, way, ways_, cm_bits_));
    g.assign(dirty.part(k * 32, 32), select_part(r.dirty, concat({way, slot}), ways_ * kSlots, 32));
    g.assign(line, mux(r.own, r.line, compose_line(g, common, tag, r.set)));
    g.assign(req.part(k * R, R), L.pack(line, bit(true), cast(kSlots, lit(4, 1) << chunk), bit(true), bit(false),
                                        bit(false), lit(kMshrPortBits, 0)));
  });
}

Expr Top::wb_payloads(const Expr& dirty, const Expr& lanes) {
  Expr pay = m.logic("wb_pay", kSlots * (kSlotBits + 32));
  for (unsigned k = 0; k < kSlots; ++k) {
    m.assign(pay.part(Expr(k * (kSlotBits + 32)), kSlotBits + 32),
             concat({dirty.part(Expr(k * 32), 32), lanes.part(Expr(k * kSlotBits), kSlotBits)}));
  }
  return pay;
}

// The memory request port from the queue's head entry (its request, write-back and store payloads).
void Top::mem_outputs(const Expr& valid, const Expr& head_req, const Expr& head_wb, const Expr& head_st) {
  const ReqLayout& L = req_layout_;
  Expr head_is_wb = m.logic("mq_head_is_wb");
  Expr head_is_st = m.logic("mq_head_is_st");
  Expr head_sectors = m.logic("mq_head_sectors", kSlots);
  m.assign(head_is_wb, head_req[Expr(L.wb)]);
  m.assign(head_is_st, head_req[Expr(L.store)] & !head_is_wb);
  m.assign(head_sectors, head_req.part(Expr(L.sectors), kSlots));
  m.gen_for("g_mem_chunk", "gc", 0, kSlots, [&](Scope& g, const Expr& c) {
    Expr from_wb = g.logic("from_wb");
    g.assign(from_wb, head_is_wb & head_sectors[c]);
    g.assign(mem_data_o.part(c * kSlotBits, kSlotBits),
             mux(from_wb, head_wb.part(Expr(0), kSlotBits),
                 head_st.part(c * kSlotBits, kSlotBits) & repl(kSlotBits, head_is_st)));
    g.assign(mem_mask_o.part(c * 32, 32),
             mux(from_wb, head_wb.part(Expr(kSlotBits), 32),
                 head_st.part(Expr(kLineBits) + c * 32, 32) & repl(32, head_is_st)));
  });
  m.assign(mem_valid_o, valid);
  m.assign(mem_line_o, head_req.part(Expr(L.line), line_bits_));
  m.assign(mem_store_o, head_req[Expr(L.store)]);
  m.assign(mem_sectors_o, head_sectors);
  m.assign(mem_bypass_o, head_req[Expr(L.bypass)]);
  m.assign(mem_agcb_o, head_req[Expr(L.agcb)]);
  m.assign(mem_mshr_o, head_req.part(Expr(L.mshr), kMshrPortBits));
}

// The memory line address (AddrBits-7 bits) of chunk-tag `tag` with common-tag `common` in set
// `set`: the inverse of l1d_addr_decode (the Fermi hash only reads bits above the set field).
Expr Top::compose_line(Scope& g, const Expr& common, const Expr& tag, const Expr& set) {
  const unsigned set_bits = split_.set_bits();
  const unsigned low = ct_bits_ - 2;                  // chunk-tag bits of the line tag
  const unsigned line_tag_bits = line_bits_ - set_bits;
  Expr line_tag = g.logic("line_tag", line_tag_bits);
  if (split_.common_tag_bits() > 0) {
    g.assign(line_tag, concat({common, tag.slice(ct_bits_ - 1, 2)}));
  } else {
    Expr unused_common = g.logic("unused_common");
    g.assign(unused_common, red_or(common));
    g.assign(line_tag, tag.slice(ct_bits_ - 1, 2));
  }
  (void)low;
  if (adaptive_) {  // l1.carveout adaptive: the line tag above the active set bits (contract 15)
    Expr without = g.logic("line_no_set", line_bits_);
    g.assign(without, cast(line_bits_, line_tag) << cfg_set_bits_);
    Expr linear = g.logic("linear", set_idx_bits_);
    if (cfg_.l1.set_index == l1d::SetIndexHash::kFermiXor) {
      // Address bits 13-15, 17 and 19 are line bits 6-8, 10 and 12, above any active set field.
      Expr hash = g.logic("hash", 5);
      g.assign(hash, concat({without[Expr(12U)], without[Expr(10U)], without.slice(8, 6)}));
      g.assign(linear, (set ^ cast(set_idx_bits_, hash)) & set_last_);
    } else {
      g.assign(linear, set & set_last_);
    }
    return without | cast(line_bits_, linear);
  }
  if (set_bits == 0) {
    Expr unused_set = g.logic("unused_set");
    g.assign(unused_set, red_or(set));
    return line_tag;
  }
  Expr linear = g.logic("linear", set_bits);
  if (cfg_.l1.set_index == l1d::SetIndexHash::kFermiXor) {
    // Address bit b (>= 7 + set_bits) is line-tag bit b - 7 - set_bits; a bit above the address
    // (l1.address_bits below 20) reads as 0, as in l1d_addr_decode.
    auto abit = [&](unsigned b) {
      return b - 7 - set_bits < line_tag_bits ? line_tag[Expr(b - 7 - set_bits)] : bit(false);
    };
    Expr hash = g.logic("hash", 5);
    g.assign(hash, concat({abit(19), abit(17), abit(15), abit(14), abit(13)}));
    g.assign(linear, set ^ hash.slice(set_bits - 1 < 4 ? set_bits - 1 : 4, 0));
  } else {
    g.assign(linear, set);
  }
  return concat({line_tag, linear});
}

// ---------------------------------------------------------------------------------------
// Fill FIFO: MSHR ids in response order.
void Top::fill_fifo() {
  Expr fifo_q = m.logic("fifo_q", mshr_bits_, {Expr(mshrs_)});
  Expr head_q = m.logic("fifo_head_q", mshr_bits_);
  Expr head_d = m.logic("fifo_head_d", mshr_bits_);
  Expr count_d = m.logic("fifo_count_d", bits_for(mshrs_ + 1));
  const unsigned cb = bits_for(mshrs_ + 1) + 1;
  auto wrap = [&](const Expr& x) { return mux(x.ge(lit(cb, mshrs_)), x - lit(cb, mshrs_), x); };
  m.comment("An entry joins when its last read is answered (mshr_merge block: it may have several).");
  m.always_ff_noreset([&](Block& b) {
    b.if_(rsp_fills, [&](Block& t) {
      t.assign(fifo_q[cast(mshr_bits_, wrap(cast(cb, head_q) + cast(cb, fifo_count_q)))], rsp_entry);
    });
  });
  m.assign(head_d, mux(mshr_release, cast(mshr_bits_, wrap(cast(cb, head_q) + lit(cb, 1))), head_q));
  m.assign(count_d, fifo_count_q + cast(bits_for(mshrs_ + 1), rsp_fills) - cast(bits_for(mshrs_ + 1), mshr_release));
  m.always_ff({{head_q, zeros()}, {fifo_count_q, zeros()}}, [&](Block& b) {
    b.assign(head_q, head_d);
    b.assign(fifo_count_q, count_d);
  });
  m.assign(fill_head, fifo_q[head_q]);
}

}  // namespace gen::blocks::top_gen
