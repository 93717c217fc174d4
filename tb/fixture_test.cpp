// Self-test of the testbench fixture (tb/fixture.h) and the port helpers (tb/ports.h) on a small
// hand-written clocked design, tb/selftest/fixture_counter.sv: reset, the cycle helpers, the
// seeded random initial values, and reading and writing a 100-bit (VlWide) port.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>

#include "Vfixture_counter.h"
#include "tb/fixture.h"
#include "tb/ports.h"

namespace {

using Counter = tb::Dut<Vfixture_counter>;

static_assert(Counter::kClocked && Counter::kHasReset);

TEST(Fixture, ResetThenOneIncrementPerEnabledRisingEdge) {
  Counter dut("fixture_counter", 1);
  dut->en_i = 0;
  dut.reset(3);
  EXPECT_EQ(dut.cycles(), 3U);
  dut.settle();
  EXPECT_EQ(dut->count_o, 0);
  dut->en_i = 1;
  for (unsigned i = 1; i <= 5; ++i) {
    dut.settle();
    EXPECT_EQ(dut->count_o, i - 1) << "registered: the edge at the end of this cycle has not come yet";
    dut.tick();
    EXPECT_EQ(dut->count_o, i);
  }
  dut->en_i = 0;
  dut.settle();
  dut.tick();
  EXPECT_EQ(dut->count_o, 5);
  EXPECT_EQ(dut.cycles(), 9U);
  EXPECT_EQ(dut.context().time(), 90U);  // 10 time units (ns) per cycle
}

// --x-initial unique: a flop without reset starts from a value drawn from the seed.
TEST(Fixture, InitialValuesAreRandomAndSeeded) {
  std::set<unsigned> values;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    Counter a("fixture_counter_a", seed);
    Counter b("fixture_counter_b", seed);
    a.settle();
    b.settle();
    EXPECT_EQ(a->noreset_o, b->noreset_o) << "seed " << seed;
    values.insert(a->noreset_o);
  }
  EXPECT_GE(values.size(), 4U) << "eight seeds gave almost the same initial value";
}

TEST(Ports, WideGetAndPutAcrossWordBoundaries) {
  Counter dut("fixture_counter_wide", 1);
  tb::put(dut->wide_i, 0, 64, 36);  // inputs start random too (--x-initial unique)
  tb::put(dut->wide_i, 0xFEDCBA9876543210ULL, 0, 64);
  tb::put(dut->wide_i, 0xABCDEULL, 60, 20);  // bits 60..79, across words 1 and 2
  tb::put(dut->wide_i, 0xFULL, 96, 4);
  dut.settle();
  EXPECT_EQ(tb::get(dut->wide_o, 0, 60), 0xEDCBA9876543210ULL);
  EXPECT_EQ(tb::get(dut->wide_o, 60, 20), 0xABCDEULL);
  EXPECT_EQ(tb::get(dut->wide_o, 96, 4), 0xFULL);
  EXPECT_EQ(tb::get(dut->wide_o, 80, 16), 0U);
  uint64_t narrow = 0xFF;
  tb::put(narrow, 0x5, 4, 4);
  EXPECT_EQ(narrow, 0x5FU);
  EXPECT_EQ(tb::get(narrow, 4, 4), 0x5U);
}

}  // namespace
