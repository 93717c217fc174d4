#include "golden/l1.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "golden/chunk_match.h"
#include "golden/line_bytes.h"

namespace l1d::golden {

using namespace line_bytes;

namespace {

uint32_t initial_granularity(GranularityKind k) {
  switch (k) {
    case GranularityKind::kStatic32: return 32;
    case GranularityKind::kStatic64: return 64;
    case GranularityKind::kFixed128:
    case GranularityKind::kDynamic: return 128;
  }
  return 128;
}

}  // namespace

void L1::validate(const CoreReq& r) {
  if (r.size != 32 && r.size != 64 && r.size != 128)
    throw std::invalid_argument(fmt::format("L1 request {}: size {} is not 32, 64 or 128", r.id, r.size));
  if (r.addr % r.size)
    throw std::invalid_argument(fmt::format("L1 request {}: address {:#x} not aligned to {}", r.id, r.addr, r.size));
  const uint32_t first = static_cast<uint32_t>(r.addr % kLineBytes);
  const ByteMask range = (ByteMask{}.set() >> (kLineBytes - r.size)) << first;  // bytes first .. first + size - 1
  if (r.byte_mask.none() || (r.byte_mask & ~range).any())
    throw std::invalid_argument(fmt::format("L1 request {}: byte mask empty or outside the request", r.id));
}

std::string_view to_string(ResFail f) {
  switch (f) {
    case ResFail::kMshrFull: return "mshr_full";
    case ResFail::kMergeFull: return "merge_full";
    case ResFail::kConflict: return "mshr_conflict";
    case ResFail::kMissQueueFull: return "miss_queue_full";
    case ResFail::kLineAlloc: return "line_alloc";
    case ResFail::kCount: break;
  }
  return "?";
}

L1::L1(const Config& cfg)
    : staged_(cfg.l1.pipeline == L1Pipeline::kStaged),
      two_level_(cfg.policy.two_level, cfg.core.warps_per_sm),
      cfg_(cfg),
      split_(cfg.l1),
      ways_(cfg.l1.ways),
      sets_(split_.sets(), std::vector<CacheLine>(cfg.l1.ways)),
      data_(size_t{split_.sets()} * cfg.l1.ways, LineData{}),
      tags_(split_.sets(), cfg.l1.ways, index_lines_per_way(cfg.l1)),
      replacement_(make_replacement(cfg.policy.replacement, split_.sets(), cfg.l1.ways, cfg.policy)),
      agcb_(cfg.policy.agcb, cfg.core.instruction_bytes),
      granularity_(initial_granularity(cfg.policy.granularity)),
      mshr_(cfg.l1.mshr_entries, cfg.l1.mshr_max_merge) {
  if (ways_ > kMaxSetWays) throw ConfigError(fmt::format("L1: {} ways exceed the model's {}", ways_, kMaxSetWays));
  if (cfg.policy.granularity == GranularityKind::kDynamic) selector_.emplace(cfg.policy.dycache, 128);
  if (const std::string why = sector_policy_conflict(cfg.policy, cfg.l1); !why.empty())
    throw ConfigError("L1: policy.granularity: " + why);
}

// ---------------------------------------------------------------------------------------
// The cycle (section 3)

L1Outputs L1::step(const L1Inputs& in) {
  L1Outputs out;
  step(in, out);
  return out;
}

void L1::step(const L1Inputs& in, L1Outputs& out) {
  if (staged_) return step_staged(in, out);
  // A payload is copied only while its valid is set: most cycles present neither, and the two
  // copies were 3 % of a qv100 trace run (docs/performance.md).
  out.core_resp_valid = resp_valid_;
  if (resp_valid_) out.core_resp = resp_;
  out.mem_req_valid = !miss_queue_.empty();
  if (out.mem_req_valid) out.mem_req = miss_queue_.front();

  bool produced = false;  // a response is in next_resp_
  bool s1_completed = false;
  // The lookup failed and the edge leaves everything it read as it was (s1_retry_same_); decided
  // only after a failed lookup, which few cycles have.
  bool retry_same = false;
  if (!fill_fifo_.empty()) {
    produced = fill_step();
    counters_.s1_stall_cycles += s1_valid_;
  } else if (flushing_) {
    flush_step();
    counters_.s1_stall_cycles += s1_valid_;
  } else if (s1_valid_) {
    if (s1_retry_same_) {
      fail(last_fail_);  // what lookup(s1_) would do (s1_retry_same_)
    } else {
      S1Result r = lookup(s1_);
      s1_completed = r.completed;
      produced = r.responds;
      s1_sectors_ = static_cast<uint64_t>(sectors_in(sectors_of(s1_.byte_mask)));
    }
    if (!s1_completed) {  // a reservation failure (every S1Result{} return counts a ResFail)
      (s1_.op == MemOp::kLoad ? accelsim_.read : accelsim_.write).res_fail += s1_sectors_;
      retry_same = !(out.mem_req_valid && in.mem_req_ready) && !in.mem_resp_valid && !in.warp_launch &&
                   !in.warp_exit && !in.kernel_start && !in.kernel_end && agelru_enable_ == in.agelru_enable;
    }
  }
  out.core_req_ready = !s1_valid_ || s1_completed;
  const bool bypass_before = two_level_.bypass();

  // Clock edge, in the documented order.
  if (out.mem_req_valid && in.mem_req_ready) miss_queue_.pop_front();
  if (in.core_req_valid && out.core_req_ready) {
    validate(in.core_req);
    s1_ = in.core_req;
    s1_valid_ = true;
  } else if (s1_completed) {
    s1_valid_ = false;
  }
  accept_cycle_inputs(in);
  s1_retry_same_ = retry_same && two_level_.bypass() == bypass_before;
  resp_valid_ = produced;
  if (produced) resp_ = next_resp_;
  ++counters_.cycles;
}

void L1::accept_cycle_inputs(const L1Inputs& in) {
  if (in.mem_resp_valid) accept_mem_resp(in.mem_resp);
  if (in.warp_launch || in.warp_exit || in.kernel_start || in.kernel_end) apply_events(in);
  agelru_enable_ = in.agelru_enable;
  two_level_.tick(in.occupancy);
}

void L1::accept_mem_resp(const MemResp& r) {
  if (r.mshr >= mshr_.size() || !mshr_.entry(r.mshr).valid || mshr_.entry(r.mshr).filled)
    throw std::logic_error(fmt::format("L1: memory response for MSHR {} that awaits none", r.mshr));
  MshrEntry& e = mshr_.entry(r.mshr);
  e.l2_bypass_bit |= r.l2_bypass_bit;  // only the entry's first read can carry the AGCB bit
  if (e.reads == 1 && e.arrived == 0 && e.buffered == 0) {
    e.data = r.data;
  } else {
    // One of several reads (l1.mshr_merge block / sector), or sectors copied from the array are
    // in the buffer (l1.sector): only the response's sectors are data.
    const auto got = static_cast<SectorMask>(r.sectors ? r.sectors : e.reads == 1 ? e.sectors & ~e.arrived : 0);
    if (got == 0 || (got & ~e.sectors & kAllSectors))
      throw std::logic_error(fmt::format("L1: memory response for MSHR {} names sectors {:#x}, the entry awaits {:#x}",
                                         r.mshr, r.sectors, e.sectors & ~e.arrived));
    for (uint32_t c = 0; c < kSlotsPerLine; ++c)
      if ((got >> c) & 1) copy_chunk(e.data, c, r.data, c, nullptr);
  }
  e.arrived = static_cast<SectorMask>(e.arrived | (r.sectors ? r.sectors : e.sectors));
  if (--e.reads > 0) return;
  e.filled = true;
  fill_fifo_.push_back(r.mshr);
}

void L1::apply_events(const L1Inputs& in) {
  if (in.warp_launch) ages_.launch();
  if (in.warp_exit)
    ages_.exit(in.exit_awid, in.exit_has_next ? std::optional<uint8_t>(in.exit_next_oldest) : std::nullopt);
  if (in.kernel_start) two_level_.kernel_start();
  if (in.kernel_end) {
    // L1s are not coherent: a kernel's dirty data must reach L2 and no line may be read
    // stale by the next kernel, so kernel end writes back and invalidates everything. Without
    // dirty state (l1.kernel_end invalidate) the valid bits are cleared at once.
    const bool invalidate = cfg_.l1.kernel_end == KernelEndAction::kInvalidate;
    for (uint32_t set = 0; set < sets_.size(); ++set)
      for (uint32_t way = 0; way < ways_; ++way) {
        CacheLine& line = sets_[set][way];
        line.priority = false;  // the tag index's copy: clear_priority below
        if (!invalidate) continue;
        for (Slot& slot : line.slot) slot.valid = slot.written = false;
        sync_tags(set, way);
      }
    tags_.clear_priority();
    if (invalidate)
      flushing_ = false;  // a granularity flush has nothing left to do
    else
      start_flush(true);
  }
}

void L1::start_flush(bool all) {
  ++flush_epoch_;
  flushing_ = true;
  flush_all_ = all;
  flush_next_ = 0;
}

// ---------------------------------------------------------------------------------------
// S1 (section 4)

L1::S1Result L1::lookup(const CoreReq& req) {
  const DecodedAddr d = split_.decode(req.addr);
  if (cfg_.l1.sector) return req.op == MemOp::kLoad ? sector_load(req, d) : sector_store(req, d);
  return req.op == MemOp::kLoad ? load(req, d) : store(req, d);
}

bool L1::store_pending(Addr line_addr) const {
  const auto line_of = [](Addr a) { return a & ~Addr{kLineBytes - 1}; };
  const auto store_to = [&](const CoreReq& r) { return r.op == MemOp::kStore && line_of(r.addr) == line_of(line_addr); };
  if (s1_valid_ && store_to(s1_)) return true;
  for (const Op* op : {&t_op_, &m1_op_, &m_op_})  // l1.pipeline staged: the pipe and the two FIFOs
    if (op->kind == Op::Kind::kCore && store_to(op->req)) return true;
  for (const auto* fifo : {&core_fifo_, &replay_fifo_})
    for (const CoreReq& r : *fifo)
      if (store_to(r)) return true;
  for (const MemReq& r : miss_queue_)
    if (r.op == MemOp::kStore && r.line_addr == line_of(line_addr)) return true;
  return false;
}

BypassReason L1::bypass_decision(const CoreReq& req) const {
  switch (cfg_.policy.bypass) {
    case BypassKind::kPcal: return req.token ? BypassReason::kNone : BypassReason::kPcal;
    case BypassKind::kTwoLevel: return two_level_.bypass() ? BypassReason::kTwoLevel : BypassReason::kNone;
    case BypassKind::kAgcb:
      return agcb_.predict_bypass(agcb_.hash(req.pc)) ? BypassReason::kAgcb : BypassReason::kNone;
    case BypassKind::kNone:
    case BypassKind::kAgeLru: break;  // AgeLRU-bypass needs the victim: at the fill, or at the miss (on_miss)
  }
  return BypassReason::kNone;
}

L1::S1Result L1::load_hit(const CoreReq& req, uint32_t set, uint32_t way, uint8_t slots) {
  CacheLine& line = sets_[set][way];
  CoreResp& resp = next_resp_;
  resp = CoreResp{req.id, req.warp, Outcome::kHit, {}};
  for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
    if (!((slots >> s) & 1)) continue;
    copy_chunk(resp.data, line.slot[s].chunk_tag & 3, data_of(set, way), s, nullptr);
    line.promote_slot(s);
  }
  keep_masked(resp.data, req.byte_mask);
  replacement_->on_access(set);
  replacement_->on_hit(set, way, access_info(req));
  agcb_.on_read_hit(line.hpc);
  line.hpc = agcb_.hash(req.pc);
  count_completion(req, true, false);
  return {true, true};
}

L1::S1Result L1::load(const CoreReq& req, const DecodedAddr& d) {
  std::vector<CacheLine>& set = sets_[d.set];
  const TagIndex::Set tags = tags_.set(d.set);
  const MatchResult m = chunk_match(tags, d.common_tag, d.chunk_tag, req.size, granularity_);
  if (m.kind == MatchKind::kHit) return load_hit(req, d.set, m.way, m.slots);

  BypassReason bypass = bypass_decision(req);
  const SectorMask needed = sectors_of(req.byte_mask);
  const Addr line_addr = req.addr & ~Addr{kLineBytes - 1};
  const uint32_t alloc_size = std::max(req.size, granularity_);
  const SectorMask alloc_fetch = range_sectors(d.chunk & ~(alloc_size / kChunkBytes - 1), alloc_size);

  // l1.allocation on_miss (section 13.1): the line is chosen now, on the state the miss leaves
  // (the copies of the block invalidated), and the allocation filters decide now.
  const bool on_miss = cfg_.l1.allocation == AllocationPolicy::kOnMiss;
  const bool wants_line = bypass == BypassReason::kNone ||
                          (bypass == BypassReason::kPcal && cfg_.policy.pcal.opportunistic);
  std::optional<Placement> place;
  WaySlotMasks alloc_copies{};
  if (on_miss && wants_line) {
    alloc_copies = find_copies(tags, d.common_tag, d.chunk_tag, alloc_fetch);
    const uint32_t slots = static_cast<uint32_t>(sectors_in(alloc_fetch));
    place = choose_placement(d.set, d.common_tag, slots, bypass == BypassReason::kPcal, &alloc_copies);
    if (place && cfg_.policy.bypass == BypassKind::kAgeLru &&
        agelru_bypasses(set[place->way], *place, slots, req.awid, &alloc_copies[place->way])) {
      place.reset();
      bypass = BypassReason::kAgeLru;
    }
  }

  // What the read fetches: an allocating load the max(R, G)-aligned block; a bypassing one its
  // request's sectors, the whole line (l1.bypass_fetch line), or with BTO only the touched sectors.
  const bool may_allocate = bypass == BypassReason::kNone || bypass == BypassReason::kAgcb ||
                            (bypass == BypassReason::kPcal && cfg_.policy.pcal.opportunistic);
  SectorMask fetch;
  if (may_allocate)
    fetch = alloc_fetch;
  else if (cfg_.policy.bto)
    fetch = needed;
  else if (cfg_.l1.bypass_fetch == BypassFetch::kLine)
    fetch = kAllSectors;
  else
    fetch = range_sectors(d.chunk, req.size);

  if (cfg_.l1.mshr_merge == MshrMerge::kBlock) {
    if (const std::optional<uint32_t> hit = mshr_.find_line(line_addr))
      return merge_into_block(req, d, *hit, needed, m.kind == MatchKind::kPartial);
  } else {
    const MshrProbeResult probe = mshr_.probe_load(line_addr, needed, fetch);
    if (probe.kind == MshrProbe::kMergeFull) return fail(ResFail::kMergeFull), S1Result{};
    if (probe.kind == MshrProbe::kConflict) return fail(ResFail::kConflict), S1Result{};
    if (probe.kind == MshrProbe::kMerge) {
      MshrEntry& e = mshr_.entry(probe.entry);
      e.requests.push_back({req.id, req.warp, req.byte_mask});
      replacement_->on_access(d.set);
      ++counters_.merges;
      counters_.pending_hits += e.reserved;
      count_completion(req, false, m.kind == MatchKind::kPartial, /*merged=*/true);
      return {true, false};
    }
  }
  // Every way of the set is reserved (GPGPU-Sim's LINE_ALLOC_FAIL); a load whose chunks are
  // reserved merged above (a pending hit).
  if (on_miss && wants_line && !place && bypass == BypassReason::kNone) return fail(ResFail::kLineAlloc), S1Result{};
  const std::optional<uint32_t> id = mshr_.free_entry();
  if (!id) return fail(ResFail::kMshrFull), S1Result{};
  const WaySlotMasks copies = place ? alloc_copies : find_copies(tags, d.common_tag, d.chunk_tag, fetch);
  const uint32_t place_slots = static_cast<uint32_t>(sectors_in(fetch));
  const uint32_t dirty = count_dirty(copies, d.set) + (place ? placement_dirty(d.set, *place, place_slots, &copies) : 0);
  if (!has_room(dirty + 1)) return fail(ResFail::kMissQueueFull), S1Result{};

  invalidate_copies(copies, d.set);
  MshrEntry& e = open_entry(*id, line_addr, fetch, bypass, req);
  replacement_->on_access(d.set);
  replacement_->on_miss(d.set, access_info(req));
  if (place) {
    const uint32_t first_chunk = static_cast<uint32_t>(std::countr_zero(fetch));
    take_placement(d.set, *place, place_slots, first_chunk, d.chunk_tag, d.common_tag, e);
    // The fill makes the slots valid (complete_reserved_fill); the tag index records the reservation.
    for (uint32_t i = 0; i < place_slots; ++i) set[place->way].slot[place->pos + i].reserved = true;
    sync_tags(d.set, place->way);
    e.reserved = true;
    e.reserved_way = place->way;
    e.reserved_pos = place->pos;
  }
  queue_read(line_addr, fetch, bypass != BypassReason::kNone, bypass == BypassReason::kAgcb, *id);
  counters_.bypasses += bypass != BypassReason::kNone;
  count_completion(req, false, m.kind == MatchKind::kPartial);
  return {true, false};
}

// l1.mshr_merge block (GPGPU-Sim 3.x keys MSHR entries by 128 B block): a load to a line with an
// entry in flight merges into it; sectors the entry does not fetch are added by a second read
// (their copies invalidated first, as for any read), so the load never waits for the fill.
L1::S1Result L1::merge_into_block(const CoreReq& req, const DecodedAddr& d, uint32_t id, SectorMask needed,
                                  bool partial) {
  MshrEntry& e = mshr_.entry(id);
  if (e.requests.size() >= mshr_.max_merge()) return fail(ResFail::kMergeFull), S1Result{};
  const auto missing = static_cast<SectorMask>(needed & ~e.sectors);
  if (missing) {
    // Its data is in and the fill unit answers it soon: wait rather than reopen it.
    if (e.filled) return fail(ResFail::kConflict), S1Result{};
    const WaySlotMasks copies = find_copies(tags_.set(d.set), d.common_tag, d.chunk_tag, missing);
    if (!has_room(count_dirty(copies, d.set) + 1)) return fail(ResFail::kMissQueueFull), S1Result{};
    invalidate_copies(copies, d.set);
    // The added sectors are never placed (bypass): they only answer the merged loads.
    queue_read(e.line_addr, missing, /*bypass=*/true, /*agcb_bypass=*/false, id);
    ++counters_.widening_reads;
    e.sectors = static_cast<SectorMask>(e.sectors | missing);
    ++e.reads;
  }
  e.requests.push_back({req.id, req.warp, req.byte_mask});
  replacement_->on_access(d.set);
  ++counters_.merges;
  counters_.pending_hits += e.reserved;
  count_completion(req, false, partial, /*merged=*/true);
  return {true, false};
}

L1::S1Result L1::store(const CoreReq& req, const DecodedAddr& d) {
  const Addr line_addr = req.addr & ~Addr{kLineBytes - 1};
  const SectorMask range = range_sectors(d.chunk, req.size);
  if (mshr_.store_conflicts(line_addr, range)) return fail(ResFail::kConflict), S1Result{};

  const TagIndex::Set tags = tags_.set(d.set);
  const MatchResult m = chunk_match(tags, d.common_tag, d.chunk_tag, req.size, granularity_);
  const MemReq wr = store_request(req);

  if (m.kind == MatchKind::kHit) return store_hit(req, d.set, m.way, m.slots, granularity_ / kChunkBytes, wr);

  const WaySlotMasks copies = find_copies(tags, d.common_tag, d.chunk_tag, range);
  if (!has_room(count_dirty(copies, d.set) + 1)) return fail(ResFail::kMissQueueFull), S1Result{};
  invalidate_copies(copies, d.set);
  replacement_->on_access(d.set);
  miss_queue_.push_back(wr);
  ++counters_.mem_writes;
  count_completion(req, false, m.kind == MatchKind::kPartial);
  next_resp_ = CoreResp{req.id, req.warp, Outcome::kStoreAck, {}};
  return {true, true};
}

MshrEntry& L1::open_entry(uint32_t id, Addr line_addr, SectorMask fetch, BypassReason bypass, const CoreReq& req) {
  MshrEntry& e = mshr_.allocate(id, line_addr);
  e.sectors = fetch;
  e.place = fetch;
  e.bypass = bypass;
  e.hpc = agcb_.hash(req.pc);
  e.awid = req.awid;
  e.token = req.token;
  e.requests.push_back({req.id, req.warp, req.byte_mask});
  return e;
}

void L1::queue_read(Addr line_addr, SectorMask sectors, bool bypass, bool agcb_bypass, uint32_t mshr) {
  MemReq rd;
  rd.line_addr = line_addr;
  rd.op = MemOp::kLoad;
  rd.sectors = sectors;
  rd.bypass = bypass;
  rd.agcb_bypass = agcb_bypass;
  rd.mshr = static_cast<uint8_t>(mshr);
  miss_queue_.push_back(rd);
  ++counters_.mem_reads;
}

MemReq L1::store_request(const CoreReq& req) {
  MemReq wr;
  wr.line_addr = req.addr & ~Addr{kLineBytes - 1};
  wr.op = MemOp::kStore;
  wr.sectors = sectors_of(req.byte_mask);
  wr.byte_mask = req.byte_mask;
  wr.data = req.data;
  return wr;
}

L1::S1Result L1::store_hit(const CoreReq& req, uint32_t set, uint32_t way, uint8_t slots, uint32_t piece,
                           const MemReq& wr) {
  CacheLine& line = sets_[set][way];
  bool to_memory = true;  // write-evict and write-through send the store on
  if (cfg_.l1.write_policy == WritePolicy::kWriteEvict) {
    // Write-evict (GPGPU-Sim's global stores): the store goes to memory and the pieces it hits
    // (the whole line at G = 128, one sector in a sector cache) are invalidated; no data is
    // written into the L1.
    if (!has_room(1)) return fail(ResFail::kMissQueueFull), S1Result{};
    uint32_t evicted = 0;  // the hit slots widened to their aligned pieces
    for (uint32_t s = 0; s < kSlotsPerLine; ++s)
      if ((slots >> s) & 1) evicted |= ((1u << piece) - 1) << (s & ~(piece - 1));
    for (uint32_t s = 0; s < kSlotsPerLine; ++s)
      if ((evicted >> s) & 1) line.slot[s].valid = false;
    sync_tags(set, way);
    replacement_->on_access(set);
  } else {
    const bool write_through = cfg_.l1.write_policy == WritePolicy::kWriteThrough;
    if (write_through && !has_room(1)) return fail(ResFail::kMissQueueFull), S1Result{};
    for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
      if (!((slots >> s) & 1)) continue;
      const uint32_t chunk = line.slot[s].chunk_tag & 3;
      LineData moved{};
      copy_chunk(moved, s, req.data, chunk, nullptr);  // the store's bytes at the slot's place
      ByteMask slot_mask = (req.byte_mask >> (chunk * kChunkBytes)) & ByteMask{0xFFFFFFFFull};
      if (!write_through) line.slot[s].dirty |= static_cast<uint32_t>(slot_mask.to_ullong());
      slot_mask <<= s * kChunkBytes;
      copy_chunk(data_of(set, way), s, moved, s, &slot_mask);
      line.promote_slot(s);
    }
    replacement_->on_access(set);
    replacement_->on_hit(set, way, access_info(req));
    to_memory = write_through;
  }
  if (to_memory) {
    miss_queue_.push_back(wr);
    ++counters_.mem_writes;
  }
  count_completion(req, true, false);
  next_resp_ = CoreResp{req.id, req.warp, Outcome::kStoreAck, {}};
  return {true, true};
}

AccessInfo L1::access_info(const CoreReq& req) const {
  return AccessInfo{agcb_.hash(req.pc), ages_.relative_age(req.awid)};
}

void L1::count_completion(const CoreReq& req, bool hit, bool partial, bool merged) {
  AccelSimCounts& a = req.op == MemOp::kLoad ? accelsim_.read : accelsim_.write;
  const auto n = static_cast<uint64_t>(sectors_in(sectors_of(req.byte_mask)));
  (hit ? a.hit : merged ? a.mshr_hit : partial ? a.sector_miss : a.miss) += n;
  count_request(req, hit, partial, /*sector_miss=*/false);
}

void L1::count_sectors(MemOp op, SectorMask hit, SectorMask mshr_hit, SectorMask sector_miss, SectorMask miss) {
  AccelSimCounts& a = op == MemOp::kLoad ? accelsim_.read : accelsim_.write;
  a.hit += static_cast<uint64_t>(sectors_in(hit));
  a.mshr_hit += static_cast<uint64_t>(sectors_in(mshr_hit));
  a.sector_miss += static_cast<uint64_t>(sectors_in(sector_miss));
  a.miss += static_cast<uint64_t>(sectors_in(miss));
}

void L1::count_request(const CoreReq& req, bool hit, bool partial, bool sector_miss) {
  ++counters_.accesses;
  ++(req.op == MemOp::kLoad ? counters_.loads : counters_.stores);
  const uint32_t si = size_index(req.size);
  if (hit) {
    ++counters_.hits;
    ++counters_.hits_by_size[si];
  } else {
    ++counters_.misses;
    ++counters_.misses_by_size[si];
    counters_.partial_hits += partial;
    counters_.sector_misses += sector_miss;
    counters_.sector_misses_by_size[si] += sector_miss;
  }
  if (req.op == MemOp::kLoad && cfg_.policy.bypass == BypassKind::kTwoLevel) two_level_.record_access(!hit);
  if (selector_) {
    if (std::optional<uint32_t> g = selector_->record(req.size, !hit)) switch_granularity(*g);
  }
}

bool L1::has_room(uint32_t n) const { return miss_queue_.size() + n <= cfg_.l1.miss_queue_entries; }

namespace {
// f(w) for each way w with a copy, lowest first. Most ways hold none: the masks are read eight
// ways at a time (a byte at a time, the 64 ways of a qv100 set were 460 instructions a store miss).
template <typename F>
void for_each_copy_way(const WaySlotMasks& copies, uint32_t ways, F&& f) {
  static_assert(std::endian::native == std::endian::little, "byte k of the word is way first + k");
  for (uint32_t first = 0; first < ways; first += 8) {
    uint64_t eight;
    std::memcpy(&eight, copies.data() + first, sizeof eight);
    while (eight) {
      const auto k = static_cast<uint32_t>(std::countr_zero(eight)) / 8;
      eight &= ~(uint64_t{0xFF} << (8 * k));
      f(first + k);
    }
  }
}
}  // namespace

uint32_t L1::count_dirty(const WaySlotMasks& copies, uint32_t set) const {
  uint32_t n = 0;
  for_each_copy_way(copies, ways_, [&](uint32_t w) {
    for (uint32_t s = 0; s < kSlotsPerLine; ++s) n += ((copies[w] >> s) & 1) && sets_[set][w].slot[s].dirty;
  });
  return n;
}

void L1::invalidate_copies(const WaySlotMasks& copies, uint32_t set) {
  for_each_copy_way(copies, ways_, [&](uint32_t w) {
    for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
      if (!((copies[w] >> s) & 1)) continue;
      if (sets_[set][w].slot[s].dirty) write_back_slot(set, w, s);
      sets_[set][w].slot[s].valid = false;
    }
    sync_tags(set, w);
  });
}

void L1::write_back_slot(uint32_t set, uint32_t way, uint32_t slot) {
  CacheLine& line = sets_[set][way];
  const Addr chunk_addr = split_.chunk_address(set, line.common_tag, line.slot[slot].chunk_tag);
  const uint32_t chunk = line.slot[slot].chunk_tag & 3;
  MemReq wb;
  wb.line_addr = chunk_addr & ~Addr{kLineBytes - 1};
  wb.op = MemOp::kStore;
  wb.sectors = static_cast<SectorMask>(1u << chunk);
  for (uint32_t b = 0; b < kChunkBytes; ++b)
    if ((line.slot[slot].dirty >> b) & 1) wb.byte_mask.set(chunk * kChunkBytes + b);
  copy_chunk(wb.data, chunk, data_of(set, way), slot, nullptr);
  miss_queue_.push_back(wb);
  line.slot[slot].dirty = 0;
  ++counters_.writebacks;
  ++counters_.mem_writes;
}

// ---------------------------------------------------------------------------------------
// Fill unit (section 6)

bool L1::fill_step() {
  const uint32_t id = fill_fifo_.front();
  MshrEntry& e = mshr_.entry(id);
  if (!fill_placed_) {
    if (!place_fill(e)) {
      ++counters_.fill_stall_cycles;
      return false;
    }
    fill_placed_ = true;
    fill_index_ = 0;
    ++counters_.fills;
  }
  const MshrRequest& r = e.requests[fill_index_];
  next_resp_ = CoreResp{r.id, r.warp, fill_allocated_ ? Outcome::kMissReturn : Outcome::kBypassReturn, e.data};
  keep_masked(next_resp_.data, r.byte_mask);  // the request's bytes, zero elsewhere
  if (++fill_index_ == e.requests.size()) {
    mshr_.release(id);
    fill_fifo_.pop_front();
    fill_placed_ = false;
  }
  return true;
}

// The slots of a placement that hold data (valid and not about to be invalidated).
namespace {
// A written slot (l1.write_allocate) holds data for placement as a valid one does (GPGPU-Sim: MODIFIED).
bool live_slot(const CacheLine& line, uint32_t s, uint8_t ignore) {
  return (line.slot[s].valid || line.slot[s].written) && !((ignore >> s) & 1);
}
bool live_line(const CacheLine& line, uint8_t ignore) {
  for (uint32_t s = 0; s < kSlotsPerLine; ++s)
    if (live_slot(line, s, ignore)) return true;
  return false;
}
}  // namespace

std::optional<L1::Placement> L1::choose_placement(uint32_t set_idx, uint64_t common_tag, uint32_t slots,
                                                  bool opportunistic, const WaySlotMasks* ignore) const {
  const std::vector<CacheLine>& set = sets_[set_idx];
  const auto ign = [&](uint32_t w) -> uint8_t { return ignore ? (*ignore)[w] : 0; };
  // The ways with a live slot, with a reserved slot, and those the allocation filter allows, as
  // masks: the tag index keeps the first two and the lines' priority flags per set, so only the
  // ways whose slots the caller ignores are read again. Before, every fill walked each line of the
  // set (2 390 instructions a call on qv100's 64 ways; docs/performance.md).
  const TagIndex::SetMasks& m = tags_.masks(set_idx);
  uint64_t live = m.live;
  const uint64_t held = m.held;
  if (ignore)
    for (uint64_t ways = live; ways; ways &= ways - 1) {
      const auto w = static_cast<uint32_t>(std::countr_zero(ways));
      if ((*ignore)[w] && !live_line(set[w], (*ignore)[w])) live &= ~(uint64_t{1} << w);
    }
  const uint64_t all = ways_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << ways_) - 1;
  const uint64_t allowed = opportunistic ? all & ~(live & m.prio) : all;
  // A partial position in a line of the same common-tag (lowest such way; in it the aligned
  // position whose most recent live slot is oldest, ties to the lowest; reserved slots excluded).
  if (slots < kSlotsPerLine) {
    for (uint64_t ways = (live | held) & allowed; ways; ways &= ways - 1) {
      const auto w = static_cast<uint32_t>(std::countr_zero(ways));
      const CacheLine& l = set[w];
      if (l.common_tag != common_tag) continue;
      std::optional<uint32_t> best;
      uint32_t best_age = 0;
      for (uint32_t p = 0; p < kSlotsPerLine; p += slots) {
        uint32_t age = kSlotsPerLine;
        bool reserved = false;
        for (uint32_t s = p; s < p + slots; ++s) {
          reserved |= l.slot[s].reserved;
          if (live_slot(l, s, ign(w))) age = std::min<uint32_t>(age, l.slot_rank[s]);
        }
        if (reserved) continue;
        if (!best || age > best_age) best = p, best_age = age;
      }
      if (best) return Placement{w, *best, false};
    }
  }
  // A whole line: the lowest free eligible way, else the replacement policy's victim among the
  // eligible ways that hold no reservation.
  const uint64_t eligible = allowed & ~held;
  if (eligible == 0) return std::nullopt;
  if (const uint64_t free = eligible & ~live) return Placement{static_cast<uint32_t>(std::countr_zero(free)), 0, true};
  const uint32_t way =
      replacement_->victim(set_idx, VictimContext{WayMask(eligible), tags_.awids(set_idx), &ages_, agelru_enable_});
  return Placement{way, 0, true};
}

uint32_t L1::placement_dirty(uint32_t set, const Placement& p, uint32_t slots, const WaySlotMasks* ignore) const {
  const CacheLine& line = sets_[set][p.way];
  const uint8_t ign = ignore ? (*ignore)[p.way] : 0;
  uint32_t n = 0;
  for (uint32_t s = p.pos; s < (p.whole_line ? kSlotsPerLine : p.pos + slots); ++s)
    n += live_slot(line, s, ign) && line.slot[s].dirty;
  return n;
}

// AgeLRU bypass (SPEC 8): the victim's owner is active and the requester is younger.
bool L1::agelru_bypasses(const CacheLine& victim, const Placement& p, uint32_t slots, uint8_t awid,
                         const uint8_t* ignore) const {
  bool replaces_valid = false;
  for (uint32_t s = p.pos; s < (p.whole_line ? kSlotsPerLine : p.pos + slots); ++s)
    replaces_valid |= live_slot(victim, s, ignore ? *ignore : 0);
  return replaces_valid && agelru_enable_ && ages_.active(victim.awid) &&
         ages_.relative_age(awid) > ages_.relative_age(victim.awid);
}

void L1::take_placement(uint32_t set, const Placement& p, uint32_t slots, uint32_t first_chunk, uint32_t chunk_tag,
                        uint64_t common_tag, const MshrEntry& e) {
  CacheLine& line = sets_[set][p.way];
  bool replaces_valid = false;
  for (uint32_t s = p.pos; s < (p.whole_line ? kSlotsPerLine : p.pos + slots); ++s) {
    replaces_valid |= line.slot[s].valid;
    if (line.slot[s].valid && line.slot[s].dirty) write_back_slot(set, p.way, s);
    line.slot[s].valid = line.slot[s].written = false;
  }
  if (replaces_valid) agcb_.on_victim(line.hpc);
  if (p.whole_line) line.common_tag = common_tag;
  for (uint32_t i = 0; i < slots; ++i) {
    Slot& s = line.slot[p.pos + i];
    s.dirty = 0;
    s.chunk_tag = (chunk_tag & ~3u) | (first_chunk + i);
  }
  line.hpc = e.hpc;
  line.awid = e.awid;
  line.priority = e.token;
  replacement_->on_fill(set, p.way, AccessInfo{e.hpc, ages_.relative_age(e.awid)});
  for (uint32_t i = 0; i < slots; ++i) line.promote_slot(p.pos + i);
}

// Returns false when the fill must wait for miss-queue room for its write-backs.
bool L1::place_fill(MshrEntry& e) {
  fill_allocated_ = false;
  if (e.reserved) {
    complete_reserved_fill(e);
    return true;
  }
  // With allocation on miss, a fill allocates only when the L2 overrides an AGCB bypass (the one
  // decision the miss cannot take: section 13.1).
  if (cfg_.l1.allocation == AllocationPolicy::kOnMiss && e.bypass != BypassReason::kAgcb) return true;
  const bool pcal_opportunistic = e.bypass == BypassReason::kPcal;  // only recorded as may-allocate
  switch (e.bypass) {
    case BypassReason::kNone: break;
    case BypassReason::kAgcb:
      if (!e.l2_bypass_bit) return true;
      ++counters_.agcb_overrides;
      break;
    case BypassReason::kTwoLevel:
    case BypassReason::kAgeLru: return true;
    case BypassReason::kPcal:
      if (!cfg_.policy.pcal.opportunistic) return true;
      break;
  }

  if (cfg_.l1.sector) return place_sector_fill(e, pcal_opportunistic);
  const uint32_t first_chunk = static_cast<uint32_t>(std::countr_zero(e.place));
  const uint32_t slots = static_cast<uint32_t>(sectors_in(e.place));
  // A block smaller than G (fetched before a small-to-large switch) is not placed: the match
  // compares only piece heads, which is sound only while every piece is at least G.
  if (slots * kChunkBytes < granularity_) return true;
  const DecodedAddr d = split_.decode(e.line_addr | (Addr{first_chunk} << 5));
  const std::optional<Placement> p = choose_placement(d.set, d.common_tag, slots, pcal_opportunistic, nullptr);
  if (!p) return true;  // opportunistic caching (or every way reserved) found no line: bypass
  if (cfg_.policy.bypass == BypassKind::kAgeLru && agelru_bypasses(sets_[d.set][p->way], *p, slots, e.awid, nullptr))
    return true;  // AgeLRU bypass: the requester is younger than the victim's owner
  if (!has_room(placement_dirty(d.set, *p, slots, nullptr))) return false;

  take_placement(d.set, *p, slots, first_chunk, d.chunk_tag, d.common_tag, e);
  CacheLine& line = sets_[d.set][p->way];
  for (uint32_t i = 0; i < slots; ++i) {
    line.slot[p->pos + i].valid = true;
    copy_chunk(data_of(d.set, p->way), p->pos + i, e.data, first_chunk + i, nullptr);
  }
  sync_tags(d.set, p->way);
  fill_allocated_ = true;
  ++counters_.fills_allocated;
  return true;
}

// The fill of a block whose slots were reserved at the miss (section 13.1): the data goes in; a
// block smaller than the granularity now in force gives its slots back unplaced (section 6).
void L1::complete_reserved_fill(MshrEntry& e) {
  if (cfg_.l1.sector) return complete_reserved_sectors(e);
  const uint32_t first_chunk = static_cast<uint32_t>(std::countr_zero(e.place));
  const uint32_t slots = static_cast<uint32_t>(sectors_in(e.place));
  const DecodedAddr d = split_.decode(e.line_addr | (Addr{first_chunk} << 5));
  CacheLine& line = sets_[d.set][e.reserved_way];
  const bool place = slots * kChunkBytes >= granularity_;
  for (uint32_t i = 0; i < slots; ++i) {
    Slot& s = line.slot[e.reserved_pos + i];
    s.reserved = false;
    s.valid = place;
    if (place) copy_chunk(data_of(d.set, e.reserved_way), e.reserved_pos + i, e.data, first_chunk + i, nullptr);
  }
  sync_tags(d.set, e.reserved_way);
  fill_allocated_ = place;
  counters_.fills_allocated += place;
}

// ---------------------------------------------------------------------------------------
// Granularity (section 7)

void L1::switch_granularity(uint32_t g) {
  ++counters_.granularity_switches;
  if (g > granularity_ && !(flushing_ && flush_all_)) start_flush(false);
  granularity_ = g;
}

void L1::flush_step() {
  ++counters_.flush_cycles;
  const uint32_t set = flush_next_ / ways_, way = flush_next_ % ways_;
  // A line with no valid slot has nothing to write back or clear, and its tag index entry is
  // already empty: the step is only its cycle. Skipping the line's read and the index update is
  // what makes a kernel-end walk over a large, mostly empty L1 cheap (qv100 / a100 at 128-192 KB:
  // most of a short kernel's simulation time was this walk). Only without lazy write allocation:
  // a `written` slot is not valid but is cleared here.
  if (cfg_.l1.write_allocate == WriteAllocate::kNone && tags_.way_empty(set, way) && has_room(0)) {
    if (++flush_next_ == split_.sets() * ways_) flushing_ = false;
    return;
  }
  CacheLine& line = sets_[set][way];
  uint8_t keep = 0;
  if (cfg_.policy.dycache.keep_large_pieces && !flush_all_) {
    const uint32_t n = granularity_ / kChunkBytes;
    for (uint32_t p = 0; p < kSlotsPerLine; p += n) {
      bool whole = (line.slot[p].chunk_tag & (n - 1)) == 0;
      for (uint32_t i = 0; i < n && whole; ++i)
        whole = line.slot[p + i].valid && line.slot[p + i].chunk_tag == line.slot[p].chunk_tag + i;
      if (whole) keep = static_cast<uint8_t>(keep | (((1u << n) - 1) << p));
    }
  }
  uint32_t dirty = 0;
  for (uint32_t s = 0; s < kSlotsPerLine; ++s)
    dirty += !((keep >> s) & 1) && line.slot[s].valid && line.slot[s].dirty;
  if (!has_room(dirty)) return;  // wait for the miss queue to drain
  for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
    if ((keep >> s) & 1) continue;
    if (line.slot[s].valid && line.slot[s].dirty) write_back_slot(set, way, s);
    line.slot[s].valid = line.slot[s].written = false;
  }
  sync_tags(set, way);
  if (++flush_next_ == split_.sets() * ways_) flushing_ = false;
}

// ---------------------------------------------------------------------------------------
// Observability

bool L1::idle() const {
  return !s1_valid_ && miss_queue_.empty() && fill_fifo_.empty() && !flushing_ && !resp_valid_ &&
         mshr_.in_use() == 0 && staged_idle();
}

uint64_t L1::quiet_cycles(uint32_t occupancy) const {
  // What step() reads with no request, response or event: S1, the fill FIFO, the miss queue (its
  // head is offered to memory) and the response register must all be empty.
  if (staged_ || s1_valid_ || !miss_queue_.empty() || !fill_fifo_.empty() ||
      resp_valid_)
    return 0;
  const uint64_t ticks = two_level_.counting_ticks(occupancy);
  if (!flushing_) return ticks;
  // A flush walk's step over a line with no valid slot only counts (flush_step). The step over
  // the last line ends the flush, after which the SM may fall quiescent: it is not skipped.
  if (cfg_.l1.write_allocate != WriteAllocate::kNone) return 0;
  const uint32_t lines = split_.sets() * ways_;
  uint64_t n = 0;
  for (uint32_t i = flush_next_; i + 1 < lines && n < ticks && tags_.way_empty(i / ways_, i % ways_); ++i) ++n;
  return n;
}

void L1::skip_quiet_cycles(uint64_t n, uint32_t occupancy, bool agelru_enable) {
  agelru_enable_ = agelru_enable;
  two_level_.advance(n, occupancy);
  s1_retry_same_ = false;
  counters_.cycles += n;
  if (flushing_) {  // over empty lines only (quiet_cycles)
    flush_next_ += static_cast<uint32_t>(n);
    counters_.flush_cycles += n;
  }
}

uint64_t L1::retry_cycles(uint32_t occupancy) const {
  // step() with S1 valid and s1_retry_same_, no fill and no flush only calls fail(last_fail_) and
  // counts the Accel-Sim sectors; no response is produced (resp_valid_ then stays false), S1 keeps
  // its request, and the edge leaves s1_retry_same_ set while the two-level unit's mode stays.
  if (staged_ || !s1_valid_ || !s1_retry_same_ || !fill_fifo_.empty() || flushing_ ||
      resp_valid_)
    return 0;
  return two_level_.counting_ticks(occupancy);
}

void L1::skip_retry_cycles(uint64_t n, uint32_t occupancy) {
  counters_.cycles += n;
  counters_.res_fail[static_cast<int>(last_fail_)] += n;
  (s1_.op == MemOp::kLoad ? accelsim_.read : accelsim_.write).res_fail += n * s1_sectors_;
  two_level_.advance(n, occupancy);
}

std::string L1::describe_state() const {
  std::ostringstream os;
  os << "S1: " << (s1_valid_ ? fmt::format("request {} addr {:#x} size {}", s1_.id, s1_.addr, s1_.size) : "empty")
     << "\n";
  os << "MSHR: " << mshr_.in_use() << "/" << mshr_.size() << " in use\n";
  for (uint32_t i = 0; i < mshr_.size(); ++i) {
    const MshrEntry& e = mshr_.entry(i);
    if (e.valid)
      os << fmt::format("  [{}] line {:#x} sectors {:#x} requests {} {}\n", i, e.line_addr, e.sectors,
                        e.requests.size(), e.filled ? "filled" : "waiting for memory");
  }
  os << "miss queue: " << miss_queue_.size() << "/" << cfg_.l1.miss_queue_entries << "\n";
  os << "fill FIFO: " << fill_fifo_.size() << (flushing_ ? ", flushing\n" : "\n");
  if (cfg_.l1.pipeline == L1Pipeline::kStaged)
    os << fmt::format("staged pipe: T {} M1 {} M2 {}, core FIFO {}, replay FIFO {}, fill cursor ({}, {}), flush "
                      "cursor {}\n",
                      static_cast<int>(t_op_.kind), static_cast<int>(m1_op_.kind), static_cast<int>(m_op_.kind),
                      core_fifo_.size(),
                      replay_fifo_.size(), fill_cursor_pos_, fill_cursor_step_, flush_cursor_);
  return os.str();
}

// Sector mode (section 14): slot i of a way holds chunk i of the one line the way holds.
void L1::check_sector_way(uint32_t set, uint32_t way, std::vector<std::pair<uint64_t, uint32_t>>& held) const {
  const CacheLine& line = sets_[set][way];
  std::optional<uint32_t> line_part;
  for (uint32_t i = 0; i < kSlotsPerLine; ++i) {
    const Slot& slot = line.slot[i];
    if (slot.written && (slot.valid || slot.reserved))
      throw std::logic_error(fmt::format("set {} way {} slot {}: written and {}", set, way, i,
                                         slot.valid ? "valid" : "reserved"));
    if (!slot.valid && !slot.reserved && !slot.written) continue;
    if ((slot.chunk_tag & 3) != i)
      throw std::logic_error(fmt::format("set {} way {} slot {}: holds chunk {} in sector mode", set, way, i,
                                         slot.chunk_tag & 3));
    if (line_part && *line_part != slot.chunk_tag >> 2)
      throw std::logic_error(fmt::format("set {} way {}: slots of two memory lines in sector mode", set, way));
    line_part = slot.chunk_tag >> 2;
  }
  if (line_part) held.emplace_back(line.common_tag, *line_part);
}

void L1::check_invariants() const {
  const bool staged = cfg_.l1.pipeline == L1Pipeline::kStaged;
  if (core_fifo_.size() > 2 || replay_fifo_.size() > kReplayFifoDepth ||
      (staged && miss_queue_visible_.size() != miss_queue_.size()))
    throw std::logic_error(fmt::format("staged pipe: core FIFO {} (at most 2), replay FIFO {} (at most {}), {} "
                                       "presentable times for {} queued requests",
                                       core_fifo_.size(), replay_fifo_.size(), kReplayFifoDepth,
                                       miss_queue_visible_.size(),
                                       miss_queue_.size()));
  uint64_t line_pairs = 0;  // (way, memory line) pairs the lines hold
  // Cleared per set, allocated once: the pressure tests run this every cycle, and a pair of
  // allocations per set was a sixth of their time (perf, 2026-11-27).
  std::vector<std::pair<uint64_t, uint32_t>> chunks;  // (common-tag, chunk-tag) of valid slots
  std::vector<std::pair<uint64_t, uint32_t>> held;    // sector mode: (common-tag, line) of each way
  chunks.reserve(size_t{ways_} * kSlotsPerLine);
  held.reserve(ways_);
  for (uint32_t s = 0; s < sets_.size(); ++s) {
    chunks.clear();
    held.clear();
    for (uint32_t w = 0; w < ways_; ++w) {
      const CacheLine& line = sets_[s][w];
      if (cfg_.l1.sector) check_sector_way(s, w, held);
      uint32_t seen = 0;
      for (uint32_t i = 0; i < kSlotsPerLine; ++i) {
        seen |= 1u << line.slot_rank[i];
        const Slot& slot = line.slot[i];
        if (slot.dirty && !slot.valid)
          throw std::logic_error(fmt::format("set {} way {} slot {}: dirty but invalid", s, w, i));
        if (slot.valid && slot.reserved)
          throw std::logic_error(fmt::format("set {} way {} slot {}: valid and reserved", s, w, i));
        if (slot.valid && cfg_.l1.write_policy == WritePolicy::kWriteEvict && slot.dirty)
          throw std::logic_error(fmt::format("set {} way {} slot {}: dirty under write_evict", s, w, i));
        // A reserved slot counts as a copy: its chunk arrives with the fill.
        if (slot.valid || slot.reserved) chunks.emplace_back(line.common_tag, slot.chunk_tag);
      }
      if (seen != 0xF) throw std::logic_error(fmt::format("set {} way {}: slot ranks not a permutation", s, w));
      if (!tags_.in_step(s, w, line))
        throw std::logic_error(fmt::format("set {} way {}: packed tag index out of step with the line", s, w));
      uint8_t parts_seen = 0;  // valid slots of one memory line in a way count once
      for (uint32_t i = 0; i < kSlotsPerLine; ++i) {
        bool first = line.slot[i].valid;
        for (uint32_t j = 0; j < i && first; ++j)
          first = !(line.slot[j].valid && (line.slot[j].chunk_tag >> 2) == (line.slot[i].chunk_tag >> 2));
        parts_seen = static_cast<uint8_t>(parts_seen + first);
      }
      line_pairs += parts_seen;
    }
    std::sort(held.begin(), held.end());
    if (auto dup = std::adjacent_find(held.begin(), held.end()); dup != held.end())
      throw std::logic_error(fmt::format("set {}: memory line common {:#x} line {:#x} held by two ways", s,
                                         dup->first, dup->second));
    std::sort(chunks.begin(), chunks.end());
    if (auto dup = std::adjacent_find(chunks.begin(), chunks.end()); dup != chunks.end())
      throw std::logic_error(fmt::format("set {}: chunk common {:#x} chunk-tag {:#x} held twice", s, dup->first,
                                         dup->second));
    uint64_t ranks = 0;
    for (uint32_t w = 0; w < ways_; ++w) ranks |= uint64_t{1} << replacement_->rank(s, w);
    if (ranks != (ways_ == 64 ? ~uint64_t{0} : (uint64_t{1} << ways_) - 1))
      throw std::logic_error(fmt::format("set {}: way ranks not a permutation", s));
  }
  if (tags_.indexed_pairs() != line_pairs)
    throw std::logic_error(fmt::format("tag index: {} (way, line) pairs indexed, the lines hold {}",
                                       tags_.indexed_pairs(), line_pairs));
  if (miss_queue_.size() > cfg_.l1.miss_queue_entries) throw std::logic_error("miss queue over capacity");
  mshr_.check_index();
}

}  // namespace l1d::golden
