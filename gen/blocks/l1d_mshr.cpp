// l1d_mshr: the MSHR file of the L1 (docs/l1d-microarchitecture.md sections 4-6; golden model:
// golden::Mshr). Per entry the probed fields (valid, filled, line, sectors, request count) are
// flops in a generate block, so the probe compares every entry at once; the fill record, the
// merged requests and the fill data are only read through the fill unit's read port, so they are
// memories without reset, written by the registered ports and read combinationally. The two
// large ones (requests and fill data: SRAM or register-file macros in silicon) are l1d_ram_1r1w
// instances, which the synthesis checks keep as black boxes.
#include <algorithm>
#include <bit>
#include <string>

#include "common/config.h"
#include "common/types.h"
#include "gen/blocks/block.h"
#include "gen/blocks/l1d_mshr_doc.h"
#include "gen/blocks/wide_select.h"  // bits_for

namespace gen::blocks {
namespace {

constexpr unsigned kSectors = l1d::kSlotsPerLine;  // sector masks: bit s = 32 B sector s
constexpr unsigned kMaskBits = l1d::kLineBytes;    // a request's byte mask
constexpr unsigned kDataBits = 8 * l1d::kLineBytes;
constexpr unsigned kAwidBits = 8;    // CoreReq::awid
constexpr unsigned kBypassBits = 2;  // golden::BypassReason: 0 none, 1 agcb, 2 two-level, 3 pcal


class Mshr final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_mshr"; }
  std::string_view summary() const override {
    return "MSHR file: merge/conflict probe, lowest free entry, fill record, merged requests, fill data (uarch 5)";
  }

  Module module(const l1d::Config& cfg) const override {
    mshr_validate(cfg);
    Module m(name());
    mshr_describe(m);

    const uint32_t hpc_bits = std::max(1U, static_cast<uint32_t>(std::bit_width(cfg.policy.agcb.entries - 1)));
    Expr entries = m.param("Entries", cfg.l1.mshr_entries);
    Expr max_merge = m.param("MaxMerge", cfg.l1.mshr_max_merge);
    Expr line_bits = m.param("LineBits", cfg.l1.address_bits - 7);
    Expr hpc_w = m.param("HpcBits", hpc_bits);
    Expr id_w = m.param("IdBits", 32);
    Expr warp_w = m.param("WarpBits", 8);
    Expr entry_w = m.param("EntryBits", mux(entries.gt(1), clog2(entries), 1));
    Expr req_w = m.param("ReqBits", mux(max_merge.gt(1), clog2(max_merge), 1));
    Expr res_w = m.param("ReserveBits", 3 + bits_for(cfg.l1.ways));

    Expr clk = m.clk();
    m.rst_n();
    // Probe.
    Expr probe_line = m.input("probe_line_i", line_bits);
    Expr probe_needed = m.input("probe_needed_i", kSectors);
    Expr probe_fetch = m.input("probe_fetch_i", kSectors);
    Expr probe_store = m.input("probe_store_i");
    Expr block = m.input("block_i");
    Expr merge_o = m.output("merge_o");
    Expr merge_full_o = m.output("merge_full_o");
    Expr merge_entry_o = m.output("merge_entry_o", entry_w);
    Expr conflict_o = m.output("conflict_o");
    Expr free_o = m.output("free_o");
    Expr free_entry_o = m.output("free_entry_o", entry_w);
    Expr in_use_o = m.output("in_use_o", clog2(entries + 1));
    Expr merge_res_o = m.output("merge_reserved_o");
    Expr merge_missing_o = m.output("merge_missing_o", kSectors);
    Expr merge_filled_o = m.output("merge_filled_o");
    Expr merge_bypass_o = m.output("merge_bypass_o");
    // Allocate.
    Expr alloc = m.input("alloc_i");
    Expr alloc_line = m.input("alloc_line_i", line_bits);
    Expr alloc_sectors = m.input("alloc_sectors_i", kSectors);
    Expr alloc_bypass = m.input("alloc_bypass_i", kBypassBits);
    Expr alloc_hpc = m.input("alloc_hpc_i", hpc_w);
    Expr alloc_awid = m.input("alloc_awid_i", kAwidBits);
    Expr alloc_token = m.input("alloc_token_i");
    Expr alloc_id = m.input("alloc_id_i", id_w);
    Expr alloc_warp = m.input("alloc_warp_i", warp_w);
    Expr alloc_mask = m.input("alloc_mask_i", kMaskBits);
    Expr alloc_reserve = m.input("alloc_reserve_i", res_w);
    // Merge.
    Expr add = m.input("add_i");
    Expr add_entry = m.input("add_entry_i", entry_w);
    Expr add_id = m.input("add_id_i", id_w);
    Expr add_warp = m.input("add_warp_i", warp_w);
    Expr add_mask = m.input("add_mask_i", kMaskBits);
    Expr widen = m.input("widen_i");
    Expr widen_sectors = m.input("widen_sectors_i", kSectors);
    // l1.mshr_merge sector (contract 14): a widening's sectors are placed too, so rd_sectors_o is the
    // entry's sectors (equal to its placed ones at all times) instead of the record's first read's.
    Expr widen_place = m.input("widen_place_i");
    // l1.sector: sectors an alloc or add copies from the array, and the line's bytes (sector order).
    Expr alloc_buffer = m.input("alloc_buffer_i", kSectors);
    Expr add_buffer = m.input("add_buffer_i", kSectors);
    Expr buffer_data = m.input("buffer_data_i", kDataBits);
    // The staged pipe in sector mode (contract 16.5): the array's bytes arrive at D, two cycles after
    // the alloc or add at M2, so the buffer's memories take them then (buf_wr_i: the sectors,
    // buf_wr_entry_i: the entry), and the read takes a sector from the buffer once it is written there.
    const bool late_buffer = cfg.l1.pipeline == l1d::L1Pipeline::kStaged && cfg.l1.sector;
    if (late_buffer) mshr_describe_late_buffer(m);
    Expr buf_wr = late_buffer ? m.input("buf_wr_i", kSectors) : Expr();
    Expr buf_wr_entry = late_buffer ? m.input("buf_wr_entry_i", entry_w) : Expr();
    // Memory response.
    Expr resp = m.input("resp_i");
    Expr resp_entry = m.input("resp_entry_i", entry_w);
    Expr resp_l2_bit = m.input("resp_l2_bit_i");
    Expr resp_data = m.input("resp_data_i", kDataBits);
    Expr resp_sectors = m.input("resp_sectors_i", kSectors);
    Expr resp_fills_o = m.output("resp_fills_o");
    // Read port.
    Expr rd_entry = m.input("rd_entry_i", entry_w);
    Expr rd_req = m.input("rd_req_i", req_w);
    Expr rd_valid_o = m.output("rd_valid_o");
    Expr rd_filled_o = m.output("rd_filled_o");
    Expr rd_line_o = m.output("rd_line_o", line_bits);
    Expr rd_sectors_o = m.output("rd_sectors_o", kSectors);
    Expr rd_bypass_o = m.output("rd_bypass_o", kBypassBits);
    Expr rd_hpc_o = m.output("rd_hpc_o", hpc_w);
    Expr rd_awid_o = m.output("rd_awid_o", kAwidBits);
    Expr rd_token_o = m.output("rd_token_o");
    Expr rd_l2_bit_o = m.output("rd_l2_bit_o");
    Expr rd_count_o = m.output("rd_count_o", clog2(max_merge + 1));
    Expr rd_data_o = m.output("rd_data_o", kDataBits);
    Expr rd_id_o = m.output("rd_id_o", id_w);
    Expr rd_warp_o = m.output("rd_warp_o", warp_w);
    Expr rd_mask_o = m.output("rd_mask_o", kMaskBits);
    Expr rd_reserve_o = m.output("rd_reserve_o", res_w);
    Expr cnt_entry = m.input("cnt_entry_i", entry_w);
    Expr cnt_count_o = m.output("cnt_count_o", clog2(max_merge + 1));
    Expr cnt_line_o = m.output("cnt_line_o", line_bits);
    // Release.
    Expr release = m.input("release_i");
    Expr release_entry = m.input("release_entry_i", entry_w);

    Expr count_w = m.localparam("CountBits", clog2(max_merge + 1));
    Expr in_use_w = m.localparam("InUseBits", clog2(entries + 1));
    Expr rec_w = m.localparam("RecordBits", res_w + kSectors + hpc_w + (kBypassBits + kAwidBits + 1));
    // An entry's reads in flight: its first and at most one widening per sector it lacked.
    constexpr unsigned kReadsBits = 3;
    Expr request_w = m.localparam("RequestBits", id_w + warp_w + kMaskBits);

    m.comment("The probed fields of every entry, entry e at [e*W +: W] (the flops are in g_group).");
    Expr valid = m.logic("valid", entries);
    Expr filled = m.logic("filled", entries);
    Expr l2_bit = m.logic("l2_bit", entries);
    Expr room = m.logic("room", entries);  // fewer than MaxMerge requests
    Expr lines = m.logic("lines", entries * line_bits);
    Expr sectors = m.logic("sectors", entries * kSectors);
    Expr buffered = m.logic("buffered", entries * kSectors);
    Expr counts = m.logic("counts", entries * count_w);
    Expr reads = m.logic("reads", entries * kReadsBits);

    m.comment("The probe: per entry, a valid entry of the probed line that covers probe_needed_i (loads");
    m.comment("only) and one that overlaps probe_fetch_i; golden::Mshr scans from entry 0, so the lowest");
    m.comment("covering entry decides merge or merge_full, and the lowest free entry is the one allocated.");
    Expr covers = m.logic("covers", entries);
    Expr overlaps = m.logic("overlaps", entries);
    Expr first_cover = m.logic("first_cover", entries);  // one-hot (or zero)
    Expr free = m.logic("free", entries);
    Expr first_free = m.logic("first_free", entries);  // one-hot (or zero)
    m.assign(free, ~valid);
    m.comment("The lowest set bit isolated per entry, x[e] & ~|x[e-1:0], each bit from its own OR tree, not as");
    m.comment("x & -x (a carry chain in the RTL). ABC restructures either form (docs/synthesis.md, timing12:");
    m.comment("l1d_mshr alone on osu018, merge_o 33.6 -> 32.9 FO4; a 32-bit isolation alone 23.9 -> 22.0).");
    m.gen_for("g_first", "e", 0, entries, [&](Scope& g, const Expr& e) {
      Expr below = g.logic("below", entries);  // the entries before e
      g.assign(below, (cast(entries, lit(1, 1)) << e) - cast(entries, lit(1, 1)));
      g.assign(first_cover[e], covers[e].land(!red_or(covers & below)));
      g.assign(first_free[e], free[e].land(!red_or(free & below)));
    });
    m.always_comb({{merge_entry_o, zeros()}, {free_entry_o, zeros()}}, [&](Block& b) {
      b.for_("i", 0, entries, [&](Block& body, const Expr& i) {
        body.if_(first_cover[i], [&](Block& t) { t.assign(merge_entry_o, cast(entry_w, i)); });
        body.if_(first_free[i], [&](Block& t) { t.assign(free_entry_o, cast(entry_w, i)); });
      });
    });
    m.assign(merge_o, red_or(first_cover & room));
    m.comment("What a merge lacks: the needed sectors the entry neither fetches nor buffers (contract 13.3, 14).");
    m.assign(merge_missing_o, mux(red_or(first_cover),
                                  probe_needed & ~(sectors.part(merge_entry_o * kSectors, kSectors) |
                                                   buffered.part(merge_entry_o * kSectors, kSectors)),
                                  zeros()));
    m.assign(merge_filled_o, red_or(first_cover & filled));
    Expr widen_ok = m.logic("widen_ok");
    m.comment("A response is its entry's last read unless a widening read joins it in the same cycle.");
    m.assign(resp_fills_o, resp.land(reads.part(resp_entry * kReadsBits, kReadsBits).eq(lit(kReadsBits, 1)))
                               .land(!(widen_ok.land(add_entry.eq(resp_entry)))));
    m.assign(merge_full_o, red_or(first_cover & ~room));
    m.assign(conflict_o, (!red_or(covers)).land(red_or(overlaps)));
    m.assign(free_o, red_or(first_free));
    m.assign(in_use_o, cast(in_use_w, countones(valid)));

    m.comment("The request write port, shared by alloc (request 0 of the allocated entry) and add (the");
    m.comment("next request of its entry: the entry's count, below MaxMerge, so its low ReqBits bits).");
    Expr alloc_ok = m.logic("alloc_ok");
    Expr add_ok = m.logic("add_ok");
    Expr add_slot = m.logic("add_slot", req_w);
    Expr req_we = m.logic("req_we");
    Expr req_entry = m.logic("req_entry", entry_w);
    Expr req_slot = m.logic("req_slot", req_w);
    Expr req_word = m.logic("req_word", request_w);
    m.assign(alloc_ok, alloc & free_o);
    m.assign(add_slot, counts.part(add_entry * count_w, req_w));
    m.assign(add_ok, add & !alloc & room[add_entry]);
    m.assign(widen_ok, add_ok & widen);
    m.assign(req_we, alloc_ok | add_ok);
    m.assign(req_entry, mux(alloc_ok, free_entry_o, add_entry));
    m.assign(req_slot, mux(alloc_ok, zeros(), add_slot));
    m.assign(req_word, mux(alloc_ok, concat({alloc_id, alloc_warp, alloc_mask}), concat({add_id, add_warp, add_mask})));

    // The entry flops, written as one loop per group of entries under the condition that some
    // port writes into the group, so that a simulator tests the entries of at most four groups
    // (one per port) per clock edge, in most cycles none or one: with one always_ff per entry,
    // Verilator decoded all four ports for every entry on every edge (about 13 % of a verilated
    // kmeans run). The writes are the same decoded writes as per entry. A group holds 8 entries,
    // or the largest power of two below that divides Entries (a loop in an always_ff needs a
    // trip count known to the generator, so no short last group); Yosys 0.23 cell counts in
    // docs/performance.md, "Fourth pass".
    Expr group = m.localparam(
        "GroupEntries", mux((entries % 8).eq(0), 8, mux((entries % 4).eq(0), 4, mux((entries % 2).eq(0), 2, 1))));
    Expr group_bits = m.localparam("GroupBits", clog2(group));
    m.comment("Entry e is entry e % GroupEntries of group e / GroupEntries.");
    m.gen_for("g_group", "g", 0, entries / group, [&](Scope& s, const Expr& g) {
      const Expr first = g * group;
      const Expr n = group;
      Expr in_group = s.logic("in_group");
      Expr valid_q = s.logic("valid_q", n);
      Expr filled_q = s.logic("filled_q", n);
      Expr l2_bit_q = s.logic("l2_bit_q", n);
      Expr line_q = s.logic("line_q", n * line_bits);
      Expr sectors_q = s.logic("sectors_q", n * kSectors);
      Expr buffered_q = s.logic("buffered_q", n * kSectors);
      Expr count_q = s.logic("count_q", n * count_w);
      Expr reads_q = s.logic("reads_q", n * kReadsBits);
      const auto here = [&](const Expr& idx) { return (idx >> group_bits).eq(cast(entry_w, g)); };
      s.assign(in_group, (alloc_ok & here(free_entry_o)) | (add_ok & here(add_entry)) | (resp & here(resp_entry)) |
                             (release & here(release_entry)));
      s.always_ff({{valid_q, zeros()},
                   {filled_q, zeros()},
                   {l2_bit_q, zeros()},
                   {line_q, zeros()},
                   {sectors_q, zeros()},
                   {buffered_q, zeros()},
                   {count_q, zeros()},
                   {reads_q, zeros()}},
                  [&](Block& b) {
                    b.if_(in_group, [&](Block& t) {
                      t.for_("i", 0, n, [&](Block& body, const Expr& i) {
                        const Expr e = cast(entry_w, first + i);
                        const Expr count = count_q.part(i * count_w, count_w);
                        const Expr nreads = reads_q.part(i * kReadsBits, kReadsBits);
                        const Expr widen_here = widen_ok.land(add_entry.eq(e));
                        const Expr resp_here = resp.land(resp_entry.eq(e));
                        body.if_(alloc & first_free[first + i], [&](Block& a) {
                          a.assign(valid_q[i], bit(true));
                          a.assign(filled_q[i], bit(false));
                          a.assign(line_q.part(i * line_bits, line_bits), alloc_line);
                          a.assign(sectors_q.part(i * kSectors, kSectors), alloc_sectors);
                          a.assign(buffered_q.part(i * kSectors, kSectors), alloc_buffer);
                          a.assign(count, cast(count_w, 1));
                          a.assign(nreads, lit(kReadsBits, 1));
                          a.assign(l2_bit_q[i], bit(false));
                        }).else_([&](Block& a) {
                          a.if_(release.land(release_entry.eq(e)), [&](Block& r) {
                            r.assign(valid_q[i], bit(false));
                            r.assign(filled_q[i], bit(false));
                          }).else_if(resp_here, [&](Block& r) {
                            r.assign(filled_q[i], filled_q[i] | (nreads.eq(lit(kReadsBits, 1)) & !widen_here));
                            r.assign(l2_bit_q[i], l2_bit_q[i] | resp_l2_bit);
                          });
                          a.if_(add_ok.land(add_entry.eq(e)), [&](Block& r) {
                            r.assign(count, count + cast(count_w, 1));
                            r.assign(buffered_q.part(i * kSectors, kSectors),
                                     buffered_q.part(i * kSectors, kSectors) | add_buffer);
                          });
                          a.assign(nreads, nreads + cast(kReadsBits, widen_here) - cast(kReadsBits, resp_here));
                          a.if_(widen_here, [&](Block& r) {
                            r.assign(sectors_q.part(i * kSectors, kSectors), sectors_q.part(i * kSectors, kSectors) | widen_sectors);
                          });
                        });
                      });
                    });
                  });
      s.assign(valid.part(first, n), valid_q);
      s.assign(filled.part(first, n), filled_q);
      s.assign(l2_bit.part(first, n), l2_bit_q);
      s.assign(lines.part(first * line_bits, n * line_bits), line_q);
      s.assign(sectors.part(first * kSectors, n * kSectors), sectors_q);
      s.assign(buffered.part(first * kSectors, n * kSectors), buffered_q);
      s.assign(counts.part(first * count_w, n * count_w), count_q);
      s.assign(reads.part(first * kReadsBits, n * kReadsBits), reads_q);
    });

    // Staged pipe: the line compares from registers (l1d_mshr_ahead.cpp), else on probe_line_i here.
    const MshrAheadSignals ah{entries,    line_bits,  valid,   lines,        probe_line,
                              alloc,      first_free, alloc_line, release, release_entry};
    const Expr ahead = cfg.l1.pipeline == l1d::L1Pipeline::kStaged ? mshr_probe_ahead(m, ah) : Expr();
    m.gen_for("g_entry", "e", 0, entries, [&](Scope& s, const Expr& e) {
      Expr same_line = s.logic("same_line");
      Expr line = lines.part(e * line_bits, line_bits);
      Expr sec = sectors.part(e * kSectors, kSectors);
      // l1.sector: a load covers what is fetched or buffered, a store conflicts with either.
      Expr buf = buffered.part(e * kSectors, kSectors);
      s.assign(same_line, ahead.empty() ? valid[e].land(line.eq(probe_line)) : ahead[e]);
      s.assign(covers[e],
               (!probe_store).land(same_line).land(block.lor((probe_needed & ~(sec | buf)).eq(zeros()))));
      s.assign(overlaps[e], same_line.land(((sec | mux(probe_store, buf, zeros())) & probe_fetch).ne(zeros())));
      s.assign(room[e], counts.part(e * count_w, count_w).ne(cast(count_w, max_merge)));
    });

    m.comment("The memories: the fill record {bypass, hpc, awid, token} per entry here, the requests");
    m.comment("{id, warp, byte mask} per entry and arrival index (word entry*MaxMerge + index) and the fill");
    m.comment("data per entry in l1d_ram_1r1w instances; one write port each, so that the flops need no");
    m.comment("per-word data multiplexer.");
    Expr req_words = m.localparam("ReqWords", entries * max_merge);
    Expr req_addr_w = m.localparam("ReqAddrBits", mux(req_words.gt(1), clog2(req_words), 1));
    Expr record_q = m.logic("record_q", rec_w, {entries});
    m.always_ff_noreset([&](Block& b) {
      b.if_(alloc_ok, [&](Block& t) {
        t.assign(record_q[free_entry_o],
                 concat({alloc_reserve, alloc_sectors, alloc_bypass, alloc_hpc, alloc_awid, alloc_token}));
      });
    });
    const auto req_addr = [&](const Expr& entry, const Expr& slot) {
      return cast(req_addr_w, entry) * cast(req_addr_w, max_merge) + cast(req_addr_w, slot);
    };
    Expr req_wr_addr = m.logic("req_wr_addr", req_addr_w);
    Expr req_rd_addr = m.logic("req_rd_addr", req_addr_w);
    Expr req_rd_word = m.logic("req_rd_word", request_w);
    Expr data_rd_word = m.logic("data_rd_word", kDataBits);
    m.assign(req_wr_addr, req_addr(req_entry, req_slot));
    m.assign(req_rd_addr, req_addr(rd_entry, rd_req));
    const Module ram = ram_1r1w_block().module(cfg);
    m.instance("u_requests", ram, {{"Words", req_words}, {"Width", request_w}},
               {{"clk_i", clk}, {"wr_en_i", req_we}, {"wr_addr_i", req_wr_addr}, {"wr_data_i", req_word},
                {"rd_addr_i", req_rd_addr}, {"rd_data_o", req_rd_word}});
    mshr_fill_data(m, ram,
                   MshrDataSignals{clk, entries, entry_w, cfg.l1.mshr_entries, late_buffer, resp, resp_entry,
                                   resp_sectors, resp_data, alloc_ok, alloc_buffer, add_ok, add_buffer, free_entry_o,
                                   req_entry, buffer_data, buf_wr, buf_wr_entry, buffered, rd_entry, data_rd_word});

    m.comment("The read port: free entries, unfilled data and requests beyond the count read zero.");
    Expr rd_record = m.logic("rd_record", rec_w);
    Expr rd_request = m.logic("rd_request", request_w);
    Expr rd_req_valid = m.logic("rd_req_valid");
    m.assign(rd_valid_o, valid[rd_entry]);
    m.assign(rd_filled_o, rd_valid_o & filled[rd_entry]);
    m.assign(rd_record, mux(rd_valid_o, record_q[rd_entry], zeros()));
    m.assign(rd_line_o, mux(rd_valid_o, lines.part(rd_entry * line_bits, line_bits), zeros()));
    m.assign(rd_sectors_o, mux(widen_place, mux(rd_valid_o, sectors.part(rd_entry * kSectors, kSectors), zeros()),
                               rd_record.part(hpc_w + (kBypassBits + kAwidBits + 1), kSectors)));
    m.assign(rd_count_o, mux(rd_valid_o, counts.part(rd_entry * count_w, count_w), zeros()));
    m.assign(cnt_count_o, mux(valid[cnt_entry], counts.part(cnt_entry * count_w, count_w), zeros()));
    m.assign(cnt_line_o, mux(valid[cnt_entry], lines.part(cnt_entry * line_bits, line_bits), zeros()));
    m.assign(rd_reserve_o, rd_record.slice(rec_w - 1, rec_w - res_w));
    m.assign(rd_bypass_o, rd_record.part(hpc_w + (kAwidBits + 1), kBypassBits));
    m.assign(merge_res_o, red_or(first_cover).land(record_q[merge_entry_o][rec_w - 1]));
    m.assign(merge_bypass_o,
             red_or(first_cover).land(record_q[merge_entry_o].part(hpc_w + (kAwidBits + 1), kBypassBits).ne(zeros())));
    m.assign(rd_hpc_o, rd_record.part(kAwidBits + 1, hpc_w));
    m.assign(rd_awid_o, rd_record.slice(kAwidBits, 1));
    m.assign(rd_token_o, rd_record[0]);
    m.assign(rd_l2_bit_o, rd_filled_o & l2_bit[rd_entry]);
    m.assign(rd_data_o, mux(rd_filled_o, data_rd_word, zeros()));
    m.assign(rd_req_valid, cast(count_w, rd_req).lt(rd_count_o));
    m.assign(rd_request, mux(rd_req_valid, req_rd_word, zeros()));
    m.assign(rd_id_o, rd_request.slice(request_w - 1, warp_w + kMaskBits));
    m.assign(rd_warp_o, rd_request.part(kMaskBits, warp_w));
    m.assign(rd_mask_o, rd_request.slice(kMaskBits - 1, 0));

    mshr_assertions(m, MshrAssertSignals{cfg.l1.mshr_entries, cfg.l1.mshr_max_merge, entries, max_merge, count_w,
                                         valid, filled, counts, resp, resp_entry, add, add_entry, alloc, release,
                                         release_entry, free_o, free_entry_o});
    return m;
  }
};

}  // namespace

const RtlBlock& mshr_block() {
  static const Mshr block;
  return block;
}

}  // namespace gen::blocks
