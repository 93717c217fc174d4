// AgeLRU Oldest-/Youngest-AWID counters (SPEC section 8).
#include "golden/agelru_counters.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

namespace l1d::golden {
namespace {

AgeLruCounters live(uint8_t oldest, uint8_t youngest) {
  AgeLruCounters c;
  c.set(oldest, youngest, /*empty=*/false);
  return c;
}

TEST(AgeLruCounters, ResetIsEmptyWithYoungest255) {
  AgeLruCounters c;
  c.launch();
  c.reset();
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.oldest(), 0);
  EXPECT_EQ(c.youngest(), 255);
}

TEST(AgeLruCounters, FirstLaunchGetsZeroAndIsOldestAndYoungest) {
  AgeLruCounters c;
  EXPECT_EQ(c.launch(), 0);
  EXPECT_FALSE(c.empty());
  EXPECT_EQ(c.oldest(), 0);
  EXPECT_EQ(c.youngest(), 0);
  EXPECT_TRUE(c.active(0));
}

TEST(AgeLruCounters, LaunchesNumberInOrderAndKeepOldest) {
  AgeLruCounters c;
  for (int i = 0; i < 5; ++i) EXPECT_EQ(c.launch(), i);
  EXPECT_EQ(c.oldest(), 0);
  EXPECT_EQ(c.youngest(), 4);
}

TEST(AgeLruCounters, AwidWrapsFrom255ToZero) {
  // Keep one warp live and retire the oldest after every launch, so AWIDs run past 255.
  AgeLruCounters c;
  c.launch();
  for (int i = 1; i <= 256; ++i) {
    const uint8_t id = c.launch();
    EXPECT_EQ(id, static_cast<uint8_t>(i));
    c.exit(c.oldest(), id);
  }
  EXPECT_EQ(c.youngest(), 0);  // launch number 256 (counting from 0) got AWID 0 again
  EXPECT_EQ(c.oldest(), 0);
  EXPECT_TRUE(c.active(0));
  EXPECT_FALSE(c.active(255));
}

TEST(AgeLruCounters, LaunchFromYoungest255GivesZero) {
  AgeLruCounters c = live(250, 255);
  EXPECT_EQ(c.launch(), 0);
  EXPECT_EQ(c.oldest(), 250);  // a live range keeps its oldest
  EXPECT_TRUE(c.active(0));
  EXPECT_TRUE(c.active(250));
}

TEST(AgeLruCounters, ActiveWithoutWrap) {
  const AgeLruCounters c = live(10, 20);
  EXPECT_FALSE(c.active(9));
  EXPECT_TRUE(c.active(10));
  EXPECT_TRUE(c.active(15));
  EXPECT_TRUE(c.active(20));
  EXPECT_FALSE(c.active(21));
  EXPECT_FALSE(c.active(0));
  EXPECT_FALSE(c.active(255));
}

TEST(AgeLruCounters, ActiveWithWrap) {
  const AgeLruCounters c = live(250, 5);
  for (int id : {250, 255, 0, 5}) EXPECT_TRUE(c.active(static_cast<uint8_t>(id))) << id;
  for (int id : {6, 100, 249}) EXPECT_FALSE(c.active(static_cast<uint8_t>(id))) << id;
}

TEST(AgeLruCounters, ActiveAtTheEdges) {
  EXPECT_TRUE(live(0, 255).active(0));  // all 256 AWIDs live
  EXPECT_TRUE(live(0, 255).active(255));
  EXPECT_TRUE(live(255, 255).active(255));  // a single warp at the top
  EXPECT_FALSE(live(255, 255).active(0));
  EXPECT_TRUE(live(255, 0).active(255));  // smallest wrapped range
  EXPECT_TRUE(live(255, 0).active(0));
  EXPECT_FALSE(live(255, 0).active(1));
  EXPECT_FALSE(live(255, 0).active(254));
  EXPECT_TRUE(live(7, 7).active(7));
  EXPECT_FALSE(live(7, 7).active(6));
  EXPECT_FALSE(live(7, 7).active(8));
}

TEST(AgeLruCounters, RelativeAgeAcrossTheWrap) {
  const AgeLruCounters c = live(250, 5);
  EXPECT_EQ(c.relative_age(250), 0);
  EXPECT_EQ(c.relative_age(255), 5);
  EXPECT_EQ(c.relative_age(0), 6);
  EXPECT_EQ(c.relative_age(5), 11);
}

TEST(AgeLruCounters, ExitOfOldestAdvancesToNextOldest) {
  AgeLruCounters c;
  for (int i = 0; i < 4; ++i) c.launch();
  c.exit(0, uint8_t{2});  // warp 1 already gone (the caller reports the next live one)
  EXPECT_EQ(c.oldest(), 2);
  EXPECT_EQ(c.youngest(), 3);
  EXPECT_FALSE(c.active(0));
  EXPECT_FALSE(c.active(1));
  EXPECT_TRUE(c.active(2));
}

TEST(AgeLruCounters, ExitOfNonOldestChangesNothing) {
  AgeLruCounters c;
  for (int i = 0; i < 4; ++i) c.launch();
  c.exit(2, uint8_t{3});  // a next_oldest that would show if it were applied
  EXPECT_EQ(c.oldest(), 0);
  EXPECT_EQ(c.youngest(), 3);
  EXPECT_FALSE(c.empty());
  EXPECT_TRUE(c.active(2));  // the known imprecision: early exits stay "active"
}

TEST(AgeLruCounters, LastExitEmptiesAndNothingIsActive) {
  AgeLruCounters c;
  c.launch();
  c.launch();
  c.exit(0, uint8_t{1});
  c.exit(1, std::nullopt);
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.oldest(), 2);  // Youngest + 1: the AWID the next launch will get
  EXPECT_EQ(c.youngest(), 1);
  for (int id = 0; id < 256; ++id) EXPECT_FALSE(c.active(static_cast<uint8_t>(id)));
}

TEST(AgeLruCounters, ExitWhileEmptyIsIgnored) {
  AgeLruCounters c;
  c.exit(0, uint8_t{5});
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.oldest(), 0);
  EXPECT_EQ(c.youngest(), 255);
}

TEST(AgeLruCounters, RelaunchAfterEmptyStartsAFreshRange) {
  AgeLruCounters c;
  for (int i = 0; i < 3; ++i) c.launch();
  c.exit(0, uint8_t{1});
  c.exit(1, uint8_t{2});
  c.exit(2, std::nullopt);
  ASSERT_TRUE(c.empty());
  EXPECT_EQ(c.launch(), 3);  // AWIDs keep counting; old lines' AWIDs 0..2 stay inactive
  EXPECT_FALSE(c.empty());
  EXPECT_EQ(c.oldest(), 3);
  EXPECT_EQ(c.youngest(), 3);
  EXPECT_FALSE(c.active(2));
  EXPECT_TRUE(c.active(3));
  EXPECT_EQ(c.relative_age(3), 0);
}

TEST(AgeLruCounters, ActiveMatchesReferenceForAllTriples) {
  // Reference: walk from Oldest to Youngest mod 256 and mark what we pass; it shares no
  // comparison logic with active(). 2^16 ranges x 256 ids = 2^24 checks.
  AgeLruCounters c;
  uint64_t mismatches = 0;
  for (int o = 0; o < 256; ++o) {
    for (int y = 0; y < 256; ++y) {
      std::array<bool, 256> expected{};
      for (uint8_t id = static_cast<uint8_t>(o);; ++id) {
        expected[id] = true;
        if (id == y) break;
      }
      c.set(static_cast<uint8_t>(o), static_cast<uint8_t>(y), false);
      for (int id = 0; id < 256; ++id) mismatches += c.active(static_cast<uint8_t>(id)) != expected[id];
    }
  }
  EXPECT_EQ(mismatches, 0u);
}

TEST(AgeLruCounters, EmptyOverridesAnyRange) {
  AgeLruCounters c;
  c.set(0, 255, /*empty=*/true);
  for (int id = 0; id < 256; ++id) EXPECT_FALSE(c.active(static_cast<uint8_t>(id)));
}

TEST(AgeLruCounters, LaunchIntoAnyEmptyStateMakesTheNewWarpOldest) {
  // An empty state loaded from elsewhere (e.g. an RTL scoreboard) may hold any Oldest.
  AgeLruCounters c;
  c.set(40, 99, /*empty=*/true);
  EXPECT_EQ(c.launch(), 100);
  EXPECT_EQ(c.oldest(), 100);
  EXPECT_TRUE(c.active(100));
  EXPECT_FALSE(c.active(40));
}

}  // namespace
}  // namespace l1d::golden
