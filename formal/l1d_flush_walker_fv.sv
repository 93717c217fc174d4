// Formal harness of l1d_flush_walker (the flush walk's issue cursor of the staged L1; contract
// 7, 9, 16.2-16.3) as dcgen emits it, at 5 lines (not a power of two: the cursor's code can pass
// the last line). Checked by scripts/formal.sh, job walk (docs/rtl-verification.md).
//
// The environment is the staged L1 around the cursor, every choice free:
// - stage A takes the offered line at will (take_i; a fill step may have A instead);
// - the line taken goes through T, M1 and M2, modelled here, one stage a cycle;
// - at M2 a visit completes or waits for miss-queue room (wait_i): a wait rewinds the cursor to
//   that line and squashes the younger visits (in M1, T, and the one A takes in that cycle);
// - M2 completing line Lines-1 ends the walk (finish_i);
// - a walk starts at any edge (start_i: a granularity switch or a kernel-end flush, also over a
//   running walk, whose visits in the pipe are then squashed) and is cancelled at any edge
//   (cancel_i: a kernel end without dirty state, applied after a start of the same cycle).
// Properties: M2 sees the lines of a walk in order, each once (FvWalkInOrderAtM2_A: the visit at M2
// is line `done`, the count this walk completed); the cursor is always just past what is in
// flight, so nothing is lost or skipped (FvWalkCursorFollows_A); a walk that ends by finishing has
// visited every line (FvWalkFinishedAll_A); a cancel or a finish ends it (FvWalkEnds_A); a start
// begins at line 0 (FvWalkStartsAtZero_A); and the block's own assertions (Flush*_A).
`default_nettype none

module l1d_flush_walker_fv (
  input logic clk_i,
  input logic start_i,
  input logic cancel_i,
  input logic take_i,
  input logic wait_i
);
`ifdef FORMAL
  localparam int unsigned Lines = 5;
  localparam int unsigned LineBits = $clog2(Lines + 1);

  // Reset: rst_ni low in the first cycle only.
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init_q;

  logic active, valid;
  logic [LineBits-1:0] line;
  // The visits in flight (T, M1, M2: valid and line) and the lines this walk completed at M2.
  logic t_v_q, m1_v_q, m2_v_q;
  logic [LineBits-1:0] t_line_q, m1_line_q, m2_line_q, done_q;
  logic rewind, finish, squash, took;

  assign rewind = m2_v_q && wait_i;
  assign finish = m2_v_q && !wait_i && m2_line_q == LineBits'(Lines - 1);
  // The younger visits die on a wait; every visit of the walk on a start or cancel.
  assign squash = rewind || start_i || cancel_i;
  assign took = take_i && valid;

  l1d_flush_walker #(.Lines(Lines)) u_dut (
    .clk_i, .rst_ni, .start_i, .cancel_i, .take_i, .rewind_i(rewind), .rewind_line_i(m2_line_q),
    .finish_i(finish), .active_o(active), .valid_o(valid), .line_o(line)
  );

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      t_v_q <= 1'b0;
      m1_v_q <= 1'b0;
      m2_v_q <= 1'b0;
      done_q <= '0;
    end else begin
      t_v_q <= took && !squash;
      m1_v_q <= t_v_q && !squash;
      m2_v_q <= m1_v_q && !squash;
      if (start_i) begin
        done_q <= '0;
      end else if (m2_v_q && !wait_i) begin
        done_q <= done_q + 1'd1;
      end
    end
    t_line_q <= line;
    m1_line_q <= t_line_q;
    m2_line_q <= m1_line_q;
  end

  // The lines in flight: the cursor is `done` plus the visits in the pipe, each one past the
  // older: so M2, M1, T and the cursor name consecutive lines from `done` on.
  logic [LineBits:0] ahead;
  assign ahead = (LineBits + 1)'(done_q) + m2_v_q + m1_v_q + t_v_q;

  logic past_start_q, past_cancel_q, past_finish_q;
  always_ff @(posedge clk_i) begin
    past_start_q <= rst_ni && start_i && !cancel_i;
    past_cancel_q <= rst_ni && cancel_i;
    past_finish_q <= rst_ni && finish && !start_i;
  end

  always_comb begin
    if (rst_ni) begin
      FvWalkInOrderAtM2_A: assert (!m2_v_q || m2_line_q == done_q);
      FvWalkCursorFollows_A: assert (!active || (LineBits + 1)'(line) == ahead
                                     && (!m1_v_q || m1_line_q == done_q + LineBits'(m2_v_q))
                                     && (!t_v_q || t_line_q == done_q + LineBits'(m2_v_q) + LineBits'(m1_v_q)));
      FvWalkValidWhileLinesLeft_A: assert (valid == (active && line < LineBits'(Lines)));
      FvWalkNoVisitWhenIdle_A: assert (active || !t_v_q && !m1_v_q && !m2_v_q);
      FvWalkFinishedAll_A: assert (!finish || done_q == LineBits'(Lines - 1));
      FvWalkEnds_A: assert (!(past_cancel_q || past_finish_q) || !active);
      FvWalkStartsAtZero_A: assert (!past_start_q || active && line == '0 && done_q == '0);
    end
  end
`endif
endmodule

`default_nettype wire
