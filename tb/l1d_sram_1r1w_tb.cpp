// Testbench of l1d_sram_1r1w (gen/blocks/l1d_sram_1r1w.cpp), the two-port SRAM primitive (one
// read, one write port), at its default shape per configuration (Words = l1.mshr_entries, Width =
// 48, GranBits = 24), against tb::SramModel (tb/sram_model.h). Cases on every configuration of
// RTL_TB_CONFIGS:
// - every word written, then read back (read data the cycle after the read);
// - a read and a write in the same cycle, of different words and of the same word: the model
//   gives the old word there (the contract says not to rely on it; this checks the model is
//   defined and X-free, as its header promises);
// - the read register keeps its word while rd_en_i is low;
// - >= 10^5 random cycles.
// Netlist co-simulation (gtx480), as l1d_sram_1rw's.
#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "l1d_sram_1r1w_models.h"
#include "tb/bitvec.h"
#include "tb/sram_model.h"
#include "tb/testbench.h"

namespace {

using tb::BitVec;
using tb::SramOut;

constexpr uint64_t kRandomCycles = 100'000;
constexpr uint64_t kCosimCycles = 20'000;
constexpr unsigned kWidth = 48;  // the generator's default Width and GranBits
constexpr unsigned kGran = 24;
constexpr uint64_t kWordMask = (1ULL << kWidth) - 1;

struct Sram1r1wIo {
  struct In {
    bool wr_en = false, rd_en = false;
    uint64_t wr_addr = 0, rd_addr = 0;
    BitVec wr_data{kWidth}, wr_mask{kWidth / kGran};
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("wr_en_i {} wr_addr_i {} rd_en_i {} rd_addr_i {} wr_data_i ", in.wr_en, in.wr_addr,
                               in.rd_en, in.rd_addr)
                << in.wr_data << " wr_mask_i " << in.wr_mask;
    }
  };
  using Out = SramOut;

  explicit Sram1r1wIo(const l1d::Config& c) : model(c.l1.mshr_entries, kWidth, kGran) {}

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.wr_en_i, in.wr_en ? 1 : 0);
    tb::put(m.wr_addr_i, in.wr_addr);
    in.wr_data.store(m.wr_data_i);
    in.wr_mask.store(m.wr_mask_i);
    tb::put(m.rd_en_i, in.rd_en ? 1 : 0);
    tb::put(m.rd_addr_i, in.rd_addr);
  }
  template <class M>
  Out sample(const M& m) const {
    BitVec d(kWidth);
    d.load(m.rd_data_o);
    return SramOut::all(d);
  }
  // The read port samples the array before the write of the same edge (the old word).
  Out golden(const In& in) {
    const Out o = model.rdata();
    if (in.rd_en) model.read(in.rd_addr);
    if (in.wr_en) model.write(in.wr_addr, in.wr_data, in.wr_mask);
    return o;
  }

  std::vector<In> cosim_preload() const {
    std::vector<In> ins;
    for (unsigned w = 0; w < model.words(); ++w) {
      In in;
      in.wr_en = true;
      in.wr_addr = w;
      in.wr_data.set(0, kWidth, 0x9E3779B97F4A7C15ULL * (w + 1));
      in.wr_mask.set(0, kWidth / kGran, ~0ULL);
      ins.push_back(in);
    }
    In rd;
    rd.rd_en = true;
    ins.push_back(rd);
    return ins;
  }
  In random(std::mt19937_64& rng) const {
    In in;
    in.wr_en = (rng() % 3) != 0;
    in.rd_en = (rng() % 3) != 0;
    in.wr_addr = rng() % model.words();
    in.rd_addr = (rng() % 4) == 0 ? in.wr_addr : rng() % model.words();
    in.wr_data = tb::random_bits(rng, kWidth);
    in.wr_mask = tb::random_mask(rng, kWidth / kGran);
    return in;
  }

  tb::SramModel model;
};

using Board = tb::Scoreboard<Sram1r1wIo::In, Sram1r1wIo::Out>;
namespace models = tb::l1d_sram_1r1w;

template <class Config>
class Sram1r1w : public ::testing::Test {
 protected:
  Sram1r1w()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 4),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "model", "rtl  ") {}
  static constexpr const char* kMainTest = "RandomMatchesModel";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  void cycle(const Sram1r1wIo::In& in) { tb::check_cycle(dut, io, board, in); }
  static Sram1r1wIo::In op(bool wr, uint64_t wr_addr, uint64_t data, bool rd, uint64_t rd_addr) {
    Sram1r1wIo::In in;
    in.wr_en = wr;
    in.wr_addr = wr_addr;
    in.wr_data.set(0, kWidth, data);
    in.wr_mask.set(0, kWidth / kGran, 3);
    in.rd_en = rd;
    in.rd_addr = rd_addr;
    return in;
  }
  uint64_t shown() const { return io.model.rdata().data.get(0, kWidth); }
  bool shown_known() const { return io.model.rdata().known.get(0, kWidth) == kWordMask; }

  Sram1r1wIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{6};
};
TYPED_TEST_SUITE(Sram1r1w, models::Configs);

TYPED_TEST(Sram1r1w, EveryWordWrittenAndReadBack) {
  const unsigned words = this->io.model.words();
  for (unsigned w = 0; w < words; ++w) this->cycle(this->op(true, w, (0xBEEF00ULL + w) & kWordMask, false, 0));
  for (unsigned w = 0; w < words; ++w) {
    this->cycle(this->op(false, 0, 0, true, w));
    EXPECT_EQ(this->shown(), 0xBEEF00ULL + w);
  }
  this->cycle(this->op(false, 0, 0, false, 0));
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Reading the word written in the same cycle gives the old word (defined, not X: the RTL must
// match the model's old value bit for bit); a different word reads normally; rd_en_i low keeps
// the read register.
TYPED_TEST(Sram1r1w, ReadDuringWriteGivesTheOldWord) {
  const unsigned last = this->io.model.words() - 1;
  this->cycle(this->op(true, last, 0x111111111111ULL, false, 0));
  this->cycle(this->op(true, last, 0x222222222222ULL, true, last));
  EXPECT_EQ(this->shown(), 0x111111111111ULL);
  ASSERT_TRUE(this->shown_known());
  this->cycle(this->op(false, 0, 0, true, last));
  EXPECT_EQ(this->shown(), 0x222222222222ULL);
  if (last > 0) {
    this->cycle(this->op(true, 0, 0x333333333333ULL, true, last));
    EXPECT_EQ(this->shown(), 0x222222222222ULL);
  }
  for (int i = 0; i < 3; ++i) this->cycle(this->op(true, last, 0x444444444444ULL, false, last));
  EXPECT_EQ(this->shown(), 0x222222222222ULL);
  this->cycle(this->op(false, 0, 0, false, 0));
  EXPECT_EQ(this->board.mismatches(), 0U);
}

TYPED_TEST(Sram1r1w, RandomMatchesModel) {
  for (uint64_t c = 0; c < kRandomCycles; ++c) this->cycle(this->io.random(this->rng));
  EXPECT_EQ(this->board.cycles(), kRandomCycles);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class Sram1r1wNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(Sram1r1wNetlist, models::Configs);

TYPED_TEST(Sram1r1wNetlist, NetlistMatchesRtl) {
  const Sram1r1wIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 10);
}

}  // namespace
