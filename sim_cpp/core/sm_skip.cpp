// Cycle skipping for one SM (Sm::next_event, Sm::skip_cycles; the GPU's side is in
// sim_cpp/gpu/gpu.cpp, docs/performance.md "Cycle skipping"). Kept apart from sm.cpp: it reads
// what Sm::cycle() tests, step by step, and must change with it.
#include "sim_cpp/core/sm.h"

#include <algorithm>

namespace l1d::sim {

uint64_t Sm::next_event(uint64_t now) const {
  // Step 2: an event to send to the L1.
  if (launch_head_ < launch_queue_.size() || exit_head_ < exit_queue_.size() || pending_kernel_start_ ||
      pending_kernel_end_)
    return now;
  // Steps 1 and 3: a response due from the delay line or a direct load, a request offered to the
  // L1 or into the before-tag pipe, the pipe's head presented (the LDST unit is idle otherwise,
  // so no direct load leaves either).
  uint64_t at = ldst_.next_event(now);
  if (at <= now) return now;
  // Step 3: the L1 with nothing in S1, the miss queue, the fill FIFO or the response register
  // only counts, until its two-level window or bypass period ends.
  const uint64_t quiet = l1_->quiet_cycles(occupancy_);
  if (quiet == 0) return now;
  at = std::min(at, now + quiet);
  if (resident_warps_ == 0) return at;
  // Step 4: issue() runs from issue_sleep_until_ on, and whenever a scheduler waits for the (now
  // free) LDST unit.
  if (ldst_waiting_) return now;
  at = std::min(at, issue_sleep_until_);
  // Step 5: the fetch stage decodes last cycle's fetch, and fetches a resident warp with an empty
  // i-buffer from its fetch_at on.
  if (fetch_ibuffer_) {
    if (fetch_slot_ != kNoFetch) return now;
    for (const Warp& w : warps_)
      if (w.state == Warp::State::kResident && !w.ibuf_valid) at = std::min(at, w.fetch_at);
  }
  return std::max(at, now);
}

void Sm::skip_cycles(uint64_t n) {
  stats_.clocked_cycles += n;
  if (live_warps_ > 0) stats_.busy_cycles += n;
  if (resident_warps_ > 0) {
    occ_.resident_cycles += n;
    occ_.resident_sum += n * resident_warps_;
    occ_.active_sum += n * occupancy_;
  }
  l1_->skip_quiet_cycles(n, occupancy_, agelru_enable_);
}

}  // namespace l1d::sim
