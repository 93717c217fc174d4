// Warp schedulers (SPEC section 10, DESIGN.md "The simulator"): one per scheduler unit of an SM,
// each owning the warp slots w with w % schedulers_per_sm == its index and issuing at most one
// instruction per cycle. Policies are plug-ins registered by name in one table
// (scheduler.cpp): gto, lrr, two-level.
//
// The base class keeps the resident warps in age (launch) order and the issue limit used by
// warp throttling and PCAL: only the `issue_limit` oldest resident warps may issue.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/config.h"
#include "sim_cpp/workload/workload.h"

namespace l1d::sim {

// What a scheduler asks the SM about one of its warps.
class IssueOracle {
 public:
  // The warp's next instruction can issue this cycle (ready and the LDST unit free if needed).
  virtual bool can_issue(uint32_t slot) const = 0;
  // The warp waits for a long-latency event: a load's data or a barrier.
  virtual bool long_stalled(uint32_t slot) const = 0;

 protected:
  ~IssueOracle() = default;
};

struct SchedulerParams {
  uint32_t warps_per_sm = 48;
  uint32_t schedulers = 2;
  uint32_t index = 0;        // this scheduler's number
  uint32_t active_set = 8;   // two-level: warps in the active set
};

class WarpScheduler {
 public:
  static constexpr uint32_t kNone = ~0u;

  explicit WarpScheduler(const SchedulerParams& p);
  virtual ~WarpScheduler() = default;
  virtual std::string_view name() const = 0;

  // A warp of this scheduler becomes resident; it is the youngest.
  void launch(uint32_t slot);
  // A resident warp leaves (it issued its exit).
  void exit(uint32_t slot);
  // Only the `n` oldest resident warps may issue; n >= slots() means no limit.
  void set_issue_limit(uint32_t n) { limit_ = n; }
  uint32_t issue_limit() const { return limit_; }
  bool resident(uint32_t slot) const { return rank_[slot] != kNone; }
  bool allowed(uint32_t slot) const { return rank_[slot] < limit_; }
  // A resident warp's position in age order, 0 = oldest.
  uint32_t age_rank(uint32_t slot) const { return rank_[slot]; }
  // Resident warps, oldest first.
  const std::vector<uint32_t>& age_order() const { return order_; }
  // The warp slots this scheduler owns (index, index + n, ...).
  const std::vector<uint32_t>& slots() const { return slots_; }
  uint32_t index() const { return index_; }

  // The warp to issue this cycle, or kNone.
  virtual uint32_t pick(const IssueOracle& oracle) = 0;
  // `slot` issued an instruction of kind `kind` this cycle.
  virtual void issued(uint32_t slot, OpKind kind) = 0;
  // Whether a pick that issues nothing can still change the scheduler's state when a warp's
  // long stall (IssueOracle::long_stalled) ends (two-level: the warp may enter the active set).
  // The SM asks such a scheduler again at every stall end, others only once the warp can issue.
  virtual bool stall_end_moves_warps() const { return false; }

 protected:
  virtual void on_launch(uint32_t /*slot*/) {}
  virtual void on_exit(uint32_t /*slot*/) {}

  uint32_t index_;
  std::vector<uint32_t> slots_;
  std::vector<uint32_t> order_;  // resident warps, oldest first
  std::vector<uint32_t> rank_;   // per SM slot: position in order_, kNone if not resident
  uint32_t limit_ = kNone;
};

// The registry: one explicit table. Names: "gto", "lrr", "two-level".
std::unique_ptr<WarpScheduler> make_scheduler(std::string_view name, const SchedulerParams& p);  // std::invalid_argument
std::vector<std::string> scheduler_names();
std::string scheduler_name(SchedulerKind k);

}  // namespace l1d::sim
