// RPR's reuse-history table (SPEC 9, dissertation 6.2.1 and 6.3): per signature, what the
// sampler saw of the blocks that share it, summarised as an average reuse distance and count.
//
// Decisions (docs/l1d-microarchitecture.md section 12): the signature is 9 bits, the low 5 bits
// of the AGCB hashed PC above a 4-bit bucket of the warp's relative age, and indexes the
// 512-entry table directly, so the paper's associative signature table is not needed: every
// signature has its entry. "No prediction" is an entry whose averages were never computed.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace l1d::golden {

inline constexpr uint32_t kRprSignatureBits = 9;
inline constexpr uint32_t kRprHistoryEntries = 1u << kRprSignatureBits;  // 512 (SPEC 9)

// { hpc[4:0], min(relative_age / 4, 15) }: the PC groups the blocks, the age bucket separates
// the same instruction in warps of different scheduling priority (the chapter's point 1).
uint32_t rpr_signature(uint32_t hpc, uint32_t relative_age);

struct RprPrediction {
  uint8_t rd = 0;  // average reuse distance, 0..15
  uint8_t rc = 0;  // average reuse count, 0..15
};

class RprHistoryTable {
 public:
  // Field widths of SPEC 9: 11-bit sum of reuse distances, 8-bit total reuse count, 5-bit fetch
  // count, 4-bit averages.
  static constexpr uint32_t kSumRdMax = 2047;
  static constexpr uint32_t kTotalRcMax = 255;
  static constexpr uint32_t kFetchMax = 31;
  static constexpr uint32_t kAverageMax = 15;

  struct Entry {
    uint16_t sum_rd = 0;
    uint8_t total_rc = 0;
    uint8_t fetch = 0;
    uint8_t avg_rd = 0;
    uint8_t avg_rc = 0;
    bool predicted = false;  // the averages have been computed at least once
  };

  // A sampled hit whose previous touch of the block was `distance` set accesses ago:
  // sum_rd += distance and total_rc += 1, both saturating.
  void hit_update(uint32_t signature, uint32_t distance);
  // A sampled miss: fetch += 1, saturating.
  void miss_update(uint32_t signature);
  // The averages, once the entry has them; nullopt = no prediction for this signature yet.
  std::optional<RprPrediction> predict(uint32_t signature) const;

  // Signatures >= kRprHistoryEntries throw std::out_of_range.
  const Entry& entry(uint32_t signature) const { return table_.at(signature); }

 private:
  // When a counter has saturated its window is full: take the averages and start a new window.
  static void close_window_if_saturated(Entry& e);

  std::array<Entry, kRprHistoryEntries> table_{};
};

}  // namespace l1d::golden
