// l1d_tag_read: stage T of the staged L1 (docs/l1d-microarchitecture.md 16.1, 16.5): the tag/state
// array in a 1r1w SRAM (l1d_sram_1r1w, one word per set), read at A for T and written by C, with
// the forwarding that lets stages M1 and M2 see the row every older operation left. The row an
// operation reads at A is older than four writes: the write in the same cycle as its read (a
// macro's read-during-write is undefined), the write while it is in T, the write while it is in M1
// (all three from operations decided before it reaches M1: M1 matches against that row), and the
// write while it is in M2 (C's write of the operation decided just before it). The first two are
// merged into the T -> M1 register, the third at M1's input (and so into the M1 -> M2 register).
// The fourth is merged into the M1 -> M2 register as well, a cycle before C writes it: the
// operation at M2 gives the row as it leaves it (m2_new_row_i), and when M1's set is M2's set that
// row, not M1's, goes on to M2 (the contract's whole-row mux, taken at M2's input so that M2's
// decision starts at flip-flops; the select compares two set registers). The newest write of the
// set wins. Rows are written whole (C writes the row M2 decided from).
#include <algorithm>
#include <bit>
#include <string>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {

unsigned rtl_staged_row_bits(const l1d::Config& cfg) {
  const l1d::AddressSplit split(cfg.l1);
  const unsigned common = std::max(split.common_tag_bits(), 1U);
  const unsigned hpc = static_cast<unsigned>(std::countr_zero(cfg.policy.agcb.entries));
  return cfg.l1.ways * (common + 4 * split.chunk_tag_bits() + 4 * 32 + hpc + 8);
}

namespace {

// The widest SRAM word written whole: Verilator's lint takes a replication of more than 8 Ki bits
// (l1d_sram_1r1w's write mask of one granule) for a mistake, so a wider row (gtx1080-jips's 48 ways:
// 10 416 bits) is kept in several macros side by side, written and read together.
constexpr unsigned kMaxWordBits = 8192;

class TagRead final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_tag_read"; }
  std::string_view summary() const override {
    return "staged L1 stage T: tag/state rows in a 1r1w SRAM, read at A, written at C, forwarded into M1 and M2";
  }

  Module module(const l1d::Config& cfg) const override {
    Module m(name());
    m.describe("Stage T of the staged L1 (contract 16.1, 16.5). rd_set_i: the set of the operation A picks this");
    m.describe("cycle (read when rd_en_i); wr_en_i / wr_set_i / wr_row_i: C's write of a whole row this cycle.");
    m.describe("m1_row_o is the row of the set A read two cycles ago (m1_set_o), m2_row_o the row of the set A");
    m.describe("read three cycles ago (m2_set_o), each as the array holds it after every write before this cycle");
    m.describe("and this cycle's write: the SRAM word, then the write of the read's cycle, then the one of the");
    m.describe("cycle after (both merged into the T -> M1 register), then M1's cycle's (at M1, and so into the");
    m.describe("M1 -> M2 register), then M2's cycle's, which the operation at M2 in the cycle before gave as");
    m.describe("m2_new_row_i (merged into the M1 -> M2 register). m2_valid_i: M2 holds an operation (of the");
    m.describe("set m2_set_o, read at A) and m2_new_row_i is its row as it leaves it: the next cycle either");
    m.describe("writes that row to that set or writes nothing to that set and the row is the one it holds;");
    m.describe("no other write goes to the set M2 holds (the staged top's C writes only M2's rows).");
    m.describe("Only the forwarding history's valid bit is reset.");
    Expr sets = m.param("Sets", rtl_staged_array_sets(cfg));  // carveout adaptive: the largest L1's
    Expr row_bits = m.param("RowBits", 64);
    Expr set_bits = m.localparam("SetBits", mux(sets.gt(1), clog2(sets), 1));

    Expr clk = m.clk();
    m.rst_n();
    Expr rd_en = m.input("rd_en_i");
    Expr rd_set = m.input("rd_set_i", set_bits);
    Expr wr_en = m.input("wr_en_i");
    Expr wr_set = m.input("wr_set_i", set_bits);
    Expr wr_row = m.input("wr_row_i", row_bits);
    Expr m2_valid = m.input("m2_valid_i");
    Expr m2_new_row = m.input("m2_new_row_i", row_bits);
    Expr m1_set_o = m.output("m1_set_o", set_bits);
    Expr m1_row_o = m.output("m1_row_o", row_bits);
    Expr m2_set_o = m.output("m2_set_o", set_bits);
    Expr m2_row_o = m.output("m2_row_o", row_bits);

    Expr sram_row = m.logic("sram_row", row_bits);
    // Only the staged pipe instantiates this block (its configurations size the split).
    const unsigned pieces = cfg.l1.pipeline != l1d::L1Pipeline::kStaged
                                ? 1U
                                : (rtl_staged_row_bits(cfg) + kMaxWordBits - 1) / kMaxWordBits;
    if (pieces <= 1) {
      m.instance("u_rows", "l1d_sram_1r1w",
                 {{"Words", sets}, {"Width", row_bits}, {"GranBits", row_bits}, {"AddrBits", set_bits}},
                 {{"clk_i", clk}, {"wr_en_i", wr_en}, {"wr_addr_i", wr_set}, {"wr_data_i", wr_row},
                  {"wr_mask_i", bit(true)}, {"rd_en_i", rd_en}, {"rd_addr_i", rd_set}, {"rd_data_o", sram_row}});
    } else {
      m.comment("The row is wider than one SRAM word: pieces of RowBits / Pieces bits (the last takes the rest).");
      Expr piece_bits = m.localparam("PieceBits", row_bits / Expr(pieces));
      for (unsigned k = 0; k < pieces; ++k) {
        const Expr lsb = k == 0 ? Expr(0U) : piece_bits * Expr(k);
        const Expr width = k + 1 < pieces ? piece_bits : row_bits - lsb;
        m.instance("u_rows_" + std::to_string(k), "l1d_sram_1r1w",
                   {{"Words", sets}, {"Width", width}, {"GranBits", width}, {"AddrBits", set_bits}},
                   {{"clk_i", clk}, {"wr_en_i", wr_en}, {"wr_addr_i", wr_set}, {"wr_data_i", wr_row.part(lsb, width)},
                    {"wr_mask_i", bit(true)}, {"rd_en_i", rd_en}, {"rd_addr_i", rd_set},
                    {"rd_data_o", sram_row.part(lsb, width)}});
      }
    }

    m.comment("The write of the read's cycle (w1), kept one cycle for the operation now in T.");
    Expr w1_valid_q = m.logic("w1_valid_q");
    Expr w1_set_q = m.logic("w1_set_q", set_bits);
    Expr w1_row_q = m.logic("w1_row_q", row_bits);
    Expr t_set_q = m.logic("t_set_q", set_bits);
    Expr m1_set_q = m.logic("m1_set_q", set_bits);
    Expr m1_row_q = m.logic("m1_row_q", row_bits);
    Expr m2_set_q = m.logic("m2_set_q", set_bits);
    Expr m2_row_q = m.logic("m2_row_q", row_bits);

    m.comment("T: the SRAM word, then w1, then this cycle's write (newest wins).");
    Expr t_row = m.logic("t_row", row_bits);
    m.assign(t_row, mux(wr_en.land(wr_set.eq(t_set_q)), wr_row,
                        mux(w1_valid_q.land(w1_set_q.eq(t_set_q)), w1_row_q, sram_row)));
    m.comment("M1: this cycle's write of M1's set replaces its registered row. M2: its register already");
    m.comment("holds the write of this cycle (the row the operation at M2 in the cycle before left).");
    m.assign(m1_row_o, mux(wr_en.land(wr_set.eq(m1_set_q)), wr_row, m1_row_q));
    m.assign(m1_set_o, m1_set_q);
    m.assign(m2_row_o, m2_row_q);
    m.assign(m2_set_o, m2_set_q);
    m.comment("Into M2: the row M2 leaves when M2's set is M1's (the whole-row mux), else M1's row.");
    Expr m2_row_d = m.logic("m2_row_d", row_bits);
    m.assign(m2_row_d, mux(m2_valid.land(m2_set_q.eq(m1_set_q)), m2_new_row, m1_row_o));

    m.always_ff({{w1_valid_q, bit(false)}}, [&](Block& b) { b.assign(w1_valid_q, wr_en); });
    m.always_ff_noreset([&](Block& b) {
      b.assign(w1_set_q, wr_set);
      b.assign(w1_row_q, wr_row);
      b.assign(t_set_q, rd_set);
      b.assign(m1_set_q, t_set_q);
      b.assign(m1_row_q, t_row);
      b.assign(m2_set_q, m1_set_q);
      b.assign(m2_row_q, m2_row_d);
    });
    return m;
  }
};

}  // namespace

const RtlBlock& tag_read_block() {
  static const TagRead block;
  return block;
}

}  // namespace gen::blocks
