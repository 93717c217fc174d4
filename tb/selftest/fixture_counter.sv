// A small design for the self-test of the testbench fixture (tb/fixture_test.cpp): a counter
// with an asynchronous reset, a flop without reset (it keeps the random initial value that
// --x-initial unique gives it), and a 100-bit pass-through for tb::get / tb::put on VlWide.
// Hand-written on purpose: it tests tb/, not the generator.
`default_nettype none

module fixture_counter (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [99:0] wide_i,
  output logic [7:0]  count_o,
  output logic [7:0]  noreset_o,
  output logic [99:0] wide_o
);

  logic [7:0] count_q;
  logic [7:0] noreset_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
    end else if (en_i) begin
      count_q <= count_q + 8'd1;
    end
  end

  always_ff @(posedge clk_i) begin
    noreset_q <= {noreset_q[6:0], noreset_q[7]};
  end

  assign count_o = count_q;
  assign noreset_o = noreset_q;
  assign wide_o = wide_i;

endmodule

`default_nettype wire
