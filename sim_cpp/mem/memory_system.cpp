// The memory system below the L1s (memory_system.h): request NoC -> L2 bank -> DRAM channel
// -> L2 bank -> response NoC. One memory partition = l2.slices_per_partition L2 banks (slices,
// each with its own request and response NoC port) + one DRAM channel they share.
//
// Blocks (one job each): Network (noc.h), L2Bank (l2_bank.h), DramChannel (dram_channel.h),
// AddressMap (address_map.h); parameters and calibration in mem_params.h.
//
// Per core cycle (tick), for every partition with work due (one that waits, e.g. for DRAM, is
// not ticked before its next event: tick_partitions): DRAM data that has arrived fills its
// L2 slice; one DRAM-bound request leaves a slice for the channel queue (round robin over the
// slices with one ready); the channel issues its commands; then per slice: one ready response
// enters the response network and the slice accepts one request that has arrived from the
// request network. Then both networks arbitrate and transfer.
// SMs call request()/response() before tick() in a cycle; a response is usable in the cycle
// its packet arrives.
#include "sim_cpp/mem/memory_system.h"

#include <algorithm>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "sim_cpp/mem/address_map.h"
#include "sim_cpp/mem/dram_channel.h"
#include "sim_cpp/mem/l2_bank.h"
#include "sim_cpp/mem/mem_packets.h"
#include "sim_cpp/mem/mem_params.h"
#include "sim_cpp/mem/noc.h"

namespace l1d::sim {

struct MemorySystem::Impl {
  // Both networks get the preset's router (GPGPU-Sim builds its two subnets from one .icnt).
  static NocRouter router(const MemParams& q) {
    return {q.noc_islip, q.noc_vcs, q.noc_input_speedup, q.noc_internal_speedup};
  }
  Impl(const Config& cfg, FunctionalMemory& img)
      : p(derive_mem_params(cfg)),
        map(p.partitions, p.dram_banks, p.dram_lines_per_row, p.slices),
        image(img),
        req_net(p.sms, p.l2_banks(), p.noc_latency, p.noc_flits_per_cycle, p.noc_src_buffer, p.noc_dst_buffer,
                router(p)),
        resp_net(p.l2_banks(), p.sms, p.noc_latency, p.noc_flits_per_cycle, p.noc_src_buffer, p.noc_dst_buffer,
                 router(p)),
        last_response(p.sms, ~uint64_t{0}),
        head_refused(p.l2_banks(), false),
        dram_rr(p.partitions, 0),
        is_active(p.partitions, false),
        wake_at(p.partitions, 0) {
    active.reserve(p.partitions);
    banks.reserve(p.l2_banks());
    channels.reserve(p.partitions);
    for (uint32_t b = 0; b < p.l2_banks(); ++b) banks.push_back(std::make_unique<L2Bank>(p, map, image, &stats));
    for (uint32_t i = 0; i < p.partitions; ++i) channels.push_back(std::make_unique<DramChannel>(p, map, &stats));
  }

  void check_sm(uint32_t sm) const {
    if (sm >= p.sms) throw std::out_of_range("MemorySystem: SM " + std::to_string(sm) + " out of range");
  }

  void tick_partition(uint32_t i) {
    DramChannel& dram = *channels[i];
    const uint32_t first = i * p.slices;
    if (const DramRequest* d = dram.completed(now)) {
      const uint32_t b = first + map.slice_of(d->channel_line);
      banks[b]->fill(*d, now);
      dram.pop_completed();
      head_refused[b] = false;
    }
    if (dram.can_accept()) {
      for (uint32_t k = 0; k < p.slices; ++k) {
        // (dram_rr[i] + k) % slices without a division (both are below slices)
        const uint32_t s = dram_rr[i] + k >= p.slices ? dram_rr[i] + k - p.slices : dram_rr[i] + k, b = first + s;
        if (const DramRequest* o = banks[b]->dram_out(now)) {
          dram.enqueue(*o, now);
          banks[b]->pop_dram_out();
          head_refused[b] = false;
          dram_rr[i] = s + 1 == p.slices ? 0 : s + 1;
          break;
        }
      }
    }
    dram.tick(now);
    for (uint32_t b = first; b < first + p.slices; ++b) tick_slice(b);
  }

  void tick_slice(uint32_t b) {
    L2Bank& bank = *banks[b];
    if (const RespPacket* r = bank.response(now); r && resp_net.can_inject(b)) {
      const uint32_t flits = response_flits(r->sectors, p.flit_bytes, p.header_bytes);
      resp_net.inject(b, r->sm, flits, now, *r);
      stats.noc_response_flits += flits;
      bank.pop_response();
      head_refused[b] = false;
    }
    // The bank refuses a request only for want of a read slot, an MSHR or DRAM-queue room,
    // which only a fill, a DRAM-bound request leaving or a response leaving release: a refused
    // head is retried after one of them.
    if (head_refused[b]) return;
    if (const auto* pk = req_net.peek(b, now)) {
      if (bank.accept(pk->payload, now, ReqTimes{pk->grant, pk->arrive})) {
        stats.noc_latency_sum += pk->arrive - pk->inject;
        ++stats.noc_packets;
        req_net.pop(b);
      } else {
        head_refused[b] = true;
      }
    }
  }

  // The first cycle after `now` in which partition i's tick may do anything, from its own state
  // only (never later than the true one; earlier is harmless): a DRAM completion or command
  // (DramChannel::next_event), a response or a DRAM-bound request ready (whether or not the
  // response network or the channel queue has room: conservative), a request's arrival at a
  // slice whose head was not refused. A grant to one of its slices wakes it (tick_networks).
  // Stops at the first event due next cycle (a busy partition, as on the traces, pays little).
  uint64_t partition_wake(uint32_t i) const {
    const uint64_t next = now + 1;
    uint64_t at = channels[i]->next_event(next);  // never below next
    for (uint32_t b = i * p.slices; b < (i + 1) * p.slices && at > next; ++b) {
      const L2Bank& bank = *banks[b];
      at = std::min(at, std::min(bank.next_response(), bank.next_dram_out()));
      if (!head_refused[b]) at = std::min(at, req_net.head_arrival(b));
    }
    return at;
  }

  bool partition_idle(uint32_t i) const {
    if (!channels[i]->idle()) return false;
    for (uint32_t b = i * p.slices; b < (i + 1) * p.slices; ++b)
      if (!banks[b]->idle() || req_net.dest_occupancy(b) != 0) return false;
    return true;
  }

  MemParams p;
  AddressMap map;
  FunctionalMemory& image;
  MemorySystemStats stats;
  Network<ReqPacket> req_net;
  Network<RespPacket> resp_net;
  std::vector<std::unique_ptr<L2Bank>> banks;
  std::vector<std::unique_ptr<DramChannel>> channels;
  std::vector<uint64_t> last_response;  // cycle of the SM's last response (one per cycle)
  std::vector<bool> head_refused;       // per slice: it refused its input's head; nothing freed since
  std::vector<uint32_t> dram_rr;        // per partition: the slice whose DRAM-bound request goes first
  std::vector<bool> is_active;          // partition has work (in `active`)
  std::vector<uint32_t> active;
  // Per partition: tick_partitions skips it before this cycle (partition_wake; 0: tick it).
  std::vector<uint64_t> wake_at;
  uint64_t now = 0;
};

MemorySystem::MemorySystem(const Config& cfg, FunctionalMemory& image)
    : impl_(std::make_unique<Impl>(cfg, image)) {}

MemorySystem::~MemorySystem() = default;

bool MemorySystem::request_ready(uint32_t sm) const {
  impl_->check_sm(sm);
  return impl_->req_net.can_inject(sm);
}

uint32_t MemorySystem::request_room(uint32_t sm, uint32_t cap) const {
  impl_->check_sm(sm);
  const auto& n = impl_->req_net;
  const size_t free = n.source_capacity() - std::min<size_t>(n.source_capacity(), n.source_occupancy(sm));
  return static_cast<uint32_t>(std::min<size_t>(free, cap));
}

uint32_t MemorySystem::peek_port(uint32_t sm, uint32_t cap, const MemResp*& resp) const {
  const Impl& m = *impl_;
  m.check_sm(sm);
  const auto* pk = m.last_response[sm] == m.now ? nullptr : m.resp_net.peek(sm, m.now);
  resp = pk == nullptr ? nullptr : &pk->payload.resp;
  const auto& n = m.req_net;
  const size_t free = n.source_capacity() - std::min<size_t>(n.source_capacity(), n.source_occupancy(sm));
  return static_cast<uint32_t>(std::min<size_t>(free, cap));
}

void MemorySystem::request(uint32_t sm, const MemReq& r) {
  Impl& m = *impl_;
  m.check_sm(sm);
  if (!m.req_net.can_inject(sm)) throw std::logic_error("MemorySystem::request while !request_ready");
  ReqPacket pk;
  pk.req = r;
  pk.req.line_addr = r.line_addr & ~Addr{kLineBytes - 1};
  pk.sm = sm;
  pk.accepted = m.now;
  const uint32_t flits = request_flits(r, m.p.flit_bytes, m.p.header_bytes);
  m.req_net.inject(sm, m.map.bank(pk.req.line_addr), flits, m.now, pk);
  ++m.stats.requests;
  if (r.op == MemOp::kStore) ++m.stats.writes; else ++m.stats.reads;
  m.stats.noc_request_flits += flits;
}

std::optional<MemResp> MemorySystem::response(uint32_t sm) {
  const MemResp* r = peek_response(sm);
  if (r == nullptr) return std::nullopt;
  MemResp out = *r;
  take_response(sm);
  return out;
}

const MemResp* MemorySystem::peek_response(uint32_t sm) const {
  const Impl& m = *impl_;
  m.check_sm(sm);
  if (m.last_response[sm] == m.now) return nullptr;
  const auto* pk = m.resp_net.peek(sm, m.now);
  return pk == nullptr ? nullptr : &pk->payload.resp;
}

uint64_t MemorySystem::response_arrival(uint32_t sm) const {
  const Impl& m = *impl_;
  m.check_sm(sm);
  // One response a cycle: after a take in this cycle the head is usable in the next at the earliest.
  const uint64_t after_take = m.last_response[sm] == ~uint64_t{0} ? 0 : m.last_response[sm] + 1;
  return std::max({m.resp_net.head_arrival(sm), after_take, m.now});
}

const std::vector<uint32_t>& MemorySystem::response_grants() const { return impl_->resp_net.granted(); }

const std::vector<uint32_t>& MemorySystem::request_room_freed() const { return impl_->req_net.freed_sources(); }

void MemorySystem::take_response(uint32_t sm) {
  Impl& m = *impl_;
  m.check_sm(sm);
  const auto* pk = m.resp_net.peek(sm, m.now);
  if (pk == nullptr || m.last_response[sm] == m.now) throw std::logic_error("MemorySystem::take_response without a response");
  m.stats.round_trip_sum += m.now - pk->payload.accepted;
  ++m.stats.round_trips;
  const RespPacket& r = pk->payload;
  MemorySystemStats::RoundTripParts& t = m.stats.round_trip_parts;
  t.req_queue += r.req_grant - r.accepted;
  t.req_network += r.req_arrive - r.req_grant;
  t.l2_input += r.l2_accept - r.req_arrive;
  (r.l2_hit ? t.l2_hit : t.l2_miss) += r.l2_ready - r.l2_accept;
  ++(r.l2_hit ? t.hit_reads : t.miss_reads);
  t.l2_output += pk->inject - r.l2_ready;
  t.resp_queue += pk->grant - pk->inject;
  t.resp_network += pk->arrive - pk->grant;
  t.sm_eject += m.now - pk->arrive;
  m.resp_net.pop(sm);
  m.last_response[sm] = m.now;
}

void MemorySystem::tick() {
  tick_partitions();
  tick_networks();
}

void MemorySystem::tick_partitions() {
  Impl& m = *impl_;
  // Only partitions with work are visited; one becomes active when the request network grants
  // it a packet, and leaves the list when its bank, channel and input are empty. An active
  // partition whose next event (partition_wake) is later is not ticked until then: its tick
  // would change nothing (DRAM credit is earned from elapsed time, as for cycle skipping).
  for (size_t k = 0; k < m.active.size();) {
    const uint32_t i = m.active[k];
    if (m.now < m.wake_at[i]) {
      ++k;
      continue;
    }
    m.tick_partition(i);
    if (m.partition_idle(i)) {
      m.is_active[i] = false;
      m.active[k] = m.active.back();
      m.active.pop_back();
    } else {
      m.wake_at[i] = m.partition_wake(i);
      ++k;
    }
  }
}

void MemorySystem::tick_networks() {
  Impl& m = *impl_;
  m.req_net.tick(m.now);
  for (uint32_t d : m.req_net.granted()) {
    const uint32_t i = d / m.p.slices;
    m.wake_at[i] = 0;  // a packet on its way to one of its slices: partition_wake sees its arrival
    if (!m.is_active[i]) {
      m.is_active[i] = true;
      m.active.push_back(i);
    }
  }
  m.resp_net.tick(m.now);
  ++m.now;
}

bool MemorySystem::idle() const {
  const Impl& m = *impl_;
  if (!m.req_net.idle() || !m.resp_net.idle()) return false;
  for (uint32_t i = 0; i < m.p.partitions; ++i)
    if (!m.partition_idle(i)) return false;
  return true;
}

uint64_t MemorySystem::next_event() const {
  const Impl& m = *impl_;
  const uint64_t now = m.now;
  uint64_t at = std::min(m.req_net.next_grant(now), m.resp_net.next_grant(now));
  // Responses reach the SMs when they arrive (Sm::mem_fetch / mem_peek read the port each cycle).
  if (m.resp_net.at_destinations())
    for (uint32_t sm = 0; sm < m.p.sms && at > now; ++sm) at = std::min(at, m.resp_net.head_arrival(sm));
  for (const uint32_t i : m.active) {
    if (at <= now) break;
    const DramChannel& dram = *m.channels[i];
    at = std::min(at, dram.next_event(now));
    for (uint32_t b = i * m.p.slices; b < (i + 1) * m.p.slices; ++b) {
      const L2Bank& bank = *m.banks[b];
      // A blocked output waits for an event counted here: a full response injection buffer for
      // a grant, a full DRAM queue for a command; a refused input head for a fill, a DRAM-bound
      // request leaving or a response leaving (tick_slice).
      if (m.resp_net.can_inject(b)) at = std::min(at, bank.next_response());
      if (dram.can_accept()) at = std::min(at, bank.next_dram_out());
      if (!m.head_refused[b]) at = std::min(at, m.req_net.head_arrival(b));
    }
  }
  return std::max(at, now);
}

void MemorySystem::skip(uint64_t n) { impl_->now += n; }

void MemorySystem::preload_l2(Addr addr, uint64_t bytes) {
  Impl& m = *impl_;
  if (!idle()) throw std::logic_error("MemorySystem::preload_l2 while requests are in flight");
  if (bytes == 0) return;
  const Addr last = addr + (bytes - 1);
  for (Addr line = addr & ~Addr{kLineBytes - 1};; line += kLineBytes) {
    // Sectors of this line that [addr, last] touches.
    const Addr lo = std::max(addr, line), hi = std::min(last, line + (kLineBytes - 1));
    const auto s0 = static_cast<uint32_t>((lo - line) / kChunkBytes), s1 = static_cast<uint32_t>((hi - line) / kChunkBytes);
    m.banks[m.map.bank(line)]->preload(line, static_cast<SectorMask>(((2u << s1) - 1) & ~((1u << s0) - 1)));
    if (last - line < kLineBytes) break;
  }
}

std::string MemorySystem::describe_state() const {
  const Impl& m = *impl_;
  std::ostringstream os;
  os << "memory system at cycle " << m.now << (idle() ? " (idle)" : "") << "\n";
  const auto list = [&](const char* what, uint32_t n, auto occupancy, uint32_t cap) {
    os << "  " << what << ":";
    size_t total = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const size_t o = occupancy(i);
      total += o;
      if (o) os << " [" << i << "] " << o << "/" << cap << (o >= cap ? " full" : "");
    }
    if (total == 0) os << " empty";
    os << "\n";
  };
  list("request NoC injection buffers (per SM)", m.p.sms,
       [&](uint32_t i) { return m.req_net.source_occupancy(i); }, m.req_net.source_capacity());
  list("request NoC in flight + ejection (per L2 slice)", m.p.l2_banks(),
       [&](uint32_t i) { return m.req_net.dest_occupancy(i); }, m.req_net.dest_capacity());
  list("response NoC injection buffers (per L2 slice)", m.p.l2_banks(),
       [&](uint32_t i) { return m.resp_net.source_occupancy(i); }, m.resp_net.source_capacity());
  list("response NoC in flight + ejection (per SM)", m.p.sms,
       [&](uint32_t i) { return m.resp_net.dest_occupancy(i); }, m.resp_net.dest_capacity());
  for (uint32_t i = 0; i < m.p.partitions; ++i) {
    if (m.partition_idle(i)) continue;
    os << "  partition " << i << ":";
    for (uint32_t s = 0; s < m.p.slices; ++s) {
      const uint32_t b = i * m.p.slices + s;
      if (m.p.slices > 1) os << " L2 slice " << s << ": " << m.banks[b]->describe() << ";";
      else os << " L2 " << m.banks[b]->describe() << ";";
    }
    os << " DRAM " << m.channels[i]->describe(m.now) << "\n";
  }
  return os.str();
}

const MemorySystemStats& MemorySystem::stats() const { return impl_->stats; }

nlohmann::json MemorySystem::stats_json() const {
  const Impl& m = *impl_;
  const MemorySystemStats& s = m.stats;
  const auto ratio = [](uint64_t a, uint64_t b) { return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0; };
  nlohmann::json j;
  j["requests"] = s.requests;
  j["reads"] = s.reads;
  j["writes"] = s.writes;
  j["l2_hits"] = s.l2_hits;
  j["l2_misses"] = s.l2_misses;
  j["l2_bypass_overrides"] = s.l2_bypass_overrides;
  j["dram_reads"] = s.dram_reads;
  j["dram_writes"] = s.dram_writes;
  j["dram_row_hits"] = s.dram_row_hits;
  j["dram_row_misses"] = s.dram_row_misses;
  j["dram_bytes"] = s.dram_bytes;
  j["noc_request_flits"] = s.noc_request_flits;
  j["noc_response_flits"] = s.noc_response_flits;
  j["noc_latency_sum"] = s.noc_latency_sum;
  j["noc_packets"] = s.noc_packets;
  j["round_trip_sum"] = s.round_trip_sum;
  j["round_trips"] = s.round_trips;
  const MemorySystemStats::RoundTripParts& t = s.round_trip_parts;
  j["round_trip_parts"] = {{"req_queue", t.req_queue},       {"req_network", t.req_network},
                           {"l2_input", t.l2_input},         {"l2_hit", t.l2_hit},
                           {"l2_miss", t.l2_miss},           {"l2_output", t.l2_output},
                           {"resp_queue", t.resp_queue},     {"resp_network", t.resp_network},
                           {"sm_eject", t.sm_eject},         {"hit_reads", t.hit_reads},
                           {"miss_reads", t.miss_reads}};
  // Derived.
  j["cycles"] = m.now;
  j["l2_read_hit_rate"] = ratio(s.l2_hits, s.l2_hits + s.l2_misses);
  j["dram_row_hit_rate"] = ratio(s.dram_row_hits, s.dram_row_hits + s.dram_row_misses);
  j["dram_bytes_per_cycle"] = ratio(s.dram_bytes, m.now);
  j["dram_peak_bytes_per_cycle"] = m.p.peak_bytes_per_cycle();
  j["avg_noc_latency"] = ratio(s.noc_latency_sum, s.noc_packets);
  j["avg_round_trip"] = ratio(s.round_trip_sum, s.round_trips);
  return j;
}

}  // namespace l1d::sim
