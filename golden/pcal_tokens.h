// PCAL warp-token unit of one warp scheduler (SPEC section 7). Tokens go to the oldest
// resident warps; a holder keeps its token until it exits, then the token passes to the
// oldest warp without one. Warps are named by slot (0..max_warps-1); age is launch order.
#pragma once

#include <cstdint>
#include <vector>

namespace l1d::golden {

struct PcalLimits {
  uint32_t active_warps = 0;  // warps the scheduler may issue from (throttling)
  uint32_t tokens = 0;        // how many of those hold a token
};

// EBTNum decode: 0 = pure throttling (warp_opt warps, all with tokens); > 0 = warp_opt
// token holders plus ebt extra non-token warps; < 0 = warp_opt + ebt token holders (at least
// 1) and -ebt non-token warps, total still warp_opt. active_warps is capped at max_warps and
// tokens at active_warps. Throws std::invalid_argument when warp_opt or max_warps is 0.
PcalLimits pcal_decode(uint32_t warp_opt, int32_t ebt_num, uint32_t max_warps);

class PcalTokenUnit {
 public:
  // Starts with no resident warp and limit = max_warps: until PCAL sets a limit every warp
  // holds a token (allocates as in the baseline). Invariant after every call: the holders
  // are exactly the min(limit, resident) oldest resident warps.
  explicit PcalTokenUnit(uint32_t max_warps);

  // New token count (e.g. from the dynamic-PCAL controller); takes effect at once: extra
  // tokens go to the oldest non-holders, surplus ones are taken from the youngest holders.
  // A limit above max_warps is clamped to max_warps.
  void set_tokens(uint32_t tokens);
  // The warp becomes the youngest; it gets a token iff fewer than limit are held.
  // std::logic_error if it is already resident; std::out_of_range for a slot >= max_warps.
  void launch(uint32_t warp);
  // A holder's token passes to the oldest resident non-holder; a non-holder's exit changes no
  // token. std::logic_error if the warp is not resident.
  void exit(uint32_t warp);
  // Back to the constructed state: nothing resident, limit = max_warps.
  void reset();

  bool has_token(uint32_t warp) const;
  bool resident(uint32_t warp) const;
  uint32_t tokens_held() const;
  uint32_t token_limit() const { return limit_; }
  // Resident warps, oldest first.
  const std::vector<uint32_t>& age_order() const { return order_; }

 private:
  void rebalance();

  uint32_t max_warps_;
  uint32_t limit_;
  std::vector<uint32_t> order_;  // resident warps, oldest first
  std::vector<bool> token_;
  std::vector<bool> resident_;
};

}  // namespace l1d::golden
