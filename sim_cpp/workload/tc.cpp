// tc (TC, GraphBIG triangle counting): one thread per vertex v counts the triangles whose
// smallest vertex is v by merging sorted adjacency lists:
//   for each neighbour u > v: a = the entries of N(v) after u, b = the entries of N(u) after u;
//     merge a and b (one load per step of the pointer that advances), count the common ones
//   count[v] = the sum
// The lanes' merges have data-dependent lengths and addresses (the warp runs until its longest
// lane is done). The check counts triangles with a hash set.
// Grid (issue 21): GraphBIG's gpu_TriangleCount (triangle_count.cu) launches its kernels on
// num_block = ceil(n / num_thread_per_block) CTAs of num_thread_per_block = min(n,
// maxThreadsPerBlock 1024) threads; its run (RUN_ARGS --dataset dataset/small, ref_output: 1000
// vertices, 29790 edges) launches 1 CTA of 1000 threads, 32 warps. Ours are CTAs of 256, in which
// those 1000 threads are ceil(1000 / 256) = 4 CTAs: declared (published_ctas), below gtx480's 90
// CTA slots. Small's 2048 vertices launch 8, test's 1024 the 4.
#include <algorithm>
#include <set>

#include "sim_cpp/workload/graph.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

// GraphBIG's one CTA of 1000 threads at its dataset/small, in our CTAs of 256 threads.
constexpr uint32_t kGraphBigCtas = (1000 + kCtaThreads - 1) / kCtaThreads;

class Tc final : public GraphWorkload {
 public:
  std::string name() const override { return "tc"; }
  std::string description() const override { return "triangle counting by sorted-list intersection (Kronecker graph)"; }
  WorkloadInfo graph_info() const override {
    return {true, false, "GraphBIG (TC)", "", "", kGraphBigCtas,
            "GraphBIG gpu_TriangleCount: ceil(n / min(n, 1024)) CTAs of min(n, 1024) threads; its dataset/small "
            "(1000 vertices) launches 1 CTA of 1000 threads = ceil(1000 / 256) = 4 of our CTAs of 256"};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    Rng rng(mix_seed(seed, "tc"));
    // Test (issue 21, branch workloads14): 2^10 vertices, GraphBIG's declared 4 CTAs, at edge factor 1
    // (18.8 K warp instructions; 2: 56 K, over a test run's 50 K); was 2^8 x 2, 1 CTA.
    make_graph(mem, by_scale(scale, 10u, 11u, 16u), by_scale(scale, 1u, 4u, 8u), rng);
    auto g = graph_;
    const Addr count_base = layout_.array(mem, "count", std::vector<int32_t>(g->n, 0));
    const Addr ptr = row_ptr_, col = col_;

    KernelCode k(kFirstKernelPc);
    const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), ld_start = k.load(4), ld_end = k.load(4);
    const StaticOp ld_u = k.load(4), test = k.alu(kLatInt), ld_us = k.load(4), ld_ue = k.load(4);
    const StaticOp ld_step = k.load(4), cmp = k.alu(kLatInt), adv = k.alu(kLatInt), loop = k.alu(kLatInt);
    const StaticOp st = k.store(4), exit = k.exit();
    add_kernel("tc_count", g->n, [=](WarpStream& s, const WarpCoords& w) {
      const uint32_t m = w.mask_below(g->n);
      const auto v = [&](uint32_t l) { return static_cast<uint32_t>(w.global_id(l)); };
      s.alu(tid, w.mask_below(UINT64_MAX));
      s.alu(guard, w.mask_below(UINT64_MAX));
      s.load(ld_start, m, [&](uint32_t l) { return ptr + 4 * uint64_t{v(l)}; });
      s.load(ld_end, m, [&](uint32_t l) { return ptr + 4 * (uint64_t{v(l)} + 1); });
      std::array<int32_t, kWarpSize> count{};
      simt_loop(
          m, [&](uint32_t l) { return g->degree(v(l)); },
          [&](int64_t i, uint32_t am) {
            const auto e = [&](uint32_t l) { return static_cast<uint32_t>(g->row_ptr[v(l)] + i); };
            const auto u = [&](uint32_t l) { return static_cast<uint32_t>(g->col[e(l)]); };
            s.load(ld_u, am, [&](uint32_t l) { return col + 4 * uint64_t{e(l)}; });
            s.alu(test, am);
            const uint32_t um = lanes_where(am, [&](uint32_t l) { return u(l) > v(l); });
            s.load(ld_us, um, [&](uint32_t l) { return ptr + 4 * uint64_t{u(l)}; });
            s.load(ld_ue, um, [&](uint32_t l) { return ptr + 4 * (uint64_t{u(l)} + 1); });
            // Each lane's merge: the col[] index loaded at every step.
            std::array<std::vector<uint32_t>, kWarpSize> steps;
            for_lanes(um, [&](uint32_t l) {
              uint32_t a = e(l) + 1,
                       b = static_cast<uint32_t>(
                           std::upper_bound(&g->col[g->row_ptr[u(l)]], &g->col[g->row_ptr[u(l) + 1]], g->col[e(l)]) -
                           &g->col[0]);
              const auto a_end = static_cast<uint32_t>(g->row_ptr[v(l) + 1]),
                         b_end = static_cast<uint32_t>(g->row_ptr[u(l) + 1]);
              if (a < a_end && b < b_end) steps[l] = {a, b};
              while (a < a_end && b < b_end) {
                const int32_t x = g->col[a], y = g->col[b];
                if (x == y) ++count[l];
                if (x <= y && ++a < a_end) steps[l].push_back(a);
                if (y <= x && ++b < b_end) steps[l].push_back(b);
              }
            });
            simt_loop(
                um, [&](uint32_t l) { return steps[l].size(); },
                [&](int64_t j, uint32_t sm) {
                  s.load(ld_step, sm, [&](uint32_t l) { return col + 4 * uint64_t{steps[l][static_cast<size_t>(j)]}; });
                  s.alu(cmp, sm);
                  s.alu(adv, sm);
                });
            s.alu(loop, am);
          });
      s.store(st, m, [&](uint32_t l) { return LaneWrite{count_base + 4 * uint64_t{v(l)}, bits(count[l])}; });
      s.exit(exit);
    });
  }

 protected:
  void check(ResultCheck& c) const override {
    const Graph& g = *graph_;
    std::vector<int32_t> want(g.n, 0);
    for (uint32_t v = 0; v < g.n; ++v) {
      const std::set<int32_t> nv(g.col.begin() + g.row_ptr[v], g.col.begin() + g.row_ptr[v + 1]);
      for (int32_t u : nv) {
        if (u <= static_cast<int32_t>(v)) continue;
        for (int32_t e = g.row_ptr[static_cast<uint32_t>(u)]; e < g.row_ptr[static_cast<uint32_t>(u) + 1]; ++e)
          want[v] += g.col[e] > u && nv.count(g.col[e]) ? 1 : 0;
      }
    }
    c.exact("count", want);
  }
};

}  // namespace

std::unique_ptr<Workload> make_tc() { return std::make_unique<Tc>(); }

}  // namespace l1d::sim::wl
