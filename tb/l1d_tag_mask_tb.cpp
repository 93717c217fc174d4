// Testbench of l1d_tag_mask (gen/blocks/l1d_tag_mask.cpp) against golden::compute_chunk_tags
// (SPEC section 3) on every configuration of RTL_TB_CONFIGS: every gran_i x size_i code
// (the illegal code 3 included) x every chunk-tag up to 16 bits (wider ones: every low 16 bits
// with random high bits), the paper's example, and the netlist co-simulation.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <ostream>
#include <random>

#include "golden/tag_mask.h"
#include "l1d_tag_mask_models.h"
#include "tb/testbench.h"

namespace {

constexpr unsigned kSlots = l1d::kSlotsPerLine;
constexpr uint64_t kCosimCycles = 100'000;

// The port binding (tb/testbench.h).
struct TagMaskIo {
  struct In {
    uint64_t gran = 0, size = 0, chunk_tag = 0;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("gran_i {} size_i {} chunk_tag_i {:#x}", in.gran, in.size, in.chunk_tag);
    }
  };
  struct Out {
    uint64_t compared = 0;
    std::array<uint64_t, kSlots> tags{};
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format("compared_o {:04b} tags_o[3..0] {:#x} {:#x} {:#x} {:#x}", o.compared, o.tags[3],
                               o.tags[2], o.tags[1], o.tags[0]);
    }
  };

  explicit TagMaskIo(const l1d::Config& cfg) : bits(cfg.l1.chunk_tag_bits), tag_mask(tb::low_mask(bits)) {}

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.gran_i, in.gran);
    tb::put(m.size_i, in.size);
    tb::put(m.chunk_tag_i, in.chunk_tag);
  }
  template <class M>
  Out sample(const M& m) const {
    Out o;
    o.compared = tb::get(m.compared_o);
    for (unsigned s = 0; s < kSlots; ++s) o.tags[s] = tb::get(m.tags_o, s * bits, bits);
    return o;
  }
  // The illegal code 3 (of either input) compares no slot and drives zero tags (the module's
  // header comment); the golden functions refuse it.
  Out golden(const In& in) const {
    Out o;
    if (in.gran > 2 || in.size > 2) return o;
    const l1d::golden::ComputedTags t = l1d::golden::compute_chunk_tags(
        32U << in.gran, 32U << in.size, static_cast<uint32_t>(in.chunk_tag), bits);
    for (unsigned s = 0; s < kSlots; ++s) {
      o.compared |= uint64_t{t.compared[s]} << s;
      o.tags[s] = t.tag[s];
    }
    return o;
  }
  In random(std::mt19937_64& rng) const {
    const uint64_t r = rng();
    return {r & 3, (r >> 2) & 3, (r >> 4) & tag_mask};
  }

  unsigned bits;
  uint64_t tag_mask;
};

using Board = tb::Scoreboard<TagMaskIo::In, TagMaskIo::Out>;
namespace models = tb::l1d_tag_mask;

template <class Config>
class TagMask : public ::testing::Test {};
TYPED_TEST_SUITE(TagMask, models::Configs);

// Every (gran_i, size_i) code pair x every value of the low min(C, 16) chunk-tag bits: for
// chunk-tags of up to 16 bits that is every input of the block.
TYPED_TEST(TagMask, ExhaustiveMatchesGolden) {
  using Config = TypeParam;
  TagMaskIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} exhaustive", models::kBlock, Config::kName), "golden", "rtl   ");
  const unsigned low_bits = std::min(io.bits, 16U);
  std::mt19937_64 rng(1);
  for (uint64_t code = 0; code < 16; ++code) {
    for (uint64_t low = 0; low < (uint64_t{1} << low_bits); ++low) {
      const uint64_t high = io.bits > low_bits ? (rng() << low_bits) & io.tag_mask : 0;
      tb::check_cycle(dut, io, board, {code >> 2, code & 3, high | low});
    }
  }
  EXPECT_EQ(board.cycles(), 16 * (uint64_t{1} << low_bits));
}

TYPED_TEST(TagMask, NetlistMatchesRtl) {
  const TagMaskIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

// SPEC section 3, written out rather than taken from the golden model: G = 64 B, R = 128 B and
// chunk-tag 0x0000 give the mask (0, -, +2, -) and the chunk-tags (0x0000, -, 0x0002, -);
// G = 32 B, R = 64 B: mask (0, +1, 0, +1) on the base aligned down to two slots.
TEST(TagMaskPaper, Gtx480ComputesThePaperExample) {
  tb::Dut<models::gtx480::Rtl> dut("l1d_tag_mask_paper", 1);
  dut->gran_i = 1;  // 64 B
  dut->size_i = 2;  // 128 B
  dut->chunk_tag_i = 0x0000;
  dut.settle();
  EXPECT_EQ(dut->compared_o, 0b0101);
  EXPECT_EQ(tb::get(dut->tags_o, 0, 16), 0x0000U);
  EXPECT_EQ(tb::get(dut->tags_o, 32, 16), 0x0002U);
  EXPECT_EQ(tb::get(dut->tags_o, 16, 16) | tb::get(dut->tags_o, 48, 16), 0U);  // not compared: zero

  dut->gran_i = 0;  // 32 B
  dut->size_i = 1;  // 64 B
  dut->chunk_tag_i = 0x1237;
  dut.settle();
  EXPECT_EQ(dut->compared_o, 0b1111);
  EXPECT_EQ(dut->tags_o, 0x1237'1236'1237'1236ULL);
}

}  // namespace
