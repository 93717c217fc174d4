// The memory system's timing and sizing parameters, derived from a preset (common/config.h).
//
// Every parameter comes from the preset (the `noc:`, `l2:` and `dram:` sections; values per
// preset and their sources in docs/simulator.md, "Memory-system fields"). All times are in core
// cycles; the DRAM timings are given in ns and converted with core.clock_mhz.
//
// Unloaded latencies on gtx480 (noc.latency 8, 1 flit of 32 B per core cycle per port, 8 B
// header, l2.hit_latency 100, dram.latency 100, tRCD/tRP 13 ns, 700 MHz), measured by
// mem_system_test (MemorySystem.PresetLatencyAndBandwidthTable) for a one-sector read, request
// accepted from the L1 -> response delivered to it:
//   request NoC  8 (1-flit packet: 8 B header; latency 8, serialisation 1 cycle)
//   L2 hit       8 + 100 (hit pipeline)                                          + 9 NoC  = 117
//   L2 miss      8 + 50 (tag half of hit_latency; the request enters the DRAM queue then)
//                + DRAM: activate (closed bank, tRCD 10) or precharge+activate
//                  (row conflict, tRP+tRCD 20) + 100 (dram.latency: CAS, burst, return)
//                + 13 (l2.fill_latency) + 9 NoC (2-flit response: 8 B header + 32 B)
//                = 190 (closed bank) / 200 (row conflict) / 180 (row hit)
// A whole-line read (4 sectors: a 5-flit response) takes 3 cycles more in each case: 120 / 193 /
// 203 / 183 (MemorySystem.UnloadedRoundTripsMatchTheCalibration; 117 / 190 / 200 / 180 before
// the interconnect correction, with 4-flit responses at 2 flits per cycle).
// SPEC section 1 asks for ~200 to DRAM and an unloaded NoC latency under 20.
#pragma once

#include <cstdint>

#include "common/config.h"
#include "common/types.h"

namespace l1d::sim {

struct MemParams {
  uint32_t sms = 0;
  uint32_t partitions = 0;  // memory partitions = DRAM channels
  uint32_t slices = 1;      // L2 slices (banks, each with its own NoC port) per partition

  // NoC (both directions: request SM -> L2 slice, response L2 slice -> SM).
  uint32_t noc_latency = 0;
  uint32_t flit_bytes = 0;
  uint32_t header_bytes = 0;         // control bytes of every packet (address, ids, mask)
  uint32_t noc_flits_per_cycle = 0;  // per port per core cycle
  uint32_t noc_src_buffer = 0;       // packets per source (injection buffer)
  uint32_t noc_dst_buffer = 0;       // packets per destination (credits: in flight + ejection)
  bool noc_islip = false;            // noc.arbiter islip (noc.h); then:
  uint32_t noc_vcs = 1;              //   virtual channels per input
  uint32_t noc_input_speedup = 1;    //   crossbar inputs per input port
  uint32_t noc_internal_speedup = 1; //   switch rate / channel rate

  // L2 slice (slices per partition; each its own tag array, MSHRs and queues).
  uint32_t l2_sets = 0;          // per slice
  uint32_t l2_ways = 0;
  uint32_t l2_hit_latency = 0;   // accept -> response ready, for a hit
  uint32_t l2_tag_latency = 0;   // accept -> a miss's DRAM request leaves the bank
  uint32_t l2_fill_latency = 0;  // DRAM data back -> response ready
  uint32_t l2_mshrs = 0;         // lines with a DRAM fetch in flight
  uint32_t l2_read_slots = 0;    // reads the bank holds at once (pipeline + MSHR waiters + output)
  uint32_t l2_dram_out = 0;      // DRAM-bound requests the bank buffers before it stops accepting
  bool l2_fetch_line = false;    // l2.fetch: line (a miss fetches every invalid sector of the line)
  bool l2_agcb_verify = true;    // policy.agcb.l2_verify: the bank keeps AGCB bypass bits

  // DRAM channel (one per partition, shared by its slices).
  uint32_t dram_banks = 0;
  uint32_t dram_lines_per_row = 0;
  uint32_t dram_latency = 0;  // column command -> data at the L2 (row hit)
  uint32_t t_rcd = 0;         // activate -> column command
  uint32_t t_rp = 0;          // precharge -> activate
  uint32_t t_ras = 0;         // activate -> earliest precharge
  uint32_t t_rrd = 0;         // activate -> next activate in the channel (any bank)
  uint32_t dram_queue = 0;    // requests per channel scheduler queue
  // Data-bus bandwidth per channel: bw_num / bw_den bytes per core cycle (exact fraction).
  uint64_t bw_num = 0;
  uint64_t bw_den = 0;

  uint32_t l2_banks() const { return partitions * slices; }
  double dram_bytes_per_cycle() const { return static_cast<double>(bw_num) / static_cast<double>(bw_den); }
  double peak_bytes_per_cycle() const { return dram_bytes_per_cycle() * partitions; }
  // What the response ports of one partition can carry, in data bytes per core cycle, for
  // whole-line responses (header included in the packet).
  double partition_port_bytes_per_cycle() const;
};

// The NoC port rate was once 2 flits per core cycle ("a 1400 MHz interconnect against a 700 MHz
// core"); GPGPU-Sim runs its interconnect at the core clock (-gpgpu_clock_domains
// 700:700:700:924 for the GTX480), one flit per cycle per port, and reaches the DRAM bandwidth
// with two L2 sub-partitions per channel, each with its own port. So do the presets now
// (noc.flits_per_cycle 1, l2.slices_per_partition 2).

MemParams derive_mem_params(const Config& cfg);

// Packet sizes in flits (at least 1): header_bytes of control plus the data, rounded up to whole
// flits. Read request: the header only. Write request: the header plus the data of every 32 B
// sector with a written byte. Read response: the header plus the returned sectors' data.
// (GPGPU-Sim: READ_PACKET_SIZE 8 / WRITE_PACKET_SIZE 8 control bytes, shader.h.)
uint32_t sector_count(SectorMask s);
SectorMask sectors_of_mask(const ByteMask& m);
uint32_t request_flits(const MemReq& r, uint32_t flit_bytes, uint32_t header_bytes);
uint32_t response_flits(SectorMask sectors, uint32_t flit_bytes, uint32_t header_bytes);

}  // namespace l1d::sim
