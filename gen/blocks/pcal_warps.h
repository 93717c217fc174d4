// The warp count both PCAL blocks (l1d_pcal_tokens, l1d_pcal_decode) are sized by.
#pragma once

#include <cstdint>
#include <string>

#include "common/config.h"

namespace gen::blocks {

// Warp slots of one warp scheduler, the unit PCAL works on (sim_cpp's Sm keeps one
// golden::PcalTokenUnit per scheduler and decodes EBTNum against that scheduler's slots).
// Scheduler s owns the slots w with w % schedulers_per_sm == s, so the first ones own the
// ceiling of warps_per_sm / schedulers_per_sm: the default MaxWarps of both blocks.
inline uint32_t pcal_max_warps(const l1d::Config& cfg) {
  const uint32_t warps = cfg.core.warps_per_sm, scheds = cfg.core.schedulers_per_sm;
  if (warps == 0 || scheds == 0 || scheds > warps) {
    throw l1d::ConfigError("PCAL blocks: core.schedulers_per_sm must be in 1..warps_per_sm, got " +
                           std::to_string(scheds) + " for " + std::to_string(warps) + " warps");
  }
  return (warps + scheds - 1) / scheds;
}

}  // namespace gen::blocks
