// bfs: level-synchronous BFS on a Graph500-style Kronecker graph (R-MAT a=0.57, b=0.19, c=0.19,
// edge factor 16, vertex labels permuted, undirected, no self-loops or duplicate edges) or a
// road-network-shaped graph, in CSR.
// One kernel per level L, one thread per vertex v:
//   lv = cur[v];  if (lv == L) { nxt[v] = L; for e in [row_ptr[v], row_ptr[v+1]):
//                   u = col[e]; if (cur[u] == -1) { nxt[u] = L + 1; found = 1 } }
//                   if (found) changed[L] = 1 }
// cur / nxt are two level arrays (int32, -1 = unvisited) used ping-pong: kernel L reads one and
// writes the other. The kernel never reads what it writes, so no thread reads a value another
// CTA wrote in the same kernel (the L1s are not coherent within a kernel), and every write
// to an element in a kernel writes the same value (L or L+1; changed[L] always 1). The frontier
// vertices write their own level into nxt so that nxt is complete after the kernel.
// The host's loop test (`while changed`) reads changed[L]; the levels are computed at init.
// A SNAP edge list given with set_input_file (gpusim --input) replaces the generated graph.
// Inputs (issue 21): test, full and paper run the Kronecker graph (2^9 x 4, 2^18 x 16); small
// runs a road-network-shaped graph (graph.h, road_graph: the shape of the USA-road-d graphs
// LonestarGPU ships for its BFS) of 92160 vertices = 360 CTAs a level, four waves of gtx480's
// 90, and stops after the first 16 levels (the road network is hundreds of levels deep; each
// level is a launch over every vertex, so the scan of the level array dominates, as in
// LonestarGPU's topology-driven BFS on a road network). The Kronecker graph at small (2^15 x 2,
// `gpusim --generator kronecker`) left the GPU half idle: its hub (about 2 x 2^16 x 0.76^15 = 1 K
// edges) kept one warp looping long after the rest of its level (7.8 resident warps per
// scheduler, road network: 18.4).
#include <algorithm>

#include "sim_cpp/workload/graph.h"
#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

// Small on the road network: 360 CTAs a level (four waves of gtx480's 90), the first 16 levels.
constexpr uint32_t kSmallRoadVertices = 360 * 256;
constexpr int32_t kSmallRoadLevels = 16;

class Bfs final : public GraphWorkload {
 public:
  std::string name() const override { return "bfs"; }
  std::string description() const override { return "level-synchronous BFS on a road-network or Kronecker graph (irregular)"; }
  WorkloadInfo graph_info() const override { return {true, true, "LonestarGPU / Graph500", "", ""}; }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const bool small = scale == WorkloadScale::kSmall;
    Rng rng(mix_seed(seed, "bfs"));
    // On a larger device (issue 21: fill every SM of the preset) small's level launches its fill
    // (qv100 640 CTAs, a100 864: 163840 and 221184 vertices) and stops after proportionally fewer
    // levels, 16 x 360 / CTAs a level rounded (qv100 9, a100 7), so that a run's threads stay
    // near gtx480's 16 x 92160; gtx480 keeps 360 CTAs a level (four waves) and 16 levels.
    const uint32_t level_ctas = std::max(kSmallRoadVertices / kCtaThreads, fill_ctas(8));
    const auto small_levels =
        static_cast<int32_t>((kSmallRoadLevels * (kSmallRoadVertices / kCtaThreads) + level_ctas / 2) / level_ctas);
    make_graph(mem, by_scale(scale, 9u, 15u, 18u), by_scale(scale, 4u, 2u, 16u), rng,
               small ? level_ctas * kCtaThreads : 0);
    const auto g = graph_;
    // Source: a random vertex with an edge whose BFS reaches at least a quarter of the
    // non-isolated vertices (Graph500 samples roots with degree >= 1).
    const uint32_t src = pick_source(*g, rng);
    src_ = src;
    std::vector<int32_t> lvl = bfs_levels(*g, src);
    const int32_t depth = *std::max_element(lvl.begin(), lvl.end());
    // A road network is hundreds of levels deep (412 at small, from one random source), each a
    // launch over every vertex: small stops after kSmallRoadLevels kernels, the same grid each.
    const bool cap = small && input_path_.empty() && !road_length_.empty() && depth + 1 > small_levels;
    const int32_t max_level = cap ? small_levels - 1 : depth;
    capped_ = cap;
    auto level = std::make_shared<const std::vector<int32_t>>(std::move(lvl));

    const Addr ptr_base = row_ptr_, col_base = col_;
    std::vector<int32_t> init_level(g->n, -1);
    init_level[src] = 0;
    const Addr lvl_base[2] = {layout_.array(mem, "level_a", init_level),
                              layout_.array(mem, "level_b", std::vector<int32_t>(g->n, -1))};
    const Addr changed_base = layout_.array(mem, "changed", std::vector<int32_t>(max_level + 1, 0));
    levels_ = max_level + 1;

    KernelCode k(kFirstKernelPc);
    const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), ld_lv = k.load(4), is_front = k.alu(kLatInt);
    const StaticOp st_self = k.store(4), ld_start = k.load(4), ld_end = k.load(4), loop_init = k.alu(kLatInt);
    const StaticOp ld_col = k.load(4), u_addr = k.alu(kLatInt), ld_lu = k.load(4), unvisited = k.alu(kLatInt);
    const StaticOp st_u = k.store(4), loop = k.alu(kLatInt), any = k.alu(kLatInt), st_changed = k.store(4);
    const StaticOp exit = k.exit();

    const uint32_t n = g->n;
    for (int32_t L = 0; L <= max_level; ++L) {
      const Addr cur = lvl_base[L % 2], nxt = lvl_base[1 - L % 2];
      add_kernel("bfs_level" + std::to_string(L), n, [=](WarpStream& s, const WarpCoords& w) {
        // What cur holds during kernel L: the levels <= L.
        const auto cur_of = [&](uint64_t v) { return (*level)[v] <= L ? (*level)[v] : -1; };
        const uint32_t m = w.mask_below(n);
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(guard, w.mask_below(UINT64_MAX));
        s.load(ld_lv, m, [&](uint32_t l) { return cur + 4 * w.global_id(l); });
        s.alu(is_front, m);
        uint32_t fm = 0;
        for_lanes(m, [&](uint32_t l) { fm |= (cur_of(w.global_id(l)) == L ? 1u : 0u) << l; });
        s.store(st_self, fm, [&](uint32_t l) { return LaneWrite{nxt + 4 * w.global_id(l), bits(L)}; });
        s.load(ld_start, fm, [&](uint32_t l) { return ptr_base + 4 * w.global_id(l); });
        s.load(ld_end, fm, [&](uint32_t l) { return ptr_base + 4 * (w.global_id(l) + 1); });
        s.alu(loop_init, fm);
        std::array<int32_t, kWarpSize> begin{}, deg{};
        int32_t max_deg = 0;
        for_lanes(fm, [&](uint32_t l) {
          const uint64_t v = w.global_id(l);
          begin[l] = g->row_ptr[v];
          deg[l] = g->row_ptr[v + 1] - g->row_ptr[v];
          max_deg = std::max(max_deg, deg[l]);
        });
        uint32_t found = 0;
        for (int32_t i = 0; i < max_deg; ++i) {
          uint32_t am = 0, um = 0;
          for_lanes(fm, [&](uint32_t l) { am |= (deg[l] > i ? 1u : 0u) << l; });
          const auto u_of = [&](uint32_t l) { return static_cast<uint64_t>(g->col[begin[l] + i]); };
          s.load(ld_col, am, [&](uint32_t l) { return col_base + 4 * static_cast<uint64_t>(begin[l] + i); });
          s.alu(u_addr, am);
          s.load(ld_lu, am, [&](uint32_t l) { return cur + 4 * u_of(l); });
          s.alu(unvisited, am);
          for_lanes(am, [&](uint32_t l) { um |= (cur_of(u_of(l)) == -1 ? 1u : 0u) << l; });
          s.store(st_u, um, [&](uint32_t l) { return LaneWrite{nxt + 4 * u_of(l), bits(L + 1)}; });
          s.alu(loop, am);
          found |= um;
        }
        s.alu(any, fm);
        s.store(st_changed, found, [&](uint32_t) { return LaneWrite{changed_base + 4 * static_cast<uint64_t>(L), 1}; });
        s.exit(exit);
      });
    }
  }

 protected:
  // Levels by a frontier-synchronous BFS; level_a / level_b hold the levels <= L + 1 of the last
  // kernel L that wrote them (kernel L writes level_b when L is even); changed[L] is 1 while
  // kernel L found new vertices.
  void check(ResultCheck& c) const override {
    const Graph& g = *graph_;
    std::vector<int32_t> want(g.n, -1);
    want[src_] = 0;
    std::vector<uint32_t> frontier{src_};
    int32_t depth = 0;
    while (!frontier.empty()) {
      std::vector<uint32_t> next;
      for (uint32_t v : frontier) {
        for (int32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
          const auto u = static_cast<uint32_t>(g.col[e]);
          if (want[u] < 0) want[u] = depth + 1, next.push_back(u);
        }
      }
      frontier.swap(next);
      if (!frontier.empty()) ++depth;
    }
    // Uncapped: one kernel per level, the last finding nothing new; capped: the first levels_.
    if (capped_ ? depth + 1 <= static_cast<int32_t>(levels_) : depth + 1 != static_cast<int32_t>(levels_)) {
      c.fail("kernels for " + std::to_string(levels_) + " levels, the reference BFS has " + std::to_string(depth + 1));
      return;
    }
    const auto kernels = static_cast<int32_t>(levels_);
    for (int32_t parity = 0; parity < 2; ++parity) {
      int32_t last = -1;  // the last kernel writing this array (-1: none)
      for (int32_t l = 0; l < kernels; ++l) last = (1 - l % 2) == parity ? l : last;
      std::vector<int32_t> arr(g.n);
      for (uint32_t v = 0; v < g.n; ++v) arr[v] = want[v] >= 0 && want[v] <= last + 1 ? want[v] : -1;
      c.exact(parity == 0 ? "level_a" : "level_b", arr);
    }
    std::vector<int32_t> changed(levels_);
    for (int32_t l = 0; l < kernels; ++l) changed[static_cast<size_t>(l)] = l + 1 <= depth ? 1 : 0;
    c.exact("changed", changed);
  }

 private:
  uint32_t src_ = 0, levels_ = 0;  // levels_: kernels launched
};

}  // namespace

std::unique_ptr<Workload> make_bfs() { return std::make_unique<Bfs>(); }

}  // namespace l1d::sim::wl
