// Testbench of l1d_fill_place (gen/blocks/l1d_fill_place.cpp), the fill unit's placement decision,
// against a model written from docs/l1d-microarchitecture.md section 6 (tb/fill_place_model.h):
// random rows, directed cases with their expected outputs written out, and the netlist
// co-simulation. Its two halves have their own testbenches on the same model
// (l1d_fill_place_m1, l1d_fill_place_m2).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <ostream>
#include <random>
#include <vector>

#include "common/address.h"
#include "l1d_fill_place_models.h"
#include "tb/fill_place_model.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 100'000;
constexpr uint64_t kCosimCycles = 20'000;

struct FillPlaceIo : tb::FillPlaceModel {
  using tb::FillPlaceModel::FillPlaceModel;
  template <class M>
  void drive(M& m, const In& in) const {
    drive_m1(m, in);
    drive_m2(m, in);
  }
};

using Board = tb::Scoreboard<FillPlaceIo::In, FillPlaceIo::Out>;
namespace models = tb::l1d_fill_place;

template <class Config>
class FillPlace : public ::testing::Test {};
TYPED_TEST_SUITE(FillPlace, models::Configs);

// Random rows: every kind of placement must be frequent and every output checked every cycle.
TYPED_TEST(FillPlace, RandomMatchesModel) {
  using Config = TypeParam;
  FillPlaceIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "model", "rtl  ");
  std::mt19937_64 rng(5);
  tb::FillPlaceCoverage coverage;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const FillPlaceIo::In in = io.random(rng);
    const FillPlaceIo::Out want = io.golden(in);
    tb::check_cycle(dut, io, board, in);
    coverage.add(io, in, want);
  }
  EXPECT_TRUE(coverage.report(fmt::format("{}/{}", models::kBlock, Config::kName)));
  EXPECT_EQ(board.mismatches(), 0U);
}

// Hand-worked cases on the configuration's first two ways (the others free and ineligible to
// the partial search: another common-tag), with the expected outputs written out.
TYPED_TEST(FillPlace, DirectedPlacements) {
  using Config = TypeParam;
  FillPlaceIo io(tb::load_config<Config>());
  if (io.ways < 2) GTEST_SKIP() << "needs two ways";
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock, "directed"), 1);
  Board board(fmt::format("{}/{} directed", models::kBlock, Config::kName), "model", "rtl  ");
  auto base = [&] {
    FillPlaceIo::In in;
    in.row.assign(io.ways, FillPlaceIo::Way{});
    for (auto& r : in.row) r.valid = 0xF, r.common = 1, r.rank = {0, 1, 2, 3};
    in.common = 0;
    return in;
  };
  auto expect = [&](const FillPlaceIo::In& in, uint64_t way, uint64_t pos, bool whole, uint64_t wb, bool alloc) {
    tb::check_cycle(dut, io, board, in);
    const FillPlaceIo::Out o = io.sample(*dut);
    EXPECT_EQ(o.way, way);
    EXPECT_EQ(o.pos, pos);
    EXPECT_EQ(o.whole, whole);
    EXPECT_EQ(o.wb, wb);
    EXPECT_EQ(o.allocates, alloc);
  };
  // A 32 B block of common-tag 0; way 1 holds the common-tag with slots 0 and 3 valid, ranks 0..3:
  // slots 1 and 2 are empty (age 4): the lowest, slot 1, takes it.
  FillPlaceIo::In in = base();
  in.slots = 1, in.gran = 0;
  in.row[1].common = 0, in.row[1].valid = 0b1001;
  expect(in, 1, 1, false, 0, true);
  // The same with every slot valid and ranks 3,2,1,0: slot 0 is the oldest.
  in.row[1].valid = 0xF, in.row[1].rank = {3, 2, 1, 0}, in.row[1].dirty = 0b0001;
  expect(in, 1, 0, false, 0b0001, true);
  // A 64 B block: runs {0,1} (most recent rank 2) and {2,3} (rank 0): {0,1} is older.
  in.slots = 2, in.gran = 1;
  expect(in, 1, 0, false, 0b0001, true);
  // A 128 B block never goes into a partial position: way 2 (free) if there is one, else the victim.
  in.slots = 4, in.gran = 2, in.victim = 1;
  if (io.ways > 2) {
    in.row[2].valid = 0;
    expect(in, 2, 0, true, 0, true);
    in.row[2].valid = 0xF;
  }
  expect(in, 1, 0, true, 0b0001, true);
  // PCAL (bypass 3) without opportunistic caching never allocates; with it, not into a priority line.
  in.bypass = 3;
  expect(in, 1, 0, true, 0b0001, false);
  in.opp = 1;
  expect(in, 1, 0, true, 0b0001, true);
  // AgeLRU: the victim's owner is active and older than the requester: bypass.
  in.bypass = 0, in.age_en = 1, in.row[1].active = 1, in.row[1].rel = 3, in.req_rel = 7;
  expect(in, 1, 0, true, 0b0001, false);
  in.req_rel = 2;
  expect(in, 1, 0, true, 0b0001, true);
  EXPECT_EQ(board.mismatches(), 0U);
}

TYPED_TEST(FillPlace, NetlistMatchesRtl) {
  const FillPlaceIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 3);
}

}  // namespace
