// l1d_top: the L1 data cache of one SM (docs/l1d-microarchitecture.md, the contract; golden
// model golden::L1). It composes the blocks: address decoders, the tag/state array, the data
// array, the MSHR file, the replacement state, the AGCB table, the two-level unit, the
// granularity selector, the AgeLRU ages, and the decision units the staged L1's M1 and M2 share
// (l1d_core_match around the chunk-tag match controller, l1d_fill_place, l1d_flush_keep); and adds
// what belongs to the whole cache: the lookup stage S1, the fill unit, the flush walker, the miss
// queue, the fill FIFO, the response register and the counters.
//
// Structure of the cycle (microarchitecture doc section 3). One actor uses the arrays per cycle
// (fill > flush > S1); each actor's decision is combinational on the state at the start of the
// cycle (its own section below computes it), and one always_comb (`actors`) turns the acting
// actor's decision into flags and narrow outputs: the MSHR operations, the write-backs and the
// final push for the miss queue, the response's valid/id/outcome, and the counter increments.
// The wide writes (the tag/state row and the data row of one set, the response data, the miss
// queue's entries) are computed outside it from those flags, every candidate once, and selected
// with slot masks and one-hot flags (row_writes, response, miss_queue): written as partial
// assignments inside the actors' branches, each became a multiplexer of its whole width in Yosys. Every output is a register or a
// function of registers (Moore), as the contract requires.
//
// Bypassing, granularity and their options are selected by static configuration inputs (cfg_*_i,
// registered, held constant after reset), so one model serves every policy preset that shares a
// replacement policy; the replacement policy is built into l1d_repl_state (its generator emits only the
// chosen policy's logic), and numeric policy settings (AGCB table shape and threshold,
// two-level thresholds, DyCache sample, BIP/DIP constants) are parameters of the instantiated
// blocks, taken from the configuration.
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/l1d_top_assert.h"
#include "gen/blocks/wide_select.h"

namespace gen::blocks {

namespace {

constexpr unsigned kSlots = 4;
constexpr unsigned kLineBits = 1024;  // 128 B
constexpr unsigned kMaskBits = 128;
constexpr unsigned kSlotBits = 256;   // 32 B
constexpr unsigned kIdBits = 32;
constexpr unsigned kWarpBits = 8;
constexpr unsigned kAwidBits = 8;
constexpr unsigned kPcBits = 64;
constexpr unsigned kMshrPortBits = 8;  // MemReq::mshr / MemResp::mshr
constexpr unsigned kCounterBits = 64;

// The counters of golden::L1Counters, in its order, with the names the ports carry.
const std::vector<std::string>& counter_names() {
  static const std::vector<std::string> kNames = {
      "cycles",         "accesses",         "loads",           "stores",           "hits",
      "misses",         "partial_hits",     "hits_32",         "hits_64",          "hits_128",
      "misses_32",      "misses_64",        "misses_128",      "bypasses",         "merges",
      "fail_mshr_full", "fail_merge_full",  "fail_conflict",   "fail_queue_full",  "fills",
      "fills_allocated", "agcb_overrides",  "writebacks",      "mem_reads",        "mem_writes",
      "gran_switches",  "flush_cycles",     "s1_stall_cycles", "fill_stall_cycles"};
  return kNames;
}

// Miss-queue request fields (LSB first): a MemReq without its data and mask, and whether the
// entry is a write-back (its payload is a slot, placed at its sector when sent).
struct ReqLayout {
  unsigned line_bits;
  unsigned mshr = 0, agcb = kMshrPortBits, bypass = agcb + 1, wb = bypass + 1, sectors = wb + 1,
           store = sectors + kSlots, line = store + 1;
  unsigned width() const { return line + line_bits; }
  Expr pack(const Expr& line_v, const Expr& store_v, const Expr& sectors_v, const Expr& wb_v, const Expr& bypass_v,
            const Expr& agcb_v, const Expr& mshr_v) const {
    return concat({line_v, store_v, sectors_v, wb_v, bypass_v, agcb_v, mshr_v});
  }
};

class Top {
 public:
  Top(const l1d::Config& cfg, std::string_view name) : cfg_(cfg), split_(cfg.l1), m(name) {
    sets_ = split_.sets();
    ways_ = cfg.l1.ways;
    addr_bits_ = cfg.l1.address_bits;
    line_bits_ = addr_bits_ - 7;
    set_idx_bits_ = std::max(split_.set_bits(), 1U);
    ct_bits_ = split_.chunk_tag_bits();
    cm_bits_ = std::max(split_.common_tag_bits(), 1U);
    way_bits_ = bits_for(ways_);
    hpc_bits_ = static_cast<unsigned>(std::countr_zero(cfg.policy.agcb.entries));
    mshrs_ = cfg.l1.mshr_entries;
    mshr_bits_ = bits_for(mshrs_);
    merge_ = cfg.l1.mshr_max_merge;
    req_idx_bits_ = bits_for(merge_);
    count_bits_ = static_cast<unsigned>(std::bit_width(merge_));
    queue_ = cfg.l1.miss_queue_entries;
    queue_idx_bits_ = bits_for(queue_);
    queue_count_bits_ = static_cast<unsigned>(std::bit_width(queue_));
    occ_bits_ = static_cast<unsigned>(std::bit_width(cfg.core.warps_per_sm));
    req_layout_.line_bits = line_bits_;
  }

  Module build() {
    describe();
    ports();
    registers();
    decode_and_select();
    storage();
    policy_units();
    s1_decision();
    fill_decision();
    flush_decision();
    actors();
    row_writes();
    response();
    miss_queue();
    fill_fifo();
    state_updates();
    counters();
    outputs();
    assertions();
    return std::move(m);
  }

 private:
  // ---------------------------------------------------------------------------------------
  void describe() {
    m.describe("The L1 data cache of one SM (docs/l1d-microarchitecture.md; golden model golden::L1).");
    m.describe("Ports as in the contract's section 1: core request (valid/ready), core response (valid),");
    m.describe("memory request (valid/ready), memory response (valid), events, occupancy, agelru_enable,");
    m.describe("and one counter output per golden::L1Counters field (cnt_*_o). Every output is a function");
    m.describe("of the registers only (Moore). Sizes: 0 = 32 B, 1 = 64 B, 2 = 128 B; outcome: 0 hit,");
    m.describe("1 miss-return, 2 bypass-return, 3 store-ack. Static configuration inputs, registered (set");
    m.describe("them before reset and hold them): cfg_bypass_i (0 none, 1 AGCB, 2 two-level, 3 PCAL,");
    m.describe("4 AgeLRU), cfg_gran_i (0 fixed 128 B, 1 static 64 B, 2 static 32 B, 3 dynamic), cfg_bto_i,");
    m.describe("cfg_opportunistic_i (PCAL), cfg_keep_large_i (DyCache). The replacement policy is the");
    m.describe("configuration's, built into u_repl.");
    m.describe("One actor uses the arrays per cycle: the fill unit, else the flush walker, else S1.");
    m.describe("Geometry (sets, ways, address and chunk-tag bits, MSHRs, miss queue) is the configuration's,");
    m.describe("fixed by the generator in the instantiated blocks and the widths below; WriteBack selects the");
    m.describe("write policy of store hits.");
  }

  void ports() {
    write_back_ = m.param("WriteBack", Type::logic(), bit(cfg_.l1.write_policy == l1d::WritePolicy::kWriteBack));

    clk = m.clk();
    rst = m.rst_n();
    const Expr cfg_bypass_i = m.input("cfg_bypass_i", 3);
    const Expr cfg_gran_i = m.input("cfg_gran_i", 2);
    const Expr cfg_bto_i = m.input("cfg_bto_i");
    const Expr cfg_opp_i = m.input("cfg_opportunistic_i");
    const Expr cfg_keep_i = m.input("cfg_keep_large_i");
    // Quasi-static configuration, registered so that no logic depends combinationally on it:
    // a change takes effect one cycle later (the reset cycle loads it before the first request).
    // Besides the timing, this keeps Verilator from re-evaluating all the lookup logic whenever
    // an input is written (docs/performance.md).
    cfg_bypass = m.logic("cfg_bypass_q", 3);
    cfg_gran = m.logic("cfg_gran_q", 2);
    cfg_bto = m.logic("cfg_bto_q");
    cfg_opp = m.logic("cfg_opportunistic_q");
    cfg_keep = m.logic("cfg_keep_large_q");
    cfg_in_ = {cfg_bypass_i, cfg_gran_i, cfg_bto_i, cfg_opp_i, cfg_keep_i};
    m.always_ff_noreset([&](Block& b) {
      b.assign(cfg_bypass, cfg_bypass_i);
      b.assign(cfg_gran, cfg_gran_i);
      b.assign(cfg_bto, cfg_bto_i);
      b.assign(cfg_opp, cfg_opp_i);
      b.assign(cfg_keep, cfg_keep_i);
    });

    req_valid = m.input("core_req_valid_i");
    req_ready = m.output("core_req_ready_o");
    req_id = m.input("core_req_id_i", kIdBits);
    req_warp = m.input("core_req_warp_i", kWarpBits);
    req_awid = m.input("core_req_awid_i", kAwidBits);
    req_token = m.input("core_req_token_i");
    req_pc = m.input("core_req_pc_i", kPcBits);
    req_store = m.input("core_req_store_i");
    req_addr = m.input("core_req_addr_i", addr_bits_);
    req_size = m.input("core_req_size_i", 2);
    req_mask = m.input("core_req_mask_i", kMaskBits);
    req_data = m.input("core_req_data_i", kLineBits);

    resp_valid_o = m.output("core_resp_valid_o");
    resp_id_o = m.output("core_resp_id_o", kIdBits);
    resp_warp_o = m.output("core_resp_warp_o", kWarpBits);
    resp_outcome_o = m.output("core_resp_outcome_o", 2);
    resp_data_o = m.output("core_resp_data_o", kLineBits);

    mem_valid_o = m.output("mem_req_valid_o");
    mem_ready = m.input("mem_req_ready_i");
    mem_line_o = m.output("mem_req_line_o", line_bits_);
    mem_store_o = m.output("mem_req_store_o");
    mem_sectors_o = m.output("mem_req_sectors_o", kSlots);
    mem_mask_o = m.output("mem_req_mask_o", kMaskBits);
    mem_data_o = m.output("mem_req_data_o", kLineBits);
    mem_bypass_o = m.output("mem_req_bypass_o");
    mem_agcb_o = m.output("mem_req_agcb_o");
    mem_mshr_o = m.output("mem_req_mshr_o", kMshrPortBits);

    rsp_valid = m.input("mem_resp_valid_i");
    rsp_mshr = m.input("mem_resp_mshr_i", kMshrPortBits);
    rsp_data = m.input("mem_resp_data_i", kLineBits);
    rsp_l2 = m.input("mem_resp_l2_bit_i");

    ev_launch = m.input("warp_launch_i");
    ev_exit = m.input("warp_exit_i");
    ev_exit_awid = m.input("exit_awid_i", kAwidBits);
    ev_exit_has_next = m.input("exit_has_next_i");
    ev_exit_next = m.input("exit_next_i", kAwidBits);
    ev_kstart = m.input("kernel_start_i");
    ev_kend = m.input("kernel_end_i");
    occupancy = m.input("occupancy_i", occ_bits_);
    agelru_enable = m.input("agelru_enable_i");

    idle_o = m.output("idle_o");
    quiet_o = m.output("quiet_o");
    gran_o = m.output("gran_o", 2);
    for (const std::string& n : counter_names()) cnt_o.push_back(m.output("cnt_" + n + "_o", kCounterBits));
  }

  // ---------------------------------------------------------------------------------------
  // Registers of the whole cache (the blocks hold their own).
  void registers() {
    m.comment("S1, the lookup stage: the request that fired on the core port last cycle.");
    s1_valid_q = m.logic("s1_valid_q");
    s1_id_q = m.logic("s1_id_q", kIdBits);
    s1_warp_q = m.logic("s1_warp_q", kWarpBits);
    s1_awid_q = m.logic("s1_awid_q", kAwidBits);
    s1_token_q = m.logic("s1_token_q");
    s1_pc_q = m.logic("s1_pc_q", kPcBits);
    s1_store_q = m.logic("s1_store_q");
    s1_addr_q = m.logic("s1_addr_q", addr_bits_);
    s1_size_q = m.logic("s1_size_q", 2);
    s1_mask_q = m.logic("s1_mask_q", kMaskBits);
    s1_data_q = m.logic("s1_data_q", kLineBits);
    m.comment("The response register: what the actor of the last cycle answered.");
    resp_valid_d = m.logic("resp_valid_d");
    resp_valid_q = m.logic("resp_valid_q");
    resp_id_d = m.logic("resp_id_d", kIdBits);
    resp_id_q = m.logic("resp_id_q", kIdBits);
    resp_warp_d = m.logic("resp_warp_d", kWarpBits);
    resp_warp_q = m.logic("resp_warp_q", kWarpBits);
    resp_outcome_d = m.logic("resp_outcome_d", 2);
    resp_outcome_q = m.logic("resp_outcome_q", 2);
    resp_data_d = m.logic("resp_data_d", kLineBits);
    resp_data_q = m.logic("resp_data_q", kLineBits);
    m.comment("Fill unit: the head entry is placed (cycle 0 done), whether it allocated, the next request.");
    fill_placed_d = m.logic("fill_placed_d");
    fill_placed_q = m.logic("fill_placed_q");
    fill_alloc_d = m.logic("fill_alloc_d");
    fill_alloc_q = m.logic("fill_alloc_q");
    fill_index_d = m.logic("fill_index_d", req_idx_bits_);
    fill_index_q = m.logic("fill_index_q", req_idx_bits_);
    m.comment("Flush walker: the next line (set-major, way-minor) and whether it is a kernel-end flush.");
    flushing_d = m.logic("flushing_d");
    flushing_q = m.logic("flushing_q");
    flush_all_d = m.logic("flush_all_d");
    flush_all_q = m.logic("flush_all_q");
    flush_set_d = m.logic("flush_set_d", set_idx_bits_);
    flush_set_q = m.logic("flush_set_q", set_idx_bits_);
    flush_way_d = m.logic("flush_way_d", way_bits_);
    flush_way_q = m.logic("flush_way_q", way_bits_);
    m.comment("Dynamic-AgeLRU voting input (registered, contract section 1) and the last cycle's G.");
    agelru_en_q = m.logic("agelru_en_q");
    gran_prev_q = m.logic("gran_prev_q", 2);
  }

  // ---------------------------------------------------------------------------------------
  // Address decoders, the current granularity and the acting actor.
  void decode_and_select() {
    const Module decode = addr_decode_block().module(cfg_);
    m.comment("S1's address.");
    s1_set = m.logic("s1_set", set_idx_bits_);
    s1_common = m.logic("s1_common", cm_bits_);
    s1_chunk_tag = m.logic("s1_chunk_tag", ct_bits_);
    s1_chunk = m.logic("s1_chunk", 2);
    m.instance("u_s1_decode", decode, {}, {{"addr_i", s1_addr_q}, {"set_o", s1_set}, {"common_tag_o", s1_common},
                                           {"chunk_tag_o", s1_chunk_tag}, {"chunk_o", s1_chunk}});

    m.comment("The fill unit's head entry (MSHR read port) and the address of its block's first chunk.");
    fill_head = m.logic("fill_head", mshr_bits_);
    mr_valid = m.logic("mr_valid");
    mr_filled = m.logic("mr_filled");
    mr_line = m.logic("mr_line", line_bits_);
    mr_sectors = m.logic("mr_sectors", kSlots);
    mr_bypass = m.logic("mr_bypass", 2);
    mr_hpc = m.logic("mr_hpc", hpc_bits_);
    mr_awid = m.logic("mr_awid", kAwidBits);
    mr_token = m.logic("mr_token");
    mr_l2 = m.logic("mr_l2");
    mr_count = m.logic("mr_count", count_bits_);
    mr_data = m.logic("mr_data", kLineBits);
    mr_id = m.logic("mr_id", kIdBits);
    mr_warp = m.logic("mr_warp", kWarpBits);
    mr_mask = m.logic("mr_mask", kMaskBits);
    fill_first = m.logic("fill_first", 2);
    fill_slots = m.logic("fill_slots", 3);
    m.always_comb({{fill_first, lit(2, 0)}}, [&](Block& b) {
      b.comment("The lowest fetched sector (an allocating fetch is one aligned block).");
      for (int s = kSlots - 1; s >= 0; --s) {
        b.if_(mr_sectors[static_cast<unsigned>(s)], [&](Block& t) { t.assign(fill_first, lit(2, static_cast<uint64_t>(s))); });
      }
    });
    m.assign(fill_slots, cast(3, countones(mr_sectors)));
    fill_addr = m.logic("fill_addr", addr_bits_);
    m.assign(fill_addr, concat({mr_line, fill_first, lit(5, 0)}));
    fill_set = m.logic("fill_set", set_idx_bits_);
    fill_common = m.logic("fill_common", cm_bits_);
    fill_chunk_tag = m.logic("fill_chunk_tag", ct_bits_);
    Expr unused_fill_chunk = m.logic("unused_fill_chunk", 2);
    Expr unused_fill_tag_low = m.logic("unused_fill_tag_low");
    m.assign(unused_fill_tag_low, red_or(fill_chunk_tag.slice(1, 0)));
    m.instance("u_fill_decode", decode, {}, {{"addr_i", fill_addr}, {"set_o", fill_set}, {"common_tag_o", fill_common},
                                             {"chunk_tag_o", fill_chunk_tag}, {"chunk_o", unused_fill_chunk}});

    m.comment("The current granularity G: fixed by the mode, or the selector's.");
    sel_gran = m.logic("sel_gran", 2);
    sel_switch = m.logic("sel_switch");
    gran = m.logic("gran", 2);
    dynamic = m.logic("dynamic");
    m.assign(dynamic, cfg_gran.eq(lit(2, 3)));
    m.assign(gran, mux(dynamic, sel_gran, mux(cfg_gran.eq(lit(2, 1)), lit(2, 1),
                                              mux(cfg_gran.eq(lit(2, 2)), lit(2, 0), lit(2, 2)))));

    m.comment("Actors. The selector's switch is registered with the new G, so a small-to-large switch");
    m.comment("decided last cycle starts the flush walker now (flush_start): the golden L1 flushes from the");
    m.comment("cycle after the decision, as here.");
    fifo_count_q = m.logic("fifo_count_q", bits_for(mshrs_ + 1));
    flush_start = m.logic("flush_start");
    flush_on = m.logic("flush_on");
    act_fill = m.logic("act_fill");
    act_flush = m.logic("act_flush");
    act_s1 = m.logic("act_s1");
    m.assign(flush_start, sel_switch.land(dynamic).land(sel_gran.gt(gran_prev_q)).land(!flushing_q));
    m.assign(flush_on, flushing_q.lor(flush_start));
    m.assign(act_fill, fifo_count_q.ne(zeros()));
    m.assign(act_flush, (!act_fill).land(flush_on));
    m.assign(act_s1, (!act_fill).land(!flush_on).land(s1_valid_q));

    m.comment("The line the flush walker visits (line 0 when it starts).");
    walk_set = m.logic("walk_set", set_idx_bits_);
    walk_way = m.logic("walk_way", way_bits_);
    m.assign(walk_set, mux(flushing_q, flush_set_q, zeros()));
    m.assign(walk_way, mux(flushing_q, flush_way_q, zeros()));
    rd_set = m.logic("rd_set", set_idx_bits_);
    m.assign(rd_set, mux(act_fill, fill_set, mux(act_flush, walk_set, s1_set)));
  }

  // ---------------------------------------------------------------------------------------
  // Tag/state array, data array, MSHR file.
  void storage() {
    m.comment("The set the acting actor works on: every way's state and data.");
    t_common = m.logic("t_common", ways_ * cm_bits_);
    t_valid = m.logic("t_valid", ways_ * kSlots);
    t_dirty = m.logic("t_dirty", ways_ * kSlots * 32);
    t_tag = m.logic("t_tag", ways_ * kSlots * ct_bits_);
    t_rank = m.logic("t_rank", ways_ * kSlots * 2);
    t_hpc = m.logic("t_hpc", ways_ * hpc_bits_);
    t_awid = m.logic("t_awid", ways_ * kAwidBits);
    t_prio = m.logic("t_prio", ways_);
    w_en = m.logic("w_en", ways_);
    w_common = m.logic("w_common", ways_ * cm_bits_);
    w_valid = m.logic("w_valid", ways_ * kSlots);
    w_dirty = m.logic("w_dirty", ways_ * kSlots * 32);
    w_tag = m.logic("w_tag", ways_ * kSlots * ct_bits_);
    w_rank = m.logic("w_rank", ways_ * kSlots * 2);
    w_hpc = m.logic("w_hpc", ways_ * hpc_bits_);
    w_awid = m.logic("w_awid", ways_ * kAwidBits);
    w_prio = m.logic("w_prio", ways_);
    m.instance("u_tags", tag_array_block().module(cfg_), {},
               {{"clk_i", clk}, {"rst_ni", rst}, {"rd_set_i", rd_set},
                {"rd_common_tag_o", t_common}, {"rd_valid_o", t_valid}, {"rd_dirty_o", t_dirty},
                {"rd_chunk_tag_o", t_tag}, {"rd_slot_rank_o", t_rank}, {"rd_hpc_o", t_hpc},
                {"rd_awid_o", t_awid}, {"rd_priority_o", t_prio},
                {"wr_set_i", rd_set}, {"wr_way_en_i", w_en}, {"wr_common_tag_i", w_common},
                {"wr_valid_i", w_valid}, {"wr_dirty_i", w_dirty}, {"wr_chunk_tag_i", w_tag},
                {"wr_slot_rank_i", w_rank}, {"wr_hpc_i", w_hpc}, {"wr_awid_i", w_awid},
                {"wr_priority_i", w_prio}, {"clear_priority_i", ev_kend}});

    m.comment("Whether each slot of the row has a dirty byte (bit 4w+s: slot s of way w).");
    t_dirty_any = m.logic("t_dirty_any", ways_ * kSlots);
    m.gen_for("g_dirty_any", "gi", 0, ways_ * kSlots, [&](Scope& g, const Expr& i) {
      g.assign(t_dirty_any[i], red_or(t_dirty.part(i * 32, 32)));
    });

    t_data = m.logic("t_data", ways_ * kLineBits);
    d_be = m.logic("d_be", ways_ * kMaskBits);
    d_line = m.logic("d_line", kLineBits);  // the written way's new bytes (d_be selects)
    m.instance("u_data", data_sram_block().module(cfg_), {},
               {{"clk_i", clk}, {"rd_set_i", rd_set}, {"rd_data_o", t_data}, {"wr_set_i", rd_set},
                {"wr_be_i", d_be}, {"wr_data_i", repl(Expr(ways_), d_line)}});

    m.comment("MSHR file: S1 probes, allocates and merges; the memory response fills; the fill unit reads");
    m.comment("its head entry and releases it.");
    p_merge = m.logic("p_merge");
    p_merge_full = m.logic("p_merge_full");
    p_merge_entry = m.logic("p_merge_entry", mshr_bits_);
    p_conflict = m.logic("p_conflict");
    p_free = m.logic("p_free");
    p_free_entry = m.logic("p_free_entry", mshr_bits_);
    mshr_in_use = m.logic("mshr_in_use", bits_for(mshrs_ + 1));
    s1_line = m.logic("s1_line", line_bits_);
    m.assign(s1_line, s1_addr_q.slice(addr_bits_ - 1, 7));
    s1_needed = m.logic("s1_needed", kSlots);
    s1_fetch = m.logic("s1_fetch", kSlots);
    s1_probe_sectors = m.logic("s1_probe_sectors", kSlots);
    mshr_alloc = m.logic("mshr_alloc");
    mshr_add = m.logic("mshr_add");
    mshr_release = m.logic("mshr_release");
    s1_hpc = m.logic("s1_hpc", hpc_bits_);
    s1_reason = m.logic("s1_reason", 2);
    rsp_entry = m.logic("rsp_entry", mshr_bits_);
    m.assign(rsp_entry, rsp_mshr.slice(mshr_bits_ - 1, 0));
    Expr unused_rsp_mshr = m.logic("unused_rsp_mshr");
    m.assign(unused_rsp_mshr, mshr_bits_ < kMshrPortBits ? red_or(rsp_mshr.slice(kMshrPortBits - 1, mshr_bits_))
                                                         : bit(false));
    if (mshrs_ < (1U << kMshrPortBits)) {
      m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
        v.comment("A memory response names an existing MSHR: u_mshr sees only the low bits of its id.");
        v.assert_clocked("TopMemRespMshrInRange_A", (!rsp_valid).lor(rsp_mshr.lt(lit(kMshrPortBits, mshrs_))));
      });
    }
    m.instance("u_mshr", mshr_block().module(cfg_), {},
               {{"clk_i", clk}, {"rst_ni", rst},
                {"probe_line_i", s1_line}, {"probe_needed_i", s1_needed}, {"probe_fetch_i", s1_probe_sectors},
                {"probe_store_i", s1_store_q}, {"merge_o", p_merge}, {"merge_full_o", p_merge_full},
                {"merge_entry_o", p_merge_entry}, {"conflict_o", p_conflict}, {"free_o", p_free},
                {"free_entry_o", p_free_entry}, {"in_use_o", mshr_in_use},
                {"alloc_i", mshr_alloc}, {"alloc_line_i", s1_line}, {"alloc_sectors_i", s1_fetch},
                {"alloc_bypass_i", s1_reason}, {"alloc_hpc_i", s1_hpc}, {"alloc_awid_i", s1_awid_q},
                {"alloc_token_i", s1_token_q}, {"alloc_id_i", s1_id_q}, {"alloc_warp_i", s1_warp_q},
                {"alloc_mask_i", s1_mask_q},
                {"add_i", mshr_add}, {"add_entry_i", p_merge_entry}, {"add_id_i", s1_id_q},
                {"add_warp_i", s1_warp_q}, {"add_mask_i", s1_mask_q},
                {"resp_i", rsp_valid}, {"resp_entry_i", rsp_entry}, {"resp_l2_bit_i", rsp_l2},
                {"resp_data_i", rsp_data},
                {"rd_entry_i", fill_head}, {"rd_req_i", fill_index_q}, {"rd_valid_o", mr_valid},
                {"rd_filled_o", mr_filled}, {"rd_line_o", mr_line}, {"rd_sectors_o", mr_sectors},
                {"rd_bypass_o", mr_bypass}, {"rd_hpc_o", mr_hpc}, {"rd_awid_o", mr_awid}, {"rd_token_o", mr_token},
                {"rd_l2_bit_o", mr_l2}, {"rd_count_o", mr_count}, {"rd_data_o", mr_data}, {"rd_id_o", mr_id},
                {"rd_warp_o", mr_warp}, {"rd_mask_o", mr_mask},
                {"release_i", mshr_release}, {"release_entry_i", fill_head}});
    Expr unused_mr = m.logic("unused_mr");
    m.assign(unused_mr, mr_valid ^ mr_filled);
  }

  // ---------------------------------------------------------------------------------------
  // AGCB table, two-level unit, granularity selector, AgeLRU ages, replacement state.
  void policy_units() {
    agcb_dec = m.logic("agcb_dec");
    agcb_dec_idx = m.logic("agcb_dec_idx", hpc_bits_);
    agcb_inc = m.logic("agcb_inc");
    agcb_inc_idx = m.logic("agcb_inc_idx", hpc_bits_);
    agcb_bypass = m.logic("agcb_bypass");
    m.instance("u_agcb", agcb_table_block().module(cfg_), {},
               {{"clk_i", clk}, {"rst_ni", rst}, {"pc_i", s1_pc_q}, {"dec_i", agcb_dec}, {"dec_idx_i", agcb_dec_idx},
                {"inc_i", agcb_inc}, {"inc_idx_i", agcb_inc_idx}, {"hpc_o", s1_hpc}, {"bypass_o", agcb_bypass}});

    tl_access = m.logic("tl_access");
    tl_miss = m.logic("tl_miss");
    tl_bypass = m.logic("tl_bypass");
    Expr tl_accesses = m.logic("unused_tl_accesses", 13);
    Expr tl_misses = m.logic("unused_tl_misses", 13);
    m.instance("u_two_level", two_level_block().module(cfg_), {},
               {{"clk_i", clk}, {"rst_ni", rst}, {"access_i", tl_access}, {"miss_i", tl_miss},
                {"occupancy_i", occupancy}, {"kernel_start_i", ev_kstart}, {"bypass_o", tl_bypass},
                {"accesses_o", tl_accesses}, {"misses_o", tl_misses}});

    sel_record = m.logic("sel_record");
    sel_miss = m.logic("sel_miss");
    m.instance("u_gran_selector", gran_selector_block().module(cfg_), {},
               {{"clk_i", clk}, {"rst_ni", rst}, {"record_i", sel_record}, {"size_i", s1_size_q}, {"miss_i", sel_miss},
                {"gran_o", sel_gran}, {"switch_o", sel_switch}});

    m.comment("AgeLRU ages: one query per way of the set being worked on, and one for the fill's requester.");
    age_ids = m.logic("age_ids", (ways_ + 1) * kAwidBits);
    age_active = m.logic("age_active", ways_ + 1);
    age_rel = m.logic("age_rel", (ways_ + 1) * kAwidBits);
    age_oldest = m.logic("age_oldest", kAwidBits);
    age_youngest = m.logic("age_youngest", kAwidBits);
    age_empty = m.logic("age_empty");
    m.assign(age_ids, concat({mr_awid, t_awid}));
    m.instance("u_ages", agelru_ages_block().module(cfg_), {},
               {{"clk_i", clk}, {"rst_ni", rst}, {"launch_i", ev_launch}, {"exit_i", ev_exit},
                {"exit_awid_i", ev_exit_awid}, {"exit_has_next_i", ev_exit_has_next}, {"exit_next_i", ev_exit_next},
                {"id_i", age_ids}, {"oldest_o", age_oldest}, {"youngest_o", age_youngest}, {"empty_o", age_empty},
                {"active_o", age_active}, {"rel_age_o", age_rel}});

    m.comment("Replacement state: S1 hits and misses, fills, and the fill's victim query.");
    rp_hit = m.logic("rp_hit");
    rp_miss = m.logic("rp_miss");
    rp_fill = m.logic("rp_fill");
    rp_way = m.logic("rp_way", way_bits_);  // the hit or filled way
    rp_eligible = m.logic("rp_eligible", ways_);
    rp_victim = m.logic("rp_victim", way_bits_);
    Expr rp_ranks = m.logic("unused_rp_ranks", ways_ * way_bits_);
    way_active = m.logic("way_active", ways_);
    way_rel = m.logic("way_rel", ways_ * kAwidBits);
    m.assign(way_active, age_active.slice(ways_ - 1, 0));
    m.assign(way_rel, age_rel.slice(ways_ * kAwidBits - 1, 0));
    m.instance("u_repl", repl_state_block().module(cfg_), {},
               {{"clk_i", clk}, {"rst_ni", rst},
                {"hit_i", rp_hit}, {"hit_set_i", rd_set}, {"hit_way_i", rp_way},
                {"miss_i", rp_miss}, {"miss_set_i", rd_set},
                {"fill_i", rp_fill}, {"fill_set_i", rd_set}, {"fill_way_i", rp_way},
                {"set_i", rd_set}, {"eligible_i", rp_eligible}, {"way_active_i", way_active},
                {"way_rel_age_i", way_rel}, {"age_filter_i", agelru_en_q}, {"victim_o", rp_victim},
                {"ranks_o", rp_ranks}});
    Expr unused_ages = m.logic("unused_ages");
    m.comment("The requester's active bit is not needed (only its relative age is compared).");
    m.assign(unused_ages, red_or(age_oldest) ^ red_or(age_youngest) ^ age_empty ^ age_active[Expr(ways_)]);
  }

  // ---------------------------------------------------------------------------------------
  // S1: the match, the bypass decision, the sectors and the copies (l1d_core_match).
  void s1_decision() {
    m_hit = m.logic("m_hit");
    m_partial = m.logic("m_partial");
    m_way = m.logic("m_way", way_bits_);
    m_slots = m.logic("m_slots", kSlots);
    m_copies = m.logic("m_copies", ways_ * kSlots);
    cp_way = m.logic("cp_way", kSlots * way_bits_);
    cp_slot = m.logic("cp_slot", kSlots * 2);
    cp_wb = m.logic("cp_wb", kSlots);
    cp_off = m.logic("cp_off", kSlots * 3);
    s1_dirty_n = m.logic("s1_dirty_n", 3);
    m.instance("u_core_match", core_match_block().module(cfg_), {},
               {{"store_i", s1_store_q}, {"size_i", s1_size_q}, {"chunk_i", s1_chunk}, {"mask_i", s1_mask_q},
                {"token_i", s1_token_q}, {"common_tag_i", s1_common}, {"chunk_tag_i", s1_chunk_tag}, {"gran_i", gran},
                {"cfg_bypass_i", cfg_bypass}, {"cfg_bto_i", cfg_bto}, {"cfg_opportunistic_i", cfg_opp},
                {"agcb_bypass_i", agcb_bypass}, {"two_level_bypass_i", tl_bypass}, {"row_common_tag_i", t_common},
                {"row_valid_i", t_valid}, {"row_chunk_tag_i", t_tag}, {"row_dirty_any_i", t_dirty_any},
                {"needed_o", s1_needed}, {"fetch_o", s1_fetch}, {"probe_o", s1_probe_sectors},
                {"reason_o", s1_reason}, {"hit_o", m_hit}, {"partial_o", m_partial}, {"hit_way_o", m_way},
                {"hit_slots_o", m_slots}, {"copies_o", m_copies}, {"cp_way_o", cp_way}, {"cp_slot_o", cp_slot},
                {"cp_wb_o", cp_wb}, {"cp_off_o", cp_off}, {"writebacks_o", s1_dirty_n}});
  }

  // ---------------------------------------------------------------------------------------
  // Fill unit, cycle 0: allocate? where? write-backs? (contract section 6; l1d_fill_place)
  void fill_decision() {
    fill_way = m.logic("fill_way", way_bits_);
    fill_pos = m.logic("fill_pos_eff", 2);
    fill_whole = m.logic("fill_whole");
    fill_posmask = m.logic("fill_posmask", kSlots);
    fill_slotmask = m.logic("fill_slotmask", kSlots);
    fill_replaces = m.logic("fill_replaces");
    fill_wb = m.logic("fill_wb", kSlots);
    fill_dirty_n = m.logic("fill_dirty_n", 3);
    fill_allocates = m.logic("fill_allocates");
    Expr age_bypass_en = m.logic("fill_age_bypass_en");
    m.assign(age_bypass_en, cfg_bypass.eq(lit(3, 4)) & agelru_en_q);
    m.instance("u_fill_place", fill_place_block().module(cfg_), {},
               {{"row_valid_i", t_valid}, {"row_common_tag_i", t_common}, {"row_priority_i", t_prio},
                {"row_rank_i", t_rank}, {"row_dirty_any_i", t_dirty_any}, {"common_tag_i", fill_common},
                {"slots_i", fill_slots}, {"bypass_i", mr_bypass}, {"l2_bit_i", mr_l2}, {"gran_i", gran},
                {"cfg_opportunistic_i", cfg_opp}, {"victim_i", rp_victim}, {"age_bypass_en_i", age_bypass_en},
                {"way_active_i", way_active}, {"way_rel_age_i", way_rel},
                {"req_rel_age_i", age_rel.part(Expr(ways_ * kAwidBits), kAwidBits)},
                {"eligible_o", rp_eligible}, {"allocates_o", fill_allocates}, {"way_o", fill_way},
                {"pos_o", fill_pos}, {"whole_o", fill_whole}, {"replace_slots_o", fill_posmask},
                {"block_slots_o", fill_slotmask}, {"replaces_valid_o", fill_replaces}, {"writeback_slots_o", fill_wb},
                {"writebacks_o", fill_dirty_n}});
  }

  // ---------------------------------------------------------------------------------------
  // Flush walker: the slots it keeps (keep_large_pieces) and writes back (section 7; l1d_flush_keep).
  void flush_decision() {
    Expr valid = m.logic("walk_valid", kSlots);
    Expr tag = m.logic("walk_tag", kSlots * ct_bits_);
    Expr dirty_any = m.logic("walk_dirty_any", kSlots);
    m.assign(valid, select_part(t_valid, walk_way, ways_, kSlots));
    m.assign(tag, select_part(t_tag, walk_way, ways_, kSlots * ct_bits_));
    m.assign(dirty_any, select_part(t_dirty_any, walk_way, ways_, kSlots));
    Expr keep_any = m.logic("walk_keep_any");
    m.assign(keep_any, cfg_keep & !flush_all_q);
    walk_keep = m.logic("walk_keep", kSlots);
    walk_wb = m.logic("walk_wb", kSlots);
    walk_dirty_n = m.logic("walk_dirty_n", 3);
    m.instance("u_flush_keep", flush_keep_block().module(cfg_), {},
               {{"valid_i", valid}, {"chunk_tag_i", tag}, {"dirty_any_i", dirty_any}, {"gran_i", gran},
                {"keep_i", keep_any}, {"keep_o", walk_keep}, {"writeback_slots_o", walk_wb},
                {"writebacks_o", walk_dirty_n}});
    walk_last = m.logic("walk_last");
    m.assign(walk_last, walk_set.eq(cast(set_idx_bits_, sets_ - 1)) & walk_way.eq(cast(way_bits_, ways_ - 1)));
  }

  // ---------------------------------------------------------------------------------------
  // The acting actor's decisions: which branch acts, its narrow outputs and the counters. The wide
  // writes it causes (tag/state row, data row, response data) are computed from these flags by
  // row_writes() and response(): one candidate per source, selected once.
  void actors() {
    mq_count_q = m.logic("mq_count_q", queue_count_bits_);
    auto room = [&](const Expr& n) {  // the miss queue has room for n more (occupancy at cycle start)
      return (cast(queue_count_bits_ + 3, mq_count_q) + cast(queue_count_bits_ + 3, n))
          .le(cast(queue_count_bits_ + 3, Expr(queue_)));
    };
    room_s1 = m.logic("room_s1");
    room_one = m.logic("room_one");
    room_fill = m.logic("room_fill");
    room_walk = m.logic("room_walk");
    Expr s1_need = m.logic("s1_need", 3);
    m.assign(s1_need, s1_dirty_n + lit(3, 1));
    m.assign(room_s1, room(s1_need));
    m.assign(room_one, room(lit(3, 1)));
    m.assign(room_fill, room(fill_dirty_n));
    m.assign(room_walk, room(walk_dirty_n));

    // Write-back candidates k = 0..3 and the final push (S1's read or store).
    wb_en = m.logic("wb_en", kSlots);
    wb_way = m.logic("wb_way", kSlots * way_bits_);
    wb_slot = m.logic("wb_slot", kSlots * 2);
    wb_off = m.logic("wb_off", kSlots * 3);
    wb_from_s1 = m.logic("wb_from_s1");  // S1's write-backs are of its own line; others compose the address
    push_final = m.logic("push_final");
    final_off = m.logic("final_off", 3);

    s1_complete = m.logic("s1_complete");
    s1_hit_done = m.logic("s1_hit_done");  // completion counts
    s1_miss_done = m.logic("s1_miss_done");
    s1_partial_done = m.logic("s1_partial_done");
    fill_placing = m.logic("fill_placing");
    fill_answer = m.logic("fill_answer");
    walk_step = m.logic("walk_step");
    fill_write = m.logic("fill_write");  // the fill allocates: its block goes into fill_way
    load_hit = m.logic("load_hit");      // S1's load hits: its bytes are answered
    store_hit = m.logic("store_hit");    // S1's store hits: its bytes are written

    // Counter increments.
    inc_ = {};
    for (const std::string& n : counter_names()) inc_.push_back(m.logic("inc_" + n, 3));

    rank_new = m.logic("rank_new", kSlots * 2);  // slot ranks of the written way after promotion
    rank_sel = m.logic("rank_sel", kSlots);      // slots promoted, in increasing order
    wr_way = m.logic("wr_way", way_bits_);       // the way whose ranks change
    m.comment("The way whose slot ranks change and its promoted slots: the fill's, else S1's hit.");
    m.assign(wr_way, mux(act_fill, fill_way, m_way));
    m.assign(rank_sel, mux(act_fill, fill_slotmask, m_slots));
    m.comment("Slot-rank promotion of the written way: each selected slot in increasing order becomes the");
    m.comment("most recent, the ones that were more recent age by one.");
    m.always_comb({{rank_new, select_part(t_rank, wr_way, ways_, kSlots * 2)}}, [&](Block& b) {
      b.for_("s", 0, Expr(kSlots), [&](Block& bs, const Expr& s) {
        bs.if_(rank_sel[s], [&](Block& t) {
          t.for_("o", 0, Expr(kSlots), [&](Block& to, const Expr& o) {
            to.if_(rank_new.part(o * 2, 2).lt(rank_new.part(s * 2, 2)),
                   [&](Block& u) { u.assign(rank_new.part(o * 2, 2), rank_new.part(o * 2, 2) + lit(2, 1)); });
          });
          t.assign(rank_new.part(s * 2, 2), lit(2, 0));
        });
      });
    });

    std::vector<Init> drives = {
        {w_en, zeros()}, {wb_en, zeros()}, {wb_way, zeros()}, {wb_slot, zeros()}, {wb_off, zeros()},
        {wb_from_s1, bit(false)}, {push_final, bit(false)}, {final_off, lit(3, 0)},
        {s1_complete, bit(false)}, {s1_hit_done, bit(false)}, {s1_miss_done, bit(false)},
        {s1_partial_done, bit(false)}, {fill_placing, bit(false)},
        {fill_answer, bit(false)}, {walk_step, bit(false)},
        {fill_write, bit(false)}, {load_hit, bit(false)}, {store_hit, bit(false)},
        {mshr_alloc, bit(false)}, {mshr_add, bit(false)}, {mshr_release, bit(false)},
        {agcb_dec, bit(false)}, {agcb_dec_idx, zeros()}, {agcb_inc, bit(false)}, {agcb_inc_idx, zeros()},
        {rp_hit, bit(false)}, {rp_miss, bit(false)}, {rp_fill, bit(false)}, {rp_way, zeros()},
        {resp_valid_d, bit(false)}, {resp_id_d, zeros()}, {resp_warp_d, zeros()}, {resp_outcome_d, lit(2, 0)}};
    for (const Expr& i : inc_) drives.push_back({i, lit(3, 0)});

    auto inc = [&](Block& b, const std::string& name, const Expr& v) {
      const auto& names = counter_names();
      const size_t i = static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
      b.assign(inc_.at(i), cast(3, v));
    };

    m.comment("The acting actor's decisions: flags, narrow outputs and counter increments. The wide writes");
    m.comment("(tag/state row, data row, response data) follow from the flags below, outside this block: as");
    m.comment("partial assignments in these branches Yosys made a multiplexer of every such write.");
    m.always_comb(drives, [&](Block& b) {
      b.if_(act_fill, [&](Block& f) { fill_actor(f, inc); })
          .else_if(act_flush, [&](Block& f) { walk_actor(f, inc); })
          .else_if(act_s1, [&](Block& f) { s1_actor(f, inc); });
      b.comment("Completed requests are counted once (section 4, request accounting).");
      b.if_(s1_hit_done.lor(s1_miss_done), [&](Block& t) {
        inc(t, "accesses", lit(1, 1));
        t.if_(s1_store_q, [&](Block& u) { inc(u, "stores", lit(1, 1)); }).else_([&](Block& u) { inc(u, "loads", lit(1, 1)); });
        t.if_(s1_hit_done, [&](Block& u) {
          inc(u, "hits", lit(1, 1));
          u.unique_case(s1_size_q, [&](CaseBuilder& cb) {
            cb.item(lit(2, 0), [&](Block& v) { inc(v, "hits_32", lit(1, 1)); });
            cb.item(lit(2, 1), [&](Block& v) { inc(v, "hits_64", lit(1, 1)); });
            cb.default_([&](Block& v) { inc(v, "hits_128", lit(1, 1)); });
          });
        }).else_([&](Block& u) {
          inc(u, "misses", lit(1, 1));
          inc(u, "partial_hits", s1_partial_done);
          u.unique_case(s1_size_q, [&](CaseBuilder& cb) {
            cb.item(lit(2, 0), [&](Block& v) { inc(v, "misses_32", lit(1, 1)); });
            cb.item(lit(2, 1), [&](Block& v) { inc(v, "misses_64", lit(1, 1)); });
            cb.default_([&](Block& v) { inc(v, "misses_128", lit(1, 1)); });
          });
        });
      });
      b.if_(s1_valid_q.land(act_fill.lor(act_flush)), [&](Block& t) { inc(t, "s1_stall_cycles", lit(1, 1)); });
      inc(b, "cycles", lit(1, 1));
    });
  }

  template <class Inc>
  void fill_actor(Block& f, const Inc& inc) {
    f.comment("Fill unit: cycle 0 places the block (or waits for queue room for its write-backs); every cycle");
    f.comment("answers one merged request; the last one frees the entry.");
    f.assign(fill_placing, !fill_placed_q);
    f.if_((!fill_placed_q).land(mr_bypass.eq(lit(2, 1))).land(mr_l2), [&](Block& t) { inc(t, "agcb_overrides", lit(1, 1)); });
    f.if_((!fill_placed_q).land(fill_allocates).land(!room_fill), [&](Block& t) {
      inc(t, "fill_stall_cycles", lit(1, 1));
    }).else_([&](Block& t) {
      t.assign(fill_answer, bit(true));
      t.if_(!fill_placed_q, [&](Block& p) {
        inc(p, "fills", lit(1, 1));
        p.if_(fill_allocates, [&](Block& a) {
          inc(a, "fills_allocated", lit(1, 1));
          a.comment("Write back the dirty valid slots being replaced, invalidate them, write the block");
          a.comment("(fill_write: row_writes).");
          a.assign(fill_write, bit(true));
          a.assign(wb_en, fill_wb);
          a.assign(wb_way, repl(kSlots, fill_way));
          a.assign(wb_slot, concat({lit(2, 3), lit(2, 2), lit(2, 1), lit(2, 0)}));
          a.for_("s", 0, Expr(kSlots), [&](Block& as, const Expr& s) {
            as.assign(wb_off.part(s * 3, 3), cast(3, countones(fill_wb & ((lit(4, 1) << s) - lit(4, 1)))));
          });
          a.assign(w_en, cast(ways_, lit(1, 1)) << fill_way);
          a.if_(fill_replaces, [&](Block& u) {
            u.assign(agcb_inc, bit(true));
            u.assign(agcb_inc_idx, select_part(t_hpc, fill_way, ways_, hpc_bits_));
          });
          a.assign(rp_fill, bit(true));
          a.assign(rp_way, fill_way);
          inc(a, "writebacks", fill_dirty_n);
          inc(a, "mem_writes", fill_dirty_n);
        });
      });
      t.comment("Answer request fill_index_q: miss-return if the block allocated, else bypass-return (its");
      t.comment("bytes: response).");
      t.assign(resp_valid_d, bit(true));
      t.assign(resp_id_d, mr_id);
      t.assign(resp_warp_d, mr_warp);
      t.assign(resp_outcome_d, mux(mux(fill_placed_q, fill_alloc_q, fill_allocates), lit(2, 1), lit(2, 2)));
      t.if_((cast(count_bits_, fill_index_q) + cast(count_bits_, 1)).eq(mr_count),
            [&](Block& u) { u.assign(mshr_release, bit(true)); });
    });
  }

  template <class Inc>
  void walk_actor(Block& f, const Inc& inc) {
    f.comment("Flush walker: write back and invalidate one line (keeping complete pieces if asked), or wait");
    f.comment("for queue room.");
    inc(f, "flush_cycles", lit(1, 1));
    f.if_(room_walk, [&](Block& t) {
      t.assign(walk_step, bit(true));
      t.assign(wb_en, walk_wb);
      t.assign(wb_way, repl(kSlots, walk_way));
      t.assign(wb_slot, concat({lit(2, 3), lit(2, 2), lit(2, 1), lit(2, 0)}));
      t.for_("s", 0, Expr(kSlots), [&](Block& ts, const Expr& s) {
        ts.assign(wb_off.part(s * 3, 3), cast(3, countones(walk_wb & ((lit(4, 1) << s) - lit(4, 1)))));
      });
      t.assign(w_en, cast(ways_, lit(1, 1)) << walk_way);
      inc(t, "writebacks", walk_dirty_n);
      inc(t, "mem_writes", walk_dirty_n);
    });
  }

  template <class Inc>
  void s1_actor(Block& f, const Inc& inc) {
    // The copies of S1's chunks: invalidate them (wb_from_s1: row_writes) and write back the dirty
    // ones (way, then slot order).
    auto drop_copies = [&](Block& b) {
      b.assign(wb_from_s1, bit(true));
      b.assign(wb_en, cp_wb);
      b.assign(wb_way, cp_way);
      b.assign(wb_slot, cp_slot);
      b.assign(wb_off, cp_off);
      b.assign(w_en, zeros());
      b.for_("w", 0, Expr(ways_), [&](Block& bw, const Expr& w) {
        bw.assign(w_en[w], red_or(m_copies.part(w * kSlots, kSlots)));
      });
      b.assign(push_final, bit(true));
      b.assign(final_off, s1_dirty_n);
      inc(b, "writebacks", s1_dirty_n);
    };
    auto hit_updates = [&](Block& b) {
      b.assign(rp_hit, bit(true));
      b.assign(rp_way, m_way);
      b.assign(w_en, cast(ways_, lit(1, 1)) << m_way);
    };
    f.if_(!s1_store_q, [&](Block& ld) {
      ld.if_(m_hit, [&](Block& h) {
        h.comment("Load hit: the request's bytes from the slots holding its chunks (load_hit: response).");
        h.assign(load_hit, bit(true));
        h.assign(s1_complete, bit(true));
        h.assign(s1_hit_done, bit(true));
        hit_updates(h);
        h.assign(agcb_dec, bit(true));
        h.assign(agcb_dec_idx, select_part(t_hpc, m_way, ways_, hpc_bits_));
        h.assign(resp_valid_d, bit(true));
        h.assign(resp_id_d, s1_id_q);
        h.assign(resp_warp_d, s1_warp_q);
        h.assign(resp_outcome_d, lit(2, 0));
      }).else_if(p_merge_full, [&](Block& t) { inc(t, "fail_merge_full", lit(1, 1)); })
          .else_if(p_conflict, [&](Block& t) { inc(t, "fail_conflict", lit(1, 1)); })
          .else_if(p_merge, [&](Block& t) {
            t.comment("Merge into the entry fetching the line's needed sectors.");
            t.assign(s1_complete, bit(true));
            t.assign(s1_miss_done, bit(true));
            t.assign(s1_partial_done, m_partial);
            t.assign(mshr_add, bit(true));
            inc(t, "merges", lit(1, 1));
          })
          .else_if(!p_free, [&](Block& t) { inc(t, "fail_mshr_full", lit(1, 1)); })
          .else_if(!room_s1, [&](Block& t) { inc(t, "fail_queue_full", lit(1, 1)); })
          .else_([&](Block& t) {
            t.comment("Miss: drop the copies of the fetched block, send the read, record the entry.");
            t.assign(s1_complete, bit(true));
            t.assign(s1_miss_done, bit(true));
            t.assign(s1_partial_done, m_partial);
            drop_copies(t);
            t.assign(mshr_alloc, bit(true));
            t.assign(rp_miss, bit(true));
            inc(t, "mem_reads", lit(1, 1));
            inc(t, "mem_writes", s1_dirty_n);
            inc(t, "bypasses", s1_reason.ne(lit(2, 0)));
          });
    }).else_([&](Block& st) {
      st.if_(p_conflict, [&](Block& t) { inc(t, "fail_conflict", lit(1, 1)); })
          .else_if(m_hit.land((!write_back_).land(!room_one)), [&](Block& t) { inc(t, "fail_queue_full", lit(1, 1)); })
          .else_if(m_hit, [&](Block& h) {
            h.comment("Store hit: write the masked bytes into the slots holding its chunks, dirty in write-back");
            h.comment("(store_hit: row_writes); write-through sends the store.");
            h.assign(store_hit, bit(true));
            h.assign(s1_complete, bit(true));
            h.assign(s1_hit_done, bit(true));
            hit_updates(h);
            h.if_(!write_back_, [&](Block& u) {
              u.assign(push_final, bit(true));
              inc(u, "mem_writes", lit(1, 1));
            });
            h.assign(resp_valid_d, bit(true));
            h.assign(resp_id_d, s1_id_q);
            h.assign(resp_warp_d, s1_warp_q);
            h.assign(resp_outcome_d, lit(2, 3));
          })
          .else_if(!room_s1, [&](Block& t) { inc(t, "fail_queue_full", lit(1, 1)); })
          .else_([&](Block& t) {
            t.comment("Store miss: drop the copies of its chunks, send the store.");
            t.assign(s1_complete, bit(true));
            t.assign(s1_miss_done, bit(true));
            t.assign(s1_partial_done, m_partial);
            drop_copies(t);
            inc(t, "mem_writes", s1_dirty_n + lit(3, 1));
            t.assign(resp_valid_d, bit(true));
            t.assign(resp_id_d, s1_id_q);
            t.assign(resp_warp_d, s1_warp_q);
            t.assign(resp_outcome_d, lit(2, 3));
          });
    });
  }

  // ---------------------------------------------------------------------------------------
  // The writes of the tag/state row and the data row of set rd_set. Each field is the row as read
  // with the acting branch's changes: slot-granular masks (bit 4w+s is slot s of way w) say what is
  // invalidated and written, and every new value is computed once, unconditionally. The arrays write
  // only the ways of w_en and the bytes of d_be, so the values elsewhere are free.
  void row_writes() {
    m.comment("S1's hit way, slot by slot: the chunk each slot holds, and the request's byte mask of it.");
    hit_chunk = m.logic("hit_chunk", kSlots * 2);
    hit_mask = m.logic("hit_mask", kSlots * 32);
    m.gen_for("g_hit_slot", "gs", 0, kSlots, [&](Scope& g, const Expr& s) {
      g.assign(hit_chunk.part(s * 2, 2), select_strided(t_tag, m_way, ways_, kSlots * ct_bits_, 2, s * ct_bits_));
      g.assign(hit_mask.part(s * 32, 32), select_part(s1_mask_q, hit_chunk.part(s * 2, 2), kSlots, 32));
    });

    m.comment("Slot masks of the row: invalidated (the fill's replaced slots, the walked line's dropped slots,");
    m.comment("S1's copies), written by the fill (fill_slots slots from fill_pos_eff of fill_way) and by a store");
    m.comment("hit (its slots of m_way).");
    Expr fill_run = m.logic("fill_run", kSlots);
    Expr walk_drop = m.logic("walk_drop", kSlots);
    Expr slot_inval = m.logic("slot_inval", ways_ * kSlots);
    Expr slot_fill = m.logic("slot_fill", ways_ * kSlots);
    Expr slot_store = m.logic("slot_store", ways_ * kSlots);
    Expr slot_dirty = m.logic("slot_dirty", ways_ * kSlots);
    const unsigned rw = ways_ * kSlots;
    for (unsigned i = 0; i < kSlots; ++i) m.assign(fill_run[Expr(i)], lit(3, i).lt(fill_slots));
    m.assign(walk_drop, ~walk_keep);
    m.assign(slot_inval,
             mux(walk_step, cast(rw, walk_drop) << (walk_way * kSlots),
                 mux(fill_write, cast(rw, fill_posmask) << (fill_way * kSlots), mux(wb_from_s1, m_copies, zeros()))));
    m.assign(slot_fill, mux(fill_write, cast(rw, fill_run) << (fill_way * kSlots + fill_pos), zeros()));
    m.assign(slot_store, mux(store_hit, cast(rw, m_slots) << (m_way * kSlots), zeros()));
    m.comment("Write-back marks the stored bytes dirty; write-through leaves the dirty masks.");
    m.assign(slot_dirty, mux(write_back_, slot_store, zeros()));
    m.assign(w_valid, (t_valid & ~slot_inval) | slot_fill);

    m.comment("The fill's chunk-tags: slot s of the block's line gets chunk fill_first + s - fill_pos_eff.");
    Expr fill_tag = m.logic("fill_tag", kSlots * ct_bits_);
    m.gen_for("g_fill_tag", "gs", 0, kSlots, [&](Scope& g, const Expr& s) {
      g.assign(fill_tag.part(s * ct_bits_, ct_bits_),
               concat({fill_chunk_tag.slice(ct_bits_ - 1, 2), cast(2, fill_first + cast(2, s) - fill_pos)}));
    });
    m.gen_for("g_row_slot", "gi", 0, rw, [&](Scope& g, const Expr& i) {
      const Expr s = i % kSlots;
      g.assign(w_dirty.part(i * 32, 32), (t_dirty.part(i * 32, 32) & ~repl(32, slot_inval[i])) |
                                             (hit_mask.part(s * 32, 32) & repl(32, slot_dirty[i])));
      g.assign(w_tag.part(i * ct_bits_, ct_bits_),
               mux(slot_fill[i], fill_tag.part(s * ct_bits_, ct_bits_), t_tag.part(i * ct_bits_, ct_bits_)));
      g.assign(d_be.part(i * 32, 32), repl(32, slot_fill[i]) | (hit_mask.part(s * 32, 32) & repl(32, slot_store[i])));
    });

    m.comment("Per-way fields: the fill's (and a load hit's predictor index), the promoted slot ranks.");
    Expr rank_write = m.logic("rank_write");
    m.assign(rank_write, fill_write | load_hit | store_hit);
    m.gen_for("g_row_way", "gw", 0, ways_, [&](Scope& g, const Expr& w) {
      Expr fill_here = g.logic("fill_here");
      g.assign(fill_here, fill_write & fill_way.eq(cast(way_bits_, w)));
      g.assign(w_common.part(w * cm_bits_, cm_bits_),
               mux(fill_here & fill_whole, fill_common, t_common.part(w * cm_bits_, cm_bits_)));
      g.assign(w_rank.part(w * (kSlots * 2), kSlots * 2),
               mux(rank_write & wr_way.eq(cast(way_bits_, w)), rank_new, t_rank.part(w * (kSlots * 2), kSlots * 2)));
      g.assign(w_hpc.part(w * hpc_bits_, hpc_bits_),
               mux(fill_here, mr_hpc,
                   mux(load_hit & m_way.eq(cast(way_bits_, w)), s1_hpc, t_hpc.part(w * hpc_bits_, hpc_bits_))));
      g.assign(w_awid.part(w * kAwidBits, kAwidBits), mux(fill_here, mr_awid, t_awid.part(w * kAwidBits, kAwidBits)));
      g.assign(w_prio[w], mux(fill_here, mr_token, t_prio[w]));
    });

    m.comment("The data row's new bytes (d_be selects): slot s gets the fill's chunk fill_first + s -");
    m.comment("fill_pos_eff, or the store's chunk held in slot s of the hit way. One source line and one");
    m.comment("index per slot, then a 4-way select per slot.");
    Expr d_src = m.logic("d_src", kLineBits);
    Expr d_idx = m.logic("d_idx", kSlots * 2);
    m.assign(d_src, mux(fill_write, mr_data, s1_data_q));
    m.gen_for("g_d_line", "gs", 0, kSlots, [&](Scope& g, const Expr& s) {
      g.assign(d_idx.part(s * 2, 2), mux(fill_write, cast(2, fill_first + cast(2, s) - fill_pos), hit_chunk.part(s * 2, 2)));
      g.assign(d_line.part(s * kSlotBits, kSlotBits), select_part(d_src, d_idx.part(s * 2, 2), kSlots, kSlotBits));
    });
  }

  // ---------------------------------------------------------------------------------------
  // The response data: a fill's answer (the merged request's bytes of the block) or a load hit's
  // (each chunk's bytes from the slot of the hit way holding it).
  void response() {
    m.comment("Load hit: the slot of the hit way that supplies chunk c (the last of m_slots holding it, as");
    m.comment("the golden L1 copies them in slot order), and whether one does.");
    Expr hit_src = m.logic("hit_src", kSlots * 2);
    Expr hit_any = m.logic("hit_any", kSlots);
    m.always_comb({{hit_src, zeros()}, {hit_any, zeros()}}, [&](Block& b) {
      b.for_("s", 0, Expr(kSlots), [&](Block& bs, const Expr& s) {
        bs.if_(m_slots[s], [&](Block& t) {
          write_at(t, hit_chunk.part(s * 2, 2), kSlots, {{hit_any, 1, 1, bit(true)}, {hit_src, 2, 2, cast(2, s)}});
        });
      });
    });

    m.comment("Row lanes: four slots of the row (way lane_way[k], slot lane_slot[k]) read out through 16-to-1");
    m.comment("selects: the write-backs' slots (miss_queue), or for a load hit, which pushes none, the slot of");
    m.comment("the hit way supplying chunk k. Sharing them saves a way select and a slot select of the line.");
    lane_way = m.logic("lane_way", kSlots * way_bits_);
    lane_slot = m.logic("lane_slot", kSlots * 2);
    lane_data = m.logic("lane_data", kSlots * kSlotBits);
    m.assign(lane_way, mux(load_hit, repl(kSlots, m_way), wb_way));
    m.assign(lane_slot, mux(load_hit, hit_src, wb_slot));
    m.gen_for("g_lane", "gk", 0, kSlots, [&](Scope& g, const Expr& k) {
      g.assign(lane_data.part(k * kSlotBits, kSlotBits),
               select_part(t_data, concat({lane_way.part(k * way_bits_, way_bits_), lane_slot.part(k * 2, 2)}),
                           ways_ * kSlots, kSlotBits));
    });
    m.comment("Byte b of the response: the fill's data under the request's mask, or the hit line's under S1's.");
    Expr resp_be = m.logic("resp_be", kMaskBits);
    Expr resp_src = m.logic("resp_src", kLineBits);
    Expr hit_be = m.logic("hit_be", kMaskBits);
    m.gen_for("g_hit_be", "gc", 0, kSlots, [&](Scope& g, const Expr& c) {
      g.assign(hit_be.part(c * 32, 32), s1_mask_q.part(c * 32, 32) & repl(32, load_hit & hit_any[c]));
    });
    m.assign(resp_be, mux(fill_answer, mr_mask, hit_be));
    m.assign(resp_src, mux(fill_answer, mr_data, lane_data));
    m.gen_for("g_resp_byte", "gb", 0, kMaskBits, [&](Scope& g, const Expr& bi) {
      g.assign(resp_data_d.part(bi * 8, 8), resp_src.part(bi * 8, 8) & repl(8, resp_be[bi]));
    });
  }

  // ---------------------------------------------------------------------------------------
  // The miss queue: up to four write-backs and one read/store pushed per cycle, one popped.
  void miss_queue() {
    const ReqLayout& L = req_layout_;
    const unsigned R = L.width();
    const unsigned Q = queue_;
    m.comment("Entry e: the request's fields but its data and mask (mq<e>_req_q), and one of two payloads:");
    m.comment("a write-back's slot (mq<e>_wb_q: its 32 B and dirty mask, unshifted, placed at its sector when");
    m.comment("the entry is sent) or S1's store data and mask (mq<e>_st_q, the whole line; a read sends zeros).");
    m.comment("An entry that is written takes the request and one payload: no multiplexer of the other one,");
    m.comment("and S1's line and mask go into mq<e>_st_q unselected.");
    // One register per entry and field, not a (* mem2reg *) table: Verilator gives every write
    // statement into a table a delayed-write value of the word's width, which it zeroes on every
    // clock edge (32 x 288 + 8 x 1152 bits for the payloads, 7-9 % of a verilated kmeans run).
    // Plain registers written from one always_ff each need no such temporary; Yosys makes the
    // same flops and the same head select of them.
    std::vector<Expr> req_q, wbp_q, stp_q;
    for (unsigned e = 0; e < Q; ++e) {
      req_q.push_back(m.logic("mq" + std::to_string(e) + "_req_q", R));
      wbp_q.push_back(m.logic("mq" + std::to_string(e) + "_wb_q", kSlotBits + 32));
      stp_q.push_back(m.logic("mq" + std::to_string(e) + "_st_q", kLineBits + kMaskBits));
    }
    Expr head_d = m.logic("mq_head_d", queue_idx_bits_);
    Expr head_q = m.logic("mq_head_q", queue_idx_bits_);
    Expr count_d = m.logic("mq_count_d", queue_count_bits_);
    Expr pop = mq_pop_ = m.logic("mq_pop");
    m.assign(pop, mq_count_q.ne(zeros()) & mem_ready);

    m.comment("Write-back k: slot wb_slot[k] of way wb_way[k], the chunk it holds, at its memory address");
    m.comment("(S1's own line, or composed from the set and the slot's tags).");
    Expr wb_req = m.logic("wb_req", kSlots * R);
    Expr wb_pay = m.logic("wb_pay", kSlots * (kSlotBits + 32));
    Expr wb_set = m.logic("wb_set", set_idx_bits_);
    m.assign(wb_set, rd_set);
    m.gen_for("g_wb", "gk", 0, kSlots, [&](Scope& g, const Expr& k) {
      Expr way = g.logic("way", way_bits_);
      Expr slot = g.logic("slot", 2);
      Expr tag = g.logic("tag", ct_bits_);
      Expr chunk = g.logic("chunk", 2);
      Expr line = g.logic("line", line_bits_);
      Expr common = g.logic("common", cm_bits_);
      g.assign(way, lane_way.part(k * way_bits_, way_bits_));
      g.assign(slot, lane_slot.part(k * 2, 2));
      g.comment("The slot's tag and dirty mask (selects over the row's 16 slots) and its data, lane k.");
      g.assign(tag, select_part(t_tag, concat({way, slot}), ways_ * kSlots, ct_bits_));
      g.assign(chunk, tag.slice(1, 0));
      g.assign(common, select_part(t_common, way, ways_, cm_bits_));
      g.assign(wb_pay.part(k * (kSlotBits + 32), kSlotBits + 32),
               concat({select_part(t_dirty, concat({way, slot}), ways_ * kSlots, 32),
                       lane_data.part(k * kSlotBits, kSlotBits)}));
      g.assign(line, mux(wb_from_s1, s1_line, compose_line(g, common, tag, wb_set)));
      g.assign(wb_req.part(k * R, R), L.pack(line, bit(true), cast(kSlots, lit(4, 1) << chunk), bit(true), bit(false),
                                             bit(false), lit(kMshrPortBits, 0)));
    });
    m.comment("S1's read (its fetch, bypass reason and new MSHR entry) or store (its needed sectors).");
    Expr final_req = m.logic("final_req", R);
    m.assign(final_req, L.pack(s1_line, s1_store_q, mux(s1_store_q, s1_needed, s1_fetch), bit(false),
                               (!s1_store_q) & s1_reason.ne(lit(2, 0)), (!s1_store_q) & s1_reason.eq(lit(2, 1)),
                               mux(s1_store_q, lit(kMshrPortBits, 0), cast(kMshrPortBits, p_free_entry))));

    Expr pushes = mq_pushes_ = m.logic("mq_pushes", 3);
    m.assign(pushes, cast(3, countones(wb_en)) + cast(3, push_final));
    const unsigned pw = queue_count_bits_ + 2;
    auto wrap = [&](const Expr& x) {  // (head + count + off) mod Q for a pw-bit x < 2Q
      return mux(x.ge(lit(pw, Q)), x - lit(pw, Q), x);
    };
    Expr tail = m.logic("mq_tail", queue_count_bits_ + 1);
    m.assign(tail, cast(queue_count_bits_ + 1, head_q) + cast(queue_count_bits_ + 1, mq_count_q));
    m.comment("Where each push goes: write-back k at tail + wb_off[k], the final push at tail + final_off.");
    Expr wb_at = m.logic("mq_wb_at", kSlots * queue_idx_bits_);
    Expr final_at = m.logic("mq_final_at", queue_idx_bits_);
    for (unsigned k = 0; k < kSlots; ++k) {
      m.assign(wb_at.part(Expr(k * queue_idx_bits_), queue_idx_bits_),
               cast(queue_idx_bits_, wrap(cast(pw, tail) + cast(pw, wb_off.part(Expr(k * 3), 3)))));
    }
    m.assign(final_at, cast(queue_idx_bits_, wrap(cast(pw, tail) + cast(pw, final_off))));
    m.comment("Which pushes write entry e: write-back k (mq_wb_hit[e*4 + k]) or the final push (mq_final_hit[e]).");
    Expr wb_hit = m.logic("mq_wb_hit", Q * kSlots);
    Expr final_hit = m.logic("mq_final_hit", Q);
    m.gen_for("g_mq", "ge", 0, Expr(Q), [&](Scope& g, const Expr& e) {
      for (unsigned k = 0; k < kSlots; ++k) {
        g.assign(wb_hit[e * kSlots + Expr(k)],
                 wb_en[Expr(k)] & wb_at.part(Expr(k * queue_idx_bits_), queue_idx_bits_).eq(cast(queue_idx_bits_, e)));
      }
      g.assign(final_hit[e], push_final & final_at.eq(cast(queue_idx_bits_, e)));
    });
    for (unsigned e = 0; e < Q; ++e) {
      m.comment("Entry " + std::to_string(e) + ": a later push to the same entry wins (none does: the offsets differ).");
      m.always_ff_noreset([&](Block& b) {
        b.for_("k", 0, Expr(kSlots), [&](Block& bk, const Expr& k) {
          bk.if_(wb_hit[Expr(e * kSlots) + k], [&](Block& t) {
            t.assign(req_q[e], wb_req.part(k * R, R));
            t.assign(wbp_q[e], wb_pay.part(k * (kSlotBits + 32), kSlotBits + 32));
          });
        });
        b.if_(final_hit[Expr(e)], [&](Block& t) {
          t.assign(req_q[e], final_req);
          t.assign(stp_q[e], concat({s1_mask_q, s1_data_q}));
        });
      });
    }
    m.assign(head_d, mux(pop, cast(queue_idx_bits_, wrap(cast(pw, head_q) + lit(pw, 1))), head_q));
    m.assign(count_d, mq_count_q - cast(queue_count_bits_, pop) + cast(queue_count_bits_, pushes));
    m.always_ff({{head_q, zeros()}, {mq_count_q, zeros()}}, [&](Block& b) {
      b.assign(head_q, head_d);
      b.assign(mq_count_q, count_d);
    });

    m.comment("The head entry (a chain of selects, as select_part) and the request it sends: a write-back's");
    m.comment("payload at its sector, a store's line and mask, zeros for a read.");
    Expr head_req = m.logic("mq_head_req", R);
    Expr head_wb = m.logic("mq_head_wb", kSlotBits + 32);
    Expr head_st = m.logic("mq_head_st", kLineBits + kMaskBits);
    auto entry = [&](const std::vector<Expr>& regs) {
      Expr out = regs[Q - 1];
      for (unsigned e = Q - 1; e-- > 0;) out = mux(head_q.eq(lit(queue_idx_bits_, e)), regs[e], out);
      return out;
    };
    m.assign(head_req, entry(req_q));
    m.assign(head_wb, entry(wbp_q));
    m.assign(head_st, entry(stp_q));
    Expr head_is_wb = m.logic("mq_head_is_wb");
    Expr head_is_st = m.logic("mq_head_is_st");
    Expr head_sectors = m.logic("mq_head_sectors", kSlots);
    m.assign(head_is_wb, head_req[Expr(L.wb)]);
    m.assign(head_is_st, head_req[Expr(L.store)] & !head_is_wb);
    m.assign(head_sectors, head_req.part(Expr(L.sectors), kSlots));
    m.gen_for("g_mem_chunk", "gc", 0, kSlots, [&](Scope& g, const Expr& c) {
      Expr from_wb = g.logic("from_wb");
      g.assign(from_wb, head_is_wb & head_sectors[c]);
      g.assign(mem_data_o.part(c * kSlotBits, kSlotBits),
               mux(from_wb, head_wb.part(Expr(0), kSlotBits),
                   head_st.part(c * kSlotBits, kSlotBits) & repl(kSlotBits, head_is_st)));
      g.assign(mem_mask_o.part(c * 32, 32),
               mux(from_wb, head_wb.part(Expr(kSlotBits), 32),
                   head_st.part(Expr(kLineBits) + c * 32, 32) & repl(32, head_is_st)));
    });
    m.assign(mem_valid_o, mq_count_q.ne(zeros()));
    m.assign(mem_line_o, head_req.part(Expr(L.line), line_bits_));
    m.assign(mem_store_o, head_req[Expr(L.store)]);
    m.assign(mem_sectors_o, head_sectors);
    m.assign(mem_bypass_o, head_req[Expr(L.bypass)]);
    m.assign(mem_agcb_o, head_req[Expr(L.agcb)]);
    m.assign(mem_mshr_o, head_req.part(Expr(L.mshr), kMshrPortBits));
  }

  // The memory line address (AddrBits-7 bits) of chunk-tag `tag` with common-tag `common` in set
  // `set`: the inverse of l1d_addr_decode (the Fermi hash only reads bits above the set field).
  Expr compose_line(Scope& g, const Expr& common, const Expr& tag, const Expr& set) {
    const unsigned set_bits = split_.set_bits();
    const unsigned low = ct_bits_ - 2;                  // chunk-tag bits of the line tag
    const unsigned line_tag_bits = line_bits_ - set_bits;
    Expr line_tag = g.logic("line_tag", line_tag_bits);
    if (split_.common_tag_bits() > 0) {
      g.assign(line_tag, concat({common, tag.slice(ct_bits_ - 1, 2)}));
    } else {
      Expr unused_common = g.logic("unused_common");
      g.assign(unused_common, red_or(common));
      g.assign(line_tag, tag.slice(ct_bits_ - 1, 2));
    }
    (void)low;
    if (set_bits == 0) {
      Expr unused_set = g.logic("unused_set");
      g.assign(unused_set, red_or(set));
      return line_tag;
    }
    Expr linear = g.logic("linear", set_bits);
    if (cfg_.l1.set_index == l1d::SetIndexHash::kFermiXor) {
      // Address bit b (>= 7 + set_bits) is line-tag bit b - 7 - set_bits.
      auto abit = [&](unsigned b) { return line_tag[Expr(b - 7 - set_bits)]; };
      Expr hash = g.logic("hash", 5);
      g.assign(hash, concat({abit(19), abit(17), abit(15), abit(14), abit(13)}));
      g.assign(linear, set ^ hash.slice(set_bits - 1 < 4 ? set_bits - 1 : 4, 0));
    } else {
      g.assign(linear, set);
    }
    return concat({line_tag, linear});
  }

  // ---------------------------------------------------------------------------------------
  // Fill FIFO: MSHR ids in response order.
  void fill_fifo() {
    Expr fifo_q = m.logic("fifo_q", mshr_bits_, {Expr(mshrs_)});
    Expr head_q = m.logic("fifo_head_q", mshr_bits_);
    Expr head_d = m.logic("fifo_head_d", mshr_bits_);
    Expr count_d = m.logic("fifo_count_d", bits_for(mshrs_ + 1));
    const unsigned cb = bits_for(mshrs_ + 1) + 1;
    auto wrap = [&](const Expr& x) { return mux(x.ge(lit(cb, mshrs_)), x - lit(cb, mshrs_), x); };
    m.always_ff_noreset([&](Block& b) {
      b.if_(rsp_valid, [&](Block& t) {
        t.assign(fifo_q[cast(mshr_bits_, wrap(cast(cb, head_q) + cast(cb, fifo_count_q)))], rsp_entry);
      });
    });
    m.assign(head_d, mux(mshr_release, cast(mshr_bits_, wrap(cast(cb, head_q) + lit(cb, 1))), head_q));
    m.assign(count_d, fifo_count_q + cast(bits_for(mshrs_ + 1), rsp_valid) - cast(bits_for(mshrs_ + 1), mshr_release));
    m.always_ff({{head_q, zeros()}, {fifo_count_q, zeros()}}, [&](Block& b) {
      b.assign(head_q, head_d);
      b.assign(fifo_count_q, count_d);
    });
    m.assign(fill_head, fifo_q[head_q]);
  }

  // ---------------------------------------------------------------------------------------
  void state_updates() {
    m.comment("core_req_ready: S1 is empty or completes this cycle.");
    m.assign(req_ready, (!s1_valid_q).lor(s1_complete));
    Expr fire = m.logic("req_fire");
    m.assign(fire, req_valid & req_ready);
    m.always_ff({{s1_valid_q, bit(false)}}, [&](Block& b) {
      b.if_(fire, [&](Block& t) { t.assign(s1_valid_q, bit(true)); })
          .else_if(s1_complete, [&](Block& t) { t.assign(s1_valid_q, bit(false)); });
    });
    m.always_ff({{s1_id_q, zeros()}, {s1_warp_q, zeros()}, {s1_awid_q, zeros()}, {s1_token_q, bit(false)},
                 {s1_pc_q, zeros()}, {s1_store_q, bit(false)}, {s1_addr_q, zeros()}, {s1_size_q, lit(2, 0)},
                 {s1_mask_q, zeros()}, {s1_data_q, zeros()}},
                [&](Block& b) {
                  b.if_(fire, [&](Block& t) {
                    t.assign(s1_id_q, req_id);
                    t.assign(s1_warp_q, req_warp);
                    t.assign(s1_awid_q, req_awid);
                    t.assign(s1_token_q, req_token);
                    t.assign(s1_pc_q, req_pc);
                    t.assign(s1_store_q, req_store);
                    t.assign(s1_addr_q, req_addr);
                    t.assign(s1_size_q, req_size);
                    t.assign(s1_mask_q, req_mask);
                    t.assign(s1_data_q, req_data);
                  });
                });
    m.always_ff({{resp_valid_q, bit(false)}, {resp_id_q, zeros()}, {resp_warp_q, zeros()}, {resp_outcome_q, lit(2, 0)},
                 {resp_data_q, zeros()}},
                [&](Block& b) {
                  b.assign(resp_valid_q, resp_valid_d);
                  b.assign(resp_id_q, resp_id_d);
                  b.assign(resp_warp_q, resp_warp_d);
                  b.assign(resp_outcome_q, resp_outcome_d);
                  b.assign(resp_data_q, resp_data_d);
                });

    m.comment("Fill unit state.");
    m.always_comb({{fill_placed_d, fill_placed_q}, {fill_alloc_d, fill_alloc_q}, {fill_index_d, fill_index_q}},
                  [&](Block& b) {
                    b.if_(mshr_release, [&](Block& t) {
                      t.assign(fill_placed_d, bit(false));
                      t.assign(fill_alloc_d, bit(false));
                      t.assign(fill_index_d, zeros());
                    }).else_if(fill_answer, [&](Block& t) {
                      t.assign(fill_placed_d, bit(true));
                      t.if_(fill_placing, [&](Block& u) { u.assign(fill_alloc_d, fill_allocates); });
                      t.assign(fill_index_d, fill_index_q + cast(req_idx_bits_, 1));
                    });
                  });
    m.always_ff({{fill_placed_q, bit(false)}, {fill_alloc_q, bit(false)}, {fill_index_q, zeros()}}, [&](Block& b) {
      b.assign(fill_placed_q, fill_placed_d);
      b.assign(fill_alloc_q, fill_alloc_d);
      b.assign(fill_index_q, fill_index_d);
    });

    m.comment("Flush walker state: kernel end (re)starts a full flush from line 0.");
    m.always_comb({{flushing_d, flush_on}, {flush_all_d, flush_all_q}, {flush_set_d, walk_set}, {flush_way_d, walk_way}},
                  [&](Block& b) {
                    b.if_(walk_step.land(walk_last), [&](Block& t) {
                      t.assign(flushing_d, bit(false));
                      t.assign(flush_all_d, bit(false));
                      t.assign(flush_set_d, zeros());
                      t.assign(flush_way_d, zeros());
                    }).else_if(walk_step.land(walk_way.eq(cast(way_bits_, ways_ - 1))), [&](Block& t) {
                      t.assign(flush_way_d, zeros());
                      t.assign(flush_set_d, walk_set + cast(set_idx_bits_, 1));
                    }).else_if(walk_step, [&](Block& t) { t.assign(flush_way_d, walk_way + cast(way_bits_, 1)); });
                    b.if_(ev_kend, [&](Block& t) {
                      t.assign(flushing_d, bit(true));
                      t.assign(flush_all_d, bit(true));
                      t.assign(flush_set_d, zeros());
                      t.assign(flush_way_d, zeros());
                    });
                  });
    m.always_ff({{flushing_q, bit(false)}, {flush_all_q, bit(false)}, {flush_set_q, zeros()}, {flush_way_q, zeros()},
                 {agelru_en_q, bit(true)}, {gran_prev_q, lit(2, 2)}},
                [&](Block& b) {
                  b.assign(flushing_q, flushing_d);
                  b.assign(flush_all_q, flush_all_d);
                  b.assign(flush_set_q, flush_set_d);
                  b.assign(flush_way_q, flush_way_d);
                  b.assign(agelru_en_q, agelru_enable);
                  b.assign(gran_prev_q, sel_gran);
                });

    m.comment("Policy units' per-cycle inputs.");
    m.assign(tl_access, (s1_hit_done | s1_miss_done) & !s1_store_q & cfg_bypass.eq(lit(3, 2)));
    m.assign(tl_miss, !s1_hit_done);
    m.assign(sel_record, (s1_hit_done | s1_miss_done) & dynamic);
    m.assign(sel_miss, !s1_hit_done);
  }

  // ---------------------------------------------------------------------------------------
  void counters() {
    m.comment("Counters (golden::L1Counters). The granularity switch is counted when the selector decides,");
    m.comment("which is the cycle before its registered switch_o: the output adds the pending pulse.");
    const auto& names = counter_names();
    Expr switched = m.logic("gran_switched");
    m.assign(switched, sel_switch & dynamic);
    for (size_t i = 0; i < names.size(); ++i) {
      Expr q = m.logic("cnt_" + names[i] + "_q", kCounterBits);
      Expr add = names[i] == "gran_switches" ? cast(kCounterBits, switched) : cast(kCounterBits, inc_[i]);
      m.always_ff({{q, zeros()}}, [&](Block& b) { b.assign(q, q + add); });
      if (names[i] == "gran_switches") {
        Expr unused = m.logic("unused_inc_gran_switches");
        m.assign(unused, red_or(inc_[i]));
        m.assign(cnt_o[i], q + cast(kCounterBits, switched));
      } else {
        m.assign(cnt_o[i], q);
      }
    }
  }

  void outputs() {
    m.assign(resp_valid_o, resp_valid_q);
    m.assign(resp_id_o, resp_id_q);
    m.assign(resp_warp_o, resp_warp_q);
    m.assign(resp_outcome_o, resp_outcome_q);
    m.assign(resp_data_o, resp_data_q);
    m.assign(gran_o, gran);
    m.assign(idle_o, (!s1_valid_q) & mshr_in_use.eq(zeros()) & mq_count_q.eq(zeros()) & fifo_count_q.eq(zeros()) &
                         !flush_on & !resp_valid_q);
    m.comment("quiet_o, for a simulator that skips the clock edges that would change nothing (gpusim's");
    m.comment("verilated L1): no actor acts and no response or granularity switch is pending, so with");
    m.comment("core_req_valid_i, mem_resp_valid_i and the events low, mem_req_ready_i low or the miss queue");
    m.comment("empty, and agelru_enable_i and the cfg_* inputs as at the last edge, the edge changes no");
    m.comment("register but cnt_cycles_q and the two-level unit's, which only two-level mode uses (never");
    m.comment("quiet there). Waiting MSHRs and a miss queue stalled by memory are quiet.");
    m.assign(quiet_o, (!s1_valid_q) & fifo_count_q.eq(zeros()) & !flush_on & !resp_valid_q & !sel_switch &
                          cfg_bypass.ne(lit(3, 2)));
  }

  // The whole-cache assertions (gen/blocks/l1d_top_assert.cpp) on this module's signals.
  void assertions() {
    TopAssertSignals a;
    a.cfg_in = cfg_in_;
    a.cfg_q = {cfg_bypass, cfg_gran, cfg_bto, cfg_opp, cfg_keep};
    a.mem_valid = mem_valid_o;
    a.mem_ready = mem_ready;
    a.mem_payload = {mem_line_o, mem_store_o, mem_sectors_o, mem_mask_o,
                     mem_data_o, mem_bypass_o, mem_agcb_o, mem_mshr_o};
    a.mem_payload_bits = line_bits_ + 1 + kSlots + kMaskBits + kLineBits + 1 + 1 + kMshrPortBits;
    a.act_fill = act_fill;
    a.act_flush = act_flush;
    a.act_s1 = act_s1;
    a.fill_actions = {fill_placing, fill_answer, fill_write, mshr_release, rp_fill};
    a.flush_actions = {walk_step};
    a.s1_actions = {s1_complete, load_hit, store_hit, wb_from_s1, push_final, mshr_alloc, mshr_add, rp_hit, rp_miss};
    a.queue_count = mq_count_q;
    a.queue_pop = mq_pop_;
    a.queue_pushes = mq_pushes_;
    a.queue_entries = queue_;
    a.queue_count_bits = queue_count_bits_;
    a.fifo_count = fifo_count_q;
    a.fifo_pop = mshr_release;
    a.fifo_entries = mshrs_;
    a.exclusive_groups = {
        {mshr_alloc, mshr_add}, {rp_hit, rp_miss, rp_fill}, {fill_write, walk_step, wb_from_s1, store_hit}};
    a.ways = ways_;
    a.slots = kSlots;
    a.common_bits = cm_bits_;
    a.chunk_tag_bits = ct_bits_;
    a.w_en = w_en;
    a.t_common = t_common;
    a.t_valid = t_valid;
    a.t_tag = t_tag;
    a.w_common = w_common;
    a.w_valid = w_valid;
    a.w_tag = w_tag;
    top_assertions(m, a);
  }

  const l1d::Config& cfg_;
  l1d::AddressSplit split_;
  unsigned sets_ = 0, ways_ = 0, addr_bits_ = 0, line_bits_ = 0, set_idx_bits_ = 0, ct_bits_ = 0, cm_bits_ = 0,
           way_bits_ = 0, hpc_bits_ = 0, mshrs_ = 0, mshr_bits_ = 0, merge_ = 0, req_idx_bits_ = 0, count_bits_ = 0,
           queue_ = 0, queue_idx_bits_ = 0, queue_count_bits_ = 0, occ_bits_ = 0;
  ReqLayout req_layout_{};

 public:
  Module m;

 private:
  std::vector<Expr> cfg_in_;
  Expr write_back_, clk, rst, cfg_bypass, cfg_gran, cfg_bto, cfg_opp, cfg_keep;
  Expr req_valid, req_ready, req_id, req_warp, req_awid, req_token, req_pc, req_store, req_addr, req_size, req_mask,
      req_data;
  Expr resp_valid_o, resp_id_o, resp_warp_o, resp_outcome_o, resp_data_o;
  Expr mem_valid_o, mem_ready, mem_line_o, mem_store_o, mem_sectors_o, mem_mask_o, mem_data_o, mem_bypass_o,
      mem_agcb_o, mem_mshr_o;
  Expr rsp_valid, rsp_mshr, rsp_data, rsp_l2;
  Expr ev_launch, ev_exit, ev_exit_awid, ev_exit_has_next, ev_exit_next, ev_kstart, ev_kend, occupancy, agelru_enable;
  Expr idle_o, quiet_o, gran_o;
  std::vector<Expr> cnt_o, inc_;
  Expr s1_valid_q, s1_id_q, s1_warp_q, s1_awid_q, s1_token_q, s1_pc_q, s1_store_q, s1_addr_q, s1_size_q, s1_mask_q,
      s1_data_q;
  Expr resp_valid_d, resp_valid_q, resp_id_d, resp_id_q, resp_warp_d, resp_warp_q, resp_outcome_d, resp_outcome_q,
      resp_data_d, resp_data_q;
  Expr fill_placed_d, fill_placed_q, fill_alloc_d, fill_alloc_q, fill_index_d, fill_index_q;
  Expr flushing_d, flushing_q, flush_all_d, flush_all_q, flush_set_d, flush_set_q, flush_way_d, flush_way_q;
  Expr agelru_en_q, gran_prev_q;
  Expr s1_set, s1_common, s1_chunk_tag, s1_chunk;
  Expr fill_head, mr_valid, mr_filled, mr_line, mr_sectors, mr_bypass, mr_hpc, mr_awid, mr_token, mr_l2, mr_count,
      mr_data, mr_id, mr_warp, mr_mask;
  Expr fill_first, fill_slots, fill_addr, fill_set, fill_common, fill_chunk_tag;
  Expr sel_gran, sel_switch, gran, dynamic, fifo_count_q, flush_start, flush_on, act_fill, act_flush, act_s1;
  Expr walk_set, walk_way, rd_set;
  Expr t_dirty_any;
  Expr t_common, t_valid, t_dirty, t_tag, t_rank, t_hpc, t_awid, t_prio;
  Expr w_en, w_common, w_valid, w_dirty, w_tag, w_rank, w_hpc, w_awid, w_prio;
  Expr t_data, d_be, d_line;
  Expr p_merge, p_merge_full, p_merge_entry, p_conflict, p_free, p_free_entry, mshr_in_use;
  Expr s1_line, s1_needed, s1_fetch, s1_probe_sectors, mshr_alloc, mshr_add, mshr_release, s1_hpc, s1_reason,
      rsp_entry;
  Expr agcb_dec, agcb_dec_idx, agcb_inc, agcb_inc_idx, agcb_bypass, tl_access, tl_miss, tl_bypass, sel_record, sel_miss;
  Expr age_ids, age_active, age_rel, age_oldest, age_youngest, age_empty;
  Expr rp_hit, rp_miss, rp_fill, rp_way, rp_eligible, rp_victim;
  Expr m_hit, m_partial, m_way, m_slots, m_copies, cp_way, cp_slot, cp_wb, s1_dirty_n, cp_off;
  Expr fill_way, fill_pos, fill_posmask, fill_whole, fill_replaces, fill_wb, fill_dirty_n, fill_allocates;
  Expr walk_keep, walk_wb, walk_dirty_n, walk_last;
  Expr room_s1, room_one, room_fill, room_walk, rank_sel, wr_way, way_active, way_rel, fill_slotmask;
  Expr mq_count_q, mq_pop_, mq_pushes_, wb_en, wb_way, wb_slot, wb_off, wb_from_s1, push_final, final_off;
  Expr fill_write, load_hit, store_hit, rank_new, hit_chunk, hit_mask, lane_way, lane_slot, lane_data;
  Expr s1_complete, s1_hit_done, s1_miss_done, s1_partial_done, fill_placing, fill_answer, walk_step;
};

class L1dTop final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_top"; }
  std::string_view summary() const override {
    return "the L1 data cache of one SM: S1, fill unit, flush walker, miss queue, counters over every block";
  }
  Module module(const l1d::Config& cfg) const override { return Top(cfg, name()).build(); }
};

}  // namespace

const RtlBlock& top_block() {
  static const L1dTop block;
  return block;
}

}  // namespace gen::blocks
