// Tests of the DyCache address split (SPEC section 2). Expected values are worked out by hand in
// the comments, not by re-running the implementation's formula.
#include "common/address.h"

#include <gtest/gtest.h>

#include <random>

namespace l1d {
namespace {

void expect_decoded(const AddressSplit& s, Addr a, uint32_t set, uint64_t common_tag, uint32_t chunk_tag,
                    uint32_t chunk) {
  const DecodedAddr d = s.decode(a);
  EXPECT_EQ(d.set, set) << std::hex << "addr 0x" << a;
  EXPECT_EQ(d.common_tag, common_tag) << std::hex << "addr 0x" << a;
  EXPECT_EQ(d.chunk_tag, chunk_tag) << std::hex << "addr 0x" << a;
  EXPECT_EQ(d.chunk, chunk) << std::hex << "addr 0x" << a;
}

L1Config l1_of(uint32_t size_bytes, uint32_t ways, SetIndexHash hash) {
  L1Config c;
  c.size_bytes = size_bytes;
  c.ways = ways;
  c.set_index = hash;
  return c;
}

TEST(AddressSplit, SpecSection2Example) {
  // 32 sets, C = 16, A = 32: common-tag = addr[31:26], chunk-tag = {addr[25:12], addr[6:5]}, set =
  // addr[11:7].
  const AddressSplit s(32, 16, 32, SetIndexHash::kLinear);
  EXPECT_EQ(s.common_tag_bits(), 6u);
  EXPECT_EQ(s.line_tag_bits(), 20u);
  expect_decoded(s, 0x04000100, /*set=*/0x02, /*common_tag=*/0x01, /*chunk_tag=*/0x0000, /*chunk=*/0);
  // The other 64 B piece of the paper's example: same line, chunk slot 2 -> chunk-tag 0x0002.
  expect_decoded(s, 0x04000140, 0x02, 0x01, 0x0002, 2);
}

TEST(AddressSplit, Gtx480GeometryLinearByHand) {
  const AddressSplit s(l1_of(16384, 4, SetIndexHash::kLinear));  // 32 sets
  // 0x12345678: chunk = bits 6:5 of 0x78 = 3; set = (0x12345678 >> 7) & 31 = 0x2468AC & 31 = 12;
  // line tag = 0x12345, its low 14 bits 0x2345 -> chunk-tag 0x2345 << 2 | 3 = 0x8D17; common = 0x12345 >> 14
  // = 4.
  expect_decoded(s, 0x12345678, 12, 0x4, 0x8D17, 3);
  // All ones: set 31, chunk 3, chunk-tag 0xFFFF, common-tag 0x3F (6 bits).
  expect_decoded(s, 0xFFFFFFE0, 31, 0x3F, 0xFFFF, 3);
  // Byte 0x40 is slot 2 of line 0.
  expect_decoded(s, 0x00000040, 0, 0, 2, 2);
  // Bits above address_bits are ignored.
  expect_decoded(s, 0x1'04000100, 0x02, 0x01, 0x0000, 0);
}

TEST(AddressSplit, FourSets48WaysByHand) {
  const L1Config c = l1_of(24576, 48, SetIndexHash::kLinear);
  ASSERT_EQ(c.sets(), 4u);
  const AddressSplit s(c);
  EXPECT_EQ(s.set_bits(), 2u);
  EXPECT_EQ(s.line_tag_bits(), 23u);   // 32 - 7 - 2
  EXPECT_EQ(s.common_tag_bits(), 9u);  // 23 - 14
  // 0x12345678: set = 0x2468AC & 3 = 0; line tag = 0x12345678 >> 9 = 0x91A2B;
  // chunk-tag = (0x91A2B & 0x3FFF) << 2 | 3 = 0x1A2B << 2 | 3 = 0x68AF; common = 0x91A2B >> 14 = 0x24.
  expect_decoded(s, 0x12345678, 0, 0x24, 0x68AF, 3);
  // 0x3A0: chunk = (0xA0 >> 5) & 3 = 1; set = (0x3A0 >> 7) & 3 = 3; line tag 1 -> chunk-tag 1 << 2 | 1 = 5.
  expect_decoded(s, 0x000003A0, 3, 0, 5, 1);
}

TEST(AddressSplit, FourSets64WaysByHand) {
  const L1Config c = l1_of(32768, 64, SetIndexHash::kLinear);
  ASSERT_EQ(c.sets(), 4u);
  const AddressSplit s(c);
  // 0xDEADBEEF: chunk = (0xEF >> 5) & 3 = 3; set = (0xDEADBEEF >> 7) & 3 = 0x1BD5B7D & 3 = 1;
  // line tag = 0x6F56DF; chunk-tag = (0x6F56DF & 0x3FFF) << 2 | 3 = 0x16DF << 2 | 3 = 0x5B7F;
  // common = 0x6F56DF >> 14 = 0x1BD.
  expect_decoded(s, 0xDEADBEEF, 1, 0x1BD, 0x5B7F, 3);
}

TEST(AddressSplit, FermiXorSetIndexByHand) {
  // set = addr[11:7] ^ {addr[19], addr[17], addr[15:13]}
  const AddressSplit s(l1_of(16384, 4, SetIndexHash::kFermiXor));
  // 0xE080: linear set 1; bits 15:13 = 7, bits 17, 19 = 0 -> 1 ^ 7 = 6.
  EXPECT_EQ(s.decode(0x0000E080).set, 6u);
  // 0xA0000: linear set 0; bits 19 and 17 set -> 0b11000 = 24.
  EXPECT_EQ(s.decode(0x000A0000).set, 24u);
  // 0x12345678: linear set 12; bits 15:13 = 0x91A2 & 7 = 2; bits 17, 19 = 0 -> 12 ^ 2 = 14.
  EXPECT_EQ(s.decode(0x12345678).set, 14u);
  // The tag is not hashed: same split as linear apart from the set.
  const AddressSplit linear(32, 16, 32, SetIndexHash::kLinear);
  EXPECT_EQ(s.decode(0x12345678).chunk_tag, linear.decode(0x12345678).chunk_tag);
  EXPECT_EQ(s.decode(0x12345678).common_tag, linear.decode(0x12345678).common_tag);
  // 64 sets (GPGPU-Sim's 48 KB Fermi L1): set bit 5 is addr[12], the low 5 bits are hashed.
  // 0x3080: linear set 0x21 = 33; bits 15:13 = 1 -> 33 ^ 1 = 32.
  const AddressSplit s64(64, 16, 32, SetIndexHash::kFermiXor);
  EXPECT_EQ(s64.decode(0x00003080).set, 32u);
}

TEST(AddressSplit, RejectsGeometriesTheHardwareCannotBuild) {
  EXPECT_THROW(AddressSplit(48, 16, 32, SetIndexHash::kLinear), ConfigError);   // sets not a power of two
  EXPECT_THROW(AddressSplit(4, 16, 32, SetIndexHash::kFermiXor), ConfigError);  // Fermi hash needs 32/64 sets
  EXPECT_THROW(AddressSplit(32, 23, 32, SetIndexHash::kLinear), ConfigError);   // 21 low tag bits > 20
  EXPECT_THROW(AddressSplit(32, 2, 32, SetIndexHash::kLinear), ConfigError);    // no room for the chunk index
  EXPECT_NO_THROW(AddressSplit(32, 22, 32, SetIndexHash::kLinear));  // the whole tag in the chunk-tag
}

struct Geometry {
  const char* name;
  uint32_t sets, chunk_tag_bits, address_bits;
  SetIndexHash hash;
};

void PrintTo(const Geometry& g, std::ostream* os) { *os << g.name; }

class RoundTrip : public ::testing::TestWithParam<Geometry> {};

// chunk_address() is decode()'s inverse: (set, common-tag, chunk-tag) names exactly one 32 B chunk.
TEST_P(RoundTrip, ChunkAddressOfDecodeIsTheChunkBase) {
  const Geometry& g = GetParam();
  const AddressSplit s(g.sets, g.chunk_tag_bits, g.address_bits, g.hash);
  const Addr mask = g.address_bits == 64 ? ~Addr{0} : (Addr{1} << g.address_bits) - 1;
  std::mt19937_64 rng(g.sets * 131 + g.chunk_tag_bits);
  for (int i = 0; i < 20000; ++i) {
    const Addr a = rng() & mask;
    const DecodedAddr d = s.decode(a);
    ASSERT_LT(d.set, g.sets);
    ASSERT_LT(d.chunk_tag, uint64_t{1} << g.chunk_tag_bits);
    ASSERT_LT(d.common_tag, uint64_t{1} << s.common_tag_bits());
    ASSERT_EQ(d.chunk_tag & 3, d.chunk);
    ASSERT_EQ(s.chunk_address(d.set, d.common_tag, d.chunk_tag), a & ~Addr{31}) << std::hex << "addr 0x" << a;
  }
}

INSTANTIATE_TEST_SUITE_P(Geometries, RoundTrip,
                         ::testing::Values(Geometry{"gtx480_linear", 32, 16, 32, SetIndexHash::kLinear},
                                           Geometry{"gtx480_fermi", 32, 16, 32, SetIndexHash::kFermiXor},
                                           Geometry{"sets64_fermi_widest_chunk_tag", 64, 21, 32,
                                                    SetIndexHash::kFermiXor},
                                           Geometry{"sets4_gtx1080_qv100", 4, 16, 32, SetIndexHash::kLinear},
                                           Geometry{"sets1_narrow", 1, 3, 16, SetIndexHash::kLinear},
                                           Geometry{"sets8192_a64_c32", 8192, 32, 64, SetIndexHash::kLinear}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

}  // namespace
}  // namespace l1d
