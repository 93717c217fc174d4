// A small directed-test driver for golden::L1: one request at a time, a memory image that
// answers reads after a fixed latency, and a log of every memory request the L1 sent.
#pragma once

#include <cstdlib>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "common/config.h"
#include "golden/l1.h"
#include "golden/l1_testbench.h"

namespace l1d::golden::testing {

inline Config preset(const std::string& name, const std::string& policy = "baseline") {
  Config c = load_preset(name);
  apply_policy_preset(c, policy);
  return c;
}

// make test-slow's longer soak and pressure runs: L1_SOAK_ALL_PRESETS set (and not "0").
inline bool slow_soaks() {
  const char* all = std::getenv("L1_SOAK_ALL_PRESETS");
  return all != nullptr && *all != '\0' && *all != '0';
}

// The randomized soak shared by l1_random_test and l1_fidelity_test: `n` requests of the "mixed"
// stream behind a random-latency, back-pressuring memory, with the policy timers shortened so that
// granularity switches and two-level periods happen often. Checks that every load saw its data,
// that the run drained and served every request; returns the L1's counters.
inline L1Counters soak(Config cfg, uint64_t n, uint64_t seed) {
  cfg.policy.dycache.sample_requests = 500;  // switch granularity often
  cfg.policy.two_level.window_cycles = 2000;
  cfg.policy.two_level.bypass_period_cycles = 2000;
  L1Testbench tb(cfg, MemoryModel{10, 300, 70}, seed);
  const TestbenchResult r = tb.run(make_stream("mixed", cfg), n, /*check_every=*/4096);
  EXPECT_EQ(r.data_mismatches, 0u) << r.first_mismatch;
  EXPECT_TRUE(r.drained) << tb.l1().describe_state();
  EXPECT_EQ(r.requests, n);
  EXPECT_GT(r.loads_checked, n / 2);
  EXPECT_EQ(tb.l1().counters().accesses, n);
  return tb.l1().counters();
}

// Deadlock freedom under MSHR and miss-queue pressure, shared by l1_random_test and
// l1_fidelity_test: 2 MSHRs without merging, memory ready 1 cycle in 10, long latencies; the
// caller picks the miss queue. Returns the L1's counters. L1_PRESSURE_REQUESTS overrides the
// request count (to measure what a count covers, gcov). Every load's data is checked on every
// response. The invariants (L1::check_invariants, a walk of every set) are checked every cycle in
// make test-slow (L1_SOAK_ALL_PRESETS set) and every 8th cycle in make test: checked every cycle
// they were 97 % of these runs' time (perf, 2026-11-28), 140 of make test's CPU-s.
inline uint32_t pressure_check_every() { return slow_soaks() ? 1 : 8; }
inline L1Counters pressure(Config cfg, uint64_t requests = 5'000) {
  if (const char* e = std::getenv("L1_PRESSURE_REQUESTS")) requests = std::strtoull(e, nullptr, 10);
  cfg.l1.mshr_entries = 2;
  cfg.l1.mshr_max_merge = 1;
  cfg.policy.dycache.sample_requests = 100;
  L1Testbench tb(cfg, MemoryModel{50, 600, 10}, 7);
  const TestbenchResult r = tb.run(make_stream("mixed", cfg), requests, pressure_check_every());
  EXPECT_EQ(r.data_mismatches, 0u) << r.first_mismatch;
  EXPECT_TRUE(r.drained) << tb.l1().describe_state();
  return tb.l1().counters();
}

// A parameterized test's name: `prefix` then the policy preset, '-' written '_'.
inline std::string param_name(std::string prefix, const std::string& policy) {
  prefix += policy;
  for (char& ch : prefix)
    if (ch == '-') ch = '_';
  return prefix;
}

inline ByteMask range_mask(Addr addr, uint32_t size) {
  ByteMask m;
  for (uint32_t b = 0; b < size; ++b) m.set((addr % kLineBytes) + b);
  return m;
}

class L1Driver {
 public:
  explicit L1Driver(const Config& cfg, uint32_t latency = 10) : l1(cfg), latency_(latency) {}

  L1 l1;
  bool mem_ready = true;
  std::vector<MemReq> sent;            // every memory request accepted, in order
  std::vector<CoreResp> responses;     // every core response, in order
  std::function<void(L1Inputs&)> extra;  // events for the next step only
  std::map<Addr, LineData> memory;
  std::map<Addr, bool> l2_bits;
  uint64_t cycle = 0;

  // One cycle with an optional request; returns whether it fired.
  bool step(const std::optional<CoreReq>& req = std::nullopt) {
    L1Inputs in;
    in.core_req_valid = req.has_value();
    if (req) in.core_req = *req;
    in.mem_req_ready = mem_ready;
    if (!pending_.empty() && pending_.front().first <= cycle) {
      in.mem_resp_valid = true;
      in.mem_resp = pending_.front().second;
      pending_.pop_front();
    }
    if (extra) {
      extra(in);
      extra = nullptr;
    }
    L1Outputs out = l1.step(in);
    last = out;
    if (out.core_resp_valid) responses.push_back(out.core_resp);
    if (out.mem_req_valid && in.mem_req_ready) accept(out.mem_req);
    ++cycle;
    l1.check_invariants();
    return in.core_req_valid && out.core_req_ready;
  }

  // Sends one request (waiting for ready) and runs until its response arrives.
  CoreResp request(CoreReq q, uint64_t limit = 10000) {
    q.id = next_id_++;
    const size_t seen = responses.size();  // tests may also send requests with ids of their own
    uint64_t start = cycle;
    while (!step(q))
      if (cycle - start > limit) throw std::runtime_error("request never accepted");
    for (uint64_t i = 0; i < limit; ++i) {
      for (size_t k = seen; k < responses.size(); ++k)
        if (responses[k].id == q.id) return responses[k];
      step();
    }
    throw std::runtime_error("request never answered");
  }

  CoreResp load(Addr addr, uint32_t size, uint64_t pc = 0x100, bool token = true, uint8_t awid = 0) {
    CoreReq q;
    q.addr = addr;
    q.size = size;
    q.byte_mask = range_mask(addr, size);
    q.pc = pc;
    q.token = token;
    q.awid = awid;
    return request(q);
  }

  CoreResp store(Addr addr, uint32_t size, uint8_t value) {
    CoreReq q;
    q.op = MemOp::kStore;
    q.addr = addr;
    q.size = size;
    q.byte_mask = range_mask(addr, size);
    for (uint32_t b = 0; b < size; ++b) q.data[(addr % kLineBytes) + b] = value;
    return request(q);
  }

  void run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; ++i) step();
  }

  uint8_t mem_byte(Addr a) {
    auto it = memory.find(a & ~Addr{127});
    return it == memory.end() ? initial_byte(a) : it->second[a % 128];
  }

  L1Outputs last;

 private:
  void accept(const MemReq& r) {
    sent.push_back(r);
    auto it = memory.try_emplace(r.line_addr, initial_line(r.line_addr)).first;
    if (std::optional<MemResp> resp = serve_line(it->second, l2_bits[r.line_addr], r))
      pending_.push_back({cycle + latency_, *resp});
  }

  uint32_t latency_;
  uint32_t next_id_ = 1;
  std::deque<std::pair<uint64_t, MemResp>> pending_;
};

}  // namespace l1d::golden::testing
