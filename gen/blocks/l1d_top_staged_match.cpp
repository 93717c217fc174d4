// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): a core request's lookup split over
// the staged pipe's M1 and M2 (docs/l1d-microarchitecture.md 16.5, "M1 prepares, M2 decides").
//
// M1 runs l1d_core_match_m1 on M1's request and M1's row (l1d_tag_read's m1_row_o: every write of
// the operations decided before M1's cycle) and registers its vectors into M2. M2 corrects them
// with l1d_match_fix for the tag write of the operation decided in M1's cycle (its fill's block,
// registered beside the vectors) and decides with l1d_core_match_m2 on the valid and any-dirty
// bits it reads itself.
//
// Two inputs of l1d_core_match_m1 are flip-flop state that the operation decided in M1's cycle can
// change at its edge, so M2 must read them, not M1 (16.4-16.5: G, the AGCB and two-level
// predictions). G changes at the edge of a core request that ends a granularity sample; the
// predictions at the edge of any request, and the AGCB table is read by M2's pc. So M1 prepares
// the vectors for every G (0, 1, 2) and both values of the prediction. Since timing14 M1 also
// selects by G: M2's G is M1's current G unless the operation at M2 switches G at the edge, and a
// switch goes to a G known in M1's cycle (l1d_gran_selector's switch_gran_o; a switch to a larger G
// squashes M1's core operation). M1 registers the vectors for both, M2 corrects each registered set
// with l1d_match_fix and selects by the selector's registered switch and its prediction: 2:1 and
// 4:1 muxes whose selects are flip-flops, behind the correction instead of in front of it. Only the
// sectors (fetch, probe), the copies and the reason depend on the prediction, so only those are
// kept per prediction.
#include <string>

#include "gen/blocks/core_request_ports.h"
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

namespace {
constexpr unsigned kGrans = 3;  // G = 0 (32 B), 1 (64 B), 2 (128 B)

// How an output of l1d_core_match_m1 depends on the two M2 inputs: what M1 must keep of it.
enum class Dep { kNone, kGran, kGranPred, kPred };

// Whether M2 reads variant v = 2 * G + prediction of an output: one copy per value it depends on.
bool kept(Dep dep, unsigned v) {
  switch (dep) {
    case Dep::kNone: return v == 0;
    case Dep::kGran: return v % 2 == 0;
    case Dep::kPred: return v < 2;
    case Dep::kGranPred: return true;
  }
  return false;
}

struct M1Port {
  std::string name;
  unsigned width;
  Dep dep;
};
}  // namespace

void Top::staged_core_match() {
  const unsigned slots = ways_ * kSlots;
  std::vector<M1Port> ports = {
      {"needed", kSlots, Dep::kNone},          {"fetch", kSlots, Dep::kGranPred},
      {"probe", kSlots, Dep::kGranPred},       {"reason", 2, Dep::kPred},
      {"legal", 1, Dep::kGran},                {"compared", kSlots, Dep::kGran},
      {"mask_chunk", kSlots * 2, Dep::kGran},  {"req_chunks", kSlots, Dep::kGran},
      {"need_slots", kSlots, Dep::kGran},      {"head_mask", 2, Dep::kGran},
      {"free_slots", kSlots, Dep::kGran},      {"common_eq", ways_, Dep::kNone},
      {"tag_ok", slots, Dep::kGran},           {"held", slots, Dep::kGran},
      {"copy", slots, Dep::kGranPred},         {"slot_chunk", slots * 2, Dep::kNone}};
  // Allocation on_miss (staged_onmiss_): an AgeLRU bypass at the miss fetches section 4's bypass fetch
  // and drops its copies, so M1 also compares those (extra_copies_i) and M2 reads the fetch.
  if (staged_onmiss_) ports.push_back({"bypass_fetch", kSlots, Dep::kNone});

  m.comment("Stage M1: M1's core request and its set's SRAM fields (l1d_tag_read's M1 row).");
  Expr m1_data = m.logic("m1_core_data", kLineBits);  // unused: only M2 reads a store's data
  Expr m1_mask = m.logic("m1_core_mask", kMaskBits);
  Expr m1_size = m.logic("m1_core_size", 2);
  Expr m1_addr = m.logic("m1_core_addr", addr_bits_);
  Expr m1_store = m.logic("m1_core_store");
  Expr m1_rest = m.logic("unused_m1_core_rest", kPcBits + kAwidBits + kWarpBits + kIdBits);
  Expr m1_token = m.logic("m1_core_token");
  {
    const std::vector<Expr> dst = {m1_data, m1_mask, m1_size, m1_addr, m1_store};
    unsigned lsb = 0;
    const auto fields = core_req_fields();
    for (size_t i = 0; i < dst.size(); ++i) {
      m.assign(dst[i], m1_req_.part(Expr(lsb), fields[i].second));
      lsb += fields[i].second;
    }
    // pc, token, awid, warp, id follow: the token is the one M1 reads.
    m.assign(m1_token, m1_req_[Expr(lsb + kPcBits)]);
    m.assign(m1_rest, concat({m1_req_.slice(Expr(lsb + kPcBits + 1 + kAwidBits + kWarpBits + kIdBits - 1),
                                            Expr(lsb + kPcBits + 1)),
                              m1_req_.part(Expr(lsb), kPcBits)}));
  }
  Expr unused_m1_data = m.logic("unused_m1_core_data");
  m.assign(unused_m1_data, red_or(m1_data));
  Expr m1_common = m.logic("m1_common", cm_bits_);
  Expr m1_chunk_tag = m.logic("m1_chunk_tag", ct_bits_);
  Expr m1_chunk = m.logic("m1_chunk", 2);
  m.instance("u_m1_decode", addr_decode_block().module(cfg_), {},  // carveout adaptive: the active sets
             with_set_bits({{"addr_i", m1_addr}, {"set_o", m.logic("unused_m1_decode_set", set_idx_bits_)},
              {"common_tag_o", m1_common}, {"chunk_tag_o", m1_chunk_tag}, {"chunk_o", m1_chunk}}));
  Expr m1_row_common = m.logic("m1_row_common", ways_ * cm_bits_);
  Expr m1_row_tag = conventional_ ? Expr() : m.logic("m1_row_tag", slots * ct_bits_);
  m.assign(m1_row_common, m1_row_.part(Expr(0U), ways_ * cm_bits_));
  if (conventional_) {
    m1_row_tag = staged_row_tags(m1_row_, "m1_row_tag");  // from the line-tags (l1d_top_staged_conv.cpp)
  } else {
    m.assign(m1_row_tag, m1_row_.part(Expr(ways_ * cm_bits_), slots * ct_bits_));
  }
  // The row's other fields are M2's: after the common-tags and the chunk-tags (line-tags).
  const unsigned row_used = ways_ * cm_bits_ + (conventional_ ? ways_ * (ct_bits_ - 2) : slots * ct_bits_);
  Expr unused_row = m.logic("unused_m1_row_rest");
  m.assign(unused_row, red_or(m1_row_.slice(Expr(staged_row_bits() - 1), Expr(row_used))));

  m.comment("M1's lookup for each G and each value of the AGCB / two-level prediction (M2 selects).");
  // outs[v][p]: variant v = 2 * G + prediction, port p.
  std::vector<std::vector<Expr>> outs(kGrans * 2);
  for (unsigned g = 0; g < kGrans; ++g) {
    for (unsigned pred = 0; pred < 2; ++pred) {
      const unsigned v = 2 * g + pred;
      const std::string sfx = "_g" + std::to_string(g) + "p" + std::to_string(pred);
      // Allocation on_miss with AgeLRU bypassing: the copies of bypass_fetch_o too (it does not depend on
      // extra_copies_i), as the single-cycle l1d_top's s1_extra_copies.
      Expr extra = staged_sector_ ? repl(Expr(kSlots), sector_) : lit(kSlots, 0);
      Expr bypass_fetch = m.logic((staged_onmiss_ ? "m1_bypass_fetch" : "unused_m1_bypass_fetch") + sfx, kSlots);
      if (staged_onmiss_) {
        extra = m.logic("m1_extra_copies" + sfx, kSlots);
        Expr age = mux(on_miss_ & !m1_store & cfg_bypass.eq(lit(3, 4)), bypass_fetch, lit(kSlots, 0));
        m.assign(extra, staged_sector_ ? age | repl(Expr(kSlots), sector_) : age);  // sector mode: every slot
      }
      std::vector<Conn> conn = {
          {"store_i", m1_store}, {"size_i", m1_size}, {"chunk_i", m1_chunk}, {"mask_i", m1_mask},
          {"token_i", m1_token}, {"common_tag_i", m1_common}, {"chunk_tag_i", m1_chunk_tag},
          {"gran_i", lit(2, g)}, {"cfg_bypass_i", cfg_bypass}, {"cfg_bto_i", cfg_bto},
          {"cfg_opportunistic_i", cfg_opp}, {"cfg_line_fetch_i", cfg_line_fetch}, {"agcb_bypass_i", bit(pred != 0)},
          {"two_level_bypass_i", bit(pred != 0)}, {"row_common_tag_i", m1_row_common},
          {"row_chunk_tag_i", m1_row_tag},
          // Without on_miss no AgeLRU bypass at the miss, so no extra copies. Sector mode compares
          // every slot of the request's line (copy_o with sectors 4'hF, contract 14).
          {"extra_copies_i", extra}};
      if (!staged_onmiss_) conn.push_back({"bypass_fetch_o", bypass_fetch});
      for (const M1Port& p : ports) {
        if (p.name == "bypass_fetch") {  // the instance's own output, fed back into extra_copies_i
          outs[v].push_back(bypass_fetch);
          conn.push_back({"bypass_fetch_o", bypass_fetch});
          continue;
        }
        Expr e = m.logic((kept(p.dep, v) ? "m1_" : "unused_m1_") + p.name + sfx, p.width);
        outs[v].push_back(e);
        conn.push_back({p.name + "_o", e});
      }
      m.instance("u_m1_match" + sfx, core_match_m1_block().module(cfg_), {}, conn);
    }
  }

  m.comment("M1 -> M2: M1 selects its vectors by the two values M2's G can take, the current G and the G a");
  m.comment("switch at this edge goes to (16.5: a switch to a larger G squashes M1's core operation, 16.3);");
  m.comment("M2 selects between them by the selector's registered switch, and by its prediction.");
  Expr g_now = m.logic("m1_gran_now", 2);
  Expr g_alt = m.logic("m1_gran_alt", 2);
  m.assign(g_now, gran);
  m.assign(g_alt, mux(dynamic, sel_switch_gran_, gran));  // a fixed G never switches
  Expr pred = m.logic("m2_pred");
  m.assign(pred, mux(cfg_bypass.eq(lit(3, 1)), agcb_bypass, tl_bypass & cfg_bypass.eq(lit(3, 2))));
  Expr alt = m.logic("m2_gran_switched");  // G changed at the edge M2's operation left M1 by
  m.assign(alt, sel_switch);
  // The ports only l1d_match_fix reads (the compares and the request's decode it corrects them with).
  auto fix_only = [](const std::string& n) {
    for (const char* f : {"compared", "mask_chunk", "req_chunks", "common_eq", "tag_ok", "held", "copy"})
      if (n == f) return true;
    return false;
  };
  // regs_q[p][k]: port p's register of kept variant k = 2 * a + prediction (a: 0 the current G, 1 the switched-to G).
  std::vector<std::vector<Expr>> regs_q(ports.size(), std::vector<Expr>(4));
  std::vector<Expr> sel;  // per port: M2's value
  std::vector<std::pair<Expr, Expr>> regs;
  for (size_t p = 0; p < ports.size(); ++p) {
    const Dep dep = ports[p].dep;
    for (unsigned k = 0; k < 4; ++k) {
      if (!kept(dep, k)) continue;
      const std::string sfx = std::string(k / 2 ? "_alt" : "_now") + "p" + std::to_string(k % 2);
      Expr d = outs[(dep == Dep::kPred ? k % 2 : 0)][p];
      if (dep == Dep::kGran || dep == Dep::kGranPred) {
        const unsigned pr = dep == Dep::kGranPred ? k % 2 : 0;
        const Expr& g = k / 2 ? g_alt : g_now;
        d = m.logic("m1_" + ports[p].name + sfx, ports[p].width);
        m.assign(d, mux(g.eq(lit(2, 0)), outs[pr][p], mux(g.eq(lit(2, 1)), outs[2 + pr][p], outs[4 + pr][p])));
      }
      Expr r = m.logic("m2_" + ports[p].name + sfx + "_q", ports[p].width);
      regs.push_back({r, d});
      regs_q[p][k] = r;
    }
    const auto& q = regs_q[p];
    std::vector<Expr> unused;  // the copies no selection reads
    for (unsigned v = 0; v < kGrans * 2; ++v) {
      if (!kept(dep, v)) unused.push_back(outs[v][p]);
    }
    if (!unused.empty()) m.assign(m.logic("unused_m1_" + ports[p].name), red_or(concat(unused)));
    if (fix_only(ports[p].name)) {  // read per variant by l1d_match_fix below, selected after it
      sel.push_back(Expr());
      continue;
    }
    Expr s = m.logic("m2_" + ports[p].name, ports[p].width);
    switch (dep) {
      case Dep::kNone: m.assign(s, q[0]); break;
      case Dep::kPred: m.assign(s, mux(pred, q[1], q[0])); break;
      case Dep::kGran: m.assign(s, mux(alt, q[2], q[0])); break;
      case Dep::kGranPred: m.assign(s, mux(alt, mux(pred, q[3], q[2]), mux(pred, q[1], q[0]))); break;
    }
    sel.push_back(s);
  }

  m.comment("The tag write of the operation M2 decides in M1's cycle (a fill's block: the only tag write with");
  m.comment("allocation on_fill), against M1's request: registered beside the vectors for l1d_match_fix");
  m.comment("(staged_match_older).");
  older_wr_q_ = m.logic("m2_older_wr_q");
  older_way_q_ = m.logic("m2_older_way_q", way_bits_);
  older_common_wr_q_ = m.logic("m2_older_common_wr_q");
  older_slots_q_ = m.logic("m2_older_slots_q", kSlots);
  older_chunk_q_ = m.logic("m2_older_chunk_q", kSlots * 2);
  older_common_eq_q_ = m.logic("m2_older_common_eq_q");
  older_line_eq_q_ = m.logic("m2_older_line_eq_q");
  m1_common_ = m1_common;
  m1_chunk_tag_ = m1_chunk_tag;
  m.always_ff_noreset([&](Block& b) {
    for (const auto& [r, d] : regs) b.assign(r, d);
  });

  auto at = [&](const std::string& n) {
    for (size_t p = 0; p < ports.size(); ++p)
      if (ports[p].name == n) return sel[p];
    throw std::logic_error("staged_core_match: no port " + n);
  };
  m.comment("Stage M2: the correction, then the decision on the valid and any-dirty bits. M2's own decode");
  m.comment("gives only the set (M1 decoded the tags).");
  Expr unused_decode = m.logic("unused_m2_decode");
  m.assign(unused_decode, red_or(concat({s1_common, s1_chunk_tag, s1_chunk})));
  // Port p's register of kept variant k (the one every variant of a port it does not depend on shares).
  auto var = [&](const std::string& n, unsigned k) {
    for (size_t p = 0; p < ports.size(); ++p) {
      if (ports[p].name != n) continue;
      switch (ports[p].dep) {
        case Dep::kNone: return regs_q[p][0];
        case Dep::kPred: return regs_q[p][k % 2];
        case Dep::kGran: return regs_q[p][k & 2];
        case Dep::kGranPred: return regs_q[p][k];
      }
    }
    throw std::logic_error("staged_core_match: no port " + n);
  };
  Expr common_eq = m.logic("m2_fixed_common_eq", ways_);
  Expr tag_ok = m.logic("m2_fixed_tag_ok", slots);
  Expr held = m.logic("m2_fixed_held", slots);
  Expr copy = m.logic("m2_fixed_copy", slots);
  Expr age_fetch;  // allocation on_miss: an AgeLRU bypass at the miss fetches bypass_fetch, whose copies M1 compared
  if (staged_onmiss_) {
    m.comment("Allocation on_miss: an AgeLRU bypass at the miss fetches bypass_fetch (s1_extra_copies' sectors).");
    s1_bypass_fetch = m.logic("s1_bypass_fetch", kSlots);
    m.assign(s1_bypass_fetch, at("bypass_fetch"));
    age_fetch = m.logic("m2_age_fetch", kSlots);
    m.assign(age_fetch, mux(on_miss_ & !s1_store_q & cfg_bypass.eq(lit(3, 4)), s1_bypass_fetch, lit(kSlots, 0)));
    m2_core_common_eq_ = common_eq;
  }
  m.comment("l1d_match_fix on each kept variant's registers, in parallel with the selects' fan-out; M2 selects the");
  m.comment("corrected vectors (the fix is per slot, so fixing then selecting equals selecting then fixing).");
  std::vector<std::vector<Expr>> fixed(4);  // per variant: common_eq, tag_ok, held, copy
  for (unsigned k = 0; k < 4; ++k) {
    const std::string sfx = std::string(k / 2 ? "_alt" : "_now") + "p" + std::to_string(k % 2);
    // Only variant 0's common-tag compares, and the pred-0 variants' tag_ok and held, are read (the others
    // are the same: they depend on neither the prediction nor, for common_eq, G).
    auto out = [&](const std::string& n, unsigned w, bool read) {
      return m.logic((read ? "m2_fix_" : "unused_m2_fix_") + n + sfx, w);
    };
    fixed[k] = {out("common_eq", ways_, k == 0), out("tag_ok", slots, k % 2 == 0), out("held", slots, k % 2 == 0),
                out("copy", slots, true)};
    Expr sectors = var("probe", k);  // the sectors whose copies M1 compared
    if (staged_onmiss_) sectors = sectors | age_fetch;
    if (staged_sector_) sectors = sectors | repl(Expr(kSlots), sector_);
    m.instance("u_match_fix" + sfx, match_fix_block().module(cfg_), {},
               {{"common_eq_i", var("common_eq", k)}, {"tag_ok_i", var("tag_ok", k)}, {"held_i", var("held", k)},
                {"copy_i", var("copy", k)}, {"compared_i", var("compared", k)}, {"mask_chunk_i", var("mask_chunk", k)},
                {"req_chunks_i", var("req_chunks", k)}, {"sectors_i", sectors}, {"older_wr_i", older_wr_q_},
                {"older_way_i", older_way_q_}, {"older_common_wr_i", older_common_wr_q_},
                {"older_slots_i", older_slots_q_}, {"older_chunk_i", older_chunk_q_},
                {"older_common_eq_i", older_common_eq_q_}, {"older_line_eq_i", older_line_eq_q_},
                {"common_eq_o", fixed[k][0]}, {"tag_ok_o", fixed[k][1]}, {"held_o", fixed[k][2]},
                {"copy_o", fixed[k][3]}});
  }
  Expr unused_fix = m.logic("unused_m2_fix");
  m.assign(unused_fix, red_or(concat({fixed[1][0], fixed[2][0], fixed[3][0], fixed[1][1], fixed[3][1], fixed[1][2],
                                      fixed[3][2]})));
  m.assign(common_eq, fixed[0][0]);
  m.assign(tag_ok, mux(alt, fixed[2][1], fixed[0][1]));
  m.assign(held, mux(alt, fixed[2][2], fixed[0][2]));
  m.assign(copy, mux(alt, mux(pred, fixed[3][3], fixed[2][3]), mux(pred, fixed[1][3], fixed[0][3])));
  m.verification("Assertion (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
    v.comment("The variant M2 selects was prepared for M2's G (a core operation at M2; 16.5).");
    Expr now_q = v.logic("sva_m1_gran_now_q", 2);
    Expr alt_q = v.logic("sva_m1_gran_alt_q", 2);
    v.always_ff_noreset([&](Block& b) {
      b.assign(now_q, g_now);
      b.assign(alt_q, g_alt);
    });
    v.assert_clocked("StagedMatchGranSelected_A", (!s1_valid_q).lor(mux(alt, alt_q, now_q).eq(gran)));
  });
  m.assign(s1_needed, at("needed"));
  if (!staged_sector_) {
    m.assign(s1_fetch, at("fetch"));
    m.assign(s1_probe_sectors, at("probe"));
  }
  m.assign(s1_reason, at("reason"));
  const CoreDecisionPorts out{m_hit, m_partial, m_way, m_slots, m_copies, cp_way, cp_slot, cp_wb, cp_off, s1_dirty_n};
  // Sector mode (staged_sector_): section 4's answers go into m2_c_*, which sector mode's replace.
  const CoreDecisionPorts c4 =
      staged_sector_ ? CoreDecisionPorts{m.logic("m2_c_hit"), m.logic("m2_c_partial"), m.logic("m2_c_hit_way", way_bits_),
                                         m.logic("m2_c_hit_slots", kSlots), m.logic("m2_c_copies", slots),
                                         m.logic("m2_c_cp_way", kSlots * way_bits_), m.logic("m2_c_cp_slot", kSlots * 2),
                                         m.logic("m2_c_cp_wb", kSlots), m.logic("m2_c_cp_off", kSlots * 3),
                                         m.logic("m2_c_writebacks", 3)}
                     : out;
  m.instance("u_core_match_m2", core_match_m2_block().module(cfg_), {},
             {{"legal_i", at("legal")}, {"free_slots_i", at("free_slots")}, {"need_slots_i", at("need_slots")},
              {"head_mask_i", at("head_mask")}, {"common_eq_i", common_eq}, {"tag_ok_i", tag_ok}, {"held_i", held},
              {"copy_i", copy}, {"slot_chunk_i", at("slot_chunk")}, {"row_valid_i", t_valid},
              {"row_dirty_any_i", t_dirty_any}, {"hit_o", c4.hit}, {"partial_o", c4.partial}, {"hit_way_o", c4.hit_way},
              {"hit_slots_o", c4.hit_slots}, {"copies_o", c4.copies}, {"cp_way_o", c4.cp_way}, {"cp_slot_o", c4.cp_slot},
              {"cp_wb_o", c4.cp_wb}, {"cp_off_o", c4.cp_off}, {"writebacks_o", c4.dirty_n}});
  if (!staged_sector_) return;
  m.comment("Sector mode (contract 14, 16.5): the held way, hit, partial hit, fetch (needed & ~valid) and a");
  m.comment("store's copies, from the corrected compares of the line's every slot and M2's valid bits.");
  s1_held = m.logic("s1_held");
  Expr unused_bypass_fetch = m.logic("unused_m2_bypass_fetch", kSlots);
  // Write allocation (lazy_gen_): M2's written flip-flops (staged_line_state) hold the line as valid slots
  // do, and a store hits on them (contract 14, 16.5 "Write allocation"); the held way's written slots.
  Expr written_s = lazy_gen_ ? m.logic("s_written", kSlots) : Expr();
  core_match_sector_outputs(m, ways_, way_bits_,
                            SectorIo{sector_, s1_store_q, s1_needed, common_eq, copy, t_valid, t_res, t_dirty_any,
                                     at("fetch"), at("probe"), lit(kSlots, 0), s1_fetch, s1_probe_sectors,
                                     unused_bypass_fetch, s1_held, lazy_gen_ ? t_written : Expr(),
                                     lazy_gen_ ? lazy_ : Expr(), written_s},
                            c4, out);
}

// M1's core request's line, which l1d_mshr's probe compares a cycle ahead (contract 16.5, "The MSHR
// probe's line compares read a cycle ahead"): m2_req_q takes m1_req at every edge, so it is the
// probe's line (s1_line) of the next cycle.
Expr Top::staged_probe_next_line() {
  const auto fields = core_req_fields();  // data, mask, size, address, ...
  const unsigned addr_lsb = fields[0].second + fields[1].second + fields[2].second;
  if (fields[3].second != addr_bits_) throw std::logic_error("l1d_top: core_req_fields' field 3 is the address");
  Expr line = m.logic("m1_probe_line", line_bits_);
  m.assign(line, m1_req_.part(Expr(addr_lsb + 7), line_bits_));
  return line;
}

// The fill M2 decides (its write of the tag row at C) against M1's request (or M1's fill step), into
// M2 beside M1's vectors: called after the fill's decision is declared (fill_decision, actors).
void Top::staged_match_older() {
  Expr run = m.logic("older_run", kSlots);  // the block's slots from position 0
  // Sector mode: the fill writes the chunk-tags of its way's four slots, slot s chunk s (row_writes'
  // place_run and fill_tag on the placed block, pl_slots 4 and pl_first 0).
  // Allocation on_miss: a reservation writes its place's chunk-tags (and common-tag) as a fill would
  // (row_writes' place_run and fill_tag on pl_*: the fill's block or M2's request's).
  const bool pl = staged_sector_ || staged_onmiss_;
  const Expr slots = pl ? pl_slots : fill_slots, first = pl ? pl_first : fill_first;
  for (unsigned i = 0; i < kSlots; ++i) m.assign(run[Expr(i)], lit(3, i).lt(slots));
  Expr chunks = m.logic("older_chunk", kSlots * 2);
  m.gen_for("g_older_chunk", "gs", 0, kSlots, [&](Scope& g, const Expr& s) {
    g.assign(chunks.part(s * 2, 2), cast(2, first + cast(2, s) - fill_pos));
  });
  const Expr line_hi = Expr(ct_bits_ - 1), line_lo = Expr(2U);
  Expr tag_wr = staged_onmiss_ ? fill_write | s1_reserve : fill_write;
  Expr way = fill_way, whole = fill_whole, slots_wr = cast(kSlots, run << fill_pos), chunks_wr = chunks;
  if (lazy_gen_) {  // write allocation: a store's needed slots (chunk s), a new line's common-tag (16.5)
    tag_wr = tag_wr | lz_write;
    way = mux(lz_write, lz_way, fill_way);
    whole = mux(lz_write, !s1_held, fill_whole);
    slots_wr = mux(lz_write, s1_needed, slots_wr);
    chunks_wr = mux(lz_write, hex(kSlots * 2, 0xE4), chunks);
  }
  const Expr common = staged_onmiss_ ? pl_common : fill_common;
  const Expr line = staged_onmiss_ ? pl_ct : fill_chunk_tag.slice(line_hi, line_lo);
  Expr wr_m1_set = m.logic("older_wr_m1_set");  // this fill writes the tags of M1's set
  m.assign(wr_m1_set, tag_wr & rd_set.eq(m1_set_));
  m.always_ff({{older_wr_q_, bit(false)}}, [&](Block& b) { b.assign(older_wr_q_, wr_m1_set); });
  m.comment("M1's fill step's common-tag compares (staged_fill_place), registered corrected for this fill: the");
  m.comment("way it fills whole compares as its common-tag (the same mux M2 would apply, a cycle earlier).");
  Expr fill_eq_d = m.logic("m1_fill_common_eq_fixed", ways_);
  Expr new_eq = m.logic("older_fill_common_eq");
  m.assign(new_eq, common.eq(m1_fill_common_));
  m.gen_for("g_fill_fix", "gw", 0, ways_, [&](Scope& g, const Expr& w) {
    g.assign(fill_eq_d[w], mux(wr_m1_set & whole & way.eq(cast(way_bits_, w)), new_eq, fill_eq_m1_[w]));
  });
  m.always_ff_noreset([&](Block& b) { b.assign(fill_eq_q_, fill_eq_d); });
  m.always_ff_noreset([&](Block& b) {
    b.assign(older_way_q_, way);
    b.assign(older_common_wr_q_, whole);
    b.assign(older_slots_q_, slots_wr);
    b.assign(older_chunk_q_, chunks_wr);
    b.assign(older_common_eq_q_, common.eq(m1_common_));
    b.assign(older_line_eq_q_, line.eq(m1_chunk_tag_.slice(line_hi, line_lo)));
  });
}

}  // namespace gen::blocks::top_gen
