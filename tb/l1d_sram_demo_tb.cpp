// Testbench of l1d_sram_demo (gen/blocks/l1d_sram_demo.cpp), the SRAM layer's test design: the
// registered request, then a tag/state l1d_sram_1rw (word = set, one mask bit per way) and a data
// l1d_sram_1rw (word = {set, way}, byte mask), against the request register and two
// tb::SramModel (tb/sram_model.h). Cases on gtx480 and odd_fermi16:
// - every way of every set written (tag entry and whole line), then read back: a request's
//   data appear two cycles after it is driven (request register, synchronous read);
// - >= 2 x 10^4 random cycles (reads, writes with random byte enables, idle cycles).
// No netlist co-simulation: the data array's behavioural model is 128 kbit of flops for Yosys.
#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <ostream>
#include <random>

#include "common/address.h"
#include "l1d_sram_demo_models.h"
#include "tb/bitvec.h"
#include "tb/sram_model.h"
#include "tb/testbench.h"

namespace {

using tb::BitVec;
using tb::SramOut;

constexpr uint64_t kRandomCycles = 20'000;
constexpr unsigned kLineBits = 1024;

// The shapes l1d_sram_demo derives from the configuration (its generator's tag_entry_bits).
struct Shape {
  explicit Shape(const l1d::Config& c) {
    const l1d::AddressSplit split(c.l1);
    sets = split.sets();
    ways = c.l1.ways;
    way_bits = std::max(static_cast<unsigned>(std::bit_width(ways - 1)), 1U);
    const unsigned hpc = static_cast<unsigned>(std::countr_zero(c.policy.agcb.entries));
    const unsigned bits = std::max(split.common_tag_bits(), 1U) + 4 * (1 + 32 + split.chunk_tag_bits() + 2) + hpc + 9;
    entry = (bits + 7) / 8 * 8;
  }
  unsigned sets, ways, way_bits, entry;
};

struct DemoIo {
  struct In {
    explicit In(const Shape& s) : tag_wdata(s.entry), data_wdata(kLineBits), data_be(kLineBits / 8) {}
    bool req = false, we = false;
    uint64_t set = 0, way = 0;
    BitVec tag_wdata, data_wdata, data_be;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("req_i {} we_i {} set_i {} way_i {} tag_wdata_i ", in.req, in.we, in.set, in.way)
                << in.tag_wdata << " data_be_i " << in.data_be << " data_wdata_i " << in.data_wdata;
    }
  };
  struct Out {
    SramOut tag, data;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << "tag_rdata_o " << o.tag << " data_rdata_o " << o.data;
    }
  };

  explicit DemoIo(const l1d::Config& c)
      : shape(c),
        tag(shape.sets, shape.ways * shape.entry, shape.entry),
        data(shape.sets << shape.way_bits, kLineBits, 8),
        req_q(shape) {}

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.req_i, in.req ? 1 : 0);
    tb::put(m.we_i, in.we ? 1 : 0);
    tb::put(m.set_i, in.set);
    tb::put(m.way_i, in.way);
    in.tag_wdata.store(m.tag_wdata_i);
    in.data_wdata.store(m.data_wdata_i);
    in.data_be.store(m.data_be_i);
  }
  template <class M>
  Out sample(const M& m) const {
    BitVec t(shape.ways * shape.entry), d(kLineBits);
    t.load(m.tag_rdata_o);
    d.load(m.data_rdata_o);
    return Out{SramOut::all(t), SramOut::all(d)};
  }
  // This cycle's outputs, then the clock edge: the registered request acts on both arrays
  // (the tag entry written into way `way`'s slot of every way's copy, masked to that way), and
  // the inputs are registered.
  Out golden(const In& in) {
    const Out o{tag.rdata(), data.rdata()};
    if (req_q.req) {
      const uint64_t word = (req_q.set << shape.way_bits) | req_q.way;
      if (req_q.we) {
        BitVec row(shape.ways * shape.entry), way_mask(shape.ways);
        for (unsigned w = 0; w < shape.ways; ++w) {
          for (unsigned b = 0; b < shape.entry; b += 64) {
            const unsigned n = std::min(64U, shape.entry - b);
            row.set(w * shape.entry + b, n, req_q.tag_wdata.get(b, n));
          }
        }
        way_mask.set(static_cast<unsigned>(req_q.way), 1, 1);
        tag.write(req_q.set, row, way_mask);
        data.write(word, req_q.data_wdata, req_q.data_be);
      } else {
        tag.read(req_q.set);
        data.read(word);
      }
    }
    req_q = in;
    return o;
  }
  In random(std::mt19937_64& rng) const {
    In in(shape);
    in.req = (rng() % 4) != 0;
    in.we = (rng() % 3) == 0;
    in.set = rng() % shape.sets;
    in.way = rng() % shape.ways;
    in.tag_wdata = tb::random_bits(rng, shape.entry);
    in.data_wdata = tb::random_bits(rng, kLineBits);
    in.data_be = tb::random_mask(rng, kLineBits / 8);
    return in;
  }

  Shape shape;
  tb::SramModel tag, data;
  In req_q;  // reset: no request
};

using Board = tb::Scoreboard<DemoIo::In, DemoIo::Out>;
namespace models = tb::l1d_sram_demo;

template <class Config>
class SramDemo : public ::testing::Test {
 protected:
  SramDemo()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 8),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "model", "rtl  ") {
    dut.reset();
  }
  static constexpr const char* kMainTest = "RandomMatchesModel";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  void cycle(const DemoIo::In& in) { tb::check_cycle(dut, io, board, in); }

  DemoIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{8};
};
TYPED_TEST_SUITE(SramDemo, models::Configs);

// Every (set, way) written whole, then read: each read's tag row is fully known once all ways of
// its set are written, and its line once written (checked on the model side too).
TYPED_TEST(SramDemo, EveryWayWrittenAndReadBack) {
  const Shape& s = this->io.shape;
  for (int pass = 0; pass < 2; ++pass) {
    for (unsigned set = 0; set < s.sets; ++set) {
      for (unsigned way = 0; way < s.ways; ++way) {
        DemoIo::In in = this->io.random(this->rng);
        in.req = true;
        in.we = pass == 0;
        in.set = set;
        in.way = way;
        for (unsigned b = 0; b < kLineBits / 8; b += 64) in.data_be.set(b, 64, ~0ULL);
        this->cycle(in);
      }
    }
  }
  DemoIo::In idle(s);
  this->cycle(idle);
  this->cycle(idle);
  const SramOut& t = this->io.tag.rdata();
  for (unsigned b = 0; b < t.known.width(); b += 64) {
    ASSERT_EQ(t.known.get(b, std::min(64U, t.known.width() - b)), ~0ULL >> (64 - std::min(64U, t.known.width() - b)));
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

TYPED_TEST(SramDemo, RandomMatchesModel) {
  for (uint64_t c = 0; c < kRandomCycles; ++c) this->cycle(this->io.random(this->rng));
  EXPECT_EQ(this->board.cycles(), kRandomCycles);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

}  // namespace
