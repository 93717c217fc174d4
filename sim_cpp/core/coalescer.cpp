// The Fermi coalescer (SPEC section 10). See coalescer.h.
//
// Rules implemented here:
//  - only lanes in active_mask take part; an instruction with no active lane yields no request;
//  - access_bytes must be 1, 2, 4 or 8 and every active lane's address aligned to it (an aligned
//    access of at most 8 B cannot cross a 128 B line; the check is kept for clarity);
//  - one request per touched 128 B aligned segment: size 128, shrunk to 64 when every touched
//    byte lies in one aligned 64 B half, then to 32 when in one aligned 32 B quarter;
//  - byte_mask / data are indexed by the offset in the 128 B line; stores carry the lanes'
//    values little-endian, a later lane overwriting an earlier one where they overlap;
//  - requests are sorted by address (segments are distinct, so addresses are too).
#include "sim_cpp/core/coalescer.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace l1d::sim {
namespace {

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

}  // namespace

std::vector<CoalescedRequest> coalesce(const WarpInst& inst) {
  std::vector<CoalescedRequest> out;
  coalesce(inst, out);
  return out;
}

void coalesce(const WarpInst& inst, std::vector<CoalescedRequest>& out) {
  if (inst.kind != OpKind::kLoad && inst.kind != OpKind::kStore) {
    throw std::invalid_argument("coalesce: not a load or store");
  }
  const uint32_t bytes = inst.access_bytes;
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) {
    throw std::invalid_argument("coalesce: access_bytes must be 1, 2, 4 or 8, got " + std::to_string(bytes));
  }
  const bool store = inst.kind == OpKind::kStore;

  Segment segs[kWarpSize];
  uint32_t nsegs = 0;
  Segment* seg = nullptr;  // the previous lane's segment: neighbouring lanes mostly share a line
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    if (((inst.active_mask >> lane) & 1u) == 0) continue;
    const Addr a = inst.addr[lane];
    if (a % bytes != 0) {
      throw std::invalid_argument("coalesce: lane " + std::to_string(lane) + " address " + std::to_string(a) +
                                  " not aligned to " + std::to_string(bytes) + " B");
    }
    const Addr line = a & ~Addr{kLineBytes - 1};
    const auto off = static_cast<uint32_t>(a - line);
    if (off + bytes > kLineBytes) {
      throw std::invalid_argument("coalesce: lane " + std::to_string(lane) + " access crosses a 128 B line");
    }
    if (seg == nullptr || seg->line != line) {
      seg = nullptr;
      for (uint32_t i = 0; i < nsegs; ++i) {
        if (segs[i].line == line) {
          seg = &segs[i];
          break;
        }
      }
    }
    if (seg == nullptr) {
      seg = &segs[nsegs++];
      seg->line = line;
      seg->mask[0] = seg->mask[1] = 0;
      if (store) seg->data.fill(0);
    }
    // An aligned access of at most 8 B lies in one 64-bit mask word.
    seg->mask[off / 64] |= ((uint64_t{1} << bytes) - 1) << (off % 64);
    if (store)
      for (uint32_t b = 0; b < bytes; ++b) seg->data[off + b] = static_cast<uint8_t>(inst.value[lane] >> (8 * b));
  }

  // Sorted by address through an index (cheaper than moving 150-byte segments).
  uint8_t order[kWarpSize];
  for (uint32_t i = 0; i < nsegs; ++i) order[i] = static_cast<uint8_t>(i);
  std::sort(order, order + nsegs, [&](uint8_t x, uint8_t y) { return segs[x].line < segs[y].line; });
  out.assign(nsegs, CoalescedRequest{});
  for (uint32_t i = 0; i < nsegs; ++i) {
    const Segment& s = segs[order[i]];
    CoalescedRequest& r = out[i];
    uint32_t offset = 0;
    shrink(s, r.size, offset);
    r.addr = s.line + offset;
    r.byte_mask = (ByteMask{s.mask[1]} << 64) | ByteMask{s.mask[0]};
    if (store) r.data = s.data;
  }
}

}  // namespace l1d::sim
