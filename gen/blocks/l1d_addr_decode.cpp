// l1d_addr_decode: the address split of SPEC section 2 (golden model: l1d::AddressSplit).
// Combinational; the parameters default to the configuration's geometry.
#include <algorithm>
#include <bit>

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
    if (rtl_adaptive_sets(cfg)) return adaptive(cfg, split);
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

 private:
  // l1.carveout adaptive (contract 15): the active set count is an input, set_bits_i = log2 of it
  // (MinSetBits..SetBits); set_o has SetBits bits (the arrays' sets) and reads zero above the
  // active count; common_tag_o is sized for MinSetBits (the widest) and zero-extended above it.
  static Module adaptive(const l1d::Config& cfg, const l1d::AddressSplit& split) {
    const unsigned max_bits = static_cast<unsigned>(std::countr_zero(rtl_array_sets(cfg)));
    const unsigned min_bits = split.set_bits(), ct = split.chunk_tag_bits();
    const unsigned a_bits = cfg.l1.address_bits, sb_w = static_cast<unsigned>(std::bit_width(max_bits));
    const unsigned cm_w = std::max(split.common_tag_bits(), 1U);
    Module m("l1d_addr_decode");
    m.describe("Address split of the DyCache L1 (SPEC section 2) for an active set count of 2^set_bits_i sets");
    m.describe("(l1.carveout adaptive, contract 15; golden l1d::AddressSplit of that count): addr[4:0] byte,");
    m.describe("addr[6:5] chunk, the next set_bits_i bits set, the rest the line tag; chunk-tag = {low");
    m.describe("ChunkTagBits-2 line-tag bits, chunk}, common-tag = the line tag above them, zero-extended to the");
    m.describe("width of the fewest sets. FermiHash XORs address bits 13-15, 17 and 19 into the low five set bits.");
    Expr fermi = m.param("FermiHash", Type::logic(), bit(cfg.l1.set_index == l1d::SetIndexHash::kFermiXor));
    Expr addr = m.input("addr_i", a_bits);
    Expr set_bits = m.input("set_bits_i", sb_w);
    Expr set = m.output("set_o", max_bits);
    Expr common_tag = m.output("common_tag_o", cm_w);
    Expr chunk_tag = m.output("chunk_tag_o", ct);
    Expr chunk = m.output("chunk_o", 2);

    m.comment("The byte offset inside the chunk takes no part in the decode.");
    Expr unused_offset = m.logic("unused_offset");
    m.assign(unused_offset, red_xor(addr.slice(4, 0)));
    m.assign(chunk, addr.slice(6, 5));
    m.comment("The line tag: the address above the active set bits.");
    Expr line_tag = m.logic("line_tag", a_bits - 7 - min_bits);
    m.assign(line_tag, cast(a_bits - 7 - min_bits, addr.slice(a_bits - 1, 7) >> set_bits));
    m.assign(chunk_tag, concat({line_tag.slice(ct - 3, 0), addr.slice(6, 5)}));
    if (split.common_tag_bits() > 0) {
      m.assign(common_tag, line_tag.slice(a_bits - 8 - min_bits, ct - 2));
    } else {
      Expr unused_line_tag = m.logic("unused_line_tag");
      m.assign(unused_line_tag, red_or(line_tag));
      m.assign(common_tag, zeros());
    }
    m.comment("The set index of the arrays' sets, masked to the active count.");
    Expr mask = m.logic("set_mask", max_bits);
    m.assign(mask, ~(repl(max_bits, bit(true)) << cast(max_bits, set_bits)));
    Expr linear = m.logic("set_linear", max_bits);
    m.gen_if(fermi, "g_fermi_hash", [&](Scope& s) {
      Expr hash = concat({cast(1, addr >> 19), cast(1, addr >> 17), cast(3, addr >> 13)});
      s.assign(linear, addr.slice(6 + max_bits, 7) ^ cast(max_bits, hash));
    }).else_("g_linear", [&](Scope& s) { s.assign(linear, addr.slice(6 + max_bits, 7)); });
    m.assign(set, linear & mask);
    return m;
  }
};

}  // namespace

const RtlBlock& addr_decode_block() {
  static const AddrDecode block;
  return block;
}

}  // namespace gen::blocks
