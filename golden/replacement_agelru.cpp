// AgeLRU replacement (SPEC section 8, dissertation ch. 5): GTO runs the oldest warps first,
// so their lines are the likeliest to be reused soon; evict dead warps' lines, then the
// youngest warp's, and use LRU recency only to break ties.
#include <stdexcept>

#include "golden/replacement.h"

namespace l1d::golden {

std::string AgeLruPolicy::name() const { return "agelru"; }
void AgeLruPolicy::on_access(uint32_t /*set*/) {}
void AgeLruPolicy::on_hit(uint32_t set, uint32_t way, const AccessInfo& /*info*/) { promote(set, way); }
void AgeLruPolicy::on_miss(uint32_t /*set*/, const AccessInfo& /*info*/) {}
void AgeLruPolicy::on_fill(uint32_t set, uint32_t way, const AccessInfo& /*info*/) { promote(set, way); }

uint32_t AgeLruPolicy::victim(uint32_t set, const VictimContext& ctx) const {
  // Dynamic-AgeLRU voting may run this SM as plain LRU for a window.
  if (!ctx.age_filter) return lru_of(set, ctx.eligible);
  if (ctx.awid == nullptr || ctx.ages == nullptr) {
    throw std::logic_error("agelru: victim() needs the per-way AWIDs and the SM's age counters");
  }
  WayMask inactive;
  uint32_t youngest_age = 0;
  for (uint32_t w = 0; w < ways_; ++w) {
    if (!ctx.eligible.test(w)) continue;
    if (!ctx.ages->active(ctx.awid[w])) inactive.set(w);
    const uint32_t age = ctx.ages->relative_age(ctx.awid[w]);
    if (age > youngest_age) youngest_age = age;
  }
  // A line whose warp is gone cannot help any running warp.
  if (inactive.any()) return lru_of(set, inactive);

  // Every eligible line belongs to a running warp: sacrifice the youngest warp's lines.
  // This mask is never empty when eligible is not, so AgeLRU always yields a victim.
  WayMask youngest;
  for (uint32_t w = 0; w < ways_; ++w) {
    if (ctx.eligible.test(w) && ctx.ages->relative_age(ctx.awid[w]) == youngest_age) youngest.set(w);
  }
  return lru_of(set, youngest);
}

}  // namespace l1d::golden
