// gesummv (PolyBench/GPU GESUMMV): y = alpha A x + beta B x over the first M columns of A and B,
// N x P float matrices stored row-major with P >= M floats per row (P = M = N in PolyBench).
//   gesummv_kernel, thread i < N:  for j < M: tmp[i] += A[i*P + j] * x[j]; y[i] += B[i*P + j] * x[j]
//                                  y[i] = alpha * tmp[i] + beta * y[i]
// Grid: PolyBench/GPU's gesummv.cu launches N / DIM_THREAD_BLOCK_X = 4096 / 256 = 16 CTAs of 8
// warps at its published N = 4096 (128 warps: at most 8 of gtx480's 48 warp slots on an SM, about
// 4.3 warps per scheduler over 15 SMs x 2 schedulers): its published input cannot fill gtx480.
// Every scale keeps those 4096 rows, so all 15 SMs run a CTA, and is shortened by a shorter row
// walk M (issue 21: by time, never by fewer CTAs). Rows stay at least one 128 B line long
// (P = max(M, 32)), so every A and B load still touches 32 lines: test walks M = 2 columns of
// 32-float rows, small 48 columns of 48-float rows, full the whole 4096 x 4096.
// Two row walks at once: the lanes are P*4 bytes apart in both matrices (32 requests per load),
// each line reused over the next iterations if it survives -- cache-sensitive. As in the CUDA
// code, tmp[i] and y[i] (zero at start) are loaded and stored every iteration.
#include <algorithm>
#include <cmath>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr float kAlpha = 43532.0f / 100000.0f, kBeta = 12313.0f / 100000.0f;  // PolyBench's constants, scaled

class Gesummv final : public GeneratedWorkload {
 public:
  std::string name() const override { return "gesummv"; }
  std::string description() const override { return "PolyBench GESUMMV y = alpha A x + beta B x (two row walks)"; }
  WorkloadInfo info() const override {
    return {false, true, "PolyBench/GPU",
            n_ ? "2 x " + std::to_string(n_) + " x " + std::to_string(m_) + " floats" +
                     (pitch_ > m_ ? " (rows of " + std::to_string(pitch_) + ")" : "")
               : "",
            "",
            16,
            "PolyBench/GPU gesummv.cu: N / DIM_THREAD_BLOCK_X = 4096 / 256 = 16 CTAs at N = 4096"};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    // Rows (the grid), columns walked, floats per row. Test: 128 warps x 2 columns is 3.7 K warp
    // instructions and 16 K L1 requests, about the 2.9 K and 18 K of the 96 x 96 (1 CTA) it replaced;
    // small: 48 columns (63 K warp instructions, above the small floor of 50 K).
    const uint32_t n = 4096, mc = by_scale(scale, 2u, 48u, 4096u), pitch = std::max(mc, 32u);
    Rng rng(mix_seed(seed, "gesummv"));
    auto a = share(uniform_floats(rng, uint64_t{n} * pitch)), b = share(uniform_floats(rng, uint64_t{n} * pitch));
    auto x = share(uniform_floats(rng, mc));
    n_ = n, m_ = mc, pitch_ = pitch, a_ = a, b_ = b, x_ = x;
    const Addr a_base = layout_.array(mem, "A", *a), b_base = layout_.array(mem, "B", *b);
    const Addr x_base = layout_.array(mem, "x", *x);
    const Addr t_base = layout_.array(mem, "tmp", std::vector<float>(n, 0.0f));
    const Addr y_base = layout_.array(mem, "y", std::vector<float>(n, 0.0f));

    KernelCode k(kFirstKernelPc);
    const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), addr = k.alu(kLatIntMad);
    const StaticOp ld_a = k.load(4), ld_x = k.load(4), ld_t = k.load(4), fma_t = k.alu(kLatFma), st_t = k.store(4);
    const StaticOp ld_b = k.load(4), ld_y = k.load(4), fma_y = k.alu(kLatFma), st_y = k.store(4), loop = k.alu(kLatInt);
    const StaticOp ld_t2 = k.load(4), ld_y2 = k.load(4), mul = k.alu(kLatFp), fma = k.alu(kLatFma), st_y2 = k.store(4);
    const StaticOp exit = k.exit();
    add_kernel("gesummv_kernel", n, [=](WarpStream& s, const WarpCoords& w) {
      const uint32_t m = w.mask_below(n);
      const auto row = [&](uint32_t l) { return w.global_id(l) * pitch; };
      const auto at = [&](Addr base, uint64_t i) { return base + 4 * i; };
      s.alu(tid, w.mask_below(UINT64_MAX));
      s.alu(guard, w.mask_below(UINT64_MAX));
      s.alu(addr, m);
      std::array<float, kWarpSize> tmp{}, y{};
      for (uint32_t j = 0; j < mc; ++j) {
        s.load(ld_a, m, [&](uint32_t l) { return at(a_base, row(l) + j); });
        s.load(ld_x, m, [&](uint32_t) { return at(x_base, j); });
        s.load(ld_t, m, [&](uint32_t l) { return at(t_base, w.global_id(l)); });
        s.alu(fma_t, m);
        for_lanes(m, [&](uint32_t l) { tmp[l] = std::fma((*a)[row(l) + j], (*x)[j], tmp[l]); });
        s.store(st_t, m, [&](uint32_t l) { return LaneWrite{at(t_base, w.global_id(l)), bits(tmp[l])}; });
        s.load(ld_b, m, [&](uint32_t l) { return at(b_base, row(l) + j); });
        s.load(ld_y, m, [&](uint32_t l) { return at(y_base, w.global_id(l)); });
        s.alu(fma_y, m);
        for_lanes(m, [&](uint32_t l) { y[l] = std::fma((*b)[row(l) + j], (*x)[j], y[l]); });
        s.store(st_y, m, [&](uint32_t l) { return LaneWrite{at(y_base, w.global_id(l)), bits(y[l])}; });
        s.alu(loop, m);
      }
      s.load(ld_t2, m, [&](uint32_t l) { return at(t_base, w.global_id(l)); });
      s.load(ld_y2, m, [&](uint32_t l) { return at(y_base, w.global_id(l)); });
      s.alu(mul, m);
      s.alu(fma, m);
      s.store(st_y2, m, [&](uint32_t l) {
        return LaneWrite{at(y_base, w.global_id(l)), bits(std::fma(kAlpha, tmp[l], kBeta * y[l]))};
      });
      s.exit(exit);
    });
  }

 protected:
  void check(ResultCheck& c) const override {
    std::vector<double> tmp(n_, 0.0), y(n_, 0.0);
    for (uint64_t i = 0; i < n_; ++i) {
      double bx = 0;
      for (uint64_t j = 0; j < m_; ++j) {
        tmp[i] += static_cast<double>((*a_)[i * pitch_ + j]) * (*x_)[j];
        bx += static_cast<double>((*b_)[i * pitch_ + j]) * (*x_)[j];
      }
      y[i] = kAlpha * tmp[i] + kBeta * bx;
    }
    c.close("tmp", tmp);
    c.close("y", y);
  }

 private:
  uint32_t n_ = 0, m_ = 0, pitch_ = 0;
  Shared<float> a_, b_, x_;
};

}  // namespace

std::unique_ptr<Workload> make_gesummv() { return std::make_unique<Gesummv>(); }

}  // namespace l1d::sim::wl
