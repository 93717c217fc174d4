// Formal harness of l1d_miss_queue as dcgen emits it (formal/fv_small.yaml), instantiated at a
// small odd shape: 3 entries (not a power of two: the ring positions wrap by compare), batches of
// up to 2 requests, 5-bit requests (FV_MQ_PAYLOAD below: job mqwide, 1 481 bits). Checked by
// scripts/formal.sh, job mq (docs/rtl-verification.md).
// 5 entries of 3-request batches took 9 s at depth 8 and did not finish depth 14 in 10 minutes.
//
// The environment is the staged L1 as contract 16.4 lets it drive the unit, every choice free:
// - M decides a batch of 0..Batch requests in any cycle, within the room golden's check gives
//   (count_o + batch <= Entries: the count at the start of the cycle, a pop not counted);
// - two cycles later (stage D) the batch arrives on d_req_i; lanes beyond it are free junk;
// - memory is ready or not at will.
// Every request M decides carries a fresh id (a counter): a lost, duplicated, reordered or altered
// request shows as a wrong id. A shadow model keeps, per request, the cycle contract 16.4 makes
// it presentable, computed as golden::L1 does (max(m + 3 + k, last + 1)). Properties (Fv*_A)
// below; the block's own assertions (Mq*_A, read with -formal) are proved too.
`default_nettype none

// The payload width (ReqBits): the id repeated over every bit (bit b carries id bit b % IdBits), so
// that every bit of the ring is checked. Default the id's 5 bits; job mqwide of scripts/formal.sh
// sets the staged top's 1 481 (-DFV_MQ_PAYLOAD=1481).
`ifndef FV_MQ_PAYLOAD
`define FV_MQ_PAYLOAD 5
`endif

module l1d_miss_queue_fv (
  input logic       clk_i,
  input logic [1:0] m_count_i,
  input logic [2*`FV_MQ_PAYLOAD-1:0] junk_i,
  input logic [2*(`FV_MQ_PAYLOAD-`FV_MQ_PAYLOAD/2)-1:0] junk_late_i,
  input logic       ready_i
);
`ifdef FORMAL
  localparam int unsigned Entries = 3;
  localparam int unsigned Batch = 2;
  localparam int unsigned IdBits = 5;  // more ids than a bounded run of depth <= 14 decides (2 a cycle)
  localparam int unsigned TimeBits = 5;
  localparam int unsigned W = `FV_MQ_PAYLOAD;

  // Reset: rst_ni low in the first cycle only.
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init_q;

  logic [Batch*W-1:0] d_req;
  logic valid;
  logic [W-1:0] req;
  logic [1:0] count;

  // The late field (the write-back buffer's words in l1d_top, contract 16.5): the upper
  // LateBits bits of each request come a cycle after the rest, on r_late_i; at D those bits of
  // d_req_i are free junk. So every bit of the late field is checked through its own path.
  localparam int unsigned LateLsb = W / 2;
  localparam int unsigned LateBits = W - W / 2;
  logic [Batch*W-1:0] d_true;  // the batch's requests as M decided them (junk beyond the count)
  logic [Batch*LateBits-1:0] d_late, late_q;
  for (genvar k = 0; k < Batch; k++) begin : g_late
    assign d_late[k*LateBits +: LateBits] = d_true[k*W + LateLsb +: LateBits];
    assign d_req[k*W +: W] = {junk_late_i[k*LateBits +: LateBits], d_true[k*W +: LateLsb]};
  end
  always_ff @(posedge clk_i) late_q <= d_late;

  l1d_miss_queue #(.Entries(Entries), .Batch(Batch), .ReqBits(W), .LateLsb(LateLsb), .LateBits(LateBits)) u_dut (
    .clk_i, .rst_ni, .m_count_i, .d_req_i(d_req), .r_late_i(late_q), .mem_req_ready_i(ready_i),
    .mem_req_valid_o(valid), .mem_req_o(req), .count_o(count)
  );

  // Shadow: ids next_id_q - next_pop_q .. next_id_q - 1 are queued, oldest first; request id is
  // presentable from cycle vis_t_q[id % 4] (at most Entries = 3 < 4 queued at once).
  logic [IdBits-1:0] next_id_q, next_pop_q;
  logic [TimeBits-1:0] now_q, last_vis_q;
  logic [TimeBits-1:0] vis_t_q [4];
  // The batches of the last two cycles on their way to D: first id and count.
  logic [IdBits-1:0] c_first_q, d_first_q;
  logic [1:0] c_n_q, d_n_q;

  for (genvar k = 0; k < Batch; k++) begin : g_lane
    logic [IdBits-1:0] id;
    assign id = d_first_q + IdBits'(k);
    for (genvar b = 0; b < W; b++) begin : g_bit
      assign d_true[k*W + b] = 2'(k) < d_n_q ? id[b % IdBits] : junk_i[k*W + b];
    end
  end

  // Contract 16.4 as golden::L1::step_staged stamps it: request k of this cycle's batch.
  logic [TimeBits-1:0] stamp [Batch];
  logic [TimeBits-1:0] last_vis_d;
  always_comb begin
    last_vis_d = last_vis_q;
    for (int k = 0; k < Batch; k++) begin
      stamp[k] = now_q + TimeBits'(3 + k) > last_vis_d + 1'b1 ? now_q + TimeBits'(3 + k) : last_vis_d + 1'b1;
      if (2'(k) < m_count_i) last_vis_d = stamp[k];
    end
  end

  logic [W-1:0] want;  // the oldest queued id, repeated as the payload carries it
  for (genvar b = 0; b < W; b++) begin : g_want
    assign want[b] = next_pop_q[b % IdBits];
  end
  logic pop;
  logic [IdBits-1:0] held;
  assign pop = valid && ready_i;
  assign held = next_id_q - next_pop_q;

  always_comb begin
    if (rst_ni) begin
      assume (m_count_i <= 2'(Batch));
      assume (32'(count) + 32'(m_count_i) <= Entries);
      assume (next_id_q < IdBits'(28));  // fresh ids throughout the bound
    end else begin
      assume (m_count_i == '0);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      next_id_q <= '0;
      next_pop_q <= '0;
      now_q <= '0;
      last_vis_q <= '0;
      c_n_q <= '0;
      d_n_q <= '0;
    end else begin
      for (int k = 0; k < Batch; k++)
        if (2'(k) < m_count_i) vis_t_q[2'(next_id_q + IdBits'(k))] <= stamp[k];
      next_id_q <= next_id_q + IdBits'(m_count_i);
      next_pop_q <= next_pop_q + IdBits'(pop);
      now_q <= now_q + 1'b1;
      last_vis_q <= last_vis_d;
      c_first_q <= next_id_q;
      c_n_q <= m_count_i;
      d_first_q <= c_first_q;
      d_n_q <= c_n_q;
    end
  end

  always_comb begin
    if (rst_ni) begin
      // The offered request is the oldest queued one, unchanged: nothing lost, duplicated,
      // reordered or altered between M's decision and the memory port.
      FvOfferedIsOldest_A: assert (!valid || held != '0 && req == want);
      // Offered exactly from the cycle 16.4 makes it presentable.
      FvOfferedOnTime_A: assert (valid == (held != '0 && vis_t_q[2'(next_pop_q)] <= now_q));
      // count_o is golden's count: every request decided and not taken.
      FvCountIsQueued_A: assert (IdBits'(count) == held);
    end
  end
`endif
endmodule

`default_nettype wire
