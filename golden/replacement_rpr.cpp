// RPR replacement (SPEC 9, dissertation ch. 6): predict each block's reuse distance (RD) and
// reuse count (RC) from what earlier blocks of its signature did, count both down as the set is
// accessed and the block is hit, and evict the dead or the farthest-reused block. Golden model
// and simulator only: the RTL has no RPR (dcgen and the verilated L1 refuse it).
#include <stdexcept>
#include <string>

#include "golden/replacement.h"

namespace l1d::golden {

namespace {

constexpr uint32_t kLineFieldMax = 15;  // RD and RC are 4-bit per-line fields (SPEC 9)

}  // namespace

RprPolicy::RprPolicy(uint32_t sets, uint32_t ways, const RprConfig& cfg)
    : ReplacementPolicy(sets, ways), cfg_(cfg), sampler_(sets, ways, cfg.sample_every) {
  if (cfg.default_rd > kLineFieldMax || cfg.default_rc > kLineFieldMax)
    throw std::invalid_argument("rpr: default_rd and default_rc must be in 0..15, got " +
                                std::to_string(cfg.default_rd) + " and " + std::to_string(cfg.default_rc));
  rd_.assign(static_cast<size_t>(sets) * ways, 0);
  rc_.assign(static_cast<size_t>(sets) * ways, 0);
}

std::string RprPolicy::name() const { return "rpr"; }

void RprPolicy::on_access(uint32_t set) {
  sampler_.on_access(set);
  // Every line of the set is one access closer to its predicted reuse. Invalid ways count down
  // too: they are never victim candidates and a fill sets them afresh, so it cannot matter.
  uint8_t* rd = &rd_[static_cast<size_t>(set) * ways_];
  for (uint32_t w = 0; w < ways_; ++w)
    if (rd[w]) --rd[w];
}

void RprPolicy::on_hit(uint32_t set, uint32_t way, const AccessInfo& /*info*/) {
  // The sampler trains the signature stored with the block (its fetcher's), not the hitter's.
  if (const std::optional<RprSampler::Hit> h = sampler_.on_hit(set, way)) history_.hit_update(h->signature, h->distance);
  uint8_t& rc = rc_[static_cast<size_t>(set) * ways_ + way];
  if (rc) --rc;  // one predicted reuse used up
  promote(set, way);
}

void RprPolicy::on_miss(uint32_t set, const AccessInfo& info) {
  if (sampler_.sampled(set)) history_.miss_update(rpr_signature(info.hpc, info.rel_age));
}

void RprPolicy::on_fill(uint32_t set, uint32_t way, const AccessInfo& info) {
  const uint32_t sig = rpr_signature(info.hpc, info.rel_age);
  const std::optional<RprPrediction> p = history_.predict(sig);
  const size_t i = static_cast<size_t>(set) * ways_ + way;
  rd_[i] = static_cast<uint8_t>(p ? p->rd : cfg_.default_rd);
  rc_[i] = static_cast<uint8_t>(p ? p->rc : cfg_.default_rc);
  sampler_.on_fill(set, way, sig);
  promote(set, way);
}

uint32_t RprPolicy::score(RprScore mode, uint32_t rd, uint32_t rc, uint32_t relative_age) {
  switch (mode) {
    case RprScore::kReuseDistance: return 256 - rd;            // eq. 6.4: far reuse scores low
    case RprScore::kCounter: return rc > 0 ? 256 + rc : 0;     // eq. 6.5: few reuses left scores low
    case RprScore::kAge: return 256 - relative_age;            // eq. 6.3: the youngest warp scores low
  }
  return 0;
}

uint32_t RprPolicy::victim(uint32_t set, const VictimContext& ctx) const {
  if (ctx.awid == nullptr || ctx.ages == nullptr)
    throw std::logic_error("rpr: victim() needs the per-way AWIDs and the SM's age counters");
  // ctx.age_filter (Dynamic-AgeLRU voting) is not read: dynamic RPR is the dissertation's future
  // work, and gpusim allows that controller only with AgeLRU.
  const bool rc_kills = cfg_.score != RprScore::kAge;  // the age score is AgeLRU exactly
  const size_t base = static_cast<size_t>(set) * ways_;
  WayMask dead;
  for (uint32_t w = 0; w < ways_; ++w) {
    if (!ctx.eligible.test(w)) continue;
    if (!ctx.ages->active(ctx.awid[w]) || (rc_kills && rc_[base + w] == 0)) dead.set(w);
  }
  if (dead.any()) return lru_of(set, dead);

  uint32_t lowest = UINT32_MAX;
  uint32_t scores[kMaxWays] = {};
  for (uint32_t w = 0; w < ways_; ++w) {
    if (!ctx.eligible.test(w)) continue;
    scores[w] = score(cfg_.score, rd_[base + w], rc_[base + w], ctx.ages->relative_age(ctx.awid[w]));
    if (scores[w] < lowest) lowest = scores[w];
  }
  WayMask lowest_ways;
  for (uint32_t w = 0; w < ways_; ++w)
    if (ctx.eligible.test(w) && scores[w] == lowest) lowest_ways.set(w);
  return lru_of(set, lowest_ways);  // throws for an empty eligible mask, like every policy
}

}  // namespace l1d::golden
