// Formal harness of the staged l1d_repl_state (formal/fv_small_staged.yaml: its hit and fill
// pulses registered and applied one edge later, its query forwarding them; contract 16.5) against
// the single-cycle one (formal/fv_small.yaml: updates at the edge of their cycle), renamed
// l1d_repl_state_staged by scripts/formal.sh (job replfwd). Both get the same inputs, every one
// free after a reset in the first cycle, eligible ways included; the harness asserts that their
// outputs (the victim and the queried set's ranks) are equal in every cycle, so the registered
// update is not observable (4 ways x 2 sets of LRU ranks; docs/rtl-verification.md). The staged
// unit reads its victim's order a cycle ahead (set_next_i: the set_i of the next cycle), so the
// queried set is free one cycle early: set_i is set_next_i registered.
`default_nettype none

module l1d_repl_state_fwd_fv (
  input logic       clk_i,
  input logic       hit_i,
  input logic       hit_set_i,
  input logic [1:0] hit_way_i,
  input logic       miss_i,
  input logic       miss_set_i,
  input logic       fill_i,
  input logic       fill_set_i,
  input logic [1:0] fill_way_i,
  input logic       set_next_i,
  input logic [3:0] eligible_i
);
`ifdef FORMAL
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init_q;
  logic set_i;
  always_ff @(posedge clk_i) set_i <= set_next_i;

  logic [1:0] victim_one, victim_staged;
  logic [7:0] ranks_one, ranks_staged;
  l1d_repl_state u_one (
    .clk_i, .rst_ni, .hit_i, .hit_set_i, .hit_way_i, .miss_i, .miss_set_i, .fill_i, .fill_set_i,
    .fill_way_i, .set_i, .eligible_i, .way_active_i(4'b1111), .way_rel_age_i('0),
    .age_filter_i(1'b0), .victim_o(victim_one), .ranks_o(ranks_one)
  );
  l1d_repl_state_staged u_staged (
    .clk_i, .rst_ni, .hit_i, .hit_set_i, .hit_way_i, .miss_i, .miss_set_i, .fill_i, .fill_set_i,
    .fill_way_i, .set_i, .set_next_i, .eligible_i, .way_active_i(4'b1111), .way_rel_age_i('0),
    .age_filter_i(1'b0), .victim_o(victim_staged), .ranks_o(ranks_staged)
  );

  always_comb begin
    if (rst_ni) begin
      FvReplStagedEqual_A: assert (ranks_staged == ranks_one && victim_staged == victim_one);
    end
  end
`endif
endmodule

`default_nettype wire
