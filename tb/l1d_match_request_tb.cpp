// Testbench of l1d_match_request (gen/blocks/l1d_match_request.cpp), the chunk match's decode of
// the request, against tb/match_request_model.h (SPEC section 3's tag masks through
// golden::compute_chunk_tags, and the positions written from their definition): every legal size,
// granularity and chunk-tag low bits (with random upper bits), the illegal codes (legal_o low, no
// slot compared), and the netlist co-simulation.
#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <random>

#include "common/config.h"
#include "l1d_match_request_models.h"
#include "tb/match_request_model.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kCosimCycles = 5'000;

struct MatchRequestIo {
  struct In {
    uint64_t chunk_tag = 0, size = 0, gran = 0;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("chunk_tag_i {:#x} size_i {} gran_i {}", in.chunk_tag, in.size, in.gran);
    }
  };
  using Out = tb::MatchRequestDecode;

  explicit MatchRequestIo(const l1d::Config& cfg) : bits(cfg.l1.chunk_tag_bits) {}

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.chunk_tag_i, in.chunk_tag);
    tb::put(m.size_i, in.size);
    tb::put(m.gran_i, in.gran);
  }
  template <class M>
  Out sample(const M& m) const {
    return Out::get(m);
  }
  Out golden(const In& in) const { return Out::of(in.chunk_tag, in.size, in.gran, bits); }
  In random(std::mt19937_64& rng) const { return {rng() & tb::low_mask(bits), rng() % 4, rng() % 4}; }
  unsigned bits;
};

using Board = tb::Scoreboard<MatchRequestIo::In, MatchRequestIo::Out>;
namespace models = tb::l1d_match_request;

template <class Config>
class MatchRequest : public ::testing::Test {};
TYPED_TEST_SUITE(MatchRequest, models::Configs);

TYPED_TEST(MatchRequest, EveryLegalRequestMatchesModel) {
  using Config = TypeParam;
  MatchRequestIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} legal", models::kBlock, Config::kName), "model", "rtl  ");
  std::mt19937_64 rng(47);
  for (uint64_t size = 0; size < 3; ++size)
    for (uint64_t gran = 0; gran < 3; ++gran)
      for (uint64_t low = 0; low < 4; ++low)
        for (int i = 0; i < 4; ++i) {
          const uint64_t chunk_tag = (rng() & tb::low_mask(io.bits) & ~uint64_t{3}) | low;
          tb::check_cycle(dut, io, board, {chunk_tag, size, gran});
        }
  EXPECT_EQ(board.cycles(), 3u * 3u * 4u * 4u);
  EXPECT_EQ(board.mismatches(), 0U);
}

TYPED_TEST(MatchRequest, IllegalCodesCompareNothing) {
  using Config = TypeParam;
  MatchRequestIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock, "illegal"), 1);
  for (uint64_t size = 0; size < 4; ++size)
    for (uint64_t gran = 0; gran < 4; ++gran) {
      if (size != 3 && gran != 3) continue;
      io.drive(*dut, {0x5, size, gran});
      dut.settle();
      EXPECT_EQ(tb::get(dut->legal_o), 0u) << "size " << size << " gran " << gran;
      EXPECT_EQ(tb::get(dut->compared_o), 0u) << "size " << size << " gran " << gran;
      dut.tick();
    }
}

TYPED_TEST(MatchRequest, NetlistMatchesRtl) {
  const MatchRequestIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 17);
}

}  // namespace
