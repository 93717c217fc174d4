// The SMs' view of the memory system below the L1s: one request and one response port per SM.
// An interface (rather than MemorySystem itself) so that tests can put a fault injector or a
// simple fixed-latency memory under the SMs; make_memory_port() wraps the real MemorySystem.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/config.h"
#include "common/types.h"
#include "sim_cpp/mem/functional_memory.h"
#include "sim_cpp/mem/memory_system.h"

namespace l1d::sim {

class MemoryPort {
 public:
  virtual ~MemoryPort() = default;
  virtual bool request_ready(uint32_t sm) const = 0;
  // Requests `sm` could send now one after another, counted up to `cap` (request_ready() is
  // room >= 1): the SM reads it before its cycle and sends at the cycle's end (Sm::mem_fetch).
  virtual uint32_t request_room(uint32_t sm, uint32_t cap) const = 0;
  virtual void request(uint32_t sm, const MemReq& r) = 0;
  // The response delivered to `sm` this cycle, if any; the caller must pass it to the L1.
  virtual std::optional<MemResp> response(uint32_t sm) = 0;
  virtual void tick() = 0;
  // A port whose tick() splits into a part that does not depend on this cycle's requests (run
  // beside the SMs' cycles) and the rest (MemorySystem::tick_partitions / _networks). The GPU
  // calls tick_independent() only when split_tick(), and tick_rest() every cycle: without a
  // split it is the whole tick().
  virtual bool split_tick() const { return false; }
  // A port whose response can be read without taking it: peek_response() reads only `sm`'s own
  // state (safe beside other SMs' peeks and tick_independent(), so the GPU reads the ports inside
  // the parallel part of the cycle) and take_response() takes it later in SM order (statistics,
  // the network's counters). Ports without the split are read with response().
  virtual bool split_response() const { return false; }
  virtual const MemResp* peek_response(uint32_t /*sm*/) const { return nullptr; }
  // request_room() and peek_response() in one call (Sm::mem_peek, every SM every cycle).
  virtual uint32_t peek_port(uint32_t sm, uint32_t cap, const MemResp*& resp) const {
    resp = peek_response(sm);
    return request_room(sm, cap);
  }
  virtual void take_response(uint32_t /*sm*/) {}
  // Per-SM waits (Sm's lazy waits, sm_skip.cpp): a port with port_events() (and split_response())
  // tells the first cycle from now on in which SM `sm` can see a response (~0: none on its way),
  // and after each tick_rest() the SMs it granted a response to and those whose request room
  // it raised: the only changes an SM that sends and takes nothing can see. A waiting SM then
  // reads nothing of the port until one of them. Without it, every clocked SM reads the port
  // every cycle (MemorySystem::response_arrival).
  virtual bool port_events() const { return false; }
  virtual uint64_t response_arrival(uint32_t /*sm*/) const { return 0; }
  virtual const std::vector<uint32_t>& response_grants() const { return no_sms_; }
  virtual const std::vector<uint32_t>& request_room_freed() const { return no_sms_; }
  virtual void tick_independent() {}
  virtual void tick_rest() { tick(); }
  virtual bool idle() const = 0;
  // Cycle skipping (sim_cpp/gpu/gpu.cpp; MemorySystem::next_event): the first cycle from `now`
  // (the cycle about to run) on in which the port may change anything or deliver a response;
  // skip(n) advances n cycles before it. A port that cannot tell says `now`.
  virtual uint64_t next_event(uint64_t now) const { return now; }
  virtual void skip(uint64_t /*n*/) { throw std::logic_error("MemoryPort::skip: this port cannot skip cycles"); }
  virtual std::string describe_state() const = 0;
  virtual const MemorySystemStats& stats() const = 0;
  virtual nlohmann::json stats_json() const = 0;
  // Leaves [addr, addr + bytes) in the L2 as a host-to-device copy's writes would, without
  // simulated time (trace replay, between kernels). A memory without an L2 ignores it.
  virtual void preload_l2(Addr /*addr*/, uint64_t /*bytes*/) {}

 private:
  const std::vector<uint32_t> no_sms_;
};

// The real memory system (NoC, L2, DRAM) over `image`.
std::unique_ptr<MemoryPort> make_memory_port(const Config& cfg, FunctionalMemory& image);

// An ideal memory for tests: every request is accepted, takes effect on `image` at once (a
// write updates it, a read snapshots its sectors) and a read's response is delivered `latency`
// cycles later, in order per SM, at most one per SM per cycle. No AGCB bypass bits (always 0).
std::unique_ptr<MemoryPort> make_fixed_latency_memory(uint32_t sms, FunctionalMemory& image, uint32_t latency);

// Fault injection (watchdog tests, `gpusim --drop-response N`): forwards everything to `inner`
// but swallows the n-th read response it delivers (1-based), leaving that MSHR waiting forever.
std::unique_ptr<MemoryPort> make_dropping_memory(std::unique_ptr<MemoryPort> inner, uint64_t n);

}  // namespace l1d::sim
