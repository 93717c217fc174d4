// The assertions of l1d_top that concern the whole cache (docs/rtl-verification.md): the
// configuration inputs held after reset, the memory request port's valid/ready protocol, the
// actors' exclusive selects, the miss queue's and fill FIFO's bounds and the one-copy invariant
// of a 32 B chunk. l1d_top.cpp passes its
// signals; the checks live here to keep the datapath generator readable.
#pragma once

#include <vector>

#include "gen/ir.h"

namespace gen::blocks {

struct TopAssertSignals {
  // cfg_*_i and their registers cfg_*_q, in the same order.
  std::vector<Expr> cfg_in, cfg_q;
  // The memory request port: valid, ready and every payload output.
  Expr mem_valid, mem_ready;
  std::vector<Expr> mem_payload;
  unsigned mem_payload_bits = 0;  // their total width
  // The actors (fill unit, flush walker, S1) and the actions each may take.
  Expr act_fill, act_flush, act_s1;
  std::vector<Expr> fill_actions, flush_actions, s1_actions;
  // Operations only one of which may happen per cycle, per group (MSHR alloc/add; replacement
  // hit/miss/fill).
  std::vector<std::vector<Expr>> exclusive_groups;
  // The miss queue (occupancy, pop, pushes of the cycle; 3-bit pushes) and the fill FIFO of MSHR
  // ids (occupancy, pop = the fill unit's release).
  Expr queue_count, queue_pop, queue_pushes, fifo_count, fifo_pop;
  unsigned queue_entries = 0, queue_count_bits = 0, fifo_entries = 0;
  // The row of the set being worked on, as read (t_*) and as written (w_* under w_en).
  unsigned ways = 0, slots = 0, common_bits = 0, chunk_tag_bits = 0;
  Expr w_en, t_common, t_valid, t_tag, w_common, w_valid, w_tag;
  // Whether t_* is a set's row this cycle (the staged pipe's row is only while M2 holds an
  // operation); the one-copy check holds when it is.
  Expr row_read = bit(true);
};

void top_assertions(Scope& m, const TopAssertSignals& s);

}  // namespace gen::blocks
