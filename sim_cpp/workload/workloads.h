// Factories of the built-in workloads (the registry, registry.cpp, maps names to these).
// Each returns a wl::GeneratedWorkload (kernel_builder.h), whose regions() name its arrays.
#pragma once

#include <memory>

#include "sim_cpp/workload/workload.h"

namespace l1d::sim::wl {

std::unique_ptr<Workload> make_bfs();
std::unique_ptr<Workload> make_spmv();
std::unique_ptr<Workload> make_kmeans();
std::unique_ptr<Workload> make_atax();
std::unique_ptr<Workload> make_mvt();
std::unique_ptr<Workload> make_vecadd();

}  // namespace l1d::sim::wl
