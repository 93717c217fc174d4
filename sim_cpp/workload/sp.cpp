// sp (SP, survey propagation, LonestarGPU 2.0's nsp): the message passing of the SAT heuristic
// on a random 3-SAT formula (N variables, 4.2 N clauses: the hard ratio; distinct variables per
// clause, random signs). Edge e = 3a + k is literal k of clause a (src[e] = a, dst[e] = its
// variable, bar[e] = negated); the variables' CSR (var_ptr, var_edges) lists each variable's
// edges in increasing order, the clauses' CSR (cl_ptr, cl_edges) each clause's three. The
// surveys eta[e] start random in [0, 1). Each iteration is LonestarGPU's two kernels, both a
// thread per edge in a grid-stride loop (`for (e = id; e < nedges; e += threads)`):
//   calc_pi_values, edge a -> j: over j's edges b -> j, b != a, f = 1 - eta[b]:
//     pi_0 *= f; V_s *= f if bar[b] == bar[e] else V_u *= f
//     pi_0[e] = pi_0; pi_U[e] = (1 - V_u) V_s; pi_S[e] = (1 - V_s) V_u
//   update_eta, edge a -> i: over a's other edges j: new_eta *= pi_U[j] / (pi_0 + pi_S + pi_U)[j]
//     (0 and stop when the sum is 0); eta[e] = new_eta (in place)
// Both kernels also load the clause's and variable's `sat` flags (all false here: no variable
// is fixed). Gathers through the CSR lists: irregular.
// The grid is LonestarGPU's: nSM x maximum_residency(kernel, 384) CTAs of 384 threads (newsp.cu,
// converge()); on gtx480, the dissertation's GPU, 48 warp slots hold 4 CTAs of 12 warps, so 15 x
// 4 = 60 CTAs = 23040 threads, the whole GPU, at every input size (issue 21: the thread per
// variable and per clause of our earlier kernels launched 22 and 90 CTAs at small scale). The
// grid follows the preset's SM count and warp slots (Workload::set_device), as newsp.cu's
// follows the device's: it fills every preset, not only gtx480. Small
// has one edge per thread on every preset (gtx480: 1828 variables; the formula grows with the
// grid, so larger presets are filled by more edges, and small stays shorter than full by its one
// iteration); its mean resident warps per scheduler is about 14 of 24 on gtx480, not 24,
// because GTO runs the oldest warps to completion first: the single wave drains warp by warp,
// as on the real grid (with LRR: 23.8).
// Simplifications: a fixed number of iterations (LonestarGPU iterates until the largest change,
// an atomicMax, is below 0.01, then fixes variables and repeats); no decimation, no WalkSAT.
#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kK = 3;                 // literals per clause
constexpr uint32_t kBlockThreads = 384;  // newsp.cu's block size

struct Formula {
  uint32_t n = 0;                       // variables
  std::vector<int32_t> dst;             // per edge: its variable
  std::vector<uint8_t> bar;             // per edge: negated
  std::vector<int32_t> var_ptr, var_edges;
  uint64_t edges() const { return dst.size(); }
};

struct Messages {
  std::vector<float> pi0, pis, piu, eta;  // pi_* of the last calc_pi_values, eta after update_eta
};

// One iteration in the kernels' float order: calc_pi_values, then update_eta.
Messages iterate(const Formula& f, const std::vector<float>& eta) {
  const uint64_t ne = f.edges();
  Messages out{std::vector<float>(ne), std::vector<float>(ne), std::vector<float>(ne), std::vector<float>(ne)};
  for (uint64_t e = 0; e < ne; ++e) {
    const auto j = static_cast<uint32_t>(f.dst[e]);
    float pi0 = 1.0f, vs = 1.0f, vu = 1.0f;
    for (int32_t i = f.var_ptr[j]; i < f.var_ptr[j + 1]; ++i) {
      const auto b = static_cast<uint64_t>(f.var_edges[static_cast<size_t>(i)]);
      if (b / kK == e / kK) continue;  // b's clause is a
      const float x = 1.0f - eta[b];
      pi0 *= x;
      (f.bar[b] == f.bar[e] ? vs : vu) *= x;
    }
    out.pi0[e] = pi0, out.piu[e] = (1.0f - vu) * vs, out.pis[e] = (1.0f - vs) * vu;
  }
  for (uint64_t e = 0; e < ne; ++e) {
    float next = 1.0f;
    for (uint64_t je = e / kK * kK; je < e / kK * kK + kK; ++je) {
      if (f.dst[je] == f.dst[e]) continue;
      const float sum = out.pi0[je] + out.pis[je] + out.piu[je];
      if (sum == 0.0f) {
        next = 0.0f;
        break;
      }
      next *= out.piu[je] / sum;
    }
    out.eta[e] = next;
  }
  return out;
}

// The edges update_eta's thread visits for edge e before it stops (a zero sum stops it).
uint32_t eta_trips(const Formula& f, const Messages& m, uint64_t e) {
  for (uint32_t k = 0; k < kK; ++k) {
    const uint64_t je = e / kK * kK + k;
    if (f.dst[je] != f.dst[e] && m.pi0[je] + m.pis[je] + m.piu[je] == 0.0f) return k + 1;
  }
  return kK;
}

class Sp final : public GeneratedWorkload {
 public:
  std::string name() const override { return "sp"; }
  std::string description() const override { return "survey propagation on a random 3-SAT formula (LonestarGPU SP)"; }
  WorkloadInfo info() const override {
    return {true, true, "LonestarGPU (SP)",
            f_ ? std::to_string(f_->n) + " variables, " + std::to_string(f_->edges() / kK) + " 3-SAT clauses, " +
                     std::to_string(iters_) + " iterations"
               : "",
            ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    // newsp.cu's grid: nSM x maximum_residency(kernel, 384), here by warp slots (the limit the
    // simulator models): gtx480 15 x 4 = 60 CTAs, gtx1080-jips 56 x 5, qv100 80 x 5.
    const uint64_t threads =
        uint64_t{device_.sms} * std::max(1u, device_.warps_per_sm / (kBlockThreads / 32)) * kBlockThreads;
    // Full (= paper): LonestarGPU's input random-42000-10000-3.cnf, 10000 variables and 42000
    // clauses. Small: as many edges as the grid has threads (12.6 edges a variable: 3 x 4.2), one
    // per thread, so that every preset's grid is full and small is shorter than full by its one
    // iteration, not by idle threads: gtx480 1828 variables (23031 edges of 23040 threads),
    // gtx1080-jips 8533 (107514 of 107520), qv100 12190 (153594 of 153600).
    const uint32_t n = by_scale(scale, 96u, static_cast<uint32_t>(threads * 5 / (kK * 21)), 10000u), m = n * 21 / 5;
    iters_ = by_scale(scale, 1u, 1u, 2u);
    Rng rng(mix_seed(seed, "sp"));
    auto f = std::make_shared<Formula>();
    f->n = n;
    f->dst.resize(uint64_t{kK} * m), f->bar.resize(uint64_t{kK} * m);
    for (uint32_t a = 0; a < m; ++a) {
      for (uint32_t k = 0; k < kK; ++k) {
        uint32_t v = 0;
        do {  // distinct variables in a clause
          v = static_cast<uint32_t>(rng.below(n));
        } while ((k > 0 && f->dst[kK * a] == static_cast<int32_t>(v)) ||
                 (k > 1 && f->dst[kK * a + 1] == static_cast<int32_t>(v)));
        f->dst[kK * a + k] = static_cast<int32_t>(v);
        f->bar[kK * a + k] = static_cast<uint8_t>(rng.below(2));
      }
    }
    f->var_ptr.assign(n + 1, 0);
    for (int32_t v : f->dst) ++f->var_ptr[static_cast<uint32_t>(v) + 1];
    for (uint32_t v = 0; v < n; ++v) f->var_ptr[v + 1] += f->var_ptr[v];
    f->var_edges.resize(f->edges());
    std::vector<int32_t> fill(f->var_ptr.begin(), f->var_ptr.end() - 1);
    for (uint64_t e = 0; e < f->edges(); ++e)
      f->var_edges[static_cast<size_t>(fill[static_cast<uint32_t>(f->dst[e])]++)] = static_cast<int32_t>(e);
    eta0_ = share(uniform_floats(rng, f->edges()));
    f_ = f;
    const uint64_t ne = f->edges();

    // LonestarGPU's allocation order: clauses, variables, edges.
    std::vector<int32_t> cl_ptr(m + 1), cl_edges(ne), src(ne);
    for (uint32_t a = 0; a <= m; ++a) cl_ptr[a] = static_cast<int32_t>(kK * a);
    for (uint64_t e = 0; e < ne; ++e) cl_edges[e] = static_cast<int32_t>(e), src[e] = static_cast<int32_t>(e / kK);
    const Addr cl_ptr_b = layout_.array(mem, "cl_ptr", cl_ptr), cl_edges_b = layout_.array(mem, "cl_edges", cl_edges);
    const Addr cl_sat = layout_.array(mem, "cl_sat", std::vector<uint8_t>(m, 0));
    const Addr var_ptr_b = layout_.array(mem, "var_ptr", f->var_ptr);
    const Addr var_edges_b = layout_.array(mem, "var_edges", f->var_edges);
    const Addr var_sat = layout_.array(mem, "var_sat", std::vector<uint8_t>(n, 0));
    const Addr src_b = layout_.array(mem, "src", src), dst_b = layout_.array(mem, "dst", f->dst);
    const Addr bar_b = layout_.array(mem, "bar", f->bar), eta_b = layout_.array(mem, "eta", *eta0_);
    const Addr pi0_b = layout_.array(mem, "pi_0", std::vector<float>(ne, 0.0f));
    const Addr pis_b = layout_.array(mem, "pi_S", std::vector<float>(ne, 0.0f));
    const Addr piu_b = layout_.array(mem, "pi_U", std::vector<float>(ne, 0.0f));
    const auto w4 = [](Addr base, uint64_t i) { return base + 4 * i; };

    KernelCode k1(kFirstKernelPc);
    const StaticOp a_tid = k1.alu(kLatIntMad), a_loop_e = k1.alu(kLatInt), a_dst = k1.load(4), a_src = k1.load(4);
    const StaticOp a_csat = k1.load(1), a_vsat = k1.load(1), a_start = k1.load(4), a_end = k1.load(4);
    const StaticOp a_bar_e = k1.load(1), a_col = k1.load(4), a_bsrc = k1.load(4), a_bsat = k1.load(1);
    const StaticOp a_ne = k1.alu(kLatInt), a_eta = k1.load(4), a_bar = k1.load(1), a_sub = k1.alu(kLatFp);
    const StaticOp a_mul0 = k1.alu(kLatFp), a_same = k1.alu(kLatInt), a_mul = k1.alu(kLatFp), a_loop = k1.alu(kLatInt);
    const StaticOp a_fin = k1.alu(kLatFma), a_st0 = k1.store(4), a_stu = k1.store(4), a_sts = k1.store(4);
    const StaticOp a_exit = k1.exit();
    KernelCode k2 = k1.next_kernel();
    const StaticOp b_tid = k2.alu(kLatIntMad), b_loop_e = k2.alu(kLatInt), b_src = k2.load(4), b_dst = k2.load(4);
    const StaticOp b_csat = k2.load(1), b_vsat = k2.load(1), b_start = k2.load(4), b_end = k2.load(4);
    const StaticOp b_col = k2.load(4), b_jdst = k2.load(4), b_ne = k2.alu(kLatInt), b_jsat = k2.load(1);
    const StaticOp b_p0 = k2.load(4), b_ps = k2.load(4), b_pu = k2.load(4), b_sum = k2.alu(kLatFp);
    const StaticOp b_zero = k2.alu(kLatInt), b_div = k2.alu(20), b_mul = k2.alu(kLatFp), b_loop = k2.alu(kLatInt);
    const StaticOp b_eta = k2.load(4), b_eps = k2.alu(kLatFp), b_st = k2.store(4), b_exit = k2.exit();

    // A thread's edges: id, id + threads, ... below ne (the grid-stride loop).
    const auto trips = [ne, threads](uint64_t id) { return id < ne ? (ne - id + threads - 1) / threads : 0; };
    std::vector<float> eta = *eta0_;
    for (uint32_t t = 0; t < iters_; ++t) {
      auto msg = std::make_shared<const Messages>(iterate(*f, eta));
      add_kernel("calc_pi_values", threads, [=](WarpStream& s, const WarpCoords& w) {
        s.alu(a_tid, w.mask_below(UINT64_MAX));
        simt_loop(w.mask_below(UINT64_MAX), [&](uint32_t l) { return trips(w.global_id(l)); },
                  [&](int64_t it, uint32_t am) {
          // Per lane of am, computed once (not in every callback): its edge e, e's variable j,
          // and j's edge list [start, start + len) in var_edges.
          std::array<uint64_t, kWarpSize> ev;
          std::array<uint32_t, kWarpSize> jv;
          std::array<int32_t, kWarpSize> start, len;
          for_lanes(am, [&](uint32_t l) {
            ev[l] = w.global_id(l) + static_cast<uint64_t>(it) * threads;
            jv[l] = static_cast<uint32_t>(f->dst[ev[l]]);
            start[l] = f->var_ptr[jv[l]];
            len[l] = f->var_ptr[jv[l] + 1] - start[l];
          });
          const auto e = [&](uint32_t l) { return ev[l]; };
          const auto j = [&](uint32_t l) { return jv[l]; };
          s.alu(a_loop_e, am);
          s.load(a_dst, am, [&](uint32_t l) { return w4(dst_b, e(l)); });
          s.load(a_src, am, [&](uint32_t l) { return w4(src_b, e(l)); });
          s.load(a_csat, am, [&](uint32_t l) { return cl_sat + e(l) / kK; });
          s.load(a_vsat, am, [&](uint32_t l) { return var_sat + j(l); });
          s.load(a_start, am, [&](uint32_t l) { return w4(var_ptr_b, j(l)); });
          s.load(a_end, am, [&](uint32_t l) { return w4(var_ptr_b, j(l) + 1); });
          s.load(a_bar_e, am, [&](uint32_t l) { return bar_b + e(l); });
          simt_loop(am, [&](uint32_t l) { return len[l]; }, [&](int64_t i, uint32_t im) {
            const auto slot = [&](uint32_t l) { return static_cast<uint64_t>(start[l] + i); };
            std::array<uint64_t, kWarpSize> bv;  // per lane of im: the edge b at its slot
            for_lanes(im, [&](uint32_t l) { bv[l] = static_cast<uint64_t>(f->var_edges[slot(l)]); });
            const auto b = [&](uint32_t l) { return bv[l]; };
            s.load(a_col, im, [&](uint32_t l) { return w4(var_edges_b, slot(l)); });
            s.load(a_bsrc, im, [&](uint32_t l) { return w4(src_b, b(l)); });
            s.load(a_bsat, im, [&](uint32_t l) { return cl_sat + b(l) / kK; });
            s.alu(a_ne, im);
            const uint32_t other = lanes_where(im, [&](uint32_t l) { return b(l) / kK != e(l) / kK; });
            s.load(a_eta, other, [&](uint32_t l) { return w4(eta_b, b(l)); });
            s.load(a_bar, other, [&](uint32_t l) { return bar_b + b(l); });
            s.alu(a_sub, other);
            s.alu(a_mul0, other);
            s.alu(a_same, other);
            s.alu(a_mul, other);
            s.alu(a_loop, im);
          });
          s.alu(a_fin, am);
          s.store(a_st0, am, [&](uint32_t l) { return LaneWrite{w4(pi0_b, e(l)), bits(msg->pi0[e(l)])}; });
          s.store(a_stu, am, [&](uint32_t l) { return LaneWrite{w4(piu_b, e(l)), bits(msg->piu[e(l)])}; });
          s.store(a_sts, am, [&](uint32_t l) { return LaneWrite{w4(pis_b, e(l)), bits(msg->pis[e(l)])}; });
        });
        s.exit(a_exit);
      }, kBlockThreads);
      add_kernel("update_eta", threads, [=](WarpStream& s, const WarpCoords& w) {
        s.alu(b_tid, w.mask_below(UINT64_MAX));
        simt_loop(w.mask_below(UINT64_MAX), [&](uint32_t l) { return trips(w.global_id(l)); },
                  [&](int64_t it, uint32_t am) {
          // Per lane of am, computed once: its edge e and e's variable.
          std::array<uint64_t, kWarpSize> ev;
          std::array<int32_t, kWarpSize> dv;
          for_lanes(am, [&](uint32_t l) {
            ev[l] = w.global_id(l) + static_cast<uint64_t>(it) * threads;
            dv[l] = f->dst[ev[l]];
          });
          const auto e = [&](uint32_t l) { return ev[l]; };
          const auto a = [&](uint32_t l) { return e(l) / kK; };
          s.alu(b_loop_e, am);
          s.load(b_src, am, [&](uint32_t l) { return w4(src_b, e(l)); });
          s.load(b_dst, am, [&](uint32_t l) { return w4(dst_b, e(l)); });
          s.load(b_csat, am, [&](uint32_t l) { return cl_sat + a(l); });
          s.load(b_vsat, am, [&](uint32_t l) { return var_sat + static_cast<uint64_t>(dv[l]); });
          s.load(b_start, am, [&](uint32_t l) { return w4(cl_ptr_b, a(l)); });
          s.load(b_end, am, [&](uint32_t l) { return w4(cl_ptr_b, a(l) + 1); });
          simt_loop(am, [&](uint32_t l) { return eta_trips(*f, *msg, e(l)); }, [&](int64_t k, uint32_t km) {
            const auto je = [&](uint32_t l) { return a(l) * kK + static_cast<uint64_t>(k); };
            s.load(b_col, km, [&](uint32_t l) { return w4(cl_edges_b, je(l)); });
            s.load(b_jdst, km, [&](uint32_t l) { return w4(dst_b, je(l)); });
            s.alu(b_ne, km);
            const uint32_t other = lanes_where(km, [&](uint32_t l) { return f->dst[je(l)] != dv[l]; });
            s.load(b_jsat, other, [&](uint32_t l) { return var_sat + static_cast<uint64_t>(f->dst[je(l)]); });
            s.load(b_p0, other, [&](uint32_t l) { return w4(pi0_b, je(l)); });
            s.load(b_ps, other, [&](uint32_t l) { return w4(pis_b, je(l)); });
            s.load(b_pu, other, [&](uint32_t l) { return w4(piu_b, je(l)); });
            s.alu(b_sum, other);
            s.alu(b_zero, other);
            s.alu(b_div, other);
            s.alu(b_mul, other);
            s.alu(b_loop, km);
          });
          s.load(b_eta, am, [&](uint32_t l) { return w4(eta_b, e(l)); });
          s.alu(b_eps, am);
          s.store(b_st, am, [&](uint32_t l) { return LaneWrite{w4(eta_b, e(l)), bits(msg->eta[e(l)])}; });
        });
        s.exit(b_exit);
      }, kBlockThreads);
      eta = msg->eta;
    }
  }

 protected:
  // The iterations again from the input: eta after the last update_eta, and the last pi_*.
  void check(ResultCheck& c) const override {
    Messages msg;
    std::vector<float> eta = *eta0_;
    for (uint32_t t = 0; t < iters_; ++t) eta = (msg = iterate(*f_, eta)).eta;
    c.exact("eta", eta);
    c.exact("pi_0", msg.pi0);
    c.exact("pi_S", msg.pis);
    c.exact("pi_U", msg.piu);
  }

 private:
  uint32_t iters_ = 0;
  std::shared_ptr<const Formula> f_;
  Shared<float> eta0_;
};

}  // namespace

std::unique_ptr<Workload> make_sp() { return std::make_unique<Sp>(); }

}  // namespace l1d::sim::wl
