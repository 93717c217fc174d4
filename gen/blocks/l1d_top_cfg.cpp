#include "gen/blocks/l1d_top_cfg.h"

namespace gen::blocks {

namespace {

// l1d_top: cfg_gran_i 0 fixed 128 B, 1 static 64 B, 2 static 32 B, 3 dynamic.
uint32_t gran_code(l1d::GranularityKind k) {
  switch (k) {
    case l1d::GranularityKind::kFixed128: return 0;
    case l1d::GranularityKind::kStatic64: return 1;
    case l1d::GranularityKind::kStatic32: return 2;
    case l1d::GranularityKind::kDynamic: return 3;
  }
  return 0;
}

}  // namespace

std::vector<CfgInput> l1d_top_cfg_inputs(const l1d::Config& cfg) {
  const l1d::PolicyConfig& p = cfg.policy;
  // cfg_bypass_i is BypassKind's order: 0 none, 1 AGCB, 2 two-level, 3 PCAL, 4 AgeLRU; cfg_write_i
  // WritePolicy's: 0 write-back, 1 write-through, 2 write-evict; cfg_merge_i MshrMerge's: 0 stall,
  // 1 block, 2 sector.
  return {{"cfg_bypass_i", static_cast<uint32_t>(p.bypass)},
          {"cfg_gran_i", gran_code(p.granularity)},
          {"cfg_bto_i", p.bto ? 1u : 0u},
          {"cfg_opportunistic_i", p.pcal.opportunistic ? 1u : 0u},
          {"cfg_keep_large_i", p.dycache.keep_large_pieces ? 1u : 0u},
          {"cfg_line_fetch_i", cfg.l1.bypass_fetch == l1d::BypassFetch::kLine ? 1u : 0u},
          {"cfg_write_i", static_cast<uint32_t>(cfg.l1.write_policy)},
          {"cfg_kernel_end_inv_i", cfg.l1.kernel_end == l1d::KernelEndAction::kInvalidate ? 1u : 0u},
          {"cfg_alloc_i", cfg.l1.allocation == l1d::AllocationPolicy::kOnMiss ? 1u : 0u},
          {"cfg_merge_i", static_cast<uint32_t>(cfg.l1.mshr_merge)},
          {"cfg_sector_i", cfg.l1.sector ? 1u : 0u}};
}

std::string format_cfg_inputs(const std::vector<CfgInput>& inputs) {
  std::string out;
  for (const CfgInput& in : inputs) {
    if (!out.empty()) out += ',';
    out += in.port + '=' + std::to_string(in.value);
  }
  return out;
}

}  // namespace gen::blocks
