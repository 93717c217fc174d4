// srad (SRAD, Rodinia SRAD v2): speckle-reducing anisotropic diffusion of an N x N image J,
// two kernels per iteration, one thread per pixel (neighbours clamped at the border):
//   srad_cuda_1:  dN, dS, dW, dE = J[neighbour] - J[c];  G2 = sum d^2 / J^2;  L = sum d / J
//                 q2 = (G2/2 - L^2/16) / (1 + L/4)^2;  c = clamp(1 / (1 + (q2 - q0^2) / (q0^2 (1 + q0^2))), 0, 1)
//                 store C, dN, dS, dW, dE
//   srad_cuda_2:  D = C[c] dN + C[south] dS + C[c] dW + C[east] dE;  J[c] += lambda / 4 * D
// q0^2 (the speckle scale) comes from the mean and variance of a region of interest, computed
// by the host before each iteration as in Rodinia. Regular.
#include <algorithm>
#include <cmath>
#include <utility>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr double kLambda = 0.5;
constexpr std::pair<int, int> kNeighbours[4] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};  // N, S, W, E

// One iteration in precision T (float: the kernels' values; double: the check). d = {C, N, S, W, E}.
template <typename T>
void iterate(std::vector<T>& j, std::array<std::vector<T>, 5>& d, uint32_t n) {
  const auto nb = [n](uint64_t i, int dr, int dc) {
    const int64_t last = n - 1;
    return static_cast<uint64_t>(std::clamp<int64_t>(static_cast<int64_t>(i / n) + dr, 0, last) * n +
                                 std::clamp<int64_t>(static_cast<int64_t>(i % n) + dc, 0, last));
  };
  T sum = 0, sum2 = 0;  // region of interest: the top-left quarter
  for (uint64_t r = 0; r < n / 2; ++r)
    for (uint64_t c = 0; c < n / 2; ++c) sum += j[r * n + c], sum2 += j[r * n + c] * j[r * n + c];
  const T cells = static_cast<T>(n / 2) * static_cast<T>(n / 2), mean = sum / cells;
  const T q0 = (sum2 / cells - mean * mean) / (mean * mean);
  for (auto& v : d) v.assign(j.size(), T(0));
  for (uint64_t i = 0; i < j.size(); ++i) {
    const T jc = j[i], dn = j[nb(i, -1, 0)] - jc, ds = j[nb(i, 1, 0)] - jc, dw = j[nb(i, 0, -1)] - jc,
            de = j[nb(i, 0, 1)] - jc;
    const T g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc), l = (dn + ds + dw + de) / jc;
    const T num = T(0.5) * g2 - T(1.0 / 16.0) * l * l, den = T(1) + T(0.25) * l, q2 = num / (den * den);
    d[0][i] = std::clamp(T(1) / (T(1) + (q2 - q0) / (q0 * (T(1) + q0))), T(0), T(1));
    d[1][i] = dn, d[2][i] = ds, d[3][i] = dw, d[4][i] = de;
  }
  for (uint64_t i = 0; i < j.size(); ++i) {
    const T div = d[0][i] * d[1][i] + d[0][nb(i, 1, 0)] * d[2][i] + d[0][i] * d[3][i] + d[0][nb(i, 0, 1)] * d[4][i];
    j[i] = j[i] + T(0.25 * kLambda) * div;
  }
}

class Srad final : public GeneratedWorkload {
 public:
  std::string name() const override { return "srad"; }
  std::string description() const override {
    return "Rodinia SRAD v2 speckle-reducing diffusion, two kernels per iteration";
  }
  WorkloadInfo info() const override {
    return {
        false, false, "Rodinia (SRAD)",
        n_ ? std::to_string(n_) + " x " + std::to_string(n_) + " image, " + std::to_string(iters_) + " iterations" : "",
        ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    uint32_t n = by_scale(scale, 160u, 256u, 1024u), iters = by_scale(scale, 1u, 3u, 10u);
    // Small on a device that 256 x 256 (256 CTAs a kernel) does not fill (issue 21): the least
    // image that does (fill_square_side: qv100 416 x 416, a100 480 x 480), one iteration
    // (its two kernels) instead of 3, so that the pixel-iterations stay about small's.
    if (scale == WorkloadScale::kSmall && uint64_t{n} * n / kCtaThreads < fill_ctas(8)) {
      n = fill_square_side(fill_ctas(8));
      iters = std::max(1u, static_cast<uint32_t>(3.0 * 256 * 256 / (static_cast<double>(n) * n) + 0.5));
    }
    Rng rng(mix_seed(seed, "srad"));
    std::vector<float> j = uniform_floats(rng, uint64_t{n} * n);
    for (float& v : j) v = std::exp(v);  // Rodinia: J = exp(image)
    n_ = n, iters_ = iters, j0_ = share(j);
    const Addr j_base = layout_.array(mem, "J", j);
    const char* names[5] = {"C", "dN", "dS", "dW", "dE"};
    Addr d_base[5];
    for (int i = 0; i < 5; ++i) d_base[i] = layout_.array(mem, names[i], std::vector<float>(j.size(), 0.0f));
    const auto at = [](Addr base, uint64_t e) { return base + 4 * e; };

    KernelCode k1(kFirstKernelPc);
    const StaticOp idx = k1.alu(kLatIntMad), nbr = k1.alu(kLatInt), ld_c = k1.load(4), ld_nb = k1.load(4);
    const StaticOp sub = k1.alu(kLatFp), math = k1.alu(kLatFma), div = k1.alu(20), st = k1.store(4), exit1 = k1.exit();
    KernelCode k2 = k1.next_kernel();
    const StaticOp idx2 = k2.alu(kLatIntMad), nbr2 = k2.alu(kLatInt), ld_cc = k2.load(4), ld_cs = k2.load(4);
    const StaticOp ld_ce = k2.load(4), ld_d = k2.load(4), fma = k2.alu(kLatFma), ld_j = k2.load(4);
    const StaticOp upd = k2.alu(kLatFma), st_j = k2.store(4), exit2 = k2.exit();
    for (uint32_t it = 0; it < iters; ++it) {
      std::array<std::vector<float>, 5> d;
      iterate(j, d, n);
      std::array<Shared<float>, 5> ds;
      for (int i = 0; i < 5; ++i) ds[i] = share(std::move(d[i]));
      auto jn = share(j);
      const auto nb = [n](uint64_t i, int dr, int dc) {
        const int64_t last = n - 1;
        return static_cast<uint64_t>(std::clamp<int64_t>(static_cast<int64_t>(i / n) + dr, 0, last) * n +
                                     std::clamp<int64_t>(static_cast<int64_t>(i % n) + dc, 0, last));
      };
      add_kernel("srad_cuda_1", uint64_t{n} * n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(uint64_t{n} * n);
        s.alu(idx, m);
        s.alu(nbr, m);
        s.load(ld_c, m, [&](uint32_t l) { return at(j_base, w.global_id(l)); });
        for (const auto& [dr, dc] : kNeighbours) {
          s.load(ld_nb, m, [&, dr = dr, dc = dc](uint32_t l) { return at(j_base, nb(w.global_id(l), dr, dc)); });
          s.alu(sub, m);
        }
        for (int i = 0; i < 8; ++i) s.alu(math, m);
        s.alu(div, m);
        for (int i = 0; i < 5; ++i)
          s.store(st, m, [&](uint32_t l) {
            return LaneWrite{at(d_base[i], w.global_id(l)), bits((*ds[i])[w.global_id(l)])};
          });
        s.exit(exit1);
      });
      add_kernel("srad_cuda_2", uint64_t{n} * n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(uint64_t{n} * n);
        s.alu(idx2, m);
        s.alu(nbr2, m);
        s.load(ld_cc, m, [&](uint32_t l) { return at(d_base[0], w.global_id(l)); });
        s.load(ld_cs, m, [&](uint32_t l) { return at(d_base[0], nb(w.global_id(l), 1, 0)); });
        s.load(ld_ce, m, [&](uint32_t l) { return at(d_base[0], nb(w.global_id(l), 0, 1)); });
        for (int i = 1; i < 5; ++i) {
          s.load(ld_d, m, [&](uint32_t l) { return at(d_base[i], w.global_id(l)); });
          s.alu(fma, m);
        }
        s.load(ld_j, m, [&](uint32_t l) { return at(j_base, w.global_id(l)); });
        s.alu(upd, m);
        s.store(st_j, m, [&](uint32_t l) {
          return LaneWrite{at(j_base, w.global_id(l)), bits((*jn)[w.global_id(l)])};
        });
        s.exit(exit2);
      });
    }
  }

 protected:
  void check(ResultCheck& c) const override {
    std::vector<double> j(j0_->begin(), j0_->end());
    std::array<std::vector<double>, 5> d;
    for (uint32_t it = 0; it < iters_; ++it) iterate(j, d, n_);
    c.close("J", j, 1e-3, 1e-4);
    c.close("C", d[0], 1e-3, 1e-3);
    c.close("dE", d[4], 1e-3, 1e-3);
  }

 private:
  uint32_t n_ = 0, iters_ = 0;
  Shared<float> j0_;
};

}  // namespace

std::unique_ptr<Workload> make_srad() { return std::make_unique<Srad>(); }

}  // namespace l1d::sim::wl
