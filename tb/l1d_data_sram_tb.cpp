// Testbench of l1d_data_sram (gen/blocks/l1d_data_sram.cpp) against the data of golden::L1's
// lines (golden::L1::line_data, 128 bytes per (set, way)), written byte by byte where the byte
// enables say so (golden/l1.cpp writes a fill's chunks and a store's bytes).
// The array has no reset, so every check reads only bytes written before (the golden side
// tracks which bytes are known and compares those). Cases on every configuration of
// RTL_TB_CONFIGS:
// - every byte of every set written, then read back (a write is visible from the next cycle);
// - byte enables: single bytes, one slot of one way, alternate bytes; the other bytes keep
//   their value;
// - >= 10^5 random cycles (reads of the written set and of others, random enables).
// Netlist co-simulation on the one-set shape only (tb/block_configs/sram_one_set.yaml, 8 kbit),
// in make test-slow: the array is a black box for synthesis (an SRAM macro), and Yosys maps the
// presets' 16 kbit and more to flops only slowly, but the model itself must synthesize to what it
// simulates.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "common/address.h"
#include "l1d_data_sram_models.h"
#include "tb/bitvec.h"
#include "tb/testbench.h"

namespace {

using tb::BitVec;

constexpr uint64_t kRandomCycles = 100'000;
constexpr uint64_t kCosimCycles = 10'000;  // the -O0 netlist (8 kbit of flops) takes 1 ms a cycle
constexpr unsigned kLineBytes = l1d::kLineBytes;

// The port binding (tb/testbench.h). The golden array holds per set every way's LineData in the
// ports' layout (way w's byte b at bit 8*(128*w + b)), so that a 64-way set is read and written
// 64 bits at a time. golden() returns set rd_set, then applies the cycle's byte writes; the
// bytes never written read as zero on both sides (sample() masks the RTL's with `known`).
struct DataSramIo {
  struct In {
    explicit In(unsigned ways) : be(ways * kLineBytes), data(ways * kLineBytes * 8) {}
    uint64_t rd_set = 0, wr_set = 0;
    BitVec be, data;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("rd_set_i {} wr_set_i {} wr_be_i ", in.rd_set, in.wr_set) << in.be << " wr_data_i "
                << in.data;
    }
  };
  struct Out {
    BitVec data;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) { return os << "rd_data_o " << o.data; }
  };

  explicit DataSramIo(const l1d::Config& c)
      : sets(l1d::largest_l1_sets(c.l1)),
        ways(c.l1.ways),
        bits(ways * kLineBytes * 8),
        array(sets, BitVec(bits)),
        known(sets, BitVec(bits)) {}

  unsigned set_of(uint64_t idx) const { return sets == 1 ? 0U : static_cast<unsigned>(idx); }
  // Eight byte enables as a 64-bit mask of their bytes.
  static uint64_t byte_mask(uint64_t enables) {
    uint64_t m = 0;
    for (unsigned b = 0; b < 8; ++b)
      if (((enables >> b) & 1) != 0) m |= uint64_t{0xFF} << (8 * b);
    return m;
  }

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.rd_set_i, in.rd_set);
    tb::put(m.wr_set_i, in.wr_set);
    in.be.store(m.wr_be_i);
    in.data.store(m.wr_data_i);
  }
  template <class M>
  Out sample(const M& m) const {
    Out o{BitVec(bits)};
    o.data.load(m.rd_data_o);
    const BitVec& k = known[set_of(tb::get(m.rd_set_i))];
    for (unsigned b = 0; b < bits; b += 64) o.data.set(b, 64, o.data.get(b, 64) & k.get(b, 64));
    return o;
  }
  Out golden(const In& in) {
    const Out o{array[set_of(in.rd_set)]};
    BitVec& a = array[set_of(in.wr_set)];
    BitVec& k = known[set_of(in.wr_set)];
    for (unsigned b = 0; b < bits; b += 64) {
      const uint64_t m = byte_mask(in.be.get(b / 8, 8));
      a.set(b, 64, (a.get(b, 64) & ~m) | (in.data.get(b, 64) & m));
      k.set(b, 64, k.get(b, 64) | m);
    }
    return o;
  }

  // The netlist co-simulation's hooks (tb::run_netlist_cosim): the two models start with
  // different contents, so every set is written whole first, and then every read compares in full.
  std::vector<In> cosim_preload() const {
    std::vector<In> ins;
    std::mt19937_64 rng(3);
    for (unsigned s = 0; s < sets; ++s) {
      ins.push_back(random_write(rng, true));
      ins.back().wr_set = s;
    }
    return ins;
  }
  template <class M>
  Out sample_all(const M& m) const {
    Out o{BitVec(bits)};
    o.data.load(m.rd_data_o);
    return o;
  }
  In random(std::mt19937_64& rng) const { return random_write(rng, false); }

  // A random write of random bytes (about a quarter, or every one when `all`) of a random set,
  // with a read of that set or another.
  In random_write(std::mt19937_64& rng, bool all) const {
    In in(ways);
    in.wr_set = sets == 1 ? rng() & 1 : rng() % sets;
    in.rd_set = (rng() & 1) != 0 ? in.wr_set : (sets == 1 ? rng() & 1 : rng() % sets);
    for (unsigned b = 0; b < in.be.width(); b += 64) {
      const uint64_t r1 = rng();
      in.be.set(b, 64, all ? ~uint64_t{0} : r1 & rng());
    }
    for (unsigned b = 0; b < bits; b += 64) in.data.set(b, 64, rng());
    return in;
  }

  unsigned sets, ways, bits;
  std::vector<BitVec> array;
  std::vector<BitVec> known;  // per set, the bits written so far
};

using Board = tb::Scoreboard<DataSramIo::In, DataSramIo::Out>;
namespace models = tb::l1d_data_sram;

template <class Config>
class DataSram : public ::testing::Test {
 protected:
  DataSram()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {}
  static constexpr const char* kMainTest = "RandomMatchesGolden";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  void cycle(const DataSramIo::In& in) { tb::check_cycle(dut, io, board, in); }
  DataSramIo::In read(uint64_t set) const {
    DataSramIo::In in(io.ways);
    in.rd_set = set;
    return in;
  }
  void fill_all() {
    for (uint64_t s = 0; s < io.sets; ++s) {
      DataSramIo::In in = io.random_write(rng, true);
      in.wr_set = s;
      cycle(in);
    }
  }
  void read_all() {
    for (uint64_t s = 0; s < io.sets; ++s) cycle(read(s));
  }

  DataSramIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{9};
};
TYPED_TEST_SUITE(DataSram, models::Configs);

// Every byte of every set written, read back the next cycle and after all the others.
TYPED_TEST(DataSram, EveryByteWrittenAndReadBack) {
  this->fill_all();
  this->read_all();
  this->fill_all();
  this->read_all();
  // Every byte is known now: the comparisons covered the whole array.
  for (const BitVec& k : this->io.known)
    for (unsigned b = 0; b < k.width(); b += 64) ASSERT_EQ(k.get(b, 64), ~uint64_t{0});
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Byte enables: a single byte at each end of each way, one 32 B slot of one way, alternate
// bytes; the bytes without an enable keep their value; the same cycle's read sees the old data.
TYPED_TEST(DataSram, ByteEnablesWriteOnlyTheirBytes) {
  this->fill_all();
  const unsigned ways = this->io.ways;
  const uint64_t set = this->io.sets - 1;
  const auto write = [&](auto enable) {
    DataSramIo::In in = this->io.random_write(this->rng, false);
    in.wr_set = set;
    in.rd_set = set;
    in.be = BitVec(ways * kLineBytes);
    for (unsigned i = 0; i < ways * kLineBytes; ++i) in.be.set(i, 1, enable(i) ? 1 : 0);
    this->cycle(in);
    this->cycle(this->read(set));
  };
  for (unsigned w = 0; w < ways; w += std::max(1U, ways / 4)) {
    write([&](unsigned i) { return i == w * kLineBytes; });
    write([&](unsigned i) { return i == w * kLineBytes + kLineBytes - 1; });
    write([&](unsigned i) { return i / l1d::kChunkBytes == w * l1d::kSlotsPerLine + 2; });
  }
  write([](unsigned i) { return i % 2 == 1; });
  write([](unsigned) { return false; });
  this->read_all();
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Random: writes of random bytes (about a quarter of the enables set) of random sets, reads of
// the written set or any other.
TYPED_TEST(DataSram, RandomMatchesGolden) {
  for (uint64_t c = 0; c < kRandomCycles; ++c) this->cycle(this->io.random_write(this->rng, (c & 1023) == 0));
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class DataSramNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(DataSramNetlist, models::Configs);

// RTL against the Yosys netlist (configurations with a netlist: make test-slow's sram_one_set),
// every byte of every set written first (DataSramIo::cosim_preload).
TYPED_TEST(DataSramNetlist, NetlistMatchesRtl) {
  const DataSramIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
