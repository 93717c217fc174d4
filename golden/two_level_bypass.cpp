// Two-level bypassing unit (SPEC section 6). Cycle semantics are documented in the header.
#include "golden/two_level_bypass.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace l1d::golden {

namespace {

// Thresholds are fractions in [0, 1]; the RTL holds them as Q8 constants, so the model must
// round them the same way or the two disagree on boundary cases such as a 3/10 miss rate.
uint32_t to_q8(double th, const char* name) {
  if (!(th >= 0.0 && th <= 1.0)) {  // also rejects NaN
    throw std::invalid_argument(std::string("two_level.") + name + " must be in [0, 1], got " +
                                std::to_string(th));
  }
  return static_cast<uint32_t>(std::lround(th * 256.0));
}

void saturating_increment(uint32_t& counter) {
  if (counter < TwoLevelBypassUnit::kCounterMax) ++counter;
}

}  // namespace

TwoLevelBypassUnit::TwoLevelBypassUnit(const TwoLevelConfig& cfg, uint32_t max_warps)
    : cfg_(cfg),
      max_warps_(max_warps),
      th_low_q8_(to_q8(cfg.th_low, "th_low")),
      th_high_q8_(to_q8(cfg.th_high, "th_high")),
      th_warp_q8_(to_q8(cfg.th_warp, "th_warp")) {
  // A zero-length window or period would never close (cycle_ reaches 1 before it is
  // compared), and zero warps makes the occupancy threshold meaningless.
  if (cfg.window_cycles == 0) throw std::invalid_argument("two_level.window_cycles must be > 0");
  if (cfg.bypass_period_cycles == 0) {
    throw std::invalid_argument("two_level.bypass_period_cycles must be > 0");
  }
  if (max_warps == 0) throw std::invalid_argument("two-level bypass: max_warps must be > 0");
  start_window();
}

void TwoLevelBypassUnit::kernel_start() { start_window(); }

void TwoLevelBypassUnit::start_window() {
  mode_ = Mode::kCache;
  cycle_ = 0;
  accesses_ = 0;
  misses_ = 0;
  occupancy_sum_ = 0;
}

void TwoLevelBypassUnit::record_access(bool miss) {
  // In B mode loads do not use the L1, so there is no miss rate to measure.
  if (mode_ == Mode::kBypass) return;
  saturating_increment(accesses_);
  if (miss) saturating_increment(misses_);
}

void TwoLevelBypassUnit::tick_edge(uint32_t occupancy) {
  if (occupancy > max_warps_) {
    throw std::invalid_argument("two-level bypass: occupancy " + std::to_string(occupancy) +
                                " exceeds max_warps " + std::to_string(max_warps_));
  }
  ++cycle_;
  if (mode_ == Mode::kBypass) {
    if (cycle_ == cfg_.bypass_period_cycles) start_window();
    return;
  }
  occupancy_sum_ += occupancy;
  if (cycle_ < cfg_.window_cycles) return;

  const Mode next = decide();
  if (next == Mode::kCache) {
    ++decisions_cache_;
    start_window();
    return;
  }
  ++decisions_bypass_;
  // Clear the monitors now rather than at the end of the period: they carry no meaning in
  // B mode, and one clear at every window end is what the RTL does.
  start_window();
  mode_ = Mode::kBypass;
}

// All comparisons are cross-multiplied so no division is needed (as in the RTL):
//   misses / accesses < th_low          <=>  misses * 256 < th_low_q8 * accesses
//   avg occupancy < th_warp * max_warps <=>  occ_sum * 256 < th_warp_q8 * max_warps * window
TwoLevelBypassUnit::Mode TwoLevelBypassUnit::decide() const {
  if (accesses_ == 0) return Mode::kCache;  // nothing measured: keep the default (cache on)
  const uint64_t miss_q8 = uint64_t{misses_} * 256;
  if (miss_q8 < uint64_t{th_low_q8_} * accesses_) return Mode::kCache;
  if (miss_q8 > uint64_t{th_high_q8_} * accesses_) return Mode::kBypass;
  // Ambiguous miss rate: caching pays off only when enough warps hide its latency.
  const uint64_t occ_q8 = occupancy_sum_ * 256;
  const uint64_t occ_limit = uint64_t{th_warp_q8_} * max_warps_ * cfg_.window_cycles;
  return occ_q8 < occ_limit ? Mode::kBypass : Mode::kCache;
}

}  // namespace l1d::golden
