// BIP (Qureshi et al., ISCA 2007): insert at LRU so a thrashing stream cannot flush the set,
// but put 1 in mru_one_in fills at MRU so a new working set can still get in.
#include <bit>
#include <stdexcept>
#include <string>

#include "golden/replacement.h"

namespace l1d::golden {

namespace {

uint16_t checked_mask(uint32_t mru_one_in) {
  // A mask test is what the RTL does; it only means "1 in N" when N is a power of two.
  if (!std::has_single_bit(mru_one_in) || mru_one_in > 0x8000u) {
    throw std::invalid_argument("bip.mru_one_in must be a power of two in 1..32768, got " +
                                std::to_string(mru_one_in));
  }
  return static_cast<uint16_t>(mru_one_in - 1);
}

uint16_t checked_seed(uint32_t seed) {
  // Refuse rather than truncate: a silently different seed changes every result.
  if (seed > 0xFFFFu) throw std::invalid_argument("bip.lfsr_seed must fit 16 bits, got " + std::to_string(seed));
  return static_cast<uint16_t>(seed);  // 0 becomes 1 in Lfsr16 (an all-zero LFSR never moves)
}

}  // namespace

BipInsertion::BipInsertion(const BipConfig& cfg)
    : mask_(checked_mask(cfg.mru_one_in)), lfsr_(checked_seed(cfg.lfsr_seed)) {}

bool BipInsertion::next_goes_to_mru() { return (lfsr_.next() & mask_) == 0; }

BipPolicy::BipPolicy(uint32_t sets, uint32_t ways, const BipConfig& cfg)
    : ReplacementPolicy(sets, ways), insertion_(cfg) {}

std::string BipPolicy::name() const { return "bip"; }
void BipPolicy::on_access(uint32_t /*set*/) {}
void BipPolicy::on_hit(uint32_t set, uint32_t way, const AccessInfo& /*info*/) { promote(set, way); }
void BipPolicy::on_miss(uint32_t /*set*/, const AccessInfo& /*info*/) {}

void BipPolicy::on_fill(uint32_t set, uint32_t way, const AccessInfo& /*info*/) {
  if (insertion_.next_goes_to_mru()) {
    promote(set, way);
  } else {
    demote(set, way);
  }
}

uint32_t BipPolicy::victim(uint32_t set, const VictimContext& ctx) const { return lru_of(set, ctx.eligible); }

}  // namespace l1d::golden
