// Testbench of l1d_core_match (gen/blocks/l1d_core_match.cpp), a core request's lookup decision,
// against golden::chunk_match and golden::find_copies (SPEC section 3) and a model of the rest
// written from docs/l1d-microarchitecture.md section 4 (tb/core_match_model.h: sectors, the bypass
// decision, the copies a miss drops and their write-back order) on random one-copy-invariant sets
// with every policy's bypass code; and the netlist co-simulation. Its two halves have their own
// testbenches on the same model (l1d_core_match_m1, l1d_core_match_m2).
#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <random>

#include "l1d_core_match_models.h"
#include "tb/core_match_model.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 100'000;
constexpr uint64_t kCosimCycles = 20'000;

struct CoreMatchIo : tb::CoreMatchModel {
  using In = tb::CoreMatchModel::In;
  struct Out {
    Lookup lookup;
    Decision decision;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) { return os << o.lookup << ' ' << o.decision; }
  };
  using tb::CoreMatchModel::CoreMatchModel;

  template <class M>
  void drive(M& m, const In& in) const {
    drive_request(m, in);
    drive_tags(m, in);
    drive_flops(m, in);
  }
  template <class M>
  Out sample(const M& m) const {
    return {sample_lookup(m), sample_decision(m)};
  }
  Out golden(const In& in) {
    const Lookup l = lookup(in);
    return {l, decision(in, copy_sectors(in))};
  }
};

using Board = tb::Scoreboard<CoreMatchIo::In, CoreMatchIo::Out>;
namespace models = tb::l1d_core_match;

template <class Config>
class CoreMatch : public ::testing::Test {};
TYPED_TEST_SUITE(CoreMatch, models::Configs);

TYPED_TEST(CoreMatch, RandomMatchesGolden) {
  using Config = TypeParam;
  CoreMatchIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "golden", "rtl   ");
  std::mt19937_64 rng(17);
  tb::CoreMatchCoverage coverage;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const CoreMatchIo::In in = io.random(rng);
    const CoreMatchIo::Out want = io.golden(in);
    tb::check_cycle(dut, io, board, in);
    coverage.add(want.lookup, want.decision);
  }
  EXPECT_TRUE(coverage.report(fmt::format("{}/{}", models::kBlock, Config::kName)));
  EXPECT_EQ(board.mismatches(), 0U);
}

TYPED_TEST(CoreMatch, NetlistMatchesRtl) {
  CoreMatchIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 9);
}

}  // namespace
