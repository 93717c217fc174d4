// Formal harness of the staged l1d_agcb_table (formal/fv_small_staged.yaml: the read a cycle ahead,
// the prediction registered whole, contract 16.5; renamed l1d_agcb_table_ahead by scripts/formal.sh's
// agcbahead job) against the single-cycle table (formal/fv_small.yaml), both on the same updates, at
// Threshold 1, 2 and 3 (every threshold of 2-bit counters but 0).
// The staged table's input contract: pc_i holds at each edge the pc_next_i of the cycle before (the
// staged L1's M2 pc is its M1 pc registered), built in here from a free pc_next_i. Property: the two
// predictions are equal in every cycle after reset (the direct table reads counter[pc_i] with the
// pending update forwarded; the staged one registered that answer a cycle ahead).
`default_nettype none

module l1d_agcb_table_ahead_fv (
  input logic       clk_i,
  input logic [1:0] pc_next_idx_i,
  input logic       dec_i,
  input logic [1:0] dec_idx_i,
  input logic       inc_i,
  input logic [1:0] inc_idx_i
);
`ifdef FORMAL
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init_q;

  logic [63:0] pc_next, pc_q;
  assign pc_next = {59'd0, pc_next_idx_i, 3'd0};  // PcShift 3
  always_ff @(posedge clk_i) pc_q <= pc_next;
  logic [2:0] direct, ahead;
  logic [1:0] hpc_direct [3];
  logic [1:0] hpc_ahead [3];
  for (genvar t = 1; t <= 3; t++) begin : g_copy
    l1d_agcb_table #(.Threshold(t)) u_direct (
      .clk_i, .rst_ni, .pc_i(pc_q), .dec_i, .dec_idx_i, .inc_i, .inc_idx_i,
      .hpc_o(hpc_direct[t - 1]), .bypass_o(direct[t - 1])
    );
    l1d_agcb_table_ahead #(.Threshold(t)) u_ahead (
      .clk_i, .rst_ni, .pc_i(pc_q), .pc_next_i(pc_next), .dec_i, .dec_idx_i, .inc_i, .inc_idx_i,
      .hpc_o(hpc_ahead[t - 1]), .bypass_o(ahead[t - 1])
    );
  end

  always_comb begin
    if (rst_ni) begin
      FvAgcbAheadEqualsDirect_A: assert (ahead == direct);
      FvAgcbAheadHashedIndex_A: assert (hpc_ahead[0] == hpc_direct[0]);
    end
  end
`endif
endmodule

`default_nettype wire
