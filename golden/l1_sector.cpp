// Sector mode of the golden L1 (docs/l1d-microarchitecture.md section 14): a 128 B line per way
// with slot i holding sector i, per-sector valid bits, misses that fetch only the sectors they
// lack. The fill unit, MSHR file, miss queue and replacement hooks are those of golden/l1.cpp.
#include <bit>
#include <stdexcept>

#include <fmt/format.h>

#include "golden/chunk_match.h"
#include "golden/l1.h"
#include "golden/line_bytes.h"

namespace l1d::golden {

using namespace line_bytes;

namespace {
template <typename F>  // f(i) for each sector i of `sectors`
void for_each_sector(SectorMask sectors, F&& f) {
  for (uint32_t i = 0; i < kSlotsPerLine; ++i)
    if ((sectors >> i) & 1) f(i);
}
}  // namespace

SectorMask L1::written_sectors(uint32_t set, uint32_t way, uint64_t common_tag, uint32_t chunk_tag) const {
  const CacheLine& line = sets_[set][way];
  SectorMask m = 0;
  if (line.common_tag != common_tag) return 0;
  for (uint32_t i = 0; i < kSlotsPerLine; ++i)
    if (line.slot[i].written && line.slot[i].chunk_tag >> 2 == chunk_tag >> 2) m = static_cast<SectorMask>(m | (1u << i));
  return m;
}

L1::SectorLine L1::sector_line(uint32_t set, uint64_t common_tag, uint32_t chunk_tag, Addr line_addr) const {
  const bool lazy = cfg_.l1.write_allocate != WriteAllocate::kNone;
  // Slot i holds chunk i, so a way's slot mask of the line's chunks is its sector mask.
  if (const auto [w, slots] = first_copy(tags_.set(set), common_tag, chunk_tag, kAllSectors); slots)
    return {w, slots, lazy ? written_sectors(set, w, common_tag, chunk_tag) : SectorMask{0}};
  // Only l1.allocation on_miss reserves a way for an entry (MshrEntry::reserved): otherwise the
  // MSHR's line index, cold on a large GPU, is not read for an answer that is always "none".
  if (cfg_.l1.allocation == AllocationPolicy::kOnMiss)
    if (const std::optional<uint32_t> w = mshr_.reserved_way(line_addr))
      return {*w, 0, lazy ? written_sectors(set, *w, common_tag, chunk_tag) : SectorMask{0}};
  if (lazy)  // a line holding only written slots is not in the tag index: look at every way
    for (uint32_t w = 0; w < ways_; ++w)
      if (const SectorMask m = written_sectors(set, w, common_tag, chunk_tag)) return {w, 0, m};
  return {};
}

void L1::buffer_sectors(MshrEntry& e, uint32_t set, uint32_t way, SectorMask sectors) {
  for_each_sector(sectors, [&](uint32_t i) { copy_chunk(e.data, i, data_of(set, way), i, nullptr); });
  e.buffered = static_cast<SectorMask>(e.buffered | sectors);
}

void L1::add_sectors(uint32_t set, uint32_t way, uint32_t chunk_tag, SectorMask sectors, const MshrEntry& e,
                     bool reserve) {
  CacheLine& line = sets_[set][way];
  for_each_sector(sectors, [&](uint32_t i) {
    Slot& slot = line.slot[i];
    // One entry at a time fetches a sector (the MSHR check), so nothing holds or awaits it.
    if (slot.valid || slot.reserved)
      throw std::logic_error(fmt::format("L1: sector fill of set {} way {} sector {}: the slot is already {}", set,
                                         way, i, slot.valid ? "valid" : "reserved"));
    slot.chunk_tag = (chunk_tag & ~3u) | i;
    slot.dirty = 0;
    slot.written = false;  // a fill brings memory's data, which holds what the store wrote
    slot.reserved = reserve;
    if (!reserve) {
      slot.valid = true;
      copy_chunk(data_of(set, way), i, e.data, i, nullptr);
    }
  });
  sync_tags(set, way);
  replacement_->on_hit(set, way, AccessInfo{e.hpc, ages_.relative_age(e.awid)});
  for_each_sector(sectors, [&](uint32_t i) { line.promote_slot(i); });
}

void L1::take_sector_line(uint32_t set, uint32_t way, uint64_t common_tag, uint32_t chunk_tag, SectorMask sectors,
                          const MshrEntry& e, bool reserve) {
  // A whole-line placement of no slots: evicts the line, sets the common-tag, line fields, on_fill.
  take_placement(set, Placement{way, 0, true}, 0, 0, chunk_tag, common_tag, e);
  CacheLine& line = sets_[set][way];
  for_each_sector(sectors, [&](uint32_t i) {
    Slot& slot = line.slot[i];
    slot.chunk_tag = (chunk_tag & ~3u) | i;
    slot.reserved = reserve;
    if (!reserve) {
      slot.valid = true;
      copy_chunk(data_of(set, way), i, e.data, i, nullptr);
    }
    line.promote_slot(i);
  });
  sync_tags(set, way);
}

// ---------------------------------------------------------------------------------------
// S1

L1::S1Result L1::sector_load(const CoreReq& req, const DecodedAddr& d) {
  const SectorMask needed = sectors_of(req.byte_mask);
  const Addr line_addr = req.addr & ~Addr{kLineBytes - 1};
  const SectorLine held = sector_line(d.set, d.common_tag, d.chunk_tag, line_addr);
  if (held.way && (needed & ~held.valid) == 0) return load_hit(req, d.set, *held.way, needed);

  const auto present = static_cast<SectorMask>(needed & held.valid);  // answered from the buffer
  const auto missing = static_cast<SectorMask>(needed & ~held.valid);
  const bool line_held = held.way.has_value();
  if (cfg_.l1.mshr_merge != MshrMerge::kStall) {
    if (const std::optional<uint32_t> id = mshr_.find_line(line_addr))
      return sector_merge(req, d, *id, held, needed);
  } else {
    const MshrProbeResult probe = mshr_.probe_load(line_addr, missing, missing);
    if (probe.kind == MshrProbe::kMergeFull) return fail(ResFail::kMergeFull), S1Result{};
    if (probe.kind == MshrProbe::kConflict) return fail(ResFail::kConflict), S1Result{};
    if (probe.kind == MshrProbe::kMerge) {
      MshrEntry& e = mshr_.entry(probe.entry);
      if (present) buffer_sectors(e, d.set, *held.way, present);
      e.requests.push_back({req.id, req.warp, req.byte_mask});
      replacement_->on_access(d.set);
      ++counters_.merges;
      counters_.pending_hits += e.reserved;
      count_request(req, false, present != 0, line_held);
      count_sectors(req.op, present, missing, 0, 0);
      return {true, false};
    }
  }

  // A new entry fetching `missing`. With allocation on_miss an allocating load reserves the
  // missing slots of the way holding the line, or a whole line when none holds it.
  BypassReason bypass = bypass_decision(req);
  const bool wants_line = bypass == BypassReason::kNone ||
                          (bypass == BypassReason::kPcal && cfg_.policy.pcal.opportunistic);
  std::optional<Placement> place;
  if (cfg_.l1.allocation == AllocationPolicy::kOnMiss && wants_line) {
    if (line_held) {
      place = Placement{*held.way, 0, false};
    } else {
      place = choose_placement(d.set, d.common_tag, kSlotsPerLine, bypass == BypassReason::kPcal, nullptr);
      if (place && cfg_.policy.bypass == BypassKind::kAgeLru &&
          agelru_bypasses(sets_[d.set][place->way], *place, kSlotsPerLine, req.awid, nullptr)) {
        place.reset();
        bypass = BypassReason::kAgeLru;
      }
      if (!place && bypass == BypassReason::kNone) return fail(ResFail::kLineAlloc), S1Result{};
    }
  }
  const std::optional<uint32_t> id = mshr_.free_entry();
  if (!id) return fail(ResFail::kMshrFull), S1Result{};
  const uint32_t dirty = place && place->whole_line ? placement_dirty(d.set, *place, kSlotsPerLine, nullptr) : 0;
  if (!has_room(dirty + 1)) return fail(ResFail::kMissQueueFull), S1Result{};

  MshrEntry& e = open_entry(*id, line_addr, missing, bypass, req);
  if (present) buffer_sectors(e, d.set, *held.way, present);
  replacement_->on_access(d.set);
  replacement_->on_miss(d.set, access_info(req));
  if (place) {
    if (place->whole_line)
      take_sector_line(d.set, place->way, d.common_tag, d.chunk_tag, missing, e, /*reserve=*/true);
    else
      add_sectors(d.set, place->way, d.chunk_tag, missing, e, /*reserve=*/true);
    e.reserved = true;
    e.reserved_way = place->way;
    e.reserved_pos = 0;
  }
  queue_read(line_addr, missing, bypass != BypassReason::kNone, bypass == BypassReason::kAgcb, *id);
  counters_.bypasses += bypass != BypassReason::kNone;
  count_request(req, false, present != 0, line_held);
  // Accel-Sim counts per sector: when the miss reserves a new line, its first sector allocated the
  // tag and the request's later sectors find it (SECTOR_MISS); otherwise a missing sector of a
  // line no way holds is a MISS.
  const auto first = static_cast<SectorMask>(missing & (~missing + 1));
  const SectorMask line_miss = line_held ? 0 : place ? first : missing;
  count_sectors(req.op, present, 0, static_cast<SectorMask>(missing & ~line_miss), line_miss);
  return {true, false};
}

// l1.mshr_merge block / sector: the line's one entry takes the load; the sectors it neither
// fetches nor buffers are fetched by a widening read (placed by the fill under `sector`).
L1::S1Result L1::sector_merge(const CoreReq& req, const DecodedAddr& d, uint32_t id, const SectorLine& held,
                              SectorMask needed) {
  MshrEntry& e = mshr_.entry(id);
  if (e.requests.size() >= mshr_.max_merge()) return fail(ResFail::kMergeFull), S1Result{};
  const auto present = static_cast<SectorMask>(needed & held.valid);
  const auto covered = static_cast<SectorMask>(needed & ~held.valid & (e.sectors | e.buffered));
  const auto widen = static_cast<SectorMask>(needed & ~held.valid & ~(e.sectors | e.buffered));
  if (widen) {
    // Its data is in and the fill unit answers it soon: wait rather than reopen it.
    if (e.filled) return fail(ResFail::kConflict), S1Result{};
    if (!has_room(1)) return fail(ResFail::kMissQueueFull), S1Result{};
    const bool placed = cfg_.l1.mshr_merge == MshrMerge::kSector;
    // Only the entry's first read carries the AGCB bit; unplaced sectors only answer the loads.
    queue_read(e.line_addr, widen, placed ? e.bypass != BypassReason::kNone : true, /*agcb_bypass=*/false, id);
    ++counters_.widening_reads;
    e.sectors = static_cast<SectorMask>(e.sectors | widen);
    ++e.reads;
    if (placed) {
      e.place = static_cast<SectorMask>(e.place | widen);
      if (e.reserved) add_sectors(d.set, e.reserved_way, d.chunk_tag, widen, e, /*reserve=*/true);
    }
  }
  const auto fresh = static_cast<SectorMask>(present & ~e.buffered);
  if (fresh) buffer_sectors(e, d.set, *held.way, fresh);
  e.requests.push_back({req.id, req.warp, req.byte_mask});
  replacement_->on_access(d.set);
  ++counters_.merges;
  counters_.pending_hits += e.reserved;
  const bool line_held = held.way.has_value();
  count_request(req, false, present != 0, line_held);
  count_sectors(req.op, present, covered, line_held ? widen : 0, line_held ? 0 : widen);
  return {true, false};
}

L1::S1Result L1::sector_store(const CoreReq& req, const DecodedAddr& d) {
  const MemReq wr = store_request(req);
  const SectorMask needed = wr.sectors;
  if (mshr_.store_conflicts(wr.line_addr, needed)) return fail(ResFail::kConflict), S1Result{};
  const SectorLine held = sector_line(d.set, d.common_tag, d.chunk_tag, wr.line_addr);
  if (cfg_.l1.write_allocate == WriteAllocate::kLazyFetchOnRead) return store_allocate(req, d, held, wr);
  if (held.way && (needed & ~held.valid) == 0) return store_hit(req, d.set, *held.way, needed, 1, wr);

  // A miss: the valid sectors it writes are invalidated (dirty ones written back first).
  const auto present = static_cast<SectorMask>(needed & held.valid);
  WaySlotMasks copies{};
  if (present) copies[*held.way] = present;
  if (!has_room(count_dirty(copies, d.set) + 1)) return fail(ResFail::kMissQueueFull), S1Result{};
  invalidate_copies(copies, d.set);
  replacement_->on_access(d.set);
  miss_queue_.push_back(wr);
  ++counters_.mem_writes;
  const bool line_held = held.way.has_value();
  const auto missing = static_cast<SectorMask>(needed & ~held.valid);
  count_request(req, false, present != 0, line_held);
  count_sectors(req.op, present, 0, line_held ? missing : 0, line_held ? 0 : missing);
  next_resp_ = CoreResp{req.id, req.warp, Outcome::kStoreAck, {}};
  return {true, true};
}

// l1.write_allocate lazy_fetch_on_read (GPGPU-Sim 4.x's wr_miss_wa_lazy_fetch_on_read): the store
// goes to memory (write-through) and its line is allocated without a fetch. Valid sectors take its
// bytes; a sector it writes whole becomes valid; one it writes in part stays invalid, so the next
// read of it misses and fetches it (its bytes are in memory by then: one in-order path per line).
L1::S1Result L1::store_allocate(const CoreReq& req, const DecodedAddr& d, const SectorLine& held, const MemReq& wr) {
  std::optional<uint32_t> way = held.way;
  bool new_line = false;
  if (!way) {
    // Every way reserved: the store goes to memory without allocating.
    if (const std::optional<Placement> p = choose_placement(d.set, d.common_tag, kSlotsPerLine, false, nullptr)) {
      way = p->way;
      new_line = true;
    }
  }
  // Write-through keeps no dirty slot, so an evicted line writes nothing back.
  if (!has_room(1)) return fail(ResFail::kMissQueueFull), S1Result{};
  const SectorMask needed = wr.sectors;
  // A store hits a sector that is valid or that a store already allocated (GPGPU-Sim: MODIFIED).
  const auto present = static_cast<SectorMask>(needed & (held.valid | held.written));
  const auto missing = static_cast<SectorMask>(needed & ~present);
  replacement_->on_access(d.set);
  if (way) {
    if (new_line) {
      MshrEntry owner;  // the line fields a fill of this store's request would set
      owner.hpc = agcb_.hash(req.pc);
      owner.awid = req.awid;
      owner.token = req.token;
      take_placement(d.set, Placement{*way, 0, true}, 0, 0, d.chunk_tag, d.common_tag, owner);
    } else {
      replacement_->on_hit(d.set, *way, access_info(req));
    }
    CacheLine& line = sets_[d.set][*way];
    const MaskWords bytes = words_of(req.byte_mask);
    for_each_sector(needed, [&](uint32_t i) {
      Slot& slot = line.slot[i];
      const bool whole = ((bytes.w[i / 2] >> (i % 2 * kChunkBytes)) & 0xFFFFFFFFull) == 0xFFFFFFFFull;
      if (slot.reserved)  // an entry fetching it makes the store wait (store_conflicts)
        throw std::logic_error(fmt::format("L1: store allocation into reserved set {} way {} sector {}", d.set, *way, i));
      slot.chunk_tag = (d.chunk_tag & ~3u) | i;
      if (!slot.valid && !whole) {  // allocated, not readable: the next read fetches it
        slot.written = true;
        return;
      }
      if (!slot.valid) {
        slot.valid = true;
        slot.dirty = 0;
        slot.written = false;
      }
      const ByteMask sector_mask = req.byte_mask & (ByteMask{0xFFFFFFFFull} << (i * kChunkBytes));
      copy_chunk(data_of(d.set, *way), i, req.data, i, &sector_mask);
      line.promote_slot(i);
    });
    sync_tags(d.set, *way);
  }
  miss_queue_.push_back(wr);
  ++counters_.mem_writes;
  if (missing == 0) {
    count_completion(req, true, false);
    next_resp_ = CoreResp{req.id, req.warp, Outcome::kStoreAck, {}};
    return {true, true};
  }
  count_request(req, false, present != 0, held.way.has_value());
  // Accel-Sim counts per sector: the first sector of a line miss allocates the line, the
  // request's later sectors find its tag (SECTOR_MISS).
  const auto first = static_cast<SectorMask>(missing & (~missing + 1));
  const SectorMask line_miss = held.way ? 0 : new_line ? first : missing;
  count_sectors(req.op, present, 0, static_cast<SectorMask>(missing & ~line_miss), line_miss);
  next_resp_ = CoreResp{req.id, req.warp, Outcome::kStoreAck, {}};
  return {true, true};
}

// ---------------------------------------------------------------------------------------
// Fill unit

// The entry allocates (place_fill's decision): its sectors go into the way holding the line, or
// into a whole line chosen as section 6 step 2. Returns false while the victim's write-backs wait.
bool L1::place_sector_fill(MshrEntry& e, bool pcal_opportunistic) {
  const DecodedAddr d = split_.decode(e.line_addr);
  if (const SectorLine held = sector_line(d.set, d.common_tag, d.chunk_tag, e.line_addr); held.way) {
    add_sectors(d.set, *held.way, d.chunk_tag, e.place, e, /*reserve=*/false);
  } else {
    const std::optional<Placement> p =
        choose_placement(d.set, d.common_tag, kSlotsPerLine, pcal_opportunistic, nullptr);
    if (!p) return true;  // opportunistic caching (or every way reserved) found no line: bypass
    if (cfg_.policy.bypass == BypassKind::kAgeLru &&
        agelru_bypasses(sets_[d.set][p->way], *p, kSlotsPerLine, e.awid, nullptr))
      return true;
    if (!has_room(placement_dirty(d.set, *p, kSlotsPerLine, nullptr))) return false;
    take_sector_line(d.set, p->way, d.common_tag, d.chunk_tag, e.place, e, /*reserve=*/false);
  }
  fill_allocated_ = true;
  ++counters_.fills_allocated;
  return true;
}

void L1::complete_reserved_sectors(MshrEntry& e) {
  const DecodedAddr d = split_.decode(e.line_addr);
  CacheLine& line = sets_[d.set][e.reserved_way];
  for_each_sector(e.place, [&](uint32_t i) {
    Slot& slot = line.slot[i];
    slot.reserved = false;
    slot.valid = true;
    copy_chunk(data_of(d.set, e.reserved_way), i, e.data, i, nullptr);
  });
  sync_tags(d.set, e.reserved_way);
  fill_allocated_ = true;
  ++counters_.fills_allocated;
}

}  // namespace l1d::golden
