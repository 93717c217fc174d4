// gc (GC, GraphBIG / Pannotia graph colouring, Jones-Plassmann): every vertex has a distinct
// random priority; in round r every uncoloured vertex whose priority beats all its uncoloured
// neighbours' takes colour r. One kernel per round, one thread per vertex, ping-pong colour
// arrays (-1 = uncoloured); every thread writes its own element:
//   c = color[v]; if (c == -1) { max = true; for e: u = col[e]; if (color[u] == -1 && prio[u] > prio[v]) max = false
//                                c = max ? r : -1; if (c == -1) left[r] = 1 }
//   color'[v] = c
// until no vertex is left (the host's loop test reads left[r]). Small (issue 21) runs 2^15
// vertices, 128 CTAs a round (gtx480 holds 90), for its first kSmallRounds rounds only (the
// colouring is then partial: the check compares both arrays with those rounds' reference); on a
// device whose fill exceeds 128 CTAs, a road network of the fill's threads (qv100 163840
// vertices, 640 CTAs; a100 221184, 864: GraphWorkload::filling_road_n), still one round. Test
// (branch workloads14): a road network of gtx480's fill, 23040 vertices (90 CTAs), its first round
// (kTestRoadN; `--generator kronecker` gives test's old 2^8-vertex graph to the end).
#include <numeric>

#include "sim_cpp/workload/graph.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kSmallRounds = 1;  // small's rounds (a shorter run at gtx480's full grid)

// Jones-Plassmann rounds: colours[r] is the colouring after round r; all of them until every vertex
// is coloured, or at most max_rounds when not 0 (a capped run needs its rounds and one more, to
// know that it is capped; the whole colouring of a 2^18-vertex Kronecker graph took 0.7 s).
std::vector<std::vector<int32_t>> jones_plassmann(const Graph& g, const std::vector<int32_t>& prio,
                                                  uint32_t max_rounds = 0) {
  std::vector<std::vector<int32_t>> rounds;
  std::vector<int32_t> c(g.n, -1);
  for (int32_t r = 0; std::count(c.begin(), c.end(), -1) > 0 && (max_rounds == 0 || rounds.size() < max_rounds); ++r) {
    std::vector<int32_t> next = c;
    for (uint32_t v = 0; v < g.n; ++v) {
      if (c[v] != -1) continue;
      bool is_max = true;
      for (int32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
        const auto u = static_cast<uint32_t>(g.col[e]);
        is_max = is_max && !(c[u] == -1 && prio[u] > prio[v]);
      }
      if (is_max) next[v] = r;
    }
    rounds.push_back(next);
    c = next;
  }
  return rounds;
}

class Gc final : public GraphWorkload {
 public:
  std::string name() const override { return "gc"; }
  std::string description() const override { return "Jones-Plassmann graph colouring (Kronecker graph)"; }
  WorkloadInfo graph_info() const override { return {true, false, "GraphBIG / Pannotia (GC)", "", ""}; }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    Rng rng(mix_seed(seed, "gc"));
    make_graph(mem, by_scale(scale, 8u, 15u, 16u), by_scale(scale, 4u, 1u, 8u), rng,
               scale == WorkloadScale::kSmall  ? filling_road_n(15u)
               : scale == WorkloadScale::kTest ? kTestRoadN
                                               : 0u);
    auto g = graph_;
    std::vector<int32_t> prio(g->n);
    std::iota(prio.begin(), prio.end(), 0);
    for (uint32_t i = g->n - 1; i > 0; --i) std::swap(prio[i], prio[rng.below(uint64_t{i} + 1)]);
    prio_ = share(prio);
    // Capped at small, and at test on a road network (test's Kronecker graph, --generator kronecker,
    // runs to the end as before).
    const bool capped = scale == WorkloadScale::kSmall || (scale == WorkloadScale::kTest && !road_length_.empty());
    const uint32_t cap = capped && input_path_.empty() ? kSmallRounds : 0;
    const auto rounds = jones_plassmann(*g, prio, cap == 0 ? 0 : cap + 1);
    capped_ = cap != 0 && rounds.size() > cap;
    rounds_ = capped_ ? cap : static_cast<uint32_t>(rounds.size());
    const Addr prio_base = layout_.array(mem, "prio", prio);
    const Addr color[2] = {layout_.array(mem, "color_a", std::vector<int32_t>(g->n, -1)),
                           layout_.array(mem, "color_b", std::vector<int32_t>(g->n, -1))};
    const Addr left_base = layout_.array(mem, "left", std::vector<int32_t>(rounds_, 0));
    const Addr ptr = row_ptr_, col = col_;

    KernelCode k(kFirstKernelPc);
    const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), ld_c = k.load(4), test = k.alu(kLatInt);
    const StaticOp ld_p = k.load(4), ld_start = k.load(4), ld_end = k.load(4), ld_col = k.load(4);
    const StaticOp ld_cu = k.load(4), ld_pu = k.load(4), cmp = k.alu(kLatInt), loop = k.alu(kLatInt);
    const StaticOp sel = k.alu(kLatInt), st_c = k.store(4), st_left = k.store(4), exit = k.exit();
    for (uint32_t r = 0; r < rounds_; ++r) {
      auto cur = share(r == 0 ? std::vector<int32_t>(g->n, -1) : rounds[r - 1]), nxt = share(rounds[r]);
      const Addr src = color[r % 2], dst = color[1 - r % 2];
      add_kernel("gc_jp_round", g->n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(g->n);
        const auto v = [&](uint32_t l) { return static_cast<uint32_t>(w.global_id(l)); };
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(guard, w.mask_below(UINT64_MAX));
        s.load(ld_c, m, [&](uint32_t l) { return src + 4 * uint64_t{v(l)}; });
        s.alu(test, m);
        const uint32_t um = lanes_where(m, [&](uint32_t l) { return (*cur)[v(l)] == -1; });
        s.load(ld_p, um, [&](uint32_t l) { return prio_base + 4 * uint64_t{v(l)}; });
        s.load(ld_start, um, [&](uint32_t l) { return ptr + 4 * uint64_t{v(l)}; });
        s.load(ld_end, um, [&](uint32_t l) { return ptr + 4 * (uint64_t{v(l)} + 1); });
        simt_loop(
            um, [&](uint32_t l) { return g->degree(v(l)); },
            [&](int64_t i, uint32_t am) {
              const auto u = [&](uint32_t l) { return static_cast<uint64_t>(g->col[g->row_ptr[v(l)] + i]); };
              s.load(ld_col, am, [&](uint32_t l) { return col + 4 * static_cast<uint64_t>(g->row_ptr[v(l)] + i); });
              s.load(ld_cu, am, [&](uint32_t l) { return src + 4 * u(l); });
              s.load(ld_pu, lanes_where(am, [&](uint32_t l) { return (*cur)[u(l)] == -1; }),
                     [&](uint32_t l) { return prio_base + 4 * u(l); });
              s.alu(cmp, am);
              s.alu(loop, am);
            });
        s.alu(sel, um);
        s.store(st_c, m, [&](uint32_t l) { return LaneWrite{dst + 4 * uint64_t{v(l)}, bits((*nxt)[v(l)])}; });
        s.store(st_left, lanes_where(um, [&](uint32_t l) { return (*nxt)[v(l)] == -1; }), [&](uint32_t) {
          return LaneWrite{left_base + 4 * uint64_t{r}, 1};
        });
        s.exit(exit);
      });
    }
  }

 protected:
  // The final colouring (in the array the last round wrote) is proper, uses colours 0..R-1 and
  // is the Jones-Plassmann one; the other array holds round R-2's; left[] is 1 but in the last round.
  // Capped (small): the first R rounds' colouring, partial (-1 = not yet coloured), and left[] 1.
  void check(ResultCheck& c) const override {
    const Graph& g = *graph_;
    auto rounds = jones_plassmann(g, *prio_, capped_ ? rounds_ + 1 : 0);
    if (capped_ ? rounds.size() <= rounds_ : rounds.size() != rounds_)
      return c.fail("kernels for " + std::to_string(rounds_) + (capped_ ? " capped" : "") +
                    " rounds, the reference has " + std::to_string(rounds.size()));
    rounds.resize(rounds_);
    const int32_t lowest = capped_ ? -1 : 0;
    const char* last = rounds_ % 2 == 1 ? "color_b" : "color_a";
    const auto got = c.read<int32_t>(last);
    c.each(
        last, g.n,
        [&](size_t v) {
          if (got[v] < lowest || got[v] >= static_cast<int32_t>(rounds_)) return false;
          for (int32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1] && got[v] >= 0; ++e)
            if (got[static_cast<size_t>(g.col[e])] == got[v]) return false;
          return true;
        },
        [&](size_t v) { return std::to_string(got[v]) + ": out of range or equal to a neighbour's colour"; });
    c.exact(last, rounds.back());
    c.exact(rounds_ % 2 == 1 ? "color_a" : "color_b",
            rounds_ >= 2 ? rounds[rounds_ - 2] : std::vector<int32_t>(g.n, -1));
    std::vector<int32_t> left(rounds_, 1);
    if (!capped_) left.back() = 0;
    c.exact("left", left);
  }

 private:
  Shared<int32_t> prio_;
};

}  // namespace

std::unique_ptr<Workload> make_gc() { return std::make_unique<Gc>(); }

}  // namespace l1d::sim::wl
