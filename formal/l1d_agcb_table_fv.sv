// Formal harness of l1d_agcb_table as dcgen emits it for formal/fv_small.yaml (4 entries of 2-bit
// counters), checked by scripts/formal.sh (docs/rtl-verification.md).
//
// The counters are visible only through bypass_o = counter[hpc] >= Threshold, so the harness runs
// three copies (Threshold 1, 2 and 3) on the same inputs: counter[pc] is the number of copies
// that say bypass. A shadow model keeps every counter as an unbounded count clamped to 0 .. 3
// after each step (the saturating semantics of SPEC section 5: decrement, then increment).
// Properties: the RTL's counter equals the shadow at every entry read (pc_i free), i.e. a counter
// never wraps below 0 or above its maximum; AgcbDecNoUnderflow_A / AgcbIncNoOverflow_A of the
// block are proved too. Every input is free (the table has no input contract).
`default_nettype none

module l1d_agcb_table_fv (
  input logic       clk_i,
  input logic [1:0] pc_idx_i,
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

  logic [63:0] pc;
  assign pc = {59'd0, pc_idx_i, 3'd0};  // PcShift 3
  logic [2:0] bypass;
  logic [1:0] hpc [3];
  for (genvar t = 1; t <= 3; t++) begin : g_copy
    l1d_agcb_table #(.Threshold(t)) u_dut (
      .clk_i, .rst_ni, .pc_i(pc), .dec_i, .dec_idx_i, .inc_i, .inc_idx_i,
      .hpc_o(hpc[t - 1]), .bypass_o(bypass[t - 1])
    );
  end

  // The shadow counters: signed, wide enough to show a wrap, clamped to 0 .. 3 each step.
  logic signed [4:0] sh_q [4];
  logic signed [4:0] after_dec [4];
  logic signed [4:0] after_inc [4];
  always_comb begin
    for (int i = 0; i < 4; i++) begin
      after_dec[i] = sh_q[i] - ((dec_i && dec_idx_i == 2'(i)) ? 5'sd1 : 5'sd0);
      if (after_dec[i] < 0) after_dec[i] = 5'sd0;
      after_inc[i] = after_dec[i] + ((inc_i && inc_idx_i == 2'(i)) ? 5'sd1 : 5'sd0);
      if (after_inc[i] > 3) after_inc[i] = 5'sd3;
    end
  end
  always_ff @(posedge clk_i) begin
    for (int i = 0; i < 4; i++) sh_q[i] <= rst_ni ? after_inc[i] : 5'sd1;  // ResetValue 1
  end

  logic [1:0] rtl_value;
  assign rtl_value = 2'(bypass[0]) + 2'(bypass[1]) + 2'(bypass[2]);
  always_comb begin
    if (rst_ni) begin
      // The copies agree on the order of thresholds (a counter >= 3 is >= 2 is >= 1).
      FvAgcbThresholdsMonotone_A: assert ((!bypass[2] || bypass[1]) && (!bypass[1] || bypass[0]));
      FvAgcbHashedIndex_A: assert (hpc[0] == pc_idx_i);
      // The counter read equals the saturating shadow: no overflow, no underflow, no lost update.
      FvAgcbCounterMatchesShadow_A: assert ({3'd0, rtl_value} == sh_q[pc_idx_i]);
    end
  end
`endif
endmodule

`default_nettype wire
