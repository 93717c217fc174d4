#include "common/address.h"

#include <algorithm>
#include <bit>
#include <fmt/format.h>

namespace l1d {

AddressSplit::AddressSplit(uint32_t sets, uint32_t chunk_tag_bits, uint32_t address_bits,
                           SetIndexHash hash)
    : sets_(sets), chunk_tag_bits_(chunk_tag_bits), address_bits_(address_bits), hash_(hash) {
  if (sets == 0 || !std::has_single_bit(sets))
    throw ConfigError(fmt::format("address split: sets = {} is not a power of two", sets));
  set_bits_ = static_cast<uint32_t>(std::countr_zero(sets));
  if (address_bits > 64 || address_bits < 7 + set_bits_ + 1)
    throw ConfigError(fmt::format("address split: address_bits = {} too small or over 64", address_bits));
  line_tag_bits_ = address_bits - 7 - set_bits_;
  if (chunk_tag_bits < 3 || chunk_tag_bits - 2 > line_tag_bits_ || chunk_tag_bits > 32)
    throw ConfigError(fmt::format("address split: chunk_tag_bits = {} must be in 3..{}", chunk_tag_bits,
                                  std::min<uint32_t>(32, line_tag_bits_ + 2)));
  common_tag_bits_ = line_tag_bits_ - (chunk_tag_bits - 2);
  if (hash == SetIndexHash::kFermiXor && sets != 32 && sets != 64)
    throw ConfigError(fmt::format("address split: fermi_xor set hash needs 32 or 64 sets, not {}", sets));
}

uint32_t AddressSplit::hash_bits(Addr a) const {
  if (hash_ == SetIndexHash::kLinear) return 0;
  // Fermi L1 hash (Nugteren et al., HPCA 2014): the 5 low set bits are XOR-ed with
  // address bits 13, 14, 15, 17 and 19.
  uint32_t x = static_cast<uint32_t>(((a >> 13) & 0x7) | (((a >> 17) & 1) << 3) | (((a >> 19) & 1) << 4));
  return x;
}

DecodedAddr AddressSplit::decode(Addr a) const {
  if (address_bits_ < 64) a &= (Addr{1} << address_bits_) - 1;
  DecodedAddr d;
  d.chunk = static_cast<uint32_t>((a >> 5) & 3);
  uint32_t linear = static_cast<uint32_t>((a >> 7) & (sets_ - 1));
  d.set = linear ^ (hash_bits(a) & (sets_ - 1) & 0x1F);
  d.line_tag = a >> (7 + set_bits_);
  uint32_t low_bits = chunk_tag_bits_ - 2;
  d.chunk_tag = static_cast<uint32_t>(((d.line_tag & ((uint64_t{1} << low_bits) - 1)) << 2) | d.chunk);
  d.common_tag = d.line_tag >> low_bits;
  return d;
}

Addr AddressSplit::chunk_address(uint32_t set, uint64_t common_tag, uint32_t chunk_tag) const {
  uint32_t low_bits = chunk_tag_bits_ - 2;
  uint64_t line_tag = (common_tag << low_bits) | (chunk_tag >> 2);
  Addr without_set = (line_tag << (7 + set_bits_)) | (Addr{chunk_tag & 3} << 5);
  // The hash only reads bits above the set field, so it can be undone from the tag.
  uint32_t linear = (set ^ (hash_bits(without_set) & (sets_ - 1) & 0x1F)) & (sets_ - 1);
  return without_set | (Addr{linear} << 7);
}

}  // namespace l1d
