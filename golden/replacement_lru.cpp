// LRU: every touch (hit or fill) makes the way most recently used.
#include "golden/replacement.h"

namespace l1d::golden {

std::string LruPolicy::name() const { return "lru"; }
// Recency changes only when a way is touched: accesses and misses leave it alone.
void LruPolicy::on_access(uint32_t /*set*/) {}
void LruPolicy::on_hit(uint32_t set, uint32_t way, const AccessInfo& /*info*/) { promote(set, way); }
void LruPolicy::on_miss(uint32_t /*set*/, const AccessInfo& /*info*/) {}
void LruPolicy::on_fill(uint32_t set, uint32_t way, const AccessInfo& /*info*/) { promote(set, way); }
uint32_t LruPolicy::victim(uint32_t set, const VictimContext& ctx) const { return lru_of(set, ctx.eligible); }

}  // namespace l1d::golden
