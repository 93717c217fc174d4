// l1.pipeline staged (docs/l1d-microarchitecture.md section 16): the timing of each stage, the
// replay of a failed request in order, the flush holding core requests, the same per-request
// decisions as single_cycle when requests come one at a time, and soaks of every policy and the
// reference-faithful and sector option sets (stale data, deadlock, invariants every cycle).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "golden/l1_testbench.h"
#include "golden/test/l1_driver.h"

namespace l1d::golden {
namespace {

using testing::L1Driver;

constexpr Addr kA = 0x10000000;

Config staged(std::string preset = "gtx480", const std::string& policy = "baseline") {
  Config c = testing::preset(preset, policy);
  c.l1.set_index = SetIndexHash::kLinear;
  c.l1.pipeline = L1Pipeline::kStaged;
  return c;
}

CoreReq load_req(uint32_t id, Addr addr, uint32_t size) {
  CoreReq q;
  q.id = id;
  q.addr = addr;
  q.size = size;
  q.byte_mask = testing::range_mask(addr, size);
  q.token = true;
  return q;
}

// Steps until a response with `id` is presented; returns the cycle it was presented in.
uint64_t until_response(L1Driver& d, uint32_t id, uint64_t limit = 5000) {
  for (uint64_t i = 0; i < limit; ++i) {
    const uint64_t c = d.cycle;
    const size_t seen = d.responses.size();
    d.step();
    if (d.responses.size() > seen && d.responses.back().id == id) return c;
  }
  throw std::runtime_error("no response");
}

TEST(L1Staged, HitIsAnsweredSevenCyclesAfterItFiresFiveMoreThanSingleCycle) {
  for (const L1Pipeline p : {L1Pipeline::kSingleCycle, L1Pipeline::kStaged}) {
    Config c = staged();
    c.l1.pipeline = p;
    L1Driver d(c);
    d.load(kA, 128);  // a miss: the line is in afterwards
    d.run(10);
    const uint64_t fired = d.cycle;
    ASSERT_TRUE(d.step(load_req(100, kA, 32)));
    const uint64_t presented = until_response(d, 100);
    EXPECT_EQ(presented - fired, p == L1Pipeline::kStaged ? 7u : 2u);
    EXPECT_EQ(d.responses.back().outcome, Outcome::kHit);
  }
}

// StagedPairs (how often M2 corrects M1's match, contract 16.5): hits to one line back to back are
// same-set pairs that change nothing a match reads; a miss followed by a load of the same line is
// a stale pair (its MSHR entry is new); a load of another set pairs with nothing.
TEST(L1Staged, SameSetPairsCountOnlyChangesAMatchReads) {
  L1Driver d(staged());
  d.load(kA, 128);
  d.run(10);
  const StagedPairs before = d.l1.staged_pairs();
  for (uint32_t i = 0; i < 4; ++i) ASSERT_TRUE(d.step(load_req(300 + i, kA + 32 * i, 32)));
  d.run(10);
  StagedPairs p = d.l1.staged_pairs();
  EXPECT_EQ(p.decided - before.decided, 4u);
  EXPECT_EQ(p.same_set - before.same_set, 3u);
  EXPECT_EQ(p.stale(), before.stale());
  const Addr other_line = kA + (Addr{1} << 20);  // same set (linear index), another line: a miss
  ASSERT_TRUE(d.step(load_req(310, other_line, 32)));
  ASSERT_TRUE(d.step(load_req(311, other_line + 32, 32)));
  d.run(4);
  const StagedPairs q = d.l1.staged_pairs();
  EXPECT_EQ(q.same_set - p.same_set, 1u);  // 311 after 310 (the hits were decided cycles before)
  EXPECT_EQ(q.stale() - p.stale(), 1u);         // 311: 310's miss opened an entry for the line
  EXPECT_EQ(q.stale_core - p.stale_core, 1u);
  d.run(400);  // the fill places the line
  p = d.l1.staged_pairs();
  ASSERT_TRUE(d.step(load_req(320, kA + 128, 32)));  // the next set
  d.run(6);
  EXPECT_EQ(d.l1.staged_pairs().same_set, p.same_set);
  EXPECT_EQ(p.stale_flush, 0u);  // no flush ran
}

TEST(L1Staged, HitsStreamAtOneRequestPerCycle) {
  L1Driver d(staged());
  d.load(kA, 128);
  d.run(10);
  const uint64_t first = d.cycle;
  for (uint32_t i = 0; i < 8; ++i) ASSERT_TRUE(d.step(load_req(200 + i, kA + 32 * (i % 4), 32))) << i;
  d.run(10);
  ASSERT_GE(d.responses.size(), 9u);
  for (uint32_t i = 0; i < 8; ++i) {
    const CoreResp& r = d.responses[d.responses.size() - 8 + i];
    EXPECT_EQ(r.id, 200 + i);  // in order, one per cycle
    EXPECT_EQ(r.outcome, Outcome::kHit);
  }
  EXPECT_EQ(d.l1.counters().hits, 8u);
  EXPECT_GE(d.cycle - first, 14u);
}

TEST(L1Staged, MissReadIsPresentedThreeCyclesAfterItsDecision) {
  for (const L1Pipeline p : {L1Pipeline::kSingleCycle, L1Pipeline::kStaged}) {
    Config c = staged();
    c.l1.pipeline = p;
    L1Driver d(c);
    const uint64_t fired = d.cycle;
    ASSERT_TRUE(d.step(load_req(1, kA, 128)));
    uint64_t presented = 0;
    for (int i = 0; i < 20 && !presented; ++i) {
      const uint64_t now = d.cycle;
      d.step();
      if (d.last.mem_req_valid) presented = now;
    }
    // single_cycle: decided at fired + 1, presented at fired + 2; staged: decided at fired + 4
    // (A, T, M1, M2), presented at fired + 7.
    EXPECT_EQ(presented - fired, p == L1Pipeline::kStaged ? 7u : 2u);
  }
}

// One MSHR, no merging: a second miss fails at M2 and is replayed, and a hit fired behind it is
// squashed with it and answered only after it, in firing order.
TEST(L1Staged, FailedRequestReplaysAndKeepsTheYoungerOnesBehindIt) {
  Config c = staged();
  c.l1.mshr_entries = 1;
  c.l1.mshr_max_merge = 1;
  L1Driver d(c, /*latency=*/40);
  d.load(kA + 0x4000, 128);  // line H is in
  d.run(10);
  ASSERT_TRUE(d.step(load_req(101, kA, 128)));           // miss: takes the MSHR
  ASSERT_TRUE(d.step(load_req(102, kA + 0x8000, 128)));  // miss: fails mshr_full until 101 fills
  ASSERT_TRUE(d.step(load_req(103, kA + 0x4000, 32)));   // hit, behind 102
  uint64_t answered_101 = 0, answered_103 = 0;
  std::vector<uint32_t> order;
  for (int i = 0; i < 200; ++i) {
    const size_t seen = d.responses.size();
    d.step();
    if (d.responses.size() == seen) continue;
    order.push_back(d.responses.back().id);
    if (order.back() == 101) answered_101 = d.cycle;
    if (order.back() == 103) answered_103 = d.cycle;
  }
  // 102 is decided (a miss taking the freed MSHR) before 103 hits, so 103 is answered after 101's
  // fill; 102's answer is its own fill, later still.
  ASSERT_EQ(order, (std::vector<uint32_t>{101, 103, 102}));
  EXPECT_GE(answered_103, answered_101 + 2);  // 102 is decided between them
  const uint64_t failed = d.l1.counters().res_fail[static_cast<int>(ResFail::kMshrFull)];
  EXPECT_GT(failed, 5u);
  // A failed request reaches M2 again at the earliest four cycles later: about 40 / 4 failures
  // while request 1 is out, never one per cycle.
  EXPECT_LT(failed, 20u);
  EXPECT_TRUE(d.l1.idle());
}

TEST(L1Staged, ReadyFallsWhenTheInputFifoIsFull) {
  Config c = staged();
  c.l1.mshr_entries = 1;
  c.l1.mshr_max_merge = 1;
  L1Driver d(c, 100);
  uint32_t fired = 0;
  for (uint32_t i = 0; i < 12; ++i) fired += d.step(load_req(10 + i, kA + 0x1000 * i, 128));
  // Two miss the one MSHR; the pipe and the replay FIFO hold 4, the input FIFO 2.
  EXPECT_LT(fired, 12u);
  EXPECT_LE(fired, 1u + 4u + 2u);
  d.run(3000);
  EXPECT_TRUE(d.l1.idle()) << d.l1.describe_state();
}

TEST(L1Staged, KernelEndFlushHoldsCoreRequestsUntilTheWalkEnds) {
  L1Driver d(staged());
  d.load(kA, 128);
  d.store(kA, 32, 7);  // a store hit: a dirty slot to write back
  d.extra = [](L1Inputs& in) { in.kernel_end = true; };
  d.step();
  const uint64_t flush_start = d.cycle;
  ASSERT_TRUE(d.step(load_req(50, kA, 32)));
  const uint64_t presented = until_response(d, 50);
  // 32 sets x 4 ways visited one per cycle before the load is decided; the load then misses.
  EXPECT_GE(presented - flush_start, 128u);
  EXPECT_EQ(d.l1.counters().flush_cycles, 128u);
  EXPECT_EQ(d.responses.back().outcome, Outcome::kMissReturn);
  EXPECT_EQ(d.l1.counters().writebacks, 1u);
}

// With one request at a time the staged L1 takes every decision single_cycle takes: the same
// outcome per request and the same counts of everything but time.
TEST(L1Staged, OneAtATimeGivesTheSameDecisionsAsSingleCycle) {
  for (const char* policy : {"baseline", "dycache", "agcb", "pcal", "agelru", "elastic32"}) {
    std::vector<Outcome> outcomes[2];
    L1Counters counters[2];
    for (const L1Pipeline p : {L1Pipeline::kSingleCycle, L1Pipeline::kStaged}) {
      Config c = staged("gtx480", policy);
      c.l1.pipeline = p;
      c.policy.dycache.sample_requests = 200;
      L1Driver d(c, 30);
      std::mt19937_64 rng(11);
      for (int i = 0; i < 3000; ++i) {
        const uint32_t size = 32u << (rng() % 3);
        const Addr addr = (kA + (rng() % 96) * 128 + (rng() % 4) * 32) & ~Addr{size - 1};
        const CoreResp r = (rng() % 4 == 0) ? d.store(addr, size, static_cast<uint8_t>(i)) : d.load(addr, size);
        outcomes[p == L1Pipeline::kStaged].push_back(r.outcome);
      }
      counters[p == L1Pipeline::kStaged] = d.l1.counters();
    }
    EXPECT_EQ(outcomes[0], outcomes[1]) << policy;
    const L1Counters &a = counters[0], &b = counters[1];
    EXPECT_EQ(a.hits, b.hits) << policy;
    EXPECT_EQ(a.misses, b.misses) << policy;
    EXPECT_EQ(a.partial_hits, b.partial_hits) << policy;
    EXPECT_EQ(a.bypasses, b.bypasses) << policy;
    EXPECT_EQ(a.fills_allocated, b.fills_allocated) << policy;
    EXPECT_EQ(a.writebacks, b.writebacks) << policy;
    EXPECT_EQ(a.mem_reads, b.mem_reads) << policy;
    EXPECT_EQ(a.granularity_switches, b.granularity_switches) << policy;
    EXPECT_GT(b.cycles, a.cycles) << policy;  // four more cycles per request
  }
}

// --- soaks: every policy on the realistic preset, and the faithful and sector option sets ---

// Every policy the line presets run; qv100-accelsim (sector L1) runs those legal there (section 14).
const char* const kLinePolicies[] = {"baseline", "dycache", "elastic32", "agcb",         "two-level", "pcal",
                                     "pcal-bto", "agelru",  "agelru-bypass", "bip",      "combined",  "rpr"};
const char* const kSectorPolicies[] = {"baseline", "agcb", "two-level", "pcal", "pcal-bto",
                                       "agelru",   "agelru-bypass", "bip", "rpr"};
// Pressure runs (testing::pressure: invariants every 8th cycle in make test, every cycle in make
// test-slow): one policy per mechanism.
const char* const kPressurePolicies[] = {"baseline", "agcb", "pcal", "agelru-bypass"};

using Param = std::tuple<const char*, const char*>;  // preset, policy
std::string name(const ::testing::TestParamInfo<Param>& i) {
  std::string p = std::get<0>(i.param);
  for (char& ch : p)
    if (ch == '-') ch = '_';
  return testing::param_name(p + "_", std::get<1>(i.param));
}

class L1StagedSoak : public ::testing::TestWithParam<Param> {};
TEST_P(L1StagedSoak, RandomRequestsNoStaleDataNoDeadlock) {
  const auto [preset, policy] = GetParam();
  const L1Counters r = testing::soak(staged(preset, policy), 20'000, 0xBEEF);
  EXPECT_GT(r.hits, 0u);
}
INSTANTIATE_TEST_SUITE_P(Line, L1StagedSoak,
                         ::testing::Combine(::testing::Values("gtx480", "gtx480-gpgpusim"),
                                            ::testing::ValuesIn(kLinePolicies)),
                         name);
INSTANTIATE_TEST_SUITE_P(Sector, L1StagedSoak,
                         ::testing::Combine(::testing::Values("qv100-accelsim"), ::testing::ValuesIn(kSectorPolicies)),
                         name);

class L1StagedPressure : public ::testing::TestWithParam<Param> {};
TEST_P(L1StagedPressure, DrainsUnderMshrAndMissQueuePressure) {
  const auto [preset, policy] = GetParam();
  const L1Counters r = testing::pressure(staged(preset, policy), 1'500);
  EXPECT_GT(r.res_fail[static_cast<int>(ResFail::kMshrFull)] + r.res_fail[static_cast<int>(ResFail::kMergeFull)], 0u);
}
INSTANTIATE_TEST_SUITE_P(Presets, L1StagedPressure,
                         ::testing::Combine(::testing::Values("gtx480", "gtx480-gpgpusim", "qv100-accelsim"),
                                            ::testing::ValuesIn(kPressurePolicies)),
                         name);

}  // namespace
}  // namespace l1d::golden
