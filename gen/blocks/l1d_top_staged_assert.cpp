// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): assertions of the staged pipe's
// invariants (docs/rtl-verification.md, "Assertions"; contract 16.3-16.5), beside the four
// Staged*_A that l1d_top_staged*.cpp emit with the logic they check. Each keeps its own shadow
// state in the verification region, computed from the pipe's inputs rather than read from the
// register it checks, so that a broken update of that register shows.
#include "gen/blocks/entry_ff.h"
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

void Top::staged_assertions() {
  constexpr unsigned kNone = 0, kCore = 1, kFill = 2, kFlush = 3;  // l1d_issue's kinds
  m.verification("Assertions of the staged pipe's invariants (docs/rtl-verification.md); not synthesized.",
                 [&](Scope& v) {
    v.comment("A squashed operation never reaches M2, so it never decides or commits: M2 holds M1's");
    v.comment("operation unless M2's outcome squashed that operation's source at the edge (16.3).");
    Expr m1_dead = v.logic("sva_m1_dead");
    v.assign(m1_dead, (sq_core & iss_m1_kind.eq(lit(2, kCore))) | (sq_fill & iss_m1_kind.eq(lit(2, kFill))) |
                          (sq_flush & iss_m1_kind.eq(lit(2, kFlush))));
    Expr m2_kind_sh = v.logic("sva_m2_kind_q", 2);
    v.always_ff({{m2_kind_sh, lit(2, kNone)}},
                [&](Block& b) { b.assign(m2_kind_sh, mux(m1_dead, lit(2, kNone), iss_m1_kind)); });
    v.assert_comb("StagedSquashedNeverDecides_A", m2_kind_q.eq(m2_kind_sh));

    // staged_tags() keeps the C write's registers and M2's set local: named here (a rename is an
    // undeclared identifier at lint).
    v.comment("C writes the tag/state row only for the operation M2 held in the cycle before, and to the");
    v.comment("set whose row M2 read (l1d_tag_read's m2_set_o), never to another operation's set (16.5).");
    Expr c_live = v.logic("sva_c_live_q");
    Expr c_set = v.logic("sva_c_set_q", set_idx_bits_);
    v.always_ff({{c_live, bit(false)}}, [&](Block& b) { b.assign(c_live, m2_kind_q.ne(lit(2, kNone))); });
    v.always_ff_noreset([&](Block& b) { b.assign(c_set, ref("m2_set")); });
    v.assert_comb("StagedRowWriteOfM2Op_A",
                  (!ref("tag_wr_en_c_q")).lor(c_live.land(ref("tag_wr_set_c_q").eq(c_set))));

    v.comment("The counters' carries never overflow their chunk: a carry pending into chunk k + 1 was");
    v.comment("made by the edge that wrapped chunk k, which then holds what the wrap left, at most");
    v.comment("2^IncBits - 2 for chunk 0 (the increment is at most 7), 0 for chunks 1 and 2 (their");
    v.comment("increment is one carry). Otherwise the read-out (chunks + carries) would count 2^16 twice.");
    const unsigned n = static_cast<unsigned>(cnt_o.size());
    Expr chunks = v.logic("sva_chunks", n * kCounterBits);
    v.assign(chunks, concat(std::vector<Expr>(cnt_o.rbegin(), cnt_o.rend())));
    Expr carry_ok = v.logic("sva_carry_ok", n);
    v.always_comb({{carry_ok, zeros()}}, [&](Block& b) {
      b.for_("i", 0, Expr(n), [&](Block& bi, const Expr& i) {
        const auto chunk = [&](unsigned k) { return chunks.part(i * kCounterBits + Expr(16 * k), 16); };
        const auto no_carry = [&](unsigned k) { return !cnt_carry_o_[i * 3 + Expr(k)]; };
        bi.assign(carry_ok[i], no_carry(0).lor(chunk(0).lt(lit(16, 7)))
                                   .land(no_carry(1).lor(chunk(1).eq(zeros())))
                                   .land(no_carry(2).lor(chunk(2).eq(zeros()))));
      });
    });
    v.assert_comb("StagedCarryWithinChunk_A", red_and(carry_ok));
  });
  if (staged_onmiss_) staged_onmiss_assertions();
  if (staged_block_) staged_block_assertions();
  if (staged_smerge_) staged_smerge_assertions();
  if (staged_direct_) staged_direct_assertions();
  if (lazy_gen_) staged_lazy_assertions();
}

// Write allocation on the staged pipe (contract 16.5, "Write allocation"), beside TopWrittenExclusive_A
// and TopWrittenNoLoadHit_A (lazy_assertions): a store's allocation leaves each of its needed sectors
// held in the way it took (valid, or written), in the row M2's edge writes; and a written bit M2 reads
// was set by a store's allocation in that set after the last kernel-end invalidation, which clears every
// written slot (kept per set in the verification region from M2's decisions and the kernel-end input,
// not from the written flops or their forwarded copy, so a clear that misses either shows).
void Top::staged_lazy_assertions() {
  m.verification("Assertions of write allocation's written bits (staged pipe); not synthesized.", [&](Scope& v) {
    v.comment("A store's allocation writes its way's row with every needed sector valid or written.");
    Expr row = v.logic("sva_lz_row", ways_ * kSlots);
    v.assign(row, w_valid | w_written);
    Expr held = v.logic("sva_lz_held", kSlots);
    v.assign(held, select_part(row, lz_way, ways_, kSlots));
    v.assert_comb("StagedStoreSectorsHeld_A",
                  (!lz_write).lor(w_en[lz_way].land((s1_needed & ~held).eq(zeros()))));
    v.comment("Per set: a store allocated in it since the last kernel-end invalidation (clears win, as in");
    v.comment("l1d_line_state); a set without one holds no written slot at M2.");
    Expr since = v.logic("sva_lz_since_q", sets_);
    Expr kinv = v.logic("sva_lz_kinv");
    v.assign(kinv, ev_kend & cfg_kinv);
    v.always_ff({{since, zeros()}}, [&](Block& b) {
      b.if_(kinv, [&](Block& t) { t.assign(since, zeros()); }).else_if(lz_write, [&](Block& t) {
        t.assign(since[rd_set], bit(true));
      });
    });
    v.assert_comb("StagedWrittenSinceStore_A",
                  m2_kind_q.eq(lit(2, 0)).lor(t_written.eq(zeros())).lor(since[rd_set]));
  });
}

// Allocation on miss (contract 16.5, "Allocation on miss"): every MSHR entry's reservation kept
// in the verification region from M2's decisions ({live, set, slots of the row} written at the
// reservation's edge, cleared at its fill's), checked against the reserved bits M2 reads
// (l1d_line_state's flops, forwarded into M2) and against the fill's reserved slots (the MSHR's
// reserve record read at M1). Generated for sector merging too (res_widen_gen), a widening of a
// reserved entry adds its slots to that entry's reservation at its edge. In sector mode
// (res_sector_gen) also: the slots a reservation takes lie in the way of its line, checked on the row
// as the reserving edge leaves it (StagedSectorResInLineWay_A).
void Top::staged_onmiss_assertions() {
  const unsigned rw = ways_ * kSlots;
  m.verification("Assertions of the staged pipe's reservations (allocation on_miss); not synthesized.",
                 [&](Scope& v) {
    Expr live = v.logic("sva_res_live_q", mshrs_);
    Expr set = v.logic("sva_res_set_q", mshrs_ * set_idx_bits_);
    Expr slots = v.logic("sva_res_slots_q", mshrs_ * rw);
    // A new entry's reservation (s1_reserve alone, unless a widening's reservation can raise it too).
    const Expr opens = res_widen_gen() ? s1_reserve & mshr_alloc : s1_reserve;
    entry_ff(v, "g_sva_res_live", "e", mshrs_, Expr(mshrs_), {{live, 1, "sva_e_live_q", true}}, true,
             [&](Block& be, const Expr& e, const std::vector<Expr>& q) {
      be.if_(opens.land(p_free_entry.eq(cast(mshr_bits_, e))), [&](Block& t) { t.assign(q[0], bit(true)); })
          .else_if(res_fill.land(m2_entry_q.eq(cast(mshr_bits_, e))), [&](Block& t) { t.assign(q[0], bit(false)); });
    });
    entry_ff(v, "g_sva_res_where", "e", mshrs_, Expr(mshrs_),
             {{set, set_idx_bits_, "sva_e_set_q"}, {slots, rw, "sva_e_slots_q"}}, false,
             [&](Block& be, const Expr& e, const std::vector<Expr>& q) {
      IfChain c = be.if_(opens.land(p_free_entry.eq(cast(mshr_bits_, e))), [&](Block& t) {
        t.assign(q[0], rd_set);
        // Sector mode's reservation takes the missing slots only (s1_res_run, res_sector_gen).
        t.assign(q[1], ref(res_sector_gen() ? "s1_res_run" : "place_run"));
      });
      if (res_widen_gen()) {  // the merge entry's reservation grows by the widened slots (its set, way)
        c.else_if((s1_reserve & mshr_widen).land(p_merge_entry.eq(cast(mshr_bits_, e))),
                  [&](Block& t) { t.assign(q[1], q[1] | ref("s1_res_run")); });
      }
    });
    v.comment("The reserved slots of the row M2 reads are exactly those of the live reservations of its set,");
    v.comment("each slot reserved by one entry: a reservation is seen by every later decision on its set.");
    Expr own = v.logic("sva_res_own", rw);
    Expr dup = v.logic("sva_res_dup", rw);
    v.always_comb({{own, zeros()}, {dup, zeros()}}, [&](Block& b) {
      b.for_("e", 0, Expr(mshrs_), [&](Block& be, const Expr& e) {
        be.if_(live[e].land(set.part(e * set_idx_bits_, set_idx_bits_).eq(rd_set)), [&](Block& t) {
          t.assign(dup, dup | (own & slots.part(e * rw, rw)));
          t.assign(own, own | slots.part(e * rw, rw));
        });
      });
    });
    v.assert_comb("StagedReservedOwned_A", m2_kind_q.eq(lit(2, 0)).lor(t_res.eq(own).land(dup.eq(zeros()))));
    v.comment("A reserved slot is never a hit: a load or store hit reads none of its way's reserved slots.");
    Expr hit_res = v.logic("sva_hit_res", kSlots);
    v.assign(hit_res, select_part(t_res, m_way, ways_, kSlots) & m_slots);
    v.assert_comb("StagedReservedNoHit_A", (!(load_hit | store_hit | evict_hit)).lor(hit_res.eq(zeros())));
    v.comment("A reserved fill writes the slots its own entry reserved, in its set, once: the entry's");
    v.comment("reservation is live until then and released by it.");
    v.assert_comb("StagedReservedFillOwn_A",
                  (!res_fill).lor(live[m2_entry_q]
                                      .land(set.part(m2_entry_q * set_idx_bits_, set_idx_bits_).eq(rd_set))
                                      .land(slots.part(m2_entry_q * rw, rw).eq(ref("res_run")))));
    v.comment("An entry is freed only once its reservation is released, by its fill's step 0 (that step");
    v.comment("itself when it is also the last: an entry of one request).");
    v.assert_comb("StagedReservationReleased_A", (!mshr_release).lor((!live[m2_entry_q]).lor(res_fill)));
    if (!res_sector_gen()) return;
    v.comment("Sector mode: a reservation's slots lie in the way of its line (the way holding it, or the one");
    v.comment("placed for it): after the reserving edge their way's common tag is the load's and slot s of it");
    v.comment("holds chunk s of the load's line (contract 14), so the fill's held-way search finds them.");
    Expr off_line = v.logic("sva_res_off_line", rw);  // a slot this edge reserves outside its line's way
    const Expr res_run_new = ref("s1_res_run");
    v.always_comb({{off_line, zeros()}}, [&](Block& b) {
      b.for_("i", 0, Expr(rw), [&](Block& bi, const Expr& i) {
        const Expr w = i / Expr(kSlots);
        const Expr common = mux(w_en[w], w_common.part(w * cm_bits_, cm_bits_), t_common.part(w * cm_bits_, cm_bits_));
        const Expr tag = mux(w_en[w], w_tag.part(i * ct_bits_, ct_bits_), t_tag.part(i * ct_bits_, ct_bits_));
        bi.assign(off_line[i], res_run_new[i].land(common.ne(s1_common).lor(
                                   tag.ne(concat({s1_chunk_tag.slice(ct_bits_ - 1, 2), cast(2, i)})))));
      });
    });
    v.assert_comb("StagedSectorResInLineWay_A", (!(s1_reserve & sector_)).lor(off_line.eq(zeros())));
  });
}

// Merging by line (contract 16.5, "Merging by line"): every MSHR entry's line and reads in flight
// kept in the verification region from M2's allocations and widenings and the memory responses, and
// whether it is in the fill FIFO (pushed at a response, popped at its release).
void Top::staged_block_assertions() {
  const unsigned rb = static_cast<unsigned>(std::bit_width(merge_ + 1U));  // reads in flight: 0..MaxMerge+1
  m.verification("Assertions of the staged pipe's merging by line (mshr_merge block); not synthesized.",
                 [&](Scope& v) {
    Expr live = v.logic("sva_ent_live_q", mshrs_);
    Expr queued = v.logic("sva_ent_queued_q", mshrs_);
    Expr reads = v.logic("sva_ent_reads_q", mshrs_ * rb);
    Expr line = v.logic("sva_ent_line_q", mshrs_ * line_bits_);
    const auto is = [&](const Expr& idx, const Expr& e) { return idx.eq(cast(mshr_bits_, e)); };
    entry_ff(v, "g_sva_ent", "e", mshrs_, Expr(mshrs_),
             {{live, 1, "sva_e_live_q", true}, {queued, 1, "sva_e_queued_q", true}, {reads, rb, "sva_e_reads_q"}}, true,
             [&](Block& be, const Expr& e, const std::vector<Expr>& q) {
      be.if_(mshr_alloc.land(is(p_free_entry, e)), [&](Block& t) {
        t.assign(q[0], bit(true));
        t.assign(q[2], cast(rb, 1));
      }).else_([&](Block& t) {
        t.assign(q[2], q[2] + cast(rb, mshr_widen.land(is(p_merge_entry, e))) -
                           cast(rb, rsp_valid.land(is(rsp_entry, e))));
        t.if_(mshr_release.land(is(m2_entry_q, e)), [&](Block& u) { u.assign(q[0], bit(false)); });
      });
      be.if_(rsp_fills.land(is(rsp_entry, e)), [&](Block& t) { t.assign(q[1], bit(true)); })
          .else_if(mshr_release.land(is(m2_entry_q, e)), [&](Block& t) { t.assign(q[1], bit(false)); });
    });
    entry_ff(v, "g_sva_ent_line", "e", mshrs_, Expr(mshrs_), {{line, line_bits_, "sva_e_line_q"}}, false,
             [&](Block& be, const Expr& e, const std::vector<Expr>& q) {
      be.if_(mshr_alloc.land(is(p_free_entry, e)), [&](Block& t) { t.assign(q[0], s1_line); });
    });
    v.comment("A widening read goes to a live entry of the load's line with that entry's id (the queued");
    v.comment("read's MSHR field), which then has fewer than MaxMerge reads in flight (a read per request).");
    Expr w_reads = v.logic("sva_widen_reads", rb);
    v.assign(w_reads, reads.part(p_merge_entry * rb, rb));
    v.assert_comb("StagedWidenLiveEntry_A",
                  (!mshr_widen).lor(live[p_merge_entry]
                                        .land(line.part(p_merge_entry * line_bits_, line_bits_).eq(s1_line))
                                        .land(final_req_.part(Expr(req_layout_.mshr), kMshrPortBits)
                                                  .eq(cast(kMshrPortBits, p_merge_entry)))
                                        .land(w_reads.ne(zeros()))
                                        .land(w_reads.lt(cast(rb, merge_)))));
    v.comment("An entry joins the fill FIFO once, at the response to its last read in flight (none joining it");
    v.comment("in the same cycle), and leaves it at its release.");
    Expr r_reads = v.logic("sva_resp_reads", rb);
    v.assign(r_reads, reads.part(rsp_entry * rb, rb));
    Expr last = v.logic("sva_resp_last");
    v.assign(last, rsp_valid.land(r_reads.eq(cast(rb, 1))).land(!(mshr_widen.land(p_merge_entry.eq(rsp_entry)))));
    v.assert_comb("StagedFillFifoAtLastRead_A",
                  rsp_fills.eq(last).land((!rsp_fills).lor(!queued[rsp_entry]))
                      .land((!mshr_release).lor(queued[m2_entry_q])));
  });
}

// Merging by sector (contract 14, 16.5 "Merging by sector"): every MSHR entry's requested sectors
// (its allocation's read and its widenings', from M2's decisions), its buffered sectors, the sectors
// its memory reads carried (from the memory port: the read's MSHR id) and its requests (1 at the
// allocation, +1 per merge), kept in the verification region, not read from l1d_mshr's registers.
void Top::staged_smerge_assertions() {
  const unsigned cb = count_bits_;  // requests: 1..MaxMerge
  m.verification("Assertions of the staged pipe's merging by sector (mshr_merge sector); not synthesized.",
                 [&](Scope& v) {
    Expr req = v.logic("sva_sm_req_q", mshrs_ * kSlots);
    Expr buf = v.logic("sva_sm_buf_q", mshrs_ * kSlots);
    Expr read = v.logic("sva_sm_read_q", mshrs_ * kSlots);
    Expr cnt = v.logic("sva_sm_cnt_q", mshrs_ * cb);
    Expr mem_read = v.logic("sva_sm_mem_read");
    v.assign(mem_read, mem_valid_o & mem_ready & !mem_store_o);
    const auto is = [&](const Expr& idx, const Expr& e) { return idx.eq(cast(mshr_bits_, e)); };
    const auto at = [&](const Expr& x, const Expr& e) { return x.part(e * kSlots, kSlots); };
    entry_ff(v, "g_sva_sm", "e", mshrs_, Expr(mshrs_),
             {{req, kSlots, "sva_e_req_q"}, {buf, kSlots, "sva_e_buf_q"}, {read, kSlots, "sva_e_read_q"},
              {cnt, cb, "sva_e_cnt_q"}},
             true, [&](Block& be, const Expr& e, const std::vector<Expr>& q) {
      be.if_(mshr_alloc.land(is(p_free_entry, e)), [&](Block& t) {
        t.assign(q[0], s1_fetch_eff);
        t.assign(q[1], s1_buffer);
        t.assign(q[2], zeros());
        t.assign(q[3], cast(cb, 1));
      }).else_([&](Block& t) {
        t.if_(mshr_add.land(is(p_merge_entry, e)), [&](Block& u) {
          u.assign(q[0], q[0] | mux(mshr_widen, p_missing, zeros()));
          u.assign(q[1], q[1] | s1_buffer);
          u.assign(q[3], q[3] + cast(cb, 1));
        });
        t.if_(mem_read.land(mem_mshr_o.eq(cast(kMshrPortBits, e))), [&](Block& u) { u.assign(q[2], q[2] | mem_sectors_o); });
      });
    });
    Expr e_req = v.logic("sva_sm_merge_req", kSlots), e_buf = v.logic("sva_sm_merge_buf", kSlots);
    v.assign(e_req, at(req, p_merge_entry));
    v.assign(e_buf, at(buf, p_merge_entry));
    v.comment("A merged load's needed sectors are each requested by its entry (its allocation's read, an earlier");
    v.comment("widening or this one) or buffered (earlier or by this merge): the fill answers every one.");
    v.assert_comb("StagedSectorMergeCovered_A",
                  (!(mshr_add & sector_merge_))
                      .lor((s1_needed & ~(e_req | e_buf | s1_buffer | mux(mshr_widen, p_missing, zeros()))).eq(zeros())));
    v.comment("A widening reads sectors of the load's fetch that its entry neither requested nor buffered (no");
    v.comment("sector read twice, none for nothing), and the queued read carries exactly them.");
    v.assert_comb("StagedSectorWidenFresh_A",
                  (!(mshr_widen & sector_merge_))
                      .lor(p_missing.ne(zeros())
                               .land((p_missing & (e_req | e_buf | ~s1_fetch)).eq(zeros()))
                               .land(final_req_.part(Expr(req_layout_.sectors), kSlots).eq(p_missing))));
    v.comment("A merge joins an entry holding fewer than MaxMerge requests.");
    v.assert_comb("StagedSectorMergeLimit_A",
                  (!(mshr_add & sector_merge_)).lor(cnt.part(p_merge_entry * cb, cb).lt(cast(cb, merge_))));
    v.comment("A fill step answers its entry's requests (M2's count, merges until M1's edge included), and the");
    v.comment("placing step makes valid exactly the sectors the entry requested, each read from memory under its");
    v.comment("id: the allocation's read and every widening (16.5, \"The fill places every sector its reads fetched\").");
    Expr f_req = v.logic("sva_sm_fill_req", kSlots);
    v.assign(f_req, at(req, m2_entry_q));
    v.assert_comb("StagedSectorFillPlacesRead_A",
                  (!(act_fill & sector_merge_))
                      .lor(mr_count.eq(cnt.part(m2_entry_q * cb, cb))
                               .land(fill_placed_q.lor(mr_sectors.eq(f_req).land(at(read, m2_entry_q).eq(f_req))))));
  });
}

// The direct path's store query (contract 13.6, 16.5 "The direct path"): the stores accepted at the
// core port and not yet sent to memory, kept in the verification region as up to kWatch lines, each
// with how many of its stores are inside (+1 at a store's acceptance, -1 at a memory request of a
// store to that line; a line with none frees its place, a store to a line not held takes the first
// free place, or none when all are taken). Kept from the ports alone, not from the places
// store_pending_o searches (l1d_issue's FIFOs, T, M1, M2, C, D, the miss queue's ring), so a place
// the search leaves out or mis-keys shows. Sound because every store leaves by exactly one memory
// request of a store (direct runs without dirty state: no write-back is a store, none is absorbed):
// a line's count never exceeds its stores inside (a departure with the count at 0 is not counted).
void Top::staged_direct_assertions() {
  constexpr unsigned kWatch = 8, kCount = 8;  // lines watched; up to 255 stores of one line inside
  m.verification("Assertion of the direct path's store query (bypass_path direct); not synthesized.",
                 [&](Scope& v) {
    Expr arrive = v.logic("sva_st_arrive");
    v.assign(arrive, req_valid & req_ready & req_store);
    Expr arrive_line = v.logic("sva_st_arrive_line", line_bits_);
    v.assign(arrive_line, req_addr.slice(addr_bits_ - 1, 7));
    Expr depart = v.logic("sva_st_depart");
    v.assign(depart, mem_valid_o & mem_ready & mem_store_o);
    Expr lines = v.logic("sva_st_line_q", kWatch * line_bits_);
    Expr counts = v.logic("sva_st_count_q", kWatch * kCount);
    Expr held = v.logic("sva_st_held", kWatch);    // the place holds stores
    Expr same = v.logic("sva_st_same", kWatch);    // ... of the accepted store's line
    Expr gone = v.logic("sva_st_gone", kWatch);    // ... of the line a store request to memory leaves
    Expr asked = v.logic("sva_st_asked", kWatch);  // ... of the queried line
    Expr take = v.logic("sva_st_take", kWatch);    // the first free place (one bit at most)
    Expr seen = v.logic("sva_st_seen");
    const auto line_of = [&](const Expr& e) { return lines.part(e * line_bits_, line_bits_); };
    v.always_comb({{held, zeros()}, {same, zeros()}, {gone, zeros()}, {asked, zeros()}, {take, zeros()},
                   {seen, bit(false)}},
                  [&](Block& b) {
      b.for_("e", 0, Expr(kWatch), [&](Block& be, const Expr& e) {
        be.assign(held[e], counts.part(e * kCount, kCount).ne(zeros()));
        be.assign(same[e], arrive.land(held[e]).land(line_of(e).eq(arrive_line)));
        be.assign(gone[e], depart.land(held[e]).land(line_of(e).eq(mem_line_o)));
        be.assign(asked[e], held[e].land(line_of(e).eq(sd_query_q_)));
        be.if_((!held[e]).land(!seen), [&](Block& t) {
          t.assign(take[e], bit(true));
          t.assign(seen, bit(true));
        });
      });
    });
    Expr place = v.logic("sva_st_place", kWatch);  // where the accepted store is counted
    v.assign(place, mux(red_or(same), same, mux(arrive, take, zeros())));
    v.always_ff({{counts, zeros()}}, [&](Block& b) {
      b.for_("e", 0, Expr(kWatch), [&](Block& be, const Expr& e) {
        be.assign(counts.part(e * kCount, kCount),
                  counts.part(e * kCount, kCount) + cast(kCount, place[e]) - cast(kCount, gone[e]));
      });
    });
    v.always_ff_noreset([&](Block& b) {
      b.for_("e", 0, Expr(kWatch), [&](Block& be, const Expr& e) {
        be.if_(place[e].land(!held[e]), [&](Block& t) { t.assign(line_of(e), arrive_line); });
      });
    });
    v.comment("A store accepted and not yet sent to memory is found: store_pending_o (about the state after");
    v.comment("the last edge, for the line registered at it) is 1 whenever a watched line with stores inside");
    v.comment("is the queried one.");
    v.assert_comb("StagedStorePendingFound_A", (!red_or(asked)).lor(sd_pending_o_));
  });
}

}  // namespace gen::blocks::top_gen
