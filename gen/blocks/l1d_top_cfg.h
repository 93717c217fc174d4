// The values of l1d_top's configuration inputs (cfg_*_i) for a policy and L1 options: what the verilated L1
// drives at reset (sim_cpp/verilated/verilated_l1.cpp) and what synthesis ties them to for one
// policy's area (synth/policies.sh via `dcgen --cfg-inputs`). The encodings are l1d_top's
// (gen/blocks/l1d_top.cpp, its module description).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/config.h"

namespace gen::blocks {

struct CfgInput {
  std::string port;
  uint32_t value;
};

// cfg_bypass_i, cfg_gran_i, cfg_bto_i, cfg_opportunistic_i, cfg_keep_large_i (the policy's),
// cfg_line_fetch_i, cfg_write_i, cfg_kernel_end_inv_i, cfg_alloc_i, cfg_merge_i, cfg_sector_i (the
// L1's), in port order.
std::vector<CfgInput> l1d_top_cfg_inputs(const l1d::Config& cfg);

// "port=value,port=value,..." (synth/synth.sh --baseline-const and --variant syntax).
std::string format_cfg_inputs(const std::vector<CfgInput>& inputs);

}  // namespace gen::blocks
