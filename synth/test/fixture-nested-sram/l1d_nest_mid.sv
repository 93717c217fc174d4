// Test fixture (synth/test/smoke.sh): one level between l1d_top and a 32-word l1d_sram_1r1w.
module l1d_nest_mid #(
  parameter int unsigned Width = 8
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [4:0]       addr_i,
  input  logic [Width-1:0] wdata_i,
  output logic [Width-1:0] rdata_o
);
  l1d_sram_1r1w #(.Words(32), .Width(Width), .GranBits(Width), .AddrBits(5)) u_ram (
    .clk_i, .wr_en_i(we_i), .wr_addr_i(addr_i), .wr_data_i(wdata_i), .wr_mask_i(1'b1),
    .rd_en_i(~we_i), .rd_addr_i(addr_i + 5'd1), .rd_data_o(rdata_o)
  );
endmodule
