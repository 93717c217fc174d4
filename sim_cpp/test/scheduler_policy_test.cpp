// Warp scheduler plug-ins (core/scheduler.h) against a fake issue oracle, and the GTO / LRR
// issue order on a constructed case in a whole SM.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "common/config.h"
#include "sim_cpp/core/memory_port.h"
#include "sim_cpp/core/scheduler.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/scripted_workload.h"

namespace l1d::sim {
namespace {

struct FakeOracle final : IssueOracle {
  std::set<uint32_t> ready, stalled;
  bool can_issue(uint32_t s) const override { return ready.count(s) > 0; }
  bool long_stalled(uint32_t s) const override { return stalled.count(s) > 0; }
};

// Scheduler 0 of 2 owns slots 0, 2, 4, 6, ...
SchedulerParams params(uint32_t active = 8) { return {16, 2, 0, active}; }

TEST(SchedulerPolicy, RegistryKnowsTheThreePolicies) {
  EXPECT_EQ(scheduler_names(), (std::vector<std::string>{"gto", "lrr", "two-level"}));
  for (const auto& n : scheduler_names()) EXPECT_EQ(make_scheduler(n, params())->name(), n);
  EXPECT_THROW(make_scheduler("fifo", params()), std::invalid_argument);
  EXPECT_EQ(scheduler_name(SchedulerKind::kTwoLevel), "two-level");
}

TEST(SchedulerPolicy, OwnsEveryNthSlotAndKeepsAgeOrder) {
  auto s = make_scheduler("gto", params());
  EXPECT_EQ(s->slots(), (std::vector<uint32_t>{0, 2, 4, 6, 8, 10, 12, 14}));
  s->launch(4);
  s->launch(0);
  s->launch(2);
  EXPECT_EQ(s->age_order(), (std::vector<uint32_t>{4, 0, 2}));
  s->exit(0);
  EXPECT_EQ(s->age_order(), (std::vector<uint32_t>{4, 2}));
  EXPECT_THROW(s->exit(0), std::logic_error);
  EXPECT_THROW(s->launch(2), std::logic_error);
}

TEST(SchedulerPolicy, GtoIsGreedyThenOldest) {
  auto s = make_scheduler("gto", params());
  FakeOracle o;
  for (uint32_t w : {4u, 0u, 2u}) s->launch(w);  // age: 4 oldest, then 0, then 2
  o.ready = {0, 2, 4};
  EXPECT_EQ(s->pick(o), 4u);  // oldest
  s->issued(4, OpKind::kAlu);
  EXPECT_EQ(s->pick(o), 4u);  // greedy: the same warp again
  o.ready = {0, 2};           // 4 stalls
  EXPECT_EQ(s->pick(o), 0u);  // then the oldest ready
  s->issued(0, OpKind::kAlu);
  o.ready = {0, 2, 4};
  EXPECT_EQ(s->pick(o), 0u);  // greedy on 0 although 4 is older
  o.ready = {};
  EXPECT_EQ(s->pick(o), WarpScheduler::kNone);
}

TEST(SchedulerPolicy, LrrRotatesInSlotOrder) {
  auto s = make_scheduler("lrr", params());
  FakeOracle o;
  for (uint32_t w : {4u, 0u, 2u}) s->launch(w);
  o.ready = {0, 2, 4};
  std::vector<uint32_t> order;
  for (int i = 0; i < 6; ++i) {
    const uint32_t w = s->pick(o);
    order.push_back(w);
    s->issued(w, OpKind::kAlu);
  }
  EXPECT_EQ(order, (std::vector<uint32_t>{0, 2, 4, 0, 2, 4}));
  o.ready = {0, 4};
  EXPECT_EQ(s->pick(o), 0u);
  s->issued(0, OpKind::kAlu);
  EXPECT_EQ(s->pick(o), 4u);  // 2 is skipped
}

TEST(SchedulerPolicy, IssueLimitAllowsOnlyTheOldest) {
  for (const auto& name : scheduler_names()) {
    auto s = make_scheduler(name, params());
    FakeOracle o;
    for (uint32_t w : {0u, 2u, 4u, 6u}) s->launch(w);
    s->set_issue_limit(2);
    o.ready = {4, 6};
    EXPECT_EQ(s->pick(o), WarpScheduler::kNone) << name;
    o.ready = {2, 4, 6};
    EXPECT_EQ(s->pick(o), 2u) << name;
    s->issued(2, OpKind::kAlu);
    s->exit(0);  // 4 becomes one of the two oldest
    EXPECT_TRUE(s->allowed(4)) << name;
    EXPECT_FALSE(s->allowed(6)) << name;
  }
}

TEST(SchedulerPolicy, TwoLevelDemotesOnLoadsAndPromotesReadyWarps) {
  auto s = make_scheduler("two-level", params(2));
  FakeOracle o;
  for (uint32_t w : {0u, 2u, 4u, 6u}) s->launch(w);
  o.ready = {0, 2, 4, 6};
  // Active set {0, 2}: round robin between them only.
  std::vector<uint32_t> order;
  for (int i = 0; i < 4; ++i) {
    const uint32_t w = s->pick(o);
    order.push_back(w);
    s->issued(w, OpKind::kAlu);
  }
  EXPECT_EQ(order, (std::vector<uint32_t>{0, 2, 0, 2}));
  // 0 issues a load: it leaves the active set; 4 (first pending, not stalled) comes in.
  EXPECT_EQ(s->pick(o), 0u);
  s->issued(0, OpKind::kLoad);
  o.ready = {2, 4, 6};
  o.stalled = {0};
  std::set<uint32_t> seen;
  for (int i = 0; i < 4; ++i) {
    const uint32_t w = s->pick(o);
    seen.insert(w);
    s->issued(w, OpKind::kAlu);
  }
  EXPECT_EQ(seen, (std::set<uint32_t>{2, 4}));
  // A pending warp waiting for its load is not promoted: 2 and 4 demote, 6 comes in, 0 stays out.
  s->issued(2, OpKind::kLoad);
  s->issued(4, OpKind::kBarrier);
  o.ready = {0, 6};
  o.stalled = {0, 2, 4};
  EXPECT_EQ(s->pick(o), 6u);
  s->issued(6, OpKind::kAlu);
  EXPECT_EQ(s->pick(o), 6u);
  // The load returns: 0 is promoted again.
  o.stalled = {2, 4};
  s->issued(6, OpKind::kLoad);
  o.ready = {0};
  EXPECT_EQ(s->pick(o), 0u);
}

// A whole SM: one scheduler, two warps of four 1-cycle ALU instructions. GTO runs warp 0 to
// its end before warp 1; LRR alternates.
std::vector<uint32_t> issue_order(const std::string& scheduler) {
  Config cfg = load_preset("gtx480");
  cfg.core.num_sms = 1;
  cfg.core.warps_per_sm = 2;
  cfg.core.schedulers_per_sm = 1;
  SimOptions opt;
  opt.scheduler = scheduler;
  Gpu gpu(cfg, opt, {}, [](const Config&, FunctionalMemory& img) { return make_fixed_latency_memory(1, img, 10); });
  std::vector<uint32_t> order;
  gpu.set_issue_observer([&](uint32_t, uint64_t, uint32_t slot, const WarpInst& i) {
    if (i.kind == OpKind::kAlu) order.push_back(slot);
  });
  scripted::KernelSpec k;
  k.grid = {1, 2};
  k.body = [](uint32_t, uint32_t) {
    return scripted::Program{scripted::alu(1), scripted::alu(1), scripted::alu(1), scripted::alu(1), scripted::exit()};
  };
  scripted::ScriptedWorkload w({k});
  EXPECT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
  return order;
}

TEST(SchedulerPolicy, GtoVersusLrrOnAConstructedCase) {
  EXPECT_EQ(issue_order("gto"), (std::vector<uint32_t>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(issue_order("lrr"), (std::vector<uint32_t>{0, 1, 0, 1, 0, 1, 0, 1}));
}

}  // namespace
}  // namespace l1d::sim
