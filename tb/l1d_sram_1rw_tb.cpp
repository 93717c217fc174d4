// Testbench of l1d_sram_1rw (gen/blocks/l1d_sram_1rw.cpp), the single-port SRAM primitive, at its
// default shape per configuration (Words = sets, Width = 64, GranBits = 8: a byte mask), against
// tb::SramModel (tb/sram_model.h). Cases on every configuration of RTL_TB_CONFIGS:
// - every word written whole, then read back: the read data appear the cycle after the read;
// - the read register keeps its word through writes and idle cycles;
// - masked writes: single mask bits, then read back (the other bytes keep their value);
// - >= 10^5 random cycles (reads, masked writes and idle cycles, written words read often).
// Netlist co-simulation (gtx480): the primitive is a macro in make synth, but its behavioural
// model, synthesized to flops by the synthesis check, must simulate as its RTL.
#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "common/address.h"
#include "l1d_sram_1rw_models.h"
#include "tb/bitvec.h"
#include "tb/sram_model.h"
#include "tb/testbench.h"

namespace {

using tb::BitVec;
using tb::SramOut;

constexpr uint64_t kRandomCycles = 100'000;
constexpr uint64_t kCosimCycles = 20'000;
constexpr unsigned kWidth = 64;  // the generator's default Width and GranBits
constexpr unsigned kGran = 8;

struct Sram1rwIo {
  struct In {
    bool req = false, we = false;
    uint64_t addr = 0;
    BitVec wdata{kWidth}, wmask{kWidth / kGran};
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("req_i {} we_i {} addr_i {} wdata_i ", in.req, in.we, in.addr) << in.wdata
                << " wmask_i " << in.wmask;
    }
  };
  using Out = SramOut;

  explicit Sram1rwIo(const l1d::Config& c) : model(l1d::largest_l1_sets(c.l1), kWidth, kGran) {}

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.req_i, in.req ? 1 : 0);
    tb::put(m.we_i, in.we ? 1 : 0);
    tb::put(m.addr_i, in.addr);
    in.wdata.store(m.wdata_i);
    in.wmask.store(m.wmask_i);
  }
  template <class M>
  Out sample(const M& m) const {
    BitVec d(kWidth);
    d.load(m.rdata_o);
    return SramOut::all(d);
  }
  Out golden(const In& in) {
    const Out o = model.rdata();
    if (in.req && in.we) model.write(in.addr, in.wdata, in.wmask);
    if (in.req && !in.we) model.read(in.addr);
    return o;
  }

  // Co-simulation: every word written whole and one read, so that both models know everything.
  std::vector<In> cosim_preload() const {
    std::vector<In> ins;
    for (unsigned w = 0; w < model.words(); ++w) {
      In in;
      in.req = in.we = true;
      in.addr = w;
      in.wdata.set(0, kWidth, 0x9E3779B97F4A7C15ULL * (w + 1));
      in.wmask.set(0, kWidth / kGran, ~0ULL);
      ins.push_back(in);
    }
    In rd;
    rd.req = true;
    ins.push_back(rd);
    return ins;
  }
  In random(std::mt19937_64& rng) const {
    In in;
    in.req = (rng() % 4) != 0;
    in.we = (rng() & 1) != 0;
    in.addr = rng() % model.words();
    in.wdata = tb::random_bits(rng, kWidth);
    in.wmask = tb::random_mask(rng, kWidth / kGran);
    return in;
  }

  tb::SramModel model;
};

using Board = tb::Scoreboard<Sram1rwIo::In, Sram1rwIo::Out>;
namespace models = tb::l1d_sram_1rw;

template <class Config>
class Sram1rw : public ::testing::Test {
 protected:
  Sram1rw()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 3),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "model", "rtl  ") {}
  static constexpr const char* kMainTest = "RandomMatchesModel";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  void cycle(const Sram1rwIo::In& in) { tb::check_cycle(dut, io, board, in); }
  Sram1rwIo::In write(uint64_t addr, uint64_t data, uint64_t mask) {
    Sram1rwIo::In in;
    in.req = in.we = true;
    in.addr = addr;
    in.wdata.set(0, kWidth, data);
    in.wmask.set(0, kWidth / kGran, mask);
    return in;
  }
  Sram1rwIo::In read(uint64_t addr) {
    Sram1rwIo::In in;
    in.req = true;
    in.addr = addr;
    return in;
  }
  // The read register's word (as the model knows it) after the cycles so far.
  uint64_t shown() const { return io.model.rdata().data.get(0, kWidth); }

  Sram1rwIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{5};
};
TYPED_TEST_SUITE(Sram1rw, models::Configs);

// Every word written whole, then read back in reverse order: the word read appears in the next
// cycle (the model's read register, compared with rdata_o every cycle).
TYPED_TEST(Sram1rw, EveryWordWrittenAndReadBack) {
  const unsigned words = this->io.model.words();
  for (unsigned w = 0; w < words; ++w) this->cycle(this->write(w, 0x0123456789ABCDEFULL ^ (w * 0x1111ULL), 0xFF));
  for (unsigned w = words; w-- > 0;) {
    this->cycle(this->read(w));
    EXPECT_EQ(this->shown(), 0x0123456789ABCDEFULL ^ (w * 0x1111ULL));
  }
  this->cycle(Sram1rwIo::In{});  // compares the last word read
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// The read register holds its word through writes (of that word too) and idle cycles.
TYPED_TEST(Sram1rw, ReadDataHeldUntilTheNextRead) {
  this->cycle(this->write(0, 0xAAAAAAAAAAAAAAAAULL, 0xFF));
  this->cycle(this->read(0));
  this->cycle(this->write(0, 0x5555555555555555ULL, 0xFF));
  for (int i = 0; i < 3; ++i) this->cycle(Sram1rwIo::In{});
  EXPECT_EQ(this->shown(), 0xAAAAAAAAAAAAAAAAULL);
  this->cycle(this->read(0));
  this->cycle(Sram1rwIo::In{});
  EXPECT_EQ(this->shown(), 0x5555555555555555ULL);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// One mask bit at a time: only its byte changes.
TYPED_TEST(Sram1rw, MaskedWritesChangeOnlyTheirBytes) {
  const unsigned last = this->io.model.words() - 1;
  this->cycle(this->write(last, 0, 0xFF));
  uint64_t expect = 0;
  for (unsigned g = 0; g < kWidth / kGran; ++g) {
    const uint64_t data = 0xF0E1D2C3B4A59687ULL;
    this->cycle(this->write(last, data, 1ULL << g));
    expect |= data & (0xFFULL << (8 * g));
    this->cycle(this->read(last));
    this->cycle(Sram1rwIo::In{});
    EXPECT_EQ(this->shown(), expect) << "after mask bit " << g;
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

TYPED_TEST(Sram1rw, RandomMatchesModel) {
  for (uint64_t c = 0; c < kRandomCycles; ++c) this->cycle(this->io.random(this->rng));
  EXPECT_EQ(this->board.cycles(), kRandomCycles);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class Sram1rwNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(Sram1rwNetlist, models::Configs);

TYPED_TEST(Sram1rwNetlist, NetlistMatchesRtl) {
  const Sram1rwIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 9);
}

}  // namespace
