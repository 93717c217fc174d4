// jacobi1d (JCB1D, PolyBench/GPU JACOBI1D): T time steps of the 3-point stencil, two kernels each:
//   runJacobi1D_kernel1, thread i in [1, N-1):  B[i] = 0.33333 * (A[i-1] + A[i] + A[i+1])
//   runJacobi1D_kernel2, thread j in [1, N-1):  A[j] = B[j]
// Streaming with neighbour reuse: the three loads of a warp hit the same lines (one request each,
// two of them spilling into the next line), A and B are re-read every step.
// Paper scale: PolyBench/GPU's STANDARD_DATASET, N = 4096 (jacobi1D.cuh; TSTEPS 10000 cut to 20
// steps: every step is the same pair of 16-CTA launches), the two-level paper's JCB1D input as
// far as it says (PolyBench, no size): 16 CTAs of 256 threads per launch, so on gtx1080-jips at
// most 16 of 56 SMs hold 8 of their 64 warp slots.
#include <cmath>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

class Jacobi1d final : public GeneratedWorkload {
 public:
  std::string name() const override { return "jacobi1d"; }
  std::string description() const override { return "PolyBench JACOBI1D 3-point stencil, T steps of two kernels"; }
  WorkloadInfo info() const override {
    return {false, false, "PolyBench/GPU (two-level paper JCB1D)",
            a0_ ? std::to_string(a0_->size()) + " floats, " + std::to_string(steps_) + " steps" : "", "", 16,
            "PolyBench/GPU jacobi1D.cu: ceil(N / DIM_THREAD_BLOCK_X) = 4096 / 256 = 16 CTAs per launch at N = 4096 "
            "(STANDARD_DATASET, docs/workloads.md \"paper scale\")"};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t n = by_scale(scale, 4096u, 1u << 16, 1u << 20, 4096u), steps = by_scale(scale, 2u, 8u, 20u);
    Rng rng(mix_seed(seed, "jacobi1d"));
    std::vector<float> a = uniform_floats(rng, n, 0.0f, 10.0f);
    a0_ = share(a), steps_ = steps;
    const Addr a_base = layout_.array(mem, "A", a);
    const Addr b_base = layout_.array(mem, "B", std::vector<float>(n, 0.0f));

    KernelCode k1(kFirstKernelPc);
    const StaticOp tid1 = k1.alu(kLatIntMad), guard1 = k1.alu(kLatInt), ld_l = k1.load(4), ld_c = k1.load(4);
    const StaticOp ld_r = k1.load(4), add1 = k1.alu(kLatFp), add2 = k1.alu(kLatFp), mul = k1.alu(kLatFp);
    const StaticOp st_b = k1.store(4), exit1 = k1.exit();
    KernelCode k2 = k1.next_kernel();
    const StaticOp tid2 = k2.alu(kLatIntMad), guard2 = k2.alu(kLatInt), ld_b = k2.load(4), st_a = k2.store(4);
    const StaticOp exit2 = k2.exit();
    for (uint32_t t = 0; t < steps; ++t) {
      std::vector<float> b(n, 0.0f);
      for (uint32_t i = 1; i + 1 < n; ++i) b[i] = 0.33333f * (a[i - 1] + a[i] + a[i + 1]);
      auto bs = share(b);
      add_kernel("runJacobi1D_kernel1", n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = lanes_where(w.mask_below(n - 1), [&](uint32_t l) { return w.global_id(l) >= 1; });
        s.alu(tid1, w.mask_below(UINT64_MAX));
        s.alu(guard1, w.mask_below(UINT64_MAX));
        s.load(ld_l, m, [&](uint32_t l) { return a_base + 4 * (w.global_id(l) - 1); });
        s.load(ld_c, m, [&](uint32_t l) { return a_base + 4 * w.global_id(l); });
        s.load(ld_r, m, [&](uint32_t l) { return a_base + 4 * (w.global_id(l) + 1); });
        s.alu(add1, m);
        s.alu(add2, m);
        s.alu(mul, m);
        s.store(st_b, m, [&](uint32_t l) {
          return LaneWrite{b_base + 4 * w.global_id(l), bits((*bs)[w.global_id(l)])};
        });
        s.exit(exit1);
      });
      add_kernel("runJacobi1D_kernel2", n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = lanes_where(w.mask_below(n - 1), [&](uint32_t l) { return w.global_id(l) >= 1; });
        s.alu(tid2, w.mask_below(UINT64_MAX));
        s.alu(guard2, w.mask_below(UINT64_MAX));
        s.load(ld_b, m, [&](uint32_t l) { return b_base + 4 * w.global_id(l); });
        s.store(st_a, m, [&](uint32_t l) {
          return LaneWrite{a_base + 4 * w.global_id(l), bits((*bs)[w.global_id(l)])};
        });
        s.exit(exit2);
      });
      for (uint32_t i = 1; i + 1 < n; ++i) a[i] = b[i];
    }
  }

 protected:
  // An independent reference in double; the stencil averages, so float rounding stays tiny.
  void check(ResultCheck& c) const override {
    const size_t n = a0_->size();
    std::vector<double> a(a0_->begin(), a0_->end()), b(n, 0.0);
    for (uint32_t t = 0; t < steps_; ++t) {
      for (size_t i = 1; i + 1 < n; ++i) b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
      for (size_t i = 1; i + 1 < n; ++i) a[i] = b[i];
    }
    c.close("A", a);
    c.close("B", b);
  }

 private:
  Shared<float> a0_;
  uint32_t steps_ = 0;
};

}  // namespace

std::unique_ptr<Workload> make_jacobi1d() { return std::make_unique<Jacobi1d>(); }

}  // namespace l1d::sim::wl
