// FIFO: the rank is insertion order, so only a fill moves a way; hits must not.
#include "golden/replacement.h"

namespace l1d::golden {

std::string FifoPolicy::name() const { return "fifo"; }
void FifoPolicy::on_access(uint32_t /*set*/) {}
void FifoPolicy::on_hit(uint32_t /*set*/, uint32_t /*way*/, const AccessInfo& /*info*/) {}
void FifoPolicy::on_miss(uint32_t /*set*/, const AccessInfo& /*info*/) {}
void FifoPolicy::on_fill(uint32_t set, uint32_t way, const AccessInfo& /*info*/) { promote(set, way); }
// The largest rank is the earliest-filled line.
uint32_t FifoPolicy::victim(uint32_t set, const VictimContext& ctx) const { return lru_of(set, ctx.eligible); }

}  // namespace l1d::golden
