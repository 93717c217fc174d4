// The memory system below the L1s: NoC (request and response networks), banked L2 with the
// AGCB bypass bits (l2.slices_per_partition slices per memory partition, each with its own NoC
// ports), DRAM channels with FR-FCFS (one per partition). One request port and one response
// port per SM, in core cycles.
//
// Functional semantics (what the L1 contract relies on, docs/l1d-microarchitecture.md s.1):
// a request takes effect when it reaches its L2 bank, and requests of one SM to one address
// reach the bank in the order the SM sent them (the NoC keeps order per source and
// destination). A write updates the FunctionalMemory there; a read snapshots its sectors
// there; an AGCB-bypass read tests and updates the L2 line's bypass bit there
// (golden::l2_bypass_override). Timing (hits, DRAM, queues) only decides when the response
// leaves.
//
// Blocks and where their decisions are documented: address_map.h (line -> partition
// interleaving, DRAM bank/row), noc.h (crossbar, packet sizes in mem_params.h), l2_bank.h
// (sectored write-back L2, MSHR merging, AGCB bit side table), dram_channel.h (FR-FCFS, row
// buffer, bandwidth), mem_params.h (every timing constant and the latency calibration).
// Calling convention per core cycle: every SM's request()/response() calls, then tick(). A
// response is available in the cycle its packet arrives; an SM that does not call response()
// back-pressures the system (its ejection buffer fills), it never loses data.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "common/config.h"
#include "common/types.h"
#include "sim_cpp/mem/functional_memory.h"

namespace l1d::sim {

struct MemorySystemStats {
  uint64_t requests = 0, reads = 0, writes = 0;          // accepted from the L1s
  // l2_hits / l2_misses count reads only (a read hits when all its sectors are valid; a read
  // merged into a pending fetch is a miss). Writes always allocate, without fetch.
  uint64_t l2_hits = 0, l2_misses = 0, l2_bypass_overrides = 0;
  // dram_*: column accesses (fetches and write-backs) issued; a row miss is an access that
  // needed an activation. dram_bytes: data moved on the DRAM buses.
  uint64_t dram_reads = 0, dram_writes = 0, dram_row_hits = 0, dram_row_misses = 0;
  uint64_t dram_bytes = 0;
  uint64_t noc_request_flits = 0, noc_response_flits = 0;
  uint64_t noc_latency_sum = 0, noc_packets = 0;        // request network, injection to ejection
  uint64_t round_trip_sum = 0, round_trips = 0;          // read request accepted -> response delivered
  // round_trip_sum split where each read spent its cycles (the parts sum to round_trip_sum):
  // req_queue   accepted -> its request leaves the SM's NoC injection buffer (port and credits)
  // req_network -> usable at the L2 slice's input (serialisation + noc.latency)
  // l2_input    -> the slice accepts it (one a cycle; refused for want of a read slot, MSHR or
  //                DRAM-queue room; behind earlier requests in the slice's input buffer)
  // l2_hit / l2_miss  -> the response is ready to leave the slice: a hit's l2.hit_latency; a
  //                miss's l2 tag stage, the slice's DRAM-bound queue, the DRAM channel's queue and
  //                service, and l2.fill_latency (a read merged into a pending fetch is a miss)
  // l2_output   -> the response enters the response network (one a cycle per slice, injection
  //                buffer room)
  // resp_queue  -> it leaves that injection buffer (the slice's port: a 5-flit line response
  //                holds it 5 cycles at 1 flit a cycle)
  // resp_network -> usable at the SM (serialisation - 1 + noc.latency)
  // sm_eject    -> the SM takes it (one a cycle)
  struct RoundTripParts {
    uint64_t req_queue = 0, req_network = 0, l2_input = 0, l2_hit = 0, l2_miss = 0, l2_output = 0;
    uint64_t resp_queue = 0, resp_network = 0, sm_eject = 0;
    uint64_t hit_reads = 0, miss_reads = 0;  // reads delivered that hit / missed in the L2
    uint64_t sum() const {
      return req_queue + req_network + l2_input + l2_hit + l2_miss + l2_output + resp_queue + resp_network + sm_eject;
    }
  } round_trip_parts;
};

class MemorySystem {
 public:
  MemorySystem(const Config& cfg, FunctionalMemory& image);
  ~MemorySystem();

  // Whether SM `sm` may send a request this cycle (its NoC injection buffer has room).
  bool request_ready(uint32_t sm) const;
  // Requests `sm` could send one after another now, at most `cap` (MemoryPort::request_room).
  uint32_t request_room(uint32_t sm, uint32_t cap) const;
  // Sends a request; only when request_ready(sm).
  void request(uint32_t sm, const MemReq& r);
  // The response delivered to SM `sm` this cycle, if any (at most one per SM per cycle).
  std::optional<MemResp> response(uint32_t sm);
  // response() in two steps: the response without taking it (nullptr: none this cycle; reads
  // only SM `sm`'s port, so SMs may peek in parallel with each other and tick_partitions()), then
  // taking the peeked response (once, in the same cycle, before tick_networks()).
  const MemResp* peek_response(uint32_t sm) const;
  void take_response(uint32_t sm);
  // request_room(sm, cap), and peek_response(sm) into `resp` (MemoryPort::peek_port).
  uint32_t peek_port(uint32_t sm, uint32_t cap, const MemResp*& resp) const;
  // Per-SM waits (Sm's lazy waits, MemoryPort::port_events): the first cycle from the current
  // one on in which peek_response(sm) can return a response as the networks stand (~0: nothing
  // granted to the SM); the SMs that the last tick_networks() granted a response to (whose
  // response_arrival may have moved earlier), and those whose request room it raised (the only
  // events that change either for an SM that sends and takes nothing). Reads only SM `sm`'s
  // port, as peek_response.
  uint64_t response_arrival(uint32_t sm) const;
  const std::vector<uint32_t>& response_grants() const;
  const std::vector<uint32_t>& request_room_freed() const;
  // Advances one core cycle (after every SM's request/response calls of the cycle).
  void tick();  // tick_partitions() then tick_networks()
  // The two halves of tick(). tick_partitions() (the L2 slices and DRAM channels) reads only
  // what earlier cycles' network ticks delivered, so it may run while this cycle's SMs run and
  // before their requests are sent (gpusim --threads; docs/performance.md); tick_networks()
  // (arbitration of both networks) then comes after the requests.
  void tick_partitions();
  void tick_networks();

  bool idle() const;                   // nothing anywhere in flight
  // Cycle skipping (sim_cpp/gpu/gpu.cpp): the first cycle from the current one on in which a tick
  // may change anything (a grant, a packet's arrival, an L2 response or DRAM-bound request ready,
  // a DRAM command or completion) or a response reaches an SM; never later than the true one.
  uint64_t next_event() const;
  // Advances `n` cycles in which nothing happens (n <= next_event() - the current cycle).
  void skip(uint64_t n);
  // A host-to-device copy of [addr, addr + bytes) as it leaves the L2: every line it writes is
  // allocated in its bank with the written sectors valid and dirty, in address order (LRU
  // victims), as the L2's own writes do; untimed, so a victim's write-back is not simulated
  // (the copy happened before the kernel). The data is the FunctionalMemory's. Only when idle().
  void preload_l2(Addr addr, uint64_t bytes);
  std::string describe_state() const;  // where requests sit, for the watchdog
  const MemorySystemStats& stats() const;
  nlohmann::json stats_json() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace l1d::sim
