// l1d_sram_1rw: the single-port SRAM primitive of the L1's arrays (issue 24, docs/rtl-blocks.md).
// One port: a read or a masked write per cycle; synchronous read. This file is the behavioural
// model, which Verilator simulates and which is the logical array for synthesis: `make synth`
// replaces each instance by a tiling of the library's SRAM macros (synth/sram_tiling.py,
// docs/synthesis.md "The SRAM layer").
//
// Why these semantics: they are what both macro families offer directly. IHP's RM_IHPSG13_1P
// macros keep A_DOUT at the last read when no read is done and have a bit write mask; sky130's
// OpenRAM macros have a byte mask and need an output hold register for the first (the synthesis
// view adds it). GranBits (bits per mask bit) is a parameter: 8 (a byte mask) fits both, 1 (a bit
// mask) only IHP, Width (one bit for the whole word) any macro.
#include <string>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/l1d_sram_common.h"

namespace gen::blocks {
namespace {

// The default shape: one 64-bit word per set of the configuration, a byte mask (small enough for
// the generic synthesis checks to map to flops in seconds; the users of the primitive set their
// own shapes).
constexpr unsigned kDefaultWidth = 64;
constexpr unsigned kDefaultGran = 8;

class Sram1rw final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_sram_1rw"; }
  std::string_view summary() const override {
    return "single-port SRAM primitive: synchronous read, masked write, no reset (macros for synthesis)";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);  // refuses a geometry the golden model refuses
    Module m(name());
    m.describe("Single-port SRAM of Words words of Width bits (docs/rtl-blocks.md). A behavioural model;");
    m.describe("synthesis maps it to SRAM macros (synth/sram_tiling.py). Width must be a multiple of GranBits.");
    m.describe("Read: req_i && !we_i; rdata_o is word addr_i from the next cycle on, and keeps it until the");
    m.describe("next read (writes and idle cycles do not change it; before the first read it is undefined).");
    m.describe("Write: req_i && we_i; bit i of word addr_i takes wdata_i[i] where wmask_i[i / GranBits] is");
    m.describe("set, at the clock edge. An address >= Words writes nothing and reads an undefined value.");
    m.describe("No reset: an SRAM powers up with unknown contents.");
    const sram::Shape s = sram::shape_params(m, rtl_array_sets(cfg), kDefaultWidth, kDefaultGran);

    m.clk();
    Expr req = m.input("req_i");
    Expr we = m.input("we_i");
    Expr addr = m.input("addr_i", s.addr_w);
    Expr wdata = m.input("wdata_i", s.width);
    Expr wmask = m.input("wmask_i", s.mask_w);
    Expr rdata = m.output("rdata_o", s.width);

    Expr mem_q = m.logic("mem_q", s.width, {s.words});
    Expr rdata_q = m.logic("rdata_q", s.width);
    sram::masked_write(m, s, mem_q, req & we, addr, wdata, wmask);
    m.always_ff_noreset([&](Block& b) { b.if_(req & ~we, [&](Block& t) { t.assign(rdata_q, mem_q[addr]); }); });
    m.assign(rdata, rdata_q);
    return m;
  }
};

}  // namespace

const RtlBlock& sram_1rw_block() {
  static const Sram1rw block;
  return block;
}

}  // namespace gen::blocks
