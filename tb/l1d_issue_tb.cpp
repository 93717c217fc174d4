// Testbench of l1d_issue (gen/blocks/l1d_issue.cpp), stage A of the staged L1, against a model
// written from docs/l1d-microarchitecture.md 16.2-16.3 (FIFOs as deques, the arbiter's priority
// list, squashes as list operations), independent of the RTL's packed-register form:
// - random traffic with the environment the L1 gives it: an M stage that fails core requests
//   and squashes (failed request first), flush starts, fill bursts and rewinds, flush walks;
//   every output compared every cycle, and the core requests reaching M without failing must be
//   exactly the fired ones in firing order;
// - directed: back-to-back requests at one per cycle; a failure sending three requests back in
//   order; a flush holding A;
// - the netlist co-simulation.
#include <fmt/format.h>

#include <cstdint>
#include <deque>
#include <iostream>
#include <ostream>
#include <random>
#include <vector>

#include "l1d_issue_models.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 200'000;
constexpr uint64_t kCosimCycles = 20'000;
enum Kind : uint32_t { kNone = 0, kCore = 1, kFill = 2, kFlush = 3 };

struct IssueIo {
  struct In {
    bool core_valid = false;
    uint64_t core_req = 0;
    bool fill_valid = false, flush_active = false, flush_valid = false;
    bool squash_core = false, failed_valid = false;
    uint64_t failed_req = 0;
    bool squash_fill = false, squash_flush = false;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format(
                 "core {} {:#x} fill {} flush {}/{} squash core {} failed {} {:#x} fill {} flush {}", in.core_valid,
                 in.core_req, in.fill_valid, in.flush_active, in.flush_valid, in.squash_core, in.failed_valid,
                 in.failed_req, in.squash_fill, in.squash_flush);
    }
  };
  struct Out {
    bool ready = false, fill_take = false, flush_take = false;
    uint32_t a_kind = 0;
    uint64_t a_req = 0;  // compared only for a core pick
    uint32_t t_kind = 0;
    uint64_t t_req = 0;  // compared only for a core T
    bool t_squash = false, stall = false;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format("ready {} take fill {} flush {} A {} {:#x} T {} {:#x} t_squash {} stall {}", o.ready,
                               o.fill_take, o.flush_take, o.a_kind, o.a_req, o.t_kind, o.t_req, o.t_squash, o.stall);
    }
  };

  explicit IssueIo(const l1d::Config&) {}

  template <class M>
  void drive(M& m, const In& in) const {
    m.core_req_valid_i = in.core_valid;
    tb::put(m.core_req_i, in.core_req);
    m.fill_valid_i = in.fill_valid;
    m.flush_active_i = in.flush_active;
    m.flush_valid_i = in.flush_valid;
    m.squash_core_i = in.squash_core;
    m.failed_valid_i = in.failed_valid;
    tb::put(m.failed_req_i, in.failed_req);
    m.squash_fill_i = in.squash_fill;
    m.squash_flush_i = in.squash_flush;
  }
  template <class M>
  Out sample(const M& m) const {
    Out o{m.core_req_ready_o != 0, m.fill_take_o != 0, m.flush_take_o != 0, m.a_kind_o, tb::get(m.a_req_o),
          m.t_kind_o, tb::get(m.t_req_o), m.t_squash_o != 0, m.stall_o != 0};
    if (o.a_kind != kCore) o.a_req = 0;
    if (o.t_kind != kCore) o.t_req = 0;
    return o;
  }

  // The contract's stage A.
  Out golden(const In& in) {
    Out o;
    o.ready = in_fifo.size() < 2;
    const bool blocked = in.fill_valid || in.flush_active;
    o.fill_take = in.fill_valid;
    o.flush_take = !in.fill_valid && in.flush_active && in.flush_valid;
    o.stall = blocked && (!replay.empty() || !in_fifo.empty());
    uint32_t a = kNone;
    uint64_t a_req = 0;
    if (o.fill_take) {
      a = kFill;
    } else if (o.flush_take) {
      a = kFlush;
    } else if (!blocked && !replay.empty()) {
      a = kCore, a_req = replay.front(), replay.pop_front();
    } else if (!blocked && !in_fifo.empty()) {
      a = kCore, a_req = in_fifo.front(), in_fifo.pop_front();
    }
    o.a_kind = a;
    o.a_req = a_req;
    o.t_kind = t_kind;
    o.t_req = t_kind == kCore ? t_req : 0;
    const auto squashed = [&](uint32_t k) {
      return (in.squash_core && k == kCore) || (in.squash_fill && k == kFill) || (in.squash_flush && k == kFlush);
    };
    o.t_squash = squashed(t_kind);
    // The edge.
    if (in.squash_core) {
      std::vector<uint64_t> back;
      if (in.failed_valid) back.push_back(in.failed_req);
      if (t_kind == kCore) back.push_back(t_req);
      if (a == kCore) back.push_back(a_req);
      replay.insert(replay.begin(), back.begin(), back.end());
    }
    if (in.core_valid && o.ready) in_fifo.push_back(in.core_req);
    t_kind = squashed(a) ? kNone : a;
    t_req = a_req;
    return o;
  }

  In random(std::mt19937_64& rng) const {
    const uint64_t r = rng();
    In in;
    in.core_valid = (r & 3) != 0;
    in.core_req = rng();
    in.fill_valid = ((r >> 2) & 7) == 0;
    in.flush_active = ((r >> 5) & 15) == 0;
    in.flush_valid = in.flush_active && ((r >> 9) & 1);
    in.squash_core = ((r >> 10) & 7) == 0;
    in.failed_valid = in.squash_core && ((r >> 13) & 1) && replay.empty();  // within the 3 it can hold
    in.failed_req = rng();
    in.squash_fill = ((r >> 14) & 15) == 0;
    in.squash_flush = ((r >> 18) & 15) == 0;
    return in;
  }

  std::deque<uint64_t> in_fifo, replay;
  uint32_t t_kind = kNone;
  uint64_t t_req = 0;
};

using Board = tb::Scoreboard<IssueIo::In, IssueIo::Out>;
namespace models = tb::l1d_issue;

template <class Config>
class Issue : public ::testing::Test {
 protected:
  Issue()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {
    dut.reset();
  }
  static constexpr const char* kMainTest = "FailureSendsThreeBackInOrder";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  // One cycle with the L1's M stage around the unit: M holds what left T unsquashed last cycle;
  // `fail` fails M's core request (squashing T's and A's behind it). Records what M completes.
  void cycle(IssueIo::In in, bool fail = false) {
    const bool m_core = m_kind == kCore;
    if (fail && m_core) {
      in.squash_core = true;
      in.failed_valid = true;
      in.failed_req = m_req;
    } else if (m_core && !in.failed_valid) {
      completed.push_back(m_req);
    }
    if (in.fill_valid || in.flush_active) ++blocked;
    const uint64_t t_kind = io.t_kind, t_req = io.t_req;
    const bool t_squashed = (in.squash_core && t_kind == kCore) || (in.squash_fill && t_kind == kFill) ||
                            (in.squash_flush && t_kind == kFlush);
    if (in.core_valid && io.in_fifo.size() < 2) fired.push_back(in.core_req);
    tb::check_cycle(dut, io, board, in);
    m_kind = t_squashed ? kNone : static_cast<uint32_t>(t_kind);
    m_req = t_req;
  }
  IssueIo::In request(uint64_t id) {
    IssueIo::In in;
    in.core_valid = true;
    in.core_req = id;
    return in;
  }

  IssueIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{3};
  uint32_t m_kind = kNone;
  uint64_t m_req = 0;
  uint64_t blocked = 0;
  std::vector<uint64_t> fired, completed;
};
TYPED_TEST_SUITE(Issue, models::Configs);

TYPED_TEST(Issue, BackToBackRequestsOnePerCycle) {
  for (uint64_t id = 1; id <= 20; ++id) this->cycle(this->request(id));
  for (int i = 0; i < 5; ++i) this->cycle({});
  EXPECT_EQ(this->completed, this->fired);
  EXPECT_EQ(this->fired.size(), 20u);  // ready never fell
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Requests 1, 2, 3 in M, T, A when 1 fails: all three go back, and reach M again in order.
TYPED_TEST(Issue, FailureSendsThreeBackInOrder) {
  for (uint64_t id = 1; id <= 3; ++id) this->cycle(this->request(id));
  ASSERT_EQ(this->m_kind, static_cast<uint32_t>(kCore));
  this->cycle(this->request(4), /*fail=*/true);
  EXPECT_EQ(this->io.replay.size(), 3u);
  for (int i = 0; i < 8; ++i) this->cycle({});
  EXPECT_EQ(this->completed, (std::vector<uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(this->board.mismatches(), 0U);
}

TYPED_TEST(Issue, FlushHoldsCoreRequestsWithOrWithoutALine) {
  this->cycle(this->request(1));
  IssueIo::In walk;
  walk.flush_active = true;
  for (int i = 0; i < 6; ++i) {
    walk.flush_valid = i < 3;  // the last lines issued: A idles until the walk ends
    this->cycle(walk);
  }
  EXPECT_TRUE(this->completed.empty());
  for (int i = 0; i < 4; ++i) this->cycle({});
  EXPECT_EQ(this->completed, (std::vector<uint64_t>{1}));
  EXPECT_EQ(this->board.mismatches(), 0U);
}

TYPED_TEST(Issue, RandomTrafficKeepsFiringOrder) {
  uint64_t id = 0, failures = 0;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    IssueIo::In in = this->io.random(this->rng);
    in.failed_valid = false;  // M's failures come from `fail`, with M's request
    in.core_req = ++id;
    const bool fail = this->m_kind == kCore && this->rng() % 5 == 0;
    failures += fail;
    this->cycle(in, fail);
  }
  for (int i = 0; i < 20; ++i) this->cycle({});
  EXPECT_EQ(this->completed, this->fired);
  EXPECT_GT(failures, 10'000u);
  EXPECT_GT(this->fired.size(), kRandomCycles / 3);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class IssueNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(IssueNetlist, models::Configs);

TYPED_TEST(IssueNetlist, NetlistMatchesRtl) {
  const IssueIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
