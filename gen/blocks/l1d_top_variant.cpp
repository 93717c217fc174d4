// dcgen --variant (gen/blocks/l1d_top_variant.h).
#include "gen/blocks/l1d_top_variant.h"

#include <fmt/format.h>

#include <string>

#include "gen/blocks/l1d_top_cfg.h"

namespace gen::blocks {

namespace {
TopVariant g_variant = TopVariant::kFull;  // dcgen sets it once, before any module is built
}  // namespace

TopVariant parse_top_variant(std::string_view name) {
  if (name == "full") return TopVariant::kFull;
  if (name == "conventional") return TopVariant::kConventional;
  throw l1d::ConfigError(fmt::format("--variant: value '{}' not allowed (full, conventional)", name));
}

void check_top_variant(TopVariant v, const l1d::Config& cfg) {
  if (v == TopVariant::kFull) return;
  if (cfg.l1.pipeline != l1d::L1Pipeline::kStaged) {
    throw l1d::ConfigError(fmt::format("{}: l1.pipeline single_cycle not allowed with --variant conventional "
                                       "(staged only: the conventional L1 is a variant of the staged l1d_top)",
                                       cfg.source));
  }
  if (cfg.policy.replacement != l1d::ReplacementKind::kLru) {
    throw l1d::ConfigError(fmt::format("{}: policy.replacement of policy '{}' not allowed with --variant "
                                       "conventional (lru only)",
                                       cfg.source, cfg.policy.name));
  }
  // The policy's own configuration inputs (the first five of l1d_top_cfg_inputs) must be the
  // baseline's, 0: no bypass, fixed 128 B, no BTO, no opportunistic caching, no keep-large.
  const auto inputs = l1d_top_cfg_inputs(cfg);
  for (size_t i = 0; i < 5; ++i) {
    if (inputs[i].value != 0) {
      throw l1d::ConfigError(fmt::format("{}: policy '{}' sets {}={}, not allowed with --variant conventional "
                                         "(the baseline policy only: every policy input 0)",
                                         cfg.source, cfg.policy.name, inputs[i].port, inputs[i].value));
    }
  }
}

void set_top_variant(TopVariant v) { g_variant = v; }
TopVariant top_variant() { return g_variant; }

}  // namespace gen::blocks
