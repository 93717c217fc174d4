// The GPU (gpu.h): block scheduler, the cycle loop over SMs and memory, controller windows,
// watchdog, statistics.
#include "sim_cpp/gpu/gpu.h"

#include "sim_cpp/gpu/parallel_for.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace l1d::sim {

namespace {

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double ratio(uint64_t a, uint64_t b) { return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0; }

// t += c (or t -= c: the counts of an interval from two snapshots), field by field.
void add(L1Counters& t, const L1Counters& c, bool subtract = false) {
  const auto f = [subtract](uint64_t& x, uint64_t y) { x = subtract ? x - y : x + y; };
  f(t.cycles, c.cycles);
  f(t.accesses, c.accesses);
  f(t.loads, c.loads);
  f(t.stores, c.stores);
  f(t.hits, c.hits);
  f(t.misses, c.misses);
  f(t.partial_hits, c.partial_hits);
  for (int i = 0; i < 3; ++i) f(t.hits_by_size[i], c.hits_by_size[i]), f(t.misses_by_size[i], c.misses_by_size[i]);
  f(t.bypasses, c.bypasses);
  f(t.merges, c.merges);
  for (int i = 0; i < static_cast<int>(golden::ResFail::kCount); ++i) f(t.res_fail[i], c.res_fail[i]);
  f(t.fills, c.fills);
  f(t.fills_allocated, c.fills_allocated);
  f(t.agcb_overrides, c.agcb_overrides);
  f(t.writebacks, c.writebacks);
  f(t.mem_reads, c.mem_reads);
  f(t.mem_writes, c.mem_writes);
  f(t.granularity_switches, c.granularity_switches);
  f(t.flush_cycles, c.flush_cycles);
  f(t.s1_stall_cycles, c.s1_stall_cycles);
  f(t.fill_stall_cycles, c.fill_stall_cycles);
  f(t.pending_hits, c.pending_hits);
  f(t.widening_reads, c.widening_reads);
  f(t.sector_misses, c.sector_misses);
  for (int i = 0; i < 3; ++i) f(t.sector_misses_by_size[i], c.sector_misses_by_size[i]);
}

nlohmann::json by_size(const uint64_t (&v)[3]) { return {{"32", v[0]}, {"64", v[1]}, {"128", v[2]}}; }

nlohmann::json l1_json(const L1Counters& c) {
  nlohmann::json rf;
  for (int i = 0; i < static_cast<int>(golden::ResFail::kCount); ++i)
    rf[std::string(golden::to_string(static_cast<golden::ResFail>(i)))] = c.res_fail[i];
  return {{"cycles", c.cycles},
          {"accesses", c.accesses},
          {"loads", c.loads},
          {"stores", c.stores},
          {"hits", c.hits},
          {"misses", c.misses},
          {"partial_hits", c.partial_hits},
          {"hit_rate", ratio(c.hits, c.accesses)},
          {"hits_by_size", by_size(c.hits_by_size)},
          {"misses_by_size", by_size(c.misses_by_size)},
          {"bypasses", c.bypasses},
          {"merges", c.merges},
          {"reservation_failures", rf},
          {"fills", c.fills},
          {"fills_allocated", c.fills_allocated},
          {"agcb_overrides", c.agcb_overrides},
          {"writebacks", c.writebacks},
          {"mem_reads", c.mem_reads},
          {"mem_writes", c.mem_writes},
          {"granularity_switches", c.granularity_switches},
          {"flush_cycles", c.flush_cycles},
          {"s1_stall_cycles", c.s1_stall_cycles},
          {"fill_stall_cycles", c.fill_stall_cycles},
          {"pending_hits", c.pending_hits},
          {"widening_reads", c.widening_reads},
          {"sector_misses", c.sector_misses},
          {"sector_misses_by_size", by_size(c.sector_misses_by_size)}};
}

void add(LdstStats& t, const LdstStats& s) {
  t.instructions += s.instructions;
  t.load_instructions += s.load_instructions;
  t.store_instructions += s.store_instructions;
  t.requests += s.requests;
  t.load_requests += s.load_requests;
  t.store_requests += s.store_requests;
  for (int i = 0; i < 3; ++i) t.requests_by_size[i] += s.requests_by_size[i];
  t.busy_cycles += s.busy_cycles;
  t.stall_cycles += s.stall_cycles;
  for (int i = 0; i < 4; ++i) {
    t.responses[i] += s.responses[i];
    for (int k = 0; k < 3; ++k) t.responses_by_size[i][k] += s.responses_by_size[i][k];
  }
  for (int i = 0; i < 3; ++i) {
    t.latency_sum[i] += s.latency_sum[i];
    t.latency_max[i] = std::max(t.latency_max[i], s.latency_max[i]);
  }
  t.loads_checked += s.loads_checked;
  t.load_mismatches += s.load_mismatches;
  t.direct_loads += s.direct_loads;
  for (uint32_t i = 0; i < LdstStats::kAgeRanks; ++i) {
    t.load_requests_by_age[i] += s.load_requests_by_age[i];
    t.load_hits_by_age[i] += s.load_hits_by_age[i];
  }
}

uint64_t load_responses(const LdstStats& s, int k) { return s.responses[k]; }

// A by-age-rank array without its trailing zeros (index 0 = the oldest warp).
nlohmann::json ranks(const uint64_t (&v)[LdstStats::kAgeRanks]) {
  uint32_t n = LdstStats::kAgeRanks;
  while (n > 0 && v[n - 1] == 0) --n;
  return std::vector<uint64_t>(v, v + n);
}

nlohmann::json ldst_json(const LdstStats& s) {
  static const char* kOutcome[4] = {"hit", "miss_return", "bypass_return", "store_ack"};
  nlohmann::json lat, by_outcome;
  for (int k = 0; k < 4; ++k) by_outcome[kOutcome[k]] = by_size(s.responses_by_size[k]);
  for (int k = 0; k < 3; ++k)
    lat[kOutcome[k]] = {{"count", load_responses(s, k)},
                        {"mean", ratio(s.latency_sum[k], load_responses(s, k))},
                        {"max", s.latency_max[k]}};
  return {{"instructions", s.instructions},
          {"load_instructions", s.load_instructions},
          {"store_instructions", s.store_instructions},
          {"requests", s.requests},
          {"load_requests", s.load_requests},
          {"store_requests", s.store_requests},
          {"requests_by_size", by_size(s.requests_by_size)},
          {"requests_per_instruction", ratio(s.requests, s.instructions)},
          {"busy_cycles", s.busy_cycles},
          {"stall_cycles", s.stall_cycles},
          {"store_acks", s.responses[static_cast<int>(Outcome::kStoreAck)]},
          {"direct_loads", s.direct_loads},
          {"responses_by_size", by_outcome},
          {"load_latency", lat},
          {"load_requests_by_age_rank", ranks(s.load_requests_by_age)},
          {"load_hits_by_age_rank", ranks(s.load_hits_by_age)}};
}

}  // namespace

const char* to_string(StopReason r) {
  switch (r) {
    case StopReason::kCompleted: return "completed";
    case StopReason::kWatchdog: return "watchdog";
    case StopReason::kMaxCycles: return "max_cycles";
  }
  return "?";
}

int32_t default_pcal_ebt(uint32_t warp_opt) {
  const uint32_t tokens = std::max(1u, warp_opt / 3);
  return static_cast<int32_t>(tokens) - static_cast<int32_t>(warp_opt);
}

Gpu::Gpu(const Config& cfg, SimOptions opt, L1Factory l1, MemoryFactory mem) : cfg_(cfg), opt_(std::move(opt)) {
  if (cfg_.core.num_sms == 0) throw ConfigError("core.num_sms must be at least 1");
  if (opt_.scheduler.empty()) opt_.scheduler = scheduler_name(cfg_.core.scheduler);
  {
    const auto names = scheduler_names();
    if (std::find(names.begin(), names.end(), opt_.scheduler) == names.end())
      throw ConfigError(fmt::format("unknown scheduler '{}' (known: {})", opt_.scheduler, fmt::join(names, ", ")));
  }
  if (!l1 && opt_.l1 != "golden")
    throw ConfigError(fmt::format("L1 implementation '{}': no L1 factory given (only golden is built in)", opt_.l1));
  if (opt_.controller.window == 0) throw ConfigError("the controller window must be at least 1 cycle");
  opt_.controller.warp_limit = opt_.warp_limit;
  const bool pcal = cfg_.policy.bypass == BypassKind::kPcal;
  const bool agelru = cfg_.policy.replacement == ReplacementKind::kAgeLru || cfg_.policy.bypass == BypassKind::kAgeLru;
  for (const std::string& c : opt_.controllers) {
    if (c == "dynamic-pcal" && !pcal)
      throw ConfigError(fmt::format("controller dynamic-pcal needs a policy with bypass: pcal (policy {} has {})",
                                    cfg_.policy.name, to_string(cfg_.policy.bypass)));
    if (c == "dynamic-agelru" && !agelru)
      throw ConfigError(fmt::format("controller dynamic-agelru needs AgeLRU replacement or bypass (policy {})",
                                    cfg_.policy.name));
    ControllerParams params = opt_.controller;
    params.keep_across_launches = c == "dynamic-pcal"     ? cfg_.policy.pcal.keep_across_launches
                                  : c == "dynamic-agelru" ? cfg_.policy.agelru.keep_across_launches
                                                          : false;
    try {
      controllers_.push_back(make_controller(c, params));
    } catch (const std::invalid_argument& e) {
      throw ConfigError(e.what());
    }
  }
  const uint32_t per_sched = warps_per_scheduler();
  const uint32_t warp_opt = opt_.warp_limit == 0 ? per_sched : std::min(opt_.warp_limit, per_sched);
  const bool dynamic_pcal =
      std::find(opt_.controllers.begin(), opt_.controllers.end(), "dynamic-pcal") != opt_.controllers.end();
  if (!opt_.ebt) opt_.ebt = pcal && !dynamic_pcal ? default_pcal_ebt(warp_opt) : 0;

  if (!l1) l1 = [](const Config& c, uint32_t) { return make_golden_l1(c); };
  mem_ = mem ? mem(cfg_, image_) : make_memory_port(cfg_, image_);
  SmParams p;
  p.scheduler = opt_.scheduler;
  p.active_set = opt_.active_set;
  p.warp_limit = opt_.warp_limit;
  p.pcal_ebt = *opt_.ebt;
  for (uint32_t i = 0; i < cfg_.core.num_sms; ++i)
    sms_.push_back(std::make_unique<Sm>(i, cfg_, p, l1(cfg_, i), *mem_, arch_));
  sample_.sms.resize(sms_.size());
  base_.resize(sms_.size());
  if (opt_.threads == 0) throw ConfigError("--threads: value 0 not allowed (allowed: 1 or more)");
  // Only the golden L1 is known to keep to its own state; a verilated model is not checked for it.
  if (opt_.threads > 1 && opt_.l1 != "golden")
    throw ConfigError(fmt::format("--threads: value {} not allowed with --l1 {} (allowed: 1; more threads need "
                                  "--l1 golden)",
                                  opt_.threads, opt_.l1));
  if (const char* off = std::getenv("GPUSIM_NO_CYCLE_SKIP"); off != nullptr && *off != '\0' && std::string(off) != "0")
    opt_.cycle_skip = false;
  for (auto& s : sms_) s->set_cycle_skip(opt_.cycle_skip);  // per-SM waits (Sm::set_cycle_skip)
  // Lazy waits need a port that tells what ends them (MemoryPort::port_events) and is read
  // inside the SMs' items (split_response).
  port_events_ = opt_.cycle_skip && mem_->port_events() && mem_->split_response();
  for (auto& s : sms_) s->set_port_events(port_events_);
  if (opt_.threads > 1) pool_ = std::make_unique<ParallelFor>(std::min<unsigned>(opt_.threads, num_sms()));
  clocked_.reserve(sms_.size());
}

Gpu::~Gpu() = default;

uint32_t Gpu::warps_per_scheduler() const {
  return (cfg_.core.warps_per_sm + cfg_.core.schedulers_per_sm - 1) / cfg_.core.schedulers_per_sm;
}

uint64_t Gpu::instructions() const {
  uint64_t n = 0;
  for (const auto& s : sms_) n += s->stats().instructions;
  return n;
}

RunResult Gpu::run(Workload& w, WorkloadScale scale) {
  if (ran_) throw std::logic_error("Gpu::run: a Gpu runs one workload");
  ran_ = true;
  w.set_device({cfg_.core.num_sms, cfg_.core.warps_per_sm});
  w.init(image_, scale, cfg_.seed);
  launches_ = w.kernels();
  wall_start_ = wall_last_ = wall_seconds();
  for (uint32_t k = 0; k < w.kernels(); ++k) {
    if (kernel_hook_) kernel_hook_(k);
    if (!run_kernel(w.kernel(k), k)) break;
  }
  if (opt_.progress && wall_last_ != wall_start_) std::fputc('\n', stderr);
  result_.cycles = now_;
  result_.warp_instructions = instructions();
  result_.loads_checked = result_.load_mismatches = 0;
  for (const auto& s : sms_) {
    result_.loads_checked += s->ldst().stats().loads_checked;
    result_.load_mismatches += s->ldst().stats().load_mismatches;
    if (result_.first_mismatch.empty() && s->ldst().first_mismatch())
      result_.first_mismatch = s->ldst().first_mismatch()->to_string();
  }
  return result_;
}

bool Gpu::dispatch(const Kernel& k, uint32_t warps_per_cta, uint32_t total, uint32_t& next) {
  // Round robin over the SMs, at most one CTA per SM per cycle, as many as fit.
  const uint32_t n = num_sms();
  uint32_t last = n;
  for (uint32_t i = 0, s = rr_; i < n && next < total; ++i, s = s + 1 == n ? 0 : s + 1) {
    if (!sms_[s]->fits(warps_per_cta)) continue;
    sms_[s]->launch_cta(k, next++, warps_per_cta);
    last = s;
  }
  if (last == n) return false;
  rr_ = (last + 1) % n;
  return true;
}

L1Counters Gpu::l1_totals() const {
  L1Counters t;
  for (const auto& s : sms_) add(t, s->l1().counters());
  return t;
}

void Gpu::settle_sms() {
  for (auto& s : sms_) s->settle();
}

void Gpu::end_kernel_record() {
  settle_sms();
  KernelRecord& r = kernels_.back();
  r.cycles = now_ - r.start;
  const L1Counters at_start = r.l1;
  r.l1 = l1_totals();
  add(r.l1, at_start, /*subtract=*/true);
}

// Accel-Sim (shader.cc, adaptive_cache_config, at a kernel's first CTA launch): the shared memory
// an SM needs is the kernel's per CTA times the most CTAs an SM can hold, and the first carveout
// option at least that large is the kernel's. Our block scheduler limits CTAs by warp slots only
// (shared memory is not modelled); as Accel-Sim's occupancy limits them by its shared-memory size
// (-gpgpu_shmem_size, the largest option in the reference configs), so does this count.
CarveoutChoice Gpu::kernel_carveout(const Kernel& k, uint32_t warps_per_cta) const {
  const L1Config& l1 = cfg_.l1;
  if (l1.carveout == Carveout::kFixed) return *choose_carveout(l1, 0);
  const uint64_t per_cta = k.shared_bytes_per_cta();
  const uint64_t largest = uint64_t{l1.shared_options_kb.back()} * 1024;
  uint64_t ctas = cfg_.core.warps_per_sm / warps_per_cta;
  if (per_cta > 0) ctas = std::min(ctas, largest / per_cta);
  if (ctas == 0)
    throw ConfigError(fmt::format("kernel {}: {} B of shared memory per CTA exceed the largest l1.shared_options_kb "
                                  "option ({} KB) of preset {}",
                                  k.name(), per_cta, l1.shared_options_kb.back(), cfg_.name));
  return *choose_carveout(l1, per_cta * ctas);  // per_cta * ctas <= largest: an option fits
}

bool Gpu::run_kernel(const Kernel& k, uint32_t index) {
  const KernelGrid g = k.grid();
  if (g.warps_per_cta == 0 || g.warps_per_cta > cfg_.core.warps_per_sm)
    throw ConfigError(fmt::format("kernel {}: {} warps per CTA do not fit an SM of {} warps", k.name(),
                                  g.warps_per_cta, cfg_.core.warps_per_sm));
  const CarveoutChoice carveout = kernel_carveout(k, g.warps_per_cta);
  kernels_.push_back({k.name(), g.ctas, g.warps_per_cta, now_, 0, l1_totals(), carveout});
  uint32_t next = 0, done = 0;
  bool ended = false;
  // A dispatch that launched nothing is repeated only once a warp slot was freed: until then no
  // SM fits a CTA, and the pass would change nothing (not even the round robin's start).
  bool dispatch_again = true;
  // The clocked SMs are listed again only when one may have woken (a kernel event, a CTA
  // launch) or fallen quiescent (seen after its cycle); an SM sleeps only at its cycle's end and
  // wakes only through the GPU's calls below.
  bool reclock = true;
  last_progress_ = now_;
  mem_signature_ = memory_signature();
  // core.kernel_launch_cycles: the SMs get kernel start and the first CTAs at launch_at (the
  // launch overhead counts in the kernel's cycles, and is not a stall for the watchdog).
  const uint64_t launch_at = now_ + cfg_.core.kernel_launch_cycles;
  // Cycle skipping is tried after a cycle in which no SM moved, and not again right after a
  // skip: the cycle it stopped at has something due (or is a sampler / window / watchdog cycle).
  bool try_skip = true;
  for (bool first = true;;) {
    const bool launched = now_ >= launch_at;
    if (launched && first) {
      for (auto& s : sms_) s->kernel_start(carveout.l1_bytes);
      reclock = true;
    }
    if (launched && dispatch_again) {
      dispatch_again = dispatch(k, g.warps_per_cta, g.ctas, next);
      reclock |= dispatch_again;
    }
    if (launched && first) {
      first = false;
      for (auto& c : controllers_) c->kernel_start(*this, index);
      const bool kept = index > 0 && std::all_of(controllers_.begin(), controllers_.end(), [](const auto& c) {
        return c->keeps_state_across_launches();
      });
      if (!controllers_.empty() && !kept) {
        sample_.index = 0;
        window_begin();
      }
    }
    bool progress = !launched;
    // The SMs' cycles share no state (Sm::cycle); the memory ports and the architectural image
    // are touched before and after them in SM order, as if the SMs ran one after another.
    if (reclock) {
      clocked_.clear();
      for (auto& s : sms_)
        if (!s->quiescent()) clocked_.push_back(s.get());
      reclock = false;
    }
    // Before the launch nothing runs; after it, a dispatch that launched a CTA is repeated in
    // the next cycle.
    if (opt_.cycle_skip && try_skip && (!launched || !dispatch_again) &&
        skip_idle_cycles(launched ? ~uint64_t{0} : launch_at, !first && !controllers_.empty())) {
      try_skip = false;
      continue;
    }
    // A port that can be peeked is read inside the SMs' items (Sm::mem_peek; commit() takes the
    // response), any other one here, before them.
    const bool peek = mem_->split_response();
    if (!peek)
      for (Sm* s : clocked_) s->mem_fetch();
    // The memory system's part that does not depend on this cycle's requests runs beside the
    // SMs' cycles, as item 0 (MemoryPort::split_tick); its network part runs after the requests.
    const size_t mem_items = mem_->split_tick() ? 1 : 0;
    const uint64_t now = now_;
    const auto item = [&](size_t i) {
      if (i < mem_items)
        mem_->tick_independent();
      else {
        Sm& s = *clocked_[i - mem_items];
        if (s.lazy_skip(now)) return;  // a lazy wait: nothing read, nothing to commit
        if (peek) s.mem_peek();
        s.cycle(now);
      }
    };
    const size_t items = clocked_.size() + mem_items;
    if (pool_ && !observed_ && clocked_.size() >= opt_.parallel_min_sms) {
      pool_->run(items, item);
      ++parallel_cycles_;
    } else {
      for (size_t i = 0; i < items; ++i) item(i);
    }
    // In SM order. Most SMs have nothing but their progress to report (Sm::cycle_summary).
    for (Sm* s : clocked_) {
      const uint8_t f = s->cycle_summary();
      progress |= (f & Sm::kMoved) != 0;
      if (!(f & Sm::kSerialWork)) continue;
      s->commit();
      done += s->take_completed_ctas(dispatch_again);  // only a clocked SM completes CTAs
      reclock |= s->quiescent();
    }
    mem_->tick_rest();  // the whole tick() when the port does not split it
    if (port_events_) {  // what ends the SMs' lazy waits (Sm::lazy_skip)
      for (const uint32_t sm : mem_->response_grants()) sms_[sm]->note_response();
      for (const uint32_t sm : mem_->request_room_freed()) sms_[sm]->note_room();
    }
    if (!ended && done == g.ctas) {
      for (auto& s : sms_) s->kernel_end();
      ended = true;
      reclock = true;
    }
    ++now_;
    try_skip = !progress || !launched;  // before the launch every cycle counts as progress
    if (progress) last_progress_ = now_;
    if (sampler_every_ && now_ % sampler_every_ == 0) {
      settle_sms();
      sampler_(now_);
    }

    // No controller window before the kernel has started (core.kernel_launch_cycles).
    if (!first && !controllers_.empty() && now_ - window_start_ >= opt_.controller.window) {
      window_end();
      for (auto& c : controllers_) c->window(*this, sample_);
      ++sample_.index;
      window_begin();
    }
    if (opt_.watchdog && now_ - last_progress_ >= opt_.watchdog) {
      const uint64_t sig = memory_signature();
      if (sig != mem_signature_) {
        mem_signature_ = sig;
        last_progress_ = now_;
      } else {
        result_.stop = StopReason::kWatchdog;
        result_.watchdog_report = watchdog_report();
        end_kernel_record();
        return false;
      }
    }
    if (opt_.max_cycles && now_ >= opt_.max_cycles) {
      result_.stop = StopReason::kMaxCycles;
      end_kernel_record();
      return false;
    }
    if (opt_.progress && (now_ & 0xFFF) == 0) progress_line(index);
    if (ended && mem_->idle() &&
        std::all_of(sms_.begin(), sms_.end(), [](const auto& s) { return s->quiescent(); }))
      break;
  }
  end_kernel_record();
  return true;
}

bool Gpu::skip_idle_cycles(uint64_t limit, bool windows) {
  // The cycles now_ .. to - 1 are skipped; the end of each (now_ + 1 .. to) must not be one at
  // which the loop samples, ends a controller window, checks the watchdog or stops.
  uint64_t to = limit;
  if (sampler_every_) to = std::min(to, (now_ / sampler_every_ + 1) * sampler_every_ - 1);
  if (windows) to = std::min(to, window_start_ + opt_.controller.window - 1);
  const bool launched = limit == ~uint64_t{0};  // before the launch every cycle is progress
  if (launched && opt_.watchdog) to = std::min(to, last_progress_ + opt_.watchdog - 1);
  if (opt_.max_cycles) to = std::min(to, opt_.max_cycles - 1);
  for (Sm* s : clocked_) {
    if (to <= now_) return false;
    s->settle();  // next_event reads the counts a lazy wait has not added yet (the two-level window)
    to = std::min(to, s->next_event(now_));
  }
  if (to <= now_) return false;
  to = std::min(to, mem_->next_event(now_));
  if (to <= now_) return false;
  const uint64_t n = to - now_;
  for (Sm* s : clocked_) s->skip_cycles(n);
  mem_->skip(n);
  now_ = to;
  if (!launched) last_progress_ = now_;
  skipped_cycles_ += n;
  return true;
}

void Gpu::window_begin() {
  settle_sms();
  window_start_ = now_;
  for (uint32_t i = 0; i < num_sms(); ++i) {
    const Sm& s = *sms_[i];
    SmWindow& b = base_[i];
    b.instructions = s.stats().instructions;
    b.busy_cycles = s.stats().busy_cycles;
    b.l1_accesses = s.l1().counters().accesses;
    b.l1_misses = s.l1().counters().misses;
    b.ldst_stall_cycles = s.ldst().stats().stall_cycles;
  }
  base_noc_sum_ = mem_->stats().noc_latency_sum;
  base_noc_packets_ = mem_->stats().noc_packets;
}

void Gpu::window_end() {
  settle_sms();
  sample_.cycles = now_ - window_start_;
  for (uint32_t i = 0; i < num_sms(); ++i) {
    const Sm& s = *sms_[i];
    const SmWindow& b = base_[i];
    SmWindow& w = sample_.sms[i];
    w.instructions = s.stats().instructions - b.instructions;
    w.busy_cycles = s.stats().busy_cycles - b.busy_cycles;
    w.l1_accesses = s.l1().counters().accesses - b.l1_accesses;
    w.l1_misses = s.l1().counters().misses - b.l1_misses;
    w.ldst_stall_cycles = s.ldst().stats().stall_cycles - b.ldst_stall_cycles;
    w.resident_warps = s.resident_warps();
    w.throttled_warps = s.throttled_warps();
  }
  const uint64_t packets = mem_->stats().noc_packets - base_noc_packets_;
  sample_.noc_latency = ratio(mem_->stats().noc_latency_sum - base_noc_sum_, packets);
}

uint64_t Gpu::memory_signature() const {
  const MemorySystemStats& m = mem_->stats();
  return m.requests + m.reads + m.writes + m.l2_hits + m.l2_misses + m.dram_reads + m.dram_writes +
         m.noc_request_flits + m.noc_response_flits + m.round_trips + m.noc_packets;
}

std::string Gpu::watchdog_report() const {
  std::ostringstream os;
  os << fmt::format("watchdog: no progress for {} cycles (cycle {}, kernel {} '{}')\n", opt_.watchdog, now_,
                    kernels_.size() - 1, kernels_.empty() ? "" : kernels_.back().name);
  for (const auto& s : sms_) {
    if (s->quiescent()) continue;
    os << s->describe_state();
  }
  os << "memory system:\n" << mem_->describe_state();
  if (!mem_->describe_state().empty() && mem_->describe_state().back() != '\n') os << "\n";
  return os.str();
}

std::string progress_text(uint64_t cycle, uint32_t kernel_index, uint32_t kernels, uint64_t warp_instructions,
                          double seconds) {
  return fmt::format("gpusim: cycle {}, kernel {} of {}, {} warp instructions, IPC {:.3f}, {:.0f} k cycles/s", cycle,
                     kernel_index + 1, kernels, warp_instructions, ratio(warp_instructions, cycle),
                     seconds > 0 ? static_cast<double>(cycle) / seconds / 1000.0 : 0.0);
}

void Gpu::progress_line(uint32_t kernel_index) {
  const double t = wall_seconds();
  if (t - wall_last_ < 2.0) return;
  wall_last_ = t;
  // The trailing blanks cover the end of a longer line before it.
  std::fprintf(stderr, "\r%s   ", progress_text(now_, kernel_index, launches_, instructions(), t - wall_start_).c_str());
  std::fflush(stderr);
}

// The resolved configuration, field path -> value (numbers and booleans typed), so that every
// number in the statistics names the model it came from.
nlohmann::json config_json(const Config& cfg) {
  nlohmann::json out = nlohmann::json::object();
  for (const ConfigField& f : describe_config(cfg)) {
    nlohmann::json v = f.value;
    if (!f.value.empty() && f.value.front() == '[') {  // a list of numbers (l1.shared_options_kb)
      v = nlohmann::json::parse(f.value, nullptr, /*allow_exceptions=*/false);
      if (v.is_discarded()) v = f.value;
    } else if (f.value == "true" || f.value == "false") {
      v = f.value == "true";
    } else if (!f.value.empty() && f.value.find_first_not_of("0123456789.-e+") == std::string::npos) {
      v = nlohmann::json::parse(f.value, nullptr, /*allow_exceptions=*/false);
      if (v.is_discarded()) v = f.value;
    }
    out[f.path] = v;
  }
  return out;
}

nlohmann::json Gpu::stats_json() const {
  nlohmann::json j;
  j["config"] = config_json(cfg_);
  nlohmann::json ctrl_names = opt_.controllers;
  j["run"] = {{"preset", cfg_.name},
              // --preset auto: the trace's binary version that chose the preset (null: named).
              {"preset_auto_binary_version", opt_.auto_preset_binary_version
                                                 ? nlohmann::json(*opt_.auto_preset_binary_version)
                                                 : nlohmann::json()},
              {"policy", cfg_.policy.name},
              {"replacement", to_string(cfg_.policy.replacement)},
              {"bypass", to_string(cfg_.policy.bypass)},
              {"granularity", to_string(cfg_.policy.granularity)},
              {"bto", cfg_.policy.bto},
              {"workload", opt_.workload_name},
              {"scale", opt_.scale_name},
              {"seed", cfg_.seed},
              {"scheduler", opt_.scheduler},
              {"active_set", opt_.active_set},
              {"warp_limit", opt_.warp_limit},
              {"ebt", opt_.ebt.value_or(0)},
              {"controllers", ctrl_names},
              {"window", opt_.controller.window},
              {"l1", opt_.l1},
              {"num_sms", cfg_.core.num_sms},
              {"warps_per_sm", cfg_.core.warps_per_sm},
              {"watchdog", opt_.watchdog},
              {"max_cycles", opt_.max_cycles}};
  const uint64_t instr = instructions();
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelRecord& k : kernels_)
    kernels.push_back({{"name", k.name}, {"ctas", k.ctas}, {"warps_per_cta", k.warps_per_cta},
                       {"start", k.start}, {"cycles", k.cycles}, {"l1_bytes", k.carveout.l1_bytes},
                       {"l1", l1_json(k.l1)}});
  j["result"] = {{"stop", to_string(result_.stop)},
                 {"cycles", now_},
                 {"warp_instructions", instr},
                 {"ipc", ratio(instr, now_)},
                 {"kernels", kernels}};
  if (result_.stop == StopReason::kWatchdog) j["result"]["watchdog_report"] = result_.watchdog_report;

  L1Counters l1_total;
  LdstStats ldst_total;
  SmStats sm_total;
  nlohmann::json sms = nlohmann::json::array();
  uint64_t checked = 0, mismatches = 0;
  std::string first;
  for (const auto& s : sms_) {
    add(l1_total, s->l1().counters());
    add(ldst_total, s->ldst().stats());
    const SmStats& st = s->stats();
    sm_total.instructions += st.instructions;
    sm_total.alu += st.alu;
    sm_total.loads += st.loads;
    sm_total.stores += st.stores;
    sm_total.barriers += st.barriers;
    sm_total.exits += st.exits;
    sm_total.empty_memory_instructions += st.empty_memory_instructions;
    sm_total.ctas += st.ctas;
    sm_total.warps += st.warps;
    checked += s->ldst().stats().loads_checked;
    mismatches += s->ldst().stats().load_mismatches;
    if (first.empty() && s->ldst().first_mismatch()) first = s->ldst().first_mismatch()->to_string();
    sms.push_back({{"id", s->id()},
                   {"instructions", st.instructions},
                   {"ipc", ratio(st.instructions, now_)},
                   {"busy_cycles", st.busy_cycles},
                   {"clocked_cycles", st.clocked_cycles},
                   {"ctas", st.ctas},
                   {"final_warp_limit", s->warp_limit()},
                   {"final_ebt", s->pcal_ebt()},
                   {"final_agelru_enable", s->agelru_enable()},
                   {"l1", l1_json(s->l1().counters())},
                   {"ldst", ldst_json(s->ldst().stats())}});
  }
  j["instructions"] = {{"total", sm_total.instructions}, {"alu", sm_total.alu},
                       {"loads", sm_total.loads},        {"stores", sm_total.stores},
                       {"barriers", sm_total.barriers},  {"exits", sm_total.exits},
                       {"empty_memory", sm_total.empty_memory_instructions},
                       {"ctas", sm_total.ctas},          {"warps", sm_total.warps}};
  j["l1"] = l1_json(l1_total);
  // Accel-Sim's L1D units (golden/l1.h AccelSimCounters): only an L1 with a golden model counts them.
  if (std::all_of(sms_.begin(), sms_.end(), [](const auto& s) { return s->l1().golden_model() != nullptr; })) {
    golden::AccelSimCounters a;
    for (const auto& s : sms_) {
      const golden::AccelSimCounters& c = s->l1().golden_model()->accelsim();
      for (auto [t, x] : {std::pair{&a.read, &c.read}, std::pair{&a.write, &c.write}}) {
        t->hit += x->hit, t->miss += x->miss, t->sector_miss += x->sector_miss;
        t->mshr_hit += x->mshr_hit, t->res_fail += x->res_fail;
      }
    }
    const auto counts = [](const golden::AccelSimCounts& c) {
      return nlohmann::json{{"hit", c.hit},           {"miss", c.miss},         {"sector_miss", c.sector_miss},
                            {"mshr_hit", c.mshr_hit}, {"res_fail", c.res_fail}, {"total", c.hit + c.miss + c.sector_miss + c.mshr_hit}};
    };
    j["l1"]["accelsim_sectors"] = {{"read", counts(a.read)}, {"write", counts(a.write)}};
    if (cfg_.l1.pipeline == L1Pipeline::kStaged) {
      golden::StagedPairs p;
      for (const auto& s : sms_) {
        const golden::StagedPairs& q = s->l1().golden_model()->staged_pairs();
        p.decided += q.decided, p.same_set += q.same_set;
        p.stale_core += q.stale_core, p.stale_fill += q.stale_fill, p.stale_flush += q.stale_flush;
      }
      j["l1"]["staged_m_pairs"] = {{"decided", p.decided},         {"same_set", p.same_set},
                                   {"stale", p.stale()},             {"stale_core", p.stale_core},
                                   {"stale_fill", p.stale_fill},   {"stale_flush", p.stale_flush}};
    }
  }
  j["ldst"] = ldst_json(ldst_total);
  j["sms"] = sms;
  j["load_check"] = {{"checked", checked}, {"mismatches", mismatches}, {"first_mismatch", first}};
  j["memory"] = mem_->stats_json();
  const MemorySystemStats& m = mem_->stats();
  j["latency"] = {{"noc_request_mean", ratio(m.noc_latency_sum, m.noc_packets)},
                  {"memory_round_trip_mean", ratio(m.round_trip_sum, m.round_trips)},
                  {"load_hit_mean", ratio(ldst_total.latency_sum[0], ldst_total.responses[0])},
                  {"load_miss_mean", ratio(ldst_total.latency_sum[1], ldst_total.responses[1])},
                  {"load_bypass_mean", ratio(ldst_total.latency_sum[2], ldst_total.responses[2])}};
  nlohmann::json ctrl = nlohmann::json::object();
  for (const auto& c : controllers_) ctrl[c->name()] = c->report();
  j["controllers"] = ctrl;
  j["occupancy"] = occupancy_json();
  return j;
}

// Per SM and GPU-wide. "Busy" cycles are an SM's cycles with at least one resident warp; the
// GPU-wide means weight each SM by its busy cycles (SMs that never ran a CTA do not count:
// sms_used says how many did). active_warp_occupancy is the two-level bypassing paper's
// occupancy: warps with a valid instruction-buffer entry over the SM's warp slots, averaged
// over busy cycles.
nlohmann::json Gpu::occupancy_json() const {
  const double sched = cfg_.core.schedulers_per_sm, slots = cfg_.core.warps_per_sm;
  uint64_t cycles = 0, resident = 0, active = 0, ctas = 0;
  uint32_t max = 0, used = 0;
  nlohmann::json per_sm = nlohmann::json::array();
  for (const auto& s : sms_) {
    const SmOccupancy& o = s->occupancy_stats();
    cycles += o.resident_cycles, resident += o.resident_sum, active += o.active_sum;
    max = std::max(max, o.resident_max_per_scheduler);
    ctas += s->stats().ctas;
    used += s->stats().ctas > 0;
    per_sm.push_back({{"id", s->id()},
                      {"ctas", s->stats().ctas},
                      {"busy_cycles", o.resident_cycles},
                      {"resident_warps_per_scheduler_mean", ratio(o.resident_sum, o.resident_cycles) / sched},
                      {"resident_warps_per_scheduler_max", o.resident_max_per_scheduler},
                      {"active_warp_occupancy", ratio(o.active_sum, o.resident_cycles) / slots}});
  }
  return {{"ctas", ctas},
          {"sms_used", used},
          {"resident_warps_per_scheduler_mean", ratio(resident, cycles) / sched},
          {"resident_warps_per_scheduler_max", max},
          {"active_warp_occupancy", ratio(active, cycles) / slots},
          {"per_sm", per_sm}};
}

std::string Gpu::occupancy_line() const {
  const nlohmann::json o = occupancy_json();
  return fmt::format("occupancy: {} CTAs on {} of {} SMs; resident warps per scheduler mean {:.1f}, max {} (of {}); "
                     "active-warp occupancy {:.1f}%",
                     o["ctas"].get<uint64_t>(), o["sms_used"].get<uint32_t>(), sms_.size(),
                     o["resident_warps_per_scheduler_mean"].get<double>(),
                     o["resident_warps_per_scheduler_max"].get<uint32_t>(),
                     cfg_.core.warps_per_sm / cfg_.core.schedulers_per_sm,
                     100 * o["active_warp_occupancy"].get<double>());
}

// l1.carveout adaptive: the kernels by name and carveout, in order of first appearance, e.g.
// "L1 carveout: kernel Kernel 128 KB (shared 0 KB) x 8". Fixed carveout: no line (size_bytes throughout).
std::string Gpu::carveout_line() const {
  if (cfg_.l1.carveout == Carveout::kFixed || kernels_.empty()) return "";
  struct Group {
    const KernelRecord* first;
    uint32_t count;
  };
  std::vector<Group> groups;
  for (const KernelRecord& k : kernels_) {
    const auto same = [&k](const Group& g) {
      return g.first->name == k.name && g.first->carveout.l1_bytes == k.carveout.l1_bytes &&
             g.first->carveout.shared_kb == k.carveout.shared_kb;
    };
    if (auto g = std::find_if(groups.begin(), groups.end(), same); g != groups.end())
      ++g->count;
    else
      groups.push_back({&k, 1});
  }
  std::vector<std::string> parts;
  for (const Group& g : groups)
    parts.push_back(fmt::format("kernel {} {} KB (shared {} KB){}", g.first->name, g.first->carveout.l1_bytes / 1024,
                                g.first->carveout.shared_kb, g.count > 1 ? fmt::format(" x {}", g.count) : ""));
  return fmt::format("L1 carveout: {}", fmt::join(parts, "; "));
}

std::string Gpu::summary() const {
  L1Counters c;
  LdstStats l;
  for (const auto& s : sms_) add(c, s->l1().counters()), add(l, s->ldst().stats());
  const uint64_t instr = instructions();
  const MemorySystemStats& m = mem_->stats();
  std::string out;
  auto line = [&out](const std::string& s) { out += s + "\n"; };
  line(fmt::format("gpusim: {} ({} scale) on {}, policy {} [{} / {} / {}{}], scheduler {}, seed {}", opt_.workload_name,
                   opt_.scale_name, cfg_.name, cfg_.policy.name, to_string(cfg_.policy.replacement),
                   to_string(cfg_.policy.bypass), to_string(cfg_.policy.granularity), cfg_.policy.bto ? " +bto" : "",
                   opt_.scheduler, cfg_.seed));
  if (opt_.auto_preset_binary_version)
    line(fmt::format("  preset {} chosen by --preset auto for the trace's binary version {}", cfg_.name,
                     *opt_.auto_preset_binary_version));
  if (!opt_.controllers.empty() || opt_.warp_limit)
    line(fmt::format("  controllers: {}; warp limit {}, EBTNum {}", opt_.controllers.empty() ? "none" : fmt::format("{}", fmt::join(opt_.controllers, ", ")),
                     opt_.warp_limit ? std::to_string(opt_.warp_limit) : "all", opt_.ebt.value_or(0)));
  line(fmt::format("{}: {} cycles, {} warp instructions, IPC {:.3f} ({} kernel(s))", to_string(result_.stop), now_,
                   instr, ratio(instr, now_), kernels_.size()));
  line(fmt::format("L1 ({} SMs): {} accesses ({} loads, {} stores), hit rate {:.1f}%, {} partial hits, {} bypasses, "
                   "{} merges",
                   sms_.size(), c.accesses, c.loads, c.stores, 100 * ratio(c.hits, c.accesses), c.partial_hits,
                   c.bypasses, c.merges));
  line(fmt::format("  by size     {:>12} {:>12} {:>12}", "32 B", "64 B", "128 B"));
  line(fmt::format("  hits        {:>12} {:>12} {:>12}", c.hits_by_size[0], c.hits_by_size[1], c.hits_by_size[2]));
  line(fmt::format("  misses      {:>12} {:>12} {:>12}", c.misses_by_size[0], c.misses_by_size[1],
                   c.misses_by_size[2]));
  const auto& bp = l.responses_by_size[static_cast<int>(Outcome::kBypassReturn)];
  line(fmt::format("  bypassed    {:>12} {:>12} {:>12}   (load requests answered by a non-allocating fill)", bp[0],
                   bp[1], bp[2]));
  line(fmt::format("  reservation failures: mshr_full {}, merge_full {}, mshr_conflict {}, miss_queue_full {}, "
                   "line_alloc {}; pending hits {}",
                   c.res_fail[0], c.res_fail[1], c.res_fail[2], c.res_fail[3], c.res_fail[4], c.pending_hits));
  line(fmt::format("  fills {} (allocated {}), write-backs {}, granularity switches {}, AGCB overrides {}", c.fills,
                   c.fills_allocated, c.writebacks, c.granularity_switches, c.agcb_overrides));
  line(fmt::format("L2: {} requests ({} reads, {} writes), hit rate {:.1f}%, bypass-bit overrides {}", m.requests,
                   m.reads, m.writes, 100 * ratio(m.l2_hits, m.l2_hits + m.l2_misses), m.l2_bypass_overrides));
  line(fmt::format("DRAM: {} reads, {} writes, row hits {:.1f}%, {} bytes ({:.1f} B/cycle)", m.dram_reads,
                   m.dram_writes, 100 * ratio(m.dram_row_hits, m.dram_row_hits + m.dram_row_misses), m.dram_bytes,
                   ratio(m.dram_bytes, now_)));
  line(fmt::format("latency: NoC request {:.1f} cycles, L1-miss round trip {:.1f} cycles; loads seen by warps: hit "
                   "{:.1f}, miss {:.1f}, bypass {:.1f}",
                   ratio(m.noc_latency_sum, m.noc_packets), ratio(m.round_trip_sum, m.round_trips),
                   ratio(l.latency_sum[0], l.responses[0]), ratio(l.latency_sum[1], l.responses[1]),
                   ratio(l.latency_sum[2], l.responses[2])));
  line(occupancy_line());
  if (const std::string carve = carveout_line(); !carve.empty()) line(carve);
  line(fmt::format("LDST: {} instructions, {} requests ({:.2f}/instr), stalled on L1 {} cycles", l.instructions,
                   l.requests, ratio(l.requests, l.instructions), l.stall_cycles));
  line(fmt::format("load check: {} load requests checked, {} mismatches{}", l.loads_checked, l.load_mismatches,
                   result_.first_mismatch.empty() ? "" : " -- first: " + result_.first_mismatch));
  return out;
}

}  // namespace l1d::sim
