// Verilator 5.006 mis-simulation, reduced (not built by the project; a record for the workaround in
// tb/rtl_blocks.cmake, docs/rtl-verification.md "Netlist equivalence"). The cone of partial_o of
// l1d_match_combine's gtx480 Yosys netlist (build/rtl_blocks/gtx480/netlist/, revision e0eeb08),
// cut down by delta debugging (wires turned into the inputs cut_i while the error persisted) from
// 195 assigns to 13; the unused input ports are the netlist's, kept as they were.
//   y_o = cut_i[0] & ~(cut_i[1] & ~(cut_i[2] | common_eq_i[2] &
//                     ~(~(held_i[8] & slot_valid_i[8]) & ~(held_i[9] & slot_valid_i[9]) & cut_i[3])))
// Verilated with the testbenches' netlist options before the workaround (--x-initial unique -O3
// --x-assign fast --timescale 1ns/1ns --trace-fst), y_o differed from that expression on 49 of 3,000
// random input vectors (eval() once per vector, no trace opened). The unreduced netlist: wrong in
// 283 of 10^4 cycles with those options, right with -O0, -fno-const-bit-op-tree, -fno-gate,
// -fno-expand, or without --trace-fst (Verilator issues #4059, #4842).
module t(common_eq_i, copy_i, free_slots_i, head_mask_i, held_i, legal_i, need_slots_i, slot_valid_i, tag_ok_i, cut_i, y_o);
  input [3:0] common_eq_i;
  input [15:0] copy_i;
  input [3:0] free_slots_i;
  input [1:0] head_mask_i;
  input [15:0] held_i;
  input legal_i;
  input [3:0] need_slots_i;
  input [15:0] slot_valid_i;
  input [15:0] tag_ok_i;
  input [3:0] cut_i;
  output y_o;
  wire _283_;
  wire _262_;
  wire _263_;
  wire _293_;
  wire _264_;
  wire _268_;
  wire _295_;
  wire _269_;
  wire _278_;
  wire _299_;
  wire _279_;
  wire _300_;
  assign _283_ = held_i[8] & slot_valid_i[8];
  assign _262_ = ~ _283_;
  assign _263_ = held_i[9] & slot_valid_i[9];
  assign _293_ = ~ _263_;
  assign _264_ = _262_ & _293_;
  assign _268_ = _264_ & cut_i[3];
  assign _295_ = ~ _268_;
  assign _269_ = common_eq_i[2] & _295_;
  assign _278_ = cut_i[2] | _269_;
  assign _299_ = ~ _278_;
  assign _279_ = cut_i[1] & _299_;
  assign _300_ = ~ _279_;
  assign y_o = cut_i[0] & _300_;
endmodule
