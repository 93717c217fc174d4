// Sparse functional memory image (functional_memory.h).
#include "sim_cpp/mem/functional_memory.h"

#include <algorithm>

#include "common/byte_lanes.h"

namespace l1d::sim {

namespace {

constexpr Addr kLineMask = ~Addr{kLineBytes - 1};

// initial_byte(a + i) for i < n. Its bits 13-20 of the 64-bit product are in the product's low
// 32 bits, (a mod 2^32) * kMul mod 2^32, so the product advanced by addition in 32 bits gives
// the same bytes, and GCC vectorises that induction (four 32-bit lanes a vector on the baseline
// target: about 2 instructions a byte instead of 2.8 with the 64-bit product, whose loop stayed
// scalar; a multiply per byte, i * kMul, vectorised at 6.4; docs/performance.md, twentieth round).
void fill_initial(uint8_t* out, Addr a, uint32_t n) {
  constexpr uint32_t kMul = 0x9E3779B1u;
  uint32_t prod = static_cast<uint32_t>(a) * kMul;
  for (uint32_t i = 0; i < n; ++i, prod += kMul) out[i] = static_cast<uint8_t>(prod >> 13);
}

LineData initial_line(Addr line_addr) {
  LineData d;
  fill_initial(d.data(), line_addr, kLineBytes);
  return d;
}

}  // namespace

FunctionalMemory::Page* FunctionalMemory::find_page(Addr page) const {
  if (page != cache_.page) {
    auto it = pages_.find(page);
    cache_.page = page;
    // The cache also serves line_ref() (non-const); the map element itself is never const.
    cache_.ptr = it == pages_.end() ? nullptr : const_cast<Page*>(&it->second);
  }
  return cache_.ptr;
}

const LineData* FunctionalMemory::find_line(Addr line_addr) const {
  const Page* p = find_page(page_of(line_addr));
  const uint32_t i = index_in_page(line_addr);
  return p && (p->stored >> i & 1u) ? &p->lines[i] : nullptr;
}

LineData FunctionalMemory::line(Addr line_addr) const {
  line_addr &= kLineMask;
  const LineData* l = find_line(line_addr);
  return l ? *l : initial_line(line_addr);
}

uint8_t FunctionalMemory::read8(Addr a) const {
  const LineData* l = find_line(a & kLineMask);
  return l ? (*l)[a % kLineBytes] : initial_byte(a);
}

void FunctionalMemory::write8(Addr a, uint8_t v) { line_ref(a & kLineMask)[a % kLineBytes] = v; }

void FunctionalMemory::read_bytes(Addr a, void* out, uint64_t n) const {
  auto* dst = static_cast<uint8_t*>(out);
  while (n > 0) {
    const auto off = static_cast<uint32_t>(a % kLineBytes);
    const auto k = static_cast<uint32_t>(std::min<uint64_t>(n, kLineBytes - off));
    if (const LineData* l = find_line(a & kLineMask)) {
      std::memcpy(dst, l->data() + off, k);
    } else {
      fill_initial(dst, a, k);
    }
    a += k, dst += k, n -= k;
  }
}

void FunctionalMemory::write_bytes(Addr a, const void* data, uint64_t n) {
  const auto* src = static_cast<const uint8_t*>(data);
  while (n > 0) {
    const auto off = static_cast<uint32_t>(a % kLineBytes);
    const auto k = static_cast<uint32_t>(std::min<uint64_t>(n, kLineBytes - off));
    std::memcpy(line_ref(a & kLineMask, k == kLineBytes).data() + off, src, k);
    a += k, src += k, n -= k;
  }
}

void FunctionalMemory::apply_write(const MemReq& r) {
  if (r.byte_mask.none()) return;
  if (r.byte_mask.all()) {
    line_ref(r.line_addr & kLineMask, true) = r.data;
    return;
  }
  LineData& l = line_ref(r.line_addr & kLineMask);
  byte_lanes::merge_masked(l, r.data, r.byte_mask);
}

LineData FunctionalMemory::read_sectors(Addr line_addr, SectorMask sectors) const {
  line_addr &= kLineMask;
  LineData out{};
  const LineData* l = find_line(line_addr);
  for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
    if (!((sectors >> s) & 1)) continue;
    const uint32_t b0 = s * kChunkBytes;
    if (l) {
      std::memcpy(out.data() + b0, l->data() + b0, kChunkBytes);
    } else {
      fill_initial(out.data() + b0, line_addr + b0, kChunkBytes);
    }
  }
  return out;
}

LineData& FunctionalMemory::line_ref(Addr line_addr, bool whole) {
  const Addr page = page_of(line_addr);
  Page* p = find_page(page);
  if (!p) {
    p = &pages_[page];
    cache_.page = page;
    cache_.ptr = p;
  }
  const uint32_t i = index_in_page(line_addr);
  if (!(p->stored >> i & 1u)) {
    if (!whole) fill_initial(p->lines[i].data(), line_addr & kLineMask, kLineBytes);
    p->stored |= 1u << i;
  }
  return p->lines[i];
}

}  // namespace l1d::sim
