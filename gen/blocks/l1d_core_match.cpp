// l1d_core_match: the lookup decision of a core request (docs/l1d-microarchitecture.md section 4)
// on its set's row: which sectors it needs and would fetch, the bypass decision, the chunk-tag
// match and the copies of its chunks that a miss or a store drops, with their write-back order.
// Combinational; the single-cycle l1d_top's S1 uses it, with the MSHR probe (l1d_mshr) on its
// sector outputs. Golden counterpart: golden::L1's lookup (load / store), bypass_decision and
// count_dirty, with chunk_match and find_copies.
//
// Structure: two units along the staged L1's stage line (contract 16.5): l1d_core_match_m1 (what
// reads no flip-flop: sectors, bypass reason, the chunk match's decode and tag compares) and
// l1d_core_match_m2 (the valid and any-dirty bits: the match's decision, the copies). The staged
// L1 registers the first one's outputs; here they are wired back to back, so the single-cycle
// l1d_top's lockstep checks both.
#include <algorithm>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/core_request_ports.h"
#include "gen/blocks/wide_select.h"  // bits_for

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = 4;

// Contract section 14 (RTL paragraph): with cfg_sector_i the lookup is the sector cache's, else
// section 4's answers pass through. golden::L1::sector_line / sector_load / sector_store.
}  // namespace

void core_match_sector_outputs(Module& m, unsigned ways, unsigned way_bits, const SectorIo& io,
                               const CoreDecisionPorts& c, const CoreDecisionPorts& o) {
  m.comment("Sector mode: the valid slots of the request's line per way, the held way (the lowest with a valid");
  m.comment("or reserved one, one-hot; a line is held by at most one way: golden sector_line), its valid and");
  m.comment("any-dirty masks.");
  const bool lazy = !io.lazy.empty();
  const Expr line_valid = m.logic("s_line_valid", ways * kSlots);
  const Expr line_live = m.logic("s_line_live", ways * kSlots);  // valid or reserved (or written)
  const Expr line_written = lazy ? m.logic("s_line_written", ways * kSlots) : Expr();
  const Expr way_any = m.logic("s_way_any", ways);
  const Expr way_sel = m.logic("s_way_sel", ways);
  m.gen_for("g_s_way", "gsw", 0, ways, [&](Scope& g, const Expr& w) {
    g.assign(line_valid.part(w * kSlots, kSlots),
             mux(io.common_eq[w], io.copy.part(w * kSlots, kSlots) & io.row_valid.part(w * kSlots, kSlots), zeros()));
    if (lazy) {  // a written slot holds its line as a valid one does (golden sector_line)
      g.assign(line_written.part(w * kSlots, kSlots),
               mux(io.common_eq[w], io.copy.part(w * kSlots, kSlots) & io.row_written.part(w * kSlots, kSlots),
                   zeros()));
    }
    Expr live = mux(io.common_eq[w], io.copy.part(w * kSlots, kSlots) & io.row_reserved.part(w * kSlots, kSlots),
                    zeros()) | line_valid.part(w * kSlots, kSlots);
    g.assign(line_live.part(w * kSlots, kSlots), lazy ? live | line_written.part(w * kSlots, kSlots) : live);
    g.assign(way_any[w], red_or(line_live.part(w * kSlots, kSlots)));
  });
  m.assign(way_sel[0], way_any[0]);
  m.gen_for("g_s_sel", "gss", 1, ways, [&](Scope& g, const Expr& w) {
    g.assign(way_sel[w], way_any[w] & !red_or(way_any.slice(w - 1, 0)));
  });
  const Expr s_way = m.logic("s_way", way_bits);
  const Expr s_valid = m.logic("s_valid", kSlots);
  const Expr s_dirty = m.logic("s_dirty", kSlots);
  std::vector<Init> drives = {{s_way, zeros()}, {s_valid, zeros()}, {s_dirty, zeros()}};
  if (lazy) drives.push_back({io.written, zeros()});
  m.always_comb(drives, [&](Block& b) {
    b.for_("si", 0, Expr(ways), [&](Block& body, const Expr& i) {
      body.assign(s_way, s_way | mux(way_sel[i], cast(way_bits, i), zeros()));
      body.assign(s_valid, s_valid | mux(way_sel[i], line_valid.part(i * kSlots, kSlots), zeros()));
      body.assign(s_dirty, s_dirty | mux(way_sel[i], io.row_dirty_any.part(i * kSlots, kSlots), zeros()));
      if (lazy) body.assign(io.written, io.written | mux(way_sel[i], line_written.part(i * kSlots, kSlots), zeros()));
    });
  });
  const Expr s_held = m.logic("s_held");
  const Expr s_hit = m.logic("s_hit");
  const Expr s_missing = m.logic("s_missing", kSlots);
  const Expr s_copy = m.logic("s_copy", kSlots);  // a store's copies (slot c holds chunk c)
  const Expr s_wb = m.logic("s_wb", kSlots);
  m.assign(s_held, red_or(way_any));
  m.assign(s_missing, io.needed & ~s_valid);
  // Write allocation: a store hits when its needed sectors are valid or written (contract 14); a
  // load still needs them valid.
  const Expr s_present = lazy ? m.logic("s_present", kSlots) : Expr();
  if (lazy) {
    m.assign(s_present, io.needed & (s_valid | mux(io.lazy & io.store, io.written, zeros())));
    m.assign(s_hit, s_held & (io.needed & ~s_present).eq(zeros()));
  } else {
    m.assign(s_hit, s_held & s_missing.eq(zeros()));
  }
  m.assign(s_copy, mux(io.store, io.needed & s_valid, zeros()));
  m.assign(s_wb, s_copy & s_dirty);
  m.comment("The outputs: sector mode's, or section 4's.");
  m.assign(io.held, io.sector & s_held);
  m.assign(io.fetch, mux(io.sector, s_missing, io.c_fetch));
  // bypass_fetch_o stays section 4's: it feeds extra_copies_i back under on_miss (which sector mode
  // does not run), so a sector answer there would close a combinational loop through the compare.
  m.assign(io.bypass_fetch, io.c_bypass_fetch);
  m.assign(io.probe, mux(io.sector, mux(io.store, io.needed, s_missing), io.c_probe));
  m.assign(o.hit, mux(io.sector, s_hit, c.hit));
  m.assign(o.partial, mux(io.sector, (!s_hit) & red_or(lazy ? s_present : io.needed & s_valid), c.partial));
  m.assign(o.hit_way, mux(io.sector, s_way, c.hit_way));
  m.assign(o.hit_slots, mux(io.sector, mux(s_hit, io.needed, zeros()), c.hit_slots));
  m.gen_for("g_s_copies", "gsc", 0, ways, [&](Scope& g, const Expr& w) {
    g.assign(o.copies.part(w * kSlots, kSlots),
             mux(io.sector, mux(way_sel[w], s_copy, zeros()), c.copies.part(w * kSlots, kSlots)));
  });
  m.comment("A store's copies in sector mode: chunk c in slot c of the held way; write-backs in slot order.");
  m.gen_for("g_s_cp", "gsk", 0, kSlots, [&](Scope& g, const Expr& k) {
    Expr below = g.logic("below", kSlots);
    g.gen_for("g_s_lower", "gsd", 0, kSlots, [&](Scope& go, const Expr& d) { go.assign(below[d], s_wb[d] & d.lt(k)); });
    g.assign(o.cp_way.part(k * way_bits, way_bits),
             mux(io.sector, mux(s_copy[k], s_way, zeros()), c.cp_way.part(k * way_bits, way_bits)));
    g.assign(o.cp_slot.part(k * 2, 2), mux(io.sector, mux(s_copy[k], cast(2, k), zeros()), c.cp_slot.part(k * 2, 2)));
    g.assign(o.cp_off.part(k * 3, 3),
             mux(io.sector, mux(s_copy[k], cast(3, countones(below)), zeros()), c.cp_off.part(k * 3, 3)));
  });
  m.assign(o.cp_wb, mux(io.sector, s_wb, c.cp_wb));
  m.assign(o.dirty_n, mux(io.sector, cast(3, countones(s_wb)), c.dirty_n));
}

namespace {

class CoreMatch final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_core_match"; }
  std::string_view summary() const override {
    return "a core request's lookup (section 4): sectors, bypass decision, chunk match, copies and their write-backs";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);
    const unsigned ways = cfg.l1.ways;
    const unsigned ct_bits = split.chunk_tag_bits();
    const unsigned cm_bits = std::max(split.common_tag_bits(), 1U);
    const unsigned way_bits = bits_for(ways);
    Module m(name());
    m.describe("A core request's lookup (contract section 4). The request: store_i, size_i (0 32 B, 1 64 B,");
    m.describe("2 128 B), chunk_i (its first chunk), mask_i (byte mask), token_i (PCAL), common_tag_i, chunk_tag_i;");
    m.describe("gran_i: G; cfg_bypass_i: 0 none, 1 AGCB, 2 two-level, 3 PCAL, 4 AgeLRU (decides at the fill);");
    m.describe("agcb_bypass_i / two_level_bypass_i: those units' predictions. The set's row: per way row_common_tag_i,");
    m.describe("per slot (bit 4w+s) row_valid_i, row_chunk_tag_i, row_dirty_any_i. Outputs: needed_o (chunks the mask");
    m.describe("touches), fetch_o (what a new entry fetches), probe_o (the MSHR probe's sectors: the request's");
    m.describe("R-aligned block for a store, fetch for a load), reason_o (0 none, 1 AGCB, 2 two-level, 3");
    m.describe("PCAL), the match (hit_o, partial_o, hit_way_o, hit_slots_o, copies_o), and per chunk c the copy a");
    m.describe("miss or store drops: cp_way_o, cp_slot_o, cp_wb_o (dirty: written back), cp_off_o (its place among");
    m.describe("the write-backs, by way then slot); writebacks_o counts them. bypass_fetch_o: what the load fetches");
    m.describe("if it does not allocate (fetch_o of a bypassing load); extra_copies_i: sectors whose copies are");
    m.describe("found besides probe_o's (l1.allocation on_miss: AgeLRU may turn the load into a bypass at the");
    m.describe("miss, which then drops the copies of bypass_fetch_o; contract 13.1).");
    m.describe("cfg_sector_i (l1.sector, contract 14; G = 128, slot i holds chunk i): the held way is the lowest");
    m.describe("way with a valid or reserved (row_reserved_i, l1.allocation on_miss) slot of the request's line,");
    m.describe("valid its mask of valid ones; held_o (a way holds the");
    m.describe("line), hit_o = held and needed within valid (hit_slots_o = needed, hit_way_o the held way),");
    m.describe("partial_o = a miss with needed & valid not empty; fetch_o = needed & ~valid (bypass_fetch_o is");
    m.describe("section 4's: on_miss only), probe_o = fetch_o for a load, needed for a store; a load drops no copy, a store's copies are");
    m.describe("needed & valid of the held way (their write-backs by slot). held_o is 0 without cfg_sector_i.");
    if (rtl_written_state(cfg)) {
      m.describe("l1.write_allocate lazy_fetch_on_read (contract 14): row_written_i, a slot a store allocated");
      m.describe("without data, holds its line like a valid one (held_o, hit_way_o); with lazy_i a store hits");
      m.describe("when needed is within the held way's valid | written slots (partial_o: some needed slot valid");
      m.describe("or written). A load still hits on valid slots only.");
    }

    const auto [store, size, chunk, mask, token, common, chunk_tag, gran, cfg_bypass, cfg_bto, cfg_opp,
                cfg_line_fetch, agcb_bypass, tl_bypass] = core_request_ports(m, cm_bits, ct_bits);
    const Expr row_common = m.input("row_common_tag_i", ways * cm_bits);
    const Expr row_valid = m.input("row_valid_i", ways * kSlots);
    const Expr row_tag = m.input("row_chunk_tag_i", ways * kSlots * ct_bits);
    const Expr row_dirty_any = m.input("row_dirty_any_i", ways * kSlots);
    const Expr row_reserved = m.input("row_reserved_i", ways * kSlots);  // read in sector mode only
    const Expr extra_copies = m.input("extra_copies_i", kSlots);
    const Expr cfg_sector = m.input("cfg_sector_i");
    const bool lazy = rtl_written_state(cfg);  // l1.write_allocate lazy_fetch_on_read (contract 14)
    const Expr row_written = lazy ? m.input("row_written_i", ways * kSlots) : Expr();
    const Expr lazy_on = lazy ? m.input("lazy_i") : Expr();

    const Expr needed = m.output("needed_o", kSlots);
    const Expr fetch = m.output("fetch_o", kSlots);
    const Expr probe = m.output("probe_o", kSlots);
    const Expr reason = m.output("reason_o", 2);
    const Expr bypass_fetch = m.output("bypass_fetch_o", kSlots);
    const auto [hit, partial, hit_way, hit_slots, copies, cp_way, cp_slot, cp_wb, cp_off, dirty_n] =
        core_decision_ports(m, ways, way_bits);
    const Expr held_line = m.output("held_o");
    const Expr written_s = lazy ? m.logic("s_written", kSlots) : Expr();  // the held way's written slots
    // The section-4 (DyCache) answers, which sector mode replaces (sector_outputs).
    const Expr c_fetch = m.logic("c_fetch", kSlots);
    const Expr c_probe = m.logic("c_probe", kSlots);
    const Expr c_bypass_fetch = m.logic("c_bypass_fetch", kSlots);
    const CoreDecisionPorts c{m.logic("c_hit"), m.logic("c_partial"), m.logic("c_hit_way", way_bits),
                              m.logic("c_hit_slots", kSlots), m.logic("c_copies", ways * kSlots),
                              m.logic("c_cp_way", kSlots * way_bits), m.logic("c_cp_slot", kSlots * 2),
                              m.logic("c_cp_wb", kSlots), m.logic("c_cp_off", kSlots * 3),
                              m.logic("c_writebacks", 3)};

    m.comment("Stage M1's half: what reads no flip-flop.");
    const Expr legal = m.logic("legal");
    const Expr compared = m.logic("compared", kSlots);
    const Expr mask_chunk = m.logic("mask_chunk", kSlots * 2);
    const Expr req_chunks = m.logic("req_chunks", kSlots);
    const Expr need_slots = m.logic("need_slots", kSlots);
    const Expr head_mask = m.logic("head_mask", 2);
    const Expr free_slots = m.logic("free_slots", kSlots);
    const Expr common_eq = m.logic("common_eq", ways);
    const Expr tag_ok = m.logic("tag_ok", ways * kSlots);
    const Expr held = m.logic("held", ways * kSlots);
    const Expr copy = m.logic("copy", ways * kSlots);
    const Expr slot_chunk = m.logic("slot_chunk", ways * kSlots * 2);
    const Expr unused_m1 = m.logic("unused_m1");
    m.comment("Sector mode compares every slot of the request's line (copy_o with sectors 4'hF).");
    const Expr m1_extra = m.logic("m1_extra", kSlots);
    m.assign(m1_extra, extra_copies | repl(Expr(kSlots), cfg_sector));
    m.instance("u_m1", core_match_m1_block().module(cfg), {},
               {{"store_i", store}, {"size_i", size}, {"chunk_i", chunk}, {"mask_i", mask}, {"token_i", token},
                {"common_tag_i", common}, {"chunk_tag_i", chunk_tag}, {"gran_i", gran}, {"cfg_bypass_i", cfg_bypass},
                {"cfg_bto_i", cfg_bto}, {"cfg_opportunistic_i", cfg_opp}, {"cfg_line_fetch_i", cfg_line_fetch},
                {"agcb_bypass_i", agcb_bypass},
                {"two_level_bypass_i", tl_bypass}, {"row_common_tag_i", row_common}, {"row_chunk_tag_i", row_tag},
                {"extra_copies_i", m1_extra}, {"needed_o", needed}, {"fetch_o", c_fetch}, {"probe_o", c_probe},
                {"reason_o", reason}, {"bypass_fetch_o", c_bypass_fetch},
                {"legal_o", legal}, {"compared_o", compared}, {"mask_chunk_o", mask_chunk},
                {"req_chunks_o", req_chunks}, {"need_slots_o", need_slots}, {"head_mask_o", head_mask},
                {"free_slots_o", free_slots}, {"common_eq_o", common_eq}, {"tag_ok_o", tag_ok}, {"held_o", held},
                {"copy_o", copy}, {"slot_chunk_o", slot_chunk}});
    m.comment("The decode l1d_match_fix reads in the staged L1: nothing to correct here.");
    m.assign(unused_m1, red_xor(concat({compared, mask_chunk, req_chunks})));
    m.comment("Stage M2's half: the valid and any-dirty bits.");
    m.instance("u_m2", core_match_m2_block().module(cfg), {},
               {{"legal_i", legal}, {"free_slots_i", free_slots}, {"need_slots_i", need_slots},
                {"head_mask_i", head_mask}, {"common_eq_i", common_eq}, {"tag_ok_i", tag_ok}, {"held_i", held},
                {"copy_i", copy}, {"slot_chunk_i", slot_chunk}, {"row_valid_i", row_valid},
                {"row_dirty_any_i", row_dirty_any}, {"hit_o", c.hit}, {"partial_o", c.partial},
                {"hit_way_o", c.hit_way}, {"hit_slots_o", c.hit_slots}, {"copies_o", c.copies},
                {"cp_way_o", c.cp_way}, {"cp_slot_o", c.cp_slot}, {"cp_wb_o", c.cp_wb}, {"cp_off_o", c.cp_off},
                {"writebacks_o", c.dirty_n}});
    core_match_sector_outputs(m, ways, way_bits, SectorIo{cfg_sector, store, needed, common_eq, copy, row_valid, row_reserved, row_dirty_any,
                                               c_fetch, c_probe, c_bypass_fetch, fetch, probe, bypass_fetch,
                                               held_line, row_written, lazy_on, written_s},
                   c, CoreDecisionPorts{hit, partial, hit_way, hit_slots, copies, cp_way, cp_slot, cp_wb, cp_off,
                                        dirty_n});
    return m;
  }
};

}  // namespace

const RtlBlock& core_match_block() {
  static const CoreMatch block;
  return block;
}

}  // namespace gen::blocks
