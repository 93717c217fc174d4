// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): lazy_decision, S1's decisions of
// l1.write_allocate lazy_fetch_on_read (contract 14, "Write allocation"; golden::L1::store_allocate).
// Only in an l1d_top generated for it (rtl_written_state): a store whose needed sectors are not all
// valid or written still goes to memory, and its line is allocated without a fetch: the way holding
// the line, else a whole line from the placement unit (l1d_fill_place, S1's block of 4 slots with no
// bypass reason, on the row whose written slots count as live), no eligible way: nothing. A needed
// sector that is valid, or that the store writes whole, becomes (stays) valid with its bytes and is
// promoted; one it writes in part is marked written. The actor branch is s1_actor's, the row writes
// row_writes'.
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

std::vector<Conn> Top::written_ports() {
  if (!lazy_gen_) return {};
  t_written = m.logic("t_written", ways_ * kSlots);
  w_written = m.logic("w_written", ways_ * kSlots);
  return {{"rd_written_o", t_written}, {"wr_written_i", w_written}};
}

void Top::lazy_decision() {
  m.comment("Write allocation (l1.write_allocate lazy_fetch_on_read, contract 14): the way a store writes");
  m.comment("(the held way, else the placement's whole line), whether there is one (AgeLRU's bypass does not");
  m.comment("apply to stores), and per needed sector whether it becomes valid or written.");
  Expr whole = m.logic("lz_whole", kSlots);  // the store writes every byte of sector s
  m.gen_for("g_lz_whole", "gs", 0, kSlots, [&](Scope& g, const Expr& s) {
    g.assign(whole[s], red_and(s1_mask_q.part(s * 32, 32)));
  });
  lz_way = m.logic("lz_way", way_bits_);
  lz_ok = m.logic("lz_ok");
  lz_valid_set = m.logic("lz_valid_set", kSlots);
  lz_written_set = m.logic("lz_written_set", kSlots);
  // A store never reserves (res_held and s1_reserve are loads'), so fill_way is the placement's way and
  // fill_allocates its answer.
  m.assign(lz_way, mux(s1_held, m_way, fill_way));
  m.assign(lz_ok, s1_held | fill_allocates | pl_age_bypass);
  m.comment("The held way's valid slots (a way holds one line: all of them are the line's); a new line has none.");
  Expr held_valid = m.logic("lz_held_valid", kSlots);
  m.assign(held_valid, mux(s1_held, select_part(t_valid, m_way, ways_, kSlots), zeros()));
  m.assign(lz_valid_set, s1_needed & (held_valid | whole));
  m.assign(lz_written_set, s1_needed & ~held_valid & ~whole);
}

void Top::lazy_assertions() {
  m.verification("Assertions (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
    v.comment("A written slot is never valid or reserved (golden check_invariants), and a load hit reads no");
    v.comment("written slot: its data is not in the L1 (the next read of it misses and fetches it).");
    v.assert_comb("TopWrittenExclusive_A", (t_written & (t_valid | t_res)).eq(zeros()));
    v.assert_comb("TopWrittenNoLoadHit_A",
                  (!load_hit).lor((m_slots & select_part(t_written, m_way, ways_, kSlots)).eq(zeros())));
  });
}

}  // namespace gen::blocks::top_gen
