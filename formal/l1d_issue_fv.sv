// Formal harness of l1d_issue (stage A of the staged L1: core input FIFO, replay FIFO, arbiter,
// the T and M1 registers; docs/l1d-microarchitecture.md 16.2-16.3) as dcgen emits it, its core
// payloads 6-bit ids. Checked by scripts/formal.sh, job issue (docs/rtl-verification.md).
//
// The environment is the staged L1 around the unit, every choice free:
// - the core offers a request in any cycle; each one that fires carries a fresh id (a counter);
// - the fill unit and the flush walker offer operations at will (fill_valid_i, flush_active_i,
//   flush_valid_i) and may have them squashed at any edge (squash_fill_i, squash_flush_i);
// - stage M2 is modelled here: it holds what M1 passes unless squashed; a core request at M2
//   fails at will (fail_i: a reservation failure, 16.3), which squashes the younger core
//   operations and sends the failed one back (failed_valid_i, failed_req_i = M2's payload); a
//   flush may start at any edge (flush_start_i), which squashes the younger core operations
//   without a failure, M2's own core request completing.
// Properties (Fv*_A) below; the block's own assertions (Issue*_A, read with -formal) are proved
// too. A lost, duplicated or reordered request shows as a wrong id at M2.
`default_nettype none

module l1d_issue_fv (
  input logic clk_i,
  input logic core_valid_i,
  input logic fill_valid_i,
  input logic flush_active_i,
  input logic flush_valid_i,
  input logic squash_fill_i,
  input logic squash_flush_i,
  input logic fail_i,
  input logic flush_start_i
);
`ifdef FORMAL
  localparam int unsigned IdBits = 6;  // more ids than a bounded run of depth <= 40 fires
  localparam logic [1:0] KindNone = 2'd0, KindCore = 2'd1, KindFill = 2'd2, KindFlush = 2'd3;

  // Reset: rst_ni low in the first cycle only.
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init_q;

  logic ready, fill_take, flush_take, t_squash, m1_squash, stall, empty;
  logic [1:0] a_kind, t_kind, m1_kind;
  logic [IdBits-1:0] a_req, t_req, m1_req;
  logic [IdBits-1:0] next_id_q, next_done_q;  // ids fired so far; ids M2 completed so far
  logic [1:0] m2_kind_q;
  logic [IdBits-1:0] m2_req_q;
  logic core_fail, squash_core;

  assign core_fail = m2_kind_q == KindCore && fail_i;
  assign squash_core = core_fail || flush_start_i;

  l1d_issue #(.ReqBits(IdBits)) u_dut (
    .clk_i, .rst_ni, .core_req_valid_i(core_valid_i), .core_req_i(next_id_q), .core_req_ready_o(ready),
    .fill_valid_i, .flush_active_i, .flush_valid_i, .squash_core_i(squash_core), .failed_valid_i(core_fail),
    .failed_req_i(m2_req_q), .squash_fill_i, .squash_flush_i, .fill_take_o(fill_take), .flush_take_o(flush_take),
    .a_kind_o(a_kind), .a_req_o(a_req), .t_kind_o(t_kind), .t_req_o(t_req), .t_squash_o(t_squash),
    .m1_kind_o(m1_kind), .m1_req_o(m1_req), .m1_squash_o(m1_squash), .stall_o(stall), .empty_o(empty)
  );

  // Shadow of the stages' kinds: what A picked, then what T held, unless squashed at the edge.
  logic [1:0] t_kind_q, m1_kind_q;
  logic a_dead, t_dead;
  assign a_dead = a_kind == KindCore && squash_core || a_kind == KindFill && squash_fill_i
                  || a_kind == KindFlush && squash_flush_i;
  assign t_dead = t_kind == KindCore && squash_core || t_kind == KindFill && squash_fill_i
                  || t_kind == KindFlush && squash_flush_i;

  always_comb begin
    if (rst_ni) begin
      assume (next_id_q < IdBits'(60));  // fresh ids throughout the bound
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      next_id_q <= '0;
      next_done_q <= '0;
      m2_kind_q <= KindNone;
      t_kind_q <= KindNone;
      m1_kind_q <= KindNone;
    end else begin
      next_id_q <= next_id_q + IdBits'(core_valid_i && ready);
      next_done_q <= next_done_q + IdBits'(m2_kind_q == KindCore && !core_fail);
      m2_kind_q <= m1_squash ? KindNone : m1_kind;
      t_kind_q <= a_dead ? KindNone : a_kind;
      m1_kind_q <= t_dead ? KindNone : t_kind;
    end
    m2_req_q <= m1_req;
  end

`ifdef FV_VALID_READY
  // Job issuevr (make test-slow): the core port's valid/ready (16.2): ready is the input FIFO's
  // registered room, so it is withdrawn only by a request that fired into it; a core holding valid
  // is never refused a slot it was offered. (The core may drop valid at will here: a stronger
  // environment than gpusim's.)
  logic ready_q, fired_q;
  always_ff @(posedge clk_i) begin
    ready_q <= rst_ni && ready;
    fired_q <= rst_ni && core_valid_i && ready;
  end

  always_comb begin
    if (rst_ni) begin
      FvReadyHeldUntilFire_A: assert (!ready_q || fired_q || ready);
    end
  end
`endif

  always_comb begin
    if (rst_ni) begin
      // M2 sees the core requests in the order they fired, a failed one again until it completes:
      // none lost, duplicated or overtaken, and a replay keeps the order (contract 16.3).
      FvCoreInOrderAtM2_A: assert (m2_kind_q != KindCore || m2_req_q == next_done_q);
      // Nothing lost: with the unit empty and M2 free, every request that fired has completed.
      FvNothingLostWhenEmpty_A: assert (!empty || m2_kind_q != KindNone || next_done_q == next_id_q);
      // T and M1 hold exactly what the stage before held, less the squashed kinds.
      FvStagesFollowSquashes_A: assert (t_kind == t_kind_q && m1_kind == m1_kind_q);
      FvSquashFlagsMatch_A: assert (t_squash == t_dead && m1_squash == (m1_kind == KindCore && squash_core
                                    || m1_kind == KindFill && squash_fill_i || m1_kind == KindFlush && squash_flush_i));
      // The arbiter (16.2): fill, then flush, then replay, then core; no core while a flush runs.
      FvArbiterPriority_A: assert (fill_take == fill_valid_i && flush_take == (!fill_valid_i && flush_active_i
                                   && flush_valid_i) && (a_kind == KindFill) == fill_take
                                   && (a_kind == KindFlush) == flush_take);
      FvNoCoreWhileBlocked_A: assert (a_kind != KindCore || !fill_valid_i && !flush_active_i);
    end
  end
`endif
endmodule

`default_nettype wire
