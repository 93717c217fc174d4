// l1d_sram_1r1w: the two-port SRAM primitive (one read port, one write port) of the L1's arrays
// (issue 24, docs/rtl-blocks.md). Synchronous read, masked write, no reset. This file is the
// behavioural model (Verilator, and the logical array for synthesis: `make synth` replaces each
// instance by a tiling of the library's two-port macros, synth/sram_tiling.py).
//
// Read during a write of the same word: the macros promise nothing (IHP's 2P datasheet: "no
// conflict handling"; OpenRAM's 1rw1r ports are not specified for it), so the contract is "do not
// rely on it". The model returns the word's old value: defined, free of X, and what the macros
// most often give, so a simulation does not stop on it; forwarding instead would put a
// Width-bit compare-and-select behind every macro output, in the path the v2 pipeline budgets at
// 5 FO4, for a hazard that its stages resolve themselves (same-set hazards forwarded or replayed
// at the stage level, issue 24).
#include <string>

#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/l1d_sram_common.h"

namespace gen::blocks {
namespace {

// The default shape: one 48-bit word per MSHR entry, written in halves of 24 bits (the users set
// their own; small enough for the generic synthesis checks, and whole bytes, which every library's
// macros can mask; l1d_sram_1rw's default masks single bytes, so the testbenches cover two mask
// granularities).
constexpr unsigned kDefaultWidth = 48;
constexpr unsigned kDefaultGran = 24;

class Sram1r1w final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_sram_1r1w"; }
  std::string_view summary() const override {
    return "two-port SRAM primitive (1 read, 1 write): synchronous read, masked write, no reset (macros for synthesis)";
  }

  Module module(const l1d::Config& cfg) const override {
    if (cfg.l1.mshr_entries < 1) throw l1d::ConfigError("l1d_sram_1r1w: l1.mshr_entries must be >= 1");
    Module m(name());
    m.describe("Two-port SRAM (one read, one write port) of Words words of Width bits (docs/rtl-blocks.md).");
    m.describe("A behavioural model; synthesis maps it to SRAM macros (synth/sram_tiling.py). Width must be");
    m.describe("a multiple of GranBits.");
    m.describe("Read: rd_en_i; rd_data_o is word rd_addr_i from the next cycle on, and keeps it until the next");
    m.describe("read (before the first read it is undefined).");
    m.describe("Write: wr_en_i; bit i of word wr_addr_i takes wr_data_i[i] where wr_mask_i[i / GranBits] is set.");
    m.describe("A read of the word written in the same cycle: do not rely on its value (this model gives the");
    m.describe("old word; a macro may give anything). An address >= Words writes nothing, reads undefined.");
    m.describe("No reset: an SRAM powers up with unknown contents.");
    const sram::Shape s = sram::shape_params(m, cfg.l1.mshr_entries, kDefaultWidth, kDefaultGran);

    m.clk();
    Expr wr_en = m.input("wr_en_i");
    Expr wr_addr = m.input("wr_addr_i", s.addr_w);
    Expr wr_data = m.input("wr_data_i", s.width);
    Expr wr_mask = m.input("wr_mask_i", s.mask_w);
    Expr rd_en = m.input("rd_en_i");
    Expr rd_addr = m.input("rd_addr_i", s.addr_w);
    Expr rd_data = m.output("rd_data_o", s.width);

    Expr mem_q = m.logic("mem_q", s.width, {s.words});
    Expr rd_data_q = m.logic("rd_data_q", s.width);
    sram::masked_write(m, s, mem_q, wr_en, wr_addr, wr_data, wr_mask);
    m.always_ff_noreset([&](Block& b) { b.if_(rd_en, [&](Block& t) { t.assign(rd_data_q, mem_q[rd_addr]); }); });
    m.assign(rd_data, rd_data_q);
    return m;
  }
};

}  // namespace

const RtlBlock& sram_1r1w_block() {
  static const Sram1r1w block;
  return block;
}

}  // namespace gen::blocks
