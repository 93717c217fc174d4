// Testbench of l1d_pcal_decode (gen/blocks/l1d_pcal_decode.cpp) against golden::pcal_decode
// (SPEC section 7) on every configuration of RTL_TB_CONFIGS (MaxWarps = the warp slots of one
// scheduler): every (warp_opt_i, ebt_num_i) pair the ports can carry; the claim that an EBTNum
// beyond the port decodes like the port's nearest value (checked on the golden model, then
// through the RTL); the golden model's directed cases with their literal results; and the
// netlist co-simulation.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <ostream>
#include <random>

#include "golden/pcal_tokens.h"
#include "l1d_pcal_decode_models.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kCosimCycles = 100'000;

// The slots of scheduler 0, the one with the most (scheduler s owns w % schedulers == s).
uint32_t scheduler_slots(const l1d::Config& c) {
  uint32_t n = 0;
  for (uint32_t w = 0; w < c.core.warps_per_sm; ++w) n += w % c.core.schedulers_per_sm == 0;
  return n;
}

struct DecodeIo {
  struct In {
    uint32_t warp_opt = 0;
    int64_t ebt = 0;  // within the port: [-2^CountBits, 2^CountBits - 1]
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("warp_opt_i {} ebt_num_i {}", in.warp_opt, in.ebt);
    }
  };
  struct Out {
    uint64_t active = 0, tokens = 0;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format("active_warps_o {} tokens_o {}", o.active, o.tokens);
    }
  };

  explicit DecodeIo(const l1d::Config& c)
      : max_warps(scheduler_slots(c)),
        count_bits(static_cast<unsigned>(std::bit_width(max_warps))),
        ebt_min(-(int64_t{1} << count_bits)),
        ebt_max((int64_t{1} << count_bits) - 1),
        opt_max(static_cast<uint32_t>(tb::low_mask(count_bits))) {}

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.warp_opt_i, in.warp_opt);
    tb::put(m.ebt_num_i, static_cast<uint64_t>(in.ebt) & tb::low_mask(count_bits + 1));
  }
  template <class M>
  Out sample(const M& m) const {
    return {tb::get(m.active_warps_o), tb::get(m.tokens_o)};
  }
  // warp_opt 0 is refused by the golden model; the module header gives its outputs.
  Out golden(const In& in) const {
    if (in.warp_opt == 0) return {static_cast<uint64_t>(std::clamp<int64_t>(in.ebt, 0, max_warps)), 0};
    const l1d::golden::PcalLimits l = l1d::golden::pcal_decode(in.warp_opt, static_cast<int32_t>(in.ebt), max_warps);
    return {l.active_warps, l.tokens};
  }
  In random(std::mt19937_64& rng) const {
    const uint64_t r = rng();
    return {static_cast<uint32_t>(r & opt_max), ebt_min + static_cast<int64_t>((r >> 16) % (1ULL << (count_bits + 1)))};
  }
  int64_t clamp(int64_t ebt) const { return std::clamp(ebt, ebt_min, ebt_max); }

  uint32_t max_warps;
  unsigned count_bits;
  int64_t ebt_min, ebt_max;
  uint32_t opt_max;
};

using Board = tb::Scoreboard<DecodeIo::In, DecodeIo::Out>;
namespace models = tb::l1d_pcal_decode;

template <class Config>
class PcalDecode : public ::testing::Test {
 protected:
  static constexpr const char* kMainTest = "ExhaustiveMatchesGolden";  // its waves: <block>.fst
  PcalDecode()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {}
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  DecodeIo::Out decode(uint32_t opt, int64_t ebt) {
    const DecodeIo::In in{opt, ebt};
    io.drive(*dut, in);
    dut.settle();
    const DecodeIo::Out o = io.sample(*dut);
    board.check(dut.cycles(), in, io.golden(in), o);
    dut.tick();
    return o;
  }

  DecodeIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
};
TYPED_TEST_SUITE(PcalDecode, models::Configs);

// Every input the ports can carry: warp-opt 0 .. 2^CountBits - 1 (0 against the module header's
// rule, the rest against the golden model) x EBTNum -2^CountBits .. 2^CountBits - 1.
TYPED_TEST(PcalDecode, ExhaustiveMatchesGolden) {
  DecodeIo& dio = this->io;
  for (uint32_t opt = 0; opt <= dio.opt_max; ++opt) {
    for (int64_t ebt = dio.ebt_min; ebt <= dio.ebt_max; ++ebt) this->decode(opt, ebt);
  }
  EXPECT_EQ(this->board.cycles(), (uint64_t{dio.opt_max} + 1) << (dio.count_bits + 1));
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// An EBTNum beyond the port decodes, in the golden model, like the port's nearest value for
// every warp-opt the port carries; the RTL given that value matches the golden decode of the
// original one.
TYPED_TEST(PcalDecode, EbtBeyondThePortDecodesLikeItsClampedValue) {
  DecodeIo& dio = this->io;
  const int64_t lo = dio.ebt_min, hi = dio.ebt_max;
  uint64_t compared = 0;
  for (int64_t ebt : {int64_t{INT32_MIN}, int64_t{INT32_MIN} + 1, int64_t{-1000000}, lo - 1000, lo - 2, lo - 1,
                      hi + 1, hi + 2, hi + 1000, int64_t{1000000}, int64_t{INT32_MAX} - 1, int64_t{INT32_MAX}}) {
    for (uint32_t opt = 1; opt <= dio.opt_max; ++opt) {
      const l1d::golden::PcalLimits wide = l1d::golden::pcal_decode(opt, static_cast<int32_t>(ebt), dio.max_warps);
      const l1d::golden::PcalLimits narrow =
          l1d::golden::pcal_decode(opt, static_cast<int32_t>(dio.clamp(ebt)), dio.max_warps);
      EXPECT_EQ(wide.active_warps, narrow.active_warps) << "warp-opt " << opt << " EBTNum " << ebt;
      EXPECT_EQ(wide.tokens, narrow.tokens) << "warp-opt " << opt << " EBTNum " << ebt;
      const DecodeIo::Out rtl = this->decode(opt, dio.clamp(ebt));
      EXPECT_EQ(rtl, (DecodeIo::Out{wide.active_warps, wide.tokens})) << "warp-opt " << opt << " EBTNum " << ebt;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 12U * dio.opt_max);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// The golden model's PcalDecode cases, their kMaxWarps of 48 replaced by MaxWarps where it
// matters, with literal expectations: ZeroIsPureThrottling, PositiveAddsExtraNonTokenWarps,
// NegativeTakesTokensKeepingTlp, NegativeKeepsAtLeastOneToken (EBTNum -100 and INT32_MIN
// clamped to the port), ActiveWarpsCappedAtMaxWarps, TokensNeverExceedActiveWarps (a warp-opt
// above MaxWarps, which the port can carry), and warp-opt 0.
TYPED_TEST(PcalDecode, GoldenDirectedCases) {
  using Out = DecodeIo::Out;
  const uint64_t max = this->io.max_warps;
  ASSERT_GE(max, 10U);
  EXPECT_EQ(this->decode(4, 0), (Out{4, 4}));
  EXPECT_EQ(this->decode(4, 3), (Out{7, 4}));
  EXPECT_EQ(this->decode(8, -3), (Out{8, 5}));
  EXPECT_EQ(this->decode(8, this->io.clamp(-100)), (Out{8, 1}));
  EXPECT_EQ(this->decode(3, -3), (Out{3, 1}));
  EXPECT_EQ(this->decode(1, this->io.clamp(INT32_MIN)), (Out{1, 1}));
  EXPECT_EQ(this->decode(static_cast<uint32_t>(max - 8), 20), (Out{max, max - 8}));
  EXPECT_EQ(this->decode(2, this->io.clamp(INT32_MAX)), (Out{max, 2}));
  EXPECT_EQ(this->decode(this->io.opt_max, 0), (Out{max, max}));
  EXPECT_EQ(this->decode(0, 5), (Out{5, 0}));
  EXPECT_EQ(this->decode(0, -5), (Out{0, 0}));
  if constexpr (TypeParam::kDefault) {  // gtx480: 24 slots per scheduler, 5-bit counts
    EXPECT_EQ(max, 24U);
    EXPECT_EQ(this->decode(24, -16), (Out{24, 8}));  // the simulator's default EBTNum for warp-opt 24
    EXPECT_EQ(this->decode(31, -32), (Out{24, 1}));
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class PcalDecodeNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(PcalDecodeNetlist, models::Configs);

TYPED_TEST(PcalDecodeNetlist, NetlistMatchesRtl) {
  const DecodeIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
