// Test fixture for synth/test/smoke.sh, not project RTL: a latch. Yosys 0.23's dfflibmap maps
// flip-flops only, so the latch stays an internal $_DLATCH_P_ cell that no liberty cell
// replaces, and the flow must stop with "unmapped internal cells".
module latch_out (
  input  logic       en_i,
  input  logic [1:0] a_i,
  output logic       y_o
);
  always_latch begin
    if (en_i) y_o = a_i[0] ^ a_i[1];
  end
endmodule
