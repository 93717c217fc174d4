// One SM (sm.h). The cycle, in order (docs/simulator.md "Cycle order"):
//  1. load responses whose hit-latency delay ended reach their warps;
//  2. the L1's inputs are driven: the LDST unit's request, the memory ports, at most one warp
//     launch and one warp exit event, kernel start/end, occupancy, agelru_enable;
//  3. the L1 steps; fired transfers are applied (core request accepted, core response checked
//     and delayed); with l1.hit_latency_at before_tag the L1's core port carries the pipe's head
//     and the offered request then enters the pipe, and a direct load (l1.bypass_path direct)
//     then leaves for the memory port (contract 13.5, 13.6);
//     If the LDST unit is now free and memory instructions wait behind it (core.ldst_queue), the
//     oldest enters it;
//  4. each scheduler issues at most one instruction (a memory instruction enters the LDST unit,
//     or waits behind it with core.ldst_queue, and is offered to the L1 from the cycle after it
//     enters); the issuing warp's i-buffer is refilled
//     (core.fetch ideal) or moves to its next decoded entry (ibuffer);
//  5. core.fetch ibuffer: the warp fetched last cycle is decoded into its i-buffer, and one warp
//     whose i-buffer is empty is fetched (GPGPU-Sim's shader_core_ctx::cycle: issue, decode, fetch).
// The memory ports are read before step 1 (mem_fetch, or mem_peek, which leaves the response in
// the port until commit) and the fired memory request and the LDST unit's architectural-image
// access are applied after step 4 (commit), so that cycle() touches nothing outside the SM.
#include "sim_cpp/core/sm.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "sim_cpp/core/coalescer.h"

namespace l1d::sim {

namespace {

bool is_memory(OpKind k) { return k == OpKind::kLoad || k == OpKind::kStore; }

}  // namespace

Sm::Sm(uint32_t id, const Config& cfg, const SmParams& p, std::unique_ptr<L1Port> l1, MemoryPort& mem,
       ArchImage& arch)
    : id_(id),
      num_sched_(cfg.core.schedulers_per_sm),
      pcal_(cfg.policy.bypass == BypassKind::kPcal),
      on_use_(cfg.core.load_wait == LoadWait::kOnUse),
      fetch_ibuffer_(cfg.core.fetch == FetchModel::kIbuffer),
      ibuffer_entries_(cfg.core.ibuffer_entries),
      instruction_bytes_(cfg.core.instruction_bytes),
      direct_(cfg.l1.bypass_path == BypassPath::kDirect && cfg.policy.bypass == BypassKind::kTwoLevel),
      direct_touched_sectors_(cfg.policy.bto || cfg.core.coalescer == CoalescerKind::kSector),
      two_level_restart_(!cfg.policy.two_level.keep_across_launches),
      l1_(std::move(l1)),
      mem_(mem),
      // l1.hit_latency_at none: responses reach the warp the cycle after the L1 presents them.
      ldst_(id, cfg.l1.hit_latency_at == HitLatencyAt::kResponse ? charged_hit_latency(cfg.l1) : 0, arch),
      issue_(cfg.core.warps_per_sm),
      warps_(cfg.core.warps_per_sm),
      ibufs_(cfg.core.warps_per_sm),
      scoreboards_(on_use_ ? cfg.core.warps_per_sm : 0),
      ahead_(fetch_ibuffer_ ? cfg.core.warps_per_sm : 0),
      ibuf_tail_(fetch_ibuffer_ ? size_t{cfg.core.warps_per_sm} * (cfg.core.ibuffer_entries - 1) : 0),
      ctas_(cfg.core.warps_per_sm),
      l1_bytes_(cfg.l1.size_bytes),
      pending_l1_bytes_(cfg.l1.size_bytes),
      kernel_end_waits_l1_(cfg.l1.pipeline == L1Pipeline::kStaged && cfg.l1.carveout == Carveout::kAdaptive &&
                           cfg.l1.write_allocate != WriteAllocate::kNone),
      free_slots_(cfg.core.warps_per_sm),
      warp_limit_(p.warp_limit),
      ebt_(p.pcal_ebt),
      sched_resident_(cfg.core.schedulers_per_sm, 0),
      sched_sleep_until_(cfg.core.schedulers_per_sm, 0),
      ldst_waiter_(cfg.core.schedulers_per_sm, 0),
      ldst_queue_cap_(cfg.core.ldst_queue),
      ldst_queue_(cfg.core.ldst_queue) {
  if (num_sched_ == 0 || num_sched_ > cfg.core.warps_per_sm)
    throw ConfigError("core.schedulers_per_sm must be in 1..warps_per_sm");
  if (cfg.core.warps_per_sm > 256) throw ConfigError("core.warps_per_sm above 256 does not fit the 8-bit warp field");
  coalesce_ = coalescer_for(cfg.core.coalescer);
  // l1.hit_latency_at before_tag: a pipe of hit_latency - 1 stages before the L1 (contract 13.5).
  if (cfg.l1.hit_latency_at == HitLatencyAt::kBeforeTag) ldst_.set_pipe(charged_hit_latency(cfg.l1) - 1);
  for (uint32_t s = 0; s < num_sched_; ++s) {
    schedulers_.push_back(make_scheduler(p.scheduler, {cfg.core.warps_per_sm, num_sched_, s, p.active_set}));
    tokens_.emplace_back(static_cast<uint32_t>(schedulers_.back()->slots().size()));
  }
  launch_queue_.reserve(cfg.core.warps_per_sm);
  exit_queue_.reserve(cfg.core.warps_per_sm);
  live_order_.reserve(cfg.core.warps_per_sm);
  for (Cta& c : ctas_) c.slots.reserve(cfg.core.warps_per_sm);
  apply_limits();
}

Sm::~Sm() = default;

void Sm::set_warp_limit(uint32_t per_scheduler) {
  warp_limit_ = per_scheduler;
  apply_limits();
}

void Sm::set_pcal_ebt(int32_t ebt) {
  ebt_ = ebt;
  apply_limits();
}

void Sm::apply_limits() {
  settle();
  wake_known_ = false;  // per-SM cycle skipping: the schedulers are asked again
  wake_all_schedulers();
  for (uint32_t s = 0; s < num_sched_; ++s) {
    WarpScheduler& sched = *schedulers_[s];
    const uint32_t max = static_cast<uint32_t>(sched.slots().size());
    const uint32_t opt = warp_limit_ == 0 ? max : std::min(warp_limit_, max);
    if (pcal_) {
      const golden::PcalLimits d = golden::pcal_decode(opt, ebt_, max);
      sched.set_issue_limit(d.active_warps);
      tokens_[s].set_tokens(d.tokens);
    } else {
      sched.set_issue_limit(opt);
    }
  }
}

uint32_t Sm::throttled_warps() const {
  uint32_t n = 0;
  for (const auto& s : schedulers_) {
    const uint32_t resident = static_cast<uint32_t>(s->age_order().size());
    if (resident > s->issue_limit()) n += resident - s->issue_limit();
  }
  return n;
}

bool Sm::has_token(uint32_t slot) const {
  return !pcal_ || tokens_.at(sched_of(slot)).has_token(local_of(slot));
}

void Sm::launch_cta(const Kernel& k, uint32_t cta, uint32_t warps) {
  if (!fits(warps)) throw std::logic_error(fmt::format("SM {}: CTA of {} warps does not fit", id_, warps));
  settle();
  wake_known_ = false;  // per-SM cycle skipping: the launch events are to be sent
  const auto c = std::find_if(ctas_.begin(), ctas_.end(), [](const Cta& x) { return !x.used; });
  c->used = true;
  c->grid_cta = cta;
  c->running = c->remaining = warps;
  c->arrived = 0;
  c->slots.clear();
  uint32_t slot = 0;
  for (uint32_t w = 0; w < warps; ++w) {
    while (issue_[slot].state != WarpIssueState::State::kFree) ++slot;
    WarpIssueState& xi = issue_[slot];
    xi.state = WarpIssueState::State::kLaunching;
    xi.ibuf_valid = false;
    xi.ready_at = 0;
    xi.load_wait = false;
    xi.store_wait = false;
    xi.at_barrier = false;
    Warp& x = warps_[slot];
    x.cta = static_cast<uint32_t>(c - ctas_.begin());
    x.program = k.warp(cta, w);
    x.pending_loads = 0;
    x.instructions = 0;
    x.tail_count = x.tail_next = 0;
    x.wrong_path = false;
    x.fetch_at = 0;
    c->slots.push_back(slot);
    launch_queue_.push_back(slot);
  }
  free_slots_ -= warps;
  live_warps_ += warps;
  sleeping_ = false;
  ++stats_.ctas;
  stats_.warps += warps;
}

// At most one launch and one exit event per cycle (the L1 contract); the launch comes first,
// as the L1 applies it first.
void Sm::send_events() {
  in_.warp_launch = false;
  if (launch_head_ < launch_queue_.size()) {
    const uint32_t slot = launch_queue_[launch_head_++];
    if (launch_head_ == launch_queue_.size()) launch_queue_.clear(), launch_head_ = 0;
    Warp& w = warps_[slot];
    WarpIssueState& wi = issue_[slot];
    wi.state = WarpIssueState::State::kResident;
    w.awid = ages_.launch();
    live_order_.push_back(slot);
    schedulers_[sched_of(slot)]->launch(slot);
    tokens_[sched_of(slot)].launch(local_of(slot));
    if (fetch_ibuffer_) {  // the i-buffer starts empty: the fetch stage fills it
      w.program->next_into(ahead_[slot]);
    } else {
      w.program->next_into(ibufs_[slot]);
      wi.ibuf_kind = ibufs_[slot].kind;
      wi.ibuf_valid = true;
      ++occupancy_;
    }
    ++resident_warps_;
    occ_.resident_max_per_scheduler = std::max(occ_.resident_max_per_scheduler, ++sched_resident_[sched_of(slot)]);
    in_.warp_launch = true;
    wake_scheduler(slot);
  }
  in_.warp_exit = false;
  // l1.hit_latency_at before_tag: a warp's exit event follows its last request into the L1.
  if (exit_head_ < exit_queue_.size() && !ldst_.pipe_holds_warp(exit_queue_[exit_head_])) {
    const uint32_t slot = exit_queue_[exit_head_++];
    if (exit_head_ == exit_queue_.size()) exit_queue_.clear(), exit_head_ = 0;
    Warp& w = warps_[slot];
    live_order_.erase(std::find(live_order_.begin(), live_order_.end(), slot));
    in_.warp_exit = true;
    in_.exit_awid = w.awid;
    in_.exit_has_next = !live_order_.empty();
    in_.exit_next_oldest = in_.exit_has_next ? warps_[live_order_.front()].awid : 0;
    ages_.exit(w.awid, in_.exit_has_next ? std::optional<uint8_t>(in_.exit_next_oldest) : std::nullopt);
    issue_[slot].state = WarpIssueState::State::kFree;
    w.program.reset();
    ++free_slots_;
    slots_freed_ = true;
    --live_warps_;
    Cta& c = ctas_[w.cta];
    if (--c.remaining == 0) {
      c.used = false;
      ++completed_ctas_;
    }
  }
  // The L1's kernel_start input only starts a new two-level sampling window (golden and RTL), so
  // policy.two_level.keep_across_launches withholds it to keep the window running.
  in_.kernel_start = pending_kernel_start_ && two_level_restart_;
  if (pending_kernel_start_) resize_l1();
  pending_kernel_start_ = false;
  // l1.hit_latency_at before_tag: the L1 ends the kernel once the pipe is empty (contract 13.5).
  in_.kernel_end = pending_kernel_end_ && ldst_.pipe_empty() && (!kernel_end_waits_l1_ || l1_->idle());
  if (in_.kernel_end) pending_kernel_end_ = false;
}

// Before this cycle's L1 step, so the kernel-start event and the kernel's first request meet the
// new arrays. The previous kernel ended only once its before-tag pipe was empty and the L1 idle
// (send_events, cycle); the new kernel's warps issue after the L1 step at the earliest.
void Sm::resize_l1() {
  if (pending_l1_bytes_ == l1_bytes_) return;  // same size: the L1 keeps its replacement state
  if (!ldst_.pipe_empty())
    throw std::logic_error(fmt::format("SM {}: L1 resize at a kernel start with requests in the pipe", id_));
  l1_->resize(pending_l1_bytes_);
  l1_bytes_ = pending_l1_bytes_;
}

void Sm::mem_fetch() {
  mem_room_ = mem_.request_room(id_, 2);
  in_.mem_req_ready = mem_room_ > 0;
  fetched_resp_ = mem_.response(id_);
}

void Sm::mem_peek() {
  const MemResp* r = nullptr;
  mem_room_ = mem_.peek_port(id_, 2, r);
  in_.mem_req_ready = mem_room_ > 0;
  peeked_resp_ = r != nullptr;
  if (peeked_resp_)
    fetched_resp_ = *r;
  else
    fetched_resp_.reset();
}

void Sm::commit_work() {
  if (peeked_resp_) mem_.take_response(id_);
  peeked_resp_ = false;
  // The L1's request first, then a direct load's (the order cycle() decided them in).
  if (mem_req_fired_) mem_.request(id_, out_.mem_req);
  if (direct_req_fired_) mem_.request(id_, direct_req_);
  mem_req_fired_ = direct_req_fired_ = false;
  ldst_.commit_arch();
}

bool Sm::cycle(uint64_t now) {
  if (cycle_skip_ && skip_this_cycle(now)) return false;
  now_ = now;
  ++stats_.clocked_cycles;
  stats_.busy_cycles += live_warps_ > 0;
  bool progress = false;

  ldst_.deliver(now, [this, now](uint32_t slot, uint32_t tag) {
    Warp& w = warps_[slot];
    if (w.pending_loads == 0)
      throw std::logic_error(fmt::format("SM {}: load response for warp {} that waits for none", id_, slot));
    --w.pending_loads;
    if (on_use_) load_request_returned(slot, tag);
    WarpIssueState& wi = issue_[slot];
    if (wi.load_wait && !waits_for_loads(slot)) {
      wi.load_wait = false;
      loads_returned(slot, now);
    }
  });

  const bool pipe = ldst_.has_pipe();
  // l1.bypass_path direct: the offered load leaves for memory while the two-level unit is in B
  // mode at the start of this cycle (contract 13.6).
  const bool direct_now = direct_ && ldst_.offer_is_load() && l1_->two_level_bypass();
  // dispatch() asks after the step whether a store to the load's line is in the L1 then.
  if (direct_now) l1_->query_store(ldst_.offer().addr & ~Addr{kLineBytes - 1});
  if (pipe) {  // the L1 sees the before-tag pipe's head
    in_.core_req_valid = ldst_.pipe_offer_valid(now);
    if (in_.core_req_valid && offered_serial_ != ldst_.pipe_offer_serial()) {
      in_.core_req = ldst_.pipe_offer();
      offered_serial_ = ldst_.pipe_offer_serial();
    }
  } else {
    in_.core_req_valid = ldst_.busy() && !direct_now;
    if (in_.core_req_valid && offered_serial_ != ldst_.offer_serial()) {
      in_.core_req = ldst_.offer();  // copied once per request, not once per cycle
      offered_serial_ = ldst_.offer_serial();
    }
  }
  // The memory port was read by mem_fetch(): a response naming an LDST request answers a direct
  // load, not the L1.
  const bool direct_resp = fetched_resp_ && fetched_resp_->ldst_id != 0;
  in_.mem_resp_valid = fetched_resp_.has_value() && !direct_resp;
  if (in_.mem_resp_valid) in_.mem_resp = *fetched_resp_;
  if (direct_resp) ldst_.direct_response(*fetched_resp_, now);
  in_.occupancy = occupancy_;
  // Most cycles have no event to send: the L1's event inputs are only cleared.
  if (launch_head_ < launch_queue_.size() || exit_head_ < exit_queue_.size() || pending_kernel_start_ ||
      pending_kernel_end_)
    send_events();
  else
    in_.warp_launch = in_.warp_exit = in_.kernel_start = in_.kernel_end = false;
  if (resident_warps_ > 0) {  // occupancy statistics, after this cycle's launch / exit
    ++occ_.resident_cycles;
    occ_.resident_sum += resident_warps_;
    occ_.active_sum += occupancy_;
  }
  in_.agelru_enable = agelru_enable_;

  l1_->step_into(in_, out_);
  const L1Outputs& out = out_;

  if (out.mem_req_valid && in_.mem_req_ready) {
    mem_req_fired_ = true;
    progress = true;
  }
  if (in_.core_req_valid) {
    if (out.core_req_ready) {
      if (pipe) {
        ldst_.pipe_accepted();
      } else {
        const LdstUnit::Fired f = ldst_.fired(now);
        // The LDST unit is free: the schedulers waiting for it are asked (ldst_waiter_).
        if (f.done && f.store) {
          issue_[f.warp].store_wait = false;
          wake_scheduler(f.warp);
        }
      }
      progress = true;
    } else if (!pipe) {
      ldst_.refused();
    }
  }
  if ((pipe || direct_now) && ldst_.busy()) progress |= dispatch(now, direct_now);
  if (out.core_resp_valid) {
    ldst_.l1_response(out.core_resp, now);
    progress = true;
  }
  progress |= in_.mem_resp_valid || direct_resp;
  ldst_.tick();
  if (ldst_queue_count_ > 0 && !ldst_.busy()) {  // core.ldst_queue: the unit takes the oldest waiting
    take_queued();
    progress = true;
  }

  if (resident_warps_ > 0 && (now >= issue_sleep_until_ || (ldst_waiting_ && ldst_room()))) progress |= issue(now);
  if (fetch_ibuffer_ && resident_warps_ > 0) progress |= fetch_stage(now);
  if (live_warps_ == 0)
    sleeping_ = !pending_kernel_start_ && !pending_kernel_end_ && ldst_.quiet() && l1_->idle();
  const bool serial = peeked_resp_ | mem_req_fired_ | direct_req_fired_ | ldst_.arch_pending() |
                      (completed_ctas_ != 0) | slots_freed_ | sleeping_;  // no branch per flag
  summary_ = static_cast<uint8_t>((progress ? kMoved : 0) | (serial ? kSerialWork : 0));
  return progress;
}

bool Sm::dispatch(uint64_t now, bool direct_now) {
  LdstUnit::Fired f;
  if (direct_now) {
    // After the L1's own memory request of this cycle, and never ahead of an earlier store to
    // the line (the pipe's, S1's or the miss queue's): the data check stays exact.
    const Addr line = ldst_.offer().addr & ~Addr{kLineBytes - 1};
    const uint32_t room = mem_room_ - (mem_req_fired_ ? 1 : 0);  // after the L1's request of this cycle
    if (room == 0 || l1_->store_pending(line) || ldst_.pipe_holds_store(line)) {
      ldst_.refused();
      return false;
    }
    f = ldst_.dispatch_direct(now, direct_touched_sectors_, direct_req_);
    direct_req_fired_ = true;  // sent at commit()
  } else {
    if (ldst_.pipe_full()) {
      ldst_.refused();
      return false;
    }
    f = ldst_.dispatch_to_pipe(now);
  }
  if (f.done && f.store) {  // the LDST unit is free: see cycle()
    issue_[f.warp].store_wait = false;
    wake_scheduler(f.warp);
  }
  return true;
}

bool Sm::can_issue(uint32_t slot) const {
  const WarpIssueState& w = issue_[slot];
  if (!w.ibuf_valid || w.load_wait || w.store_wait || w.at_barrier || now_ < w.ready_at) return false;
  return !(is_memory(w.ibuf_kind) && !ldst_room());
}

bool Sm::long_stalled(uint32_t slot) const {
  const WarpIssueState& w = issue_[slot];
  return w.load_wait || w.at_barrier;
}

bool Sm::waits_for_loads(uint32_t slot) const {
  if (warps_[slot].pending_loads == 0) return false;
  const WarpInst& inst = ibufs_[slot];
  // GPGPU-Sim reclaims a warp only once its scoreboard holds no pending write (shader.cc, fetch).
  if (!on_use_ || inst.reads_all_loads || inst.kind == OpKind::kExit) return true;
  const std::bitset<kRegIds>& pending = scoreboards_[slot].pending;
  for (uint32_t k = 0; k < uint32_t{inst.writes} + inst.reads; ++k)
    if (pending[inst.regs[k]]) return true;  // RAW or WAW: issue is in order, so no WAR
  return false;
}

uint32_t Sm::reserve_load(uint32_t slot, const WarpInst& load, uint32_t requests) {
  Scoreboard& sb = scoreboards_[slot];
  auto it = std::find_if(sb.loads.begin(), sb.loads.end(), [](const Scoreboard::Load& l) { return l.remaining == 0; });
  if (it == sb.loads.end()) it = sb.loads.emplace(sb.loads.end());
  it->remaining = requests;
  it->writes = load.writes;
  std::copy_n(load.regs.begin(), load.writes, it->regs.begin());
  for (uint32_t k = 0; k < load.writes; ++k) {
    if (sb.pending[load.regs[k]])  // waits_for_loads let it issue only without a WAW hazard
      throw std::logic_error(fmt::format("SM {}: warp {} load at pc {:#x} writes register {} that is already pending",
                                         id_, slot, load.pc, load.regs[k]));
    sb.pending.set(load.regs[k]);
  }
  return static_cast<uint32_t>(it - sb.loads.begin());
}

void Sm::load_request_returned(uint32_t slot, uint32_t tag) {
  Scoreboard::Load& l = scoreboards_[slot].loads.at(tag);
  if (l.remaining == 0) throw std::logic_error(fmt::format("SM {}: warp {} response for load tag {} not in flight", id_, slot, tag));
  if (--l.remaining > 0) return;
  for (uint32_t k = 0; k < l.writes; ++k) scoreboards_[slot].pending.reset(l.regs[k]);
}

bool Sm::issue(uint64_t now) {
  bool issued = false;
  const uint32_t first = static_cast<uint32_t>(now % num_sched_);
  for (uint32_t k = 0; k < num_sched_; ++k) {
    const uint32_t s = (first + k) % num_sched_;
    // A sleeping scheduler's pick would find nothing (and, for two-level, move nothing): no
    // event that can make one of its warps ready has happened since its last pick, and the LDST
    // unit is busy or none of its warps waits for it (an earlier scheduler's memory instruction
    // of this cycle may have taken it).
    if (sched_sleep_until_[s] > now && !(ldst_waiter_[s] && ldst_room())) continue;
    WarpScheduler& sched = *schedulers_[s];
    const uint32_t slot = sched.age_order().empty() ? WarpScheduler::kNone : sched.pick(*this);
    if (slot == WarpScheduler::kNone) {
      bool waiter = false;
      sched_sleep_until_[s] = latency_wake(sched, now, waiter);
      ldst_waiter_[s] = waiter;
      continue;
    }
    sched.issued(slot, issue_[slot].ibuf_kind);
    execute(slot, now);
    sched_sleep_until_[s] = 0;  // asked again next cycle
    issued = true;
  }
  issue_sleep_until_ = *std::min_element(sched_sleep_until_.begin(), sched_sleep_until_.end());
  ldst_waiting_ = std::any_of(ldst_waiter_.begin(), ldst_waiter_.end(), [](uint8_t x) { return x != 0; });
  return issued;
}

// The earliest ALU-latency expiry of a resident warp of `sched` that waits only for it, and
// (ldst_waiter) whether a warp waits only for the busy LDST unit; every other reason to wait
// ends with an event that wakes the scheduler (wake_scheduler).
uint64_t Sm::latency_wake(const WarpScheduler& sched, uint64_t now, bool& ldst_waiter) const {
  uint64_t at = ~uint64_t{0};
  const bool ldst_busy = !ldst_room();
  for (const uint32_t slot : sched.age_order()) {
    const WarpIssueState& w = issue_[slot];
    if (!w.ibuf_valid || w.load_wait || w.store_wait || w.at_barrier) continue;
    if (w.ready_at > now)
      at = std::min(at, w.ready_at);
    else
      ldst_waiter |= ldst_busy && is_memory(w.ibuf_kind);
  }
  return at;
}

// A warp whose instruction no longer waits for loads can issue at once, or when the LDST unit frees (its
// scheduler becomes an ldst_waiter_), or after its ALU latency; a scheduler whose picks move
// warps at a stall's end is asked at once.
void Sm::loads_returned(uint32_t slot, uint64_t now) {
  const WarpIssueState& w = issue_[slot];
  const uint32_t s = sched_of(slot);
  if (!schedulers_[s]->stall_end_moves_warps() && w.ibuf_valid && !w.store_wait && !w.at_barrier &&
      w.ready_at <= now && is_memory(w.ibuf_kind) && !ldst_room()) {
    ldst_waiter_[s] = 1;
    ldst_waiting_ = true;
    return;
  }
  wake_scheduler(slot);
}

void Sm::wake_scheduler(uint32_t slot) {
  sched_sleep_until_[sched_of(slot)] = 0;
  issue_sleep_until_ = 0;
}

void Sm::wake_all_schedulers() {
  std::fill(sched_sleep_until_.begin(), sched_sleep_until_.end(), 0);
  issue_sleep_until_ = 0;
}

void Sm::execute(uint32_t slot, uint64_t now) {
  Warp& w = warps_[slot];
  WarpIssueState& wi = issue_[slot];
  const WarpInst& inst = ibufs_[slot];
  if (observer_) observer_(id_, now, slot, inst);
  ++w.instructions;
  ++stats_.instructions;
  wi.ready_at = now + 1;
  switch (inst.kind) {
    case OpKind::kAlu:
      ++stats_.alu;
      wi.ready_at = now + std::max<uint32_t>(1, inst.latency);
      break;
    case OpKind::kLoad:
    case OpKind::kStore: {
      ++(inst.kind == OpKind::kLoad ? stats_.loads : stats_.stores);
      mem_issue_cycle_ = now;
      std::vector<CoalescedRequest>& reqs = coalesced_;
      coalesce_(inst, reqs);
      if (reqs.empty()) {
        ++stats_.empty_memory_instructions;
        break;
      }
      uint32_t tag = 0;
      if (inst.kind == OpKind::kLoad) {
        const auto n = static_cast<uint32_t>(reqs.size());
        w.pending_loads += n;
        if (on_use_) tag = reserve_load(slot, inst, n);
      } else {
        wi.store_wait = true;
      }
      const uint32_t rank = schedulers_[sched_of(slot)]->age_rank(slot);
      if (!ldst_.busy()) {
        ldst_.accept(slot, w.awid, has_token(slot), rank, inst, reqs, tag);
        break;
      }
      // core.ldst_queue (can_issue let it issue only with room): it waits behind the unit.
      QueuedMem& q = ldst_queue_[(ldst_queue_head_ + ldst_queue_count_++) % ldst_queue_cap_];
      q.slot = slot, q.age_rank = rank, q.tag = tag, q.awid = w.awid, q.token = has_token(slot);
      q.kind = inst.kind, q.pc = inst.pc;
      q.reqs.swap(reqs);
      break;
    }
    case OpKind::kBarrier: {
      ++stats_.barriers;
      wi.at_barrier = true;
      Cta& c = ctas_[w.cta];
      ++c.arrived;
      check_barrier(c);
      break;
    }
    case OpKind::kExit: {
      ++stats_.exits;
      wi.state = WarpIssueState::State::kExiting;
      wi.ibuf_valid = false;
      --occupancy_;
      --resident_warps_;
      --sched_resident_[sched_of(slot)];
      schedulers_[sched_of(slot)]->exit(slot);
      tokens_[sched_of(slot)].exit(local_of(slot));
      Cta& c = ctas_[w.cta];
      --c.running;
      check_barrier(c);
      exit_queue_.push_back(slot);
      return;
    }
  }
  if (!fetch_ibuffer_)
    w.program->next_into(ibufs_[slot]);  // the i-buffer refills with the next instruction
  else if (!next_from_ibuffer(w, wi, slot, now))
    return;
  wi.ibuf_kind = ibufs_[slot].kind;
  wi.load_wait = waits_for_loads(slot);
}

void Sm::take_queued() {
  QueuedMem& q = ldst_queue_[ldst_queue_head_];
  ldst_queue_head_ = (ldst_queue_head_ + 1) % ldst_queue_cap_;
  --ldst_queue_count_;
  ldst_.accept(q.slot, q.awid, q.token, q.age_rank, q.kind, q.pc, q.reqs, q.tag);
}

bool Sm::next_from_ibuffer(Warp& w, WarpIssueState& wi, uint32_t slot, uint64_t now) {
  if (w.tail_next < w.tail_count) {
    ibufs_[slot] = ibuf_tail_[size_t{slot} * (ibuffer_entries_ - 1) + w.tail_next++];
    return true;
  }
  wi.ibuf_valid = false;
  wi.load_wait = false;
  --occupancy_;  // occupancy counts warps with a valid i-buffer entry
  // GPGPU-Sim flushes the wrong-path entry when the scheduler next examines the warp: the next
  // cycle, as GTO examines the warp that issued last first.
  w.fetch_at = now + (w.wrong_path ? 1 : 0);
  w.wrong_path = false;
  return false;
}

// One fetch a cycle, as GPGPU-Sim with -gpgpu_inst_fetch_throughput 1 (its default, and the
// GTX480 configs'); every fetch is assumed to hit the instruction cache.
bool Sm::fetch_stage(uint64_t now) {
  bool moved = false;
  if (fetch_slot_ != kNoFetch) {
    decode(fetch_slot_);
    fetch_slot_ = kNoFetch;
    moved = true;
  }
  const auto n = static_cast<uint32_t>(issue_.size());
  for (uint32_t i = 1; i <= n; ++i) {
    const uint32_t slot = (last_fetched_ + i) % n;
    const WarpIssueState& wi = issue_[slot];
    if (wi.state == WarpIssueState::State::kResident && !wi.ibuf_valid && warps_[slot].fetch_at <= now) {
      fetch_slot_ = last_fetched_ = slot;
      return true;
    }
  }
  return moved;
}

// GPGPU-Sim's decode fills the i-buffer with the instructions at the fetched PC and the ones
// after it in the code (shader_core_ctx::decode: IBUFFER_SIZE = 2 in shader.h). Our streams are
// dynamic, so an instruction whose PC does not follow its predecessor's by at most one
// instruction was reached by a taken branch: the entry decoded in its place is the wrong path.
void Sm::decode(uint32_t slot) {
  Warp& w = warps_[slot];
  WarpIssueState& wi = issue_[slot];
  WarpInst& ahead = ahead_[slot];
  ibufs_[slot] = ahead;
  wi.ibuf_kind = ahead.kind;
  wi.ibuf_valid = true;
  ++occupancy_;
  w.tail_count = w.tail_next = 0;
  w.wrong_path = false;
  const size_t base = size_t{slot} * (ibuffer_entries_ - 1);
  for (uint32_t k = 0;; ++k) {
    if (ahead.kind == OpKind::kExit) break;  // nothing follows the exit
    const uint64_t pc = ahead.pc;
    w.program->next_into(ahead);
    if (k + 1 == ibuffer_entries_) break;
    if (ahead.pc <= pc || ahead.pc - pc > instruction_bytes_) {
      w.wrong_path = true;
      break;
    }
    ibuf_tail_[base + w.tail_count++] = ahead;
  }
  wi.load_wait = waits_for_loads(slot);
  wake_scheduler(slot);
}

void Sm::check_barrier(Cta& c) {
  if (c.arrived == 0 || c.arrived < c.running) return;
  // A slot of an exited warp may already hold a warp of another CTA: release only this CTA's.
  const uint32_t index = static_cast<uint32_t>(&c - ctas_.data());
  for (uint32_t s : c.slots)
    if (warps_[s].cta == index && issue_[s].state == WarpIssueState::State::kResident) issue_[s].at_barrier = false;
  c.arrived = 0;
  wake_all_schedulers();
}

std::string Sm::describe_state() const {
  std::ostringstream os;
  uint32_t launching = 0, exiting = 0, loads = 0, stores = 0, barrier = 0;
  for (uint32_t s = 0; s < warps_.size(); ++s) {
    const WarpIssueState& wi = issue_[s];
    launching += wi.state == WarpIssueState::State::kLaunching;
    exiting += wi.state == WarpIssueState::State::kExiting;
    if (wi.state != WarpIssueState::State::kResident) continue;
    loads += warps_[s].pending_loads > 0;
    stores += wi.store_wait;
    barrier += wi.at_barrier;
  }
  os << fmt::format(
      "SM {}: {} warps resident ({} launching, {} exiting); waiting: {} for loads, {} for store acceptance, {} at a "
      "barrier; occupancy {}; warp limit {} ebt {} agelru {}\n",
      id_, resident_warps_, launching, exiting, loads, stores, barrier, occupancy_, warp_limit_, ebt_,
      agelru_enable_ ? "on" : "off");
  if (ldst_queue_cap_ > 0) os << fmt::format("  {} memory instruction(s) queued for the LDST unit\n", ldst_queue_count_);
  uint32_t listed = 0;
  for (uint32_t s = 0; s < warps_.size() && listed < 8; ++s) {
    const Warp& w = warps_[s];
    if (issue_[s].state != WarpIssueState::State::kResident || w.pending_loads == 0) continue;
    os << fmt::format("  warp {} (AWID {}) waits for {} load request(s)\n", s, w.awid, w.pending_loads);
    ++listed;
  }
  std::istringstream ldst(ldst_.describe());
  for (std::string line; std::getline(ldst, line);) os << "  " << line << "\n";
  std::istringstream l1(l1_->describe_state());
  for (std::string line; std::getline(l1, line);) os << "  L1 " << line << "\n";
  return os.str();
}

}  // namespace l1d::sim
