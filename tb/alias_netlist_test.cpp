// Verilator 5.006 and a vector whose bits feed each other (tb/selftest/alias_netlist.v): the
// netlist as Yosys writes it is mis-simulated; after synth/netlist_split_vectors.py (what every
// block's netlist co-simulation verilates, tb/rtl_blocks.cmake) it is right for every input.
#include <gtest/gtest.h>

#include <cstdint>

#include "Valias_netlist_raw.h"
#include "Valias_netlist_split.h"

namespace {

// o as the netlist's assigns define it (Yosys' eval agrees: a = 9 gives 0xd7).
uint32_t expected(uint32_t a) {
  const uint32_t o0 = a & 1, o5 = o0 & (a >> 1 & 1), o2 = ((o5 | (a >> 2 & 1)) ^ (a >> 3 & 1)) & 1, o7 = o2 & o0;
  return o0 | o2 << 1 | o2 << 2 | o5 << 3 | o2 << 4 | o5 << 5 | o7 << 6 | o7 << 7;
}

// The inputs in a fixed pseudo-random order (the wrong values depend on the previous evaluation),
// every value many times; returns how many evaluations differ from expected().
template <class Model>
int mismatches() {
  Model m;
  int bad = 0;
  for (uint32_t i = 0; i < 1000; ++i) {
    const uint32_t a = (i * 2654435761U) >> 28;
    m.a = static_cast<uint8_t>(a);
    m.eval();
    bad += m.o != expected(a);
  }
  return bad;
}

TEST(AliasNetlist, SplitVectorsSimulateRight) { EXPECT_EQ(mismatches<Valias_netlist_split>(), 0); }

// The reproduction itself: Verilator 5.006 gets 625 of the 1000 wrong. Should a newer Verilator
// iterate such assigns, this fails and the rewrite can go (docs/rtl-verification.md).
TEST(AliasNetlist, RawNetlistIsMisSimulatedByVerilator) { EXPECT_GT(mismatches<Valias_netlist_raw>(), 0); }

}  // namespace
