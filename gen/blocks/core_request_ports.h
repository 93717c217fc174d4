// The core request's inputs of the lookup units, l1d_core_match and its stage-M1 half
// l1d_core_match_m1: both declare them alike and in this order (gen/blocks/l1d_core_match*.cpp).
#pragma once

#include "gen/ir.h"

namespace gen::blocks {

struct CoreRequestPorts {
  Expr store, size, chunk, mask, token, common, chunk_tag, gran, cfg_bypass, cfg_bto, cfg_opp, agcb_bypass,
      tl_bypass;
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
  p.agcb_bypass = m.input("agcb_bypass_i");
  p.tl_bypass = m.input("two_level_bypass_i");
  return p;
}

}  // namespace gen::blocks
