// A self-checking harness around golden::L1: a flat memory image behind a memory port with
// random backpressure and latency (and the L2's AGCB bypass bits), a shadow of the
// architectural memory to check every load's data, and a request source. Used by the unit
// tests, the randomized soak test and l1-golden-demo.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/config.h"
#include "golden/l1.h"

namespace l1d::golden {

struct MemoryModel {
  uint32_t min_latency = 20;
  uint32_t max_latency = 200;
  uint32_t ready_percent = 80;  // chance the memory port is ready in a cycle
};

// Produces the next request; the testbench fills in id. nullopt = nothing to send this cycle.
using RequestSource = std::function<std::optional<CoreReq>(std::mt19937_64&)>;

struct TestbenchResult {
  uint64_t requests = 0, loads_checked = 0, data_mismatches = 0, cycles = 0;
  bool drained = false;  // every request answered and the L1 idle at the end
  std::string first_mismatch;
};

class L1Testbench {
 public:
  L1Testbench(const Config& cfg, MemoryModel mem, uint64_t seed);

  // Sends `requests` requests from `source`, then drains. Stops early at the first data
  // mismatch. check_every: run L1::check_invariants every that many cycles (0 = never).
  TestbenchResult run(const RequestSource& source, uint64_t requests, uint32_t check_every = 0,
                      uint64_t drain_limit = 100000);

  // Hooks for event-driven tests: called every cycle before the L1 steps, may set events.
  std::function<void(uint64_t cycle, L1Inputs&)> on_cycle;
  // Called after the L1 steps, with the cycle's inputs and outputs: a second implementation of
  // the contract (the verilated RTL) steps on the same inputs and compares (tb/l1d_top_tb.cpp).
  std::function<void(uint64_t cycle, const L1Inputs&, const L1Outputs&)> on_step;

  // When set, every request, response and memory transfer of this 128 B line is printed to
  // stderr (a debugging aid for mismatches).
  std::optional<Addr> trace_line;

  L1& l1() { return l1_; }
  uint8_t memory_byte(Addr a) const;
  const std::unordered_map<Addr, bool>& l2_bypass_bits() const { return l2_bits_; }

 private:
  struct InFlight {
    uint64_t due = 0;
    MemResp resp;
  };
  struct Expected {
    Addr addr = 0;
    LineData data{};
    ByteMask mask;
  };

  void memory_accept(const MemReq& r);
  std::optional<MemResp> memory_respond();
  void check_response(const CoreResp& r, TestbenchResult& res);
  void trace(const L1Inputs& in, const L1Outputs& out) const;

  Config cfg_;
  MemoryModel mem_;
  std::mt19937_64 rng_;
  L1 l1_;
  uint64_t cycle_ = 0;
  std::unordered_map<Addr, LineData> memory_;   // what the memory holds
  std::unordered_map<Addr, LineData> shadow_;   // architectural memory (stores at acceptance)
  std::unordered_map<Addr, bool> l2_bits_;
  std::vector<InFlight> in_flight_;
  std::map<uint32_t, Expected> outstanding_;    // by request id
};

// Initial memory contents: a fixed function of the address, so any stale byte is visible.
uint8_t initial_byte(Addr a);
LineData initial_line(Addr line_addr);

// The memory side of the L1 contract, for one 128 B line: a write updates `line`; a read is
// answered with its sectors and, for an AGCB-bypass read, the L2 bypass-bit verdict (which
// updates `l2_bit`). Returns the response of a read, nullopt for a write.
std::optional<MemResp> serve_line(LineData& line, bool& l2_bit, const MemReq& r);

// Built-in synthetic streams (also the demo's): "mixed", "reuse", "stream", "irregular", "burst".
RequestSource make_stream(const std::string& name, const Config& cfg);
std::vector<std::string> stream_names();

}  // namespace l1d::golden
