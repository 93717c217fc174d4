// The ports l1d_fill_place and its stage-M2 half l1d_fill_place_m2 share: the victim and AgeLRU
// inputs and the placement outputs, declared alike and in this order (gen/blocks/l1d_fill_place*.cpp).
#pragma once

#include "gen/ir.h"

namespace gen::blocks {

struct PlacementPorts {
  Expr victim, age_bypass_en, way_active, way_rel, req_rel;                      // inputs
  Expr eligible_o, allocates_o, way_o, pos_o, whole_o, posmask_o, slotmask_o,  // outputs
      replaces_o, wb_o, dirty_n_o, age_bypass_o;
};

inline PlacementPorts placement_ports(Module& m, unsigned ways, unsigned way_bits) {
  constexpr unsigned kAwidBits = 8, kSlots = 4;
  PlacementPorts p;
  p.victim = m.input("victim_i", way_bits);
  p.age_bypass_en = m.input("age_bypass_en_i");
  p.way_active = m.input("way_active_i", ways);
  p.way_rel = m.input("way_rel_age_i", ways * kAwidBits);
  p.req_rel = m.input("req_rel_age_i", kAwidBits);
  p.eligible_o = m.output("eligible_o", ways);
  p.allocates_o = m.output("allocates_o");
  p.way_o = m.output("way_o", way_bits);
  p.pos_o = m.output("pos_o", 2);
  p.whole_o = m.output("whole_o");
  p.posmask_o = m.output("replace_slots_o", kSlots);
  p.slotmask_o = m.output("block_slots_o", kSlots);
  p.replaces_o = m.output("replaces_valid_o");
  p.wb_o = m.output("writeback_slots_o", kSlots);
  p.dirty_n_o = m.output("writebacks_o", 3);
  // The block would allocate but AgeLRU bypassing turns it away (allocates_o is 0): l1.allocation
  // on_miss records that load as a bypass (contract 13.1).
  p.age_bypass_o = m.output("age_bypass_o");
  return p;
}

}  // namespace gen::blocks
