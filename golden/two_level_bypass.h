// Two-level bypassing unit of one SM (SPEC section 6, Kim & Kim): a miss-rate monitor
// (13-bit saturating access and miss counters), a warp-occupancy monitor and a decision unit.
// Thresholds are compared in fixed point (Q8: round(th * 256)) exactly as the RTL does.
//
// Cycle semantics (one tick() = the end of one cycle; cycle_in_phase() counts ticks since
// the current phase began, so it is 0 right after a phase starts):
// - A sampling window starts in C mode at construction, at kernel_start(), after every
//   C-mode decision and at the end of every bypass period. Starting a window clears the
//   access, miss and occupancy monitors.
// - In a window, record_access() counts accesses and misses (each saturates at kCounterMax)
//   and tick(occupancy) adds occupancy to occupancy_sum(). Accesses recorded before a tick
//   belong to that tick's cycle.
// - The tick that brings cycle_in_phase() to window_cycles closes the window: after its
//   occupancy is added the unit decides, in this order:
//     accesses == 0                                         -> C
//     misses * 256 < th_low_q8 * accesses                   -> C
//     misses * 256 > th_high_q8 * accesses                  -> B
//     occupancy_sum * 256 < th_warp_q8 * max_warps * window -> B, otherwise C
//   and counts the decision. C: a new window starts at once. B: the monitors are cleared and
//   B mode lasts exactly bypass_period_cycles further ticks (record_access() is ignored and
//   occupancy is not summed); the tick that brings cycle_in_phase() to bypass_period_cycles
//   starts a new window in C mode. So bypass() is true for the accesses of exactly
//   bypass_period_cycles cycles.
// - kernel_start() abandons the current window or bypass period; the decision counters are
//   run-long statistics and are kept.
// - tick() throws std::invalid_argument when occupancy > max_warps (a caller bug); the
//   constructor throws it for thresholds outside [0, 1], a zero window or period, or zero
//   max_warps.
#pragma once

#include <cstdint>

#include "common/config.h"

namespace l1d::golden {

class TwoLevelBypassUnit {
 public:
  enum class Mode : uint8_t { kCache, kBypass };
  static constexpr uint32_t kCounterMax = (1u << 13) - 1;

  TwoLevelBypassUnit(const TwoLevelConfig& cfg, uint32_t max_warps);

  // Kernel launch: a new sampling window starts, cache mode.
  void kernel_start();
  // One L1 load access during a sampling window (ignored in bypass mode).
  void record_access(bool miss);
  // End of one cycle; occupancy = warps with a valid instruction-buffer entry this cycle.
  // Closes the window (and decides) or the bypass period when its last cycle ends.
  // Inline for the cycles inside a C-mode window, which only count (the L1 ticks the unit every
  // cycle, under every policy: a call per cycle was 2 % of a qv100 trace run).
  void tick(uint32_t occupancy) {
    if (occupancy <= max_warps_ && mode_ == Mode::kCache && uint64_t{cycle_} + 1 < cfg_.window_cycles) {
      ++cycle_;
      occupancy_sum_ += occupancy;
      return;
    }
    tick_edge(occupancy);
  }

  // Cycle skipping (sim_cpp/gpu/gpu.cpp): how many further ticks with `occupancy` only count
  // (no window or bypass period ends in them), and advance(n, occupancy) = n such ticks.
  uint64_t counting_ticks(uint32_t occupancy) const {
    if (occupancy > max_warps_) return 0;
    const uint64_t phase = mode_ == Mode::kCache ? cfg_.window_cycles : cfg_.bypass_period_cycles;
    return phase > uint64_t{cycle_} + 1 ? phase - cycle_ - 1 : 0;
  }
  void advance(uint64_t n, uint32_t occupancy) {
    cycle_ += static_cast<uint32_t>(n);
    if (mode_ == Mode::kCache) occupancy_sum_ += n * occupancy;
  }

  Mode mode() const { return mode_; }
  bool bypass() const { return mode_ == Mode::kBypass; }
  uint32_t accesses() const { return accesses_; }
  uint32_t misses() const { return misses_; }
  uint64_t occupancy_sum() const { return occupancy_sum_; }
  uint32_t cycle_in_phase() const { return cycle_; }
  uint32_t decisions_bypass() const { return decisions_bypass_; }
  uint32_t decisions_cache() const { return decisions_cache_; }

 private:
  Mode decide() const;
  // tick() for the other cycles: a bad occupancy, bypass mode, a window's last cycle.
  void tick_edge(uint32_t occupancy);
  void start_window();

  TwoLevelConfig cfg_;
  uint32_t max_warps_;
  uint32_t th_low_q8_, th_high_q8_, th_warp_q8_;
  Mode mode_ = Mode::kCache;
  uint32_t cycle_ = 0;
  uint32_t accesses_ = 0, misses_ = 0;
  uint64_t occupancy_sum_ = 0;
  uint32_t decisions_bypass_ = 0, decisions_cache_ = 0;
};

}  // namespace l1d::golden
