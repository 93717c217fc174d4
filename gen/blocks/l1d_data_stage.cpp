// l1d_data_stage: stages C and D of the staged L1's data path (docs/l1d-microarchitecture.md
// 16.1, 16.5): the data array as one l1d_sram_1r1w bank per way, read at C and written at D, with
// the forwarding that makes the word read equal to what an array written at the clock edge gives.
//
// Banks. One bank per way, Sets words of one 128 B line (1024 bits), so that a lookup reads one
// way's line, not every way's (issue 24): rd_ways_i enables only the banks to read (a load hit
// its way, a fill its victim, a flush its walked way, a DyCache load with copies in several ways
// those ways). Write mask: one bit per byte (GranBits = 8), because stores write byte masks and
// fills whole 32 B slots, and a byte mask is the finest every library's macros honour
// (docs/synthesis.md): `sram_tiling.py tile --kind 1r1w --words 32 --width 1024` gives, per way of
// gtx480, 32 x sky130_sram_1kbyte_1rw1r_32x256_8 (6.37 mm2; sky130's byte `wmask0`) or 32 x
// RM_IHPSG13_2P_256x32_c2_bm_bist (3.08 mm2) at GranBits 8, the same tilings as a whole-word
// write; GranBits 1 is refused for sky130 ("write whole bytes or words").
//
// Why writes happen at D: a fill reads its victim's dirty slots at C and must do so before the
// block overwrites them, and a 1r1w macro's read during a write of the same word is undefined, so
// the fill writes the cycle after its read.
//
// Which writes an operation's read must see. Operation X is decided at M in cycle m, reads at C in
// m + 1, and its data is presented at D in m + 2. The operation decided in m - 2 wrote at D in m:
// before X's read, in the SRAM. The one decided in m - 1 writes at D in m + 1, the cycle of X's
// read: the macro leaves that read undefined, so the write (set, way, bytes, data) is kept one
// cycle and its bytes replace the bank's output at D, byte by byte. The other bytes are the bank's
// word: the write drivers of the columns the mask leaves out stay off, so those cells keep their
// value, but the datasheets promise nothing for a colliding read (IHP's 2P: "no conflict
// handling"); if a macro garbled a whole word, the unit would need the writer's old word instead.
// The only write in m + 2, the cycle the data is presented, is X's own (an older operation decided
// in m - k writes in m + 2 - k): it must not be forwarded, since a fill's read returns the victim's
// bytes its own write replaces. So rd_data_o is the array after every write up to and including
// the one of the read's cycle, and nothing later.
//
// Address copies: a set register that drives every macro's address pins (gtx480 on sg13g2: 128
// macros) is one net into over a thousand macro pins, 194 FO4 unbuffered (docs/synthesis.md). Each
// way's bank is therefore AddrGroups banks of GroupBits bits (256: 8 macros of 32-bit words on
// sg13g2 and sky130, one black box each on osu018), and rd_set_i / wr_set_i carry one copy of the
// set per bank (Ways x AddrGroups copies, equal values), each from its own register in l1d_top
// (`(* keep *)` registers, so that Yosys does not merge them back into one).
//
// Timing: the forwarding compare is made at C and registered (fwd_hit_q: a flop per way), so behind
// each macro output there is one 2:1 select whose select comes from flops (docs/synthesis.md: <= 5
// FO4 from a macro output to a register). Only fwd_hit_q is reset; the banks and the forwarded
// bytes and data are not (they are read only after a hit).
#include <bit>
#include <string>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

constexpr unsigned kLineBits = 8 * l1d::kLineBytes;
constexpr unsigned kLineBytes = l1d::kLineBytes;
constexpr unsigned kGroupBits = 256;                      // data bits per address copy (header)
constexpr unsigned kAddrGroups = kLineBits / kGroupBits;  // banks per way

class DataStage final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_data_stage"; }
  std::string_view summary() const override {
    return "staged L1 stages C and D: one 1r1w data bank per way, read at C, byte-masked write at D, forwarded";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);  // refuses a geometry the golden model refuses
    const unsigned n_ways = cfg.l1.ways;
    const unsigned n_way_bits = n_ways > 1 ? static_cast<unsigned>(std::bit_width(n_ways - 1)) : 1;
    Module m(name());
    m.describe("Stages C and D of the staged L1's data path (contract 16.1, 16.5): one l1d_sram_1r1w bank per");
    m.describe("way, Sets words of one 128 B line; way w's line at [w*1024 +: 1024], its byte b at");
    m.describe("[w*1024 + 8*b +: 8].");
    m.describe("Read at C: rd_en_i, rd_set_i, rd_ways_i[Ways] (the banks to read; a bank not enabled is not read).");
    m.describe("Write at D: wr_en_i, wr_set_i, wr_way_i (binary, < Ways), wr_be_i[128] (byte b of the line where");
    m.describe("set), wr_data_i[1024]; effective at the clock edge.");
    m.describe("rd_set_i and wr_set_i are Ways x AddrGroups copies of the set, copy k = w*AddrGroups + g at");
    m.describe("[k*SetBits +: SetBits] addressing bits [g*GroupBits +: GroupBits] of way w's bank; all copies");
    m.describe("equal (each from its own register, so that no net drives every macro's address).");
    m.describe("rd_data_o[Ways*1024], in the cycle after a read, for each way the read enabled: the line as an array");
    m.describe("written at the clock edge holds it after every write before the read's cycle and the write of the");
    m.describe("read's cycle (forwarded byte by byte: a macro's read during a write is undefined); not this cycle's");
    m.describe("write (a fill's victim read at C sees the bytes its own write at D replaces). A way not read keeps");
    m.describe("no promise (its bank holds its last read word). All ways, so that D selects each 32 B lane from");
    m.describe("any way (a DyCache copy) as l1d_top's lane select does over its data row.");
    m.describe("rd_data_o comes from the macros through one 2:1 select per bit, whose select is registered:");
    m.describe("what D adds behind it counts against the 5 FO4 from a macro output to a register.");
    m.describe("Only the forwarding hit flags are reset; no data bit is (an SRAM has no reset).");
    Expr sets = m.param("Sets", rtl_staged_array_sets(cfg));  // carveout adaptive: the largest L1's
    Expr ways = m.param("Ways", n_ways);
    Expr set_bits = m.localparam("SetBits", mux(sets.gt(1), clog2(sets), 1));
    Expr way_bits = m.localparam("WayBits", mux(ways.gt(1), clog2(ways), 1));
    Expr group_bits = m.localparam("GroupBits", Expr(kGroupBits));
    Expr groups = m.localparam("AddrGroups", Expr(kAddrGroups));
    Expr copies = ways * groups;

    Expr clk = m.clk();
    m.rst_n();
    Expr rd_en = m.input("rd_en_i");
    Expr rd_set = m.input("rd_set_i", copies * set_bits);
    Expr rd_ways = m.input("rd_ways_i", ways);
    Expr wr_en = m.input("wr_en_i");
    Expr wr_set = m.input("wr_set_i", copies * set_bits);
    Expr wr_way = m.input("wr_way_i", way_bits);
    Expr wr_be = m.input("wr_be_i", kLineBytes);
    Expr wr_data = m.input("wr_data_i", kLineBits);
    Expr rd_data = m.output("rd_data_o", ways * kLineBits);

    Expr bank_rd = m.logic("bank_rd", ways);
    Expr bank_wr = m.logic("bank_wr", ways);
    Expr fwd_hit_d = m.logic("fwd_hit_d", ways);
    Expr fwd_hit_q = m.logic("fwd_hit_q", ways);
    Expr fwd_be_q = m.logic("fwd_be_q", kLineBytes);
    Expr fwd_data_q = m.logic("fwd_data_q", kLineBits);
    Expr fwd_bits = m.logic("fwd_bits", kLineBits);
    Expr same_set = m.logic("same_set");
    // One word per way, each driven by its way's generate block, packed into rd_data_o by one
    // loop: Verilator merges per-way part-select assigns of one wide vector into concatenations
    // rebuilt whole on every evaluation (qv100's 64 ways: 86 % of the testbench's time; with the
    // table its random test ran 3.7 times faster, measured).
    Expr way_data = m.register_table("way_data", kLineBits, ways);

    m.comment("C: a bank is read when C reads its way and written when D writes its way.");
    m.assign(bank_rd, repl(ways, rd_en) & rd_ways);
    m.assign(same_set, wr_set.part(Expr(0), set_bits).eq(rd_set.part(Expr(0), set_bits)));
    m.gen_for("g_way", "w", 0, ways, [&](Scope& g, const Expr& w) {
      Expr line = g.logic("line", kLineBits);
      Expr sel = g.logic("sel", kLineBits);
      g.assign(bank_wr[w], wr_en.land(wr_way.eq(cast(way_bits, w))));
      g.gen_for("g_group", "g", 0, groups, [&](Scope& gg, const Expr& gi) {
        const Expr copy = (w * groups + gi) * set_bits;
        gg.instance("u_bank", "l1d_sram_1r1w",
                    {{"Words", sets}, {"Width", group_bits}, {"GranBits", Expr(8)}, {"AddrBits", set_bits}},
                    {{"clk_i", clk}, {"wr_en_i", bank_wr[w]}, {"wr_addr_i", wr_set.part(copy, set_bits)},
                     {"wr_data_i", wr_data.part(gi * group_bits, group_bits)},
                     {"wr_mask_i", wr_be.part(gi * (group_bits / 8), group_bits / 8)}, {"rd_en_i", bank_rd[w]},
                     {"rd_addr_i", rd_set.part(copy, set_bits)}, {"rd_data_o", line.part(gi * group_bits, group_bits)}});
      });
      g.comment("D: the forwarded bytes of this way replace the bank's word.");
      g.assign(sel, fwd_bits & repl(kLineBits, fwd_hit_q[w]));
      g.assign(way_data[w], (line & ~sel) | (fwd_data_q & sel));
    });
    m.comment("Every way is assigned; the default is the profile's (no latch) and lints at any width.");
    m.always_comb({{rd_data, repl(ways, fwd_data_q)}}, [&](Block& b) {
      b.for_("i", 0, ways,
             [&](Block& l, const Expr& i) { l.assign(rd_data.part(i * kLineBits, kLineBits), way_data[i]); });
    });

    m.comment("D's write in C's cycle hits C's read when it writes a bank C reads, at C's set.");
    m.assign(fwd_hit_d, bank_rd & bank_wr & repl(ways, same_set));
    m.gen_for("g_byte", "b", 0, Expr(kLineBytes), [&](Scope& g, const Expr& b) {
      g.assign(fwd_bits.part(b * 8, 8), repl(8, fwd_be_q[b]));
    });
    m.always_ff({{fwd_hit_q, zeros()}}, [&](Block& b) { b.assign(fwd_hit_q, fwd_hit_d); });
    m.comment("Loaded every cycle, used only after a hit: an enable (a forwarding hit) would be one net into");
    m.comment("1,152 flops behind the set compare (90 FO4 on sg13g2 unbuffered, measured); a clock gate would");
    m.comment("save their clock energy in silicon.");
    m.always_ff_noreset([&](Block& b) {
      b.assign(fwd_be_q, wr_be);
      b.assign(fwd_data_q, wr_data);
    });

    if (n_ways != 1U << n_way_bits) {
      m.verification("Assertions (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
        v.comment("A write names a way that exists (the port has more codes than there are ways).");
        v.assert_clocked("DataWrWayInRange_A", (!wr_en).lor(cast(32, wr_way).lt(ways)));
      });
    }
    return m;
  }
};

}  // namespace

const RtlBlock& data_stage_block() {
  static const DataStage block;
  return block;
}

}  // namespace gen::blocks
