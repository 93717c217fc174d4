// l1d_tag_mask: the DyCache tag-mask table and the tag processor (SPEC section 3; golden
// model: golden::compute_chunk_tags). The table is computed here with golden::tag_mask, the
// constant-table function SPEC section 3 lets the generator share, and emitted as a case ROM.
#include <string>

#include "common/address.h"
#include "gen/blocks/block.h"
#include "golden/tag_mask.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = l1d::kSlotsPerLine;

// "(0, -, +2, -)": SPEC section 3's notation of a mask.
std::string mask_text(const l1d::golden::TagMask& mask) {
  std::string s = "(";
  for (unsigned i = 0; i < kSlots; ++i) {
    const int op = mask[i];
    s += (i > 0 ? ", " : "") + (op == l1d::golden::kNotCompared ? std::string("-")
                                : op == 0                       ? std::string("0")
                                                                : "+" + std::to_string(op));
  }
  return s + ")";
}

class TagMask final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_tag_mask"; }
  std::string_view summary() const override {
    return "tag-mask table (constant ROM) and tag processor: compared slots and their chunk-tags (SPEC 3)";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);  // refuses a geometry the golden model refuses
    Module m(name());
    m.describe("DyCache tag-mask table and tag processor (SPEC section 3), combinational.");
    m.describe("gran_i and size_i: 0 = 32 B, 1 = 64 B, 2 = 128 B; the illegal code 3 compares no slot.");
    m.describe("Slot s is compared when compared_o[s]; its chunk-tag is tags_o[s*ChunkTagBits +: ChunkTagBits]:");
    m.describe("the request's chunk-tag aligned down to max(G, R) / 32 slots, plus the mask's offset (else 0).");
    Expr ct_bits = m.param("ChunkTagBits", split.chunk_tag_bits());
    Expr gran = m.input("gran_i", 2);
    Expr size = m.input("size_i", 2);
    Expr chunk_tag = m.input("chunk_tag_i", ct_bits);
    Expr compared = m.output("compared_o", kSlots);
    Expr tags = m.output("tags_o", kSlots * ct_bits);

    Expr offset = m.logic("mask_offset", 2 * kSlots);
    m.comment("The tag-mask table, computed by the generator with golden::tag_mask: per {G, R} the slots");
    m.comment("compared and, two bits per slot, the offset added to the base chunk-tag.");
    m.always_comb({{compared, zeros()}, {offset, zeros()}}, [&](Block& b) {
      b.unique_case(concat({gran, size}), [&](CaseBuilder& c) {
        for (unsigned g = 0; g < 3; ++g) {
          for (unsigned r = 0; r < 3; ++r) {
            const l1d::golden::TagMask mask = l1d::golden::tag_mask(32U << g, 32U << r);
            uint64_t compared_bits = 0;
            uint64_t offset_bits = 0;
            for (unsigned s = 0; s < kSlots; ++s) {
              if (mask[s] == l1d::golden::kNotCompared) continue;
              compared_bits |= uint64_t{1} << s;
              offset_bits |= static_cast<uint64_t>(mask[s]) << (2 * s);
            }
            c.item(concat({lit(2, g), lit(2, r)}), [&](Block& e) {
              e.comment("G = " + std::to_string(32U << g) + " B, R = " + std::to_string(32U << r) +
                        " B: " + mask_text(mask));
              e.assign(compared, bin(kSlots, compared_bits));
              e.assign(offset, bin(2 * kSlots, offset_bits));
            });
          }
        }
        c.default_([](Block&) {});
      });
    });

    m.comment("The tag processor: the base chunk-tag is the request's aligned down to max(G, R) / 32 slots.");
    Expr span_log2 = m.logic("span_log2", 2);
    Expr base_low = m.logic("base_low", 2);
    m.assign(span_log2, mux(gran.gt(size), gran, size));
    m.assign(base_low, chunk_tag.slice(1, 0) & (bin(2, 3) << span_log2));
    m.gen_for("g_slot", "s", 0, kSlots, [&](Scope& sc, const Expr& s) {
      Expr tag_low = sc.logic("tag_low", 2);
      sc.assign(tag_low, base_low | offset.part(s * 2, 2));
      sc.assign(tags.part(s * ct_bits, ct_bits), mux(compared[s], concat({chunk_tag.slice(ct_bits - 1, 2), tag_low}), zeros()));
    });
    return m;
  }
};

}  // namespace

const RtlBlock& tag_mask_block() {
  static const TagMask block;
  return block;
}

}  // namespace gen::blocks
