// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): its interface. describe() writes the
// module's header comment (ports, configuration inputs, the pipe); ports() declares the ports, the
// configuration inputs and their registers, and the counter outputs of either pipe. Split from
// l1d_top.cpp, which composes the rest, to keep each generator file short.
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

void Top::describe() {
  m.describe("The L1 data cache of one SM (docs/l1d-microarchitecture.md; golden model golden::L1).");
  m.describe("Ports as in the contract's section 1: core request (valid/ready), core response (valid),");
  m.describe("memory request (valid/ready), memory response (valid), events, occupancy, agelru_enable,");
  m.describe("and one counter output per golden::L1Counters field (cnt_*_o). Every output is a function");
  m.describe("of the registers only (Moore). Sizes: 0 = 32 B, 1 = 64 B, 2 = 128 B; outcome: 0 hit,");
  m.describe("1 miss-return, 2 bypass-return, 3 store-ack. Static configuration inputs, registered (set");
  m.describe("them before reset and hold them): cfg_bypass_i (0 none, 1 AGCB, 2 two-level, 3 PCAL,");
  m.describe("4 AgeLRU), cfg_gran_i (0 fixed 128 B, 1 static 64 B, 2 static 32 B, 3 dynamic), cfg_bto_i,");
  m.describe("cfg_opportunistic_i (PCAL), cfg_keep_large_i (DyCache), cfg_line_fetch_i (1: a bypassing load");
  m.describe("miss fetches the whole line, l1.bypass_fetch line), cfg_write_i (the write policy of");
  m.describe("store hits: 0 write-back, 1 write-through, 2 write-evict), cfg_kernel_end_inv_i (1: a kernel");
  m.describe("end clears every valid bit instead of the flush walk; l1.kernel_end invalidate, only without");
  m.describe("dirty state), cfg_alloc_i (1: l1.allocation on_miss, contract 13.1: a load miss reserves its");
  m.describe("place; no dirty state only), cfg_merge_i (l1.mshr_merge: 0 stall, 1 block, contract 13.3: a");
  m.describe("load merges into its line's entry and widens it, likewise; 2 sector, contract 14: as block, the");
  m.describe("widenings placed too, sector mode only), cfg_sector_i (1: l1.sector, contract 14: per-sector");
  m.describe("valid bits on G = 128 lines; with cfg_alloc_i a sector miss reserves the missing slots of the");
  m.describe("way holding its line).");
  if (staged_) m.describe(staged_options_text());
  m.describe("The replacement policy is the configuration's, built into u_repl.");
  if (!staged_) {
    m.describe("l1.bypass_path direct (contract 13.6): two_level_bypass_o is the two-level unit's mode;");
    m.describe("store_pending_o says whether a store to the line registered from store_query_line_i at the");
    m.describe("last edge is in S1 or the miss queue.");
  } else if (staged_direct_) {  // generated for it (contract 16.5, "The direct path")
    m.describe("l1.bypass_path direct (contract 13.6, 16.5): two_level_bypass_o is the two-level unit's mode;");
    m.describe("store_pending_o says whether a store to the line registered from store_query_line_i at the");
    m.describe("last edge is in the input or replay FIFO, T, M1, M2, on its way through C and D, or in the");
    m.describe("miss queue.");
  }
  m.describe("One actor uses the arrays per cycle: the fill unit, else the flush walker, else S1.");
  m.describe("Geometry (sets, ways, address and chunk-tag bits, MSHRs, miss queue) is the configuration's,");
  m.describe("fixed by the generator in the instantiated blocks and the widths below.");
  if (staged_) {
    m.describe("Staged pipe (l1.pipeline staged, contract 16): the actor is the operation in stage M2 (A, T,");
    m.describe("M1, M2, C, D, R); core responses at m + 3; cnt_*_o are carry-save chunks whose pending");
    m.describe("carries are on cnt_carry_o (counter i at bits 3i..3i+2, worth 2^16, 2^32, 2^48), read from");
    m.describe("m + 2.");
  }
}

// The staged pipe runs only the options its configuration generated (contract 16.5); l1d_top
// asserts the other configuration inputs 0 (TopStagedOnFillStall_A and the scope assertions).
std::string Top::staged_options_text() const {
  std::string alloc = staged_onmiss_ ? "allocation on_fill or on_miss" : "allocation on_fill";
  std::string merge = staged_smerge_ ? "mshr_merge stall, block or sector"
                      : staged_block_ ? "mshr_merge stall or block"
                                      : "mshr_merge stall";
  std::string mode = staged_sector_ ? "line or sector mode" : "line mode";
  return "This staged pipe runs " + alloc + ", " + merge + " and " + mode + " (contract 16.5).";
}

// l1.carveout adaptive (contract 15): cfg_set_bits_i, log2 of the active set count, changes only
// while the L1 is idle and empty (TopResizeIdle_A, gen/blocks/l1d_top_assert.cpp); registered like
// the static inputs, it takes effect at the edge that ends the cycle of the change, and resize_q_
// holds the replacement state at its reset value in the next cycle (golden: a fresh policy).
void Top::carveout_ports() {
  const unsigned w = static_cast<unsigned>(std::bit_width(static_cast<unsigned>(std::countr_zero(sets_))));
  const Expr in = m.input("cfg_set_bits_i", w);
  cfg_set_bits_ = m.logic("cfg_set_bits_q", w);
  m.always_ff_noreset([&](Block& b) { b.assign(cfg_set_bits_, in); });
  resize_ = m.logic("resize");
  m.assign(resize_, in.ne(cfg_set_bits_));
  resize_q_ = m.logic("resize_q");
  m.always_ff({{resize_q_, bit(false)}}, [&](Block& b) { b.assign(resize_q_, resize_); });
  set_last_ = m.logic("set_last", set_idx_bits_);
  m.assign(set_last_, ~(repl(set_idx_bits_, bit(true)) << cfg_set_bits_));
}

std::vector<Conn> Top::with_set_bits(std::vector<Conn> ports) const {
  if (adaptive_) ports.push_back({"set_bits_i", cfg_set_bits_});
  return ports;
}

void Top::ports() {
  clk = m.clk();
  rst = m.rst_n();
  const Expr cfg_bypass_i = m.input("cfg_bypass_i", 3);
  const Expr cfg_gran_i = m.input("cfg_gran_i", 2);
  const Expr cfg_bto_i = m.input("cfg_bto_i");
  const Expr cfg_opp_i = m.input("cfg_opportunistic_i");
  const Expr cfg_keep_i = m.input("cfg_keep_large_i");
  const Expr cfg_line_fetch_i = m.input("cfg_line_fetch_i");
  const Expr cfg_write_i = m.input("cfg_write_i", 2);
  const Expr cfg_kinv_i = m.input("cfg_kernel_end_inv_i");
  const Expr cfg_alloc_i = m.input("cfg_alloc_i");
  const Expr cfg_merge_i = m.input("cfg_merge_i", 2);
  const Expr cfg_sector_i = m.input("cfg_sector_i");
  // Quasi-static configuration, registered so that no logic depends combinationally on it:
  // a change takes effect one cycle later (the reset cycle loads it before the first request).
  // Besides the timing, this keeps Verilator from re-evaluating all the lookup logic whenever
  // an input is written (docs/performance.md).
  cfg_bypass = m.logic("cfg_bypass_q", 3);
  cfg_gran = m.logic("cfg_gran_q", 2);
  cfg_bto = m.logic("cfg_bto_q");
  cfg_opp = m.logic("cfg_opportunistic_q");
  cfg_keep = m.logic("cfg_keep_large_q");
  cfg_line_fetch = m.logic("cfg_line_fetch_q");
  cfg_write = m.logic("cfg_write_q", 2);
  cfg_kinv = m.logic("cfg_kernel_end_inv_q");
  Expr cfg_alloc = m.logic("cfg_alloc_q");
  Expr cfg_merge = m.logic("cfg_merge_q", 2);
  Expr cfg_sector = m.logic("cfg_sector_q");
  cfg_in_ = {cfg_bypass_i, cfg_gran_i, cfg_bto_i, cfg_opp_i, cfg_keep_i, cfg_line_fetch_i, cfg_write_i, cfg_kinv_i,
             cfg_alloc_i, cfg_merge_i, cfg_sector_i};
  m.always_ff_noreset([&](Block& b) {
    b.assign(cfg_bypass, cfg_bypass_i);
    b.assign(cfg_gran, cfg_gran_i);
    b.assign(cfg_bto, cfg_bto_i);
    b.assign(cfg_opp, cfg_opp_i);
    b.assign(cfg_keep, cfg_keep_i);
    b.assign(cfg_line_fetch, cfg_line_fetch_i);
    b.assign(cfg_write, cfg_write_i);
    b.assign(cfg_kinv, cfg_kinv_i);
    b.assign(cfg_alloc, cfg_alloc_i);
    b.assign(cfg_merge, cfg_merge_i);
    b.assign(cfg_sector, cfg_sector_i);
  });
  cfg_q_ = {cfg_bypass, cfg_gran, cfg_bto, cfg_opp, cfg_keep, cfg_line_fetch, cfg_write, cfg_kinv, cfg_alloc, cfg_merge,
            cfg_sector};
  // A staged pipe runs on_miss, block or sector merging and sector mode only where generated for
  // them (staged_options_text()); elsewhere the inputs are only checked.
  on_miss_ = m.logic("on_miss");
  block_ = m.logic("block_merge");
  m.assign(on_miss_, staged_ && !staged_onmiss_ ? Expr(bit(false)) : cfg_alloc);
  m.assign(block_, !merge_gen() ? Expr(bit(false)) : cfg_merge.ne(lit(2, 0)));
  sector_merge_ = m.logic("sector_merge");
  m.assign(sector_merge_, staged_ && !staged_smerge_ ? Expr(bit(false)) : cfg_merge.eq(lit(2, 2)));
  sector_ = m.logic("sector");
  m.assign(sector_, staged_ && !staged_sector_ ? Expr(bit(false)) : cfg_sector);
  if (lazy_gen_) {  // l1.write_allocate lazy_fetch_on_read: legal only in sector mode, written through
    lazy_ = m.logic("lazy_alloc");
    m.assign(lazy_, cfg_sector & cfg_write.eq(lit(2, 1)));
    lz_write = m.logic("lz_write");  // a store's allocation writes (driven by the S1 actor)
    lz_fill = m.logic("lz_fill");    // ... into a new line: the replacement's on_fill
  }
  if (staged_) {
    Expr unused_cfg = m.logic("unused_cfg_options");
    m.assign(unused_cfg, cfg_alloc ^ red_xor(cfg_merge) ^ cfg_sector ^ on_miss_ ^ sector_ ^ sector_merge_);  // read only by what is generated
    m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
      v.comment(staged_options_text());
      v.comment("The other options' inputs must be 0.");
      if (staged_smerge_) {  // generated for sector merging (sector mode): cfg_merge_i 0-2, cfg_sector_i
        // With on_miss generated too (res_widen_gen) cfg_alloc_i is free: every option input is.
        if (!staged_onmiss_) v.assert_clocked("TopStagedOnFillStall_A", !cfg_alloc);
        v.comment("Sector mode runs G = 128 (fixed128); mshr_merge sector needs sector mode (contract 14);");
        v.comment("cfg_merge_i 3 means nothing.");
        v.assert_clocked("TopSectorScope_A", (!cfg_sector).lor(cfg_gran.eq(lit(2, 0))));
        v.assert_clocked("TopSectorMergeScope_A", cfg_merge.ne(lit(2, 3)) & (cfg_merge.ne(lit(2, 2)) | cfg_sector));
      } else if (staged_onmiss_ || staged_block_) {  // generated for on_miss / block: cfg_alloc_i / cfg_merge_i 1
        // Only block (cfg_merge_i 1) when generated for it; on_miss when generated for it; sector mode
        // (with on_miss, merging stall) when generated for it.
        Expr merge = staged_block_ ? cfg_merge[Expr(1U)] : red_or(cfg_merge);
        Expr off = staged_sector_ ? merge : merge | cfg_sector;
        v.assert_clocked("TopStagedOnFillStall_A", !(staged_onmiss_ ? off : cfg_alloc | off));
        if (staged_sector_) {
          v.comment("Sector mode runs G = 128 (fixed128; contract 14).");
          v.assert_clocked("TopSectorScope_A", (!cfg_sector).lor(cfg_gran.eq(lit(2, 0))));
        }
      } else if (staged_sector_) {  // generated for sector mode: cfg_sector_i turns it on (contract 16.5)
        v.assert_clocked("TopStagedOnFillStall_A", !(cfg_alloc | red_or(cfg_merge)));
        v.comment("Sector mode runs G = 128 (fixed128; contract 14).");
        v.assert_clocked("TopSectorScope_A", (!cfg_sector).lor(cfg_gran.eq(lit(2, 0))));
      } else {
        v.assert_clocked("TopStagedOnFillStall_A", !(cfg_alloc | red_or(cfg_merge) | cfg_sector));
      }
    });
  } else {
    m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
      v.comment("Sector mode runs G = 128 (fixed128); mshr_merge sector needs sector mode (contract 14);");
      v.comment("cfg_merge_i 3 means nothing.");
      v.assert_clocked("TopSectorScope_A", (!cfg_sector).lor(cfg_gran.eq(lit(2, 0))));
      v.assert_clocked("TopSectorMergeScope_A", cfg_merge.ne(lit(2, 3)) & (cfg_merge.ne(lit(2, 2)) | cfg_sector));
    });
  }
  if (adaptive_) carveout_ports();
  write_back_ = m.logic("write_back");
  write_evict_ = m.logic("write_evict");
  m.assign(write_back_, cfg_write.eq(lit(2, 0)));
  m.assign(write_evict_, cfg_write.eq(lit(2, 2)));

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
  // MemResp::sectors (mshr_merge block: one entry's reads answer different sectors).
  rsp_sectors = !merge_gen() ? Expr(zeros()) : m.input("mem_resp_sectors_i", kSlots);

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
  const std::vector<std::string> names = pipe_counter_names();
  for (size_t i = counter_names().size(); i < names.size(); ++i)  // the option counters this pipe keeps
    cnt_o.push_back(m.output("cnt_" + names[i] + "_o", kCounterBits));
  // Staged: the counters are carry-save (l1d_perf_counters): cnt_*_o are four 16-bit chunks and
  // counter i's carries out of chunks 0-2 are bits 3i..3i+2 here; the reader adds them.
  if (staged_) cnt_carry_o_ = m.output("cnt_carry_o", static_cast<unsigned>(names.size()) * 3);
}

}  // namespace gen::blocks::top_gen
