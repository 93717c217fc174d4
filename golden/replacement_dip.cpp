// DIP (Qureshi et al., ISCA 2007): a few leader sets always use LRU insertion, a few always
// BIP; misses in them steer PSEL, and the follower sets copy whichever leader misses less.
#include <stdexcept>
#include <string>

#include "golden/replacement.h"

namespace l1d::golden {

namespace {

constexpr uint32_t kDuelGroup = 32;  // leaders are chosen per group of 32 consecutive sets

uint32_t checked_psel_bits(uint32_t bits) {
  if (bits < 1 || bits > 16) throw std::invalid_argument("dip.psel_bits must be in 1..16, got " + std::to_string(bits));
  return bits;
}

uint32_t checked_leaders(uint32_t leaders) {
  // More than half the group would make a set both an LRU and a BIP leader.
  if (leaders > kDuelGroup / 2) {
    throw std::invalid_argument("dip.leader_sets_per_policy must be at most 16, got " + std::to_string(leaders));
  }
  return leaders;
}

}  // namespace

DipPolicy::DipPolicy(uint32_t sets, uint32_t ways, const DipConfig& dip, const BipConfig& bip)
    : ReplacementPolicy(sets, ways),
      leaders_(checked_leaders(dip.leader_sets_per_policy)),
      psel_mid_(1u << (checked_psel_bits(dip.psel_bits) - 1)),
      psel_max_((1u << dip.psel_bits) - 1),
      psel_(psel_mid_),
      insertion_(bip) {}

std::string DipPolicy::name() const { return "dip"; }

// Corner: with fewer than 32 sets the rule is applied to s % 32 unchanged, so a cache with
// fewer than 32 - L sets has LRU leaders but no BIP leader; PSEL then only climbs and the
// followers settle on BIP. With 0 leaders PSEL stays at its midpoint, which also means BIP.
DipPolicy::Role DipPolicy::role(uint32_t set) const {
  const uint32_t pos = set % kDuelGroup;
  if (pos < leaders_) return Role::kLruLeader;
  if (pos >= kDuelGroup - leaders_) return Role::kBipLeader;
  return Role::kFollower;
}

void DipPolicy::on_access(uint32_t /*set*/) {}
void DipPolicy::on_hit(uint32_t set, uint32_t way, const AccessInfo& /*info*/) { promote(set, way); }

void DipPolicy::on_miss(uint32_t set, const AccessInfo& /*info*/) {
  // A miss in a leader is a vote against that leader's policy.
  switch (role(set)) {
    case Role::kLruLeader:
      if (psel_ < psel_max_) ++psel_;
      break;
    case Role::kBipLeader:
      if (psel_ > 0) --psel_;
      break;
    case Role::kFollower:
      break;
  }
}

void DipPolicy::on_fill(uint32_t set, uint32_t way, const AccessInfo& /*info*/) {
  const Role r = role(set);
  const bool use_bip = r == Role::kBipLeader || (r == Role::kFollower && psel_ >= psel_mid_);
  if (!use_bip) {
    promote(set, way);  // LRU insertion; the LFSR does not move
    return;
  }
  // The LFSR advances only on BIP-style insertions, as in a standalone BIP.
  if (insertion_.next_goes_to_mru()) {
    promote(set, way);
  } else {
    demote(set, way);
  }
}

uint32_t DipPolicy::victim(uint32_t set, const VictimContext& ctx) const { return lru_of(set, ctx.eligible); }

}  // namespace l1d::golden
