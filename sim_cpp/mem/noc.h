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
// Arbiter (noc.arbiter, common/config.h). The above is `fifo`. `islip` is GPGPU-Sim's intersim2
// input-queued router as its .icnt files configure it (facts from gpgpu-sim_distribution
// src/intersim2: routers/iq_router.cpp, allocators/islip.cpp, interconnect_interface.cpp; per
// cycle, at packet granularity; docs/simulator.md "Interconnect arbiter"):
// - The source's injection buffer feeds its router input over a link of flits_per_cycle flits a
//   cycle. The head packet enters a free virtual channel of that input (`vcs` of them, one packet
//   each; one packet a cycle per link). Deviation: a packet does not enter a VC while another VC
//   of its source holds a packet for the same destination, so order per (source, destination)
//   is kept (the memory system relies on it; booksim does not promise it with several VCs).
// - VC v of input s bids for the switch from crossbar input s * input_speedup + v % input_speedup
//   (iq_router.cpp _SWAllocAddReq: expanded_input = input * _input_speedup + vc % _input_speedup;
//   with one VC the second crossbar input of a port is never used). A bid needs its output free
//   (the output's one VC is held from grant until the packet's tail crosses the switch) and a
//   credit of the destination. Among a crossbar input's VCs bidding for one output the oldest
//   packet bids.
// - One iSLIP iteration (islip.cpp): each output grants the requesting crossbar input at or after
//   its grant pointer; each crossbar input accepts the granting output at or after its accept
//   pointer; on accept the grant pointer moves past the input and the accept pointer past the
//   output.
// - An accepted packet of f flits crosses the switch at flits_per_cycle * internal_speedup flits
//   a cycle but not before its flits have come over the link (cut-through); it holds its
//   crossbar input and its output's switch port until its tail has crossed. The output channel
//   sends flits_per_cycle flits a cycle from an output queue (GPGPU-Sim: output_buffer_size -1,
//   unbounded; here bounded by the destination's credits); arrive = the cycle its last flit
//   leaves the output + latency. With internal_speedup 1 and one VC this is the fifo crossbar,
//   cycle for cycle (the same grants, the same arrival cycles).
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

// The islip router's shape (noc.arbiter islip; islip false: the fifo crossbar).
struct NocRouter {
  bool islip = false;
  uint32_t vcs = 1;
  uint32_t input_speedup = 1;
  uint32_t internal_speedup = 1;
};

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
          uint32_t src_capacity, uint32_t dst_capacity, NocRouter router = {})
      : router_(router),
        latency_(latency),
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
    if (router_.islip && (router_.vcs == 0 || router_.input_speedup == 0 || router_.internal_speedup == 0))
      throw std::invalid_argument("Network: islip vcs and speedups must be positive");
    touched_.reserve(dests);
    freed_.reserve(dests);
    if (router_.islip) {
      const uint32_t xin = sources * router_.input_speedup;
      vc_.assign(size_t{sources} * router_.vcs, Vc{});
      link_busy_.assign(sources, 0);
      in_vc_.assign(sources, 0);
      xin_busy_.assign(xin, 0);
      out_chan_free_.assign(dests, 0);
      gptr_.assign(dests, 0);
      aptr_.assign(xin, 0);
      bid_.assign(size_t{xin} * dests, kNone);
      grant_.assign(dests, kNone);
      accept_.assign(xin, kNone);
      bids_.reserve(size_t{sources} * router_.vcs);
    }
  }

  uint32_t sources() const { return static_cast<uint32_t>(src_.size()); }
  uint32_t dests() const { return static_cast<uint32_t>(dst_.size()); }

  // islip: the packets in the source's VCs count against its injection buffer (src_capacity
  // packets in all), so with one VC the buffering is the fifo crossbar's.
  bool can_inject(uint32_t src) const { return source_occupancy(src) < src_cap_; }

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
    freed_.clear();
    if (queued_ == 0) return;
    if (router_.islip) {
      tick_islip(now);
      return;
    }
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
      freed_.push_back(s);
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
    if (router_.islip) return next_grant_islip(now);
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
  // Sources whose source_occupancy() fell in the last tick() (a granted packet left them), in
  // grant order; the only event that gives a full source room (Sm's waits, MemoryPort).
  const std::vector<uint32_t>& freed_sources() const { return freed_; }

  // The head of dst's ejection buffer if it has arrived by `now`, else nullptr.
  const Packet* peek(uint32_t dst, uint64_t now) const {
    const Ring<Packet>& q = dst_[dst];
    if (q.empty() || q.front().arrive > now) return nullptr;
    return &q.front();
  }
  void pop(uint32_t dst) {
    dst_[dst].pop_front();
    --at_dst_;
    if (router_.islip) return;  // islip parks nothing
    const size_t words = active_.size();
    for (size_t w = 0; w < words; ++w) {  // the sources parked on dst's credit are visited again
      active_[w] |= parked_[dst * words + w];
      parked_[dst * words + w] = 0;
    }
  }

  size_t source_occupancy(uint32_t src) const {
    return router_.islip ? src_[src].size() + in_vc_[src] : src_[src].size();
  }
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

  struct Vc {
    Packet p{};
    bool full = false;
    uint64_t in_done = 0;  // cycle its last flit is in the router's input buffer
  };

  uint32_t ser(const Packet& p) const { return (p.flits + fpc_ - 1) / fpc_; }

  // One packet from the head of source s's injection buffer into a free VC of its input.
  void fill_vc(uint32_t s, uint64_t now) {
    if (src_[s].empty() || link_busy_[s] > now) return;
    const Packet& head = src_[s].front();
    Vc* free_vc = nullptr;
    for (uint32_t v = 0; v < router_.vcs; ++v) {
      Vc& c = vc_[size_t{s} * router_.vcs + v];
      if (!c.full) {
        if (free_vc == nullptr) free_vc = &c;
      } else if (c.p.dst == head.dst) {
        return;  // order per (source, destination)
      }
    }
    if (free_vc == nullptr) return;
    free_vc->p = head;
    free_vc->full = true;
    free_vc->in_done = now + ser(head) - 1;
    link_busy_[s] = now + ser(head);
    src_[s].pop_front();
    ++in_vc_[s];
  }

  // (a - b) mod m for a, b < m, without a division.
  static uint32_t ring_distance(uint32_t a, uint32_t b, uint32_t m) { return a >= b ? a - b : a + m - b; }

  void tick_islip(uint64_t now) {
    const uint32_t n = sources(), nd = dests(), nv = router_.vcs, sp = router_.input_speedup;
    const uint32_t xin = n * sp;
    for (uint32_t s = 0; s < n; ++s) fill_vc(s, now);
    // Bids: per (crossbar input, output) the oldest VC packet; kNone: none.
    bids_.clear();
    for (uint32_t s = 0; s < n; ++s)
      for (uint32_t v = 0; v < nv; ++v) {
        const Vc& c = vc_[size_t{s} * nv + v];
        if (!c.full) continue;
        const uint32_t x = s * sp + v % sp, d = c.p.dst;
        if (xin_busy_[x] > now || dst_busy_[d] > now || dst_[d].size() >= dst_cap_) continue;
        uint32_t& b = bid_[size_t{x} * nd + d];
        if (b == kNone) {
          b = s * nv + v;
          bids_.push_back(Bid{x, d});
        } else if (c.p.inject < vc_[b].p.inject) {
          b = s * nv + v;
        }
      }
    if (bids_.empty()) return;
    // Grant: each output the first bidding crossbar input at or after its pointer.
    for (const Bid& k : bids_) {
      const uint32_t g = grant_[k.d];
      if (g == kNone || ring_distance(k.x, gptr_[k.d], xin) < ring_distance(g, gptr_[k.d], xin)) grant_[k.d] = k.x;
    }
    // Accept: each crossbar input the first granting output at or after its pointer.
    for (const Bid& k : bids_) {
      if (grant_[k.d] != k.x) continue;
      const uint32_t a = accept_[k.x];
      if (a == kNone || ring_distance(k.d, aptr_[k.x], nd) < ring_distance(a, aptr_[k.x], nd)) accept_[k.x] = k.d;
    }
    for (const Bid& k : bids_) {
      const uint32_t x = k.x, d = k.d;
      uint32_t& bid = bid_[size_t{x} * nd + d];
      const uint32_t vi = bid;
      bid = kNone;
      if (grant_[d] != x || accept_[x] != d) continue;
      gptr_[d] = x + 1 == xin ? 0 : x + 1;
      aptr_[x] = d + 1 == nd ? 0 : d + 1;
      Vc& c = vc_[vi];
      Packet& p = c.p;
      const uint32_t f = ser(p);
      const uint32_t rate = fpc_ * router_.internal_speedup;
      const uint64_t sw_end = std::max<uint64_t>(now + (p.flits + rate - 1) / rate - 1, c.in_done);
      const uint64_t first_out = std::max(now, out_chan_free_[d]);
      const uint64_t last_out = std::max<uint64_t>(first_out + f - 1, sw_end);
      xin_busy_[x] = sw_end + 1;
      dst_busy_[d] = sw_end + 1;
      out_chan_free_[d] = last_out + 1;
      p.grant = now;
      p.arrive = last_out + latency_;
      dst_[d].push_back(p);
      c.full = false;
      --in_vc_[vi / nv];
      freed_.push_back(vi / nv);
      --queued_;
      ++at_dst_;
      touched_.push_back(d);
    }
    for (const Bid& k : bids_) {
      grant_[k.d] = kNone;
      accept_[k.x] = kNone;
    }
  }

  // islip: the first cycle from `now` on in which tick() may move a packet into a VC or grant one;
  // a bid waiting for a credit waits for a pop (a consumer's event).
  uint64_t next_grant_islip(uint64_t now) const {
    uint64_t at = ~uint64_t{0};
    const uint32_t nv = router_.vcs, sp = router_.input_speedup;
    for (uint32_t s = 0; s < sources(); ++s) {
      bool vc_free = false;
      for (uint32_t v = 0; v < nv; ++v) {
        const Vc& c = vc_[size_t{s} * nv + v];
        if (!c.full) {
          vc_free = true;
          continue;
        }
        if (dst_[c.p.dst].size() >= dst_cap_) continue;
        at = std::min(at, std::max({now, xin_busy_[s * sp + v % sp], dst_busy_[c.p.dst]}));
      }
      if (vc_free && !src_[s].empty()) at = std::min(at, std::max(now, link_busy_[s]));
      if (at == now) return at;
    }
    return at;
  }

  NocRouter router_;
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
  std::vector<uint32_t> freed_;  // freed_sources()
  std::vector<uint64_t> active_;  // bit s: source s has queued packets and is not parked
  // Per destination d, words [d * active_.size(), ...): bit s: source s is parked on d's credit.
  std::vector<uint64_t> parked_;
  // islip state (empty for fifo). dst_busy_ is the output's switch port (its one VC).
  std::vector<Vc> vc_;                 // [source * vcs + v]
  std::vector<uint64_t> link_busy_;    // per source: its link to the router busy until
  std::vector<uint64_t> xin_busy_;     // per crossbar input: busy until
  std::vector<uint64_t> out_chan_free_;  // per output: its channel free from
  std::vector<uint32_t> gptr_, aptr_;  // iSLIP grant (per output) and accept (per crossbar input) pointers
  std::vector<uint32_t> bid_;          // [crossbar input * dests + output]: bidding VC index or kNone
  std::vector<uint32_t> grant_, accept_;
  struct Bid {
    uint32_t x, d;  // crossbar input, output
  };
  std::vector<Bid> bids_;
  std::vector<uint32_t> in_vc_;        // per source: packets in its VCs
  uint64_t queued_ = 0;
  uint64_t at_dst_ = 0;
  uint64_t flits_injected_ = 0;
};

}  // namespace l1d::sim
