// l1d_ram_1r1w: a plain 1-read 1-write RAM (combinational read, registered write, no reset) for
// the buffers of the L1 that a real design keeps in SRAM or a register-file macro: the MSHR's
// fill data and merged requests (gen/blocks/l1d_mshr.cpp instantiates it with their shapes).
//
// It is its own module so that the synthesis checks can keep it a black box (synth/yosys_check.sh,
// SYN_BLACKBOX), as l1d_data_sram is: Yosys' generic `synth` maps an SRAM-sized memory to flops
// in minutes (the gtx480 MSHR: 235 k cells, 67 s; qv100's 256 entries would be eight times that),
// while the full flow (synth/yosys_map.tcl) flattens it and turns every memory of at least 4 kbit
// into an SRAM macro anyway. Its default shape is the MSHR fill-data buffer of the configuration.
#include <string>

#include "common/config.h"
#include "common/types.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

class Ram1r1w final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_ram_1r1w"; }
  std::string_view summary() const override {
    return "1-read 1-write RAM, combinational read, no reset: the MSHR's buffers (black box for synthesis checks)";
  }

  Module module(const l1d::Config& cfg) const override {
    if (cfg.l1.mshr_entries < 1) throw l1d::ConfigError("l1d_ram_1r1w: l1.mshr_entries must be >= 1");
    Module m(name());
    m.describe("A 1-read 1-write RAM of Words words of Width bits (no reset: an SRAM powers up unknown).");
    m.describe("Read (combinational): rd_data_o is word rd_addr_i (an address >= Words reads an undefined value).");
    m.describe("Write (registered): with wr_en_i, word wr_addr_i takes wr_data_i at the clock edge; a read of");
    m.describe("the same word in that cycle sees the old value.");
    m.describe("A black box for the synthesis checks (SYN_BLACKBOX); AddrBits is derived from Words (do not");
    m.describe("override it): with one word the address keeps one bit.");
    Expr words = m.param("Words", cfg.l1.mshr_entries);
    Expr width = m.param("Width", 8 * l1d::kLineBytes);
    Expr addr_w = m.param("AddrBits", mux(words.gt(1), clog2(words), 1));

    m.clk();
    Expr wr_en = m.input("wr_en_i");
    Expr wr_addr = m.input("wr_addr_i", addr_w);
    Expr wr_data = m.input("wr_data_i", width);
    Expr rd_addr = m.input("rd_addr_i", addr_w);
    Expr rd_data = m.output("rd_data_o", width);

    Expr mem_q = m.logic("mem_q", width, {words});
    m.always_ff_noreset([&](Block& b) { b.if_(wr_en, [&](Block& t) { t.assign(mem_q[wr_addr], wr_data); }); });
    m.assign(rd_data, mem_q[rd_addr]);
    return m;
  }
};

}  // namespace

const RtlBlock& ram_1r1w_block() {
  static const Ram1r1w block;
  return block;
}

}  // namespace gen::blocks
