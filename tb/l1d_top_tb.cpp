// Testbench of l1d_top (gen/blocks/l1d_top.cpp, the whole L1 in RTL) against golden::L1 in
// lockstep: golden::L1Testbench drives the golden L1 (its memory with random latency and
// backpressure, its load-data shadow check, its synthetic request streams) and the verilated
// l1d_top (sim_cpp/verilated/) steps on the same inputs every cycle; every output and every
// counter must be equal on every cycle (docs/l1d-microarchitecture.md is the contract both
// implement). On top of the testbench's own inputs the events of section 9 occur: warps exit
// and new ones launch, kernels end and start, and Dynamic-AgeLRU's enable input toggles.
//
// Each policy runs on the model built for its replacement policy (the l1d_top models of this
// build: sim_cpp/verilated/verilated_l1.h). The lockstep checker itself is checked by a run in
// which the RTL alone sees one corrupted memory response: it must report a mismatch.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "common/config.h"
#include "golden/l1_testbench.h"
#include "l1d_top_models.h"
#include "sim_cpp/verilated/verilated_l1.h"
#include "tb/fixture.h"

namespace {

using l1d::Config;
using l1d::golden::L1Inputs;
using l1d::golden::L1Outputs;

constexpr uint64_t kRequests = 12'000;  // per policy and stream: 30 to 60 thousand cycles

// Warp exits and launches, kernel boundaries and the AgeLRU enable, as the simulator's SM drives
// them (one event of a kind per cycle, exits of the oldest warp with the next oldest named).
class Events {
 public:
  explicit Events(uint32_t warps) : warps_(warps) {}

  void apply(uint64_t cycle, L1Inputs& in) {
    if (cycle < warps_) {  // the testbench launches the first warps
      youngest_ = static_cast<uint8_t>(cycle);
      return;
    }
    if (cycle % 1500 == 0) {  // the oldest warp exits ...
      in.warp_exit = true;
      in.exit_awid = oldest_;
      in.exit_has_next = true;
      in.exit_next_oldest = ++oldest_;
    } else if (cycle % 1500 == 700) {  // ... and a new one launches (AWIDs wrap at 256)
      in.warp_launch = true;
      ++youngest_;
    }
    if (cycle % 20'000 == 19'990) in.kernel_end = true;
    if (cycle % 20'000 == 19'995) in.kernel_start = true;
    in.agelru_enable = cycle % 9'000 < 7'000;
  }

 private:
  uint32_t warps_;
  uint8_t oldest_ = 0, youngest_ = 0;
};

struct Run {
  l1d::golden::TestbenchResult result;
  std::optional<uint64_t> mismatch_cycle;
  std::optional<uint64_t> corrupted_at;  // the cycle of the corrupted memory response
  std::string mismatch;
};

// Lockstep of golden and RTL on `stream`. corrupt_at: the RTL alone sees the first memory
// response at or after this cycle with one data byte flipped.
Run lockstep(const Config& cfg, const std::string& stream, uint64_t seed, std::optional<uint64_t> corrupt_at = {},
             const std::string& waves = "", uint64_t rtl_fault_cycle = UINT64_MAX) {
  l1d::golden::L1Testbench tb(cfg, l1d::golden::MemoryModel{}, seed);
  l1d::sim::VerilatedOptions opt;
  opt.x_seed = seed;
  opt.trace_file = waves;
  opt.fault_cycle = rtl_fault_cycle;
  auto rtl = l1d::sim::make_verilated_l1(cfg, opt);
  Events events(std::min<uint32_t>(cfg.core.warps_per_sm, 255));
  Run run;
  tb.on_cycle = [&](uint64_t cycle, L1Inputs& in) { events.apply(cycle, in); };
  tb.on_step = [&](uint64_t cycle, const L1Inputs& in, const L1Outputs& golden) {
    if (run.mismatch_cycle) return;
    L1Inputs rin = in;
    if (corrupt_at && cycle >= *corrupt_at && in.mem_resp_valid) {
      for (uint32_t b = 5; b < l1d::kLineBytes; b += 32) rin.mem_resp.data[b] ^= 0x10;  // a byte of each sector
      corrupt_at.reset();
      run.corrupted_at = cycle;
    }
    const L1Outputs r = rtl->step(rin);
    std::string diff = l1d::sim::diff_outputs(golden, r) + l1d::sim::diff_counters(tb.l1().counters(), rtl->counters());
    if (tb.l1().idle() != rtl->idle()) diff += fmt::format("  idle: golden {} rtl {}\n", tb.l1().idle(), rtl->idle());
    if (!diff.empty()) {
      run.mismatch_cycle = cycle;
      run.mismatch = diff;
    }
  };
  run.result = tb.run(l1d::golden::make_stream(stream, cfg), kRequests);
  return run;
}

// What a contract-violation run changes (tb.contract.*, none for the mutation tests rtl.mutant.*).
struct Violation {
  uint64_t cfg_change_cycle = UINT64_MAX;  // VerilatedOptions::cfg_change_cycle
  uint64_t bad_mshr_from = UINT64_MAX;     // the first memory response from this cycle on names no MSHR
};

// The RTL stepped on the golden testbench's inputs, its outputs not compared (a mutant diverges
// from golden, and a lockstep run would stop stepping it at the first difference): a mutant
// (+mut_<name>) or a contract violation must stop the process at the RTL assertion it breaks
// (scripts/expect_assert.sh). Returns normally when nothing fires.
void run_unchecked(const Config& cfg, const std::string& stream, uint64_t seed, Violation v) {
  l1d::golden::L1Testbench tb(cfg, l1d::golden::MemoryModel{}, seed);
  l1d::sim::VerilatedOptions opt;
  opt.x_seed = seed;
  opt.plusargs = tb::plusargs();
  opt.cfg_change_cycle = v.cfg_change_cycle;
  auto rtl = l1d::sim::make_verilated_l1(cfg, opt);
  Events events(std::min<uint32_t>(cfg.core.warps_per_sm, 255));
  tb.on_cycle = [&](uint64_t cycle, L1Inputs& in) { events.apply(cycle, in); };
  tb.on_step = [&](uint64_t cycle, const L1Inputs& in, const L1Outputs&) {
    L1Inputs rin = in;
    if (cycle >= v.bad_mshr_from && in.mem_resp_valid) {
      rin.mem_resp.mshr = static_cast<uint8_t>(rin.mem_resp.mshr + cfg.l1.mshr_entries);
      v.bad_mshr_from = UINT64_MAX;
    }
    rtl->step(rin);
  };
  tb.run(l1d::golden::make_stream(stream, cfg), kRequests);
}

template <class C>
class L1dTop : public ::testing::Test {};
TYPED_TEST_SUITE(L1dTop, tb::l1d_top::Configs);

// The policies whose replacement policy has a model in this build, with that model's preset.
std::vector<std::string> policies_with_models(const std::string& preset) {
  std::vector<std::string> out;
  for (const std::string& p : l1d::list_policy_presets()) {
    Config c = l1d::load_preset(preset);
    l1d::apply_policy_preset(c, p);
    if (l1d::sim::has_verilated_l1(c)) out.push_back(p);
  }
  return out;
}

TYPED_TEST(L1dTop, LockstepWithGoldenEveryPolicyAndStream) {
  const std::vector<std::string> policies = policies_with_models(TypeParam::kName);
  ASSERT_FALSE(policies.empty());
  uint64_t seed = 1;
  for (const std::string& policy : policies) {
    Config cfg = l1d::load_preset(TypeParam::kName);
    l1d::apply_policy_preset(cfg, policy);
    for (const std::string& stream : l1d::golden::stream_names()) {
      SCOPED_TRACE(fmt::format("{} policy {} stream {} seed {}", TypeParam::kName, policy, stream, seed));
      // The first run of the default configuration writes the waves (make waves BLOCK=l1d_top).
      const bool trace = tb::tracing() && seed == 1;
      const Run run = lockstep(cfg, stream, seed++, {}, trace ? (tb::waves_dir() / "l1d_top.fst").string() : "");
      EXPECT_FALSE(run.mismatch_cycle) << "first mismatch at cycle " << *run.mismatch_cycle << ":\n" << run.mismatch;
      EXPECT_EQ(run.result.data_mismatches, 0U) << run.result.first_mismatch;
      EXPECT_TRUE(run.result.drained);
      EXPECT_EQ(run.result.requests, kRequests);
      EXPECT_GT(run.result.loads_checked, kRequests / 2);
    }
  }
}

// The checker can fail: one memory response whose sectors each have one flipped bit, seen by the
// RTL only, is reported (the load it answers returns it, or a later hit does).
TYPED_TEST(L1dTop, LockstepReportsACorruptedResponse) {
  const Config cfg = l1d::load_preset(TypeParam::kName);
  const std::string waves = tb::tracing() ? (tb::waves_dir() / "l1d_top_corrupted.fst").string() : "";
  const Run run = lockstep(cfg, "mixed", 3, /*corrupt_at=*/2'000, waves);
  ASSERT_TRUE(run.corrupted_at);
  ASSERT_TRUE(run.mismatch_cycle) << "the response corrupted at cycle " << *run.corrupted_at << " went unnoticed";
  EXPECT_GT(*run.mismatch_cycle, *run.corrupted_at);
  EXPECT_NE(run.mismatch.find("data"), std::string::npos) << run.mismatch;
}

// An RTL fault at a known cycle is reported at that cycle: the hit counter flop of the RTL gains
// one at the clock edge that ends cycle 5000 (as a flipped bit would; VerilatedOptions::fault_cycle),
// and the counters lockstep compares at the end of that cycle differ.
TYPED_TEST(L1dTop, LockstepReportsAnRtlFaultAtItsCycle) {
  constexpr uint64_t kFaultCycle = 5'000;
  const Config cfg = l1d::load_preset(TypeParam::kName);
  const Run run = lockstep(cfg, "mixed", 4, {}, "", kFaultCycle);
  ASSERT_TRUE(run.mismatch_cycle) << "the fault went unnoticed";
  EXPECT_EQ(*run.mismatch_cycle, kFaultCycle);
  EXPECT_NE(run.mismatch.find("counter hits: golden"), std::string::npos) << run.mismatch;
}

// For the mutation tests (tb/mutants/l1d_top.txt, tb_l1d_top_mutants +mut_<name>): every policy
// with a model and every stream, until the mutant's assertion stops the process.
TYPED_TEST(L1dTop, DISABLED_RtlOnGoldenInputs) {
  uint64_t seed = 1;
  for (const std::string& policy : policies_with_models(TypeParam::kName)) {
    Config cfg = l1d::load_preset(TypeParam::kName);
    l1d::apply_policy_preset(cfg, policy);
    for (const std::string& stream : l1d::golden::stream_names()) run_unchecked(cfg, stream, seed++, {});
  }
}

// Input-contract violations the RTL must report (tb.contract.*, scripts/expect_assert.sh).
TYPED_TEST(L1dTop, DISABLED_ContractCfgChanged) {  // TopCfgStable_A
  run_unchecked(l1d::load_preset(TypeParam::kName), "mixed", 5, {.cfg_change_cycle = 3'000});
}
TYPED_TEST(L1dTop, DISABLED_ContractMemRespMshrOutOfRange) {  // TopMemRespMshrInRange_A
  run_unchecked(l1d::load_preset(TypeParam::kName), "mixed", 6, {.bad_mshr_from = 2'000});
}

}  // namespace
