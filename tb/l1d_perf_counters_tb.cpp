// Testbench of l1d_perf_counters (gen/blocks/l1d_perf_counters.cpp; contract 16.4-16.5) against a
// plain 64-bit count per counter: every cycle the carry-save read-out (chunks plus each pending
// carry at its weight) must equal the sum of the increments presented before that cycle.
// - random increments (0 .. 2^IncBits - 1, with idle counters and bursts of the maximum), enough
//   cycles for many carries out of chunk 0;
// - a burst of maximal increments on every counter at once, and a counter left idle;
// - the netlist co-simulation.
// Carries into chunks 2 and 3 need 2^32 / 15 cycles and more: the induction proof of
// scripts/formal.sh (job perf) covers them for every count.
#include <fmt/format.h>

#include <cstdint>
#include <iostream>
#include <ostream>
#include <random>
#include <vector>

#include "l1d_perf_counters_models.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 200'000;
constexpr uint64_t kCosimCycles = 20'000;
// The module's parameter defaults (gen/blocks/l1d_perf_counters.cpp): the configuration does not
// change them.
constexpr unsigned kCounters = 8, kIncBits = 4, kChunks = 4, kChunkBits = 16;

struct PerfIo {
  struct In {
    std::vector<uint32_t> inc = std::vector<uint32_t>(kCounters);
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      os << "inc_i";
      for (uint32_t v : in.inc) os << ' ' << v;
      return os;
    }
  };
  struct Out {
    std::vector<uint64_t> value = std::vector<uint64_t>(kCounters);
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      os << "value";
      for (uint64_t v : o.value) os << ' ' << v;
      return os;
    }
  };

  explicit PerfIo(const l1d::Config&) {}

  template <class M>
  void drive(M& m, const In& in) const {
    for (unsigned i = 0; i < kCounters; ++i) tb::put(m.inc_i, in.inc[i], i * kIncBits, kIncBits);
  }
  // The read-out the contract defines (16.5): chunks plus each pending carry at its weight.
  template <class M>
  Out sample(const M& m) const {
    Out o;
    for (unsigned i = 0; i < kCounters; ++i) {
      uint64_t v = tb::get(m.count_o, i * 64, 64);
      for (unsigned k = 0; k + 1 < kChunks; ++k)
        v += tb::get(m.carry_o, i * (kChunks - 1) + k, 1) << (kChunkBits * (k + 1));
      o.value[i] = v;
    }
    return o;
  }
  Out golden(const In& in) {
    Out o{sum};
    for (unsigned i = 0; i < kCounters; ++i) sum[i] += in.inc[i];
    return o;
  }
  // Mostly small increments, now and then the maximum on several counters, some counters idle.
  In random(std::mt19937_64& rng) const {
    In in;
    const uint64_t r = rng();
    const uint32_t max = (1u << kIncBits) - 1;
    for (unsigned i = 0; i < kCounters; ++i) {
      const uint64_t k = (r >> (4 * i)) & 15;
      in.inc[i] = k < 4 ? 0 : k < 8 ? 1 : k < 12 ? max : static_cast<uint32_t>(rng() & max);
    }
    return in;
  }

  std::vector<uint64_t> sum = std::vector<uint64_t>(kCounters);
};

using Board = tb::Scoreboard<PerfIo::In, PerfIo::Out>;
namespace models = tb::l1d_perf_counters;

template <class Config>
class PerfCounters : public ::testing::Test {
 protected:
  PerfCounters()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {
    dut.reset();
  }
  static constexpr const char* kMainTest = "MaximalBurstOnEveryCounter";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  PerfIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{5};
};
TYPED_TEST_SUITE(PerfCounters, models::Configs);

// Every counter at the maximum increment: chunk 0 carries every 2^16 / 15 cycles; counter 7 stays
// idle and must read 0 throughout.
TYPED_TEST(PerfCounters, MaximalBurstOnEveryCounter) {
  PerfIo::In in;
  for (unsigned i = 0; i + 1 < kCounters; ++i) in.inc[i] = (1u << kIncBits) - 1;
  for (uint64_t c = 0; c < 30'000; ++c) tb::check_cycle(this->dut, this->io, this->board, in);
  EXPECT_EQ(this->io.sum[0], 30'000u * 15u);  // past six carries out of chunk 0
  EXPECT_EQ(this->io.sum[kCounters - 1], 0u);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

TYPED_TEST(PerfCounters, RandomIncrementsMatchTheSums) {
  for (uint64_t c = 0; c < kRandomCycles; ++c)
    tb::check_cycle(this->dut, this->io, this->board, this->io.random(this->rng));
  EXPECT_GT(this->io.sum[0], uint64_t{1} << 18);  // several carries out of chunk 0 on every counter
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class PerfCountersNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(PerfCountersNetlist, models::Configs);

TYPED_TEST(PerfCountersNetlist, NetlistMatchesRtl) {
  const PerfIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
