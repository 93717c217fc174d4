// The simulator's view of one SM's L1 (DESIGN.md "The L1 contract"). Implementations: golden
// (golden::L1), verilated (the RTL l1d_top, [Verilated L1]) and lockstep (both, compared every
// cycle). Same inputs => same outputs, cycle for cycle.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "common/config.h"
#include "golden/l1.h"

namespace l1d::sim {

using golden::L1Counters;
using golden::L1Inputs;
using golden::L1Outputs;

class L1Port {
 public:
  virtual ~L1Port() = default;
  virtual L1Outputs step(const L1Inputs& in) = 0;
  // The same, writing every field of `out`. The SM calls this one (once per cycle): the golden
  // port fills the SM's L1Outputs in place instead of building and copying a 300-byte struct.
  virtual void step_into(const L1Inputs& in, L1Outputs& out) { out = step(in); }
  virtual const L1Counters& counters() const = 0;
  virtual bool idle() const = 0;
  virtual std::string describe_state() const = 0;
  // l1.bypass_path direct (contract 13.6): the SM's LDST unit asks the L1 two questions. Whether the
  // two-level unit is in B mode at the start of the next step() (asked before it), and whether a
  // store to the 128 B line `line_addr` is in the L1 (S1 or the miss queue) after the last step():
  // the line is given to query_store() before that step (the RTL registers it like a request), and
  // store_pending() asks about that line only. An L1 without these answers throws std::logic_error.
  virtual bool two_level_bypass() const { throw std::logic_error("L1Port: this L1 does not report B mode"); }
  virtual void query_store(Addr line_addr) { (void)line_addr; }
  virtual bool store_pending(Addr line_addr) const {
    (void)line_addr;
    throw std::logic_error("L1Port: this L1 does not answer store queries");
  }
  // Cycle skipping (sim_cpp/gpu/gpu.cpp; golden::L1::quiet_cycles): the cycles without a core
  // request, memory response or event that would change only counters. An L1 that must be
  // clocked every cycle (an RTL model) says 0.
  virtual uint64_t quiet_cycles(uint32_t /*occupancy*/) const { return 0; }
  virtual void skip_quiet_cycles(uint64_t /*n*/, uint32_t /*occupancy*/, bool /*agelru_enable*/) {
    throw std::logic_error("L1Port::skip_quiet_cycles: this L1 is clocked every cycle");
  }
  // Per-SM cycle skipping of a stalled S1 (golden::L1::retry_cycles): 0 for an L1 clocked every
  // cycle.
  virtual uint64_t retry_cycles(uint32_t /*occupancy*/) const { return 0; }
  virtual void skip_retry_cycles(uint64_t /*n*/, uint32_t /*occupancy*/) {
    throw std::logic_error("L1Port::skip_retry_cycles: this L1 is clocked every cycle");
  }
  virtual bool mem_req_pending() const { return true; }
  // The golden L1 behind this port (golden, and lockstep's golden side), for observing state
  // the ports do not carry, e.g. the AGCB table over time; nullptr for the RTL alone.
  virtual const golden::L1* golden_model() const { return nullptr; }
  // l1.carveout adaptive: from now on an L1 of `bytes` (same ways, a power-of-two number of sets).
  // The SM calls it at a kernel's start, when the L1 is idle and empty; std::logic_error
  // otherwise. The RTL's arrays have a fixed size, so by default an L1 cannot change it.
  virtual void resize(uint32_t bytes) {
    throw std::logic_error("L1Port::resize(" + std::to_string(bytes) + "): this L1 has a fixed size");
  }
};

// The golden implementation.
std::unique_ptr<L1Port> make_golden_l1(const Config& cfg);

}  // namespace l1d::sim
