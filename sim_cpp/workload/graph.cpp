#include "sim_cpp/workload/graph.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <numeric>

#include "sim_cpp/workload/input_file.h"
#include "sim_cpp/workload/result_check.h"

namespace l1d::sim::wl {

Graph graph_from_edges(uint32_t n, std::vector<std::pair<uint32_t, uint32_t>> edges) {
  const size_t given = edges.size();
  for (size_t i = 0; i < given; ++i) edges.emplace_back(edges[i].second, edges[i].first);
  std::erase_if(edges, [](const auto& e) { return e.first == e.second; });
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  Graph g;
  g.n = n;
  g.row_ptr.assign(uint64_t{n} + 1, 0);
  for (const auto& e : edges) ++g.row_ptr[e.first + 1];
  for (uint32_t v = 0; v < n; ++v) g.row_ptr[v + 1] += g.row_ptr[v];
  g.col.reserve(edges.size());
  for (const auto& e : edges) g.col.push_back(static_cast<int32_t>(e.second));
  return g;
}

Graph kronecker_graph(uint32_t scale, uint32_t edge_factor, Rng& rng) {
  const uint32_t n = 1u << scale;
  const uint64_t m = uint64_t{edge_factor} * n;
  const double a = 0.57, b = 0.19, c = 0.19;
  const double ab = a + b, c_norm = c / (1.0 - ab), a_norm = a / ab;
  std::vector<uint32_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0u);
  for (uint32_t i = n - 1; i > 0; --i) std::swap(perm[i], perm[rng.below(uint64_t{i} + 1)]);
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  edges.reserve(2 * m);
  for (uint64_t e = 0; e < m; ++e) {
    uint32_t i = 0, j = 0;
    for (uint32_t bit = 0; bit < scale; ++bit) {  // choose a quadrant per level of the recursion
      const bool ii = rng.unit() > ab;
      const bool jj = rng.unit() > (ii ? c_norm : a_norm);
      i |= static_cast<uint32_t>(ii) << bit;
      j |= static_cast<uint32_t>(jj) << bit;
    }
    edges.emplace_back(perm[i], perm[j]);
  }
  return graph_from_edges(n, std::move(edges));
}

RoadGraph road_graph(uint32_t n, double mean_degree, Rng& rng) {
  const auto w = static_cast<uint32_t>(std::ceil(std::sqrt(static_cast<double>(n))));
  std::vector<double> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {  // jitter below half a lattice step keeps edges short and uncrossed
    x[i] = i % w + 0.7 * (rng.unit() - 0.5);
    y[i] = i / w + 0.7 * (rng.unit() - 0.5);
  }
  std::vector<std::pair<uint32_t, uint32_t>> lattice;
  for (uint32_t i = 0; i < n; ++i) {
    if (i % w + 1 < w && i + 1 < n) lattice.emplace_back(i, i + 1);
    if (i + w < n) lattice.emplace_back(i, i + w);
  }
  for (size_t i = lattice.size(); i > 1; --i) std::swap(lattice[i - 1], lattice[rng.below(i)]);
  // Kruskal over the shuffled edges: a random spanning tree first, then the rest in the same order.
  std::vector<uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  const auto root = [&](uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  std::vector<std::pair<uint32_t, uint32_t>> edges, rest;
  for (const auto& [a, b] : lattice) {
    const uint32_t ra = root(a), rb = root(b);
    if (ra != rb) parent[ra] = rb, edges.emplace_back(a, b);
    else rest.emplace_back(a, b);
  }
  const auto target = static_cast<size_t>(std::llround(mean_degree * n / 2.0));
  for (size_t i = 0; i < rest.size() && edges.size() < target; ++i) edges.push_back(rest[i]);
  // Ids: 16 x 16 lattice tiles row by row, shuffled inside each tile.
  constexpr uint32_t kTile = 16;
  std::vector<uint32_t> id(n);
  uint32_t next = 0;
  for (uint32_t ty = 0; ty * kTile * w < n; ++ty) {
    for (uint32_t tx = 0; tx * kTile < w; ++tx) {
      std::vector<uint32_t> tile;
      for (uint32_t yy = ty * kTile; yy < (ty + 1) * kTile; ++yy)
        for (uint32_t xx = tx * kTile; xx < std::min(w, (tx + 1) * kTile); ++xx)
          if (uint64_t{yy} * w + xx < n) tile.push_back(yy * w + xx);
      for (size_t i = tile.size(); i > 1; --i) std::swap(tile[i - 1], tile[rng.below(i)]);
      for (uint32_t v : tile) id[v] = next++;
    }
  }
  std::vector<uint32_t> point(n);  // id -> lattice point
  for (uint32_t v = 0; v < n; ++v) point[id[v]] = v;
  for (auto& [a, b] : edges) a = id[a], b = id[b];
  RoadGraph r{graph_from_edges(n, std::move(edges)), {}};
  r.length.reserve(r.g.col.size());
  for (uint32_t v = 0; v < n; ++v) {
    for (int32_t e = r.g.row_ptr[v]; e < r.g.row_ptr[v + 1]; ++e) {
      const uint32_t a = point[v], b = point[static_cast<uint32_t>(r.g.col[e])];
      const double len = std::hypot(x[a] - x[b], y[a] - y[b]);
      r.length.push_back(std::max<int32_t>(1, static_cast<int32_t>(std::lround(40.0 * len))));
    }
  }
  return r;
}

namespace {

// Skips spaces and tabs from p; returns the new position.
const char* skip_blank(const char* p, const char* end) {
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  return p;
}

}  // namespace

Graph load_snap_edge_list(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputFileError(path, 0, "cannot open the SNAP edge list");
  constexpr uint64_t kMaxId = (uint64_t{1} << 31) - 1;
  constexpr size_t kMaxEdges = size_t{1} << 28;
  std::vector<std::pair<uint64_t, uint64_t>> raw;
  std::string line;
  uint64_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const char* p = skip_blank(line.data(), line.data() + line.size());
    const char* end = line.data() + line.size();
    if (p == end || *p == '#') continue;
    uint64_t id[2];
    for (uint64_t& v : id) {
      p = skip_blank(p, end);
      const auto [q, ec] = std::from_chars(p, end, v);
      if (ec == std::errc::result_out_of_range || (ec == std::errc() && v > kMaxId))
        throw InputFileError(path, lineno, "vertex id out of range (0 .. 2^31-1) in '" + line + "'");
      if (ec != std::errc() || (q < end && *q != ' ' && *q != '\t'))
        throw InputFileError(path, lineno, "expected an edge 'u v' of two non-negative integer vertex ids, got '" + line + "'");
      p = q;
    }
    if (raw.size() == kMaxEdges) throw InputFileError(path, lineno, "more than 2^28 edges");
    raw.emplace_back(id[0], id[1]);
  }
  if (in.bad()) throw InputFileError(path, lineno, "read error");
  if (raw.empty()) throw InputFileError(path, lineno, "no edges (a SNAP edge list has one 'u v' line per edge)");
  std::vector<uint64_t> ids;
  ids.reserve(2 * raw.size());
  for (const auto& [u, v] : raw) ids.push_back(u), ids.push_back(v);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  const auto index = [&](uint64_t id) {
    return static_cast<uint32_t>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
  };
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  edges.reserve(raw.size());
  for (const auto& [u, v] : raw) edges.emplace_back(index(u), index(v));
  Graph g = graph_from_edges(static_cast<uint32_t>(ids.size()), std::move(edges));
  if (g.col.empty()) throw InputFileError(path, lineno, "only self-loops: no edges left");
  return g;
}

std::vector<int32_t> bfs_levels(const Graph& g, uint32_t src) {
  std::vector<int32_t> level(g.n, -1);
  std::vector<uint32_t> queue{src};
  level[src] = 0;
  for (size_t h = 0; h < queue.size(); ++h) {
    const uint32_t v = queue[h];
    for (int32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
      const auto u = static_cast<uint32_t>(g.col[e]);
      if (level[u] < 0) level[u] = level[v] + 1, queue.push_back(u);
    }
  }
  return level;
}

uint32_t pick_source(const Graph& g, Rng& rng) {
  uint64_t connected = 0;
  for (uint32_t v = 0; v < g.n; ++v) connected += g.degree(v) > 0 ? 1 : 0;
  uint32_t src = 0;
  for (uint32_t attempt = 0;; ++attempt) {
    src = static_cast<uint32_t>(rng.below(g.n));
    if (g.degree(src) == 0) continue;
    const auto lvl = bfs_levels(g, src);
    const auto reached = static_cast<uint64_t>(std::count_if(lvl.begin(), lvl.end(), [](int32_t l) { return l >= 0; }));
    if (4 * reached >= connected || attempt > 1000) return src;
  }
}

std::string describe(const Graph& g) {
  const uint64_t e = g.edges() / 2;
  return std::to_string(g.n) + " vertices, " + (e >= 10000 ? std::to_string((e + 500) / 1000) + " K" : std::to_string(e)) +
         " edges";
}

void GraphWorkload::make_graph(FunctionalMemory& mem, uint32_t lg, uint32_t edge_factor, Rng& rng, uint32_t road_n) {
  road_length_.clear();
  if (!input_path_.empty()) {
    graph_ = std::make_shared<const Graph>(load_snap_edge_list(input_path_));
  } else if (generator_ == "road" || (generator_.empty() && road_n != 0)) {
    RoadGraph r = road_graph(road_n != 0 ? road_n : 1u << lg, kRoadMeanDegree, rng);
    road_length_ = std::move(r.length);
    graph_ = std::make_shared<const Graph>(std::move(r.g));
  } else {
    graph_ = std::make_shared<const Graph>(kronecker_graph(lg, edge_factor, rng));
  }
  row_ptr_ = layout_.array(mem, "row_ptr", graph_->row_ptr);
  col_ = layout_.array(mem, "col", graph_->col);
}

std::vector<int32_t> GraphWorkload::add_min_rounds(FunctionalMemory& mem, const std::string& kname,
                                                   const std::string& array, std::vector<int32_t> init,
                                                   std::shared_ptr<const std::vector<int32_t>> weight,
                                                   uint32_t max_rounds) {
  const auto g = graph_;
  // Host rounds: states[r] is round r's input.
  std::vector<std::shared_ptr<const std::vector<int32_t>>> states{std::make_shared<const std::vector<int32_t>>(init)};
  capped_ = false;
  for (;;) {
    if (max_rounds != 0 && states.size() - 1 == max_rounds) {
      capped_ = *states.back() != *states[states.size() - 2];
      break;
    }
    const auto& cur = *states.back();
    std::vector<int32_t> nxt(cur);
    for (uint32_t v = 0; v < g->n; ++v) {
      for (int32_t e = g->row_ptr[v]; e < g->row_ptr[v + 1]; ++e) {
        const int32_t du = cur[static_cast<uint32_t>(g->col[e])];
        nxt[v] = std::min(nxt[v], weight ? du + (*weight)[e] : du);
      }
    }
    const bool changed = nxt != cur;
    states.push_back(std::make_shared<const std::vector<int32_t>>(std::move(nxt)));
    if (!changed) break;
  }
  rounds_ = static_cast<uint32_t>(states.size() - 1);
  const Addr arr[2] = {layout_.array(mem, array + "_a", init),
                       layout_.array(mem, array + "_b", std::vector<int32_t>(g->n, 0))};
  const Addr w_base = weight ? layout_.array(mem, "weight", *weight) : 0;
  const Addr changed_base = layout_.array(mem, "changed", std::vector<int32_t>(rounds_, 0));
  const Addr ptr = row_ptr_, col = col_;

  KernelCode k(kFirstKernelPc);
  const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), ld_d = k.load(4), ld_start = k.load(4);
  const StaticOp ld_end = k.load(4), loop_init = k.alu(kLatInt), ld_col = k.load(4), ld_w = k.load(4);
  const StaticOp u_addr = k.alu(kLatInt), ld_du = k.load(4), add = k.alu(kLatInt), min = k.alu(kLatInt);
  const StaticOp loop = k.alu(kLatInt), st_d = k.store(4), cmp = k.alu(kLatInt), st_changed = k.store(4);
  const StaticOp exit = k.exit();
  for (uint32_t r = 0; r < rounds_; ++r) {
    const auto cur = states[r], nxt = states[r + 1];
    const Addr src = arr[r % 2], dst = arr[1 - r % 2];
    add_kernel(kname, g->n, [=](WarpStream& s, const WarpCoords& w) {
      const uint32_t m = w.mask_below(g->n);
      const auto v = [&](uint32_t l) { return w.global_id(l); };
      s.alu(tid, w.mask_below(UINT64_MAX));
      s.alu(guard, w.mask_below(UINT64_MAX));
      s.load(ld_d, m, [&](uint32_t l) { return src + 4 * v(l); });
      s.load(ld_start, m, [&](uint32_t l) { return ptr + 4 * v(l); });
      s.load(ld_end, m, [&](uint32_t l) { return ptr + 4 * (v(l) + 1); });
      s.alu(loop_init, m);
      simt_loop(m, [&](uint32_t l) { return g->degree(static_cast<uint32_t>(v(l))); }, [&](int64_t i, uint32_t am) {
        const auto e = [&](uint32_t l) { return static_cast<uint64_t>(g->row_ptr[v(l)] + i); };
        s.load(ld_col, am, [&](uint32_t l) { return col + 4 * e(l); });
        if (weight) s.load(ld_w, am, [&](uint32_t l) { return w_base + 4 * e(l); });
        s.alu(u_addr, am);
        s.load(ld_du, am, [&](uint32_t l) { return src + 4 * static_cast<uint64_t>(g->col[e(l)]); });
        if (weight) s.alu(add, am);
        s.alu(min, am);
        s.alu(loop, am);
      });
      s.store(st_d, m, [&](uint32_t l) { return LaneWrite{dst + 4 * v(l), bits((*nxt)[v(l)])}; });
      s.alu(cmp, m);
      const uint32_t changed = lanes_where(m, [&](uint32_t l) { return (*nxt)[v(l)] != (*cur)[v(l)]; });
      s.store(st_changed, changed, [&](uint32_t) { return LaneWrite{changed_base + 4 * uint64_t{r}, 1}; });
      s.exit(exit);
    });
  }
  return *states.back();
}

void GraphWorkload::check_min_rounds(ResultCheck& c, const std::string& array, const std::vector<int32_t>& fixpoint) const {
  // The last round wrote the fixpoint into one array; the other holds the last round's input
  // (the previous round's output, or init with one round only), which equals it too.
  c.exact(array + "_a", fixpoint);
  c.exact(array + "_b", fixpoint);
  std::vector<int32_t> changed(rounds_, 1);
  changed.back() = 0;
  c.exact("changed", changed);
}

void GraphWorkload::check_capped_rounds(ResultCheck& c, const std::string& array, const std::vector<int32_t>& last,
                                        const std::vector<int32_t>& prev, const std::vector<int32_t>& changed) const {
  // Round r reads <array>_a when r is even: the last round (rounds_ - 1) wrote the other one.
  c.exact(array + (rounds_ % 2 == 1 ? "_b" : "_a"), last);
  c.exact(array + (rounds_ % 2 == 1 ? "_a" : "_b"), prev);
  c.exact("changed", changed);
}

}  // namespace l1d::sim::wl
