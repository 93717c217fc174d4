// golden::L1 — the cycle-level L1 data cache of one SM, the reference the RTL l1d_top is
// checked against. docs/l1d-microarchitecture.md is its specification; section numbers in
// comments refer to it.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/address.h"
#include "common/config.h"
#include "common/types.h"
#include "golden/agcb_predictor.h"
#include "golden/agelru_counters.h"
#include "golden/cache_line.h"
#include "golden/chunk_match.h"
#include "golden/tag_index.h"
#include "golden/granularity_selector.h"
#include "golden/line_aligned.h"
#include "golden/mshr.h"
#include "golden/replacement.h"
#include "golden/two_level_bypass.h"

namespace l1d::golden {

struct L1Inputs {
  bool core_req_valid = false;
  CoreReq core_req;
  bool mem_req_ready = false;
  bool mem_resp_valid = false;
  MemResp mem_resp;
  // Events (section 9).
  bool warp_launch = false;
  bool warp_exit = false;
  uint8_t exit_awid = 0;
  bool exit_has_next = false;  // another warp is still running
  uint8_t exit_next_oldest = 0;
  bool kernel_start = false;
  bool kernel_end = false;
  uint32_t occupancy = 0;  // warps with a valid instruction-buffer entry this cycle
  // Configuration input (Dynamic-AgeLRU voting): false runs AgeLRU replacement as plain LRU
  // and turns AgeLRU bypassing off. Registered: applies from the next cycle.
  bool agelru_enable = true;
};

struct L1Outputs {
  bool core_req_ready = false;
  bool core_resp_valid = false;
  CoreResp core_resp;
  bool mem_req_valid = false;
  MemReq mem_req;
};

// kLineAlloc: l1.allocation on_miss found no way to reserve (GPGPU-Sim's LINE_ALLOC_FAIL).
enum class ResFail : uint8_t { kMshrFull, kMergeFull, kConflict, kMissQueueFull, kLineAlloc, kCount };
std::string_view to_string(ResFail f);

struct L1Counters {
  uint64_t cycles = 0;
  uint64_t accesses = 0, loads = 0, stores = 0;
  uint64_t hits = 0, misses = 0, partial_hits = 0;  // misses include partial hits
  uint64_t hits_by_size[3] = {}, misses_by_size[3] = {};  // index log2(size / 32)
  uint64_t bypasses = 0, merges = 0;
  uint64_t res_fail[static_cast<int>(ResFail::kCount)] = {};
  uint64_t fills = 0, fills_allocated = 0, agcb_overrides = 0;
  uint64_t writebacks = 0, mem_reads = 0, mem_writes = 0;
  uint64_t granularity_switches = 0, flush_cycles = 0;
  uint64_t s1_stall_cycles = 0, fill_stall_cycles = 0;
  // Reference-faithful options (section 13): loads that merged into an entry whose line is
  // reserved (GPGPU-Sim's HIT_RESERVED), and extra reads that widened an entry (mshr_merge block).
  uint64_t pending_hits = 0, widening_reads = 0;
  // l1.sector (section 14): misses of a request whose line is held (some sector of it valid or
  // reserved), by size as hits and misses.
  uint64_t sector_misses = 0, sector_misses_by_size[3] = {};
};

// The L1D counts of GPGPU-Sim / Accel-Sim (its cache_stats), so that a run can be set beside
// theirs (docs/simulator.md "Accel-Sim's units"): per 32 B sector a request touches, by access
// type (global read / write) and outcome; a reservation failure counts every failed attempt.
// HIT: the request hit. MSHR_HIT: a load merged into an in-flight entry. SECTOR_MISS: a miss
// while a chunk of the same 128 B line is in the L1 (the 128 B-line model's nearest to a sector
// miss: its tag is present). MISS: any other miss (bypassing loads included). Golden-only: the
// RTL has no such counters, so the statistics carry them only from a golden L1.
struct AccelSimCounts {
  uint64_t hit = 0, miss = 0, sector_miss = 0, mshr_hit = 0, res_fail = 0;
};
struct AccelSimCounters {
  AccelSimCounts read, write;
};

// l1.pipeline staged: operations decided at M2 in consecutive cycles on the same set, and those of
// them whose older operation changed what a match of the set reads (valid bits, tags, common-tags,
// dirty bits, the set's MSHR entries). In each such pair the younger operation's match, computed at
// M1 while the older one was deciding, is stale: the RTL corrects it in M2 (contract 16.5), so this
// counts how often that forwarding path is used; it changes nothing observable.
struct StagedPairs {
  uint64_t decided = 0, same_set = 0;
  uint64_t stale_core = 0, stale_fill = 0, stale_flush = 0;  // stale pairs by the younger operation's kind
  uint64_t stale() const { return stale_core + stale_fill + stale_flush; }
};

class L1 {
 public:
  explicit L1(const Config& cfg);

  // One clock cycle: outputs are those presented during the cycle (functions of the state
  // at its start); the state then advances as at the clock edge that ends it (section 3).
  L1Outputs step(const L1Inputs& in);
  // The same into `out` (a caller that keeps one L1Outputs saves building a new 300-byte struct
  // per cycle). Every valid and ready is written; a payload (core_resp, mem_req) only while its
  // valid is set, otherwise it keeps what `out` held (l1.pipeline staged writes both always).
  void step(const L1Inputs& in, L1Outputs& out);

  const L1Counters& counters() const { return counters_; }
  const AccelSimCounters& accelsim() const { return accelsim_; }
  const StagedPairs& staged_pairs() const { return staged_pairs_; }
  uint32_t granularity() const { return granularity_; }
  // Nothing in flight: S1 empty, no MSHR in use, miss queue empty, no flush, no response.
  bool idle() const;
  // Cycle skipping (sim_cpp/gpu/gpu.cpp): how many further cycles whose inputs carry no core
  // request, memory response or event, with `occupancy`, would change nothing but counters and
  // the position of a flush walk over empty lines (0: the next cycle may do something). MSHR
  // entries may wait for memory. l1.pipeline staged: 0.
  uint64_t quiet_cycles(uint32_t occupancy) const;
  // n such cycles (n <= quiet_cycles(occupancy)): the counters and the two-level unit advance as
  // n step() calls would move them.
  void skip_quiet_cycles(uint64_t n, uint32_t occupancy, bool agelru_enable);
  // Per-SM cycle skipping of a stalled S1 (sim_cpp/core/sm_skip.cpp): how many further cycles
  // whose inputs carry no memory response or event, the same AgeLRU enable and `occupancy`, and
  // in which the miss queue's head (if any) is not taken, would only count S1's repeated
  // reservation failure (s1_retry_same_: the same cause, every cycle) and the two-level unit's
  // tick; 0 when the next cycle may do more. skip_retry_cycles(n) counts n such cycles as n
  // step() calls would. mem_req_pending(): the miss queue offers a request to memory.
  uint64_t retry_cycles(uint32_t occupancy) const;
  void skip_retry_cycles(uint64_t n, uint32_t occupancy);
  bool mem_req_pending() const { return !miss_queue_.empty(); }
  // One line per place a request can wait, for watchdog reports.
  std::string describe_state() const;
  // Throws std::logic_error naming the violation (the one-copy invariant, rank permutations,
  // queue bounds).
  void check_invariants() const;
  // No line holds a valid or reserved slot.
  bool empty() const;
  // l1.carveout adaptive (golden/l1_resize.cpp): takes `sets` sets of the same ways, between
  // kernels. Throws std::logic_error unless idle() and empty(); ConfigError for a set count the
  // address split refuses. Arrays, tag index, address split and replacement state are rebuilt.
  void resize_sets(uint32_t sets);

  // Introspection for tests and scoreboards.
  const CacheLine& line(uint32_t set, uint32_t way) const { return sets_.at(set).at(way); }
  const LineData& line_data(uint32_t set, uint32_t way) const { return data_.at(size_t{set} * ways_ + way); }
  const AgcbPredictor& agcb() const { return agcb_; }
  const TwoLevelBypassUnit& two_level() const { return two_level_; }
  const AgeLruCounters& ages() const { return ages_; }
  const ReplacementPolicy& replacement() const { return *replacement_; }
  const Mshr& mshr() const { return mshr_; }
  const AddressSplit& split() const { return split_; }
  size_t miss_queue_size() const { return miss_queue_.size(); }
  // A store to the 128 B line is in S1 or in the miss queue (l1.bypass_path direct: a direct load
  // of the line must not overtake it to memory; contract section 13.6).
  bool store_pending(Addr line_addr) const;

 private:
  struct S1Result {
    bool completed = false;
    bool responds = false;  // the response is in next_resp_
  };

  // Throws std::invalid_argument for a request the port contract forbids (size, alignment, mask).
  static void validate(const CoreReq& r);
  S1Result lookup(const CoreReq& req);
  S1Result load(const CoreReq& req, const DecodedAddr& d);
  S1Result store(const CoreReq& req, const DecodedAddr& d);
  bool fill_step();  // true: a response is in next_resp_
  bool place_fill(MshrEntry& e);
  void complete_reserved_fill(MshrEntry& e);
  void accept_mem_resp(const MemResp& r);

  // Where a block of `slots` slots starting at chunk `first_chunk` goes (section 6 step 2): the
  // way, its first slot, and whether the whole line is taken. `ignore` masks slots to treat as
  // invalid (copies about to be invalidated); lines with a reserved slot are never victims.
  struct Placement {
    uint32_t way = 0, pos = 0;
    bool whole_line = false;
  };
  std::optional<Placement> choose_placement(uint32_t set, uint64_t common_tag, uint32_t slots, bool opportunistic,
                                            const WaySlotMasks* ignore) const;
  // Dirty slots a placement would write back, not counting those in `ignore`.
  uint32_t placement_dirty(uint32_t set, const Placement& p, uint32_t slots, const WaySlotMasks* ignore) const;
  bool agelru_bypasses(const CacheLine& victim, const Placement& p, uint32_t slots, uint8_t awid,
                       const uint8_t* ignore) const;
  S1Result load_hit(const CoreReq& req, uint32_t set, uint32_t way, uint8_t slots);
  // A store hit on `slots` of `way`; under write_evict the aligned pieces of `piece` slots around
  // them are invalidated.
  S1Result store_hit(const CoreReq& req, uint32_t set, uint32_t way, uint8_t slots, uint32_t piece, const MemReq& wr);
  static MemReq store_request(const CoreReq& req);
  // Entry `id` (free) for a miss of `req` fetching and placing `fetch`, with the requester's
  // hashed PC, AWID and token, `req` its first merged request.
  MshrEntry& open_entry(uint32_t id, Addr line_addr, SectorMask fetch, BypassReason bypass, const CoreReq& req);
  // Queues a read of `sectors` of a line for MSHR entry `mshr` (counted in mem_reads).
  void queue_read(Addr line_addr, SectorMask sectors, bool bypass, bool agcb_bypass, uint32_t mshr);

  // Sector mode (section 14; golden/l1_sector.cpp). The way holding a memory line (its valid
  // slots, or slots an MSHR entry reserved for it) and the line's valid sectors.
  struct SectorLine {
    std::optional<uint32_t> way;
    SectorMask valid = 0;
    SectorMask written = 0;  // l1.write_allocate: slots a partial store allocated (Slot::written)
  };
  SectorLine sector_line(uint32_t set, uint64_t common_tag, uint32_t chunk_tag, Addr line_addr) const;
  SectorMask written_sectors(uint32_t set, uint32_t way, uint64_t common_tag, uint32_t chunk_tag) const;
  S1Result sector_load(const CoreReq& req, const DecodedAddr& d);
  S1Result sector_store(const CoreReq& req, const DecodedAddr& d);
  S1Result store_allocate(const CoreReq& req, const DecodedAddr& d, const SectorLine& held, const MemReq& wr);
  S1Result sector_merge(const CoreReq& req, const DecodedAddr& d, uint32_t id, const SectorLine& held,
                        SectorMask needed);
  bool place_sector_fill(MshrEntry& e, bool pcal_opportunistic);
  void complete_reserved_sectors(MshrEntry& e);
  // Copies `sectors` of the line in `way` into the entry's data buffer (the entry's `buffered`).
  void buffer_sectors(MshrEntry& e, uint32_t set, uint32_t way, SectorMask sectors);
  // Sectors `sectors` of the line held in `way` are given to the entry's fill: chunk-tags set,
  // clean, then reserved (on_miss) or valid with the entry's data; on_hit and promotion.
  void add_sectors(uint32_t set, uint32_t way, uint32_t chunk_tag, SectorMask sectors, const MshrEntry& e,
                   bool reserve);
  // A whole line for the entry's line: way `way` evicted (dirty slots written back), its
  // common-tag set and `sectors` given to the fill as add_sectors does; line fields and on_fill.
  void take_sector_line(uint32_t set, uint32_t way, uint64_t common_tag, uint32_t chunk_tag, SectorMask sectors,
                        const MshrEntry& e, bool reserve);
  void check_sector_way(uint32_t set, uint32_t way, std::vector<std::pair<uint64_t, uint32_t>>& held) const;
  void count_sectors(MemOp op, SectorMask hit, SectorMask mshr_hit, SectorMask sector_miss, SectorMask miss);

  S1Result merge_into_block(const CoreReq& req, const DecodedAddr& d, uint32_t id, SectorMask needed, bool partial);
  // Writes back and invalidates the placement's slots, sets the line fields and replacement
  // state of a fill of `e` (at the fill, or at the miss when reserving). The caller syncs the
  // tag index once it has set the slots' valid bits.
  void take_placement(uint32_t set, const Placement& p, uint32_t slots, uint32_t first_chunk, uint32_t chunk_tag,
                      uint64_t common_tag, const MshrEntry& e);
  void flush_step();
  void apply_events(const L1Inputs& in);
  // Applies the end-of-cycle inputs both pipelines share (section 3 steps 3, 5-6).
  void accept_cycle_inputs(const L1Inputs& in);

  // l1.pipeline staged (section 16; golden/l1_staged.cpp): the same decisions at stage M2, with
  // the arbiter, the pipe registers, the FIFOs and the delays around them.
  struct Op {
    enum class Kind : uint8_t { kNone, kCore, kFill, kFlush } kind = Kind::kNone;
    CoreReq req;        // kCore
    uint32_t entry = 0;  // kFill: MSHR id
    uint32_t index = 0;  // kFill: step; kFlush: line (set * ways + way)
  };
  void step_staged(const L1Inputs& in, L1Outputs& out);
  uint32_t set_of(const Op& op) const;
  uint64_t set_signature(uint32_t set) const;
  Op arbitrate();
  bool decide(const Op& op, Op& a);  // stage M2; true: a response was produced
  void fill_decided(bool placed, Op& a);
  void squash(Op::Kind kind, Op& a);
  void squash_core_to_replay(const Op* failed, Op& a);
  bool staged_idle() const;
  void start_flush(bool all);

  BypassReason bypass_decision(const CoreReq& req) const;
  bool has_room(uint32_t n) const;
  uint32_t count_dirty(const WaySlotMasks& copies, uint32_t set) const;
  void invalidate_copies(const WaySlotMasks& copies, uint32_t set);
  void write_back_slot(uint32_t set, uint32_t way, uint32_t slot);
  // After a change of a line's common tag or a slot's valid bit or chunk tag.
  void sync_tags(uint32_t set, uint32_t way) { tags_.sync(set, way, sets_[set][way]); }
  // A sector way holds one memory line (section 14: granularity fixed128, slot i = sector i).
  static uint32_t index_lines_per_way(const L1Config& l1) { return l1.sector ? 1 : kSlotsPerLine; }
  void fail(ResFail cause) {
    ++counters_.res_fail[static_cast<int>(cause)];
    last_fail_ = cause;
  }
  void count_completion(const CoreReq& req, bool hit, bool partial, bool merged = false);
  void count_request(const CoreReq& req, bool hit, bool partial, bool sector_miss);
  // The replacement hooks' view of a demand request: its hashed PC and its warp's age now.
  AccessInfo access_info(const CoreReq& req) const;
  void switch_granularity(uint32_t g);
  Addr line_addr_of(uint32_t set, uint64_t common_tag, uint32_t chunk_tag) const;

  // What step(), quiet_cycles() and retry_cycles() read on every cycle, together at the front of
  // the object (5 host cache lines): between two steps of one L1 the other SMs run, so on a large
  // GPU these lines are cold each cycle, and spread over the 3.4 KB object they were about nine
  // (docs/performance.md, sixteenth round). Only the order of the members changed.
  bool staged_ = false;  // cfg_.l1.pipeline is staged (step() takes step_staged)
  bool s1_valid_ = false;
  // S1's lookup failed (a reservation failure) and the clock edge after it changed nothing the
  // lookup reads (no memory transfer, event, fill, flush, AgeLRU-enable or two-level mode change;
  // a failing lookup itself changes only counters). The next lookup of the same request would
  // fail the same way, so step() counts it without repeating it: a request stalled behind a
  // full miss queue retries every cycle (docs/performance.md).
  bool s1_retry_same_ = false;
  bool resp_valid_ = false;
  bool flushing_ = false;
  bool agelru_enable_ = true;
  ResFail last_fail_ = ResFail::kCount;  // the cause fail() counted last
  uint64_t s1_sectors_ = 0;              // sectors of s1_'s byte mask (its Accel-Sim count)
  std::deque<MemReq> miss_queue_;
  std::deque<uint32_t> fill_fifo_;
  TwoLevelBypassUnit two_level_;
  L1Counters counters_;
  AccelSimCounters accelsim_;

  Config cfg_;
  AddressSplit split_;
  uint32_t ways_;
  std::vector<std::vector<CacheLine>> sets_;
  // Each line's data bytes, index set * ways + way, apart from its tags and state (cache_line.h).
  LineAlignedVector<LineData> data_;  // a sector (32 bytes) never straddles two host lines
  LineData& data_of(uint32_t set, uint32_t way) { return data_[size_t{set} * ways_ + way]; }
  TagIndex tags_;  // the lines' tag state, packed (kept in step by sync_tags)
  std::unique_ptr<ReplacementPolicy> replacement_;
  AgcbPredictor agcb_;
  AgeLruCounters ages_;
  std::optional<GranularitySelector> selector_;
  uint32_t granularity_;
  Mshr mshr_;
  uint32_t fill_index_ = 0;      // next merged request the fill unit answers
  bool fill_placed_ = false;     // cycle 0 of the head entry is done
  bool fill_allocated_ = false;  // the head entry's block went into the array
  CoreReq s1_;
  CoreResp resp_;
  CoreResp next_resp_;  // the response S1 or the fill unit produces this cycle (resp_ at the edge)
  bool flush_all_ = false;   // kernel-end flush: nothing is kept
  uint32_t flush_next_ = 0;  // set * ways + way

  // Staged pipeline state (section 16). The ops in T, M1 and M2 during the cycle; the two FIFOs
  // of core requests; the fill unit's and flush walker's issue cursors; the response delay line
  // (a response decided at M2 in cycle m is presented in m + 3) and each queued memory request's
  // first presentable cycle.
  Op t_op_, m1_op_, m_op_;
  // A failed core request and the younger ones behind it in M1, T and A (16.2).
  static constexpr size_t kReplayFifoDepth = 4;
  StagedPairs staged_pairs_;
  bool last_decided_ = false;  // an operation was decided at M2 in the last cycle, on last_set_
  bool last_changed_ = false;  // and it changed that set's match state
  uint32_t last_set_ = 0;
  std::deque<CoreReq> core_fifo_, replay_fifo_;
  uint32_t fill_cursor_pos_ = 0, fill_cursor_step_ = 0;
  uint32_t flush_cursor_ = 0;
  uint64_t flush_epoch_ = 0;  // start_flush() counts: a change restarts the walk's issue
  struct DelayedResp {
    bool valid = false;
    CoreResp resp;
  };
  DelayedResp resp_pipe_[3];
  std::deque<uint64_t> miss_queue_visible_;
  uint64_t last_visible_ = 0;
};

}  // namespace l1d::golden
