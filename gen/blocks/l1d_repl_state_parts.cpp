// l1d_repl_state's generator, continued (gen/blocks/l1d_repl_state_parts.h).
#include "gen/blocks/l1d_repl_state_parts.h"

namespace gen::blocks::repl_parts {

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

}  // namespace gen::blocks::repl_parts
