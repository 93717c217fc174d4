// Tag-mask tables and the tag processor (SPEC sections 2 and 3).
// Expected masks are written out by hand from SPEC section 3, never computed from the rule.
#include "golden/tag_mask.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "common/address.h"

namespace l1d::golden {
namespace {

constexpr int8_t X = kNotCompared;  // "-" in the paper's notation

struct MaskCase {
  uint32_t granularity;
  uint32_t request_size;
  TagMask expected;
};

std::string mask_case_name(const testing::TestParamInfo<MaskCase>& info) {
  return "G" + std::to_string(info.param.granularity) + "_R" + std::to_string(info.param.request_size);
}

class TagMaskTable : public testing::TestWithParam<MaskCase> {};

TEST_P(TagMaskTable, MatchesHandWrittenMask) {
  const MaskCase& c = GetParam();
  EXPECT_EQ(tag_mask(c.granularity, c.request_size), c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    AllPairs, TagMaskTable,
    testing::Values(
        // G = 128: one piece per line, only its head (slot 0) is compared.
        MaskCase{128, 32, {0, X, X, X}}, MaskCase{128, 64, {0, X, X, X}},
        MaskCase{128, 128, {0, X, X, X}},
        // G = 64 table.
        MaskCase{64, 32, {0, X, 0, X}}, MaskCase{64, 64, {0, X, 0, X}},
        MaskCase{64, 128, {0, X, 2, X}},
        // G = 32 table.
        MaskCase{32, 32, {0, 0, 0, 0}}, MaskCase{32, 64, {0, 1, 0, 1}},
        MaskCase{32, 128, {0, 1, 2, 3}}),
    mask_case_name);

// Shorthand for the expected tag processor output.
struct Expected {
  std::array<bool, kSlotsPerLine> compared;
  std::array<uint32_t, kSlotsPerLine> tag;  // ignored where not compared
};

void expect_tags(const ComputedTags& got, const Expected& want) {
  for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
    SCOPED_TRACE("slot " + std::to_string(s));
    EXPECT_EQ(got.compared[s], want.compared[s]);
    if (want.compared[s]) {
      EXPECT_EQ(got.tag[s], want.tag[s]);
    }
  }
}

// --- The paper's worked example (SPEC section 2) ---

TEST(TagMaskPaperExample, AddressDecodesToPaperFields) {
  const AddressSplit split(32, 16, 32, SetIndexHash::kLinear);
  const DecodedAddr d = split.decode(0x04000100);
  EXPECT_EQ(d.chunk_tag, 0x0000u);
  EXPECT_EQ(d.common_tag, 0x01u);
  EXPECT_EQ(d.set, 0x02u);
  EXPECT_EQ(split.common_tag_bits(), 6u);
}

TEST(TagMaskPaperExample, G64R128GivesPaperMaskAndTags) {
  const AddressSplit split(32, 16, 32, SetIndexHash::kLinear);
  const DecodedAddr d = split.decode(0x04000100);
  EXPECT_EQ(tag_mask(64, 128), (TagMask{0, X, 2, X}));
  expect_tags(compute_chunk_tags(64, 128, d.chunk_tag, split.chunk_tag_bits()),
              {{true, false, true, false}, {0x0000, 0, 0x0002, 0}});
}

// --- The tag processor on non-trivial chunk-tags ---

TEST(ComputeChunkTags, UnalignedTagG32R64AlignsToPairBase) {
  // 0x1237 is chunk 3 of its line: the 64 B request covers chunks 2-3, base 0x1236.
  expect_tags(compute_chunk_tags(32, 64, 0x1237, 16),
              {{true, true, true, true}, {0x1236, 0x1237, 0x1236, 0x1237}});
}

TEST(ComputeChunkTags, NonZeroChunkIndexG32R128AlignsToLineBase) {
  expect_tags(compute_chunk_tags(32, 128, 0x1235, 16),
              {{true, true, true, true}, {0x1234, 0x1235, 0x1236, 0x1237}});
}

TEST(ComputeChunkTags, SmallRequestG64R32UsesPieceHeadTag) {
  // A 32 B request for chunk 1 lives in the 64 B piece starting at chunk 0 (0xABC).
  expect_tags(compute_chunk_tags(64, 32, 0x0ABD, 16),
              {{true, false, true, false}, {0x0ABC, 0, 0x0ABC, 0}});
  // Chunk 3 lives in the piece starting at chunk 2.
  expect_tags(compute_chunk_tags(64, 32, 0x0ABF, 16),
              {{true, false, true, false}, {0x0ABE, 0, 0x0ABE, 0}});
}

TEST(ComputeChunkTags, G128ComparesLineHeadOnly) {
  expect_tags(compute_chunk_tags(128, 32, 0x4323, 16), {{true, false, false, false}, {0x4320, 0, 0, 0}});
  expect_tags(compute_chunk_tags(128, 64, 0x4322, 16), {{true, false, false, false}, {0x4320, 0, 0, 0}});
}

TEST(ComputeChunkTags, G32R32ComparesEverySlotWithTheRequestTag) {
  expect_tags(compute_chunk_tags(32, 32, 0x7A5E, 16),
              {{true, true, true, true}, {0x7A5E, 0x7A5E, 0x7A5E, 0x7A5E}});
}

TEST(ComputeChunkTags, WideChunkTagKeepsAllTwentyBits) {
  // C = 20: the top tag bits must survive (no truncation to 16 bits) and no offset carries out.
  expect_tags(compute_chunk_tags(32, 128, 0xFFFFF, 20),
              {{true, true, true, true}, {0xFFFFC, 0xFFFFD, 0xFFFFE, 0xFFFFF}});
  expect_tags(compute_chunk_tags(64, 128, 0x80001, 20),
              {{true, false, true, false}, {0x80000, 0, 0x80002, 0}});
}

TEST(ComputeChunkTags, BitsAboveChunkTagWidthAreDropped) {
  // Only C wires reach the tag processor.
  expect_tags(compute_chunk_tags(32, 128, 0x12345, 16),
              {{true, true, true, true}, {0x2344, 0x2345, 0x2346, 0x2347}});
  expect_tags(compute_chunk_tags(64, 64, 0xFFF00003u, 20),
              {{true, false, true, false}, {0x00002, 0, 0x00002, 0}});
}

TEST(ComputeChunkTags, FullWidth32BitChunkTag) {
  expect_tags(compute_chunk_tags(32, 64, 0xFFFFFFFFu, 32),
              {{true, true, true, true}, {0xFFFFFFFEu, 0xFFFFFFFFu, 0xFFFFFFFEu, 0xFFFFFFFFu}});
}

// --- Illegal arguments ---

TEST(TagMaskArguments, IllegalGranularityThrows) {
  for (uint32_t g : {0u, 16u, 48u, 96u, 256u}) {
    SCOPED_TRACE(g);
    EXPECT_THROW(tag_mask(g, 32), std::invalid_argument);
    EXPECT_THROW(compute_chunk_tags(g, 32, 0, 16), std::invalid_argument);
  }
}

TEST(TagMaskArguments, IllegalRequestSizeThrows) {
  for (uint32_t r : {0u, 8u, 33u, 96u, 256u}) {
    SCOPED_TRACE(r);
    EXPECT_THROW(tag_mask(64, r), std::invalid_argument);
    EXPECT_THROW(compute_chunk_tags(64, r, 0, 16), std::invalid_argument);
  }
}

TEST(TagMaskArguments, IllegalChunkTagWidthThrows) {
  for (uint32_t c : {0u, 2u, 33u}) {
    SCOPED_TRACE(c);
    EXPECT_THROW(compute_chunk_tags(32, 32, 0, c), std::invalid_argument);
  }
  EXPECT_NO_THROW(compute_chunk_tags(32, 32, 0, 3));
}

// --- Exhaustive properties over every (G, R) and every chunk-tag low 4 bits ---

constexpr uint32_t kSizes[] = {32, 64, 128};

TEST(TagMaskProperties, ComparedTagsStayInRequestBlockAndIncreasePerPosition) {
  for (uint32_t g : kSizes) {
    for (uint32_t r : kSizes) {
      const uint32_t block_slots = std::max(g, r) / kChunkBytes;
      for (uint32_t low = 0; low < 16; ++low) {
        // Unaligned values too: the tag processor must align them itself.
        const uint32_t request = 0x5A50u | low;
        SCOPED_TRACE("G=" + std::to_string(g) + " R=" + std::to_string(r) + " tag=" + std::to_string(request));
        const ComputedTags t = compute_chunk_tags(g, r, request, 16);
        const uint32_t block = request / block_slots;  // the max(R,G)-aligned block holding the request
        bool have_prev = false;
        uint32_t prev = 0;
        for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
          if (s % block_slots == 0) have_prev = false;  // a new candidate position starts
          if (!t.compared[s]) continue;
          EXPECT_EQ(t.tag[s] / block_slots, block) << "slot " << s;
          if (have_prev) {
            EXPECT_GT(t.tag[s], prev) << "slot " << s;
          }
          prev = t.tag[s];
          have_prev = true;
        }
      }
    }
  }
}

TEST(TagMaskProperties, EveryPositionCoversTheWholeFetchBlockWithItsPieces) {
  // At each candidate position the compared heads, each standing for G/32 chunks, must name
  // every chunk of the max(R, G) block exactly once: that is what a hit needs.
  for (uint32_t g : kSizes) {
    for (uint32_t r : kSizes) {
      SCOPED_TRACE("G=" + std::to_string(g) + " R=" + std::to_string(r));
      const uint32_t block_slots = std::max(g, r) / kChunkBytes;
      const uint32_t piece_slots = g / kChunkBytes;
      const ComputedTags t = compute_chunk_tags(g, r, 0x0100, 16);
      for (uint32_t pos = 0; pos < kSlotsPerLine; pos += block_slots) {
        std::array<int, kSlotsPerLine> covered{};
        for (uint32_t s = pos; s < pos + block_slots; ++s) {
          if (!t.compared[s]) continue;
          for (uint32_t k = 0; k < piece_slots; ++k) ++covered[t.tag[s] - 0x0100 + k];
        }
        for (uint32_t k = 0; k < block_slots; ++k) EXPECT_EQ(covered[k], 1) << "pos " << pos << " chunk " << k;
      }
    }
  }
}

TEST(TagMaskProperties, OnlyPieceHeadsAreCompared) {
  for (uint32_t g : kSizes) {
    for (uint32_t r : kSizes) {
      SCOPED_TRACE("G=" + std::to_string(g) + " R=" + std::to_string(r));
      const TagMask m = tag_mask(g, r);
      uint32_t compared = 0;
      for (uint32_t s = 0; s < kSlotsPerLine; ++s) {
        if (m[s] != kNotCompared) ++compared;
        EXPECT_EQ(m[s] != kNotCompared, s % (g / kChunkBytes) == 0) << "slot " << s;
      }
      EXPECT_EQ(compared, kLineBytes / g);  // one head per piece
    }
  }
}

}  // namespace
}  // namespace l1d::golden
