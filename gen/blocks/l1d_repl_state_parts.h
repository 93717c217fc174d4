// l1d_repl_state's generator, continued (gen/blocks/l1d_repl_state.cpp): the configuration check,
// the rank move, the staged pipe's registered update pulses and its victim from an order read a cycle ahead.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks::repl_parts {

constexpr unsigned kDuelGroup = 32;  // DIP: leaders are chosen per group of 32 sets
constexpr uint32_t kMaxWays = 64;    // golden::kMaxWays

bool uses_bip_insertion(l1d::ReplacementKind k);
// The shapes the golden policies accept; throws l1d::ConfigError naming the field for the others.
void validate(const l1d::Config& cfg);
// One line naming the policy and its golden class, for the module's header comment.
const char* policy_line(l1d::ReplacementKind k);

struct Pulse {
  Expr* port;
  std::string name;
  std::vector<std::pair<Expr*, Expr>> fields;  // the pulse's set port (and way port) and their widths
};

// The staged pipe's update pulses, registered: each port Expr is rebound to its register (<name>_q),
// so the update logic reads flip-flops. Only the pulses the policy uses; the pulse bits reset to 0.
void register_pulses(Module& m, const std::vector<Pulse>& pulses);

// <what>_new = <what>_old with `way` moved to MRU (to_mru empty: always) or, when to_mru is low, to LRU.
void move_way(Module& m, const std::string& what, const Expr& old_ranks, const Expr& way, const Expr& to_mru,
              const Expr& new_ranks, const Expr& ways, const Expr& way_bits);

// The staged pipe's victim (contract 16.5): the queried set's ranks read a cycle ahead, as a pairwise
// order registered with the set, corrected for the one update registered since, and the victim the
// candidate less recent than every other candidate.
struct OrderAhead {
  Expr next_ranks, set_next;                    // M1's set's ranks (pending update forwarded); M1's set
  Expr hit, hit_set, hit_way;                   // the registered hit; empty hit: hits move nothing (FIFO)
  Expr fill, fill_set, fill_way, fill_to_mru;   // the registered fill; empty fill_to_mru: always to MRU
  Expr candidates, victim;                      // the ways the victim is chosen among; the victim
  Expr ways, way_bits, set_bits;
};
// Emits order_q / order_set_q (no reset: loaded at every edge) and the victim; returns order_set_q.
Expr victim_from_order(Module& m, const OrderAhead& a);

}  // namespace gen::blocks::repl_parts
