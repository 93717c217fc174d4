// Testbench of l1d_miss_queue (gen/blocks/l1d_miss_queue.cpp), the staged L1's miss queue,
// against a model written from docs/l1d-microarchitecture.md 16.4 the way golden::L1 keeps its
// queue (golden/l1_staged.cpp): a deque of requests with the cycle each becomes presentable,
// max(m + 3 + k, last + 1), stamped when M decides them; the head is offered from its cycle on
// and leaves when it fires. The RTL gets the same requests two cycles later, at stage D, as
// l1d_top's pipe hands them over. Independent of the RTL's one-reveal-per-edge form.
// - directed: one request (offered at m + 3); a full batch (one per cycle from m + 3); two
//   batches back to back (the second waits for the first); a head held under backpressure;
// - random batches with random memory backpressure in phases (long stalls, free flow), M's room
//   check on the RTL's count_o as l1d_top's would be: every output compared every cycle, and the
//   requests taken by memory must be exactly the queued ones, in order;
// - driven by golden::L1 itself (l1.pipeline staged) on a request stream: each cycle's growth of
//   its miss queue is M's batch; the unit must offer golden's head in exactly golden's cycles;
// - the netlist co-simulation.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <iostream>
#include <ostream>
#include <random>
#include <vector>

#include "golden/l1.h"
#include "golden/l1_testbench.h"
#include "l1d_miss_queue_models.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 150'000;
// The late field (the generator's LateLsb / LateBits defaults): bits [0, 8) of each request reach
// the unit a cycle after the rest, on r_late_i; d_req_i carries junk there (l1d_top: a write-back's
// data words out of the write-back buffer).
constexpr uint64_t kLateMask = 0xff;
constexpr uint64_t kCosimCycles = 20'000;

// The generator's Batch (gen/blocks/l1d_miss_queue.cpp, max_batch): 9 requests for a miss that
// reserves its line in a write-back cache, else 5.
unsigned batch_of(const l1d::Config& c) {
  return c.l1.allocation == l1d::AllocationPolicy::kOnMiss && c.l1.write_policy == l1d::WritePolicy::kWriteBack ? 9
                                                                                                                  : 5;
}

struct MissQueueIo {
  struct In {
    uint32_t m_count = 0;              // M decides this many requests
    std::vector<uint64_t> m_reqs;      // ... these (the model stamps them now; the RTL sees them at D)
    std::vector<uint64_t> d_lanes;     // d_req_i: the batch M decided two cycles ago, junk beyond it
    std::vector<uint64_t> r_lanes;     // r_late_i: last cycle's d_lanes (their late bits)
    bool ready = false;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      os << fmt::format("m_count {} ready {} d_req", in.m_count, in.ready);
      for (uint64_t r : in.d_lanes) os << fmt::format(" {:#x}", r);
      return os;
    }
  };
  struct Out {
    bool valid = false;
    uint64_t req = 0;  // compared only when valid
    uint32_t count = 0;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format("valid {} req {:#x} count {}", o.valid, o.req, o.count);
    }
  };

  explicit MissQueueIo(const l1d::Config& c) : entries(c.l1.miss_queue_entries), batch(batch_of(c)) {}

  template <class M>
  void drive(M& m, const In& in) const {
    m.m_count_i = static_cast<uint8_t>(in.m_count);
    for (unsigned k = 0; k < batch; ++k) {  // 64-bit lanes: two words of the wide port each
      const uint64_t v = k < in.d_lanes.size() ? in.d_lanes[k] : 0;
      const uint64_t junk = v ^ kLateMask;  // the late bits at D are ignored
      m.d_req_i[2 * k] = static_cast<uint32_t>(junk);
      m.d_req_i[2 * k + 1] = static_cast<uint32_t>(junk >> 32);
    }
    for (unsigned k = 0; k < batch; ++k)  // 8 late bits a lane
      tb::put(m.r_late_i, (k < in.r_lanes.size() ? in.r_lanes[k] : 0) & kLateMask, 8 * k, 8);
    m.mem_req_ready_i = in.ready;
  }
  template <class M>
  Out sample(const M& m) const {
    Out o{m.mem_req_valid_o != 0, tb::get(m.mem_req_o), static_cast<uint32_t>(m.count_o)};
    if (!o.valid) o.req = 0;
    return o;
  }

  // Contract 16.4, as golden::L1::step_staged keeps it.
  Out golden(const In& in) {
    Out o;
    o.valid = !queue.empty() && queue.front().visible <= now;
    o.req = o.valid ? queue.front().req : 0;
    o.count = static_cast<uint32_t>(queue.size());
    for (uint32_t k = 0; k < in.m_count; ++k) {
      last_visible = std::max(now + 3 + k, last_visible + 1);
      queue.push_back({in.m_reqs[k], last_visible, now + 2});
    }
    if (o.valid && in.ready) {
      taken.push_back(queue.front().req);
      queue.pop_front();
    }
    ++now;
    return o;
  }

  // Co-simulation inputs: batches and ready at random (both models get the same, legal or not);
  // cosim_preload() has written every ring entry first, so no output depends on an unwritten flop.
  In random(std::mt19937_64& rng) const {
    In in;
    const uint64_t r = rng();
    in.m_count = (r & 3) == 0 ? static_cast<uint32_t>((r >> 2) % (batch + 1)) : 0;
    for (unsigned k = 0; k < batch; ++k) in.d_lanes.push_back(rng());
    for (unsigned k = 0; k < batch; ++k) in.r_lanes.push_back(rng());
    in.ready = ((r >> 8) & 3) != 0;
    return in;
  }
  // Batches that fill the queue, memory not ready, and two cycles more for the last to reach D:
  // every ring entry written once.
  std::vector<In> cosim_preload() const {
    std::vector<In> pre;
    for (uint32_t written = 0; written < entries; written += batch) {
      In in;
      in.m_count = std::min(batch, entries - written);
      pre.push_back(in);
    }
    pre.resize(pre.size() + 2);
    for (size_t c = 2; c < pre.size(); ++c)
      for (unsigned k = 0; k < batch; ++k) pre[c].d_lanes.push_back(0x5eed000000ull + (c - 2) * batch + k);
    return pre;
  }

  struct Queued {
    uint64_t req, visible;
    uint64_t at_d;  // the cycle it reaches stage D (statistics: a staging buffer's occupancy)
  };
  uint32_t entries, batch;
  std::deque<Queued> queue;
  uint64_t now = 0, last_visible = 0;
  std::vector<uint64_t> taken;  // what memory took, in order
};

using Board = tb::Scoreboard<MissQueueIo::In, MissQueueIo::Out>;
namespace models = tb::l1d_miss_queue;

template <class Config>
class MissQueue : public ::testing::Test {
 protected:
  MissQueue()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {
    dut.reset();
  }
  static constexpr const char* kMainTest = "BatchOnePerCycle";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  // One cycle: M decides n requests (fresh ids, random upper bits), memory is `ready`. Returns
  // the RTL's outputs of the cycle.
  MissQueueIo::Out cycle(uint32_t n, bool ready) {
    MissQueueIo::In in;
    in.m_count = n;
    for (uint32_t k = 0; k < n; ++k) in.m_reqs.push_back((rng() << 24) | (++id & 0xffffff));
    in.d_lanes = decided.size() == 2 ? decided.front() : std::vector<uint64_t>{};
    while (in.d_lanes.size() < io.batch) in.d_lanes.push_back(rng() | 0xbad);  // lanes beyond the batch: junk
    in.r_lanes = last_lanes;
    last_lanes = in.d_lanes;
    in.ready = ready;
    queued.insert(queued.end(), in.m_reqs.begin(), in.m_reqs.end());
    io.drive(*dut, in);
    dut.settle();
    const MissQueueIo::Out out = io.sample(*dut);
    board.check(dut.cycles(), in, io.golden(in), out);
    dut.tick();
    decided.push_back(in.m_reqs);
    if (decided.size() > 2) decided.pop_front();
    return out;
  }
  // What M's room check allows now: the RTL's registered count, as l1d_top's M would read it.
  uint32_t room() const { return io.entries - static_cast<uint32_t>((*dut).count_o); }

  MissQueueIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{11};
  uint64_t id = 0;
  std::deque<std::vector<uint64_t>> decided;  // the batches of the last two cycles, oldest first
  std::vector<uint64_t> last_lanes;           // last cycle's d_lanes, whose late bits come now
  std::vector<uint64_t> queued;               // every request M queued, in order
};
TYPED_TEST_SUITE(MissQueue, models::Configs);

TYPED_TEST(MissQueue, OneRequestOfferedAtMPlus3) {
  this->cycle(0, true);
  std::vector<bool> valid;
  valid.push_back(this->cycle(1, true).valid);  // cycle m
  for (int i = 0; i < 5; ++i) valid.push_back(this->cycle(0, true).valid);
  EXPECT_EQ(valid, (std::vector<bool>{false, false, false, true, false, false}));
  EXPECT_EQ(this->io.taken, this->queued);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// A whole batch at m, memory always ready: request k is taken in cycle m + 3 + k.
TYPED_TEST(MissQueue, BatchOnePerCycle) {
  const uint32_t n = std::min(this->io.batch, this->io.entries);
  std::vector<bool> valid;
  valid.push_back(this->cycle(n, true).valid);
  for (uint32_t i = 0; i < n + 4; ++i) valid.push_back(this->cycle(0, true).valid);
  for (uint32_t c = 0; c < valid.size(); ++c) EXPECT_EQ(valid[c], c >= 3 && c < 3 + n) << "cycle m + " << c;
  EXPECT_EQ(this->io.taken, this->queued);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Batches of 3 and 2 at m and m + 1: the second's first request waits for the first batch's last
// (m + 6, not m + 4), then the rest follow, one per cycle.
TYPED_TEST(MissQueue, SecondBatchWaitsForTheFirst) {
  std::vector<bool> valid;
  valid.push_back(this->cycle(3, true).valid);
  valid.push_back(this->cycle(2, true).valid);
  for (int i = 0; i < 8; ++i) valid.push_back(this->cycle(0, true).valid);
  for (uint32_t c = 0; c < valid.size(); ++c) EXPECT_EQ(valid[c], c >= 3 && c < 8) << "cycle m + " << c;
  EXPECT_EQ(this->io.taken, this->queued);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Memory not ready: the queue fills to its capacity and the head stays offered, unchanged.
TYPED_TEST(MissQueue, HeadHeldUnderBackpressure) {
  while (this->room() > 0) this->cycle(std::min(this->room(), this->io.batch), false);
  for (int i = 0; i < 20; ++i) this->cycle(0, false);
  EXPECT_EQ(static_cast<uint32_t>((*this->dut).count_o), this->io.entries);
  EXPECT_TRUE((*this->dut).mem_req_valid_o);
  EXPECT_EQ(tb::get((*this->dut).mem_req_o), this->queued.front());
  for (uint32_t i = 0; i < this->io.entries + 2; ++i) this->cycle(0, true);
  EXPECT_EQ(this->io.taken, this->queued);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Random batches within M's room, random readiness in phases of 1-64 cycles: free flow (ready
// 15/16), backpressure (1/4), stall (never). Batch sizes lean to the full batch so the queue
// fills and the one-per-cycle rule queues batches behind each other.
TYPED_TEST(MissQueue, RandomTraffic) {
  uint64_t full_cycles = 0, waiting_max = 0, phase_left = 0;
  uint32_t ready_of_16 = 16;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    if (phase_left-- == 0) {
      phase_left = 1 + this->rng() % 64;
      ready_of_16 = std::vector<uint32_t>{15, 4, 0}[this->rng() % 3];
    }
    const uint64_t r = this->rng();
    uint32_t n = 0;
    if (r % 3 == 0) n = (r >> 2) % 2 == 0 ? this->io.batch : static_cast<uint32_t>((r >> 3) % (this->io.batch + 1));
    n = std::min(n, this->room());
    this->cycle(n, (r >> 8) % 16 < ready_of_16);
    full_cycles += this->room() == 0;
    // At D and not yet presentable: what a staging buffer in front of a one-write array would
    // hold (gen/blocks/l1d_miss_queue.cpp's header).
    uint64_t waiting = 0;
    for (const auto& q : this->io.queue) waiting += q.at_d < this->io.now && q.visible > this->io.now;
    waiting_max = std::max(waiting_max, waiting);
  }
  for (uint32_t i = 0; i < 2 * this->io.entries + 3; ++i) this->cycle(0, true);
  EXPECT_EQ(this->io.taken, this->queued);
  EXPECT_GT(this->io.taken.size(), kRandomCycles / 8);
  EXPECT_GT(full_cycles, kRandomCycles / 100);                 // the queue was full often
  EXPECT_GE(waiting_max, this->io.batch);  // batches queued behind batches
  std::cout << "[ traffic  ] " << this->io.taken.size() << " requests, " << full_cycles << " cycles full, at most "
            << waiting_max << " at D and not yet presentable\n";
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// golden::L1 (l1.pipeline staged, golden/l1_staged.cpp) on the "mixed" stream behind a memory that
// is ready 30 % of the cycles: in each cycle the requests its M queued (the queue's growth plus the
// cycle's pop) are the unit's batch. The unit must offer a request exactly when golden does, the
// one golden offers (the same ordinal: the RTL's payloads are the fixture's ids in queue order),
// and count what golden counts. The fixture's 16.4 model is checked on the same inputs.
TYPED_TEST(MissQueue, FollowsTheStagedGoldenL1) {
  using namespace l1d::golden;
  l1d::Config cfg = tb::load_config<TypeParam>();
  cfg.l1.pipeline = l1d::L1Pipeline::kStaged;
  L1Testbench golden(cfg, MemoryModel{20, 300, 30}, 5);
  size_t size = 0, taken = 0;
  uint64_t differences = 0, largest = 0;
  golden.on_step = [&](uint64_t cycle, const L1Inputs& in, const L1Outputs& out) {
    const bool pop = out.mem_req_valid && in.mem_req_ready;
    const size_t after = golden.l1().miss_queue_size();
    const auto n = static_cast<uint32_t>(after + pop - size);
    largest = std::max<uint64_t>(largest, n);
    const MissQueueIo::Out rtl = this->cycle(n, in.mem_req_ready);
    const bool same = rtl.valid == out.mem_req_valid && rtl.count == size &&
                      (!rtl.valid || rtl.req == this->queued.at(taken));
    if (!same && ++differences <= 5)
      ADD_FAILURE() << "cycle " << cycle << ": golden valid " << out.mem_req_valid << " count " << size
                    << ", rtl " << rtl;
    size = after;
    taken += pop;
  };
  const TestbenchResult r = golden.run(make_stream("mixed", cfg), 20'000);
  EXPECT_TRUE(r.drained);
  EXPECT_EQ(differences, 0u);
  EXPECT_EQ(this->io.taken, this->queued);
  EXPECT_GT(taken, 5'000u);
  // Write-backs queued with their read or store (gtx1080 writes through: no write-backs, batches of 1).
  if (cfg.l1.write_policy == l1d::WritePolicy::kWriteBack) {
    EXPECT_GT(largest, 1u);
  }
  std::cout << "[ golden   ] " << r.cycles << " cycles, " << taken << " requests, batches up to " << largest << "\n";
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class MissQueueNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(MissQueueNetlist, models::Configs);

TYPED_TEST(MissQueueNetlist, NetlistMatchesRtl) {
  const MissQueueIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
