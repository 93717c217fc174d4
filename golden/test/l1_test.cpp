// Directed tests of golden::L1: cycle semantics, data path, DyCache partial hits and
// granularity switches, policy corners (docs/l1d-microarchitecture.md).
#include "golden/l1.h"

#include <gtest/gtest.h>

#include "golden/test/l1_driver.h"

namespace l1d::golden {
namespace {

using testing::L1Driver;
using testing::preset;

constexpr Addr kA = 0x10000000;

// gtx480 with a linear set index, so that set arithmetic in tests is plain.
Config linear(const std::string& policy = "baseline") {
  Config c = preset("gtx480", policy);
  c.l1.set_index = SetIndexHash::kLinear;
  return c;
}
// The n-th line address that maps to the same set as kA (32 sets: stride 32 * 128 B).
Addr same_set(uint32_t n) { return kA + Addr{n} * 32 * 128; }

TEST(L1Cycle, HitResponseTwoCyclesAfterTheRequestFires) {
  L1Driver d(linear());
  d.load(kA, 128);
  CoreReq q;
  q.id = 99;
  q.addr = kA;
  q.size = 32;
  q.byte_mask = testing::range_mask(kA, 32);
  ASSERT_TRUE(d.step(q));  // fires in cycle t
  d.step();                // t+1: S1 looks up
  EXPECT_FALSE(d.last.core_resp_valid);
  d.step();  // t+2: the response is presented
  ASSERT_TRUE(d.last.core_resp_valid);
  EXPECT_EQ(d.last.core_resp.id, 99u);
  EXPECT_EQ(d.last.core_resp.outcome, Outcome::kHit);
}

TEST(L1Cycle, BackToBackHitsOnePerCycle) {
  L1Driver d(linear());
  d.load(kA, 128);
  for (uint32_t i = 0; i < 8; ++i) {
    CoreReq q;
    q.id = 100 + i;
    q.addr = kA + (i % 4) * 32;
    q.size = 32;
    q.byte_mask = testing::range_mask(q.addr, 32);
    EXPECT_TRUE(d.step(q)) << "request " << i << " should fire at once";
  }
  d.run(2);
  EXPECT_EQ(d.l1.counters().hits, 8u);
}

TEST(L1Cycle, ReadyFallsWhileS1Fails) {
  Config c = linear();
  L1Driver d(c);
  d.mem_ready = false;
  uint32_t fired = 0;
  for (uint32_t i = 0; i < 12; ++i) {
    CoreReq q;
    q.addr = kA + Addr{i} * 128;
    q.size = 128;
    q.byte_mask = testing::range_mask(q.addr, 128);
    q.id = i + 1;
    if (d.step(q)) ++fired;
  }
  // 8 reads fill the miss queue; the 9th sits in S1 failing, so ready stays low.
  EXPECT_EQ(d.l1.miss_queue_size(), c.l1.miss_queue_entries);
  EXPECT_FALSE(d.last.core_req_ready);
  EXPECT_GT(d.l1.counters().res_fail[static_cast<int>(ResFail::kMissQueueFull)], 0u);
  EXPECT_LT(fired, 12u);
  d.mem_ready = true;
  d.run(200);
  EXPECT_TRUE(d.l1.idle());
}

TEST(L1Data, MissFetchesWholeLineAndReturnsMemoryData) {
  L1Driver d(linear());
  CoreResp r = d.load(kA + 64, 32);
  EXPECT_EQ(r.outcome, Outcome::kMissReturn);
  ASSERT_EQ(d.sent.size(), 1u);
  EXPECT_EQ(d.sent[0].op, MemOp::kLoad);
  EXPECT_EQ(d.sent[0].sectors, 0xF);
  EXPECT_EQ(d.sent[0].line_addr, kA);
  for (uint32_t b = 64; b < 96; ++b) EXPECT_EQ(r.data[b], initial_byte(kA + b));
  EXPECT_EQ(r.data[0], 0);  // outside the request
}

TEST(L1Data, StoreHitDirtiesAndEvictionWritesBack) {
  L1Driver d(linear());
  d.load(kA, 128);
  EXPECT_EQ(d.store(kA + 32, 32, 0xAB).outcome, Outcome::kStoreAck);
  EXPECT_EQ(d.sent.size(), 1u) << "write-back cache: a store hit sends nothing";
  for (uint32_t n = 1; n <= 4; ++n) d.load(same_set(n), 128);  // evicts kA's line (LRU)
  bool wrote = false;
  for (const MemReq& m : d.sent)
    if (m.op == MemOp::kStore && m.line_addr == kA) {
      wrote = true;
      EXPECT_EQ(m.sectors, 0x2);
      EXPECT_EQ(m.data[40], 0xAB);
    }
  EXPECT_TRUE(wrote);
  EXPECT_EQ(d.mem_byte(kA + 40), 0xAB);
  EXPECT_EQ(d.load(kA + 32, 32).data[33], 0xAB);
  EXPECT_EQ(d.l1.counters().writebacks, 1u);
}

TEST(L1Data, WriteBackCarriesOnlyTheWrittenBytes) {
  L1Driver d(linear());
  d.load(kA, 128);
  CoreReq q;
  q.op = MemOp::kStore;
  q.addr = kA + 32;
  q.size = 32;
  q.byte_mask = testing::range_mask(kA + 36, 4);  // bytes 36..39 only
  q.data.fill(0x99);
  d.request(q);
  EXPECT_EQ(d.l1.line(0, 0).slot[1].dirty, 0xF0u);
  for (uint32_t n = 1; n <= 4; ++n) d.load(same_set(n), 128);  // evicts kA's line
  const MemReq* wb = nullptr;
  for (const MemReq& m : d.sent)
    if (m.op == MemOp::kStore) wb = &m;
  ASSERT_NE(wb, nullptr);
  EXPECT_EQ(wb->byte_mask.count(), 4u);
  EXPECT_TRUE(wb->byte_mask[36] && wb->byte_mask[39]);
  EXPECT_FALSE(wb->byte_mask[35] || wb->byte_mask[40]);
}

TEST(L1Data, StoreMissWritesAroundWithoutAllocating) {
  L1Driver d(linear());
  d.store(kA + 96, 32, 0x5C);
  ASSERT_EQ(d.sent.size(), 1u);
  EXPECT_EQ(d.sent[0].op, MemOp::kStore);
  EXPECT_TRUE(d.sent[0].byte_mask[96]);
  EXPECT_FALSE(d.sent[0].byte_mask[95]);
  EXPECT_EQ(d.l1.counters().fills, 0u);
  EXPECT_EQ(d.load(kA + 96, 32).data[100], 0x5C);
}

TEST(L1Data, WriteThroughStoreHitUpdatesAndForwards) {
  Config c = linear();
  c.l1.write_policy = WritePolicy::kWriteThrough;
  L1Driver d(c);
  d.load(kA, 128);
  d.store(kA, 32, 0x11);
  ASSERT_EQ(d.sent.size(), 2u);
  EXPECT_EQ(d.sent[1].op, MemOp::kStore);
  EXPECT_EQ(d.mem_byte(kA + 5), 0x11);
  CoreResp r = d.load(kA, 32);
  EXPECT_EQ(r.outcome, Outcome::kHit);
  EXPECT_EQ(r.data[5], 0x11);
  for (uint32_t s = 0; s < 4; ++s) EXPECT_FALSE(d.l1.line(0, 0).slot[s].dirty);
}

TEST(L1Data, StoreWaitsForPendingFillOfTheSameLine) {
  L1Driver d(linear(), 50);
  CoreReq ld;
  ld.id = 1;
  ld.addr = kA;
  ld.size = 128;
  ld.byte_mask = testing::range_mask(kA, 128);
  ASSERT_TRUE(d.step(ld));
  CoreReq st;
  st.id = 2;
  st.op = MemOp::kStore;
  st.addr = kA;
  st.size = 32;
  st.byte_mask = testing::range_mask(kA, 32);
  st.data.fill(0x77);
  ASSERT_TRUE(d.step(st));
  d.run(20);
  EXPECT_GT(d.l1.counters().res_fail[static_cast<int>(ResFail::kConflict)], 10u);
  d.run(80);
  ASSERT_EQ(d.responses.size(), 2u);
  EXPECT_EQ(d.responses[0].id, 1u);  // the load got the old data...
  EXPECT_EQ(d.responses[0].data[0], initial_byte(kA));
  EXPECT_EQ(d.load(kA, 32).data[0], 0x77);  // ...and the store hit the filled line
}

// SPEC 3: partial hit -> invalidate the partly matching slots, write back dirty ones, miss.
TEST(L1DyCache, PartialHitInvalidatesAndWritesBackDirtyFirst) {
  L1Driver d(linear("elastic32"));
  d.load(kA, 32);                      // G=32: fetches 32 B into one slot
  EXPECT_EQ(d.sent[0].sectors, 0x1);
  d.store(kA, 32, 0xEE);               // hit: slot dirty
  CoreResp r = d.load(kA, 128);        // needs 4 chunks, 1 present: partial hit
  EXPECT_EQ(d.l1.counters().partial_hits, 1u);
  ASSERT_EQ(d.sent.size(), 3u);
  EXPECT_EQ(d.sent[1].op, MemOp::kStore);  // the dirty copy goes first
  EXPECT_EQ(d.sent[1].sectors, 0x1);
  EXPECT_EQ(d.sent[2].op, MemOp::kLoad);
  EXPECT_EQ(d.sent[2].sectors, 0xF);
  EXPECT_EQ(r.outcome, Outcome::kMissReturn);
  EXPECT_EQ(r.data[0], 0xEE);
  EXPECT_EQ(r.data[64], initial_byte(kA + 64));
}

TEST(L1DyCache, FillGoesToLruPositionOfSameCommonTagLine) {
  L1Driver d(linear("elastic32"));
  // kA and kA + 32 sets * 128 B * 4 share the common-tag, so both chunks land in one line.
  d.load(kA, 32);
  d.load(kA + 32, 32);
  d.load(kA + 64, 32);
  uint32_t lines_used = 0;
  for (uint32_t w = 0; w < 4; ++w) lines_used += d.l1.line(0, w).valid();
  EXPECT_EQ(lines_used, 1u);
  EXPECT_EQ(d.l1.line(0, 0).valid_mask(), 0x7);
  EXPECT_EQ(d.load(kA + 32, 32).outcome, Outcome::kHit);
}

TEST(L1DyCache, G64Request128HitsTwoPieces) {
  L1Driver d(linear("elastic64"));
  d.load(kA, 64);
  d.load(kA + 64, 64);
  EXPECT_EQ(d.load(kA, 128).outcome, Outcome::kHit);
}

Config dynamic(uint32_t sample) {
  Config c = linear("dycache");
  c.policy.dycache.sample_requests = sample;
  return c;
}

TEST(L1DyCache, SwitchLargeToSmallKeepsEverything) {
  L1Driver d(dynamic(8));
  for (uint32_t i = 0; i < 8; ++i) d.load(kA + Addr{i} * 128, 32);  // poor locality, fine: -> 32
  EXPECT_EQ(d.l1.granularity(), 32u);
  EXPECT_EQ(d.l1.counters().granularity_switches, 1u);
  EXPECT_EQ(d.l1.counters().flush_cycles, 0u);
  EXPECT_EQ(d.load(kA + 96, 32).outcome, Outcome::kHit);  // the 128 B pieces survive
}

TEST(L1DyCache, SwitchSmallToLargeFlushesAndWritesBack) {
  L1Driver d(dynamic(8));
  for (uint32_t i = 0; i < 8; ++i) d.load(kA + Addr{i} * 128, 32);
  ASSERT_EQ(d.l1.granularity(), 32u);
  d.store(kA + 32, 32, 0x3C);  // dirty slot
  for (uint32_t i = 0; i < 7; ++i) d.load(kA + Addr{100 + i} * 128, 128);  // poor, coarse: -> 128
  EXPECT_EQ(d.l1.granularity(), 128u);
  d.run(400);
  EXPECT_EQ(d.l1.counters().flush_cycles, 32u * 4u);
  EXPECT_EQ(d.mem_byte(kA + 40), 0x3C);
  for (uint32_t s = 0; s < 32; ++s)
    for (uint32_t w = 0; w < 4; ++w) EXPECT_FALSE(d.l1.line(s, w).valid()) << s << "/" << w;
  EXPECT_EQ(d.load(kA + 32, 32).data[40], 0x3C);
}

// Found by the soak test: a 32 B block fetched at G=32 that returns after the switch to
// G=128 must not be placed (the head-only match assumes pieces of at least G).
TEST(L1DyCache, LateSmallFillAfterSwitchToLargeIsNotPlaced) {
  L1Driver d(dynamic(8), 300);
  for (uint32_t i = 0; i < 8; ++i) d.load(kA + Addr{i} * 128, 32);
  ASSERT_EQ(d.l1.granularity(), 32u);
  auto send = [&](uint32_t id, Addr a, uint32_t size) {
    CoreReq q;
    q.id = id;
    q.addr = a;
    q.size = size;
    q.byte_mask = testing::range_mask(a, size);
    while (!d.step(q)) {
    }
  };
  send(1000, kA + 50 * 128, 32);  // fetches one sector at G=32
  for (uint32_t i = 0; i < 7; ++i) send(1001 + i, kA + Addr{60 + i} * 128, 128);
  d.run(2);
  ASSERT_EQ(d.l1.granularity(), 128u);
  d.run(1500);
  bool answered = false;
  for (const CoreResp& r : d.responses)
    if (r.id == 1000) {
      answered = true;
      EXPECT_EQ(r.outcome, Outcome::kBypassReturn);
    }
  EXPECT_TRUE(answered);
  EXPECT_EQ(d.load(kA + 50 * 128, 32).outcome, Outcome::kMissReturn);
}

TEST(L1DyCache, KeepLargePiecesOptionKeepsCompleteLines) {
  Config c = dynamic(8);
  c.policy.dycache.keep_large_pieces = true;
  L1Driver d(c);
  for (uint32_t i = 0; i < 8; ++i) d.load(kA + Addr{i} * 128, 32);  // 128 B pieces, -> G=32
  for (uint32_t i = 0; i < 8; ++i) d.load(kA + Addr{100 + i} * 128, 128);  // -> G=128
  d.run(400);
  EXPECT_EQ(d.l1.granularity(), 128u);
  EXPECT_EQ(d.load(kA + 128, 128).outcome, Outcome::kHit);
}

// SPEC 5: with reset 15 and threshold 8 the first miss bypasses; the L2 bit lets the reused
// block in; hits then lower the PC's counter until it predicts "cache".
TEST(L1Agcb, CountersFallOnReuseOnceTheL2BitLetsABlockIn) {
  L1Driver d(linear("agcb"));
  const uint64_t pc = 0x400;
  const uint32_t h = d.l1.agcb().hash(pc);
  EXPECT_EQ(d.load(kA, 128, pc).outcome, Outcome::kBypassReturn);
  EXPECT_TRUE(d.sent[0].agcb_bypass);
  EXPECT_TRUE(d.l2_bits[kA]);
  EXPECT_EQ(d.load(kA, 128, pc).outcome, Outcome::kMissReturn);  // L2 override: cached
  EXPECT_FALSE(d.l2_bits[kA]);
  EXPECT_EQ(d.l1.counters().agcb_overrides, 1u);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(d.load(kA, 128, pc).outcome, Outcome::kHit);
  EXPECT_EQ(d.l1.agcb().counter(h), 7u);
  EXPECT_EQ(d.load(kA + 128, 128, pc).outcome, Outcome::kMissReturn);  // predicted "cache" now
  EXPECT_FALSE(d.sent.back().bypass);
}

TEST(L1Agcb, VictimEvictionRaisesTheVictimsCounter) {
  L1Driver d(linear("agcb"));
  // Bring 4 blocks of PC A into set 0 through the override path.
  for (uint32_t n = 0; n < 4; ++n) {
    d.load(same_set(n), 128, 0xA00);
    d.load(same_set(n), 128, 0xA00);
  }
  const uint32_t ha = d.l1.agcb().hash(0xA00);
  for (uint32_t i = 0; i < 8; ++i) d.load(same_set(0), 128, 0xB00);  // hits lower A's counter
  const uint32_t before = d.l1.agcb().counter(ha);
  d.load(same_set(9), 128, 0xC00);
  d.load(same_set(9), 128, 0xC00);  // override fill evicts an A block
  EXPECT_EQ(d.l1.agcb().counter(ha), before + 1);
}

TEST(L1TwoLevel, HighMissRateEntersBypassMode) {
  Config c = linear("two-level");
  c.policy.two_level.window_cycles = 50;
  c.policy.two_level.bypass_period_cycles = 1000;
  L1Driver d(c);
  for (uint32_t i = 0; i < 40 && !d.l1.two_level().bypass(); ++i) d.load(kA + Addr{i} * 128, 128);  // all misses
  ASSERT_TRUE(d.l1.two_level().bypass());
  EXPECT_EQ(d.load(kA + 0x10000, 128).outcome, Outcome::kBypassReturn);
  EXPECT_TRUE(d.sent.back().bypass);
  EXPECT_EQ(d.load(kA, 128).outcome, Outcome::kHit);  // B mode still serves a present copy
}

TEST(L1Pcal, NonTokenMissBypassesAndNonTokenHitIsServed) {
  L1Driver d(linear("pcal"));
  EXPECT_EQ(d.load(kA, 128, 0x100, /*token=*/false).outcome, Outcome::kBypassReturn);
  EXPECT_EQ(d.l1.counters().fills_allocated, 0u);
  EXPECT_EQ(d.load(kA, 128, 0x100, true).outcome, Outcome::kMissReturn);
  EXPECT_TRUE(d.l1.line(0, 0).priority);
  EXPECT_EQ(d.load(kA, 128, 0x100, false).outcome, Outcome::kHit);
}

TEST(L1Pcal, BtoFetchesOnlyTouchedSectors) {
  L1Driver d(linear("pcal-bto"));
  CoreReq q;
  q.addr = kA;
  q.size = 128;
  q.token = false;
  q.byte_mask = testing::range_mask(kA + 64, 4);
  d.request(q);
  EXPECT_EQ(d.sent.back().sectors, 0x4);
}

TEST(L1Pcal, OpportunisticFillsAnUnownedLine) {
  Config c = linear("pcal");
  c.policy.pcal.opportunistic = true;
  L1Driver d(c);
  EXPECT_EQ(d.load(kA, 128, 0x100, false).outcome, Outcome::kMissReturn);
  EXPECT_FALSE(d.l1.line(0, 0).priority);
}

TEST(L1Pcal, OpportunisticWithNoEligibleLineFallsBackToBypass) {
  Config c = linear("pcal");
  c.policy.pcal.opportunistic = true;
  L1Driver d(c);
  for (uint32_t n = 0; n < 4; ++n) d.load(same_set(n), 128, 0x100, true);  // token holders own all 4 ways
  EXPECT_EQ(d.load(same_set(7), 128, 0x100, false).outcome, Outcome::kBypassReturn);
  d.extra = [](L1Inputs& in) { in.kernel_end = true; };  // kernel end clears the priority bits
  d.step();
  EXPECT_EQ(d.load(same_set(7), 128, 0x100, false).outcome, Outcome::kMissReturn);
}

TEST(L1Events, KernelEndWritesBackAndInvalidatesEverything) {
  L1Driver d(linear("dycache"));
  d.load(kA, 128);
  d.load(kA + 128, 128);
  d.store(kA + 128, 32, 0x42);
  d.extra = [](L1Inputs& in) { in.kernel_end = true; };
  d.step();
  d.run(200);
  EXPECT_TRUE(d.l1.idle());
  EXPECT_EQ(d.l1.counters().flush_cycles, 32u * 4u);
  EXPECT_EQ(d.mem_byte(kA + 130), 0x42);
  for (uint32_t s = 0; s < 32; ++s)
    for (uint32_t w = 0; w < 4; ++w) EXPECT_FALSE(d.l1.line(s, w).valid());
  EXPECT_EQ(d.load(kA, 128).outcome, Outcome::kMissReturn);
}

void launch(L1Driver& d, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    d.extra = [](L1Inputs& in) { in.warp_launch = true; };
    d.step();
  }
}

TEST(L1AgeLru, InactiveWarpsLinesGoFirst) {
  L1Driver d(linear("agelru"));
  launch(d, 4);  // AWIDs 0..3
  for (uint8_t w = 0; w < 4; ++w) d.load(same_set(w), 128, 0x100, true, w);
  d.extra = [](L1Inputs& in) {  // the oldest warp (0) exits; 1 is now the oldest
    in.warp_exit = true;
    in.exit_awid = 0;
    in.exit_has_next = true;
    in.exit_next_oldest = 1;
  };
  d.step();
  d.load(same_set(0), 128, 0x100, true, 3);  // a hit makes warp 0's line MRU; its owner stays 0
  d.load(same_set(5), 128, 0x100, true, 3);  // the fill evicts it all the same: its owner is inactive
  EXPECT_NE(d.load(same_set(1), 128, 0x100, true, 3).outcome, Outcome::kMissReturn);
  EXPECT_EQ(d.load(same_set(0), 128, 0x100, true, 3).outcome, Outcome::kMissReturn);
}

TEST(L1AgeLru, AllOwnersActiveFallsBackToYoungestWarpsLru) {
  L1Driver d(linear("agelru"));
  launch(d, 4);
  d.load(same_set(0), 128, 0x100, true, 3);  // youngest warp's line, least recently used
  d.load(same_set(1), 128, 0x100, true, 0);
  d.load(same_set(2), 128, 0x100, true, 3);
  d.load(same_set(3), 128, 0x100, true, 1);
  d.load(same_set(4), 128, 0x100, true, 0);  // no inactive owner: victim = LRU of warp 3's lines
  EXPECT_EQ(d.load(same_set(1), 128, 0x100, true, 0).outcome, Outcome::kHit);
  EXPECT_EQ(d.load(same_set(2), 128, 0x100, true, 0).outcome, Outcome::kHit);
  EXPECT_EQ(d.load(same_set(0), 128, 0x100, true, 0).outcome, Outcome::kMissReturn);
}

TEST(L1AgeLru, BypassWhenRequesterIsYoungerThanTheVictimsOwner) {
  L1Driver d(linear("agelru-bypass"));
  launch(d, 8);
  for (uint32_t n = 0; n < 4; ++n) d.load(same_set(n), 128, 0x100, true, 2);
  EXPECT_EQ(d.load(same_set(6), 128, 0x100, true, 5).outcome, Outcome::kBypassReturn);
  EXPECT_EQ(d.load(same_set(6), 128, 0x100, true, 1).outcome, Outcome::kMissReturn);  // older: allocates
}

TEST(L1Mshr, MergeLimitThenMergeFullUntilTheFill) {
  Config c = linear();
  L1Driver d(c, 200);
  for (uint32_t i = 0; i < 10; ++i) {
    CoreReq q;
    q.id = 1 + i;
    q.addr = kA + (i % 4) * 32;
    q.size = 32;
    q.byte_mask = testing::range_mask(q.addr, 32);
    while (!d.step(q)) {
    }
  }
  // 1 allocates, 7 merge (8 per entry), the 9th waits in S1 with merge_full until the fill.
  EXPECT_EQ(d.l1.counters().merges, 7u);
  EXPECT_GT(d.l1.counters().res_fail[static_cast<int>(ResFail::kMergeFull)], 100u);
  d.run(300);
  EXPECT_EQ(d.responses.size(), 10u);
  EXPECT_TRUE(d.l1.idle());
}

TEST(L1Mshr, AllEntriesBusyGivesMshrFull) {
  Config c = linear();
  c.l1.miss_queue_entries = 64;
  L1Driver d(c, 500);
  for (uint32_t i = 0; i < 34; ++i) {
    CoreReq q;
    q.id = 1 + i;
    q.addr = kA + Addr{i} * 128;
    q.size = 128;
    q.byte_mask = testing::range_mask(q.addr, 128);
    d.step(q);
    d.step();
  }
  EXPECT_EQ(d.l1.mshr().in_use(), 32u);
  EXPECT_GT(d.l1.counters().res_fail[static_cast<int>(ResFail::kMshrFull)], 0u);
  d.run(1000);
  EXPECT_TRUE(d.l1.idle());
}

TEST(L1Errors, ResponseForAnIdleMshrIsRejected) {
  L1Driver d(linear());
  d.extra = [](L1Inputs& in) {
    in.mem_resp_valid = true;
    in.mem_resp.mshr = 3;
  };
  EXPECT_THROW(d.step(), std::logic_error);
}

TEST(L1Errors, MisalignedRequestIsRejected) {
  L1Driver d(linear());
  CoreReq q;
  q.addr = kA + 32;
  q.size = 64;
  q.byte_mask = testing::range_mask(kA + 32, 4);
  EXPECT_THROW(d.step(q), std::invalid_argument);
}

TEST(L1Errors, ByteMaskOutsideRequestIsRejected) {
  L1Driver d(linear());
  CoreReq q;
  q.addr = kA;
  q.size = 32;
  q.byte_mask = testing::range_mask(kA + 64, 4);
  EXPECT_THROW(d.step(q), std::invalid_argument);
}

TEST(L1Events, WarpLaunchAndExitMoveTheAgeCounters) {
  L1Driver d(linear("agelru"));
  launch(d, 3);
  EXPECT_EQ(d.l1.ages().oldest(), 0);
  EXPECT_EQ(d.l1.ages().youngest(), 2);
  d.extra = [](L1Inputs& in) {
    in.warp_exit = true;
    in.exit_awid = 0;
    in.exit_has_next = true;
    in.exit_next_oldest = 2;
  };
  d.step();
  EXPECT_EQ(d.l1.ages().oldest(), 2);
  EXPECT_FALSE(d.l1.ages().active(1));
}

}  // namespace
}  // namespace l1d::golden

namespace l1d::golden {
namespace {

// Accel-Sim's L1D units (AccelSimCounters, golden/l1.h): per 32 B sector of the request, by
// outcome; a reservation failure per failed attempt.
TEST(L1AccelSimCounts, SectorsByOutcome) {
  L1Driver d(linear(), 200);
  d.load(kA, 128);  // a miss: 4 sectors
  d.load(kA, 64);   // a hit: 2
  d.store(kA + 96, 32, 7);            // a write hit: 1
  d.store(kA + 0x100000, 64, 7);      // a write miss: 2
  const AccelSimCounters& a = d.l1.accelsim();
  EXPECT_EQ(a.read.miss, 4u);
  EXPECT_EQ(a.read.hit, 2u);
  EXPECT_EQ(a.write.hit, 1u);
  EXPECT_EQ(a.write.miss, 2u);

  // Ten 32 B loads of one new line back to back: the first allocates (1 sector), seven merge
  // (1 each), the ninth and tenth wait with merge_full, one sector per failed attempt, and hit
  // once the fill has placed the line.
  for (uint32_t i = 0; i < 10; ++i) {
    CoreReq q;
    q.id = 100 + i;
    q.addr = kA + 0x200000 + (i % 4) * 32;
    q.size = 32;
    q.byte_mask = testing::range_mask(q.addr, 32);
    while (!d.step(q)) {
    }
  }
  d.run(400);
  EXPECT_EQ(a.read.mshr_hit, 7u);
  EXPECT_EQ(a.read.res_fail, d.l1.counters().res_fail[static_cast<int>(ResFail::kMergeFull)]);
  EXPECT_GT(a.read.res_fail, 0u);
  EXPECT_EQ(a.read.miss, 4u + 1u);
  EXPECT_EQ(a.read.hit, 2u + 2u);  // the two that waited hit the filled line
}

TEST(L1AccelSimCounts, AMissBesideAChunkOfItsLineIsASectorMiss) {
  L1Driver d(linear("elastic32"), 200);  // granularity 32: a line holds chunks of several blocks
  d.load(kA, 32);                        // chunk 0 of the line: a miss (1 sector)
  const CoreResp r = d.load(kA, 64);     // chunks 0-1: chunk 0 is there, chunk 1 is not
  EXPECT_NE(r.outcome, Outcome::kHit);
  EXPECT_EQ(d.l1.accelsim().read.miss, 1u);
  EXPECT_EQ(d.l1.accelsim().read.sector_miss, 2u);
  EXPECT_EQ(d.l1.counters().partial_hits, 1u);
}

}  // namespace
}  // namespace l1d::golden
