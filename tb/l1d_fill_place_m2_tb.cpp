// Testbench of l1d_fill_place_m2 (gen/blocks/l1d_fill_place_m2.cpp), the stage-M2 half of the
// fill's placement, against l1d_fill_place's model (tb/fill_place_model.h, section 6): the model's
// random rows, with the vectors stage M1 registers (each way's common-tag equality, the allocation
// rule) computed from them, every output checked; and the netlist co-simulation.
#include <fmt/format.h>

#include <cstdint>
#include <random>

#include "l1d_fill_place_m2_models.h"
#include "tb/fill_place_model.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 100'000;
constexpr uint64_t kCosimCycles = 20'000;

struct FillPlaceM2Io : tb::FillPlaceModel {
  using tb::FillPlaceModel::FillPlaceModel;
  template <class M>
  void drive(M& m, const In& in) const {
    for (unsigned w = 0; w < ways; ++w) tb::put(m.common_eq_i, in.row[w].common == in.common, w, 1);
    tb::put(m.wanted_i, wanted(in));
    drive_m2(m, in);
  }
};

using Board = tb::Scoreboard<FillPlaceM2Io::In, FillPlaceM2Io::Out>;
namespace models = tb::l1d_fill_place_m2;

template <class Config>
class FillPlaceM2 : public ::testing::Test {};
TYPED_TEST_SUITE(FillPlaceM2, models::Configs);

TYPED_TEST(FillPlaceM2, RandomMatchesModel) {
  using Config = TypeParam;
  FillPlaceM2Io io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "model", "rtl  ");
  std::mt19937_64 rng(9);
  tb::FillPlaceCoverage coverage;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const FillPlaceM2Io::In in = io.random(rng);
    const FillPlaceM2Io::Out want = io.golden(in);
    tb::check_cycle(dut, io, board, in);
    coverage.add(io, in, want);
  }
  EXPECT_TRUE(coverage.report(fmt::format("{}/{}", models::kBlock, Config::kName)));
  EXPECT_EQ(board.mismatches(), 0U);
}

TYPED_TEST(FillPlaceM2, NetlistMatchesRtl) {
  const FillPlaceM2Io io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
