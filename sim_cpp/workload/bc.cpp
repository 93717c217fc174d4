// bc (BC, GraphBIG / Pannotia betweenness centrality, Brandes from one source): a forward BFS
// that counts shortest paths, then the dependency accumulation back up the levels. Pull style
// (no atomics), one thread per vertex, level arrays ping-pong as in bfs:
//   bc_forward, level L >= 1:  lv = level[v]; if (lv == -1) { s = 0; for e: u = col[e];
//                                  if (level[u] == L-1) s += sigma[u];
//                                if (s > 0) { lv = L; sigma[v] = s; more[L] = 1 } }  level'[v] = lv
//   bc_backward, level L = D-1 .. 0:  if (level[v] == L) { d = 0; for e: w = col[e];
//                                  if (level[w] == L+1) d += sigma[v] / sigma[w] * (1 + delta[w]);
//                                delta[v] = d; bc[v] = d (v != source) }
// sigma and delta are floats as on the GPU; the check is Brandes' algorithm in double.
#include "sim_cpp/workload/graph.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

// Pannotia's bc.cu launches every kernel (clean_1d_array, bfs_kernel, backtrack_kernel) on
// ceil(num_nodes / 128) CTAs of local_worksize = 128 threads; its two inputs, 1k_128k.gr and
// 2k_1M.gr, give 8 and 16 CTAs (about 1000 and 2000 vertices: 2^10 or 1000 -> 8, 2^11 or 2000 -> 16).
// Ours launches the same CTAs of 128 (since branch workloads11; 256 before), so small's 2048
// vertices launch Pannotia's 16 at 2k_1M, and so do test's (2^11 at edge factor 1).
constexpr uint32_t kPannotiaCtaThreads = 128;
constexpr uint32_t kPannotiaCtas = (2000 + kPannotiaCtaThreads - 1) / kPannotiaCtaThreads;

class Bc final : public GraphWorkload {
 public:
  std::string name() const override { return "bc"; }
  std::string description() const override {
    return "Brandes betweenness centrality from one source (Kronecker graph)";
  }
  WorkloadInfo graph_info() const override {
    return {true, false, "GraphBIG / Pannotia (BC)", "", "", kPannotiaCtas,
            "Pannotia bc.cu: num_blocks = ceil(num_nodes / local_worksize 128) for every kernel; its inputs "
            "1k_128k.gr and 2k_1M.gr (about 1000 and 2000 vertices): 8 and 16 CTAs of 128 threads"};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    Rng rng(mix_seed(seed, "bc"));
    // Test (issue 21, branch workloads14): 2^11 vertices, Pannotia's 16 CTAs of 128 a launch, at edge
    // factor 1 (35 K warp instructions; 2: 48.6 K, at the edge of a test run's 50 K); was 2^8 x 4, 2 CTAs.
    make_graph(mem, by_scale(scale, 11u, 11u, 16u), by_scale(scale, 1u, 8u, 16u), rng);
    auto g = graph_;
    src_ = pick_source(*g, rng);
    auto level = share(bfs_levels(*g, src_));
    const int32_t depth = *std::max_element(level->begin(), level->end());
    depth_ = static_cast<uint32_t>(depth);
    // The GPU's float arithmetic, level by level.
    std::vector<float> sigma(g->n, 0.0f), delta(g->n, 0.0f);
    sigma[src_] = 1.0f;
    const auto nbrs = [&](uint32_t v, auto&& f) {
      for (int32_t e = g->row_ptr[v]; e < g->row_ptr[v + 1]; ++e) f(static_cast<uint32_t>(g->col[e]));
    };
    for (int32_t L = 1; L <= depth; ++L)
      for (uint32_t v = 0; v < g->n; ++v)
        if ((*level)[v] == L) nbrs(v, [&](uint32_t u) { sigma[v] += (*level)[u] == L - 1 ? sigma[u] : 0.0f; });
    for (int32_t L = depth - 1; L >= 0; --L)
      for (uint32_t v = 0; v < g->n; ++v)
        if ((*level)[v] == L)
          nbrs(v,
               [&](uint32_t u) { delta[v] += (*level)[u] == L + 1 ? sigma[v] / sigma[u] * (1.0f + delta[u]) : 0.0f; });
    auto sig = share(sigma), del = share(delta);

    std::vector<int32_t> lvl0(g->n, -1);
    lvl0[src_] = 0;
    std::vector<float> sigma0(g->n, 0.0f);
    sigma0[src_] = 1.0f;
    const Addr lvl[2] = {layout_.array(mem, "level_a", lvl0),
                         layout_.array(mem, "level_b", std::vector<int32_t>(g->n, -1))};
    const Addr sig_base = layout_.array(mem, "sigma", sigma0);
    const Addr del_base = layout_.array(mem, "delta", std::vector<float>(g->n, 0.0f));
    const Addr bc_base = layout_.array(mem, "bc", std::vector<float>(g->n, 0.0f));
    const Addr more_base = layout_.array(mem, "more", std::vector<int32_t>(depth_ + 2, 0));
    const Addr ptr = row_ptr_, col = col_;
    const auto at = [](Addr base, uint64_t i) { return base + 4 * i; };

    KernelCode kf(kFirstKernelPc);
    const StaticOp tid = kf.alu(kLatIntMad), guard = kf.alu(kLatInt), ld_l = kf.load(4), test = kf.alu(kLatInt);
    const StaticOp ld_s = kf.load(4), ld_e = kf.load(4), ld_col = kf.load(4), ld_lu = kf.load(4), ld_su = kf.load(4);
    const StaticOp add = kf.alu(kLatFp), loop = kf.alu(kLatInt), st_sig = kf.store(4), st_more = kf.store(4);
    const StaticOp st_l = kf.store(4), exit = kf.exit();
    // Forward: kernel L (1 .. depth + 1; the last finds nothing) reads the levels < L, writes <= L.
    for (int32_t L = 1; L <= depth + 1; ++L) {
      const Addr src = lvl[(L - 1) % 2], dst = lvl[L % 2];
      add_kernel("bc_forward", g->n, [=](WarpStream& s, const WarpCoords& w) {
        const auto lv_before = [&](uint64_t v) { return (*level)[v] < L ? (*level)[v] : -1; };  // src's content
        const uint32_t m = w.mask_below(g->n);
        const auto v = [&](uint32_t l) { return static_cast<uint32_t>(w.global_id(l)); };
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(guard, w.mask_below(UINT64_MAX));
        s.load(ld_l, m, [&](uint32_t l) { return at(src, v(l)); });
        s.alu(test, m);
        const uint32_t um = lanes_where(m, [&](uint32_t l) { return lv_before(v(l)) == -1; });
        s.load(ld_s, um, [&](uint32_t l) { return at(ptr, v(l)); });
        s.load(ld_e, um, [&](uint32_t l) { return at(ptr, v(l) + 1); });
        simt_loop(
            um, [&](uint32_t l) { return g->degree(v(l)); },
            [&](int64_t i, uint32_t am) {
              const auto u = [&](uint32_t l) { return static_cast<uint64_t>(g->col[g->row_ptr[v(l)] + i]); };
              s.load(ld_col, am, [&](uint32_t l) { return at(col, static_cast<uint64_t>(g->row_ptr[v(l)] + i)); });
              s.load(ld_lu, am, [&](uint32_t l) { return at(src, u(l)); });
              const uint32_t pm = lanes_where(am, [&](uint32_t l) { return lv_before(u(l)) == L - 1; });
              s.load(ld_su, pm, [&](uint32_t l) { return at(sig_base, u(l)); });
              s.alu(add, pm);
              s.alu(loop, am);
            });
        const uint32_t found = lanes_where(um, [&](uint32_t l) { return (*level)[v(l)] == L; });
        s.store(st_sig, found, [&](uint32_t l) { return LaneWrite{at(sig_base, v(l)), bits((*sig)[v(l)])}; });
        s.store(st_more, found, [&](uint32_t) { return LaneWrite{at(more_base, static_cast<uint64_t>(L)), 1}; });
        s.store(st_l, m, [&](uint32_t l) {
          return LaneWrite{at(dst, v(l)), bits((*level)[v(l)] <= L ? (*level)[v(l)] : -1)};
        });
        s.exit(exit);
      }, kPannotiaCtaThreads);
    }
    final_level_ = (depth + 1) % 2 == 0 ? "level_a" : "level_b";
    const Addr lfin = lvl[(depth + 1) % 2];

    KernelCode kb = kf.next_kernel();
    const StaticOp tid2 = kb.alu(kLatIntMad), guard2 = kb.alu(kLatInt), ld_l2 = kb.load(4), test2 = kb.alu(kLatInt);
    const StaticOp ld_s2 = kb.load(4), ld_e2 = kb.load(4), ld_sv = kb.load(4), ld_col2 = kb.load(4), ld_lw = kb.load(4);
    const StaticOp ld_sw = kb.load(4), ld_dw = kb.load(4), div = kb.alu(20), fma = kb.alu(kLatFma),
                   loop2 = kb.alu(kLatInt);
    const StaticOp st_d = kb.store(4), st_bc = kb.store(4), exit2 = kb.exit();
    const uint32_t source = src_;
    for (int32_t L = depth - 1; L >= 0; --L) {
      add_kernel("bc_backward", g->n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(g->n);
        const auto v = [&](uint32_t l) { return static_cast<uint32_t>(w.global_id(l)); };
        s.alu(tid2, w.mask_below(UINT64_MAX));
        s.alu(guard2, w.mask_below(UINT64_MAX));
        s.load(ld_l2, m, [&](uint32_t l) { return at(lfin, v(l)); });
        s.alu(test2, m);
        const uint32_t lm = lanes_where(m, [&](uint32_t l) { return (*level)[v(l)] == L; });
        s.load(ld_s2, lm, [&](uint32_t l) { return at(ptr, v(l)); });
        s.load(ld_e2, lm, [&](uint32_t l) { return at(ptr, v(l) + 1); });
        s.load(ld_sv, lm, [&](uint32_t l) { return at(sig_base, v(l)); });
        simt_loop(
            lm, [&](uint32_t l) { return g->degree(v(l)); },
            [&](int64_t i, uint32_t am) {
              const auto u = [&](uint32_t l) { return static_cast<uint64_t>(g->col[g->row_ptr[v(l)] + i]); };
              s.load(ld_col2, am, [&](uint32_t l) { return at(col, static_cast<uint64_t>(g->row_ptr[v(l)] + i)); });
              s.load(ld_lw, am, [&](uint32_t l) { return at(lfin, u(l)); });
              const uint32_t cm = lanes_where(am, [&](uint32_t l) { return (*level)[u(l)] == L + 1; });
              s.load(ld_sw, cm, [&](uint32_t l) { return at(sig_base, u(l)); });
              s.load(ld_dw, cm, [&](uint32_t l) { return at(del_base, u(l)); });
              s.alu(div, cm);
              s.alu(fma, cm);
              s.alu(loop2, am);
            });
        s.store(st_d, lm, [&](uint32_t l) { return LaneWrite{at(del_base, v(l)), bits((*del)[v(l)])}; });
        s.store(st_bc, lanes_where(lm, [&](uint32_t l) { return v(l) != source; }), [&](uint32_t l) {
          return LaneWrite{at(bc_base, v(l)), bits((*del)[v(l)])};
        });
        s.exit(exit2);
      }, kPannotiaCtaThreads);
    }
  }

 protected:
  void check(ResultCheck& c) const override {
    const Graph& g = *graph_;
    const auto level = bfs_levels(g, src_);
    std::vector<double> sigma(g.n, 0.0), delta(g.n, 0.0);
    sigma[src_] = 1;
    for (int32_t L = 1; L <= static_cast<int32_t>(depth_); ++L)
      for (uint32_t v = 0; v < g.n; ++v)
        for (int32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1] && level[v] == L; ++e)
          if (level[static_cast<uint32_t>(g.col[e])] == L - 1) sigma[v] += sigma[static_cast<uint32_t>(g.col[e])];
    for (int32_t L = static_cast<int32_t>(depth_) - 1; L >= 0; --L)
      for (uint32_t v = 0; v < g.n; ++v)
        for (int32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1] && level[v] == L; ++e) {
          const auto w = static_cast<uint32_t>(g.col[e]);
          if (level[w] == L + 1) delta[v] += sigma[v] / sigma[w] * (1 + delta[w]);
        }
    std::vector<double> bc = delta;
    bc[src_] = 0;
    c.exact(final_level_, level);
    c.close("sigma", sigma, 1e-4, 1e-6);
    c.close("delta", delta, 1e-3, 1e-4);
    c.close("bc", bc, 1e-3, 1e-4);
    std::vector<int32_t> more(depth_ + 2, 0);
    for (uint32_t L = 1; L <= depth_; ++L) more[L] = 1;
    c.exact("more", more);
  }

 private:
  uint32_t src_ = 0, depth_ = 0;
  std::string final_level_;
};

}  // namespace

std::unique_ptr<Workload> make_bc() { return std::make_unique<Bc>(); }

}  // namespace l1d::sim::wl
