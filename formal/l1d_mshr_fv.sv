// Formal harness of l1d_mshr as dcgen emits it for formal/fv_small.yaml (4 entries, MaxMerge 2),
// checked by scripts/formal.sh with yosys-smtbmc (docs/rtl-verification.md).
//
// The environment is the L1 as golden::L1 drives the MSHR file, every choice left free:
// - S1 probes a line (free) as a load and either allocates (only when free_o: a full file is a
//   reservation failure) or merges into merge_entry_o (only when the probe says merge_o); never
//   both, and neither while the fill unit works (S1 waits then);
// - the memory answers a pending entry (valid, not yet filled: the input contract, which
//   MshrRespPending_A checks in simulation) at any cycle, in any order;
// - the fill unit, here in the harness, starts on any filled entry, reads its requests one per
//   cycle in arrival order and releases the entry with the last one.
// Every accepted request carries a fresh id (a counter), so a lost or duplicated request shows.
// A shadow model (sh_*) records what was accepted. Properties (Fv*_A) below; the block's own
// assertions (Mshr*_A, read with -formal) are proved too.
`default_nettype none

module l1d_mshr_fv (
  input logic       clk_i,
  input logic       s1_alloc_i,
  input logic       s1_add_i,
  input logic [8:0] s1_line_i,
  input logic [3:0] s1_sectors_i,
  input logic       resp_i,
  input logic [1:0] resp_entry_i,
  input logic       resp_l2_bit_i,
  input logic       fill_start_i,
  input logic [1:0] fill_pick_i,
  input logic [1:0] peek_entry_i
);
`ifdef FORMAL
  localparam int unsigned Entries = 4;
  localparam int unsigned MaxMerge = 2;
  localparam int unsigned IdBits = 5;

  // Reset: rst_ni low in the first cycle only.
  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  logic rst_ni;
  assign rst_ni = !init_q;

  // The DUT's ports.
  logic       merge, merge_full, conflict, free;
  logic [1:0] merge_entry, free_entry;
  logic [2:0] in_use;
  logic       alloc, add, release_en;
  logic [1:0] rd_entry, release_entry;
  logic       rd_req;
  logic       rd_valid, rd_filled, rd_token, rd_l2_bit;
  logic [8:0] rd_line;
  logic [3:0] rd_sectors;
  logic [1:0] rd_bypass, rd_hpc, rd_count;
  logic [7:0] rd_awid;
  logic [1023:0] rd_data;
  logic [IdBits-1:0] rd_id;
  logic [0:0] rd_warp;
  logic [127:0] rd_mask;
  logic [IdBits-1:0] next_id_q;

  l1d_mshr #(.IdBits(IdBits), .WarpBits(1)) u_dut (
    .clk_i, .rst_ni,
    .probe_line_i(s1_line_i), .probe_needed_i(s1_sectors_i), .probe_fetch_i(s1_sectors_i), .probe_store_i(1'b0),
    .merge_o(merge), .merge_full_o(merge_full), .merge_entry_o(merge_entry), .conflict_o(conflict),
    .free_o(free), .free_entry_o(free_entry), .in_use_o(in_use),
    .alloc_i(alloc), .alloc_line_i(s1_line_i), .alloc_sectors_i(s1_sectors_i), .alloc_bypass_i(2'd0),
    .alloc_hpc_i(2'd0), .alloc_awid_i(8'd0), .alloc_token_i(1'b0), .alloc_id_i(next_id_q), .alloc_warp_i(1'b0),
    .alloc_mask_i('0),
    .add_i(add), .add_entry_i(merge_entry), .add_id_i(next_id_q), .add_warp_i(1'b0), .add_mask_i('0),
    .resp_i, .resp_entry_i, .resp_l2_bit_i, .resp_data_i('0),
    .rd_entry_i(rd_entry), .rd_req_i(rd_req),
    .rd_valid_o(rd_valid), .rd_filled_o(rd_filled), .rd_line_o(rd_line), .rd_sectors_o(rd_sectors),
    .rd_bypass_o(rd_bypass), .rd_hpc_o(rd_hpc), .rd_awid_o(rd_awid), .rd_token_o(rd_token),
    .rd_l2_bit_o(rd_l2_bit), .rd_count_o(rd_count), .rd_data_o(rd_data), .rd_id_o(rd_id),
    .rd_warp_o(rd_warp), .rd_mask_o(rd_mask),
    .release_i(release_en), .release_entry_i(release_entry),
    // allocation on_fill and mshr_merge stall (the options this harness proves): no reservation,
    // no widening read; a response writes every sector (resp_sectors_i = 0 names none); no sector
    // mode (nothing buffered), so no placed widening (mshr_merge sector).
    .block_i(1'b0), .alloc_reserve_i('0), .widen_i(1'b0), .widen_sectors_i('0), .resp_sectors_i('0),
    .alloc_buffer_i('0), .add_buffer_i('0), .buffer_data_i('0), .widen_place_i(1'b0),
    .merge_reserved_o(), .merge_missing_o(), .merge_filled_o(), .merge_bypass_o(), .resp_fills_o(),
    .rd_reserve_o()
  );

  // Shadow model: what was accepted.
  logic [Entries-1:0] sh_valid_q, sh_filled_q;
  logic [1:0] sh_count_q [Entries];
  logic [IdBits-1:0] sh_id_q [Entries][MaxMerge];
  logic [(1 << IdBits)-1:0] answered_q;
  logic [IdBits:0] answered_cnt_q;

  // The fill unit.
  logic       busy_q;
  logic [1:0] fe_q;
  logic       fi_q;
  logic       start;
  assign start = !busy_q && fill_start_i && sh_valid_q[fill_pick_i] && sh_filled_q[fill_pick_i];
  assign rd_entry = busy_q ? fe_q : peek_entry_i;
  assign rd_req = busy_q ? fi_q : 1'b0;
  assign release_en = busy_q && 2'(fi_q) + 2'd1 == rd_count;
  assign release_entry = fe_q;

  // S1.
  assign alloc = s1_alloc_i;
  assign add = s1_add_i;
  always_comb begin
    if (rst_ni) begin
      assume (!(s1_alloc_i && s1_add_i));
      assume (!(busy_q || start) || !(s1_alloc_i || s1_add_i));  // the fill unit owns its cycles
      assume (!s1_alloc_i || free);
      assume (!s1_add_i || merge);
      assume (!resp_i || sh_valid_q[resp_entry_i] && !sh_filled_q[resp_entry_i]);
      assume (next_id_q != '1);  // fresh ids throughout the bound
    end else begin
      assume (!s1_alloc_i && !s1_add_i && !resp_i);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      sh_valid_q <= '0;
      sh_filled_q <= '0;
      for (int i = 0; i < Entries; i++) sh_count_q[i] <= '0;
      answered_q <= '0;
      answered_cnt_q <= '0;
      next_id_q <= '0;
      busy_q <= 1'b0;
      fe_q <= '0;
      fi_q <= 1'b0;
    end else begin
      if (alloc) begin
        sh_valid_q[free_entry] <= 1'b1;
        sh_filled_q[free_entry] <= 1'b0;
        sh_count_q[free_entry] <= 2'd1;
        sh_id_q[free_entry][0] <= next_id_q;
        next_id_q <= next_id_q + 1'b1;
      end
      if (add) begin
        sh_count_q[merge_entry] <= sh_count_q[merge_entry] + 2'd1;
        sh_id_q[merge_entry][sh_count_q[merge_entry][0]] <= next_id_q;
        next_id_q <= next_id_q + 1'b1;
      end
      if (resp_i) sh_filled_q[resp_entry_i] <= 1'b1;
      if (start) begin
        busy_q <= 1'b1;
        fe_q <= fill_pick_i;
        fi_q <= 1'b0;
      end
      if (busy_q) begin  // the fill unit answers request fi_q of entry fe_q
        answered_q[rd_id] <= 1'b1;
        answered_cnt_q <= answered_cnt_q + 1'b1;
        fi_q <= fi_q + 1'b1;
        if (release_en) begin
          busy_q <= 1'b0;
          sh_valid_q[fe_q] <= 1'b0;
        end
      end
    end
  end

  // Requests held by valid entries and not yet answered, by the shadow model.
  logic [IdBits:0] held;
  always_comb begin
    held = busy_q ? 6'd0 - 6'(fi_q) : 6'd0;
    for (int i = 0; i < Entries; i++) if (sh_valid_q[i]) held = held + sh_count_q[i];
  end

  always_comb begin
    if (rst_ni) begin
      // The probe merges only into a valid entry with room, and says merge_full exactly when the
      // covering entry holds MaxMerge requests.
      FvMergeLimit_A: assert (!merge || sh_valid_q[merge_entry] && sh_count_q[merge_entry] < MaxMerge);
      FvMergeFullOnlyWhenFull_A: assert (!merge_full || sh_count_q[merge_entry] == MaxMerge);
      // The fill unit reads exactly the accepted requests of its entry, in arrival order.
      FvReadMatchesShadow_A: assert (!busy_q || rd_valid && rd_filled && rd_count == sh_count_q[fe_q] &&
                                      rd_id == sh_id_q[fe_q][fi_q]);
      // Every request is answered once, and none is lost: accepted = answered + held.
      FvAnsweredOnce_A: assert (!busy_q || !answered_q[rd_id]);
      FvNoRequestLost_A: assert ({1'b0, next_id_q} == answered_cnt_q + held);
      // Entries are freed once: a release names a valid entry; the occupancy matches.
      FvFreedOnce_A: assert (!release_en || sh_valid_q[release_entry]);
      FvInUseMatches_A: assert (32'(in_use) == $countones(sh_valid_q));
      // Only a response fills an entry, and only a pending one (any entry, read when idle).
      FvFilledOnlyByResponse_A: assert (busy_q || rd_valid == sh_valid_q[peek_entry_i] &&
                                        rd_filled == (sh_valid_q[peek_entry_i] && sh_filled_q[peek_entry_i]));
    end
  end
`endif
endmodule

`default_nettype wire
