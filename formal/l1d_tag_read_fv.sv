// Formal harness of l1d_tag_read (stage T of the staged L1 and its row forwarding; contract 16.1,
// 16.5) as dcgen emits it, at 3 sets (not a power of two) of 4-bit rows, with the behavioural
// l1d_sram_1r1w. Checked by scripts/formal.sh, job tagrd (docs/rtl-verification.md).
//
// The environment: A reads any set in any cycle (rd_en_i), C writes any set's whole row in any
// cycle (wr_en_i), also the set being read, in the read's cycle and in each cycle after it, with
// the staged top's rule for M2 (m2_valid_i: M2 holds a read; the cycle after, C writes the row M2
// left, m2_new_row_i, to M2's set, or writes nothing to that set and that row is the set's row;
// and a write of the set M2 holds is only such a write).
// A reference array (ref_q) takes every write at once. Properties: M1 and M2 see the newest row of
// their set, the array after every write before this cycle and this cycle's write
// (FvTagReadM1Newest_A, FvTagReadM2Newest_A), for a set written at least once since reset (an
// SRAM word is not reset, and the L1 reads no row before it wrote it: the valid bits are in flops);
// and M1's and M2's sets are the ones A read two and three cycles before (FvTagReadSets_A).
`default_nettype none

module l1d_tag_read_fv (
  input logic       clk_i,
  input logic       rd_en_i,
  input logic [1:0] rd_set_i,
  input logic       wr_en_i,
  input logic [1:0] wr_set_i,
  input logic [3:0] wr_row_i,
  input logic       m2_valid_i,
  input logic [3:0] m2_new_row_i
);
`ifdef FORMAL
  localparam int unsigned Sets = 3;
  localparam int unsigned RowBits = 4;

  // Reset: rst_ni low in the first cycle only.
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init_q;

  logic [1:0] m1_set, m2_set;
  logic [RowBits-1:0] m1_row, m2_row;

  l1d_tag_read #(.Sets(Sets), .RowBits(RowBits)) u_dut (
    .clk_i, .rst_ni, .rd_en_i, .rd_set_i, .wr_en_i, .wr_set_i, .wr_row_i, .m2_valid_i, .m2_new_row_i,
    .m1_set_o(m1_set), .m1_row_o(m1_row), .m2_set_o(m2_set), .m2_row_o(m2_row)
  );

  always_comb begin
    if (rst_ni) begin
      assume (!rd_en_i || rd_set_i < 2'(Sets));
      assume (!wr_en_i || wr_set_i < 2'(Sets));
    end
  end

  logic [RowBits-1:0] ref_q [Sets];
  logic [Sets-1:0] written_q;
  // The reads in flight: enabled and set, A's read one (T), two (M1) and three (M2) cycles ago.
  logic t_rd_q, m1_rd_q, m2_rd_q;
  logic [1:0] t_set_q, m1_set_q, m2_set_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      written_q <= '0;
      t_rd_q <= 1'b0;
      m1_rd_q <= 1'b0;
      m2_rd_q <= 1'b0;
    end else begin
      if (wr_en_i) begin
        ref_q[wr_set_i] <= wr_row_i;
        written_q[wr_set_i] <= 1'b1;
      end
      {t_rd_q, m1_rd_q, m2_rd_q} <= {rd_en_i, t_rd_q, m1_rd_q};
    end
    {t_set_q, m1_set_q, m2_set_q} <= {rd_set_i, t_set_q, m1_set_q};
  end

  // The newest row of M1's and M2's sets: this cycle's write, else the reference.
  logic [RowBits-1:0] m1_newest, m2_newest;
  assign m1_newest = wr_en_i && wr_set_i == m1_set_q ? wr_row_i : ref_q[m1_set_q];
  assign m2_newest = wr_en_i && wr_set_i == m2_set_q ? wr_row_i : ref_q[m2_set_q];

  logic m1_defined, m2_defined;
  assign m1_defined = written_q[m1_set_q] || wr_en_i && wr_set_i == m1_set_q;
  assign m2_defined = written_q[m2_set_q] || wr_en_i && wr_set_i == m2_set_q;

  // M2's row of the cycle before (m2_valid_i), and the environment's rule for it.
  logic pend_q;
  logic [1:0] pend_set_q;
  logic [RowBits-1:0] pend_row_q, pend_newest_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) pend_q <= 1'b0;
    else pend_q <= m2_valid_i;
    pend_set_q <= m2_set_q;
    pend_row_q <= m2_new_row_i;
    pend_newest_q <= m2_newest;
  end
  always_comb begin
    if (rst_ni) begin
      assume (!m2_valid_i || m2_rd_q);
      if (pend_q) begin
        if (wr_en_i && wr_set_i == pend_set_q) assume (wr_row_i == pend_row_q);
        else assume (pend_row_q == pend_newest_q);
      end
      // C writes the set M2 holds only with the row M2 left there (the top's C writes nothing else).
      assume (!(wr_en_i && m2_rd_q && wr_set_i == m2_set_q) || pend_q && wr_set_i == pend_set_q);
    end
  end

  always_comb begin
    if (rst_ni) begin
      FvTagReadSets_A: assert ((!m1_rd_q || m1_set == m1_set_q) && (!m2_rd_q || m2_set == m2_set_q));
      FvTagReadM1Newest_A: assert (!m1_rd_q || !m1_defined || m1_row == m1_newest);
      FvTagReadM2Newest_A: assert (!m2_rd_q || !m2_defined || m2_row == m2_newest);
    end
  end
`endif
endmodule

`default_nettype wire
