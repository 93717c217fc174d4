// One direction of the interconnect (a crossbar): `sources` injection ports, `dests`
// ejection ports, packets of whole flits.
//
// - Each source has a FIFO injection buffer of src_capacity packets (can_inject() is the
//   back-pressure the sender sees).
// - Each cycle a source whose port is free offers its head packet to the packet's destination;
//   a destination whose port is free and that has a credit grants one offer, round-robin from
//   the source after the one it granted last. Head-of-line blocking is kept on purpose: it is
//   what makes a source's packets leave in order.
// - A granted packet of f flits occupies both ports for ceil(f / flits_per_cycle) cycles and
//   is usable at the destination latency cycles after its last flit left:
//   arrive = grant + ceil(f / fpc) - 1 + latency (a 1-flit packet: grant + latency).
// - A destination has dst_capacity credits: packets in flight to it plus packets waiting in its
//   ejection buffer. The consumer pops from the ejection buffer (peek / pop).
// Order: packets of one source leave in FIFO order, and packets to one destination arrive in
// grant order, so order per (source, destination) is kept.
//
// Cost: tick() visits only sources with queued packets (bitmask), and nothing when all are
// empty; a source whose head packet waits for a credit of a full destination is parked (left
// out of the visits) until that destination's consumer pops a packet, the only event that can
// give it one; no allocation after construction.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim_cpp/mem/ring.h"

namespace l1d::sim {

template <typename P>
class Network {
 public:
  struct Packet {
    P payload{};
    uint32_t dst = 0;
    uint32_t flits = 1;
    uint64_t inject = 0;  // cycle the packet entered the injection buffer
    uint64_t grant = 0;   // cycle it left the injection buffer (set at grant)
    uint64_t arrive = 0;  // cycle it is usable at the destination (set at grant)
  };

  Network(uint32_t sources, uint32_t dests, uint32_t latency, uint32_t flits_per_cycle,
          uint32_t src_capacity, uint32_t dst_capacity)
      : latency_(latency),
        fpc_(flits_per_cycle),
        src_cap_(src_capacity),
        dst_cap_(dst_capacity),
        src_(sources, Ring<Packet>(src_capacity)),
        dst_(dests, Ring<Packet>(dst_capacity)),
        src_busy_(sources, 0),
        dst_busy_(dests, 0),
        last_grant_(dests, sources - 1),
        cand_(dests, kNone),
        active_((sources + 63) / 64, 0),
        parked_(dests * active_.size(), 0) {
    if (sources == 0 || dests == 0 || flits_per_cycle == 0 || src_capacity == 0 || dst_capacity == 0)
      throw std::invalid_argument("Network: sizes must be positive");
    touched_.reserve(dests);
  }

  uint32_t sources() const { return static_cast<uint32_t>(src_.size()); }
  uint32_t dests() const { return static_cast<uint32_t>(dst_.size()); }

  bool can_inject(uint32_t src) const { return src_[src].size() < src_cap_; }

  // Puts a packet of `flits` flits for `dst` into src's injection buffer (can_inject(src)).
  void inject(uint32_t src, uint32_t dst, uint32_t flits, uint64_t now, const P& payload) {
    if (!can_inject(src)) throw std::logic_error("Network::inject into a full buffer");
    if (dst >= dst_.size()) throw std::out_of_range("Network::inject: bad destination");
    Packet& p = src_[src].emplace_slot();
    p.payload = payload;
    p.dst = dst;
    p.flits = flits == 0 ? 1 : flits;
    p.inject = now;
    p.grant = 0;
    p.arrive = 0;
    active_[src / 64] |= uint64_t{1} << (src % 64);
    ++queued_;
    flits_injected_ += p.flits;
  }

  // Arbitration and transfer for cycle `now`.
  void tick(uint64_t now) {
    touched_.clear();
    if (queued_ == 0) return;
    const uint32_t n = sources();
    for (size_t w = 0; w < active_.size(); ++w) {
      for (uint64_t bits = active_[w]; bits != 0; bits &= bits - 1) {
        const uint32_t s = static_cast<uint32_t>(w * 64 + static_cast<size_t>(std::countr_zero(bits)));
        if (src_busy_[s] > now) continue;
        const uint32_t d = src_[s].front().dst;
        if (dst_busy_[d] > now) continue;
        if (dst_[d].size() >= dst_cap_) {  // no credit before d's next pop()
          active_[w] &= ~(uint64_t{1} << (s % 64));
          parked_[d * active_.size() + w] |= uint64_t{1} << (s % 64);
          continue;
        }
        if (cand_[d] == kNone) {
          cand_[d] = s;
          touched_.push_back(d);
        } else if (priority(s, d, n) < priority(cand_[d], d, n)) {
          cand_[d] = s;
        }
      }
    }
    for (uint32_t d : touched_) {
      const uint32_t s = cand_[d];
      cand_[d] = kNone;
      last_grant_[d] = s;
      Packet& p = src_[s].front();
      const uint32_t ser = (p.flits + fpc_ - 1) / fpc_;
      p.grant = now;
      p.arrive = now + ser - 1 + latency_;
      dst_[d].push_back(p);
      src_[s].pop_front();
      src_busy_[s] = now + ser;
      dst_busy_[d] = now + ser;
      --queued_;
      ++at_dst_;
      if (src_[s].empty()) active_[s / 64] &= ~(uint64_t{1} << (s % 64));
    }
  }

  // Cycle skipping (MemorySystem::next_event): the first cycle from `now` on in which tick()
  // may grant (or park) a packet: a visited source's port and its head's destination port are
  // free. Parked sources wait for a pop, which only a consumer's event makes. ~0: none.
  uint64_t next_grant(uint64_t now) const {
    uint64_t at = ~uint64_t{0};
    if (queued_ == 0) return at;
    for (size_t w = 0; w < active_.size(); ++w)
      for (uint64_t bits = active_[w]; bits != 0; bits &= bits - 1) {
        const auto s = static_cast<uint32_t>(w * 64 + static_cast<size_t>(std::countr_zero(bits)));
        at = std::min(at, std::max({now, src_busy_[s], dst_busy_[src_[s].front().dst]}));
        if (at == now) return at;
      }
    return at;
  }
  // When dst's ejection-buffer head is usable (~0: the buffer is empty).
  uint64_t head_arrival(uint32_t dst) const { return dst_[dst].empty() ? ~uint64_t{0} : dst_[dst].front().arrive; }

  // Destinations that were granted a packet in the last tick().
  const std::vector<uint32_t>& granted() const { return touched_; }

  // The head of dst's ejection buffer if it has arrived by `now`, else nullptr.
  const Packet* peek(uint32_t dst, uint64_t now) const {
    const Ring<Packet>& q = dst_[dst];
    if (q.empty() || q.front().arrive > now) return nullptr;
    return &q.front();
  }
  void pop(uint32_t dst) {
    dst_[dst].pop_front();
    --at_dst_;
    const size_t words = active_.size();
    for (size_t w = 0; w < words; ++w) {  // the sources parked on dst's credit are visited again
      active_[w] |= parked_[dst * words + w];
      parked_[dst * words + w] = 0;
    }
  }

  size_t source_occupancy(uint32_t src) const { return src_[src].size(); }
  // Packets in flight to dst plus packets waiting in its ejection buffer.
  size_t dest_occupancy(uint32_t dst) const { return dst_[dst].size(); }
  uint32_t source_capacity() const { return src_cap_; }
  uint32_t dest_capacity() const { return dst_cap_; }
  bool idle() const { return queued_ == 0 && at_dst_ == 0; }
  uint64_t queued() const { return queued_; }
  uint64_t at_destinations() const { return at_dst_; }
  uint64_t flits_injected() const { return flits_injected_; }

 private:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  // 0 for the source right after the one dst granted last.
  uint32_t priority(uint32_t s, uint32_t d, uint32_t n) const { return (s + n - last_grant_[d] - 1) % n; }

  uint32_t latency_;
  uint32_t fpc_;
  uint32_t src_cap_;
  uint32_t dst_cap_;
  std::vector<Ring<Packet>> src_;
  std::vector<Ring<Packet>> dst_;
  std::vector<uint64_t> src_busy_;  // port busy until (exclusive)
  std::vector<uint64_t> dst_busy_;
  std::vector<uint32_t> last_grant_;
  std::vector<uint32_t> cand_;
  std::vector<uint32_t> touched_;
  std::vector<uint64_t> active_;  // bit s: source s has queued packets and is not parked
  // Per destination d, words [d * active_.size(), ...): bit s: source s is parked on d's credit.
  std::vector<uint64_t> parked_;
  uint64_t queued_ = 0;
  uint64_t at_dst_ = 0;
  uint64_t flits_injected_ = 0;
};

}  // namespace l1d::sim
