// Formal harness of l1d_repl_state (LRU) as dcgen emits it for formal/fv_small.yaml (4 ways x 2
// sets), checked by scripts/formal.sh (docs/rtl-verification.md): every input free after a reset
// in the first cycle (4 ways: every way index exists), so the block's own assertions
// (Repl*RanksPermutation_A: the ranks stay a permutation, read and written) are proved for any
// sequence of hits, misses and fills. The harness adds one: the victim among all ways is the way
// of rank Ways-1 (the LRU way).
`default_nettype none

module l1d_repl_state_fv (
  input logic       clk_i,
  input logic       hit_i,
  input logic       hit_set_i,
  input logic [1:0] hit_way_i,
  input logic       miss_i,
  input logic       miss_set_i,
  input logic       fill_i,
  input logic       fill_set_i,
  input logic [1:0] fill_way_i,
  input logic       set_i
);
`ifdef FORMAL
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init_q;

  logic [1:0] victim;
  logic [7:0] ranks;
  l1d_repl_state u_dut (
    .clk_i, .rst_ni, .hit_i, .hit_set_i, .hit_way_i, .miss_i, .miss_set_i, .fill_i, .fill_set_i,
    .fill_way_i, .set_i, .eligible_i(4'b1111), .way_active_i(4'b1111), .way_rel_age_i('0),
    .age_filter_i(1'b0), .victim_o(victim), .ranks_o(ranks)
  );

  always_comb begin
    if (rst_ni) begin
      FvReplVictimIsLru_A: assert (ranks[victim * 2 +: 2] == 2'd3);
    end
  end
`endif
endmodule

`default_nettype wire
