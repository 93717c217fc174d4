// Testbench of l1d_match_fix (gen/blocks/l1d_match_fix.cpp), stage M2's correction of M1's tag
// compares (contract 16.5), against its defining property: for a random set and a random tag
// write of the operation ahead (one way; its common-tag or not; some of its slots, each given a
// chunk of that operation's memory line), correcting the compare made before the write gives the
// compare made after it (tb/tag_vectors.h), for random decode bits. The write's common-tag and line are drawn from the
// request's own and others, so both equalities are frequent. And the netlist co-simulation.
#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "l1d_match_fix_models.h"
#include "tb/tag_vectors.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 50'000;
constexpr uint64_t kCosimCycles = 10'000;

struct MatchFixIo {
  // The request (common-tag, line), the set before the write, and the write.
  struct In {
    uint64_t common_tag = 0, line = 0;
    tb::SlotCheckRequest req;
    std::vector<uint64_t> way_common, slot_tag;
    bool wr = false, common_wr = false;
    uint64_t way = 0, slots = 0, chunks = 0, wr_common = 0, wr_line = 0;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      os << fmt::format("request common {:#x} line {:#x}; write {} way {} common {} ({:#x}) slots {:04b} chunks "
                        "{:08b} line {:#x}",
                        in.common_tag, in.line, int{in.wr}, in.way, int{in.common_wr}, in.wr_common, in.slots,
                        in.chunks, in.wr_line);
      return os << "\n    " << in.req << "\n    before: " << before(in);
    }
  };
  using Out = tb::TagVectors;

  explicit MatchFixIo(const l1d::Config& cfg) : ways(cfg.l1.ways) {}

  static Out before(const In& in) {
    return Out::compare(in.common_tag, in.line, in.way_common, in.slot_tag, in.req);
  }

  template <class M>
  void drive(M& m, const In& in) const {
    before(in).put(m.common_eq_i, m.tag_ok_i, m.held_i, m.copy_i);
    in.req.put(m);
    tb::put(m.older_wr_i, in.wr);
    tb::put(m.older_way_i, in.way);
    tb::put(m.older_common_wr_i, in.common_wr);
    tb::put(m.older_slots_i, in.slots);
    tb::put(m.older_chunk_i, in.chunks);
    tb::put(m.older_common_eq_i, in.wr_common == in.common_tag);
    tb::put(m.older_line_eq_i, in.wr_line == in.line);
  }
  template <class M>
  Out sample(const M& m) const {
    return Out::get(ways, m.common_eq_o, m.tag_ok_o, m.held_o, m.copy_o);
  }
  // The compare of the set after the write.
  Out golden(const In& in) const {
    std::vector<uint64_t> common = in.way_common, tags = in.slot_tag;
    if (in.wr) {
      if (in.common_wr) common[in.way] = in.wr_common;
      for (unsigned s = 0; s < 4; ++s)
        if ((in.slots >> s) & 1) tags[in.way * 4 + s] = in.wr_line << 2 | ((in.chunks >> 2 * s) & 3);
    }
    return Out::compare(in.common_tag, in.line, common, tags, in.req);
  }
  In random(std::mt19937_64& rng) const {
    const tb::TagSetDraw d = tb::TagSetDraw::draw(rng, ways, 0xFF, 0xFFF);
    In in;
    in.common_tag = d.commons[0];
    in.line = d.lines[0];
    in.way_common = d.way_common;
    in.slot_tag = d.slot_tag;
    in.req = tb::SlotCheckRequest::random(rng);
    in.wr = rng() % 4 != 0;
    in.way = rng() % ways;
    in.common_wr = rng() % 2 != 0;
    in.slots = rng() & 0xF;
    in.chunks = rng() & 0xFF;
    in.wr_common = d.commons[rng() % 2];
    in.wr_line = d.lines[rng() % 3];
    return in;
  }
  unsigned ways;
};

using Board = tb::Scoreboard<MatchFixIo::In, MatchFixIo::Out>;
namespace models = tb::l1d_match_fix;

template <class Config>
class MatchFix : public ::testing::Test {};
TYPED_TEST_SUITE(MatchFix, models::Configs);

TYPED_TEST(MatchFix, CorrectedCompareIsTheCompareAfterTheWrite) {
  using Config = TypeParam;
  MatchFixIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "after", "rtl  ");
  std::mt19937_64 rng(43);
  uint64_t changed = 0;  // writes that change the compare (the correction matters)
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const MatchFixIo::In in = io.random(rng);
    if (!(io.golden(in) == MatchFixIo::before(in))) ++changed;
    tb::check_cycle(dut, io, board, in);
  }
  EXPECT_GT(changed, kRandomCycles / 4);
  EXPECT_EQ(board.mismatches(), 0U);
}

TYPED_TEST(MatchFix, NetlistMatchesRtl) {
  const MatchFixIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 13);
}

}  // namespace
