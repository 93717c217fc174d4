// dc (DC, Pannotia degree centrality): every vertex's degree and its centrality deg / (n - 1)
// on a Kronecker graph (or a SNAP edge list). Pannotia's kernel walks each vertex's edges and
// accumulates the in-degree with atomicAdd(&dc[col[e]], 1); the simulator has no atomics, so the
// accumulation is the atomic-free scatter: every edge u -> v has its own slot in v's in-edge
// list (rev[e], the CSC position the host computes once, as a transpose), written by u's thread,
// and a second kernel counts each vertex's slots:
//   dc_scatter, thread u: for e in [row_ptr[u], row_ptr[u+1]): v = col[e]; in_src[rev[e]] = u
//   dc_count, thread v:   d = 0; for s in [row_ptr[v], row_ptr[v+1]): if (in_src[s] >= 0) ++d
//                         degree[v] = d; centrality[v] = d / (n - 1)
// (the graph is undirected, so v's in-edge slots are its CSR range). The scatter's store
// addresses follow col (data-dependent), both loops run to the warp's largest degree. Irregular.
// Small (issue 21): 2^15 vertices x 1 edge sample each, 128 CTAs a launch (gtx480 holds 90; was
// 2^13 x 8, 32 CTAs), so a thread's loops, its degree, are shorter; on a device whose fill exceeds
// 128 CTAs, a road network of the fill's threads (qv100 163840 vertices, 640 CTAs a launch; a100
// 221184, 864: GraphWorkload::filling_road_n). Test (branch workloads14): a road network of
// gtx480's fill, 23040 vertices, 90 CTAs a launch (kTestRoadN; was Kronecker 2^9 x 4, 2 CTAs).
#include <algorithm>

#include "sim_cpp/workload/graph.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

class Dc final : public GraphWorkload {
 public:
  std::string name() const override { return "dc"; }
  std::string description() const override { return "Pannotia degree centrality: in-degree scatter and count"; }
  WorkloadInfo graph_info() const override { return {true, false, "Pannotia (DC)", "", ""}; }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    Rng rng(mix_seed(seed, "dc"));
    make_graph(mem, by_scale(scale, 9u, 15u, 18u), by_scale(scale, 4u, 1u, 16u), rng,
               scale == WorkloadScale::kSmall  ? filling_road_n(15u)
               : scale == WorkloadScale::kTest ? kTestRoadN
                                               : 0u);
    auto g = graph_;
    // rev[e] for e = u -> v: the position of u in v's list (the slot of the in-edge).
    std::vector<int32_t> rev(g->edges());
    for (uint32_t u = 0; u < g->n; ++u) {
      for (int32_t e = g->row_ptr[u]; e < g->row_ptr[u + 1]; ++e) {
        const auto v = static_cast<uint32_t>(g->col[e]);
        const auto* first = &g->col[static_cast<size_t>(g->row_ptr[v])];
        rev[static_cast<size_t>(e)] =
            g->row_ptr[v] +
            static_cast<int32_t>(std::lower_bound(first, first + g->degree(v), static_cast<int32_t>(u)) - first);
      }
    }
    auto rv = share(rev);
    const float inv = 1.0f / static_cast<float>(std::max<uint32_t>(g->n, 2) - 1);
    const Addr rev_base = layout_.array(mem, "rev", rev);
    const Addr src_base = layout_.array(mem, "in_src", std::vector<int32_t>(g->edges(), -1));
    const Addr deg_base = layout_.array(mem, "degree", std::vector<int32_t>(g->n, 0));
    const Addr dc_base = layout_.array(mem, "centrality", std::vector<float>(g->n, 0.0f));
    const Addr ptr = row_ptr_, col = col_;

    KernelCode k1(kFirstKernelPc);
    const StaticOp a_tid = k1.alu(kLatIntMad), a_guard = k1.alu(kLatInt), a_start = k1.load(4), a_end = k1.load(4);
    const StaticOp a_col = k1.load(4), a_rev = k1.load(4), a_addr = k1.alu(kLatInt), a_st = k1.store(4);
    const StaticOp a_loop = k1.alu(kLatInt), a_exit = k1.exit();
    add_kernel("dc_scatter", g->n, [=](WarpStream& s, const WarpCoords& w) {
      const uint32_t m = w.mask_below(g->n);
      const auto u = [&](uint32_t l) { return static_cast<uint32_t>(w.global_id(l)); };
      s.alu(a_tid, w.mask_below(UINT64_MAX));
      s.alu(a_guard, w.mask_below(UINT64_MAX));
      s.load(a_start, m, [&](uint32_t l) { return ptr + 4 * uint64_t{u(l)}; });
      s.load(a_end, m, [&](uint32_t l) { return ptr + 4 * (uint64_t{u(l)} + 1); });
      simt_loop(
          m, [&](uint32_t l) { return g->degree(u(l)); },
          [&](int64_t i, uint32_t am) {
            const auto e = [&](uint32_t l) { return static_cast<uint64_t>(g->row_ptr[u(l)] + i); };
            s.load(a_col, am, [&](uint32_t l) { return col + 4 * e(l); });
            s.load(a_rev, am, [&](uint32_t l) { return rev_base + 4 * e(l); });
            s.alu(a_addr, am);
            s.store(a_st, am, [&](uint32_t l) {
              return LaneWrite{src_base + 4 * static_cast<uint64_t>((*rv)[e(l)]), bits(static_cast<int32_t>(u(l)))};
            });
            s.alu(a_loop, am);
          });
      s.exit(a_exit);
    });

    KernelCode k2 = k1.next_kernel();
    const StaticOp b_tid = k2.alu(kLatIntMad), b_guard = k2.alu(kLatInt), b_start = k2.load(4), b_end = k2.load(4);
    const StaticOp b_src = k2.load(4), b_test = k2.alu(kLatInt), b_inc = k2.alu(kLatInt), b_loop = k2.alu(kLatInt);
    const StaticOp b_st = k2.store(4), b_cvt = k2.alu(kLatFp), b_mul = k2.alu(kLatFp), b_stc = k2.store(4);
    const StaticOp b_exit = k2.exit();
    add_kernel("dc_count", g->n, [=](WarpStream& s, const WarpCoords& w) {
      const uint32_t m = w.mask_below(g->n);
      const auto v = [&](uint32_t l) { return static_cast<uint32_t>(w.global_id(l)); };
      s.alu(b_tid, w.mask_below(UINT64_MAX));
      s.alu(b_guard, w.mask_below(UINT64_MAX));
      s.load(b_start, m, [&](uint32_t l) { return ptr + 4 * uint64_t{v(l)}; });
      s.load(b_end, m, [&](uint32_t l) { return ptr + 4 * (uint64_t{v(l)} + 1); });
      simt_loop(
          m, [&](uint32_t l) { return g->degree(v(l)); },
          [&](int64_t i, uint32_t am) {
            s.load(b_src, am, [&](uint32_t l) { return src_base + 4 * static_cast<uint64_t>(g->row_ptr[v(l)] + i); });
            s.alu(b_test, am);
            s.alu(b_inc, am);  // every slot was filled by the scatter
            s.alu(b_loop, am);
          });
      s.store(b_st, m, [&](uint32_t l) { return LaneWrite{deg_base + 4 * uint64_t{v(l)}, bits(g->degree(v(l)))}; });
      s.alu(b_cvt, m);
      s.alu(b_mul, m);
      s.store(b_stc, m, [&](uint32_t l) {
        return LaneWrite{dc_base + 4 * uint64_t{v(l)}, bits(static_cast<float>(g->degree(v(l))) * inv)};
      });
      s.exit(b_exit);
    });
  }

 protected:
  // A host count over the edge list: the in-edges of v, their sources in v's slots, deg / (n - 1).
  void check(ResultCheck& c) const override {
    const Graph& g = *graph_;
    std::vector<int32_t> in_deg(g.n, 0), in_src(g.edges(), -1), fill(g.row_ptr.begin(), g.row_ptr.end() - 1);
    for (uint32_t u = 0; u < g.n; ++u) {
      for (int32_t e = g.row_ptr[u]; e < g.row_ptr[u + 1]; ++e) {
        const auto v = static_cast<uint32_t>(g.col[e]);
        ++in_deg[v];
        in_src[static_cast<size_t>(fill[v]++)] = static_cast<int32_t>(u);  // sources in increasing order
      }
    }
    std::vector<double> centrality(g.n);
    for (uint32_t v = 0; v < g.n; ++v) centrality[v] = in_deg[v] / (std::max<double>(g.n, 2) - 1);
    c.exact("in_src", in_src);
    c.exact("degree", in_deg);
    c.close("centrality", centrality, 1e-6, 0.0);
  }
};

}  // namespace

std::unique_ptr<Workload> make_dc() { return std::make_unique<Dc>(); }

}  // namespace l1d::sim::wl
