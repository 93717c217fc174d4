// Formal harness of l1d_fill_issue (the fill FIFO of MSHR ids and the fill unit's issue cursor of
// the staged L1; contract 16.2-16.3) as dcgen emits it, at 3 entries (not a power of two: the
// ring's pointers wrap by subtraction) of up to 3 requests. Checked by scripts/formal.sh, job fill
// (docs/rtl-verification.md).
//
// The environment is the staged L1 around the unit, every choice free:
// - a memory response completes an entry at any edge (push_i): an id not in the FIFO, whose
//   request count (1..MaxMerge) is chosen then (push_count_i); the MSHR file holds the counts
//   (cnt_q here) and the unit reads the cursor entry's (count_i);
// - a load merges into an entry of the FIFO at any edge while the entry has room (grow_i,
//   grow_entry_i), also after the fill unit issued what it believed the entry's last step;
// - stage A takes the offered step at will (take_i); the step goes through T, M1 and M2, modelled
//   here with the flag `last` (the count read at issue said it was the entry's last);
// - at M2 step 0 completes or waits for miss-queue room (wait_i): it rewinds the cursor to itself
//   (step 0 of the head entry) and squashes the younger steps (M1, T and A's take of that cycle);
//   a step i > 0 always completes. A completed step that was issued as the last: if the entry has
//   no more requests, done_i pops it; if merges added some, the cursor rewinds to step i + 1 and
//   the younger steps are squashed (16.3).
// Properties: M2 sees every request of every entry once, in FIFO order and step order, also under
// rewinds (FvFillInOrderAtM2_A: the step at M2 is the head entry's next unanswered one); the
// cursor is just past what is in flight, so nothing is lost (FvFillNothingLostWhenIdle_A: with no
// step in flight the cursor offers exactly that next step); the FIFO is the pushed ids in order
// (FvFillHeadIsOldest_A, FvFillEmptyMatches_A); and the block's own assertions (Fill*_A).
`default_nettype none

module l1d_fill_issue_fv #(
`ifdef FV_FILL_POS
  // Job fillpos: gtx480's fill FIFO (32 MSHR ids of up to 8 requests), where pos_q is 6 bits.
  parameter int unsigned Entries = 32,
  parameter int unsigned MaxMerge = 8
`else
  parameter int unsigned Entries = 3,
  parameter int unsigned MaxMerge = 3
`endif
) (
  input logic                               clk_i,
  input logic                               push_i,
  input logic [$clog2(Entries)-1:0]         push_entry_i,
  input logic [$clog2(MaxMerge + 1)-1:0]    push_count_i,
  input logic                               grow_i,
  input logic [$clog2(Entries)-1:0]         grow_entry_i,
  input logic                               take_i,
  input logic                               wait_i
);
`ifdef FORMAL
  localparam int unsigned IdBits = $clog2(Entries);
  localparam int unsigned PtrBits = $clog2(Entries) + 1;
  localparam int unsigned StepBits = MaxMerge > 1 ? $clog2(MaxMerge) : 1;
  localparam int unsigned CountBits = $clog2(MaxMerge + 1);

  // Reset: rst_ni low in the first cycle only.
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init_q;

  logic valid, empty;
  logic [IdBits-1:0] cursor_entry, head_entry;
  logic [StepBits-1:0] step;
  logic [CountBits-1:0] cnt_q [Entries];

  // The shadow FIFO: the pushed ids in order, and the head entry's answered steps.
  logic [IdBits-1:0] sh_q [Entries];
  logic [PtrBits-1:0] sh_size_q;
  logic [StepBits-1:0] answered_q;
  // The steps in flight: T, M1, M2 (valid, entry, step, issued as the last).
  logic t_v_q, m1_v_q, m2_v_q, t_last_q, m1_last_q, m2_last_q;
  logic [IdBits-1:0] t_e_q, m1_e_q, m2_e_q;
  logic [StepBits-1:0] t_s_q, m1_s_q, m2_s_q;

  logic took, took_last, complete, more, done, rewind, squash;
  logic [StepBits-1:0] rewind_step;
  assign took = take_i && valid;
  assign took_last = CountBits'(step) + 1'd1 >= cnt_q[cursor_entry];
  assign complete = m2_v_q && !(wait_i && m2_s_q == '0);
  assign more = CountBits'(m2_s_q) + 1'd1 < cnt_q[m2_e_q];
  assign done = complete && m2_last_q && !more;
  // Step 0 waiting rewinds to itself; a last step whose entry grew rewinds to the next one.
  assign rewind = m2_v_q && !complete || complete && m2_last_q && more;
  assign rewind_step = complete ? m2_s_q + 1'd1 : '0;
  assign squash = rewind;

  l1d_fill_issue #(.Entries(Entries), .MaxMerge(MaxMerge)) u_dut (
    .clk_i, .rst_ni, .push_i, .push_entry_i, .count_i(cnt_q[cursor_entry]), .take_i, .done_i(done),
    .rewind_i(rewind), .rewind_step_i(rewind_step), .valid_o(valid), .cursor_entry_o(cursor_entry),
    .step_o(step), .head_entry_o(head_entry), .empty_o(empty)
  );

  // Environment: a pushed id is in range, not in the FIFO, with 1..MaxMerge requests; a merge
  // goes to an entry of the FIFO with room.
  logic in_fifo_push, in_fifo_grow;
  always_comb begin
    in_fifo_push = 1'b0;
    in_fifo_grow = 1'b0;
    for (int i = 0; i < Entries; i++) begin
      if (PtrBits'(i) < sh_size_q && sh_q[i] == push_entry_i) in_fifo_push = 1'b1;
      if (PtrBits'(i) < sh_size_q && sh_q[i] == grow_entry_i) in_fifo_grow = 1'b1;
    end
    if (rst_ni) begin
      // Compared at PtrBits: IdBits'(Entries) is 0 when Entries is a power of two.
      assume (!push_i || PtrBits'(push_entry_i) < PtrBits'(Entries) && !in_fifo_push && sh_size_q < PtrBits'(Entries)
              && push_count_i != '0 && push_count_i <= CountBits'(MaxMerge));
      assume (!grow_i || PtrBits'(grow_entry_i) < PtrBits'(Entries) && in_fifo_grow
              && cnt_q[grow_entry_i] < CountBits'(MaxMerge));
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      sh_size_q <= '0;
      answered_q <= '0;
      t_v_q <= 1'b0;
      m1_v_q <= 1'b0;
      m2_v_q <= 1'b0;
    end else begin
      // Pop the head on done (shift down), append the pushed id behind what stays.
      if (done) begin
        for (int i = 0; i < Entries - 1; i++) sh_q[i] <= sh_q[i + 1];
      end
      if (push_i) sh_q[sh_size_q - PtrBits'(done)] <= push_entry_i;
      sh_size_q <= sh_size_q + PtrBits'(push_i) - PtrBits'(done);
      answered_q <= done ? '0 : answered_q + StepBits'(complete);
      t_v_q <= took && !squash;
      m1_v_q <= t_v_q && !squash;
      m2_v_q <= m1_v_q && !squash;
      if (grow_i) cnt_q[grow_entry_i] <= cnt_q[grow_entry_i] + 1'd1;
      if (push_i) cnt_q[push_entry_i] <= push_count_i;
    end
    {t_e_q, t_s_q, t_last_q} <= {cursor_entry, step, took_last};
    {m1_e_q, m1_s_q, m1_last_q} <= {t_e_q, t_s_q, t_last_q};
    {m2_e_q, m2_s_q, m2_last_q} <= {m1_e_q, m1_s_q, m1_last_q};
  end

  logic idle;
  assign idle = !t_v_q && !m1_v_q && !m2_v_q;

`ifdef FV_VALID_READY
  // Job fillvr (make test-slow): the cursor's offer to A (valid_o with its entry and step) as a
  // valid that stays until taken: neither a push, a merge nor the head's pop (done_i) moves it;
  // only A's take or a rewind does.
  logic offered_q, taken_q, rewound_q;
  logic [IdBits-1:0] offered_entry_q;
  logic [StepBits-1:0] offered_step_q;
  always_ff @(posedge clk_i) begin
    offered_q <= rst_ni && valid;
    taken_q <= take_i;
    rewound_q <= rewind;
    offered_entry_q <= cursor_entry;
    offered_step_q <= step;
  end

  always_comb begin
    if (rst_ni) begin
      FvFillOfferHeld_A: assert (!offered_q || taken_q || rewound_q
                                 || valid && cursor_entry == offered_entry_q && step == offered_step_q);
    end
  end
`endif

  always_comb begin
    if (rst_ni) begin
      FvFillInOrderAtM2_A: assert (!m2_v_q || sh_size_q != '0 && m2_e_q == sh_q[0] && m2_s_q == answered_q);
      FvFillNothingLostWhenIdle_A: assert (!idle || sh_size_q == '0
                                           || valid && cursor_entry == sh_q[0] && step == answered_q);
      FvFillHeadIsOldest_A: assert (sh_size_q == '0 || head_entry == sh_q[0]);
      FvFillEmptyMatches_A: assert (empty == (sh_size_q == '0));
      FvFillAnsweredWithinCount_A: assert (sh_size_q == '0 || CountBits'(answered_q) < cnt_q[sh_q[0]]);
    end
  end

`ifdef FV_FILL_POS
  // The cursor's position from the FIFO's head (the block's pos_q, which has no port: formal.sh
  // drives this wire from the flattened u_dut.pos_q with `connect -set`). It counts the entries
  // whose last step A took and M2 has not completed: exactly the steps in T, M1 and M2 that were
  // issued as their entry's last, so at most three (the coverage waiver of pos_q[5:2]). The
  // equality is inductive on its own (every edge that moves the cursor moves a last step into T,
  // out of M2 or squashes all of them), so `yosys-smtbmc -i` proves both for every run length.
  logic [PtrBits-1:0] dut_pos_q;
  always_comb begin
    if (rst_ni) begin
      FvFillPosIsInFlightLast_A: assert (dut_pos_q == PtrBits'(t_v_q && t_last_q) + PtrBits'(m1_v_q && m1_last_q)
                                         + PtrBits'(m2_v_q && m2_last_q));
      FvFillPosBound_A: assert (dut_pos_q <= PtrBits'(3));
      // Not vacuous: the bound is reached (formal.sh checks this cover with yosys-smtbmc -c).
      FvFillPosReachesBound_C: cover (dut_pos_q == PtrBits'(3));
    end
  end
`endif
`endif
endmodule

`default_nettype wire
