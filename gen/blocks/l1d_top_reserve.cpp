// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): miss_reserve, the decisions of
// l1.allocation on_miss (contract 13.1; golden::L1::load and complete_reserved_fill): S1's load miss
// chooses its place with the fill's placement unit (l1d_fill_place) on the row its copies leave,
// and reserves it, turns into an AgeLRU bypass, or fails with line_alloc; a fill whose entry
// reserved a place writes it.
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

// S1's copies of the sectors in a mask: copy slot i (bit 4w+s) holds chunk t_tag[i][1:0] (the
// comment is the caller's).
Expr Top::copies_in(const std::string& name, const Expr& sectors) {
  Expr out = m.logic(name, ways_ * kSlots);
  m.gen_for("g_" + name, "gi", 0, ways_ * kSlots, [&](Scope& g, const Expr& i) {
    g.assign(out[i], m_copies[i] & sectors[t_tag.part(i * ct_bits_, 2)]);
  });
  return out;
}

void Top::miss_reserve() {
  res_place = m.logic("res_place");
  fill_normal = m.logic("fill_normal");
  fill_alloc_now = m.logic("fill_alloc_now");
  res_fill = m.logic("res_fill");  // driven by the fill actor
  s1_copies = m.logic("s1_copies", ways_ * kSlots);
  s1_place = m.logic("s1_place");
  line_alloc_fail = m.logic("line_alloc_fail");
  s1_widening = m.logic("s1_widening");
  if (staged_ && !staged_onmiss_) {  // allocation on_fill: the fill's block, S1's own fetch and copies
    m.assign(pl_valid, t_valid);
    m.assign(pl_common, fill_common);
    if (staged_sector_) {  // a sector fill places a whole line, its sectors at their own slots
      m.assign(pl_slots, mux(sector_, lit(3, 4), fill_slots));
      m.assign(pl_first, mux(sector_, lit(2, 0), fill_first));
    } else {
      m.assign(pl_slots, fill_slots);
      m.assign(pl_first, fill_first);
    }
    m.assign(pl_ct, fill_chunk_tag.slice(ct_bits_ - 1, 2));
    m.assign(s1_fetch_eff, s1_fetch);
    m.assign(s1_probe_eff, s1_probe_sectors);
    m.assign(s1_reason_eff, s1_reason);
    if (staged_block_) {
      m.comment("mshr_merge block: a load merging into its line's entry reads the sectors the entry lacks");
      m.comment("(their copies dropped: within the probed sectors M1 compared), contract 13.3. Copy slot i");
      m.comment("(bit 4w+s) holds chunk t_tag[i][1:0].");
      m.assign(s1_widening, block_ & !s1_store_q & p_merge & p_missing.ne(zeros()));
      m.assign(s1_copies, mux(s1_store_q | !s1_widening, m_copies, copies_in("widen_copies", p_missing)));
      for (const Expr& e : {res_place, s1_place, line_alloc_fail}) m.assign(e, bit(false));
    } else {
      m.assign(s1_copies, m_copies);
      for (const Expr& e : {res_place, s1_place, line_alloc_fail, s1_widening}) m.assign(e, bit(false));
    }
    m.assign(fill_normal, fill_allocates);
    m.assign(fill_alloc_now, fill_allocates);
    return;
  }
  m.comment("S1's copies of the sectors in a mask: copy slot i (bit 4w+s) holds chunk t_tag[i][1:0].");
  const Expr alloc_copies = copies_in("alloc_copies", s1_fetch);
  m.comment("mshr_merge block: a load merging into its line's entry reads the sectors the entry lacks");
  m.comment("(their copies dropped), contract 13.3.");
  m.assign(s1_widening, block_ & !s1_store_q & p_merge & p_missing.ne(zeros()));
  Expr read_sectors = m.logic("s1_read_sectors", kSlots);
  m.assign(read_sectors, mux(s1_widening, p_missing, s1_fetch_eff));
  // The staged pipe generated for on_miss has sector mode's reservations when generated for sector
  // mode too (contract 16.5, "Allocation on miss", "In sector mode").
  const bool sector_gen = res_sector_gen();
  if (sector_gen) {
    m.comment("Sector mode: the slots a reservation takes are those S1 reads (contract 14).");
    m.assign(s1_res_slots, read_sectors);
  }
  const Expr final_copies = copies_in("final_copies", read_sectors);
  m.assign(s1_copies, mux(s1_store_q, m_copies, final_copies));

  m.comment("The placement's block: the fill's, or S1's max(R, G) block (its fetch when it may allocate),");
  m.comment("whose first chunk is S1's chunk aligned to the block (sizes: 0 32 B, 1 64 B, 2 128 B).");
  Expr span = m.logic("s1_span", 2);
  Expr s1_first = m.logic("s1_first", 2);
  m.assign(span, mux(gran.gt(s1_size_q), gran, s1_size_q));
  m.assign(s1_first, mux(span.eq(lit(2, 2)), lit(2, 0), mux(span.eq(lit(2, 1)), s1_chunk & lit(2, 2), s1_chunk)));
  m.assign(pl_valid, mux(act_fill, t_valid, t_valid & ~alloc_copies));
  m.assign(pl_common, mux(act_fill, fill_common, s1_common));
  m.comment("A sector fill or reservation places a whole line (its sectors at their own slots: first chunk 0).");
  if (sector_gen) {
    m.assign(pl_slots, mux(sector_, lit(3, 4), mux(act_fill, fill_slots, cast(3, countones(s1_fetch)))));
    m.assign(pl_first, mux(act_fill, mux(sector_, lit(2, 0), fill_first), s1_first));
  } else {
    m.assign(pl_slots, mux(act_fill, fill_slots, cast(3, countones(s1_fetch))));
    m.assign(pl_first, mux(act_fill, fill_first, s1_first));
  }
  m.assign(pl_ct, mux(act_fill, fill_chunk_tag.slice(ct_bits_ - 1, 2), s1_chunk_tag.slice(ct_bits_ - 1, 2)));

  m.comment("S1's load miss under on_miss: a load that would allocate (no bypass, or PCAL with opportunistic");
  m.comment("caching) reserves the place found; AgeLRU may bypass it instead (then it fetches bypass_fetch,");
  m.comment("recorded as a bypass that never allocates: reason 2); no place fails with line_alloc, unless PCAL");
  m.comment("(which bypasses). An AGCB-predicted bypass reserves nothing. Sector mode (contract 14): a load");
  m.comment("whose line a way holds (res_held) reserves its missing slots there, never fails or bypasses; an");
  m.comment("AgeLRU bypass still fetches the missing sectors (section 4's bypass_fetch is not sector mode's).");
  Expr wants = m.logic("wants_line");
  s1_age_bypass = m.logic("s1_age_bypass");
  Expr age_fetch = m.logic("s1_age_fetch");  // an AgeLRU bypass at the miss refetches bypass_fetch_o
  m.assign(wants, on_miss_ & !s1_store_q & (s1_reason.eq(lit(2, 0)) | (s1_reason.eq(lit(2, 3)) & cfg_opp)));
  if (sector_gen) {
    m.assign(s1_place, wants & (res_held | fill_allocates));
    m.assign(s1_age_bypass, wants & !res_held & pl_age_bypass);
    m.assign(line_alloc_fail, wants & s1_reason.eq(lit(2, 0)) & !res_held & !fill_allocates & !pl_age_bypass);
    m.assign(age_fetch, s1_age_bypass & !sector_);
  } else {  // no line is held in sector mode's sense
    m.assign(s1_place, wants & fill_allocates);
    m.assign(s1_age_bypass, wants & pl_age_bypass);
    m.assign(line_alloc_fail, wants & s1_reason.eq(lit(2, 0)) & !fill_allocates & !pl_age_bypass);
    m.assign(age_fetch, s1_age_bypass);
  }
  m.assign(s1_fetch_eff, mux(age_fetch, s1_bypass_fetch, s1_fetch));
  m.assign(s1_probe_eff, mux(age_fetch, s1_bypass_fetch, s1_probe_sectors));
  m.assign(s1_reason_eff, mux(s1_age_bypass, lit(2, 2), s1_reason));

  m.comment("The fill: an entry that reserved its place writes it (valid only if the block is not smaller");
  m.comment("than G now); under on_miss no other entry allocates but an AGCB bypass the L2 overrides.");
  mr_res = m.logic("mr_res");
  mr_res_way = m.logic("mr_res_way", way_bits_);
  mr_res_pos = m.logic("mr_res_pos", 2);
  m.assign(mr_res, mr_reserve[Expr(way_bits_ + 2)]);
  m.assign(mr_res_way, mr_reserve.slice(way_bits_ + 1, 2));
  m.assign(mr_res_pos, mr_reserve.slice(1, 0));
  Expr fill_size = m.logic("fill_size", 2);  // 0 32 B, 1 64 B, 2 128 B
  m.assign(fill_size, mux(fill_slots.eq(lit(3, 4)), lit(2, 2), mux(fill_slots.eq(lit(3, 2)), lit(2, 1), lit(2, 0))));
  m.assign(res_place, mr_res & (sector_ | fill_size.ge(gran)));  // G is 128 and any sector fill is placed
  m.assign(fill_normal, fill_allocates & !mr_res & !(on_miss_ & mr_bypass.ne(lit(2, 1))));
  m.assign(fill_alloc_now, mux(mr_res, res_place, fill_normal));
  if (lazy_gen_) lazy_decision();  // a store's allocation (gen/blocks/l1d_top_lazy.cpp)

  m.verification("Assertions (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
    v.comment("on_miss and block run without dirty state (write-through or write-evict): the RTL queues no");
    v.comment("write-back of a reserved victim or of a widening read's copies (contract 13.1, 13.3).");
    v.assert_clocked("TopOnMissNoDirtyState_A", (!(on_miss_ | block_)).lor(!write_back_));
    v.comment("A fill that reserved its place finds those slots reserved.");
    Expr res_slots = v.logic("res_slots", kSlots);
    v.assign(res_slots, select_part(t_res, mr_res_way, ways_, kSlots));
    v.assert_comb("TopReservedFillHeld_A",
                  (!res_fill).lor(mux(sector_, (res_slots & mr_sectors).eq(mr_sectors), res_slots[mr_res_pos])));
    v.comment("Sector mode: a merge into an entry that reserved finds its line held (its reserved slots are in");
    v.comment("the way S1 holds), where a sector-merging widening reserves (contract 14).");
    if (sector_gen) v.assert_comb("TopSectorReservedMergeHeld_A",
                  (!(sector_ & act_s1 & !s1_store_q & p_merge & p_merge_res)).lor(s1_held));
  });
}

}  // namespace gen::blocks::top_gen
