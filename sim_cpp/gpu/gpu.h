// The GPU: SMs (core/sm.h), a block (CTA) scheduler, the memory system below the L1s, the
// SM-level runtime controllers, a watchdog and the statistics. docs/simulator.md describes it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/config.h"
#include "sim_cpp/core/controllers.h"
#include "sim_cpp/core/memory_port.h"
#include "sim_cpp/core/sm.h"
#include "sim_cpp/l1/l1_port.h"
#include "sim_cpp/mem/functional_memory.h"
#include "sim_cpp/workload/workload.h"

namespace l1d::sim {

class ParallelFor;

struct SimOptions {
  std::string scheduler;             // "" = the preset's core.scheduler
  uint32_t active_set = 8;           // two-level scheduler: active warps per scheduler
  uint32_t warp_limit = 0;           // warp-opt per scheduler (throttling, PCAL); 0 = all
  std::optional<int32_t> ebt;        // PCAL EBTNum; unset: default_pcal_ebt(warp-opt)
  std::vector<std::string> controllers;  // controllers.h registry names
  ControllerParams controller;       // windows and thresholds (its warp_limit is set from warp_limit)
  uint64_t max_cycles = 0;           // 0 = no limit
  uint64_t watchdog = 100000;        // cycles without progress that stop the run; 0 = off
  bool progress = false;             // a progress line on stderr about every 2 s of wall time
  std::string l1 = "golden";         // the L1 backend's name (statistics); the L1Factory builds it
  std::string workload_name;         // for the statistics only
  std::string scale_name;            // for the statistics only
  // How the preset was chosen, for the statistics only: "" = named (--preset / --config); with
  // --preset auto the trace's SASS binary version it was chosen by.
  std::optional<uint32_t> auto_preset_binary_version;
  // Threads that run the SMs' cycles (parallel_for.h); the statistics do not depend on it. An
  // issue observer makes the run single-threaded.
  unsigned threads = 1;
  // A cycle runs on the threads only when at least this many SMs are clocked in it: below, the
  // start and finish of a parallel loop cost more than the SMs' work.
  unsigned parallel_min_sms = 8;
  // Cycle skipping (docs/performance.md "Cycle skipping"): cycles in which no clocked SM can do
  // more than count and the memory system has nothing due are jumped over, their per-cycle
  // statistics added exactly; the statistics do not depend on it. Off: gpusim --no-cycle-skip,
  // or the environment variable GPUSIM_NO_CYCLE_SKIP set to anything but "" or "0".
  bool cycle_skip = true;
};

// The progress line (SimOptions::progress: on stderr about every 2 s of wall time, rewritten in
// place after a carriage return, so one line): the cycle, the running launch as "kernel K of N" (K
// counts from 1, N is the run's launches: Workload::kernels() after init(), which every workload
// knows before the run: a trace's kernel list, and a generated workload's launches, which its
// init() computes by running the algorithm, data-dependent counts such as gc's Jones-Plassmann
// rounds or bfs' levels included), the warp instructions so far, their IPC and the simulated
// cycles per second of wall time since the run started (`seconds`).
std::string progress_text(uint64_t cycle, uint32_t kernel_index, uint32_t kernels, uint64_t warp_instructions,
                          double seconds);

// PCAL default when --ebt is not given: a third of the warp-opt warps hold tokens (EBTNum < 0),
// all warp-opt warps issue.
int32_t default_pcal_ebt(uint32_t warp_opt);

using L1Factory = std::function<std::unique_ptr<L1Port>(const Config&, uint32_t sm)>;
using MemoryFactory = std::function<std::unique_ptr<MemoryPort>(const Config&, FunctionalMemory& image)>;

enum class StopReason : uint8_t { kCompleted, kWatchdog, kMaxCycles };
const char* to_string(StopReason r);

struct RunResult {
  StopReason stop = StopReason::kCompleted;
  uint64_t cycles = 0;
  uint64_t warp_instructions = 0;
  uint64_t loads_checked = 0;
  uint64_t load_mismatches = 0;
  std::string first_mismatch;   // empty when none
  std::string watchdog_report;  // where requests sit, when the watchdog stopped the run
};

class Gpu final : private ControllerHost {
 public:
  // Throws ConfigError for an unusable configuration or options (unknown scheduler,
  // controller that does not fit the policy, ...). Default factories: the golden L1 and the
  // real memory system.
  Gpu(const Config& cfg, SimOptions opt, L1Factory l1 = {}, MemoryFactory mem = {});
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  // Initialises `w` (seed: the config's) into the memory image and runs all its kernels
  // (once per Gpu).
  RunResult run(Workload& w, WorkloadScale scale);

  // Everything, deterministic (no wall-clock values): two runs with the same inputs and seed
  // serialise byte-identically.
  nlohmann::json stats_json() const;
  // One screen.
  std::string summary() const;

  void set_issue_observer(const IssueObserver& f) {
    for (auto& s : sms_) s->set_issue_observer(f);
    observed_ = static_cast<bool>(f);
  }
  // Called with the kernel's index right before each kernel starts (the memory system is idle
  // then), e.g. to replay a trace's host-to-device copies into the L2 (sim_cpp/trace/).
  void set_kernel_hook(std::function<void(uint32_t kernel)> f) { kernel_hook_ = std::move(f); }
  // Calls f(cycle) at the end of every cycle that is a multiple of `every` (observers such as
  // the AGCB timeline; they must not change the simulation).
  void set_cycle_sampler(uint64_t every, std::function<void(uint64_t cycle)> f) {
    sampler_every_ = every;
    sampler_ = std::move(f);
  }
  // Leaves [addr, addr + bytes) in the L2 as a host-to-device copy's writes would
  // (MemoryPort::preload_l2); between kernels only.
  void preload_l2(Addr addr, uint64_t bytes) { mem_->preload_l2(addr, bytes); }

  // Introspection (tests).
  uint32_t num_sms() const override { return static_cast<uint32_t>(sms_.size()); }
  // Cycles whose SMs ran on the thread team (SimOptions::threads; not a statistic).
  uint64_t parallel_cycles() const { return parallel_cycles_; }
  // Cycles jumped over by cycle skipping (SimOptions::cycle_skip; not a statistic).
  uint64_t skipped_cycles() const { return skipped_cycles_; }
  // SM-cycles that only counted while one SM waited (Sm::set_cycle_skip; not a statistic).
  uint64_t skipped_sm_cycles() const {
    uint64_t n = 0;
    for (const auto& s : sms_) n += s->skipped_sm_cycles();
    return n;
  }
  // Of those, the SM-cycles of lazy waits (Sm::lazy_skip: the port was not read).
  uint64_t lazy_sm_cycles() const {
    uint64_t n = 0;
    for (const auto& s : sms_) n += s->lazy_sm_cycles();
    return n;
  }
  const Sm& sm(uint32_t i) const { return *sms_.at(i); }
  const MemoryPort& memory() const { return *mem_; }
  const FunctionalMemory& image() const { return image_; }
  ArchImage& arch() { return arch_; }
  const RunResult& result() const { return result_; }
  const Config& config() const { return cfg_; }

 private:
  struct KernelRecord {
    std::string name;
    uint32_t ctas = 0, warps_per_cta = 0;
    uint64_t start = 0, cycles = 0;
    L1Counters l1;  // all SMs' L1 counts at the kernel's start; at its end, its own counts
    CarveoutChoice carveout;  // the kernel's L1 size (l1.carveout; fixed: size_bytes)
  };
  // The kernel's shared-memory carveout and L1 size (docs/simulator.md "L1 carveout").
  CarveoutChoice kernel_carveout(const Kernel& k, uint32_t warps_per_cta) const;
  std::string carveout_line() const;
  L1Counters l1_totals() const;
  void end_kernel_record();  // the kernel's cycles and L1 counts
  // The SMs' lazily skipped cycles counted (Sm::settle): before the GPU or a sampler reads them.
  void settle_sms();

  uint32_t warps_per_scheduler() const override;
  bool sm_busy(uint32_t sm) const override { return sms_[sm]->busy(); }
  void set_warp_limit(uint32_t sm, uint32_t n) override { sms_[sm]->set_warp_limit(n); }
  void set_pcal_ebt(uint32_t sm, int32_t ebt) override { sms_[sm]->set_pcal_ebt(ebt); }
  void set_agelru_enable(uint32_t sm, bool on) override { sms_[sm]->set_agelru_enable(on); }

  bool run_kernel(const Kernel& k, uint32_t index);
  // Returns whether a CTA was launched.
  bool dispatch(const Kernel& k, uint32_t warps_per_cta, uint32_t total, uint32_t& next);
  // Jumps from now_ over the cycles before `limit` (and before the next cycle sampler call,
  // controller window end, watchdog check or max_cycles stop) in which no clocked SM and not the
  // memory system can do anything but count; `windows`: controller windows are running. Returns
  // whether it skipped.
  bool skip_idle_cycles(uint64_t limit, bool windows);
  void window_begin();
  void window_end();
  uint64_t memory_signature() const;
  std::string watchdog_report() const;
  void progress_line(uint32_t kernel_index);
  uint64_t instructions() const;
  // Occupancy statistics (issue 21): the "occupancy" JSON section and its summary line.
  nlohmann::json occupancy_json() const;
  std::string occupancy_line() const;

  Config cfg_;
  SimOptions opt_;
  FunctionalMemory image_;  // what DRAM/L2 hold (the memory system's image)
  ArchImage arch_{image_};  // the architectural image the loads are checked against
  std::unique_ptr<MemoryPort> mem_;
  std::vector<std::unique_ptr<Sm>> sms_;
  std::unique_ptr<ParallelFor> pool_;  // opt_.threads > 1
  std::vector<Sm*> clocked_;           // this cycle's non-quiescent SMs
  bool port_events_ = false;           // the SMs' lazy waits (Sm::set_port_events)
  bool observed_ = false;              // an issue observer is set: cycles stay on this thread
  uint64_t parallel_cycles_ = 0;
  uint64_t skipped_cycles_ = 0;
  std::vector<std::unique_ptr<Controller>> controllers_;
  std::vector<KernelRecord> kernels_;
  RunResult result_;
  bool ran_ = false;
  uint64_t now_ = 0;
  uint32_t rr_ = 0;  // block scheduler: next SM to offer a CTA
  std::function<void(uint32_t)> kernel_hook_;
  uint64_t sampler_every_ = 0;
  std::function<void(uint64_t)> sampler_;

  // Watchdog.
  uint64_t last_progress_ = 0;
  uint64_t mem_signature_ = 0;

  // Controller windows.
  uint64_t window_start_ = 0;
  WindowSample sample_;
  std::vector<SmWindow> base_;  // counters at the window start (absolute)
  uint64_t base_noc_sum_ = 0, base_noc_packets_ = 0;

  // Progress line.
  double wall_start_ = 0, wall_last_ = 0;
  uint32_t launches_ = 0;  // the workload's kernels() after init()
};

}  // namespace l1d::sim
