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

constexpr Entry kTable[] = {
    {"bfs", wl::make_bfs},   {"spmv", wl::make_spmv}, {"kmeans", wl::make_kmeans},
    {"atax", wl::make_atax}, {"mvt", wl::make_mvt},   {"vecadd", wl::make_vecadd},
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
