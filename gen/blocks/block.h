// Block generators: one RTL module per block, built from a configuration.
//
// Each block is one short file gen/blocks/<block>.cpp that defines an `RtlBlock` and a function
// returning it (declared below), and one line in the registry table (gen/blocks/registry.cpp).
// `dcgen` emits every registered block to <out>/<module>.sv (docs/generator.md).
//
//   class AddrDecode final : public RtlBlock {
//    public:
//     std::string_view name() const override { return "l1d_addr_decode"; }
//     std::string_view summary() const override { return "address split (SPEC 2)"; }
//     Module module(const l1d::Config& cfg) const override { ... }
//   };
//   const RtlBlock& addr_decode_block() { static const AddrDecode b; return b; }
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "common/config.h"
#include "gen/ir.h"

namespace gen::blocks {

class RtlBlock {
 public:
  virtual ~RtlBlock() = default;

  // The module name, which is also the file stem: <out>/<name>.sv, tb/<name>_tb.cpp.
  virtual std::string_view name() const = 0;
  // One line for `dcgen --list`.
  virtual std::string_view summary() const = 0;
  // The module for this configuration: its parameters default to the configuration's values.
  // A configuration the block cannot be built for raises l1d::ConfigError.
  virtual Module module(const l1d::Config& cfg) const = 0;
  // The package the module refers to, if it has one (written before the modules).
  virtual std::optional<Package> package(const l1d::Config& cfg) const {
    (void)cfg;
    return std::nullopt;
  }
};

// The sets the RTL's arrays are built for (contract 15): l1.size_bytes' sets, or with l1.carveout
// adaptive the largest kernel L1's (the one the smallest shared-memory option leaves). The
// common-tag stays sized for l1.size_bytes' sets (l1d::AddressSplit(cfg.l1)), the fewest.
inline uint32_t rtl_array_sets(const l1d::Config& cfg) { return l1d::largest_l1_sets(cfg.l1); }
// Whether the active set count is a configuration input (l1d_top's cfg_set_bits_i, contract 15):
// an adaptive carveout whose largest L1 has more sets than l1.size_bytes.
inline bool rtl_adaptive_sets(const l1d::Config& cfg) { return rtl_array_sets(cfg) != cfg.l1.sets(); }
// The sets of the staged pipe's own blocks (l1d_tag_read, l1d_data_stage, l1d_flush_walker; contract
// 16.5, "Carveout adaptive on the staged pipe"): rtl_array_sets for a staged configuration. dcgen emits
// them for a single-cycle configuration too, which does not instantiate them: those copies keep
// l1.size_bytes' sets, as before the staged pipe ran the adaptive carveout.
inline uint32_t rtl_staged_array_sets(const l1d::Config& cfg) {
  return cfg.l1.pipeline == l1d::L1Pipeline::kStaged ? rtl_array_sets(cfg) : cfg.l1.sets();
}
// Whether l1d_top keeps a `written` bit per slot (l1.write_allocate lazy_fetch_on_read, contract 14
// "Write allocation"): only a configuration that allocates on writes, so the RTL of every other one
// (gtx480's rtl/ among them) has no such state. The single-cycle pipe keeps it in l1d_tag_array, the
// staged pipe in l1d_line_state's flip-flops (contract 16.5, "Write allocation").
inline bool rtl_written_state(const l1d::Config& cfg) { return cfg.l1.write_allocate != l1d::WriteAllocate::kNone; }
// Whether the staged pipe answers the LDST unit's store query (l1.bypass_path direct, contract 13.6,
// 16.5 "The direct path"): l1d_issue and l1d_miss_queue then search their entries for a key
// (find_i / found_o), and l1d_top has store_query_line_i / store_pending_o and two_level_bypass_o.
// Only such a configuration: every other staged RTL stays as it was, byte for byte.
inline bool rtl_staged_direct(const l1d::Config& cfg) {
  return cfg.l1.bypass_path == l1d::BypassPath::kDirect && cfg.l1.pipeline == l1d::L1Pipeline::kStaged;
}

// The staged pipe's tag/state row in its full layout (l1d_tag_read's RowBits, contract 16.5; dcgen
// --variant conventional's is narrower): per way the common-tag, four chunk-tags, the dirty byte
// masks (4 x 32 bits), hpc and awid (8 bits).
unsigned rtl_staged_row_bits(const l1d::Config& cfg);

// Every block, in emission order (the table in gen/blocks/registry.cpp).
const std::vector<const RtlBlock*>& all_blocks();
// The block whose module is `name`, or nullptr.
const RtlBlock* find_block(std::string_view name);

// The blocks, one per gen/blocks/<block>.cpp.
const RtlBlock& addr_decode_block();  // l1d_addr_decode.cpp
const RtlBlock& tag_mask_block();     // l1d_tag_mask.cpp
const RtlBlock& chunk_match_block();  // l1d_chunk_match.cpp
const RtlBlock& tag_compare_block();    // l1d_tag_compare.cpp (the chunk match's compares: stage M1)
const RtlBlock& match_request_block();  // l1d_match_request.cpp (the chunk match's request decode: stage M1)
const RtlBlock& match_combine_block();  // l1d_match_combine.cpp (the chunk match's decision: stage M2)
const RtlBlock& match_fix_block();      // l1d_match_fix.cpp (M2's correction of M1's compares, 16.5)
const RtlBlock& agcb_table_block();   // l1d_agcb_table.cpp
const RtlBlock& two_level_block();    // l1d_two_level.cpp
const RtlBlock& gran_selector_block();  // l1d_gran_selector.cpp
const RtlBlock& agelru_ages_block();    // l1d_agelru_ages.cpp
const RtlBlock& top_block();            // l1d_top.cpp (composes the others)
const RtlBlock& mshr_block();           // l1d_mshr.cpp
const RtlBlock& ram_1r1w_block();       // l1d_ram_1r1w.cpp (the MSHR's buffers)
const RtlBlock& repl_state_block();     // l1d_repl_state.cpp
const RtlBlock& pcal_tokens_block();    // l1d_pcal_tokens.cpp
const RtlBlock& pcal_decode_block();    // l1d_pcal_decode.cpp
const RtlBlock& tag_array_block();      // l1d_tag_array.cpp
const RtlBlock& line_state_block();     // l1d_tag_array.cpp (the staged L1's flop fields: valid, rank, priority)
const RtlBlock& data_sram_block();      // l1d_data_sram.cpp
const RtlBlock& perf_counters_block();  // l1d_perf_counters.cpp (staged L1, contract 16)
const RtlBlock& issue_block();          // l1d_issue.cpp (staged L1 stage A, contract 16)
const RtlBlock& fill_issue_block();     // l1d_fill_issue.cpp (staged L1 fill FIFO and cursor)
const RtlBlock& fill_place_block();     // l1d_fill_place.cpp (fill placement, section 6)
const RtlBlock& fill_place_m1_block();  // l1d_fill_place_m1.cpp (its stage M1 half)
const RtlBlock& fill_place_m2_block();  // l1d_fill_place_m2.cpp (its stage M2 half)
const RtlBlock& core_match_block();     // l1d_core_match.cpp (a core request's lookup, section 4)
const RtlBlock& core_match_m1_block();  // l1d_core_match_m1.cpp (its stage M1 half)
const RtlBlock& core_match_m2_block();  // l1d_core_match_m2.cpp (its stage M2 half)
const RtlBlock& flush_keep_block();     // l1d_flush_keep.cpp (a flush visit of one line, sections 7, 9)
const RtlBlock& flush_walker_block();   // l1d_flush_walker.cpp (staged L1 flush walk cursor)
const RtlBlock& tag_read_block();       // l1d_tag_read.cpp (staged L1 stage T, after l1d_sram_1r1w)
const RtlBlock& miss_queue_block();     // l1d_miss_queue.cpp (staged L1 miss queue, contract 16.4)
const RtlBlock& data_stage_block();     // l1d_data_stage.cpp (staged L1 stages C and D, after l1d_sram_1r1w)
const RtlBlock& sram_1rw_block();       // l1d_sram_1rw.cpp (SRAM primitive, one port)
const RtlBlock& sram_1r1w_block();      // l1d_sram_1r1w.cpp (SRAM primitive, 1 read + 1 write port)
const RtlBlock& sram_demo_block();      // l1d_sram_demo.cpp (the SRAM layer's test design)

}  // namespace gen::blocks
