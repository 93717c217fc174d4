// DyCache granularity selector (SPEC section 4, paper Fig. 7).
// Ratios are compared as cross-multiplied integers (x * 100 > T * n) exactly as the RTL does,
// so the golden model and the hardware agree on every boundary case; "> T" means a ratio of
// exactly T percent counts as good locality / coarse access.
#include "golden/granularity_selector.h"

#include <stdexcept>
#include <string>

namespace l1d::golden {
namespace {

bool is_legal_size(uint32_t bytes) { return bytes == 32 || bytes == 64 || bytes == 128; }

// count / n > pct / 100, in 64 bits so that long samples cannot overflow the product.
bool exceeds_pct(uint32_t count, uint32_t n, uint32_t pct) {
  return uint64_t{count} * 100 > uint64_t{pct} * n;
}

}  // namespace

GranularitySelector::GranularitySelector(const DyCacheConfig& cfg, uint32_t initial_granularity)
    : cfg_(cfg), granularity_(initial_granularity) {
  if (cfg.sample_requests == 0)
    throw std::invalid_argument("granularity selector: sample_requests must be at least 1");
  if (cfg.threshold_pct > 100)
    throw std::invalid_argument("granularity selector: threshold_pct " + std::to_string(cfg.threshold_pct) +
                                " is over 100");
  if (!is_legal_size(initial_granularity))
    throw std::invalid_argument("granularity selector: initial granularity " +
                                std::to_string(initial_granularity) + " is not 32, 64 or 128");
}

std::optional<uint32_t> GranularitySelector::record(uint32_t size, bool miss) {
  if (!is_legal_size(size))
    throw std::invalid_argument("granularity selector: request size " + std::to_string(size) +
                                " is not 32, 64 or 128");
  ++n_;
  if (miss) ++misses_;
  if (size == 32) ++n32_;
  if (size == 64) ++n64_;
  if (n_ < cfg_.sample_requests) return std::nullopt;

  const uint32_t next = decide();
  n_ = misses_ = n32_ = n64_ = 0;  // the next sample starts with the next request
  if (next == granularity_) return std::nullopt;
  granularity_ = next;
  return next;
}

uint32_t GranularitySelector::decide() const {
  const bool poor_locality = exceeds_pct(misses_, n_, cfg_.threshold_pct);
  if (!poor_locality) return granularity_;  // hits are served well at any G: don't pay a switch

  const bool fine_access = exceeds_pct(n32_ + n64_, n_, cfg_.threshold_pct);
  // Paper: 32 B only if strictly more 32 B than 64 B requests, otherwise 64 B (ties included).
  if (fine_access) return n32_ > n64_ ? 32u : 64u;
  // Poor locality with coarse access: fine pieces only add replacement churn, go back to
  // whole lines (a no-op when G is already 128).
  return 128u;
}

}  // namespace l1d::golden
