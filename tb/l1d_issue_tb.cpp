// Testbench of l1d_issue (gen/blocks/l1d_issue.cpp), stage A and the T and M1 registers of the
// staged L1, against a model written from docs/l1d-microarchitecture.md 16.2-16.3 (FIFOs as deques,
// the arbiter's priority list, squashes as list operations), independent of the RTL's packed-register
// form:
// - random traffic with the environment the L1 gives it: an M2 stage that fails core requests
//   and squashes (failed request first), flush starts, fill bursts and rewinds, flush walks;
//   every output compared every cycle, and the core requests reaching M2 without failing must be
//   exactly the fired ones in firing order;
// - directed: back-to-back requests at one per cycle; a failure sending four requests back in
//   order; fill squashes of M1, T and A around core requests; a flush holding A;
// - driven by the staged golden::L1 itself, the unit and the model checked against its pipe;
// - the netlist co-simulation.
#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <deque>
#include <iostream>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "golden/l1.h"
#include "golden/l1_testbench.h"
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
    bool t_squash = false;
    uint32_t m1_kind = 0;
    uint64_t m1_req = 0;  // compared only for a core M1
    bool m1_squash = false, stall = false;
    bool empty = true;  // empty_o: both FIFOs, T and M1 hold nothing
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format("ready {} take fill {} flush {} A {} {:#x} T {} {:#x} t_squash {} M1 {} {:#x} "
                               "m1_squash {} stall {} empty {}",
                               o.ready, o.fill_take, o.flush_take, o.a_kind, o.a_req, o.t_kind, o.t_req, o.t_squash,
                               o.m1_kind, o.m1_req, o.m1_squash, o.stall, o.empty);
    }
  };

  explicit IssueIo(const l1d::Config&) {}

  // Contract 16.3: a squash drops the operations of its source.
  static bool squashed(const In& in, uint32_t kind) {
    return (in.squash_core && kind == kCore) || (in.squash_fill && kind == kFill) ||
           (in.squash_flush && kind == kFlush);
  }

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
          m.t_kind_o, tb::get(m.t_req_o), m.t_squash_o != 0, m.m1_kind_o, tb::get(m.m1_req_o),
          m.m1_squash_o != 0, m.stall_o != 0, m.empty_o != 0};
    if (o.a_kind != kCore) o.a_req = 0;
    if (o.t_kind != kCore) o.t_req = 0;
    if (o.m1_kind != kCore) o.m1_req = 0;
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
    o.empty = replay.empty() && in_fifo.empty() && t_kind == kNone && m1_kind == kNone;
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
    const auto squashed = [&](uint32_t k) { return IssueIo::squashed(in, k); };
    o.t_squash = squashed(t_kind);
    o.m1_kind = m1_kind;
    o.m1_req = m1_kind == kCore ? m1_req : 0;
    o.m1_squash = squashed(m1_kind);
    // The edge.
    if (in.squash_core) {
      std::vector<uint64_t> back;
      if (in.failed_valid) back.push_back(in.failed_req);
      if (m1_kind == kCore) back.push_back(m1_req);
      if (t_kind == kCore) back.push_back(t_req);
      if (a == kCore) back.push_back(a_req);
      replay.insert(replay.begin(), back.begin(), back.end());
    }
    if (in.core_valid && o.ready) in_fifo.push_back(in.core_req);
    m1_kind = o.t_squash ? kNone : t_kind;
    m1_req = t_req;
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
    in.failed_valid = in.squash_core && ((r >> 13) & 1) && replay.empty();  // within the 4 it can hold
    in.failed_req = rng();
    in.squash_fill = ((r >> 14) & 15) == 0;
    in.squash_flush = ((r >> 18) & 15) == 0;
    return in;
  }

  std::deque<uint64_t> in_fifo, replay;
  uint32_t t_kind = kNone, m1_kind = kNone;
  uint64_t t_req = 0, m1_req = 0;
};

// golden::L1's staged pipe as describe_state() prints it (golden/l1.cpp): the kinds in T, M1 and
// M2 (golden's Op::Kind numbers them as the unit does), the FIFOs' sizes and the issue cursors.
struct GoldenPipe {
  uint32_t t = kNone, m1 = kNone, m2 = kNone;
  size_t core_fifo = 0, replay = 0, fill_fifo = 0, fill_pos = 0;
  bool flushing = false;
  uint32_t flush_cursor = 0;
  bool operator==(const GoldenPipe&) const = default;
  std::string str() const {
    return fmt::format("T {} M1 {} M2 {} core FIFO {} replay FIFO {}", t, m1, m2, core_fifo, replay);
  }
  static GoldenPipe read(const l1d::golden::L1& l1) {
    const std::string s = l1.describe_state();
    GoldenPipe g;
    unsigned t = 0, m1 = 0, m2 = 0, step = 0;
    size_t fifo = s.find("fill FIFO: "), pipe = s.find("staged pipe: ");
    if (fifo == std::string::npos || pipe == std::string::npos ||
        std::sscanf(s.c_str() + fifo, "fill FIFO: %zu", &g.fill_fifo) != 1 ||
        std::sscanf(s.c_str() + pipe,
                    "staged pipe: T %u M1 %u M2 %u, core FIFO %zu, replay FIFO %zu, fill cursor (%zu, %u), "
                    "flush cursor %u",
                    &t, &m1, &m2, &g.core_fifo, &g.replay, &g.fill_pos, &step, &g.flush_cursor) != 8)
      throw std::runtime_error("golden::L1::describe_state() no longer prints the staged pipe as parsed here:\n" + s);
    g.t = t, g.m1 = m1, g.m2 = m2;
    g.flushing = s.compare(s.find('\n', fifo) - 10, 10, ", flushing") == 0;
    return g;
  }
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
  static constexpr const char* kMainTest = "FailureSendsFourBackInOrder";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  // One cycle with the L1's M2 stage around the unit: M2 holds what left M1 unsquashed last cycle;
  // `fail` fails M2's core request (squashing M1's, T's and A's behind it). Records what M2
  // completes.
  void cycle(IssueIo::In in, bool fail = false) {
    const bool m2_core = m2_kind == kCore;
    if (fail && m2_core) {
      in.squash_core = true;
      in.failed_valid = true;
      in.failed_req = m2_req;
    } else if (m2_core && !in.failed_valid) {
      completed.push_back(m2_req);
    }
    if (in.core_valid && io.in_fifo.size() < 2) fired.push_back(in.core_req);
    step(in);
  }
  // The unit's cycle: every output against the model, then the clock edge (M2 takes M1's operation).
  IssueIo::Out step(const IssueIo::In& in) {
    const uint32_t m1_kind = io.m1_kind;
    const uint64_t m1_req = io.m1_req;
    io.drive(*dut, in);
    dut.settle();
    const IssueIo::Out rtl = io.sample(*dut);
    board.check(dut.cycles(), in, io.golden(in), rtl);
    dut.tick();
    m2_kind = IssueIo::squashed(in, m1_kind) ? kNone : m1_kind;
    m2_req = m1_req;
    return rtl;
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
  uint32_t m2_kind = kNone;
  uint64_t m2_req = 0;
  std::vector<uint64_t> fired, completed;
};
TYPED_TEST_SUITE(Issue, models::Configs);

TYPED_TEST(Issue, BackToBackRequestsOnePerCycle) {
  for (uint64_t id = 1; id <= 20; ++id) this->cycle(this->request(id));
  for (int i = 0; i < 6; ++i) this->cycle({});
  EXPECT_EQ(this->completed, this->fired);
  EXPECT_EQ(this->fired.size(), 20u);  // ready never fell
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Requests 1, 2, 3, 4 in M2, M1, T, A when 1 fails: all four go back, and reach M2 again in order.
TYPED_TEST(Issue, FailureSendsFourBackInOrder) {
  for (uint64_t id = 1; id <= 4; ++id) this->cycle(this->request(id));
  ASSERT_EQ(this->m2_kind, static_cast<uint32_t>(kCore));
  this->cycle(this->request(5), /*fail=*/true);
  EXPECT_EQ(this->io.replay.size(), 4u);
  for (int i = 0; i < 10; ++i) this->cycle({});
  EXPECT_EQ(this->completed, (std::vector<uint64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// A fill step that waits at M2 drops the fill steps in M1, T and A, and only those: the core
// requests taken between fill steps go on.
TYPED_TEST(Issue, FillSquashCoversM1TAndA) {
  IssueIo::In fill;
  fill.fill_valid = true;
  for (int i = 0; i < 3; ++i) this->cycle(fill);  // fill steps in M2, M1, T
  IssueIo::In wait = fill;
  wait.squash_fill = true;
  this->cycle(wait);
  EXPECT_EQ(this->io.t_kind, static_cast<uint32_t>(kNone));
  EXPECT_EQ(this->io.m1_kind, static_cast<uint32_t>(kNone));
  EXPECT_EQ(this->m2_kind, static_cast<uint32_t>(kNone));
  // Fill step, core 1, core 2 taken in turn; the fill step waits at M2 while A takes another.
  this->cycle(this->request(1));
  IssueIo::In fill_and_2 = fill;
  fill_and_2.core_valid = true, fill_and_2.core_req = 2;
  this->cycle(fill_and_2);  // A: fill step
  this->cycle({});          // A: core 1
  this->cycle({});          // A: core 2
  ASSERT_EQ(this->m2_kind, static_cast<uint32_t>(kFill));
  this->cycle(wait);
  EXPECT_EQ(this->io.t_kind, static_cast<uint32_t>(kNone));  // A's fill step dropped
  EXPECT_EQ(this->io.m1_kind, static_cast<uint32_t>(kCore));
  EXPECT_EQ(this->m2_kind, static_cast<uint32_t>(kCore));
  for (int i = 0; i < 4; ++i) this->cycle({});
  EXPECT_EQ(this->completed, (std::vector<uint64_t>{1, 2}));
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
  for (int i = 0; i < 5; ++i) this->cycle({});
  EXPECT_EQ(this->completed, (std::vector<uint64_t>{1}));
  EXPECT_EQ(this->board.mismatches(), 0U);
}

TYPED_TEST(Issue, RandomTrafficKeepsFiringOrder) {
  uint64_t id = 0, failures = 0, full_replays = 0;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    IssueIo::In in = this->io.random(this->rng);
    in.failed_valid = false;  // M2's failures come from `fail`, with M2's request
    in.core_req = ++id;
    const bool fail = this->m2_kind == kCore && this->rng() % 5 == 0;
    failures += fail;
    this->cycle(in, fail);
    full_replays += this->io.replay.size() == 4;
  }
  for (int i = 0; i < 20; ++i) this->cycle({});
  EXPECT_EQ(this->completed, this->fired);
  EXPECT_GT(failures, 10'000u);
  EXPECT_GT(full_replays, 100u);  // the fourth entry is used
  // A failure every fifth core request at M2 costs the four cycles of A, T, M1 and M2.
  EXPECT_GT(this->fired.size(), kRandomCycles / 4);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// golden::L1 (l1.pipeline staged, golden/l1_staged.cpp) drives the unit: its arbiter's inputs come
// from golden's state at the start of each cycle (fill cursor inside the fill FIFO, flush running,
// lines left), its squashes from what golden's edge removed from M1, T and A, a failure from its
// reservation-failure counters. The unit (checked against the fixture's model every cycle) must
// then hold what golden holds after every edge: the kinds in T, M1 and M2, the replay and input
// FIFOs' sizes; present golden's core_req_ready; stall exactly when golden counts s1_stall_cycles;
// and a response golden presents three cycles after a core request was at M2 is that request's.
// golden's pipe is read from describe_state(), its only window on the staged pipe's state.
TYPED_TEST(Issue, FollowsTheStagedGoldenL1) {
  using namespace l1d::golden;
  l1d::Config cfg = tb::load_config<TypeParam>();
  cfg.l1.pipeline = l1d::L1Pipeline::kStaged;
  const uint32_t lines = cfg.l1.sets() * cfg.l1.ways;
  L1Testbench golden(cfg, MemoryModel{20, 300, 30}, 5);
  GoldenPipe pre;
  L1Counters before;
  std::deque<std::pair<uint32_t, uint64_t>> m2_history;  // (kind, request) at M2, last three cycles
  uint64_t differences = 0, failures = 0, flush_cycles = 0, fill_cycles = 0, responses = 0;
  const auto differ = [&](uint64_t cycle, const std::string& what) {
    if (++differences <= 5) ADD_FAILURE() << "cycle " << cycle << ": " << what;
  };
  golden.on_cycle = [&](uint64_t cycle, L1Inputs& in) {
    if (cycle % 3000 == 2999) in.kernel_end = true;  // a kernel-end flush now and then
    pre = GoldenPipe::read(golden.l1());
    before = golden.l1().counters();
  };
  golden.on_step = [&](uint64_t cycle, const L1Inputs& in, const L1Outputs& out) {
    const GoldenPipe post = GoldenPipe::read(golden.l1());
    const L1Counters& now = golden.l1().counters();
    uint64_t res_fail = 0;
    for (size_t k = 0; k < std::size(now.res_fail); ++k) res_fail += now.res_fail[k] - before.res_fail[k];
    IssueIo::In u;
    u.core_valid = in.core_req_valid;
    u.core_req = in.core_req.id;
    u.fill_valid = pre.fill_pos < pre.fill_fifo;
    u.flush_active = pre.flushing;
    u.flush_valid = pre.flushing && pre.flush_cursor < lines;
    const bool core_pick = !u.fill_valid && !u.flush_active && pre.replay + pre.core_fifo > 0;
    const uint32_t a = u.fill_valid ? kFill : u.flush_valid ? kFlush : core_pick ? kCore : kNone;
    const auto dropped = [&](uint32_t kind) {
      return (pre.m1 == kind && post.m2 == kNone) || (pre.t == kind && post.m1 == kNone) ||
             (a == kind && post.t == kNone);
    };
    u.failed_valid = res_fail > 0;
    u.failed_req = this->m2_req;
    u.squash_core = u.failed_valid || dropped(kCore);
    u.squash_fill = dropped(kFill);
    u.squash_flush = dropped(kFlush);
    if (u.failed_valid && this->m2_kind != kCore) differ(cycle, "a reservation failure without a core request at M2");
    failures += u.failed_valid;
    fill_cycles += a == kFill;
    flush_cycles += a == kFlush;
    if (out.core_resp_valid && m2_history.size() == 3 && m2_history.front().first == kCore) {
      ++responses;
      if (out.core_resp.id != m2_history.front().second)
        differ(cycle, fmt::format("response {} presented, the request at M2 three cycles ago was {}",
                                  out.core_resp.id, m2_history.front().second));
    }
    m2_history.emplace_back(this->m2_kind, this->m2_req);
    if (m2_history.size() > 3) m2_history.pop_front();
    const IssueIo::Out rtl = this->step(u);
    if (rtl.ready != out.core_req_ready) differ(cycle, fmt::format("core_req_ready: golden {}", out.core_req_ready));
    if (rtl.stall != (now.s1_stall_cycles != before.s1_stall_cycles))
      differ(cycle, fmt::format("stall_o {}, golden's s1_stall_cycles {} -> {}", rtl.stall, before.s1_stall_cycles,
                                now.s1_stall_cycles));
    const GoldenPipe unit{this->io.t_kind, this->io.m1_kind, this->m2_kind, this->io.in_fifo.size(),
                          this->io.replay.size(), post.fill_fifo, post.fill_pos, post.flushing, post.flush_cursor};
    if (!(unit == post)) differ(cycle, fmt::format("after the edge: unit {}, golden {}", unit.str(), post.str()));
  };
  const TestbenchResult r = golden.run(make_stream("mixed", cfg), 5'000);
  EXPECT_TRUE(r.drained);
  EXPECT_EQ(differences, 0u);
  EXPECT_GT(failures, 1'000u);
  EXPECT_GT(fill_cycles, 1'000u);
  EXPECT_GT(flush_cycles, 500u);
  EXPECT_GT(responses, 1'000u);
  std::cout << "[ golden   ] " << r.cycles << " cycles, " << failures << " failures at M2, " << fill_cycles
            << " fill and " << flush_cycles << " flush picks, " << responses << " responses of core requests\n";
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
