// One streaming multiprocessor: warp slots in schedulers (scheduler.h), an instruction buffer per
// warp (core.fetch: ideal, one entry refilled at issue; ibuffer, GPGPU-Sim's fetch and decode),
// CTA barriers, the LDST unit (ldst_unit.h) and the SM's L1 behind L1Port, connected to the
// memory system through MemoryPort. docs/simulator.md describes the cycle.
#pragma once

#include <bitset>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/config.h"
#include "golden/agelru_counters.h"
#include "golden/line_aligned.h"
#include "golden/pcal_tokens.h"
#include "sim_cpp/core/ldst_unit.h"
#include "sim_cpp/core/memory_port.h"
#include "sim_cpp/core/scheduler.h"
#include "sim_cpp/l1/l1_port.h"
#include "sim_cpp/workload/workload.h"

namespace l1d::sim {

struct SmParams {
  std::string scheduler = "gto";  // scheduler.h registry name
  uint32_t active_set = 8;        // two-level scheduler
  uint32_t warp_limit = 0;        // warps per scheduler allowed to issue (warp-opt); 0 = all
  int32_t pcal_ebt = 0;           // PCAL EBTNum (only with bypass: pcal)
};

// A warp slot's state, in two parts kept in two arrays (Sm::issue_, Sm::warps_). Between two
// cycles of one SM the other SMs run, so whatever an SM's cycle reads is cold in the host caches:
// the part its schedulers read every cycle (Sm::can_issue, latency_wake) and the fetch stage's
// scan is 16 bytes, four warps to a 64-byte host line, apart from the rest, which only an issue,
// a launch or an exit reads. (As one 64-byte struct, a scheduler's scan of 16 warps read 16 host
// lines of which it used a quarter each; docs/performance.md, seventeenth round.)
struct WarpIssueState {
  enum class State : uint8_t { kFree, kLaunching, kResident, kExiting };
  uint64_t ready_at = 0;       // earliest cycle of the next issue (ALU latency)
  State state = State::kFree;
  bool ibuf_valid = false;     // the instruction buffer holds the next instruction (in Sm::ibufs_)
  bool store_wait = false;     // the current store's requests are not all accepted by the L1
  bool at_barrier = false;
  // The i-buffer's instruction waits for pending loads (core.load_wait; Sm::waits_for_loads).
  bool load_wait = false;
  OpKind ibuf_kind = OpKind::kAlu;  // the kind of the instruction in the i-buffer (Sm::ibufs_)
};
static_assert(sizeof(WarpIssueState) == 16, "four warps' issue state to a 64-byte host line");

// The rest of a warp slot's state (its issue state: WarpIssueState).
struct Warp {
  uint32_t pending_loads = 0;  // requests of the warp's loads not yet returned to it
  uint32_t cta = 0;  // SM CTA slot
  uint8_t awid = 0;
  // core.fetch ibuffer: the decoded entries behind the head (Sm::ibuf_tail_), the next to issue,
  // whether the fetch ended at a taken branch (GPGPU-Sim decodes the fall-through instruction
  // anyway and flushes it when the scheduler next looks at the warp), and the first cycle the
  // emptied buffer may be fetched again.
  uint8_t tail_count = 0, tail_next = 0;
  bool wrong_path = false;
  uint64_t fetch_at = 0;
  uint64_t instructions = 0;
  std::unique_ptr<WarpProgram> program;
};

struct SmStats {
  uint64_t clocked_cycles = 0;  // cycles the SM and its L1 were clocked (quiescent SMs are not)
  uint64_t busy_cycles = 0;     // cycles with at least one warp
  uint64_t instructions = 0;    // warp instructions issued (every kind, exit included)
  uint64_t alu = 0, loads = 0, stores = 0, barriers = 0, exits = 0;
  uint64_t empty_memory_instructions = 0;  // no active lane: no request
  uint64_t ctas = 0, warps = 0;
};

// Occupancy (issue 21: the policies under study act on contention among resident warps, so a
// run must show how full its SMs were). Sampled once per clocked cycle, after the cycle's
// launch / exit events. A warp is resident from its launch event until it issues its exit.
struct SmOccupancy {
  uint64_t resident_cycles = 0;   // cycles with at least one resident warp (the SM's busy cycles)
  uint64_t resident_sum = 0;      // resident warps, summed over those cycles (all schedulers)
  uint32_t resident_max_per_scheduler = 0;  // most warps resident on one scheduler at once
  // The two-level bypassing paper's active-warp occupancy: warps with a valid instruction-buffer
  // entry (the `occupancy` input of the L1's two-level unit), summed over the same cycles.
  uint64_t active_sum = 0;
};

// Called for every issued instruction (tests, tracing): SM, cycle, warp slot, instruction.
using IssueObserver = std::function<void(uint32_t sm, uint64_t cycle, uint32_t slot, const WarpInst& inst)>;

class Sm final : private IssueOracle {
 public:
  Sm(uint32_t id, const Config& cfg, const SmParams& p, std::unique_ptr<L1Port> l1, MemoryPort& mem,
     ArchImage& arch);
  ~Sm();
  Sm(const Sm&) = delete;
  Sm& operator=(const Sm&) = delete;

  uint32_t id() const { return id_; }

  // Block scheduler side.
  bool fits(uint32_t warps) const { return free_slots_ >= warps; }
  void launch_cta(const Kernel& k, uint32_t cta, uint32_t warps);
  // The CTAs completed since the last call; `slots_freed` is set if a warp slot was freed since
  // then (only then can fits() have turned true).
  uint32_t take_completed_ctas(bool& slots_freed) {
    const uint32_t n = completed_ctas_;
    completed_ctas_ = 0;
    slots_freed |= slots_freed_;
    slots_freed_ = false;
    return n;
  }
  // `l1_bytes`: the kernel's L1 (l1.carveout adaptive; docs/simulator.md "L1 carveout"). The L1
  // takes it in the cycle that sends the kernel-start event, in the SM's own cycle (so also under
  // --threads), when the previous kernel's end has left it idle and empty.
  void kernel_start(uint32_t l1_bytes) {
    settle();
    pending_kernel_start_ = true, sleeping_ = false, wake_known_ = false;
    pending_l1_bytes_ = l1_bytes;
  }
  void kernel_start() { kernel_start(l1_bytes_); }
  uint32_t l1_bytes() const { return l1_bytes_; }
  void kernel_end() {
    settle();
    pending_kernel_end_ = true, sleeping_ = false, wake_known_ = false;
  }

  // Nothing to do: no warp, no pending event, LDST unit quiet, L1 idle. Such an SM is not
  // clocked (its L1 does not see the cycle). Evaluated at the end of each cycle; only a CTA
  // launch or a kernel event wakes the SM again.
  bool quiescent() const { return sleeping_; }
  // Has warps (launching, resident or exiting).
  bool busy() const { return live_warps_ > 0; }
  // One cycle in three steps (docs/simulator.md "Cycle order"): mem_fetch() reads this SM's
  // memory ports (request ready, the response delivered), cycle() runs the SM and its L1 touching
  // nothing outside the SM, commit() sends the memory request and applies the architectural-image
  // access of the cycle. The GPU calls mem_fetch and commit in SM order and may run the cycles of
  // all SMs in parallel between them: the result is that of running SM after SM.
  void mem_fetch();
  // mem_fetch() for a port with split_response(): reads the port without taking the response,
  // so it may run inside the parallel part, beside the other SMs' cycles; commit() takes it.
  void mem_peek();
  // Returns whether anything moved (an issue or an L1 port transfer).
  bool cycle(uint64_t now);
  // What the last cycle() left for the GPU's serial loop, in one byte of the SM's own (so that
  // loop reads one cache line per SM, and the SMs' threads write no shared line):
  // kMoved: cycle() returned true; kSerialWork: commit(), take_completed_ctas() or quiescent()
  // may have something to say (a response or request to pass, an architectural-image access, a
  // completed CTA or freed slot, the SM fell quiescent); without it they would do nothing.
  static constexpr uint8_t kMoved = 1, kSerialWork = 2;
  uint8_t cycle_summary() const { return summary_; }
  // Cycle skipping (sm_skip.cpp, called between cycles): the first cycle from `now` on in which
  // cycle() may do more than count, given that the memory port delivers nothing before it; and
  // skip_cycles(n) counts n such cycles (the per-cycle statistics, the L1's counters and
  // two-level window) as n calls of cycle() would.
  uint64_t next_event(uint64_t now) const;
  void skip_cycles(uint64_t n);
  // Per-SM cycle skipping (sm_skip.cpp; off unless the GPU turns it on with its cycle skipping):
  // after a cycle in which the SM did not move, cycle(now) asks next_event(now) once and, until
  // that cycle, counts each cycle as skip_cycles(1) would instead of running it, unless the
  // memory port delivers a response (mem_fetch / mem_peek) or the GPU changes the SM (a CTA
  // launch, a kernel event, new limits), which ends the wait.
  void set_cycle_skip(bool on) {
    settle();
    cycle_skip_ = on, wake_known_ = false;
  }
  // Lazy waits (sm_skip.cpp; on with cycle skipping when the memory port has port_events()):
  // once a wait is known (wake_at_) and its first cycle is skipped with nothing for the serial
  // loop, the GPU calls lazy_skip(now) for the SM's item instead of mem_peek() and cycle(): until
  // the wake, the port's response_arrival() for the SM, or a raised request room (with S1 stalled
  // behind its miss queue) it only counts the cycle in lazy_cycles_, and settle() adds those
  // cycles' statistics in one go (what the skipped cycles would have counted one by one) before
  // the SM runs a cycle again, the GPU changes it, or the GPU reads its statistics.
  // note_response() / note_room(): the port granted the SM a response / raised its request room
  // in the last tick (serial part; MemoryPort::response_grants, request_room_freed).
  void set_port_events(bool on) {
    settle();
    port_events_ = on;
  }
  bool lazy_skip(uint64_t now) {
    if (!lazy_ || now >= lazy_until_) return false;
    ++lazy_cycles_;
    return true;
  }
  void note_response() {
    if (lazy_) lazy_until_ = std::min(lazy_until_, mem_.response_arrival(id_));
  }
  void note_room() {
    if (lazy_ && lazy_room_) lazy_until_ = 0;
  }
  void settle() {
    if (lazy_) settle_lazy();
  }
  uint64_t skipped_sm_cycles() const { return skipped_sm_cycles_; }  // not a statistic
  uint64_t lazy_sm_cycles() const { return lazy_sm_cycles_; }  // of those, skipped by lazy_skip
  // Inline: the GPU calls it for every clocked SM on one thread, and in most cycles an SM has
  // nothing to commit.
  void commit() {
    if (peeked_resp_ || mem_req_fired_ || direct_req_fired_ || ldst_.arch_pending()) commit_work();
  }

  // Runtime controls (controllers.h).
  void set_warp_limit(uint32_t per_scheduler);  // 0 = all
  void set_pcal_ebt(int32_t ebt);
  void set_agelru_enable(bool on) {
    settle();
    agelru_enable_ = on, wake_known_ = false;
  }
  uint32_t warp_limit() const { return warp_limit_; }
  int32_t pcal_ebt() const { return ebt_; }
  bool agelru_enable() const { return agelru_enable_; }
  // Resident warps that throttling keeps from issuing, summed over the schedulers.
  uint32_t throttled_warps() const;
  uint32_t resident_warps() const { return resident_warps_; }

  const L1Port& l1() const { return *l1_; }
  const LdstUnit& ldst() const { return ldst_; }
  const SmStats& stats() const { return stats_; }
  const SmOccupancy& occupancy_stats() const { return occ_; }
  std::string describe_state() const;

  void set_issue_observer(IssueObserver f) { observer_ = std::move(f); }

  // Introspection (tests).
  const Warp& warp(uint32_t slot) const { return warps_.at(slot); }
  const WarpScheduler& scheduler(uint32_t i) const { return *schedulers_.at(i); }
  bool has_token(uint32_t slot) const;
  uint32_t occupancy() const { return occupancy_; }
  const golden::AgeLruCounters& ages() const { return ages_; }

 private:
  struct Cta {
    bool used = false;
    uint32_t grid_cta = 0;
    uint32_t running = 0;    // warps that have not issued their exit
    uint32_t remaining = 0;  // warps whose exit event has not been sent
    uint32_t arrived = 0;    // warps waiting at the barrier
    std::vector<uint32_t> slots;
  };

  // core.load_wait on_use: per warp, the registers its loads in flight will write, and those
  // loads (indexed by the tag their requests carry through the LDST unit; remaining 0: free).
  struct Scoreboard {
    struct Load {
      uint32_t remaining = 0;  // requests not yet returned
      uint8_t writes = 0;
      std::array<uint16_t, kMaxInstRegs> regs{};
    };
    std::bitset<kRegIds> pending;
    std::vector<Load> loads;
  };

  bool can_issue(uint32_t slot) const override;
  // Whether warp `slot`'s i-buffer instruction must wait for its loads: under on_issue while any
  // request is out; under on_use while it reads or writes a pending register (or declares no
  // registers: WarpInst::reads_all_loads), and an exit while any request is out.
  bool waits_for_loads(uint32_t slot) const;
  uint32_t reserve_load(uint32_t slot, const WarpInst& load, uint32_t requests);  // the load's tag
  void load_request_returned(uint32_t slot, uint32_t tag);
  bool long_stalled(uint32_t slot) const override;
  // core.fetch ibuffer, after issue: decode the warp fetched last cycle into its i-buffer, then
  // fetch for the next warp (round robin over the SM's slots) whose i-buffer is empty.
  bool fetch_stage(uint64_t now);
  void decode(uint32_t slot);
  // The issued head's successor moves up from the tail; false when the i-buffer is now empty.
  bool next_from_ibuffer(Warp& w, WarpIssueState& wi, uint32_t slot, uint64_t now);
  uint32_t sched_of(uint32_t slot) const { return slot % num_sched_; }
  uint32_t local_of(uint32_t slot) const { return slot / num_sched_; }
  void apply_limits();
  void send_events();
  void resize_l1();  // to pending_l1_bytes_, at a kernel start
  bool issue(uint64_t now);
  uint64_t latency_wake(const WarpScheduler& sched, uint64_t now, bool& ldst_waiter) const;
  void wake_scheduler(uint32_t slot);  // the scheduler of warp `slot`
  void loads_returned(uint32_t slot, uint64_t now);  // warp `slot`'s last pending load returned
  void wake_all_schedulers();
  void execute(uint32_t slot, uint64_t now);
  void check_barrier(Cta& c);
  void commit_work();
  // The offered request leaves the LDST unit other than through the L1's core port: into the
  // before-tag pipe, or (direct_now) to the memory port (contract 13.5, 13.6).
  bool dispatch(uint64_t now, bool direct_now);

  uint32_t id_;
  uint32_t num_sched_;
  bool pcal_;
  bool on_use_;  // core.load_wait on_use
  bool fetch_ibuffer_;  // core.fetch ibuffer
  uint32_t ibuffer_entries_;
  uint32_t instruction_bytes_;  // a PC step of at most this is a fall-through (no taken branch)
  // l1.bypass_path direct with two-level bypassing: B-mode loads bypass the L1 from the LDST unit,
  // asking the L1 (l1_) for its B mode and its pending stores.
  bool direct_ = false;
  // A direct load fetches only the sectors its byte mask touches: with BTO, and always with the
  // sector coalescer, whose 128 B requests stand for the reference's 32 B sector accesses.
  bool direct_touched_sectors_ = false;
  bool two_level_restart_ = true;  // !policy.two_level.keep_across_launches
  std::unique_ptr<L1Port> l1_;
  MemoryPort& mem_;

  // --- What every cycle of the SM reads or writes however little it does (cycle(),
  // skip_this_cycle(), count_cycles(), next_event(), lazy_skip(), commit(), the GPU's serial loop),
  // together after the configuration and the L1 and port pointers, and before the LDST unit (whose
  // busy flag comes first): between two cycles of one SM the other SMs run, so these lines are
  // cold, and spread over the 3.8 KB object they were about nine host lines (docs/performance.md,
  // seventeenth round). Only where the fields sit matters here. fetched_resp_'s engaged flag is
  // its last byte, next to the LDST unit's first line. ---
  uint64_t now_ = 0;
  // Per-SM cycle skipping (set_cycle_skip): wake_at_ = next_event() (or stall_until(), with
  // stalled_) as asked after a cycle that did not move, valid while wake_known_;
  // skipped_sm_cycles_ counts the cycles it skipped.
  bool cycle_skip_ = false, wake_known_ = false, stalled_ = false;
  // Lazy waits (lazy_skip): lazy_room_ also ends the wait when the request room rises (S1 stalled
  // behind a miss queue whose head waits for room); lazy_until_ the first cycle that runs;
  // lazy_cycles_ the cycles skipped and not yet counted (settle_lazy).
  bool port_events_ = false, lazy_ = false, lazy_room_ = false;
  bool sleeping_ = true;
  uint8_t summary_ = 0;            // cycle_summary()
  uint64_t wake_at_ = 0, skipped_sm_cycles_ = 0;
  uint64_t lazy_until_ = 0, lazy_cycles_ = 0, lazy_sm_cycles_ = 0;
  // The memory port as mem_fetch() read it (mem_room_, fetched_resp_ below), and the requests
  // commit() sends.
  uint32_t mem_room_ = 0;        // free request slots this cycle (at most 2 counted)
  bool peeked_resp_ = false;  // fetched_resp_ was peeked (mem_peek): commit() takes it
  bool mem_req_fired_ = false;     // out_.mem_req
  bool direct_req_fired_ = false;  // direct_req_ (l1.bypass_path direct)
  bool slots_freed_ = false;  // take_completed_ctas
  uint32_t live_warps_ = 0, resident_warps_ = 0, occupancy_ = 0;
  uint32_t completed_ctas_ = 0;
  bool pending_kernel_start_ = false, pending_kernel_end_ = false;
  bool agelru_enable_ = true;
  bool ldst_waiting_ = false;  // see ldst_waiter_
  size_t launch_head_ = 0, exit_head_ = 0;
  // Issue skipping: a scheduler whose pick found nothing is not asked again before its
  // sched_sleep_until_ (the earliest ALU-latency expiry of its warps) unless an event that can
  // make one of its warps ready wakes it (store accepted: the warp's scheduler; load data: the
  // warp's, once the warp can issue; barrier release, new limits: all; a launch: the warp's).
  // issue_sleep_until_ is their minimum: the SM does not call issue() before it.
  uint64_t issue_sleep_until_ = 0;
  uint64_t offered_serial_ = 0;  // the LDST request currently copied into in_.core_req
  SmStats stats_;
  SmOccupancy occ_;
  std::vector<uint32_t> launch_queue_, exit_queue_;  // warps whose event is still to be sent
  std::optional<MemResp> fetched_resp_;
  // --- The rest. ---
  LdstUnit ldst_;

  // Per warp slot: what the schedulers read every cycle (16 bytes a warp, the array host-line
  // aligned), and the rest (WarpIssueState, Warp).
  golden::LineAlignedVector<WarpIssueState> issue_;
  std::vector<Warp> warps_;
  // The warps' i-buffers, apart from the warps: the schedulers scan the warps every cycle, and
  // a 550-byte instruction in each would spread that scan over many cache lines.
  std::vector<WarpInst> ibufs_;
  std::vector<Scoreboard> scoreboards_;  // per warp slot (on_use only)
  // core.fetch ibuffer only: per warp, the next instruction not yet decoded (the buffer its
  // program writes into), and ibuffer_entries - 1 decoded entries behind the head.
  std::vector<WarpInst> ahead_, ibuf_tail_;
  static constexpr uint32_t kNoFetch = ~0u;
  uint32_t fetch_slot_ = kNoFetch;  // fetched last cycle, decoded this cycle (m_inst_fetch_buffer)
  uint32_t last_fetched_ = 0;       // the round robin's last fetched slot (m_last_warp_fetched)
  std::vector<Cta> ctas_;
  std::vector<std::unique_ptr<WarpScheduler>> schedulers_;
  std::vector<golden::PcalTokenUnit> tokens_;
  golden::AgeLruCounters ages_;  // mirror of the L1's counters: the AWIDs requests carry
  std::vector<uint32_t> live_order_;  // warps announced to the L1 and not yet exited, oldest first

  uint32_t l1_bytes_ = 0, pending_l1_bytes_ = 0;  // the L1's size now / at the next kernel start
  // The kernel end also waits for the L1 to be idle: the staged pipe with the adaptive carveout and
  // write allocation (contract 16.5, "Carveout adaptive on the staged pipe"), where a store accepted
  // before the kernel end would allocate its line after the invalidation and leave the L1 holding
  // lines at the next kernel's resize.
  bool kernel_end_waits_l1_ = false;

  uint32_t free_slots_;
  uint32_t warp_limit_ = 0;
  int32_t ebt_ = 0;

  CoalesceFn coalesce_ = nullptr;            // core.coalescer's coalescer
  std::vector<CoalescedRequest> coalesced_;  // coalesce_() output buffer, reused (LdstUnit::accept)
  golden::L1Inputs in_;
  golden::L1Outputs out_;  // the L1's outputs of the current cycle (L1Port::step_into)
  MemReq direct_req_;
  IssueObserver observer_;
  void settle_lazy();
  // cycle(now)'s per-SM skip: true when this cycle only counts (done here).
  bool skip_this_cycle(uint64_t now);
  // The first cycle from `now` on in which cycle() may do more than count, while S1 holds a
  // request whose failure repeats (golden::L1::retry_cycles), given that the memory port delivers
  // no response and takes no request of the miss queue before it: the offered request (if any) is
  // refused every cycle. `now` when the SM is not in that state.
  uint64_t stall_until(uint64_t now) const;
  // Step 5 of cycle() for the two above: `now` if the fetch stage decodes this cycle, else the
  // earliest of `at` and the fetch_at of a resident warp with an empty i-buffer.
  uint64_t fetch_wake(uint64_t now, uint64_t at) const;
  // The per-cycle statistics of n cycles in which the SM only counts (clocked, busy, occupancy).
  void count_cycles(uint64_t n);
  std::vector<uint32_t> sched_resident_;  // resident warps per scheduler (occ_'s maximum)
  std::vector<uint64_t> sched_sleep_until_;  // per scheduler; 0: asked in the next issue()
  // A scheduler with a warp that waits only for the busy LDST unit (ldst_waiter_) is also asked
  // whenever the LDST unit is free at its turn; ldst_waiting_ (at the front): any scheduler is.
  // Waking every scheduler when the LDST unit frees asked many that had no memory instruction
  // ready, and all but the first to issue one again found the LDST unit busy.
  std::vector<uint8_t> ldst_waiter_;

  // core.ldst_queue: memory instructions issued while the LDST unit was busy, oldest first (a ring
  // of ldst_queue_cap_ entries whose request vectors are reused). The unit takes the oldest in the
  // cycle it frees (cycle(), after the L1 step), so it is never idle while one waits. GPGPU-Sim:
  // the scheduler issues a memory instruction into the ID_OC_MEM register whenever it has room
  // (shader.cc scheduler_unit::cycle, m_mem_out->has_free()), the operand collector moves it to a
  // memory collector unit and on to OC_EX_MEM, and execute() moves that into ldst_unit's dispatch
  // register once it is empty (ldst_unit::can_issue). Only the capacity is modelled: a queued
  // instruction reaches the unit the cycle it frees (no operand-read cycles).
  struct QueuedMem {
    uint32_t slot = 0, age_rank = 0, tag = 0;
    uint8_t awid = 0;
    bool token = true;
    OpKind kind = OpKind::kLoad;
    uint64_t pc = 0;
    std::vector<CoalescedRequest> reqs;
  };
  uint32_t ldst_queue_cap_ = 0;
  std::vector<QueuedMem> ldst_queue_;
  uint32_t ldst_queue_head_ = 0, ldst_queue_count_ = 0;
  uint64_t mem_issue_cycle_ = ~uint64_t{0};  // when the last memory instruction issued
  // A memory instruction can issue now: into the free LDST unit or, with core.ldst_queue, behind
  // it while the queue has room, one per SM a cycle (GPGPU-Sim's GTX480 configs make ID_OC_MEM
  // one instruction wide: -gpgpu_pipeline_widths).
  bool ldst_room() const {
    if (ldst_queue_cap_ == 0) return !ldst_.busy();
    return mem_issue_cycle_ != now_ && (!ldst_.busy() || ldst_queue_count_ < ldst_queue_cap_);
  }
  void take_queued();  // the oldest queued instruction enters the (free) LDST unit
};

}  // namespace l1d::sim
