// RPR inside golden::L1 (docs/l1d-microarchitecture.md section 12): which L1 events reach the
// policy's sampler and table with which signature, and RPR with the age score running cycle for
// cycle like AgeLRU on a random stream with warps exiting.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include <fmt/format.h>

#include "golden/l1_testbench.h"
#include "golden/test/l1_driver.h"

namespace l1d::golden {
namespace {

using testing::L1Driver;

const RprPolicy& rpr_of(const L1& l1) { return dynamic_cast<const RprPolicy&>(l1.replacement()); }

// The first 128 B line at or above `from` that maps to `set`.
Addr line_in_set(const L1& l1, uint32_t set, Addr from) {
  for (Addr a = from;; a += kLineBytes)
    if (l1.split().decode(a).set == set) return a;
}

// The way holding the whole 128 B `line` (common-tags are shared by nearby lines: compare the
// chunk-tag of slot 0 too).
uint32_t valid_way_of(const L1& l1, uint32_t set, Addr line) {
  const DecodedAddr d = l1.split().decode(line);
  for (uint32_t w = 0; w < l1.replacement().ways(); ++w) {
    const CacheLine& c = l1.line(set, w);
    if (c.slot[0].valid && c.common_tag == d.common_tag && c.slot[0].chunk_tag == (d.chunk_tag & ~3u)) return w;
  }
  throw std::runtime_error("line not cached");
}

CoreReq load_req(uint32_t id, Addr addr, uint64_t pc, uint8_t awid) {
  CoreReq q;
  q.id = id;
  q.addr = addr;
  q.size = 128;
  q.byte_mask = testing::range_mask(addr, 128);
  q.pc = pc;
  q.awid = q.warp = awid;
  return q;
}

class RprInL1 : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < 8; ++i) {  // warps with AWIDs 0..7; Oldest stays 0
      d.extra = [](L1Inputs& in) { in.warp_launch = true; };
      d.step();
    }
  }
  L1Driver d{testing::preset("gtx480", "rpr")};
  const RprPolicy& p = rpr_of(d.l1);
  static constexpr uint64_t kPc = 0x1A8;  // AGCB hash 53 (8-byte instructions, 256 entries): low bits 21
  static constexpr uint8_t kAwid = 6;     // relative age 6: bucket 1
  const uint32_t sig = rpr_signature(53, 6);
};

TEST_F(RprInL1, MissFillAndHitsReachTheSamplerWithTheRequestsSignature) {
  ASSERT_EQ(d.l1.agcb().hash(kPc), 53u);
  ASSERT_EQ(sig, (21u << 4) | 1u);
  const Addr a = line_in_set(d.l1, 0, 0x10000);
  d.load(a, 128, kPc, true, kAwid);  // miss (set access 1), then the fill
  const uint32_t w = valid_way_of(d.l1, 0, a);
  EXPECT_EQ(p.sampler().counter(0), 1u);
  EXPECT_EQ(p.history().entry(sig).fetch, 1u);
  EXPECT_EQ(p.sampler().signature(0, w), sig);
  EXPECT_EQ(p.sampler().last_touch(0, w), 1u);
  EXPECT_EQ(p.line_rd(0, w), 8u);  // no prediction yet: the preset's defaults
  EXPECT_EQ(p.line_rc(0, w), 1u);

  d.load(a, 128, 0x2000, true, 3);  // hit by another PC and warp: trains the filler's signature
  EXPECT_EQ(p.sampler().counter(0), 2u);
  EXPECT_EQ(p.history().entry(sig).total_rc, 1u);
  EXPECT_EQ(p.history().entry(sig).sum_rd, 1u);
  EXPECT_EQ(p.line_rd(0, w), 7u);
  EXPECT_EQ(p.line_rc(0, w), 0u);

  d.store(a, 32, 0x55);  // a store hit is a demand hit too
  EXPECT_EQ(p.sampler().counter(0), 3u);
  EXPECT_EQ(p.history().entry(sig).total_rc, 2u);
  EXPECT_EQ(p.history().entry(sig).sum_rd, 2u);
  EXPECT_EQ(p.line_rd(0, w), 6u);

  d.store(line_in_set(d.l1, 0, a + kLineBytes), 32, 0x66);  // store miss: an access, not a fetch
  EXPECT_EQ(p.sampler().counter(0), 4u);
  EXPECT_EQ(p.history().entry(sig).fetch, 1u);
  EXPECT_EQ(p.line_rd(0, w), 5u);
}

TEST_F(RprInL1, AMergeIsAnAccessButNotAFetch) {
  const Addr a = line_in_set(d.l1, 0, 0x20000);
  const CoreReq first = load_req(500, a, kPc, kAwid), second = load_req(501, a, kPc, kAwid);
  while (!d.step(first)) {
  }
  while (!d.step(second)) {
  }
  d.step();  // S1 looks the second one up: a merge
  EXPECT_EQ(d.l1.counters().merges, 1u);
  EXPECT_EQ(p.sampler().counter(0), 2u);
  EXPECT_EQ(p.history().entry(sig).fetch, 1u);
  d.run(200);
  EXPECT_TRUE(d.l1.idle());
}

TEST_F(RprInL1, UnsampledSetsDoNotTrainButStillUsePredictions) {
  const Addr b = line_in_set(d.l1, 1, 0x30000);
  d.load(b, 128, kPc, true, kAwid);
  EXPECT_EQ(p.history().entry(sig).fetch, 0u);
  EXPECT_FALSE(p.sampler().sampled(1));
  // 31 misses of the signature in set 0 close its first window: no hit seen, so RD 15 and RC 0.
  for (uint32_t i = 0; i < 31; ++i) d.load(line_in_set(d.l1, 0, 0x100000 + i * 0x10000), 128, kPc, true, kAwid);
  ASSERT_TRUE(p.history().predict(sig));
  const Addr c = line_in_set(d.l1, 1, b + kLineBytes);
  d.load(c, 128, kPc, true, kAwid);
  const uint32_t w = valid_way_of(d.l1, 1, c);
  EXPECT_EQ(p.line_rd(1, w), 15u);
  EXPECT_EQ(p.line_rc(1, w), 0u);
}

// ---------------------------------------------------------------- RPR-age == AgeLRU

bool same_outputs(const L1Outputs& a, const L1Outputs& b) {
  if (a.core_req_ready != b.core_req_ready || a.core_resp_valid != b.core_resp_valid ||
      a.mem_req_valid != b.mem_req_valid)
    return false;
  if (a.core_resp_valid && (a.core_resp.id != b.core_resp.id || a.core_resp.warp != b.core_resp.warp ||
                            a.core_resp.outcome != b.core_resp.outcome || a.core_resp.data != b.core_resp.data))
    return false;
  if (a.mem_req_valid) {
    const MemReq &x = a.mem_req, &y = b.mem_req;
    if (x.line_addr != y.line_addr || x.op != y.op || x.sectors != y.sectors || x.byte_mask != y.byte_mask ||
        x.data != y.data || x.bypass != y.bypass || x.agcb_bypass != y.agcb_bypass || x.mshr != y.mshr)
      return false;
  }
  return true;
}

struct TwinRun {
  std::optional<uint64_t> first_difference;  // cycle
  TestbenchResult result;
  L1Counters counters, twin_counters;
};

// Runs `cfg` in the testbench and `twin_cfg` on the same inputs every cycle; every 4000 cycles
// (40 times) the oldest warp exits and a new one launches, so lines of inactive warps appear.
TwinRun run_twins(const Config& cfg, const Config& twin_cfg, uint64_t requests) {
  L1Testbench tb(cfg, MemoryModel{10, 300, 70}, 0xA6E);
  L1 twin(twin_cfg);
  TwinRun run;
  int exits = 0;
  tb.on_cycle = [&](uint64_t cycle, L1Inputs& in) {
    if (cycle == 0 || cycle % 4000 != 0 || exits == 40) return;
    ++exits;
    const uint8_t oldest = tb.l1().ages().oldest();
    in.warp_exit = true;
    in.exit_awid = oldest;
    in.exit_has_next = true;
    in.exit_next_oldest = static_cast<uint8_t>(oldest + 1);
    in.warp_launch = true;
  };
  tb.on_step = [&](uint64_t cycle, const L1Inputs& in, const L1Outputs& out) {
    if (run.first_difference) return;  // the memory answers the first L1's requests, not the twin's
    const L1Outputs o = twin.step(in);
    if (!run.first_difference && !same_outputs(out, o)) run.first_difference = cycle;
  };
  run.result = tb.run(make_stream("mixed", cfg), requests, /*check_every=*/4096);
  run.counters = tb.l1().counters();
  run.twin_counters = twin.counters();
  return run;
}

class RprAgeIsAgeLru : public ::testing::TestWithParam<const char*> {};

TEST_P(RprAgeIsAgeLru, CycleForCycleOnARandomStreamWithWarpExits) {
  Config rpr = testing::preset(GetParam(), "rpr");
  rpr.policy.rpr.score = RprScore::kAge;
  const Config agelru = testing::preset(GetParam(), "agelru");
  const TwinRun run = run_twins(rpr, agelru, 200'000);
  EXPECT_FALSE(run.first_difference) << "outputs differ first at cycle " << *run.first_difference;
  EXPECT_EQ(run.result.data_mismatches, 0u) << run.result.first_mismatch;
  EXPECT_TRUE(run.result.drained);
  const L1Counters &a = run.counters, &b = run.twin_counters;
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.hits, b.hits);
  EXPECT_EQ(a.misses, b.misses);
  EXPECT_EQ(a.fills_allocated, b.fills_allocated);
  EXPECT_EQ(a.writebacks, b.writebacks);
  EXPECT_EQ(a.mem_reads, b.mem_reads);
  EXPECT_GT(a.fills_allocated, 10'000u);  // replacement really was exercised

  // The comparison can see a difference: the reuse-distance score does not behave like AgeLRU.
  Config rd = rpr;
  rd.policy.rpr.score = RprScore::kReuseDistance;
  EXPECT_TRUE(run_twins(rd, agelru, 20'000).first_difference);
}

INSTANTIATE_TEST_SUITE_P(Presets, RprAgeIsAgeLru, ::testing::Values("gtx480", "qv100"));

}  // namespace
}  // namespace l1d::golden
