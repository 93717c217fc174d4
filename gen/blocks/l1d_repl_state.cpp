// l1d_repl_state: the replacement state of the L1 and its victim choice (SPEC section 8,
// DESIGN.md "Policies are plug-ins"; golden model: golden::ReplacementPolicy and the policy the
// configuration names: LruPolicy, FifoPolicy, BipPolicy, DipPolicy or AgeLruPolicy).
//
// The policy is chosen when the module is emitted (like every other structural choice of a
// configuration), so the module holds only its own policy's logic; the port list is the same for
// every policy, so that l1d_top wires it one way, and ports a policy does not use are sunk into
// unused_* nets.
//
// Structure: per set (g_set) one vector of flops with the ways' recency ranks; two read-modify-
// write paths, the hit's (promote) and the fill's (promote, or demote for a BIP-style insertion),
// the fill's reading the hit's result when both name one set; the victim query reads the
// registered ranks of set_i. BIP and DIP add the 16-bit Galois LFSR, DIP the PSEL counter and the
// leader-set decode of the hit and fill sets. For `l1.pipeline: staged` (contract 16.5) the hit,
// miss and fill pulses are registered first (register_pulses, l1d_repl_state_parts.cpp), so every
// update starts at flip-flops, and the query forwards the pending update; single_cycle as before.
#include <string>
#include <utility>
#include <vector>

#include "common/address.h"
#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/l1d_repl_state_parts.h"

namespace gen::blocks {
namespace {

using l1d::ReplacementKind;
using repl_parts::kDuelGroup;
using repl_parts::move_way;
using repl_parts::policy_line;
using repl_parts::Pulse;
using repl_parts::register_pulses;
using repl_parts::uses_bip_insertion;
using repl_parts::validate;

constexpr unsigned kAwidBits = 8;      // AgeLRU relative ages, as l1d_agelru_ages gives them
constexpr unsigned kLfsrBits = 16;     // golden::Lfsr16
constexpr uint64_t kLfsrTaps = 0xB400;  // golden::Lfsr16::next
constexpr unsigned kDuelPosBits = 6;   // 0..32: a set's position in its group and the group size

class ReplState final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_repl_state"; }
  std::string_view summary() const override {
    return "replacement state: per-set recency ranks, hit/miss/fill updates, victim choice (LRU/FIFO/BIP/DIP/AgeLRU)";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);  // refuses a geometry the golden model refuses
    validate(cfg);
    const ReplacementKind policy = cfg.policy.replacement;
    const bool hit_moves = policy != ReplacementKind::kFifo;
    const bool bip_insertion = uses_bip_insertion(policy);
    const bool dip = policy == ReplacementKind::kDip;
    const bool agelru = policy == ReplacementKind::kAgeLru;
    // The staged pipe (contract 16.5): the update pulses are registered, the query forwards them.
    const bool registered = cfg.l1.pipeline == l1d::L1Pipeline::kStaged;

    Module m(name());
    m.describe("Replacement state of the L1 and its victim choice (SPEC section 8, golden::ReplacementPolicy),");
    m.describe("emitted for the configuration's policy; the ports are the same for every policy.");
    m.describe(policy_line(policy));
    m.describe("State: per set, a recency rank per way (0 = MRU .. Ways-1 = LRU), always a permutation; reset");
    m.describe("gives way w rank w in every set. ranks_o[w*WayIdxBits +: WayIdxBits] is way w's rank in set_i.");
    m.describe("Promote (to MRU): the ways more recent than the way age by one. Demote (to LRU): the ways less");
    m.describe("recent than the way move up by one.");
    m.describe("Per cycle, in this order, each step seeing the previous ones' results (registered: the state");
    m.describe("changes at the clock edge):");
    m.describe("  1. victim_o and ranks_o: combinational on the registered state (what golden victim() and");
    m.describe("     rank() see before the cycle's hooks; the L1's fill unit calls victim() before on_fill());");
    m.describe("  2. hit_i: on_hit(hit_set_i, hit_way_i);  3. miss_i: on_miss(miss_set_i);");
    m.describe("  4. fill_i: on_fill(fill_set_i, fill_way_i).");
    m.describe("golden::L1 makes at most one of these calls per cycle (a cycle runs the fill unit, a flush step");
    m.describe("or the S1 lookup, which hits or misses once); the order only defines the combinations.");
    if (registered) {
      m.describe("Staged pipe (contract 16.5): hit_i, miss_i, fill_i and their sets and ways are registered");
      m.describe("(hit_q ..., reset to no pulse) and steps 2-4 apply the registered pulses, so the ranks change");
      m.describe("one edge later and every update starts at flip-flops; step 1 forwards them: victim_o and");
      m.describe("ranks_o read set_i's ranks with the pending pulses applied (the fill's result, else the hit's,");
      m.describe("when they name set_i), which are the ranks a not yet registered update would have left.");
      m.describe("The victim is read a cycle ahead: set_next_i is the set_i of the next cycle (M1's set, M2's of");
      m.describe("the next cycle); its ranks, forwarded likewise, are registered as a pairwise order (order_q),");
      m.describe("which the update registered at the next edge corrects, and victim_o is the candidate less");
      m.describe("recent than every other candidate: the same way as the query's, whenever set_i is the");
      m.describe("registered set_next_i (ReplVictimAheadEqual_A); ranks_o is the query's.");
    }
    m.describe("victim_o: the eligible way (eligible_i[w]) with the largest rank (golden lru_of); it is");
    m.describe("meaningless when no way is eligible, which the L1 never asks.");
    if (agelru) {
      m.describe("AgeLRU: way_active_i[w] and way_rel_age_i[w*8 +: 8] are the active test and relative age of way");
      m.describe("w's AWID (an l1d_agelru_ages query each). With age_filter_i, the victim is the LRU eligible way");
      m.describe("of an inactive warp, else the LRU eligible way among those with the largest relative age (the");
      m.describe("youngest warp's); without it, plain LRU among the eligible ways (Dynamic-AgeLRU voting).");
    } else {
      m.describe("way_active_i, way_rel_age_i and age_filter_i (AgeLRU only) are ignored.");
    }
    if (bip_insertion) {
      m.describe("BIP-style insertion: the LFSR (16-bit Galois, shifting right, taps 16'hB400; reset to LfsrSeed,");
      m.describe("0 meaning 1) steps once per BIP-style fill; the fill goes to MRU when the new state's low");
      m.describe("log2(MruOneIn) bits are zero, else to LRU.");
    }
    if (dip) {
      m.describe("DIP: set s is an LRU leader if s % 32 < LeaderSets, a BIP leader if s % 32 >= 32 - LeaderSets,");
      m.describe("else a follower. A miss in an LRU leader increments PSEL, one in a BIP leader decrements it");
      m.describe("(PselBits bits, saturating; reset to the midpoint 2^(PselBits-1)). Fills insert like BIP in BIP");
      m.describe("leaders and, while PSEL >= the midpoint, in followers; else like LRU (no LFSR step).");
    }
    if (!hit_moves) m.describe("hit_i, hit_set_i and hit_way_i are ignored (FIFO).");
    if (!dip) m.describe("miss_i and miss_set_i are ignored (only DIP counts misses).");
    m.describe("SetIdxBits and WayIdxBits are at least 1 (do not override them): with one set the set ports keep");
    m.describe("one bit and are ignored; with one way the way ports and ranks keep one bit and read zero.");

    Expr sets = m.param("Sets", rtl_array_sets(cfg));
    Expr ways = m.param("Ways", cfg.l1.ways);
    Expr set_bits = m.param("SetIdxBits", mux(sets.gt(1), clog2(sets), 1));
    Expr way_bits = m.param("WayIdxBits", mux(ways.gt(1), clog2(ways), 1));
    Expr mru_one_in, lfsr_seed, psel_bits, leader_sets;
    if (bip_insertion) {
      mru_one_in = m.param("MruOneIn", cfg.policy.bip.mru_one_in);
      lfsr_seed = m.param("LfsrSeed", Type::logic(kLfsrBits), hex(kLfsrBits, cfg.policy.bip.lfsr_seed));
    }
    if (dip) {
      psel_bits = m.param("PselBits", cfg.policy.dip.psel_bits);
      leader_sets = m.param("LeaderSets", cfg.policy.dip.leader_sets_per_policy);
    }

    m.clk();
    m.rst_n();
    Expr hit = m.input("hit_i");
    Expr hit_set = m.input("hit_set_i", set_bits);
    Expr hit_way = m.input("hit_way_i", way_bits);
    Expr miss = m.input("miss_i");
    Expr miss_set = m.input("miss_set_i", set_bits);
    Expr fill = m.input("fill_i");
    Expr fill_set = m.input("fill_set_i", set_bits);
    Expr fill_way = m.input("fill_way_i", way_bits);
    Expr set = m.input("set_i", set_bits);
    // Staged: M1's set, the set_i of the next cycle (the victim's order is read a cycle ahead).
    Expr set_next = registered ? m.input("set_next_i", set_bits) : Expr();
    Expr eligible = m.input("eligible_i", ways);
    Expr way_active = m.input("way_active_i", ways);
    Expr way_rel_age = m.input("way_rel_age_i", ways * kAwidBits);
    Expr age_filter = m.input("age_filter_i");
    Expr victim = m.output("victim_o", way_bits);
    Expr ranks_o = m.output("ranks_o", ways * way_bits);

    Expr span = m.localparam("SetRankBits", ways * way_bits);

    // --- Ports this policy does not use.
    if (!hit_moves) {
      Expr unused_hit = m.logic("unused_hit");
      m.assign(unused_hit, red_xor(concat({hit, hit_set, hit_way})));
    }
    if (!dip) {
      Expr unused_miss = m.logic("unused_miss");
      m.assign(unused_miss, red_xor(concat({miss, miss_set})));
    }
    if (!agelru) {
      Expr unused_ages = m.logic("unused_ages");
      m.assign(unused_ages, red_xor(concat({way_active, way_rel_age, age_filter})));
    }
    if (registered) {
      std::vector<Pulse> pulses{{&fill, "fill", {{&fill_set, set_bits}, {&fill_way, way_bits}}}};
      if (hit_moves) pulses.push_back({&hit, "hit", {{&hit_set, set_bits}, {&hit_way, way_bits}}});
      if (dip) pulses.push_back({&miss, "miss", {{&miss_set, set_bits}}});
      register_pulses(m, pulses);
    }

    // --- The registered ranks, read by set.
    m.comment("Every set's ranks, set s at [s*SetStride +: SetRankBits], zero-padded to a power-of-two stride");
    m.comment("(the flops are in g_set): Yosys turns the read all_ranks[index*SetStride +: ...] into a mux tree,");
    m.comment("but with a stride like 384 (64 ways) into a barrel shifter over every set, a third of the cells.");
    Expr stride = m.localparam("SetStride", mux(sets.gt(1), Expr(1) << clog2(span), span));
    Expr all_ranks = m.logic("all_ranks", sets * stride);
    const auto read_set = [&](std::string_view what, const Expr& index, const Expr& into) {
      m.gen_if(sets.gt(1), std::string("g_read_") + std::string(what), [&](Scope& g) {
        g.assign(into, all_ranks.part(index * stride, span));
      }).else_(std::string("g_read_") + std::string(what) + "_one_set", [&](Scope& g) {
        Expr unused = g.logic(std::string("unused_") + std::string(what) + "_set");
        g.assign(unused, index);
        g.assign(into, all_ranks);
      });
    };

    // --- Hit: promote hit_way_i in hit_set_i.
    Expr hit_new;
    if (hit_moves) {
      m.comment("Hit: hit_way_i of hit_set_i becomes MRU.");
      Expr hit_old = m.logic("hit_old", span);
      hit_new = m.logic("hit_new", span);
      read_set("hit", hit_set, hit_old);
      move_way(m, "hit", hit_old, hit_way, Expr(), hit_new, ways, way_bits);
    }

    // --- DIP: the leader-set roles and PSEL (the miss), which the fill's insertion reads.
    Expr psel_d, psel_q, fill_lru_leader, fill_bip_leader;
    if (dip) {
      m.comment("DIP roles: a set's position in its group of 32 (its low five index bits).");
      Expr miss_pos = m.logic("miss_pos", kDuelPosBits);
      Expr fill_pos = m.logic("fill_pos", kDuelPosBits);
      Expr miss_lru_leader = m.logic("miss_lru_leader");
      Expr miss_bip_leader = m.logic("miss_bip_leader");
      fill_lru_leader = m.logic("fill_lru_leader");
      fill_bip_leader = m.logic("fill_bip_leader");
      m.assign(miss_pos, cast(kDuelPosBits, cast(5, miss_set)));
      m.gen_if(set_bits.gt(5), "g_miss_group", [&](Scope& g) {
        g.comment("Which group of 32 the miss is in does not matter.");
        Expr unused_miss_group = g.logic("unused_miss_group");
        g.assign(unused_miss_group, red_xor(miss_set.slice(set_bits - 1, 5)));
      });
      m.assign(fill_pos, cast(kDuelPosBits, cast(5, fill_set)));
      m.assign(miss_lru_leader, miss_pos.lt(cast(kDuelPosBits, leader_sets)));
      m.assign(miss_bip_leader, miss_pos.ge(cast(kDuelPosBits, kDuelGroup - leader_sets)));
      m.assign(fill_lru_leader, fill_pos.lt(cast(kDuelPosBits, leader_sets)));
      m.assign(fill_bip_leader, fill_pos.ge(cast(kDuelPosBits, kDuelGroup - leader_sets)));

      m.comment("PSEL: a miss in a leader is a vote against that leader's policy (saturating).");
      psel_d = m.logic("psel_d", psel_bits);
      psel_q = m.logic("psel_q", psel_bits);
      m.always_comb({{psel_d, psel_q}}, [&](Block& b) {
        b.if_(miss.land(miss_lru_leader).land(psel_q.ne(ones())),
              [&](Block& t) { t.assign(psel_d, psel_q + cast(psel_bits, 1)); })
            .else_if(miss.land(miss_bip_leader).land(psel_q.ne(zeros())),
                     [&](Block& t) { t.assign(psel_d, psel_q - cast(psel_bits, 1)); });
      });
      m.always_ff({{psel_q, cast(psel_bits, 1) << (psel_bits - 1)}}, [&](Block& b) { b.assign(psel_q, psel_d); });
    }

    // --- Fill: the insertion decision and the move.
    Expr fill_to_mru;
    if (bip_insertion) {
      Expr lfsr_q = m.logic("lfsr_q", kLfsrBits);
      Expr lfsr_d = m.logic("lfsr_d", kLfsrBits);
      Expr lfsr_next = m.logic("lfsr_next", kLfsrBits);
      Expr bip_step = m.logic("bip_step");
      fill_to_mru = m.logic("fill_to_mru");
      m.comment("The LFSR's next state (golden::Lfsr16::next): the bit shifted out feeds back through the taps.");
      m.assign(lfsr_next, (lfsr_q >> 1) ^ mux(lfsr_q[0], hex(kLfsrBits, kLfsrTaps), zeros()));
      if (dip) {
        m.comment("A fill inserts like BIP in a BIP leader, and in a follower while PSEL (after this cycle's");
        m.comment("miss) is at least its midpoint, i.e. its top bit is set; like LRU otherwise.");
        Expr use_bip = m.logic("use_bip");
        m.assign(use_bip, fill_bip_leader.lor((!fill_lru_leader).land(psel_d[psel_bits - 1])));
        m.assign(bip_step, fill.land(use_bip));
        m.assign(fill_to_mru,
                 (!use_bip).lor((lfsr_next & cast(kLfsrBits, mru_one_in - 1)).eq(zeros())));
      } else {
        m.assign(bip_step, fill);
        m.assign(fill_to_mru, (lfsr_next & cast(kLfsrBits, mru_one_in - 1)).eq(zeros()));
      }
      m.comment("One LFSR step per BIP-style fill, and only then.");
      m.assign(lfsr_d, mux(bip_step, lfsr_next, lfsr_q));
      m.always_ff({{lfsr_q, mux(lfsr_seed.ne(zeros()), lfsr_seed, hex(kLfsrBits, 1))}},
                  [&](Block& b) { b.assign(lfsr_q, lfsr_d); });
    }

    m.comment("Fill: fill_way_i of fill_set_i becomes MRU" + std::string(bip_insertion ? " or LRU" : "") +
              (hit_moves ? "; a hit in that set this cycle goes first." : "."));
    Expr fill_base = m.logic("fill_base", span);
    Expr fill_new = m.logic("fill_new", span);
    read_set("fill", fill_set, fill_base);
    Expr fill_old = fill_base;
    if (hit_moves) {
      fill_old = m.logic("fill_old", span);
      m.assign(fill_old, mux(hit.land(hit_set.eq(fill_set)), hit_new, fill_base));
    }
    move_way(m, "fill", fill_old, fill_way, fill_to_mru, fill_new, ways, way_bits);

    // --- The flops.
    m.gen_for("g_set", "s", 0, sets, [&](Scope& g, const Expr& s) {
      Expr fill_here = g.logic("fill_here");
      Expr hit_here = hit_moves ? g.logic("hit_here") : Expr();
      Expr ranks_q = g.logic("ranks_q", span);
      g.assign(fill_here, fill.land(fill_set.eq(cast(set_bits, s))));
      if (hit_moves) g.assign(hit_here, hit.land(hit_set.eq(cast(set_bits, s))));
      g.always_ff_reset_block(
          FfReset::kAsync,
          [&](Block& r) {
            r.for_("i", 0, ways, [&](Block& body, const Expr& i) {
              body.assign(ranks_q.part(i * way_bits, way_bits), cast(way_bits, i));
            });
          },
          [&](Block& b) {
            IfChain chain = b.if_(fill_here, [&](Block& t) { t.assign(ranks_q, fill_new); });
            if (hit_moves) chain.else_if(hit_here, [&](Block& t) { t.assign(ranks_q, hit_new); });
          });
      g.assign(all_ranks.part(s * stride, stride), cast(stride, ranks_q));
    });

    // --- The victim query.
    if (!registered) m.comment("The query: set_i's registered ranks.");
    if (registered) {
      m.comment("The query: set_i's registered ranks with the pending pulses applied (the fill's result");
      m.comment("includes a hit in its set), so it sees every update of the cycles before.");
    }
    // A set's ranks with the pending pulses applied: the registered ranks, the hit's result, the fill's.
    const auto forwarded = [&](const std::string& what, const Expr& index, const Expr& into) {
      Expr base = m.logic(what + "_base", span);
      read_set(what, index, base);
      Expr fwd = base;
      if (hit_moves) {
        fwd = m.logic(what + "_hit_fwd", span);
        m.assign(fwd, mux(hit.land(hit_set.eq(index)), hit_new, base));
      }
      m.assign(into, mux(fill.land(fill_set.eq(index)), fill_new, fwd));
    };
    Expr query_ranks = m.logic("query_ranks", span);
    if (!registered) {
      read_set("query", set, query_ranks);
    } else {
      forwarded("query", set, query_ranks);
    }
    m.assign(ranks_o, query_ranks);

    m.verification("Assertions (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
      v.comment("The ranks of a set are a permutation of 0 .. Ways-1: the registered ranks of set_i, and");
      v.comment("what a hit or a fill writes. <what>_seen[r]: some way has rank r.");
      const auto permutation = [&](std::string_view what, const Expr& ranks, const Expr& when,
                                   std::string_view name) {
        Expr seen = v.logic(std::string(what) + "_seen", ways);
        v.always_comb({{seen, zeros()}}, [&](Block& b) {
          b.for_("i", 0, ways, [&](Block& body, const Expr& i) {
            body.assign(seen[ranks.part(i * way_bits, way_bits)], bit(true));
          });
        });
        v.assert_comb(name, when.empty() ? seen.eq(ones()) : (!when).lor(seen.eq(ones())));
      };
      permutation("query", query_ranks, Expr(), "ReplQueryRanksPermutation_A");
      if (hit_moves) permutation("hit", hit_new, hit, "ReplHitRanksPermutation_A");
      permutation("fill", fill_new, fill, "ReplFillRanksPermutation_A");
    });

    Expr candidates = m.logic("candidates", ways);
    if (agelru) {
      m.comment("AgeLRU: the eligible ways of inactive warps; else those of the youngest warp, the largest");
      m.comment("relative age among the eligible ways (never empty when eligible_i is not).");
      Expr inactive = m.logic("inactive", ways);
      Expr youngest_age = m.logic("youngest_age", kAwidBits);
      Expr youngest = m.logic("youngest", ways);
      m.assign(inactive, eligible & ~way_active);
      m.always_comb({{youngest_age, zeros()}}, [&](Block& b) {
        b.for_("i", 0, ways, [&](Block& body, const Expr& i) {
          Expr age = way_rel_age.part(i * kAwidBits, kAwidBits);
          body.if_(eligible[i].land(age.gt(youngest_age)), [&](Block& t) { t.assign(youngest_age, age); });
        });
      });
      m.gen_for("g_youngest", "w", 0, ways, [&](Scope& g, const Expr& w) {
        g.assign(youngest[w], eligible[w].land(way_rel_age.part(w * kAwidBits, kAwidBits).eq(youngest_age)));
      });
      m.assign(candidates, mux(!age_filter, eligible, mux(red_or(inactive), inactive, youngest)));
    } else {
      m.assign(candidates, eligible);
    }

    // The victim: the candidate with the largest rank, the first such way as golden lru_of scans
    // (into `into`, in scope `s`: the staged pipe's checks its victim from the order against it).
    const auto rank_scan = [&](Scope& s, const Expr& into) {
      s.comment("The victim: the candidate with the largest rank, the first such way as golden lru_of scans.");
      Expr found = s.logic("found");
      Expr victim_rank = s.logic("victim_rank", way_bits);
      s.always_comb({{into, zeros()}, {found, bit(false)}, {victim_rank, zeros()}}, [&](Block& b) {
        b.for_("i", 0, ways, [&](Block& body, const Expr& i) {
          Expr rank = query_ranks.part(i * way_bits, way_bits);
          body.if_(candidates[i].land((!found).lor(rank.gt(victim_rank))), [&](Block& t) {
            t.assign(found, bit(true));
            t.assign(into, cast(way_bits, i));
            t.assign(victim_rank, rank);
          });
        });
      });
    };
    if (!registered) {
      rank_scan(m, victim);
      return m;
    }
    Expr next_ranks = m.logic("next_ranks", span);
    forwarded("next", set_next, next_ranks);
    Expr order_set = repl_parts::victim_from_order(
        m, {next_ranks, set_next, hit_moves ? hit : Expr(), hit_set, hit_way, fill, fill_set, fill_way, fill_to_mru,
            candidates, victim, ways, way_bits, set_bits});
    m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
      Expr scan = v.logic("scan_victim", way_bits);
      rank_scan(v, scan);
      v.comment("The victim from the order read a cycle ahead is the query's whenever set_i is its set, from the");
      v.comment("first edge after reset (order_q is not reset: at the reset edge it samples the ranks before it).");
      Expr live = v.logic("order_live_q");
      v.always_ff({{live, bit(false)}}, [&](Block& b) { b.assign(live, bit(true)); });
      v.assert_comb("ReplVictimAheadEqual_A", (!live).lor(set.ne(order_set)).lor(victim.eq(scan)));
    });
    return m;
  }

};

}  // namespace

const RtlBlock& repl_state_block() {
  static const ReplState block;
  return block;
}

}  // namespace gen::blocks
