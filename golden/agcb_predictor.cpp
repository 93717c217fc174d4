// AGCB PC-indexed bypass predictor (SPEC section 5).
#include "golden/agcb_predictor.h"

#include <bit>
#include <stdexcept>
#include <string>

namespace l1d::golden {

namespace {

// The table is stored as uint8_t and indexed with a mask, so these shapes are the only ones
// the model (and the RTL) can represent. The config loader should reject the rest first;
// checking here again keeps the golden model safe when it is built by hand in tests.
void validate(const AgcbConfig& cfg, uint32_t instruction_bytes) {
  if (!std::has_single_bit(cfg.entries)) {
    throw std::invalid_argument("agcb.entries must be a power of two, got " +
                                std::to_string(cfg.entries));
  }
  if (cfg.counter_bits < 1 || cfg.counter_bits > 8) {
    throw std::invalid_argument("agcb.counter_bits must be 1..8, got " +
                                std::to_string(cfg.counter_bits));
  }
  const uint32_t max = (1u << cfg.counter_bits) - 1;
  if (cfg.reset_value > max) {
    throw std::invalid_argument("agcb.reset_value " + std::to_string(cfg.reset_value) +
                                " does not fit in " + std::to_string(cfg.counter_bits) + " bits");
  }
  if (!std::has_single_bit(instruction_bytes)) {
    throw std::invalid_argument("instruction_bytes must be a power of two, got " +
                                std::to_string(instruction_bytes));
  }
}

}  // namespace

AgcbPredictor::AgcbPredictor(const AgcbConfig& cfg, uint32_t instruction_bytes)
    : cfg_(cfg),
      pc_shift_(0),
      max_(0) {
  validate(cfg, instruction_bytes);
  // Instructions are instruction_bytes apart, so the low log2(instruction_bytes) PC bits are
  // always zero; dropping them lets consecutive instructions use consecutive entries.
  pc_shift_ = static_cast<uint32_t>(std::countr_zero(instruction_bytes));
  max_ = (1u << cfg.counter_bits) - 1;
  table_.assign(cfg.entries, static_cast<uint8_t>(cfg.reset_value));
}

uint32_t AgcbPredictor::hash(uint64_t pc) const {
  return static_cast<uint32_t>((pc >> pc_shift_) & (cfg_.entries - 1));
}

bool AgcbPredictor::predict_bypass(uint32_t hpc) const { return table_.at(hpc) >= cfg_.threshold; }

void AgcbPredictor::on_read_hit(uint32_t line_hpc) {
  // A hit proves the previous accessor's block was reused: make its PC less bypass-prone.
  uint8_t& c = table_.at(line_hpc);
  if (c > 0) --c;
}

void AgcbPredictor::on_victim(uint32_t victim_hpc) {
  // An eviction is charged to the PC that last touched the victim (SPEC decision), not to
  // the PC whose fill caused it: the victim's PC is the one that brought in dead data.
  uint8_t& c = table_.at(victim_hpc);
  if (c < max_) ++c;
}

void AgcbPredictor::reset() { table_.assign(table_.size(), static_cast<uint8_t>(cfg_.reset_value)); }

bool l2_bypass_override(bool& l2_bypass_bit) {
  // A set bit means this block already bypassed L1 once and is being requested again, i.e.
  // it is reused: override the prediction and cache it. Clearing the bit makes the next
  // bypass prediction for this block need fresh evidence of reuse.
  if (l2_bypass_bit) {
    l2_bypass_bit = false;
    return true;
  }
  l2_bypass_bit = true;
  return false;
}

}  // namespace l1d::golden
