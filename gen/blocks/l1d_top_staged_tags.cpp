// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): the staged pipe's tag/state array
// (docs/l1d-microarchitecture.md 16.5). The fields an operation only reads for valid slots or
// lines it writes first (common-tags, chunk-tags, dirty byte masks, hpc, awid) are one row per set
// in l1d_tag_read's SRAM: read at A for the operation A picks, forwarded through T, M1 and M2,
// written back whole at C. The fields that must reset or clear at once (valid bits, slot ranks,
// priority bits) stay flip-flops (l1d_line_state), read at M1 with M1's set and registered into M2
// with M2's write and the kernel-end clears of that edge forwarded (staged_line_state).

#include <bit>
#include <tuple>

#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

// The set of the walk's line (line = set * Ways + way, l1d_flush_walker): its high bits when Ways is
// a power of two; otherwise (gtx1080-jips's 48 ways) the number of sets wholly before the line,
// one compare with k * Ways per set k > 0, the last true one winning (no divider).
Expr Top::walk_line_set() {
  if (std::has_single_bit(ways_))
    return cast(set_idx_bits_, fw_line >> Expr(static_cast<unsigned>(std::countr_zero(ways_))));
  m.comment("The walk's line's set: Ways is not a power of two, so the sets wholly before the line.");
  Expr set = m.logic("a_walk_set", set_idx_bits_);
  const unsigned lw = bits_for(sets_ * ways_ + 1);  // l1d_flush_walker's LineBits
  m.always_comb({{set, zeros()}}, [&](Block& b) {
    for (unsigned k = 1; k < sets_; ++k)
      b.if_(fw_line.ge(lit(lw, k * ways_)), [&](Block& t) { t.assign(set, lit(set_idx_bits_, k)); });
  });
  return set;
}

void Top::staged_tags() {
  // The row, LSB first (staged_row_fields, l1d_top_staged_conv.cpp): common-tags, chunk-tags, dirty
  // masks, hpc, awid (each all ways); with --variant conventional common-tags, line-tags, dirty masks.
  const auto fields = staged_row_fields();
  const unsigned row_bits = staged_row_bits();

  m.comment("Stage A's set: the core request's, the fill step's entry's line's, or the walk's line's.");
  const Module decode = addr_decode_block().module(cfg_);
  const unsigned addr_lsb = kLineBits + kMaskBits + 2;  // core_req_fields(): data, mask, size, addr
  Expr a_addr = m.logic("a_addr", addr_bits_);
  m.assign(a_addr, a_req_.part(Expr(addr_lsb), addr_bits_));
  unsigned req_bits = 0;
  for (const auto& f : core_req_fields()) req_bits += f.second;
  Expr unused_a_req = m.logic("unused_a_req_rest");  // A reads only the address (the set)
  m.assign(unused_a_req, red_or(concat({a_req_.slice(req_bits - 1, addr_lsb + addr_bits_), a_req_.slice(addr_lsb - 1, 0)})));
  Expr a_core_set = m.logic("a_core_set", set_idx_bits_);
  Expr a_fill_set = m.logic("a_fill_set", set_idx_bits_);
  Expr a_fill_addr = m.logic("a_fill_addr", addr_bits_);
  m.assign(a_fill_addr, concat({fill_cursor_line, lit(7, 0)}));
  for (const auto& [inst, addr, set] : {std::tuple{"u_a_core_decode", a_addr, a_core_set},
                                        std::tuple{"u_a_fill_decode", a_fill_addr, a_fill_set}}) {
    const std::string n = inst;
    m.instance(n, decode, {},  // with_set_bits: l1.carveout adaptive's active sets (contract 16.5)
               with_set_bits({{"addr_i", addr}, {"set_o", set},
                              {"common_tag_o", m.logic("unused_" + n.substr(2) + "_common", cm_bits_)},
                              {"chunk_tag_o", m.logic("unused_" + n.substr(2) + "_tag", ct_bits_)},
                              {"chunk_o", m.logic("unused_" + n.substr(2) + "_chunk", 2)}}));
  }
  Expr a_set = m.logic("a_set", set_idx_bits_);
  m.assign(a_set, mux(iss_a_kind.eq(lit(2, 2)), a_fill_set, mux(iss_a_kind.eq(lit(2, 3)), walk_line_set(), a_core_set)));

  m.comment("C's write: M2's set as M2 leaves it, the whole row (written ways' new fields, the others as read).");
  std::vector<Expr> msb_first;
  for (size_t i = 0; i < fields.size(); ++i) {
    const auto& [t_field, w_field, width] = fields[i];
    const unsigned fw = width / ways_;
    Expr merged = m.logic("row_new_" + std::to_string(i), width);
    m.gen_for("g_row_new_" + std::to_string(i), "gw", 0, ways_, [&](Scope& g, const Expr& w) {
      g.assign(merged.part(w * fw, fw), mux(w_en[w], w_field.part(w * fw, fw), t_field.part(w * fw, fw)));
    });
    msb_first.insert(msb_first.begin(), merged);
  }
  Expr row_new = m.logic("row_new", row_bits);
  m.assign(row_new, concat(msb_first));
  Expr c_wr_en = m.logic("tag_wr_en_c_q");
  Expr c_wr_set = m.logic("tag_wr_set_c_q", set_idx_bits_);
  Expr c_wr_row = m.logic("tag_wr_row_c_q", row_bits);
  m.always_ff({{c_wr_en, bit(false)}}, [&](Block& b) { b.assign(c_wr_en, red_or(w_en)); });
  m.always_ff_noreset([&](Block& b) {
    b.assign(c_wr_set, rd_set);
    b.assign(c_wr_row, row_new);
  });

  Expr m2_row = m.logic("m2_row", row_bits);
  m1_row_ = m.logic("m1_row", row_bits);  // M1's lookup (staged_core_match) reads its SRAM fields
  m1_set_ = m.logic("m1_set", set_idx_bits_);
  Expr m2_set = m.logic("m2_set", set_idx_bits_);
  m.instance("u_tag_read", tag_read_block().module(cfg_), {{"RowBits", Expr(row_bits)}},
             {{"clk_i", clk}, {"rst_ni", rst}, {"rd_en_i", iss_a_kind.ne(lit(2, 0))}, {"rd_set_i", a_set},
              {"wr_en_i", c_wr_en}, {"wr_set_i", c_wr_set}, {"wr_row_i", c_wr_row},
              {"m2_valid_i", m2_kind_q.ne(lit(2, 0))}, {"m2_new_row_i", row_new},
              {"m1_set_o", m1_set_}, {"m1_row_o", m1_row_},
              {"m2_set_o", m2_set}, {"m2_row_o", m2_row}});
  staged_line_state();
  m.comment("M2's row from the SRAM, every older operation's write forwarded (the last one, C's write of the");
  m.comment("operation M2 held in the cycle before, merged into u_tag_read's M1 -> M2 register from row_new).");
  unsigned lsb = 0;
  for (const auto& [f, unused_w, w] : fields) {
    m.assign(f, m2_row.part(Expr(lsb), w));
    lsb += w;
  }
  m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
    v.comment("The row at M2 is of the set M2 works on.");
    v.assert_comb("StagedRowOfM2Set_A", m2_kind_q.eq(lit(2, 0)).lor(m2_set.eq(rd_set)));
  });
}

// The flop fields of M2's set, read a cycle ahead: l1d_line_state is read at M1 with M1's set (a
// register of u_tag_read) and the read is registered into M2 with the write of that edge merged (M2's
// write, the only one: per way, wr_way_en_i's ways of M2's set when it is M1's) and the kernel-end
// clears of that edge applied after it, as l1d_line_state applies them to its flops. So the register
// holds, every cycle, what l1d_line_state's read of M2's set would give (M1's set is M2's set of the
// next cycle: the pipe does not stall), and M2's decision starts at flip-flops instead of at M2's set
// select by its kind and a 32-set read multiplexer (docs/synthesis.md, timing8). Not observable
// (contract 16.5).
void Top::staged_line_state() {
  const unsigned vw = ways_ * kSlots, rw = ways_ * kSlots * 2, pw = ways_;
  Expr m1_valid = m.logic("ls_m1_valid", vw);
  Expr m1_rank = m.logic("ls_m1_rank", rw);
  Expr m1_prio = m.logic("ls_m1_priority", pw);
  m.comment("Flip-flop fields (valid, slot ranks, priority), read with M1's set and registered into M2.");
  // Allocation on_miss (staged_onmiss_): the reserved bits too, read and forwarded as the valid bits
  // (never cleared at kernel end: contract 13.4).
  Expr m1_res = staged_onmiss_ ? m.logic("ls_m1_reserved", vw) : Expr();
  std::vector<Conn> res_ports;
  if (staged_onmiss_) res_ports = {{"rd_reserved_o", m1_res}, {"wr_reserved_i", w_res}};
  // Write allocation (lazy_gen_): the written bits too, read and forwarded as the valid bits and, like
  // them, cleared by kernel-end invalidation (contract 14, 16.5 "Write allocation").
  Expr m1_written = lazy_gen_ ? m.logic("ls_m1_written", vw) : Expr();
  if (lazy_gen_) {
    t_written = m.logic("t_written", vw);
    w_written = m.logic("w_written", vw);
    res_ports.push_back({"rd_written_o", m1_written});
    res_ports.push_back({"wr_written_i", w_written});
  }
  m.instance("u_line_state", line_state_block().module(cfg_), {},
             with_extra(res_ports,
             {{"clk_i", clk}, {"rst_ni", rst}, {"rd_set_i", m1_set_}, {"rd_valid_o", m1_valid},
              {"rd_slot_rank_o", m1_rank}, {"rd_priority_o", m1_prio}, {"wr_set_i", rd_set}, {"wr_way_en_i", w_en},
              {"wr_valid_i", w_valid}, {"wr_slot_rank_i", w_rank}, {"wr_priority_i", w_prio},
              {"clear_priority_i", ev_kend}, {"clear_valid_i", ev_kend & cfg_kinv}}));
  m.comment("Into M2: M1's read with this edge's write of M1's set (M2's) merged, then the kernel-end clears.");
  Expr fwd = m.logic("ls_fwd_en", ways_);
  m.assign(fwd, w_en & repl(ways_, rd_set.eq(m1_set_)));
  Expr d_valid = m.logic("ls_valid_d", vw);
  Expr d_rank = m.logic("ls_rank_d", rw);
  Expr d_prio = m.logic("ls_priority_d", pw);
  Expr merged_valid = m.logic("ls_valid_merged", vw);
  Expr merged_prio = m.logic("ls_priority_merged", pw);
  m.gen_for("g_ls_fwd", "gw", 0, ways_, [&](Scope& g, const Expr& w) {
    g.assign(merged_valid.part(w * kSlots, kSlots), mux(fwd[w], w_valid.part(w * kSlots, kSlots), m1_valid.part(w * kSlots, kSlots)));
    g.assign(d_rank.part(w * (2 * kSlots), 2 * kSlots),
             mux(fwd[w], w_rank.part(w * (2 * kSlots), 2 * kSlots), m1_rank.part(w * (2 * kSlots), 2 * kSlots)));
    g.assign(merged_prio[w], mux(fwd[w], w_prio[w], m1_prio[w]));
  });
  m.assign(d_valid, merged_valid & repl(vw, !(ev_kend & cfg_kinv)));
  m.assign(d_prio, merged_prio & repl(pw, !ev_kend));
  Expr q_valid = m.logic("ls_valid_m2_q", vw);
  Expr q_rank = m.logic("ls_rank_m2_q", rw);
  Expr q_prio = m.logic("ls_priority_m2_q", pw);
  // Reset: every set's reset state (l1d_line_state: invalid, slot s rank s, priority 0).
  m.always_ff({{q_valid, zeros()}, {q_rank, repl(ways_, hex(8, 0xE4))}, {q_prio, zeros()}}, [&](Block& b) {
    b.assign(q_valid, d_valid);
    b.assign(q_rank, d_rank);
    b.assign(q_prio, d_prio);
  });
  if (staged_onmiss_) {
    Expr d_res = m.logic("ls_reserved_d", vw);
    Expr q_res = m.logic("ls_reserved_m2_q", vw);
    m.gen_for("g_ls_res_fwd", "gw", 0, ways_, [&](Scope& g, const Expr& w) {
      g.assign(d_res.part(w * kSlots, kSlots), mux(fwd[w], w_res.part(w * kSlots, kSlots), m1_res.part(w * kSlots, kSlots)));
    });
    m.always_ff({{q_res, zeros()}}, [&](Block& b) { b.assign(q_res, d_res); });
    m.assign(t_res, q_res);
  }
  if (lazy_gen_) {
    Expr merged_wr = m.logic("ls_written_merged", vw);
    Expr q_wr = m.logic("ls_written_m2_q", vw);
    m.gen_for("g_ls_written_fwd", "gw", 0, ways_, [&](Scope& g, const Expr& w) {
      g.assign(merged_wr.part(w * kSlots, kSlots),
               mux(fwd[w], w_written.part(w * kSlots, kSlots), m1_written.part(w * kSlots, kSlots)));
    });
    m.always_ff({{q_wr, zeros()}}, [&](Block& b) { b.assign(q_wr, merged_wr & repl(vw, !(ev_kend & cfg_kinv))); });
    m.assign(t_written, q_wr);
  }
  m.assign(t_valid, q_valid);
  m.assign(t_rank, q_rank);
  m.assign(t_prio, q_prio);
}

}  // namespace gen::blocks::top_gen
