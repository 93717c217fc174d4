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
// g is unique per partition, so it is the partition-local address.
//
// Inside a partition: L2 set = g mod sets. DRAM: a row holds row_bytes / 128 consecutive
// local lines; c = g / lines_per_row, row = c / banks, bank = (c mod banks) XOR (row mod banks)
// (banks are a power of two). A stream fills a row, then moves to the next bank.
#pragma once

#include <cstdint>

#include "common/types.h"

namespace l1d::sim {

class AddressMap {
 public:
  AddressMap(uint32_t partitions, uint32_t dram_banks, uint32_t dram_lines_per_row)
      : partitions_(partitions), banks_(dram_banks), lines_per_row_(dram_lines_per_row) {}

  static uint64_t line_index(Addr line_addr) { return line_addr / kLineBytes; }

  uint32_t partition(Addr line_addr) const {
    const uint64_t l = line_index(line_addr);
    const uint64_t g = l / partitions_;
    return static_cast<uint32_t>((l % partitions_ + hash(g)) % partitions_);
  }
  // The line's index inside its partition.
  uint64_t local_line(Addr line_addr) const { return line_index(line_addr) / partitions_; }

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
};

}  // namespace l1d::sim
