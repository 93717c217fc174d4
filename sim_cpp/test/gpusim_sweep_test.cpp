// The must-show sweeps (issues 3 and 7): every workload x every policy (`gpusim --list-policies`)
// on gtx480 at small scale, and the headline policies under MSHR / miss-queue pressure (test
// scale): all complete, with zero load-data mismatches, no watchdog stop, and the workload's own
// result check (Workload::verify) passing on the memory image the run leaves. make test runs a
// covering set of each matrix (every workload, every policy, every preset at least once); the
// rest runs in make test-slow, as the `Gtx480Slow/...` instantiations (ctest label `slow`) and
// under the L1D_*SWEEP_SCALE=small knobs (Makefile, test-slow; docs/performance.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "common/config.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/policies.h"
#include "sim_cpp/workload/workload.h"

namespace l1d::sim {
namespace {

const std::vector<std::string> kWorkloads = workload_names();
const std::vector<std::string> kPolicies = policy_names();
const std::vector<std::string> kHeadlinePolicies = {"baseline", "dycache", "agcb", "two-level", "pcal",
                                                    "agelru",   "dynamic-agelru", "bip", "combined"};

TEST(GpusimSweep, CoversEveryWorkloadAndPolicy) {
  EXPECT_GE(kWorkloads.size(), 25u);
  EXPECT_GE(kPolicies.size(), 15u);
  for (const auto& p : kHeadlinePolicies) EXPECT_NE(std::find(kPolicies.begin(), kPolicies.end(), p), kPolicies.end()) << p;
}

class Sweep : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};
class PressureSweep : public Sweep {};

struct Variant {
  std::string scheduler;  // "" = the preset's (gto)
  uint32_t warp_limit = 0;
};

void sweep(const std::string& workload, const std::string& policy, bool pressure, const Variant& v = {},
           WorkloadScale scale = WorkloadScale::kTest, const std::string& preset = "gtx480",
           L1Pipeline pipeline = L1Pipeline::kSingleCycle) {
  Config cfg = load_preset(preset);
  cfg.l1.pipeline = pipeline;
  if (pressure) {
    // Two SMs (many CTAs each), 4 MSHRs and the smallest legal miss queue: reservation
    // failures, merges and write-back waits everywhere.
    cfg.core.num_sms = 2;
    cfg.l1.mshr_entries = 4;
    cfg.l1.mshr_max_merge = 2;
    cfg.l1.miss_queue_entries = 6;
  }
  SimOptions opt;
  opt.controllers = apply_policy(cfg, policy);
  opt.controller.window = 2000;  // short kernels: let the dynamic controllers act
  opt.watchdog = 50000;
  opt.workload_name = workload;
  opt.scheduler = v.scheduler;
  opt.warp_limit = v.warp_limit;
  if (v.warp_limit && opt.controllers.empty()) opt.controllers.push_back("throttle");
  Gpu gpu(cfg, opt);
  auto w = make_workload(workload);
  const RunResult r = gpu.run(*w, scale);
  EXPECT_EQ(r.stop, StopReason::kCompleted) << r.watchdog_report;
  EXPECT_EQ(r.load_mismatches, 0u) << r.first_mismatch;
  EXPECT_GT(r.loads_checked, 0u);
  EXPECT_GT(r.warp_instructions, 0u);
  EXPECT_TRUE(gpu.memory().idle());
  if (r.stop == StopReason::kCompleted) {
    EXPECT_EQ(w->verify(gpu.image()), "");
  }
}

// The issue 7 matrix: every workload x every policy (one ctest each, so that make test spreads
// them over the cores). make test runs a covering set of it (testcost6, 2026-11-29): the pair
// (w, p) of the two lists' indices with p == w % |policies|, at small scale (the `make run` size):
// 35 pairs, every workload once, every policy on one or two workloads. The other 630 pairs are
// instantiated as Gtx480Slow/Sweep, which the build registers with ctest label `slow`
// (CMakeLists.txt, project_tests: an instantiation prefix ending in `Slow`): make test-slow runs
// them at test scale, then (L1D_SWEEP_SCALE=small) every pair of both sets at small scale. Before,
// make test ran every pair at test scale and a third of them at small: 275.6 of its 1,208 test-s
// (idle, /tmp/cc6.log), the small third 228.6 of them.
using Pair = std::tuple<std::string, std::string>;

size_t index_of(const std::vector<std::string>& list, const std::string& name) {
  return static_cast<size_t>(std::find(list.begin(), list.end(), name) - list.begin());
}

// The covering set of `rows` x `columns` (rows.size() >= columns.size()): every row once, with the
// column of its index modulo the column count, so every column runs on at least one row.
bool covering_pair(size_t row, size_t column, size_t columns) { return column == row % columns; }

// The pairs of `rows` x `columns` in make test's covering set (make_test) or in the rest (the
// `...Slow/` instantiations, label `slow`), as (row, column), or as (column, row) with column_first.
std::vector<Pair> matrix_pairs(const std::vector<std::string>& rows, const std::vector<std::string>& columns,
                               bool make_test, bool column_first = false) {
  std::vector<Pair> pairs;
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t c = 0; c < columns.size(); ++c)
      if (covering_pair(r, c, columns.size()) == make_test)
        pairs.push_back(column_first ? Pair{columns[c], rows[r]} : Pair{rows[r], columns[c]});
  return pairs;
}

bool small_scale_pair(const std::string& workload, const std::string& policy) {
  const char* s = std::getenv("L1D_SWEEP_SCALE");
  if (s != nullptr && std::string(s) == "small") return true;
  return covering_pair(index_of(kWorkloads, workload), index_of(kPolicies, policy), kPolicies.size());
}

// Every workload x policy pair of make test's set (`make_test`) or of the rest (make test-slow).
std::vector<Pair> sweep_pairs(bool make_test) { return matrix_pairs(kWorkloads, kPolicies, make_test); }

TEST(GpusimSweep, SmallScalePairsCoverEveryWorkloadAndPolicy) {
  if (std::getenv("L1D_SWEEP_SCALE") != nullptr) GTEST_SKIP() << "L1D_SWEEP_SCALE is set";
  ASSERT_GE(kWorkloads.size(), kPolicies.size());
  std::vector<size_t> small_per_policy(kPolicies.size(), 0);
  for (const auto& w : kWorkloads) {
    size_t n = 0;
    for (size_t p = 0; p < kPolicies.size(); ++p) {
      if (!small_scale_pair(w, kPolicies[p])) continue;
      ++n;
      ++small_per_policy[p];
    }
    EXPECT_EQ(n, 1u) << w;
  }
  for (size_t p = 0; p < kPolicies.size(); ++p) EXPECT_GE(small_per_policy[p], 1u) << kPolicies[p];
  // make test's pairs are the small-scale ones; they and the slow ones are the whole matrix, each
  // pair once.
  const std::vector<Pair> fast = sweep_pairs(true), slow = sweep_pairs(false);
  EXPECT_EQ(fast.size(), kWorkloads.size());
  EXPECT_EQ(fast.size() + slow.size(), kWorkloads.size() * kPolicies.size());
  for (const auto& [w, p] : fast) EXPECT_TRUE(small_scale_pair(w, p)) << w << " " << p;
  for (const auto& [w, p] : slow) {
    EXPECT_FALSE(small_scale_pair(w, p)) << w << " " << p;
    EXPECT_EQ(std::find(fast.begin(), fast.end(), Pair{w, p}), fast.end()) << w << " " << p;
  }
}

TEST_P(Sweep, CompletesWithCorrectData) {
  const auto& [workload, policy] = GetParam();
  sweep(workload, policy, false, {}, small_scale_pair(workload, policy) ? WorkloadScale::kSmall : WorkloadScale::kTest);
}
TEST_P(PressureSweep, CompletesWithCorrectData) { sweep(std::get<0>(GetParam()), std::get<1>(GetParam()), true); }

// The pressure sweep's covering set (make test, Gtx480/PressureSweep): every workload once, under
// the headline policy of its index modulo their count (every headline policy on 3-4 workloads).
// The other 280 pairs are Gtx480Slow/PressureSweep (label `slow`, make test-slow); the whole
// matrix was 29.8 of make test's CPU-s (2026-11-29, /tmp/cc6.log).
std::vector<Pair> pressure_pairs(bool make_test) { return matrix_pairs(kWorkloads, kHeadlinePolicies, make_test); }

// "<first>_<second>", '-' as '_' (workload_policy, preset_workload).
std::string name(const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& p) {
  std::string n = std::get<0>(p.param) + "_" + std::get<1>(p.param);
  for (char& c : n)
    if (c == '-') c = '_';
  return n;
}

// The other schedulers, throttling and dynamic PCAL over every workload: make test runs the
// covering set (Gtx480/VariantSweep: every workload under the variant of its index modulo 5, so
// every variant on 7 workloads); the other 140 pairs are Gtx480Slow/VariantSweep (label `slow`,
// make test-slow). The whole matrix was 16.4 of make test's CPU-s (2026-11-29, /tmp/cc6.log).
const std::vector<std::string> kVariants = {"lrr_scheduler", "two_level_scheduler", "throttled_to_two_warps",
                                            "dynamic_pcal_at_warp_opt_six", "static_pcal_bto_at_warp_opt_six"};
class VariantSweep : public ::testing::TestWithParam<Pair> {};

TEST_P(VariantSweep, CompletesWithCorrectData) {
  const auto& [workload, variant] = GetParam();
  if (variant == "lrr_scheduler") {
    sweep(workload, "baseline", false, {"lrr", 0});
  } else if (variant == "two_level_scheduler") {
    sweep(workload, "combined", false, {"two-level", 0});
  } else if (variant == "throttled_to_two_warps") {
    // btree's, backprop's, heartwall's and shfl's CTAs are 8 warps (4 per scheduler) that meet at
    // barriers: a warp limit below 4 leaves warps of a CTA that never issue while the others wait at
    // the barrier (a deadlock of static warp limiting, the watchdog stops it), so they run at the
    // smallest limit that can complete.
    const bool barriers = workload == "btree" || workload == "backprop" || workload == "heartwall" || workload == "shfl";
    sweep(workload, "agcb", false, {"", barriers ? 4u : 2u});
  } else if (variant == "dynamic_pcal_at_warp_opt_six") {
    sweep(workload, "dynamic-pcal", false, {"", 6});
  } else if (variant == "static_pcal_bto_at_warp_opt_six") {
    sweep(workload, "pcal-bto", true, {"", 6});
  } else {
    FAIL() << "unknown variant " << variant;
  }
}

std::vector<Pair> variant_pairs(bool make_test) { return matrix_pairs(kWorkloads, kVariants, make_test); }

// [Fidelity] (issue 20): every workload x every policy on the reference-faithful presets, which run
// the golden L1's section-13 options (allocation on miss, block merging, write-evict, ...). One
// test per preset and workload. L1D_FAITHFUL_SWEEP_SCALE=small (make test-slow) runs every policy
// at small scale: 53 of its 70 tests (every gtx480-gpgpusim one, 18 of gtx1080-jips') took 751 CPU-s
// at load 15-17, about 500 idle (2026-11-28, bba80f2; comd, kmeans, sp and cfd the heaviest);
// scripts/small_sweep_cost.sh estimates the whole at about 1,730 user-s at load 12-18
// (gtx480-gpgpusim 686, gtx1080-jips 1,044; docs/performance.md). make test runs a covering set at
// test scale (testcost6, 2026-11-29): each test the one legal policy of its workload's index modulo
// the legal count, so every workload runs on both presets and every legal policy on two or three
// workloads of each; every policy at test scale was 38.5 of make test's CPU-s (/tmp/cc6.log).
using FaithfulParam = std::tuple<std::string, std::string>;
class FaithfulSweep : public ::testing::TestWithParam<FaithfulParam> {};

WorkloadScale faithful_scale() {
  const char* s = std::getenv("L1D_FAITHFUL_SWEEP_SCALE");
  return s != nullptr && std::string(s) == "small" ? WorkloadScale::kSmall : WorkloadScale::kTest;
}

// Which of the legal policies a test runs: all of them (make test-slow, at small scale) or the
// covering set's one (make test).
enum class PolicySet { kAll, kCovering };

// The policies `preset` can run on `workload` at `scale`; only DyCache's granularities may be left
// out, and only on a sector L1 (contract section 14). With PolicySet::kCovering, only the legal
// policy of the workload's index modulo the legal count (so each workload runs once and every
// legal policy on at least one workload: there are more workloads than policies).
// `slot`: the workload's place among those its preset runs (its index when the preset runs every
// workload).
void sweep_legal_policies(const std::string& preset, const std::string& workload, WorkloadScale scale,
                          PolicySet set, size_t slot) {
  const Config cfg = load_preset(preset);
  std::vector<std::string> legal;
  for (const std::string& policy : kPolicies) {
    // A sector L1 refuses DyCache's granularities (contract section 14): only those may be left out.
    if (const std::string why = policy_conflict(cfg, policy); !why.empty()) {
      SCOPED_TRACE(preset + " " + workload + " " + policy);
      EXPECT_TRUE(cfg.l1.sector) << why;
      EXPECT_NE(why.find("granularity"), std::string::npos) << why;
      continue;
    }
    legal.push_back(policy);
  }
  ASSERT_GE(legal.size(), 12u);
  for (size_t p = 0; p < legal.size(); ++p) {
    if (set == PolicySet::kCovering && !covering_pair(slot, p, legal.size())) continue;
    SCOPED_TRACE(preset + " " + workload + " " + legal[p]);
    sweep(workload, legal[p], false, {}, scale, preset);
  }
}

PolicySet sweep_policy_set(WorkloadScale scale) {
  return scale == WorkloadScale::kSmall ? PolicySet::kAll : PolicySet::kCovering;
}

TEST_P(FaithfulSweep, EveryPolicyCompletesWithCorrectData) {
  const auto& [preset, workload] = GetParam();
  sweep_legal_policies(preset, workload, faithful_scale(), sweep_policy_set(faithful_scale()),
                       index_of(kWorkloads, workload));
}

// [Sector L1]: the sector presets of Volta and Ampere (sector L1, sector coalescer), every workload
// and every policy legal in sector mode. L1D_SECTOR_SWEEP_SCALE=small (make test-slow) runs them
// all at small scale, which make test's 15-minute budget cannot hold: about 4,150 user-s at load 12-18
// by scripts/small_sweep_cost.sh (qv100 1,689, a100 2,456; sp alone 70 and 114 s a run, its grid
// filling 80 and 108 SMs; docs/performance.md, docs/workloads.md). make test runs a covering set
// at test scale (testcost6, 2026-11-29; sector_pairs below): every workload on one of the two
// presets under one legal policy, every legal policy on each preset; half of each workload's
// policies on both presets at test scale was 80.3 of make test's CPU-s (/tmp/cc6.log).
WorkloadScale sector_scale() {
  const char* s = std::getenv("L1D_SECTOR_SWEEP_SCALE");
  return s != nullptr && std::string(s) == "small" ? WorkloadScale::kSmall : WorkloadScale::kTest;
}
using SectorParam = std::tuple<std::string, std::string>;
const std::vector<std::string> kSectorPresets = {"qv100", "a100"};
class SectorSweep : public ::testing::TestWithParam<SectorParam> {};
TEST_P(SectorSweep, EveryLegalPolicyCompletesWithCorrectData) {
  const auto& [preset, workload] = GetParam();
  ASSERT_TRUE(load_preset(preset).l1.sector);
  sweep_legal_policies(preset, workload, sector_scale(), sweep_policy_set(sector_scale()),
                       index_of(kWorkloads, workload) / kSectorPresets.size());
}

// make test's SectorSweep (Sector/...): each workload on one preset, that of its index modulo the
// preset count, so each preset runs 17-18 workloads, one legal policy each (its slot among them
// modulo the 16 legal in sector mode: every legal policy on every preset). The other preset of each
// workload is SectorSlow/SectorSweep (label `slow`).
std::vector<SectorParam> sector_pairs(bool make_test) {
  return matrix_pairs(kWorkloads, kSectorPresets, make_test, /*column_first=*/true);
}

TEST(GpusimSweep, SectorCoveringSetRunsEveryLegalPolicyOnEveryPreset) {
  for (const std::string& preset : kSectorPresets) {
    const std::vector<std::string> legal = policy_names_for(load_preset(preset));
    size_t workloads = 0;
    for (const auto& [p, w] : sector_pairs(true)) workloads += p == preset;
    EXPECT_GE(workloads, legal.size()) << preset << ": fewer workloads than legal policies";
  }
  EXPECT_EQ(sector_pairs(true).size(), kWorkloads.size());
  EXPECT_EQ(sector_pairs(true).size() + sector_pairs(false).size(), kWorkloads.size() * kSectorPresets.size());
}
// [Fidelity]'s pressure run for the LDST unit's options (l1.hit_latency_at none / before_tag,
// l1.bypass_path direct) and the L1 options of both reference presets together: two SMs, 4 MSHRs,
// the smallest miss queue, the headline policies legal on each, three workloads at test scale
// (the golden L1's own pressure tests cover its options: L1FidelitySoak, L1SectorPressure). make
// test runs each workload on one preset (Faithful/...), make test-slow the other three pairs
// (FaithfulSlow/..., label `slow`; testcost6, 2026-11-29).
using FaithfulPressureParam = std::tuple<std::string, std::string>;
class FaithfulPressureSweep : public ::testing::TestWithParam<FaithfulPressureParam> {};
TEST_P(FaithfulPressureSweep, HeadlinePoliciesCompleteWithCorrectData) {
  const auto& [preset, workload] = GetParam();
  const Config cfg = load_preset(preset);
  uint32_t ran = 0;
  for (const std::string& policy : kHeadlinePolicies) {
    SCOPED_TRACE(preset + " " + workload + " " + policy);
    if (!policy_conflict(cfg, policy).empty()) continue;
    sweep(workload, policy, true, {}, WorkloadScale::kTest, preset);
    ++ran;
  }
  EXPECT_GE(ran, 7u);
}
// (preset, workload) pairs of a small preset x workload matrix: make test's covering set (each
// workload once, on the preset of its index modulo the preset count; there are at least as many
// workloads as presets) or the rest (the `...Slow/` instantiations, label `slow`).
std::vector<Pair> preset_workload_pairs(const std::vector<std::string>& presets,
                                        const std::vector<std::string>& workloads, bool make_test) {
  return matrix_pairs(workloads, presets, make_test, /*column_first=*/true);
}

const std::vector<std::string> kFaithfulPresets = {"gtx480-gpgpusim", "gtx1080-jips"};
const std::vector<std::string> kPressureWorkloads = {"bfs", "kmeans", "atax"};
INSTANTIATE_TEST_SUITE_P(Faithful, FaithfulPressureSweep,
                         ::testing::ValuesIn(preset_workload_pairs(kFaithfulPresets, kPressureWorkloads, true)), name);
INSTANTIATE_TEST_SUITE_P(FaithfulSlow, FaithfulPressureSweep,
                         ::testing::ValuesIn(preset_workload_pairs(kFaithfulPresets, kPressureWorkloads, false)), name);

// RTL v2's staged pipeline (contract section 16) in the golden L1, end to end: three workloads x
// the headline policies legal on each preset (DyCache's granularities are not, on a sector L1), on
// the realistic, the GPGPU-Sim 3.x and the Accel-Sim (sector) presets. About 20 CPU-s at test scale.
// make test runs each workload on one preset (Staged/...: bfs on gtx480, kmeans on gtx480-gpgpusim,
// atax on qv100-accelsim), make test-slow the other six pairs (StagedSlow/..., label `slow`; testcost6).
using StagedParam = std::tuple<std::string, std::string>;
class StagedSweep : public ::testing::TestWithParam<StagedParam> {};
TEST_P(StagedSweep, HeadlinePoliciesCompleteWithCorrectData) {
  const auto& [preset, workload] = GetParam();
  const Config cfg = load_preset(preset);
  for (const std::string& policy : kHeadlinePolicies) {
    SCOPED_TRACE(preset + " " + workload + " " + policy);
    if (!policy_conflict(cfg, policy).empty()) continue;
    sweep(workload, policy, false, {}, WorkloadScale::kTest, preset, L1Pipeline::kStaged);
  }
}
const std::vector<std::string> kStagedPresets = {"gtx480", "gtx480-gpgpusim", "qv100-accelsim"};
INSTANTIATE_TEST_SUITE_P(Staged, StagedSweep,
                         ::testing::ValuesIn(preset_workload_pairs(kStagedPresets, kPressureWorkloads, true)), name);
INSTANTIATE_TEST_SUITE_P(StagedSlow, StagedSweep,
                         ::testing::ValuesIn(preset_workload_pairs(kStagedPresets, kPressureWorkloads, false)), name);

std::string sector_name(const ::testing::TestParamInfo<SectorParam>& p) {
  return std::get<0>(p.param) + "_" + std::get<1>(p.param);
}
INSTANTIATE_TEST_SUITE_P(Sector, SectorSweep, ::testing::ValuesIn(sector_pairs(true)), sector_name);
INSTANTIATE_TEST_SUITE_P(SectorSlow, SectorSweep, ::testing::ValuesIn(sector_pairs(false)), sector_name);

INSTANTIATE_TEST_SUITE_P(Faithful, FaithfulSweep,
                         ::testing::Combine(::testing::Values("gtx480-gpgpusim", "gtx1080-jips"),
                                            ::testing::ValuesIn(kWorkloads)),
                         name);

// make test's covering sets (Gtx480/...) and the rest (Gtx480Slow/..., ctest label `slow`).
INSTANTIATE_TEST_SUITE_P(Gtx480, VariantSweep, ::testing::ValuesIn(variant_pairs(true)), name);
INSTANTIATE_TEST_SUITE_P(Gtx480Slow, VariantSweep, ::testing::ValuesIn(variant_pairs(false)), name);

INSTANTIATE_TEST_SUITE_P(Gtx480, Sweep, ::testing::ValuesIn(sweep_pairs(true)), name);
INSTANTIATE_TEST_SUITE_P(Gtx480Slow, Sweep, ::testing::ValuesIn(sweep_pairs(false)), name);
INSTANTIATE_TEST_SUITE_P(Gtx480, PressureSweep, ::testing::ValuesIn(pressure_pairs(true)), name);
INSTANTIATE_TEST_SUITE_P(Gtx480Slow, PressureSweep, ::testing::ValuesIn(pressure_pairs(false)), name);

}  // namespace
}  // namespace l1d::sim
