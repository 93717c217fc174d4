// Address split of the DyCache L1 (SPEC section 2) for any legal geometry.
//   addr[4:0] byte in chunk | addr[6:5] chunk index | next log2(sets) bits: set | rest: line tag
//   chunk-tag  = { low (C-2) bits of the line tag, chunk index }   (C = chunk_tag_bits)
//   common-tag = the line tag above those C-2 bits
// With the Fermi XOR set hash the set index is the linear index XOR-ed with higher address
// bits; the tag is unchanged, so (set, tag) still names exactly one line.
#pragma once

#include <cstdint>

#include "common/config.h"
#include "common/types.h"

namespace l1d {

struct DecodedAddr {
  uint32_t set = 0;
  uint64_t line_tag = 0;
  uint64_t common_tag = 0;
  uint32_t chunk_tag = 0;
  uint32_t chunk = 0;  // chunk index in the line, 0..3
};

class AddressSplit {
 public:
  AddressSplit(uint32_t sets, uint32_t chunk_tag_bits, uint32_t address_bits, SetIndexHash hash);
  explicit AddressSplit(const L1Config& c)
      : AddressSplit(c.sets(), c.chunk_tag_bits, c.address_bits, c.set_index) {}

  DecodedAddr decode(Addr a) const;
  // Inverse: the address of chunk `chunk_tag` (with common_tag) stored in `set`.
  Addr chunk_address(uint32_t set, uint64_t common_tag, uint32_t chunk_tag) const;

  uint32_t sets() const { return sets_; }
  uint32_t set_bits() const { return set_bits_; }
  uint32_t chunk_tag_bits() const { return chunk_tag_bits_; }
  uint32_t common_tag_bits() const { return common_tag_bits_; }
  uint32_t line_tag_bits() const { return line_tag_bits_; }

 private:
  uint32_t hash_bits(Addr a) const;  // the XOR term of the Fermi hash (0 for linear)

  uint32_t sets_;
  uint32_t set_bits_;
  uint32_t chunk_tag_bits_;
  uint32_t address_bits_;
  uint32_t line_tag_bits_;
  uint32_t common_tag_bits_;
  SetIndexHash hash_;
};

}  // namespace l1d
