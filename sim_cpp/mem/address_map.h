// Address mapping of the memory system: 128 B line -> memory partition (L2 bank + DRAM
// channel), and inside a partition -> L2 set, DRAM bank, DRAM row.
//
// Partition: rotated interleaving. With L = line index (addr / 128), P = partitions,
// g = L / P (the line's index inside its partition) and H a multiplicative hash,
//     partition = (L mod P + H(g)) mod P.
// Each aligned group of P consecutive lines uses every partition exactly once (a rotation of
// the plain L mod P interleaving), so streams spread perfectly; the rotation changes
// pseudo-randomly from group to group, so large power-of-two strides do not camp on one
// partition (plain L mod P would send a stride of P*2^k lines to a single partition).
// g is unique per partition, so it is the partition-local address (the DRAM channel's line:
// channel_line).
//
// L2 slices (l2.slices_per_partition = S, GPGPU-Sim's sub-partitions): slice = g mod S, so
// consecutive lines of a partition alternate between its slices; inside its slice the line's
// index is local_line = g / S, and L2 set = local_line mod sets (sets per slice). With S = 1,
// local_line = channel_line = g.
// DRAM: a row holds row_bytes / 128 consecutive channel lines; c = g / lines_per_row,
// row = c / banks, bank = (c mod banks) XOR (row mod banks) (banks are a power of two). A stream
// fills a row, then moves to the next bank.
#pragma once

#include <cstdint>

#include "common/types.h"

namespace l1d::sim {

class AddressMap {
 public:
  AddressMap(uint32_t partitions, uint32_t dram_banks, uint32_t dram_lines_per_row, uint32_t slices = 1)
      : partitions_(partitions), banks_(dram_banks), lines_per_row_(dram_lines_per_row), slices_(slices) {}

  static uint64_t line_index(Addr line_addr) { return line_addr / kLineBytes; }

  uint32_t partition(Addr line_addr) const {
    const uint64_t l = line_index(line_addr);
    const uint64_t g = l / partitions_;
    return static_cast<uint32_t>((l % partitions_ + hash(g)) % partitions_);
  }
  // The line's index inside its partition (its DRAM channel).
  uint64_t channel_line(Addr line_addr) const { return line_index(line_addr) / partitions_; }
  // The L2 slice of a channel line, and the line's global L2 bank (slice) index.
  uint32_t slice_of(uint64_t chan_line) const { return static_cast<uint32_t>(chan_line % slices_); }
  uint32_t bank(Addr line_addr) const {
    return partition(line_addr) * static_cast<uint32_t>(slices_) + slice_of(channel_line(line_addr));
  }
  // The line's index inside its L2 slice.
  uint64_t local_line(Addr line_addr) const { return channel_line(line_addr) / slices_; }
  uint32_t slices() const { return static_cast<uint32_t>(slices_); }

  // DRAM bank and row of a channel line.
  uint32_t dram_bank(uint64_t local) const {
    const uint64_t c = local / lines_per_row_;
    const uint64_t row = c / banks_;
    return static_cast<uint32_t>((c ^ row) & (banks_ - 1));
  }
  uint64_t dram_row(uint64_t local) const { return local / lines_per_row_ / banks_; }

 private:
  static uint64_t hash(uint64_t g) { return (g * 0x9E3779B97F4A7C15ull) >> 40; }

  uint64_t partitions_;
  uint64_t banks_;
  uint64_t lines_per_row_;
  uint64_t slices_;
};

}  // namespace l1d::sim
