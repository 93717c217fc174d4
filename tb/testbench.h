// What an RTL testbench is made of (tb/<block>_tb.cpp; docs/generator.md "Adding a block").
//
// A block's testbench writes one port binding, `Io`, and reuses everything else:
//
//   struct Io {
//     struct In  { ...; bool operator==(const In&) const = default; };   // printable with <<
//     struct Out { ...; bool operator==(const Out&) const = default; };  // every output port
//     template <class M> void drive(M& model, const In& in) const;       // In -> input ports
//     template <class M> Out sample(const M& model) const;               // output ports -> Out
//     Out golden(const In& in);           // this cycle's golden outputs (steps a golden model)
//     In random(std::mt19937_64& rng) const;   // a random legal input, for the co-simulation
//   };
//
// `drive` and `sample` are templates over the verilated model, so the same binding drives the
// RTL of every configuration and the Yosys netlist (which has the same ports).
//
// The verilated models come from the generated header <block>_models.h (tb/rtl_blocks.cmake):
// namespace tb::<block> holds one struct per configuration with `Rtl`, `Netlist`, `kName`,
// `kConfig` (its YAML file) and `kDefault` (true for the configuration committed in rtl/), and
// `Configs`, the list to instantiate a TYPED_TEST_SUITE with (ctest names the tests
// tb.<Suite>.<Test><tb::<block>::<config>>; gtest itself numbers them <Suite>/<index>.<Test>).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <utility>

#include "common/config.h"
#include "tb/fixture.h"
#include "tb/ports.h"

namespace tb {

// Compares the outputs of two sides (golden and RTL, or RTL and netlist) cycle by cycle. The
// first `max_reports` mismatches fail the test with the cycle, the inputs and both outputs;
// the destructor prints the totals ("[ scoreboard ] <name>: N cycles, M mismatches").
template <class In, class Out>
class Scoreboard {
 public:
  Scoreboard(std::string name, std::string expected_side, std::string actual_side, uint64_t max_reports = 5)
      : name_(std::move(name)),
        expected_side_(std::move(expected_side)),
        actual_side_(std::move(actual_side)),
        max_reports_(max_reports) {}
  Scoreboard(const Scoreboard&) = delete;
  Scoreboard& operator=(const Scoreboard&) = delete;

  ~Scoreboard() {
    std::cout << "[ scoreboard ] " << name_ << ": " << cycles_ << " cycles, " << mismatches_ << " mismatches\n";
    if (mismatches_ > max_reports_) {
      ADD_FAILURE() << name_ << ": " << mismatches_ - max_reports_ << " more mismatches not shown";
    }
  }

  bool check(uint64_t cycle, const In& in, const Out& expected, const Out& actual) {
    ++cycles_;
    if (expected == actual) return true;
    if (++mismatches_ <= max_reports_) {
      ADD_FAILURE() << name_ << ": mismatch at cycle " << cycle << "\n  inputs:  " << in << "\n  "
                    << expected_side_ << ": " << expected << "\n  " << actual_side_ << ": " << actual;
    }
    return false;
  }

  uint64_t cycles() const { return cycles_; }
  uint64_t mismatches() const { return mismatches_; }

 private:
  std::string name_, expected_side_, actual_side_;
  uint64_t max_reports_;
  uint64_t cycles_ = 0;
  uint64_t mismatches_ = 0;
};

// One cycle against the golden model: drive `in`, settle, compare every output with
// io.golden(in), end the cycle.
template <class Model, class Io>
bool check_cycle(Dut<Model>& dut, Io& io, Scoreboard<typename Io::In, typename Io::Out>& board,
                 const typename Io::In& in) {
  io.drive(*dut, in);
  dut.settle();
  const bool ok = board.check(dut.cycles(), in, io.golden(in), io.sample(*dut));
  dut.tick();
  return ok;
}

// The configuration a generated model was emitted for.
template <class Config>
l1d::Config load_config() {
  return l1d::load_config_file(Config::kConfig);
}

// Wave-file stem: the block for the default configuration's main test (what `make waves`
// opens), else <block>_<config>[_<what>].
template <class Config>
std::string wave_name(const std::string& block, const std::string& what = "") {
  std::string n = block;
  if (!Config::kDefault) n += "_" + std::string(Config::kName);
  if (!what.empty()) n += "_" + what;
  return n;
}

// The netlist co-simulation: the verilated RTL and the verilated Yosys netlist of `block` for
// `Config` get the same random inputs for `cycles` cycles after reset and must agree on every
// output every cycle (SV-SUBSET.md: lint and synthesis passing is not enough). Flops without a
// reset start from different random values in the two models: a block with such state makes
// io.random() write it before its outputs depend on it, or compares only outputs that do not. A
// memory without reset (the SRAM black boxes) gives two optional hooks instead: cosim_preload(),
// inputs driven into both models first, uncompared, that write every word, and sample_all(m),
// its outputs unmasked (its sample() hides the words its golden side has not seen written).
// A configuration built without a netlist (RTL_NETLIST_CONFIGS, a block's NETLIST_CONFIGS in
// tb/rtl_blocks.cmake) skips the test.
template <class Config, class Io>
void run_netlist_cosim(const Io& io, const std::string& block, uint64_t cycles, uint64_t seed) {
  if constexpr (!requires { typename Config::Netlist; }) {
    (void)io, (void)block, (void)cycles, (void)seed;
    GTEST_SKIP() << Config::kName << ": no netlist in this build (RTL_NETLIST_CONFIGS, or make test-slow)";
  } else {
    // The netlist first, so that it is destroyed last: with --assert the RTL model registers
    // VerilatedScopes, and Verilator 5.006 hangs in ~VerilatedScope (scopeErase) when the RTL
    // model outlives the netlist model (measured on every block's co-simulation).
    Dut<typename Config::Netlist> net(wave_name<Config>(block, "cosim_netlist"), seed);
    Dut<typename Config::Rtl> rtl(wave_name<Config>(block, "cosim_rtl"), seed);
    // The co-simulation drives every input at random, also outside the block's input contract
    // (both must still agree there): the RTL's assertions would stop it, so they are off.
    rtl.context().assertOn(false);
    rtl.reset();
    net.reset();
    Scoreboard<typename Io::In, typename Io::Out> board(block + "/" + Config::kName + " netlist co-simulation",
                                                        "rtl    ", "netlist");
    const auto sample = [&io](const auto& m) {
      if constexpr (requires { io.sample_all(m); }) {
        return io.sample_all(m);
      } else {
        return io.sample(m);
      }
    };
    const auto step = [&](const typename Io::In& in) {
      io.drive(*rtl, in);
      io.drive(*net, in);
      rtl.settle();
      net.settle();
    };
    if constexpr (requires { io.cosim_preload(); }) {
      for (const typename Io::In& in : io.cosim_preload()) {
        step(in);
        rtl.tick();
        net.tick();
      }
    }
    std::mt19937_64 rng(seed);
    for (uint64_t c = 0; c < cycles; ++c) {
      const typename Io::In in = io.random(rng);
      step(in);
      board.check(c, in, sample(*rtl), sample(*net));
      rtl.tick();
      net.tick();
    }
    EXPECT_EQ(board.cycles(), cycles);
  }
}

}  // namespace tb
