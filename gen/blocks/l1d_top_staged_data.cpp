// l1d_top's generator, continued (gen/blocks/l1d_top_gen.h): the staged pipe's stages C and D
// (docs/l1d-microarchitecture.md 16.1, 16.5): the data array (l1d_data_stage, one 1r1w bank per
// way) read at C and written at D, the response's bytes and the write-backs' bytes taken from it at
// D, and the miss queue, whose requests l1d_miss_queue takes at D.
#include "gen/blocks/l1d_top_gen.h"

namespace gen::blocks::top_gen {

namespace {
constexpr unsigned kBatch = kSlots + 1;  // four write-backs and the read or store (allocation on_fill)
constexpr unsigned kDataGroupBits = 256;  // l1d_data_stage's GroupBits: bits of a bank per address copy
}  // namespace

// What M2 decided about the data, carried to C (<name>_c_q) and D (<name>_d_q); returns the D
// copies in the order given. Payloads: no reset, except the flags in `flags`.
std::vector<Expr> Top::pipe_to_d(const std::vector<std::pair<std::string, Expr>>& sigs,
                                 const std::vector<unsigned>& widths, size_t flags) {
  std::vector<Expr> c, d;
  for (size_t i = 0; i < sigs.size(); ++i) {
    c.push_back(m.logic(sigs[i].first + "_c_q", widths[i]));
    d.push_back(m.logic(sigs[i].first + "_d_q", widths[i]));
  }
  pipe_c_ = c;
  std::vector<Init> resets;
  for (size_t i = 0; i < flags; ++i) {
    resets.push_back({c[i], zeros()});
    resets.push_back({d[i], zeros()});
  }
  m.always_ff(resets, [&](Block& b) {
    for (size_t i = 0; i < flags; ++i) {
      b.assign(c[i], sigs[i].second);
      b.assign(d[i], c[i]);
    }
  });
  m.always_ff_noreset([&](Block& b) {
    for (size_t i = flags; i < sigs.size(); ++i) {
      b.assign(c[i], sigs[i].second);
      b.assign(d[i], c[i]);
    }
  });
  return d;
}

// ---------------------------------------------------------------------------------------
void Top::staged_data() {
  m.comment("Stage C reads the ways M2's lanes name (a load hit: its way; write-backs: their ways) in");
  m.comment("the set M2 worked on; stage D writes the bytes M2 decided (a fill's block, a store hit's");
  m.comment("bytes) into one way. l1d_data_stage forwards the write of the read's cycle.");
  Expr rd_ways = m.logic("data_rd_ways", ways_);
  Expr lane_used = m.logic("lane_used", kSlots);
  m.assign(lane_used, mux(load_hit, repl(kSlots, bit(true)), wb_en));
  Expr buf_any;  // sector mode: a load miss buffers valid sectors of the held way (its bytes read at C)
  if (staged_sector_) {
    buf_any = m.logic("buf_any");
    m.assign(buf_any, (mshr_alloc | mshr_add) & red_or(s1_buffer));
  }
  m.always_comb({{rd_ways, zeros()}}, [&](Block& b) {
    for (unsigned k = 0; k < kSlots; ++k) {
      b.if_(lane_used[Expr(k)], [&](Block& t) {
        t.assign(rd_ways[lane_way.part(Expr(k * way_bits_), way_bits_)], bit(true));
      });
    }
    if (staged_sector_) b.if_(buf_any, [&](Block& t) { t.assign(rd_ways[m_way], bit(true)); });
  });
  Expr rd_en = m.logic("data_rd_en");
  m.assign(rd_en, staged_sector_ ? load_hit | red_or(wb_en) | buf_any : load_hit | red_or(wb_en));
  Expr wr_en = m.logic("data_wr_en");
  Expr data_way = m.logic("data_wr_way", way_bits_);
  Expr wr_be = m.logic("data_wr_be", kMaskBits);
  if (lazy_gen_) {  // ... and write allocation's store its bytes into its way (contract 16.5 "Write allocation")
    m.assign(wr_en, fill_write | res_fill | store_hit | lz_write);
    m.assign(data_way, mux(fill_write, fill_way, mux(res_fill, mr_res_way, mux(lz_write, lz_way, m_way))));
  } else if (staged_onmiss_) {  // allocation on_miss: a reserved fill writes its block into its reserved way
    m.assign(wr_en, fill_write | res_fill | store_hit);
    m.assign(data_way, mux(fill_write, fill_way, mux(res_fill, mr_res_way, m_way)));
  } else {
    m.assign(wr_en, fill_write | store_hit);
    m.assign(data_way, mux(fill_write, fill_way, m_way));
  }
  m.assign(wr_be, select_part(d_be, data_way, ways_, kMaskBits));
  Expr c_rd_en = m.logic("data_rd_en_c_q");
  Expr c_rd_ways = m.logic("data_rd_ways_c_q", ways_);
  m.always_ff({{c_rd_en, bit(false)}}, [&](Block& b) { b.assign(c_rd_en, rd_en); });
  m.always_ff_noreset([&](Block& b) { b.assign(c_rd_ways, rd_ways); });
  m.comment("The data banks' set addresses: one register per bank of l1d_data_stage (Ways x 4 banks of 256");
  m.comment("bits), kept apart in synthesis, so that no flop drives every macro's address pins (one flop into");
  m.comment("the 128 macros of gtx480 on sg13g2 was 194 FO4, docs/synthesis.md). D's write set likewise.");
  const unsigned copies = ways_ * (kLineBits / kDataGroupBits);
  Expr c_rd_set = m.logic("data_rd_set_c_q", copies * set_idx_bits_);
  Expr c_wr_set = m.logic("data_wr_set_c_q", set_idx_bits_);
  Expr d_wr_set = m.logic("data_wr_set_d_q", copies * set_idx_bits_);
  m.always_ff_noreset_keep([&](Block& b) { b.assign(c_rd_set, repl(copies, rd_set)); });
  m.always_ff_noreset([&](Block& b) { b.assign(c_wr_set, rd_set); });
  m.always_ff_noreset_keep([&](Block& b) { b.assign(d_wr_set, repl(copies, c_wr_set)); });

  const unsigned R = req_layout_.width();
  const std::vector<Expr> d = pipe_to_d(
      {{"data_wr_en", wr_en}, {"resp_fill", fill_answer}, {"push_final", push_final}, {"wb_en", wb_en},
       {"data_wr_way", data_way}, {"data_wr_be", wr_be}, {"data_wr_line", d_line},
       {"lane_way", lane_way}, {"lane_slot", lane_slot}, {"resp_be", resp_be_}, {"resp_fill_data", mr_data},
       {"wb_off", wb_off}, {"final_off", final_off},
       {"final_req", final_req_}, {"st_payload", concat({s1_mask_q, s1_data_q})}},
      {1, 1, 1, kSlots, way_bits_, kMaskBits, kLineBits, kSlots * way_bits_, kSlots * 2, kMaskBits,
       kLineBits, kSlots * 3, 3, R, kLineBits + kMaskBits},
      4);
  const Expr &d_wr_en = d[0], &d_fill = d[1], &d_final = d[2], &d_wb_en = d[3], &d_wr_way = d[4], &d_wr_be = d[5],
             &d_wr_line = d[6], &d_lane_way = d[7], &d_lane_slot = d[8], &d_resp_be = d[9], &d_fill_data = d[10],
             &d_wb_off = d[11], &d_final_off = d[12], &d_final_req = d[13], &d_st = d[14];
  const auto [d_wb_req, d_wb_dirty] = staged_wb_at_c();

  Expr row = m.logic("data_row", ways_ * kLineBits);
  m.instance("u_data", data_stage_block().module(cfg_), {},
             {{"clk_i", clk}, {"rst_ni", rst}, {"rd_en_i", c_rd_en}, {"rd_set_i", c_rd_set}, {"rd_ways_i", c_rd_ways},
              {"wr_en_i", d_wr_en}, {"wr_set_i", d_wr_set}, {"wr_way_i", d_wr_way}, {"wr_be_i", d_wr_be},
              {"wr_data_i", d_wr_line}, {"rd_data_o", row}});

  m.comment("D: the lanes of the row read at C, the response's bytes into R, the batch's requests.");
  lane_data = row_lanes(row, d_lane_way, d_lane_slot);
  Expr resp_bytes = m.logic("resp_bytes", kLineBits);
  response_bytes(d_resp_be, d_fill, d_fill_data, lane_data, resp_bytes);
  resp_data_r_ = m.logic("resp_data_r_q", kLineBits);
  m.always_ff_noreset([&](Block& b) { b.assign(resp_data_r_, resp_bytes); });
  m.comment("The write-back buffer: the write-backs' data words leave the data SRAM into a register at D's");
  m.comment("edge (with the lanes' enables and queue offsets) and reach the miss queue's entries a cycle");
  m.comment("later (l1d_miss_queue's late field: r_late_i); at D the batch carries their masks only.");
  wb_buf_r_ = m.logic("wb_buf_r_q", kSlots + kSlots * 3 + kSlots * kSlotBits);
  m.always_ff_noreset([&](Block& b) { b.assign(wb_buf_r_, concat({d_wb_en, d_wb_off, lane_data})); });
  Expr wb_words_d = m.logic("wb_words_d", kSlots * kSlotBits);
  m.assign(wb_words_d, zeros());
  wb_pay_ = wb_payloads(d_wb_dirty, wb_words_d);
  staged_batch_ = {d_wb_en, d_wb_off, d_wb_req, d_final, d_final_off, d_final_req, d_st};
  if (staged_sector_) staged_sector_buffer(row, buf_any);
}

// l1d_mshr's buffer inputs at M2 (s1_buffer, s1_held_data) and its staged write port: in sector mode
// (staged_sector_) a load's valid needed sectors, whose bytes come at D (staged_sector_buffer).
std::vector<Conn> Top::staged_buffer_ports() {
  if (!staged_sector_) {
    m.assign(s1_buffer, zeros()), m.assign(s1_held_data, zeros());
    return {};
  }
  m.comment("Sector mode: a load's needed sectors that are valid (needed & ~fetch); their bytes come at D.");
  m.assign(s1_buffer, mux(sector_ & !s1_store_q, s1_needed & ~s1_fetch, zeros()));
  buf_wr_d_ = m.logic("buf_wr_d", kSlots);
  buf_entry_d_ = m.logic("buf_entry_d", mshr_bits_);
  m.assign(s1_held_data, buf_data_d_ = m.logic("buf_data_d", kLineBits));
  return {{"buf_wr_i", buf_wr_d_}, {"buf_wr_entry_i", buf_entry_d_}};
}

// Sector mode (contract 14, 16.5): the sectors M2's alloc or add buffers, its entry and the held way go
// to D, where the way's line (slot s holds chunk s) is read out of C's row into the MSHR's buffer.
void Top::staged_sector_buffer(const Expr& row, const Expr& buf_any) {
  Expr wr_c = m.logic("buf_wr_c_q", kSlots), wr_d = m.logic("buf_wr_d_q", kSlots);
  Expr entry_c = m.logic("buf_entry_c_q", mshr_bits_), entry_d = m.logic("buf_entry_d_q", mshr_bits_);
  Expr way_c = m.logic("buf_way_c_q", way_bits_), way_d = m.logic("buf_way_d_q", way_bits_);
  m.always_ff({{wr_c, zeros()}, {wr_d, zeros()}}, [&](Block& b) {
    b.assign(wr_c, mux(buf_any, s1_buffer, zeros()));
    b.assign(wr_d, wr_c);
  });
  m.always_ff_noreset([&](Block& b) {
    b.assign(entry_c, mux(mshr_alloc, p_free_entry, p_merge_entry));
    b.assign(entry_d, entry_c);
    b.assign(way_c, m_way);
    b.assign(way_d, way_c);
  });
  m.comment("A buffer write on its way to D keeps the edge from being quiet (quiet_o).");
  buf_pending_ = m.logic("buf_pending");
  m.assign(buf_pending_, buf_any | red_or(wr_c) | red_or(wr_d));
  m.assign(buf_wr_d_, wr_d);
  m.assign(buf_entry_d_, entry_d);
  m.assign(buf_data_d_, select_part(row, way_d, ways_, kLineBits));
}

// ---------------------------------------------------------------------------------------
// The write-backs' requests and dirty byte masks, built at C (issue 24's cut 3): M2 registers its
// row's chunk-tags, common-tags and dirty masks (every way and slot, as M2 read them, before its own
// write), each lane's (way, slot), whether the write-backs are of M2's own line, and that line; C
// selects lane k's tag and mask from those registers and composes its request into D, where the
// batch is built. The same values as building them at M2 (wb_lanes, as the single-cycle pipe does at S1),
// so nothing observable changes; M2's decision (the lanes' way and
// slot) no longer fans into the 16:1 selects of tags and masks (osu018's worst path at 737f8e4 ended
// in wb_dirty_c_q, sg13g2's glue path at 4ddfcc6 in wb_req_c_q; docs/synthesis.md). Returns the D
// registers {requests, masks}.
std::pair<Expr, Expr> Top::staged_wb_at_c() {
  const unsigned R = req_layout_.width();
  Expr dirty_c = m.logic("wb_row_dirty_c_q", ways_ * kSlots * 32);
  Expr tag_c = m.logic("wb_row_tag_c_q", ways_ * kSlots * ct_bits_);
  Expr common_c = m.logic("wb_row_common_c_q", ways_ * cm_bits_);
  Expr way_c = m.logic("wb_lane_way_c_q", kSlots * way_bits_);
  Expr slot_c = m.logic("wb_lane_slot_c_q", kSlots * 2);
  Expr own_c = m.logic("wb_from_s1_c_q");
  Expr line_c = m.logic("wb_s1_line_c_q", line_bits_);
  Expr set_c = m.logic("wb_set_c_q", set_idx_bits_);
  m.always_ff_noreset([&](Block& b) {
    b.assign(dirty_c, t_dirty);
    b.assign(tag_c, t_tag);
    b.assign(common_c, t_common);
    b.assign(way_c, lane_way);
    b.assign(slot_c, lane_slot);
    b.assign(own_c, wb_from_s1);
    b.assign(line_c, s1_line);
    b.assign(set_c, rd_set);
  });
  Expr req = m.logic("wb_req_c", kSlots * R);
  Expr dirty = m.logic("wb_dirty_c", kSlots * 32);
  wb_lanes("g_wb_c", WbRow{way_c, slot_c, tag_c, common_c, dirty_c, own_c, line_c, set_c}, req, dirty);
  Expr req_d = m.logic("wb_req_d_q", kSlots * R);
  Expr dirty_d = m.logic("wb_dirty_d_q", kSlots * 32);
  m.always_ff_noreset([&](Block& b) {
    b.assign(req_d, req);
    b.assign(dirty_d, dirty);
  });
  return {req_d, dirty_d};
}

// ---------------------------------------------------------------------------------------
// The miss queue: M2 gives the number of requests it queues; their contents come at D (contract
// 16.4-16.5). Lane j is the j-th request of the batch: a write-back k at its offset wb_off[k], or
// the read/store at final_off. An entry is {store payload, write-back payload, request}, the
// single-cycle queue's three fields.
void Top::staged_miss_queue() {
  const unsigned R = req_layout_.width();
  const unsigned wbw = kSlotBits + 32, stw = kLineBits + kMaskBits;
  const unsigned E = R + wbw + stw;
  const Expr &wb_en_d = staged_batch_[0], &wb_off_d = staged_batch_[1], &wb_req_d = staged_batch_[2],
             &final_d = staged_batch_[3], &final_off_d = staged_batch_[4], &final_req_d = staged_batch_[5],
             &st_d = staged_batch_[6];
  Expr lanes = m.logic("mq_lanes", kBatch * E);
  m.comment("The batch's lanes at D: lane j holds the request queued j-th (lanes past the count are free).");
  m.always_comb({{lanes, zeros()}}, [&](Block& b) {
    for (unsigned j = 0; j < kBatch; ++j) {
      for (unsigned k = 0; k < kSlots; ++k) {
        b.if_(wb_en_d[Expr(k)].land(wb_off_d.part(Expr(k * 3), 3).eq(lit(3, j))), [&](Block& t) {
          t.assign(lanes.part(Expr(j * E), E), concat({repl(stw, bit(false)), wb_pay_.part(Expr(k * wbw), wbw),
                                                       wb_req_d.part(Expr(k * R), R)}));
        });
      }
      b.if_(final_d.land(final_off_d.eq(lit(3, j))), [&](Block& t) {
        t.assign(lanes.part(Expr(j * E), E), concat({st_d, repl(wbw, bit(false)), final_req_d}));
      });
    }
  });
  m.comment("The batch's late field (l1d_miss_queue r_late_i) a cycle after D: lane j's data words from the");
  m.comment("write-back buffer (the write-back at offset j; zeros for the read or store, as at D).");
  Expr late = m.logic("mq_late", kBatch * kSlotBits);
  Expr buf_words = m.logic("wb_buf_words", kSlots * kSlotBits);
  Expr buf_off = m.logic("wb_buf_off", kSlots * 3);
  Expr buf_en = m.logic("wb_buf_en", kSlots);
  m.assign(buf_words, wb_buf_r_.part(Expr(0), kSlots * kSlotBits));
  m.assign(buf_off, wb_buf_r_.part(Expr(kSlots * kSlotBits), kSlots * 3));
  m.assign(buf_en, wb_buf_r_.part(Expr(kSlots * kSlotBits + kSlots * 3), kSlots));
  m.always_comb({{late, zeros()}}, [&](Block& b) {
    for (unsigned j = 0; j < kBatch; ++j) {
      for (unsigned k = 0; k < kSlots; ++k) {
        b.if_(buf_en[Expr(k)].land(buf_off.part(Expr(k * 3), 3).eq(lit(3, j))), [&](Block& t) {
          t.assign(late.part(Expr(j * kSlotBits), kSlotBits), buf_words.part(Expr(k * kSlotBits), kSlotBits));
        });
      }
    }
  });
  Expr head = m.logic("mq_head", E);
  Expr head_valid = m.logic("mq_head_valid");
  mq_pop_ = m.logic("mq_pop");
  std::vector<Conn> mq_params = {{"Entries", Expr(queue_)}, {"Batch", Expr(kBatch)}, {"ReqBits", Expr(E)},
                                 {"LateLsb", Expr(R)}, {"LateBits", Expr(kSlotBits)}};
  if (staged_direct_) {  // the store query's search of the ring: a request's {line, store} (ReqLayout)
    sd_mq_found_ = m.logic("store_pend_mq");
    mq_params.push_back({"KeyLsb", Expr(req_layout_.store)});
    mq_params.push_back({"KeyBits", Expr(line_bits_ + 1)});
  }
  m.instance("u_miss_queue", miss_queue_block().module(cfg_), mq_params,
             with_extra(staged_find_conns(sd_key_mem_, sd_mq_found_),
                        {{"clk_i", clk}, {"rst_ni", rst}, {"m_count_i", mq_pushes_}, {"d_req_i", lanes}, {"r_late_i", late},
                         {"mem_req_ready_i", mem_ready}, {"mem_req_valid_o", head_valid}, {"mem_req_o", head},
                         {"count_o", mq_count_q}}));
  m.assign(mq_pop_, head_valid & mem_ready);
  Expr head_req = m.logic("mq_head_req", R);
  Expr head_wb = m.logic("mq_head_wb", wbw);
  Expr head_st = m.logic("mq_head_st", stw);
  m.assign(head_req, head.part(Expr(0), R));
  m.assign(head_wb, head.part(Expr(R), wbw));
  m.assign(head_st, head.part(Expr(R + wbw), stw));
  mem_outputs(head_valid, head_req, head_wb, head_st);
  if (staged_direct_) staged_direct_queries();  // l1.bypass_path direct (l1d_top_staged_direct.cpp)
}

}  // namespace gen::blocks::top_gen
