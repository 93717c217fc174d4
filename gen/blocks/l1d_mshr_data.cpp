// l1d_mshr's fill data (docs/l1d-microarchitecture.md sections 5 and 14, 16.5 for the staged pipe):
// per 32 B sector one l1d_ram_1r1w of fetched bytes, written by the memory response, and one of the
// bytes an alloc or add copies from the array (sector mode), each with its own write port; the read
// port takes each sector from the memory the entry's buffered bit names. Apart from l1d_mshr.cpp
// because it is the only part of the unit that differs between the staged sector pipe (the array's
// bytes arrive at D, two cycles after the alloc or add) and the others.
#include "gen/blocks/entry_ff.h"
#include "gen/blocks/l1d_mshr_doc.h"

namespace gen::blocks {

void mshr_fill_data(Module& m, const Module& ram, const MshrDataSignals& s) {
  constexpr unsigned kLineSectors = l1d::kSlotsPerLine;
  constexpr unsigned kSectorBits = 8 * l1d::kLineBytes / kLineSectors;
  m.comment("The fill data, one memory per sector: a response writes the sectors it names. l1.sector: a");
  m.comment("second memory per sector takes the sectors an alloc or add buffers (their own write port: a");
  m.comment("response may write the same sector of another entry in the cycle); the read takes each sector");
  m.comment("from the memory the entry's buffered bit names.");
  Expr rd_buffered = m.logic("rd_buffered", kLineSectors);
  if (s.late_buffer) {
    m.comment("Staged sector mode: per entry, the buffered sectors whose bytes the buffer holds (set by the");
    m.comment("write at D, cleared when the entry is allocated); the probe reads buffered, set at the alloc or add.");
    // Over 64 entries, entry i's are flops of their own in g_copied (entry_ff.h, rule reset-loop-64).
    Expr copied_q = m.logic("copied_q", s.entries * kLineSectors);
    entry_ff(m, "g_copied", "i", s.entry_count, s.entries, {{copied_q, kLineSectors, "entry_copied_q"}}, true,
             [&](Block& body, const Expr& i, const std::vector<Expr>& q) {
               body.assign(q[0], mux(s.alloc_ok.land(s.free_entry.eq(cast(s.entry_w, i))), zeros(), q[0]) |
                                     mux(s.buf_wr_entry.eq(cast(s.entry_w, i)), s.buf_wr, zeros()));
             });
    m.assign(rd_buffered, copied_q.part(s.rd_entry * kLineSectors, kLineSectors));
  } else {
    m.assign(rd_buffered, s.buffered.part(s.rd_entry * kLineSectors, kLineSectors));
  }
  m.gen_for("g_data", "gs", 0, kLineSectors, [&](Scope& g, const Expr& sec) {
    Expr we = g.logic("we");
    Expr buf_we = g.logic("buf_we");
    Expr fetched = g.logic("fetched", kSectorBits);
    Expr copied = g.logic("copied", kSectorBits);
    g.assign(we, s.resp & (s.resp_sectors.eq(zeros()) | s.resp_sectors[sec]));
    g.assign(buf_we, s.late_buffer ? s.buf_wr[sec]
                                   : (s.alloc_ok & s.alloc_buffer[sec]) | (s.add_ok & s.add_buffer[sec]));
    g.instance("u_data", ram, {{"Words", s.entries}, {"Width", Expr(kSectorBits)}},
               {{"clk_i", s.clk}, {"wr_en_i", we}, {"wr_addr_i", s.resp_entry},
                {"wr_data_i", s.resp_data.part(sec * kSectorBits, kSectorBits)},
                {"rd_addr_i", s.rd_entry}, {"rd_data_o", fetched}});
    g.instance("u_buffer", ram, {{"Words", s.entries}, {"Width", Expr(kSectorBits)}},
               {{"clk_i", s.clk}, {"wr_en_i", buf_we}, {"wr_addr_i", s.late_buffer ? s.buf_wr_entry : s.req_entry},
                {"wr_data_i", s.buffer_data.part(sec * kSectorBits, kSectorBits)},
                {"rd_addr_i", s.rd_entry}, {"rd_data_o", copied}});
    g.assign(s.data_rd_word.part(sec * kSectorBits, kSectorBits), mux(rd_buffered[sec], copied, fetched));
  });
}

}  // namespace gen::blocks
