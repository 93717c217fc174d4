// atax (PolyBench/GPU ATAX): y = A^T (A x) as its two kernels, A is NX x NY floats, row-major.
//   atax_kernel1, thread i < NX:  tmp[i] = 0; for j < NY: tmp[i] += A[i*NY + j] * x[j]
//   atax_kernel2, thread j < NY:  for i < NX: y[j] += A[i*NY + j] * tmp[i]
// Kernel 1 walks one row per thread (lanes NY*4 bytes apart: 32 requests per load, intra-warp
// reuse across iterations, cache-sensitive); kernel 2 walks columns (coalesced). As in the CUDA
// code (no __restrict__), the accumulator is loaded and stored every iteration.
// Grid (issue 21): PolyBench/GPU launches ceil(N / DIM_THREAD_BLOCK_X) CTAs of 256 threads per
// kernel, at its published NX = NY = 4096: 16 CTAs = 128 warps, a mean of at most 4.3 resident
// warps per scheduler on gtx480 (15 SMs x 2 schedulers) at any scale. Both kernels keep their
// grid only if both dimensions keep theirs (one walks rows, the other columns): a shorter walk in
// one kernel is a smaller grid in the other (4096 x 48: kernel 2 one CTA walking 4096 rows), and
// 4096 x 4096 is about 3 M warp instructions per kernel, 3x the small ceiling. Decision: small
// stays 512 x 512 (2 CTAs per kernel, 4 SMs); full runs the published 4096 x 4096 (16 CTAs).
#include <cmath>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

class Atax final : public GeneratedWorkload {
 public:
  std::string name() const override { return "atax"; }
  std::string description() const override { return "PolyBench ATAX y = A^T (A x): row-walk then column-walk kernels"; }

  WorkloadInfo info() const override {
    return {false, true, "PolyBench/GPU", nx_ ? std::to_string(nx_) + " x " + std::to_string(ny_) + " floats" : "", ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t nx = scale == WorkloadScale::kTest ? 384 : scale == WorkloadScale::kSmall ? 512 : 4096;
    const uint32_t ny = scale == WorkloadScale::kTest ? 48 : nx;
    Rng rng(mix_seed(seed, "atax"));
    auto a = std::make_shared<std::vector<float>>(uint64_t{nx} * ny);
    auto x = std::make_shared<std::vector<float>>(ny);
    for (float& v : *a) v = rng.unitf();
    for (float& v : *x) v = rng.unitf();
    nx_ = nx, ny_ = ny, a_ = a, x_ = x;
    // tmp = A x with the GPU's arithmetic (one fused multiply-add per iteration, in j order).
    auto tmp = std::make_shared<std::vector<float>>(nx, 0.0f);
    for (uint32_t i = 0; i < nx; ++i) {
      for (uint32_t j = 0; j < ny; ++j) (*tmp)[i] = std::fma((*a)[uint64_t{i} * ny + j], (*x)[j], (*tmp)[i]);
    }
    const Addr a_base = layout_.array(mem, "A", *a);
    const Addr x_base = layout_.array(mem, "x", *x);
    const Addr y_base = layout_.array(mem, "y", std::vector<float>(ny, 0.0f));
    const Addr tmp_base = layout_.array(mem, "tmp", std::vector<float>(nx, 0.0f));

    KernelCode code(kFirstKernelPc);
    {  // atax_kernel1
      KernelCode& k = code;
      const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), addr = k.alu(kLatIntMad);
      const StaticOp st_zero = k.store(4);
      const StaticOp ld_a = k.load(4), ld_x = k.load(4), ld_t = k.load(4), fma = k.alu(kLatFma), st_t = k.store(4);
      const StaticOp loop = k.alu(kLatInt), exit = k.exit();
      add_kernel("atax_kernel1", nx, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(nx);
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(guard, w.mask_below(UINT64_MAX));
        s.alu(addr, m);
        s.store(st_zero, m, [&](uint32_t l) { return LaneWrite{tmp_base + 4 * w.global_id(l), bits(0.0f)}; });
        std::array<float, kWarpSize> acc{};
        for (uint32_t j = 0; j < ny; ++j) {
          s.load(ld_a, m, [&](uint32_t l) { return a_base + 4 * (w.global_id(l) * ny + j); });
          s.load(ld_x, m, [&](uint32_t) { return x_base + 4 * uint64_t{j}; });
          s.load(ld_t, m, [&](uint32_t l) { return tmp_base + 4 * w.global_id(l); });
          s.alu(fma, m);
          for_lanes(m, [&](uint32_t l) { acc[l] = std::fma((*a)[w.global_id(l) * ny + j], (*x)[j], acc[l]); });
          s.store(st_t, m, [&](uint32_t l) { return LaneWrite{tmp_base + 4 * w.global_id(l), bits(acc[l])}; });
          s.alu(loop, m);
        }
        s.exit(exit);
      });
    }
    {  // atax_kernel2
      KernelCode k = code.next_kernel();
      const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), addr = k.alu(kLatIntMad);
      const StaticOp ld_a = k.load(4), ld_t = k.load(4), ld_y = k.load(4), fma = k.alu(kLatFma), st_y = k.store(4);
      const StaticOp loop = k.alu(kLatInt), exit = k.exit();
      add_kernel("atax_kernel2", ny, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(ny);
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(guard, w.mask_below(UINT64_MAX));
        s.alu(addr, m);
        std::array<float, kWarpSize> acc{};  // y starts at 0
        for (uint32_t i = 0; i < nx; ++i) {
          s.load(ld_a, m, [&](uint32_t l) { return a_base + 4 * (uint64_t{i} * ny + w.global_id(l)); });
          s.load(ld_t, m, [&](uint32_t) { return tmp_base + 4 * uint64_t{i}; });
          s.load(ld_y, m, [&](uint32_t l) { return y_base + 4 * w.global_id(l); });
          s.alu(fma, m);
          for_lanes(m,
                    [&](uint32_t l) { acc[l] = std::fma((*a)[uint64_t{i} * ny + w.global_id(l)], (*tmp)[i], acc[l]); });
          s.store(st_y, m, [&](uint32_t l) { return LaneWrite{y_base + 4 * w.global_id(l), bits(acc[l])}; });
          s.alu(loop, m);
        }
        s.exit(exit);
      });
    }
  }

 protected:
  void check(ResultCheck& c) const override {
    const auto& a = *a_;
    std::vector<double> tmp(nx_, 0.0), y(ny_, 0.0);
    for (size_t i = 0; i < nx_; ++i) {
      for (size_t j = 0; j < ny_; ++j) tmp[i] += static_cast<double>(a[i * ny_ + j]) * (*x_)[j];
    }
    for (size_t j = 0; j < ny_; ++j) {
      for (size_t i = 0; i < nx_; ++i) y[j] += static_cast<double>(a[i * ny_ + j]) * tmp[i];
    }
    c.close("tmp", tmp);
    c.close("y", y);
  }

 private:
  uint32_t nx_ = 0, ny_ = 0;
  std::shared_ptr<const std::vector<float>> a_, x_;
};

}  // namespace

std::unique_ptr<Workload> make_atax() { return std::make_unique<Atax>(); }

}  // namespace l1d::sim::wl
