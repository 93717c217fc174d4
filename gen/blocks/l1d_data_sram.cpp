// l1d_data_sram: the data array of the L1 (microarchitecture doc section 2; golden model: the
// `data` of golden::CacheLine). A plain behavioural memory, one word per set holding every way's
// 128 B line, with a combinational read of a whole set and a registered byte-masked write.
//
// Synthesis treats this module as a black box (synth/synth.sh, SYN_BLACKBOX=l1d_data_sram): a
// real L1 uses SRAM macros here, and the area report counts its memory bits at a stated SRAM
// density instead of mapping them to flops. The model is therefore kept as plain unpacked
// memories (one per way; Yosys sees Sets x Ways*1024 memory bits) without reset, as an SRAM
// has none.
#include <string>
#include <vector>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

constexpr unsigned kLineBits = 8 * l1d::kLineBytes;  // one way's data
constexpr unsigned kLineBytes = l1d::kLineBytes;

class DataSram final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_data_sram"; }
  std::string_view summary() const override {
    return "data array: per set every way's 128 B line, combinational set read, byte-masked write (black box)";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);  // refuses a geometry the golden model refuses
    Module m(name());
    m.describe("Data array of the L1 (docs/l1d-microarchitecture.md section 2, golden::L1::line_data): per");
    m.describe("set one word of Ways lines of 128 B, way w's line at [w*1024 +: 1024], its byte b at");
    m.describe("[w*1024 + 8*b +: 8]. A behavioural model for simulation; synthesis keeps it as a black box");
    m.describe("(SRAM macros; synth/synth.sh SYN_BLACKBOX), so it is plain memories (one per way), no reset.");
    m.describe("Read (combinational): every way of set rd_set_i.");
    m.describe("Write (registered): byte i of set wr_set_i takes wr_data_i[8*i +: 8] where wr_be_i[i] is set");
    m.describe("(byte i = way i/128, line byte i%128).");
    m.describe("No reset: an SRAM powers up with unknown contents; l1d_top reads no byte it has not written.");
    m.describe("With one set, rd_set_i and wr_set_i keep one bit and are ignored.");
    Expr sets = m.param("Sets", rtl_array_sets(cfg));
    Expr ways = m.param("Ways", cfg.l1.ways);
    const Expr set_w = mux(sets.gt(1), clog2(sets), 1);

    m.clk();
    Expr rd_set = m.input("rd_set_i", set_w);
    Expr rd_data = m.output("rd_data_o", ways * kLineBits);
    Expr wr_set = m.input("wr_set_i", set_w);
    Expr wr_be = m.input("wr_be_i", ways * kLineBytes);
    Expr wr_data = m.input("wr_data_i", ways * kLineBits);

    Expr rd_idx = m.logic("rd_idx", set_w);
    Expr wr_idx = m.logic("wr_idx", set_w);
    m.gen_if(sets.gt(1), "g_index", [&](Scope& g) {
      g.assign(rd_idx, rd_set);
      g.assign(wr_idx, wr_set);
    }).else_("g_one_set", [&](Scope& g) {
      g.comment("One set: the index ports are unused, word 0 is the only one.");
      Expr unused_set = g.logic("unused_set");
      g.assign(unused_set, rd_set[0] ^ wr_set[0]);
      g.assign(rd_idx, zeros());
      g.assign(wr_idx, zeros());
    });

    m.comment("One memory per way (set s at mem_q[s]), written a whole line at a time: the line read at");
    m.comment("wr_set_i with the enabled bytes replaced. (One write statement per memory: Yosys turns 128");
    m.comment("byte-wide writes of a word into 128 write ports and takes minutes over them.) The merge and");
    m.comment("its byte mask are written inside the write's condition, not as continuous assignments, so");
    m.comment("that a simulator computes them only in the cycles that write this way (a Verilator model");
    m.comment("evaluates every continuous assignment on every clock edge).");
    m.gen_for("g_way", "w", 0, ways, [&](Scope& g, const Expr& w) {
      Expr mem_q = g.logic("mem_q", kLineBits, {sets});
      Expr be = g.logic("be", kLineBytes);
      g.assign(be, wr_be.part(w * kLineBytes, kLineBytes));
      // The bit mask {{8{be[127]}}, ..., {8{be[0]}}} (byte i of the line at [8*i +: 8]).
      std::vector<Expr> mask_bytes;
      for (unsigned i = kLineBytes; i-- > 0;) mask_bytes.push_back(repl(8, be[i]));
      const Expr old_line = mem_q[wr_idx];
      // old ^ ((old ^ new) & mask): the enabled bytes from wr_data_i, the others kept.
      const Expr merged = old_line ^ ((old_line ^ wr_data.part(w * kLineBits, kLineBits)) & concat(mask_bytes));
      g.always_ff_noreset([&](Block& b) { b.if_(red_or(be), [&](Block& t) { t.assign(mem_q[wr_idx], merged); }); });
      g.assign(rd_data.part(w * kLineBits, kLineBits), mem_q[rd_idx]);
    });
    return m;
  }
};

}  // namespace

const RtlBlock& data_sram_block() {
  static const DataSram block;
  return block;
}

}  // namespace gen::blocks
