// Test fixture (synth/test/smoke.sh): a sub-block of the hierarchical flow whose SRAM sits in
// l1d_nest_leaf, one level further down.
module l1d_nest_bank (
  input  logic        clk_i,
  input  logic        we_i,
  input  logic [4:0]  addr_i,
  input  logic [31:0] wdata_i,
  output logic [31:0] rdata_o
);
  logic [4:0] addr_q;
  always_ff @(posedge clk_i) addr_q <= addr_i;
  l1d_nest_leaf #(.Width(32)) u_leaf (.clk_i, .we_i, .addr_i(addr_q), .wdata_i, .rdata_o);
endmodule
