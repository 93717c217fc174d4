// RPR's reuse sampler (SPEC 9, dissertation 6.2.2 and 6.3): on the sampled sets, a 16-bit access
// counter per set and, per way, the signature of the block there and the counter value at its
// last touch, from which a hit's reuse distance follows.
//
// Decision (docs/l1d-microarchitecture.md section 12): the sampler mirrors the L1's own ways in
// the sampled sets. The paper's shadow tag array duplicates the tag array of those sets, so it
// holds the same blocks; keeping no second copy of the tags, a hit on (set, way) of the L1 is the
// sampler's hit on the same entry. Each SM's L1 has its own sampler (the paper samples on one SM
// for all; we keep each L1 self-contained).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace l1d::golden {

class RprSampler {
 public:
  struct Hit {
    uint32_t signature = 0;  // stored when the block was filled
    uint32_t distance = 0;   // set accesses since the block's last touch (counter difference, mod 2^16)
  };

  // Sampled sets: set % sample_every == 0. Throws std::invalid_argument unless sample_every is a
  // power of two in 1..64 and at most sets, and ways is at least 1.
  RprSampler(uint32_t sets, uint32_t ways, uint32_t sample_every);

  bool sampled(uint32_t set) const { return (set & (every_ - 1)) == 0 && set < sets_; }
  // A demand access to set: its counter advances (sampled sets only).
  void on_access(uint32_t set);
  // A hit on (set, way): in a sampled set, the block's signature and reuse distance, and the
  // block's last touch becomes now; nullopt elsewhere.
  std::optional<Hit> on_hit(uint32_t set, uint32_t way);
  // A block with `signature` was filled into (set, way): in a sampled set it is recorded,
  // touched now.
  void on_fill(uint32_t set, uint32_t way, uint32_t signature);

  // Introspection (tests): only for sampled sets (std::out_of_range otherwise).
  uint16_t counter(uint32_t set) const;
  uint16_t last_touch(uint32_t set, uint32_t way) const;
  uint32_t signature(uint32_t set, uint32_t way) const;
  uint32_t sample_every() const { return every_; }

 private:
  uint32_t slot(uint32_t set) const;  // index of a sampled set; throws for the others
  uint32_t entry(uint32_t set, uint32_t way) const;

  uint32_t sets_, ways_, every_;
  std::vector<uint16_t> counter_;  // per sampled set
  std::vector<uint16_t> last_;     // per (sampled set, way)
  std::vector<uint16_t> sig_;      // per (sampled set, way): 9-bit signature
};

}  // namespace l1d::golden
