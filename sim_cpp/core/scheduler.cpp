// Warp scheduler policies (scheduler.h). Each is a short class; the registry is the table at
// the end of this file.
#include "sim_cpp/core/scheduler.h"

#include <algorithm>
#include <stdexcept>

namespace l1d::sim {

WarpScheduler::WarpScheduler(const SchedulerParams& p) : index_(p.index), rank_(p.warps_per_sm, kNone) {
  if (p.schedulers == 0 || p.index >= p.schedulers) throw std::invalid_argument("scheduler index out of range");
  for (uint32_t s = p.index; s < p.warps_per_sm; s += p.schedulers) slots_.push_back(s);
  order_.reserve(slots_.size());
}

void WarpScheduler::launch(uint32_t slot) {
  if (slot >= rank_.size() || rank_[slot] != kNone) throw std::logic_error("scheduler: bad or duplicate warp launch");
  rank_[slot] = static_cast<uint32_t>(order_.size());
  order_.push_back(slot);
  on_launch(slot);
}

void WarpScheduler::exit(uint32_t slot) {
  if (slot >= rank_.size() || rank_[slot] == kNone) throw std::logic_error("scheduler: exit of a warp not resident");
  order_.erase(order_.begin() + rank_[slot]);
  rank_[slot] = kNone;
  for (uint32_t i = 0; i < order_.size(); ++i) rank_[order_[i]] = i;
  on_exit(slot);
}

namespace {

// Greedy-then-oldest: keep issuing the warp that issued last until it cannot issue, then the
// oldest warp that can (GPGPU-Sim's gto).
class GtoScheduler final : public WarpScheduler {
 public:
  using WarpScheduler::WarpScheduler;
  std::string_view name() const override { return "gto"; }
  uint32_t pick(const IssueOracle& oracle) override {
    if (last_ != kNone && allowed(last_) && oracle.can_issue(last_)) return last_;
    const uint32_t n = std::min<uint32_t>(limit_, static_cast<uint32_t>(order_.size()));
    for (uint32_t i = 0; i < n; ++i)
      if (oracle.can_issue(order_[i])) return order_[i];
    return kNone;
  }
  void issued(uint32_t slot, OpKind) override { last_ = slot; }

 private:
  void on_exit(uint32_t slot) override {
    if (last_ == slot) last_ = kNone;
  }
  uint32_t last_ = kNone;
};

// Loose round robin: starting after the warp that issued last, the first warp (in slot order)
// that can issue.
class LrrScheduler final : public WarpScheduler {
 public:
  using WarpScheduler::WarpScheduler;
  std::string_view name() const override { return "lrr"; }
  uint32_t pick(const IssueOracle& oracle) override {
    const uint32_t n = static_cast<uint32_t>(slots_.size());
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t s = slots_[(next_ + k) % n];
      if (allowed(s) && oracle.can_issue(s)) return s;
    }
    return kNone;
  }
  void issued(uint32_t slot, OpKind) override {
    const auto it = std::find(slots_.begin(), slots_.end(), slot);
    next_ = static_cast<uint32_t>((it - slots_.begin() + 1) % slots_.size());
  }

 private:
  uint32_t next_ = 0;
};

// Two-level (Gebhart et al., ISCA 2011; Narasiman et al., MICRO 2011): an active set of at most
// `active_set` warps is scheduled round robin; a warp that issues a load (it will wait for the
// data) or reaches a barrier leaves the active set for the tail of the pending FIFO. Free
// active places are filled, in FIFO order, with pending warps that are not waiting for a load
// or a barrier (and are allowed to issue). New warps enter the pending FIFO.
class TwoLevelScheduler final : public WarpScheduler {
 public:
  explicit TwoLevelScheduler(const SchedulerParams& p) : WarpScheduler(p), capacity_(std::max(1u, p.active_set)) {
    active_.reserve(slots_.size());
    pending_.reserve(slots_.size());
  }
  std::string_view name() const override { return "two-level"; }

  uint32_t pick(const IssueOracle& oracle) override {
    // Warps that throttling no longer allows go back to the pending FIFO.
    for (size_t i = 0; i < active_.size();) {
      if (allowed(active_[i])) {
        ++i;
        continue;
      }
      pending_.push_back(active_[i]);
      active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(i));
    }
    for (size_t i = 0; i < pending_.size() && active_.size() < capacity_;) {
      const uint32_t s = pending_[i];
      if (allowed(s) && !oracle.long_stalled(s)) {
        active_.push_back(s);
        pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
    const uint32_t n = static_cast<uint32_t>(active_.size());
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t s = active_[(next_ + k) % n];
      if (oracle.can_issue(s)) return s;
    }
    return kNone;
  }

  void issued(uint32_t slot, OpKind kind) override {
    const auto it = std::find(active_.begin(), active_.end(), slot);
    if (it == active_.end()) return;
    const uint32_t pos = static_cast<uint32_t>(it - active_.begin());
    if (kind == OpKind::kLoad || kind == OpKind::kBarrier) {
      active_.erase(it);
      pending_.push_back(slot);
      next_ = active_.empty() ? 0 : pos % static_cast<uint32_t>(active_.size());
    } else {
      next_ = (pos + 1) % static_cast<uint32_t>(active_.size());
    }
  }

  bool stall_end_moves_warps() const override { return true; }

  const std::vector<uint32_t>& active_set() const { return active_; }

 private:
  void on_launch(uint32_t slot) override { pending_.push_back(slot); }
  void on_exit(uint32_t slot) override {
    if (auto it = std::find(active_.begin(), active_.end(), slot); it != active_.end()) {
      const uint32_t pos = static_cast<uint32_t>(it - active_.begin());
      active_.erase(it);
      if (next_ > pos) --next_;
      if (next_ >= active_.size()) next_ = 0;
    }
    if (auto it = std::find(pending_.begin(), pending_.end(), slot); it != pending_.end()) pending_.erase(it);
  }

  uint32_t capacity_;
  std::vector<uint32_t> active_;
  std::vector<uint32_t> pending_;
  uint32_t next_ = 0;
};

using Factory = std::unique_ptr<WarpScheduler> (*)(const SchedulerParams&);

template <typename T>
std::unique_ptr<WarpScheduler> make(const SchedulerParams& p) {
  return std::make_unique<T>(p);
}

struct Entry {
  const char* name;
  Factory factory;
};

constexpr Entry kSchedulers[] = {
    {"gto", &make<GtoScheduler>},
    {"lrr", &make<LrrScheduler>},
    {"two-level", &make<TwoLevelScheduler>},
};

}  // namespace

std::unique_ptr<WarpScheduler> make_scheduler(std::string_view name, const SchedulerParams& p) {
  for (const Entry& e : kSchedulers)
    if (name == e.name) return e.factory(p);
  std::string known;
  for (const Entry& e : kSchedulers) known += std::string(known.empty() ? "" : ", ") + e.name;
  throw std::invalid_argument("unknown scheduler '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> scheduler_names() {
  std::vector<std::string> v;
  for (const Entry& e : kSchedulers) v.emplace_back(e.name);
  return v;
}

std::string scheduler_name(SchedulerKind k) {
  switch (k) {
    case SchedulerKind::kGto: return "gto";
    case SchedulerKind::kLrr: return "lrr";
    case SchedulerKind::kTwoLevel: return "two-level";
  }
  return "gto";
}

}  // namespace l1d::sim
