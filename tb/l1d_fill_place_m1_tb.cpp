// Testbench of l1d_fill_place_m1 (gen/blocks/l1d_fill_place_m1.cpp), the stage-M1 half of the
// fill's placement, on l1d_fill_place's model (tb/fill_place_model.h): per way, the common-tag
// against the block's, and section 6's allocation rule, on the model's random rows (two
// common-tags, every bypass code, block size and G); and the netlist co-simulation.
#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <random>

#include "l1d_fill_place_m1_models.h"
#include "tb/fill_place_model.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 50'000;
constexpr uint64_t kCosimCycles = 20'000;

struct FillPlaceM1Io : tb::FillPlaceModel {
  struct Out {
    uint64_t common_eq = 0;  // bit w: way w
    bool wanted = false;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format("common_eq {:#x} wanted {}", o.common_eq, o.wanted);
    }
  };
  using tb::FillPlaceModel::FillPlaceModel;

  template <class M>
  void drive(M& m, const In& in) const {
    drive_m1(m, in);
  }
  template <class M>
  Out sample(const M& m) const {
    Out o;
    for (unsigned w = 0; w < ways; ++w) o.common_eq |= tb::get(m.common_eq_o, w, 1) << w;
    o.wanted = m.wanted_o != 0;
    return o;
  }
  Out golden(const In& in) const {
    Out o;
    for (unsigned w = 0; w < ways; ++w) o.common_eq |= uint64_t{in.row[w].common == in.common} << w;
    o.wanted = wanted(in);
    return o;
  }
};

using Board = tb::Scoreboard<FillPlaceM1Io::In, FillPlaceM1Io::Out>;
namespace models = tb::l1d_fill_place_m1;

template <class Config>
class FillPlaceM1 : public ::testing::Test {};
TYPED_TEST_SUITE(FillPlaceM1, models::Configs);

TYPED_TEST(FillPlaceM1, RandomMatchesModel) {
  using Config = TypeParam;
  FillPlaceM1Io io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "model", "rtl  ");
  std::mt19937_64 rng(7);
  uint64_t wanted = 0, equal = 0, unequal = 0;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const FillPlaceM1Io::In in = io.random(rng);
    const FillPlaceM1Io::Out want = io.golden(in);
    tb::check_cycle(dut, io, board, in);
    wanted += want.wanted;
    (want.common_eq & 1 ? equal : unequal)++;
  }
  for (uint64_t n : {wanted, kRandomCycles - wanted, equal, unequal}) EXPECT_GT(n, kRandomCycles / 10);
  EXPECT_EQ(board.mismatches(), 0U);
}

TYPED_TEST(FillPlaceM1, NetlistMatchesRtl) {
  const FillPlaceM1Io io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 5);
}

}  // namespace
