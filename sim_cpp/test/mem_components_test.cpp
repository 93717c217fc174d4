// Unit tests of the memory system's blocks: FunctionalMemory, AddressMap, Network,
// DramChannel, L2Bank.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "common/config.h"
#include "sim_cpp/mem/address_map.h"
#include "sim_cpp/mem/dram_channel.h"
#include "sim_cpp/mem/functional_memory.h"
#include "sim_cpp/mem/l2_bank.h"
#include "sim_cpp/mem/l2_tag_array.h"
#include "sim_cpp/mem/line_table.h"
#include "sim_cpp/mem/mem_params.h"
#include "sim_cpp/mem/noc.h"

namespace l1d::sim {
namespace {

MemParams gtx480_params() { return derive_mem_params(load_preset("gtx480")); }

// ---------------------------------------------------------------------------------------------
// FunctionalMemory

TEST(FunctionalMemory, UnwrittenBytesReadAsInitialAndWritesStick) {
  FunctionalMemory m;
  for (Addr a : {Addr{0}, Addr{1}, Addr{0x1234567}, Addr{0xFFFFFF80}})
    EXPECT_EQ(m.read8(a), FunctionalMemory::initial_byte(a));
  const LineData l = m.line(0x1000);
  for (uint32_t b = 0; b < kLineBytes; ++b) EXPECT_EQ(l[b], FunctionalMemory::initial_byte(0x1000 + b));
  // The initial image is not constant (stale data must be visible).
  EXPECT_NE(FunctionalMemory::initial_byte(0x1000), FunctionalMemory::initial_byte(0x1001 + 0x80 * 7));
  // Lines above 2^32, read unwritten and as the other lines of a page a write created (its
  // initial lines are filled in 32-bit lanes).
  for (Addr line : {Addr{0x123456789000}, Addr{0xFFFFFFFFFFFFE000}, Addr{0x7F0000001000}}) {
    for (int written = 0; written < 2; ++written) {
      for (Addr at = line; at < line + 32 * kLineBytes; at += 5 * kLineBytes) {
        const LineData d = m.line(at);
        for (uint32_t b = 0; b < kLineBytes; ++b) ASSERT_EQ(d[b], FunctionalMemory::initial_byte(at + b)) << at;
      }
      if (!written) m.write8(line + 31 * kLineBytes + 3, FunctionalMemory::initial_byte(line + 31 * kLineBytes + 3));
    }
  }

  m.write8(0x1005, 0xAB);
  EXPECT_EQ(m.read8(0x1005), 0xAB);
  EXPECT_EQ(m.read8(0x1004), FunctionalMemory::initial_byte(0x1004));  // neighbours keep their value
  // A typed access crossing a line boundary.
  m.write<uint64_t>(0x107C, 0x0102030405060708ull);
  EXPECT_EQ(m.read<uint64_t>(0x107C), 0x0102030405060708ull);
  EXPECT_EQ(m.read8(0x1080), 0x04);
}

// read_bytes / write_bytes (the workloads' inputs and result checks) against read8 / write8 on a
// twin image: spans that start and end inside lines, cross pages (4 KB) and touch unwritten ones.
TEST(FunctionalMemory, BulkReadsAndWritesMatchByteAccesses) {
  FunctionalMemory bulk, bytes;
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200; ++round) {
    const Addr a = 0x10000 + rng() % 0x6000;
    const uint64_t n = 1 + rng() % 700;
    std::vector<uint8_t> data(n);
    for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
    if (round % 2 == 0) {
      bulk.write_bytes(a, data.data(), n);
      for (uint64_t i = 0; i < n; ++i) bytes.write8(a + i, data[i]);
    }
    const Addr r = 0xF000 + rng() % 0x8000;
    const uint64_t k = 1 + rng() % 900;
    std::vector<uint8_t> got(k);
    bulk.read_bytes(r, got.data(), k);
    for (uint64_t i = 0; i < k; ++i) ASSERT_EQ(got[i], bytes.read8(r + i)) << "round " << round << " byte " << i;
  }
  // Both images hold the same bytes everywhere the rounds could touch.
  for (Addr a = 0xF000; a < 0x18000; ++a) ASSERT_EQ(bulk.read8(a), bytes.read8(a)) << a;
}

TEST(FunctionalMemory, ApplyWriteUsesByteMaskAndReadSectorsZeroesTheRest) {
  FunctionalMemory m;
  MemReq w;
  w.line_addr = 0x4000;
  w.op = MemOp::kStore;
  for (uint32_t b = 0; b < kLineBytes; ++b) w.data[b] = static_cast<uint8_t>(b + 1);
  for (uint32_t b = 32; b < 40; ++b) w.byte_mask.set(b);  // 8 bytes of sector 1
  m.apply_write(w);
  EXPECT_EQ(m.read8(0x4000 + 32), 33);
  EXPECT_EQ(m.read8(0x4000 + 39), 40);
  EXPECT_EQ(m.read8(0x4000 + 40), FunctionalMemory::initial_byte(0x4000 + 40));

  const LineData d = m.read_sectors(0x4000, 0b0010);
  for (uint32_t b = 0; b < kLineBytes; ++b) {
    if (b < 32 || b >= 64) {
      EXPECT_EQ(d[b], 0) << b;
    } else {
      EXPECT_EQ(d[b], m.read8(0x4000 + b)) << b;
    }
  }
  // A full-mask write replaces the line.
  w.byte_mask.set();
  m.apply_write(w);
  EXPECT_EQ(m.line(0x4000), w.data);
}

TEST(FunctionalMemory, CopiesAndMovesAreIndependentImages) {
  FunctionalMemory a;
  a.write8(0x200, 1);
  EXPECT_EQ(a.read8(0x200), 1);  // a's line cache now points at its line
  FunctionalMemory b = a;
  b.write8(0x200, 2);
  EXPECT_EQ(a.read8(0x200), 1);
  EXPECT_EQ(b.read8(0x200), 2);
  FunctionalMemory c = std::move(b);
  EXPECT_EQ(c.read8(0x200), 2);
  a = c;
  a.write8(0x201, 7);
  EXPECT_EQ(c.read8(0x201), FunctionalMemory::initial_byte(0x201));
  EXPECT_EQ(a.read8(0x200), 2);
  b = FunctionalMemory{};  // a moved-from image can be reused
  EXPECT_EQ(b.read8(0x200), FunctionalMemory::initial_byte(0x200));
}

// ---------------------------------------------------------------------------------------------
// AddressMap

TEST(AddressMap, EveryAlignedGroupOfConsecutiveLinesUsesEveryPartition) {
  for (uint32_t parts : {1u, 6u, 8u, 32u}) {
    AddressMap map(parts, 16, 16);
    std::set<std::pair<uint32_t, uint64_t>> seen;  // (partition, local line) must be unique
    for (uint64_t g = 0; g < 2000; ++g) {
      std::vector<bool> used(parts, false);
      for (uint64_t i = 0; i < parts; ++i) {
        const Addr a = (g * parts + i) * kLineBytes;
        const uint32_t p = map.partition(a);
        ASSERT_LT(p, parts);
        EXPECT_FALSE(used[p]) << "parts " << parts << " group " << g;
        used[p] = true;
        EXPECT_EQ(map.local_line(a), g);
        EXPECT_TRUE(seen.insert({p, map.local_line(a)}).second);
      }
    }
  }
}

TEST(AddressMap, PowerOfTwoStridesDoNotCampOnOnePartition) {
  for (uint32_t parts : {6u, 8u, 32u}) {
    AddressMap map(parts, 16, 16);
    for (uint32_t k = 0; k <= 14; ++k) {
      std::vector<uint32_t> load(parts, 0);
      const uint32_t n = 256 * parts;
      for (uint64_t i = 0; i < n; ++i) ++load[map.partition((i << k) * kLineBytes)];
      const uint32_t max = *std::max_element(load.begin(), load.end());
      // Mean load is 256; plain (line mod P) interleaving would put all n on one partition
      // for large k.
      EXPECT_LT(max, 2 * 256u) << "parts " << parts << " stride 2^" << k << " lines";
    }
  }
}

TEST(AddressMap, DramRowsHoldConsecutiveLocalLinesAndSpreadOverBanks) {
  AddressMap map(6, 16, 16);
  std::set<std::tuple<uint32_t, uint64_t, uint64_t>> seen;
  for (uint64_t local = 0; local < 16 * 16 * 8; ++local) {
    const uint32_t bank = map.dram_bank(local);
    const uint64_t row = map.dram_row(local);
    ASSERT_LT(bank, 16u);
    EXPECT_TRUE(seen.insert({bank, row, local % 16}).second);  // (bank, row, column) unique
    if (local % 16 != 0) {
      EXPECT_EQ(bank, map.dram_bank(local - 1));
      EXPECT_EQ(row, map.dram_row(local - 1));
    } else if (local != 0) {
      EXPECT_NE(bank, map.dram_bank(local - 1));  // the next row-sized chunk goes to another bank
    }
  }
}

// ---------------------------------------------------------------------------------------------
// LineTable

TEST(LineTable, MatchesAStdMapUnderRandomInsertAndErase) {
  std::mt19937_64 rng(3);
  LineTable t(64);
  std::map<Addr, uint32_t> ref;
  for (int step = 0; step < 200000; ++step) {
    // Few distinct lines with colliding low bits, so probe runs wrap and shift.
    const Addr line = (rng() % 200) * 0x1000 * kLineBytes;
    const auto it = ref.find(line);
    if (it != ref.end() && rng() % 2) {
      t.erase(line);
      ref.erase(it);
    } else if (it == ref.end() && ref.size() < 64) {
      const uint32_t v = static_cast<uint32_t>(rng() % 1000);
      t.insert(line, v);
      ref[line] = v;
    }
    ASSERT_EQ(t.size(), ref.size());
    const Addr probe = (rng() % 200) * 0x1000 * kLineBytes;
    const auto pr = ref.find(probe);
    ASSERT_EQ(t.find(probe), pr == ref.end() ? LineTable::kNone : pr->second) << step;
  }
  EXPECT_THROW(t.erase(0xDEAD0000), std::logic_error);
}

// ---------------------------------------------------------------------------------------------
// Network

struct Tagged {
  uint32_t src = 0;
  uint32_t seq = 0;
};

TEST(Network, UnloadedLatencyIsLatencyPlusSerialisation) {
  Network<Tagged> net(4, 3, 8, 1, 8, 16);
  net.inject(1, 2, 1, 0, Tagged{1, 0});
  uint64_t arrived = 0;
  for (uint64_t t = 0; t < 100 && arrived == 0; ++t) {
    if (net.peek(2, t)) arrived = t;
    net.tick(t);
  }
  EXPECT_EQ(arrived, 8u);
  net.pop(2);
  EXPECT_TRUE(net.idle());
  // A 5-flit packet at one flit per cycle: 4 more cycles.
  net.inject(0, 1, 5, 100, Tagged{0, 0});
  arrived = 0;
  for (uint64_t t = 100; t < 200 && arrived == 0; ++t) {
    if (net.peek(1, t)) arrived = t;
    net.tick(t);
  }
  EXPECT_EQ(arrived, 100u + 4 + 8);
}

TEST(Network, BurstOfWritePacketsTakesAtLeastFlitsCycles) {
  // N 5-flit packets (a 128 B write: header + 4 data flits) from one source at one flit per
  // cycle per port: the last one leaves after >= N*5 cycles.
  const uint32_t n = 40, flits = 5, latency = 8;
  Network<Tagged> net(2, 2, latency, 1, 8, latency + 8);
  uint32_t sent = 0, got = 0;
  uint64_t t = 0, last = 0;
  for (; got < n && t < 10000; ++t) {
    while (sent < n && net.can_inject(0)) net.inject(0, 1, flits, t, Tagged{0, sent++});
    if (const auto* p = net.peek(1, t)) {
      EXPECT_EQ(p->payload.seq, got);
      EXPECT_GE(p->arrive, p->inject + latency);
      ++got;
      last = t;
      net.pop(1);
    }
    net.tick(t);
  }
  ASSERT_EQ(got, n);
  EXPECT_GE(last, uint64_t{n} * flits);
  EXPECT_LE(last, uint64_t{n} * flits + latency + 2);  // and the port is kept busy
  EXPECT_EQ(net.flits_injected(), uint64_t{n} * flits);
}

TEST(Network, KeepsFifoOrderPerSourceAndDestinationUnderRandomTraffic) {
  std::mt19937_64 rng(7);
  const uint32_t S = 5, D = 3;
  Network<Tagged> net(S, D, 6, 2, 4, 10);
  std::vector<std::vector<uint32_t>> next_seq(S, std::vector<uint32_t>(D, 0));
  std::vector<std::vector<uint32_t>> expect(S, std::vector<uint32_t>(D, 0));
  uint64_t delivered = 0;
  for (uint64_t t = 0; t < 20000; ++t) {
    for (uint32_t s = 0; s < S; ++s) {
      if (rng() % 3 == 0 && net.can_inject(s)) {
        const uint32_t d = static_cast<uint32_t>(rng() % D);
        net.inject(s, d, 1 + static_cast<uint32_t>(rng() % 5), t, Tagged{s, next_seq[s][d]++});
      }
    }
    for (uint32_t d = 0; d < D; ++d) {
      if (rng() % 4 == 0) continue;  // random ejection back-pressure
      if (const auto* p = net.peek(d, t)) {
        EXPECT_EQ(p->payload.seq, expect[p->payload.src][d]++);
        EXPECT_GE(p->arrive, p->inject + 6);
        ++delivered;
        net.pop(d);
      }
    }
    net.tick(t);
  }
  EXPECT_GT(delivered, 10000u);
}

TEST(Network, SourcesSharingADestinationGetFairShares) {
  // Three sources flood one destination with 2-flit packets at 1 flit/cycle: the port moves
  // one packet per 2 cycles and round-robin gives each source a third.
  Network<Tagged> net(3, 1, 4, 1, 8, 12);
  std::vector<uint32_t> got(3, 0);
  const uint64_t cycles = 6000;
  for (uint64_t t = 0; t < cycles; ++t) {
    for (uint32_t s = 0; s < 3; ++s)
      while (net.can_inject(s)) net.inject(s, 0, 2, t, Tagged{s, 0});
    if (const auto* p = net.peek(0, t)) {
      ++got[p->payload.src];
      net.pop(0);
    }
    net.tick(t);
  }
  const uint32_t total = got[0] + got[1] + got[2];
  EXPECT_NEAR(total, cycles / 2, 10);
  for (uint32_t s = 0; s < 3; ++s) EXPECT_NEAR(got[s], total / 3.0, 3.0) << s;
}

// Sources whose head waits for a credit of a full destination (Network parks them) are granted
// in the first tick after the consumer pops, one per pop, in round-robin order from the source
// granted last, a packet injected while they wait included.
TEST(Network, SourcesWaitingOnAFullDestinationAreGrantedInTurnAfterEachPop) {
  Network<Tagged> net(3, 1, 1, 1, 4, 1);  // one credit: one packet in flight or waiting at d0
  for (uint32_t s = 0; s < 3; ++s) net.inject(s, 0, 1, 0, Tagged{s, 0});
  std::vector<uint32_t> order;
  for (uint64_t t = 0; t < 40; ++t) {
    if (t == 5) net.inject(0, 0, 1, t, Tagged{0, 1});
    if (t % 10 == 9) {  // the consumer takes one packet every 10 cycles
      const auto* p = net.peek(0, t);
      ASSERT_NE(p, nullptr) << t;
      order.push_back(p->payload.src);
      net.pop(0);
    }
    net.tick(t);
    // A grant only in the tick of a pop (and the first one, at cycle 0).
    EXPECT_EQ(net.granted().size(), t == 0 || (t % 10 == 9 && t < 39) ? 1u : 0u) << t;
  }
  EXPECT_EQ(order, (std::vector<uint32_t>{0, 1, 2, 0}));
  EXPECT_TRUE(net.idle());
}

// noc.arbiter islip (noc.h): GPGPU-Sim's intersim2 router at packet granularity.
NocRouter islip(uint32_t vcs, uint32_t input_speedup, uint32_t internal_speedup) {
  return NocRouter{true, vcs, input_speedup, internal_speedup};
}

// Arrival cycles of two 1-flit packets X (to d0) and Y (to d1) that source 2 queues at cycle 1.
// At cycle 0 sources 0 and 1 each send a 5-flit packet (Q, P) to d0; Q is granted first, P
// waits in its input buffer until d0 is free at 5 and wins d0 before X (round robin from source
// 0). Latency 8, 1 flit per cycle.
std::pair<uint64_t, uint64_t> head_of_line_case(NocRouter router) {
  Network<Tagged> net(3, 2, 8, 1, 8, 16, router);
  uint64_t x = 0, y = 0;
  for (uint64_t t = 0; t < 100 && (x == 0 || y == 0); ++t) {
    if (t == 0) {
      net.inject(0, 0, 5, t, Tagged{0, 0});
      net.inject(1, 0, 5, t, Tagged{1, 0});
    }
    if (t == 1) {
      net.inject(2, 0, 1, t, Tagged{2, 0});
      net.inject(2, 1, 1, t, Tagged{2, 1});
    }
    for (uint32_t d = 0; d < 2; ++d)
      if (const auto* p = net.peek(d, t)) {
        if (p->payload.src == 2) (p->payload.seq == 0 ? x : y) = t;
        net.pop(d);
      }
    net.tick(t);
  }
  return {x, y};
}

TEST(Network, IslipWithVirtualChannelsLetsAPacketPassABlockedHead) {
  // fifo: X waits for d0 (Q until 5, P until 10) and Y waits behind X.
  const auto fifo = head_of_line_case(NocRouter{});
  EXPECT_EQ(fifo.first, 10u + 8);
  EXPECT_EQ(fifo.second, 11u + 8);
  // islip with one VC (GPGPU-Sim's GTX480: num_vcs 1, input_speedup 2): the same head-of-line
  // blocking, cycle for cycle.
  EXPECT_EQ(head_of_line_case(islip(1, 2, 1)), fifo);
  // Two VCs: Y enters the second VC at cycle 2 (X took the link at cycle 1) and crosses at once.
  const auto vc2 = head_of_line_case(islip(2, 1, 1));
  EXPECT_EQ(vc2.first, fifo.first);
  EXPECT_EQ(vc2.second, 2u + 8);
  // Internal speedup 2 (GPGPU-Sim's Pascal: internal_speedup 2.0): P, whose flits all wait in
  // its input buffer, crosses the switch in 3 cycles (5 to 7) into d0's output queue, so X is
  // granted at 8 (its flit still leaves d0's output after P's, at 10) and Y at 9, not 11. (Q,
  // injected in the cycle of its grant, crosses no faster than its flits come over the link.)
  const auto fast = head_of_line_case(islip(1, 1, 2));
  EXPECT_EQ(fast.first, 10u + 8);
  EXPECT_EQ(fast.second, 9u + 8);
}

TEST(Network, IslipUnloadedLatencyIsTheFifoLatency) {
  for (const NocRouter r : {NocRouter{}, islip(1, 2, 1), islip(4, 2, 1), islip(1, 1, 2), islip(4, 2, 2)}) {
    Network<Tagged> net(4, 3, 8, 1, 8, 16, r);
    for (const uint32_t flits : {1u, 2u, 5u}) {
      const uint64_t t0 = 1000 * flits;
      net.inject(1, 2, flits, t0, Tagged{1, 0});
      uint64_t arrived = 0;
      for (uint64_t t = t0; t < t0 + 100 && arrived == 0; ++t) {
        if (net.peek(2, t)) arrived = t;
        net.tick(t);
      }
      EXPECT_EQ(arrived, t0 + flits - 1 + 8) << r.vcs << " " << r.internal_speedup << " " << flits;
      net.pop(2);
      EXPECT_TRUE(net.idle());
    }
  }
}

// Saturation: every source always has packets of `flits` flits for uniformly random
// destinations; every destination takes one packet a cycle. Returns flits delivered per cycle
// per source port (1.0: every source port busy every cycle; sources < dests).
double saturation(NocRouter router, uint32_t sources, uint32_t dests, uint32_t flits, uint64_t cycles) {
  std::mt19937_64 rng(11);
  Network<Tagged> net(sources, dests, 8, 1, 8, 16, router);
  uint64_t delivered = 0;
  for (uint64_t t = 0; t < cycles; ++t) {
    for (uint32_t s = 0; s < sources; ++s)
      while (net.can_inject(s)) net.inject(s, static_cast<uint32_t>(rng() % dests), flits, t, Tagged{s, 0});
    for (uint32_t d = 0; d < dests; ++d)
      if (net.peek(d, t)) {
        delivered += flits;
        net.pop(d);
      }
    net.tick(t);
  }
  return static_cast<double>(delivered) / static_cast<double>(cycles) / sources;
}

TEST(Network, SaturationThroughputOfEachArbiter) {
  // The gtx480 response network's shape: 12 L2 slices -> 15 SMs, 5-flit line responses.
  const uint64_t cycles = 20000;
  const double fifo = saturation(NocRouter{}, 12, 15, 5, cycles);
  const double islip1 = saturation(islip(1, 2, 1), 12, 15, 5, cycles);
  const double vc4 = saturation(islip(4, 2, 1), 12, 15, 5, cycles);
  const double fast = saturation(islip(1, 1, 2), 12, 15, 5, cycles);
  std::printf("12 -> 15 ports, 5-flit packets, saturation (flits per cycle per source port): fifo %.3f, "
              "islip vcs 1 input_speedup 2 %.3f, islip vcs 4 input_speedup 2 %.3f, islip internal_speedup 2 %.3f\n",
              fifo, islip1, vc4, fast);
  EXPECT_GT(fifo, 0.6);  // head-of-line blocking: well under the port rate
  EXPECT_LT(fifo, 0.8);
  EXPECT_EQ(islip1, fifo) << "one VC: the fifo crossbar, grant for grant";
  EXPECT_GT(vc4, fifo + 0.1) << "four VCs pass blocked heads";
  EXPECT_GT(fast, fifo + 0.1) << "a 2x switch into output queues drains blocked heads";
  EXPECT_LE(vc4, 1.0);
  EXPECT_LE(fast, 1.0);
}

TEST(Network, IslipKeepsOrderPerSourceAndDestinationUnderRandomTraffic) {
  for (const NocRouter r : {islip(1, 2, 1), islip(4, 2, 1), islip(3, 1, 2)}) {
    std::mt19937_64 rng(5);
    const uint32_t S = 5, D = 3;
    Network<Tagged> net(S, D, 6, 1, 4, 10, r);
    std::vector<std::vector<uint32_t>> next_seq(S, std::vector<uint32_t>(D, 0));
    std::vector<std::vector<uint32_t>> expect(S, std::vector<uint32_t>(D, 0));
    uint64_t delivered = 0, injected = 0;
    for (uint64_t t = 0; t < 20000; ++t) {
      for (uint32_t s = 0; s < S; ++s)
        if (rng() % 3 == 0 && net.can_inject(s)) {
          const uint32_t d = static_cast<uint32_t>(rng() % D);
          net.inject(s, d, 1 + static_cast<uint32_t>(rng() % 5), t, Tagged{s, next_seq[s][d]++});
          ++injected;
        }
      for (uint32_t d = 0; d < D; ++d) {
        if (rng() % 4 == 0) continue;
        if (const auto* p = net.peek(d, t)) {
          EXPECT_EQ(p->payload.seq, expect[p->payload.src][d]++);
          EXPECT_GE(p->arrive, p->inject + 6);
          ++delivered;
          net.pop(d);
        }
      }
      // Cycle skipping: next_grant() is never later than a tick that grants.
      const uint64_t next = net.next_grant(t);
      net.tick(t);
      if (!net.granted().empty()) {
        EXPECT_EQ(next, t) << r.vcs;
      }
    }
    EXPECT_GT(delivered, 8000u) << r.vcs;
    EXPECT_LE(delivered, injected);
  }
}

TEST(Network, FullDestinationBackPressuresTheSource) {
  const uint32_t src_cap = 8, dst_cap = 12;
  Network<Tagged> net(1, 1, 4, 1, src_cap, dst_cap);
  uint32_t injected = 0;
  for (uint64_t t = 0; t < 200; ++t) {
    while (net.can_inject(0)) net.inject(0, 0, 1, t, Tagged{0, injected++});
    net.tick(t);  // never popped
  }
  EXPECT_EQ(injected, src_cap + dst_cap);
  EXPECT_FALSE(net.can_inject(0));
  EXPECT_EQ(net.dest_occupancy(0), dst_cap);
  EXPECT_EQ(net.source_occupancy(0), src_cap);
  // Draining the destination lets the source go again, in order.
  uint32_t seq = 0;
  for (uint64_t t = 200; t < 400; ++t) {
    if (const auto* p = net.peek(0, t)) {
      EXPECT_EQ(p->payload.seq, seq++);
      net.pop(0);
    }
    net.tick(t);
  }
  EXPECT_EQ(seq, injected);
  EXPECT_TRUE(net.idle());
}

// ---------------------------------------------------------------------------------------------
// DramChannel

struct ChannelRig {
  MemParams p = gtx480_params();
  AddressMap map{p.partitions, p.dram_banks, p.dram_lines_per_row};
  MemorySystemStats stats;
  DramChannel ch{p, map, &stats};
  uint64_t now = 0;
  std::vector<std::pair<uint32_t, uint64_t>> done;  // (tag, cycle)

  // A local line in (bank, row), column col.
  uint64_t line_in(uint32_t bank, uint64_t row, uint32_t col = 0) const {
    for (uint64_t local = row * p.dram_banks * p.dram_lines_per_row;; local += p.dram_lines_per_row)
      if (map.dram_bank(local) == bank && map.dram_row(local) == row) return local + col;
  }
  void read(uint64_t local, uint32_t tag) { ch.enqueue(DramRequest{local, 0xF, false, tag}, now); }
  void step() {
    ch.tick(now);
    while (const DramRequest* d = ch.completed(now)) {
      done.push_back({d->tag, now});
      ch.pop_completed();
    }
    ++now;
  }
  void run_until_idle() {
    for (int i = 0; i < 100000 && !ch.idle(); ++i) step();
  }
};

TEST(DramChannel, LatencyOfRowHitClosedBankAndRowConflict) {
  ChannelRig r;
  const MemParams& p = r.p;
  EXPECT_EQ(p.t_rcd, 10u);  // 13 ns at 700 MHz
  EXPECT_EQ(p.t_rp, 10u);
  const uint64_t a = r.line_in(3, 5), hit = a + 1, conflict = r.line_in(3, 9);
  // Closed bank: activate + column.
  uint64_t t0 = r.now;
  r.read(a, 1);
  r.run_until_idle();
  ASSERT_EQ(r.done.size(), 1u);
  EXPECT_EQ(r.done[0].second - t0, p.t_rcd + p.dram_latency);
  // Row hit.
  for (int i = 0; i < 50; ++i) r.step();
  t0 = r.now;
  r.read(hit, 2);
  r.run_until_idle();
  EXPECT_EQ(r.done[1].second - t0, p.dram_latency);
  // Row conflict (tRAS long past): precharge + activate + column.
  t0 = r.now;
  r.read(conflict, 3);
  r.run_until_idle();
  EXPECT_EQ(r.done[2].second - t0, p.t_rp + p.t_rcd + p.dram_latency);
  EXPECT_EQ(r.stats.dram_row_hits, 1u);
  EXPECT_EQ(r.stats.dram_row_misses, 2u);
  EXPECT_EQ(r.stats.dram_reads, 3u);
  EXPECT_EQ(r.stats.dram_bytes, 3u * 128);
}

TEST(DramChannel, ActivationsToDifferentBanksAreTrrdApart) {
  ChannelRig r;
  const MemParams& p = r.p;
  EXPECT_EQ(p.t_rrd, 5u);  // 6.5 ns at 700 MHz
  for (uint32_t b = 0; b < 4; ++b) r.read(r.line_in(b, 1), b);
  r.run_until_idle();
  ASSERT_EQ(r.done.size(), 4u);
  for (uint32_t k = 0; k < 4; ++k) {
    EXPECT_EQ(r.done[k].first, k);
    EXPECT_EQ(r.done[k].second, k * p.t_rrd + p.t_rcd + p.dram_latency) << k;
  }
}

TEST(DramChannel, FrFcfsServesAYoungerRowHitBeforeAnOlderRowMiss) {
  ChannelRig r;
  const uint64_t a = r.line_in(2, 4);
  r.read(a, 0);  // opens row 4 of bank 2
  r.run_until_idle();
  ASSERT_EQ(r.done.size(), 1u);
  r.done.clear();
  // Older: a row miss in the same bank. Younger: a hit to the open row.
  r.read(r.line_in(2, 7), 10);
  r.read(a + 3, 11);
  r.run_until_idle();
  ASSERT_EQ(r.done.size(), 2u);
  EXPECT_EQ(r.done[0].first, 11u) << "the younger row hit goes first";
  EXPECT_EQ(r.done[1].first, 10u);
  EXPECT_EQ(r.stats.dram_row_hits, 1u);
  EXPECT_EQ(r.stats.dram_row_misses, 2u);
}

TEST(DramChannel, OpenRowIsNotClosedWhileHitsToItWait) {
  ChannelRig r;
  const uint64_t a = r.line_in(0, 1);
  r.read(a, 0);
  r.run_until_idle();
  r.done.clear();
  // Queue: miss (bank 0 row 2), then 6 hits to row 1: all hits complete before the miss.
  r.read(r.line_in(0, 2), 100);
  for (uint32_t i = 1; i <= 6; ++i) r.read(a + i, i);
  // Meanwhile a request to another bank activates in parallel (oldest-first among banks).
  r.read(r.line_in(5, 3), 200);
  r.run_until_idle();
  ASSERT_EQ(r.done.size(), 8u);
  std::vector<uint32_t> order;
  for (auto& d : r.done) order.push_back(d.first);
  const auto pos = [&](uint32_t tag) { return std::find(order.begin(), order.end(), tag) - order.begin(); };
  for (uint32_t i = 1; i <= 6; ++i) EXPECT_LT(pos(i), pos(100));
  EXPECT_LT(pos(200), pos(100));
}

TEST(DramChannel, BandwidthLimitIsExactUnderStreaming) {
  ChannelRig r;
  const double bpc = r.p.dram_bytes_per_cycle();
  EXPECT_NEAR(bpc, 179.2e9 / 6 / 700e6, 1e-9);
  uint64_t next = 0;
  const uint64_t warm = 2000, window = 30000;
  uint64_t bytes_at_warm = 0;
  for (uint64_t t = 0; t < warm + window; ++t) {
    while (r.ch.can_accept()) r.read(next++, 0);
    if (t == warm) bytes_at_warm = r.stats.dram_bytes;
    r.step();
    r.done.clear();
  }
  const double rate = static_cast<double>(r.stats.dram_bytes - bytes_at_warm) / static_cast<double>(window);
  EXPECT_LE(rate, bpc * 1.001);
  EXPECT_GE(rate, bpc * 0.98) << "streaming row hits should saturate the bus";
  EXPECT_GT(r.stats.dram_row_hits, 10 * r.stats.dram_row_misses);
}

TEST(DramChannel, SectorBurstsCostTheirBytesAndWritesAreNotAnswered) {
  ChannelRig r;
  r.ch.enqueue(DramRequest{7, 0b0101, true, 0}, 0);  // 64 B write
  r.ch.enqueue(DramRequest{8, 0b0001, false, 4}, 0); // 32 B read
  r.run_until_idle();
  ASSERT_EQ(r.done.size(), 1u);
  EXPECT_EQ(r.done[0].first, 4u);
  EXPECT_EQ(r.stats.dram_bytes, 96u);
  EXPECT_EQ(r.stats.dram_writes, 1u);
  EXPECT_EQ(r.stats.dram_reads, 1u);
}

// ---------------------------------------------------------------------------------------------
// L2Bank

struct BankRig {
  MemParams p;
  AddressMap map;
  FunctionalMemory image;
  MemorySystemStats stats;
  L2Bank bank;
  uint64_t now = 0;
  std::vector<DramRequest> to_dram;
  std::vector<RespPacket> responses;

  explicit BankRig(MemParams params)
      : p(params), map(p.partitions, p.dram_banks, p.dram_lines_per_row, p.slices), bank(p, map, image, &stats) {}

  // Lines of L2 bank 0 (slice 0 of partition 0) mapping to L2 set `set`.
  std::vector<Addr> lines_in_set(uint32_t set, size_t n) const {
    std::vector<Addr> out;
    for (uint64_t l = 0; out.size() < n; ++l) {
      const Addr a = l * kLineBytes;
      if (map.bank(a) == 0 && map.local_line(a) % p.l2_sets == set) out.push_back(a);
    }
    return out;
  }
  static ReqPacket read(Addr line, SectorMask s, uint8_t mshr) {
    ReqPacket pk;
    pk.req.line_addr = line;
    pk.req.sectors = s;
    pk.req.mshr = mshr;
    return pk;
  }
  static ReqPacket write(Addr line, SectorMask s, uint8_t value) {
    ReqPacket pk;
    pk.req.line_addr = line;
    pk.req.op = MemOp::kStore;
    for (uint32_t b = 0; b < kLineBytes; ++b) {
      pk.req.byte_mask[b] = (s >> (b / kChunkBytes)) & 1;
      pk.req.data[b] = value;
    }
    return pk;
  }
  void step() {
    while (const DramRequest* d = bank.dram_out(now)) {
      to_dram.push_back(*d);
      bank.pop_dram_out();
    }
    while (const RespPacket* r = bank.response(now)) {
      responses.push_back(*r);
      bank.pop_response();
    }
    ++now;
  }
  void steps(uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) step();
  }
};

// ---------------------------------------------------------------------------------------------
// L2TagArray: the same lookups and victims as one array of ways (address, stamp, masks), which
// L2Bank kept before the seventeenth round (docs/performance.md), over random operations on a
// small array with repeated addresses (so hits, empty ways, invalid matches and LRU ties occur).

TEST(L2TagArray, MatchesOneArrayOfWaysOverRandomOperations) {
  struct Way {
    Addr line = 0;
    uint64_t stamp = 0;
    SectorMask valid = 0, dirty = 0;
  };
  constexpr uint32_t kSets = 3, kWays = 5;
  L2TagArray tags(kSets, kWays);
  std::vector<Way> ref(kSets * kWays);
  const auto ref_find = [&](uint32_t set, Addr line) {
    for (size_t i = size_t{set} * kWays; i < size_t{set + 1} * kWays; ++i)
      if (ref[i].valid != 0 && ref[i].line == line) return i;
    return L2TagArray::kNone;
  };
  const auto ref_victim = [&](uint32_t set) {
    size_t v = size_t{set} * kWays;
    for (size_t i = v; i < size_t{set + 1} * kWays; ++i) {
      if (ref[i].valid == 0) return i;
      if (ref[i].stamp < ref[v].stamp) v = i;
    }
    return v;
  };
  std::mt19937 rng(7);
  uint64_t clock = 0;
  uint32_t hits = 0, victims_used = 0;
  for (int op = 0; op < 20000; ++op) {
    const auto set = static_cast<uint32_t>(rng() % kSets);
    const Addr line = Addr{rng() % 9} * kLineBytes;  // 9 lines over 5 ways: evictions
    ASSERT_EQ(tags.find(set, line), ref_find(set, line)) << op;
    ASSERT_EQ(tags.victim(set), ref_victim(set)) << op;
    size_t way = tags.find(set, line);
    hits += way != L2TagArray::kNone;
    if (way == L2TagArray::kNone) {
      way = tags.victim(set);
      ++victims_used;
      tags.assign(way, line);
      ref[way].line = line, ref[way].valid = ref[way].dirty = 0;
    }
    const auto s = static_cast<SectorMask>(rng() % 16);  // 0 sometimes: a held line still invalid
    tags.add_valid(way, s);
    ref[way].valid = static_cast<SectorMask>(ref[way].valid | s);
    if (rng() % 2) {
      tags.add_dirty(way, s);
      ref[way].dirty = static_cast<SectorMask>(ref[way].dirty | s);
    }
    const uint64_t stamp = rng() % 4 ? ++clock : clock;  // ties now and then
    tags.set_stamp(way, stamp);
    ref[way].stamp = stamp;
    for (size_t i = 0; i < ref.size(); ++i) {
      ASSERT_EQ(tags.line(i), ref[i].line);
      ASSERT_EQ(tags.valid(i), ref[i].valid);
      ASSERT_EQ(tags.dirty(i), ref[i].dirty);
      ASSERT_EQ(tags.stamp(i), ref[i].stamp);
    }
  }
  EXPECT_GT(hits, 1000u);
  EXPECT_GT(victims_used, 1000u);
}

TEST(L2Bank, WriteAllocatesWithoutFetchAndAReadOfItsSectorsHits) {
  BankRig r(gtx480_params());
  ASSERT_TRUE(r.bank.accept(BankRig::write(0x0, 0b0110, 0x5A), r.now));
  SectorMask valid = 0, dirty = 0;
  ASSERT_TRUE(r.bank.holds(0x0, &valid, &dirty));
  EXPECT_EQ(valid, 0b0110);
  EXPECT_EQ(dirty, 0b0110);
  EXPECT_EQ(r.image.read8(0x20), 0x5A);  // functional effect at acceptance
  ASSERT_TRUE(r.bank.accept(BankRig::read(0x0, 0b0100, 3), r.now));
  r.steps(r.p.l2_hit_latency + 1);
  ASSERT_EQ(r.responses.size(), 1u);
  EXPECT_EQ(r.responses[0].resp.mshr, 3);
  EXPECT_EQ(r.responses[0].resp.data[64], 0x5A);
  EXPECT_EQ(r.responses[0].resp.data[0], 0);  // not requested
  EXPECT_TRUE(r.to_dram.empty());
  EXPECT_EQ(r.stats.l2_hits, 1u);
  // A read needing a sector that was not written misses and fetches only that sector.
  ASSERT_TRUE(r.bank.accept(BankRig::read(0x0, 0b0011, 4), r.now));
  r.steps(r.p.l2_tag_latency + 1);
  ASSERT_EQ(r.to_dram.size(), 1u);
  EXPECT_EQ(r.to_dram[0].sectors, 0b0001);
  EXPECT_FALSE(r.to_dram[0].write);
}

TEST(L2Bank, ReadsOfALineMergeWhileItsFetchIsInFlight) {
  BankRig r(gtx480_params());
  ASSERT_TRUE(r.bank.accept(BankRig::read(0x0, 0b0011, 1), r.now));
  r.step();
  ASSERT_TRUE(r.bank.accept(BankRig::read(0x0, 0b0001, 2), r.now));  // covered by the fetch
  r.step();
  ASSERT_TRUE(r.bank.accept(BankRig::read(0x0, 0b1000, 3), r.now));  // needs one more sector
  r.steps(r.p.l2_tag_latency + 2);
  ASSERT_EQ(r.to_dram.size(), 2u);
  EXPECT_EQ(r.to_dram[0].sectors, 0b0011);
  EXPECT_EQ(r.to_dram[1].sectors, 0b1000);
  EXPECT_EQ(r.to_dram[0].tag, r.to_dram[1].tag);  // one MSHR entry
  EXPECT_EQ(r.stats.l2_misses, 3u);
  // First fetch returns: reads 1 and 2 are answered, read 3 still waits.
  r.bank.fill(r.to_dram[0], r.now);
  r.steps(r.p.l2_fill_latency + 1);
  ASSERT_EQ(r.responses.size(), 2u);
  EXPECT_EQ(r.responses[0].resp.mshr, 1);
  EXPECT_EQ(r.responses[1].resp.mshr, 2);
  EXPECT_FALSE(r.bank.idle());
  r.bank.fill(r.to_dram[1], r.now);
  r.steps(r.p.l2_fill_latency + 1);
  ASSERT_EQ(r.responses.size(), 3u);
  EXPECT_EQ(r.responses[2].resp.mshr, 3);
  EXPECT_TRUE(r.bank.idle());
  SectorMask valid = 0;
  ASSERT_TRUE(r.bank.holds(0x0, &valid));  // allocated on fill
  EXPECT_EQ(valid, 0b1011);
}

TEST(L2Bank, EvictingADirtyLineWritesBackItsDirtySectorsInLruOrder) {
  MemParams p = gtx480_params();
  BankRig r(p);
  const std::vector<Addr> lines = r.lines_in_set(5, p.l2_ways + 2);
  for (uint32_t i = 0; i < p.l2_ways; ++i) ASSERT_TRUE(r.bank.accept(BankRig::write(lines[i], 0b0001, 1), r.now));
  // Touch line 0 so that line 1 is the LRU one.
  ASSERT_TRUE(r.bank.accept(BankRig::read(lines[0], 0b0001, 0), r.now));
  r.steps(p.l2_hit_latency + 1);
  ASSERT_TRUE(r.bank.accept(BankRig::write(lines[p.l2_ways], 0b1100, 2), r.now));
  r.steps(p.l2_tag_latency + 1);
  ASSERT_EQ(r.to_dram.size(), 1u);
  EXPECT_TRUE(r.to_dram[0].write);
  EXPECT_EQ(r.to_dram[0].channel_line, r.map.channel_line(lines[1]));
  EXPECT_EQ(r.to_dram[0].sectors, 0b0001);
  EXPECT_FALSE(r.bank.holds(lines[1]));
  EXPECT_TRUE(r.bank.holds(lines[0]));
  // A clean victim (fill of a fetched line) leaves without a write-back.
}

TEST(L2Bank, RefusesReadsWhenItsMshrsAreExhaustedAndChangesNothing) {
  MemParams p = gtx480_params();
  p.l2_mshrs = 2;
  p.l2_dram_out = 100;
  BankRig r(p);
  ASSERT_TRUE(r.bank.accept(BankRig::read(0 * 6 * kLineBytes, 0xF, 0), r.now));
  ASSERT_TRUE(r.bank.accept(BankRig::read(1 * 6 * kLineBytes, 0xF, 1), r.now));
  ReqPacket third = BankRig::read(2 * 6 * kLineBytes, 0xF, 2);
  third.req.agcb_bypass = true;
  EXPECT_FALSE(r.bank.accept(third, r.now));
  EXPECT_FALSE(r.bank.bypass_bit(third.req.line_addr)) << "a refused request has no effect";
  EXPECT_EQ(r.stats.l2_misses, 2u);
  // A hit-free read of a line already being fetched merges without a new MSHR.
  EXPECT_TRUE(r.bank.accept(BankRig::read(0, 0x1, 3), r.now));
  r.steps(p.l2_tag_latency + 1);
  for (const DramRequest& d : std::vector<DramRequest>(r.to_dram)) r.bank.fill(d, r.now);
  EXPECT_TRUE(r.bank.accept(third, r.now));
  EXPECT_TRUE(r.bank.bypass_bit(third.req.line_addr));
}

// l2.fetch: line (GPGPU-Sim 3.x's line L2): a read miss fetches every invalid sector of the line,
// the fill validates them all, and the read still waits only for its own sectors.
TEST(L2Bank, LineFetchBringsTheWholeLineAndLaterSectorsHit) {
  MemParams p = gtx480_params();
  p.l2_fetch_line = true;
  BankRig r(p);
  const Addr a = r.lines_in_set(3, 1)[0];
  ASSERT_TRUE(r.bank.accept(BankRig::read(a, 0b0010, 0), r.now));
  r.steps(p.l2_tag_latency + 1);
  ASSERT_EQ(r.to_dram.size(), 1u);
  EXPECT_EQ(r.to_dram[0].sectors, 0xF) << "the whole 128 B line";
  r.bank.fill(r.to_dram[0], r.now);
  r.steps(p.l2_fill_latency + 1);
  ASSERT_EQ(r.responses.size(), 1u);
  EXPECT_EQ(r.responses[0].sectors, 0b0010) << "the response carries the requested sector only";
  SectorMask valid = 0;
  ASSERT_TRUE(r.bank.holds(a, &valid));
  EXPECT_EQ(valid, 0xF);
  ASSERT_TRUE(r.bank.accept(BankRig::read(a, 0b1000, 1), r.now));
  EXPECT_EQ(r.stats.l2_hits, 1u) << "another sector of the fetched line hits";
  // A line partly valid from a write fetches only the sectors it lacks (dirty data stays).
  const Addr b = r.lines_in_set(4, 1)[0];
  ASSERT_TRUE(r.bank.accept(BankRig::write(b, 0b0011, 7), r.now));
  ASSERT_TRUE(r.bank.accept(BankRig::read(b, 0b0100, 2), r.now));
  r.to_dram.clear();
  r.steps(p.l2_tag_latency + 1);
  ASSERT_EQ(r.to_dram.size(), 1u);
  EXPECT_EQ(r.to_dram[0].sectors, 0b1100);
}

TEST(L2Bank, SectorFetchBringsOnlyTheMissingSectors) {
  BankRig r(gtx480_params());
  ASSERT_FALSE(r.p.l2_fetch_line);
  const Addr a = r.lines_in_set(3, 1)[0];
  ASSERT_TRUE(r.bank.accept(BankRig::read(a, 0b0010, 0), r.now));
  r.steps(r.p.l2_tag_latency + 1);
  ASSERT_EQ(r.to_dram.size(), 1u);
  EXPECT_EQ(r.to_dram[0].sectors, 0b0010);
}

// ---------------------------------------------------------------------------------------------
// Packet sizes (noc.header_bytes, noc.flit_bytes)

MemReq load_of(SectorMask s) {
  MemReq r;
  r.op = MemOp::kLoad;
  r.sectors = s;
  return r;
}
MemReq store_of(SectorMask s) {
  MemReq r;
  r.op = MemOp::kStore;
  for (uint32_t b = 0; b < kLineBytes; ++b) r.byte_mask[b] = (s >> (b / kChunkBytes)) & 1;
  return r;
}

TEST(PacketSizes, TheHeaderIsPartOfEveryPacket) {
  // GPGPU-Sim: 8 B of control per packet, 32 B flits.
  EXPECT_EQ(request_flits(load_of(0xF), 32, 8), 1u) << "a read request is its header";
  EXPECT_EQ(request_flits(store_of(0b0001), 32, 8), 2u) << "8 + 32 B";
  EXPECT_EQ(request_flits(store_of(0xF), 32, 8), 5u) << "8 + 128 B";
  EXPECT_EQ(response_flits(0xF, 32, 8), 5u) << "a 128 B response is 5 flits of 32 B";
  EXPECT_EQ(response_flits(0b0001, 32, 8), 2u);
  EXPECT_EQ(response_flits(0b0101, 32, 8), 3u);
  // Without a header: the data only, at least one flit.
  EXPECT_EQ(request_flits(load_of(0xF), 32, 0), 1u);
  EXPECT_EQ(request_flits(store_of(0xF), 32, 0), 4u);
  EXPECT_EQ(response_flits(0xF, 32, 0), 4u);
  EXPECT_EQ(response_flits(0, 32, 0), 1u);
  // 40 B flits (GPGPU-Sim 4.x -icnt_flit_size 40): 8 + 128 = 136 B = 4 flits; a big header.
  EXPECT_EQ(response_flits(0xF, 40, 8), 4u);
  EXPECT_EQ(request_flits(load_of(0x1), 32, 40), 2u);
  EXPECT_EQ(request_flits(store_of(0), 32, 8), 1u) << "a write with no byte is its header";
}

TEST(PacketSizes, PartitionPortBandwidthCountsSlicesAndHeader) {
  MemParams p = gtx480_params();
  EXPECT_EQ(p.slices, 2u);
  EXPECT_EQ(p.noc_flits_per_cycle, 1u);
  EXPECT_DOUBLE_EQ(p.partition_port_bytes_per_cycle(), 2 * 128.0 / 5);  // 51.2 B/cycle
  EXPECT_GT(p.partition_port_bytes_per_cycle(), p.dram_bytes_per_cycle()) << "ports carry the channel's 42.7 B/cycle";
  p.slices = 1;
  EXPECT_LT(p.partition_port_bytes_per_cycle(), p.dram_bytes_per_cycle()) << "one port could not";
}

// ---------------------------------------------------------------------------------------------
// AddressMap with L2 slices

TEST(AddressMap, SlicesAlternateWithinAPartitionAndLocalLinesAreUnique) {
  const AddressMap map(6, 16, 16, 2);
  std::set<std::pair<uint32_t, uint64_t>> seen;  // (bank, local line)
  std::vector<uint32_t> per_bank(12, 0);
  for (uint64_t l = 0; l < 6 * 2 * 1000; ++l) {
    const Addr a = l * kLineBytes;
    const uint32_t b = map.bank(a);
    ASSERT_LT(b, 12u);
    EXPECT_EQ(b / 2, map.partition(a));
    EXPECT_EQ(b % 2, map.channel_line(a) % 2);
    EXPECT_EQ(map.local_line(a), map.channel_line(a) / 2);
    EXPECT_TRUE(seen.insert({b, map.local_line(a)}).second);
    ++per_bank[b];
  }
  for (uint32_t n : per_bank) EXPECT_EQ(n, 1000u) << "every slice gets its share";
  const AddressMap one(6, 16, 16);
  for (uint64_t l = 0; l < 100; ++l)
    EXPECT_EQ(one.local_line(l * kLineBytes), one.channel_line(l * kLineBytes)) << "one slice: as before";
}

}  // namespace
}  // namespace l1d::sim
