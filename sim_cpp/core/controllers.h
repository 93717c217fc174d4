// SM-level runtime controllers (DESIGN.md "Policies are plug-ins"): software-visible knobs of
// the SMs set at kernel start and at the end of sampling windows. Registered by name in one
// table (controllers.cpp):
//   throttle        static warp throttling: warp-opt warps per scheduler may issue;
//   dynamic-pcal    the EBTNum predictor of dissertation 4.4 (SPEC 7): Init, Hill-Climbing,
//                   Parallel-Voting and Stable states with a phase detector;
//   dynamic-agelru  Dynamic-AgeLRU parallel voting (SPEC 8): for one window half of the busy
//                   SMs run AgeLRU and the others LRU; the better group's policy goes to all.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace l1d::sim {

// Per-SM activity during one window.
struct SmWindow {
  uint64_t instructions = 0;
  uint64_t busy_cycles = 0;  // cycles with warps on the SM
  uint64_t l1_accesses = 0, l1_misses = 0;
  uint64_t ldst_stall_cycles = 0;  // the LDST unit's request refused by the L1
  uint32_t resident_warps = 0;     // at the end of the window
  uint32_t throttled_warps = 0;    // resident warps the issue limit holds back, at the end
};

struct WindowSample {
  uint64_t index = 0;   // window number within the kernel (within the run when the state is kept)
  uint64_t cycles = 0;  // window length
  std::vector<SmWindow> sms;
  double noc_latency = 0;  // mean request-network latency of the window's packets (0: none)

  uint64_t instructions() const;
  double ipc() const { return cycles ? static_cast<double>(instructions()) / static_cast<double>(cycles) : 0.0; }
  double l1_miss_rate() const;
  // An SM busy for the whole window (only those vote).
  bool full(uint32_t sm) const { return sms[sm].busy_cycles == cycles; }
};

// What a controller may see and set.
class ControllerHost {
 public:
  virtual uint32_t num_sms() const = 0;
  virtual uint32_t warps_per_scheduler() const = 0;
  virtual bool sm_busy(uint32_t sm) const = 0;
  virtual void set_warp_limit(uint32_t sm, uint32_t per_scheduler) = 0;  // 0 = all
  virtual void set_pcal_ebt(uint32_t sm, int32_t ebt) = 0;
  virtual void set_agelru_enable(uint32_t sm, bool on) = 0;

 protected:
  ~ControllerHost() = default;
};

struct ControllerParams {
  uint32_t warp_limit = 0;         // warp-opt per scheduler (throttle, dynamic-pcal); 0 = all
  uint64_t window = 10000;         // sampling window, cycles
  double phase_threshold = 0.25;   // relative IPC (or absolute L1 miss-rate) change that signals a phase
  uint32_t phase_windows = 2;      // ... when it lasts this many windows
  double hill_up = 1.10;           // dynamic-pcal: keep climbing above this IPC ratio
  double hill_down = 0.97;         // ... step back below it
  double noc_latency_limit = 40;   // dynamic-pcal: spare resources need NoC latency <= this
  double stall_limit = 0.3;        // ... and an LDST stall ratio <= this
  // dynamic-pcal, dynamic-agelru: what was learned (state, decision, phase detector) survives
  // kernel launches, and the window runs on across them (policy.pcal / policy.agelru
  // keep_across_launches, set by the GPU); false: every launch starts from Init / a new vote.
  bool keep_across_launches = false;
};

class Controller {
 public:
  virtual ~Controller() = default;
  virtual std::string name() const = 0;
  // Called in the first cycle of every kernel, after its first CTAs were dispatched.
  virtual void kernel_start(ControllerHost& host, uint32_t kernel) = 0;
  // The GPU starts a new window at a launch unless every controller keeps its state across it.
  virtual bool keeps_state_across_launches() const = 0;
  // Called at the end of every full window (of a kernel, or spanning launches when kept).
  virtual void window(ControllerHost& host, const WindowSample& s) = 0;
  // Decisions taken, for the statistics (deterministic).
  virtual nlohmann::json report() const = 0;
};

std::unique_ptr<Controller> make_controller(const std::string& name, const ControllerParams& p);  // std::invalid_argument
std::vector<std::string> controller_names();

}  // namespace l1d::sim
