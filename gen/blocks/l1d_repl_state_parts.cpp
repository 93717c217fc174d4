// l1d_repl_state's generator, continued (gen/blocks/l1d_repl_state_parts.h).
#include "gen/blocks/l1d_repl_state_parts.h"

#include <bit>

#include "common/config.h"

namespace gen::blocks::repl_parts {

using l1d::ReplacementKind;

bool uses_bip_insertion(ReplacementKind k) { return k == ReplacementKind::kBip || k == ReplacementKind::kDip; }

// The shapes the golden policies accept (golden/replacement*.cpp throw std::invalid_argument for
// the others); only the parameters of the configured policy are checked, as make_replacement does.
void validate(const l1d::Config& cfg) {
  // RPR (SPEC 9: RTL optional) exists only in the golden model and the simulator.
  if (cfg.policy.replacement == ReplacementKind::kRpr) {
    throw l1d::ConfigError(
        "l1d_repl_state: replacement rpr is golden-only (SPEC 9: the RTL has no RPR); generate RTL for "
        "another replacement policy, and run RPR with gpusim --l1 golden");
  }
  if (cfg.l1.ways == 0 || cfg.l1.ways > kMaxWays) {
    throw l1d::ConfigError("l1d_repl_state: l1.ways must be in 1..64, got " + std::to_string(cfg.l1.ways));
  }
  if (uses_bip_insertion(cfg.policy.replacement)) {
    const l1d::BipConfig& b = cfg.policy.bip;
    if (!std::has_single_bit(b.mru_one_in) || b.mru_one_in > 0x8000U) {
      throw l1d::ConfigError("l1d_repl_state: bip.mru_one_in must be a power of two in 1..32768, got " +
                             std::to_string(b.mru_one_in));
    }
    if (b.lfsr_seed > 0xFFFFU) {
      throw l1d::ConfigError("l1d_repl_state: bip.lfsr_seed must fit 16 bits, got " + std::to_string(b.lfsr_seed));
    }
  }
  if (cfg.policy.replacement == ReplacementKind::kDip) {
    const l1d::DipConfig& d = cfg.policy.dip;
    if (d.psel_bits < 1 || d.psel_bits > 16) {
      throw l1d::ConfigError("l1d_repl_state: dip.psel_bits must be in 1..16, got " + std::to_string(d.psel_bits));
    }
    if (d.leader_sets_per_policy > kDuelGroup / 2) {
      throw l1d::ConfigError("l1d_repl_state: dip.leader_sets_per_policy must be at most 16, got " +
                             std::to_string(d.leader_sets_per_policy));
    }
  }
}

const char* policy_line(ReplacementKind k) {
  switch (k) {
    case ReplacementKind::kLru: return "Policy LRU (golden::LruPolicy): hits and fills move the way to MRU.";
    case ReplacementKind::kFifo:
      return "Policy FIFO (golden::FifoPolicy): fills move the way to MRU; hits change nothing.";
    case ReplacementKind::kBip:
      return "Policy BIP (golden::BipPolicy): hits move the way to MRU; a fill goes to MRU when the LFSR says so.";
    case ReplacementKind::kDip:
      return "Policy DIP (golden::DipPolicy): hits move the way to MRU; fills insert like LRU or BIP (set dueling).";
    case ReplacementKind::kAgeLru:
      return "Policy AgeLRU (golden::AgeLruPolicy): hits and fills move the way to MRU; warp-age victim filter.";
    case ReplacementKind::kRpr: break;  // refused by validate(): golden-only
  }
  return "";
}

// The staged pipe's update pulses, registered: each port Expr is rebound to its register (<name>_q),
// so the update logic reads flip-flops. Only the pulses the policy uses; the pulse bits reset to 0.
void register_pulses(Module& m, const std::vector<Pulse>& pulses) {
  m.comment("The update pulses, registered (contract 16.5): applied to the ranks one edge later.");
  std::vector<Init> resets;
  std::vector<std::pair<Expr, Expr>> bits, fields;  // (register, port)
  for (const Pulse& p : pulses) {
    Expr q = m.logic(p.name + "_q");
    bits.emplace_back(q, *p.port);
    *p.port = q;
    resets.push_back({q, bit(false)});
    for (std::size_t i = 0; i < p.fields.size(); ++i) {
      const auto& [port, width] = p.fields[i];
      Expr fq = m.logic(p.name + (i == 0 ? "_set_q" : "_way_q"), width);
      fields.emplace_back(fq, *port);
      *port = fq;
    }
  }
  m.always_ff(resets, [&](Block& b) { for (const auto& [q, d] : bits) b.assign(q, d); });
  m.always_ff_noreset([&](Block& b) { for (const auto& [q, d] : fields) b.assign(q, d); });
}

// <what>_new = <what>_old with `way` moved to MRU (to_mru empty: always) or, when to_mru is
// low, to LRU: per way w (g_<what>_way), the moved way takes 0 or Ways-1; a more recent way
// (rank below the moved way's old rank, `<what>_from`) ages by one on a promote, a less recent
// one moves up by one on a demote.
void move_way(Module& m, const std::string& what, const Expr& old_ranks, const Expr& way,
              const Expr& to_mru, const Expr& new_ranks, const Expr& ways, const Expr& way_bits) {
  Expr from = m.logic(what + "_from", way_bits);
  // A loop of equality selects rather than old_ranks[way*WayIdxBits +: WayIdxBits] (a shifter).
  m.always_comb({{from, zeros()}}, [&](Block& b) {
    b.for_("i", 0, ways, [&](Block& body, const Expr& i) {
      body.if_(way.eq(cast(way_bits, i)), [&](Block& t) { t.assign(from, old_ranks.part(i * way_bits, way_bits)); });
    });
  });
  m.gen_for("g_" + what + "_way", "w", 0, ways, [&](Scope& g, const Expr& w) {
    Expr rank = g.logic("rank", way_bits);
    Expr promoted = g.logic("promoted", way_bits);
    Expr demoted = to_mru.empty() ? Expr() : g.logic("demoted", way_bits);
    g.assign(rank, old_ranks.part(w * way_bits, way_bits));
    g.assign(promoted, mux(way.eq(cast(way_bits, w)), zeros(),
                           mux(rank.lt(from), rank + cast(way_bits, 1), rank)));
    if (to_mru.empty()) {
      g.assign(new_ranks.part(w * way_bits, way_bits), promoted);
      return;
    }
    g.assign(demoted, mux(way.eq(cast(way_bits, w)), cast(way_bits, ways - 1),
                          mux(rank.gt(from), rank - cast(way_bits, 1), rank)));
    g.assign(new_ranks.part(w * way_bits, way_bits), mux(to_mru, promoted, demoted));
  });
}

// The staged pipe's victim (contract 16.5, docs/synthesis.md "After the victim from an order read a
// cycle ahead"). The query at M2 read the ranks of M2's set (a select by M2's kind, then a read of
// every set), forwarded the pending update and compared the ranks of the candidates in a chain: 25 FO4
// of the fill's placement on osu018. Here the ranks of M1's set (M2's set of the next cycle: the pipe
// does not stall), with the update pending in M1's cycle forwarded, are registered as a pairwise order
// (order_q[i*Ways+j]: way i is less recent than way j), so M2 starts at flip-flops. The only update
// not in it is the one M2 decided in M1's cycle, which is registered (hit_q, fill_q) by M2's cycle: it
// moves one way to the front of the order (MRU: less recent than none) or to the back (LRU), the hit's
// first, then the fill's, as the ranks apply them; the order of the other ways stays. The victim is the
// candidate less recent than every other candidate (the largest rank: ranks are a permutation, so it
// is unique), two gate levels behind the candidates; no candidate gives way 0, as the rank scan does.
Expr victim_from_order(Module& m, const OrderAhead& a) {
  const Expr& ways = a.ways;
  const Expr& wb = a.way_bits;
  m.comment("The victim from M1's order a cycle ahead (contract 16.5): order_q[i*Ways+j] = way i is less recent");
  m.comment("than way j in order_set_q, M1's set of the last cycle, which is M2's set.");
  Expr order_next = m.logic("order_next", ways * ways);
  Expr order_q = m.logic("order_q", ways * ways);
  Expr order_set_q = m.logic("order_set_q", a.set_bits);
  m.gen_for("g_order_next", "wi", 0, ways, [&](Scope& g, const Expr& i) {
    g.gen_for("g_than", "wj", 0, ways, [&](Scope& h, const Expr& j) {
      h.assign(order_next[i * ways + j], a.next_ranks.part(i * wb, wb).gt(a.next_ranks.part(j * wb, wb)));
    });
  });
  m.always_ff_noreset([&](Block& b) {
    b.assign(order_q, order_next);
    b.assign(order_set_q, a.set_next);
  });

  m.comment("The update M2 decided in M1's cycle (registered since): its way to the front of the order (MRU)");
  m.comment("or to the back (LRU), the hit's first, then the fill's.");
  Expr hit_here = a.hit.empty() ? Expr() : m.logic("order_hit_here");
  Expr fill_here = m.logic("order_fill_here");
  if (!a.hit.empty()) m.assign(hit_here, a.hit & a.hit_set.eq(order_set_q));
  m.assign(fill_here, a.fill & a.fill_set.eq(order_set_q));
  Expr order = m.logic("order", ways * ways);
  m.gen_for("g_order", "wi", 0, ways, [&](Scope& g, const Expr& i) {
    g.gen_for("g_than", "wj", 0, ways, [&](Scope& h, const Expr& j) {
      Expr held = order_q[i * ways + j];
      if (!a.hit.empty()) {
        held = mux(hit_here & a.hit_way.eq(cast(wb, i)), bit(false),
                   mux(hit_here & a.hit_way.eq(cast(wb, j)), bit(true), held));
      }
      const Expr to_front = a.fill_to_mru.empty() ? bit(true) : a.fill_to_mru;
      const Expr to_back = a.fill_to_mru.empty() ? bit(false) : !a.fill_to_mru;
      h.assign(order[i * ways + j], mux(fill_here & a.fill_way.eq(cast(wb, i)), to_back,
                                        mux(fill_here & a.fill_way.eq(cast(wb, j)), to_front, held)));
    });
  });

  m.comment("The victim: the candidate less recent than every other candidate (one-hot, or none).");
  Expr pick = m.logic("victim_pick", ways);
  m.gen_for("g_pick", "wi", 0, ways, [&](Scope& g, const Expr& i) {
    Expr beats = g.logic("beats", ways);  // way i is less recent than way j, or j is i or no candidate
    g.gen_for("g_than", "wj", 0, ways, [&](Scope& h, const Expr& j) {
      h.assign(beats[j], i.eq(j) | !a.candidates[j] | order[i * ways + j]);
    });
    g.assign(pick[i], a.candidates[i] & red_and(beats));
  });
  m.always_comb({{a.victim, zeros()}}, [&](Block& b) {
    b.for_("i", 0, ways, [&](Block& body, const Expr& i) {
      body.if_(pick[i], [&](Block& t) { t.assign(a.victim, a.victim | cast(wb, i)); });
    });
  });
  return order_set_q;
}

}  // namespace gen::blocks::repl_parts
