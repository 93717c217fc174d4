// Issue 21's occupancy rule, checked on the grids init() builds (no simulation): at `test` and
// `small` on each checked preset every launch of every workload has at least min(fill, published)
// CTAs, where fill is the CTAs that fill every SM of the preset at the workload's occupancy limit
// (SMs x floor(warp slots per SM / warps per CTA); the simulator limits residency by warp slots
// only) and published the grid the benchmark itself launches at its published input, when the
// workload declares it: for the launch (Kernel::published, where the benchmark's grid changes from
// launch to launch: a wavefront, a pivot, a scan's last level) or else for every launch
// (WorkloadInfo::published_ctas, with its source in published_grid). The workload is initialised
// with the preset's shape (Workload::set_device, as Gpu::run does), so a workload that sizes its
// grid by the device is checked with the grid it launches there.
//
// The workloads that do not meet it yet are listed below per preset and scale with the reason
// (docs/workloads.md, "Keeping the GPU full"); the test fails when a listed workload meets the rule
// (take it off the list) and when an unlisted one breaks it, naming the workload, the launch and
// the numbers.
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

// The checked presets' shapes (the device every workload assumes without set_device() is gtx480's).
struct Device {
  const char* name;
  DeviceShape shape;
};
// configs/gtx480.yaml core.num_sms 15, core.warps_per_sm 48.
constexpr Device kGtx480{"gtx480", {15, 48}};
// configs/qv100.yaml core.num_sms 80, core.warps_per_sm 64 (qv100-accelsim, the AGCB paper's
// preset, has the same core shape).
constexpr Device kQv100{"qv100", {80, 64}};
// configs/a100.yaml core.num_sms 108, core.warps_per_sm 64.
constexpr Device kA100{"a100", {108, 64}};

using Known = std::map<std::string, std::string>;

// The workloads whose launches at a scale on gtx480 are below min(fill, published), and why.
const Known& known_below_gtx480(WorkloadScale s) {
  // Test: filling gtx480 costs the test-scale sweeps (about 45 runs per workload) more than the
  // run does now, or cannot stay under a test run's 50 K warp instructions (docs/workloads.md
  // "Keeping the GPU full", "Branch workloads14"). Since branch workloads14 tc, bc and pfilter launch
  // their benchmarks' declared grids at test and cc, dc and gc a road network of the fill. Branch
  // workloads15 tried sssp and streamcluster filled (docs/workloads.md); since branch workloads16
  // sssp (a road network of the fill, 1 round) and wordcount (23040 one-word lines of 2 .. 3
  // letters) fill it; streamcluster filled was tried again (reason below).
  static const Known test{
      {"bfs", "Kronecker 2^9 vertices: 2 CTAs a level"},
      {"spmv", "700 rows: 3 CTAs (SHOC's 64 declared; 16384 rows would multiply make test's lockstep runs)"},
      {"streamcluster", "512 points; 23040 points x 2 dims, 1 call (90 CTAs, 19.4 K warp instructions) "
                        "costs make test's test-scale runs of it +3.6 to +5.9 CPU-s (budget: < 2)"},
      {"comd", "4^3 boxes: 1 CTA"},
      {"invindex", "256 lines; 23040 one-word lines, 0 .. 1 link: 165 K warp instructions, 0.39 CPU-s"},
      {"cfd", "32 x 32 cells: 4 CTAs a launch"},
      {"shfl", "8192 ints (32 CTAs; the sample's 65536: 256), an 8-row image (8 CTAs; the sample's 1080); "
               "its rows kernel alone at 180 CTAs: 180 x 753 = 136 K warp instructions > 50 K"},
      {"sqn", "8 x 8 input; filling: >= 722 warps a layer x 79 instructions (1 + 1 channels) = 57 K > 50 K"},
  };
  // Small: none since branch workloads12 (adi runs PolyBench/GPU's N = 1024, 4 CTAs a kernel, with
  // shorter sweeps; tc declares GraphBIG's grid, 1 CTA of 1000 threads = 4 of ours, and launches 8).
  static const Known small{};
  return s == WorkloadScale::kTest ? test : small;
}

// The same on qv100 and a100 (fill 640 and 864 CTAs of 8 warps): the same workloads on both.
const Known& known_below_large(WorkloadScale s) {
  // Test inputs are not sized by the device (make test runs qv100 and a100 at test, half the
  // policies of every workload: docs/workloads.md "Keeping the GPU full"); the CTAs a launch:
  static const Known test{
      {"backprop", "90 CTAs a kernel: gtx480's fill"},
      {"bfs", "2 CTAs a level (as on gtx480)"},
      {"btree", "90 CTAs: gtx480's fill"},
      {"cc", "90 CTAs a round: gtx480's fill (a road network of 23040 vertices)"},
      {"cfd", "4 CTAs a launch (as on gtx480)"},
      {"comd", "1 CTA (as on gtx480)"},
      {"dc", "90 CTAs a launch: gtx480's fill (a road network of 23040 vertices)"},
      {"gaussian", "Fan2: 27 x 27 = 729 one-warp CTAs (N = 108: gtx480's fill of 720)"},
      {"gc", "90 CTAs a round: gtx480's fill (a road network of 23040 vertices)"},
      {"hotspot", "100 CTAs: gtx480's fill"},
      {"invindex", "1 CTA (as on gtx480)"},
      {"kmeans", "90 CTAs a launch: gtx480's fill"},
      {"shfl", "32, 31 and 8 CTAs (as on gtx480)"},
      {"simscore", "90 CTAs: gtx480's fill"},
      {"spmv", "3 CTAs (as on gtx480)"},
      {"sqn", "1 - 2 CTAs a layer (as on gtx480)"},
      {"srad", "100 CTAs a kernel: gtx480's fill"},
      {"sssp", "90 CTAs a round: gtx480's fill (a road network of 23040 vertices)"},
      {"streamcluster", "2 CTAs a call (as on gtx480)"},
      {"strmatch", "90 CTAs: gtx480's fill"},
      {"vecadd", "90 CTAs: gtx480's fill"},
      {"wordcount", "90 CTAs a launch: gtx480's fill"},
  };
  // Small: none since branch workloads13. The dissertation's Table 3.2 (cache-sensitive) set sizes
  // its grid by the device (atax, bicg, mvt, gesummv with PolyBench/GPU's 16 CTAs, declared; comd
  // CoMD's default 125 of our CTAs); bc launches Pannotia's 16 CTAs, tc GraphBIG's 4 and adi
  // PolyBench/GPU's 4 (declared); cc, dc and gc run a road network of the fill's vertices,
  // gaussian the least N whose Fan2 grid fills the device (its first 8 pivots), sqn a larger map
  // with 5 + 5 channels; shfl (the CUDA sample's 256 / 255 / 1080 CTAs) and spmv (SHOC's 64 of our
  // CTAs at its largest size) declare their benchmarks' grids.
  static const Known small{};
  return s == WorkloadScale::kTest ? test : small;
}

// The launches of the initialised workload `w` that break the rule on `shape` ("" when none).
std::string shortfalls(const Workload& w, const DeviceShape& shape = kGtx480.shape) {
  const WorkloadInfo info = w.info();
  std::ostringstream out;
  uint32_t short_launches = 0;
  for (uint32_t k = 0; k < w.kernels(); ++k) {
    const KernelGrid g = w.kernel(k).grid();
    const uint32_t per_sm = g.warps_per_cta > shape.warps_per_sm ? 0 : shape.warps_per_sm / g.warps_per_cta;
    const uint64_t fill = uint64_t{shape.sms} * per_sm;
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

std::string shortfalls(const std::string& name, WorkloadScale scale, const DeviceShape& shape) {
  auto w = make_workload(name);
  w->set_device(shape);
  FunctionalMemory mem;
  w->init(mem, scale, 1);
  return shortfalls(*w, shape);
}

void check_scale(const Device& device, const Known& known, WorkloadScale scale) {
  std::set<std::string> names;
  for (const std::string& name : workload_names()) {
    names.insert(name);
    const std::string s = shortfalls(name, scale, device.shape);
    const auto it = known.find(name);
    if (it == known.end()) {
      EXPECT_EQ(s, "") << name << " at " << kScaleNames[static_cast<int>(scale)] << " launches fewer CTAs than fill "
                       << device.name << " or than its published grid:" << s;
    } else {
      EXPECT_NE(s, "") << name << " at " << kScaleNames[static_cast<int>(scale)] << " on " << device.name
                       << " now meets the rule: take it off the known list (" << it->second << ")";
    }
  }
  for (const auto& [name, why] : known) EXPECT_TRUE(names.count(name)) << "no workload " << name;
}

TEST(WorkloadGrid, EveryLaunchFillsGtx480OrHasThePublishedGridAtTest) {
  check_scale(kGtx480, known_below_gtx480(WorkloadScale::kTest), WorkloadScale::kTest);
}

TEST(WorkloadGrid, EveryLaunchFillsGtx480OrHasThePublishedGridAtSmall) {
  check_scale(kGtx480, known_below_gtx480(WorkloadScale::kSmall), WorkloadScale::kSmall);
}

TEST(WorkloadGrid, EveryLaunchFillsQv100OrHasThePublishedGridAtTest) {
  check_scale(kQv100, known_below_large(WorkloadScale::kTest), WorkloadScale::kTest);
}

TEST(WorkloadGrid, EveryLaunchFillsQv100OrHasThePublishedGridAtSmall) {
  check_scale(kQv100, known_below_large(WorkloadScale::kSmall), WorkloadScale::kSmall);
}

TEST(WorkloadGrid, EveryLaunchFillsA100OrHasThePublishedGridAtTest) {
  check_scale(kA100, known_below_large(WorkloadScale::kTest), WorkloadScale::kTest);
}

TEST(WorkloadGrid, EveryLaunchFillsA100OrHasThePublishedGridAtSmall) {
  check_scale(kA100, known_below_large(WorkloadScale::kSmall), WorkloadScale::kSmall);
}

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
