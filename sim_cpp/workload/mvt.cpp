// mvt (PolyBench/GPU MVT): x1 += A y1 and x2 += A^T y2 as its two kernels, A is N x N floats.
//   mvt_kernel1, thread i < N:  for j < K: x1[i] += a[i*N + j] * y_1[j]   (row walk, uncoalesced)
//   mvt_kernel2, thread i < N:  for j < K: x2[i] += a[j*N + i] * y_2[j]   (column walk, coalesced)
// with K = N at full / paper (PolyBench's loops). Kernel 1's lanes are N*4 = 16 KB apart (32
// requests per load) and reuse their lines over the next iterations. As in the CUDA code (no
// __restrict__), x1[i] / x2[i] are loaded and stored every iteration.
// Grid (issue 21): PolyBench/GPU launches ceil(N / DIM_THREAD_BLOCK_X) CTAs of 256 threads per
// kernel, at its published N = 4096: 16 CTAs = 128 warps per kernel, on 15 of gtx480's SMs but a
// mean of at most 128 / 30 = 4.3 resident warps per scheduler at any scale (the published grid
// cannot fill the GPU: WorkloadInfo::published_ctas). Every scale launches that grid (N = 4096);
// test and small are shortened by the per-thread loops instead (issue 21's "shorter per-thread
// loops"): each thread walks only the first K of its row's columns (kernel 1) or of its column's
// rows (kernel 2), K = 2 at test and 64 at small (99 K warp instructions at small, where the
// full loops are 3 M per kernel). The row stride stays N, so kernel 1's loads still touch 32
// lines each and reuse them. Only what the loops touch is written to memory (the first K columns
// of every row and the first K rows: TruncatedMatrix; the rest of A's 64 MB is reserved, never
// initialised), with the values of the whole matrix's sequential fill, and the result check runs
// the same truncated loops.
#include <cmath>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

class Mvt final : public GeneratedWorkload {
 public:
  std::string name() const override { return "mvt"; }
  std::string description() const override {
    return "PolyBench MVT x1 += A y1, x2 += A^T y2: row-walk and column-walk kernels";
  }

  WorkloadInfo info() const override {
    return polybench_matrix_info(a_.get(), kPublishedCtas,
                                 "PolyBench/GPU mvt.cu: ceil(N / DIM_THREAD_BLOCK_X) = 4096 / 256 = 16 "
                                 "CTAs per kernel at N = 4096");
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t n = 4096;  // PolyBench's N at every scale (the grid; header)
    const uint32_t kk = by_scale(scale, 2u, 64u, n);  // the loops' length (K, header)
    Rng rng(mix_seed(seed, "mvt"));
    auto a = std::make_shared<const TruncatedMatrix>(rng, n, n, kk);
    auto y1 = std::make_shared<std::vector<float>>(n), y2 = std::make_shared<std::vector<float>>(n);
    auto x1 = std::make_shared<std::vector<float>>(n), x2 = std::make_shared<std::vector<float>>(n);
    for (auto* vec : {x1.get(), x2.get(), y1.get(), y2.get()}) {
      for (float& v : *vec) v = rng.unitf();
    }
    a_ = a, x1_ = std::make_shared<const std::vector<float>>(*x1), x2_ = std::make_shared<const std::vector<float>>(*x2);
    y1_ = y1, y2_ = y2;
    const Addr a_base = a->place(mem, layout_, "A");
    const Addr x1_base = layout_.array(mem, "x1", *x1), x2_base = layout_.array(mem, "x2", *x2);
    const Addr y1_base = layout_.array(mem, "y1", *y1), y2_base = layout_.array(mem, "y2", *y2);

    // Both kernels have the same shape; `transposed` selects a[j*N + i] (kernel 2).
    const auto add = [&](KernelCode& k, const char* kname, bool transposed, Addr x_base, Addr y_base,
                         std::shared_ptr<std::vector<float>> x, std::shared_ptr<std::vector<float>> y) {
      const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), addr = k.alu(kLatIntMad);
      const StaticOp ld_a = k.load(4), ld_y = k.load(4), ld_x = k.load(4), fma = k.alu(kLatFma), st_x = k.store(4);
      const StaticOp loop = k.alu(kLatInt), exit = k.exit();
      add_kernel(kname, n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(n);
        const auto elem = [&](uint64_t i, uint64_t j) { return transposed ? j * n + i : i * n + j; };
        const auto value = [&](uint64_t i, uint64_t j) { return transposed ? a->at(j, i) : a->at(i, j); };
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(guard, w.mask_below(UINT64_MAX));
        s.alu(addr, m);
        std::array<float, kWarpSize> acc{};
        for_lanes(m, [&](uint32_t l) { acc[l] = (*x)[w.global_id(l)]; });
        for (uint32_t j = 0; j < kk; ++j) {
          s.load(ld_a, m, [&](uint32_t l) { return a_base + 4 * elem(w.global_id(l), j); });
          s.load(ld_y, m, [&](uint32_t) { return y_base + 4 * uint64_t{j}; });
          s.load(ld_x, m, [&](uint32_t l) { return x_base + 4 * w.global_id(l); });
          s.alu(fma, m);
          for_lanes(m, [&](uint32_t l) { acc[l] = std::fma(value(w.global_id(l), j), (*y)[j], acc[l]); });
          s.store(st_x, m, [&](uint32_t l) { return LaneWrite{x_base + 4 * w.global_id(l), bits(acc[l])}; });
          s.alu(loop, m);
        }
        s.exit(exit);
      });
    };
    KernelCode code1(kFirstKernelPc);
    add(code1, "mvt_kernel1", false, x1_base, y1_base, x1, y1);
    KernelCode code2 = code1.next_kernel();
    add(code2, "mvt_kernel2", true, x2_base, y2_base, x2, y2);
  }

 protected:
  void check(ResultCheck& c) const override {
    const TruncatedMatrix& a = *a_;
    const size_t n = a.nx(), kk = a.k();
    std::vector<double> w1(n), w2(n);
    for (size_t i = 0; i < n; ++i) {
      w1[i] = (*x1_)[i], w2[i] = (*x2_)[i];
      for (size_t j = 0; j < kk; ++j) {
        w1[i] += static_cast<double>(a.at(i, j)) * (*y1_)[j];
        w2[i] += static_cast<double>(a.at(j, i)) * (*y2_)[j];
      }
    }
    c.close("x1", w1);
    c.close("x2", w2);
  }

 private:
  static constexpr uint32_t kPublishedCtas = 16;
  std::shared_ptr<const TruncatedMatrix> a_;
  std::shared_ptr<const std::vector<float>> x1_, x2_, y1_, y2_;
};

}  // namespace

std::unique_ptr<Workload> make_mvt() { return std::make_unique<Mvt>(); }

}  // namespace l1d::sim::wl
