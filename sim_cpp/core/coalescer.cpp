// The coalescers (SPEC section 10; GPGPU-Sim 4 / Accel-Sim for sm_60+). See coalescer.h.
//
// Rules both implement:
//  - only lanes in active_mask take part; an instruction with no active lane yields no request;
//  - access_bytes must be 1, 2, 4, 8 or 16 and every active lane's address aligned to it (an
//    aligned access of at most 16 B cannot cross a 128 B line; the check is kept for clarity). A
//    16-byte lane (uint4 / float4) is coalesced as the narrower ones: GPGPU-Sim's
//    memory_coalescing_arch gives data sizes 4, 8 and 16 the same 128 B segment (32 B sectored);
//  - byte_mask / data are indexed by the offset in the 128 B line; stores carry the lanes'
//    values little-endian, a later lane overwriting an earlier one where they overlap;
//  - requests are sorted by address (one per touched line, so addresses are distinct).
// fermi: one request per touched 128 B aligned segment: size 128, shrunk to 64 when every touched
// byte lies in one aligned 64 B half, then to 32 when in one aligned 32 B quarter.
// sector: one request per touched 128 B line, size 128, at the line address; only the byte mask
// says which bytes (and so which 32 B sectors) the warp touches.
//
// Why the sector coalescer looks like this. GPGPU-Sim 4's warp_inst_t::memory_coalescing_arch
// (abstract_hardware_model.cc) sets sector_segment_size for gpgpu_coalesce_arch >= 40 (the tested
// configs say 61, 70, 80, 86, 90): every segment is 32 B whatever the access width, so a warp
// instruction becomes one 32 B access per touched sector. Its Volta-and-later L1 has
// gpgpu_l1_banks 4 banks interleaved by 32 B (one sector per bank), so the up to four sector
// accesses of one 128 B line are looked up in the same cycle. Our L1 takes one request per cycle,
// so the closest timing is one request per line carrying the touched sectors in its byte mask
// (a sector L1, l1.sector, fetches only those). Sending four 32 B requests instead would cost
// four L1 cycles where the reference spends one. Not modelled: bank conflicts between sectors of
// different lines that map to the same bank in one cycle (the reference serialises them; here
// different lines always take different cycles anyway).
#include "sim_cpp/core/coalescer.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

namespace l1d::sim {
namespace {

// A store lane's bytes are copied from its 64-bit value: byte b is bits 8b .. 8b+7 only on a
// little-endian host.
static_assert(std::endian::native == std::endian::little, "the coalescer assumes a little-endian host");

// Filled in when a lane first touches the line (not zero-initialised: a warp has 32 of them,
// 5 KB, and most instructions touch one to four lines).
struct Segment {
  Addr line;
  uint64_t mask[2];  // bytes 0-63 and 64-127 of the line
  LineData data;     // stores only
};

// Size of the smallest aligned 128/64/32 B block holding every set byte, and its offset.
void shrink(const Segment& s, uint32_t& size, uint32_t& offset) {
  size = kLineBytes;
  offset = 0;
  uint64_t half_mask = 0;
  if (s.mask[1] == 0) {
    size = 64, offset = 0, half_mask = s.mask[0];
  } else if (s.mask[0] == 0) {
    size = 64, offset = 64, half_mask = s.mask[1];
  } else {
    return;
  }
  if ((half_mask >> 32) == 0) {
    size = 32;
  } else if ((half_mask & 0xFFFFFFFFu) == 0) {
    size = 32, offset += 32;
  }
}

// The touched lines of an instruction, in increasing address order (`order` indexes `segs`;
// gather() writes every field of the segments it uses, the rest stay uninitialised).
struct Gathered {
  Segment segs[kWarpSize];
  uint8_t order[kWarpSize];
  uint32_t count = 0;
  bool store = false;
};

// Bits [lo, hi) of a line's bytes that fall in its mask word `word` (0: bytes 0-63, 1: 64-127).
uint64_t range_bits(uint32_t lo, uint32_t hi, uint32_t word) {
  const uint32_t base = 64 * word;
  const uint32_t l = std::clamp(lo, base, base + 64) - base, h = std::clamp(hi, base, base + 64) - base;
  if (h <= l) return 0;
  return (h - l == 64 ? ~uint64_t{0} : (uint64_t{1} << (h - l)) - 1) << l;
}

// gather() of a whole warp whose lane l is at a + l * kBytes, a aligned (the coalesced access:
// a strided trace's, an array walk's): the touched bytes are one run of 32 * kBytes, so each
// touched line's mask is one range and a store's bytes are the lanes' values packed in lane
// order, without the per-lane loop. The lines come in increasing order, as the lane loop would
// find them. Returns false, having written nothing, for any other instruction (the lane loop
// then decides, and names a misaligned lane).
template <uint32_t kBytes, bool kStore>
bool gather_run(const WarpInst& inst, Gathered& g) {
  constexpr uint32_t kRun = kWarpSize * kBytes;
  const Addr a = inst.addr[0];
  if (inst.active_mask != 0xFFFFFFFFu || (a & (kBytes - 1)) != 0 || a > ~Addr{0} - kRun - kLineBytes) return false;
  Addr uneven = 0;  // no early exit: the check vectorises
  for (uint32_t l = 1; l < kWarpSize; ++l) uneven |= inst.addr[l] ^ (a + Addr{l} * kBytes);
  if (uneven != 0) return false;
  [[maybe_unused]] uint8_t packed[kStore ? kRun : 1];
  if constexpr (kStore) {
    for (uint32_t l = 0; l < kWarpSize; ++l) {
      std::memcpy(packed + l * kBytes, &inst.value[l], kBytes < 8 ? kBytes : 8);
      if constexpr (kBytes == 16) std::memcpy(packed + l * kBytes + 8, &inst.value_hi[l], 8);
    }
  }
  const Addr end = a + kRun;
  for (Addr line = a & ~Addr{kLineBytes - 1}; line < end; line += kLineBytes) {
    Segment& seg = g.segs[g.count++];
    const auto lo = static_cast<uint32_t>(std::max(a, line) - line);
    const auto hi = static_cast<uint32_t>(std::min(end, line + kLineBytes) - line);
    seg.line = line;
    seg.mask[0] = range_bits(lo, hi, 0);
    seg.mask[1] = range_bits(lo, hi, 1);
    if constexpr (kStore) {
      seg.data.fill(0);
      std::memcpy(&seg.data[lo], packed + (line + lo - a), hi - lo);
    }
  }
  return true;
}

// gather()'s lane loop for one access width and direction (compile-time constants: the mask
// shift, the alignment test and the store's copy of a lane's bytes are then fixed-size, where a
// width read per lane cost a variable shift and a memcpy call per lane).
template <uint32_t kBytes, bool kStore>
void gather_lanes(const WarpInst& inst, Gathered& g) {
  if (gather_run<kBytes, kStore>(inst, g)) return;
  Segment* seg = nullptr;  // the previous lane's segment: neighbouring lanes mostly share a line
  // The active lanes in increasing order, visited by their set bits (a mask, not a division:
  // kBytes is a power of two).
  for (uint32_t lanes = inst.active_mask; lanes != 0; lanes &= lanes - 1) {
    const auto lane = static_cast<uint32_t>(std::countr_zero(lanes));
    const Addr a = inst.addr[lane];
    if ((a & (kBytes - 1)) != 0) {
      throw std::invalid_argument("coalesce: lane " + std::to_string(lane) + " address " + std::to_string(a) +
                                  " not aligned to " + std::to_string(kBytes) + " B");
    }
    const Addr line = a & ~Addr{kLineBytes - 1};
    const auto off = static_cast<uint32_t>(a - line);
    if (off + kBytes > kLineBytes) {
      throw std::invalid_argument("coalesce: lane " + std::to_string(lane) + " access crosses a 128 B line");
    }
    if (seg == nullptr || seg->line != line) {
      seg = nullptr;
      for (uint32_t i = 0; i < g.count; ++i) {
        if (g.segs[i].line == line) {
          seg = &g.segs[i];
          break;
        }
      }
    }
    if (seg == nullptr) {
      seg = &g.segs[g.count++];
      seg->line = line;
      seg->mask[0] = seg->mask[1] = 0;
      if constexpr (kStore) seg->data.fill(0);
    }
    // An aligned access of at most 16 B lies in one 64-bit mask word.
    constexpr uint64_t kLaneBits = (uint64_t{1} << kBytes) - 1;
    seg->mask[off / 64] |= kLaneBits << (off % 64);
    // The lane's bytes, little-endian (WarpInst::store_byte; asserted above): its low 8 in
    // value, a 16 B lane's high 8 in value_hi.
    if constexpr (kStore) {
      std::memcpy(&seg->data[off], &inst.value[lane], kBytes < 8 ? kBytes : 8);
      if constexpr (kBytes == 16) std::memcpy(&seg->data[off + 8], &inst.value_hi[lane], 8);
    }
  }
}

template <bool kStore>
void gather_width(const WarpInst& inst, Gathered& g) {
  switch (inst.access_bytes) {
    case 1: return gather_lanes<1, kStore>(inst, g);
    case 2: return gather_lanes<2, kStore>(inst, g);
    case 4: return gather_lanes<4, kStore>(inst, g);
    case 8: return gather_lanes<8, kStore>(inst, g);
    default: return gather_lanes<16, kStore>(inst, g);  // gather() admits 1, 2, 4, 8 and 16 only
  }
}

void gather(const WarpInst& inst, Gathered& g) {
  if (inst.kind != OpKind::kLoad && inst.kind != OpKind::kStore) {
    throw std::invalid_argument("coalesce: not a load or store");
  }
  const uint32_t bytes = inst.access_bytes;
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16) {
    throw std::invalid_argument("coalesce: access_bytes must be 1, 2, 4, 8 or 16, got " + std::to_string(bytes));
  }
  const bool store = inst.kind == OpKind::kStore;
  g.store = store;
  g.count = 0;
  if (store) {
    gather_width<true>(inst, g);
  } else {
    gather_width<false>(inst, g);
  }
  // Sorted by address through an index (cheaper than moving 150-byte segments).
  for (uint32_t i = 0; i < g.count; ++i) g.order[i] = static_cast<uint8_t>(i);
  std::sort(g.order, g.order + g.count, [&](uint8_t x, uint8_t y) { return g.segs[x].line < g.segs[y].line; });
}

// One request per gathered line; `shrink_to_block` picks the Fermi 32/64/128 B block.
void emit(const Gathered& g, bool shrink_to_block, std::vector<CoalescedRequest>& out) {
  out.assign(g.count, CoalescedRequest{});
  for (uint32_t i = 0; i < g.count; ++i) {
    const Segment& s = g.segs[g.order[i]];
    CoalescedRequest& r = out[i];
    uint32_t offset = 0;
    r.size = kLineBytes;
    if (shrink_to_block) shrink(s, r.size, offset);
    r.addr = s.line + offset;
    r.byte_mask = (ByteMask{s.mask[1]} << 64) | ByteMask{s.mask[0]};
    if (g.store) r.data = s.data;
  }
}

}  // namespace

std::vector<CoalescedRequest> coalesce(const WarpInst& inst) {
  std::vector<CoalescedRequest> out;
  coalesce(inst, out);
  return out;
}

void coalesce(const WarpInst& inst, std::vector<CoalescedRequest>& out) {
  Gathered g;
  gather(inst, g);
  emit(g, /*shrink_to_block=*/true, out);
}

std::vector<CoalescedRequest> coalesce_sector(const WarpInst& inst) {
  std::vector<CoalescedRequest> out;
  coalesce_sector(inst, out);
  return out;
}

void coalesce_sector(const WarpInst& inst, std::vector<CoalescedRequest>& out) {
  Gathered g;
  gather(inst, g);
  emit(g, /*shrink_to_block=*/false, out);
}

CoalesceFn coalescer_for(CoalescerKind kind) {
  switch (kind) {
    case CoalescerKind::kFermi:
      return static_cast<CoalesceFn>(&coalesce);
    case CoalescerKind::kSector:
      return static_cast<CoalesceFn>(&coalesce_sector);
  }
  throw std::invalid_argument("coalescer_for: unknown coalescer kind");
}

}  // namespace l1d::sim
