// AGCB PC-indexed bypass prediction table (SPEC section 5) and the L2 bypass-bit protocol.
#pragma once

#include <cstdint>
#include <vector>

#include "common/config.h"

namespace l1d::golden {

class AgcbPredictor {
 public:
  // All counters start at cfg.reset_value. Throws std::invalid_argument unless entries and
  // instruction_bytes are powers of two, counter_bits is 1..8 and reset_value fits in it.
  // Index arguments >= entries() throw std::out_of_range.
  AgcbPredictor(const AgcbConfig& cfg, uint32_t instruction_bytes);

  // Hashed PC: PC with the instruction-size bits dropped, low log2(entries) bits.
  uint32_t hash(uint64_t pc) const;
  // Read miss: predict bypass when counter[hpc] >= threshold.
  bool predict_bypass(uint32_t hpc) const;
  // Read hit on a line whose stored hashed PC is line_hpc: saturating decrement.
  void on_read_hit(uint32_t line_hpc);
  // A fill evicted a valid victim whose stored hashed PC is victim_hpc: saturating increment.
  void on_victim(uint32_t victim_hpc);

  uint32_t counter(uint32_t index) const { return table_.at(index); }
  uint32_t entries() const { return static_cast<uint32_t>(table_.size()); }
  void reset();

 private:
  AgcbConfig cfg_;
  uint32_t pc_shift_;
  uint32_t max_;
  std::vector<uint8_t> table_;
};

// The L2 side of the protocol, for one L2 line's bypass bit. Called for a read that carries
// AGCB's bypass prediction. Returns true when the L1 must cache the block after all (the bit
// was set: the block was bypassed before and is being reused), clearing the bit; otherwise
// sets the bit and returns false (the block bypasses L1).
bool l2_bypass_override(bool& l2_bypass_bit);

}  // namespace l1d::golden
