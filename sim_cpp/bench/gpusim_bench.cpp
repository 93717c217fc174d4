// Simulation speed of gpusim (Google Benchmark): simulated cycles per second and warp
// instructions per second for bfs and vecadd at small scale on gtx480, with the golden L1 and
// (when built with Verilator) the verilated RTL L1 in every SM; and for traces: the shared real
// traces (../shared/traces) on their presets and the synthetic elementwise trace that `make bench`
// writes (scripts/gen_elementwise_trace.py, GPUSIM_BENCH_TRACE) on qv100, on 1 and 2 threads.
// The trace is read before the timing starts. Run with `make bench`; docs/performance.md records
// the numbers.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <utility>
#include <filesystem>
#include <string>

#include "common/config.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/trace/trace_workload.h"
#include "sim_cpp/workload/workload.h"
#ifdef GPUSIM_VERILATED_L1
#include "sim_cpp/verilated/verilated_l1.h"
#endif

namespace {

// Times `runs` whole simulations: setup(gpu_opt) builds a Gpu and the workload it runs (untimed).
template <typename Setup>
void timed_runs(benchmark::State& state, Setup&& setup) {
  uint64_t cycles = 0, instructions = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto [gpu, workload] = setup();
    state.ResumeTiming();
    const l1d::sim::RunResult r = gpu->run(*workload, l1d::sim::WorkloadScale::kSmall);
    if (r.stop != l1d::sim::StopReason::kCompleted || r.load_mismatches) state.SkipWithError("run did not complete cleanly");
    cycles += r.cycles;
    instructions += r.warp_instructions;
  }
  state.counters["cycles/s"] = benchmark::Counter(static_cast<double>(cycles), benchmark::Counter::kIsRate);
  state.counters["warp-instr/s"] = benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
}

void simulate(benchmark::State& state, const char* workload, l1d::sim::L1Factory l1 = {}) {
  l1d::Config cfg = l1d::load_preset("gtx480");
  l1d::apply_policy_preset(cfg, "baseline");
  timed_runs(state, [&] {
    std::shared_ptr<l1d::sim::Workload> w = l1d::sim::make_workload(workload);
    return std::pair{std::make_unique<l1d::sim::Gpu>(cfg, l1d::sim::SimOptions{}, l1), w};
  });
}

void BM_bfs(benchmark::State& s) { simulate(s, "bfs"); }
void BM_vecadd(benchmark::State& s) { simulate(s, "vecadd"); }
BENCHMARK(BM_bfs)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_vecadd)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// A trace on `preset` with state.range(0) threads.
void replay(benchmark::State& state, const std::string& dir, const char* preset) {
  if (dir.empty() || !std::filesystem::exists(dir)) {
    state.SkipWithError(("no trace at '" + dir + "' (make bench writes the synthetic one)").c_str());
    return;
  }
  l1d::Config cfg = l1d::load_preset(preset);
  l1d::apply_policy_preset(cfg, "baseline");
  l1d::sim::SimOptions opt;
  opt.threads = static_cast<unsigned>(state.range(0));
  const std::shared_ptr<l1d::sim::trace::TraceWorkload> w =
      l1d::sim::trace::load_trace_workload(dir, {std::nullopt, cfg.l1.address_bits});
  timed_runs(state, [&] {
    auto gpu = std::make_unique<l1d::sim::Gpu>(cfg, opt);
    l1d::sim::trace::attach_copies(*gpu, *w);
    return std::pair{std::move(gpu), w};
  });
}

std::string shared_trace(const char* name) { return std::string(L1D_TRACE_DIR) + "/" + name; }
std::string synthetic_trace() {
  const char* dir = std::getenv("GPUSIM_BENCH_TRACE");
  return dir ? dir : "";
}

void BM_trace_bfs_rodinia_qv100(benchmark::State& s) { replay(s, shared_trace("bfs_rodinia31_bv70"), "qv100"); }
void BM_trace_backprop_h100_qv100(benchmark::State& s) { replay(s, shared_trace("backprop_h100_bv90"), "qv100"); }
void BM_trace_vecadd_a100_qv100(benchmark::State& s) { replay(s, shared_trace("vecadd_a100_bv80"), "qv100"); }
void BM_trace_matrixmul_gtx1080(benchmark::State& s) { replay(s, shared_trace("romnn_matrixmul_32"), "gtx1080"); }
void BM_trace_elementwise_qv100(benchmark::State& s) { replay(s, synthetic_trace(), "qv100"); }
BENCHMARK(BM_trace_bfs_rodinia_qv100)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_trace_backprop_h100_qv100)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_trace_vecadd_a100_qv100)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_trace_matrixmul_gtx1080)->Arg(1)->ArgName("threads")->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_trace_elementwise_qv100)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->MinTime(2.0);

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
