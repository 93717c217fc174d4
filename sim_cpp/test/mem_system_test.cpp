// System-level tests of the memory system below the L1s (sim_cpp/mem/memory_system.h):
// functional correctness against a shadow image, ordering, the AGCB bypass-bit protocol,
// back-pressure, NoC and DRAM bandwidth, unloaded latencies, draining, determinism.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>
#include <nlohmann/json.hpp>

#include "common/config.h"
#include "sim_cpp/mem/address_map.h"
#include "sim_cpp/mem/functional_memory.h"
#include "sim_cpp/mem/mem_params.h"
#include "sim_cpp/mem/memory_system.h"

namespace l1d::sim {
namespace {

Config gtx480() { return load_preset("gtx480"); }

// gtx480 with a tiny L2 (4 ways x 4 sets per partition: 2 sets in each of its 2 slices) so that
// traffic evicts constantly.
Config tiny_l2() {
  Config c = gtx480();
  c.l2.ways = 4;
  c.l2.size_bytes = c.l2.partitions * 4 * 4 * kLineBytes;
  return c;
}

MemReq read_req(Addr line, SectorMask sectors, uint8_t mshr, bool agcb = false) {
  MemReq r;
  r.line_addr = line;
  r.op = MemOp::kLoad;
  r.sectors = sectors;
  r.mshr = mshr;
  r.agcb_bypass = agcb;
  r.bypass = agcb;
  return r;
}

MemReq write_req(Addr line, SectorMask sectors, uint8_t seed) {
  MemReq r;
  r.line_addr = line;
  r.op = MemOp::kStore;
  r.sectors = sectors;
  for (uint32_t b = 0; b < kLineBytes; ++b) {
    r.byte_mask[b] = (sectors >> (b / kChunkBytes)) & 1;
    r.data[b] = static_cast<uint8_t>(seed * 31 + b);
  }
  return r;
}

// One memory system driven cycle by cycle by hand.
struct Rig {
  Config cfg;
  MemParams p;
  AddressMap map;
  FunctionalMemory image;
  MemorySystem ms;
  uint64_t now = 0;

  explicit Rig(const Config& c)
      : cfg(c),
        p(derive_mem_params(c)),
        map(p.partitions, p.dram_banks, p.dram_lines_per_row, p.slices),
        ms(cfg, image) {}

  void tick() {
    ms.tick();
    ++now;
  }
  void send(uint32_t sm, const MemReq& r) {
    for (int i = 0; i < 100000 && !ms.request_ready(sm); ++i) tick();
    ASSERT_TRUE(ms.request_ready(sm));
    ms.request(sm, r);
  }
  // Sends a read and waits for its response; returns it with the round trip in cycles.
  std::pair<MemResp, uint64_t> read(uint32_t sm, Addr line, SectorMask sectors = 0xF, bool agcb = false) {
    send(sm, read_req(line, sectors, 7, agcb));
    const uint64_t t0 = now;
    for (int i = 0; i < 100000; ++i) {
      if (auto r = ms.response(sm)) return {*r, now - t0};
      tick();
    }
    ADD_FAILURE() << "no response\n" << ms.describe_state();
    return {};
  }
  bool drain(uint64_t limit = 200000) {
    for (uint64_t i = 0; i < limit && !ms.idle(); ++i) tick();
    return ms.idle();
  }
  // The n-th line (n = 0, 1, ...) of partition `part` whose DRAM location is (bank, row).
  Addr line_at(uint32_t part, uint32_t bank, uint64_t row, uint32_t col = 0) const {
    for (uint64_t l = 0;; ++l) {
      const Addr a = l * kLineBytes;
      if (map.partition(a) != part) continue;
      const uint64_t local = map.channel_line(a);
      if (map.dram_bank(local) == bank && map.dram_row(local) == row && local % p.dram_lines_per_row == col) return a;
    }
  }
  // Lines of partition `part` in L2 set `set` of the partition's first slice.
  std::vector<Addr> lines_in_set(uint32_t part, uint32_t set, size_t n, uint64_t from = 0) const {
    std::vector<Addr> out;
    for (uint64_t l = from; out.size() < n; ++l) {
      const Addr a = l * kLineBytes;
      if (map.bank(a) == part * p.slices && map.local_line(a) % p.l2_sets == set) out.push_back(a);
    }
    return out;
  }
};

LineData expect_sectors(const FunctionalMemory& m, Addr line, SectorMask s) { return m.read_sectors(line, s); }

// ---------------------------------------------------------------------------------------------
// Functional correctness

TEST(MemorySystem, WriteThenReadReturnsTheWrittenBytesThroughAnL2Hit) {
  Rig r(gtx480());
  const Addr line = 0x12345680;
  const MemReq w = write_req(line, 0xF, 9);
  r.send(3, w);
  auto [resp, lat] = r.read(3, line, 0xF);
  EXPECT_EQ(resp.data, w.data);
  EXPECT_EQ(resp.mshr, 7);
  EXPECT_EQ(r.ms.stats().l2_hits, 1u);
  EXPECT_EQ(r.ms.stats().dram_reads, 0u) << "write-allocate without fetch";
  EXPECT_EQ(r.image.line(line), w.data);
  std::printf("write then read (L2 hit) round trip: %llu cycles\n", static_cast<unsigned long long>(lat));
}

TEST(MemorySystem, ReadReturnsOnlyTheRequestedSectorsOfTheInitialImage) {
  Rig r(gtx480());
  const Addr line = 0x40000;
  auto [resp, lat] = r.read(0, line, 0b1010);
  EXPECT_EQ(resp.data, expect_sectors(r.image, line, 0b1010));
  EXPECT_EQ(resp.data[0], 0);
  EXPECT_EQ(resp.data[32], FunctionalMemory::initial_byte(line + 32));
  EXPECT_EQ(r.ms.stats().dram_reads, 1u);
  EXPECT_EQ(r.ms.stats().dram_bytes, 64u) << "only the missing sectors are fetched";
  EXPECT_EQ(r.ms.stats().noc_response_flits, 3u) << "8 B header + 64 B in 32 B flits";
}

TEST(MemorySystem, WriteThenReadThroughDramAfterL2Eviction) {
  Rig r(tiny_l2());
  const std::vector<Addr> set = r.lines_in_set(2, 1, r.p.l2_ways + 4);
  const MemReq w = write_req(set[0], 0b0101, 1);
  r.send(0, w);
  // Fill the same L2 set with other dirty lines: set[0] is evicted and written back.
  for (size_t i = 1; i < set.size(); ++i) r.send(1, write_req(set[i], 0xF, static_cast<uint8_t>(i)));
  ASSERT_TRUE(r.drain());
  EXPECT_GE(r.ms.stats().dram_writes, 4u);
  const uint64_t reads_before = r.ms.stats().dram_reads;
  auto [resp, lat] = r.read(2, set[0], 0xF);
  EXPECT_EQ(r.ms.stats().dram_reads, reads_before + 1) << "the line came back from DRAM";
  LineData want = r.image.line(set[0]);
  EXPECT_EQ(resp.data, want);
  for (uint32_t b = 0; b < kLineBytes; ++b) {
    if ((0b0101 >> (b / kChunkBytes)) & 1) {
      EXPECT_EQ(resp.data[b], w.data[b]) << b;
    } else {
      EXPECT_EQ(resp.data[b], FunctionalMemory::initial_byte(set[0] + b)) << b;
    }
  }
}

// Random traffic from many SMs, every read checked against a shadow image updated in issue
// order. Each SM writes only its own lines (so per-SM order defines the expected value) and
// also reads a shared read-only region.
struct Traffic {
  uint32_t private_lines = 48;   // per SM
  uint32_t shared_lines = 512;
  uint32_t write_pct = 40;
  uint32_t send_pct = 50;        // chance an SM tries to send in a cycle
  uint32_t take_pct = 70;        // chance an SM takes its response in a cycle (back-pressure)
  uint32_t max_outstanding = 48; // reads per SM
  bool one_partition = false;    // every line in partition 0 (contention, deep queues)
};

struct RunResult {
  uint64_t requests = 0, reads_checked = 0, mismatches = 0, cycles = 0;
  bool drained = false;
  uint64_t order_hash = 0;
  std::string stats;
  std::string first_mismatch;
};

RunResult run_random(const Config& cfg, const Traffic& t, uint64_t seed, uint64_t requests) {
  Rig r(cfg);
  FunctionalMemory shadow;
  std::mt19937_64 rng(seed);
  const uint32_t sms = r.p.sms;
  // Lines: SM s owns private[s]; everybody reads shared.
  std::vector<std::vector<Addr>> priv(sms);
  std::vector<Addr> shared;
  const auto eligible = [&](Addr a) { return !t.one_partition || r.map.partition(a) == 0; };
  for (uint32_t s = 0; s < sms; ++s)
    for (uint64_t l = 0; priv[s].size() < t.private_lines; ++l) {
      const Addr a = 0x10000000 + (uint64_t{s} << 20) + l * kLineBytes;
      if (eligible(a)) priv[s].push_back(a);
    }
  for (uint64_t l = 0; shared.size() < t.shared_lines; ++l) {
    const Addr a = 0x40000000 + l * kLineBytes;
    if (eligible(a)) shared.push_back(a);
  }
  struct Pending {
    bool busy = false;
    LineData want{};
  };
  std::vector<std::vector<Pending>> out(sms, std::vector<Pending>(256));
  std::vector<uint32_t> outstanding(sms, 0);
  RunResult res;
  uint64_t total_out = 0;
  for (uint64_t cycle = 0; cycle < 5000000; ++cycle) {
    const bool sending = res.requests < requests;
    if (!sending && total_out == 0 && r.ms.idle()) {
      res.drained = true;
      break;
    }
    for (uint32_t s = 0; s < sms; ++s) {
      if (!sending || rng() % 100 >= t.send_pct || !r.ms.request_ready(s)) continue;
      if (rng() % 100 < t.write_pct) {
        const Addr line = priv[s][rng() % priv[s].size()];
        MemReq w;
        w.line_addr = line;
        w.op = MemOp::kStore;
        if (rng() % 2) {  // whole sectors (a write-back)
          w.sectors = static_cast<SectorMask>(1 + rng() % 15);
          for (uint32_t b = 0; b < kLineBytes; ++b) w.byte_mask[b] = (w.sectors >> (b / kChunkBytes)) & 1;
        } else {          // scattered bytes (a write-through store)
          for (uint32_t b = 0; b < kLineBytes; ++b) w.byte_mask[b] = rng() % 8 == 0;
        }
        for (uint32_t b = 0; b < kLineBytes; ++b) w.data[b] = static_cast<uint8_t>(rng());
        shadow.apply_write(w);
        r.ms.request(s, w);
        ++res.requests;
      } else {
        if (outstanding[s] >= t.max_outstanding) continue;
        uint32_t id = 0;
        while (out[s][id].busy) ++id;
        const bool own = rng() % 100 < 60;
        const Addr line = own ? priv[s][rng() % priv[s].size()] : shared[rng() % shared.size()];
        const SectorMask sec = static_cast<SectorMask>(1 + rng() % 15);
        out[s][id].busy = true;
        out[s][id].want = shadow.read_sectors(line, sec);
        ++outstanding[s];
        ++total_out;
        r.ms.request(s, read_req(line, sec, static_cast<uint8_t>(id), rng() % 4 == 0));
        ++res.requests;
      }
    }
    for (uint32_t s = 0; s < sms; ++s) {
      if (sending && rng() % 100 >= t.take_pct) continue;
      if (auto resp = r.ms.response(s)) {
        Pending& pe = out[s][resp->mshr];
        if (!pe.busy) {
          ++res.mismatches;
          if (res.first_mismatch.empty()) res.first_mismatch = "response for an idle mshr";
          continue;
        }
        ++res.reads_checked;
        if (resp->data != pe.want) {
          ++res.mismatches;
          if (res.first_mismatch.empty())
            res.first_mismatch = "sm " + std::to_string(s) + " mshr " + std::to_string(resp->mshr) + " at cycle " +
                                 std::to_string(cycle);
        }
        res.order_hash = res.order_hash * 1000003u + (cycle << 16) + (uint64_t{s} << 8) + resp->mshr;
        pe.busy = false;
        --outstanding[s];
        --total_out;
      }
    }
    r.tick();
  }
  res.cycles = r.now;
  res.stats = r.ms.stats_json().dump();
  // Per-SM order: the image must equal the shadow on every written line.
  for (uint32_t s = 0; s < sms; ++s)
    for (Addr a : priv[s])
      if (r.image.line(a) != shadow.line(a)) {
        ++res.mismatches;
        if (res.first_mismatch.empty()) res.first_mismatch = "final image differs at line " + std::to_string(a);
      }
  return res;
}

TEST(MemorySystem, RandomMixedTrafficFromAllSmsMatchesTheShadowImage) {
  const RunResult res = run_random(tiny_l2(), Traffic{}, 1, 60000);
  EXPECT_TRUE(res.drained);
  EXPECT_EQ(res.mismatches, 0u) << res.first_mismatch;
  EXPECT_GT(res.reads_checked, 30000u);
  std::printf("random traffic: %llu requests, %llu reads checked, %llu cycles\n%s\n",
              static_cast<unsigned long long>(res.requests), static_cast<unsigned long long>(res.reads_checked),
              static_cast<unsigned long long>(res.cycles), res.stats.c_str());
}

TEST(MemorySystem, RandomTrafficWithTheFullL2MatchesTheShadowImage) {
  Traffic t;
  t.private_lines = 2000;  // more than the L2 holds per SM share: hits and DRAM both
  const RunResult res = run_random(gtx480(), t, 2, 60000);
  EXPECT_TRUE(res.drained);
  EXPECT_EQ(res.mismatches, 0u) << res.first_mismatch;
}

TEST(MemorySystem, PerSmAddressOrderIsKeptUnderRandomBackPressure) {
  // Few lines, all in one partition, heavy write share and scarce response taking: deep
  // queues everywhere, and every read must still see exactly its SM's previous writes.
  Traffic t;
  t.private_lines = 3;
  t.shared_lines = 8;
  t.write_pct = 60;
  t.send_pct = 90;
  t.take_pct = 15;
  t.one_partition = true;
  const RunResult res = run_random(tiny_l2(), t, 3, 40000);
  EXPECT_TRUE(res.drained);
  EXPECT_EQ(res.mismatches, 0u) << res.first_mismatch;
  EXPECT_GT(res.reads_checked, 10000u);
}

TEST(MemorySystem, OtherPresetsAreFunctionallyCorrect) {
  for (const char* name : {"gtx1080", "qv100"}) {
    Traffic t;
    t.private_lines = 64;
    const RunResult res = run_random(load_preset(name), t, 4, 30000);
    EXPECT_TRUE(res.drained) << name;
    EXPECT_EQ(res.mismatches, 0u) << name << ": " << res.first_mismatch;
  }
}

TEST(MemorySystem, RunsAreDeterministic) {
  const RunResult a = run_random(tiny_l2(), Traffic{}, 11, 20000);
  const RunResult b = run_random(tiny_l2(), Traffic{}, 11, 20000);
  EXPECT_EQ(a.stats, b.stats);
  EXPECT_EQ(a.order_hash, b.order_hash);
  EXPECT_EQ(a.cycles, b.cycles);
  const RunResult c = run_random(tiny_l2(), Traffic{}, 12, 20000);
  EXPECT_NE(a.order_hash, c.order_hash);  // the seed matters (the test is not vacuous)
}

// ---------------------------------------------------------------------------------------------
// AGCB bypass bit

TEST(MemorySystem, AgcbBypassBitProtocolThroughTheSystem) {
  Rig r(gtx480());
  const Addr line = 0x7000;
  // First bypass-predicted read: the bit was clear -> response false, bit set.
  EXPECT_FALSE(r.read(0, line, 0xF, true).first.l2_bypass_bit);
  // A normal read neither reads nor changes the bit.
  EXPECT_FALSE(r.read(1, line, 0xF, false).first.l2_bypass_bit);
  // Second bypass-predicted read (any SM): the bit was set -> override (true), bit cleared.
  EXPECT_TRUE(r.read(2, line, 0xF, true).first.l2_bypass_bit);
  // Third: clear again -> false.
  EXPECT_FALSE(r.read(0, line, 0xF, true).first.l2_bypass_bit);
  EXPECT_EQ(r.ms.stats().l2_bypass_overrides, 1u);
  // Bits are per line.
  EXPECT_FALSE(r.read(0, line + kLineBytes, 0xF, true).first.l2_bypass_bit);
}

TEST(MemorySystem, AgcbWithoutL2VerificationNeverOverrides) {
  Config c = gtx480();
  c.policy.agcb.l2_verify = false;
  Rig r(c);
  const Addr line = 0x7000;
  // The same sequence that overrides on its second read above: here no read ever does.
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(r.read(static_cast<uint32_t>(i % 2), line, 0xF, true).first.l2_bypass_bit);
  EXPECT_EQ(r.ms.stats().l2_bypass_overrides, 0u);
}

TEST(MemorySystem, AgcbBypassBitSurvivesL2EvictionAndIsTestedAtArrivalOrder) {
  Rig r(tiny_l2());
  const std::vector<Addr> set = r.lines_in_set(1, 1, r.p.l2_ways * 3);
  EXPECT_FALSE(r.read(0, set[0], 0xF, true).first.l2_bypass_bit);
  for (size_t i = 1; i < set.size(); ++i) r.send(0, read_req(set[i], 0xF, static_cast<uint8_t>(i)));
  ASSERT_TRUE([&] {
    for (int i = 0; i < 100000; ++i) {
      (void)r.ms.response(0);
      r.tick();
      if (r.ms.idle()) return true;
    }
    return false;
  }());
  // set[0] is long gone from the L2 (4 ways, 11 other lines), its bit is not.
  EXPECT_TRUE(r.read(0, set[0], 0xF, true).first.l2_bypass_bit);
  // Two bypass reads sent back to back, before either reaches the L2: the first sees the bit
  // clear (and sets it), the second sees it set.
  const Addr fresh = 0x9000;
  r.send(4, read_req(fresh, 0xF, 1, true));
  r.send(4, read_req(fresh, 0xF, 2, true));
  std::vector<MemResp> got;
  for (int i = 0; i < 10000 && got.size() < 2; ++i) {
    if (auto x = r.ms.response(4)) got.push_back(*x);
    r.tick();
  }
  ASSERT_EQ(got.size(), 2u);
  for (const MemResp& x : got) EXPECT_EQ(x.l2_bypass_bit, x.mshr == 2) << int{x.mshr};
}

// ---------------------------------------------------------------------------------------------
// Back-pressure and bandwidth

TEST(MemorySystem, RequestReadyFallsWhenTheInjectionBufferIsFull) {
  Rig r(gtx480());
  uint32_t sent = 0;
  while (r.ms.request_ready(0)) r.ms.request(0, read_req(0x1000 * (sent + 1), 0xF, static_cast<uint8_t>(sent))), ++sent;
  EXPECT_EQ(sent, r.cfg.noc.src_buffer);
  EXPECT_TRUE(r.ms.request_ready(1)) << "buffers are per SM";
  EXPECT_THROW(r.ms.request(0, read_req(0, 0xF, 0)), std::logic_error);
  r.tick();
  EXPECT_TRUE(r.ms.request_ready(0)) << "the network drained a packet";
}

TEST(MemorySystem, AnSmThatTakesNoResponsesIsEventuallyBackPressured) {
  Rig r(gtx480());
  // SM 0 reads lines of partition 0 every cycle and never takes a response: the response
  // network, the L2 bank's read slots, the request network and the injection buffer fill up.
  std::vector<Addr> lines;
  for (uint64_t l = 0; lines.size() < 2000; ++l)
    if (r.map.partition(l * kLineBytes) == 0) lines.push_back(l * kLineBytes);
  uint32_t sent = 0;
  for (int i = 0; i < 5000; ++i) {
    if (r.ms.request_ready(0)) r.ms.request(0, read_req(lines[sent % lines.size()], 0xF, static_cast<uint8_t>(sent))), ++sent;
    r.tick();
  }
  EXPECT_FALSE(r.ms.request_ready(0));
  const uint32_t stuck = sent;
  for (int i = 0; i < 500; ++i) r.tick();
  EXPECT_FALSE(r.ms.request_ready(0)) << "stays blocked while nothing is taken";
  EXPECT_TRUE(r.ms.request_ready(1)) << "other SMs' injection buffers are not full";
  const std::string state = r.ms.describe_state();
  EXPECT_NE(state.find("full"), std::string::npos) << state;
  EXPECT_NE(state.find("partition 0"), std::string::npos) << state;
  std::printf("blocked after %u requests:\n%s", stuck, state.c_str());
  // Taking the responses drains everything.
  uint32_t got = 0;
  for (int i = 0; i < 100000 && !(r.ms.idle() && got == stuck); ++i) {
    if (r.ms.response(0)) ++got;
    r.tick();
  }
  EXPECT_EQ(got, stuck);
  EXPECT_TRUE(r.ms.idle());
}

TEST(MemorySystem, NocBurstOfWritesTakesAtLeastItsFlitsOverThePortRate) {
  Rig r(gtx480());
  const uint32_t n = 200;
  std::vector<Addr> lines;
  for (uint64_t l = 0; lines.size() < n; ++l)
    if (r.map.partition(l * kLineBytes) == 0) lines.push_back(l * kLineBytes);
  const uint32_t flits = request_flits(write_req(0, 0xF, 0), r.p.flit_bytes, r.p.header_bytes);
  EXPECT_EQ(flits, 5u);  // 8 B header + 128 B of data in 32 B flits
  uint32_t sent = 0;
  uint64_t done_at = 0;
  for (uint64_t t = 0; t < 100000; ++t) {
    while (sent < n && r.ms.request_ready(0)) r.ms.request(0, write_req(lines[sent], 0xF, 1)), ++sent;
    r.tick();
    if (r.ms.stats().noc_packets == n) {
      done_at = r.now;
      break;
    }
  }
  const uint64_t port_cycles = (flits + r.p.noc_flits_per_cycle - 1) / r.p.noc_flits_per_cycle;
  EXPECT_GE(done_at, n * port_cycles);
  EXPECT_LE(done_at, n * port_cycles + r.p.noc_latency + 4) << "the port stays busy";
  EXPECT_EQ(r.ms.stats().noc_request_flits, uint64_t{n} * flits);
  std::printf("%u 5-flit writes through one port: %llu cycles (>= %llu)\n", n,
              static_cast<unsigned long long>(done_at), static_cast<unsigned long long>(n * port_cycles));
}

// Every SM streams reads of distinct lines (no reuse: all L2 misses) with `in_flight` reads in
// flight (0: as many as its L1 has MSHRs). `blocked`: SM s walks its own contiguous region; otherwise the
// SMs interleave over one array (SM s reads lines s, s + 15, s + 30, ...). Returns the DRAM
// bytes per cycle over `window` cycles after `warm` cycles.
double streaming_rate(bool blocked, uint64_t warm, uint64_t window, MemorySystemStats* out = nullptr,
                      const Config& cfg = gtx480(), uint32_t in_flight = 0) {
  Rig r(cfg);
  const uint32_t sms = r.p.sms;
  const uint32_t max_out = in_flight ? in_flight : r.cfg.l1.mshr_entries;
  std::vector<uint32_t> outstanding(sms, 0);
  std::vector<uint64_t> next(sms, 0);
  uint64_t bytes0 = 0;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t t = 0; t < warm + window; ++t) {
    if (t == warm) bytes0 = r.ms.stats().dram_bytes;
    for (uint32_t s = 0; s < sms; ++s) {
      if (outstanding[s] < max_out && r.ms.request_ready(s)) {
        const uint64_t line = blocked ? (uint64_t{s} << 24) + next[s] : next[s] * sms + s;
        r.ms.request(s, read_req(0x80000000ull + line * kLineBytes, 0xF, static_cast<uint8_t>(outstanding[s])));
        ++next[s];
        ++outstanding[s];
      }
      if (r.ms.response(s)) --outstanding[s];
    }
    r.tick();
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double rate = static_cast<double>(r.ms.stats().dram_bytes - bytes0) / static_cast<double>(window);
  const double peak = r.p.peak_bytes_per_cycle();
  std::printf("streaming reads (%s, %u in flight per SM): %.2f B/cycle of a %.2f B/cycle peak = %.1f %% (DRAM row hit rate %.2f, "
              "avg round trip %.0f); %.2f M cycles/s\n",
              blocked ? "per-SM blocks" : "SM-interleaved", max_out, rate, peak, 100.0 * rate / peak,
              static_cast<double>(r.ms.stats().dram_row_hits) /
                  static_cast<double>(r.ms.stats().dram_row_hits + r.ms.stats().dram_row_misses),
              static_cast<double>(r.ms.stats().round_trip_sum) / static_cast<double>(r.ms.stats().round_trips),
              static_cast<double>(warm + window) / secs / 1e6);
  if (out) *out = r.ms.stats();
  return rate;
}

// Measured: about 212 B/cycle (83 % of the peak) interleaved and 203 (79 %) in per-SM blocks,
// the same with 32 (the gtx480 L1's MSHRs) or 64 reads in flight per SM: the limit is the
// response crossbar, not latency. Its 12 slice ports raw carry 307 B/cycle (128 B per 5-flit
// packet at one flit per cycle), and head-of-line blocking in the input-queued crossbar (12
// sources, 15 destinations, equal port speeds) keeps it near 70 % of that: the same ceiling as
// L2-hit reads (L2HitsAreNotLimitedByDramBandwidth). Before the interconnect correction
// (2 flits per cycle, no response header, 6 ports) this test reached 96 % / 94 %.
TEST(MemorySystem, StreamingReadsReachTheDramPeakBandwidth) {
  const double peak = derive_mem_params(gtx480()).peak_bytes_per_cycle();
  EXPECT_NEAR(peak, 179.2e9 / 700e6, 1e-9);
  for (bool blocked : {false, true}) {
    MemorySystemStats s;
    const double rate = streaming_rate(blocked, 20000, 300000, &s, gtx480(), 64);
    EXPECT_GE(rate, 0.77 * peak) << (blocked ? "blocked" : "interleaved");
    EXPECT_LE(rate, peak * 1.001);
    EXPECT_EQ(s.l2_hits, 0u);
    EXPECT_EQ(s.dram_writes, 0u);
  }
  const double l1_limited = streaming_rate(false, 20000, 100000);
  EXPECT_GE(l1_limited, 0.77 * peak);
  EXPECT_LE(l1_limited, peak * 1.001);
}

// The same 60 lines read over and over from every SM, up to 64 reads in flight per SM: after
// warm-up all L2 hits. Returns the B/cycle delivered over `cycles`.
double l2_hit_bandwidth(Rig& r, uint64_t cycles) {
  const uint32_t sms = r.p.sms;
  std::vector<uint32_t> outstanding(sms, 0);
  uint64_t responses = 0;
  for (uint64_t t = 0; t < cycles; ++t) {
    for (uint32_t s = 0; s < sms; ++s) {
      if (outstanding[s] < 64 && r.ms.request_ready(s)) {
        r.ms.request(s, read_req((t * 7 + s) % 60 * kLineBytes, 0xF, static_cast<uint8_t>(outstanding[s])));
        ++outstanding[s];
      }
      if (r.ms.response(s)) --outstanding[s], ++responses;
    }
    r.tick();
  }
  return static_cast<double>(responses) * kLineBytes / static_cast<double>(cycles);
}

TEST(MemorySystem, L2HitsAreNotLimitedByDramBandwidth) {
  // The same few lines read over and over from every SM: all L2 hits after warm-up; the
  // response rate is bounded by the banks (one request per cycle) and the NoC, not DRAM.
  Rig r(gtx480());
  const double bytes_per_cycle = l2_hit_bandwidth(r, 20000);
  // The ceiling is the L2 slices' response ports: 12 slices x 128 B per 5-flit packet (8 B header)
  // at 1 flit per cycle = 307 B/cycle (1.2x the DRAM peak). The crossbar's head-of-line blocking
  // (12 sources, 15 destinations, ports of equal speed) keeps it at about 70 % of that, 210
  // B/cycle, below the DRAM peak (with the old 2-flit-per-cycle ports: 321 of 384). GPGPU-Sim's
  // GTX480 has the same raw ceiling: 12 ports x 32 B at 700 MHz, 5 flits per 128 B response.
  const double port_limit = r.p.partitions * r.p.partition_port_bytes_per_cycle();
  std::printf("L2-hit read bandwidth: %.1f B/cycle (response-port limit %.0f, DRAM peak %.0f)\n", bytes_per_cycle,
              port_limit, r.p.peak_bytes_per_cycle());
  EXPECT_GT(bytes_per_cycle, 0.6 * port_limit);
  EXPECT_LE(bytes_per_cycle, port_limit);
  EXPECT_EQ(r.ms.stats().dram_reads, 60u) << "every other read hit: DRAM bandwidth plays no part";
}

// noc.arbiter (sim_cpp/mem/noc.h): gtx480 with each arbiter.
Config with_arbiter(NocArbiter a, uint32_t vcs, uint32_t input_speedup, uint32_t internal_speedup) {
  Config c = gtx480();
  c.noc.arbiter = a;
  c.noc.vcs = vcs;
  c.noc.input_speedup = input_speedup;
  c.noc.internal_speedup = internal_speedup;
  return c;
}

double l2_hit_bandwidth(const Config& c, uint64_t cycles) {
  Rig r(c);
  return l2_hit_bandwidth(r, cycles);
}

// The response network's saturation in the memory system, per arbiter: GPGPU-Sim's GTX480 router
// (one VC) is the fifo crossbar; VCs or an internal speedup (GPGPU-Sim's Pascal: 2) lift it.
TEST(MemorySystem, L2HitBandwidthUnderEachArbiter) {
  const uint64_t cycles = 20000;
  const double fifo = l2_hit_bandwidth(gtx480(), cycles);
  const double fermi = l2_hit_bandwidth(with_arbiter(NocArbiter::kIslip, 1, 2, 1), cycles);
  const double vc4 = l2_hit_bandwidth(with_arbiter(NocArbiter::kIslip, 4, 2, 1), cycles);
  const double pascal = l2_hit_bandwidth(with_arbiter(NocArbiter::kIslip, 1, 1, 2), cycles);
  const double port_limit = derive_mem_params(gtx480()).partitions * derive_mem_params(gtx480()).partition_port_bytes_per_cycle();
  std::printf("gtx480 L2-hit read bandwidth (B/cycle, port limit %.0f): fifo %.1f, islip vcs 1 input_speedup 2 %.1f, "
              "islip vcs 4 input_speedup 2 %.1f, islip internal_speedup 2 %.1f\n",
              port_limit, fifo, fermi, vc4, pascal);
  EXPECT_EQ(fermi, fifo) << "one VC: the fifo crossbar";
  EXPECT_GT(vc4, 1.1 * fifo);
  EXPECT_GT(pascal, 1.1 * fifo);
  EXPECT_LE(vc4, port_limit);
  EXPECT_LE(pascal, port_limit);
  // gtx1080-jips's preset (islip, internal_speedup 2, config_pascal_islip.icnt) against its
  // crossbar before the field (fifo).
  Config jips = load_preset("gtx1080-jips");
  ASSERT_EQ(jips.noc.internal_speedup, 2u);
  const double jips_islip = l2_hit_bandwidth(jips, cycles);
  jips.noc = NocConfig{jips.noc.latency, jips.noc.flit_bytes, jips.noc.flits_per_cycle, jips.noc.header_bytes,
                       jips.noc.src_buffer, jips.noc.dst_buffer};
  ASSERT_EQ(jips.noc.arbiter, NocArbiter::kFifo);
  const double jips_fifo = l2_hit_bandwidth(jips, cycles);
  const MemParams jp = derive_mem_params(jips);
  std::printf("gtx1080-jips L2-hit read bandwidth (B/cycle, port limit %.0f): fifo %.1f, its preset (islip, "
              "internal_speedup 2) %.1f\n",
              jp.partitions * jp.partition_port_bytes_per_cycle(), jips_fifo, jips_islip);
  EXPECT_GT(jips_islip, 1.05 * jips_fifo);  // 56 destinations for 16 slices: less head-of-line blocking to relieve
  EXPECT_LE(jips_islip, jp.partitions * jp.partition_port_bytes_per_cycle());
}

// The calibration (8 + 100 + 12 = 120 for an L2 hit) holds under every arbiter: unloaded, nothing
// waits, and a switch faster than the channel does not make the channel faster.
TEST(MemorySystem, UnloadedRoundTripIsTheCalibrationUnderEachArbiter) {
  for (const auto& [vcs, in_sp, int_sp] : {std::tuple{1u, 2u, 1u}, std::tuple{4u, 2u, 1u}, std::tuple{1u, 1u, 2u},
                                          std::tuple{4u, 1u, 4u}}) {
    SCOPED_TRACE(testing::Message() << "vcs " << vcs << " input_speedup " << in_sp << " internal_speedup " << int_sp);
    Rig r(with_arbiter(NocArbiter::kIslip, vcs, in_sp, int_sp));
    const Addr a = r.line_at(3, 5, 10);
    const uint64_t closed = r.read(0, a).second;
    ASSERT_TRUE(r.drain());
    const uint64_t hit = r.read(0, a).second;
    ASSERT_TRUE(r.drain());
    EXPECT_EQ(hit, 120u);
    EXPECT_EQ(closed, 193u);
    const MemorySystemStats::RoundTripParts& t = r.ms.stats().round_trip_parts;
    EXPECT_EQ(t.req_network, 2u * r.p.noc_latency);
    EXPECT_EQ(t.resp_network, 2u * (4 + r.p.noc_latency));
    EXPECT_EQ(t.l2_hit, r.p.l2_hit_latency);
    EXPECT_EQ(t.req_queue + t.l2_input + t.l2_output + t.resp_queue + t.sm_eject, 0u);
  }
}

// ---------------------------------------------------------------------------------------------
// Latency calibration (SPEC section 1: ~200-cycle unloaded L1-miss round trip, NoC < 20)

TEST(MemorySystem, UnloadedRoundTripsMatchTheCalibration) {
  Rig r(gtx480());
  const uint32_t part = 3, bank = 5;
  const Addr a = r.line_at(part, bank, 10);
  const Addr same_row = r.line_at(part, bank, 10, 1);
  const Addr other_row = r.line_at(part, bank, 11);
  const uint64_t closed = r.read(0, a).second;         // L2 miss, DRAM bank closed
  ASSERT_TRUE(r.drain());
  const uint64_t l2_hit = r.read(0, a).second;         // L2 hit
  ASSERT_TRUE(r.drain());
  const uint64_t row_hit = r.read(0, same_row).second; // L2 miss, DRAM row hit
  ASSERT_TRUE(r.drain());
  const uint64_t conflict = r.read(0, other_row).second;  // L2 miss, DRAM row conflict
  ASSERT_TRUE(r.drain());
  const double noc = static_cast<double>(r.ms.stats().noc_latency_sum) / static_cast<double>(r.ms.stats().noc_packets);
  std::printf("gtx480 unloaded round trips (cycles): L2 hit %llu, DRAM row hit %llu, closed bank %llu, "
              "row conflict %llu; request NoC %.1f\n",
              static_cast<unsigned long long>(l2_hit), static_cast<unsigned long long>(row_hit),
              static_cast<unsigned long long>(closed), static_cast<unsigned long long>(conflict), noc);
  EXPECT_GE(conflict, 170u);
  EXPECT_LE(conflict, 230u);
  EXPECT_GE(closed, 170u);
  EXPECT_LE(closed, 230u);
  EXPECT_LT(row_hit, closed);
  EXPECT_LT(closed, conflict);
  EXPECT_GE(l2_hit, 100u);
  EXPECT_LE(l2_hit, 140u);
  EXPECT_LT(noc, 20.0);
  // The exact calibration recorded in mem_params.h (128 B reads: a 5-flit response; before the
  // interconnect correction 117 and 200, with 4-flit responses at 2 flits per cycle).
  EXPECT_EQ(l2_hit, 120u);
  EXPECT_EQ(row_hit, 183u);
  EXPECT_EQ(closed, 193u);
  EXPECT_EQ(conflict, 203u);
  EXPECT_EQ(r.ms.stats().round_trips, 4u);
  EXPECT_EQ(r.ms.stats().round_trip_sum, l2_hit + row_hit + closed + conflict);
  // Unloaded, the parts are the calibration's terms and nothing waits: request NoC 8 (1 flit),
  // L2 hit 100 (l2.hit_latency), response NoC 12 (5 flits at 1 a cycle: 4 + noc.latency 8); the
  // three misses spend the rest in the L2 (tag, DRAM, fill).
  const MemorySystemStats::RoundTripParts& t = r.ms.stats().round_trip_parts;
  EXPECT_EQ(t.hit_reads, 1u);
  EXPECT_EQ(t.miss_reads, 3u);
  EXPECT_EQ(t.req_network, 4u * r.p.noc_latency);
  EXPECT_EQ(t.l2_hit, r.p.l2_hit_latency);
  EXPECT_EQ(t.resp_network, 4u * (4 + r.p.noc_latency));
  EXPECT_EQ(t.l2_miss, row_hit + closed + conflict - 3u * (r.p.noc_latency + 4 + r.p.noc_latency));
  EXPECT_EQ(t.req_queue + t.l2_input + t.l2_output + t.resp_queue + t.sm_eject, 0u);
  EXPECT_EQ(t.sum(), r.ms.stats().round_trip_sum);
}

// Under load the parts still sum to the round trips, and the queues show where reads wait.
TEST(MemorySystem, RoundTripPartsSumToTheRoundTripUnderLoad) {
  Rig r(gtx480());
  const uint32_t sms = r.p.sms;
  std::vector<uint32_t> outstanding(sms, 0);
  uint64_t sent = 0;
  for (uint64_t c = 0; c < 400; ++c) {
    for (uint32_t s = 0; s < sms; ++s) {
      if (outstanding[s] < 16 && r.ms.request_ready(s)) {  // every SM on one partition's lines
        r.ms.request(s, read_req(r.line_at(2, static_cast<uint32_t>(c % 8), static_cast<uint32_t>(c % 300)), 0xF,
                                 static_cast<uint8_t>(outstanding[s])));
        ++outstanding[s], ++sent;
      }
      if (c % 2 == 0 && r.ms.response(s)) --outstanding[s];  // SMs that take every other cycle
    }
    r.tick();
  }
  for (int i = 0; i < 200000 && !r.ms.idle(); ++i) {
    for (uint32_t s = 0; s < sms; ++s) (void)r.ms.response(s);
    r.tick();
  }
  ASSERT_TRUE(r.ms.idle());
  const MemorySystemStats& s = r.ms.stats();
  const MemorySystemStats::RoundTripParts& t = s.round_trip_parts;
  EXPECT_EQ(s.round_trips, sent);
  EXPECT_EQ(t.sum(), s.round_trip_sum);
  EXPECT_EQ(t.hit_reads, s.l2_hits);
  EXPECT_EQ(t.miss_reads, s.l2_misses);
  EXPECT_EQ(t.req_network, sent * r.p.noc_latency);
  EXPECT_EQ(t.l2_hit, t.hit_reads * r.p.l2_hit_latency);
  EXPECT_EQ(t.resp_network, sent * (4 + r.p.noc_latency));
  EXPECT_GT(t.req_queue, 0u) << "15 SMs into one partition's two slices queue at injection";
  EXPECT_GT(t.l2_input + t.resp_queue, 0u);
  EXPECT_GT(t.sm_eject, 0u) << "the SMs took responses every other cycle only";
  EXPECT_GT(t.l2_miss, t.miss_reads * (r.p.l2_tag_latency + r.p.dram_latency + r.p.l2_fill_latency));
}

TEST(MemorySystem, UnloadedRoundTripsOfTheOtherPresets) {
  for (const char* name : {"gtx1080", "qv100"}) {
    Rig r(load_preset(name));
    const Addr a = r.line_at(0, 0, 3);
    const uint64_t miss = r.read(0, a).second;
    ASSERT_TRUE(r.drain());
    const uint64_t hit = r.read(0, a).second;
    std::printf("%s unloaded round trips: L2 hit %llu, DRAM (closed bank) %llu cycles\n", name,
                static_cast<unsigned long long>(hit), static_cast<unsigned long long>(miss));
    EXPECT_LT(hit, miss) << name;
    EXPECT_GE(hit, r.cfg.l2.hit_latency + 2 * r.cfg.noc.latency) << name;
  }
}

// Unloaded round trips (L2 hit, DRAM closed bank, whole-line reads) and the DRAM streaming
// bandwidth of every preset, printed for docs/simulator.md. The reference numbers they are set
// against are there.
TEST(MemorySystem, PresetLatencyAndBandwidthTable) {
  for (const char* name : {"gtx480", "gtx1080", "qv100", "gtx480-gpgpusim", "gtx1080-jips", "qv100-accelsim"}) {
    Rig r(load_preset(name));
    const Addr a = r.line_at(1, 2, 3);
    const uint64_t miss = r.read(0, a).second;
    ASSERT_TRUE(r.drain());
    const uint64_t hit = r.read(0, a).second;
    ASSERT_TRUE(r.drain());
    const uint64_t hit32 = r.read(0, a, 0x1).second;
    ASSERT_TRUE(r.drain());
    const double noc = static_cast<double>(r.ms.stats().noc_latency_sum) / static_cast<double>(r.ms.stats().noc_packets);
    std::printf("%s: 128 B read: L2 hit %llu, DRAM (closed bank) %llu; 32 B L2 hit %llu; request NoC %.1f cycles; "
                "DRAM peak %.1f B/cycle (%.1f per channel), response ports %.1f B/cycle per partition\n",
                name, static_cast<unsigned long long>(hit), static_cast<unsigned long long>(miss),
                static_cast<unsigned long long>(hit32), noc, r.p.peak_bytes_per_cycle(), r.p.dram_bytes_per_cycle(),
                r.p.partition_port_bytes_per_cycle());
    EXPECT_LT(hit, miss) << name;
    EXPECT_LT(hit32, hit) << name << ": a 2-flit response is shorter than a 5-flit one";
    EXPECT_GE(r.p.partition_port_bytes_per_cycle(), r.p.dram_bytes_per_cycle())
        << name << ": the L2 slices' ports can carry the DRAM channel's bandwidth";
    // DRAM streaming with the preset's L1 MSHRs in flight per SM.
    const double rate = streaming_rate(false, 10000, 50000, nullptr, r.cfg);
    std::printf("%s: streaming reads %.1f B/cycle = %.1f %% of the DRAM peak\n", name, rate,
                100.0 * rate / r.p.peak_bytes_per_cycle());
    EXPECT_GT(rate, 0.5 * r.p.peak_bytes_per_cycle()) << name;
    EXPECT_LE(rate, 1.001 * r.p.peak_bytes_per_cycle()) << name;
  }
}

// l2.fetch: line: a one-sector read miss moves the whole 128 B line from DRAM, the next read of
// another sector hits; l2.fetch: sector moves 32 B and misses again.
TEST(MemorySystem, LineFetchReadsTheWholeLineFromDram) {
  for (const L2Fetch fetch : {L2Fetch::kSector, L2Fetch::kLine}) {
    Config c = gtx480();
    c.l2.fetch = fetch;
    Rig r(c);
    const Addr line = 0x40000;
    auto [resp, lat] = r.read(0, line, 0b0001);
    EXPECT_EQ(resp.data, expect_sectors(r.image, line, 0b0001));
    ASSERT_TRUE(r.drain());
    EXPECT_EQ(r.ms.stats().dram_reads, 1u);
    EXPECT_EQ(r.ms.stats().dram_bytes, fetch == L2Fetch::kLine ? 128u : 32u);
    EXPECT_EQ(r.ms.stats().noc_response_flits, 2u) << "the response still carries the requested sector only";
    r.read(0, line, 0b0100);
    ASSERT_TRUE(r.drain());
    EXPECT_EQ(r.ms.stats().l2_hits, fetch == L2Fetch::kLine ? 1u : 0u);
    EXPECT_EQ(r.ms.stats().dram_reads, fetch == L2Fetch::kLine ? 1u : 2u);
  }
}

// l2.slices_per_partition: with the interconnect at the core clock, one response port per
// partition caps streaming at 128 B per 5 flits x 6 = 154 B/cycle (60 % of gtx480's DRAM peak;
// measured 128); two slices per partition, as GPGPU-Sim's GTX480 has, lift it to the crossbar's
// head-of-line limit (measured 213, 83 %).
TEST(MemorySystem, TwoSlicesPerPartitionReachTheDramPeakThatOnePortCannot) {
  Config one = gtx480();
  one.l2.slices_per_partition = 1;
  const double peak = derive_mem_params(one).peak_bytes_per_cycle();
  const double cap = derive_mem_params(one).partition_port_bytes_per_cycle() * one.l2.partitions;
  const double rate1 = streaming_rate(false, 20000, 100000, nullptr, one, 64);
  const double rate2 = streaming_rate(false, 20000, 100000, nullptr, gtx480(), 64);
  std::printf("streaming reads: 1 slice/partition %.1f B/cycle (port cap %.1f), 2 slices %.1f B/cycle; peak %.1f\n",
              rate1, cap, rate2, peak);
  EXPECT_LE(rate1, cap * 1.001);
  EXPECT_LT(rate1, 0.6 * peak);
  EXPECT_GE(rate2, 0.77 * peak);
  EXPECT_GT(rate2, 1.5 * rate1);
}

TEST(MemorySystem, SlicesOfAPartitionShareItsDramChannelAndKeepTheData) {
  Rig r(tiny_l2());
  ASSERT_EQ(r.p.slices, 2u);
  // Two lines of partition 1, one in each slice; writes, evictions through DRAM, reads back.
  std::vector<Addr> lines;
  for (uint64_t l = 0; lines.size() < 40; ++l)
    if (r.map.partition(l * kLineBytes) == 1) lines.push_back(l * kLineBytes);
  EXPECT_NE(r.map.bank(lines[0]), r.map.bank(lines[1]));
  for (size_t i = 0; i < lines.size(); ++i) r.send(static_cast<uint32_t>(i % 3), write_req(lines[i], 0xF, static_cast<uint8_t>(i)));
  ASSERT_TRUE(r.drain());
  EXPECT_GT(r.ms.stats().dram_writes, 0u) << "the tiny slices evicted";
  for (size_t i = 0; i < lines.size(); ++i) {
    auto [resp, lat] = r.read(0, lines[i], 0xF);
    EXPECT_EQ(resp.data, write_req(lines[i], 0xF, static_cast<uint8_t>(i)).data) << i;
  }
  ASSERT_TRUE(r.drain());
}

// ---------------------------------------------------------------------------------------------
// Draining, stats, configuration

TEST(MemorySystem, IdleAfterDrainingAndDescribeStateSaysSo) {
  Rig r(tiny_l2());
  EXPECT_TRUE(r.ms.idle());
  for (uint32_t i = 0; i < 30; ++i) r.send(i % r.p.sms, write_req(0x100000 + i * kLineBytes * 3, 0xF, 1));
  r.send(0, read_req(0x5000, 0xF, 1));
  EXPECT_FALSE(r.ms.idle());
  EXPECT_EQ(r.ms.describe_state().find("(idle)"), std::string::npos);
  // The read's response waits for SM 0 to take it: not idle until then.
  for (int i = 0; i < 2000; ++i) r.tick();
  EXPECT_FALSE(r.ms.idle());
  ASSERT_TRUE(r.ms.response(0).has_value());
  ASSERT_TRUE(r.drain());
  const std::string s = r.ms.describe_state();
  EXPECT_NE(s.find("(idle)"), std::string::npos) << s;
  EXPECT_EQ(s.find("L2 reads held"), std::string::npos) << s;
}

TEST(MemorySystem, StatsAreConsistentAndStatsJsonHasEveryField) {
  const Config cfg = tiny_l2();
  Rig r(cfg);
  std::mt19937_64 rng(5);
  uint64_t reads = 0, writes = 0;
  for (uint32_t i = 0; i < 3000; ++i) {
    const uint32_t sm = static_cast<uint32_t>(rng() % r.p.sms);
    const Addr line = (rng() % 4096) * kLineBytes;
    if (rng() % 3 == 0) {
      r.send(sm, write_req(line, static_cast<SectorMask>(1 + rng() % 15), 3));
      ++writes;
    } else {
      r.send(sm, read_req(line, static_cast<SectorMask>(1 + rng() % 15), 0, rng() % 2 == 0));
      ++reads;
    }
    for (uint32_t s = 0; s < r.p.sms; ++s) (void)r.ms.response(s);
    r.tick();
  }
  for (int i = 0; i < 100000 && !r.ms.idle(); ++i) {
    for (uint32_t s = 0; s < r.p.sms; ++s) (void)r.ms.response(s);
    r.tick();
  }
  ASSERT_TRUE(r.ms.idle());
  const MemorySystemStats& s = r.ms.stats();
  EXPECT_EQ(s.requests, reads + writes);
  EXPECT_EQ(s.reads, reads);
  EXPECT_EQ(s.writes, writes);
  EXPECT_EQ(s.l2_hits + s.l2_misses, reads);
  EXPECT_GT(s.l2_hits, 0u);
  EXPECT_GT(s.l2_misses, 0u);
  EXPECT_GT(s.l2_bypass_overrides, 0u);
  EXPECT_EQ(s.round_trips, reads);
  EXPECT_EQ(s.noc_packets, reads + writes);
  EXPECT_GT(s.dram_writes, 0u);
  EXPECT_EQ(s.dram_row_hits + s.dram_row_misses, s.dram_reads + s.dram_writes);
  EXPECT_EQ(s.dram_bytes % kChunkBytes, 0u);
  EXPECT_LE(s.dram_bytes, (s.dram_reads + s.dram_writes) * kLineBytes);
  EXPECT_GE(s.noc_request_flits, s.requests);
  EXPECT_GE(s.noc_response_flits, reads);
  EXPECT_GE(s.noc_latency_sum, s.noc_packets * r.p.noc_latency);
  EXPECT_GT(s.round_trip_sum, s.round_trips * r.p.l2_hit_latency);

  const nlohmann::json j = r.ms.stats_json();
  const std::pair<const char*, uint64_t> fields[] = {
      {"requests", s.requests}, {"reads", s.reads}, {"writes", s.writes}, {"l2_hits", s.l2_hits},
      {"l2_misses", s.l2_misses}, {"l2_bypass_overrides", s.l2_bypass_overrides}, {"dram_reads", s.dram_reads},
      {"dram_writes", s.dram_writes}, {"dram_row_hits", s.dram_row_hits}, {"dram_row_misses", s.dram_row_misses},
      {"dram_bytes", s.dram_bytes}, {"noc_request_flits", s.noc_request_flits},
      {"noc_response_flits", s.noc_response_flits}, {"noc_latency_sum", s.noc_latency_sum},
      {"noc_packets", s.noc_packets}, {"round_trip_sum", s.round_trip_sum}, {"round_trips", s.round_trips}};
  for (const auto& [key, value] : fields) {
    ASSERT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j[key].get<uint64_t>(), value) << key;
  }
  EXPECT_EQ(j["cycles"].get<uint64_t>(), r.now);
  EXPECT_GT(j["avg_round_trip"].get<double>(), 0.0);
  const MemorySystemStats::RoundTripParts& t = s.round_trip_parts;
  const std::pair<const char*, uint64_t> parts[] = {
      {"req_queue", t.req_queue},   {"req_network", t.req_network},   {"l2_input", t.l2_input},
      {"l2_hit", t.l2_hit},         {"l2_miss", t.l2_miss},           {"l2_output", t.l2_output},
      {"resp_queue", t.resp_queue}, {"resp_network", t.resp_network}, {"sm_eject", t.sm_eject},
      {"hit_reads", t.hit_reads},   {"miss_reads", t.miss_reads}};
  for (const auto& [key, value] : parts) {
    ASSERT_TRUE(j["round_trip_parts"].contains(key)) << key;
    EXPECT_EQ(j["round_trip_parts"][key].get<uint64_t>(), value) << key;
  }
  EXPECT_EQ(t.sum(), s.round_trip_sum);
}

TEST(MemorySystem, RejectsAConfigWhoseChannelsDifferFromPartitions) {
  Config c = gtx480();
  c.dram.channels = 4;
  FunctionalMemory image;
  EXPECT_THROW(MemorySystem(c, image), std::invalid_argument);
}

TEST(MemorySystem, IdleTicksAreCheap) {
  Rig r(load_preset("qv100"));
  const auto start = std::chrono::steady_clock::now();
  const uint64_t n = 2000000;
  for (uint64_t i = 0; i < n; ++i) r.ms.tick();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("idle qv100 memory system: %.1f M cycles/s\n", static_cast<double>(n) / secs / 1e6);
  EXPECT_TRUE(r.ms.idle());
  EXPECT_LT(secs, 5.0);  // very loose (sanitizer builds); ~100x headroom in release
}

}  // namespace
}  // namespace l1d::sim
