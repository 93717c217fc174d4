// Formal environment of the staged l1d_top as a whole (issue 25; docs/rtl-verification.md, "The
// staged l1d_top as a whole"): dcgen's RTL of tb/configs/gate_small_staged.yaml (1 KB, 4 ways x
// 2 sets, 4 MSHRs of 2 requests, a 6-entry miss queue, every datapath width gtx480's), checked by
// scripts/formal_staged_top.sh with a bounded run of every assertion the RTL carries (its blocks'
// and the staged pipe's: they are read with -formal), from reset in the first cycle.
//
// Every input is free in every cycle, but for what the L1's contract (docs/l1d-microarchitecture.md,
// section 1) and this run fix:
// - the configuration is the baseline policy's (every cfg_*_i 0: no bypass, fixed 128 B, write-back;
//   gate_small_staged's policy), held from reset on;
// - a core request is a legal CoreReq (common/types.h): size 32, 64 or 128 B, its address aligned
//   to it;
// - no warp launches or exits and AgeLRU is off (the configuration's replacement is LRU);
// - the memory answers only pending MSHR entries: l1d_mshr's MshrRespPending_A and l1d_top's
//   TopMemRespMshrInRange_A, the two input contracts the RTL asserts about the response, are made
//   assumptions by the script (chformal -assert2assume), with TopCfgStable_A.
// Everything else is free: request ids, warps, PCs, masks, data, core valid in any cycle, memory
// ready and responses (to pending entries) in any cycle, kernel starts and ends, occupancy.
// OnMiss 1 (scripts/formal_staged_top.sh FV_TOP_CONFIG=onmiss, on the RTL of
// formal/fv_top_staged_onmiss.yaml, generated for allocation on_miss): cfg_alloc_i 1 (a load miss
// reserves its place, contract 13.1, 16.5) and cfg_write_i 2 (write-evict: on_miss keeps no dirty
// state), the rest as above.
`default_nettype none

module l1d_top_staged_fv #(
  parameter bit OnMiss = 1'b0
) (
  input logic          clk_i,
  input logic          core_req_valid_i,
  input logic [31:0]   core_req_id_i,
  input logic [7:0]    core_req_warp_i,
  input logic [7:0]    core_req_awid_i,
  input logic          core_req_token_i,
  input logic [63:0]   core_req_pc_i,
  input logic          core_req_store_i,
  input logic [31:0]   core_req_addr_i,
  input logic [1:0]    core_req_size_i,
  input logic [127:0]  core_req_mask_i,
  input logic [1023:0] core_req_data_i,
  input logic          mem_req_ready_i,
  input logic          mem_resp_valid_i,
  input logic [7:0]    mem_resp_mshr_i,
  input logic [1023:0] mem_resp_data_i,
  input logic          mem_resp_l2_bit_i,
  input logic          kernel_start_i,
  input logic          kernel_end_i,
  input logic [5:0]    occupancy_i
);
`ifdef FORMAL
  // Reset: rst_ni low in the first cycle only.
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init_q;

  // A legal request: 32, 64 or 128 B, aligned to its size.
  always_comb begin
    if (core_req_valid_i) begin
      assume (core_req_size_i != 2'd3);
      assume (core_req_addr_i[4:0] == '0);
      assume (core_req_size_i == 2'd0 || core_req_addr_i[5] == 1'b0);
      assume (core_req_size_i != 2'd2 || core_req_addr_i[6] == 1'b0);
    end
  end

  l1d_top u_dut (
    .clk_i,
    .rst_ni,
    .cfg_bypass_i(3'd0),
    .cfg_gran_i(2'd0),
    .cfg_bto_i(1'b0),
    .cfg_opportunistic_i(1'b0),
    .cfg_keep_large_i(1'b0),
    .cfg_line_fetch_i(1'b0),
    .cfg_write_i(OnMiss ? 2'd2 : 2'd0),
    .cfg_kernel_end_inv_i(1'b0),
    .cfg_alloc_i(OnMiss),
    .cfg_merge_i(2'd0),
    .cfg_sector_i(1'b0),
    .core_req_valid_i,
    .core_req_ready_o(),
    .core_req_id_i,
    .core_req_warp_i,
    .core_req_awid_i,
    .core_req_token_i,
    .core_req_pc_i,
    .core_req_store_i,
    .core_req_addr_i,
    .core_req_size_i,
    .core_req_mask_i,
    .core_req_data_i,
    .core_resp_valid_o(),
    .core_resp_id_o(),
    .core_resp_warp_o(),
    .core_resp_outcome_o(),
    .core_resp_data_o(),
    .mem_req_valid_o(),
    .mem_req_ready_i,
    .mem_req_line_o(),
    .mem_req_store_o(),
    .mem_req_sectors_o(),
    .mem_req_mask_o(),
    .mem_req_data_o(),
    .mem_req_bypass_o(),
    .mem_req_agcb_o(),
    .mem_req_mshr_o(),
    .mem_resp_valid_i,
    .mem_resp_mshr_i,
    .mem_resp_data_i,
    .mem_resp_l2_bit_i,
    .warp_launch_i(1'b0),
    .warp_exit_i(1'b0),
    .exit_awid_i(8'd0),
    .exit_has_next_i(1'b0),
    .exit_next_i(8'd0),
    .kernel_start_i,
    .kernel_end_i,
    .occupancy_i,
    .agelru_enable_i(1'b0)
  );
`endif
endmodule

`default_nettype wire
