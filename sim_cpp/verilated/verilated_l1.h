// L1Port implementations over the generated RTL (docs/l1d-microarchitecture.md, [Verilated L1]):
//  - verilated: the verilated l1d_top of the configuration's geometry, clocked once per step();
//  - lockstep: golden::L1 and the verilated l1d_top on the same inputs, compared every cycle;
//    the first cycle whose outputs or counters differ throws LockstepMismatch with both sides.
//
// The RTL's geometry and numeric policy settings are fixed when it is generated; bypassing,
// granularity mode and their options are static configuration inputs, and the replacement
// policy selects one of the built models. available_rtl_models() lists what this build has;
// make_verilated_l1 throws ConfigError (one line) for a configuration no model matches, naming RPR
// replacement as golden-only (SPEC 9) when that is the reason.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/config.h"
#include "sim_cpp/l1/l1_port.h"

namespace l1d::sim {

struct VerilatedOptions {
  std::string trace_file;      // FST waveform of the whole run ("" = none)
  uint64_t trace_from = 0;     // first cycle traced
  uint64_t trace_to = UINT64_MAX;  // cycles at and after this are not traced (the file is closed)
  // 0: every flop starts at 0. Otherwise each starts at a random value drawn from this seed (the
  // models are verilated with --x-initial unique), so that a flop the reset misses shows.
  uint64_t x_seed = 0;
  // With trace_file: keep only the last cycles. Every rotate_cycles cycles the file is closed,
  // renamed prev_trace_file(trace_file) and a new one begun, so the two files hold the last
  // rotate_cycles to 2 * rotate_cycles cycles (lockstep: the waves before a mismatch). 0 = one file.
  uint64_t rotate_cycles = 0;
  // Fault injection (gpusim --l1-fault-cycle, tb_l1d_top): right before the clock edge that ends
  // this cycle the RTL's hit counter flop gains one, as a flipped bit would; lockstep must stop at
  // this cycle. UINT64_MAX = no fault.
  uint64_t fault_cycle = UINT64_MAX;
  // Set to true when the fault above is injected (null = not reported): a run that ends before
  // fault_cycle injects nothing, and gpusim says so instead of passing silently.
  std::shared_ptr<bool> fault_injected;
  // Contract-violation test (tb.contract.CfgChangedAfterReset): cfg_bypass_i changes in this
  // cycle, after reset, which the RTL's TopCfgStable_A must report. UINT64_MAX = never.
  uint64_t cfg_change_cycle = UINT64_MAX;
  // Carry test of the counters' upper bits (tb_l1d_top CountersCarryToTheirTopBit, make coverage):
  // right after reset every cnt_*_q flop is loaded with this value, and counters() reports the
  // outputs minus it, so lockstep still compares the counts with golden's every cycle while the
  // flops carry through bits no run could count to. In a coverage model the load is no toggle
  // (Verilator's toggle shadows are loaded too): only the increments' carries are counted.
  // 0 = none. The RTL models only (a netlist has no named flops: ConfigError).
  uint64_t counter_base = 0;
  // Given to the model's $test$plusargs (e.g. +mut_<name>: a mutant of the mutation tests).
  std::vector<std::string> plusargs;
  // The gate-level model (the Yosys netlist of l1d_top, gpusim --l1 netlist) instead of the RTL.
  bool netlist = false;
  // What counters() reports. false: the RTL's counter outputs as they read after the last step;
  // on the staged pipe they lag (contract 16.4: an event decided at M2 in cycle m is in the value
  // read from m + 2), as the testbenches compare them. true: every event up to the last step, as
  // golden's counters() (gpusim's statistics): on the staged pipe the port adds the increments
  // still on their way into l1d_perf_counters (l1d_top's registered inc_<name>_q and the
  // granularity switch's pulse). The staged netlist has no named flops to read them from:
  // make_verilated_l1 throws ConfigError there. No effect on the single-cycle pipe (no lag).
  bool settled_counters = false;
  // The RTL's assertions (models verilated with --assert; docs/rtl-verification.md): false skips
  // their checks at run time (VerilatedContext::assertOn). Their support logic, which the RTL
  // keeps under `ifndef SYNTHESIS, is still evaluated. gpusim --l1 verilated turns them off
  // (docs/performance.md); lockstep and the testbenches keep them on.
  bool assertions = true;
};

// "x.fst" -> "x.prev.fst": where VerilatedOptions::rotate_cycles moves the older cycles.
std::string prev_trace_file(const std::string& trace_file);

// The first differing cycle of a lockstep run.
struct LockstepMismatch : std::runtime_error {
  LockstepMismatch(uint64_t cycle_, const std::string& what) : std::runtime_error(what), cycle(cycle_) {}
  uint64_t cycle;
};

// A short name per built model, e.g. "gtx480 (lru)" or "gate_small.yaml netlist", for messages and --help.
std::vector<std::string> available_rtl_models();

// Whether make_verilated_l1 has a model for `cfg` (with netlist: a gate-level one).
bool has_verilated_l1(const Config& cfg, bool netlist = false);
std::unique_ptr<L1Port> make_verilated_l1(const Config& cfg, const VerilatedOptions& opt = {});
// `sm` only labels the mismatch report.
std::unique_ptr<L1Port> make_lockstep_l1(const Config& cfg, uint32_t sm, const VerilatedOptions& opt = {});

// Field-by-field comparison of two cycles' outputs; "" when equal, else one line per difference.
std::string diff_outputs(const L1Outputs& golden, const L1Outputs& rtl);
std::string diff_counters(const L1Counters& golden, const L1Counters& rtl);

}  // namespace l1d::sim
