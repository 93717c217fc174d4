// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): actors, fill_actor, walk_actor, s1_actor.
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

// ---------------------------------------------------------------------------------------
// The acting actor's decisions: which branch acts, its narrow outputs and the counters. The wide
// writes it causes (tag/state row, data row, response data) are computed from these flags by
// row_writes() and response(): one candidate per source, selected once.
void Top::actors() {
  // Staged: l1d_miss_queue's registered count (staged_miss_queue).
  mq_count_q = m.logic(staged_ ? "mq_count" : "mq_count_q", queue_count_bits_);
  auto room = [&](const Expr& n) {  // the miss queue has room for n more (occupancy at cycle start)
    return (cast(queue_count_bits_ + 3, mq_count_q) + cast(queue_count_bits_ + 3, n))
        .le(cast(queue_count_bits_ + 3, Expr(queue_)));
  };
  room_s1 = m.logic("room_s1");
  room_one = m.logic("room_one");
  room_fill = m.logic("room_fill");
  room_walk = m.logic("room_walk");
  if (staged_) {  // 16.5: the room for k = 0..7 more from the registered count; M2's late counts only select
    for (unsigned k = 0; k < 8; ++k) m.assign(mq_room_n_[Expr(k)], room(lit(3, k)));
    Expr need_room = m.logic("s1_need_room", 8);  // bit k: room for k write-backs and the push (k + 1 mod 8)
    m.assign(need_room, concat({mq_room_n_[Expr(0U)], mq_room_n_.slice(Expr(7U), Expr(1U))}));
    m.assign(room_s1, select_part(need_room, s1_dirty_n, 8, 1));
  } else {
    Expr s1_need = m.logic("s1_need", 3);
    m.assign(s1_need, s1_dirty_n + lit(3, 1));
    m.assign(room_s1, room(s1_need));
  }
  m.assign(room_one, room(lit(3, 1)));
  if (staged_) {  // l1d_fill_place_m2 selects the room of its prepared outcomes (staged_fill_place)
    m.assign(fill_room_n_, concat({room(lit(3, 4)), room(lit(3, 3)), room(lit(3, 2)), room(lit(3, 1)), room(lit(3, 0))}));
    m.assign(room_fill, fill_room_);
  } else {
    m.assign(room_fill, room(fill_dirty_n));
  }
  m.assign(room_walk, staged_ ? walk_room_ : room(walk_dirty_n));  // staged: flush_decision's, per way

  // Write-back candidates k = 0..3 and the final push (S1's read or store).
  wb_en = m.logic("wb_en", kSlots);
  wb_way = m.logic("wb_way", kSlots * way_bits_);
  wb_slot = m.logic("wb_slot", kSlots * 2);
  wb_off = m.logic("wb_off", kSlots * 3);
  wb_from_s1 = m.logic("wb_from_s1");  // S1's write-backs are of its own line; others compose the address
  push_final = m.logic("push_final");
  final_off = m.logic("final_off", 3);

  s1_complete = m.logic("s1_complete");
  s1_hit_done = m.logic("s1_hit_done");  // completion counts
  s1_miss_done = m.logic("s1_miss_done");
  s1_partial_done = m.logic("s1_partial_done");
  fill_placing = m.logic("fill_placing");
  fill_answer = m.logic("fill_answer");
  walk_step = m.logic("walk_step");
  fill_write = m.logic("fill_write");  // the fill allocates: its block goes into fill_way
  load_hit = m.logic("load_hit");      // S1's load hits: its bytes are answered
  store_hit = m.logic("store_hit");    // S1's store hits: its bytes are written
  evict_hit = m.logic("evict_hit");    // S1's store hits under write-evict: its pieces are invalidated

  // Counter increments.
  inc_ = {};
  const std::vector<std::string> names = pipe_counter_names();
  for (const std::string& n : names) inc_.push_back(m.logic("inc_" + n, 3));

  // A core request waits while a fill step or a flush visit acts (s1_stall_cycles); staged: at A.
  stall_event_ = staged_ ? iss_stall : s1_valid_q.land(act_fill.lor(act_flush));
  rank_new = m.logic("rank_new", kSlots * 2);  // slot ranks of the written way after promotion
  rank_sel = m.logic("rank_sel", kSlots);      // slots promoted, in increasing order
  wr_way = m.logic("wr_way", way_bits_);       // the way whose ranks change
  m.comment("The way whose slot ranks change and its promoted slots: the fill's or S1's reservation's, else");
  m.comment("S1's hit.");
  if (lazy_gen_) {  // write allocation: the store's way and the slots it makes (keeps) valid
    m.assign(wr_way, mux(act_fill | s1_reserve, fill_way, mux(lz_write, lz_way, m_way)));
    m.assign(rank_sel, mux(act_fill | s1_reserve, fill_slotmask, mux(lz_write, lz_valid_set, m_slots)));
  } else {
    m.assign(wr_way, mux(act_fill | s1_reserve, fill_way, m_way));
    m.assign(rank_sel, mux(act_fill | s1_reserve, fill_slotmask, m_slots));
  }
  m.comment("Slot-rank promotion of the written way: each selected slot in increasing order becomes the");
  m.comment("most recent, the ones that were more recent age by one.");
  m.always_comb({{rank_new, select_part(t_rank, wr_way, ways_, kSlots * 2)}}, [&](Block& b) {
    b.for_("s", 0, Expr(kSlots), [&](Block& bs, const Expr& s) {
      bs.if_(rank_sel[s], [&](Block& t) {
        t.for_("o", 0, Expr(kSlots), [&](Block& to, const Expr& o) {
          to.if_(rank_new.part(o * 2, 2).lt(rank_new.part(s * 2, 2)),
                 [&](Block& u) { u.assign(rank_new.part(o * 2, 2), rank_new.part(o * 2, 2) + lit(2, 1)); });
        });
        t.assign(rank_new.part(s * 2, 2), lit(2, 0));
      });
    });
  });

  std::vector<Init> drives = {
      {w_en, zeros()}, {wb_en, zeros()}, {wb_way, zeros()}, {wb_slot, zeros()}, {wb_off, zeros()},
      {wb_from_s1, bit(false)}, {push_final, bit(false)}, {final_off, lit(3, 0)},
      {s1_complete, bit(false)}, {s1_hit_done, bit(false)}, {s1_miss_done, bit(false)},
      {s1_partial_done, bit(false)}, {fill_placing, bit(false)},
      {fill_answer, bit(false)}, {walk_step, bit(false)},
      {fill_write, bit(false)}, {load_hit, bit(false)}, {store_hit, bit(false)},
      {evict_hit, bit(false)}, {s1_reserve, bit(false)}, {mshr_widen, bit(false)}, {res_fill, bit(false)},
      {mshr_alloc, bit(false)}, {mshr_add, bit(false)}, {mshr_release, bit(false)},
      {agcb_dec, bit(false)}, {agcb_dec_idx, zeros()}, {agcb_inc, bit(false)}, {agcb_inc_idx, zeros()},
      {rp_hit, bit(false)}, {rp_miss, bit(false)}, {rp_fill, bit(false)}, {rp_way, zeros()},
      {resp_valid_d, bit(false)}, {resp_id_d, zeros()}, {resp_warp_d, zeros()}, {resp_outcome_d, lit(2, 0)}};
  for (const Expr& i : inc_) drives.push_back({i, lit(3, 0)});
  if (lazy_gen_) drives.push_back({lz_write, bit(false)}), drives.push_back({lz_fill, bit(false)});

  auto inc = [&](Block& b, const std::string& name, const Expr& v) {
    const size_t i = static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
    const auto& opt = option_counter_names();
    if (i == names.size() && staged_ && std::find(opt.begin(), opt.end(), name) != opt.end()) return;  // none staged
    b.assign(inc_.at(i), cast(3, v));  // an unknown name throws
  };

  m.comment("The acting actor's decisions: flags, narrow outputs and counter increments. The wide writes");
  m.comment("(tag/state row, data row, response data) follow from the flags below, outside this block: as");
  m.comment("partial assignments in these branches Yosys made a multiplexer of every such write.");
  m.always_comb(drives, [&](Block& b) {
    b.if_(act_fill, [&](Block& f) { fill_actor(f, inc); })
        .else_if(act_flush, [&](Block& f) { walk_actor(f, inc); })
        .else_if(act_s1, [&](Block& f) { s1_actor(f, inc); });
    b.comment("Completed requests are counted once (section 4, request accounting).");
    b.if_(s1_hit_done.lor(s1_miss_done), [&](Block& t) {
      inc(t, "accesses", lit(1, 1));
      t.if_(s1_store_q, [&](Block& u) { inc(u, "stores", lit(1, 1)); }).else_([&](Block& u) { inc(u, "loads", lit(1, 1)); });
      t.if_(s1_hit_done, [&](Block& u) {
        inc(u, "hits", lit(1, 1));
        u.unique_case(s1_size_q, [&](CaseBuilder& cb) {
          cb.item(lit(2, 0), [&](Block& v) { inc(v, "hits_32", lit(1, 1)); });
          cb.item(lit(2, 1), [&](Block& v) { inc(v, "hits_64", lit(1, 1)); });
          cb.default_([&](Block& v) { inc(v, "hits_128", lit(1, 1)); });
        });
      }).else_([&](Block& u) {
        inc(u, "misses", lit(1, 1));
        inc(u, "partial_hits", s1_partial_done);
        u.unique_case(s1_size_q, [&](CaseBuilder& cb) {
          cb.item(lit(2, 0), [&](Block& v) { inc(v, "misses_32", lit(1, 1)); });
          cb.item(lit(2, 1), [&](Block& v) { inc(v, "misses_64", lit(1, 1)); });
          cb.default_([&](Block& v) { inc(v, "misses_128", lit(1, 1)); });
        });
        if (!staged_ || staged_sector_) {  // sector mode (contract 14): a miss whose line a way holds
          u.if_(s1_held, [&](Block& v) {
            inc(v, "sector_misses", lit(1, 1));
            v.unique_case(s1_size_q, [&](CaseBuilder& cb) {
              cb.item(lit(2, 0), [&](Block& x) { inc(x, "sector_misses_32", lit(1, 1)); });
              cb.item(lit(2, 1), [&](Block& x) { inc(x, "sector_misses_64", lit(1, 1)); });
              cb.default_([&](Block& x) { inc(x, "sector_misses_128", lit(1, 1)); });
            });
          });
        }
      });
    });
    b.if_(stall_event_, [&](Block& t) { inc(t, "s1_stall_cycles", lit(1, 1)); });
    inc(b, "cycles", lit(1, 1));
  });
}

template <class Inc>
void Top::fill_actor(Block& f, const Inc& inc) {
  f.comment("Fill unit: cycle 0 places the block (or waits for queue room for its write-backs); every cycle");
  f.comment("answers one merged request; the last one frees the entry.");
  f.assign(fill_placing, !fill_placed_q);
  f.if_((!fill_placed_q).land(mr_bypass.eq(lit(2, 1))).land(mr_l2), [&](Block& t) { inc(t, "agcb_overrides", lit(1, 1)); });
  f.if_((!fill_placed_q).land(fill_normal).land(!room_fill), [&](Block& t) {
    inc(t, "fill_stall_cycles", lit(1, 1));
  }).else_([&](Block& t) {
    t.assign(fill_answer, bit(true));
    t.if_(!fill_placed_q, [&](Block& p) {
      inc(p, "fills", lit(1, 1));
      p.if_(fill_normal, [&](Block& a) {
        inc(a, "fills_allocated", lit(1, 1));
        a.comment("Write back the dirty valid slots being replaced, invalidate them, write the block");
        a.comment("(fill_write: row_writes).");
        a.assign(fill_write, bit(true));
        a.assign(wb_en, fill_wb);
        a.assign(wb_way, repl(kSlots, fill_way));
        a.assign(wb_slot, concat({lit(2, 3), lit(2, 2), lit(2, 1), lit(2, 0)}));
        a.for_("s", 0, Expr(kSlots), [&](Block& as, const Expr& s) {
          as.assign(wb_off.part(s * 3, 3), cast(3, countones(fill_wb & ((lit(4, 1) << s) - lit(4, 1)))));
        });
        a.assign(w_en, cast(ways_, lit(1, 1)) << fill_way);
        a.if_(fill_replaces, [&](Block& u) {
          u.assign(agcb_inc, bit(true));
          u.assign(agcb_inc_idx, select_part(t_hpc, fill_way, ways_, hpc_bits_));
        });
        a.comment("Sector mode: a fill into the way holding its line is a hit on that way (contract 14).");
        a.if_(fill_held, [&](Block& u) { u.assign(rp_hit, bit(true)); }).else_([&](Block& u) {
          u.assign(rp_fill, bit(true));
        });
        a.assign(rp_way, fill_way);
        inc(a, "writebacks", fill_dirty_n);
        inc(a, "mem_writes", fill_dirty_n);
      });
      if (res_gen()) {
        p.if_(mr_res, [&](Block& a) {
          a.comment("on_miss: the block goes into the slots its miss reserved (res_fill: row_writes); no");
          a.comment("write-back, replacement or AGCB update (they happened at the miss).");
          a.assign(res_fill, bit(true));
          a.assign(w_en, cast(ways_, lit(1, 1)) << mr_res_way);
          inc(a, "fills_allocated", res_place);
        });
      }
    });
    t.comment("Answer request fill_index_q: miss-return if the block allocated, else bypass-return (its");
    t.comment("bytes: response).");
    t.assign(resp_valid_d, bit(true));
    t.assign(resp_id_d, mr_id);
    t.assign(resp_warp_d, mr_warp);
    t.assign(resp_outcome_d, mux(mux(fill_placed_q, fill_alloc_q, fill_alloc_now), lit(2, 1), lit(2, 2)));
    t.if_((cast(count_bits_, fill_index_q) + cast(count_bits_, 1)).eq(mr_count),
          [&](Block& u) { u.assign(mshr_release, bit(true)); });
  });
}

template <class Inc>
void Top::walk_actor(Block& f, const Inc& inc) {
  f.comment("Flush walker: write back and invalidate one line (keeping complete pieces if asked), or wait");
  f.comment("for queue room.");
  inc(f, "flush_cycles", lit(1, 1));
  f.if_(room_walk, [&](Block& t) {
    t.assign(walk_step, bit(true));
    t.assign(wb_en, walk_wb);
    t.assign(wb_way, repl(kSlots, walk_way));
    t.assign(wb_slot, concat({lit(2, 3), lit(2, 2), lit(2, 1), lit(2, 0)}));
    t.for_("s", 0, Expr(kSlots), [&](Block& ts, const Expr& s) {
      ts.assign(wb_off.part(s * 3, 3), cast(3, countones(walk_wb & ((lit(4, 1) << s) - lit(4, 1)))));
    });
    t.assign(w_en, cast(ways_, lit(1, 1)) << walk_way);
    inc(t, "writebacks", walk_dirty_n);
    inc(t, "mem_writes", walk_dirty_n);
  });
}

template <class Inc>
void Top::s1_actor(Block& f, const Inc& inc) {
  // The copies of S1's chunks: invalidate them (wb_from_s1: row_writes) and write back the dirty
  // ones (way, then slot order).
  auto drop_copies = [&](Block& b) {
    b.assign(wb_from_s1, bit(true));
    b.assign(wb_en, cp_wb);
    b.assign(wb_way, cp_way);
    b.assign(wb_slot, cp_slot);
    b.assign(wb_off, cp_off);
    b.assign(w_en, zeros());
    b.for_("w", 0, Expr(ways_), [&](Block& bw, const Expr& w) {
      bw.assign(w_en[w], red_or(s1_copies.part(w * kSlots, kSlots)));
    });
    b.assign(push_final, bit(true));
    b.assign(final_off, s1_dirty_n);
    inc(b, "writebacks", s1_dirty_n);
  };
  auto hit_updates = [&](Block& b) {
    b.assign(rp_hit, bit(true));
    b.assign(rp_way, m_way);
    b.assign(w_en, cast(ways_, lit(1, 1)) << m_way);
  };
  f.if_(!s1_store_q, [&](Block& ld) {
    ld.if_(m_hit, [&](Block& h) {
      h.comment("Load hit: the request's bytes from the slots holding its chunks (load_hit: response).");
      h.assign(load_hit, bit(true));
      h.assign(s1_complete, bit(true));
      h.assign(s1_hit_done, bit(true));
      hit_updates(h);
      h.assign(agcb_dec, bit(true));
      h.assign(agcb_dec_idx, select_part(t_hpc, m_way, ways_, hpc_bits_));
      h.assign(resp_valid_d, bit(true));
      h.assign(resp_id_d, s1_id_q);
      h.assign(resp_warp_d, s1_warp_q);
      h.assign(resp_outcome_d, lit(2, 0));
    }).else_if(p_merge_full, [&](Block& t) { inc(t, "fail_merge_full", lit(1, 1)); })
        .else_if(p_conflict, [&](Block& t) { inc(t, "fail_conflict", lit(1, 1)); })
        .else_if(s1_widening.land(p_filled), [&](Block& t) { inc(t, "fail_conflict", lit(1, 1)); })
        .else_if(s1_widening.land(!room_one), [&](Block& t) { inc(t, "fail_queue_full", lit(1, 1)); })
        .else_if(p_merge, [&](Block& t) {
          t.comment("Merge into the entry fetching the line's needed sectors; under mshr_merge block widen it");
          t.comment("by a read of those it lacks (contract 13.3).");
          t.if_(s1_widening, [&](Block& w) {
            drop_copies(w);
            w.assign(mshr_widen, bit(true));
            inc(w, "mem_reads", lit(1, 1));
            inc(w, "widening_reads", lit(1, 1));
            if (res_widen_gen()) {  // staged: at M2, as a held-way reservation (contract 16.5)
              w.comment("Sector merging into a reserved entry: the widening's slots are reserved in its way, the");
              w.comment("way holding the line (s1_reserve with res_held: row_writes), an on_hit there (contract 14).");
              w.if_(sector_merge_ & p_merge_res, [&](Block& r) {
                r.assign(s1_reserve, bit(true));
                r.assign(w_en[fill_way], bit(true));
                r.assign(rp_hit, bit(true));
                r.assign(rp_way, fill_way);
              });
            }
          });
          t.assign(s1_complete, bit(true));
          t.assign(s1_miss_done, bit(true));
          t.assign(s1_partial_done, m_partial);
          t.assign(mshr_add, bit(true));
          inc(t, "merges", lit(1, 1));
          inc(t, "pending_hits", p_merge_res);
        })
        .else_if(line_alloc_fail, [&](Block& t) { inc(t, "fail_line_alloc", lit(1, 1)); })
        .else_if(!p_free, [&](Block& t) { inc(t, "fail_mshr_full", lit(1, 1)); })
        .else_if(!room_s1, [&](Block& t) { inc(t, "fail_queue_full", lit(1, 1)); })
        .else_([&](Block& t) {
          t.comment("Miss: drop the copies of the fetched block, send the read, record the entry.");
          t.assign(s1_complete, bit(true));
          t.assign(s1_miss_done, bit(true));
          t.assign(s1_partial_done, m_partial);
          drop_copies(t);
          t.assign(mshr_alloc, bit(true));
          t.assign(rp_miss, bit(true));
          inc(t, "mem_reads", lit(1, 1));
          inc(t, "mem_writes", s1_dirty_n);
          inc(t, "bypasses", s1_reason_eff.ne(lit(2, 0)));
          t.if_(s1_place, [&](Block& r) {
            r.comment("on_miss: reserve the place (s1_reserve: row_writes), the fill's updates now.");
            r.assign(s1_reserve, bit(true));
            r.assign(w_en[fill_way], bit(true));
            r.assign(rp_way, fill_way);
            if (res_sector_gen()) r.assign(rp_hit, res_held);  // sector mode: the held way's on_hit, no on_fill
            r.if_(fill_replaces, [&](Block& u) {
              u.assign(agcb_inc, bit(true));
              u.assign(agcb_inc_idx, select_part(t_hpc, fill_way, ways_, hpc_bits_));
            });
          });
        });
  }).else_([&](Block& st) {
    IfChain chain = st.if_(p_conflict, [&](Block& t) { inc(t, "fail_conflict", lit(1, 1)); });
    if (lazy_gen_) {
      chain.else_if(lazy_.land(!room_one), [&](Block& t) { inc(t, "fail_queue_full", lit(1, 1)); })
          .else_if(lazy_, [&](Block& t) {
            t.comment("Write allocation (contract 14; lz_write: row_writes): the store goes to memory; the held");
            t.comment("way, else a placed whole line (on_fill there, with its AGCB increment), takes its sectors");
            t.comment("(valid or written); a hit when all were valid or written.");
            t.assign(s1_complete, bit(true));
            t.assign(s1_hit_done, m_hit);
            t.assign(s1_miss_done, !m_hit);
            t.assign(s1_partial_done, m_partial);
            t.assign(push_final, bit(true));
            inc(t, "mem_writes", lit(1, 1));
            t.if_(lz_ok, [&](Block& a) {
              a.assign(lz_write, bit(true));
              a.assign(w_en, cast(ways_, lit(1, 1)) << lz_way);
              a.assign(rp_way, lz_way);
              // A new line's on_fill is rp_fill_any's (lz_fill): rp_fill is the fill actor's.
              a.if_(s1_held, [&](Block& u) { u.assign(rp_hit, bit(true)); }).else_([&](Block& u) {
                u.assign(lz_fill, bit(true));
                u.if_(fill_replaces, [&](Block& r) {
                  r.assign(agcb_inc, bit(true));
                  r.assign(agcb_inc_idx, select_part(t_hpc, lz_way, ways_, hpc_bits_));
                });
              });
            });
            t.assign(resp_valid_d, bit(true));
            t.assign(resp_id_d, s1_id_q);
            t.assign(resp_warp_d, s1_warp_q);
            t.assign(resp_outcome_d, lit(2, 3));
          });
    }
    chain.else_if(m_hit.land((!write_back_).land(!room_one)), [&](Block& t) { inc(t, "fail_queue_full", lit(1, 1)); })
        .else_if(m_hit, [&](Block& h) {
          h.comment("Store hit: write the masked bytes into the slots holding its chunks, dirty in write-back");
          h.comment("(store_hit: row_writes); write-through sends the store. Write-evict sends it and");
          h.comment("invalidates the G-aligned pieces around the hit slots, writing no data and promoting");
          h.comment("nothing (evict_hit: row_writes; contract 13.4).");
          h.assign(s1_complete, bit(true));
          h.assign(s1_hit_done, bit(true));
          h.if_(write_evict_, [&](Block& e) {
            e.assign(evict_hit, bit(true));
            e.assign(w_en, cast(ways_, lit(1, 1)) << m_way);
          }).else_([&](Block& u) {
            u.assign(store_hit, bit(true));
            hit_updates(u);
          });
          h.if_(!write_back_, [&](Block& u) {
            u.assign(push_final, bit(true));
            inc(u, "mem_writes", lit(1, 1));
          });
          h.assign(resp_valid_d, bit(true));
          h.assign(resp_id_d, s1_id_q);
          h.assign(resp_warp_d, s1_warp_q);
          h.assign(resp_outcome_d, lit(2, 3));
        })
        .else_if(!room_s1, [&](Block& t) { inc(t, "fail_queue_full", lit(1, 1)); })
        .else_([&](Block& t) {
          t.comment("Store miss: drop the copies of its chunks, send the store.");
          t.assign(s1_complete, bit(true));
          t.assign(s1_miss_done, bit(true));
          t.assign(s1_partial_done, m_partial);
          drop_copies(t);
          inc(t, "mem_writes", s1_dirty_n + lit(3, 1));
          t.assign(resp_valid_d, bit(true));
          t.assign(resp_id_d, s1_id_q);
          t.assign(resp_warp_d, s1_warp_q);
          t.assign(resp_outcome_d, lit(2, 3));
        });
  });
}

}  // namespace gen::blocks::top_gen
