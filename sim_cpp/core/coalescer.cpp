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

struct Segment {
  Addr line = 0;
  uint64_t mask[2] = {0, 0};  // bytes 0-63 and 64-127 of the line
  LineData data{};
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
    Segment* s = nullptr;
    for (uint32_t i = 0; i < nsegs; ++i) {
      if (segs[i].line == line) {
        s = &segs[i];
        break;
      }
    }
    if (s == nullptr) {
      s = &segs[nsegs++];
      s->line = line;
    }
    for (uint32_t b = 0; b < bytes; ++b) {
      const uint32_t o = off + b;
      s->mask[o / 64] |= uint64_t{1} << (o % 64);
      if (store) s->data[o] = static_cast<uint8_t>(inst.value[lane] >> (8 * b));
    }
  }

  std::sort(segs, segs + nsegs, [](const Segment& x, const Segment& y) { return x.line < y.line; });
  std::vector<CoalescedRequest> out(nsegs);
  for (uint32_t i = 0; i < nsegs; ++i) {
    const Segment& s = segs[i];
    CoalescedRequest& r = out[i];
    uint32_t offset = 0;
    shrink(s, r.size, offset);
    r.addr = s.line + offset;
    for (uint32_t o = 0; o < kLineBytes; ++o) {
      if ((s.mask[o / 64] >> (o % 64)) & 1u) r.byte_mask.set(o);
    }
    if (store) r.data = s.data;
  }
  return out;
}

}  // namespace l1d::sim
