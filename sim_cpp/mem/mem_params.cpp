// Derivation of the memory system's parameters from a preset (mem_params.h).
#include "sim_cpp/mem/mem_params.h"

#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

#include "sim_cpp/mem/byte_mask.h"

namespace l1d::sim {

namespace {

uint32_t ns_to_cycles(double ns, uint32_t clock_mhz) {
  const double c = std::ceil(ns * clock_mhz / 1000.0 - 1e-9);
  return c < 1 ? 1u : static_cast<uint32_t>(c);
}

}  // namespace

MemParams derive_mem_params(const Config& cfg) {
  MemParams p;
  if (cfg.core.num_sms == 0) throw std::invalid_argument("memory system: core.num_sms must be positive");
  if (cfg.l2.partitions == 0) throw std::invalid_argument("memory system: l2.partitions must be positive");
  // One DRAM channel per memory partition (its L2 bank's DRAM). The presets keep them equal;
  // the config loader does not check it, so the memory system does.
  if (cfg.dram.channels != cfg.l2.partitions)
    throw std::invalid_argument("memory system: dram.channels (" + std::to_string(cfg.dram.channels) +
                                ") must equal l2.partitions (" + std::to_string(cfg.l2.partitions) +
                                "): one DRAM channel per memory partition");
  if (!std::has_single_bit(cfg.dram.banks) || cfg.dram.row_bytes < kLineBytes)
    throw std::invalid_argument("memory system: dram.banks must be a power of two and dram.row_bytes >= 128");
  const uint32_t slices = cfg.l2.slices_per_partition == 0 ? 1 : cfg.l2.slices_per_partition;
  const uint64_t slice = uint64_t{cfg.l2.partitions} * slices * cfg.l2.ways * kLineBytes;
  if (cfg.l2.ways == 0 || cfg.l2.size_bytes < slice)
    throw std::invalid_argument("memory system: l2 must have at least one set per slice");

  p.sms = cfg.core.num_sms;
  p.partitions = cfg.l2.partitions;
  p.slices = slices;

  p.noc_latency = cfg.noc.latency;
  p.flit_bytes = cfg.noc.flit_bytes;
  p.header_bytes = cfg.noc.header_bytes;
  p.noc_flits_per_cycle = cfg.noc.flits_per_cycle;
  p.noc_src_buffer = cfg.noc.src_buffer;
  // Credits cover the latency (a port can keep one packet per cycle in flight) plus the buffer.
  p.noc_dst_buffer = cfg.noc.latency + cfg.noc.dst_buffer;
  p.noc_islip = cfg.noc.arbiter == NocArbiter::kIslip;
  p.noc_vcs = cfg.noc.vcs;
  p.noc_input_speedup = cfg.noc.input_speedup;
  p.noc_internal_speedup = cfg.noc.internal_speedup;

  p.l2_sets = static_cast<uint32_t>(cfg.l2.size_bytes / slice);
  p.l2_ways = cfg.l2.ways;
  p.l2_hit_latency = cfg.l2.hit_latency;
  p.l2_tag_latency = cfg.l2.hit_latency / 2 == 0 ? 1 : cfg.l2.hit_latency / 2;
  p.l2_fill_latency = cfg.l2.fill_latency;
  p.l2_mshrs = cfg.l2.mshrs;
  p.l2_read_slots = cfg.l2.hit_latency + cfg.l2.read_buffer;
  p.l2_dram_out = cfg.l2.dram_out;
  p.l2_fetch_line = cfg.l2.fetch == L2Fetch::kLine;
  p.l2_agcb_verify = cfg.policy.agcb.l2_verify;

  p.dram_banks = cfg.dram.banks;
  p.dram_lines_per_row = cfg.dram.row_bytes / kLineBytes;
  p.dram_latency = cfg.dram.latency;
  p.t_rcd = ns_to_cycles(cfg.dram.t_rcd_ns, cfg.core.clock_mhz);
  p.t_rp = ns_to_cycles(cfg.dram.t_rp_ns, cfg.core.clock_mhz);
  p.t_ras = ns_to_cycles(cfg.dram.t_ras_ns, cfg.core.clock_mhz);
  p.t_rrd = ns_to_cycles(cfg.dram.t_rrd_ns, cfg.core.clock_mhz);
  p.dram_queue = cfg.dram.queue;
  // bytes per core cycle per channel = bandwidth_gbps * 1e9 / channels / (clock_mhz * 1e6)
  //                                  = bandwidth_gbps * 1000 / (channels * clock_mhz);
  // kept as a fraction with the GB/s scaled by 1e6 (exact for up to 6 decimals).
  p.bw_num = static_cast<uint64_t>(std::llround(cfg.dram.bandwidth_gbps * 1e9));
  p.bw_den = uint64_t{cfg.dram.channels} * cfg.core.clock_mhz * 1000000ull;
  return p;
}

uint32_t sector_count(SectorMask s) {
  static constexpr uint8_t kBits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  return kBits[s & 0xF];
}

SectorMask sectors_of_mask(const ByteMask& m) {
  SectorMask s = 0;
  for (uint32_t sec = 0; sec < kSlotsPerLine; ++sec)
    if (mask_word(m, sec)) s = static_cast<SectorMask>(s | (1u << sec));
  return s;
}

namespace {
// Whole flits for `bytes` (at least one: a packet is never empty).
uint32_t packet_flits(uint32_t bytes, uint32_t flit_bytes) {
  const uint32_t f = (bytes + flit_bytes - 1) / flit_bytes;
  return f == 0 ? 1 : f;
}
}  // namespace

uint32_t request_flits(const MemReq& r, uint32_t flit_bytes, uint32_t header_bytes) {
  if (r.op == MemOp::kLoad) return packet_flits(header_bytes, flit_bytes);
  return packet_flits(header_bytes + sector_count(sectors_of_mask(r.byte_mask)) * kChunkBytes, flit_bytes);
}

uint32_t response_flits(SectorMask sectors, uint32_t flit_bytes, uint32_t header_bytes) {
  return packet_flits(header_bytes + sector_count(sectors) * kChunkBytes, flit_bytes);
}

double MemParams::partition_port_bytes_per_cycle() const {
  const SectorMask line = 0xF;
  return static_cast<double>(slices) * noc_flits_per_cycle * kLineBytes /
         static_cast<double>(response_flits(line, flit_bytes, header_bytes));
}

}  // namespace l1d::sim
