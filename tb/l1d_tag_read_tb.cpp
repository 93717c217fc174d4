// Testbench of l1d_tag_read (gen/blocks/l1d_tag_read.cpp), stage T of the staged L1, against a
// plain array written at the clock edge: the row stage M sees for a set read at A two cycles
// earlier must be the array after every earlier write, with this cycle's write of the set on top
// (docs/l1d-microarchitecture.md 16.5: same-set hazards are forwarded, never replayed). Writes go
// mostly to a few sets, so that the writes of the read's cycle, of its T cycle and of its M cycle
// hit the set being read, alone and together; every set is written once first (an SRAM word has
// no reset value). Also the netlist co-simulation.
#include <fmt/format.h>

#include <cstdint>
#include <iostream>
#include <ostream>
#include <random>
#include <vector>

#include "l1d_tag_read_models.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 200'000;
constexpr uint64_t kCosimCycles = 20'000;

struct TagReadIo {
  struct In {
    bool rd_en = false;
    uint32_t rd_set = 0;
    bool wr_en = false;
    uint32_t wr_set = 0;
    uint64_t wr_row = 0;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("rd {} set {} wr {} set {} row {:#x}", in.rd_en, in.rd_set, in.wr_en, in.wr_set,
                               in.wr_row);
    }
  };
  // M's outputs mean something only for an enabled read two cycles ago: elsewhere the golden side
  // says `any` and the comparison skips them.
  struct Out {
    bool any = false;
    uint32_t set = 0;
    uint64_t row = 0;
    bool operator==(const Out& o) const { return any || o.any || (set == o.set && row == o.row); }
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return o.any ? os << "(no read at M)" : os << fmt::format("m_set_o {} m_row_o {:#x}", o.set, o.row);
    }
  };

  explicit TagReadIo(const l1d::Config& c) : sets(c.l1.sets()), rows(c.l1.sets(), 0) {}

  template <class M>
  void drive(M& m, const In& in) const {
    m.rd_en_i = in.rd_en;
    tb::put(m.rd_set_i, in.rd_set);
    m.wr_en_i = in.wr_en;
    tb::put(m.wr_set_i, in.wr_set);
    tb::put(m.wr_row_i, in.wr_row);
  }
  template <class M>
  Out sample(const M& m) const {
    return {false, static_cast<uint32_t>(tb::get(m.m_set_o)), tb::get(m.m_row_o)};
  }
  Out golden(const In& in) {
    Out o{!m_read, m_set, 0};
    if (m_read) o.row = in.wr_en && in.wr_set == m_set ? in.wr_row : rows[m_set];
    m_read = t_read, m_set = t_set;
    t_read = in.rd_en, t_set = in.rd_set;
    if (in.wr_en) rows[in.wr_set] = in.wr_row;
    return o;
  }
  // Every set written once, then three reads to fill T and M: afterwards no output holds a word
  // nobody wrote (an SRAM word and the pipe registers have no reset value).
  std::vector<In> cosim_preload() const {
    std::vector<In> pre;
    for (uint32_t s = 0; s < sets; ++s) pre.push_back({false, 0, true, s, 0x5eed0000ull + s});
    for (int i = 0; i < 3; ++i) pre.push_back({true, 0, false, 0, 0});
    return pre;
  }
  // Reads and writes mostly of sets 0-2 (hazards), now and then any set.
  In random(std::mt19937_64& rng) const {
    const uint64_t r = rng();
    const auto set = [&](unsigned shift) {
      const uint32_t k = static_cast<uint32_t>((r >> shift) & 7);
      return k < 6 ? k % 3 % sets : static_cast<uint32_t>(rng() % sets);
    };
    return {(r & 7) != 0, set(3), ((r >> 6) & 1) != 0, set(7), rng()};
  }

  uint32_t sets;
  std::vector<uint64_t> rows;
  bool t_read = false, m_read = false;
  uint32_t t_set = 0, m_set = 0;
};

using Board = tb::Scoreboard<TagReadIo::In, TagReadIo::Out>;
namespace models = tb::l1d_tag_read;

template <class Config>
class TagRead : public ::testing::Test {
 protected:
  TagRead()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {
    dut.reset();
    for (const TagReadIo::In& in : io.cosim_preload()) tb::check_cycle(dut, io, board, in);
  }
  static constexpr const char* kMainTest = "EachForwardingPath";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  TagReadIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{21};
};
TYPED_TEST_SUITE(TagRead, models::Configs);

// Set 1 read in cycle 0; written in cycle 0 (its read's cycle), 1 (its T) or 2 (its M), alone
// and in every combination: M must see the newest.
TYPED_TEST(TagRead, EachForwardingPath) {
  for (uint32_t mask = 0; mask < 8; ++mask) {
    const uint32_t set = 1 % this->io.sets;
    for (uint32_t c = 0; c < 3; ++c) {
      TagReadIo::In in;
      in.rd_en = c == 0;
      in.rd_set = set;
      in.wr_en = (mask >> c) & 1;
      in.wr_set = set;
      in.wr_row = 0xA000 + mask * 16 + c;
      tb::check_cycle(this->dut, this->io, this->board, in);
    }
    for (uint32_t c = 0; c < 3; ++c) tb::check_cycle(this->dut, this->io, this->board, {});
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

TYPED_TEST(TagRead, RandomHazardsMatchTheArray) {
  for (uint64_t c = 0; c < kRandomCycles; ++c)
    tb::check_cycle(this->dut, this->io, this->board, this->io.random(this->rng));
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class TagReadNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(TagReadNetlist, models::Configs);

TYPED_TEST(TagReadNetlist, NetlistMatchesRtl) {
  const TagReadIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
