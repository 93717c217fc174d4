// One L2 bank: an L2 slice of a memory partition (l2.slices_per_partition per partition, sharing
// the partition's DRAM channel; each has its own NoC ports).
//
// Functional rule (memory_system.h): accept() is the moment a request takes effect, in the
// order the bank accepts requests (its NoC arrival order). A write updates the
// FunctionalMemory there; a read snapshots its sectors there and, when it carries AGCB's bypass
// prediction, tests and updates the line's bypass bit there (golden::l2_bypass_override). The
// state below only decides when the read's response leaves.
//
// Timing state: sets x ways of 128 B lines, LRU, per-sector valid and dirty bits.
// - One request accepted per cycle (the caller's job); accept() refuses, changing nothing,
//   when a resource the request may need is missing (read slot, MSHR, room for a DRAM request).
// - Write: write-allocate without fetch. The written sectors become valid and dirty (a partial
//   sector write marks the sector too: data is exact through the functional image, the L2
//   only tracks timing). Allocating may evict a dirty victim: a write-back to DRAM.
//   Writes are not answered.
// - Read: a hit when every requested sector is valid: response after hit_latency. Otherwise a
//   miss: after tag_latency the missing sectors (l2.fetch: sector) or every invalid sector of
//   the line (l2.fetch: line) that no fetch already covers go to DRAM; the
//   read waits in the line's MSHR entry (reads of a line merge while its fetch is in flight)
//   and its response leaves fill_latency after the last sector it waits for arrives.
// - Fill: allocate on fill (no line is reserved while DRAM works, so no allocation can block):
//   the fetched sectors become valid; allocating may evict a dirty victim (write-back).
// - AGCB bypass bits live in a side table keyed by line address, not in the tag array:
//   decision: the bit survives the L2 line's eviction (and exists before the line is
//   allocated, which with allocate-on-fill is after the read has taken effect), so the
//   protocol's outcome depends only on the order of requests, never on L2 capacity or timing
//   (the same as the golden testbench's per-address map). The table holds only set bits.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "sim_cpp/mem/address_map.h"
#include "sim_cpp/mem/functional_memory.h"
#include "sim_cpp/mem/l2_tag_array.h"
#include "sim_cpp/mem/line_table.h"
#include "sim_cpp/mem/mem_packets.h"
#include "sim_cpp/mem/mem_params.h"
#include "sim_cpp/mem/memory_system.h"
#include "sim_cpp/mem/ring.h"

namespace l1d::sim {

class L2Bank {
 public:
  L2Bank(const MemParams& p, const AddressMap& map, FunctionalMemory& image, MemorySystemStats* stats);

  // Takes the request at cycle `now` (its functional effect happens here). Returns false,
  // changing nothing, when the bank cannot take it this cycle.
  // `times`: when the request left the SM and reached the slice (for the round-trip parts only).
  bool accept(const ReqPacket& p, uint64_t now, ReqTimes times = {});
  // Untimed write-allocate of `sectors` of a line (MemorySystem::preload_l2): valid, dirty,
  // most recently used; an evicted victim's write-back is not simulated.
  void preload(Addr line_addr, SectorMask sectors);
  // DRAM data of a fetch (d.tag = MSHR entry) reached the bank at `now`.
  void fill(const DramRequest& d, uint64_t now);

  // The next DRAM-bound request (fetch or write-back) if it may leave by `now`.
  const DramRequest* dram_out(uint64_t now) const {
    return dram_out_.empty() || dram_out_.front().ready > now ? nullptr : &dram_out_.front().req;
  }
  void pop_dram_out() { dram_out_.pop_front(); }

  // The next response ready by `now` (hit pipeline or fill path, older first).
  const RespPacket* response(uint64_t now) const;
  void pop_response();

  // Cycle skipping (MemorySystem::next_event): when the next response is ready and when the
  // next DRAM-bound request may leave (~0: none).
  uint64_t next_response() const {
    uint64_t at = hit_pipe_.empty() ? ~uint64_t{0} : hit_pipe_.front().ready;
    return fill_pipe_.empty() ? at : std::min(at, fill_pipe_.front().ready);
  }
  uint64_t next_dram_out() const { return dram_out_.empty() ? ~uint64_t{0} : dram_out_.front().ready; }

  bool idle() const { return hit_pipe_.empty() && fill_pipe_.empty() && active_mshrs_.empty() && dram_out_.empty(); }
  bool bypass_bit(Addr line_addr) const { return bypass_bits_.count(line_addr) != 0; }
  // Timing view for tests: whether the line is in the bank and its valid / dirty sectors.
  bool holds(Addr line_addr, SectorMask* valid = nullptr, SectorMask* dirty = nullptr) const;
  size_t reads_held() const { return slots_.size() - free_slots_.size(); }
  std::string describe() const;

 private:
  struct Mshr {
    Addr line_addr = 0;
    SectorMask pending = 0;  // sectors requested from DRAM, not yet back
    uint32_t head = kNil;    // waiting reads (slot list)
    uint32_t tail = kNil;
    uint32_t pos = 0;        // index in active_mshrs_
  };
  struct Timed {
    uint64_t ready = 0;
    uint32_t slot = 0;
  };
  struct TimedDram {
    uint64_t ready = 0;
    DramRequest req;
  };
  static constexpr uint32_t kNil = 0xFFFFFFFFu;

  // A way of `set` for `line_addr`: the victim (L2TagArray::victim), whose dirty sectors leave
  // as a write-back, emptied.
  size_t allocate(uint32_t set, Addr line_addr, uint64_t now);
  int32_t find_mshr(Addr line_addr) const;
  void touch(size_t way) { tags_.set_stamp(way, ++lru_clock_); }
  uint32_t set_of(Addr line_addr) const { return static_cast<uint32_t>(map_.local_line(line_addr) % p_.l2_sets); }

  MemParams p_;
  AddressMap map_;
  FunctionalMemory& image_;
  MemorySystemStats* stats_;

  L2TagArray tags_;
  uint64_t lru_clock_ = 0;

  std::vector<RespPacket> slots_;     // one per read held by the bank
  std::vector<SectorMask> slot_need_; // sectors a waiting read still needs
  std::vector<uint32_t> slot_next_;   // MSHR waiter list links
  std::vector<uint32_t> free_slots_;

  std::vector<Mshr> mshrs_;
  std::vector<uint32_t> free_mshrs_;
  std::vector<uint32_t> active_mshrs_;
  LineTable mshr_index_;  // line address -> MSHR entry

  Ring<Timed> hit_pipe_;
  Ring<Timed> fill_pipe_;
  Ring<TimedDram> dram_out_;
  std::unordered_set<Addr> bypass_bits_;
};

}  // namespace l1d::sim
