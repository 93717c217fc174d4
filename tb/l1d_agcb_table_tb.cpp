// Testbench of l1d_agcb_table (gen/blocks/l1d_agcb_table.cpp) against golden::AgcbPredictor
// (SPEC section 5) on every configuration of RTL_TB_CONFIGS: the golden model's directed cases
// (reset, threshold boundary, saturation at 0 and at the maximum, one entry per update, the
// hash), both ports on one entry at 0 and at the maximum, a read of every entry, >= 10^5 random
// cycles whose updates concentrate on a few entries so that counters reach 0, the maximum and
// the threshold, and the netlist co-simulation.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <ostream>
#include <random>

#include "golden/agcb_predictor.h"
#include "l1d_agcb_table_models.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 400'000;
constexpr uint64_t kCosimCycles = 100'000;

// The port binding (tb/testbench.h). golden() returns this cycle's combinational read of the
// golden table, then applies the cycle's updates (decrement first, as the RTL does).
struct AgcbIo {
  struct In {
    uint64_t pc = 0;
    bool dec = false;
    uint64_t dec_idx = 0;
    bool inc = false;
    uint64_t inc_idx = 0;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("pc_i {:#x} dec_i {} dec_idx_i {} inc_i {} inc_idx_i {}", in.pc, in.dec, in.dec_idx,
                               in.inc, in.inc_idx);
    }
  };
  struct Out {
    uint64_t hpc = 0;
    bool bypass = false;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format("hpc_o {} bypass_o {}", o.hpc, o.bypass);
    }
  };

  explicit AgcbIo(const l1d::Config& c)
      : cfg(c.policy.agcb),
        instruction_bytes(c.core.instruction_bytes),
        model(cfg, instruction_bytes),
        idx_mask(cfg.entries - 1),
        max((1U << cfg.counter_bits) - 1) {}

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.pc_i, in.pc);
    m.dec_i = in.dec;
    tb::put(m.dec_idx_i, in.dec_idx);
    m.inc_i = in.inc;
    tb::put(m.inc_idx_i, in.inc_idx);
  }
  template <class M>
  Out sample(const M& m) const {
    return {tb::get(m.hpc_o), m.bypass_o != 0};
  }
  Out golden(const In& in) {
    const uint32_t hpc = model.hash(in.pc);
    const Out o{hpc, model.predict_bypass(hpc)};
    if (in.dec) model.on_read_hit(static_cast<uint32_t>(in.dec_idx));
    if (in.inc) model.on_victim(static_cast<uint32_t>(in.inc_idx));
    return o;
  }
  // Co-simulation stimulus: updates mostly on four entries (0, 1, 2 and the last), so that
  // their counters saturate and cross the threshold; reads of those entries and anywhere.
  In random(std::mt19937_64& rng) const {
    const uint64_t r = rng();
    const auto idx = [&](unsigned shift) {
      const uint64_t k = (r >> shift) & 7;
      return k < 3 ? k : k == 3 ? idx_mask : (rng() & idx_mask);
    };
    const uint64_t pc = (r & 1) != 0 ? rng() : (idx(1) * instruction_bytes) | (rng() & (instruction_bytes - 1));
    return {pc, ((r >> 8) & 1) != 0, idx(9), ((r >> 12) & 3) == 0, idx(14)};
  }

  // A PC whose hash is `index`, with random bits below and above the hashed ones.
  uint64_t pc_of(uint64_t index, std::mt19937_64& rng) const {
    const int shift = std::countr_zero(instruction_bytes);
    const uint64_t above = rng() << (shift + std::countr_zero(cfg.entries));
    return above | (index << shift) | (rng() & (instruction_bytes - 1));
  }

  l1d::AgcbConfig cfg;
  uint32_t instruction_bytes;
  l1d::golden::AgcbPredictor model;
  uint64_t idx_mask;
  uint32_t max;
};

using Board = tb::Scoreboard<AgcbIo::In, AgcbIo::Out>;
namespace models = tb::l1d_agcb_table;

template <class Config>
class AgcbTable : public ::testing::Test {
 protected:
  AgcbTable()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {
    dut.reset();
  }
  // The test whose waves `make waves` opens (<block>.fst); the others write <block>_<test>.fst.
  static constexpr const char* kMainTest = "RandomMatchesGolden";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  // One cycle: read `read_idx`, optionally decrement / increment.
  void cycle(uint64_t read_idx, bool dec = false, uint64_t dec_idx = 0, bool inc = false, uint64_t inc_idx = 0) {
    tb::check_cycle(dut, io, board, {io.pc_of(read_idx, rng), dec, dec_idx, inc, inc_idx});
  }
  bool bypass_now(uint64_t idx) {
    dut->dec_i = 0;
    dut->inc_i = 0;
    tb::put(dut->pc_i, io.pc_of(idx, rng));
    dut.settle();
    return dut->bypass_o != 0;
  }

  AgcbIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{11};
};
TYPED_TEST_SUITE(AgcbTable, models::Configs);

// Reset: every entry holds ResetValue (read back through the threshold: every entry is read).
TYPED_TEST(AgcbTable, ResetValueInEveryEntry) {
  for (uint64_t i = 0; i < this->io.cfg.entries; ++i) this->cycle(i);
  EXPECT_EQ(this->board.mismatches(), 0U);
  EXPECT_EQ(this->bypass_now(0), this->io.cfg.reset_value >= this->io.cfg.threshold);
}

// Decrements walk one entry from ResetValue down through the threshold to 0 and stay there;
// increments walk it up to the maximum and stay; the read port sees every step a cycle later.
TYPED_TEST(AgcbTable, SaturatesAtZeroAndAtMaximumThroughTheThreshold) {
  const uint64_t e = 3 & this->io.idx_mask;
  const uint32_t steps = this->io.max + 3;
  for (uint32_t i = 0; i < steps; ++i) this->cycle(e, true, e);
  this->cycle(e);
  EXPECT_EQ(this->io.model.counter(static_cast<uint32_t>(e)), 0U);
  EXPECT_EQ(this->bypass_now(e), this->io.cfg.threshold == 0);
  for (uint32_t i = 0; i < steps; ++i) this->cycle(e, false, 0, true, e);
  this->cycle(e);
  EXPECT_EQ(this->io.model.counter(static_cast<uint32_t>(e)), this->io.max);
  EXPECT_TRUE(this->bypass_now(e));
  for (uint32_t i = 0; i < steps; ++i) this->cycle(e, true, e);  // and down again: no wrap above the max
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Golden ThresholdBoundarySevenCachesEightBypasses, generalised: threshold - 1 caches.
TYPED_TEST(AgcbTable, ThresholdBoundary) {
  const uint64_t e = this->io.idx_mask;  // the last entry
  const uint32_t th = this->io.cfg.threshold;
  while (this->io.model.counter(static_cast<uint32_t>(e)) > th) this->cycle(e, true, e);
  while (this->io.model.counter(static_cast<uint32_t>(e)) < th) this->cycle(e, false, 0, true, e);
  EXPECT_TRUE(this->bypass_now(e));
  if (th > 0) {
    this->cycle(e, true, e);
    EXPECT_FALSE(this->bypass_now(e));
    this->cycle(e, false, 0, true, e);
    EXPECT_TRUE(this->bypass_now(e));
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Both ports on one entry in one cycle: decrement, then increment, each saturating. At 0 the
// pair gives 1 (the decrement saturates first), at the maximum it gives the maximum.
TYPED_TEST(AgcbTable, BothPortsOnOneEntryDecrementThenIncrement) {
  const uint64_t e = 1;
  for (uint32_t i = 0; i <= this->io.max; ++i) this->cycle(e, true, e);
  this->cycle(e, true, e, true, e);
  EXPECT_EQ(this->io.model.counter(1), 1U);
  for (uint32_t i = 0; i <= this->io.max; ++i) this->cycle(e, false, 0, true, e);
  this->cycle(e, true, e, true, e);
  EXPECT_EQ(this->io.model.counter(1), this->io.max);
  for (int i = 0; i < 4; ++i) this->cycle(e, true, e, true, e);
  // Two different entries in one cycle: each port updates only its own (UpdatesTouchOnlyTheirOwnEntry).
  for (int i = 0; i < 3; ++i) this->cycle(0, true, 0, true, 1);
  this->cycle(0);
  this->cycle(1);
  this->cycle(2);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// The hash of golden HashDropsEightByteInstructionBits / SixteenBytePcsMapToConsecutiveEntries,
// through the golden model's own hash on every configuration (and its literal values on gtx480).
TYPED_TEST(AgcbTable, HashDropsInstructionBitsAndMasksTheIndex) {
  for (uint64_t pc : {0x0ULL, 0x8ULL, 0xFULL, 0x10ULL, 0x7F8ULL, 0x800ULL, 0x1000ULL, 0xFFFF'FFFF'0000'0010ULL,
                      0xFFFF'FFFF'FFFF'FFFFULL}) {
    tb::check_cycle(this->dut, this->io, this->board, {pc});
  }
  if constexpr (TypeParam::kDefault) {  // 8-byte instructions, 256 entries
    const auto hpc = [&](uint64_t pc) {
      tb::put(this->dut->pc_i, pc);
      this->dut.settle();
      return tb::get(this->dut->hpc_o);
    };
    EXPECT_EQ(hpc(0x8), 1U);
    EXPECT_EQ(hpc(0xF), 1U);
    EXPECT_EQ(hpc(0x7F8), 255U);
    EXPECT_EQ(hpc(0x800), 0U);
    EXPECT_EQ(hpc(0xFFFF'FFFF'0000'0010ULL), 2U);
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Random: phases of 2000 cycles update a hot set of four entries (redrawn per phase) with a
// decrement bias of 10 %, 50 % or 90 %, so counters sit at 0, at the maximum and around the
// threshold; 1/8 of the updates go anywhere, both ports often name one entry, and reads are
// mostly of the hot set. A sweep over every entry ends each phase.
TYPED_TEST(AgcbTable, RandomMatchesGolden) {
  std::mt19937_64& r = this->rng;
  const uint64_t mask = this->io.idx_mask;
  std::array<uint64_t, 4> hot{};
  uint64_t cycles = 0;
  while (cycles < kRandomCycles) {
    for (auto& h : hot) h = r() & mask;
    const unsigned bias = std::array<unsigned, 3>{10, 50, 90}[r() % 3];
    const unsigned rate = std::array<unsigned, 3>{20, 60, 100}[r() % 3];
    for (int i = 0; i < 2000; ++i, ++cycles) {
      const auto pick = [&] { return (r() & 7) == 0 ? r() & mask : hot[r() & 3]; };
      const bool update = r() % 100 < rate;
      const bool dec = update && r() % 100 < bias;
      const bool inc = update && (!dec || (r() & 3) == 0);
      const uint64_t dec_idx = pick();
      const uint64_t inc_idx = (r() & 3) == 0 ? dec_idx : pick();
      const uint64_t read = (r() & 3) == 0 ? r() & mask : pick();
      this->cycle(read, dec, dec_idx, inc, inc_idx);
    }
    for (uint64_t e = 0; e <= mask && e < 4096; ++e, ++cycles) this->cycle(e);
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class AgcbTableNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(AgcbTableNetlist, models::Configs);

TYPED_TEST(AgcbTableNetlist, NetlistMatchesRtl) {
  const AgcbIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
