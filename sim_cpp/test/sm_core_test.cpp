// The SM core model: loads block their warp until every request returns (core.load_wait
// on_issue) or, under on_use, only the instructions that use their registers, the fetch stage
// (core.fetch ibuffer), the hit-latency delay outside the L1, stores block only until accepted, barriers, throttling, PCAL tokens on
// requests, and the warp / kernel events and AWIDs that reach the L1.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <vector>

#include "common/config.h"
#include "golden/l1.h"
#include "sim_cpp/core/memory_port.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/scripted_workload.h"

namespace l1d::sim {
namespace {

using scripted::Program;

Config one_sm(uint32_t warps, uint32_t schedulers = 1) {
  Config cfg = load_preset("gtx480");
  cfg.core.num_sms = 1;
  cfg.core.warps_per_sm = warps;
  cfg.core.schedulers_per_sm = schedulers;
  return cfg;
}

MemoryFactory ideal_memory(uint32_t latency = 50) {
  return [latency](const Config& c, FunctionalMemory& img) {
    return make_fixed_latency_memory(c.core.num_sms, img, latency);
  };
}

scripted::ScriptedWorkload one_kernel(KernelGrid grid, std::function<Program(uint32_t, uint32_t)> body,
                                      std::function<void(FunctionalMemory&)> init = {}) {
  scripted::KernelSpec k;
  k.grid = grid;
  k.body = std::move(body);
  return scripted::ScriptedWorkload({k}, std::move(init));
}

// One lane per 128 B line: `n` requests of 32 B.
WarpInst strided_load(Addr base, uint32_t n, uint64_t pc = 0x100) {
  return scripted::load(pc, [base](uint32_t l) { return base + Addr{l} * 128; }, 4, (n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1));
}

// ---------------------------------------------------------------------------------------
// A scripted L1: always ready; answers request i `delay(i)` cycles after accepting it (one
// response per cycle, later ones slip), with the bytes an unwritten memory holds.

class ScriptedL1 final : public L1Port {
 public:
  std::function<uint32_t(uint32_t)> delay = [](uint32_t) { return 1u; };
  std::function<bool(uint64_t)> ready = [](uint64_t) { return true; };
  std::vector<uint64_t> accepted_at, responded_at;  // step numbers (= GPU cycles while busy)
  std::vector<uint8_t> accepted_warp;               // the warp slot of each accepted request

  L1Outputs step(const L1Inputs& in) override {
    L1Outputs out;
    out.core_req_ready = ready(step_);
    if (!pending_.empty() && pending_.begin()->first <= step_) {
      out.core_resp_valid = true;
      out.core_resp = pending_.begin()->second;
      pending_.erase(pending_.begin());
      responded_at.push_back(step_);
    }
    if (in.core_req_valid && out.core_req_ready) {
      const CoreReq& r = in.core_req;
      CoreResp resp{r.id, r.warp, r.op == MemOp::kLoad ? Outcome::kHit : Outcome::kStoreAck, {}};
      if (r.op == MemOp::kLoad)
        for (uint32_t b = 0; b < kLineBytes; ++b)
          if (r.byte_mask[b]) resp.data[b] = FunctionalMemory::initial_byte((r.addr & ~Addr{127}) + b);
      uint64_t at = step_ + std::max(1u, delay(static_cast<uint32_t>(accepted_at.size())));
      while (pending_.count(at)) ++at;
      pending_.emplace(at, resp);
      accepted_at.push_back(step_);
      accepted_warp.push_back(r.warp);
    }
    ++step_;
    ++counters_.cycles;
    return out;
  }
  const L1Counters& counters() const override { return counters_; }
  bool idle() const override { return pending_.empty(); }
  std::string describe_state() const override { return "scripted L1\n"; }

 private:
  uint64_t step_ = 0;
  std::map<uint64_t, CoreResp> pending_;
  L1Counters counters_;
};

// The L1 factory of a GPU whose (one) L1 is a ScriptedL1, left in `l1`.
auto scripted_l1(ScriptedL1*& l1) {
  return [&l1](const Config&, uint32_t) {
    auto p = std::make_unique<ScriptedL1>();
    l1 = p.get();
    return p;
  };
}

struct Issue {
  uint64_t cycle;
  uint32_t slot;
  OpKind kind;
};

TEST(SmCore, LoadBlocksUntilEveryRequestReturnsPlusTheHitLatency) {
  for (uint32_t hit_latency : {35u, 10u}) {
    Config cfg = one_sm(1);
    cfg.l1.hit_latency = hit_latency;
    ScriptedL1* l1 = nullptr;
    Gpu gpu(cfg, {},
            scripted_l1(l1),
            ideal_memory());
    const uint32_t delays[4] = {50, 10, 90, 30};
    l1->delay = [&](uint32_t i) { return delays[i]; };
    std::vector<Issue> issues;
    gpu.set_issue_observer([&](uint32_t, uint64_t c, uint32_t s, const WarpInst& i) { issues.push_back({c, s, i.kind}); });
    auto w = one_kernel({1, 1}, [](uint32_t, uint32_t) {
      return Program{strided_load(0x10000, 4), scripted::alu(1), scripted::exit()};
    });
    const RunResult r = gpu.run(w, WorkloadScale::kTest);
    ASSERT_EQ(r.stop, StopReason::kCompleted);
    EXPECT_EQ(r.load_mismatches, 0u);
    ASSERT_EQ(l1->accepted_at.size(), 4u);
    ASSERT_EQ(l1->responded_at.size(), 4u);
    // The four requests are offered one per cycle, from the cycle after the issue.
    ASSERT_EQ(issues.size(), 3u);
    EXPECT_EQ(l1->accepted_at[0], issues[0].cycle + 1);
    EXPECT_EQ(l1->accepted_at[3], issues[0].cycle + 4);
    // The next instruction waits for the last response (request 2: accepted + 90) plus the delay.
    const uint64_t last = *std::max_element(l1->responded_at.begin(), l1->responded_at.end());
    EXPECT_EQ(last, l1->accepted_at[2] + 90);
    EXPECT_EQ(issues[1].kind, OpKind::kAlu);
    EXPECT_EQ(issues[1].cycle, last + hit_latency) << "hit latency " << hit_latency;
    const auto& ld = gpu.sm(0).ldst().stats();
    EXPECT_EQ(ld.loads_checked, 4u);
    EXPECT_EQ(ld.latency_max[0], 90 + hit_latency);
  }
}

TEST(SmCore, StoreBlocksOnlyUntilAcceptedAndRefusalsStallTheLdstUnit) {
  Config cfg = one_sm(1);
  ScriptedL1* l1 = nullptr;
  Gpu gpu(cfg, {},
          scripted_l1(l1),
          ideal_memory());
  l1->delay = [](uint32_t) { return 200u; };  // store acks come late
  l1->ready = [](uint64_t step) { return step >= 20 && step % 2 == 0; };
  std::vector<Issue> issues;
  gpu.set_issue_observer([&](uint32_t, uint64_t c, uint32_t s, const WarpInst& i) { issues.push_back({c, s, i.kind}); });
  auto w = one_kernel({1, 1}, [](uint32_t, uint32_t) {
    WarpInst st = scripted::store(0x100, [](uint32_t l) { return 0x20000 + Addr{l} * 128; }, [](uint32_t l) { return l; }, 4, 0x3);
    return Program{st, scripted::alu(1), scripted::exit()};
  });
  ASSERT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
  ASSERT_EQ(l1->accepted_at.size(), 2u);
  EXPECT_EQ(l1->accepted_at[0], 20u);
  EXPECT_EQ(l1->accepted_at[1], 22u);
  // The ALU issues in the cycle the last store request is accepted, long before the acks.
  EXPECT_EQ(issues[1].cycle, l1->accepted_at[1]);
  EXPECT_LT(issues[1].cycle, l1->responded_at[0]);
  EXPECT_GE(gpu.sm(0).ldst().stats().stall_cycles, 20u - issues[0].cycle - 1);
  // The store reached the architectural image at acceptance.
  EXPECT_EQ(gpu.arch().read<uint32_t>(0x20000 + 128), 1u);
}

// A load response with a corrupted byte is caught and reported.
class CorruptingL1 final : public L1Port {
 public:
  explicit CorruptingL1(const Config& c) : inner_(make_golden_l1(c)) {}
  L1Outputs step(const L1Inputs& in) override {
    L1Outputs out = inner_->step(in);
    if (out.core_resp_valid && out.core_resp.outcome != Outcome::kStoreAck && !done_) {
      for (uint32_t b = 0; b < kLineBytes; ++b)
        if (out.core_resp.data[b] != 0) {
          out.core_resp.data[b] ^= 0x5A;
          break;
        }
      done_ = true;
    }
    return out;
  }
  const L1Counters& counters() const override { return inner_->counters(); }
  bool idle() const override { return inner_->idle(); }
  std::string describe_state() const override { return inner_->describe_state(); }

 private:
  std::unique_ptr<L1Port> inner_;
  bool done_ = false;
};

TEST(SmCore, LoadDataCheckCatchesACorruptedResponse) {
  Config cfg = one_sm(2);
  Gpu gpu(cfg, {}, [](const Config& c, uint32_t) { return std::make_unique<CorruptingL1>(c); }, ideal_memory());
  auto w = one_kernel({1, 2}, [](uint32_t, uint32_t wi) {
    return Program{strided_load(0x40000 + wi * 0x1000, 8), scripted::exit()};
  }, [](FunctionalMemory& m) { for (Addr a = 0x40000; a < 0x42000; a += 4) m.write<uint32_t>(a, 0x01010101u); });
  const RunResult r = gpu.run(w, WorkloadScale::kTest);
  EXPECT_EQ(r.stop, StopReason::kCompleted);
  EXPECT_EQ(r.loads_checked, 16u);
  EXPECT_EQ(r.load_mismatches, 1u);
  EXPECT_NE(r.first_mismatch.find("expected 0x01 got 0x5b"), std::string::npos) << r.first_mismatch;
}

TEST(SmCore, LoadsSeeEarlierStoresOfTheirCtaAndTheImageAfterTheKernel) {
  // Warp 0 stores, the CTA meets at a barrier, warp 1 loads what warp 0 wrote (same SM, same
  // L1: exact). A second kernel reads it back after the kernel-end flush.
  Config cfg = one_sm(4, 2);
  Gpu gpu(cfg, {}, {}, ideal_memory(120));
  scripted::KernelSpec k1;
  k1.grid = {1, 2};
  k1.body = [](uint32_t, uint32_t wi) {
    const auto addr = [](uint32_t l) { return 0x80000 + Addr{l} * 4; };
    if (wi == 0)
      return Program{scripted::load(0x100, addr), scripted::store(0x108, addr, [](uint32_t l) { return 7 * l + 1; }),
                     scripted::barrier(), scripted::exit()};
    return Program{scripted::barrier(), scripted::load(0x110, addr), scripted::exit()};
  };
  scripted::KernelSpec k2;
  k2.grid = {1, 1};
  k2.body = [](uint32_t, uint32_t) {
    return Program{scripted::load(0x200, [](uint32_t l) { return 0x80000 + Addr{l} * 4; }), scripted::exit()};
  };
  scripted::ScriptedWorkload w({k1, k2});
  const RunResult r = gpu.run(w, WorkloadScale::kTest);
  ASSERT_EQ(r.stop, StopReason::kCompleted);
  EXPECT_EQ(r.load_mismatches, 0u) << r.first_mismatch;
  EXPECT_EQ(r.loads_checked, 3u);
  EXPECT_EQ(gpu.image().read<uint32_t>(0x80000 + 4 * 5), 36u);  // written back by the kernel-end flush
  // Hits: warp 0's store and warp 1's load; kernel 2 misses (the kernel-end flush emptied the L1).
  EXPECT_EQ(gpu.sm(0).l1().counters().hits, 2u);
}

TEST(SmCore, BarrierHoldsTheCtaUntilEveryWarpArrives) {
  Config cfg = one_sm(4, 2);
  Gpu gpu(cfg, {}, {}, ideal_memory());
  std::vector<Issue> issues;
  gpu.set_issue_observer([&](uint32_t, uint64_t c, uint32_t s, const WarpInst& i) { issues.push_back({c, s, i.kind}); });
  auto w = one_kernel({1, 3}, [](uint32_t, uint32_t wi) {
    if (wi == 2) return Program{scripted::exit()};  // an exited warp does not hold the barrier
    return Program{scripted::alu(wi == 0 ? 1 : 400), scripted::barrier(), scripted::alu(1, 0x40), scripted::exit()};
  });
  ASSERT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
  uint64_t bar1 = 0, after0 = 0, bar0 = 0;
  for (const Issue& i : issues) {
    if (i.slot == 1 && i.kind == OpKind::kBarrier) bar1 = i.cycle;
    if (i.slot == 0 && i.kind == OpKind::kBarrier) bar0 = i.cycle;
    if (i.slot == 0 && i.kind == OpKind::kAlu && i.cycle > bar0 && bar0) after0 = i.cycle;
  }
  EXPECT_LT(bar0 + 300, bar1);
  EXPECT_GE(after0, bar1);  // released in the cycle warp 1 arrives (or the next)
  EXPECT_LE(after0, bar1 + 1);
}

TEST(SmCore, BarrierReleaseDoesNotTouchAnotherCtaInAReusedSlot) {
  // SM of 5 slots, CTAs of 3 warps. CTA 0: warp 0 exits at once (its slot 0 is reused by CTA 1's
  // warp 0), warps 1 and 2 meet at a barrier around cycle 500. CTA 1: warp 0 waits at its
  // barrier for warp 2, which arrives around cycle 3000. CTA 0's release must not free it.
  Config cfg = one_sm(5);
  Gpu gpu(cfg, {}, {}, ideal_memory());
  std::vector<Issue> issues;
  std::vector<uint32_t> cta_of_slot_at_issue;
  gpu.set_issue_observer([&](uint32_t, uint64_t c, uint32_t s, const WarpInst& i) {
    issues.push_back({c, s, i.kind});
    cta_of_slot_at_issue.push_back(static_cast<uint32_t>(i.pc >> 12));
  });
  auto w = one_kernel({2, 3}, [](uint32_t cta, uint32_t wi) {
    const uint64_t tag = uint64_t{cta} << 12;  // the CTA, visible in the PCs
    if (cta == 0) {
      if (wi == 0) return Program{scripted::exit(tag | 0x30)};
      return Program{scripted::alu(wi == 1 ? 1 : 500, tag | 0x10), scripted::barrier(tag | 0x20),
                     scripted::exit(tag | 0x30)};
    }
    if (wi == 1) return Program{scripted::exit(tag | 0x30)};
    return Program{scripted::alu(wi == 0 ? 1 : 3000, tag | 0x10), scripted::barrier(tag | 0x20),
                   scripted::alu(1, tag | 0x40), scripted::exit(tag | 0x30)};
  });
  ASSERT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
  uint64_t cta1_late_barrier = 0, slot0_post_barrier = 0;
  bool reused = false;
  for (size_t k = 0; k < issues.size(); ++k) {
    if (cta_of_slot_at_issue[k] != 1) continue;
    if (issues[k].slot == 0) reused = true;
    if (issues[k].kind == OpKind::kBarrier && issues[k].cycle > 1000) cta1_late_barrier = issues[k].cycle;
    if (issues[k].slot == 0 && issues[k].kind == OpKind::kAlu) slot0_post_barrier = issues[k].cycle;  // the last
  }
  ASSERT_TRUE(reused);  // CTA 1's warp 0 runs in CTA 0's freed slot 0
  EXPECT_GT(cta1_late_barrier, 2500u);
  EXPECT_GE(slot0_post_barrier, cta1_late_barrier);
}

TEST(SmCore, ThrottlingLetsOnlyTheOldestWarpsIssue) {
  Config cfg = one_sm(6);
  SimOptions opt;
  opt.warp_limit = 2;
  opt.controllers = {"throttle"};
  Gpu gpu(cfg, opt, {}, ideal_memory());
  std::vector<Issue> issues;
  gpu.set_issue_observer([&](uint32_t, uint64_t c, uint32_t s, const WarpInst& i) { issues.push_back({c, s, i.kind}); });
  auto w = one_kernel({1, 6}, [](uint32_t, uint32_t) {
    return Program{scripted::alu(5), scripted::alu(5), scripted::alu(5), scripted::exit()};
  });
  ASSERT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
  // Slots launch in order 0..5, so a warp is among the two oldest resident ones when at most
  // one older warp has not exited yet.
  std::vector<bool> exited(6, false);
  uint32_t max_parallel = 0;
  for (const Issue& i : issues) {
    uint32_t older_live = 0;
    for (uint32_t s = 0; s < i.slot; ++s) older_live += !exited[s];
    EXPECT_LT(older_live, 2u) << "warp " << i.slot << " issued at cycle " << i.cycle;
    if (i.kind == OpKind::kExit) exited[i.slot] = true;
    max_parallel = std::max(max_parallel, older_live + 1);
  }
  EXPECT_EQ(max_parallel, 2u);
  EXPECT_EQ(issues.size(), 24u);
}

// ---------------------------------------------------------------------------------------
// core.ldst_queue: a memory instruction issues while fewer than N wait behind the busy LDST unit
// (GPGPU-Sim's ID_OC_MEM register, memory collector units and OC_EX_MEM), one per SM a cycle,
// and the unit takes them in issue order; 0 = it issues only into a free unit.

struct QueueRun {
  std::vector<Issue> issues;
  std::vector<uint64_t> accepted;
  std::vector<uint8_t> accepted_warp;
};

// Three warps of one CTA on one scheduler: warps 0 and 1 load 32 lines, warp 2 stores to 32
// lines, each then one ALU instruction and its exit. The scripted L1 takes a request a cycle.
QueueRun run_three_memory_warps(uint32_t queue) {
  Config cfg = one_sm(3);
  cfg.core.ldst_queue = queue;
  ScriptedL1* l1 = nullptr;
  Gpu gpu(cfg, {}, scripted_l1(l1), ideal_memory());
  QueueRun run;
  gpu.set_issue_observer([&](uint32_t, uint64_t c, uint32_t s, const WarpInst& i) { run.issues.push_back({c, s, i.kind}); });
  auto w = one_kernel({1, 3}, [](uint32_t, uint32_t warp) {
    const Addr base = 0x100000 + Addr{warp} * 0x10000;
    const WarpInst mem = warp < 2 ? strided_load(base, 32)
                                  : scripted::store(0x100, [base](uint32_t l) { return base + Addr{l} * 128; },
                                                    [](uint32_t l) { return 0x1000 + l; });
    return Program{mem, scripted::alu(1), scripted::exit()};
  });
  const RunResult r = gpu.run(w, WorkloadScale::kTest);
  EXPECT_EQ(r.stop, StopReason::kCompleted);
  EXPECT_EQ(r.load_mismatches, 0u);
  run.accepted = l1->accepted_at;
  run.accepted_warp = l1->accepted_warp;
  return run;
}

TEST(SmLdstQueue, MemoryInstructionsWaitIssuedBehindTheBusyUnitInIssueOrder) {
  std::map<uint32_t, std::vector<uint64_t>> mem_issue;  // by queue size: the three memory issues
  for (uint32_t queue : {0u, 1u, 4u}) {
    const QueueRun run = run_three_memory_warps(queue);
    std::vector<uint64_t>& at = mem_issue[queue];
    for (const Issue& i : run.issues)
      if (i.kind == OpKind::kLoad || i.kind == OpKind::kStore) {
        EXPECT_EQ(i.slot, at.size()) << "queue " << queue << ": GTO issues the oldest warp first";
        at.push_back(i.cycle);
      }
    ASSERT_EQ(at.size(), 3u);
    // The unit is the bottleneck either way: 96 requests on 96 consecutive cycles from the cycle
    // after the first issue, warp after warp in issue order.
    ASSERT_EQ(run.accepted.size(), 96u) << "queue " << queue;
    for (uint32_t k = 0; k < 96; ++k) {
      EXPECT_EQ(run.accepted[k], at[0] + 1 + k) << "queue " << queue << " request " << k;
      EXPECT_EQ(run.accepted_warp[k], k / 32) << "queue " << queue << " request " << k;
    }
    // The store's warp still waits until its last request is accepted: its ALU instruction
    // issues in that cycle, not before (with or without a queue).
    uint32_t store_alu = 0;
    for (const Issue& i : run.issues)
      if (i.slot == 2 && i.kind == OpKind::kAlu) {
        EXPECT_EQ(i.cycle, run.accepted[95]) << "queue " << queue;
        ++store_alu;
      }
    EXPECT_EQ(store_alu, 1u) << "queue " << queue;
  }
  // Without a queue a memory instruction issues only when the unit frees (its previous
  // instruction's last request accepted); with room for 4 the other two issue on the next two
  // cycles (one memory instruction per SM a cycle); with room for 1 the third waits until the
  // second moves into the unit.
  const std::vector<uint64_t>& q0 = mem_issue[0];
  EXPECT_EQ(q0[1], q0[0] + 32);
  EXPECT_EQ(q0[2], q0[0] + 64);
  const std::vector<uint64_t>& q4 = mem_issue[4];
  EXPECT_EQ(q4[0], q0[0]);
  EXPECT_EQ(q4[1], q4[0] + 1);
  EXPECT_EQ(q4[2], q4[0] + 2);
  const std::vector<uint64_t>& q1 = mem_issue[1];
  EXPECT_EQ(q1[1], q1[0] + 1);
  EXPECT_EQ(q1[2], q1[0] + 32);
}

// ---------------------------------------------------------------------------------------
// A golden L1 that records what crosses its ports.

struct PortLog {
  std::vector<CoreReq> requests;
  std::vector<uint8_t> launch_awids;  // AWID the L1's own counters gave each launch
  struct Exit {
    uint8_t awid;
    bool has_next;
    uint8_t next;
  };
  std::vector<Exit> exits;
  std::vector<std::string> events;  // in order: "start", "end", "L", "X"
  const golden::L1* l1 = nullptr;
};

class RecordingL1 final : public L1Port {
 public:
  RecordingL1(const Config& c, PortLog* log) : l1_(c), log_(log) { log_->l1 = &l1_; }
  L1Outputs step(const L1Inputs& in) override {
    L1Outputs out = l1_.step(in);
    if (in.core_req_valid && out.core_req_ready) log_->requests.push_back(in.core_req);
    if (in.kernel_start) log_->events.push_back("start");
    if (in.warp_launch) log_->launch_awids.push_back(l1_.ages().youngest()), log_->events.push_back("L");
    if (in.warp_exit) log_->exits.push_back({in.exit_awid, in.exit_has_next, in.exit_next_oldest}), log_->events.push_back("X");
    if (in.kernel_end) log_->events.push_back("end");
    return out;
  }
  const L1Counters& counters() const override { return l1_.counters(); }
  bool idle() const override { return l1_.idle(); }
  std::string describe_state() const override { return l1_.describe_state(); }

 private:
  golden::L1 l1_;
  PortLog* log_;
};

L1Factory recording(PortLog* log) {
  return [log](const Config& c, uint32_t) { return std::make_unique<RecordingL1>(c, log); };
}

TEST(SmCore, WarpAndKernelEventsAndAwidsReachTheL1) {
  Config cfg = one_sm(4, 2);
  cfg.policy.replacement = ReplacementKind::kAgeLru;
  PortLog log;
  Gpu gpu(cfg, {}, recording(&log), ideal_memory(30));
  // Kernel 1: 3 CTAs of 2 warps on an SM of 4 warp slots (two CTAs at a time); each warp loads
  // its own line after a warp-dependent delay, so warps exit out of launch order. Kernel 2: 1 CTA.
  auto body = [](uint32_t cta, uint32_t wi) {
    const Addr line = 0x100000 + Addr{cta * 2 + wi} * 128;
    return Program{scripted::alu(wi == 0 ? 300 : 5), scripted::load(0x100, [line](uint32_t l) { return line + l * 4; }),
                   scripted::exit()};
  };
  scripted::KernelSpec k1{"k1", {3, 2}, body}, k2{"k2", {1, 2}, body};
  scripted::ScriptedWorkload w({k1, k2});
  const RunResult r = gpu.run(w, WorkloadScale::kTest);
  ASSERT_EQ(r.stop, StopReason::kCompleted);
  EXPECT_EQ(r.load_mismatches, 0u);

  // Launch order = AWID order, and the L1's counters agree with the AWIDs the SM put on requests.
  ASSERT_EQ(log.launch_awids.size(), 8u);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(log.launch_awids[i], i);
  ASSERT_EQ(log.requests.size(), 8u);
  std::map<Addr, uint8_t> awid_of_line;
  for (const CoreReq& q : log.requests) awid_of_line[q.addr & ~Addr{127}] = q.awid;
  // Kernel 1 CTAs launch in order 0, 1, 2 (two warps each), kernel 2's CTA 0 gets AWIDs 6, 7.
  EXPECT_EQ(awid_of_line[0x100000 + 4 * 128], 4);
  EXPECT_EQ(awid_of_line[0x100000 + 5 * 128], 5);

  // Exits: next-oldest = the oldest warp still announced (replayed from the event order).
  std::deque<uint8_t> live;
  uint8_t next_awid = 0;
  size_t e = 0;
  for (const std::string& ev : log.events) {
    if (ev == "L") live.push_back(next_awid++);
    if (ev != "X") continue;
    const PortLog::Exit& x = log.exits[e++];
    ASSERT_NE(std::find(live.begin(), live.end(), x.awid), live.end());
    live.erase(std::find(live.begin(), live.end(), x.awid));
    EXPECT_EQ(x.has_next, !live.empty());
    if (!live.empty()) {
      EXPECT_EQ(x.next, live.front());
    }
  }
  EXPECT_EQ(e, 8u);
  EXPECT_TRUE(live.empty());
  // Warp 1 of CTA 0 (short delay) exits before warp 0: the first exit is not the oldest.
  EXPECT_EQ(log.exits[0].awid, 1);

  // Kernel events: start, 6 launches / exits, end; then start, 2 / 2, end; start of kernel 2
  // only after kernel 1's end.
  ASSERT_EQ(std::count(log.events.begin(), log.events.end(), "start"), 2);
  ASSERT_EQ(std::count(log.events.begin(), log.events.end(), "end"), 2);
  const auto end1 = std::find(log.events.begin(), log.events.end(), "end");
  EXPECT_EQ(std::count(log.events.begin(), end1, "X"), 6);
  EXPECT_EQ(std::find(log.events.begin(), log.events.end(), "start"), log.events.begin());
  EXPECT_EQ(std::count(end1, log.events.end(), "start"), 1);
  EXPECT_EQ(log.events.back(), "end");

  // The SM's mirror of the AgeLRU counters equals the L1's.
  EXPECT_EQ(gpu.sm(0).ages().oldest(), log.l1->ages().oldest());
  EXPECT_EQ(gpu.sm(0).ages().youngest(), log.l1->ages().youngest());
  EXPECT_EQ(gpu.sm(0).ages().empty(), log.l1->ages().empty());
  EXPECT_TRUE(log.l1->ages().empty());
}

TEST(SmCore, PcalTokensGoToTheOldestWarpsAndPassOnExit) {
  Config cfg = one_sm(8);
  apply_policy_preset(cfg, "pcal");
  SimOptions opt;
  opt.ebt = -6;  // warp-opt 8 (all), 2 token holders
  PortLog log;
  Gpu gpu(cfg, opt, recording(&log), ideal_memory(40));
  auto w = one_kernel({1, 8}, [](uint32_t, uint32_t wi) {
    const auto a = [wi](Addr base) { return [base, wi](uint32_t l) { return base + Addr{wi} * 4096 + l * 4; }; };
    if (wi < 2) return Program{scripted::load(0x100, a(0x200000)), scripted::exit()};
    return Program{scripted::load(0x100, a(0x200000)), scripted::alu(2000), scripted::load(0x108, a(0x300000)),
                   scripted::exit()};
  });
  const RunResult r = gpu.run(w, WorkloadScale::kTest);
  ASSERT_EQ(r.stop, StopReason::kCompleted);
  EXPECT_EQ(r.load_mismatches, 0u);
  std::map<uint32_t, bool> first, second;
  for (const CoreReq& q : log.requests) (q.addr >= 0x300000 ? second : first)[q.warp] = q.token;
  ASSERT_EQ(first.size(), 8u);
  ASSERT_EQ(second.size(), 6u);
  for (uint32_t wi = 0; wi < 8; ++wi) EXPECT_EQ(first[wi], wi < 2) << "first load of warp " << wi;
  for (uint32_t wi = 2; wi < 8; ++wi) EXPECT_EQ(second[wi], wi < 4) << "second load of warp " << wi;
  // Non-token misses bypass the L1.
  EXPECT_EQ(gpu.sm(0).l1().counters().bypasses, 6u + 4u);
}

TEST(SmCore, TokenBitIsAlwaysSetWithoutPcal) {
  Config cfg = one_sm(8);
  SimOptions opt;
  opt.ebt = -6;  // ignored: the policy is not PCAL
  PortLog log;
  Gpu gpu(cfg, opt, recording(&log), ideal_memory(40));
  auto w = one_kernel({1, 8}, [](uint32_t, uint32_t wi) {
    return Program{strided_load(0x400000 + wi * 0x1000, 2), scripted::exit()};
  });
  ASSERT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
  ASSERT_EQ(log.requests.size(), 16u);
  for (const CoreReq& q : log.requests) EXPECT_TRUE(q.token);
}

// ---------------------------------------------------------------------------------------
// core.load_wait on_use: the register scoreboard.

// `inst` writing `writes` and reading `reads` (scoreboard operands only).
WarpInst with_regs(WarpInst inst, std::vector<uint16_t> writes, std::vector<uint16_t> reads) {
  inst.reads_all_loads = false;
  inst.writes = static_cast<uint8_t>(writes.size());
  inst.reads = static_cast<uint8_t>(reads.size());
  std::copy(writes.begin(), writes.end(), inst.regs.begin());
  std::copy(reads.begin(), reads.end(), inst.regs.begin() + writes.size());
  return inst;
}

struct ScoreboardRun {
  std::vector<Issue> issues;
  std::vector<uint64_t> accepted_at, responded_at;
};

// One warp runs `prog` on the scripted L1, whose request i returns delays[i] cycles after acceptance.
ScoreboardRun run_one_warp(LoadWait wait, const Program& prog, std::vector<uint32_t> delays) {
  Config cfg = one_sm(1);
  cfg.core.load_wait = wait;
  ScriptedL1* l1 = nullptr;
  Gpu gpu(cfg, {},
          scripted_l1(l1),
          ideal_memory());
  l1->delay = [delays](uint32_t i) { return i < delays.size() ? delays[i] : 1u; };
  ScoreboardRun out;
  gpu.set_issue_observer([&](uint32_t, uint64_t c, uint32_t s, const WarpInst& i) { out.issues.push_back({c, s, i.kind}); });
  auto w = one_kernel({1, 1}, [prog](uint32_t, uint32_t) { return prog; });
  const RunResult r = gpu.run(w, WorkloadScale::kTest);
  EXPECT_EQ(r.stop, StopReason::kCompleted);
  EXPECT_EQ(r.load_mismatches, 0u);
  out.accepted_at = l1->accepted_at;
  out.responded_at = l1->responded_at;
  return out;
}

TEST(SmScoreboard, OnUseIssuesIndependentLoadsBackToBackAndEachUseWaitsForItsLoad) {
  const uint32_t hit = load_preset("gtx480").l1.hit_latency;
  // Load A (register 1, one request) returns after 300 cycles, load B (register 2) after 10.
  const Program prog{with_regs(strided_load(0x10000, 1, 0x100), {1}, {}),
                     with_regs(strided_load(0x20000, 1, 0x108), {2}, {}),
                     with_regs(scripted::alu(1, 0x110), {}, {2}),  // uses B
                     with_regs(scripted::alu(1, 0x118), {}, {1}),  // uses A
                     scripted::exit()};
  const ScoreboardRun use = run_one_warp(LoadWait::kOnUse, prog, {300, 10});
  ASSERT_EQ(use.issues.size(), 5u);
  ASSERT_EQ(use.responded_at.size(), 2u);
  // B issues once the LDST unit has sent A's request, long before A's data returns; B's user
  // waits for B only, A's user for A.
  const uint64_t b_back = use.accepted_at[1] + 10, a_back = use.accepted_at[0] + 300;
  EXPECT_EQ(use.issues[1].cycle, use.accepted_at[0]);
  EXPECT_LT(use.issues[1].cycle, a_back);
  EXPECT_EQ(use.issues[2].cycle, b_back + hit);
  EXPECT_EQ(use.issues[3].cycle, a_back + hit);

  // on_issue ignores the registers: B waits for A's data.
  const ScoreboardRun issue = run_one_warp(LoadWait::kOnIssue, prog, {300, 10});
  ASSERT_EQ(issue.issues.size(), 5u);
  EXPECT_EQ(issue.issues[1].cycle, issue.accepted_at[0] + 300 + hit);
}

TEST(SmScoreboard, WriteAfterWriteAndExitWaitAndUndeclaredInstructionsWaitForEveryLoad) {
  const uint32_t hit = load_preset("gtx480").l1.hit_latency;
  // Both loads write register 5: the second waits for the first (WAW). Nothing reads the second,
  // but the exit waits for it.
  const Program waw{with_regs(strided_load(0x10000, 1, 0x100), {5}, {}),
                    with_regs(strided_load(0x20000, 1, 0x108), {5}, {}), scripted::exit()};
  const ScoreboardRun a = run_one_warp(LoadWait::kOnUse, waw, {100, 60});
  ASSERT_EQ(a.issues.size(), 3u);
  EXPECT_EQ(a.issues[1].cycle, a.accepted_at[0] + 100 + hit);
  EXPECT_EQ(a.issues[2].kind, OpKind::kExit);
  EXPECT_EQ(a.issues[2].cycle, a.accepted_at[1] + 60 + hit);

  // A program that declares no registers (WarpInst::reads_all_loads) runs as under on_issue.
  const Program plain{strided_load(0x10000, 3, 0x100), strided_load(0x20000, 2, 0x108), scripted::alu(4),
                      strided_load(0x30000, 1, 0x110), scripted::exit()};
  const ScoreboardRun u = run_one_warp(LoadWait::kOnUse, plain, {80, 20, 50, 10, 30, 70});
  const ScoreboardRun i = run_one_warp(LoadWait::kOnIssue, plain, {80, 20, 50, 10, 30, 70});
  ASSERT_EQ(u.issues.size(), i.issues.size());
  for (size_t k = 0; k < u.issues.size(); ++k) EXPECT_EQ(u.issues[k].cycle, i.issues[k].cycle) << "instruction " << k;
  EXPECT_EQ(u.issues[1].cycle, u.accepted_at[0] + 80 + hit);  // really waited
}

// ---------------------------------------------------------------------------------------
// core.fetch ibuffer: GPGPU-Sim's fetch and decode in front of the scheduler.

// `warps` warps on one scheduler run `prog` (ALU only, so the L1 plays no part); the issues.
std::vector<Issue> run_alu_warps(FetchModel fetch, uint32_t warps, const Program& prog, uint32_t entries = 2) {
  Config cfg = one_sm(warps);
  cfg.core.fetch = fetch;
  cfg.core.ibuffer_entries = entries;
  ScriptedL1* l1 = nullptr;
  Gpu gpu(cfg, {}, scripted_l1(l1), ideal_memory());
  std::vector<Issue> issues;
  gpu.set_issue_observer([&](uint32_t, uint64_t c, uint32_t s, const WarpInst& i) { issues.push_back({c, s, i.kind}); });
  auto w = one_kernel({1, warps}, [prog](uint32_t, uint32_t) { return prog; });
  EXPECT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
  return issues;
}

// Straight-line code: `n` ALU instructions 8 B apart, then the exit.
Program straight(uint32_t n) {
  Program p;
  for (uint32_t k = 0; k < n; ++k) p.push_back(scripted::alu(1, 0x100 + 8 * k));
  p.push_back(scripted::exit(0x100 + 8 * n));
  return p;
}

std::vector<uint64_t> gaps(const std::vector<Issue>& issues) {
  std::vector<uint64_t> g;
  for (size_t k = 1; k < issues.size(); ++k) g.push_back(issues[k].cycle - issues[k - 1].cycle);
  return g;
}

TEST(SmFetch, OneWarpIssuesTwoDecodedInstructionsPerFetchAfterAOneCycleDecode) {
  const std::vector<Issue> ideal = run_alu_warps(FetchModel::kIdeal, 1, straight(6));
  const std::vector<Issue> ib = run_alu_warps(FetchModel::kIbuffer, 1, straight(6));
  ASSERT_EQ(ideal.size(), 7u);
  ASSERT_EQ(ib.size(), 7u);
  EXPECT_EQ(gaps(ideal), std::vector<uint64_t>(6, 1));
  // Fetched in the launch cycle, decoded the next, issued the one after; the buffer empties at
  // the second issue, is fetched in that cycle and decoded in the next.
  EXPECT_EQ(ib[0].cycle, ideal[0].cycle + 2);
  EXPECT_EQ(gaps(ib), (std::vector<uint64_t>{1, 2, 1, 2, 1, 2}));
  // A 1-entry buffer: a fetch per instruction.
  EXPECT_EQ(gaps(run_alu_warps(FetchModel::kIbuffer, 1, straight(4), 1)), (std::vector<uint64_t>(4, 2)));
}

TEST(SmFetch, ATakenBranchWastesTheSecondEntryAndItsFlushCostsACycle) {
  // Two iterations of a 3-instruction loop: the third instruction is followed by the first's PC.
  Program loop;
  for (int it = 0; it < 2; ++it)
    for (uint32_t k = 0; k < 3; ++k) loop.push_back(scripted::alu(1, 0x100 + 8 * k));
  loop.push_back(scripted::exit(0x118));
  const std::vector<Issue> ib = run_alu_warps(FetchModel::kIbuffer, 1, loop);
  ASSERT_EQ(ib.size(), 7u);
  // Fetches: [0x100 0x108], [0x110, wrong path], [0x100 0x108], [0x110 exit]: the wrong-path
  // entry is flushed the cycle after the branch issues, then the warp is fetched; the exit at
  // 0x118 falls through from 0x110 and shares its fetch.
  EXPECT_EQ(gaps(ib), (std::vector<uint64_t>{1, 2, 3, 1, 2, 1}));
}

TEST(SmFetch, RoundRobinFetchSpreadsGtoIssueOverTheWarps) {
  const uint32_t warps = 4;
  const std::vector<Issue> ideal = run_alu_warps(FetchModel::kIdeal, warps, straight(12));
  const std::vector<Issue> ib = run_alu_warps(FetchModel::kIbuffer, warps, straight(12));
  ASSERT_EQ(ideal.size(), warps * 13u);
  ASSERT_EQ(ib.size(), warps * 13u);
  // The longest run of consecutive issues by one warp, leaving out the last warp's final issues
  // (nothing else is left to issue then).
  auto longest_run = [](const std::vector<Issue>& v) {
    size_t best = 0, run = 0;
    for (size_t k = 0; k + 2 < v.size(); ++k) {
      run = (k > 0 && v[k].slot == v[k - 1].slot) ? run + 1 : 1;
      best = std::max(best, run);
    }
    return best;
  };
  // Ideal: GTO keeps the oldest warp issuing every cycle until it exits.
  EXPECT_EQ(longest_run(ideal), 13u);
  // Ibuffer: a warp has two instructions per fetch, and while it waits for the next fetch GTO
  // turns to the next oldest warp whose buffer is full (the round robin filled it meanwhile).
  EXPECT_EQ(longest_run(ib), 2u);
  // Two decoded instructions per fetch, one fetch a cycle: the SM still issues every cycle from
  // its first issue on.
  for (size_t k = 0; k + 1 < ib.size(); ++k) EXPECT_EQ(ib[k + 1].cycle - ib[k].cycle, 1u) << "issue " << k;
}

}  // namespace
}  // namespace l1d::sim
