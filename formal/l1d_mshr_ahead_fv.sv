// Formal harness of the staged l1d_mshr (formal/fv_small_staged.yaml: the probe's line compares read a
// cycle ahead, contract 16.5) against the single-cycle one (formal/fv_small.yaml: the probe compares
// probe_line_i with every entry), renamed l1d_mshr_staged by scripts/formal.sh (job mshrahead). Both
// get the same inputs, every one free after a reset in the first cycle (allocations, merges,
// widenings, responses and releases in any combination, whether the L1 would make them or not); the
// staged unit's next probe line is free one cycle early: probe_line_i is probe_next_line_i
// registered. The harness asserts that every probe output is equal in every cycle (4 entries of
// 9-bit lines; docs/rtl-verification.md); the staged unit's own MshrProbeAheadEqual_A is proved
// with it (scripts/formal.sh keeps the assertions named *AheadEqual_A only: with free inputs the
// units' input-contract assertions do not hold).
`default_nettype none

module l1d_mshr_ahead_fv (
  input logic       clk_i,
  input logic [8:0] probe_next_line_i,
  input logic [3:0] probe_needed_i,
  input logic [3:0] probe_fetch_i,
  input logic       probe_store_i,
  input logic       block_i,
  input logic       alloc_i,
  input logic [8:0] alloc_line_i,
  input logic [3:0] alloc_sectors_i,
  input logic [1:0] alloc_bypass_i,
  input logic [4:0] alloc_reserve_i,
  input logic [3:0] alloc_buffer_i,
  input logic       add_i,
  input logic [1:0] add_entry_i,
  input logic [3:0] add_buffer_i,
  input logic       widen_i,
  input logic [3:0] widen_sectors_i,
  input logic       resp_i,
  input logic [1:0] resp_entry_i,
  input logic [3:0] resp_sectors_i,
  input logic       release_i,
  input logic [1:0] release_entry_i
);
`ifdef FORMAL
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init_q;
  logic [8:0] probe_line;
  always_ff @(posedge clk_i) probe_line <= probe_next_line_i;

  // The probe's outputs: {merge, merge_full, merge_entry, conflict, merge_reserved, merge_missing,
  // merge_filled, merge_bypass} (13 bits), and free/free_entry/in_use (the allocation's side).
  logic [12:0] probe_one, probe_staged;
  logic [5:0]  alloc_one, alloc_staged;
  l1d_mshr #(.IdBits(1), .WarpBits(1)) u_one (
    .clk_i, .rst_ni, .probe_line_i(probe_line), .probe_needed_i, .probe_fetch_i, .probe_store_i, .block_i,
    .merge_o(probe_one[12]), .merge_full_o(probe_one[11]), .merge_entry_o(probe_one[10:9]),
    .conflict_o(probe_one[8]), .merge_reserved_o(probe_one[7]), .merge_missing_o(probe_one[6:3]),
    .merge_filled_o(probe_one[2]), .merge_bypass_o(probe_one[1]),
    .free_o(alloc_one[5]), .free_entry_o(alloc_one[4:3]), .in_use_o(alloc_one[2:0]),
    .alloc_i, .alloc_line_i, .alloc_sectors_i, .alloc_bypass_i, .alloc_hpc_i(2'd0), .alloc_awid_i(8'd0),
    .alloc_token_i(1'b0), .alloc_id_i(1'b0), .alloc_warp_i(1'b0), .alloc_mask_i('0), .alloc_reserve_i,
    .add_i, .add_entry_i, .add_id_i(1'b0), .add_warp_i(1'b0), .add_mask_i('0), .widen_i, .widen_sectors_i,
    .widen_place_i(1'b0), .alloc_buffer_i, .add_buffer_i, .buffer_data_i('0),
    .resp_i, .resp_entry_i, .resp_l2_bit_i(1'b0), .resp_data_i('0), .resp_sectors_i, .resp_fills_o(),
    .rd_entry_i(2'd0), .rd_req_i(1'b0), .rd_valid_o(), .rd_filled_o(), .rd_line_o(), .rd_sectors_o(),
    .rd_bypass_o(), .rd_hpc_o(), .rd_awid_o(), .rd_token_o(), .rd_l2_bit_o(), .rd_count_o(), .rd_data_o(),
    .rd_id_o(), .rd_warp_o(), .rd_mask_o(), .rd_reserve_o(), .cnt_entry_i(2'd0), .cnt_count_o(), .cnt_line_o(),
    .release_i, .release_entry_i
  );
  assign probe_one[0] = 1'b0;
  l1d_mshr_staged #(.IdBits(1), .WarpBits(1)) u_staged (
    .clk_i, .rst_ni, .probe_line_i(probe_line), .probe_next_line_i, .probe_needed_i, .probe_fetch_i,
    .probe_store_i, .block_i,
    .merge_o(probe_staged[12]), .merge_full_o(probe_staged[11]), .merge_entry_o(probe_staged[10:9]),
    .conflict_o(probe_staged[8]), .merge_reserved_o(probe_staged[7]), .merge_missing_o(probe_staged[6:3]),
    .merge_filled_o(probe_staged[2]), .merge_bypass_o(probe_staged[1]),
    .free_o(alloc_staged[5]), .free_entry_o(alloc_staged[4:3]), .in_use_o(alloc_staged[2:0]),
    .alloc_i, .alloc_line_i, .alloc_sectors_i, .alloc_bypass_i, .alloc_hpc_i(2'd0), .alloc_awid_i(8'd0),
    .alloc_token_i(1'b0), .alloc_id_i(1'b0), .alloc_warp_i(1'b0), .alloc_mask_i('0), .alloc_reserve_i,
    .add_i, .add_entry_i, .add_id_i(1'b0), .add_warp_i(1'b0), .add_mask_i('0), .widen_i, .widen_sectors_i,
    .widen_place_i(1'b0), .alloc_buffer_i, .add_buffer_i, .buffer_data_i('0),
    .resp_i, .resp_entry_i, .resp_l2_bit_i(1'b0), .resp_data_i('0), .resp_sectors_i, .resp_fills_o(),
    .rd_entry_i(2'd0), .rd_req_i(1'b0), .rd_valid_o(), .rd_filled_o(), .rd_line_o(), .rd_sectors_o(),
    .rd_bypass_o(), .rd_hpc_o(), .rd_awid_o(), .rd_token_o(), .rd_l2_bit_o(), .rd_count_o(), .rd_data_o(),
    .rd_id_o(), .rd_warp_o(), .rd_mask_o(), .rd_reserve_o(), .cnt_entry_i(2'd0), .cnt_count_o(), .cnt_line_o(),
    .release_i, .release_entry_i
  );
  assign probe_staged[0] = 1'b0;

  always_comb begin
    if (rst_ni) begin
      FvMshrAheadEqual_A: assert (probe_staged == probe_one && alloc_staged == alloc_one);
    end
  end
`endif
endmodule

`default_nettype wire
