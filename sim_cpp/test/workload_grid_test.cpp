// Issue 21's occupancy rule, checked on the grids init() builds (no simulation): at `test` and
// `small` on gtx480 every launch of every workload has at least min(fill, published) CTAs, where
// fill is the CTAs that fill every SM at the workload's occupancy limit (15 SMs x
// floor(48 warp slots / warps per CTA); the simulator limits residency by warp slots only) and
// published the grid the benchmark itself launches at its published input, when the workload
// declares it: for the launch (Kernel::published, where the benchmark's grid changes from launch
// to launch: a wavefront, a pivot, a scan's last level) or else for every launch
// (WorkloadInfo::published_ctas, with its source in published_grid).
//
// The workloads that do not meet it yet are listed below with the reason (docs/workloads.md,
// "Keeping the GPU full"); the test fails when a listed workload meets the rule (take it off the
// list) and when an unlisted one breaks it, naming the workload, the launch and the numbers.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>

#include "sim_cpp/mem/functional_memory.h"
#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/workload.h"

namespace l1d::sim {
namespace {

// gtx480 (configs/gtx480.yaml): the device every workload assumes without set_device().
constexpr DeviceShape kGtx480{15, 48};

// The workloads whose launches at a scale are below min(fill, published), and why.
const std::map<std::string, std::string>& known_below(WorkloadScale s) {
  // Test: filling gtx480 costs the test-scale sweeps (about 45 runs per workload) more than the
  // run does now, or is not done yet (docs/workloads.md "Keeping the GPU full", "Not done yet").
  static const std::map<std::string, std::string> test{
      {"bfs", "Kronecker 2^9 vertices: 2 CTAs a level"},
      {"spmv", "700 rows; 23040 rows of 1 .. 4: 0.24 CPU-s a run"},
      {"sssp", "Kronecker 2^8 vertices"},
      {"cc", "Kronecker 2^9 vertices"},
      {"gc", "Kronecker 2^8 vertices"},
      {"tc", "Kronecker 2^8 vertices"},
      {"bc", "Kronecker 2^8 vertices"},
      {"dc", "Kronecker 2^9 vertices"},
      {"gaussian", "Fan2 shrinks with the pivot; Rodinia's is ceil(Size / 4)^2 at every pivot (also at small)"},
      {"adi", "N = 32: 1 CTA per kernel; PolyBench/GPU's ceil(N / 256) is 4 at its N = 1024 (also at small)"},
      {"streamcluster", "512 points; 23040 points x 2 dims, 3 calls: 88 K cycles, 0.59 CPU-s a run"},
      {"pfilter", "128 particles: 1 CTA of 512 (published: 2); find_index's CDF walk is O(n^2)"},
      {"wordcount", "128 lines; 23040 one-word lines: 73.9 K warp instructions (test: < 50 K)"},
      {"comd", "4^3 boxes: 1 CTA"},
      {"invindex", "256 lines; 23040 one-word lines, 0 .. 1 link: 165 K warp instructions, 0.39 CPU-s"},
      {"cfd", "32 x 32 cells: 4 CTAs a launch"},
      {"shfl", "8192 ints (32 CTAs; the sample's 65536: 256), an 8-row image (8 CTAs; the sample's 1080)"},
      {"sqn", "8 x 8 input"},
  };
  // Small: none of them in the dissertation's Table 3.2 (cache-sensitive) set, which all meet the rule.
  static const std::map<std::string, std::string> small{
      {"adi", "N = 128: 1 CTA per kernel, 516 launches; PolyBench/GPU's ceil(N / 256) = 4 at its N = 1024 (declared)"},
      {"tc", "2048 vertices: 8 CTAs; 2^15 vertices x 1: 3.0 M warp instructions, 9 M cycles, 2 CPU-s"},
      {"bc", "2048 vertices: 8 CTAs a launch"},
      {"gaussian", "Fan1's 1 CTA is Rodinia's (declared); Fan2 shrinks with the pivot to 1 CTA, Rodinia's stays "
                   "ceil(Size / 4)^2 (early-exit threads): 784 at 112"},
  };
  return s == WorkloadScale::kTest ? test : small;
}

// The launches of the initialised workload `w` that break the rule ("" when none).
std::string shortfalls(const Workload& w) {
  const WorkloadInfo info = w.info();
  std::ostringstream out;
  uint32_t short_launches = 0;
  for (uint32_t k = 0; k < w.kernels(); ++k) {
    const KernelGrid g = w.kernel(k).grid();
    const uint32_t per_sm = g.warps_per_cta > kGtx480.warps_per_sm ? 0 : kGtx480.warps_per_sm / g.warps_per_cta;
    const uint64_t fill = uint64_t{kGtx480.sms} * per_sm;
    const PublishedLaunch launch = w.kernel(k).published();  // this launch's declaration first
    const uint32_t published = launch.ctas > 0 ? launch.ctas : info.published_ctas;
    const uint64_t need = published > 0 ? std::min<uint64_t>(fill, published) : fill;
    if (g.ctas >= need) continue;
    if (++short_launches <= 3) {
      out << "\n  launch " << k << " (" << w.kernel(k).name() << "): " << g.ctas << " CTAs of " << g.warps_per_cta
          << " warps < min(fill " << fill << ", published "
          << (published > 0 ? std::to_string(published) : std::string("none declared")) << ")";
    }
  }
  if (short_launches > 3) out << "\n  ... " << short_launches << " of " << w.kernels() << " launches short";
  return out.str();
}

std::string shortfalls(const std::string& name, WorkloadScale scale) {
  auto w = make_workload(name);
  w->set_device(kGtx480);
  FunctionalMemory mem;
  w->init(mem, scale, 1);
  return shortfalls(*w);
}

void check_scale(WorkloadScale scale) {
  const auto& known = known_below(scale);
  std::set<std::string> names;
  for (const std::string& name : workload_names()) {
    names.insert(name);
    const std::string s = shortfalls(name, scale);
    const auto it = known.find(name);
    if (it == known.end()) {
      EXPECT_EQ(s, "") << name << " at " << kScaleNames[static_cast<int>(scale)]
                       << " launches fewer CTAs than fill gtx480 or than its published grid:" << s;
    } else {
      EXPECT_NE(s, "") << name << " at " << kScaleNames[static_cast<int>(scale)]
                       << " now meets the rule: take it off the known list (" << it->second << ")";
    }
  }
  for (const auto& [name, why] : known) EXPECT_TRUE(names.count(name)) << "no workload " << name;
}

TEST(WorkloadGrid, EveryLaunchFillsGtx480OrHasThePublishedGridAtTest) { check_scale(WorkloadScale::kTest); }

TEST(WorkloadGrid, EveryLaunchFillsGtx480OrHasThePublishedGridAtSmall) { check_scale(WorkloadScale::kSmall); }

// Four launches: 90 CTAs of 8 warps (fills gtx480), 1 CTA declared as the benchmark's 1, 1 CTA
// undeclared, 2 CTAs where the benchmark launches 4.
class FourLaunches final : public wl::GeneratedWorkload {
 public:
  std::string name() const override { return "four-launches"; }
  std::string description() const override { return "WorkloadGrid's per-launch declarations"; }
  WorkloadInfo info() const override { return {}; }
  void init(FunctionalMemory&, WorkloadScale, uint64_t) override {
    reset();
    wl::KernelCode code(wl::kFirstKernelPc);
    const wl::StaticOp exit = code.exit();
    const auto body = [exit](wl::WarpStream& s, const wl::WarpCoords&) { s.exit(exit); };
    add_kernel("fills", 90 * wl::kCtaThreads, body);
    add_kernel("declared", wl::kCtaThreads, body);
    published(1, "the benchmark's own: 1 CTA here");
    add_kernel("undeclared", wl::kCtaThreads, body);
    add_kernel("below_declared", 2 * wl::kCtaThreads, body);
    published(4, "the benchmark launches 4 here");
  }

 protected:
  void check(wl::ResultCheck&) const override {}
};

TEST(WorkloadGrid, ALaunchBelowTheFillPassesOnlyWhenDeclared) {
  FourLaunches w;
  FunctionalMemory mem;
  w.init(mem, WorkloadScale::kTest, 1);
  EXPECT_EQ(w.kernel(1).published().ctas, 1u);
  EXPECT_EQ(w.kernel(2).published().ctas, 0u);
  EXPECT_EQ(shortfalls(w),
            "\n  launch 2 (undeclared): 1 CTAs of 8 warps < min(fill 90, published none declared)"
            "\n  launch 3 (below_declared): 2 CTAs of 8 warps < min(fill 90, published 4)");
}

TEST(WorkloadGrid, PublishedGridsNameTheirSource) {
  // A declared cap below what fills the GPU, with its source; atax, bicg, mvt and gesummv declare
  // PolyBench/GPU's 16 CTAs.
  for (const std::string& name : workload_names()) {
    auto w = make_workload(name);
    FunctionalMemory mem;
    w->init(mem, WorkloadScale::kTest, 1);
    const WorkloadInfo info = w->info();
    EXPECT_EQ(info.published_ctas > 0, !info.published_grid.empty()) << name;
    for (uint32_t k = 0; k < w->kernels(); ++k) {
      const PublishedLaunch p = w->kernel(k).published();
      EXPECT_EQ(p.ctas > 0, !p.arithmetic.empty()) << name << " launch " << k;
    }
  }
  for (const char* name : {"atax", "bicg", "mvt", "gesummv"}) {
    auto w = make_workload(name);
    FunctionalMemory mem;
    w->init(mem, WorkloadScale::kTest, 1);
    EXPECT_EQ(w->info().published_ctas, 16u) << name;
  }
}

}  // namespace
}  // namespace l1d::sim
