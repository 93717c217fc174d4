// hotspot (HP, Rodinia HotSpot): transient chip temperature on an N x N grid, one thread per
// cell, ping-pong temperature arrays, one kernel per time step:
//   t = T[c]; tN, tS, tW, tE = T at the neighbours (clamped at the border)
//   T'[c] = t + step/Cap * (P[c] + (tS + tN - 2t) / Ry + (tE + tW - 2t) / Rx + (amb - t) / Rz)
// Rodinia's constants (0.5 mm chip, 16 mm x 16 mm, ...). Rodinia stages pyramid tiles in shared
// memory; this is the global-memory form of the same stencil (the loads Rodinia's tile fill
// makes, per step): row-major, a warp covers 32 cells of a row, the N/S loads reuse lines of
// the neighbouring warps. Regular.
#include <algorithm>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

struct Coeffs {
  float step_div_cap, rx_1, ry_1, rz_1, amb;
};

Coeffs coeffs(uint32_t n) {  // Rodinia hotspot.cu
  const double t_chip = 0.0005, chip = 0.016, k_si = 100, spec_heat = 1.75e6, factor = 0.5;
  const double gw = chip / n, gh = chip / n;
  const double cap = factor * spec_heat * t_chip * gw * gh;
  const double rx = gw / (2.0 * k_si * t_chip * gh), ry = gh / (2.0 * k_si * t_chip * gw),
               rz = t_chip / (k_si * gh * gw);
  const double step = 0.001 / (3.0e6 / (factor * t_chip * spec_heat));
  return {static_cast<float>(step / cap), static_cast<float>(1 / rx), static_cast<float>(1 / ry),
          static_cast<float>(1 / rz), 80.0f};
}

class Hotspot final : public GeneratedWorkload {
 public:
  std::string name() const override { return "hotspot"; }
  std::string description() const override { return "Rodinia HotSpot 5-point thermal stencil, ping-pong grids"; }
  WorkloadInfo info() const override {
    return {false, false, "Rodinia (HP)",
            n_ ? std::to_string(n_) + " x " + std::to_string(n_) + " grid, " + std::to_string(steps_) + " steps" : "",
            ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    uint32_t n = by_scale(scale, 160u, 256u, 1024u), steps = by_scale(scale, 1u, 8u, 20u);
    // Small on a device that 256 x 256 (256 CTAs a step) does not fill (issue 21): the least grid
    // that does (fill_square_side: qv100 416 x 416, a100 480 x 480), with the steps cut
    // so that the cell-steps stay about small's 256 x 256 x 8 (qv100 3, a100 2).
    if (scale == WorkloadScale::kSmall && uint64_t{n} * n / kCtaThreads < fill_ctas(8)) {
      n = fill_square_side(fill_ctas(8));
      steps = std::max(1u, static_cast<uint32_t>(8.0 * 256 * 256 / (static_cast<double>(n) * n) + 0.5));
    }
    Rng rng(mix_seed(seed, "hotspot"));
    std::vector<float> t = uniform_floats(rng, uint64_t{n} * n, 323.0f, 343.0f);
    auto p = share(uniform_floats(rng, uint64_t{n} * n, 0.0f, 0.002f));
    n_ = n, steps_ = steps, t0_ = share(t), p_ = p;
    const Addr p_base = layout_.array(mem, "power", *p);
    const Addr t_base[2] = {layout_.array(mem, "temp_a", t),
                            layout_.array(mem, "temp_b", std::vector<float>(t.size(), 0.0f))};
    const Coeffs k = coeffs(n);

    KernelCode code(kFirstKernelPc);
    const StaticOp tid = code.alu(kLatIntMad), idx = code.alu(kLatInt), clamp = code.alu(kLatInt);
    const StaticOp ld_p = code.load(4), ld_c = code.load(4), ld_n = code.load(4), ld_s = code.load(4);
    const StaticOp ld_w = code.load(4), ld_e = code.load(4);
    const StaticOp f1 = code.alu(kLatFp), f2 = code.alu(kLatFma), f3 = code.alu(kLatFma), f4 = code.alu(kLatFma);
    const StaticOp f5 = code.alu(kLatFma), st = code.store(4), exit = code.exit();
    for (uint32_t step = 0; step < steps; ++step) {
      auto cur = share(t);
      t = next(*cur, *p, n, k);
      auto nxt = share(t);
      const Addr src = t_base[step % 2], dst = t_base[1 - step % 2];
      add_kernel("calculate_temp", uint64_t{n} * n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(uint64_t{n} * n);
        const auto nb = [&](uint32_t l, int dr, int dc) { return src + 4 * neighbour(w.global_id(l), n, dr, dc); };
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(idx, m);
        s.alu(clamp, m);
        s.load(ld_p, m, [&](uint32_t l) { return p_base + 4 * w.global_id(l); });
        s.load(ld_c, m, [&](uint32_t l) { return nb(l, 0, 0); });
        s.load(ld_n, m, [&](uint32_t l) { return nb(l, -1, 0); });
        s.load(ld_s, m, [&](uint32_t l) { return nb(l, 1, 0); });
        s.load(ld_w, m, [&](uint32_t l) { return nb(l, 0, -1); });
        s.load(ld_e, m, [&](uint32_t l) { return nb(l, 0, 1); });
        for (const StaticOp& op : {f1, f2, f3, f4, f5}) s.alu(op, m);
        s.store(st, m, [&](uint32_t l) { return LaneWrite{dst + 4 * w.global_id(l), bits((*nxt)[w.global_id(l)])}; });
        s.exit(exit);
      });
    }
  }

 protected:
  // Reference in double; after the last step the result is in temp_b (even steps) or temp_a.
  void check(ResultCheck& c) const override {
    const uint64_t cells = uint64_t{n_} * n_;
    const Coeffs k = coeffs(n_);
    std::vector<double> t(t0_->begin(), t0_->end()), u(cells), prev = t;
    for (uint32_t step = 0; step < steps_; ++step) {
      for (uint64_t i = 0; i < cells; ++i) {
        const double tc = t[i], tn = t[neighbour(i, n_, -1, 0)], ts = t[neighbour(i, n_, 1, 0)];
        const double tw = t[neighbour(i, n_, 0, -1)], te = t[neighbour(i, n_, 0, 1)];
        u[i] = tc + static_cast<double>(k.step_div_cap) *
                        ((*p_)[i] + (ts + tn - 2 * tc) * k.ry_1 + (te + tw - 2 * tc) * k.rx_1 + (k.amb - tc) * k.rz_1);
      }
      prev = t;
      t.swap(u);
    }
    c.close(steps_ % 2 == 1 ? "temp_b" : "temp_a", t, 1e-5, 1e-3);
    if (steps_ >= 2) c.close(steps_ % 2 == 1 ? "temp_a" : "temp_b", prev, 1e-5, 1e-3);
  }

 private:
  static uint64_t neighbour(uint64_t i, uint32_t n, int dr, int dc) {
    const auto r = static_cast<int64_t>(i / n) + dr, col = static_cast<int64_t>(i % n) + dc;
    const int64_t last = static_cast<int64_t>(n) - 1;
    return static_cast<uint64_t>(std::clamp<int64_t>(r, 0, last) * n + std::clamp<int64_t>(col, 0, last));
  }
  // One step with the kernel's float arithmetic.
  static std::vector<float> next(const std::vector<float>& t, const std::vector<float>& p, uint32_t n,
                                 const Coeffs& k) {
    std::vector<float> u(t.size());
    for (uint64_t i = 0; i < t.size(); ++i) {
      const float tc = t[i], tn = t[neighbour(i, n, -1, 0)], ts = t[neighbour(i, n, 1, 0)];
      const float tw = t[neighbour(i, n, 0, -1)], te = t[neighbour(i, n, 0, 1)];
      u[i] = tc + k.step_div_cap *
                      (p[i] + (ts + tn - 2.0f * tc) * k.ry_1 + (te + tw - 2.0f * tc) * k.rx_1 + (k.amb - tc) * k.rz_1);
    }
    return u;
  }

  uint32_t n_ = 0, steps_ = 0;
  Shared<float> t0_, p_;
};

}  // namespace

std::unique_ptr<Workload> make_hotspot() { return std::make_unique<Hotspot>(); }

}  // namespace l1d::sim::wl
