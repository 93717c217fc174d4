// Simulation speed of gpusim (Google Benchmark): simulated cycles per second and warp
// instructions per second for bfs and vecadd at small scale on gtx480, golden L1.
// Run with `make bench`; docs/performance.md records the numbers.
#include <benchmark/benchmark.h>

#include "common/config.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/workload/workload.h"

namespace {

void simulate(benchmark::State& state, const char* workload) {
  l1d::Config cfg = l1d::load_preset("gtx480");
  l1d::apply_policy_preset(cfg, "baseline");
  uint64_t cycles = 0, instructions = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto w = l1d::sim::make_workload(workload);
    l1d::sim::Gpu gpu(cfg, l1d::sim::SimOptions{});
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

}  // namespace

BENCHMARK_MAIN();
