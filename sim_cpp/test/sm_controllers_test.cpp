// SM-level runtime controllers (core/controllers.h) against a fake host and synthetic windows.
#include <gtest/gtest.h>

#include <vector>
#include <nlohmann/json.hpp>

#include "sim_cpp/core/controllers.h"

namespace l1d::sim {
namespace {

struct FakeHost final : ControllerHost {
  explicit FakeHost(uint32_t n) : busy(n, true), limit(n, 99), ebt(n, 99), agelru(n, true) {}
  uint32_t num_sms() const override { return static_cast<uint32_t>(busy.size()); }
  uint32_t warps_per_scheduler() const override { return 24; }
  bool sm_busy(uint32_t sm) const override { return busy[sm]; }
  void set_warp_limit(uint32_t sm, uint32_t n) override { limit[sm] = n; }
  void set_pcal_ebt(uint32_t sm, int32_t e) override { ebt[sm] = e; }
  void set_agelru_enable(uint32_t sm, bool on) override { agelru[sm] = on; }
  std::vector<bool> busy;
  std::vector<uint32_t> limit;
  std::vector<int32_t> ebt;
  std::vector<bool> agelru;
};

// A window in which SM i retired ipc(i) * cycles instructions, busy the whole time.
template <typename F>
WindowSample window(uint32_t sms, F ipc, double noc = 10, uint32_t throttled = 0, uint64_t stall = 0) {
  WindowSample s;
  s.cycles = 1000;
  s.noc_latency = noc;
  s.sms.resize(sms);
  for (uint32_t i = 0; i < sms; ++i) {
    s.sms[i].instructions = static_cast<uint64_t>(ipc(i) * 1000);
    s.sms[i].busy_cycles = 1000;
    s.sms[i].l1_accesses = 100;
    s.sms[i].l1_misses = 50;
    s.sms[i].throttled_warps = throttled;
    s.sms[i].ldst_stall_cycles = stall;
  }
  return s;
}

TEST(SmControllers, RegistryAndThrottle) {
  EXPECT_EQ(controller_names(), (std::vector<std::string>{"throttle", "dynamic-pcal", "dynamic-agelru"}));
  EXPECT_THROW(make_controller("nope", {}), std::invalid_argument);
  ControllerParams p;
  p.warp_limit = 6;
  auto c = make_controller("throttle", p);
  FakeHost h(3);
  c->kernel_start(h, 0);
  EXPECT_EQ(h.limit, (std::vector<uint32_t>{6, 6, 6}));
}

TEST(SmControllers, DynamicPcalHillClimbsWhileIpcGrowsByTenPercent) {
  ControllerParams p;
  p.warp_limit = 8;
  auto c = make_controller("dynamic-pcal", p);
  FakeHost h(4);
  c->kernel_start(h, 0);
  EXPECT_EQ(h.limit, (std::vector<uint32_t>{8, 8, 8, 8}));
  EXPECT_EQ(h.ebt, (std::vector<int32_t>{0, 0, 0, 0}));
  // Init: spare resources (low NoC latency, no stalls) and throttled warps -> hill climbing, EBT 1.
  c->window(h, window(4, [](uint32_t) { return 1.0; }, 10, 4));
  EXPECT_EQ(h.ebt, (std::vector<int32_t>{1, 1, 1, 1}));
  c->window(h, window(4, [](uint32_t) { return 1.2; }, 10, 4));  // +20 %: one more
  EXPECT_EQ(h.ebt[0], 2);
  c->window(h, window(4, [](uint32_t) { return 1.4; }, 10, 4));  // +17 %: one more
  EXPECT_EQ(h.ebt[0], 3);
  c->window(h, window(4, [](uint32_t) { return 1.3; }, 10, 4));  // -7 %: step back, stable
  EXPECT_EQ(h.ebt, (std::vector<int32_t>{2, 2, 2, 2}));
  // Stable: small changes keep it; a lasting change (2 windows) is a new phase -> Init, EBT 0.
  c->window(h, window(4, [](uint32_t) { return 1.3; }));
  c->window(h, window(4, [](uint32_t) { return 1.35; }));
  EXPECT_EQ(h.ebt[0], 2);
  c->window(h, window(4, [](uint32_t) { return 0.5; }));
  EXPECT_EQ(h.ebt[0], 2);
  c->window(h, window(4, [](uint32_t) { return 0.5; }));
  EXPECT_EQ(h.ebt[0], 0);
  EXPECT_GE(c->report()["decisions"].get<uint64_t>(), 6u);
}

TEST(SmControllers, DynamicPcalHillClimbStopsOnAFlatIpc) {
  ControllerParams p;
  p.warp_limit = 8;
  auto c = make_controller("dynamic-pcal", p);
  FakeHost h(2);
  c->kernel_start(h, 0);
  c->window(h, window(2, [](uint32_t) { return 1.0; }, 10, 4));
  EXPECT_EQ(h.ebt[0], 1);
  c->window(h, window(2, [](uint32_t) { return 1.05; }, 10, 4));  // within (97 %, 110 %): stable at 1
  c->window(h, window(2, [](uint32_t) { return 1.5; }, 10, 4));   // stable ignores one window
  EXPECT_EQ(h.ebt[0], 1);
}

TEST(SmControllers, DynamicPcalVotesInParallelWhenResourcesAreSaturated) {
  ControllerParams p;
  p.warp_limit = 8;
  auto c = make_controller("dynamic-pcal", p);
  FakeHost h(6);
  h.busy[1] = false;  // an idle SM gets no candidate
  c->kernel_start(h, 0);
  // Init with a congested NoC -> parallel voting over EBT 0, -2, -4, -6 (tokens 8, 6, 4, 2).
  c->window(h, window(6, [](uint32_t) { return 1.0; }, 500, 4));
  EXPECT_EQ(h.ebt, (std::vector<int32_t>{0, 0, -2, -4, -6, 0}));
  // The SM that ran -4 did best: everybody gets -4.
  c->window(h, window(6, [](uint32_t sm) { return sm == 3 ? 2.0 : 1.0; }));
  EXPECT_EQ(h.ebt, (std::vector<int32_t>{-4, -4, -4, -4, -4, -4}));
  // Heavy stalls alone also mean saturation.
  c->kernel_start(h, 1);
  c->window(h, window(6, [](uint32_t) { return 1.0; }, 10, 4, 900));
  EXPECT_EQ(h.ebt[2], -2);
}

TEST(SmControllers, DynamicAgeLruVotesAmongBusySmsAndAppliesTheWinner) {
  auto c = make_controller("dynamic-agelru", {});
  FakeHost h(6);
  h.busy[0] = false;  // SM 0 idle: never a candidate (the dissertation's SM0 flaw)
  h.busy[3] = false;
  c->kernel_start(h, 0);
  // Busy SMs 1, 2, 4, 5: 1 and 4 run AgeLRU, 2 and 5 LRU.
  EXPECT_TRUE(h.agelru[1]);
  EXPECT_FALSE(h.agelru[2]);
  EXPECT_TRUE(h.agelru[4]);
  EXPECT_FALSE(h.agelru[5]);
  // AgeLRU SMs do better: AgeLRU everywhere.
  c->window(h, window(6, [](uint32_t sm) { return sm == 1 || sm == 4 ? 1.5 : 1.0; }));
  EXPECT_EQ(h.agelru, std::vector<bool>(6, true));
  EXPECT_EQ(c->report()["final"], "agelru");
  // Next kernel: vote again; LRU wins this time.
  h.busy = std::vector<bool>(6, true);
  c->kernel_start(h, 1);
  EXPECT_FALSE(h.agelru[1]);
  c->window(h, window(6, [](uint32_t sm) { return sm % 2 ? 1.5 : 1.0; }));  // odd SMs ran LRU
  EXPECT_EQ(h.agelru, std::vector<bool>(6, false));
  EXPECT_EQ(c->report()["final"], "lru");
}

TEST(SmControllers, DynamicAgeLruNeedsTwoBusySmsAndFullWindows) {
  auto c = make_controller("dynamic-agelru", {});
  FakeHost h(3);
  h.busy = {false, true, false};
  c->kernel_start(h, 0);
  EXPECT_EQ(h.agelru, std::vector<bool>(3, true));  // nothing to compare: AgeLRU
  h.busy = {true, true, true};
  c->kernel_start(h, 1);
  WindowSample s = window(3, [](uint32_t) { return 1.0; });
  s.sms[1].busy_cycles = 10;  // the only LRU SM ran out of work: inconclusive, vote again
  c->window(h, s);
  EXPECT_TRUE(h.agelru[0]);
  EXPECT_FALSE(h.agelru[1]);
  EXPECT_TRUE(h.agelru[2]);
}

}  // namespace
}  // namespace l1d::sim
