// Formal harness of l1d_perf_counters as dcgen emits it for formal/fv_small.yaml (2 counters,
// 4-bit increments), checked by scripts/formal.sh with temporal induction (docs/rtl-verification.md).
//
// A reference keeps each count as a plain 64-bit sum of the increments; the property is that the
// unit's carry-save read-out (chunks plus each pending carry at its weight) equals it in every
// cycle. The property is 1-inductive (each chunk's new value plus its new carry at weight 2^16
// equals the old chunk plus the carry coming in), so induction proves it for all 2^64 values,
// which no bounded run could reach: a carry into chunk 2 needs 2^32 / 15 cycles.
`default_nettype none

module l1d_perf_counters_fv (
  input logic       clk_i,
  input logic [7:0] inc_i
);
`ifdef FORMAL
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init_q;

  logic [127:0] count;
  logic [5:0] carry;
  l1d_perf_counters #(.Counters(2), .IncBits(4)) u_dut (
    .clk_i, .rst_ni, .inc_i, .count_o(count), .carry_o(carry)
  );

  logic [63:0] ref_q [2];
  logic [63:0] readout [2];
  for (genvar i = 0; i < 2; i++) begin : g_ref
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ref_q[i] <= '0;
      else ref_q[i] <= ref_q[i] + 64'(inc_i[i * 4 +: 4]);
    end
    assign readout[i] = count[i * 64 +: 64] + {47'd0, carry[i * 3], 16'd0} + {31'd0, carry[i * 3 + 1], 32'd0} +
                        {15'd0, carry[i * 3 + 2], 48'd0};
  end
  // One assertion for both counters: Yosys 0.23 names a generate loop's assertions alike.
  always_comb begin
    FvPerfReadoutIsTheSum_A: assert (readout[0] == ref_q[0] && readout[1] == ref_q[1]);
  end
`endif
endmodule

`default_nettype wire
