// The environment of scripts/mq_equiv_check.sh (docs/rtl-verification.md, "l1d_miss_queue: old
// and new RTL equivalent"): one l1d_miss_queue whose m_count_i is held to its contract, 0..Batch
// (the module header: M queues at most Batch requests in a cycle). A count above Batch is mapped
// to Batch and every legal count passes unchanged, so the input sequences this wrapper gives the
// queue are exactly the legal ones. The same wrapper is put around the old and the new RTL, and
// Yosys' equivalence flow pairs the two sides' flops and ports (u_mq.*) by name.
// Contract = 0 passes every count (to show the difference outside the contract).
`default_nettype none

module l1d_miss_queue_equiv_wrap #(
  parameter int unsigned Entries = 8,
  parameter int unsigned Batch = 5,
  parameter int unsigned ReqBits = 64,
  parameter int unsigned Contract = 1
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic [NBits-1:0]           m_count_i,
  input  logic [Batch * ReqBits-1:0] d_req_i,
  input  logic                       mem_req_ready_i,
  output logic                       mem_req_valid_o,
  output logic [ReqBits-1:0]         mem_req_o,
  output logic [CntBits-1:0]         count_o
);

  localparam int unsigned CntBits = $clog2(Entries + 1);
  localparam int unsigned NBits = $clog2(Batch + 1);

  logic [NBits-1:0] m_count;

  assign m_count = Contract != 0 && m_count_i > NBits'(Batch) ? NBits'(Batch) : m_count_i;

`ifdef MQ_LATE_PORT
  // An RTL with the late field (since timing12): placed past the request (LateLsb = ReqBits, an
  // empty mask), so the ring and the port are the old RTL's; l1d_miss_queue_fv checks the field.
  logic [Batch-1:0] no_late;  // a sized zero: '0 on the port trips Yosys 0.23's derive (an assertion)
  assign no_late = '0;
  l1d_miss_queue #(
    .Entries(Entries),
    .Batch(Batch),
    .ReqBits(ReqBits),
    .LateLsb(ReqBits),
    .LateBits(1)
  ) u_mq (
    .clk_i,
    .rst_ni,
    .m_count_i(m_count),
    .d_req_i,
    .r_late_i(no_late),
`else
  l1d_miss_queue #(
    .Entries(Entries),
    .Batch(Batch),
    .ReqBits(ReqBits)
  ) u_mq (
    .clk_i,
    .rst_ni,
    .m_count_i(m_count),
    .d_req_i,
`endif
    .mem_req_ready_i,
    .mem_req_valid_o,
    .mem_req_o,
    .count_o
  );

endmodule

`default_nettype wire
