// Testbench of l1d_ram_1r1w (gen/blocks/l1d_ram_1r1w.cpp), the MSHR's buffer RAM, at its default
// shape per configuration (Words = l1.mshr_entries words of 1024 bits: the fill-data buffer),
// against an array of words. The RAM has no reset, so a read compares a word only once it has
// been written (the golden side tracks which words are known). Cases on every configuration of
// RTL_TB_CONFIGS:
// - every word written, then read back (a write is visible from the next cycle, a read of the
//   word being written sees the old value);
// - >= 10^5 random cycles (writes with a random enable, reads of the written word or any other).
// The MSHR's testbench covers the RAM again at the MSHR's request-buffer shape, inside l1d_mshr.
// Netlist co-simulation on the small shape of tb/block_configs/mshr_small.yaml (5 words): the RAM
// is a black box in the synthesis checks of the blocks that use it (an SRAM or register-file
// macro), but its own netlist, asked for, is its memory in flops, and must match the RTL.
#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "common/types.h"
#include "l1d_ram_1r1w_models.h"
#include "tb/bitvec.h"
#include "tb/testbench.h"

namespace {

using tb::BitVec;

constexpr uint64_t kRandomCycles = 100'000;
constexpr uint64_t kCosimCycles = 20'000;
constexpr unsigned kWidth = 8 * l1d::kLineBytes;  // the default Width parameter

struct RamIo {
  struct In {
    bool wr_en = false;
    uint64_t wr_addr = 0, rd_addr = 0;
    BitVec wr_data{kWidth};
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("wr_en_i {} wr_addr_i {} rd_addr_i {} wr_data_i ", in.wr_en, in.wr_addr, in.rd_addr)
                << in.wr_data;
    }
  };
  struct Out {
    BitVec rd_data{kWidth};
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) { return os << "rd_data_o " << o.rd_data; }
  };

  explicit RamIo(const l1d::Config& c) : words(c.l1.mshr_entries), mem(words, BitVec(kWidth)), known(words, false) {}

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.wr_en_i, in.wr_en ? 1 : 0);
    tb::put(m.wr_addr_i, in.wr_addr);
    tb::put(m.rd_addr_i, in.rd_addr);
    in.wr_data.store(m.wr_data_i);
  }
  // A word never written reads as zero on both sides.
  template <class M>
  Out sample(const M& m) const {
    Out o;
    if (known[tb::get(m.rd_addr_i)]) o.rd_data.load(m.rd_data_o);
    return o;
  }
  Out golden(const In& in) {
    Out o;
    if (known[in.rd_addr]) o.rd_data = mem[in.rd_addr];
    if (in.wr_en) {
      mem[in.wr_addr] = in.wr_data;
      known[in.wr_addr] = true;
    }
    return o;
  }

  In random(std::mt19937_64& rng) const {
    In in;
    in.wr_en = (rng() & 3) != 0;
    in.wr_addr = rng() % words;
    in.rd_addr = (rng() & 1) != 0 ? in.wr_addr : rng() % words;
    for (unsigned b = 0; b < kWidth; b += 64) in.wr_data.set(b, 64, rng());
    return in;
  }

  unsigned words;
  std::vector<BitVec> mem;
  std::vector<bool> known;
};

using Board = tb::Scoreboard<RamIo::In, RamIo::Out>;
namespace models = tb::l1d_ram_1r1w;

template <class Config>
class Ram1r1w : public ::testing::Test {
 protected:
  Ram1r1w()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {}
  static constexpr const char* kMainTest = "RandomMatchesGolden";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  void cycle(const RamIo::In& in) { tb::check_cycle(dut, io, board, in); }

  RamIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{11};
};
TYPED_TEST_SUITE(Ram1r1w, models::Configs);

// Every word written while it is read (the old value, unknown the first time), then read back;
// twice, so that the second pass reads the first pass's words during its writes.
TYPED_TEST(Ram1r1w, EveryWordWrittenAndReadBack) {
  const unsigned words = this->io.words;
  for (int pass = 0; pass < 2; ++pass) {
    for (unsigned w = 0; w < words; ++w) {
      RamIo::In in = this->io.random(this->rng);
      in.wr_en = true;
      in.wr_addr = w;
      in.rd_addr = w;
      this->cycle(in);
    }
    for (unsigned w = 0; w < words; ++w) {
      RamIo::In in;
      in.rd_addr = words - 1 - w;
      this->cycle(in);
    }
  }
  for (bool k : this->io.known) ASSERT_TRUE(k);
  EXPECT_EQ(this->board.cycles(), 4U * words);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// A disabled write leaves the word as it was.
TYPED_TEST(Ram1r1w, DisabledWriteKeepsTheWord) {
  RamIo::In in = this->io.random(this->rng);
  in.wr_en = true;
  in.wr_addr = in.rd_addr = 0;
  this->cycle(in);
  for (int i = 0; i < 3; ++i) {
    RamIo::In off = this->io.random(this->rng);
    off.wr_en = false;
    off.wr_addr = off.rd_addr = 0;
    this->cycle(off);
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

TYPED_TEST(Ram1r1w, RandomMatchesGolden) {
  for (uint64_t c = 0; c < kRandomCycles; ++c) this->cycle(this->io.random(this->rng));
  EXPECT_EQ(this->board.cycles(), kRandomCycles);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class Ram1r1wNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(Ram1r1wNetlist, models::Configs);

// RTL against the Yosys netlist (configurations with a netlist: NETLIST_CONFIGS). Not
// tb::run_netlist_cosim: without a reset the two models start with different random contents,
// so every word is written first, and from then on every read compares a known word in full.
TYPED_TEST(Ram1r1wNetlist, NetlistMatchesRtl) {
  if constexpr (!requires { typename TypeParam::Netlist; }) {
    GTEST_SKIP() << TypeParam::kName << ": no netlist in this build";
  } else {
    const RamIo io(tb::load_config<TypeParam>());
    tb::Dut<typename TypeParam::Rtl> rtl(tb::wave_name<TypeParam>(models::kBlock, "cosim_rtl"), 5);
    tb::Dut<typename TypeParam::Netlist> net(tb::wave_name<TypeParam>(models::kBlock, "cosim_netlist"), 6);
    Board board(fmt::format("{}/{} netlist co-simulation", models::kBlock, TypeParam::kName), "rtl    ", "netlist");
    std::mt19937_64 rng(7);
    const auto cycle = [&](uint64_t c, const RamIo::In& in) {
      io.drive(*rtl, in);
      io.drive(*net, in);
      rtl.settle();
      net.settle();
      RamIo::Out a, b;
      a.rd_data.load(rtl->rd_data_o);
      b.rd_data.load(net->rd_data_o);
      board.check(c, in, a, b);
      rtl.tick();
      net.tick();
    };
    uint64_t c = 0;
    for (unsigned w = 0; w < io.words; ++w, ++c) {
      RamIo::In in = io.random(rng);
      in.wr_en = true;
      in.wr_addr = w;
      in.rd_addr = 0;
      // Word 0 is unknown until the first write has taken effect.
      if (w == 0) {
        io.drive(*rtl, in);
        io.drive(*net, in);
        rtl.settle();
        net.settle();
        rtl.tick();
        net.tick();
        continue;
      }
      cycle(c, in);
    }
    for (; c < kCosimCycles; ++c) cycle(c, io.random(rng));
    EXPECT_EQ(board.cycles(), kCosimCycles - 1);
    EXPECT_EQ(board.mismatches(), 0U);
  }
}

}  // namespace
