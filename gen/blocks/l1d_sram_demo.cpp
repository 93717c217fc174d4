// l1d_sram_demo: the SRAM layer's test design (issue 24, docs/synthesis.md "The SRAM layer"): a
// registered request in front of two l1d_sram_1rw arrays of the L1's shapes, so that `make synth`
// maps real macro tilings and times the paths into and out of them in every library.
// - tag/state array: one word per set holding every way's tag/state entry (a lookup compares all
//   ways), one write-mask bit per way (a fill writes one way's entry);
// - data array: one word per (set, way) of 128 B, byte mask: a lookup reads ONE way's line, not
//   the whole set's Ways x 128 B (the data array of v1, l1d_data_sram, reads every way).
// The tag entry is as wide as l1d_tag_array's line (common tag, four slots of valid, dirty mask,
// chunk tag and rank, hpc, awid, priority) rounded up to whole bytes, so that sky130's byte-masked
// macros can write one way. Ways that are not a power of two leave data words unused. This is not the v2 L1's tag stage (contract v2 defines that); it
// only gives the arrays their shapes.
#include <algorithm>
#include <bit>
#include <string>
#include <string_view>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

constexpr unsigned kLineBits = 8 * l1d::kLineBytes;
constexpr unsigned kSlots = l1d::kSlotsPerLine;

// One way's tag/state entry in bits, as l1d_tag_array stores it, rounded up to a byte.
unsigned tag_entry_bits(const l1d::Config& cfg, const l1d::AddressSplit& split) {
  const unsigned hpc_bits = static_cast<unsigned>(std::countr_zero(cfg.policy.agcb.entries));
  const unsigned slot_bits = 1 + l1d::kChunkBytes + split.chunk_tag_bits() + 2;  // valid, dirty, tag, rank
  const unsigned bits = std::max(split.common_tag_bits(), 1U) + kSlots * slot_bits + hpc_bits + 8 + 1;
  return (bits + 7) / 8 * 8;
}

class SramDemo final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_sram_demo"; }
  std::string_view summary() const override {
    return "SRAM layer test design: registered request into a tag/state and a one-way data l1d_sram_1rw";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);
    Module m(name());
    m.describe("Test design of the SRAM layer (not part of l1d_top): the request is registered (req_*_q), then");
    m.describe("addresses a tag/state array (word = set, every way's entry, one mask bit per way) and a data");
    m.describe("array (word = {set, way}, one way's 128 B line, byte mask). A write writes way req_way_i's tag");
    m.describe("entry (tag_wdata_i) and the enabled bytes of its line; a read returns the set's tag row and the");
    m.describe("way's line on tag_rdata_o and data_rdata_o in the cycle after the registered request, i.e.");
    m.describe("two cycles after the inputs (l1d_sram_1rw's synchronous read).");
    Expr sets = m.param("Sets", split.sets());
    Expr ways = m.param("Ways", cfg.l1.ways);
    Expr entry_w = m.param("TagEntryBits", tag_entry_bits(cfg, split));
    Expr set_w = m.param("SetBits", std::max(split.set_bits(), 1U));
    // Ways rounded up to a power of two (at least 2) in the data array's address: {set, way}.
    Expr way_w = m.param("WayBits", std::max(static_cast<unsigned>(std::bit_width(cfg.l1.ways - 1)), 1U));

    Expr clk = m.clk();
    m.rst_n();
    Expr req = m.input("req_i");
    Expr we = m.input("we_i");
    Expr set = m.input("set_i", set_w);
    Expr way = m.input("way_i", way_w);
    Expr tag_wdata = m.input("tag_wdata_i", entry_w);
    Expr data_wdata = m.input("data_wdata_i", kLineBits);
    Expr data_be = m.input("data_be_i", kLineBits / 8);
    Expr tag_rdata = m.output("tag_rdata_o", ways * entry_w);
    Expr data_rdata = m.output("data_rdata_o", kLineBits);

    m.comment("The registered request: only its valid bit is reset.");
    Expr req_q = m.logic("req_q");
    Expr we_q = m.logic("we_q");
    Expr set_q = m.logic("set_q", set_w);
    Expr way_q = m.logic("way_q", way_w);
    Expr tag_wdata_q = m.logic("tag_wdata_q", entry_w);
    Expr data_wdata_q = m.logic("data_wdata_q", kLineBits);
    Expr data_be_q = m.logic("data_be_q", kLineBits / 8);
    m.always_ff({{req_q, bit(false)}}, [&](Block& b) { b.assign(req_q, req); });
    m.always_ff_noreset([&](Block& b) {
      b.assign(we_q, we);
      b.assign(set_q, set);
      b.assign(way_q, way);
      b.assign(tag_wdata_q, tag_wdata);
      b.assign(data_wdata_q, data_wdata);
      b.assign(data_be_q, data_be);
    });

    // One l1d_sram_1rw of the given shape, driven by the registered request.
    const auto array = [&](std::string_view name, const Expr& words, const Expr& width, const Expr& gran,
                           const Expr& addr_w, const Expr& addr, const Expr& wdata, const Expr& wmask,
                           const Expr& rdata) {
      m.instance(name, "l1d_sram_1rw",
                 {{"Words", words}, {"Width", width}, {"GranBits", gran}, {"AddrBits", addr_w}},
                 {{"clk_i", clk}, {"req_i", req_q}, {"we_i", we_q}, {"addr_i", addr}, {"wdata_i", wdata},
                  {"wmask_i", wmask}, {"rdata_o", rdata}});
    };
    m.comment("Tag/state array: every way's entry of a set in one word; a write enables one way's entry.");
    Expr tag_wmask = m.logic("tag_wmask", ways);
    m.assign(tag_wmask, cast(ways, lit(1, 1)) << way_q);
    array("u_tag", sets, ways * entry_w, entry_w, set_w, set_q, repl(ways, tag_wdata_q), tag_wmask, tag_rdata);
    m.comment("Data array: word {set, way}, one way's line (2^WayBits words per set).");
    array("u_data", sets << way_w, Expr(kLineBits), Expr(8), set_w + way_w, concat({set_q, way_q}), data_wdata_q,
          data_be_q, data_rdata);
    return m;
  }
};

}  // namespace

const RtlBlock& sram_demo_block() {
  static const SramDemo block;
  return block;
}

}  // namespace gen::blocks
