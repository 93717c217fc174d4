// The load/store unit of one SM (GPGPU-Sim-like): it holds at most one memory instruction,
// coalesces it (coalescer.h) and offers its requests to the L1 one per cycle on the core
// request port (valid/ready; a refused request stalls the unit). L1 responses go through a
// fixed delay of l1.hit_latency cycles before the warp sees them (SPEC 1: the hit latency is
// modelled outside the L1).
//
// Two reference-faithful paths (docs/l1d-microarchitecture.md 13.5, 13.6; off by default):
// - l1.hit_latency_at before_tag: requests leave the unit into a pipe of hit_latency - 1 stages
//   whose head is presented to the L1 (GPGPU-Sim 4.x's l1_latency_queue); a request counts as
//   accepted when it enters the pipe.
// - l1.bypass_path direct: a load the two-level unit bypasses leaves the unit as a memory read
//   (dispatch_direct) and its memory response comes back here (direct_response), never to the L1.
//
// Data check: the unit updates the architectural memory image (`arch`, arch_image.h): a store's bytes are
// written to it when the L1 accepts the store's request, and a load request's expected bytes
// are snapshotted from it when the L1 accepts the load's request; the L1's response must equal
// the snapshot (the requested bytes, zero elsewhere). This is exact because an L1 serves one
// SM's accesses to an address in acceptance order and kernels never read bytes another CTA
// writes in the same kernel (workload contract).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/types.h"
#include "sim_cpp/core/arch_image.h"
#include "sim_cpp/core/coalescer.h"
#include "sim_cpp/mem/functional_memory.h"
#include "sim_cpp/workload/workload.h"

namespace l1d::sim {

struct LoadMismatch {
  uint64_t cycle = 0;      // when the L1 presented the response
  uint32_t sm = 0, warp = 0, request = 0;
  uint64_t pc = 0;
  Addr addr = 0;
  uint32_t size = 0;
  uint32_t offset = 0;     // first differing byte, in the 128 B line
  uint32_t expected = 0, got = 0;
  std::string to_string() const;
};

struct LdstStats {
  uint64_t instructions = 0, load_instructions = 0, store_instructions = 0;
  uint64_t requests = 0, load_requests = 0, store_requests = 0;
  uint64_t requests_by_size[3] = {};  // 32, 64, 128 B
  uint64_t busy_cycles = 0;           // an instruction is in the unit
  uint64_t stall_cycles = 0;          // a request was offered and the L1 was not ready
  uint64_t responses[4] = {};         // by Outcome (hit, miss-return, bypass-return, store-ack)
  uint64_t responses_by_size[4][3] = {};  // the same, by request size 32 / 64 / 128 B
  // Load requests, L1 acceptance -> data seen by the warp (includes the hit latency), by
  // outcome hit / miss-return / bypass-return.
  uint64_t latency_sum[3] = {}, latency_max[3] = {};
  uint64_t loads_checked = 0, load_mismatches = 0;
  // l1.bypass_path direct: load requests sent from the unit straight to the memory port.
  uint64_t direct_loads = 0;
  // Load requests and their L1 hits by the issuing warp's age rank on its scheduler when the
  // instruction issued (0 = oldest resident warp; the last bucket takes the rest): the
  // dissertation's Fig. 5.8 breakdown, which shows whom a replacement policy favours.
  static constexpr uint32_t kAgeRanks = 64;
  uint64_t load_requests_by_age[kAgeRanks] = {};
  uint64_t load_hits_by_age[kAgeRanks] = {};
};

class LdstUnit {
 public:
  static constexpr uint32_t kNone = ~0u;

  LdstUnit(uint32_t sm, uint32_t hit_latency, ArchImage& arch);

  bool busy() const { return busy_; }
  // A memory instruction of `warp` enters the unit (its requests, non-empty, from coalesce());
  // `age_rank` is the warp's position among its scheduler's resident warps, 0 = oldest.
  // The unit takes the requests by swapping vectors: `reqs` gets the unit's previous buffer, so
  // that the caller can reuse its storage (no allocation per instruction). `tag` comes back with
  // each of the load's responses (deliver): the SM's scoreboard names the load by it.
  void accept(uint32_t warp, uint8_t awid, bool token, uint32_t age_rank, const WarpInst& inst,
              std::vector<CoalescedRequest>& reqs, uint32_t tag = 0) {
    accept(warp, awid, token, age_rank, inst.kind, inst.pc, reqs, tag);
  }
  // The same for an instruction known by its kind (load or store) and PC (core.ldst_queue: the SM
  // keeps only these of a queued instruction).
  void accept(uint32_t warp, uint8_t awid, bool token, uint32_t age_rank, OpKind kind, uint64_t pc,
              std::vector<CoalescedRequest>& reqs, uint32_t tag);
  // The request presented on the L1's core port this cycle (valid iff busy()).
  const CoreReq& offer() const { return cur_; }
  // Changes whenever offer() presents a different request.
  uint64_t offer_serial() const { return serial_; }

  struct Fired {
    bool done = false;   // that was the instruction's last request: the unit is free
    bool store = false;  // ... and the instruction is a store
    uint32_t warp = kNone;
  };
  // The offered request fired in cycle `now`. Its effect on the architectural image (a store's
  // bytes written, a load's expected bytes snapshotted) waits for commit_arch(), which the GPU
  // calls for every SM in SM order after all SMs' cycles: the SMs of a cycle share no state
  // while they run, so they may run on several threads (docs/performance.md).
  Fired fired(uint64_t now);
  void commit_arch();
  bool arch_pending() const { return arch_op_.pending; }  // commit_arch() has work
  // The offered request was refused in this cycle.
  void refused() { ++stats_.stall_cycles; }
  // Counts a cycle with an instruction in the unit.
  void tick() { stats_.busy_cycles += busy_; }
  // n cycles of refused() (when busy) and tick() (Sm's lazy waits with S1 stalled).
  void skip_refused(uint64_t n) {
    if (busy_) stats_.stall_cycles += n, stats_.busy_cycles += n;
  }

  // The L1's core response of cycle `now`.
  void l1_response(const CoreResp& r, uint64_t now);
  // Calls f(warp, tag) for every load response whose delay has ended by `now`: direct responses of
  // earlier cycles first, then the delay line in response order.
  template <typename F>
  void deliver(uint64_t now, F&& f) {
    for (const uint32_t idx : direct_ready_) finish(idx, now, f);
    direct_ready_.clear();
    while (delay_count_ && delay_[delay_head_].due <= now) {
      const uint32_t idx = delay_[delay_head_].rec;
      delay_head_ = (delay_head_ + 1) % delay_.size();
      --delay_count_;
      finish(idx, now, f);
    }
  }

  // --- l1.hit_latency_at before_tag (contract 13.5) ---
  // Gives the unit a pipe of `stages` (>= 1) stages between it and the L1.
  void set_pipe(uint32_t stages);
  bool has_pipe() const { return pipe_stages_ > 0; }
  // The pipe's head is presented to the L1 in cycle `now`.
  bool pipe_offer_valid(uint64_t now) const { return pipe_count_ && pipe_[pipe_head_].ready <= now; }
  const CoreReq& pipe_offer() const { return pipe_[pipe_head_].req; }
  uint64_t pipe_offer_serial() const { return pipe_[pipe_head_].serial; }
  // The L1 accepted the pipe's head.
  void pipe_accepted();
  bool pipe_full() const { return pipe_count_ == pipe_stages_; }
  bool pipe_empty() const { return pipe_count_ == 0; }
  // The offered request leaves the unit into the pipe in cycle `now` (requires !pipe_full()).
  Fired dispatch_to_pipe(uint64_t now);
  // A store to the 128 B line `line` is in the pipe.
  bool pipe_holds_store(Addr line) const;
  // A request of warp slot `warp` is in the pipe.
  bool pipe_holds_warp(uint32_t warp) const;

  // --- l1.bypass_path direct (contract 13.6) ---
  // The offered request is a load.
  bool offer_is_load() const { return busy_ && kind_ == OpKind::kLoad; }
  // The offered load leaves the unit in cycle `now` as the memory read `out` (its R-aligned
  // sectors, or with BTO the sectors its byte mask touches), answered by direct_response().
  Fired dispatch_direct(uint64_t now, bool bto, MemReq& out);
  // The memory response of a direct load, in cycle `now`: checked, and delivered next cycle.
  void direct_response(const MemResp& r, uint64_t now);

  // Nothing in the unit, nothing outstanding at the L1 or memory, nothing in the delay line.
  bool quiet() const { return !busy_ && live_ == 0; }
  // Cycle skipping (sim_cpp/gpu/gpu.cpp): the first cycle from `now` on in which the unit may act
  // on its own (offer a request, deliver a delayed response, present the pipe's head; ~0: none).
  // Until then its cycles count nothing (tick() adds busy_, which is false).
  uint64_t next_event(uint64_t now) const {
    if (busy_ || !direct_ready_.empty()) return now;
    uint64_t at = ~uint64_t{0};
    if (delay_count_) at = delay_[delay_head_].due;
    if (pipe_count_) at = std::min(at, pipe_[pipe_head_].ready);
    return std::max(at, now);
  }
  // Per-SM skipping of a stalled S1 (Sm::stall_until): the first cycle from `now` on in which a
  // response is delivered (the offered request, if any, stays offered and refused till then).
  uint64_t next_delivery(uint64_t now) const {
    if (!direct_ready_.empty()) return now;
    return delay_count_ ? std::max(delay_[delay_head_].due, now) : ~uint64_t{0};
  }
  uint32_t outstanding() const { return live_; }
  std::string describe() const;
  const LdstStats& stats() const { return stats_; }
  const std::optional<LoadMismatch>& first_mismatch() const { return first_mismatch_; }

 private:
  struct Rec {
    uint32_t id = 0;
    uint32_t warp = 0;
    uint32_t age_bucket = 0;
    uint32_t tag = 0;
    bool live = false;
    bool load = false;
    bool direct = false;  // sent to memory by dispatch_direct
    Outcome outcome = Outcome::kHit;
    uint64_t accepted = 0;
    uint64_t pc = 0;
    Addr addr = 0;
    uint32_t size = 0;
    ByteMask mask;
    LineData expected{};
  };
  struct Delayed {
    uint64_t due = 0;
    uint32_t rec = 0;
  };
  struct PipeEntry {
    uint64_t ready = 0;   // first cycle the L1 sees it
    uint64_t serial = 0;  // the offer serial it had in the unit
    CoreReq req;
  };
  static constexpr uint32_t kIndexBits = 16;

  template <typename F>
  void finish(uint32_t idx, uint64_t now, F& f) {
    Rec& r = recs_[idx];
    const uint32_t k = r.outcome == Outcome::kHit ? 0 : r.outcome == Outcome::kMissReturn ? 1 : 2;
    const uint64_t lat = now - r.accepted;
    stats_.latency_sum[k] += lat;
    if (lat > stats_.latency_max[k]) stats_.latency_max[k] = lat;
    const uint32_t warp = r.warp, tag = r.tag;
    release(idx);
    f(warp, tag);
  }
  // Counts a load response of `outcome` carrying `data` (the requested bytes, zero elsewhere) and
  // compares it with the request's snapshot.
  void check_load(Rec& r, Outcome outcome, const LineData& data, uint64_t now);
  uint32_t rec_of(uint32_t id, const char* what) const;
  void build_current();
  uint32_t allocate();
  void release(uint32_t idx);

  uint32_t sm_;
  uint32_t hit_latency_;
  ArchImage& arch_;

  bool busy_ = false;
  uint32_t warp_ = kNone;
  uint8_t awid_ = 0;
  bool token_ = true;
  uint32_t age_bucket_ = 0;
  uint32_t tag_ = 0;
  OpKind kind_ = OpKind::kLoad;
  uint64_t pc_ = 0;
  std::vector<CoalescedRequest> reqs_;
  uint32_t next_ = 0;
  CoreReq cur_;
  uint32_t cur_rec_ = 0;
  uint64_t serial_ = 0;

  std::vector<Rec> recs_;
  std::vector<uint32_t> free_;
  uint32_t live_ = 0;
  uint32_t generation_ = 0;

  std::vector<Delayed> delay_;
  size_t delay_head_ = 0, delay_count_ = 0;

  // The architectural-image access of the request fired this cycle (commit_arch).
  struct ArchOp {
    bool pending = false;
    bool load = false;
    uint32_t rec = 0;
    Addr line = 0;
    ByteMask mask;
    LineData data{};  // a store's bytes
  };
  ArchOp arch_op_;
  std::vector<PipeEntry> pipe_;  // ring of pipe_stages_ entries (l1.hit_latency_at before_tag)
  uint32_t pipe_stages_ = 0, pipe_head_ = 0, pipe_count_ = 0;
  std::vector<uint32_t> direct_ready_;  // direct loads answered this cycle (delivered next cycle)
  uint32_t direct_outstanding_ = 0;

  LdstStats stats_;
  std::optional<LoadMismatch> first_mismatch_;
};

}  // namespace l1d::sim
