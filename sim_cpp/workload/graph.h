// Graphs of the graph workloads (bfs, sssp, cc, tc): undirected, no self-loops or duplicate
// edges, in CSR with each vertex's neighbours sorted. Generated (Graph500 Kronecker / R-MAT, or
// road-network shaped) or loaded from a SNAP edge list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim_cpp/workload/kernel_builder.h"

namespace l1d::sim::wl {

struct Graph {
  uint32_t n = 0;
  std::vector<int32_t> row_ptr, col;  // row_ptr has n + 1 entries; col[row_ptr[v] .. row_ptr[v+1]) sorted
  uint64_t edges() const { return col.size(); }  // directed edge slots (twice the undirected edges)
  int32_t degree(uint32_t v) const { return row_ptr[v + 1] - row_ptr[v]; }
};

// Graph500 Kronecker generator: 2^scale vertices, edge_factor * 2^scale edge samples from
// R-MAT (a 0.57, b 0.19, c 0.19), vertex labels permuted, then made undirected and simple.
Graph kronecker_graph(uint32_t scale, uint32_t edge_factor, Rng& rng);

// A road-network-shaped graph (issue 21). The DIMACS USA-road-d graphs that LonestarGPU and
// Pannotia give their BFS and SSSP (USA-road-d.NY / .FLA / .USA) have no hub vertex: degrees 1
// to about 4, a mean of 2.4 - 2.8 (NY: 733,846 arcs over 264,346 nodes = 2.78), arc lengths as
// weights, and vertex ids with spatial locality. Generated: n points on a jittered square
// lattice, a random spanning tree of its 4-neighbour edges (connected) plus further lattice
// edges at random up to `mean_degree`; vertices numbered tile by tile (16 x 16 lattice points,
// tiles row by row, in random order inside a tile: neighbours are near in memory but not in
// step with the lanes). `length` has one entry per CSR slot (both directions agree): the
// Euclidean length of the edge in lattice units x 40, rounded, at least 1 (about 12 - 70).
struct RoadGraph {
  Graph g;
  std::vector<int32_t> length;
};
RoadGraph road_graph(uint32_t n, double mean_degree, Rng& rng);
inline constexpr double kRoadMeanDegree = 2.78;  // USA-road-d.NY (DIMACS 9th challenge): 733,846 / 264,346

// The generated shapes a graph workload can run on (Workload::set_generator).
inline const std::vector<std::string> kGraphGenerators = {"kronecker", "road"};

// A SNAP edge list: '#' comment lines, then one edge "u v" per line (whitespace separated,
// non-negative integer ids; further columns, e.g. a weight or timestamp, are ignored). Ids are
// renumbered 0..n-1 in increasing order; edges are made undirected and simple. Throws
// InputFileError (file and line) on anything else, and for a file without edges.
Graph load_snap_edge_list(const std::string& path);

// CSR from an undirected edge list (both directions given or not; self-loops and duplicates dropped).
Graph graph_from_edges(uint32_t n, std::vector<std::pair<uint32_t, uint32_t>> edges);

// Levels of a BFS from src (-1 = unreachable).
std::vector<int32_t> bfs_levels(const Graph& g, uint32_t src);

// A BFS source as Graph500 samples one: a random vertex with an edge, retried (up to 1000 times)
// until its BFS reaches at least a quarter of the non-isolated vertices.
uint32_t pick_source(const Graph& g, Rng& rng);

// "8192 vertices, 118 K edges" (undirected edges).
std::string describe(const Graph& g);

// Base of the graph workloads: the input graph (a SNAP edge list given with set_input_file, else
// a Kronecker graph), its CSR arrays in memory, and the pull-style min-relaxation rounds that
// sssp and cc share.
class GraphWorkload : public GeneratedWorkload {
 public:
  WorkloadInfo info() const override {
    WorkloadInfo i = graph_info();
    i.input = graph_ ? describe(*graph_) : "";
    i.input_format = "SNAP edge list";
    return i;
  }

 protected:
  virtual WorkloadInfo graph_info() const = 0;  // irregular, cache_sensitive, suite
  std::vector<std::string> generators() const override { return kGraphGenerators; }
  // Sets graph_ and places "row_ptr" and "col" (row_ptr_, col_). Generated: a Kronecker graph of
  // 2^lg vertices and edge_factor * 2^lg edge samples, or a road network (road_length_ its edge
  // lengths) when generator_ is "road" (2^lg vertices, or road_n when not 0) or when generator_
  // is "" and road_n is not 0 (the workload's default at this scale: road_n vertices).
  void make_graph(FunctionalMemory& mem, uint32_t lg, uint32_t edge_factor, Rng& rng, uint32_t road_n = 0);
  // Small's graph on a device that gtx480's does not fill (issue 21: fill every SM of the preset):
  // 0 (the workload's Kronecker graph of 2^gtx480_lg vertices, a thread each: cc, dc, gc 2^15, 128
  // CTAs where gtx480 holds 90) or, on a device whose fill of 8-warp CTAs has more threads, that
  // many vertices of a road network (make_graph's road_n; qv100 640 x 256 = 163840, a100 864 x 256
  // = 221184). A Kronecker graph of 2^18 vertices filled them too but its hub kept one warp looping
  // for most of the run (cc on qv100: 1.58 M warp instructions, 796 K cycles, 3.1 resident warps
  // per scheduler, 8.5 user-s); a road network has no hub: each thread's loop is its 1 - 4 edges.
  uint32_t filling_road_n(uint32_t gtx480_lg) const {
    const uint64_t fill = uint64_t{fill_ctas(8)} * kCtaThreads;
    return fill > (uint64_t{1} << gtx480_lg) ? static_cast<uint32_t>(fill) : 0;
  }
  // Test's road network for cc, dc and gc (issue 21, branch workloads14): gtx480's fill of threads,
  // 90 CTAs x 256 = 23040 vertices (test inputs are not sized by the device), one thread each and
  // 1 - 4 edges a thread, where the Kronecker graph of 2^8 - 2^9 vertices launched 1 - 2 CTAs and
  // 2^15 vertices (90 CTAs) would keep a hub's warp looping (cc 765 K warp instructions, gc 2.8 M
  // estimated; a test run must stay under 50 K).
  static constexpr uint32_t kTestRoadN = 90 * kCtaThreads;
  // Rounds of `d[v] = min(d[v], min over neighbours u of d[u] + weight[e])` (weight null: + 0),
  // Jacobi style on ping-pong arrays "<array>_a" / "<array>_b" (round r reads one, writes the
  // other; every thread writes its own element), until a round changes nothing; round r sets
  // changed[r] when it changed something. Returns the fixpoint; rounds_ = the
  // number of rounds. One kernel `kname` per round. max_rounds > 0 stops after that many rounds
  // even if the last one changed something (capped_; a shorter run at the same grid, issue 21).
  std::vector<int32_t> add_min_rounds(FunctionalMemory& mem, const std::string& kname, const std::string& array,
                                      std::vector<int32_t> init, std::shared_ptr<const std::vector<int32_t>> weight,
                                      uint32_t max_rounds = 0);
  // The result check of add_min_rounds: both arrays and changed against `fixpoint`.
  void check_min_rounds(ResultCheck& c, const std::string& array, const std::vector<int32_t>& fixpoint) const;
  // The check of capped rounds: the last round's output `last` and its input `prev` (the two
  // arrays), changed against whether each round changed something.
  void check_capped_rounds(ResultCheck& c, const std::string& array, const std::vector<int32_t>& last,
                           const std::vector<int32_t>& prev, const std::vector<int32_t>& changed) const;

  std::shared_ptr<const Graph> graph_;
  std::vector<int32_t> road_length_;  // per CSR slot, when make_graph made a road network; else empty
  Addr row_ptr_ = 0, col_ = 0;
  uint32_t rounds_ = 0;
  bool capped_ = false;  // add_min_rounds stopped at max_rounds before its fixpoint
};

}  // namespace l1d::sim::wl
