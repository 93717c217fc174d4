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
  // free) LDST unit. Step 5: the fetch stage.
  if (ldst_waiting_) return now;
  at = std::min(at, issue_sleep_until_);
  return std::max(fetch_wake(now, at), now);
}

uint64_t Sm::fetch_wake(uint64_t now, uint64_t at) const {
  // The fetch stage decodes last cycle's fetch, and fetches a resident warp with an empty
  // i-buffer from its fetch_at on.
  if (!fetch_ibuffer_) return at;
  if (fetch_slot_ != kNoFetch) return now;
  for (uint32_t s = 0; s < issue_.size(); ++s)
    if (issue_[s].state == WarpIssueState::State::kResident && !issue_[s].ibuf_valid) at = std::min(at, warps_[s].fetch_at);
  return at;
}

void Sm::count_cycles(uint64_t n) {
  stats_.clocked_cycles += n;
  if (live_warps_ > 0) stats_.busy_cycles += n;
  if (resident_warps_ > 0) {
    occ_.resident_cycles += n;
    occ_.resident_sum += n * resident_warps_;
    occ_.active_sum += n * occupancy_;
  }
}

void Sm::skip_cycles(uint64_t n) {
  settle();
  count_cycles(n);
  l1_->skip_quiet_cycles(n, occupancy_, agelru_enable_);
}

uint64_t Sm::stall_until(uint64_t now) const {
  // cycle() step by step, as next_event() but with S1 stalled. Step 2: no event to send.
  if (launch_head_ < launch_queue_.size() || exit_head_ < exit_queue_.size() || pending_kernel_start_ ||
      pending_kernel_end_)
    return now;
  // l1.bypass_path direct and the before-tag pipe decide more than a refusal per cycle: not here.
  if (direct_ || ldst_.has_pipe()) return now;
  // Step 1: no response delivered from the delay line or a direct load.
  uint64_t at = ldst_.next_delivery(now);
  if (at <= now) return now;
  // Step 3: the L1 repeats S1's failure (so refuses the offer); the LDST unit takes no queued
  // instruction while it is busy (core.ldst_queue).
  const uint64_t retry = l1_->retry_cycles(occupancy_);
  if (retry == 0 || (ldst_queue_count_ > 0 && !ldst_.busy())) return now;
  at = std::min(at, now + retry);
  if (resident_warps_ == 0) return at;
  // Step 4: issue() runs from issue_sleep_until_ on, and while a scheduler waits for the LDST
  // unit and ldst_room() (in a later cycle than mem_issue_cycle_: room in the queue or the unit).
  const bool room = ldst_queue_cap_ == 0 ? !ldst_.busy() : !ldst_.busy() || ldst_queue_count_ < ldst_queue_cap_;
  if (ldst_waiting_ && room) return now;
  at = std::min(at, issue_sleep_until_);
  return std::max(fetch_wake(now, at), now);  // step 5
}

void Sm::settle_lazy() {
  // The cycles lazy_skip() skipped follow the wait's first skipped cycle (now_) one by one, and
  // nothing the counts read changed meanwhile: count them as skip_this_cycle() would have.
  lazy_ = false;
  const uint64_t n = lazy_cycles_;
  lazy_cycles_ = 0;
  if (n == 0) return;
  now_ += n;
  skipped_sm_cycles_ += n;
  lazy_sm_cycles_ += n;
  count_cycles(n);
  if (stalled_) {
    l1_->skip_retry_cycles(n, occupancy_);
    ldst_.skip_refused(n);
  } else {
    l1_->skip_quiet_cycles(n, occupancy_, agelru_enable_);
  }
}

bool Sm::skip_this_cycle(uint64_t now) {
  settle();  // the lazy wait ended (lazy_skip said no)
  // A response from the port, or a cycle after one that moved: the cycle runs (and the next
  // wait is asked afresh after it). A stalled S1 also waits for its miss queue's head to leave.
  if (fetched_resp_ || (summary_ & kMoved) || (wake_known_ && stalled_ && in_.mem_req_ready && l1_->mem_req_pending())) {
    wake_known_ = false;
    return false;
  }
  if (!wake_known_) {
    wake_at_ = next_event(now);
    stalled_ = false;
    if (wake_at_ <= now) {
      wake_at_ = stall_until(now);
      stalled_ = true;
      if (in_.mem_req_ready && l1_->mem_req_pending()) wake_at_ = now;
    }
    wake_known_ = true;
  }
  if (now >= wake_at_) {
    wake_known_ = false;
    return false;
  }
  now_ = now;
  ++skipped_sm_cycles_;
  if (stalled_) {
    // What cycle() does while S1's failure repeats: the per-cycle counts, the L1's repeated
    // failure, and the LDST unit's refused offer (stall and busy cycles) if it offers one.
    count_cycles(1);
    l1_->skip_retry_cycles(1, occupancy_);
    if (ldst_.busy()) ldst_.refused();
    ldst_.tick();
  } else {
    // What cycle() would do in a cycle before next_event(): count it (skip_cycles), nothing else.
    // mem_room_ is not read: with an empty miss queue and an idle LDST unit nothing is sent.
    skip_cycles(1);
  }
  const bool serial = peeked_resp_ | mem_req_fired_ | direct_req_fired_ | ldst_.arch_pending() |
                      (completed_ctas_ != 0) | slots_freed_ | sleeping_;
  summary_ = static_cast<uint8_t>(serial ? kSerialWork : 0);
  // The next cycles are lazy (lazy_skip) when the serial loop has nothing to do for this SM:
  // until the wake, a response (its arrival as the port stands, or a grant: note_response), or
  // with S1 stalled behind a miss queue whose head waits for room (room 0 this cycle, or the
  // cycle would have run), a raised room (note_room).
  if (port_events_ && !serial) {
    lazy_ = true;
    lazy_room_ = stalled_ && l1_->mem_req_pending();
    lazy_until_ = std::min(wake_at_, mem_.response_arrival(id_));
  }
  return true;
}

}  // namespace l1d::sim
