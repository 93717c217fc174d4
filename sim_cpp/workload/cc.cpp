// cc (CC, GraphBIG / Pannotia connected components by label propagation): every vertex starts
// with its own id as label; each round is one kernel, one thread per vertex, pulling the
// smallest label of its neighbours:
//   l = label[v]; for e in [row_ptr[v], row_ptr[v+1]): l = min(l, label[col[e]])
//   label'[v] = l; if (l != label[v]) changed[round] = 1
// until a round changes nothing (GraphWorkload::add_min_rounds). Every vertex then holds the
// smallest id of its component; the check is a union-find. Small (issue 21) runs 2^15 vertices,
// 128 CTAs a round (gtx480 holds 90), for its first kSmallRounds rounds only: every label is then
// the smallest id within that many hops, which the check recomputes round by round (push style).
// On a device whose fill exceeds 128 CTAs small runs a road network of the fill's threads (qv100
// 163840 vertices, 640 CTAs; a100 221184, 864: GraphWorkload::filling_road_n), still one round.
// Test (branch workloads14) runs a road network of gtx480's fill, 23040 vertices (90 CTAs), its
// first round (kTestRoadN; `--generator kronecker` gives test's old 2^9-vertex graph to the fixpoint).
#include <algorithm>
#include <numeric>

#include "sim_cpp/workload/graph.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kSmallRounds = 1;  // small's rounds (a shorter run at gtx480's full grid)

class Cc final : public GraphWorkload {
 public:
  std::string name() const override { return "cc"; }
  std::string description() const override { return "connected components by min-label propagation (Kronecker graph)"; }
  WorkloadInfo graph_info() const override { return {true, false, "GraphBIG / Pannotia (CC)", "", ""}; }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    Rng rng(mix_seed(seed, "cc"));
    make_graph(mem, by_scale(scale, 9u, 15u, 17u), by_scale(scale, 2u, 1u, 8u), rng,
               scale == WorkloadScale::kSmall  ? filling_road_n(15u)
               : scale == WorkloadScale::kTest ? kTestRoadN
                                               : 0u);
    std::vector<int32_t> label(graph_->n);
    std::iota(label.begin(), label.end(), 0);
    // Capped at small, and at test on a road network (hundreds of rounds deep; test's Kronecker
    // graph, --generator kronecker, runs to the fixpoint as before).
    const bool cap = input_path_.empty() && (scale == WorkloadScale::kSmall ||
                                             (scale == WorkloadScale::kTest && !road_length_.empty()));
    add_min_rounds(mem, "cc_propagate", "label", label, nullptr, cap ? kSmallRounds : 0);
  }

 protected:
  void check(ResultCheck& c) const override {
    const Graph& g = *graph_;
    if (capped_) {
      // Labels after r rounds: each round pushes every vertex's label to its neighbours.
      std::vector<int32_t> prev(g.n), cur(g.n), changed;
      std::iota(cur.begin(), cur.end(), 0);
      for (uint32_t r = 0; r < rounds_; ++r) {
        prev = cur;
        for (uint32_t u = 0; u < g.n; ++u) {
          for (int32_t e = g.row_ptr[u]; e < g.row_ptr[u + 1]; ++e) {
            const auto v = static_cast<uint32_t>(g.col[e]);
            cur[v] = std::min(cur[v], prev[u]);
          }
        }
        changed.push_back(cur != prev ? 1 : 0);
      }
      return check_capped_rounds(c, "label", cur, prev, changed);
    }
    std::vector<uint32_t> parent(g.n);
    std::iota(parent.begin(), parent.end(), 0u);
    const auto find = [&](uint32_t v) {
      while (parent[v] != v) v = parent[v] = parent[parent[v]];
      return v;
    };
    for (uint32_t v = 0; v < g.n; ++v) {
      for (int32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
        const uint32_t a = find(v), b = find(static_cast<uint32_t>(g.col[e]));
        parent[std::max(a, b)] = std::min(a, b);  // the root stays the smallest id
      }
    }
    std::vector<int32_t> want(g.n);
    for (uint32_t v = 0; v < g.n; ++v) want[v] = static_cast<int32_t>(find(v));
    check_min_rounds(c, "label", want);
  }
};

}  // namespace

std::unique_ptr<Workload> make_cc() { return std::make_unique<Cc>(); }

}  // namespace l1d::sim::wl
