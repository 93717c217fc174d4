// The registry: every block dcgen emits, in emission order. Adding a block is one line here
// (and its declaration in gen/blocks/block.h); there is no static self-registration, so
// nothing depends on link order or whole-archive linking.
#include <algorithm>

#include "gen/blocks/block.h"

namespace gen::blocks {

const std::vector<const RtlBlock*>& all_blocks() {
  static const std::vector<const RtlBlock*> kBlocks = {
      &addr_decode_block(),
      &tag_mask_block(),
      &tag_compare_block(),
      &match_request_block(),  // instantiates l1d_tag_mask
      &match_combine_block(),
      &chunk_match_block(),    // instantiates l1d_tag_compare, l1d_match_request, l1d_match_combine
      &match_fix_block(),
      &core_match_m1_block(),  // instantiates l1d_match_request, l1d_tag_compare
      &core_match_m2_block(),  // instantiates l1d_match_combine
      &core_match_block(),     // instantiates l1d_core_match_m1, l1d_core_match_m2
      &agcb_table_block(),
      &two_level_block(),
      &gran_selector_block(),
      &agelru_ages_block(),
      &fill_place_m1_block(),
      &fill_place_m2_block(),
      &fill_place_block(),  // instantiates l1d_fill_place_m1, l1d_fill_place_m2
      &flush_keep_block(),
      &ram_1r1w_block(),
      &mshr_block(),  // instantiates l1d_ram_1r1w
      &repl_state_block(),
      &pcal_tokens_block(),
      &pcal_decode_block(),
      &tag_array_block(),
      &line_state_block(),
      &data_sram_block(),
      &perf_counters_block(),
      &issue_block(),
      &fill_issue_block(),
      &flush_walker_block(),
      &miss_queue_block(),
      &sram_1rw_block(),
      &sram_1r1w_block(),
      &sram_demo_block(),  // instantiates l1d_sram_1rw
      &tag_read_block(),   // instantiates l1d_sram_1r1w
      &data_stage_block(),  // instantiates l1d_sram_1r1w
      &top_block(),  // last: it instantiates the others
  };
  return kBlocks;
}

const RtlBlock* find_block(std::string_view name) {
  const auto& blocks = all_blocks();
  const auto it = std::find_if(blocks.begin(), blocks.end(), [&](const RtlBlock* b) { return b->name() == name; });
  return it == blocks.end() ? nullptr : *it;
}

}  // namespace gen::blocks
