// One L2 bank (l2_bank.h).
#include "sim_cpp/mem/l2_bank.h"

#include <sstream>
#include <stdexcept>

#include "golden/agcb_predictor.h"

namespace l1d::sim {

L2Bank::L2Bank(const MemParams& p, const AddressMap& map, FunctionalMemory& image, MemorySystemStats* stats)
    : p_(p),
      map_(map),
      image_(image),
      stats_(stats),
      tags_(p.l2_sets, p.l2_ways),
      slots_(p.l2_read_slots),
      slot_need_(p.l2_read_slots, 0),
      slot_next_(p.l2_read_slots, kNil),
      mshrs_(p.l2_mshrs),
      mshr_index_(p.l2_mshrs),
      hit_pipe_(p.l2_read_slots),
      fill_pipe_(p.l2_read_slots),
      dram_out_(p.l2_dram_out * 2) {
  if (p.l2_read_slots == 0 || p.l2_mshrs == 0 || p.l2_sets == 0 || p.l2_ways == 0)
    throw std::invalid_argument("L2Bank: sizes must be positive");
  free_slots_.reserve(p.l2_read_slots);
  for (uint32_t i = p.l2_read_slots; i-- > 0;) free_slots_.push_back(i);
  free_mshrs_.reserve(p.l2_mshrs);
  for (uint32_t i = p.l2_mshrs; i-- > 0;) free_mshrs_.push_back(i);
  active_mshrs_.reserve(p.l2_mshrs);
}

bool L2Bank::holds(Addr line_addr, SectorMask* valid, SectorMask* dirty) const {
  const size_t way = tags_.find(set_of(line_addr), line_addr);
  if (way == L2TagArray::kNone) return false;
  if (valid) *valid = tags_.valid(way);
  if (dirty) *dirty = tags_.dirty(way);
  return true;
}

size_t L2Bank::allocate(uint32_t set, Addr line_addr, uint64_t now) {
  const size_t victim = tags_.victim(set);
  if (tags_.valid(victim) != 0 && tags_.dirty(victim) != 0) {
    // Write-back of the dirty sectors. It queues behind the bank's other DRAM-bound requests
    // (same tag-stage delay, so the queue stays in time order).
    TimedDram& t = dram_out_.emplace_slot();
    t.ready = now + p_.l2_tag_latency;
    t.req = DramRequest{map_.channel_line(tags_.line(victim)), tags_.dirty(victim), true, 0};
  }
  tags_.assign(victim, line_addr);
  return victim;
}

int32_t L2Bank::find_mshr(Addr line_addr) const {
  const uint32_t i = mshr_index_.find(line_addr);
  return i == LineTable::kNone ? -1 : static_cast<int32_t>(i);
}

bool L2Bank::accept(const ReqPacket& pk, uint64_t now, ReqTimes times) {
  const MemReq& r = pk.req;
  const Addr line_addr = r.line_addr & ~Addr{kLineBytes - 1};
  const uint32_t set = set_of(line_addr);

  if (r.op == MemOp::kStore) {
    if (dram_out_.size() >= p_.l2_dram_out) return false;  // may need a write-back
    image_.apply_write(r);
    const SectorMask ws = sectors_of_mask(r.byte_mask);
    if (ws == 0) return true;
    size_t way = tags_.find(set, line_addr);
    if (way == L2TagArray::kNone) way = allocate(set, line_addr, now);
    tags_.add_valid(way, ws);
    tags_.add_dirty(way, ws);
    touch(way);
    return true;
  }

  // Read: check every resource first, so that a refusal changes nothing.
  if (free_slots_.empty()) return false;
  const size_t way = tags_.find(set, line_addr);
  const bool held = way != L2TagArray::kNone;
  const SectorMask want = static_cast<SectorMask>(r.sectors & 0xF);
  const SectorMask missing = static_cast<SectorMask>(want & ~(held ? tags_.valid(way) : 0));
  int32_t m = -1;
  SectorMask fetch = 0;
  if (missing != 0) {
    m = find_mshr(line_addr);
    if (m < 0 && free_mshrs_.empty()) return false;
    // l2.fetch: sector fetches the sectors the read misses; line fetches every sector of the
    // line that is not valid (GPGPU-Sim 3.x's line L2), so the fill leaves the whole line valid.
    const SectorMask absent = p_.l2_fetch_line ? static_cast<SectorMask>(0xF & ~(held ? tags_.valid(way) : 0)) : missing;
    fetch = static_cast<SectorMask>(absent & ~(m >= 0 ? mshrs_[static_cast<uint32_t>(m)].pending : 0));
    if (fetch != 0 && dram_out_.size() >= p_.l2_dram_out) return false;
  }

  // Functional effect.
  const uint32_t slot = free_slots_.back();
  free_slots_.pop_back();
  RespPacket& out = slots_[slot];
  out.sm = pk.sm;
  out.accepted = pk.accepted;
  out.sectors = want;
  out.resp.mshr = r.mshr;
  out.resp.ldst_id = r.ldst_id;
  out.resp.data = image_.read_sectors(line_addr, want);
  out.resp.sectors = want;
  out.resp.l2_bypass_bit = false;
  out.req_grant = times.grant;
  out.req_arrive = times.arrive;
  out.l2_accept = now;
  out.l2_hit = missing == 0;
  if (r.agcb_bypass && p_.l2_agcb_verify) {
    bool bit = bypass_bits_.count(line_addr) != 0;
    out.resp.l2_bypass_bit = golden::l2_bypass_override(bit);
    if (bit) bypass_bits_.insert(line_addr); else bypass_bits_.erase(line_addr);
    if (out.resp.l2_bypass_bit && stats_) ++stats_->l2_bypass_overrides;
  }

  // Timing.
  if (held) touch(way);
  if (missing == 0) {
    if (stats_) ++stats_->l2_hits;
    hit_pipe_.push_back(Timed{now + p_.l2_hit_latency, slot});
    out.l2_ready = now + p_.l2_hit_latency;
    return true;
  }
  if (stats_) ++stats_->l2_misses;
  if (m < 0) {
    m = static_cast<int32_t>(free_mshrs_.back());
    free_mshrs_.pop_back();
    Mshr& e = mshrs_[static_cast<uint32_t>(m)];
    e.line_addr = line_addr;
    e.pending = 0;
    e.head = e.tail = kNil;
    e.pos = static_cast<uint32_t>(active_mshrs_.size());
    active_mshrs_.push_back(static_cast<uint32_t>(m));
    mshr_index_.insert(line_addr, static_cast<uint32_t>(m));
  }
  Mshr& e = mshrs_[static_cast<uint32_t>(m)];
  if (fetch != 0) {
    e.pending = static_cast<SectorMask>(e.pending | fetch);
    TimedDram& t = dram_out_.emplace_slot();
    t.ready = now + p_.l2_tag_latency;
    t.req = DramRequest{map_.channel_line(line_addr), fetch, false, static_cast<uint32_t>(m)};
  }
  slot_need_[slot] = missing;
  slot_next_[slot] = kNil;
  if (e.tail == kNil) e.head = slot; else slot_next_[e.tail] = slot;
  e.tail = slot;
  return true;
}

void L2Bank::preload(Addr line_addr, SectorMask sectors) {
  const uint32_t set = set_of(line_addr);
  size_t way = tags_.find(set, line_addr);
  if (way == L2TagArray::kNone) {  // the victim without its write-back (untimed)
    way = tags_.victim(set);
    tags_.assign(way, line_addr);
  }
  tags_.add_valid(way, sectors);
  tags_.add_dirty(way, sectors);
  touch(way);
}

void L2Bank::fill(const DramRequest& d, uint64_t now) {
  if (d.write || d.tag >= mshrs_.size()) throw std::logic_error("L2Bank::fill: not a fetch");
  Mshr& e = mshrs_[d.tag];
  const uint32_t set = set_of(e.line_addr);
  size_t way = tags_.find(set, e.line_addr);
  if (way == L2TagArray::kNone) way = allocate(set, e.line_addr, now);
  tags_.add_valid(way, d.sectors);
  touch(way);

  e.pending = static_cast<SectorMask>(e.pending & ~d.sectors);
  uint32_t prev = kNil;
  for (uint32_t s = e.head; s != kNil;) {
    const uint32_t next = slot_next_[s];
    if ((slot_need_[s] & e.pending) == 0) {
      if (prev == kNil) e.head = next; else slot_next_[prev] = next;
      if (e.tail == s) e.tail = prev;
      fill_pipe_.push_back(Timed{now + p_.l2_fill_latency, s});
      slots_[s].l2_ready = now + p_.l2_fill_latency;
    } else {
      prev = s;
    }
    s = next;
  }
  if (e.pending == 0) {
    if (e.head != kNil) throw std::logic_error("L2Bank::fill: reads left waiting on a finished fetch");
    // Remove from the active list (swap with the last).
    const uint32_t idx = d.tag;
    const uint32_t last = active_mshrs_.back();
    active_mshrs_[e.pos] = last;
    mshrs_[last].pos = e.pos;
    active_mshrs_.pop_back();
    free_mshrs_.push_back(idx);
    mshr_index_.erase(e.line_addr);
  }
}

const RespPacket* L2Bank::response(uint64_t now) const {
  const bool h = !hit_pipe_.empty() && hit_pipe_.front().ready <= now;
  const bool f = !fill_pipe_.empty() && fill_pipe_.front().ready <= now;
  if (h && (!f || hit_pipe_.front().ready <= fill_pipe_.front().ready)) return &slots_[hit_pipe_.front().slot];
  if (f) return &slots_[fill_pipe_.front().slot];
  return nullptr;
}

void L2Bank::pop_response() {
  // Same choice as response(); the caller pops only what response() returned, which was ready.
  const bool h = !hit_pipe_.empty();
  const bool f = !fill_pipe_.empty();
  uint32_t slot;
  if (h && (!f || hit_pipe_.front().ready <= fill_pipe_.front().ready)) {
    slot = hit_pipe_.front().slot;
    hit_pipe_.pop_front();
  } else {
    slot = fill_pipe_.front().slot;
    fill_pipe_.pop_front();
  }
  free_slots_.push_back(slot);
}

std::string L2Bank::describe() const {
  std::ostringstream os;
  size_t waiting = 0;
  for (uint32_t i : active_mshrs_)
    for (uint32_t s = mshrs_[i].head; s != kNil; s = slot_next_[s]) ++waiting;
  os << "reads held " << reads_held() << "/" << slots_.size() << " (hit pipe " << hit_pipe_.size()
     << ", waiting on DRAM " << waiting << ", fill pipe " << fill_pipe_.size() << "), mshr "
     << active_mshrs_.size() << "/" << mshrs_.size() << ", to DRAM " << dram_out_.size() << "/" << p_.l2_dram_out;
  if (!active_mshrs_.empty()) {
    const Mshr& e = mshrs_[active_mshrs_.front()];
    os << ", e.g. fetch line 0x" << std::hex << e.line_addr << std::dec << " pending sectors 0x" << std::hex
       << unsigned{e.pending} << std::dec;
  }
  return os.str();
}

}  // namespace l1d::sim
