// atax (PolyBench/GPU ATAX): y = A^T (A x) as its two kernels, A is NX x NY floats, row-major.
//   atax_kernel1, thread i < NX:  tmp[i] = 0; for j < K: tmp[i] += A[i*NY + j] * x[j]
//   atax_kernel2, thread j < NY:  for i < K: y[j] += A[i*NY + j] * tmp[i]
// with K = NX = NY at full / paper (PolyBench's loops). Kernel 1 walks one row per thread (lanes
// NY*4 = 16 KB apart: 32 requests per load, intra-warp reuse of each line over the next 31
// iterations, cache-sensitive); kernel 2 walks columns (coalesced). As in the CUDA code (no
// __restrict__), the accumulator is loaded and stored every iteration.
// Grid (issue 21): PolyBench/GPU launches ceil(N / DIM_THREAD_BLOCK_X) CTAs of 256 threads per
// kernel, at its published NX = NY = 4096: 16 CTAs = 128 warps per kernel, on 15 of gtx480's SMs
// but a mean of at most 128 / 30 = 4.3 resident warps per scheduler at any scale (the published
// grid cannot fill the GPU: WorkloadInfo::published_ctas). Every scale launches that grid
// (NX = NY = 4096); test and small are shortened by the per-thread loops instead (issue 21's
// "shorter per-thread loops"): each thread walks only the first K of its row's columns (kernel 1)
// or of its column's rows (kernel 2), K = 2 at test and 64 at small (two 128 B lines of each row:
// 99 K warp instructions at small, where the full loops are 3 M per kernel). The row stride stays
// NY, so kernel 1's loads still touch 32 lines each and reuse them. Only what the loops touch is
// written to memory (the first K columns of every row and the first K rows: TruncatedMatrix; the
// other 64 MB of A are reserved, never initialised), with the values of the whole matrix's
// sequential fill, and the result check runs the same truncated loops.
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
    return polybench_matrix_info(a_.get(), kPublishedCtas,
                                 "PolyBench/GPU atax.cu: ceil(NX / DIM_THREAD_BLOCK_X) = 4096 / 256 = 16 "
                                 "CTAs per kernel at NX = NY = 4096");
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t nx = 4096, ny = 4096;  // PolyBench's NX, NY at every scale (the grid; header)
    const uint32_t kk = by_scale(scale, 2u, 64u, nx);  // the loops' length (K, header)
    Rng rng(mix_seed(seed, "atax"));
    auto a = std::make_shared<const TruncatedMatrix>(rng, nx, ny, kk);
    auto x = std::make_shared<std::vector<float>>(ny);
    for (float& v : *x) v = rng.unitf();
    a_ = a, x_ = x;
    // tmp = A x with the GPU's arithmetic (one fused multiply-add per iteration, in j order).
    auto tmp = std::make_shared<std::vector<float>>(nx, 0.0f);
    for (uint32_t i = 0; i < nx; ++i) {
      for (uint32_t j = 0; j < kk; ++j) (*tmp)[i] = std::fma(a->at(i, j), (*x)[j], (*tmp)[i]);
    }
    const Addr a_base = a->place(mem, layout_, "A");
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
        for (uint32_t j = 0; j < kk; ++j) {
          s.load(ld_a, m, [&](uint32_t l) { return a_base + 4 * (w.global_id(l) * ny + j); });
          s.load(ld_x, m, [&](uint32_t) { return x_base + 4 * uint64_t{j}; });
          s.load(ld_t, m, [&](uint32_t l) { return tmp_base + 4 * w.global_id(l); });
          s.alu(fma, m);
          for_lanes(m, [&](uint32_t l) { acc[l] = std::fma(a->at(w.global_id(l), j), (*x)[j], acc[l]); });
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
        for (uint32_t i = 0; i < kk; ++i) {
          s.load(ld_a, m, [&](uint32_t l) { return a_base + 4 * (uint64_t{i} * ny + w.global_id(l)); });
          s.load(ld_t, m, [&](uint32_t) { return tmp_base + 4 * uint64_t{i}; });
          s.load(ld_y, m, [&](uint32_t l) { return y_base + 4 * w.global_id(l); });
          s.alu(fma, m);
          for_lanes(m, [&](uint32_t l) { acc[l] = std::fma(a->at(i, w.global_id(l)), (*tmp)[i], acc[l]); });
          s.store(st_y, m, [&](uint32_t l) { return LaneWrite{y_base + 4 * w.global_id(l), bits(acc[l])}; });
          s.alu(loop, m);
        }
        s.exit(exit);
      });
    }
  }

 protected:
  void check(ResultCheck& c) const override {
    const TruncatedMatrix& a = *a_;
    const size_t nx = a.nx(), ny = a.ny(), kk = a.k();
    std::vector<double> tmp(nx, 0.0), y(ny, 0.0);
    for (size_t i = 0; i < nx; ++i) {
      for (size_t j = 0; j < kk; ++j) tmp[i] += static_cast<double>(a.at(i, j)) * (*x_)[j];
    }
    for (size_t j = 0; j < ny; ++j) {
      for (size_t i = 0; i < kk; ++i) y[j] += static_cast<double>(a.at(i, j)) * tmp[i];
    }
    c.close("tmp", tmp);
    c.close("y", y);
  }

 private:
  static constexpr uint32_t kPublishedCtas = 16;
  std::shared_ptr<const TruncatedMatrix> a_;
  std::shared_ptr<const std::vector<float>> x_;
};

}  // namespace

std::unique_ptr<Workload> make_atax() { return std::make_unique<Atax>(); }

}  // namespace l1d::sim::wl
