// DyCache granularity selector (SPEC section 4): samples N L1 requests, then decides.
#pragma once

#include <cstdint>
#include <optional>

#include "common/config.h"

namespace l1d::golden {

class GranularitySelector {
 public:
  GranularitySelector(const DyCacheConfig& cfg, uint32_t initial_granularity = 128);

  // Records one L1 request (size 32/64/128; miss includes partial hits). When the request
  // completes a sample, decides and starts a new sample; returns the new granularity if it
  // changed, nullopt otherwise.
  std::optional<uint32_t> record(uint32_t size, bool miss);

  uint32_t granularity() const { return granularity_; }
  // Sample counters, for tests and for the RTL scoreboard.
  uint32_t sampled() const { return n_; }
  uint32_t misses() const { return misses_; }
  uint32_t n32() const { return n32_; }
  uint32_t n64() const { return n64_; }

 private:
  uint32_t decide() const;

  DyCacheConfig cfg_;
  uint32_t granularity_;
  uint32_t n_ = 0, misses_ = 0, n32_ = 0, n64_ = 0;
};

}  // namespace l1d::golden
