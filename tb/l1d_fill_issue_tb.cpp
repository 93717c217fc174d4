// Testbench of l1d_fill_issue (gen/blocks/l1d_fill_issue.cpp), the staged L1's fill FIFO and
// fill-step cursor, against a model written from docs/l1d-microarchitecture.md 16.2-16.3 (a deque
// of ids and a (position, step) cursor). The environment is the rest of the staged pipe as the
// golden model runs it (golden/l1_staged.cpp): memory responses push entries, stage A takes a step
// when the arbiter lets it (fill has priority, but the test also withholds takes), the step passes
// the pipe registers T and M1 and is decided at M2 three cycles later, where step 0 may wait for
// miss-queue room (rewind to step 0, the fill steps in M1, T and A squashed), the last step pops
// the entry, and a load merging after the cursor passed an entry's last step makes M2 rewind to
// the next one (the next fill step in flight, the oldest of M1, T and A, is not that step).
// Besides every output every cycle: each merged request of each entry is answered exactly once,
// entries in push order, steps in order.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <iostream>
#include <optional>
#include <ostream>
#include <random>
#include <utility>
#include <vector>

#include "l1d_fill_issue_models.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 200'000;
constexpr uint64_t kCosimCycles = 20'000;

struct FillIo {
  struct In {
    bool push = false;
    uint32_t push_entry = 0, count = 0;
    bool take = false, done = false, rewind = false;
    uint32_t rewind_step = 0;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("push {} {} count {} take {} done {} rewind {} {}", in.push, in.push_entry, in.count,
                               in.take, in.done, in.rewind, in.rewind_step);
    }
  };
  // The entry ports are meaningless where the FIFO holds no entry (cursor past its end, empty):
  // there the golden side says kAny and the comparison skips them.
  static constexpr uint32_t kAny = ~0u;
  struct Out {
    bool valid = false;
    uint32_t cursor_entry = 0, step = 0, head = 0;
    bool empty = true;
    bool operator==(const Out& o) const {
      const auto same = [](uint32_t a, uint32_t b) { return a == kAny || b == kAny || a == b; };
      return valid == o.valid && step == o.step && empty == o.empty && same(cursor_entry, o.cursor_entry) &&
             same(head, o.head);
    }
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format("valid {} cursor entry {} step {} head {} empty {}", o.valid, o.cursor_entry, o.step,
                               o.head, o.empty);
    }
  };

  explicit FillIo(const l1d::Config& c) : entries(c.l1.mshr_entries), max_merge(c.l1.mshr_max_merge) {}

  template <class M>
  void drive(M& m, const In& in) const {
    m.push_i = in.push;
    tb::put(m.push_entry_i, in.push_entry);
    tb::put(m.count_i, in.count);
    m.take_i = in.take;
    m.done_i = in.done;
    m.rewind_i = in.rewind;
    tb::put(m.rewind_step_i, in.rewind_step);
  }
  template <class M>
  Out sample(const M& m) const {
    const auto u32 = [](uint64_t v) { return static_cast<uint32_t>(v); };
    return {m.valid_o != 0, u32(tb::get(m.cursor_entry_o)), u32(tb::get(m.step_o)), u32(tb::get(m.head_entry_o)),
            m.empty_o != 0};
  }

  // The contract's cursor.
  Out golden(const In& in) {
    const bool cursor_inside = pos < fifo.size();
    Out o;
    o.empty = fifo.empty();
    o.head = o.empty ? kAny : fifo.front();
    o.cursor_entry = cursor_inside ? fifo[pos] : kAny;
    o.step = step;
    o.valid = cursor_inside && step < in.count;
    const bool last = step + 1 >= in.count;
    if (in.take && o.valid) {
      if (last) ++pos, step = 0;
      else ++step;
    }
    if (in.done) {
      fifo.pop_front();
      --pos;
    } else if (in.rewind) {
      pos = 0, step = in.rewind_step;
    }
    if (in.push) fifo.push_back(in.push_entry);
    return o;
  }

  // The co-simulation's first inputs write every slot of the ring (which has no reset), then one
  // done per push empties it again, so that no output reads a word the two models hold unequal.
  std::vector<In> cosim_preload() const {
    std::vector<In> pre;
    for (uint32_t e = 0; e < entries; ++e) pre.push_back(In{true, e, 1, false, false, false, 0});
    for (uint32_t e = 0; e < entries; ++e) pre.push_back(In{false, 0, 1, true, false, false, 0});
    for (uint32_t e = 0; e < entries; ++e) pre.push_back(In{false, 0, 1, false, true, false, 0});
    return pre;
  }

  // Co-simulation stimulus (RTL against netlist, assertions off: any sequence, both must agree).
  In random(std::mt19937_64& rng) const {
    const uint64_t r = rng();
    In in;
    in.push = (r & 3) == 0;
    in.push_entry = static_cast<uint32_t>((r >> 2) % entries);
    in.count = 1 + static_cast<uint32_t>((r >> 12) % max_merge);
    in.take = ((r >> 20) & 1) != 0;
    in.done = ((r >> 21) & 7) == 0;
    in.rewind = !in.done && ((r >> 24) & 7) == 0;
    in.rewind_step = static_cast<uint32_t>((r >> 27) % max_merge);
    return in;
  }

  uint32_t entries, max_merge;
  std::deque<uint32_t> fifo;
  uint32_t pos = 0, step = 0;
};

using Board = tb::Scoreboard<FillIo::In, FillIo::Out>;
namespace models = tb::l1d_fill_issue;

template <class Config>
class FillIssue : public ::testing::Test {
 protected:
  FillIssue()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {
    dut.reset();
  }
  static constexpr const char* kMainTest = "StepsAnsweredOnceInOrder";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  struct Step {
    uint32_t entry, step;
    bool last = false;  // the entry's last request: it leaves the FIFO
  };
  // The staged pipe around the unit, as golden/l1_staged.cpp runs it.
  void run(uint64_t cycles, uint32_t take_percent, uint32_t fail_percent, uint32_t merge_percent) {
    std::vector<uint32_t> count(io.entries, 0);
    std::deque<uint32_t> free_ids;
    for (uint32_t e = 0; e < io.entries; ++e) free_ids.push_back(e);
    std::vector<uint32_t> waiting;  // entries in flight at memory
    std::optional<Step> t_op, m1_op, m2_op;
    for (uint64_t c = 0; c < cycles; ++c) {
      FillIo::In in;
      // Memory: an entry in flight completes now and then.
      if (!waiting.empty() && rng() % 3 == 0) {
        const size_t k = rng() % waiting.size();
        in.push = true;
        in.push_entry = waiting[k];
        waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(k));
      }
      // S1 opens entries and merges loads into ones not yet answered in full.
      if (!free_ids.empty() && rng() % 4 == 0) {
        waiting.push_back(free_ids.front());
        count[free_ids.front()] = 1;
        free_ids.pop_front();
      }
      if (!io.fifo.empty() && rng() % 100 < merge_percent) {
        const uint32_t e = io.fifo[rng() % io.fifo.size()];
        if (count[e] < io.max_merge) ++count[e], ++merges;
      }
      const bool inside = io.pos < io.fifo.size();
      in.count = inside ? count[io.fifo[io.pos]] : 0;
      in.take = rng() % 100 < take_percent;
      const bool takes = in.take && inside && io.step < in.count;
      const std::optional<Step> a_op = takes ? std::optional<Step>(Step{io.fifo[io.pos], io.step}) : std::nullopt;
      // M2: the step three cycles after A (the golden model's decide for a fill step).
      if (m2_op) {
        const uint32_t head = io.fifo.front();
        EXPECT_EQ(m2_op->entry, head);
        const bool wait = m2_op->step == 0 && rng() % 100 < fail_percent;
        if (wait) {
          in.rewind = true, in.rewind_step = 0, ++waits;
        } else {
          answered.push_back(*m2_op);
          if (m2_op->step + 1 == count[head]) {
            in.done = true;
            answered.back().last = true;
            finished.push_back(head);
            free_ids.push_back(head);
          } else {
            const std::optional<Step>& next = m1_op ? m1_op : t_op ? t_op : a_op;
            const bool in_step = next ? next->entry == head && next->step == m2_op->step + 1
                                      : io.pos == 0 && io.step == m2_op->step + 1;
            if (!in_step) in.rewind = true, in.rewind_step = m2_op->step + 1, ++late_merges;
          }
        }
      }
      if (in.push) pushed.push_back(in.push_entry);
      tb::check_cycle(dut, io, board, in);
      // Squashes: a rewind drops the younger fill steps in M1, T and A.
      m2_op = in.rewind ? std::nullopt : m1_op;
      m1_op = in.rewind ? std::nullopt : t_op;
      t_op = in.rewind ? std::nullopt : a_op;
      in_flight_max = std::max<uint32_t>(in_flight_max, !!m2_op + !!m1_op + !!t_op);
    }
  }

  FillIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{9};
  std::vector<Step> answered;
  std::vector<uint32_t> pushed, finished;
  uint64_t merges = 0, waits = 0, late_merges = 0;
  uint32_t in_flight_max = 0;  // fill steps in T, M1 and M2 at once
};
TYPED_TEST_SUITE(FillIssue, models::Configs);

// Every entry's steps are answered 0, 1, ..., once each; entries finish in push order.
TYPED_TEST(FillIssue, StepsAnsweredOnceInOrder) {
  this->run(kRandomCycles, 80, 10, 20);
  std::vector<uint32_t> next_step(this->io.entries, 0);
  for (const auto& s : this->answered) {
    ASSERT_EQ(s.step, next_step[s.entry]) << "entry " << s.entry;
    next_step[s.entry] = s.last ? 0 : s.step + 1;  // an id is reused after its entry leaves
  }
  ASSERT_LE(this->finished.size(), this->pushed.size());
  for (size_t i = 0; i < this->finished.size(); ++i) ASSERT_EQ(this->finished[i], this->pushed[i]) << i;
  EXPECT_GT(this->finished.size(), 10'000u);
  EXPECT_GT(this->waits, 1'000u);
  EXPECT_GT(this->merges, 1'000u);
  EXPECT_GT(this->late_merges, 10u);
  EXPECT_EQ(this->in_flight_max, 3u);  // the three pipe registers were all used
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class FillIssueNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(FillIssueNetlist, models::Configs);

TYPED_TEST(FillIssueNetlist, NetlistMatchesRtl) {
  FillIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
