// gaussian (GE, Rodinia Gaussian elimination): forward elimination of A x = b (A N x N floats,
// diagonally dominant: no pivoting needed), two kernels per column t as in Rodinia:
//   Fan1, thread i < N-1-t:  m[i+t+1][t] = a[i+t+1][t] / a[t][t]
//   Fan2, 4 x 4 CTAs, x = row (threadIdx.x: lanes walk down a column, uncoalesced), y = column:
//         a[x+1+t][y+t] -= m[x+1+t][t] * a[t][y+t];  if (y == 0) b[x+1+t] -= m[x+1+t][t] * b[t]
//         Rodinia's grid at every pivot: ceil(N / 4) x ceil(N / 4) CTAs, its threads with x >= N-1-t
//         or y >= N-t returning at once (issue 21: until branch workloads11 ours launched only the
//         trailing ceil((N-1-t) / 4) x ceil((N-t) / 4), shrinking to 1 CTA)
// The back substitution runs on the host in Rodinia too. Regular (affine addresses).
// Small on a device whose one-warp CTA slots exceed small's Fan2 grid (issue 21: gtx480 holds 720
// of the 28 x 28 = 784 at N = 112; qv100 80 x 64 = 5120, a100 108 x 64 = 6912) runs the least N,
// a multiple of 4, whose Fan2 grid fills them (qv100 N = 288: 72 x 72 = 5184 CTAs; a100 N = 336:
// 84 x 84 = 7056) and only its first kFilledPivots pivots (a shorter run at the filling grid: the
// check compares m, a and b after those pivots). Test runs N = 108, the least multiple of 4 whose
// Fan2 grid fills gtx480 (27 x 27 = 729 CTAs; test inputs are not sized by the device), and its
// first kTestPivots pivots (was N = 24, 36 CTAs, all 23 pivots).
#include <algorithm>
#include <cmath>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kXy = 4;  // Rodinia's BLOCK_SIZE_XY
// Rodinia 3.1 gaussian.cu: Fan1<<<ceil(Size / MAXBLOCKSIZE), MAXBLOCKSIZE>>>, MAXBLOCKSIZE = 512,
// at every pivot: 1 CTA at its published matrices (matrix4, matrix208: Size <= 512) and at ours.
constexpr uint32_t kRodiniaFan1Ctas = (208 + 511) / 512;
constexpr uint32_t kTestN = 108;        // test (Fan2: 729 CTAs at every pivot, gtx480 holds 720)
constexpr uint32_t kTestPivots = 2;     // test's pivots
constexpr uint32_t kSmallN = 112;       // small on gtx480 (Fan2: 784 CTAs at every pivot)
constexpr uint32_t kFilledPivots = 8;   // small's pivots where N is sized by a larger device

class Gaussian final : public GeneratedWorkload {
 public:
  std::string name() const override { return "gaussian"; }
  std::string description() const override { return "Rodinia Gaussian elimination, Fan1 / Fan2 per column"; }
  WorkloadInfo info() const override {
    std::string in;
    if (n_) in = std::to_string(n_) + " x " + std::to_string(n_) + " floats";
    if (n_ && pivots_ + 1 < n_) in += ", its first " + std::to_string(pivots_) + " pivots";
    return {false, false, "Rodinia (GE)", in, ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    uint32_t n = by_scale(scale, kTestN, kSmallN, 256u);
    if (scale == WorkloadScale::kSmall) {
      uint32_t side = (kSmallN + kXy - 1) / kXy;  // Fan2's ceil(N / 4) CTAs a side
      while (uint64_t{side} * side < fill_ctas(1)) ++side;
      n = std::max(n, side * kXy);
    }
    const uint32_t pivots = scale == WorkloadScale::kTest                       ? kTestPivots
                            : scale == WorkloadScale::kSmall && n != kSmallN ? kFilledPivots
                                                                              : n - 1;
    Rng rng(mix_seed(seed, "gaussian"));
    std::vector<float> a = uniform_floats(rng, uint64_t{n} * n, -1.0f, 1.0f), b = uniform_floats(rng, n);
    for (uint64_t i = 0; i < n; ++i) a[i * n + i] = static_cast<float>(n);  // diagonally dominant
    n_ = n, pivots_ = pivots, a0_ = share(a), b0_ = share(b);
    const Addr a_base = layout_.array(mem, "a", a), b_base = layout_.array(mem, "b", b);
    const Addr m_base = layout_.array(mem, "m", std::vector<float>(a.size(), 0.0f));
    std::vector<float> mm(a.size(), 0.0f);

    KernelCode k1(kFirstKernelPc);
    const StaticOp tid1 = k1.alu(kLatIntMad), guard1 = k1.alu(kLatInt), ld_a = k1.load(4), ld_d = k1.load(4);
    const StaticOp div = k1.alu(20), st_m = k1.store(4), exit1 = k1.exit();
    KernelCode k2 = k1.next_kernel();
    const StaticOp tid2 = k2.alu(kLatIntMad), guard2 = k2.alu(kLatInt), ld_m = k2.load(4), ld_at = k2.load(4);
    const StaticOp ld_ax = k2.load(4), fma = k2.alu(kLatFma), st_a = k2.store(4), test = k2.alu(kLatInt);
    const StaticOp ld_m2 = k2.load(4), ld_bt = k2.load(4), ld_bx = k2.load(4), fma2 = k2.alu(kLatFma);
    const StaticOp st_b = k2.store(4), exit2 = k2.exit();
    const auto at = [](Addr base, uint64_t e) { return base + 4 * e; };
    for (uint32_t t = 0; t < pivots; ++t) {
      const uint32_t rows = n - 1 - t, cols = n - t;
      std::vector<float> mcol(n, 0.0f);  // column t of m
      for (uint64_t i = t + 1; i < n; ++i) mcol[i] = mm[i * n + t] = a[i * n + t] / a[uint64_t{t} * n + t];
      auto m_now = share(mcol);
      add_kernel("Fan1", rows, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(rows);
        const auto row = [&](uint32_t l) { return w.global_id(l) + t + 1; };
        s.alu(tid1, w.mask_below(UINT64_MAX));
        s.alu(guard1, w.mask_below(UINT64_MAX));
        s.load(ld_a, m, [&](uint32_t l) { return at(a_base, row(l) * n + t); });
        s.load(ld_d, m, [&](uint32_t) { return at(a_base, uint64_t{t} * n + t); });
        s.alu(div, m);
        s.store(st_m, m, [&](uint32_t l) { return LaneWrite{at(m_base, row(l) * n + t), bits((*m_now)[row(l)])}; });
        s.exit(exit1);
      });
      published(kRodiniaFan1Ctas,
                "Rodinia 3.1 gaussian.cu: Fan1 grid = ceil(Size / 512) = 1 CTA at every pivot for Size <= 512 "
                "(matrix4, matrix208)");
      for (uint64_t i = t + 1; i < n; ++i) {
        for (uint64_t j = t; j < n; ++j) a[i * n + j] = std::fma(-mm[i * n + t], a[uint64_t{t} * n + j], a[i * n + j]);
        b[i] = std::fma(-mm[i * n + t], b[t], b[i]);
      }
      auto a_now = share(a), b_now = share(b);
      // Rodinia's dimGridXY at every pivot: ceil(Size / 4) x ceil(Size / 4) CTAs, whose threads
      // outside the trailing rows x cols block return at once (an idle CTA: the two guards, exit).
      const uint32_t gx = (n + kXy - 1) / kXy, gy = gx;
      add_kernel(
          "Fan2", uint64_t{gx} * gy * kXy * kXy,
          [=](WarpStream& s, const WarpCoords& w) {
            const auto x = [&](uint32_t l) { return uint64_t{w.cta % gx} * kXy + w.thread_in_cta(l) % kXy; };
            const auto y = [&](uint32_t l) { return uint64_t{w.cta / gx} * kXy + w.thread_in_cta(l) / kXy; };
            const uint32_t all = w.mask_below(UINT64_MAX),
                           m = lanes_where(all, [&](uint32_t l) { return x(l) < rows && y(l) < cols; });
            const auto e = [&](uint32_t l) { return (x(l) + 1 + t) * n + y(l) + t; };
            s.alu(tid2, all);
            s.alu(guard2, all);
            s.load(ld_m, m, [&](uint32_t l) { return at(m_base, (x(l) + 1 + t) * n + t); });
            s.load(ld_at, m, [&](uint32_t l) { return at(a_base, uint64_t{t} * n + y(l) + t); });
            s.load(ld_ax, m, [&](uint32_t l) { return at(a_base, e(l)); });
            s.alu(fma, m);
            s.store(st_a, m, [&](uint32_t l) { return LaneWrite{at(a_base, e(l)), bits((*a_now)[e(l)])}; });
            s.alu(test, m);
            const uint32_t first = lanes_where(m, [&](uint32_t l) { return y(l) == 0; });
            s.load(ld_m2, first, [&](uint32_t l) { return at(m_base, (x(l) + 1 + t) * n + t); });
            s.load(ld_bt, first, [&](uint32_t) { return at(b_base, t); });
            s.load(ld_bx, first, [&](uint32_t l) { return at(b_base, x(l) + 1 + t); });
            s.alu(fma2, first);
            s.store(st_b, first, [&](uint32_t l) {
              return LaneWrite{at(b_base, x(l) + 1 + t), bits((*b_now)[x(l) + 1 + t])};
            });
            s.exit(exit2);
          },
          kXy * kXy);
    }
  }

 protected:
  // The same elimination (its first pivots_ pivots) in double; a and b after it, and the multipliers m.
  void check(ResultCheck& c) const override {
    const uint64_t n = n_;
    std::vector<double> a(a0_->begin(), a0_->end()), b(b0_->begin(), b0_->end()), m(a.size(), 0.0);
    for (uint64_t t = 0; t < pivots_; ++t) {
      for (uint64_t i = t + 1; i < n; ++i) {
        m[i * n + t] = a[i * n + t] / a[t * n + t];
        for (uint64_t j = t; j < n; ++j) a[i * n + j] -= m[i * n + t] * a[t * n + j];
        b[i] -= m[i * n + t] * b[t];
      }
    }
    c.close("m", m, 1e-3, 1e-4);
    c.close("a", a, 1e-3, 1e-3);
    c.close("b", b, 1e-3, 1e-3);
  }

 private:
  uint32_t n_ = 0, pivots_ = 0;  // pivots_: the eliminations run (n_ - 1 but on a filled small)
  Shared<float> a0_, b0_;
};

}  // namespace

std::unique_ptr<Workload> make_gaussian() { return std::make_unique<Gaussian>(); }

}  // namespace l1d::sim::wl
