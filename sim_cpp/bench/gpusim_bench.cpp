// Simulation speed of gpusim (Google Benchmark): simulated cycles per second and warp
// instructions per second for bfs and vecadd at small scale on gtx480, with the golden L1 and
// (when built with Verilator) the verilated RTL L1 in every SM.
// Run with `make bench`; docs/performance.md records the numbers.
#include <benchmark/benchmark.h>

#include "common/config.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/workload/workload.h"
#ifdef GPUSIM_VERILATED_L1
#include "sim_cpp/verilated/verilated_l1.h"
#endif

namespace {

void simulate(benchmark::State& state, const char* workload, l1d::sim::L1Factory l1 = {}) {
  l1d::Config cfg = l1d::load_preset("gtx480");
  l1d::apply_policy_preset(cfg, "baseline");
  uint64_t cycles = 0, instructions = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto w = l1d::sim::make_workload(workload);
    l1d::sim::Gpu gpu(cfg, l1d::sim::SimOptions{}, l1);
    state.ResumeTiming();
    const l1d::sim::RunResult r = gpu.run(*w, l1d::sim::WorkloadScale::kSmall);
    if (r.stop != l1d::sim::StopReason::kCompleted || r.load_mismatches) state.SkipWithError("run did not complete cleanly");
    cycles += r.cycles;
    instructions += r.warp_instructions;
  }
  state.counters["cycles/s"] = benchmark::Counter(static_cast<double>(cycles), benchmark::Counter::kIsRate);
  state.counters["warp-instr/s"] = benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
}

void BM_bfs(benchmark::State& s) { simulate(s, "bfs"); }
void BM_vecadd(benchmark::State& s) { simulate(s, "vecadd"); }
BENCHMARK(BM_bfs)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_vecadd)->Unit(benchmark::kMillisecond)->MinTime(2.0);

#ifdef GPUSIM_VERILATED_L1
l1d::sim::L1Factory verilated() {
  return [](const l1d::Config& c, uint32_t) { return l1d::sim::make_verilated_l1(c); };
}
void BM_bfs_verilated(benchmark::State& s) { simulate(s, "bfs", verilated()); }
void BM_vecadd_verilated(benchmark::State& s) { simulate(s, "vecadd", verilated()); }
BENCHMARK(BM_bfs_verilated)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_vecadd_verilated)->Unit(benchmark::kMillisecond)->MinTime(2.0);
#endif

}  // namespace

BENCHMARK_MAIN();
