// The coalescers: the Fermi one (SPEC section 10) and the sector one (core.coalescer: sector,
// GPGPU-Sim 4 / Accel-Sim for sm_60+): hand-computed cases, then randomised comparisons against a
// byte-level oracle.
#include "sim_cpp/core/coalescer.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <vector>

namespace l1d::sim {
namespace {

constexpr Addr kBase = 0x10000;  // 128 B aligned

WarpInst mem_inst(OpKind kind, uint32_t bytes, Addr base, uint64_t stride, uint32_t mask = 0xFFFFFFFFu) {
  WarpInst w;
  w.kind = kind;
  w.access_bytes = bytes;
  w.active_mask = mask;
  for (uint32_t l = 0; l < kWarpSize; ++l) w.addr[l] = base + l * stride;
  return w;
}

WarpInst load(uint32_t bytes, Addr base, uint64_t stride, uint32_t mask = 0xFFFFFFFFu) {
  return mem_inst(OpKind::kLoad, bytes, base, stride, mask);
}

ByteMask bytes_set(uint32_t from, uint32_t to) {  // [from, to)
  ByteMask m;
  for (uint32_t i = from; i < to; ++i) m.set(i);
  return m;
}

// n requests of `size` B, the i-th at kBase + step * i, each with byte mask `mask`.
void expect_requests(const std::vector<CoalescedRequest>& r, uint32_t n, Addr step, uint32_t size,
                     const ByteMask& mask) {
  ASSERT_EQ(r.size(), n);
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(r[i].addr, kBase + step * i) << i;
    EXPECT_EQ(r[i].size, size) << i;
    EXPECT_EQ(r[i].byte_mask, mask) << i;
  }
}

TEST(Coalescer, FourByteUnitStrideIsOne128ByteRequest) {
  const auto r = coalesce(load(4, kBase, 4));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].addr, kBase);
  EXPECT_EQ(r[0].size, 128u);
  EXPECT_TRUE(r[0].byte_mask.all());
  EXPECT_EQ(r[0].data, LineData{});  // loads carry no data
}

TEST(Coalescer, OneAndTwoByteUnitStrideShrinkTo32And64) {
  // 32 x 1 B = 32 B: one quarter of the line.
  auto r = coalesce(load(1, kBase, 1));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].addr, kBase);
  EXPECT_EQ(r[0].size, 32u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(0, 32));
  // The same in the third quarter: the request starts there, the mask stays at line offsets.
  r = coalesce(load(1, kBase + 64, 1));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].addr, kBase + 64);
  EXPECT_EQ(r[0].size, 32u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(64, 96));
  // 32 x 2 B = 64 B: one half; the upper half too.
  r = coalesce(load(2, kBase, 2));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].size, 64u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(0, 64));
  r = coalesce(load(2, kBase + 64, 2));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].addr, kBase + 64);
  EXPECT_EQ(r[0].size, 64u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(64, 128));
}

TEST(Coalescer, EightByteUnitStrideIsTwo128ByteRequests) {
  const auto r = coalesce(load(8, kBase, 8));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].addr, kBase);
  EXPECT_EQ(r[1].addr, kBase + 128);
  for (const auto& q : r) {
    EXPECT_EQ(q.size, 128u);
    EXPECT_TRUE(q.byte_mask.all());
  }
}

TEST(Coalescer, UnalignedWarpBaseSpansTwoSegments) {
  // 32 x 4 B starting 64 B into a line: bytes 64..127 of line 0 and 0..63 of line 1.
  const auto r = coalesce(load(4, kBase + 64, 4));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].addr, kBase + 64);
  EXPECT_EQ(r[0].size, 64u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(64, 128));
  EXPECT_EQ(r[1].addr, kBase + 128);
  EXPECT_EQ(r[1].size, 64u);
  EXPECT_EQ(r[1].byte_mask, bytes_set(0, 64));
}

TEST(Coalescer, Stride8Of4ByteWordsIsTwoFullLines) {
  // Lanes 0..15 cover bytes 0..123 of line 0 (every other word), lanes 16..31 the same of
  // line 1: both halves of each line are touched, so two 128 B requests.
  const auto r = coalesce(load(4, kBase, 8));
  ASSERT_EQ(r.size(), 2u);
  ByteMask expect;
  for (uint32_t k = 0; k < 16; ++k) expect |= bytes_set(8 * k, 8 * k + 4);
  for (uint32_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r[i].addr, kBase + 128 * i);
    EXPECT_EQ(r[i].size, 128u);
    EXPECT_EQ(r[i].byte_mask, expect);
  }
}

TEST(Coalescer, Stride128GivesThirtyTwo32ByteRequests) {
  auto r = coalesce(load(4, kBase, 128));
  expect_requests(r, 32, 128, 32, bytes_set(0, 4));
  // Offset 0x44 in each line: the request is the line's third quarter.
  r = coalesce(load(4, kBase + 0x44, 128));
  ASSERT_EQ(r.size(), 32u);
  EXPECT_EQ(r[5].addr, kBase + 5 * 128 + 64);
  EXPECT_EQ(r[5].size, 32u);
  EXPECT_EQ(r[5].byte_mask, bytes_set(0x44, 0x48));
}

TEST(Coalescer, ShrinkNeedsAlignedHalvesAndQuarters) {
  // 16 lanes x 4 B at bytes 32..95: inside no aligned half -> 128 B.
  auto r = coalesce(load(4, kBase + 32, 4, 0x0000FFFFu));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].addr, kBase);
  EXPECT_EQ(r[0].size, 128u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(32, 96));
  // 8 lanes x 4 B at bytes 16..47: in the lower half but across its quarters -> 64 B.
  r = coalesce(load(4, kBase + 16, 4, 0x000000FFu));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].addr, kBase);
  EXPECT_EQ(r[0].size, 64u);
  // 8 lanes x 4 B at bytes 80..111: upper half, across quarters -> 64 B at +64.
  r = coalesce(load(4, kBase + 80, 4, 0x000000FFu));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].addr, kBase + 64);
  EXPECT_EQ(r[0].size, 64u);
  // 8 lanes x 4 B at bytes 96..127: the last quarter -> 32 B at +96.
  r = coalesce(load(4, kBase + 96, 4, 0x000000FFu));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].addr, kBase + 96);
  EXPECT_EQ(r[0].size, 32u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(96, 128));
  // One byte at 31 and one at 32: two quarters of the lower half -> 64 B.
  WarpInst w = load(1, kBase + 31, 1, 0x3u);
  r = coalesce(w);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].size, 64u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(31, 33));
}

TEST(Coalescer, BroadcastIsOne32ByteRequest) {
  const auto r = coalesce(load(4, kBase + 8, 0));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].addr, kBase);
  EXPECT_EQ(r[0].size, 32u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(8, 12));
}

TEST(Coalescer, InactiveLanesAreIgnored) {
  // Lanes 16..31 are inactive and hold misaligned, far-away addresses: not looked at.
  WarpInst w = load(4, kBase, 4, 0x0000FFFFu);
  for (uint32_t l = 16; l < 32; ++l) w.addr[l] = 0xDEAD0001 + l;
  auto r = coalesce(w);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].addr, kBase);
  EXPECT_EQ(r[0].size, 64u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(0, 64));
  // Every other lane: bytes 0-3, 8-11, ..., 120-123 -> still both halves -> 128 B.
  r = coalesce(load(4, kBase, 4, 0x55555555u));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].size, 128u);
  EXPECT_EQ(r[0].byte_mask.count(), 64u);
  // No active lane: no request.
  EXPECT_TRUE(coalesce(load(4, kBase, 4, 0u)).empty());
}

TEST(Coalescer, ScatteredLanesGiveSortedRequestsPerSegment) {
  WarpInst w = load(4, 0, 0, 0);
  const std::pair<uint32_t, Addr> lanes[] = {
      {0, kBase + 0x300 + 0x10},  {3, kBase + 0x100 + 0x7C},  {9, kBase + 0x300 + 0x14},
      {17, kBase + 0x000 + 0x40}, {30, kBase + 0x100 + 0x00},
  };
  for (const auto& [lane, a] : lanes) {
    w.active_mask |= 1u << lane;
    w.addr[lane] = a;
  }
  const auto r = coalesce(w);
  ASSERT_EQ(r.size(), 3u);
  // line 0x000: byte 0x40..0x43 -> third quarter.
  EXPECT_EQ(r[0].addr, kBase + 0x40);
  EXPECT_EQ(r[0].size, 32u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(0x40, 0x44));
  // line 0x100: bytes 0..3 and 0x7C..0x7F -> both halves -> 128 B.
  EXPECT_EQ(r[1].addr, kBase + 0x100);
  EXPECT_EQ(r[1].size, 128u);
  EXPECT_EQ(r[1].byte_mask, bytes_set(0, 4) | bytes_set(0x7C, 0x80));
  // line 0x300: bytes 0x10..0x17 -> first quarter.
  EXPECT_EQ(r[2].addr, kBase + 0x300);
  EXPECT_EQ(r[2].size, 32u);
  EXPECT_EQ(r[2].byte_mask, bytes_set(0x10, 0x18));
}

TEST(Coalescer, StoreDataIsLittleEndianAtLineOffsets) {
  WarpInst w = mem_inst(OpKind::kStore, 4, kBase + 32, 4, 0x000000FFu);  // bytes 32..63
  for (uint32_t l = 0; l < 8; ++l) w.value[l] = 0xA0B0C000u + l;
  const auto r = coalesce(w);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].addr, kBase + 32);
  EXPECT_EQ(r[0].size, 32u);
  for (uint32_t l = 0; l < 8; ++l) {
    EXPECT_EQ(r[0].data[32 + 4 * l + 0], 0x00 + l);
    EXPECT_EQ(r[0].data[32 + 4 * l + 1], 0xC0);
    EXPECT_EQ(r[0].data[32 + 4 * l + 2], 0xB0);
    EXPECT_EQ(r[0].data[32 + 4 * l + 3], 0xA0);
  }
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(r[0].data[i], 0) << i;  // untouched bytes are zero
  for (uint32_t i = 64; i < 128; ++i) EXPECT_EQ(r[0].data[i], 0) << i;
}

TEST(Coalescer, StoreWidthsUseTheLowBytesOfTheValue) {
  WarpInst w = mem_inst(OpKind::kStore, 8, kBase + 8, 0, 0x1u);
  w.value[0] = 0x0102030405060708ull;
  auto r = coalesce(w);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(8, 16));
  for (uint32_t b = 0; b < 8; ++b) EXPECT_EQ(r[0].data[8 + b], 8 - b);
  w = mem_inst(OpKind::kStore, 1, kBase + 5, 0, 0x1u);
  w.value[0] = 0x1FF;  // only the low byte is stored
  r = coalesce(w);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(5, 6));
  EXPECT_EQ(r[0].data[5], 0xFF);
  EXPECT_EQ(r[0].data[6], 0);
  w = mem_inst(OpKind::kStore, 2, kBase + 6, 0, 0x1u);
  w.value[0] = 0xABCD1234;
  r = coalesce(w);
  EXPECT_EQ(r[0].data[6], 0x34);
  EXPECT_EQ(r[0].data[7], 0x12);
}

TEST(Coalescer, OverlappingStoresLaterLaneWins) {
  WarpInst w = mem_inst(OpKind::kStore, 4, kBase, 4, 0u);
  w.active_mask = (1u << 3) | (1u << 7) | (1u << 20);
  w.addr[3] = kBase + 0x10, w.value[3] = 0x11111111;
  w.addr[7] = kBase + 0x10, w.value[7] = 0x77777777;
  w.addr[20] = kBase + 0x14, w.value[20] = 0x20202020;
  auto r = coalesce(w);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].byte_mask, bytes_set(0x10, 0x18));
  for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(r[0].data[0x10 + b], 0x77);
  for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(r[0].data[0x14 + b], 0x20);
  // Order is by lane number, not by position in the mask's iteration: lane 31 beats lane 0.
  w = mem_inst(OpKind::kStore, 4, kBase, 0, 0x80000001u);
  w.value[0] = 0xAAAAAAAA;
  w.value[31] = 0x55555555;
  r = coalesce(w);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].data[0], 0x55);
}

TEST(Coalescer, RejectsMisalignedAndLineCrossingLanes) {
  EXPECT_THROW(coalesce(load(4, kBase + 2, 4)), std::invalid_argument);        // 4 B at +2
  EXPECT_THROW(coalesce(load(2, kBase + 1, 2)), std::invalid_argument);        // 2 B at +1
  EXPECT_THROW(coalesce(load(8, kBase + 4, 8)), std::invalid_argument);        // 8 B at +4
  EXPECT_THROW(coalesce(load(8, kBase + 124, 0, 1u)), std::invalid_argument);  // bytes 124..131 cross the line
  EXPECT_THROW(coalesce(load(4, kBase + 126, 0, 1u)), std::invalid_argument);  // bytes 126..129 cross the line
  // Only one lane misaligned is enough.
  WarpInst w = load(4, kBase, 4);
  w.addr[17] += 1;
  EXPECT_THROW(coalesce(w), std::invalid_argument);
  // ... but not if it is inactive.
  w.active_mask &= ~(1u << 17);
  EXPECT_EQ(coalesce(w).size(), 1u);
}

TEST(Coalescer, RejectsUnsupportedWidthsAndNonMemoryInstructions) {
  EXPECT_THROW(coalesce(load(32, kBase, 32)), std::invalid_argument);  // wider than a uint4
  EXPECT_THROW(coalesce(load(0, kBase, 0)), std::invalid_argument);
  EXPECT_THROW(coalesce(load(3, kBase, 3)), std::invalid_argument);
  WarpInst alu;
  alu.kind = OpKind::kAlu;
  EXPECT_THROW(coalesce(alu), std::invalid_argument);
  WarpInst exit;
  exit.kind = OpKind::kExit;
  EXPECT_THROW(coalesce(exit), std::invalid_argument);
}

// A uint4 / float4 per lane (16 B): unit stride is 512 B, four full lines; the CUDA SDK
// shfl_intimage_rows store (threads 4g..4g+3 write uint4s 16g + 0..3) touches 64 B of each of 8
// lines, eight 64 B requests; a lane's bytes 8-15 come from value_hi.
TEST(Coalescer, SixteenByteLanes) {
  auto r = coalesce(load(16, kBase, 16));
  expect_requests(r, 4, 128, 128, bytes_set(0, 128));
  WarpInst w = mem_inst(OpKind::kStore, 16, kBase, 0);
  for (uint32_t l = 0; l < kWarpSize; ++l) {
    w.addr[l] = kBase + 16 * ((l / 4) * 16 + l % 4);
    w.value[l] = 0x0706050403020100ull + l;
    w.value_hi[l] = 0x0F0E0D0C0B0A0908ull;
  }
  r = coalesce(w);
  expect_requests(r, 8, 256, 64, bytes_set(0, 64));
  for (uint32_t g = 0; g < r.size(); ++g) {
    for (uint32_t b = 0; b < 16; ++b)  // lane 4g + 1's uint4, at offset 16 of its 64 B
      EXPECT_EQ(r[g].data[16 + b], b == 0 ? 4 * g + 1 : b) << g << " " << b;
  }
  EXPECT_EQ(coalesce_sector(w).size(), 8u);
  EXPECT_THROW(coalesce(load(16, kBase + 8, 16)), std::invalid_argument);  // 16 B lanes 16 B aligned
}

// A random load or store of 1, 2, 4, 8 or 16 B per lane, some lanes inactive, its lanes within
// 1..8 lines from kBase (an LCG advanced in `s`).
WarpInst random_memory_inst(uint64_t& s) {
  const auto rnd = [&s]() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 33;
  };
  const uint32_t widths[] = {1, 2, 4, 8, 16};
  WarpInst w;
  w.kind = rnd() % 2 ? OpKind::kStore : OpKind::kLoad;
  w.access_bytes = widths[rnd() % 5];
  w.active_mask = static_cast<uint32_t>(rnd()) | (rnd() % 4 == 0 ? 0xFFFFFFFFu : 0u);
  const uint64_t span = 128ull << (rnd() % 4);
  for (uint32_t l = 0; l < kWarpSize; ++l) {
    w.addr[l] = kBase + (rnd() % span) / w.access_bytes * w.access_bytes;
    w.value[l] = (rnd() << 32) | rnd();
    w.value_hi[l] = (rnd() << 32) | rnd();
  }
  return w;
}

// The byte-level oracle (random instructions below): requests cover exactly the touched bytes,
// one per touched segment, each the smallest aligned 32/64/128 B block that holds them, sorted;
// store data equals the last writer of each byte.
void expect_byte_oracle(const WarpInst& w) {
  {
    std::map<Addr, uint8_t> oracle;  // byte -> value (last lane wins)
    for (uint32_t l = 0; l < kWarpSize; ++l) {
      if (!((w.active_mask >> l) & 1)) continue;
      for (uint32_t b = 0; b < w.access_bytes; ++b) oracle[w.addr[l] + b] = w.store_byte(l, b);
    }
    const auto reqs = coalesce(w);
    std::set<Addr> lines;
    for (const auto& [a, v] : oracle) lines.insert(a & ~Addr{127});
    ASSERT_EQ(reqs.size(), lines.size());
    Addr prev = 0;
    std::map<Addr, uint8_t> seen;
    for (const auto& r : reqs) {
      ASSERT_TRUE(r.size == 32 || r.size == 64 || r.size == 128);
      ASSERT_EQ(r.addr % r.size, 0u);
      ASSERT_GE(r.addr, prev);
      prev = r.addr + 1;
      const Addr line = r.addr & ~Addr{127};
      const uint32_t lo = static_cast<uint32_t>(r.addr - line);
      uint32_t first = 128, last = 0;
      for (uint32_t o = 0; o < 128; ++o) {
        if (!r.byte_mask[o]) {
          if (w.kind == OpKind::kStore) {
            ASSERT_EQ(r.data[o], 0);
          }
          continue;
        }
        ASSERT_GE(o, lo);
        ASSERT_LT(o, lo + r.size);
        first = std::min(first, o), last = std::max(last, o);
        seen[line + o] = w.kind == OpKind::kStore ? r.data[o] : oracle.at(line + o);
      }
      // Minimal: the touched bytes are not inside one aligned half of the request.
      if (r.size > 32) {
        ASSERT_NE(first / (r.size / 2), last / (r.size / 2));
      }
    }
    ASSERT_EQ(seen, oracle);
  }
}

TEST(Coalescer, MatchesByteOracleOnRandomInstructions) {
  uint64_t s = 12345;
  for (int iter = 0; iter < 3000; ++iter) {
    const WarpInst w = random_memory_inst(s);
    ASSERT_NO_FATAL_FAILURE(expect_byte_oracle(w)) << iter;
  }
}

// A whole warp of contiguous lanes (gather's run path: one byte range per touched line, a store's
// values packed in lane order), at every aligned start across three lines, each width, loads and
// stores: the byte oracle's requests, and the same requests from both coalescers as the same
// lanes in reverse order give (the lane-by-lane loop).
TEST(Coalescer, ContiguousWarpsMatchTheOracleAndTheLaneLoop) {
  uint64_t s = 777;
  const auto rnd = [&s]() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 33;
  };
  for (const uint32_t bytes : {1u, 2u, 4u, 8u, 16u})
    for (const OpKind kind : {OpKind::kLoad, OpKind::kStore})
      for (Addr base = kBase - 256; base < kBase + 128; base += bytes) {
        SCOPED_TRACE(testing::Message() << bytes << " B at " << base);
        WarpInst w = mem_inst(kind, bytes, base, bytes), rev = w;
        for (uint32_t l = 0; l < kWarpSize; ++l) {
          w.value[l] = (rnd() << 32) | rnd();
          w.value_hi[l] = (rnd() << 32) | rnd();
        }
        for (uint32_t l = 0; l < kWarpSize; ++l) {
          rev.addr[l] = w.addr[kWarpSize - 1 - l];
          rev.value[l] = w.value[kWarpSize - 1 - l];
          rev.value_hi[l] = w.value_hi[kWarpSize - 1 - l];
        }
        ASSERT_NO_FATAL_FAILURE(expect_byte_oracle(w));
        for (const CoalesceFn f : {coalescer_for(CoalescerKind::kFermi), coalescer_for(CoalescerKind::kSector)}) {
          std::vector<CoalescedRequest> a, b;
          f(w, a);
          f(rev, b);
          ASSERT_EQ(a.size(), b.size());
          for (size_t i = 0; i < a.size(); ++i) {
            EXPECT_EQ(a[i].addr, b[i].addr) << i;
            EXPECT_EQ(a[i].size, b[i].size) << i;
            EXPECT_EQ(a[i].byte_mask, b[i].byte_mask) << i;
            EXPECT_EQ(a[i].data, b[i].data) << i;
          }
        }
      }
}

// ---- the sector coalescer: one 128 B request per touched line, byte mask = touched bytes ----

void expect_line_request(const CoalescedRequest& r, Addr line, const ByteMask& mask) {
  EXPECT_EQ(r.addr, line);
  EXPECT_EQ(r.size, 128u);
  EXPECT_EQ(r.byte_mask, mask);
}

TEST(SectorCoalescer, StridedAccessesGiveOneLineRequestPerTouchedLine) {
  // Unit stride, 4 B: one line, every byte.
  auto r = coalesce_sector(load(4, kBase, 4));
  ASSERT_EQ(r.size(), 1u);
  expect_line_request(r[0], kBase, bytes_set(0, 128));
  // Unit stride, 4 B, starting half-way into a line: two lines, never shrunk (Fermi: two 64 B).
  r = coalesce_sector(load(4, kBase + 64, 4));
  ASSERT_EQ(r.size(), 2u);
  expect_line_request(r[0], kBase, bytes_set(64, 128));
  expect_line_request(r[1], kBase + 128, bytes_set(0, 64));
  // Stride 8 of 4 B words: two lines, every other word.
  r = coalesce_sector(load(4, kBase, 8));
  ASSERT_EQ(r.size(), 2u);
  ByteMask every_other;
  for (uint32_t k = 0; k < 16; ++k) every_other |= bytes_set(8 * k, 8 * k + 4);
  expect_line_request(r[0], kBase, every_other);
  expect_line_request(r[1], kBase + 128, every_other);
  // Stride 128 at offset 0x44: 32 lines, each a line-aligned 128 B request naming 4 bytes of sector 2.
  r = coalesce_sector(load(4, kBase + 0x44, 128));
  ASSERT_EQ(r.size(), 32u);
  for (uint32_t i = 0; i < 32; ++i) expect_line_request(r[i], kBase + 128 * i, bytes_set(0x44, 0x48));
  // Stride 32 of 8 B: four lanes per line, one 8 B piece in each of the line's four sectors.
  r = coalesce_sector(load(8, kBase, 32));
  ASSERT_EQ(r.size(), 8u);
  for (uint32_t i = 0; i < 8; ++i)
    expect_line_request(r[i], kBase + 128 * i, bytes_set(0, 8) | bytes_set(32, 40) | bytes_set(64, 72) | bytes_set(96, 104));
}

TEST(SectorCoalescer, OneByteAccessesStayLineRequests) {
  // 32 x 1 B in the third quarter: Fermi sends 32 B at +64; the sector coalescer the line, with
  // the mask naming sector 2 only.
  auto r = coalesce_sector(load(1, kBase + 64, 1));
  ASSERT_EQ(r.size(), 1u);
  expect_line_request(r[0], kBase, bytes_set(64, 96));
  // One byte at 31 and one at 32: two sectors of one line.
  r = coalesce_sector(load(1, kBase + 31, 1, 0x3u));
  ASSERT_EQ(r.size(), 1u);
  expect_line_request(r[0], kBase, bytes_set(31, 33));
  // A broadcast of one byte: one line, one byte.
  r = coalesce_sector(load(1, kBase + 127, 0));
  ASSERT_EQ(r.size(), 1u);
  expect_line_request(r[0], kBase, bytes_set(127, 128));
}

TEST(SectorCoalescer, ScatteredLanesGiveSortedLineRequests) {
  WarpInst w = load(4, 0, 0, 0);
  const std::pair<uint32_t, Addr> lanes[] = {
      {0, kBase + 0x300 + 0x10},  {3, kBase + 0x100 + 0x7C},  {9, kBase + 0x300 + 0x14},
      {17, kBase + 0x000 + 0x40}, {30, kBase + 0x100 + 0x00}, {31, kBase + 0x8000 + 0x60},
  };
  for (const auto& [lane, a] : lanes) {
    w.active_mask |= 1u << lane;
    w.addr[lane] = a;
  }
  const auto r = coalesce_sector(w);
  ASSERT_EQ(r.size(), 4u);
  expect_line_request(r[0], kBase, bytes_set(0x40, 0x44));
  expect_line_request(r[1], kBase + 0x100, bytes_set(0, 4) | bytes_set(0x7C, 0x80));
  expect_line_request(r[2], kBase + 0x300, bytes_set(0x10, 0x18));
  expect_line_request(r[3], kBase + 0x8000, bytes_set(0x60, 0x64));
}

TEST(SectorCoalescer, StoreDataMergesAtLineOffsetsLaterLaneWins) {
  WarpInst w = mem_inst(OpKind::kStore, 4, kBase, 4, 0u);
  w.active_mask = (1u << 3) | (1u << 7) | (1u << 20) | (1u << 25);
  w.addr[3] = kBase + 0x70, w.value[3] = 0x11111111;
  w.addr[7] = kBase + 0x70, w.value[7] = 0x77777777;  // same word as lane 3: lane 7 wins
  w.addr[20] = kBase + 0x74, w.value[20] = 0xA0B0C0D0;
  w.addr[25] = kBase + 0x180, w.value[25] = 0x01020304;  // another line
  const auto r = coalesce_sector(w);
  ASSERT_EQ(r.size(), 2u);
  expect_line_request(r[0], kBase, bytes_set(0x70, 0x78));
  for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(r[0].data[0x70 + b], 0x77);
  EXPECT_EQ(r[0].data[0x74], 0xD0);  // little-endian at the line offset
  EXPECT_EQ(r[0].data[0x77], 0xA0);
  for (uint32_t i = 0; i < 0x70; ++i) ASSERT_EQ(r[0].data[i], 0) << i;  // untouched bytes are zero
  for (uint32_t i = 0x78; i < 128; ++i) ASSERT_EQ(r[0].data[i], 0) << i;
  expect_line_request(r[1], kBase + 0x180, bytes_set(0, 4));
  EXPECT_EQ(r[1].data[0], 0x04);
  EXPECT_EQ(r[1].data[3], 0x01);
}

TEST(SectorCoalescer, InactiveLanesAreIgnored) {
  // Lanes 16..31 inactive, with misaligned far-away addresses: not looked at.
  WarpInst w = load(4, kBase, 4, 0x0000FFFFu);
  for (uint32_t l = 16; l < 32; ++l) w.addr[l] = 0xDEAD0001 + l;
  auto r = coalesce_sector(w);
  ASSERT_EQ(r.size(), 1u);
  expect_line_request(r[0], kBase, bytes_set(0, 64));
  // No active lane: no request, as with Fermi.
  EXPECT_TRUE(coalesce_sector(load(4, kBase, 4, 0u)).empty());
  // A misaligned active lane is still refused.
  w.active_mask |= 1u << 16;
  EXPECT_THROW(coalesce_sector(w), std::invalid_argument);
  EXPECT_THROW(coalesce_sector(load(32, kBase, 32)), std::invalid_argument);  // wider than a uint4
  EXPECT_EQ(coalesce_sector(load(16, kBase, 16)).size(), 4u);                  // a uint4 per lane: 4 lines
}

TEST(SectorCoalescer, ConfigChoosesTheCoalescer) {
  const WarpInst w = load(1, kBase + 64, 1);  // the two disagree on it: 32 B at +64 vs the line
  std::vector<CoalescedRequest> out;
  coalescer_for(CoalescerKind::kFermi)(w, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].size, 32u);
  EXPECT_EQ(out[0].addr, kBase + 64);
  coalescer_for(CoalescerKind::kSector)(w, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].size, 128u);
  EXPECT_EQ(out[0].addr, kBase);
}

// Random instructions: the sector coalescer gives one line-aligned 128 B request per touched line,
// sorted, whose mask is exactly the line's touched bytes and whose data is the last writer of each
// byte; and it touches the same bytes per line as the Fermi coalescer (only size and address differ).
TEST(SectorCoalescer, MatchesByteOracleAndFermiMasksOnRandomInstructions) {
  uint64_t s = 987654321;
  for (int iter = 0; iter < 3000; ++iter) {
    const WarpInst w = random_memory_inst(s);
    std::map<Addr, uint8_t> oracle;
    for (uint32_t l = 0; l < kWarpSize; ++l) {
      if (!((w.active_mask >> l) & 1)) continue;
      for (uint32_t b = 0; b < w.access_bytes; ++b) oracle[w.addr[l] + b] = w.store_byte(l, b);
    }
    const auto reqs = coalesce_sector(w);
    const auto fermi = coalesce(w);
    ASSERT_EQ(reqs.size(), fermi.size());
    std::map<Addr, uint8_t> seen;
    for (size_t i = 0; i < reqs.size(); ++i) {
      const CoalescedRequest& r = reqs[i];
      ASSERT_EQ(r.size, 128u);
      ASSERT_EQ(r.addr % 128, 0u);
      if (i > 0) {
        ASSERT_GT(r.addr, reqs[i - 1].addr);
      }
      ASSERT_EQ(r.addr, fermi[i].addr & ~Addr{127});
      ASSERT_EQ(r.byte_mask, fermi[i].byte_mask);
      if (w.kind == OpKind::kStore) {
        ASSERT_EQ(r.data, fermi[i].data);
      }
      for (uint32_t o = 0; o < 128; ++o) {
        if (!r.byte_mask[o]) {
          if (w.kind == OpKind::kStore) {
            ASSERT_EQ(r.data[o], 0);
          }
          continue;
        }
        seen[r.addr + o] = w.kind == OpKind::kStore ? r.data[o] : oracle.at(r.addr + o);
      }
    }
    ASSERT_EQ(seen, oracle);
  }
}

}  // namespace
}  // namespace l1d::sim
