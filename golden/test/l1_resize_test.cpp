// golden::L1::resize_sets (l1.carveout adaptive, docs/simulator.md "L1 carveout"): refused while the
// L1 is busy or holds lines, allowed after the kernel-end flush / invalidate, and the resized L1
// then holds as many lines as its new sets give, with correct data.
#include <gtest/gtest.h>

#include <stdexcept>

#include "golden/test/l1_driver.h"

namespace l1d::golden {
namespace {

using testing::L1Driver;

// qv100's L1: a sector cache of 4 sets x 64 ways, write-through.
Config qv100() { return testing::preset("qv100"); }

// Kernel end, then cycles until the flush / invalidate is done.
void end_kernel(L1Driver& d) {
  d.extra = [](L1Inputs& in) { in.kernel_end = true; };
  d.step();
  for (int i = 0; i < 100000 && !d.l1.idle(); ++i) d.step();
  ASSERT_TRUE(d.l1.idle());
}

// Loads `lines` consecutive 128 B lines from `base`, then loads them again; returns the hits of the
// second pass, checking every response's bytes against memory.
uint64_t second_pass_hits(L1Driver& d, Addr base, uint32_t lines) {
  for (uint32_t i = 0; i < lines; ++i) d.load(base + Addr{i} * 128, 128);
  const uint64_t before = d.l1.counters().hits;
  for (uint32_t i = 0; i < lines; ++i) {
    const Addr a = base + Addr{i} * 128;
    const CoreResp r = d.load(a, 128);
    for (uint32_t b = 0; b < 128; b += 37) EXPECT_EQ(r.data[b], d.mem_byte(a + b)) << std::hex << a + b;
  }
  return d.l1.counters().hits - before;
}

TEST(L1Resize, RefusedWhileBusyOrHoldingLines) {
  L1Driver d(qv100(), /*latency=*/50);
  CoreReq q;
  q.id = 99;
  q.addr = 0x4000;
  q.size = 128;
  q.byte_mask = testing::range_mask(q.addr, 128);
  ASSERT_TRUE(d.step(q));
  d.step();
  ASSERT_FALSE(d.l1.idle());  // the miss is in flight
  EXPECT_THROW(d.l1.resize_sets(16), std::logic_error);
  d.run(200);
  ASSERT_TRUE(d.l1.idle());
  ASSERT_FALSE(d.l1.empty());  // the fill left a valid line
  EXPECT_THROW(d.l1.resize_sets(16), std::logic_error);
  EXPECT_EQ(d.l1.split().sets(), 4u);  // a refused resize changes nothing
  EXPECT_FALSE(d.l1.empty());
}

TEST(L1Resize, AfterKernelEndTheNewSetsHoldTheirLines) {
  // 1024 lines (128 KB) fit 16 sets x 64 ways but not 4 sets: the second pass hits only when the
  // resize took effect.
  L1Driver d(qv100());
  d.load(0x8000, 128);
  end_kernel(d);
  ASSERT_TRUE(d.l1.empty());
  d.l1.resize_sets(16);
  EXPECT_EQ(d.l1.split().sets(), 16u);
  EXPECT_EQ(d.l1.replacement().sets(), 16u);
  EXPECT_EQ(second_pass_hits(d, 0x100000, 1024), 1024u);
  d.l1.check_invariants();

  // Back to 4 sets: the same pass now thrashes (LRU, 256 lines of capacity, 1024 in the loop).
  end_kernel(d);
  d.l1.resize_sets(4);
  EXPECT_EQ(second_pass_hits(d, 0x100000, 1024), 0u);
}

TEST(L1Resize, StoresAndLoadsStayCorrectAcrossAResize) {
  L1Driver d(qv100());
  d.store(0x20040, 32, 0x5a);
  end_kernel(d);
  d.l1.resize_sets(8);
  const CoreResp r = d.load(0x20040, 32);
  EXPECT_EQ(r.data[0x40], 0x5a);
  d.store(0x20040, 32, 0xa5);  // write-through: memory and the L1's copy both change
  EXPECT_EQ(d.load(0x20040, 32).data[0x40], 0xa5);
  EXPECT_EQ(d.mem_byte(0x20040), 0xa5);
}

// Write allocation (qv100-accelsim: lazy_fetch_on_read): a partial store leaves a written slot, which
// empty() does not count; the resize is refused until the kernel end (invalidate) clears it.
TEST(L1Resize, RefusedWhileAWrittenSlotRemains) {
  L1Driver d(testing::preset("qv100-accelsim"));
  CoreReq q;  // a 32 B store request writing 4 of its bytes: its sector is allocated written
  q.op = MemOp::kStore;
  q.addr = 0x20040;
  q.size = 32;
  q.byte_mask = testing::range_mask(q.addr, 4);
  q.data[0x40] = 0x5a;
  d.request(q);
  d.run(200);
  ASSERT_TRUE(d.l1.idle());
  ASSERT_TRUE(d.l1.empty());  // no valid or reserved slot: the store wrote through and allocated written
  uint32_t written = 0;
  for (uint32_t set = 0; set < d.l1.split().sets(); ++set)
    for (uint32_t way = 0; way < 64; ++way)  // qv100-accelsim: 64 ways
      for (const Slot& slot : d.l1.line(set, way).slot) written += slot.written;
  ASSERT_EQ(written, 1u);
  EXPECT_THROW(d.l1.resize_sets(16), std::logic_error);
  EXPECT_EQ(d.l1.split().sets(), 4u);
  end_kernel(d);
  d.l1.resize_sets(16);
  EXPECT_EQ(d.l1.split().sets(), 16u);
}

TEST(L1Resize, ASetCountTheAddressCannotIndexIsAConfigError) {
  L1Driver d(qv100());
  EXPECT_THROW(d.l1.resize_sets(3), ConfigError);
  EXPECT_EQ(d.l1.split().sets(), 4u);
}

}  // namespace
}  // namespace l1d::golden
