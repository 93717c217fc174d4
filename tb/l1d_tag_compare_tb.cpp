// Testbench of l1d_tag_compare (gen/blocks/l1d_tag_compare.cpp), stage M1's compares of a set's
// tags, against the compare written from its definition (tb/tag_vectors.h): random sets drawn from
// two common-tags and three memory lines (so equal and unequal fields are both frequent), random
// decode bits (the checks are defined for any), and the netlist co-simulation. Its composition with l1d_match_combine is checked against golden
// chunk_match by l1d_chunk_match's and l1d_core_match's testbenches and by l1d_top's lockstep
// (through l1d_core_match).
#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "common/address.h"
#include "l1d_tag_compare_models.h"
#include "tb/tag_vectors.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 20'000;
constexpr uint64_t kCosimCycles = 10'000;

struct TagCompareIo {
  struct In {
    uint64_t common_tag = 0, line = 0;
    tb::SlotCheckRequest req;
    std::vector<uint64_t> way_common, slot_tag;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      os << fmt::format("common_tag_i {:#x} line_tag_i {:#x} ", in.common_tag, in.line) << in.req;
      for (size_t w = 0; w < in.way_common.size(); ++w) {
        os << fmt::format("\n    way {:2}: {:#x} tags", w, in.way_common[w]);
        for (unsigned s = 0; s < 4; ++s) os << fmt::format(" {:#x}", in.slot_tag[w * 4 + s]);
      }
      return os;
    }
  };
  using Out = tb::TagVectors;

  explicit TagCompareIo(const l1d::Config& cfg)
      : ways(cfg.l1.ways),
        bits(cfg.l1.chunk_tag_bits),
        common_bits(std::max(l1d::AddressSplit(cfg.l1).common_tag_bits(), 1U)) {}

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.common_tag_i, in.common_tag);
    tb::put(m.line_tag_i, in.line);
    in.req.put(m);
    for (unsigned w = 0; w < ways; ++w) {
      tb::put(m.way_common_tag_i, in.way_common[w], w * common_bits, common_bits);
      for (unsigned s = 0; s < 4; ++s) tb::put(m.slot_tag_i, in.slot_tag[w * 4 + s], (w * 4 + s) * bits, bits);
    }
  }
  template <class M>
  Out sample(const M& m) const {
    return Out::get(ways, m.common_eq_o, m.tag_ok_o, m.held_o, m.copy_o);
  }
  Out golden(const In& in) const {
    return Out::compare(in.common_tag, in.line, in.way_common, in.slot_tag, in.req);
  }
  In random(std::mt19937_64& rng) const {
    const uint64_t cmask = tb::low_mask(common_bits), lmask = tb::low_mask(bits - 2);
    const tb::TagSetDraw d = tb::TagSetDraw::draw(rng, ways, cmask, lmask);
    In in;
    in.common_tag = d.commons[0];
    in.line = d.lines[0];
    in.req = tb::SlotCheckRequest::random(rng);
    in.way_common = d.way_common;
    in.slot_tag = d.slot_tag;
    return in;
  }
  unsigned ways, bits, common_bits;
};

using Board = tb::Scoreboard<TagCompareIo::In, TagCompareIo::Out>;
namespace models = tb::l1d_tag_compare;

template <class Config>
class TagCompare : public ::testing::Test {};
TYPED_TEST_SUITE(TagCompare, models::Configs);

TYPED_TEST(TagCompare, RandomMatchesModel) {
  using Config = TypeParam;
  TagCompareIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "model", "rtl  ");
  std::mt19937_64 rng(31);
  // Slot 0's checks of compared slots: the tag check passing and failing, and a held chunk, all frequent.
  uint64_t ok = 0, not_ok = 0, held = 0;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const TagCompareIo::In in = io.random(rng);
    const TagCompareIo::Out want = io.golden(in);
    tb::check_cycle(dut, io, board, in);
    for (size_t w = 0; w < want.tag_ok.size(); ++w) {
      if (in.req.compared & 1) (want.tag_ok[w] & 1 ? ok : not_ok)++;
      held += want.held[w] & 1;
    }
  }
  const uint64_t slots0 = kRandomCycles * io.ways;  // slot 0 of every way of every cycle
  EXPECT_GT(ok, slots0 / 50);
  EXPECT_GT(not_ok, slots0 / 10);
  EXPECT_GT(held, slots0 / 20);
  EXPECT_EQ(board.mismatches(), 0U);
}

TYPED_TEST(TagCompare, NetlistMatchesRtl) {
  const TagCompareIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 3);
}

}  // namespace
