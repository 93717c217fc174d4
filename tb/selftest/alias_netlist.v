// The smallest netlist Verilator 5.006 mis-simulates (docs/rtl-verification.md, "Verilator and
// aliased vector bits"), written as Yosys writes netlists (write_verilog -noattr): bits of the
// output vector o are computed from other bits of o, and some alias others. Yosys' eval gives
// o = 8'hd7 for a = 4'h9; the verilated model, which evaluates o's assigns in one pass without
// iterating, gives 8'h85 (bits read before the assign that drives them keep their old value).
// tb/alias_netlist_test.cpp runs it as it is and after synth/netlist_split_vectors.py.
module alias_netlist(a, o);
  input [3:0] a;
  wire [3:0] a;
  output [7:0] o;
  wire [7:0] o;
  wire _0_;
  assign o[0] = a[0];
  assign o[5] = o[0] & a[1];
  assign _0_ = o[5] | a[2];
  assign o[2] = _0_ ^ a[3];
  assign o[7] = o[2] & o[0];
  assign { o[6], o[4:3], o[1] } = { o[7], o[2], o[5], o[2] };
endmodule
