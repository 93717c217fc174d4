// mvt (PolyBench/GPU MVT): x1 += A y1 and x2 += A^T y2 as its two kernels, A is N x N floats.
//   mvt_kernel1, thread i < N:  for j < N: x1[i] += a[i*N + j] * y_1[j]   (row walk, uncoalesced)
//   mvt_kernel2, thread i < N:  for j < N: x2[i] += a[j*N + i] * y_2[j]   (column walk, coalesced)
// As in the CUDA code (no __restrict__), x1[i] / x2[i] are loaded and stored every iteration.
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

class Mvt final : public GeneratedWorkload {
 public:
  std::string name() const override { return "mvt"; }
  std::string description() const override {
    return "PolyBench MVT x1 += A y1, x2 += A^T y2: row-walk and column-walk kernels";
  }

  WorkloadInfo info() const override {
    return {false, true, "PolyBench/GPU", n_ ? std::to_string(n_) + " x " + std::to_string(n_) + " floats" : "", ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t n = scale == WorkloadScale::kTest ? 176 : scale == WorkloadScale::kSmall ? 512 : 4096;
    Rng rng(mix_seed(seed, "mvt"));
    auto a = std::make_shared<std::vector<float>>(uint64_t{n} * n);
    auto y1 = std::make_shared<std::vector<float>>(n), y2 = std::make_shared<std::vector<float>>(n);
    auto x1 = std::make_shared<std::vector<float>>(n), x2 = std::make_shared<std::vector<float>>(n);
    for (float& v : *a) v = rng.unitf();
    for (auto* vec : {x1.get(), x2.get(), y1.get(), y2.get()}) {
      for (float& v : *vec) v = rng.unitf();
    }
    n_ = n, a_ = a, x1_ = std::make_shared<const std::vector<float>>(*x1), x2_ = std::make_shared<const std::vector<float>>(*x2);
    y1_ = y1, y2_ = y2;
    const Addr a_base = layout_.array(mem, "A", *a);
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
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(guard, w.mask_below(UINT64_MAX));
        s.alu(addr, m);
        std::array<float, kWarpSize> acc{};
        for_lanes(m, [&](uint32_t l) { acc[l] = (*x)[w.global_id(l)]; });
        for (uint32_t j = 0; j < n; ++j) {
          s.load(ld_a, m, [&](uint32_t l) { return a_base + 4 * elem(w.global_id(l), j); });
          s.load(ld_y, m, [&](uint32_t) { return y_base + 4 * uint64_t{j}; });
          s.load(ld_x, m, [&](uint32_t l) { return x_base + 4 * w.global_id(l); });
          s.alu(fma, m);
          for_lanes(m, [&](uint32_t l) { acc[l] = std::fma((*a)[elem(w.global_id(l), j)], (*y)[j], acc[l]); });
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
    const auto& a = *a_;
    std::vector<double> w1(n_), w2(n_);
    for (size_t i = 0; i < n_; ++i) {
      w1[i] = (*x1_)[i], w2[i] = (*x2_)[i];
      for (size_t j = 0; j < n_; ++j) {
        w1[i] += static_cast<double>(a[i * n_ + j]) * (*y1_)[j];
        w2[i] += static_cast<double>(a[j * n_ + i]) * (*y2_)[j];
      }
    }
    c.close("x1", w1);
    c.close("x2", w2);
  }

 private:
  uint32_t n_ = 0;
  std::shared_ptr<const std::vector<float>> a_, x1_, x2_, y1_, y2_;
};

}  // namespace

std::unique_ptr<Workload> make_mvt() { return std::make_unique<Mvt>(); }

}  // namespace l1d::sim::wl
