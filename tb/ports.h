// Reading and writing verilated ports of any width as plain integers.
//
// Verilator gives a port of up to 8, 16, 32 or 64 bits a CData, SData, IData or QData, and a
// wider one a VlWide<N> of 32-bit words, depending on the configuration the RTL was emitted
// for. These helpers let one testbench serve every width:
//   tb::put(m.addr_i, addr);                        // addr must fit the port (Verilator needs the
//                                                   // unused high bits of the container zero)
//   uint64_t tag = tb::get(m.tags_o, s * C, C);     // bits [s*C +: C] of any port
#pragma once

#include <verilated.h>

#include <cstdint>
#include <type_traits>

namespace tb {

inline constexpr uint64_t low_mask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

template <class P>
uint64_t get(const P& port, unsigned lsb = 0, unsigned width = 64) {
  if constexpr (std::is_integral_v<P>) {
    return lsb >= 64 ? 0 : (static_cast<uint64_t>(port) >> lsb) & low_mask(width);
  } else {  // VlWide<N>: 32-bit words, least significant first
    uint64_t v = 0;
    for (unsigned i = 0; i < width && i < 64; ++i) {
      const unsigned b = lsb + i;
      v |= static_cast<uint64_t>((port[b / 32] >> (b % 32)) & 1U) << i;
    }
    return v;
  }
}

template <class P>
void put(P& port, uint64_t value, unsigned lsb = 0, unsigned width = 64) {
  if constexpr (std::is_integral_v<P>) {
    const uint64_t mask = low_mask(width) << lsb;
    port = static_cast<P>((static_cast<uint64_t>(port) & ~mask) | ((value << lsb) & mask));
  } else {
    for (unsigned i = 0; i < width && i < 64; ++i) {
      const unsigned b = lsb + i;
      const auto bit = static_cast<uint32_t>(1U << (b % 32));
      port[b / 32] = ((value >> i) & 1U) != 0 ? (port[b / 32] | bit) : (port[b / 32] & ~bit);
    }
  }
}

}  // namespace tb
