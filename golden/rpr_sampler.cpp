// RPR sampler: access counters and last-touch stamps of the sampled sets.
#include "golden/rpr_sampler.h"

#include <bit>
#include <stdexcept>
#include <string>

namespace l1d::golden {

RprSampler::RprSampler(uint32_t sets, uint32_t ways, uint32_t sample_every)
    : sets_(sets), ways_(ways), every_(sample_every) {
  if (!std::has_single_bit(sample_every) || sample_every > 64 || sample_every > sets)
    throw std::invalid_argument("rpr: sample_every must be a power of two in 1..64 and at most the " +
                                std::to_string(sets) + " sets, got " + std::to_string(sample_every));
  if (ways == 0) throw std::invalid_argument("rpr: ways must be at least 1");
  const uint32_t sampled_sets = (sets + every_ - 1) / every_;
  counter_.assign(sampled_sets, 0);
  last_.assign(static_cast<size_t>(sampled_sets) * ways, 0);
  sig_.assign(static_cast<size_t>(sampled_sets) * ways, 0);
}

uint32_t RprSampler::slot(uint32_t set) const {
  if (!sampled(set)) throw std::out_of_range("rpr sampler: set " + std::to_string(set) + " is not sampled");
  return set / every_;
}

uint32_t RprSampler::entry(uint32_t set, uint32_t way) const {
  if (way >= ways_) throw std::out_of_range("rpr sampler: way " + std::to_string(way) + " out of range");
  return slot(set) * ways_ + way;
}

void RprSampler::on_access(uint32_t set) {
  if (sampled(set)) ++counter_[slot(set)];  // wraps at 2^16 like the 2-byte hardware counter
}

std::optional<RprSampler::Hit> RprSampler::on_hit(uint32_t set, uint32_t way) {
  if (!sampled(set)) return std::nullopt;
  const uint32_t e = entry(set, way);
  const uint16_t now = counter_[slot(set)];
  const Hit h{sig_[e], static_cast<uint16_t>(now - last_[e])};
  last_[e] = now;
  return h;
}

void RprSampler::on_fill(uint32_t set, uint32_t way, uint32_t signature) {
  if (!sampled(set)) return;
  const uint32_t e = entry(set, way);
  sig_[e] = static_cast<uint16_t>(signature);
  last_[e] = counter_[slot(set)];
}

uint16_t RprSampler::counter(uint32_t set) const { return counter_[slot(set)]; }
uint16_t RprSampler::last_touch(uint32_t set, uint32_t way) const { return last_[entry(set, way)]; }
uint32_t RprSampler::signature(uint32_t set, uint32_t way) const { return sig_[entry(set, way)]; }

}  // namespace l1d::golden
