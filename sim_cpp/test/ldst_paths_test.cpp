// [Fidelity] (issue 20) The LDST unit's reference-faithful paths (docs/l1d-microarchitecture.md
// 13.5, 13.6): l1.hit_latency_at before_tag (GPGPU-Sim 4.x's l1_latency_queue before the tag
// lookup) and l1.bypass_path direct (GPGPU-Sim's bypassL1D path: two-level B-mode loads go from the
// LDST unit to memory, never to the L1). Directed cases on one SM over an ideal memory.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/config.h"
#include "sim_cpp/core/memory_port.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/scripted_workload.h"

namespace l1d::sim {
namespace {

using scripted::Program;

constexpr uint32_t kMemLatency = 50;
constexpr uint32_t kHitLatency = 20;

// gtx1080-jips (write-evict, before_tag, direct) reduced to one SM, no launch overhead.
Config jips(uint32_t warps, HitLatencyAt at, BypassPath path) {
  Config cfg = load_preset("gtx1080-jips");
  cfg.core.num_sms = 1;
  cfg.core.warps_per_sm = warps;
  cfg.core.schedulers_per_sm = 1;
  cfg.core.kernel_launch_cycles = 0;
  cfg.l1.hit_latency = kHitLatency;
  cfg.l1.hit_latency_at = at;
  cfg.l1.bypass_path = path;
  return cfg;
}

// Two-level bypassing held in B mode from the first recorded L1 access on (an "L1 off" kernel
// after its first load): a one-cycle window with zero thresholds decides B at the first miss,
// and the bypass period outlasts the test.
void always_bypass_after_first_miss(Config& cfg) {
  cfg.policy.name = "two-level-l1-off";
  cfg.policy.bypass = BypassKind::kTwoLevel;
  cfg.policy.two_level.window_cycles = 1;
  cfg.policy.two_level.th_low = 0;
  cfg.policy.two_level.th_high = 0;
  cfg.policy.two_level.th_warp = 1;
  cfg.policy.two_level.bypass_period_cycles = 1000000;
}

// The ideal memory, recording the cycle (tick count) of every request it gets.
class RecordingMemory final : public MemoryPort {
 public:
  explicit RecordingMemory(std::unique_ptr<MemoryPort> inner) : inner_(std::move(inner)) {}
  bool request_ready(uint32_t sm) const override { return inner_->request_ready(sm); }
  uint32_t request_room(uint32_t sm, uint32_t cap) const override { return inner_->request_room(sm, cap); }
  void request(uint32_t sm, const MemReq& r) override {
    (r.op == MemOp::kLoad ? reads : writes).push_back(now_);
    inner_->request(sm, r);
  }
  std::optional<MemResp> response(uint32_t sm) override { return inner_->response(sm); }
  void tick() override {
    ++now_;
    inner_->tick();
  }
  bool idle() const override { return inner_->idle(); }
  std::string describe_state() const override { return inner_->describe_state(); }
  const MemorySystemStats& stats() const override { return inner_->stats(); }
  nlohmann::json stats_json() const override { return inner_->stats_json(); }
  std::vector<uint64_t> reads, writes;

 private:
  std::unique_ptr<MemoryPort> inner_;
  uint64_t now_ = 0;
};

struct Outcomes {
  RunResult result;
  LdstStats ldst;
  L1Counters l1;
  std::vector<uint64_t> reads, writes;  // memory request cycles
  std::vector<uint64_t> load_issues;    // cycles the loads issued
};

Outcomes run(const Config& cfg, std::function<Program(uint32_t, uint32_t)> body, uint32_t warps_per_cta) {
  RecordingMemory* mem = nullptr;
  Gpu gpu(cfg, {}, {}, [&mem](const Config& c, FunctionalMemory& img) {
    auto p = std::make_unique<RecordingMemory>(make_fixed_latency_memory(c.core.num_sms, img, kMemLatency));
    mem = p.get();
    return p;
  });
  Outcomes r;
  gpu.set_issue_observer([&](uint32_t, uint64_t c, uint32_t, const WarpInst& i) {
    if (i.kind == OpKind::kLoad) r.load_issues.push_back(c);
  });
  scripted::KernelSpec k;
  k.grid = {1, warps_per_cta};
  k.body = std::move(body);
  scripted::ScriptedWorkload w({k});
  r.result = gpu.run(w, WorkloadScale::kTest);
  r.ldst = gpu.sm(0).ldst().stats();
  r.l1 = gpu.sm(0).l1().counters();
  r.reads = mem->reads;
  r.writes = mem->writes;
  return r;
}

// One 4-byte lane per 128 B line: n requests of 32 B starting at `base`.
WarpInst lines_load(Addr base, uint32_t n, uint64_t pc) {
  return scripted::load(pc, [base](uint32_t l) { return base + Addr{l} * 128; }, 4, (1u << n) - 1);
}
WarpInst lines_store(Addr base, uint32_t n, uint64_t pc, uint32_t salt) {
  return scripted::store(
      pc, [base](uint32_t l) { return base + Addr{l} * 128; }, [salt](uint32_t l) { return salt * 100 + l; }, 4,
      (1u << n) - 1);
}

// Warp 0 makes the kernel's first L1 access (a miss, in C mode), which turns B mode on; after a
// pause every warp stores to its lines and loads them back, the last stored line first (so a direct
// load must wait for the store ahead of it), loads the warm-up line again (an L1 hit, were the tags probed) and loads
// lines of its own.
Program store_then_load(uint32_t, uint32_t warp) {
  const Addr own = 0x100000 + Addr{warp} * 0x10000;
  Program p;
  if (warp == 0) p.push_back(lines_load(0x80000, 1, 0x100));
  p.push_back(scripted::alu(300));
  p.push_back(lines_store(own, 4, 0x110, warp + 1));
  p.push_back(lines_load(own + 3 * 128, 1, 0x118));  // the line the store's last request wrote
  p.push_back(lines_load(own, 4, 0x120));
  p.push_back(lines_load(0x80000, 1, 0x130));
  p.push_back(lines_load(own + 0x1000, 8, 0x140));
  p.push_back(scripted::exit());
  return p;
}

class BModeDirect : public ::testing::TestWithParam<HitLatencyAt> {};

TEST_P(BModeDirect, BModeLoadsNeverTouchAnMshr) {
  constexpr uint32_t kWarps = 4;
  Config cfg = jips(kWarps, GetParam(), BypassPath::kDirect);
  always_bypass_after_first_miss(cfg);
  const Outcomes d = run(cfg, store_then_load, kWarps);
  ASSERT_EQ(d.result.stop, StopReason::kCompleted);
  constexpr uint64_t kLoadsPerWarp = 1 + 4 + 1 + 8;
  const uint64_t loads = 1 + kWarps * kLoadsPerWarp;
  // Every load's data is right: the direct loads of freshly stored lines waited for the stores.
  EXPECT_EQ(d.ldst.load_requests, loads);
  EXPECT_EQ(d.ldst.loads_checked, loads);
  EXPECT_EQ(d.ldst.load_mismatches, 0u);
  // Only the warm-up load reached the L1: one tag lookup, one MSHR entry, one miss-queue read.
  EXPECT_EQ(d.ldst.direct_loads, loads - 1);
  EXPECT_EQ(d.l1.loads, 1u);
  EXPECT_EQ(d.l1.stores, uint64_t{kWarps} * 4);
  EXPECT_EQ(d.l1.misses, 1u + kWarps * 4);  // the warm-up load and the stores (no line holds them)
  EXPECT_EQ(d.l1.mem_reads, 1u);  // each MSHR entry pushes exactly one read (no widening here)
  EXPECT_EQ(d.l1.merges + d.l1.bypasses + d.l1.hits, 0u);
  for (uint64_t f : d.l1.res_fail) EXPECT_EQ(f, 0u);
  // The miss queue carried the warm-up read and the stores only; the direct loads went to memory.
  EXPECT_EQ(d.l1.mem_writes, uint64_t{kWarps} * 4);
  EXPECT_EQ(d.reads.size(), loads);
  EXPECT_EQ(d.ldst.responses[static_cast<int>(Outcome::kBypassReturn)], loads - 1);

  // The same kernel through the L1: B-mode loads probe the tags (the warm-up line hits) and the
  // misses take MSHR entries and miss-queue slots.
  cfg.l1.bypass_path = BypassPath::kThroughL1;
  const Outcomes t = run(cfg, store_then_load, kWarps);
  ASSERT_EQ(t.result.stop, StopReason::kCompleted);
  EXPECT_EQ(t.ldst.load_mismatches, 0u);
  EXPECT_EQ(t.ldst.direct_loads, 0u);
  EXPECT_EQ(t.l1.loads, loads);
  EXPECT_EQ(t.l1.hits, uint64_t{kWarps});
  EXPECT_EQ(t.l1.bypasses, loads - 1 - kWarps);
}

INSTANTIATE_TEST_SUITE_P(HitLatencyAt, BModeDirect, ::testing::Values(HitLatencyAt::kResponse, HitLatencyAt::kBeforeTag),
                         [](const ::testing::TestParamInfo<HitLatencyAt>& p) { return to_string(p.param); });

// One warp: a miss to X, a hit to X, a miss to Y; with B mode on after the first miss, the loads
// after it bypass.
Program miss_hit_miss(uint32_t, uint32_t) {
  return Program{lines_load(0x80000, 1, 0x100), lines_load(0x80000, 1, 0x110), lines_load(0x90000, 1, 0x120),
                 scripted::exit()};
}

double mean(const LdstStats& s, Outcome o) {
  const int k = static_cast<int>(o);
  return s.responses[k] ? static_cast<double>(s.latency_sum[k]) / static_cast<double>(s.responses[k]) : 0.0;
}

TEST(LdstPaths, HitLatencyChargedBeforeTheTagLookupAndSkippedByABypass) {
  constexpr uint32_t L = kHitLatency;
  const Outcomes resp = run(jips(1, HitLatencyAt::kResponse, BypassPath::kThroughL1), miss_hit_miss, 1);
  const Outcomes tag = run(jips(1, HitLatencyAt::kBeforeTag, BypassPath::kThroughL1), miss_hit_miss, 1);
  for (const Outcomes* r : {&resp, &tag}) {
    ASSERT_EQ(r->result.stop, StopReason::kCompleted);
    EXPECT_EQ(r->ldst.load_mismatches, 0u);
    ASSERT_EQ(r->reads.size(), 2u);
    ASSERT_EQ(r->load_issues.size(), 3u);
  }
  // A hit costs L + 2 either way (leaving the LDST unit -> the warp sees the data).
  EXPECT_EQ(mean(resp.ldst, Outcome::kHit), L + 2);
  EXPECT_EQ(mean(tag.ldst, Outcome::kHit), L + 2);
  // A miss pays L too, but before its tag lookup: its read leaves the L1 L - 1 cycles later...
  EXPECT_EQ(tag.reads[0] - tag.load_issues[0], resp.reads[0] - resp.load_issues[0] + (L - 1));
  // ... and its fill is not delayed, so the unloaded round trip is the same.
  EXPECT_EQ(mean(tag.ldst, Outcome::kMissReturn), mean(resp.ldst, Outcome::kMissReturn));
  const double miss = mean(tag.ldst, Outcome::kMissReturn);

  // B mode after the first miss. Through the L1 a bypass is a miss that pays L; the direct path
  // skips the pipe, the tags and the L1's fill, and the warm line X is not hit but fetched.
  Config through = jips(1, HitLatencyAt::kBeforeTag, BypassPath::kThroughL1);
  always_bypass_after_first_miss(through);
  Config direct = through;
  direct.l1.bypass_path = BypassPath::kDirect;
  const Outcomes bt = run(through, miss_hit_miss, 1);
  const Outcomes bd = run(direct, miss_hit_miss, 1);
  for (const Outcomes* r : {&bt, &bd}) {
    ASSERT_EQ(r->result.stop, StopReason::kCompleted);
    EXPECT_EQ(r->ldst.load_mismatches, 0u);
  }
  EXPECT_EQ(bt.ldst.responses[static_cast<int>(Outcome::kHit)], 1u);  // X: B mode still looks up the tags
  EXPECT_EQ(mean(bt.ldst, Outcome::kBypassReturn), miss);             // Y: a miss's round trip, L included
  EXPECT_EQ(bd.ldst.direct_loads, 2u);
  EXPECT_EQ(bd.ldst.responses[static_cast<int>(Outcome::kBypassReturn)], 2u);
  EXPECT_EQ(bd.reads.size(), 3u);
  // A direct load's read leaves in the cycle its instruction reaches the LDST unit + 1 ...
  EXPECT_EQ(bd.reads[2] - bd.load_issues[2], 1u);
  // ... and its latency is the memory round trip plus the hand-over: none of the L cycles.
  const double direct_lat = mean(bd.ldst, Outcome::kBypassReturn);
  EXPECT_EQ(direct_lat, kMemLatency + 1);
  EXPECT_LT(direct_lat, miss - (L - 1));
  std::printf("  load latency (leaving the LDST unit -> warp), L = %u, memory %u: hit %.0f (response) / %.0f (before_tag); "
              "miss %.0f / %.0f; bypass through the L1 %.0f; direct bypass %.0f\n",
              L, kMemLatency, mean(resp.ldst, Outcome::kHit), mean(tag.ldst, Outcome::kHit),
              mean(resp.ldst, Outcome::kMissReturn), miss, mean(bt.ldst, Outcome::kBypassReturn), direct_lat);
}

}  // namespace
}  // namespace l1d::sim
