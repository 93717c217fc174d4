// Test fixture (synth/test/smoke.sh): a 32-word l1d_sram_1rw with a byte mask.
module l1d_nest_leaf #(
  parameter int unsigned Width = 8
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [4:0]       addr_i,
  input  logic [Width-1:0] wdata_i,
  output logic [Width-1:0] rdata_o
);
  l1d_sram_1rw #(.Words(32), .Width(Width), .GranBits(8), .AddrBits(5)) u_ram (
    .clk_i, .req_i(1'b1), .we_i, .addr_i, .wdata_i, .wmask_i({(Width / 8){1'b1}}), .rdata_o
  );
endmodule
