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

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/config.h"
#include "golden/l1_testbench.h"
#include "l1d_top_models.h"
#include "sim_cpp/verilated/verilated_l1.h"
#include "tb/fixture.h"
#ifdef L1D_TB_STAGED_MODEL  // CMakeLists.txt: the staged model's pins, for tb.contract.StagedOnMiss
#include "Vl1d_top_gtx480_staged.h"
#endif

namespace {

using l1d::Config;
using l1d::CoreReq;
using l1d::golden::L1Counters;
using l1d::golden::L1Inputs;
using l1d::golden::L1Outputs;

constexpr uint64_t kRequests = 12'000;  // per policy and stream: 30 to 60 thousand cycles

// Warp exits and launches, kernel boundaries and the AgeLRU enable, as the simulator's SM drives
// them (one event of a kind per cycle, exits of the oldest warp with the next oldest named).
// period: the oldest warp exits every `period` cycles and a new one launches `launch` cycles
// later; a kernel ends every `kernel` cycles.
class Events {
 public:
  explicit Events(uint32_t warps, uint32_t period = 1500, uint32_t launch = 700, uint32_t kernel = 20'000)
      : warps_(warps), period_(period), launch_(launch), kernel_(kernel) {}

  void apply(uint64_t cycle, L1Inputs& in) {
    if (cycle < warps_) {  // the testbench launches the first warps
      youngest_ = static_cast<uint8_t>(cycle);
      return;
    }
    if (cycle % period_ == 0) {  // the oldest warp exits ...
      in.warp_exit = true;
      in.exit_awid = oldest_;
      in.exit_has_next = true;
      in.exit_next_oldest = ++oldest_;
    } else if (cycle % period_ == launch_) {  // ... and a new one launches (AWIDs wrap at 256)
      in.warp_launch = true;
      ++youngest_;
      ++launched_;
    }
    if (cycle % kernel_ == kernel_ - 10) in.kernel_end = true;
    if (cycle % kernel_ == kernel_ - 5) in.kernel_start = true;
    in.agelru_enable = cycle % 9'000 < 7'000;
  }

  // The AWID of a live warp (slot-th oldest, wrapping round the live ones).
  uint8_t live_awid(uint32_t slot) const {
    const uint32_t live = static_cast<uint8_t>(youngest_ - oldest_) + 1U;
    return static_cast<uint8_t>(oldest_ + slot % live);
  }
  uint64_t launched() const { return launched_; }  // after the first warps

 private:
  uint32_t warps_, period_, launch_, kernel_;
  uint8_t oldest_ = 0, youngest_ = 0;
  uint64_t launched_ = 0;
};

// One lockstep run: what drives it and what the RTL is given.
struct Setup {
  std::string stream = "mixed";
  uint64_t seed = 1;
  uint64_t requests = kRequests;
  l1d::golden::RequestSource source{};  // instead of `stream` when set
  l1d::golden::MemoryModel memory{};
  uint32_t ready_period = 0, ready_cycles = 0;  // period > 0: the memory takes requests only in
                                                // the first ready_cycles cycles of every period
  uint32_t event_period = 1500, launch_at = 700, kernel_cycles = 20'000;  // Events
  bool corners = false;                  // CornerSource over the stream, AWIDs of live warps
  uint64_t counter_base = 0;             // VerilatedOptions::counter_base
  std::optional<uint64_t> corrupt_at{};  // the RTL alone sees the first memory response at or
                                         // after this cycle with one data byte flipped
  std::string waves{};
  uint64_t rtl_fault_cycle = UINT64_MAX;  // VerilatedOptions::fault_cycle
  std::function<uint32_t(uint64_t cycle)> occupancy{};  // the ready warps of each cycle (default:
                                                        // the testbench's uniform 0..warps)
  std::function<void(const l1d::golden::L1&)> watch{};  // sees golden after every cycle
  // l1.bypass_path direct (contract 13.6): the line whose pending stores are asked about after each
  // cycle's step (given to the RTL before it), and B mode asked before it; both compared with golden.
  std::function<l1d::Addr(uint64_t cycle)> store_query{};
  // Nonzero: the RTL sees every odd request id XORed with this mask and its responses' ids are
  // XORed back before the comparison (ids are opaque to the L1: golden numbers them from 1, so
  // a run reaches only their low bits).
  uint32_t odd_id_flip = 0;
  // l1.carveout adaptive (contract 15, 16.5): asked in every cycle before the step (after the events);
  // a set count resizes golden (resize_sets, which throws unless it is idle and empty) and the RTL
  // (cfg_set_bits_i, TopResizeIdle_A) before this cycle's step, as the simulator does at a kernel start.
  std::function<std::optional<uint32_t>(uint64_t cycle, L1Inputs& in, const l1d::golden::L1&)> resize{};
};

// What the direct-path questions of a run with Setup::store_query answered (golden's answers).
struct DirectAnswers {
  uint64_t b_mode_cycles = 0;
  uint64_t pending = 0, not_pending = 0;
  uint64_t pending_other_line = 0;  // pending, for a line other than the last request taken: the miss queue's
};

// Request fields the synthetic streams keep in a narrow range, widened: every kPhase requests
// the address bits [31:17] and the PC bits [63:8] are XORed with new patterns, random ones and
// their complements in turn (locality within a phase is the stream's), and the AWID is that of a
// live warp, which with fast warp turnover wraps round all 256. Records which bits took both
// values.
class CornerSource {
 public:
  static constexpr uint64_t kPhase = 1'000;
  static constexpr uint64_t kAddrBits = 0xFFFE0000, kPcBits = ~uint64_t{0xFF};

  CornerSource(l1d::golden::RequestSource inner, const Events& events) : inner_(std::move(inner)), events_(events) {}

  std::optional<CoreReq> operator()(std::mt19937_64& rng) {
    std::optional<CoreReq> q = inner_(rng);
    if (!q) return q;
    if (n_ % kPhase == 0) {  // odd phases invert the even ones: every bit both ways in two
      addr_xor_ = n_ / kPhase % 2 ? ~addr_xor_ & kAddrBits : rng() & kAddrBits;
      pc_xor_ = n_ / kPhase % 2 ? ~pc_xor_ & kPcBits : rng() & kPcBits;
    }
    ++n_;
    q->addr ^= addr_xor_;
    q->pc ^= pc_xor_;
    q->awid = events_.live_awid(q->warp);
    addr_ones_ |= q->addr, addr_zeros_ |= ~q->addr, pc_ones_ |= q->pc, pc_zeros_ |= ~q->pc;
    return q;
  }
  // The widened bits that were both 0 and 1 in some request (all of them, after a few phases).
  bool every_bit_both_ways() const {
    return (addr_ones_ & addr_zeros_ & kAddrBits) == kAddrBits && (pc_ones_ & pc_zeros_ & kPcBits) == kPcBits;
  }

 private:
  l1d::golden::RequestSource inner_;
  const Events& events_;
  uint64_t n_ = 0, addr_xor_ = 0, pc_xor_ = 0;
  uint64_t addr_ones_ = 0, addr_zeros_ = 0, pc_ones_ = 0, pc_zeros_ = 0;
};

struct Run {
  l1d::golden::TestbenchResult result;
  std::optional<uint64_t> mismatch_cycle;
  std::optional<uint64_t> corrupted_at;  // the cycle of the corrupted memory response
  std::string mismatch;
  L1Counters counters;       // golden's at the end
  uint64_t launched = 0;     // warps launched after the first ones
  bool corners_widened = false;  // CornerSource::every_bit_both_ways
  DirectAnswers direct;
};

// Lockstep of golden and RTL as `s` says.
Run lockstep(const Config& cfg, Setup s) {
  l1d::golden::L1Testbench tb(cfg, s.memory, s.seed);
  l1d::sim::VerilatedOptions opt;
  opt.x_seed = s.seed;
  opt.trace_file = s.waves;
  opt.fault_cycle = s.rtl_fault_cycle;
  opt.counter_base = s.counter_base;
  opt.plusargs = tb::plusargs();  // a mutant model's +mut_<name> (rtl.mutant.* of a lockstep test)
  auto rtl = l1d::sim::make_verilated_l1(cfg, opt);
  Events events(std::min<uint32_t>(cfg.core.warps_per_sm, 255), s.event_period, s.launch_at, s.kernel_cycles);
  Run run;
  // The staged L1's counters lag by two cycles (contract 16.4): after this cycle's edge the RTL
  // presents golden's counts of the cycles before this one.
  const bool staged = cfg.l1.pipeline == l1d::L1Pipeline::kStaged;
  L1Counters before{};
  bool b_mode = false;  // golden's two-level unit at the start of the cycle
  l1d::Addr taken_line = ~l1d::Addr{0};  // the line of the last request the L1 took (S1's, if it holds one)
  tb.on_cycle = [&](uint64_t cycle, L1Inputs& in) {
    if (staged) before = tb.l1().counters();
    b_mode = tb.l1().two_level().bypass();
    events.apply(cycle, in);
    if (s.ready_period != 0 && cycle % s.ready_period >= s.ready_cycles) in.mem_req_ready = false;
    if (s.occupancy) in.occupancy = s.occupancy(cycle);
    if (s.resize) {
      if (const std::optional<uint32_t> sets = s.resize(cycle, in, tb.l1())) {
        tb.l1().resize_sets(*sets);
        rtl->resize(*sets * cfg.l1.ways * l1d::kLineBytes);
      }
    }
  };
  tb.on_step = [&](uint64_t cycle, const L1Inputs& in, const L1Outputs& golden) {
    if (run.mismatch_cycle) return;
    L1Inputs rin = in;
    const auto flip = [&](uint32_t id) { return id & 1 ? id ^ s.odd_id_flip : id; };  // bit 0 kept: its own inverse
    if (in.core_req_valid) rin.core_req.id = flip(in.core_req.id);
    if (s.corrupt_at && cycle >= *s.corrupt_at && in.mem_resp_valid) {
      for (uint32_t b = 5; b < l1d::kLineBytes; b += 32) rin.mem_resp.data[b] ^= 0x10;  // a byte of each sector
      s.corrupt_at.reset();
      run.corrupted_at = cycle;
    }
    if (s.watch) s.watch(tb.l1());
    std::string diff;
    const l1d::Addr query = s.store_query ? s.store_query(cycle) & ~l1d::Addr{l1d::kLineBytes - 1} : 0;
    if (s.store_query) {
      if (rtl->two_level_bypass() != b_mode)
        diff += fmt::format("  two_level_bypass: golden {} rtl {}\n", b_mode, !b_mode);
      rtl->query_store(query);
      run.direct.b_mode_cycles += b_mode;
    }
    L1Outputs r = rtl->step(rin);
    if (r.core_resp_valid) r.core_resp.id = flip(r.core_resp.id);
    if (s.store_query) {
      const bool g = tb.l1().store_pending(query);
      if (rtl->store_pending(query) != g) diff += fmt::format("  store_pending({:#x}): golden {} rtl {}\n", query, g, !g);
      if (in.core_req_valid && golden.core_req_ready) taken_line = in.core_req.addr & ~l1d::Addr{l1d::kLineBytes - 1};
      ++(g ? run.direct.pending : run.direct.not_pending);
      run.direct.pending_other_line += g && query != taken_line;
    }
    diff += l1d::sim::diff_outputs(golden, r) +
            l1d::sim::diff_counters(staged ? before : tb.l1().counters(), rtl->counters());
    if (tb.l1().idle() != rtl->idle()) diff += fmt::format("  idle: golden {} rtl {}\n", tb.l1().idle(), rtl->idle());
    if (!diff.empty()) {
      run.mismatch_cycle = cycle;
      run.mismatch = diff;
    }
  };
  l1d::golden::RequestSource source = s.source ? s.source : l1d::golden::make_stream(s.stream, cfg);
  if (s.corners) {
    CornerSource corners(std::move(source), events);
    run.result = tb.run(std::ref(corners), s.requests);
    run.corners_widened = corners.every_bit_both_ways();
  } else {
    run.result = tb.run(source, s.requests);
  }
  run.counters = tb.l1().counters();
  run.launched = events.launched();
  return run;
}

// The checks every lockstep run of the suite passes.
void expect_clean(const Run& run, uint64_t requests) {
  EXPECT_FALSE(run.mismatch_cycle) << "first mismatch at cycle " << *run.mismatch_cycle << ":\n" << run.mismatch;
  EXPECT_EQ(run.result.data_mismatches, 0U) << run.result.first_mismatch;
  EXPECT_TRUE(run.result.drained);
  EXPECT_EQ(run.result.requests, requests);
  EXPECT_GT(run.result.loads_checked, requests / 2);
}

// What a contract-violation run changes (tb.contract.*, none for the mutation tests rtl.mutant.*).
struct Violation {
  uint64_t cfg_change_cycle = UINT64_MAX;  // VerilatedOptions::cfg_change_cycle
  uint64_t bad_mshr_from = UINT64_MAX;     // the first memory response from this cycle on names no MSHR
  uint64_t resize_cycle = UINT64_MAX;      // carveout adaptive: the L1 resized to its largest size here
};

// The RTL stepped on the golden testbench's inputs, its outputs not compared (a mutant diverges
// from golden, and a lockstep run would stop stepping it at the first difference): a mutant
// (+mut_<name>) or a contract violation must stop the process at the RTL assertion it breaks
// (scripts/expect_assert.sh). Returns normally when nothing fires.
// `source`, when set, replaces the stream; `kernel_cycles` is Events' kernel length.
void run_unchecked(const Config& cfg, const std::string& stream, uint64_t seed, Violation v,
                   uint64_t requests = kRequests, const l1d::golden::RequestSource& source = {},
                   uint32_t kernel_cycles = 20'000) {
  l1d::golden::L1Testbench tb(cfg, l1d::golden::MemoryModel{}, seed);
  l1d::sim::VerilatedOptions opt;
  opt.x_seed = seed;
  opt.plusargs = tb::plusargs();
  opt.cfg_change_cycle = v.cfg_change_cycle;
  auto rtl = l1d::sim::make_verilated_l1(cfg, opt);
  Events events(std::min<uint32_t>(cfg.core.warps_per_sm, 255), 1500, 700, kernel_cycles);
  tb.on_cycle = [&](uint64_t cycle, L1Inputs& in) { events.apply(cycle, in); };
  tb.on_step = [&](uint64_t cycle, const L1Inputs& in, const L1Outputs&) {
    L1Inputs rin = in;
    if (cycle >= v.bad_mshr_from && in.mem_resp_valid) {
      rin.mem_resp.mshr = static_cast<uint8_t>(rin.mem_resp.mshr + cfg.l1.mshr_entries);
      v.bad_mshr_from = UINT64_MAX;
    }
    if (cycle == v.resize_cycle) rtl->resize(l1d::largest_l1_sets(cfg.l1) * cfg.l1.ways * 128);
    rtl->step(rin);
  };
  tb.run(source ? source : l1d::golden::make_stream(stream, cfg), requests);
}

template <class C>
class L1dTop : public ::testing::Test {};
TYPED_TEST_SUITE(L1dTop, tb::l1d_top::Configs);

// The policies whose replacement policy has a model in this build for configuration `base`.
std::vector<std::string> policies_with_models(const Config& base) {
  std::vector<std::string> out;
  for (const std::string& p : l1d::list_policy_presets()) {
    Config c = base;
    l1d::apply_policy_preset(c, p);
    if (l1d::sim::has_verilated_l1(c)) out.push_back(p);
  }
  return out;
}

// Sector mode (contract 14) of `base` for every policy with a model that sector mode accepts (its
// granularity fixed128; DyCache's granularities are refused with sector): (policy, config) pairs.
std::vector<std::pair<std::string, Config>> sector_configs(const Config& base) {
  std::vector<std::pair<std::string, Config>> out;
  for (const std::string& policy : policies_with_models(base)) {
    Config cfg = base;
    l1d::apply_policy_preset(cfg, policy);
    if (cfg.policy.granularity != l1d::GranularityKind::kFixed128) continue;
    cfg.l1.sector = true;
    out.emplace_back(policy, cfg);
  }
  return out;
}

// f(cfg, stream, seed) for every policy with a model x every stream of `streams`, the seeds
// counting up from `seed`, each under a trace naming them.
template <class F>
void each_policy_and_stream(const Config& base, const std::vector<std::string>& streams, uint64_t seed, F f) {
  const std::vector<std::string> policies = policies_with_models(base);
  ASSERT_FALSE(policies.empty());
  for (const std::string& policy : policies) {
    Config cfg = base;
    l1d::apply_policy_preset(cfg, policy);
    for (const std::string& stream : streams) {
      SCOPED_TRACE(fmt::format("{} policy {} stream {} seed {}", base.name, policy, stream, seed));
      f(cfg, stream, seed++);
    }
  }
}

// The whole policy x stream product (L1D_TOP_TB_FULL set: make test-slow), or make test's covering
// set of it: pairs (k mod policies, k mod streams) for k below the larger count, so every policy
// and every stream runs at least once, each pair with the seed it has in the whole product (the
// same run as there). The lead's covering-set rule for make test (docs/performance.md).
template <class F>
void covering_policy_and_stream(const Config& base, const std::vector<std::string>& streams, uint64_t seed, F f) {
  if (std::getenv("L1D_TOP_TB_FULL") != nullptr) return each_policy_and_stream(base, streams, seed, f);
  const std::vector<std::string> policies = policies_with_models(base);
  ASSERT_FALSE(policies.empty());
  ASSERT_FALSE(streams.empty());
  for (size_t k = 0; k < std::max(policies.size(), streams.size()); ++k) {
    const size_t p = k % policies.size(), s = k % streams.size();
    Config cfg = base;
    l1d::apply_policy_preset(cfg, policies[p]);
    const uint64_t pair_seed = seed + p * streams.size() + s;
    SCOPED_TRACE(fmt::format("{} policy {} stream {} seed {}", base.name, policies[p], streams[s], pair_seed));
    f(cfg, streams[s], pair_seed);
  }
}

TYPED_TEST(L1dTop, LockstepWithGoldenEveryPolicyAndStream) {
  // The first run of the default configuration writes the waves (make waves BLOCK=l1d_top).
  const std::string waves = tb::tracing() ? (tb::waves_dir() / "l1d_top.fst").string() : "";
  covering_policy_and_stream(l1d::load_preset(TypeParam::kName), l1d::golden::stream_names(), 1,
                         [&](const Config& cfg, const std::string& stream, uint64_t seed) {
                           expect_clean(lockstep(cfg, {.stream = stream, .seed = seed, .waves = seed == 1 ? waves : ""}),
                                        kRequests);
                         });
}

// GPGPU-Sim 3.x's options that l1d_top implements (contract 13.2, 13.4; its cfg_line_fetch_i,
// cfg_write_i and cfg_kernel_end_inv_i, so the same model runs them): bypassing misses fetch the
// line, store hits evict, a kernel end (every 3,000 cycles) invalidates. Every policy x two
// streams with stores. Nothing is ever dirty, and without DyCache no line is walked.
void expect_3x_options_clean(Config base, uint64_t seed) {
  base.l1.bypass_fetch = l1d::BypassFetch::kLine;
  base.l1.write_policy = l1d::WritePolicy::kWriteEvict;
  base.l1.kernel_end = l1d::KernelEndAction::kInvalidate;
  each_policy_and_stream(base, {"mixed", "reuse"}, seed, [&](const Config& cfg, const std::string& stream, uint64_t s) {
    const Run run = lockstep(cfg, {.stream = stream, .seed = s, .kernel_cycles = 3'000});
    expect_clean(run, kRequests);
    EXPECT_EQ(run.counters.writebacks, 0U);
    EXPECT_GT(run.counters.stores, 0U);
    if (cfg.policy.granularity == l1d::GranularityKind::kFixed128) {
      EXPECT_EQ(run.counters.flush_cycles, 0U);
    }
  });
}

TYPED_TEST(L1dTop, LockstepGpgpuSim3Options) { expect_3x_options_clean(l1d::load_preset(TypeParam::kName), 70); }

// GPGPU-Sim 3.x's L1 (gtx480-gpgpusim's l1 options): the options above with l1.allocation on_miss
// (contract 13.1; cfg_alloc_i) and l1.mshr_merge block (13.3; cfg_merge_i), the same model. Every
// policy x "mixed" (random lines four times the cache: misses reserve every way of a set and fail
// with line_alloc; loads needing sectors their line's entry lacks widen it) and "burst" (loads to
// one line in a row merge into the entry of a reserved line: pending hits). Over all runs each of
// the three must happen.
Config with_gpgpusim_l1(Config c) {
  c.l1.bypass_fetch = l1d::BypassFetch::kLine;
  c.l1.write_policy = l1d::WritePolicy::kWriteEvict;
  c.l1.kernel_end = l1d::KernelEndAction::kInvalidate;
  c.l1.allocation = l1d::AllocationPolicy::kOnMiss;
  c.l1.mshr_merge = l1d::MshrMerge::kBlock;
  return c;
}

void expect_on_miss_block_clean(Config base, uint64_t seed) {
  base = with_gpgpusim_l1(base);
  uint64_t line_alloc = 0, pending_hits = 0, widening = 0;
  each_policy_and_stream(base, {"mixed", "burst"}, seed, [&](const Config& cfg, const std::string& stream, uint64_t s) {
    const Run run = lockstep(cfg, {.stream = stream, .seed = s, .kernel_cycles = 3'000});
    expect_clean(run, kRequests);
    line_alloc += run.counters.res_fail[static_cast<int>(l1d::golden::ResFail::kLineAlloc)];
    pending_hits += run.counters.pending_hits;
    widening += run.counters.widening_reads;
  });
  std::cout << fmt::format("[ coverage ] {} on_miss + block: {} line_alloc failures, {} pending hits, {} widening reads\n",
                           base.name, line_alloc, pending_hits, widening);
  EXPECT_GT(line_alloc, 0U);
  EXPECT_GT(pending_hits, 0U);
  EXPECT_GT(widening, 0U);
}

TYPED_TEST(L1dTop, LockstepOnMissBlockMerge) { expect_on_miss_block_clean(l1d::load_preset(TypeParam::kName), 110); }

// Sector mode (contract 14; cfg_sector_i, the same model): every policy with a model whose
// granularity is fixed128 on the "mixed" stream, in turn under write-back and under write-evict
// with kernel-end invalidate (every 3,000 cycles); about 1 CPU-s. Over all runs sector misses,
// partial hits (a miss whose valid needed sectors its MSHR entry buffers) and write-evict stores
// must happen (l1.lockstep_sector and, in make test-slow, l1.lockstep_sector_wide run workloads).
TYPED_TEST(L1dTop, LockstepSector) {
  uint64_t sector_misses = 0, partial = 0, evict_writes = 0, seed = 170;
  bool evict = false;
  const Config gtx = l1d::load_preset(TypeParam::kName);
  for (auto [policy, cfg] : sector_configs(gtx)) {
    if (evict) {
      cfg.l1.write_policy = l1d::WritePolicy::kWriteEvict;
      cfg.l1.kernel_end = l1d::KernelEndAction::kInvalidate;
    }
    SCOPED_TRACE(fmt::format("sector {} policy {} evict {}", gtx.name, policy, evict));
    const Run run = lockstep(cfg, {.stream = "mixed", .seed = seed++, .kernel_cycles = evict ? 3'000U : 20'000U});
    expect_clean(run, kRequests);
    sector_misses += run.counters.sector_misses;
    partial += run.counters.partial_hits;
    if (evict) evict_writes += run.counters.mem_writes;  // write-evict: every store goes to memory
    evict = !evict;
  }
  std::cout << fmt::format("[ coverage ] {} sector: {} sector misses, {} partial hits, {} write-evict memory writes\n",
                           TypeParam::kName, sector_misses, partial, evict_writes);
  EXPECT_GT(sector_misses, 0U);
  EXPECT_GT(partial, 0U);
  EXPECT_GT(evict_writes, 0U);
}

// l1.mshr_merge sector and block in sector mode (contract 14; cfg_merge_i 2 and 1, the same model):
// every policy with a model whose granularity is fixed128, under write-evict with kernel-end
// invalidate (merging by line runs without dirty state), sector and block merging in turn, on the
// "mixed" and "burst" streams every other pair; about 2 CPU-s. Over all runs loads must widen their
// line's entry under each (sector: the widening read's sectors are placed by the fill; block: they
// only answer the merged loads).
TYPED_TEST(L1dTop, LockstepSectorMerge) {
  uint64_t widening[2] = {0, 0}, seed = 190;
  unsigned k = 0;
  const Config gtx = l1d::load_preset(TypeParam::kName);
  for (auto [policy, cfg] : sector_configs(gtx)) {
    const bool block = k % 2 == 1;
    const char* stream = k / 2 % 2 == 0 ? "mixed" : "burst";
    ++k;
    cfg.l1.mshr_merge = block ? l1d::MshrMerge::kBlock : l1d::MshrMerge::kSector;
    cfg.l1.write_policy = l1d::WritePolicy::kWriteEvict;
    cfg.l1.kernel_end = l1d::KernelEndAction::kInvalidate;
    SCOPED_TRACE(fmt::format("sector {} policy {} merge {} stream {}", gtx.name, policy, block ? "block" : "sector",
                             stream));
    const Run run = lockstep(cfg, {.stream = stream, .seed = seed++, .kernel_cycles = 3'000});
    expect_clean(run, kRequests);
    widening[block] += run.counters.widening_reads;
  }
  std::cout << fmt::format("[ coverage ] {} sector merging: {} widening reads under sector, {} under block\n",
                           TypeParam::kName, widening[0], widening[1]);
  EXPECT_GT(widening[0], 0U);
  EXPECT_GT(widening[1], 0U);
}

// l1.allocation on_miss in sector mode (contract 14; cfg_alloc_i with cfg_sector_i, the same model),
// as qv100-accelsim (write-through, kernel-end invalidate every 3,000 cycles): every policy with a
// model whose granularity is fixed128, merging sector, stall and block in turn, on the "mixed" and
// "burst" streams every other triple. Over all runs a line miss must fail for want of an
// unreserved way (line_alloc), a load must merge into a reserved entry (pending hit), a sector miss
// must find its line held, and a sector-merging load must widen its entry.
TYPED_TEST(L1dTop, LockstepSectorOnMiss) {
  uint64_t line_alloc = 0, pending_hits = 0, sector_misses = 0, widening = 0, seed = 230;
  unsigned k = 0;
  const Config gtx = l1d::load_preset(TypeParam::kName);
  constexpr l1d::MshrMerge kMerges[] = {l1d::MshrMerge::kSector, l1d::MshrMerge::kStall, l1d::MshrMerge::kBlock};
  for (auto [policy, cfg] : sector_configs(gtx)) {
    const l1d::MshrMerge merge = kMerges[k % 3];
    const char* stream = k / 3 % 2 == 0 ? "mixed" : "burst";
    ++k;
    cfg.l1.allocation = l1d::AllocationPolicy::kOnMiss;
    cfg.l1.mshr_merge = merge;
    cfg.l1.write_policy = l1d::WritePolicy::kWriteThrough;
    cfg.l1.kernel_end = l1d::KernelEndAction::kInvalidate;
    SCOPED_TRACE(fmt::format("sector on_miss {} policy {} merge {} stream {}", gtx.name, policy,
                             l1d::to_string(merge), stream));
    const Run run = lockstep(cfg, {.stream = stream, .seed = seed++, .kernel_cycles = 3'000});
    expect_clean(run, kRequests);
    line_alloc += run.counters.res_fail[static_cast<int>(l1d::golden::ResFail::kLineAlloc)];
    pending_hits += run.counters.pending_hits;
    sector_misses += run.counters.sector_misses;
    if (merge == l1d::MshrMerge::kSector) widening += run.counters.widening_reads;
  }
  std::cout << fmt::format("[ coverage ] {} sector on_miss: {} line_alloc failures, {} pending hits, {} sector "
                           "misses, {} widening reads under sector merging\n",
                           TypeParam::kName, line_alloc, pending_hits, sector_misses, widening);
  EXPECT_GT(line_alloc, 0U);
  EXPECT_GT(pending_hits, 0U);
  EXPECT_GT(sector_misses, 0U);
  EXPECT_GT(widening, 0U);
}

// l1.bypass_path direct (contract 13.6) on gtx480-gpgpusim's L1 options with two-level bypassing:
// B mode (two_level_bypass_o) before every cycle and store_pending_o after it, compared with
// golden's. Streams with stores whose misses keep the two-level unit in B mode for long spans
// (a window's miss rate above th_low and few ready warps); the query asks about the line of one
// of the last eight stores the stream made (S1's store, stores still in the miss queue, and stores
// already sent), as the LDST unit asks about the line of the load it would send.
void expect_direct_answers(const Config& base) {
  ASSERT_TRUE(l1d::sim::has_verilated_l1(base));
  DirectAnswers all;
  uint64_t seed = 120;
  for (const std::string stream : {"mixed", "irregular"}) {
    SCOPED_TRACE(fmt::format("{} direct, stream {} seed {}", base.name, stream, seed));
    auto stores = std::make_shared<std::array<l1d::Addr, 8>>();
    auto made = std::make_shared<uint64_t>(0);
    l1d::golden::RequestSource inner = l1d::golden::make_stream(stream, base);
    Setup s{.stream = stream, .seed = seed, .kernel_cycles = 30'000};
    s.source = [inner, stores, made](std::mt19937_64& rng) {
      std::optional<CoreReq> q = inner(rng);
      if (q && q->op == l1d::MemOp::kStore) (*stores)[(*made)++ % stores->size()] = q->addr;
      return q;
    };
    s.occupancy = [](uint64_t cycle) { return static_cast<uint32_t>(cycle % 8); };  // few warps ready: B mode
    s.store_query = [stores](uint64_t cycle) { return (*stores)[cycle * 5 % stores->size()]; };
    const Run run = lockstep(base, s);
    expect_clean(run, kRequests);
    all.b_mode_cycles += run.direct.b_mode_cycles;
    all.pending += run.direct.pending;
    all.not_pending += run.direct.not_pending;
    all.pending_other_line += run.direct.pending_other_line;
    ++seed;
  }
  std::cout << fmt::format("[ coverage ] {} direct: {} B-mode cycles; store pending {} times ({} for a line other than "
                           "the last one taken), not pending {} times\n",
                           base.name, all.b_mode_cycles, all.pending, all.pending_other_line, all.not_pending);
  EXPECT_GT(all.b_mode_cycles, 0U);
  EXPECT_GT(all.pending_other_line, 0U);
  EXPECT_GT(all.pending, all.pending_other_line);
  EXPECT_GT(all.not_pending, 0U);
}

TYPED_TEST(L1dTop, LockstepDirectPathAnswers) {
  Config base = with_gpgpusim_l1(l1d::load_preset(TypeParam::kName));
  base.l1.bypass_path = l1d::BypassPath::kDirect;
  l1d::apply_policy_preset(base, "two-level");
  expect_direct_answers(base);
}

// The RTL's counters (those diff_counters compares) that none of `runs` counted, one line each
// ("counter X: golden 0 rtl 1"); "" when every one counted in some run. L1Counters is all
// uint64_t, so it is compared word by word.
std::string never_counted(const std::vector<L1Counters>& runs) {
  constexpr size_t kWords = sizeof(L1Counters) / sizeof(uint64_t);
  static_assert(sizeof(L1Counters) == kWords * sizeof(uint64_t));
  std::array<uint64_t, kWords> unreached;
  unreached.fill(1);
  for (const L1Counters& c : runs) {
    const auto words = std::bit_cast<std::array<uint64_t, kWords>>(c);
    for (size_t i = 0; i < kWords; ++i)
      if (words[i] != 0) unreached[i] = 0;
  }
  auto marks = std::bit_cast<L1Counters>(unreached);
  // Golden-only (a reference-faithful option, contract section 13): the RTL has no such counter.
  marks.res_fail[static_cast<int>(l1d::golden::ResFail::kLineAlloc)] = 0;
  return l1d::sim::diff_counters(L1Counters{}, marks);
}

// The counters' upper bits, which no run counts far enough to reach (bit k after 2^k events):
// every counter flop starts at 2^63 - 1 after reset, so its first increment carries through all
// 64 bits, and lockstep compares the counts (outputs minus the base) with golden's every cycle.
// The runs together count every counter at least once, so every counter's carry is checked.
TYPED_TEST(L1dTop, CountersCarryToTheirTopBit) {
  constexpr uint64_t kShort = 3'000;
  std::vector<L1Counters> counted;
  each_policy_and_stream(l1d::load_preset(TypeParam::kName), {"mixed", "burst"}, 100,
                         [&](const Config& cfg, const std::string& stream, uint64_t seed) {
                           const Run run = lockstep(cfg, {.stream = stream, .seed = seed, .requests = kShort,
                                                          .kernel_cycles = 4'000,
                                                          .counter_base = (uint64_t{1} << 63) - 1});
                           expect_clean(run, kShort);
                           counted.push_back(run.counters);
                         });
  EXPECT_EQ(never_counted(counted), "") << "counters no run counted: their carry was not checked";
}

// The three counters only GPGPU-Sim 3.x's options count (with_gpgpusim_l1: fail_line_alloc under
// l1.allocation on_miss, pending_hits and widening_reads under l1.mshr_merge block), which the
// test above never counts: the same carry check under those options (make coverage: their bits
// above what a run counts to). Every policy x "mixed" and "burst" (widening reads need a policy
// that fetches parts of lines); over all runs each must count.
TYPED_TEST(L1dTop, CountersCarryUnderOnMissBlock) {
  constexpr uint64_t kShort = 3'000;
  uint64_t line_alloc = 0, pending_hits = 0, widening = 0;
  each_policy_and_stream(with_gpgpusim_l1(l1d::load_preset(TypeParam::kName)), {"mixed", "burst"}, 140,
                         [&](const Config& cfg, const std::string& stream, uint64_t seed) {
                           const Run run = lockstep(cfg, {.stream = stream, .seed = seed, .requests = kShort,
                                                          .kernel_cycles = 3'000,
                                                          .counter_base = (uint64_t{1} << 63) - 1});
                           expect_clean(run, kShort);
                           line_alloc += run.counters.res_fail[static_cast<int>(l1d::golden::ResFail::kLineAlloc)];
                           pending_hits += run.counters.pending_hits;
                           widening += run.counters.widening_reads;
                         });
  EXPECT_GT(line_alloc, 0U);
  EXPECT_GT(pending_hits, 0U);
  EXPECT_GT(widening, 0U);
}

// The four sector-miss counters (contract 14) carried to their top bit, as the tests above do for
// the others: short sector-mode runs from 2^63 - 1 (make coverage: their bits above what a run
// counts to). Over all runs each of the three sizes must count a sector miss.
TYPED_TEST(L1dTop, CountersCarryUnderSector) {
  constexpr uint64_t kShort = 3'000;
  std::array<uint64_t, 3> by_size{};
  uint64_t seed = 190;
  const Config gtx = l1d::load_preset(TypeParam::kName);
  for (const auto& [policy, cfg] : sector_configs(gtx)) {
    SCOPED_TRACE(fmt::format("sector {} policy {}", gtx.name, policy));
    const Run run = lockstep(cfg, {.stream = "mixed", .seed = seed++, .requests = kShort,
                                   .counter_base = (uint64_t{1} << 63) - 1});
    expect_clean(run, kShort);
    for (size_t i = 0; i < by_size.size(); ++i) by_size[i] += run.counters.sector_misses_by_size[i];
  }
  for (size_t i = 0; i < by_size.size(); ++i) EXPECT_GT(by_size[i], 0U) << "size " << (32 << i);
}

// Corners the other runs leave alone (make coverage, docs/rtl-verification.md): the address and
// PC bits the synthetic streams hold constant (CornerSource), AWIDs wrapping round all 256 (a warp
// exits and one launches every 40 cycles), a kernel end every 3000 cycles (flushes of dirty
// lines), and a memory ready one cycle in four with long latencies (a miss queue often full).
TYPED_TEST(L1dTop, LockstepCorners) {
  constexpr uint64_t kCornerRequests = 6'000;
  each_policy_and_stream(
      l1d::load_preset(TypeParam::kName), {"mixed", "irregular"}, 200, [](const Config& cfg, const std::string& stream, uint64_t seed) {
        const Run run = lockstep(cfg, {.stream = stream, .seed = seed, .requests = kCornerRequests,
                                       .memory = {.min_latency = 200, .max_latency = 400, .ready_percent = 25},
                                       .event_period = 40, .launch_at = 20, .kernel_cycles = 3'000, .corners = true});
        expect_clean(run, kCornerRequests);
        EXPECT_TRUE(run.corners_widened);
        EXPECT_GT(run.launched, 256U) << "AWIDs did not wrap";
      });
}

// Request ids past 2^15 (the testbench numbers requests from 1; the other runs stop below 2^14,
// and gpusim's ids put a generation count above a 16-bit in-flight index that stays small).
TYPED_TEST(L1dTop, LockstepIdsPast32K) {
  constexpr uint64_t kMany = (uint64_t{1} << 15) + 500;
  expect_clean(lockstep(l1d::load_preset(TypeParam::kName), {.stream = "reuse", .seed = 300, .requests = kMany}), kMany);
}

// Request id bits 16-31 (s1_id_q, resp_id_q; make coverage): the RTL sees every odd id with those
// bits inverted (Setup::odd_id_flip), so they change between consecutive requests; its responses
// must carry them back (compared after the same flip). 2 000 requests of the mixed stream.
TYPED_TEST(L1dTop, LockstepIdsHighBits) {
  constexpr uint64_t kIdRequests = 2'000;
  expect_clean(lockstep(l1d::load_preset(TypeParam::kName),
                        {.stream = "mixed", .seed = 310, .requests = kIdRequests, .odd_id_flip = 0xFFFF0000U}),
               kIdRequests);
}

// Rounds of requests that keep every MSHR entry full of merged loads and the evicted lines dirty:
// loads to mshr_entries fresh lines, round-robin, mshr_max_merge times each (the misses take every
// entry, the rest merge to the limit); then stores to each line of the round before (hits: the
// lines the next rounds evict are dirty) and to as many lines never loaded as the miss queue
// holds (misses: writes that fill the miss queue while the memory is not ready).
l1d::golden::RequestSource fifo_pressure(const Config& cfg) {
  const uint32_t lines = cfg.l1.mshr_entries, loads = lines * cfg.l1.mshr_max_merge;
  const uint32_t per_round = loads + lines + cfg.l1.miss_queue_entries;
  const uint32_t warps = std::min<uint32_t>(cfg.core.warps_per_sm, 255);
  auto n = std::make_shared<uint64_t>(0);
  return [=](std::mt19937_64& rng) {
    const uint64_t k = (*n)++, round = k / per_round, i = k % per_round;
    CoreReq q;
    uint64_t line = round * lines + i % lines;                      // this round's loads
    if (i >= loads + lines || (i >= loads && round == 0)) line = (uint64_t{1} << 20) + k;  // stores that miss
    else if (i >= loads) line = (round - 1) * lines + i - loads;                           // stores that hit
    q.op = i >= loads ? l1d::MemOp::kStore : l1d::MemOp::kLoad;
    q.addr = 0x20000000 + line * l1d::kLineBytes;
    q.size = l1d::kLineBytes;
    q.byte_mask.set();
    for (auto& b : q.data) b = static_cast<uint8_t>(rng());
    q.warp = q.awid = static_cast<uint8_t>(k % warps);
    q.pc = 0x2000;
    return std::optional<CoreReq>(q);
  };
}

// The fill FIFO full (all 32 responses waiting): the memory answers after a fixed 400 cycles and
// takes requests only in the first 150 cycles of every 600, so a round's reads, sent in one ready
// span, come back when the store misses after them have filled the miss queue, and the first fill,
// which must write back a dirty victim, waits for room while every response queues behind it.
void expect_fill_fifo_backs_up(const Config& cfg) {
  constexpr uint64_t kFifoRequests = 6'000;
  const Run run = lockstep(cfg, {.seed = 400, .requests = kFifoRequests, .source = fifo_pressure(cfg),
                                 .memory = {.min_latency = 400, .max_latency = 400, .ready_percent = 100},
                                 .ready_period = 600, .ready_cycles = 150});
  expect_clean(run, kFifoRequests);
  EXPECT_GT(run.counters.merges, kFifoRequests / 2);
  EXPECT_GT(run.counters.fill_stall_cycles, 0U);
}

TYPED_TEST(L1dTop, LockstepFillFifoBacksUp) { expect_fill_fifo_backs_up(l1d::load_preset(TypeParam::kName)); }

// DyCache's 64 B count (l1d_gran_selector's n64_q) past 511 of a 1 000-request sample, which the
// streams' random sizes never reach: only 64 B requests, loads and stores, to a 256-line footprint.
void expect_dycache_sample_all_64b(Config cfg) {
  constexpr uint64_t kRequests64 = 2'500;  // two whole samples and a half
  l1d::apply_policy_preset(cfg, "dycache");
  const uint32_t warps = std::min<uint32_t>(cfg.core.warps_per_sm, 255);
  const l1d::golden::RequestSource only_64b = [warps](std::mt19937_64& rng) {
    CoreReq q;
    q.op = rng() % 4 == 0 ? l1d::MemOp::kStore : l1d::MemOp::kLoad;
    q.size = 64;
    q.addr = 0x30000000 + rng() % 512 * 64;
    for (uint32_t b = 0; b < 64; ++b) q.byte_mask.set(q.addr % l1d::kLineBytes + b);
    for (auto& b : q.data) b = static_cast<uint8_t>(rng());
    q.warp = q.awid = static_cast<uint8_t>(rng() % warps);
    q.pc = 0x3000 + rng() % 4 * 8;
    return std::optional<CoreReq>(q);
  };
  const Run run = lockstep(cfg, {.seed = 500, .requests = kRequests64, .source = only_64b});
  expect_clean(run, kRequests64);
  // Every completed request is recorded, so a whole sample of them counted 1 000 64 B requests.
  EXPECT_EQ(run.counters.hits_by_size[1] + run.counters.misses_by_size[1], kRequests64);
}

TYPED_TEST(L1dTop, LockstepDyCacheSampleAll64B) { expect_dycache_sample_all_64b(l1d::load_preset(TypeParam::kName)); }

// The two-level unit's window monitors at their top (l1d_two_level's misses_q[11], occ_sum_q[17]):
// 2 048 misses in a 5 000-cycle window and an occupancy sum past 2^17 (an average above 26 of 48
// warps ready), which the other runs never reach (make coverage: the testbench draws the occupancy
// uniformly from 0..48, mean 24). Here: loads of whole fresh lines, MaxMerge in a row to each (one miss allocates,
// the rest merge), answered after 30 cycles with the memory always ready, so the arrays
// alternate between S1's misses and the fill's answers (two cycles a miss, the most a window can
// hold); 40 to 48 warps ready every cycle. misses_q[12] (4 096 misses) is out of reach
// (scripts/coverage_waivers.txt). hit_requests > 0: then as many loads of four lines that hit
// (one access a cycle), for high_q[20] (the window's accesses x 230 past 2^20: 4 560 accesses in
// one window), which the staged pipe's merged misses do not reach (a fill step takes M2 between them).
void expect_two_level_window_full(Config cfg, uint64_t hit_requests) {
  constexpr uint64_t kMissRequests = 8'000;
  const uint64_t total = kMissRequests + hit_requests;
  l1d::apply_policy_preset(cfg, "two-level");
  const uint32_t warps = std::min<uint32_t>(cfg.core.warps_per_sm, 255), merge = cfg.l1.mshr_max_merge;
  auto n = std::make_shared<uint64_t>(0);
  const l1d::golden::RequestSource merged_misses = [warps, merge, n](std::mt19937_64&) {
    const uint64_t k = (*n)++;
    CoreReq q;
    q.addr = k < kMissRequests ? 0x40000000 + k / merge * l1d::kLineBytes : 0x48000000 + k % 4 * l1d::kLineBytes;
    q.size = l1d::kLineBytes;
    q.byte_mask.set();
    q.warp = q.awid = static_cast<uint8_t>(k % warps);
    q.pc = 0x4000;
    return std::optional<CoreReq>(q);
  };
  uint32_t max_misses = 0, max_accesses = 0;
  uint64_t max_occupancy_sum = 0;
  Setup s{.seed = 600, .requests = total, .source = merged_misses,
          .memory = {.min_latency = 30, .max_latency = 30, .ready_percent = 100}};
  s.occupancy = [](uint64_t cycle) { return static_cast<uint32_t>(40 + cycle % 9); };
  s.watch = [&](const l1d::golden::L1& golden) {
    max_misses = std::max(max_misses, golden.two_level().misses());
    max_accesses = std::max(max_accesses, golden.two_level().accesses());
    max_occupancy_sum = std::max(max_occupancy_sum, golden.two_level().occupancy_sum());
  };
  expect_clean(lockstep(cfg, s), total);
  EXPECT_GE(max_misses, 2'048U);
  EXPECT_GE(max_occupancy_sum, uint64_t{1} << 17);
  // high_q adds round(th_high x 256) = 230 per access (two_level.th_high 0.9): bit 20 needs 4 560.
  if (hit_requests > 0) {
    EXPECT_GE(max_accesses, 4'560U);
  }
}

TYPED_TEST(L1dTop, LockstepTwoLevelWindowFull) { expect_two_level_window_full(l1d::load_preset(TypeParam::kName), 0); }

// The checker can fail: one memory response whose sectors each have one flipped bit, seen by the
// RTL only, is reported (the load it answers returns it, or a later hit does).
// The checker checked: a memory response corrupted for the RTL alone is reported after it, as a
// data difference.
void expect_corruption_reported(const Config& cfg, uint64_t seed, const std::string& waves = "") {
  const Run run = lockstep(cfg, {.seed = seed, .corrupt_at = 2'000, .waves = waves});
  ASSERT_TRUE(run.corrupted_at);
  ASSERT_TRUE(run.mismatch_cycle) << "the response corrupted at cycle " << *run.corrupted_at << " went unnoticed";
  EXPECT_GT(*run.mismatch_cycle, *run.corrupted_at);
  EXPECT_NE(run.mismatch.find("data"), std::string::npos) << run.mismatch;
}

// A fault put into the RTL's hit counter at the clock edge that ends cycle 5000 is reported at
// that cycle (VerilatedOptions::fault_cycle).
void expect_fault_reported(const Config& cfg) {
  constexpr uint64_t kFaultCycle = 5'000;
  const Run run = lockstep(cfg, {.seed = 4, .rtl_fault_cycle = kFaultCycle});
  ASSERT_TRUE(run.mismatch_cycle) << "the fault went unnoticed";
  EXPECT_EQ(*run.mismatch_cycle, kFaultCycle);
  EXPECT_NE(run.mismatch.find("counter hits: golden"), std::string::npos) << run.mismatch;
}

TYPED_TEST(L1dTop, LockstepReportsACorruptedResponse) {
  const std::string waves = tb::tracing() ? (tb::waves_dir() / "l1d_top_corrupted.fst").string() : "";
  expect_corruption_reported(l1d::load_preset(TypeParam::kName), 3, waves);
}

// An RTL fault at a known cycle is reported at that cycle: the hit counter flop of the RTL gains
// one at the clock edge that ends cycle 5000 (as a flipped bit would; VerilatedOptions::fault_cycle),
// and the counters lockstep compares at the end of that cycle differ.
TYPED_TEST(L1dTop, LockstepReportsAnRtlFaultAtItsCycle) { expect_fault_reported(l1d::load_preset(TypeParam::kName)); }

// For the mutation tests (tb/mutants/l1d_top.txt, tb_l1d_top_mutants +mut_<name>): every policy
// with a model and every stream, until the mutant's assertion stops the process.
TYPED_TEST(L1dTop, DISABLED_RtlOnGoldenInputs) {
  uint64_t seed = 1;
  for (const std::string& policy : policies_with_models(l1d::load_preset(TypeParam::kName))) {
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

// carveout adaptive (contract 15): the active set count changes only while the L1 is idle
// (TopResizeIdle_A). tb/block_configs/gtx480_carveout.yaml's model (-DL1D_TOP_CARVEOUT=ON) resized
// at cycle 2 000 of the "mixed" stream, with requests in flight (tb.contract.ResizeWhileBusy).
TEST(L1dTopCarveout, DISABLED_ContractResizeWhileBusy) {  // TopResizeIdle_A
  const Config cfg = l1d::load_config_file(std::string(PROJECT_SOURCE_DIR) + "/tb/block_configs/gtx480_carveout.yaml");
  if (!l1d::sim::has_verilated_l1(cfg)) GTEST_SKIP() << "no gtx480_carveout model in this build";
  run_unchecked(cfg, "mixed", 8, {.resize_cycle = 2'000});
}

// Write allocation (l1.write_allocate lazy_fetch_on_read, contract 14): tb/block_configs/
// gtx480_accelsim_lazy.yaml's model (-DL1D_TOP_LAZY=ON; or the mutant model of
// tb/mutants/l1d_top_lazy.txt) in lockstep with golden on 32 B requests to 96 lines (a footprint
// below the L1's 256 lines, so lines stay and are read again): 35 % stores that write one to four
// of a sector's 4-byte lanes (a sector absent before stays absent and is marked written), 10 % that
// write a sector whole (it becomes valid, a written one too), 55 % loads (a written sector misses,
// reserves and is fetched, which clears its written bit; the next load hits). The stores that find
// their sector written or valid are hits (Accel-Sim's write hits), which only write allocation
// allows. TopWrittenExclusive_A and TopWrittenNoLoadHit_A hold throughout; their mutants
// (written_kept_reserved, written_load_hit) run this test and stop at them.
// The write-allocation stream of L1dTopLazy and L1dTopStagedLazy (the comment above).
l1d::golden::RequestSource lazy_source(const Config& cfg) {
  const uint32_t warps = std::min<uint32_t>(cfg.core.warps_per_sm, 255);
  return [warps](std::mt19937_64& rng) {
    CoreReq q;
    const uint32_t kind = static_cast<uint32_t>(rng() % 100);
    q.op = kind < 45 ? l1d::MemOp::kStore : l1d::MemOp::kLoad;
    q.size = 32;
    q.addr = 0x38000000 + rng() % 96 * l1d::kLineBytes + rng() % 4 * 32;
    const uint32_t off = q.addr % l1d::kLineBytes;
    if (kind < 35) {  // a partial store: one to four lanes of 4 bytes
      for (uint64_t lanes = 1 + rng() % 4; lanes > 0; --lanes) q.byte_mask |= l1d::ByteMask{0xF} << (off + rng() % 8 * 4);
    } else {
      for (uint32_t b = 0; b < 32; ++b) q.byte_mask.set(off + b);
    }
    for (auto& b : q.data) b = static_cast<uint8_t>(rng());
    q.warp = q.awid = static_cast<uint8_t>(rng() % warps);
    q.pc = 0x3800 + rng() % 8 * 8;
    return std::optional<CoreReq>(q);
  };
}

TEST(L1dTopLazy, LockstepWriteAllocation) {
  constexpr uint64_t kLazyRequests = 6'000;
  const Config cfg =
      l1d::load_config_file(std::string(PROJECT_SOURCE_DIR) + "/tb/block_configs/gtx480_accelsim_lazy.yaml");
  if (!l1d::sim::has_verilated_l1(cfg)) GTEST_SKIP() << "no gtx480_lazy model in this build (-DL1D_TOP_LAZY=ON)";
  const l1d::golden::RequestSource lazy = lazy_source(cfg);
  const auto run = lockstep(cfg, {.seed = 800, .requests = kLazyRequests, .source = lazy});
  expect_clean(run, kLazyRequests);
  EXPECT_GT(run.counters.hits, 0U);
  EXPECT_GT(run.counters.partial_hits + run.counters.sector_misses, 0U);
}

// Write allocation on the staged pipe (contract 16.5, "Write allocation"): tb/block_configs/
// gtx480_staged_lazy.yaml's model (-DL1D_TOP_STAGED_LAZY=ON, make lockstep-staged-lazy; skipped
// without it, as in make test's build) on the stream above, a kernel end every 3,000 cycles (which
// clears written slots: kernel_end invalidate), in lockstep with golden (the staged golden model).
// Counted on golden's lines after every cycle: some slot must become written (a partial store
// allocated it, in a held way or a new line), and some written slot must become valid (a load of it
// fetched the sector, or a store wrote it whole), so both halves of lazy allocation are compared.
TEST(L1dTopStagedLazy, LockstepWriteAllocation) {
  constexpr uint64_t kLazyRequests = 6'000;
  const Config cfg =
      l1d::load_config_file(std::string(PROJECT_SOURCE_DIR) + "/tb/block_configs/gtx480_staged_lazy.yaml");
  if (!l1d::sim::has_verilated_l1(cfg))
    GTEST_SKIP() << "no gtx480_staged_lazy model in this build (-DL1D_TOP_STAGED_LAZY=ON)";
  std::vector<uint8_t> was_written(size_t{cfg.l1.sets()} * cfg.l1.ways * l1d::kSlotsPerLine, 0);
  uint64_t became_written = 0, written_to_valid = 0;
  const auto watch = [&](const l1d::golden::L1& golden) {
    size_t i = 0;
    for (uint32_t set = 0; set < cfg.l1.sets(); ++set) {
      for (uint32_t way = 0; way < cfg.l1.ways; ++way) {
        for (const auto& slot : golden.line(set, way).slot) {
          became_written += slot.written && !was_written[i];
          written_to_valid += slot.valid && was_written[i];
          was_written[i++] = slot.written;
        }
      }
    }
  };
  const auto run = lockstep(cfg, {.seed = 810, .requests = kLazyRequests, .source = lazy_source(cfg),
                                  .kernel_cycles = 3'000, .watch = watch});
  expect_clean(run, kLazyRequests);
  std::cout << fmt::format("[ coverage ] staged write allocation: {} slots made written, {} written slots made "
                           "valid, {} hits, {} sector misses, {} pending hits\n",
                           became_written, written_to_valid, run.counters.hits, run.counters.sector_misses,
                           run.counters.pending_hits);
  EXPECT_GT(became_written, 0U);
  EXPECT_GT(written_to_valid, 0U);
  EXPECT_GT(run.counters.hits, 0U);
}

// For tb/mutants/l1d_top_staged_lazy.txt: the RTL stepped unchecked on the inputs of the test above (its
// stream, seed, requests and kernel ends), so a mutant's assertion fires at the cycle its invariant breaks
// even where lockstep, which compares the counters every cycle, would stop the run first.
TEST(L1dTopStagedLazy, DISABLED_RtlOnLazyInputs) {
  const Config cfg =
      l1d::load_config_file(std::string(PROJECT_SOURCE_DIR) + "/tb/block_configs/gtx480_staged_lazy.yaml");
  if (!l1d::sim::has_verilated_l1(cfg)) GTEST_SKIP() << "no gtx480_staged_lazy model in this build";
  run_unchecked(cfg, "", 810, {}, 6'000, lazy_source(cfg), 3'000);
}

// The adaptive carveout on the staged pipe (contract 16.5, "Carveout adaptive on the staged pipe"):
// tb/block_configs/gtx480_staged_carveout.yaml's model (-DL1D_TOP_STAGED_CARVEOUT=ON, make
// lockstep-staged-carveout; skipped without it: make test's build has none) in lockstep with the
// staged golden model on the write-allocation stream above, in phases of 1,000 requests. After each
// phase the source pauses, a kernel end invalidates the L1 (valid and written slots) once it is idle
// (the SM's rule on this pipe, docs/simulator.md "L1 carveout": a store taken before the event
// would allocate after it), and in the first cycle that golden is idle and empty and no request is
// offered both are resized before the
// cycle's step (the simulator's kernel start): 64, 32, 64, ... sets from the 32-set base, so every
// phase but the first runs on a set count the previous phase did not. Every resize is counted, and
// each phase's requests must make written slots (the clear the resize relies on, golden's check).
TEST(L1dTopStagedCarveout, LockstepAcrossResizes) {
  constexpr uint64_t kPhase = 1'000, kPhases = 7;
  const Config cfg =
      l1d::load_config_file(std::string(PROJECT_SOURCE_DIR) + "/tb/block_configs/gtx480_staged_carveout.yaml");
  if (!l1d::sim::has_verilated_l1(cfg))
    GTEST_SKIP() << "no gtx480_staged_carveout model in this build (-DL1D_TOP_STAGED_CARVEOUT=ON)";
  const uint32_t small = cfg.l1.sets(), large = l1d::largest_l1_sets(cfg.l1);
  ASSERT_LT(small, large);
  const l1d::golden::RequestSource inner = lazy_source(cfg);
  uint64_t sent = 0, resizes = 0, written_phases = 0;
  bool paused = false, ended = false, phase_written = false;
  const l1d::golden::RequestSource paced = [&](std::mt19937_64& rng) -> std::optional<CoreReq> {
    if (paused) return std::nullopt;
    if (++sent % kPhase == 0) paused = true;  // this one is the phase's last
    return inner(rng);
  };
  uint32_t sets = small;
  ::Setup s{.seed = 820, .requests = kPhase * kPhases, .source = paced, .kernel_cycles = 4'000'000'000U};
  s.watch = [&](const l1d::golden::L1& golden) {
    for (uint32_t set = 0; set < golden.split().sets() && !phase_written; ++set)
      for (uint32_t way = 0; way < cfg.l1.ways; ++way)
        for (const auto& slot : golden.line(set, way).slot) phase_written = phase_written || slot.written;
  };
  s.resize = [&](uint64_t, L1Inputs& in, const l1d::golden::L1& golden) -> std::optional<uint32_t> {
    if (!paused) return std::nullopt;
    if (!ended) {  // once idle, as the SM ends a kernel on this pipe (Sm::kernel_end_waits_l1_)
      if (golden.idle() && !in.core_req_valid) in.kernel_end = ended = true;
      return std::nullopt;
    }
    if (!golden.idle() || !golden.empty() || in.core_req_valid) return std::nullopt;
    paused = ended = false;
    written_phases += phase_written;
    phase_written = false;
    ++resizes;
    sets = sets == large ? small : large;
    return sets;
  };
  const ::Run run = lockstep(cfg, s);
  expect_clean(run, kPhase * kPhases);
  std::cout << fmt::format("[ coverage ] staged carveout: {} resizes ({} and {} sets), {} of them after a phase "
                           "with written slots, {} hits, {} sector misses\n",
                           resizes, small, large, written_phases, run.counters.hits, run.counters.sector_misses);
  EXPECT_GE(resizes, kPhases - 1);
  EXPECT_GE(written_phases, kPhases - 1);
  EXPECT_GT(run.counters.hits, 0U);
}

// ... and its input contract: resized at cycle 2 000 of the "mixed" stream, with requests in flight,
// the staged model stops at TopResizeIdle_A (tb.contract.StagedResizeWhileBusy).
TEST(L1dTopStagedCarveout, DISABLED_ContractResizeWhileBusy) {  // TopResizeIdle_A
  const Config cfg =
      l1d::load_config_file(std::string(PROJECT_SOURCE_DIR) + "/tb/block_configs/gtx480_staged_carveout.yaml");
  if (!l1d::sim::has_verilated_l1(cfg)) GTEST_SKIP() << "no gtx480_staged_carveout model in this build";
  run_unchecked(cfg, "mixed", 8, {.resize_cycle = 2'000});
}

// For the mutants of the on_miss reservation assertions (tb/mutants/l1d_top.txt:
// TopReservedFillHeld_A, TopSectorReservedMergeHeld_A), which DISABLED_RtlOnGoldenInputs never
// reaches (it runs no on_miss and no sector mode): the RTL stepped unchecked on
// tb/block_configs/gtx480_sector_onmiss.yaml (sector mode, allocation on_miss, write-through,
// kernel-end invalidate) for every policy with a model whose granularity is fixed128, merging
// sector, stall and block in turn, on the "mixed" and "burst" streams, 4,000 requests each.
TYPED_TEST(L1dTop, DISABLED_RtlOnSectorOnMissInputs) {
  Config base =
      l1d::load_config_file(std::string(PROJECT_SOURCE_DIR) + "/tb/block_configs/gtx480_sector_onmiss.yaml");
  // sector_configs applies each policy preset, which refuses DyCache's granularities with sector
  // (and merging sector without it): off while the presets are applied, on again per configuration.
  base.l1.sector = false;
  base.l1.mshr_merge = l1d::MshrMerge::kStall;
  constexpr l1d::MshrMerge kMerges[] = {l1d::MshrMerge::kSector, l1d::MshrMerge::kStall, l1d::MshrMerge::kBlock};
  uint64_t seed = 300;
  unsigned k = 0;
  for (auto [policy, cfg] : sector_configs(base)) {
    cfg.l1.mshr_merge = kMerges[k++ % 3];
    for (const char* stream : {"mixed", "burst"}) run_unchecked(cfg, stream, seed++, {}, kRequests / 3);
  }
}

// The control of run_raw_cfg below: the legal configuration it starts from, held through reset and
// 100 idle cycles, stops at no assertion (tb.contract.RawLegalConfigSilent passes only if this returns).
template <class Rtl, class Set>
void run_raw_cfg(Set set_illegal);
TYPED_TEST(L1dTop, DISABLED_RawLegalConfig) {
  run_raw_cfg<typename TypeParam::Rtl>([](auto&) {});
}

// The configuration-scope contracts (TopSectorScope_A, TopSectorMergeScope_A, TopOnMissNoDirtyState_A)
// check the cfg_*_q the reset edge loads. The verilated L1 (make_verilated_l1) refuses these
// configurations before the RTL sees them (rtl_unsupported_l1_option, the loader; cfg_merge_i 3 has
// no Config value at all), so these cases drive the model's pins themselves: every cfg_*_i input set
// to a legal configuration (write-through, on_fill, stall, no sector, fixed128), one or two changed
// to the illegal one, held through reset, then idle cycles: the first edge after reset must stop the
// run at the named assertion (tb.contract.*, scripts/expect_assert.sh); returning is a failure.
template <class Rtl, class Set>
void run_raw_cfg(Set set_illegal) {
  tb::Dut<Rtl> dut("l1d_top_contract", 1);
  dut->cfg_bypass_i = 0;
  dut->cfg_gran_i = 0;  // fixed128
  dut->cfg_bto_i = 0;
  dut->cfg_opportunistic_i = 0;
  dut->cfg_keep_large_i = 0;
  dut->cfg_line_fetch_i = 0;
  dut->cfg_write_i = 1;  // write-through
  dut->cfg_kernel_end_inv_i = 0;
  dut->cfg_alloc_i = 0;
  dut->cfg_merge_i = 0;
  dut->cfg_sector_i = 0;
  dut->core_req_valid_i = 0;
  dut->mem_req_ready_i = 1;
  dut->mem_resp_valid_i = 0;
  dut->warp_launch_i = 0;
  dut->warp_exit_i = 0;
  dut->kernel_start_i = 0;
  dut->kernel_end_i = 0;
  dut->agelru_enable_i = 1;
  set_illegal(*dut);
  dut.reset();
  for (int i = 0; i < 100; ++i) {
    dut.settle();
    dut.tick();
  }
}
// The control of the sector-mode cases on a model that runs sector mode (the staged sector model's
// tb.contract.StagedSectorLegalSilent): sector mode at G = 128, legal, stops at no assertion.
TYPED_TEST(L1dTop, DISABLED_RawLegalSectorConfig) {
  run_raw_cfg<typename TypeParam::Rtl>([](auto& m) { m.cfg_sector_i = 1; });
}
TYPED_TEST(L1dTop, DISABLED_ContractSectorNotFixed128) {  // TopSectorScope_A
  run_raw_cfg<typename TypeParam::Rtl>([](auto& m) {
    m.cfg_sector_i = 1;
    m.cfg_gran_i = 1;  // static64 (sim_cpp/verilated gran_code)
  });
}
TYPED_TEST(L1dTop, DISABLED_ContractSectorMergeWithoutSector) {  // TopSectorMergeScope_A
  run_raw_cfg<typename TypeParam::Rtl>([](auto& m) { m.cfg_merge_i = 2; });
}
TYPED_TEST(L1dTop, DISABLED_ContractMergeCodeUnused) {  // TopSectorMergeScope_A
  run_raw_cfg<typename TypeParam::Rtl>([](auto& m) {
    m.cfg_merge_i = 3;
    m.cfg_sector_i = 1;
  });
}
TYPED_TEST(L1dTop, DISABLED_ContractOnMissWriteBack) {  // TopOnMissNoDirtyState_A
  run_raw_cfg<typename TypeParam::Rtl>([](auto& m) {
    m.cfg_alloc_i = 1;
    m.cfg_write_i = 0;
  });
}
TYPED_TEST(L1dTop, DISABLED_ContractBlockMergeWriteBack) {  // TopOnMissNoDirtyState_A
  run_raw_cfg<typename TypeParam::Rtl>([](auto& m) {
    m.cfg_merge_i = 1;
    m.cfg_write_i = 0;
  });
}

#ifdef L1D_TB_STAGED_MODEL
// The staged pipe runs allocation on_fill and mshr_merge stall only and no sector mode
// (TopStagedOnFillStall_A); make_verilated_l1 refuses the others (rtl_unsupported_l1_option), so
// this drives the staged model's pins as run_raw_cfg does: on_miss, write-through.
TEST(L1dTopStaged, DISABLED_ContractOnMiss) {  // TopStagedOnFillStall_A
  run_raw_cfg<Vl1d_top_gtx480_staged>([](auto& m) { m.cfg_alloc_i = 1; });
}
#endif

// The staged l1d_top (contract v2, docs/l1d-microarchitecture.md section 16; the configuration
// tb/block_configs/gtx480_staged.yaml) in lockstep with the staged golden::L1: every policy its
// model serves x every stream (make test: a covering set, covering_policy_and_stream), and a kernel end every 6,000 cycles so that flush walks meet
// replays and fill steps often.
Config staged_config() {
  return l1d::load_config_file(std::string(PROJECT_SOURCE_DIR) + "/tb/block_configs/gtx480_staged.yaml");
}

TEST(L1dTopStaged, LockstepWithGoldenEveryPolicyAndStream) {
  covering_policy_and_stream(staged_config(), l1d::golden::stream_names(), 1,
                         [&](const Config& cfg, const std::string& stream, uint64_t seed) {
                           expect_clean(lockstep(cfg, {.stream = stream, .seed = seed, .kernel_cycles = 6'000}),
                                        kRequests);
                         });
}

// The counters' lag and the response pipe under memory backpressure: the miss queue fills, M2's
// room checks fail and requests replay.
TEST(L1dTopStaged, LockstepUnderBackpressure) {
  covering_policy_and_stream(staged_config(), {"mixed", "burst"}, 50,
                         [&](const Config& cfg, const std::string& stream, uint64_t seed) {
                           expect_clean(lockstep(cfg, {.stream = stream, .seed = seed, .ready_period = 16,
                                                       .ready_cycles = 3}),
                                        kRequests);
                         });
}

TEST(L1dTopStaged, LockstepGpgpuSim3Options) { expect_3x_options_clean(staged_config(), 90); }

// l1.bypass_path direct on the staged pipe (contract 16.5, "The direct path"): the staged l1d_top of
// gtx480-gpgpusim's whole L1 (tb/block_configs/gtx480_staged_gpgpusim.yaml, -DL1D_TOP_STAGED_GPGPUSIM=ON)
// answers B mode and the store query as golden's staged model does, on the streams and queries of the
// single-cycle test above (its store query also searches the FIFOs, T, M1, M2, C and D).
TEST(L1dTopStaged, LockstepDirectPathAnswers) {
  Config base =
      l1d::load_config_file(std::string(PROJECT_SOURCE_DIR) + "/tb/block_configs/gtx480_staged_gpgpusim.yaml");
  l1d::apply_policy_preset(base, "two-level");
  if (!l1d::sim::has_verilated_l1(base)) GTEST_SKIP() << "no model of gtx480_staged_gpgpusim in this build";
  expect_direct_answers(base);
}

// For the mutation tests of the staged pipe's assertions (tb/mutants/l1d_top_staged.txt,
// tb_l1d_top_staged_mutants +mut_<name>): every policy and stream, then one run long enough
// (past 65 536 cycles) for the cycle counter's low chunk to carry into the next.
TEST(L1dTopStaged, DISABLED_RtlOnGoldenInputs) {
  uint64_t seed = 1;
  for (const std::string& policy : policies_with_models(staged_config())) {
    Config cfg = staged_config();
    l1d::apply_policy_preset(cfg, policy);
    for (const std::string& stream : l1d::golden::stream_names()) run_unchecked(cfg, stream, seed++, {});
  }
  run_unchecked(staged_config(), "mixed", seed, {}, 3 * kRequests);
}

// For the conventional L1's mutants (dcgen --variant conventional, tb/mutants/l1d_top_conv.txt,
// make mutants-conventional): the baseline policy only, every stream, since the conventional
// l1d_top stops any other policy at ConvBaselinePolicy_A (tb.contract.ConvOtherPolicy).
TEST(L1dTopStaged, DISABLED_RtlOnGoldenInputsBaseline) {
  uint64_t seed = 1;
  Config cfg = staged_config();
  l1d::apply_policy_preset(cfg, "baseline");
  for (const std::string& stream : l1d::golden::stream_names()) run_unchecked(cfg, stream, seed++, {});
}

// Request ids past 2^15 through the staged pipe's response registers (resp_id_q and its D and R
// copies; make coverage's staged runs, docs/rtl-verification.md), as L1dTop's LockstepIdsPast32K.
TEST(L1dTopStaged, LockstepIdsPast32K) {
  constexpr uint64_t kMany = (uint64_t{1} << 15) + 500;
  expect_clean(lockstep(staged_config(), {.stream = "reuse", .seed = 300, .requests = kMany}), kMany);
}

// Request id bits 16-31 through the staged pipe's response registers (resp_id_q[31:28] was the staged
// coverage's one open register point; docs/rtl-verification.md), as L1dTop's LockstepIdsHighBits.
TEST(L1dTopStaged, LockstepIdsHighBits) {
  constexpr uint64_t kIdRequests = 2'000;
  expect_clean(lockstep(staged_config(), {.stream = "mixed", .seed = 310, .requests = kIdRequests,
                                          .odd_id_flip = 0xFFFF0000U}),
               kIdRequests);
}

// The fill FIFO (l1d_fill_issue's size_q) holding 16 and more entries, as L1dTop's run.
TEST(L1dTopStaged, LockstepFillFifoBacksUp) { expect_fill_fifo_backs_up(staged_config()); }

// A miss that writes back four dirty copies (the staged top's final_off_c_q[2]: the read queued
// behind four write-backs), which no stream reached (docs/rtl-verification.md, "The staged
// l1d_top"). DyCache at 32 B granularity: 1 000 32 B loads of fresh lines (a sample of misses and
// fine requests: G becomes 32), then rounds of four 32 B loads of one line's chunks in a random
// order (four pieces, in the ways LRU picks), four 32 B stores to them (hits once filled: dirty),
// and a 128 B load of the line: a partial hit whose four copies are dirty. Golden's counters,
// read every cycle, must show such a completion (four write-backs with one partial hit).
TEST(L1dTopStaged, LockstepMissWritesBackFourCopies) {
  constexpr uint64_t kWarmup = 1'000, kRound = 9, kRounds = 200, kTotal = kWarmup + kRound * kRounds;
  Config cfg = staged_config();
  l1d::apply_policy_preset(cfg, "dycache");
  const uint32_t warps = std::min<uint32_t>(cfg.core.warps_per_sm, 255);
  auto n = std::make_shared<uint64_t>(0);
  auto order = std::make_shared<std::array<uint32_t, 4>>();
  const l1d::golden::RequestSource four_copies = [warps, n, order](std::mt19937_64& rng) {
    const uint64_t k = (*n)++;
    CoreReq q;
    q.size = 32;
    q.op = l1d::MemOp::kLoad;
    if (k < kWarmup) {
      q.addr = 0x50000000 + k * l1d::kLineBytes;
    } else {
      const uint64_t round = (k - kWarmup) / kRound, i = (k - kWarmup) % kRound;
      if (i == 0) {
        *order = {0, 1, 2, 3};
        std::shuffle(order->begin(), order->end(), rng);
      }
      const uint64_t line = 0x60000000 + round * l1d::kLineBytes;
      if (i < 8) {
        q.addr = line + (*order)[i % 4] * 32;
        if (i >= 4) q.op = l1d::MemOp::kStore;
      } else {
        q.addr = line;
        q.size = l1d::kLineBytes;
      }
    }
    for (uint32_t b = 0; b < q.size; ++b) q.byte_mask.set(q.addr % l1d::kLineBytes + b);
    for (auto& b : q.data) b = static_cast<uint8_t>(rng());
    q.warp = q.awid = static_cast<uint8_t>(k % warps);
    q.pc = 0x5000 + k % 4 * 8;
    return std::optional<CoreReq>(q);
  };
  L1Counters last{};
  uint64_t four_copy_misses = 0;
  const auto watch = [&](const l1d::golden::L1& l1) {
    const L1Counters& c = l1.counters();
    if (c.writebacks - last.writebacks == 4 && c.partial_hits - last.partial_hits == 1) ++four_copy_misses;
    last = c;
  };
  const auto run = lockstep(cfg, {.seed = 600, .requests = kTotal, .source = four_copies, .watch = watch});
  expect_clean(run, kTotal);
  EXPECT_GT(four_copy_misses, 0U);
}

// The staged suite's counterparts of L1dTop's directed runs, for the blocks' register bits only
// those reach (make coverage's staged report, docs/rtl-verification.md "The staged l1d_top"):
// l1d_gran_selector's n64_q[9] (a sample of 64 B requests), l1d_two_level's misses_q[11],
// occ_sum_q[17] and high_q[20] (a window full of misses, then one full of hits: 12 000 hit
// requests leave a whole C window of them even after a 5 000-cycle bypass period the misses may start).
TEST(L1dTopStaged, LockstepDyCacheSampleAll64B) { expect_dycache_sample_all_64b(staged_config()); }

// A DyCache sample (1 000 requests, threshold 50 %: policy.dycache) whose end the last request
// decides: its first 999 requests hold exactly 500 misses, so a hit as the 1 000th keeps G = 128
// (500 of 1 000 is not over 50 %) and a miss switches to 32 B (501, every request 32 B). This is
// where the staged selector's decisions prepared for a hit and for a miss differ, and the idle
// cycles before the last request (record_i low, miss_i high) are where an ungated switch would
// show: GranStagedEqual_A's two mutants of the staged top (tb/mutants/l1d_top_staged.txt,
// top_gran_*) run this test. One request at a time (the next one only when golden's L1 is idle),
// so hits and misses are exact: 32 B loads of 500 fresh lines (misses), 499 loads of the last of
// them (hits), then the last request hits that line again or misses a fresh one.
void expect_sample_end_by_last_request(Config cfg, bool last_misses) {
  constexpr uint64_t kSample = 1'000, kMisses = 500;
  l1d::apply_policy_preset(cfg, "dycache");
  ASSERT_EQ(cfg.policy.dycache.sample_requests, kSample);
  ASSERT_EQ(cfg.policy.dycache.threshold_pct, 50U);
  auto n = std::make_shared<uint64_t>(0);
  auto idle = std::make_shared<bool>(true);
  const l1d::golden::RequestSource serial = [n, idle, last_misses](std::mt19937_64&) {
    if (!*idle) return std::optional<CoreReq>();
    *idle = false;  // until golden has answered this one
    const uint64_t k = (*n)++;
    const uint64_t line = k < kMisses ? k : k < kSample - 1 || !last_misses ? kMisses - 1 : kMisses;
    CoreReq q;
    q.op = l1d::MemOp::kLoad;
    q.size = 32;
    q.addr = 0x70000000 + line * l1d::kLineBytes;
    for (uint32_t b = 0; b < 32; ++b) q.byte_mask.set(b);
    q.warp = q.awid = static_cast<uint8_t>(k % 8);
    q.pc = 0x7000;
    return std::optional<CoreReq>(q);
  };
  uint64_t misses_at_last = UINT64_MAX;  // golden's misses once 999 requests were counted
  uint32_t gran_at_last = 0;
  Setup s{.seed = 700, .requests = kSample, .source = serial,
          .memory = {.min_latency = 20, .max_latency = 20, .ready_percent = 100}, .kernel_cycles = 4'000'000'000U};
  s.watch = [&](const l1d::golden::L1& golden) {
    *idle = golden.idle();
    if (golden.counters().accesses == kSample - 1) {
      misses_at_last = golden.counters().misses;
      gran_at_last = golden.granularity();
    }
  };
  const Run run = lockstep(cfg, s);
  expect_clean(run, kSample);
  EXPECT_EQ(misses_at_last, kMisses);
  EXPECT_EQ(gran_at_last, 128U);
  EXPECT_EQ(run.counters.accesses, kSample);
  EXPECT_EQ(run.counters.misses, kMisses + (last_misses ? 1 : 0));
  EXPECT_EQ(run.counters.granularity_switches, last_misses ? 1U : 0U);
}

TEST(L1dTopStaged, LockstepDyCacheSampleEndByLastRequest) {
  for (const bool last_misses : {false, true}) {
    SCOPED_TRACE(last_misses ? "the last request misses" : "the last request hits");
    expect_sample_end_by_last_request(staged_config(), last_misses);
  }
}
TEST(L1dTopStaged, LockstepTwoLevelWindowFull) { expect_two_level_window_full(staged_config(), 12'000); }

// l1d_agcb_table's inc_idx_q[7] (a victim's hashed PC at 128 or above: PC bit 10, with 8-byte
// instructions), which the streams' PCs (below 0x400 apart from their base) never reach in the
// staged suite: AGCB under L1dTop's corner run (PC bits 63:8 XORed with random patterns). The run
// must reach the upper half of the table: some read hit decrements a counter at index 128 or above.
void expect_agcb_corners_reach_upper_table(Config cfg) {
  constexpr uint64_t kCornerRequests = 6'000;
  l1d::apply_policy_preset(cfg, "agcb");
  bool upper_touched = false;
  Setup s{.stream = "mixed", .seed = 210, .requests = kCornerRequests,
          .memory = {.min_latency = 200, .max_latency = 400, .ready_percent = 25},
          .event_period = 40, .launch_at = 20, .kernel_cycles = 3'000, .corners = true};
  s.watch = [&](const l1d::golden::L1& golden) {
    const l1d::golden::AgcbPredictor& t = golden.agcb();
    for (uint32_t i = t.entries() / 2; i < t.entries() && !upper_touched; ++i)
      upper_touched = t.counter(i) < cfg.policy.agcb.reset_value;
  };
  const Run run = lockstep(cfg, s);
  expect_clean(run, kCornerRequests);
  EXPECT_TRUE(run.corners_widened);
  EXPECT_TRUE(upper_touched);
}

TEST(L1dTopStaged, LockstepCornersAgcb) { expect_agcb_corners_reach_upper_table(staged_config()); }

TEST(L1dTopStaged, LockstepReportsACorruptedResponse) { expect_corruption_reported(staged_config(), 7); }

// The counters are carry-save there: the fault reaches the hit counter's low chunk
// (sim_cpp/verilated/verilated_l1.cpp).
TEST(L1dTopStaged, LockstepReportsAnRtlFaultAtItsCycle) { expect_fault_reported(staged_config()); }

// Sector mode on the staged pipe (contract 14, 16.5): tb/block_configs/gtx480_staged_sector.yaml's
// model (-DL1D_TOP_STAGED_SECTOR=ON, or the mutant model of tb/mutants/l1d_top_staged_sector.txt:
// -DRTL_STAGED_SECTOR_MUTANTS=ON, make mutants-staged-sector; skipped in a build with neither, such as
// make test's). Every policy preset the model serves in sector mode (granularity fixed128; the
// presets are applied with sector off, since they refuse DyCache's granularities with it), paired
// with the "mixed" and "burst" streams: (policy, stream, config) triples.
struct StagedSectorRun {
  std::string policy, stream;
  Config cfg;
};
std::vector<StagedSectorRun> staged_sector_runs(const char* yaml = "gtx480_staged_sector.yaml") {
  Config base = l1d::load_config_file(std::string(PROJECT_SOURCE_DIR) + "/tb/block_configs/" + yaml);
  base.l1.sector = false;
  std::vector<StagedSectorRun> out;
  for (const std::string& policy : l1d::list_policy_presets()) {
    Config cfg = base;
    l1d::apply_policy_preset(cfg, policy);
    if (cfg.policy.granularity != l1d::GranularityKind::kFixed128) continue;
    cfg.l1.sector = true;
    if (!l1d::sim::has_verilated_l1(cfg)) continue;
    for (const char* stream : {"mixed", "burst"}) out.push_back({policy, stream, cfg});
  }
  return out;
}
constexpr uint64_t kStagedSectorRequests = 4'000;

// Each run of `runs` in lockstep with golden, a kernel end every 3,000 cycles, the seeds counting up
// from `seed`, each under a trace naming `label` and the run; `tally` sees each run's result (the
// counters a test requires over all its runs), `watch` (if set) golden after every cycle.
template <class F>
void lockstep_staged_sector(const std::vector<StagedSectorRun>& runs, const char* label, uint64_t seed, F tally,
                            const std::function<void(const l1d::golden::L1&)>& watch = {}) {
  for (const StagedSectorRun& r : runs) {
    SCOPED_TRACE(fmt::format("{} policy {} stream {} seed {}", label, r.policy, r.stream, seed));
    const auto run = lockstep(r.cfg, {.stream = r.stream, .seed = seed++, .requests = kStagedSectorRequests,
                                     .kernel_cycles = 3'000, .watch = watch});
    expect_clean(run, kStagedSectorRequests);
    tally(run);
  }
}

// The same runs with the RTL unchecked (run_unchecked), the seeds counting up from `seed`: for a
// configuration's mutants (tb/mutants/l1d_top_staged_*.txt), which diverge from golden before their
// assertion's edge.
void run_staged_sector_unchecked(const char* yaml, uint64_t seed) {
  const std::vector<StagedSectorRun> runs = staged_sector_runs(yaml);
  ASSERT_FALSE(runs.empty()) << "no model of " << yaml << " in this build";
  for (const StagedSectorRun& r : runs) run_unchecked(r.cfg, r.stream, seed++, {}, kStagedSectorRequests);
}

// In lockstep with golden, a kernel end every 3,000 cycles: over all runs some load must miss a
// sector of a line the L1 holds (a sector miss) and some load must partial-hit (its valid sectors'
// bytes read at C and written into the MSHR entry's buffer at D, contract 16.5). The mutants' model
// passes it without a plusarg (rtl.mutant.staged_sector_unmutated_silent).
TEST(L1dTopStagedSector, LockstepEveryPolicy) {
  const std::vector<StagedSectorRun> runs = staged_sector_runs();
  if (runs.empty()) GTEST_SKIP() << "no gtx480_staged_sector model in this build (-DL1D_TOP_STAGED_SECTOR=ON)";
  uint64_t sector_misses = 0, partial = 0;
  lockstep_staged_sector(runs, "staged sector", 900, [&](const auto& run) {
      sector_misses += run.counters.sector_misses;
      partial += run.counters.partial_hits;
  });
  std::cout << fmt::format("[ coverage ] staged sector: {} runs, {} sector misses, {} partial hits\n", runs.size(),
                           sector_misses, partial);
  EXPECT_GT(sector_misses, 0U);
  EXPECT_GT(partial, 0U);
}

// The same inputs, the RTL unchecked (run_unchecked): for the mutants of
// tb/mutants/l1d_top_staged_sector.txt, which diverge from golden before their assertion's edge.
TEST(L1dTopStagedSector, DISABLED_RtlOnGoldenInputs) { run_staged_sector_unchecked("gtx480_staged_sector.yaml", 900); }

// Allocation on miss and merging by line on the staged pipe (contract 16.5): the models of
// tb/block_configs/gtx480_staged_onmiss.yaml (on_miss) and gtx480_staged_block.yaml (on_miss and
// mshr_merge block) (-DL1D_TOP_STAGED_ONMISS=ON / -DL1D_TOP_STAGED_BLOCK=ON, or the mutant models of
// tb/mutants/l1d_top_staged_onmiss.txt / l1d_top_staged_block.txt: make mutants-staged-onmiss,
// make mutants-staged-block; skipped in a build with neither, such as make test's). Every policy
// with a model x "mixed" (random lines four times the cache: misses reserve every way of a set and
// fail with line_alloc; with block, loads needing sectors their line's entry lacks widen it) and
// "burst" (loads to one line in a row merge into the entry of a reserved line: pending hits), a
// kernel end every 3,000 cycles.
Config staged_option_config(const char* yaml) {
  return l1d::load_config_file(std::string(PROJECT_SOURCE_DIR) + "/tb/block_configs/" + yaml);
}
constexpr uint64_t kStagedOptionRequests = 4'000;

// In lockstep with golden: over all runs some miss must reserve and fail with line_alloc, some load
// must be a pending hit and (block) some load must widen its line's entry. The mutants' models pass
// it without a plusarg (rtl.mutant.staged_onmiss_unmutated_silent, staged_block_unmutated_silent).
void expect_staged_option_clean(const char* yaml, uint64_t seed, bool block) {
  const Config base = staged_option_config(yaml);
  if (!l1d::sim::has_verilated_l1(base)) GTEST_SKIP() << "no " << base.name << " model in this build";
  uint64_t line_alloc = 0, pending_hits = 0, widening = 0, runs = 0;
  each_policy_and_stream(base, {"mixed", "burst"}, seed, [&](const Config& cfg, const std::string& stream, uint64_t s) {
    const Run run = lockstep(cfg, {.stream = stream, .seed = s, .requests = kStagedOptionRequests, .kernel_cycles = 3'000});
    expect_clean(run, kStagedOptionRequests);
    line_alloc += run.counters.res_fail[static_cast<int>(l1d::golden::ResFail::kLineAlloc)];
    pending_hits += run.counters.pending_hits;
    widening += run.counters.widening_reads;
    ++runs;
  });
  std::cout << fmt::format("[ coverage ] {}: {} runs, {} line_alloc failures, {} pending hits, {} widening reads\n",
                           base.name, runs, line_alloc, pending_hits, widening);
  EXPECT_GT(line_alloc, 0U);
  EXPECT_GT(pending_hits, 0U);
  if (block) {
    EXPECT_GT(widening, 0U);
  }
}

// The same inputs, the RTL unchecked (run_unchecked): for the mutants, which diverge from golden
// before their assertion's edge.
void run_staged_option_unchecked(const char* yaml, uint64_t seed) {
  const Config base = staged_option_config(yaml);
  ASSERT_TRUE(l1d::sim::has_verilated_l1(base)) << "no " << base.name << " model in this build";
  each_policy_and_stream(base, {"mixed", "burst"}, seed, [&](const Config& cfg, const std::string& stream, uint64_t s) {
    run_unchecked(cfg, stream, s, {}, kStagedOptionRequests);
  });
}

// Sector mode with allocation on_miss on the staged pipe (contract 16.5, "Allocation on miss", "In
// sector mode"): tb/block_configs/gtx480_staged_sector_onmiss.yaml's model
// (-DL1D_TOP_STAGED_SECTOR_ONMISS=ON, make lockstep-staged-sector_onmiss; skipped without it, as in make
// test's build). Every policy it serves in sector mode x "mixed" and "burst", a kernel end every 3,000
// cycles, in lockstep with golden: over all runs some load must miss a sector of a line a way holds
// (which reserves the missing slots of that way), some must merge into an entry that reserved (a
// pending hit), and some must find no line to reserve (line_alloc: every way of its set reserved).
TEST(L1dTopStagedSectorOnMiss, LockstepEveryPolicy) {
  const std::vector<StagedSectorRun> runs = staged_sector_runs("gtx480_staged_sector_onmiss.yaml");
  if (runs.empty()) GTEST_SKIP() << "no gtx480_staged_sector_onmiss model in this build (-DL1D_TOP_STAGED_SECTOR_ONMISS=ON)";
  uint64_t sector_misses = 0, pending_hits = 0, line_alloc = 0;
  lockstep_staged_sector(runs, "staged sector on_miss", 1'300, [&](const auto& run) {
      sector_misses += run.counters.sector_misses;
      pending_hits += run.counters.pending_hits;
      line_alloc += run.counters.res_fail[static_cast<int>(l1d::golden::ResFail::kLineAlloc)];
  });
  std::cout << fmt::format("[ coverage ] staged sector on_miss: {} runs, {} sector misses, {} pending hits, {} "
                           "line_alloc failures\n",
                           runs.size(), sector_misses, pending_hits, line_alloc);
  EXPECT_GT(sector_misses, 0U);
  EXPECT_GT(pending_hits, 0U);
  EXPECT_GT(line_alloc, 0U);
}

// The same inputs, the RTL unchecked (run_unchecked): for the mutants of
// tb/mutants/l1d_top_staged_sector_onmiss.txt (sector mode's reservations), which diverge from golden
// before their assertion's edge.
TEST(L1dTopStagedSectorOnMiss, DISABLED_RtlOnGoldenInputs) { run_staged_sector_unchecked("gtx480_staged_sector_onmiss.yaml", 1'300); }

// Sector mode with allocation on_miss and merging by sector on the staged pipe (contract 16.5,
// "Allocation on miss", "With merging by sector"): tb/block_configs/gtx480_staged_sector_onmiss_merge.yaml's
// model (-DL1D_TOP_STAGED_SECTOR_ONMISS_MERGE=ON, make lockstep-staged-sector_onmiss_merge; skipped
// without it, as in make test's build). Every policy it serves in sector mode x "mixed" and "burst", a
// kernel end every 3,000 cycles, in lockstep with golden: over all runs some load must widen an entry
// that reserved its line (which reserves the widened slots at M2), some must merge into a reserved
// entry without widening it, and some must miss a sector. The staged golden model decides at most one
// operation a cycle (at M2), so a cycle in which both widening_reads and pending_hits rise is one
// widening merge into a reserved entry (golden sector_merge: pending_hits counts a merge into an entry
// that reserved).
TEST(L1dTopStagedSectorOnMissMerge, LockstepEveryPolicy) {
  const std::vector<StagedSectorRun> runs = staged_sector_runs("gtx480_staged_sector_onmiss_merge.yaml");
  if (runs.empty())
    GTEST_SKIP() << "no gtx480_staged_sector_onmiss_merge model in this build (-DL1D_TOP_STAGED_SECTOR_ONMISS_MERGE=ON)";
  uint64_t sector_misses = 0, pending_hits = 0, widening = 0, reserved_widenings = 0;
  L1Counters last{};
  const auto watch = [&](const l1d::golden::L1& golden) {
    const L1Counters& c = golden.counters();
    if (c.cycles < last.cycles) last = {};  // a new run
    reserved_widenings += c.widening_reads > last.widening_reads && c.pending_hits > last.pending_hits;
    last = c;
  };
  lockstep_staged_sector(runs, "staged sector on_miss merge", 1'400, [&](const auto& run) {
      sector_misses += run.counters.sector_misses;
      pending_hits += run.counters.pending_hits;
      widening += run.counters.widening_reads;
  }, watch);
  std::cout << fmt::format("[ coverage ] staged sector on_miss merge: {} runs, {} sector misses, {} pending hits, "
                           "{} widening reads, {} of them into a reserved entry\n",
                           runs.size(), sector_misses, pending_hits, widening, reserved_widenings);
  EXPECT_GT(sector_misses, 0U);
  EXPECT_GT(reserved_widenings, 0U);
  EXPECT_GT(pending_hits, reserved_widenings);  // merges into reserved entries that did not widen them
}

// The same inputs, the RTL unchecked (run_unchecked): for the mutants of
// tb/mutants/l1d_top_staged_sector_onmiss_merge.txt (the widening's reservation), which diverge from
// golden before their assertion's edge.
TEST(L1dTopStagedSectorOnMissMerge, DISABLED_RtlOnGoldenInputs) {
  run_staged_sector_unchecked("gtx480_staged_sector_onmiss_merge.yaml", 1'400);
}

// gtx1080-jips's whole L1 on the staged pipe (contract 16.5, "Merging by sector", "The direct path"):
// tb/block_configs/gtx1080_staged_jips.yaml's model (-DL1D_TOP_STAGED_JIPS=ON; skipped without it, as
// in make test's build). Every policy it serves in sector mode x "mixed" and "burst", a kernel end
// every 3,000 cycles, in lockstep with golden: over all runs some load must widen its line's entry
// (a widening read, placed by the fill under sector merging) and some must miss a sector.
TEST(L1dTopStagedJips, LockstepEveryPolicy) {
  const std::vector<StagedSectorRun> runs = staged_sector_runs("gtx1080_staged_jips.yaml");
  if (runs.empty()) GTEST_SKIP() << "no gtx1080_staged_jips model in this build (-DL1D_TOP_STAGED_JIPS=ON)";
  uint64_t sector_misses = 0, widening = 0;
  lockstep_staged_sector(runs, "staged jips", 1'200, [&](const auto& run) {
      sector_misses += run.counters.sector_misses;
      widening += run.counters.widening_reads;
  });
  std::cout << fmt::format("[ coverage ] staged jips: {} runs, {} sector misses, {} widening reads\n", runs.size(),
                           sector_misses, widening);
  EXPECT_GT(sector_misses, 0U);
  EXPECT_GT(widening, 0U);
}

// The same inputs, the RTL unchecked (run_unchecked): for the mutants of
// tb/mutants/l1d_top_staged_jips.txt (merging by sector's assertions), which diverge from golden
// before their assertion's edge.
TEST(L1dTopStagedJips, DISABLED_RtlOnGoldenInputs) { run_staged_sector_unchecked("gtx1080_staged_jips.yaml", 1'200); }

// Its B mode and store query (in sector mode) as golden's staged model answers them, on the streams
// and queries of the single-cycle test.
TEST(L1dTopStagedJips, LockstepDirectPathAnswers) {
  Config base = staged_option_config("gtx1080_staged_jips.yaml");
  l1d::apply_policy_preset(base, "two-level");
  if (!l1d::sim::has_verilated_l1(base)) GTEST_SKIP() << "no model of gtx1080_staged_jips in this build";
  expect_direct_answers(base);
}

TEST(L1dTopStagedOnMiss, LockstepEveryPolicy) { expect_staged_option_clean("gtx480_staged_onmiss.yaml", 1'000, false); }
TEST(L1dTopStagedOnMiss, DISABLED_RtlOnGoldenInputs) { run_staged_option_unchecked("gtx480_staged_onmiss.yaml", 1'000); }
TEST(L1dTopStagedBlock, LockstepEveryPolicy) { expect_staged_option_clean("gtx480_staged_block.yaml", 1'100, true); }
TEST(L1dTopStagedBlock, DISABLED_RtlOnGoldenInputs) { run_staged_option_unchecked("gtx480_staged_block.yaml", 1'100); }

}  // namespace
