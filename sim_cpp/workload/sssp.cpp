// sssp (SSSP, LonestarGPU / Pannotia style topology-driven Bellman-Ford): single-source shortest
// paths on a weighted Kronecker graph (integer weights 1..100, the same both ways) or a road
// network (its edge lengths). Each round
// is one kernel, one thread per vertex, pulling over its edges (no atomics needed):
//   d = dist[v]; for e in [row_ptr[v], row_ptr[v+1]): d = min(d, dist[col[e]] + weight[e])
//   dist'[v] = d; if (d != dist[v]) changed[round] = 1
// until a round changes nothing (GraphWorkload::add_min_rounds). The check is Dijkstra.
// Inputs (issue 21): full and paper run the Kronecker graph (2^17 x 16) to the fixpoint; small
// runs a road-network-shaped graph (graph.h, road_graph: the shape of USA-road-d.NY, Pannotia's
// SSSP input and one of LonestarGPU's, its edge lengths as weights) of 23040 vertices = 90 CTAs
// a round, one wave on gtx480, for the first kSmallRoadRounds rounds (the fixpoint takes hundreds
// on a road network; every round runs the same grid and edge walk). Test (branch workloads16)
// runs the same road network (GraphWorkload::kTestRoadN: gtx480's fill, as cc, dc and gc at test)
// for its first kTestRoadRounds rounds, where the Kronecker graph of 2^8 vertices launched 1 CTA
// a round (`--generator kronecker` still gives it, to the fixpoint). The check of a capped run is
// the first rounds of Bellman-Ford, computed over the edges from the source (distances over at
// most r edges). The Kronecker graph at small (2^15, edge factor 1, 2 rounds: `gpusim
// --generator kronecker`) kept 9.8 warps per scheduler resident: its hub gives one warp a serial
// edge loop that outlasts its round.
#include <algorithm>
#include <functional>
#include <queue>

#include "sim_cpp/workload/graph.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr int32_t kInf = 1 << 29;
constexpr uint32_t kSmallRounds = 2;       // on a Kronecker graph (--generator kronecker)
constexpr uint32_t kSmallRoadVertices = 90 * 256;  // on the road network: one wave of gtx480's 90 CTAs a round
constexpr uint32_t kSmallRoadRounds = 6;
// Test's rounds on its road network: a round of 90 CTAs is about 25 K warp instructions and a test
// run must stay under 50 K (sim_cpp/test/workload_test.cpp, EveryWorkload).
constexpr uint32_t kTestRoadRounds = 1;

class Sssp final : public GraphWorkload {
 public:
  std::string name() const override { return "sssp"; }
  std::string description() const override { return "Bellman-Ford SSSP, pull rounds over a weighted road-network or Kronecker graph"; }
  WorkloadInfo graph_info() const override { return {true, true, "LonestarGPU / Pannotia (SSSP)", "", ""}; }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    Rng rng(mix_seed(seed, "sssp"));
    const bool small = scale == WorkloadScale::kSmall, test = scale == WorkloadScale::kTest;
    // On a larger device (issue 21: fill every SM of the preset) small's round launches its fill
    // (qv100 640 CTAs, a100 864: 163840 and 221184 vertices) for proportionally fewer rounds, 6 x
    // 90 / CTAs a round rounded, at least 1 (qv100 and a100: 1), so that a run's threads stay near
    // gtx480's 6 x 23040; gtx480 keeps one wave of 90 CTAs for 6 rounds.
    const uint32_t round_ctas = std::max(kSmallRoadVertices / kCtaThreads, fill_ctas(8));
    const uint32_t road_rounds =
        std::max(1u, (kSmallRoadRounds * (kSmallRoadVertices / kCtaThreads) + round_ctas / 2) / round_ctas);
    make_graph(mem, by_scale(scale, 8u, 15u, 17u), by_scale(scale, 4u, 1u, 16u), rng,
               small ? round_ctas * kCtaThreads : test ? kTestRoadN : 0);
    const Graph& g = *graph_;
    // Weight of edge {u, v}: a road network's edge length, else a hash of the pair (both
    // directions agree either way).
    const uint64_t salt = rng.next();
    std::vector<int32_t> w(g.edges());
    if (!road_length_.empty()) w = road_length_;
    for (uint32_t v = 0; v < g.n && road_length_.empty(); ++v) {
      for (int32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
        const auto u = static_cast<uint32_t>(g.col[e]);
        w[static_cast<size_t>(e)] =
            static_cast<int32_t>(Rng(salt ^ (uint64_t{std::min(u, v)} << 32 | std::max(u, v))).below(100) + 1);
      }
    }
    weight_ = share(w);
    src_ = pick_source(g, rng);
    std::vector<int32_t> dist(g.n, kInf);
    dist[src_] = 0;
    // Capped at small, and at test on a road network (test's Kronecker graph, --generator
    // kronecker, runs to the fixpoint as before).
    const bool cap = input_path_.empty() && (small || (test && !road_length_.empty()));
    add_min_rounds(mem, "sssp_relax", "dist", dist, weight_,
                   !cap ? 0 : test ? kTestRoadRounds : road_length_.empty() ? kSmallRounds : road_rounds);
  }

 protected:
  void check(ResultCheck& c) const override {
    const Graph& g = *graph_;
    if (capped_) {
      // Distances over at most r edges, r = 0 .. rounds_: relax every edge of the last frontier.
      std::vector<int32_t> prev(g.n, kInf), cur(g.n, kInf), changed;
      cur[src_] = 0;
      for (uint32_t r = 0; r < rounds_; ++r) {
        prev = cur;
        for (uint32_t u = 0; u < g.n; ++u) {
          if (prev[u] >= kInf) continue;
          for (int32_t e = g.row_ptr[u]; e < g.row_ptr[u + 1]; ++e) {
            const auto v = static_cast<uint32_t>(g.col[e]);
            cur[v] = std::min(cur[v], prev[u] + (*weight_)[static_cast<size_t>(e)]);
          }
        }
        changed.push_back(cur != prev ? 1 : 0);
      }
      return check_capped_rounds(c, "dist", cur, prev, changed);
    }
    std::vector<int32_t> dist(g.n, kInf);
    using Item = std::pair<int32_t, uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
    dist[src_] = 0;
    pq.emplace(0, src_);
    while (!pq.empty()) {
      const auto [d, v] = pq.top();
      pq.pop();
      if (d != dist[v]) continue;
      for (int32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
        const auto u = static_cast<uint32_t>(g.col[e]);
        if (d + (*weight_)[static_cast<size_t>(e)] < dist[u])
          pq.emplace(dist[u] = d + (*weight_)[static_cast<size_t>(e)], u);
      }
    }
    check_min_rounds(c, "dist", dist);
  }

 private:
  Shared<int32_t> weight_;
  uint32_t src_ = 0;
};

}  // namespace

std::unique_ptr<Workload> make_sssp() { return std::make_unique<Sssp>(); }

}  // namespace l1d::sim::wl
