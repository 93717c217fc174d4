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

  // The netlist co-simulation's hooks (tb::run_netlist_cosim): the two models start with
  // different contents, so every word is written first, and then every read compares in full.
  std::vector<In> cosim_preload() const {
    std::vector<In> ins(words);
    for (unsigned w = 0; w < words; ++w) {
      ins[w].wr_en = true;
      ins[w].wr_addr = w;
      for (unsigned b = 0; b < kWidth; b += 64) ins[w].wr_data.set(b, 64, 0x9E3779B97F4A7C15ULL * (w * 17 + b + 1));
    }
    return ins;
  }
  template <class M>
  Out sample_all(const M& m) const {
    Out o;
    o.rd_data.load(m.rd_data_o);
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

// RTL against the Yosys netlist (configurations with a netlist: NETLIST_CONFIGS), every word
// written first (RamIo::cosim_preload).
TYPED_TEST(Ram1r1wNetlist, NetlistMatchesRtl) {
  const RamIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
