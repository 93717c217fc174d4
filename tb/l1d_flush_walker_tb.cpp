// Testbench of l1d_flush_walker (gen/blocks/l1d_flush_walker.cpp), the staged L1's flush walk
// cursor, against a model written from docs/l1d-microarchitecture.md 16.2-16.3, in the staged
// pipe's environment as golden/l1_staged.cpp runs it: stage A takes a line when it is offered
// (fills may hold A), the line passes the pipe registers T and M1 and is decided at M2 three cycles
// later, a visit may wait for miss-queue room (M2 rewinds the cursor to it and the younger visits in
// M1, T and A are squashed), the last line's completion ends the walk, and walks start again
// (kernel end, granularity switch: the visits in M1, T and A squashed) or are cancelled.
// Besides every output every cycle: each walk completes the lines 0 .. Lines-1 once each, in order.
#include <fmt/format.h>

#include <cstdint>
#include <iostream>
#include <optional>
#include <ostream>
#include <random>
#include <vector>

#include "l1d_flush_walker_models.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 200'000;
constexpr uint64_t kCosimCycles = 20'000;

struct WalkerIo {
  struct In {
    bool start = false, cancel = false, take = false, rewind = false;
    uint32_t rewind_line = 0;
    bool finish = false;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("start {} cancel {} take {} rewind {} {} finish {}", in.start, in.cancel, in.take,
                               in.rewind, in.rewind_line, in.finish);
    }
  };
  struct Out {
    bool active = false, valid = false;
    uint32_t line = 0;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format("active {} valid {} line {}", o.active, o.valid, o.line);
    }
  };

  explicit WalkerIo(const l1d::Config& c) : lines(c.l1.sets() * c.l1.ways) {}

  template <class M>
  void drive(M& m, const In& in) const {
    m.start_i = in.start;
    m.cancel_i = in.cancel;
    m.take_i = in.take;
    m.rewind_i = in.rewind;
    tb::put(m.rewind_line_i, in.rewind_line);
    m.finish_i = in.finish;
  }
  template <class M>
  Out sample(const M& m) const {
    return {m.active_o != 0, m.valid_o != 0, static_cast<uint32_t>(tb::get(m.line_o))};
  }
  Out golden(const In& in) {
    const Out o{active, active && cursor < lines, cursor};
    if (in.take && o.valid) ++cursor;
    if (in.rewind) cursor = in.rewind_line;
    if (in.finish) active = false;
    if (in.start) active = true, cursor = 0;
    if (in.cancel) active = false;  // the kernel-end event, applied after the cycle's start
    return o;
  }
  In random(std::mt19937_64& rng) const {
    const uint64_t r = rng();
    return {(r & 63) == 0, ((r >> 6) & 63) == 0, ((r >> 12) & 3) != 0, ((r >> 14) & 7) == 0,
            static_cast<uint32_t>((r >> 17) % lines), ((r >> 40) & 31) == 0};
  }

  uint32_t lines;
  bool active = false;
  uint32_t cursor = 0;
};

using Board = tb::Scoreboard<WalkerIo::In, WalkerIo::Out>;
namespace models = tb::l1d_flush_walker;

template <class Config>
class FlushWalker : public ::testing::Test {
 protected:
  FlushWalker()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {
    dut.reset();
  }
  static constexpr const char* kMainTest = "WalksVisitEveryLineOnceInOrder";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  WalkerIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{13};
};
TYPED_TEST_SUITE(FlushWalker, models::Configs);

TYPED_TEST(FlushWalker, WalksVisitEveryLineOnceInOrder) {
  auto& gen = this->rng;
  const uint32_t lines = this->io.lines;
  std::optional<uint32_t> t_line, m1_line, m2_line;
  uint32_t expect = 0;  // the line the current walk completes next
  uint64_t walks_done = 0, restarts = 0, waits = 0, visits = 0, full_pipe = 0;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    WalkerIo::In in;
    const bool offered = this->io.active && this->io.cursor < lines;
    in.take = gen() % 4 != 0;  // a fill step holds A now and then
    const std::optional<uint32_t> a_line =
        in.take && offered ? std::optional<uint32_t>(this->io.cursor) : std::nullopt;
    if (m2_line) {
      ASSERT_EQ(*m2_line, expect) << "cycle " << c;
      if (gen() % 8 == 0) {
        in.rewind = true, in.rewind_line = *m2_line, ++waits;
      } else {
        ++expect, ++visits;
        if (*m2_line + 1 == lines) in.finish = true, ++walks_done;
      }
    }
    // A walk starts now and then (kernel end, granularity switch), also over a running one.
    if (gen() % 2000 == 0 || (!this->io.active && gen() % 50 == 0)) in.start = true, ++restarts;
    tb::check_cycle(this->dut, this->io, this->board, in);
    const bool squash = in.rewind || in.start;
    m2_line = squash ? std::nullopt : m1_line;
    m1_line = squash ? std::nullopt : t_line;
    t_line = squash ? std::nullopt : a_line;
    full_pipe += m2_line && m1_line && t_line;
    if (in.start) expect = 0;
  }
  EXPECT_GT(walks_done, 50u);
  EXPECT_GT(waits, 1000u);
  EXPECT_GT(restarts, walks_done);
  EXPECT_GT(full_pipe, 1000u);  // visits in T, M1 and M2 at once
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// A kernel end without dirty state cancels a running walk.
TYPED_TEST(FlushWalker, CancelStopsAWalk) {
  WalkerIo::In start;
  start.start = true;
  tb::check_cycle(this->dut, this->io, this->board, start);
  WalkerIo::In take;
  take.take = true;
  for (int i = 0; i < 3; ++i) tb::check_cycle(this->dut, this->io, this->board, take);
  WalkerIo::In cancel;
  cancel.cancel = true;
  tb::check_cycle(this->dut, this->io, this->board, cancel);
  tb::check_cycle(this->dut, this->io, this->board, take);
  EXPECT_FALSE(this->io.active);
  // A granularity walk starting in the kernel-end cycle is cancelled too (the event comes last).
  WalkerIo::In both = start;
  both.cancel = true;
  tb::check_cycle(this->dut, this->io, this->board, both);
  tb::check_cycle(this->dut, this->io, this->board, take);
  EXPECT_FALSE(this->io.active);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class FlushWalkerNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(FlushWalkerNetlist, models::Configs);

TYPED_TEST(FlushWalkerNetlist, NetlistMatchesRtl) {
  const WalkerIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
