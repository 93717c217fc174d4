// Which l1d_top the generator builds (dcgen --variant; docs/generator.md "Variants").
//
// full (the default): the cache of the configuration, every policy unit selected at run time by
// the cfg_*_i inputs. conventional: the staged l1d_top as a conventional L1 of the same geometry,
// for the policy-overhead row of docs/synthesis.md: the same pipe, SRAM layer, MSHR file, miss
// queue, fill unit and counters, but a tag row of one tag per way (common-tag and line-tag, no
// chunk-tags, no hpc, no awid) and the policy selection tied to the baseline inside the module
// (no bypass, fixed 128 B granularity, no BTO, no opportunistic caching, no keep-large), so that
// synthesis removes the policy logic those constants leave unreachable.
#pragma once

#include <string_view>

#include "common/config.h"

namespace gen::blocks {

enum class TopVariant { kFull, kConventional };

// "full" or "conventional"; anything else is a one-line l1d::ConfigError naming --variant.
TopVariant parse_top_variant(std::string_view name);

// Throws l1d::ConfigError (one line: the field, its value, what is allowed) when `cfg` cannot be
// built as `v`: conventional needs l1.pipeline staged, the LRU replacement and the baseline policy.
void check_top_variant(TopVariant v, const l1d::Config& cfg);

// The variant l1d_top's generator builds: set once by dcgen before it emits (default full).
void set_top_variant(TopVariant v);
TopVariant top_variant();

}  // namespace gen::blocks
