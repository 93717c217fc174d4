// PCAL EBTNum decode and warp-token unit (SPEC section 7, dissertation section 4.3).
#include "golden/pcal_tokens.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace l1d::golden {

PcalLimits pcal_decode(uint32_t warp_opt, int32_t ebt_num, uint32_t max_warps) {
  if (warp_opt == 0) throw std::invalid_argument("pcal_decode: warp_opt must be >= 1");
  if (max_warps == 0) throw std::invalid_argument("pcal_decode: max_warps must be >= 1");
  // 64-bit signed arithmetic: warp_opt + ebt_num can neither overflow nor wrap below zero.
  const int64_t opt = warp_opt;
  const int64_t ebt = ebt_num;
  const int64_t cap = max_warps;
  int64_t active = opt;
  int64_t tokens = opt;
  if (ebt > 0) {
    active = opt + ebt;  // strategy one: extra bypassing warps raise TLP
  } else if (ebt < 0) {
    tokens = std::max<int64_t>(1, opt + ebt);  // strategy two: fewer cache warps, same TLP
  }
  // The scheduler cannot run more warps than it has slots, and a token needs an active warp.
  active = std::min(active, cap);
  tokens = std::min(tokens, active);
  return {static_cast<uint32_t>(active), static_cast<uint32_t>(tokens)};
}

// With no PCAL limit every warp may allocate, i.e. behaves as a token holder.
PcalTokenUnit::PcalTokenUnit(uint32_t max_warps)
    : max_warps_(max_warps), limit_(max_warps), token_(max_warps, false), resident_(max_warps, false) {
  if (max_warps == 0) throw std::invalid_argument("PcalTokenUnit: max_warps must be >= 1");
  order_.reserve(max_warps);
}

// Limits above max_warps are clamped: there can never be more holders than warp slots.
void PcalTokenUnit::set_tokens(uint32_t tokens) {
  limit_ = std::min(tokens, max_warps_);
  rebalance();
}

void PcalTokenUnit::launch(uint32_t warp) {
  if (resident_.at(warp)) {
    throw std::logic_error("PcalTokenUnit: warp " + std::to_string(warp) + " launched twice");
  }
  resident_[warp] = true;
  order_.push_back(warp);  // youngest
  // Every older resident already holds a token whenever one is free (the tokens sit on the
  // oldest warps), so the newcomer gets one only if a token is unused.
  token_[warp] = tokens_held() < limit_;
}

void PcalTokenUnit::exit(uint32_t warp) {
  if (!resident_.at(warp)) {
    throw std::logic_error("PcalTokenUnit: warp " + std::to_string(warp) + " is not resident");
  }
  const bool was_holder = token_[warp];
  resident_[warp] = false;
  token_[warp] = false;
  order_.erase(std::find(order_.begin(), order_.end(), warp));
  if (!was_holder) return;  // a non-holder leaving frees no token
  // Hand the token over to the oldest warp still waiting for one.
  const auto next = std::find_if(order_.begin(), order_.end(),
                                 [this](uint32_t w) { return !token_[w]; });
  if (next != order_.end()) token_[*next] = true;
}

void PcalTokenUnit::reset() {
  order_.clear();
  std::fill(token_.begin(), token_.end(), false);
  std::fill(resident_.begin(), resident_.end(), false);
  limit_ = max_warps_;
}

bool PcalTokenUnit::has_token(uint32_t warp) const { return token_.at(warp); }

bool PcalTokenUnit::resident(uint32_t warp) const { return resident_.at(warp); }

uint32_t PcalTokenUnit::tokens_held() const {
  return static_cast<uint32_t>(std::count(token_.begin(), token_.end(), true));
}

// Brings the holder count to min(limit, resident) after a limit change: new tokens go to the
// oldest non-holders and surplus ones leave the youngest holders, so the holders remain the
// oldest resident warps (a holder keeps its token as long as possible).
void PcalTokenUnit::rebalance() {
  uint32_t held = tokens_held();
  for (auto it = order_.begin(); it != order_.end() && held < limit_; ++it) {
    if (!token_[*it]) {
      token_[*it] = true;
      ++held;
    }
  }
  for (auto it = order_.rbegin(); it != order_.rend() && held > limit_; ++it) {
    if (token_[*it]) {
      token_[*it] = false;
      --held;
    }
  }
}

}  // namespace l1d::golden
