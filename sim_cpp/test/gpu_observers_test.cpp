// Observations that do not change a run: the AGCB predictor's counters over time
// (AgcbTimeline) and the load hits by the issuing warp's age rank (LdstStats).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/config.h"
#include "sim_cpp/gpu/agcb_timeline.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/policies.h"
#include "sim_cpp/gpu/scripted_workload.h"

namespace l1d::sim {
namespace {

using scripted::Program;

// Every warp of a CTA reads the same 4 lines `rounds` times (one load PC per line): reuse
// that only a cached block can serve.
scripted::ScriptedWorkload reuse_heavy(uint32_t ctas, uint32_t rounds) {
  scripted::KernelSpec k;
  k.name = "reuse";
  k.grid = {ctas, 4};
  k.body = [rounds](uint32_t cta, uint32_t /*w*/) {
    const Addr base = 0x2000000 + Addr{cta} * 0x1000;
    Program p;
    for (uint32_t r = 0; r < rounds; ++r) {
      for (uint32_t line = 0; line < 4; ++line)
        p.push_back(scripted::load(0x200 + line * 8, [base, line](uint32_t l) { return base + line * 128 + l * 4; }));
      p.push_back(scripted::alu(20));
    }
    p.push_back(scripted::exit());
    return p;
  };
  return scripted::ScriptedWorkload({k});
}

Config agcb_config(bool l2_verify) {
  Config cfg = load_preset("gtx480");
  apply_policy(cfg, "agcb");
  cfg.policy.agcb.l2_verify = l2_verify;
  return cfg;
}

TEST(AgcbTimeline, CountersFallOnReuseOnlyWithL2Verification) {
  uint32_t lowest[2] = {};
  for (const bool verify : {false, true}) {
    Gpu gpu(agcb_config(verify), {});
    AgcbTimeline t(gpu);
    t.attach(gpu, 200);
    auto w = reuse_heavy(15, 8);
    ASSERT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
    ASSERT_GT(t.samples(), 3u);
    uint32_t lo = 15;
    for (size_t i = 0; i < t.samples(); ++i)
      for (uint32_t s = 0; s < gpu.num_sms(); ++s)
        for (const uint8_t c : t.table(i, s)) lo = std::min<uint32_t>(lo, c);
    lowest[verify] = lo;
    std::ostringstream csv;
    t.write_csv(csv);
    const std::string text = csv.str();
    EXPECT_EQ(text.rfind("cycle,entry,mean,min,max,sms_bypassing\n", 0), 0u);
    // Without verification no block is ever cached, so no counter moves and no entry is listed.
    const auto lines = std::count(text.begin(), text.end(), '\n');
    if (verify) {
      EXPECT_GT(lines, 1);
    } else {
      EXPECT_EQ(lines, 1);
    }
  }
  EXPECT_EQ(lowest[0], 15u);  // the course project's predictor: stuck at "bypass" forever
  EXPECT_LT(lowest[1], 8u);   // verified reuse lets blocks in; hits train the counters down
}

TEST(AgcbTimeline, NeedsAnAgcbPolicy) {
  Gpu gpu(load_preset("gtx480"), {});
  EXPECT_THROW(AgcbTimeline{gpu}, ConfigError);
}

uint64_t sum(const nlohmann::json& a) {
  uint64_t s = 0;
  for (const auto& v : a) s += v.get<uint64_t>();
  return s;
}

TEST(LdstStats, LoadHitsByAgeRankAddUpAndReachTheYoungerWarps) {
  Gpu gpu(load_preset("gtx480"), {});
  auto w = reuse_heavy(15, 4);
  ASSERT_EQ(gpu.run(w, WorkloadScale::kTest).stop, StopReason::kCompleted);
  const nlohmann::json j = gpu.stats_json()["ldst"];
  const auto& req = j["load_requests_by_age_rank"];
  const auto& hits = j["load_hits_by_age_rank"];
  EXPECT_EQ(sum(req), j["load_requests"].get<uint64_t>());
  EXPECT_EQ(sum(hits), j["responses_by_size"]["hit"]["32"].get<uint64_t>() +
                           j["responses_by_size"]["hit"]["64"].get<uint64_t>() +
                           j["responses_by_size"]["hit"]["128"].get<uint64_t>());
  // One CTA of 4 warps per SM, 2 schedulers: ranks 0 and 1 on each scheduler.
  ASSERT_EQ(req.size(), 2u);
  EXPECT_GT(hits[0].get<uint64_t>(), 0u);
  EXPECT_GT(hits[1].get<uint64_t>(), 0u);
}

}  // namespace
}  // namespace l1d::sim
