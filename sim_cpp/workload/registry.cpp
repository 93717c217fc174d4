// The workload registry: one explicit table, names as `gpusim --workload` takes them.
#include <stdexcept>

#include "sim_cpp/workload/workload.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim {
namespace {

struct Entry {
  const char* name;
  std::unique_ptr<Workload> (*make)();
};

// docs/workloads.md has the suite table (workload-table) and where each comes from.
constexpr Entry kTable[] = {
    // The first six (issue 3).
    {"bfs", wl::make_bfs}, {"spmv", wl::make_spmv}, {"kmeans", wl::make_kmeans},
    {"atax", wl::make_atax}, {"mvt", wl::make_mvt}, {"vecadd", wl::make_vecadd},
    // PolyBench/GPU.
    {"bicg", wl::make_bicg}, {"gesummv", wl::make_gesummv}, {"jacobi1d", wl::make_jacobi1d}, {"adi", wl::make_adi},
    // Graph kernels (LonestarGPU, GraphBIG, Pannotia) and LonestarGPU's survey propagation.
    {"sssp", wl::make_sssp}, {"cc", wl::make_cc}, {"gc", wl::make_gc}, {"tc", wl::make_tc}, {"bc", wl::make_bc},
    {"dc", wl::make_dc}, {"sp", wl::make_sp},
    // Rodinia.
    {"hotspot", wl::make_hotspot}, {"nw", wl::make_nw}, {"gaussian", wl::make_gaussian}, {"srad", wl::make_srad},
    {"streamcluster", wl::make_streamcluster}, {"btree", wl::make_btree}, {"pfilter", wl::make_pfilter},
    {"lud", wl::make_lud}, {"backprop", wl::make_backprop}, {"heartwall", wl::make_heartwall},
    {"cfd", wl::make_cfd},
    // Mars MapReduce.
    {"strmatch", wl::make_strmatch}, {"wordcount", wl::make_wordcount}, {"simscore", wl::make_simscore},
    {"invindex", wl::make_invindex},
    // Proxy applications.
    {"comd", wl::make_comd},
    // CUDA SDK, Tango.
    {"shfl", wl::make_shfl}, {"sqn", wl::make_sqn},
};

}  // namespace

std::unique_ptr<Workload> make_workload(const std::string& name) {
  for (const Entry& e : kTable) {
    if (name == e.name) return e.make();
  }
  std::string known;
  for (const Entry& e : kTable) known += std::string(known.empty() ? "" : ", ") + e.name;
  throw std::invalid_argument("unknown workload '" + name + "' (known: " + known + ")");
}

std::vector<std::string> workload_names() {
  std::vector<std::string> names;
  for (const Entry& e : kTable) names.emplace_back(e.name);
  return names;
}

}  // namespace l1d::sim
