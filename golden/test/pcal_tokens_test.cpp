// PCAL EBTNum decode and warp-token unit (SPEC section 7).
#include "golden/pcal_tokens.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

namespace l1d::golden {
namespace {

constexpr uint32_t kMaxWarps = 48;

// The slots currently holding a token, in slot order.
std::vector<uint32_t> holders(const PcalTokenUnit& u, uint32_t max_warps = kMaxWarps) {
  std::vector<uint32_t> out;
  for (uint32_t w = 0; w < max_warps; ++w) {
    if (u.has_token(w)) out.push_back(w);
  }
  return out;
}

void launch_all(PcalTokenUnit& u, const std::vector<uint32_t>& warps) {
  for (uint32_t w : warps) u.launch(w);
}

TEST(PcalDecode, ZeroIsPureThrottling) {
  const PcalLimits l = pcal_decode(4, 0, kMaxWarps);
  EXPECT_EQ(l.active_warps, 4u);
  EXPECT_EQ(l.tokens, 4u);
}

TEST(PcalDecode, PositiveAddsExtraNonTokenWarps) {
  const PcalLimits l = pcal_decode(4, 3, kMaxWarps);
  EXPECT_EQ(l.active_warps, 7u);
  EXPECT_EQ(l.tokens, 4u);
}

TEST(PcalDecode, NegativeTakesTokensKeepingTlp) {
  const PcalLimits l = pcal_decode(8, -3, kMaxWarps);
  EXPECT_EQ(l.active_warps, 8u);
  EXPECT_EQ(l.tokens, 5u);
}

TEST(PcalDecode, NegativeKeepsAtLeastOneToken) {
  PcalLimits l = pcal_decode(8, -100, kMaxWarps);
  EXPECT_EQ(l.active_warps, 8u);
  EXPECT_EQ(l.tokens, 1u);
  l = pcal_decode(3, -3, kMaxWarps);  // warp_opt + ebt == 0 exactly
  EXPECT_EQ(l.tokens, 1u);
  l = pcal_decode(1, INT32_MIN, kMaxWarps);  // no overflow at the extreme
  EXPECT_EQ(l.active_warps, 1u);
  EXPECT_EQ(l.tokens, 1u);
}

TEST(PcalDecode, ActiveWarpsCappedAtMaxWarps) {
  PcalLimits l = pcal_decode(40, 20, kMaxWarps);
  EXPECT_EQ(l.active_warps, 48u);
  EXPECT_EQ(l.tokens, 40u);
  l = pcal_decode(2, INT32_MAX, kMaxWarps);
  EXPECT_EQ(l.active_warps, 48u);
  EXPECT_EQ(l.tokens, 2u);
}

TEST(PcalDecode, TokensNeverExceedActiveWarps) {
  const PcalLimits l = pcal_decode(60, 0, kMaxWarps);  // warp_opt beyond the hardware
  EXPECT_EQ(l.active_warps, 48u);
  EXPECT_EQ(l.tokens, 48u);
}

TEST(PcalDecode, RejectsZeroWarpOpt) {
  EXPECT_THROW(pcal_decode(0, 0, kMaxWarps), std::invalid_argument);
  EXPECT_THROW(pcal_decode(0, 5, kMaxWarps), std::invalid_argument);
  EXPECT_THROW(pcal_decode(4, 0, 0), std::invalid_argument);
}

TEST(PcalTokenUnit, UnlimitedByDefaultEveryWarpHoldsAToken) {
  PcalTokenUnit u(kMaxWarps);
  EXPECT_EQ(u.token_limit(), kMaxWarps);
  EXPECT_EQ(u.tokens_held(), 0u);
  for (uint32_t w = 0; w < kMaxWarps; ++w) u.launch(w);
  EXPECT_EQ(u.tokens_held(), kMaxWarps);
  EXPECT_EQ(holders(u).size(), kMaxWarps);
}

TEST(PcalTokenUnit, TokensGoToTheOldestWarps) {
  PcalTokenUnit u(kMaxWarps);
  u.set_tokens(3);
  launch_all(u, {0, 1, 2, 3, 4, 5});
  EXPECT_EQ(holders(u), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(u.tokens_held(), 3u);
}

TEST(PcalTokenUnit, AgeIsLaunchOrderNotSlotNumber) {
  PcalTokenUnit u(kMaxWarps);
  u.set_tokens(2);
  launch_all(u, {5, 2, 7, 1});
  EXPECT_EQ(u.age_order(), (std::vector<uint32_t>{5, 2, 7, 1}));
  EXPECT_TRUE(u.has_token(5));
  EXPECT_TRUE(u.has_token(2));
  EXPECT_FALSE(u.has_token(7));
  EXPECT_FALSE(u.has_token(1));
}

TEST(PcalTokenUnit, HolderExitPassesTokenToOldestNonHolder) {
  PcalTokenUnit u(kMaxWarps);
  u.set_tokens(2);
  launch_all(u, {10, 11, 12, 13});
  u.exit(10);
  EXPECT_FALSE(u.resident(10));
  EXPECT_FALSE(u.has_token(10));
  EXPECT_TRUE(u.has_token(12));   // oldest warp without a token
  EXPECT_FALSE(u.has_token(13));  // younger ones keep waiting
  EXPECT_EQ(holders(u), (std::vector<uint32_t>{11, 12}));
}

TEST(PcalTokenUnit, HolderExitWithNoWaitingWarpLeavesTokenFree) {
  PcalTokenUnit u(kMaxWarps);
  u.set_tokens(2);
  launch_all(u, {0, 1});
  u.exit(0);
  EXPECT_EQ(u.tokens_held(), 1u);
  u.launch(2);  // the freed token is picked up by the next launch
  EXPECT_TRUE(u.has_token(2));
  EXPECT_EQ(u.tokens_held(), 2u);
}

TEST(PcalTokenUnit, NonHolderExitChangesNothing) {
  PcalTokenUnit u(kMaxWarps);
  u.set_tokens(2);
  launch_all(u, {0, 1, 2, 3});
  u.exit(2);
  EXPECT_EQ(holders(u), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(u.age_order(), (std::vector<uint32_t>{0, 1, 3}));
}

TEST(PcalTokenUnit, SetTokensUpGivesToOldestNonHolders) {
  PcalTokenUnit u(kMaxWarps);
  u.set_tokens(1);
  launch_all(u, {4, 3, 2, 1, 0});
  u.set_tokens(3);
  EXPECT_EQ(u.token_limit(), 3u);
  EXPECT_TRUE(u.has_token(4));
  EXPECT_TRUE(u.has_token(3));
  EXPECT_TRUE(u.has_token(2));
  EXPECT_FALSE(u.has_token(1));
  EXPECT_FALSE(u.has_token(0));
}

TEST(PcalTokenUnit, SetTokensDownTakesFromYoungestHolders) {
  PcalTokenUnit u(kMaxWarps);
  launch_all(u, {4, 3, 2, 1, 0});  // unlimited: all hold
  u.set_tokens(2);
  EXPECT_EQ(u.tokens_held(), 2u);
  EXPECT_TRUE(u.has_token(4));
  EXPECT_TRUE(u.has_token(3));
  EXPECT_FALSE(u.has_token(2));
  // A later exit of a holder hands its token on under the new limit.
  u.exit(4);
  EXPECT_EQ(holders(u), (std::vector<uint32_t>{2, 3}));
}

TEST(PcalTokenUnit, SetTokensAboveMaxIsClamped) {
  PcalTokenUnit u(8);
  u.set_tokens(100);
  EXPECT_EQ(u.token_limit(), 8u);
  u.set_tokens(0);  // zero tokens: every resident warp bypasses
  launch_all(u, {0, 1});
  EXPECT_EQ(u.tokens_held(), 0u);
}

TEST(PcalTokenUnit, RelaunchedWarpIsYoungest) {
  PcalTokenUnit u(kMaxWarps);
  u.set_tokens(2);
  launch_all(u, {0, 1, 2});
  u.exit(0);  // token passes to 2
  u.launch(0);
  EXPECT_EQ(u.age_order(), (std::vector<uint32_t>{1, 2, 0}));
  EXPECT_FALSE(u.has_token(0));
  EXPECT_EQ(holders(u), (std::vector<uint32_t>{1, 2}));
}

TEST(PcalTokenUnit, MisuseThrows) {
  PcalTokenUnit u(kMaxWarps);
  u.launch(3);
  EXPECT_THROW(u.launch(3), std::logic_error);
  EXPECT_THROW(u.exit(4), std::logic_error);
  EXPECT_THROW(u.launch(kMaxWarps), std::out_of_range);
  EXPECT_THROW(u.has_token(kMaxWarps), std::out_of_range);
  EXPECT_THROW(PcalTokenUnit(0), std::invalid_argument);
  // A failed call leaves the state untouched.
  EXPECT_EQ(u.age_order(), (std::vector<uint32_t>{3}));
  EXPECT_TRUE(u.has_token(3));
}

TEST(PcalTokenUnit, ResetReturnsToConstructedState) {
  PcalTokenUnit u(kMaxWarps);
  u.set_tokens(1);
  launch_all(u, {0, 1, 2});
  u.reset();
  EXPECT_TRUE(u.age_order().empty());
  EXPECT_EQ(u.tokens_held(), 0u);
  EXPECT_EQ(u.token_limit(), kMaxWarps);
  EXPECT_FALSE(u.resident(0));
  launch_all(u, {2, 1});
  EXPECT_EQ(holders(u), (std::vector<uint32_t>{1, 2}));
}

// Reference model: a plain list of resident slots, oldest first, plus the limit. The
// expected holders are simply its first min(limit, size) entries.
TEST(PcalTokenUnit, RandomOpsKeepTokensOnTheOldestResidents) {
  constexpr uint32_t kWarps = 16;  // small, so the unit is often full and often empty
  PcalTokenUnit u(kWarps);
  std::vector<uint32_t> ref_order;
  uint32_t ref_limit = kWarps;
  std::mt19937 rng(20140611u);
  std::uniform_int_distribution<uint32_t> op_dist(0, 9);
  std::uniform_int_distribution<uint32_t> slot_dist(0, kWarps - 1);
  std::uniform_int_distribution<uint32_t> limit_dist(0, kWarps + 2);

  for (int step = 0; step < 10000; ++step) {
    const uint32_t op = op_dist(rng);
    if (op < 5) {  // launch into a random free slot
      std::vector<uint32_t> free_slots;
      for (uint32_t w = 0; w < kWarps; ++w) {
        if (std::find(ref_order.begin(), ref_order.end(), w) == ref_order.end()) {
          free_slots.push_back(w);
        }
      }
      if (free_slots.empty()) continue;
      const uint32_t w = free_slots[slot_dist(rng) % free_slots.size()];
      u.launch(w);
      ref_order.push_back(w);
    } else if (op < 9) {  // exit a random resident warp
      if (ref_order.empty()) continue;
      const auto it = ref_order.begin() + static_cast<long>(slot_dist(rng) % ref_order.size());
      u.exit(*it);
      ref_order.erase(it);
    } else {
      const uint32_t limit = limit_dist(rng);
      u.set_tokens(limit);
      ref_limit = std::min(limit, kWarps);
    }

    ASSERT_EQ(u.age_order(), ref_order) << "step " << step;
    const size_t n = std::min<size_t>(ref_limit, ref_order.size());
    std::vector<uint32_t> expected(ref_order.begin(), ref_order.begin() + static_cast<long>(n));
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(holders(u, kWarps), expected) << "step " << step;
    ASSERT_EQ(u.tokens_held(), n) << "step " << step;
    for (uint32_t w = 0; w < kWarps; ++w) {
      const bool is_resident =
          std::find(ref_order.begin(), ref_order.end(), w) != ref_order.end();
      ASSERT_EQ(u.resident(w), is_resident) << "step " << step << " warp " << w;
    }
  }
}

}  // namespace
}  // namespace l1d::golden
