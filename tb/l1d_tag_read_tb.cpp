// Testbench of l1d_tag_read (gen/blocks/l1d_tag_read.cpp), stage T of the staged L1, against a
// plain array written at the clock edge: the rows stages M1 and M2 see for sets read at A two and
// three cycles earlier must be the array after every earlier write, with this cycle's write of the
// set on top (docs/l1d-microarchitecture.md 16.5: same-set hazards are forwarded, never replayed;
// at M2 this cycle's write is the one of the operation decided just before, the whole-row mux,
// which the block takes a cycle early from m2_new_row_i: the inputs keep the top's contract, C
// writes the row M2 left to M2's set or leaves that set alone, TagReadIo::legal). Writes go mostly
// to a few sets, so that the writes of the read's cycle, of its T, M1 and M2 cycles hit the set
// being read, alone and together; every set is written once first (an SRAM word has no reset
// value). Also the netlist co-simulation (any inputs).
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
    bool m2_valid = false;  // M2 holds an operation; m2_new_row: its row as it leaves it
    uint64_t m2_new_row = 0;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("rd {} set {} wr {} set {} row {:#x} m2 {} new {:#x}", in.rd_en, in.rd_set, in.wr_en,
                               in.wr_set, in.wr_row, in.m2_valid, in.m2_new_row);
    }
  };
  // A stage's outputs mean something only for an enabled read two (M1) or three (M2) cycles ago:
  // elsewhere the golden side says `any` and the comparison skips them.
  struct Stage {
    bool any = false;
    uint32_t set = 0;
    uint64_t row = 0;
    bool operator==(const Stage& o) const { return any || o.any || (set == o.set && row == o.row); }
  };
  struct Out {
    Stage m1, m2;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      const auto show = [](const Stage& s, const char* name) {
        return s.any ? fmt::format("(no read at {})", name) : fmt::format("{} set {} row {:#x}", name, s.set, s.row);
      };
      return os << show(o.m1, "M1") << ", " << show(o.m2, "M2");
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
    m.m2_valid_i = in.m2_valid;
    tb::put(m.m2_new_row_i, in.m2_new_row);
  }
  template <class M>
  Out sample(const M& m) const {
    return {{false, static_cast<uint32_t>(tb::get(m.m1_set_o)), tb::get(m.m1_row_o)},
            {false, static_cast<uint32_t>(tb::get(m.m2_set_o)), tb::get(m.m2_row_o)}};
  }
  Out golden(const In& in) {
    const auto stage = [&](bool read, uint32_t set) {
      return Stage{!read, set, read ? (in.wr_en && in.wr_set == set ? in.wr_row : rows[set]) : 0};
    };
    const Out o{stage(m1_read, m1_set), stage(m2_read, m2_set)};
    m1_forwards += m1_read && in.wr_en && in.wr_set == m1_set;
    m2_forwards += m2_read && in.wr_en && in.wr_set == m2_set;
    m2_read = m1_read, m2_set = m1_set;
    m1_read = t_read, m1_set = t_set;
    t_read = in.rd_en, t_set = in.rd_set;
    if (in.wr_en) rows[in.wr_set] = in.wr_row;
    return o;
  }
  // Every set written once, then four reads to fill T, M1 and M2: afterwards no output holds a word
  // nobody wrote (an SRAM word and the pipe registers have no reset value).
  std::vector<In> cosim_preload() const {
    std::vector<In> pre;
    for (uint32_t s = 0; s < sets; ++s) pre.push_back({false, 0, true, s, 0x5eed0000ull + s});
    for (int i = 0; i < 4; ++i) pre.push_back({true, 0, false, 0, 0});
    return pre;
  }
  // Reads and writes mostly of sets 0-2 (hazards), now and then any set; M2 valid 3 cycles in 4.
  In random(std::mt19937_64& rng) const {
    const uint64_t r = rng();
    const auto set = [&](unsigned shift) {
      const uint32_t k = static_cast<uint32_t>((r >> shift) & 7);
      return k < 6 ? k % 3 % sets : static_cast<uint32_t>(rng() % sets);
    };
    return {(r & 7) != 0, set(3), ((r >> 6) & 1) != 0, set(7), rng(), ((r >> 10) & 3) != 0, rng()};
  }
  // `in` made to keep the staged top's contract (call before the cycle's check, which advances the
  // golden side): m2_valid only while M2 holds a read; the cycle after it, C writes the row M2 left
  // (m2_writes) to M2's set, or writes nothing to that set, and then M2's new row is the row the set
  // holds (this cycle's write on the array); the set M2 holds is written by no other write.
  In legal(In in, bool m2_writes) {
    if (pend_valid && pend_write) {
      in.wr_en = true, in.wr_set = pend_set, in.wr_row = pend_row;
    } else if (in.wr_en && ((pend_valid && in.wr_set == pend_set) || (m2_read && in.wr_set == m2_set))) {
      in.wr_en = false;
    }
    in.m2_valid = in.m2_valid && m2_read;
    if (in.m2_valid && !m2_writes) in.m2_new_row = in.wr_en && in.wr_set == m2_set ? in.wr_row : rows[m2_set];
    pend_valid = in.m2_valid, pend_write = m2_writes, pend_set = m2_set, pend_row = in.m2_new_row;
    return in;
  }

  uint32_t sets;
  std::vector<uint64_t> rows;
  bool t_read = false, m1_read = false, m2_read = false;
  uint32_t t_set = 0, m1_set = 0, m2_set = 0;
  bool pend_valid = false, pend_write = false;  // legal(): M2's row of the cycle before
  uint32_t pend_set = 0;
  uint64_t pend_row = 0;
  uint64_t m1_forwards = 0, m2_forwards = 0;  // cycles whose write M1's / M2's row must take
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

// Set 1 read in cycle 0; written in cycle 0 (its read's cycle), 1 (its T), 2 (its M1) or 3 (its
// M2), alone and in every combination: M1 must see the newest of the first three, M2 the newest
// of all four. As in the top, each write is C's of an operation of the written set, read in
// cycles -4 to -1 and at M2 in cycles -1 to 2 (m2_new_row_i; those that write nothing give the
// row as it is; without a write in cycle 3, M2 holds no operation in cycle 2, so the row set 1
// takes into M2 is M1's, with the write of its M1 cycle). Then the same with a decoy: the other set written in those cycles changes nothing.
TYPED_TEST(TagRead, EachForwardingPath) {
  for (uint32_t mask = 0; mask < 32; ++mask) {
    const uint32_t set = 1 % this->io.sets;
    const uint32_t wr_set = mask >= 16 && this->io.sets > 1 ? 2 % this->io.sets : set;
    for (int c = -4; c < 4; ++c) {
      const auto next = static_cast<uint32_t>(c + 1);  // the cycle C writes what M2 decides now
      TagReadIo::In in;
      in.rd_en = c <= 0;
      in.rd_set = c < 0 ? wr_set : set;
      in.m2_valid = c >= -1 && c < 3 && (c < 2 || ((mask >> 3) & 1));  // no write at 3: M2 empty at 2
      in.m2_new_row = 0xA000 + mask * 16 + next;
      tb::check_cycle(this->dut, this->io, this->board,
                      this->io.legal(in, next < 4 && ((mask >> next) & 1)));
    }
    for (uint32_t c = 0; c < 4; ++c) tb::check_cycle(this->dut, this->io, this->board, this->io.legal({}, false));
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

TYPED_TEST(TagRead, RandomHazardsMatchTheArray) {
  for (uint64_t c = 0; c < kRandomCycles; ++c)
    tb::check_cycle(this->dut, this->io, this->board,
                    this->io.legal(this->io.random(this->rng), (this->rng() & 1) != 0));
  EXPECT_GT(this->io.m1_forwards, kRandomCycles / 20);
  EXPECT_GT(this->io.m2_forwards, kRandomCycles / 20);
  std::cout << "[ hazards  ] " << this->io.m1_forwards << " writes forwarded at M1, " << this->io.m2_forwards
            << " at M2\n";
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
