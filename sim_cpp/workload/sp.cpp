// sp (SP, survey propagation as in LonestarGPU): the message passing of the SAT heuristic on a
// random 3-SAT formula (N variables, 4.2 N clauses: the hard ratio; distinct variables per
// clause, random signs). Edge e = 3a + k is literal k of clause a: lit[e] = 2 var + negated;
// occ lists each variable's edges (2 e + negated, CSR by variable, increasing e). The surveys
// eta[e] (clause a -> its variable) start random in [0, 1); each iteration is two kernels, as
// LonestarGPU's literal and clause updates, reading one eta array and writing the other:
//   sp_update_pi, thread v: over v's occurrences, per sign: prod *= 1 - eta[e], or count it
//     when it is 0 (so that an edge can be divided out later): pi[v] = (pos, neg) and
//     zeros[v] = (pos, neg), float2 / int2
//   sp_update_eta, thread a: for each literal k: the products of v's other occurrences, same
//     sign as in a (own factor divided out) and opposite sign: S, O;
//     Pu = (1 - O) S, Ps = (1 - S) O, P0 = S O, r[k] = Pu / (Pu + Ps + P0)
//     eta'[3a + k] = product of r over the clause's other two literals
// A fixed number of iterations (LonestarGPU iterates until the largest change is below a bound,
// then fixes variables and repeats). Gathers through lit and occ: irregular.
// Issue 21: small has 5485 variables = 23037 clauses = 90 CTAs of 8 warps for sp_update_eta, the
// 6 per SM that fill gtx480's 15 SMs (2048 variables launched 34), and 2 iterations (was 6).
// sp_update_pi, one thread per variable, then has 5485 / 256 = 22 CTAs: at the hard ratio of 4.2
// clauses per variable, filling it too needs 23040 variables (97 K clauses), 2.3 s of CPU for one
// iteration (3.6x the old input; 18.0 resident warps per scheduler). Test stays 256 variables.
#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kK = 3;  // literals per clause

struct Pi {
  std::vector<float> pos, neg;
  std::vector<int32_t> zpos, zneg;
};

// The product over a variable's other occurrences of one sign: (prod, zeros) include the own
// factor 1 - eta, which is divided out.
float cavity(float prod, int32_t zeros, float eta) {
  const float f = 1.0f - eta;
  if (f == 0.0f) return zeros > 1 ? 0.0f : prod;
  return zeros > 0 ? 0.0f : prod / f;
}

// r of literal (v, negated) of a clause whose survey to v is eta.
float ratio(const Pi& pi, uint32_t v, bool negated, float eta) {
  const float same = negated ? cavity(pi.neg[v], pi.zneg[v], eta) : cavity(pi.pos[v], pi.zpos[v], eta);
  const float opp = (negated ? pi.zpos[v] : pi.zneg[v]) > 0 ? 0.0f : negated ? pi.pos[v] : pi.neg[v];
  const float pu = (1.0f - opp) * same, ps = (1.0f - same) * opp, p0 = same * opp;
  const float den = pu + ps + p0;
  return den > 0.0f ? pu / den : 0.0f;
}

// The new surveys from the products (clause by clause).
std::vector<float> surveys(const Pi& pi, const std::vector<int32_t>& lit, const std::vector<float>& eta) {
  std::vector<float> next(eta.size());
  for (size_t a = 0; a < lit.size() / kK; ++a) {
    float r[kK];
    for (uint32_t k = 0; k < kK; ++k) {
      const size_t e = kK * a + k;
      r[k] = ratio(pi, static_cast<uint32_t>(lit[e] / 2), lit[e] % 2 != 0, eta[e]);
    }
    next[kK * a] = r[1] * r[2], next[kK * a + 1] = r[0] * r[2], next[kK * a + 2] = r[0] * r[1];
  }
  return next;
}

// The reference's products: a scatter over the edges, in increasing order (each variable's
// factors in the order of its occurrence list, as the kernel's gather multiplies them).
Pi scatter_products(uint32_t n, const std::vector<int32_t>& lit, const std::vector<float>& eta) {
  Pi pi{std::vector<float>(n, 1.0f), std::vector<float>(n, 1.0f), std::vector<int32_t>(n, 0),
        std::vector<int32_t>(n, 0)};
  for (size_t e = 0; e < lit.size(); ++e) {
    const auto v = static_cast<uint32_t>(lit[e] / 2);
    const bool neg = lit[e] % 2 != 0;
    const float f = 1.0f - eta[e];
    if (f == 0.0f) {
      ++(neg ? pi.zneg : pi.zpos)[v];
    } else {
      (neg ? pi.neg : pi.pos)[v] *= f;
    }
  }
  return pi;
}

class Sp final : public GeneratedWorkload {
 public:
  std::string name() const override { return "sp"; }
  std::string description() const override { return "survey propagation on a random 3-SAT formula (LonestarGPU SP)"; }
  WorkloadInfo info() const override {
    return {true, true, "LonestarGPU (SP)",
            lit_ ? std::to_string(n_) + " variables, " + std::to_string(lit_->size() / kK) + " 3-SAT clauses, " +
                       std::to_string(iters_) + " iterations"
                 : "",
            ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t n = by_scale(scale, 256u, 5485u, 65536u), m = n * 21 / 5;
    iters_ = by_scale(scale, 2u, 2u, 20u), n_ = n;
    Rng rng(mix_seed(seed, "sp"));
    std::vector<int32_t> lit(uint64_t{kK} * m);
    for (uint32_t a = 0; a < m; ++a) {
      for (uint32_t k = 0; k < kK; ++k) {
        uint32_t v = 0;
        do {  // distinct variables in a clause
          v = static_cast<uint32_t>(rng.below(n));
        } while ((k > 0 && lit[kK * a] / 2 == static_cast<int32_t>(v)) ||
                 (k > 1 && lit[kK * a + 1] / 2 == static_cast<int32_t>(v)));
        lit[kK * a + k] = static_cast<int32_t>(2 * v + rng.below(2));
      }
    }
    std::vector<int32_t> ptr(n + 1, 0), occ(lit.size());
    for (int32_t l : lit) ++ptr[static_cast<uint32_t>(l / 2) + 1];
    for (uint32_t v = 0; v < n; ++v) ptr[v + 1] += ptr[v];
    std::vector<int32_t> fill(ptr.begin(), ptr.end() - 1);
    for (size_t e = 0; e < lit.size(); ++e)
      occ[static_cast<size_t>(fill[static_cast<uint32_t>(lit[e] / 2)]++)] = static_cast<int32_t>(2 * e) + lit[e] % 2;
    auto eta0 = uniform_floats(rng, lit.size());
    lit_ = share(lit), eta0_ = share(eta0);
    auto lit_s = lit_, ptr_s = share(ptr), occ_s = share(occ);

    const Addr lit_base = layout_.array(mem, "lit", lit), ptr_base = layout_.array(mem, "var_ptr", ptr);
    const Addr occ_base = layout_.array(mem, "occ", occ);
    const Addr eta_base[2] = {layout_.array(mem, "eta_a", eta0),
                              layout_.array(mem, "eta_b", std::vector<float>(lit.size(), 0.0f))};
    // Per variable: (pi_pos, pi_neg) and (zero_pos, zero_neg), 8 B pairs (float2 / int2).
    const Addr pi_base = layout_.array(mem, "pi", std::vector<float>(2 * uint64_t{n}, 0.0f));
    const Addr z_base = layout_.array(mem, "zeros", std::vector<int32_t>(2 * uint64_t{n}, 0));

    KernelCode k1(kFirstKernelPc);
    const StaticOp a_tid = k1.alu(kLatIntMad), a_guard = k1.alu(kLatInt), a_start = k1.load(4), a_end = k1.load(4);
    const StaticOp a_occ = k1.load(4), a_edge = k1.alu(kLatInt), a_eta = k1.load(4), a_sub = k1.alu(kLatFp);
    const StaticOp a_test = k1.alu(kLatInt), a_mul = k1.alu(kLatFp), a_loop = k1.alu(kLatInt);
    const StaticOp a_st_pi = k1.store(8), a_st_z = k1.store(8);
    const StaticOp a_exit = k1.exit();
    KernelCode k2 = k1.next_kernel();
    const StaticOp b_tid = k2.alu(kLatIntMad), b_guard = k2.alu(kLatInt), b_lit = k2.load(4), b_eta = k2.load(4);
    const StaticOp b_var = k2.alu(kLatInt), b_pi = k2.load(8), b_z = k2.load(8);
    const StaticOp b_sel = k2.alu(kLatInt), b_cav = k2.alu(kLatFp), b_pu = k2.alu(kLatFma), b_ps = k2.alu(kLatFma);
    const StaticOp b_den = k2.alu(kLatFp), b_r = k2.alu(kLatFp), b_loop = k2.alu(kLatInt), b_mul = k2.alu(kLatFp);
    const StaticOp b_st = k2.store(4), b_exit = k2.exit();

    std::vector<float> eta = eta0;
    for (uint32_t t = 0; t < iters_; ++t) {
      // The kernel's products: each thread walks its variable's occurrences.
      Pi pi_host{std::vector<float>(n), std::vector<float>(n), std::vector<int32_t>(n), std::vector<int32_t>(n)};
      for (uint32_t v = 0; v < n; ++v) {
        float prod[2] = {1.0f, 1.0f};
        int32_t zeros[2] = {0, 0};
        for (int32_t i = ptr[v]; i < ptr[v + 1]; ++i) {
          const int32_t o = occ[static_cast<size_t>(i)];
          const float f = 1.0f - eta[static_cast<size_t>(o / 2)];
          if (f == 0.0f) {
            ++zeros[o % 2];
          } else {
            prod[o % 2] *= f;
          }
        }
        pi_host.pos[v] = prod[0], pi_host.neg[v] = prod[1], pi_host.zpos[v] = zeros[0], pi_host.zneg[v] = zeros[1];
      }
      std::vector<float> next = surveys(pi_host, lit, eta);
      auto pi = std::make_shared<const Pi>(std::move(pi_host));
      auto nxt = share(next);
      const Addr src = eta_base[t % 2], dst = eta_base[1 - t % 2];
      add_kernel("sp_update_pi", n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t msk = w.mask_below(n);
        const auto v = [&](uint32_t l) { return static_cast<uint32_t>(w.global_id(l)); };
        s.alu(a_tid, w.mask_below(UINT64_MAX));
        s.alu(a_guard, w.mask_below(UINT64_MAX));
        s.load(a_start, msk, [&](uint32_t l) { return ptr_base + 4 * uint64_t{v(l)}; });
        s.load(a_end, msk, [&](uint32_t l) { return ptr_base + 4 * (uint64_t{v(l)} + 1); });
        simt_loop(
            msk, [&](uint32_t l) { return (*ptr_s)[v(l) + 1] - (*ptr_s)[v(l)]; },
            [&](int64_t i, uint32_t am) {
              const auto o = [&](uint32_t l) { return static_cast<uint64_t>((*ptr_s)[v(l)] + i); };
              s.load(a_occ, am, [&](uint32_t l) { return occ_base + 4 * o(l); });
              s.alu(a_edge, am);
              s.load(a_eta, am, [&](uint32_t l) { return src + 4 * static_cast<uint64_t>((*occ_s)[o(l)] / 2); });
              s.alu(a_sub, am);
              s.alu(a_test, am);
              s.alu(a_mul, am);
              s.alu(a_loop, am);
            });
        s.store(a_st_pi, msk, [&](uint32_t l) {
          return LaneWrite{pi_base + 8 * uint64_t{v(l)}, bits(pi->neg[v(l)]) << 32 | bits(pi->pos[v(l)])};
        });
        s.store(a_st_z, msk, [&](uint32_t l) {
          return LaneWrite{z_base + 8 * uint64_t{v(l)}, bits(pi->zneg[v(l)]) << 32 | bits(pi->zpos[v(l)])};
        });
        s.exit(a_exit);
      });
      add_kernel("sp_update_eta", m, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t msk = w.mask_below(m);
        const auto e = [&](uint32_t l, uint32_t k) { return kK * w.global_id(l) + k; };
        const auto var = [&](uint32_t l, uint32_t k) { return static_cast<uint64_t>((*lit_s)[e(l, k)] / 2); };
        s.alu(b_tid, w.mask_below(UINT64_MAX));
        s.alu(b_guard, w.mask_below(UINT64_MAX));
        for (uint32_t k = 0; k < kK; ++k) {
          s.load(b_lit, msk, [&](uint32_t l) { return lit_base + 4 * e(l, k); });
          s.load(b_eta, msk, [&](uint32_t l) { return src + 4 * e(l, k); });
          s.alu(b_var, msk);
          s.load(b_pi, msk, [&](uint32_t l) { return pi_base + 8 * var(l, k); });
          s.load(b_z, msk, [&](uint32_t l) { return z_base + 8 * var(l, k); });
          for (const StaticOp& op : {b_sel, b_cav, b_pu, b_ps, b_den, b_r, b_loop}) s.alu(op, msk);
        }
        for (uint32_t k = 0; k < kK; ++k) {
          s.alu(b_mul, msk);
          s.store(b_st, msk, [&](uint32_t l) { return LaneWrite{dst + 4 * e(l, k), bits((*nxt)[e(l, k)])}; });
        }
        s.exit(b_exit);
      });
      eta = std::move(next);
    }
  }

 protected:
  // The iterations again (the same float operations in the same order, the products gathered
  // edge by edge): both eta arrays (the last two iterations) and the last products.
  void check(ResultCheck& c) const override {
    std::vector<float> prev, eta = *eta0_;
    Pi pi;
    for (uint32_t t = 0; t < iters_; ++t) {
      pi = scatter_products(n_, *lit_, eta);
      std::vector<float> next = surveys(pi, *lit_, eta);
      prev = std::move(eta), eta = std::move(next);
    }
    std::vector<float> pairs(2 * uint64_t{n_});
    std::vector<int32_t> zeros(2 * uint64_t{n_});
    for (uint32_t v = 0; v < n_; ++v) {
      pairs[2 * v] = pi.pos[v], pairs[2 * v + 1] = pi.neg[v], zeros[2 * v] = pi.zpos[v], zeros[2 * v + 1] = pi.zneg[v];
    }
    c.exact("pi", pairs);
    c.exact("zeros", zeros);
    c.exact(iters_ % 2 == 1 ? "eta_b" : "eta_a", eta);
    c.exact(iters_ % 2 == 1 ? "eta_a" : "eta_b", prev);
  }

 private:
  uint32_t n_ = 0, iters_ = 0;
  Shared<int32_t> lit_;
  Shared<float> eta0_;
};

}  // namespace

std::unique_ptr<Workload> make_sp() { return std::make_unique<Sp>(); }

}  // namespace l1d::sim::wl
