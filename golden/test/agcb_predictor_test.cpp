// AGCB predictor table and L2 bypass-bit protocol (SPEC section 5).
#include "golden/agcb_predictor.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

namespace l1d::golden {
namespace {

AgcbPredictor make_default(uint32_t instruction_bytes = 8) {
  return AgcbPredictor(AgcbConfig{}, instruction_bytes);
}

// One L1 line as the predictor sees it: the hashed PC of its last accessor (SPEC 5).
struct Line {
  bool valid = false;
  uint32_t hpc = 0;
};

// SPEC 5 read hit: credit the previous accessor, then remember the current one.
void read_hit(AgcbPredictor& p, Line& line, uint32_t hpc) {
  p.on_read_hit(line.hpc);
  line.hpc = hpc;
}

TEST(AgcbPredictor, AllEntriesResetTo15AndPredictBypass) {
  const AgcbPredictor p = make_default();
  ASSERT_EQ(p.entries(), 256u);
  for (uint32_t i = 0; i < p.entries(); ++i) {
    EXPECT_EQ(p.counter(i), 15u) << "entry " << i;
    EXPECT_TRUE(p.predict_bypass(i)) << "entry " << i;
  }
}

TEST(AgcbPredictor, ThresholdBoundarySevenCachesEightBypasses) {
  AgcbPredictor p = make_default();
  for (int i = 0; i < 7; ++i) p.on_read_hit(3);  // 15 -> 8
  EXPECT_EQ(p.counter(3), 8u);
  EXPECT_TRUE(p.predict_bypass(3));
  p.on_read_hit(3);  // 8 -> 7
  EXPECT_EQ(p.counter(3), 7u);
  EXPECT_FALSE(p.predict_bypass(3));
}

TEST(AgcbPredictor, DecrementSaturatesAtZero) {
  AgcbPredictor p = make_default();
  for (int i = 0; i < 40; ++i) p.on_read_hit(9);
  EXPECT_EQ(p.counter(9), 0u);
  EXPECT_FALSE(p.predict_bypass(9));
  p.on_victim(9);
  EXPECT_EQ(p.counter(9), 1u);  // no wrap-around hidden below zero
}

TEST(AgcbPredictor, IncrementSaturatesAtFifteen) {
  AgcbPredictor p = make_default();
  for (int i = 0; i < 40; ++i) p.on_victim(4);
  EXPECT_EQ(p.counter(4), 15u);
  p.on_read_hit(4);
  EXPECT_EQ(p.counter(4), 14u);  // no wrap-around hidden above fifteen
}

TEST(AgcbPredictor, UpdatesTouchOnlyTheirOwnEntry) {
  AgcbPredictor p = make_default();
  p.on_read_hit(10);
  p.on_read_hit(10);
  EXPECT_EQ(p.counter(10), 13u);
  EXPECT_EQ(p.counter(9), 15u);
  EXPECT_EQ(p.counter(11), 15u);
}

TEST(AgcbPredictor, CounterWidthAndThresholdComeFromConfig) {
  AgcbConfig cfg;
  cfg.entries = 64;
  cfg.counter_bits = 3;
  cfg.reset_value = 2;
  cfg.threshold = 3;
  AgcbPredictor p(cfg, 8);
  EXPECT_EQ(p.entries(), 64u);
  EXPECT_EQ(p.counter(63), 2u);
  EXPECT_FALSE(p.predict_bypass(63));
  for (int i = 0; i < 10; ++i) p.on_victim(63);
  EXPECT_EQ(p.counter(63), 7u);  // 2^3 - 1
  EXPECT_TRUE(p.predict_bypass(63));
  EXPECT_EQ(p.hash(64 * 8), 0u);  // the index is masked to 6 bits
}

TEST(AgcbPredictor, ResetRestoresResetValue) {
  AgcbPredictor p = make_default();
  p.on_read_hit(0);
  p.on_read_hit(255);
  p.reset();
  EXPECT_EQ(p.counter(0), 15u);
  EXPECT_EQ(p.counter(255), 15u);
}

TEST(AgcbPredictor, HashDropsEightByteInstructionBits) {
  const AgcbPredictor p = make_default(8);
  EXPECT_EQ(p.hash(0x0), 0u);
  EXPECT_EQ(p.hash(0x8), 1u);
  EXPECT_EQ(p.hash(0xF), 1u);  // bits below the instruction size are ignored
  EXPECT_EQ(p.hash(0x7F8), 255u);
  EXPECT_EQ(p.hash(0x800), 0u);  // 256 instructions later the index wraps
  EXPECT_EQ(p.hash(0xFFFF'FFFF'0000'0010ull), 2u);
}

TEST(AgcbPredictor, SixteenBytePcsMapToConsecutiveEntries) {
  const AgcbPredictor p = make_default(16);
  EXPECT_EQ(p.hash(0x00), 0u);
  EXPECT_EQ(p.hash(0x10), 1u);
  EXPECT_EQ(p.hash(0x20), 2u);
  EXPECT_EQ(p.hash(0x30), 3u);
  EXPECT_EQ(p.hash(0x1000), 0u);
}

TEST(AgcbPredictor, SixteenBytePcsReachAll256Entries) {
  const AgcbPredictor p = make_default(16);
  std::set<uint32_t> reached;
  std::set<uint64_t> raw_low_byte;  // what a hash without the shift would use
  for (uint64_t i = 0; i < 256; ++i) {
    const uint64_t pc = 0x4000 + i * 16;
    reached.insert(p.hash(pc));
    raw_low_byte.insert(pc & 0xFF);
  }
  EXPECT_EQ(reached.size(), 256u);
  EXPECT_EQ(*reached.rbegin(), 255u);
  EXPECT_EQ(raw_low_byte.size(), 16u);  // SPEC 5: the unshifted byte wastes 15/16 of the table
}

TEST(AgcbPredictor, RejectsShapesTheTableCannotHold) {
  AgcbConfig cfg;
  EXPECT_THROW(AgcbPredictor(cfg, 12), std::invalid_argument);
  EXPECT_THROW(AgcbPredictor(cfg, 0), std::invalid_argument);
  cfg.entries = 100;
  EXPECT_THROW(AgcbPredictor(cfg, 8), std::invalid_argument);
  cfg = AgcbConfig{};
  cfg.counter_bits = 3;  // 15 does not fit in 3 bits
  EXPECT_THROW(AgcbPredictor(cfg, 8), std::invalid_argument);
  cfg = AgcbConfig{};
  cfg.counter_bits = 9;
  cfg.reset_value = 0;
  EXPECT_THROW(AgcbPredictor(cfg, 8), std::invalid_argument);
}

TEST(AgcbPredictor, OutOfRangeIndexThrows) {
  AgcbPredictor p = make_default();
  EXPECT_THROW(p.predict_bypass(256), std::out_of_range);
  EXPECT_THROW(p.on_read_hit(256), std::out_of_range);
  EXPECT_THROW(p.on_victim(256), std::out_of_range);
}

TEST(AgcbL2BypassBit, FirstPredictionBypassesAndSetsBit) {
  bool bit = false;
  EXPECT_FALSE(l2_bypass_override(bit));
  EXPECT_TRUE(bit);
}

TEST(AgcbL2BypassBit, SecondPredictionIsOverriddenAndClearsBit) {
  bool bit = true;
  EXPECT_TRUE(l2_bypass_override(bit));
  EXPECT_FALSE(bit);
  // The protocol alternates: a third bypass prediction needs fresh evidence of reuse.
  EXPECT_FALSE(l2_bypass_override(bit));
  EXPECT_TRUE(bit);
}

// SPEC 5 "counters fall": with reset 15 / threshold 8 everything starts as bypass, and only
// the L2 bit lets a reused block into L1, where its hits train the counter down.
TEST(AgcbScenario, ReuseLetsCountersFallBelowThreshold) {
  AgcbPredictor p = make_default(8);
  const uint32_t hpc = p.hash(0x1A0);
  bool l2_bit_a = false;
  Line line;

  // First miss on block A: predicted bypass, verified by L2, bypasses.
  ASSERT_TRUE(p.predict_bypass(hpc));
  EXPECT_FALSE(l2_bypass_override(l2_bit_a));

  // Second miss on A: still predicted bypass, but L2 saw it before, so it is cached.
  ASSERT_TRUE(p.predict_bypass(hpc));
  ASSERT_TRUE(l2_bypass_override(l2_bit_a));
  line = Line{true, hpc};  // the fill stores the missing PC's hash (no victim: empty way)

  // Reuse: every hit lowers the counter of the PC that last touched the line.
  for (int i = 0; i < 7; ++i) read_hit(p, line, hpc);
  EXPECT_EQ(p.counter(hpc), 8u);
  EXPECT_TRUE(p.predict_bypass(hpc));
  read_hit(p, line, hpc);
  EXPECT_EQ(p.counter(hpc), 7u);

  // The next miss from that PC, to a never-seen block B, is now predicted "cache".
  EXPECT_FALSE(p.predict_bypass(hpc));
}

TEST(AgcbScenario, HitCreditsThePreviousAccessorNotTheCurrentOne) {
  AgcbPredictor p = make_default(8);
  const uint32_t producer = p.hash(0x100);
  const uint32_t consumer = p.hash(0x200);
  Line line{true, producer};
  read_hit(p, line, consumer);
  EXPECT_EQ(p.counter(producer), 14u);
  EXPECT_EQ(p.counter(consumer), 15u);
  EXPECT_EQ(line.hpc, consumer);
  read_hit(p, line, consumer);  // now the consumer is the previous accessor
  EXPECT_EQ(p.counter(producer), 14u);
  EXPECT_EQ(p.counter(consumer), 14u);
}

TEST(AgcbScenario, VictimEvictionsRaiseACounterBackOverThreshold) {
  AgcbPredictor p = make_default(8);
  const uint32_t hpc = p.hash(0x1A0);
  const uint32_t other = p.hash(0x3C0);
  for (int i = 0; i < 9; ++i) p.on_read_hit(hpc);  // 15 -> 6: caching
  ASSERT_FALSE(p.predict_bypass(hpc));

  // Fills by another PC evict lines last touched by hpc: hpc is charged, not the filler.
  p.on_victim(hpc);  // 7
  EXPECT_FALSE(p.predict_bypass(hpc));
  p.on_victim(hpc);  // 8
  EXPECT_EQ(p.counter(hpc), 8u);
  EXPECT_TRUE(p.predict_bypass(hpc));
  EXPECT_EQ(p.counter(other), 15u);
}

}  // namespace
}  // namespace l1d::golden
