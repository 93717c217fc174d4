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
std::unique_ptr<Workload> make_bicg();
std::unique_ptr<Workload> make_gesummv();
std::unique_ptr<Workload> make_jacobi1d();
std::unique_ptr<Workload> make_hotspot();
std::unique_ptr<Workload> make_sssp();
std::unique_ptr<Workload> make_cc();
std::unique_ptr<Workload> make_gc();
std::unique_ptr<Workload> make_tc();
std::unique_ptr<Workload> make_bc();
std::unique_ptr<Workload> make_nw();
std::unique_ptr<Workload> make_gaussian();
std::unique_ptr<Workload> make_srad();
std::unique_ptr<Workload> make_streamcluster();
std::unique_ptr<Workload> make_btree();
std::unique_ptr<Workload> make_pfilter();
std::unique_ptr<Workload> make_strmatch();
std::unique_ptr<Workload> make_wordcount();
std::unique_ptr<Workload> make_simscore();
std::unique_ptr<Workload> make_comd();
std::unique_ptr<Workload> make_invindex();
std::unique_ptr<Workload> make_adi();
std::unique_ptr<Workload> make_lud();
std::unique_ptr<Workload> make_backprop();
std::unique_ptr<Workload> make_cfd();
std::unique_ptr<Workload> make_sp();
std::unique_ptr<Workload> make_heartwall();
std::unique_ptr<Workload> make_dc();
std::unique_ptr<Workload> make_shfl();
std::unique_ptr<Workload> make_sqn();

}  // namespace l1d::sim::wl
