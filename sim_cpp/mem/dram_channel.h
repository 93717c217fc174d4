// One DRAM channel: a scheduler queue, banks with an open-page row buffer, FR-FCFS, and a
// data-bus bandwidth limit.
//
// Per cycle the channel issues at most one column command (read or write burst) and at most
// one activation, and activations are at least tRRD apart:
// - Column: the oldest queued request that hits the open row of a bank whose activation has
//   completed, when the bus has credit. Its data is at the L2 dram_latency cycles later.
// - Activation: the oldest queued request whose bank is not activating, whose row is not the
//   open one, and whose bank has no queued request hitting its open row (row hits first: an
//   open row is not closed while hits to it are waiting). A closed bank takes tRCD; an open
//   one precharges first (not before tRAS after its activation) and then takes tRP + tRCD.
// Unloaded read latency: row hit dram_latency; closed bank tRCD + dram_latency; row conflict
// tRP + tRCD + dram_latency (gtx480: 100 / 110 / 120 core cycles).
// Bandwidth: the bus earns bw_num / bw_den bytes per core cycle (exact fraction); a burst of
// b bytes may start while the credit is positive and costs b (the credit may go negative, so
// the long-run rate is exact; credit earned while idle is capped at one cycle's worth).
// A request counts as a row miss when an activation was made for it, else as a row hit.
// Not modelled: read/write bus turnaround, tFAW, refresh, and the FR-FCFS starvation cap some
// controllers add (a queue of 32 and finite rows bound how long a row miss can wait).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim_cpp/mem/address_map.h"
#include "sim_cpp/mem/mem_packets.h"
#include "sim_cpp/mem/mem_params.h"
#include "sim_cpp/mem/memory_system.h"
#include "sim_cpp/mem/ring.h"

namespace l1d::sim {

class DramChannel {
 public:
  // stats: the counters this channel adds to (dram_*), may be shared by channels.
  DramChannel(const MemParams& p, const AddressMap& map, MemorySystemStats* stats);

  bool can_accept() const { return queue_.size() < capacity_; }
  void enqueue(const DramRequest& r, uint64_t now);
  // Issues the commands of cycle `now` (call once per cycle, or skip idle cycles).
  void tick(uint64_t now);

  // A read whose data has reached the L2 by `now` (completion order = issue order).
  const DramRequest* completed(uint64_t now) const {
    return done_.empty() || done_.front().ready > now ? nullptr : &done_.front().req;
  }
  void pop_completed() { done_.pop_front(); }

  bool idle() const { return queue_.empty() && done_.empty(); }
  // Cycle skipping (MemorySystem::next_event): the first cycle from `now` on in which the channel
  // may issue a command or complete a read (~0: none). Credit is earned from elapsed time
  // (earn_credit), so ticks skipped before it change nothing.
  uint64_t next_event(uint64_t now) const {
    uint64_t at = done_.empty() ? ~uint64_t{0} : done_.front().ready;
    if (!queue_.empty()) at = std::min(at, quiet_until_);
    return std::max(at, now);
  }
  size_t queued() const { return queue_.size(); }
  size_t reads_in_flight() const { return done_.size(); }
  uint32_t capacity() const { return capacity_; }
  std::string describe(uint64_t now) const;

 private:
  struct Entry {
    DramRequest req;
    uint32_t bank = 0;
    uint64_t row = 0;
    bool activated = false;  // an activation was made for this request (row miss)
  };
  struct Bank {
    bool open = false;
    uint64_t row = 0;
    uint64_t ready = 0;     // activation complete: column commands allowed from this cycle
    uint64_t act_at = 0;    // cycle of the activate command (tRAS)
    uint32_t queued_hits = 0;  // queued requests to the open row
    uint32_t queued = 0;       // queued requests to the bank
  };
  struct Done {
    uint64_t ready = 0;
    DramRequest req;
  };

  void earn_credit(uint64_t now);

  MemParams p_;
  AddressMap map_;
  MemorySystemStats* stats_;
  uint32_t capacity_;
  std::vector<Entry> queue_;       // oldest first
  std::vector<Bank> banks_;
  Ring<Done> done_;
  int64_t credit_;  // bytes * bw_den
  uint64_t credit_at_ = 0;
  uint64_t next_act_ = 0;  // tRRD: earliest next activation in this channel
  // tick() issues nothing before this cycle (after a tick that issued nothing: the first cycle a
  // row hit's bank is ready with bus credit, or a row miss's bank is ready past tRRD). Only an
  // issue or an enqueue changes what the scheduler's scan sees, and the scan of a long queue in
  // every cycle of a bus-bound run was a tenth of gpusim's time (docs/performance.md).
  uint64_t quiet_until_ = 0;
};

}  // namespace l1d::sim
