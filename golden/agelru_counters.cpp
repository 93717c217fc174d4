// AgeLRU Oldest-/Youngest-AWID counters (SPEC section 8). All arithmetic is mod 256, which
// uint8_t gives us for free; the casts only silence -Wconversion on the promoted int.
#include "golden/agelru_counters.h"

namespace l1d::golden {

void AgeLruCounters::reset() { set(/*oldest=*/0, /*youngest=*/255, /*empty=*/true); }

// Precondition (not checked, as in hardware): fewer than 256 warps are live, so the new AWID
// never collides with the oldest one. An SM holds at most 48 warps.
uint8_t AgeLruCounters::launch() {
  youngest_ = static_cast<uint8_t>(youngest_ + 1);
  if (empty_) {
    // The first live warp is both the oldest and the youngest.
    oldest_ = youngest_;
    empty_ = false;
  }
  return youngest_;
}

void AgeLruCounters::exit(uint8_t awid, std::optional<uint8_t> next_oldest) {
  // Only the oldest warp moves Oldest; a younger warp that exits early stays "active" until
  // the range passes it (the dissertation accepts this imprecision, ch. 5).
  if (empty_ || awid != oldest_) return;
  if (next_oldest) {
    oldest_ = *next_oldest;
    return;
  }
  // Last warp gone. Oldest = Youngest + 1 keeps the pair consistent with the next launch,
  // which sets Oldest to the new AWID anyway.
  empty_ = true;
  oldest_ = static_cast<uint8_t>(youngest_ + 1);
}

bool AgeLruCounters::active(uint8_t id) const {
  if (empty_) return false;
  if (oldest_ <= youngest_) return oldest_ <= id && id <= youngest_;
  return id >= oldest_ || id <= youngest_;  // the range wraps past 255
}

}  // namespace l1d::golden
