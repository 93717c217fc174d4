// l1d_mshr's module description and configuration check (gen/blocks/l1d_mshr_doc.cpp).
#pragma once

#include "common/config.h"
#include "gen/ir.h"

namespace gen::blocks {

// Throws l1d::ConfigError for a shape the golden L1 refuses (entries, merges, address bits, AGCB).
void mshr_validate(const l1d::Config& cfg);
// The module description of l1d_mshr (its header comment in the emitted SystemVerilog).
void mshr_describe(Module& m);

}  // namespace gen::blocks
