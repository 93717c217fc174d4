// Ports the lookup units declare alike and in the same order (gen/blocks/l1d_core_match*.cpp): the
// core request's inputs (l1d_core_match and its stage-M1 half) and the decision's outputs
// (l1d_core_match and its stage-M2 half).
#pragma once

#include "gen/ir.h"

namespace gen::blocks {

struct CoreRequestPorts {
  Expr store, size, chunk, mask, token, common, chunk_tag, gran, cfg_bypass, cfg_bto, cfg_opp, cfg_line_fetch,
      agcb_bypass, tl_bypass;
};

inline CoreRequestPorts core_request_ports(Module& m, unsigned common_bits, unsigned chunk_tag_bits) {
  CoreRequestPorts p;
  p.store = m.input("store_i");
  p.size = m.input("size_i", 2);
  p.chunk = m.input("chunk_i", 2);
  p.mask = m.input("mask_i", 128);
  p.token = m.input("token_i");
  p.common = m.input("common_tag_i", common_bits);
  p.chunk_tag = m.input("chunk_tag_i", chunk_tag_bits);
  p.gran = m.input("gran_i", 2);
  p.cfg_bypass = m.input("cfg_bypass_i", 3);
  p.cfg_bto = m.input("cfg_bto_i");
  p.cfg_opp = m.input("cfg_opportunistic_i");
  p.cfg_line_fetch = m.input("cfg_line_fetch_i");
  p.agcb_bypass = m.input("agcb_bypass_i");
  p.tl_bypass = m.input("two_level_bypass_i");
  return p;
}

struct CoreDecisionPorts {
  Expr hit, partial, hit_way, hit_slots, copies, cp_way, cp_slot, cp_wb, cp_off, dirty_n;
};

inline CoreDecisionPorts core_decision_ports(Module& m, unsigned ways, unsigned way_bits) {
  constexpr unsigned kSlots = 4;
  CoreDecisionPorts p;
  p.hit = m.output("hit_o");
  p.partial = m.output("partial_o");
  p.hit_way = m.output("hit_way_o", way_bits);
  p.hit_slots = m.output("hit_slots_o", kSlots);
  p.copies = m.output("copies_o", ways * kSlots);
  p.cp_way = m.output("cp_way_o", kSlots * way_bits);
  p.cp_slot = m.output("cp_slot_o", kSlots * 2);
  p.cp_wb = m.output("cp_wb_o", kSlots);
  p.cp_off = m.output("cp_off_o", kSlots * 3);
  p.dirty_n = m.output("writebacks_o", 3);
  return p;
}

// Sector mode's lookup answers (contract 14) on the tag compares of the request's line (copy with
// sectors 4'hF) and the row's valid / reserved / any-dirty bits, replacing section 4's answers
// (c_*, c) while `sector` is 1. Emitted into the module given: l1d_core_match (single-cycle) and the
// staged l1d_top's M2 (gen/blocks/l1d_top_staged_match.cpp). Defined in l1d_core_match.cpp.
struct SectorIo {
  Expr sector, store, needed, common_eq, copy, row_valid, row_reserved, row_dirty_any;
  Expr c_fetch, c_probe, c_bypass_fetch;  // section 4's
  Expr fetch, probe, bypass_fetch, held;  // the outputs
  // l1.write_allocate lazy_fetch_on_read (rtl_written_state; else empty): the row's written slots, the
  // option being on (sector mode written through), the held way's written slots of the line.
  Expr row_written, lazy, written;
};
void core_match_sector_outputs(Module& m, unsigned ways, unsigned way_bits, const SectorIo& io,
                               const CoreDecisionPorts& c, const CoreDecisionPorts& o);

}  // namespace gen::blocks
