// l1d_addr_decode: the address split of SPEC section 2 (golden model: l1d::AddressSplit).
// Combinational; the parameters default to the configuration's geometry.
#include "common/address.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

class AddrDecode final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_addr_decode"; }
  std::string_view summary() const override {
    return "address split: set (optional Fermi hash), common-tag, chunk-tag, chunk (SPEC 2)";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);  // refuses a geometry the golden model refuses
    Module m(name());
    m.describe("Address split of the DyCache L1 (SPEC section 2):");
    m.describe("  addr[4:0] byte, addr[6:5] chunk, the next SetBits bits set, the rest the line tag;");
    m.describe("  chunk-tag = {low ChunkTagBits-2 line-tag bits, chunk}, common-tag = the line tag above them.");
    m.describe("FermiHash XORs address bits 13-15, 17 and 19 into the low five set bits (32 or 64 sets).");
    m.describe("SetIdxBits and CommonTagBits are the port widths derived from the others (do not override");
    m.describe("them): with one set, or no common-tag bits left, that port keeps one bit and reads zero.");
    Expr addr_bits = m.param("AddrBits", cfg.l1.address_bits);
    Expr set_bits = m.param("SetBits", split.set_bits());
    Expr ct_bits = m.param("ChunkTagBits", split.chunk_tag_bits());
    Expr fermi = m.param("FermiHash", Type::logic(), bit(cfg.l1.set_index == l1d::SetIndexHash::kFermiXor));
    // The line tag starts at bit 7 + SetBits, the common-tag ChunkTagBits - 2 bits higher.
    Expr common_lsb = set_bits + ct_bits + 5;
    Expr has_common = addr_bits.gt(common_lsb);
    Expr set_w = m.param("SetIdxBits", mux(set_bits.gt(0), set_bits, 1));
    Expr common_w = m.param("CommonTagBits", mux(has_common, addr_bits - set_bits - ct_bits - 5, 1));

    Expr addr = m.input("addr_i", addr_bits);
    Expr set = m.output("set_o", set_w);
    Expr common_tag = m.output("common_tag_o", common_w);
    Expr chunk_tag = m.output("chunk_tag_o", ct_bits);
    Expr chunk = m.output("chunk_o", 2);

    m.comment("The byte offset inside the chunk takes no part in the decode.");
    Expr unused_offset = m.logic("unused_offset");
    m.assign(unused_offset, red_xor(addr.slice(4, 0)));

    m.assign(chunk, addr.slice(6, 5));
    m.assign(chunk_tag, concat({addr.part(set_bits + 7, ct_bits - 2), addr.slice(6, 5)}));

    m.gen_if(fermi, "g_fermi_hash", [&](Scope& s) {
      // Shifting before the cast reads address bits above AddrBits as zero, like the golden model.
      Expr hash = concat({cast(1, addr >> 19), cast(1, addr >> 17), cast(3, addr >> 13)});
      s.assign(set, addr.part(7, set_bits) ^ cast(set_bits, hash));
    }).else_("g_linear", [&](Scope& s) {
      s.gen_if(set_bits.gt(0), "g_set_index", [&](Scope& t) { t.assign(set, addr.part(7, set_bits)); })
          .else_("g_one_set", [&](Scope& t) { t.assign(set, zeros()); });
    });

    m.gen_if(has_common, "g_common_tag", [&](Scope& s) {
      s.assign(common_tag, addr.slice(addr_bits - 1, common_lsb));
    }).else_("g_no_common_tag", [&](Scope& s) { s.assign(common_tag, zeros()); });
    return m;
  }
};

}  // namespace

const RtlBlock& addr_decode_block() {
  static const AddrDecode block;
  return block;
}

}  // namespace gen::blocks
