// SM-level runtime controllers (controllers.h). Each is a short class; the registry is the
// table at the end of this file.
#include "sim_cpp/core/controllers.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <nlohmann/json.hpp>

namespace l1d::sim {

uint64_t WindowSample::instructions() const {
  uint64_t n = 0;
  for (const SmWindow& s : sms) n += s.instructions;
  return n;
}

double WindowSample::l1_miss_rate() const {
  uint64_t a = 0, m = 0;
  for (const SmWindow& s : sms) a += s.l1_accesses, m += s.l1_misses;
  return a ? static_cast<double>(m) / static_cast<double>(a) : 0.0;
}

namespace {

constexpr size_t kMaxLog = 512;  // decisions kept in the report

double sm_ipc(const WindowSample& s, uint32_t sm) {
  return static_cast<double>(s.sms[sm].instructions) / static_cast<double>(s.cycles);
}

// Phase detector (dissertation 4.4.3): a new phase when the window's IPC differs from the
// phase's reference by more than `threshold` (relative) or its L1 miss rate by more than
// `threshold` (absolute), for `windows` consecutive windows. The first window after reset()
// becomes the reference.
class PhaseDetector {
 public:
  void reset() {
    have_ref_ = false;
    count_ = 0;
  }
  bool sample(double ipc, double miss, double threshold, uint32_t windows) {
    if (!have_ref_) {
      ref_ipc_ = ipc;
      ref_miss_ = miss;
      have_ref_ = true;
      return false;
    }
    const bool ipc_changed = ref_ipc_ > 0 ? std::abs(ipc - ref_ipc_) / ref_ipc_ > threshold : ipc > 0;
    const bool changed = ipc_changed || std::abs(miss - ref_miss_) > threshold;
    count_ = changed ? count_ + 1 : 0;
    if (count_ < std::max(1u, windows)) return false;
    reset();
    return true;
  }

 private:
  bool have_ref_ = false;
  uint32_t count_ = 0;
  double ref_ipc_ = 0, ref_miss_ = 0;
};

class Log {
 public:
  void add(nlohmann::json e) {
    ++count_;
    if (entries_.size() < kMaxLog) entries_.push_back(std::move(e));
  }
  nlohmann::json json() const { return {{"decisions", count_}, {"log", entries_}}; }

 private:
  uint64_t count_ = 0;
  nlohmann::json entries_ = nlohmann::json::array();
};

// Static warp throttling: warp-opt warps per scheduler may issue (the oldest ones).
class ThrottleController final : public Controller {
 public:
  explicit ThrottleController(const ControllerParams& p) : limit_(p.warp_limit) {}
  std::string name() const override { return "throttle"; }
  void kernel_start(ControllerHost& host, uint32_t) override {
    for (uint32_t sm = 0; sm < host.num_sms(); ++sm) host.set_warp_limit(sm, limit_);
  }
  bool keeps_state_across_launches() const override { return true; }  // nothing learned, no windows
  void window(ControllerHost&, const WindowSample&) override {}
  nlohmann::json report() const override { return {{"warp_limit", limit_}}; }

 private:
  uint32_t limit_;
};

// Dynamic PCAL (dissertation 4.4, SPEC 7). EBTNum is the same for every SM except during
// parallel voting.
class DynamicPcalController final : public Controller {
 public:
  explicit DynamicPcalController(const ControllerParams& p) : p_(p) {}
  std::string name() const override { return "dynamic-pcal"; }

  void kernel_start(ControllerHost& host, uint32_t kernel) override {
    max_ = host.warps_per_scheduler();
    opt_ = p_.warp_limit == 0 ? max_ : std::min(p_.warp_limit, max_);
    for (uint32_t sm = 0; sm < host.num_sms(); ++sm) host.set_warp_limit(sm, opt_);
    kernel_ = kernel;
    if (p_.keep_across_launches && started_) {
      // The SMs keep their EBTNum across launches; only the log notes the new kernel.
      log_.add({{"kernel", kernel_}, {"event", "kernel start: state kept"}, {"ebt", ebt_}});
      return;
    }
    started_ = true;
    enter_init(host, "kernel start");
  }
  bool keeps_state_across_launches() const override { return p_.keep_across_launches; }

  void window(ControllerHost& host, const WindowSample& s) override {
    const double ipc = s.ipc();
    switch (state_) {
      case State::kInit: {
        uint64_t stall = 0, busy = 0;
        uint32_t throttled = 0;
        for (const SmWindow& w : s.sms) stall += w.ldst_stall_cycles, busy += w.busy_cycles, throttled += w.throttled_warps;
        const double stall_ratio = busy ? static_cast<double>(stall) / static_cast<double>(busy) : 0.0;
        const bool spare = s.noc_latency <= p_.noc_latency_limit && stall_ratio <= p_.stall_limit && throttled > 0;
        if (spare) {
          last_ipc_ = ipc;
          set_all(host, 1);
          state_ = State::kHill;
          log(s, "init: spare resources -> hill-climbing", ipc);
        } else {
          start_vote(host);
          log(s, "init: resources saturated -> parallel voting", ipc);
        }
        break;
      }
      case State::kHill:
        if (ipc > p_.hill_up * last_ipc_ && opt_ + static_cast<uint32_t>(ebt_) < max_) {
          last_ipc_ = ipc;
          set_all(host, ebt_ + 1);
          log(s, "hill-climbing: IPC up -> one more bypassing warp", ipc);
        } else if (ipc < p_.hill_down * last_ipc_) {
          set_all(host, ebt_ - 1);
          enter_stable(s, "hill-climbing: IPC down -> step back, stable", ipc);
        } else {
          enter_stable(s, "hill-climbing: IPC flat -> stable", ipc);
        }
        break;
      case State::kVoting: {
        // Mean IPC of the SMs (busy for the whole window) that ran each candidate.
        double best_ipc = -1;
        int32_t best = 0;
        for (int32_t c : candidates_) {
          double sum = 0;
          uint32_t n = 0;
          for (uint32_t sm = 0; sm < s.sms.size(); ++sm)
            if (vote_[sm] == c && voters_[sm] && s.full(sm)) sum += sm_ipc(s, sm), ++n;
          if (n && sum / n > best_ipc) best_ipc = sum / n, best = c;
        }
        if (best_ipc < 0) {
          start_vote(host);
          log(s, "parallel voting: no SM busy all window -> vote again", ipc);
          break;
        }
        set_all(host, best);
        enter_stable(s, "parallel voting: best EBTNum applied to all", ipc);
        break;
      }
      case State::kStable:
        if (phase_.sample(ipc, s.l1_miss_rate(), p_.phase_threshold, p_.phase_windows))
          enter_init(host, "new phase");
        break;
    }
  }

  nlohmann::json report() const override {
    nlohmann::json j = log_.json();
    j["warp_opt"] = opt_;
    j["final_ebt"] = ebt_;
    return j;
  }

 private:
  enum class State { kInit, kHill, kVoting, kStable };

  void set_all(ControllerHost& host, int32_t ebt) {
    ebt_ = ebt;
    for (uint32_t sm = 0; sm < host.num_sms(); ++sm) host.set_pcal_ebt(sm, ebt);
  }
  void enter_init(ControllerHost& host, const char* why) {
    set_all(host, 0);
    state_ = State::kInit;
    nlohmann::json e = {{"kernel", kernel_}, {"event", why}, {"ebt", 0}};
    log_.add(std::move(e));
  }
  void enter_stable(const WindowSample& s, const char* why, double ipc) {
    state_ = State::kStable;
    phase_.reset();
    log(s, why, ipc);
  }
  // Every other token count from warp-opt down to 1 (dissertation: "test every other token
  // number"), dealt round robin to the busy SMs.
  void start_vote(ControllerHost& host) {
    candidates_.clear();
    for (int32_t e = 0; static_cast<int32_t>(opt_) + e >= 1; e -= 2) candidates_.push_back(e);
    vote_.assign(host.num_sms(), 0);
    voters_.assign(host.num_sms(), false);
    uint32_t k = 0;
    for (uint32_t sm = 0; sm < host.num_sms(); ++sm) {
      if (!host.sm_busy(sm)) continue;
      vote_[sm] = candidates_[k++ % candidates_.size()];
      voters_[sm] = true;
    }
    for (uint32_t sm = 0; sm < host.num_sms(); ++sm) host.set_pcal_ebt(sm, vote_[sm]);
    state_ = State::kVoting;
  }
  void log(const WindowSample& s, const char* what, double ipc) {
    log_.add({{"kernel", kernel_}, {"window", s.index}, {"event", what}, {"ipc", ipc}, {"ebt", ebt_}});
  }

  ControllerParams p_;
  State state_ = State::kInit;
  bool started_ = false;  // a kernel has started (keep_across_launches resumes after it)
  uint32_t max_ = 1, opt_ = 1, kernel_ = 0;
  int32_t ebt_ = 0;
  double last_ipc_ = 0;
  std::vector<int32_t> candidates_, vote_;
  std::vector<bool> voters_;
  PhaseDetector phase_;
  Log log_;
};

// Dynamic-AgeLRU (dissertation 5.3, SPEC 8): parallel voting between AgeLRU and LRU among the
// busy SMs (not SM 0 by construction: the dissertation's SM0 flaw), then the better policy on
// every SM until the phase detector sees a new phase (or the next kernel starts).
class DynamicAgeLruController final : public Controller {
 public:
  explicit DynamicAgeLruController(const ControllerParams& p) : p_(p) {}
  std::string name() const override { return "dynamic-agelru"; }

  void kernel_start(ControllerHost& host, uint32_t kernel) override {
    kernel_ = kernel;
    if (p_.keep_across_launches && started_) {
      log_.add({{"kernel", kernel_}, {"event", "kernel start: state kept"}});
      return;
    }
    started_ = true;
    start_vote(host, "kernel start");
  }
  bool keeps_state_across_launches() const override { return p_.keep_across_launches; }

  void window(ControllerHost& host, const WindowSample& s) override {
    if (state_ == State::kStable) {
      if (phase_.sample(s.ipc(), s.l1_miss_rate(), p_.phase_threshold, p_.phase_windows))
        start_vote(host, "new phase");
      return;
    }
    double sum[2] = {0, 0};
    uint32_t n[2] = {0, 0};
    for (uint32_t sm = 0; sm < s.sms.size(); ++sm) {
      if (role_[sm] == Role::kNone || !s.full(sm)) continue;
      const int g = role_[sm] == Role::kAgeLru ? 1 : 0;
      sum[g] += sm_ipc(s, sm);
      ++n[g];
    }
    if (!n[0] || !n[1]) {
      log_.add({{"kernel", kernel_}, {"window", s.index}, {"event", "vote inconclusive (a group was not busy all window)"}});
      start_vote(host, "revote");
      return;
    }
    const double lru = sum[0] / n[0], age = sum[1] / n[1];
    winner_ = age > lru;  // ties keep the default, LRU
    for (uint32_t sm = 0; sm < host.num_sms(); ++sm) host.set_agelru_enable(sm, winner_);
    state_ = State::kStable;
    phase_.reset();
    log_.add({{"kernel", kernel_},
              {"window", s.index},
              {"event", "vote"},
              {"ipc_lru", lru},
              {"ipc_agelru", age},
              {"winner", winner_ ? "agelru" : "lru"}});
  }

  nlohmann::json report() const override {
    nlohmann::json j = log_.json();
    j["final"] = winner_ ? "agelru" : "lru";
    return j;
  }

 private:
  enum class State { kVoting, kStable };
  enum class Role : uint8_t { kNone, kLru, kAgeLru };

  // Every other busy SM runs AgeLRU for one window, the other busy SMs LRU. With fewer than
  // two busy SMs there is nothing to compare: every SM runs AgeLRU (the configured policy).
  void start_vote(ControllerHost& host, const char* why) {
    role_.assign(host.num_sms(), Role::kNone);
    uint32_t busy = 0;
    for (uint32_t sm = 0; sm < host.num_sms(); ++sm)
      if (host.sm_busy(sm)) role_[sm] = (busy++ % 2 == 0) ? Role::kAgeLru : Role::kLru;
    if (busy < 2) {
      winner_ = true;
      for (uint32_t sm = 0; sm < host.num_sms(); ++sm) host.set_agelru_enable(sm, true);
      state_ = State::kStable;
      phase_.reset();
      log_.add({{"kernel", kernel_}, {"event", std::string(why) + ": fewer than two busy SMs, AgeLRU everywhere"}});
      return;
    }
    for (uint32_t sm = 0; sm < host.num_sms(); ++sm)
      host.set_agelru_enable(sm, role_[sm] == Role::kNone ? winner_ : role_[sm] == Role::kAgeLru);
    state_ = State::kVoting;
    log_.add({{"kernel", kernel_}, {"event", std::string(why) + ": voting"}, {"voters", busy}});
  }

  ControllerParams p_;
  State state_ = State::kVoting;
  bool started_ = false;
  uint32_t kernel_ = 0;
  bool winner_ = true;
  std::vector<Role> role_;
  PhaseDetector phase_;
  Log log_;
};

using Factory = std::unique_ptr<Controller> (*)(const ControllerParams&);

template <typename T>
std::unique_ptr<Controller> make(const ControllerParams& p) {
  return std::make_unique<T>(p);
}

struct Entry {
  const char* name;
  Factory factory;
};

constexpr Entry kControllers[] = {
    {"throttle", &make<ThrottleController>},
    {"dynamic-pcal", &make<DynamicPcalController>},
    {"dynamic-agelru", &make<DynamicAgeLruController>},
};

}  // namespace

std::unique_ptr<Controller> make_controller(const std::string& name, const ControllerParams& p) {
  for (const Entry& e : kControllers)
    if (name == e.name) return e.factory(p);
  std::string known;
  for (const Entry& e : kControllers) known += std::string(known.empty() ? "" : ", ") + e.name;
  throw std::invalid_argument("unknown controller '" + name + "' (known: " + known + ")");
}

std::vector<std::string> controller_names() {
  std::vector<std::string> v;
  for (const Entry& e : kControllers) v.emplace_back(e.name);
  return v;
}

}  // namespace l1d::sim
