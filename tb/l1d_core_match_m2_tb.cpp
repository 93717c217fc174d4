// Testbench of l1d_core_match_m2 (gen/blocks/l1d_core_match_m2.cpp), the stage-M2 half of a core
// request's lookup, against golden::chunk_match and golden::find_copies and the model of the copies'
// write-back order (tb/core_match_model.h): random one-copy-invariant sets and requests, turned
// into the vectors stage M1 registers (the decode of tb/match_request_model.h, the compares of
// tb/tag_vectors.h with the probed sectors, each slot's chunk index), with the set's valid and
// any-dirty bits; and the netlist co-simulation.
#include <fmt/format.h>

#include <cstdint>
#include <random>

#include "l1d_core_match_m2_models.h"
#include "tb/core_match_model.h"
#include "tb/match_request_model.h"
#include "tb/tag_vectors.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 100'000;
constexpr uint64_t kCosimCycles = 20'000;

struct CoreMatchM2Io : tb::CoreMatchModel {
  using In = tb::CoreMatchModel::In;
  using Out = Decision;
  using tb::CoreMatchModel::CoreMatchModel;

  template <class M>
  void drive(M& m, const In& in) const {
    const tb::MatchRequestDecode d = tb::MatchRequestDecode::of(in.chunk_tag, in.size, in.gran, bits);
    d.put_combine(m);
    tb::TagVectors::compare(in.common, in.chunk_tag >> 2, in.way_common, in.tag,
                            {d.compared, d.mask_chunk, d.req_chunks, copy_sectors(in)})
        .put(m.common_eq_i, m.tag_ok_i, m.held_i, m.copy_i);
    for (unsigned i = 0; i < ways * kSlots; ++i) tb::put(m.slot_chunk_i, in.tag[i] & 3, i * 2, 2);
    drive_flops(m, in);
  }
  template <class M>
  Out sample(const M& m) const {
    return sample_decision(m);
  }
  Out golden(const In& in) { return decision(in, copy_sectors(in)); }
};

using Board = tb::Scoreboard<CoreMatchM2Io::In, CoreMatchM2Io::Out>;
namespace models = tb::l1d_core_match_m2;

template <class Config>
class CoreMatchM2 : public ::testing::Test {};
TYPED_TEST_SUITE(CoreMatchM2, models::Configs);

TYPED_TEST(CoreMatchM2, RandomMatchesGolden) {
  using Config = TypeParam;
  CoreMatchM2Io io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "golden", "rtl   ");
  std::mt19937_64 rng(23);
  tb::CoreMatchCoverage coverage;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const CoreMatchM2Io::In in = io.random(rng);
    const CoreMatchM2Io::Out want = io.golden(in);
    tb::check_cycle(dut, io, board, in);
    coverage.add(CoreMatchM2Io::lookup(in), want);
  }
  EXPECT_TRUE(coverage.report(fmt::format("{}/{}", models::kBlock, Config::kName)));
  EXPECT_EQ(board.mismatches(), 0U);
}

TYPED_TEST(CoreMatchM2, NetlistMatchesRtl) {
  CoreMatchM2Io io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 13);
}

}  // namespace
