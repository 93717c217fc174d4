// Test fixture for synth/test/smoke.sh, not project RTL: SRAM primitives (l1d_sram_1rw /
// l1d_sram_1r1w, copied in from rtl/ by the test) nested as in the staged l1d_top. l1d_nest_mid
// is instantiated with a parameter override, so the flow flattens it into l1d_top's glue and its
// 1r1w array sits two levels down in the glue; l1d_nest_bank (two instances, no override) is a
// sub-block of the hierarchical flow whose 1rw array sits two levels down inside it
// (l1d_nest_bank -> l1d_nest_leaf -> l1d_sram_1rw).
module l1d_top (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        we_i,
  input  logic [4:0]  addr_i,
  input  logic [31:0] wdata_i,
  output logic [31:0] mid_o,
  output logic [63:0] bank_o
);
  logic [31:0] mid_q;
  logic [31:0] b0, b1;

  l1d_nest_mid #(.Width(32)) u_mid (
    .clk_i, .we_i, .addr_i, .wdata_i, .rdata_o(mid_o)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) mid_q <= '0;
    else mid_q <= mid_o ^ wdata_i;
  end

  l1d_nest_bank u_bank0 (.clk_i, .we_i, .addr_i, .wdata_i(mid_q), .rdata_o(b0));
  l1d_nest_bank u_bank1 (.clk_i, .we_i(~we_i), .addr_i(~addr_i), .wdata_i(wdata_i), .rdata_o(b1));
  assign bank_o = {b1, b0};
endmodule
