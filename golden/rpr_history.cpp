// RPR reuse-history table: saturating sums per signature, averaged when a window fills.
#include "golden/rpr_history.h"

#include <algorithm>

namespace l1d::golden {

uint32_t rpr_signature(uint32_t hpc, uint32_t relative_age) {
  const uint32_t bucket = std::min<uint32_t>(relative_age / 4, 15);
  return ((hpc & 0x1Fu) << 4) | bucket;
}

void RprHistoryTable::hit_update(uint32_t signature, uint32_t distance) {
  Entry& e = table_.at(signature);
  e.sum_rd = static_cast<uint16_t>(std::min<uint32_t>(kSumRdMax, e.sum_rd + std::min(distance, kSumRdMax)));
  e.total_rc = static_cast<uint8_t>(std::min<uint32_t>(kTotalRcMax, e.total_rc + 1u));
  close_window_if_saturated(e);
}

void RprHistoryTable::miss_update(uint32_t signature) {
  Entry& e = table_.at(signature);
  e.fetch = static_cast<uint8_t>(std::min<uint32_t>(kFetchMax, e.fetch + 1u));
  close_window_if_saturated(e);
}

void RprHistoryTable::close_window_if_saturated(Entry& e) {
  if (e.sum_rd < kSumRdMax && e.total_rc < kTotalRcMax && e.fetch < kFetchMax) return;
  // Equations 6.1 and 6.2, clamped to the 4-bit fields; an empty denominator means "far" / "many"
  // (no hits seen: unknown distance, kept far; hits without fetches: reused a lot).
  e.avg_rd = static_cast<uint8_t>(e.total_rc ? std::min<uint32_t>(kAverageMax, e.sum_rd / e.total_rc) : kAverageMax);
  e.avg_rc = static_cast<uint8_t>(e.fetch ? std::min<uint32_t>(kAverageMax, e.total_rc / e.fetch) : kAverageMax);
  e.predicted = true;
  e.sum_rd = 0;
  e.total_rc = 0;
  e.fetch = 0;
}

std::optional<RprPrediction> RprHistoryTable::predict(uint32_t signature) const {
  const Entry& e = table_.at(signature);
  if (!e.predicted) return std::nullopt;
  return RprPrediction{e.avg_rd, e.avg_rc};
}

}  // namespace l1d::golden
