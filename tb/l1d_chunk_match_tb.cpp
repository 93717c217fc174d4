// Testbench of l1d_chunk_match (gen/blocks/l1d_chunk_match.cpp) against golden::chunk_match and
// golden::find_copies (SPEC section 3) on every configuration of RTL_TB_CONFIGS: random set
// contents drawn from small pools of common-tags and memory lines (so that hits, partial hits and
// misses are all frequent), every way as the hitting way, the inputs outside the golden model's
// contract (illegal codes, unaligned chunk-tags) as the module's header defines them, the netlist
// co-simulation, and on gtx480 the golden model's directed cases with their expected values written
// out here, the paper's example (0x04000100, G = 64 B, R = 128 B) among them.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <random>
#include <utility>
#include <vector>

#include "common/address.h"
#include "golden/chunk_match.h"
#include "l1d_chunk_match_models.h"
#include "tb/golden_set.h"
#include "tb/match_out.h"
#include "tb/testbench.h"

namespace {

constexpr unsigned kSlots = l1d::kSlotsPerLine;
constexpr uint64_t kRandomCycles = 100'000;
constexpr uint64_t kCosimCycles = 100'000;
constexpr uint64_t kOutOfContractCycles = 20'000;

// gran_i / size_i codes (docs/rtl-blocks.md).
constexpr uint64_t k32B = 0, k64B = 1, k128B = 2, kIllegal = 3;

std::string bits4(uint64_t v) { return fmt::format("{:04b}", v & 0xF); }

// The port binding (tb/testbench.h).
struct ChunkMatchIo {
  struct In {
    uint64_t common_tag = 0, chunk_tag = 0, size = 0, gran = 0, sectors = 0;
    std::vector<uint64_t> way_common_tag;  // per way
    std::vector<uint64_t> slot_valid;      // per way, bit s = slot s
    std::vector<uint64_t> slot_tag;        // [w * 4 + s]
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      os << fmt::format("common_tag_i {:#x} chunk_tag_i {:#x} size_i {} gran_i {} sectors_i {}", in.common_tag,
                        in.chunk_tag, in.size, in.gran, bits4(in.sectors));
      for (size_t w = 0; w < in.way_common_tag.size(); ++w) {
        os << fmt::format("\n    way {:2}: common-tag {:#x} valid {} tags", w, in.way_common_tag[w],
                          bits4(in.slot_valid[w]));
        for (unsigned s = 0; s < kSlots; ++s) os << fmt::format(" {:#x}", in.slot_tag[w * kSlots + s]);
      }
      return os;
    }
  };
  using Out = tb::MatchOut;

  explicit ChunkMatchIo(const l1d::Config& cfg)
      : ways(cfg.l1.ways),
        bits(cfg.l1.chunk_tag_bits),
        common_bits(l1d::AddressSplit(cfg.l1).common_tag_bits()),
        port_common_bits(std::max(common_bits, 1U)),
        set(ways) {}

  // A request with an empty set (every slot invalid, every common-tag zero).
  In empty() const {
    In in;
    in.way_common_tag.assign(ways, 0);
    in.slot_valid.assign(ways, 0);
    in.slot_tag.assign(size_t{ways} * kSlots, 0);
    return in;
  }

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.common_tag_i, in.common_tag);
    tb::put(m.chunk_tag_i, in.chunk_tag);
    tb::put(m.size_i, in.size);
    tb::put(m.gran_i, in.gran);
    tb::put(m.sectors_i, in.sectors);
    for (unsigned w = 0; w < ways; ++w) {
      tb::put(m.way_common_tag_i, in.way_common_tag[w], w * port_common_bits, port_common_bits);
      tb::put(m.slot_valid_i, in.slot_valid[w], w * kSlots, kSlots);
      for (unsigned s = 0; s < kSlots; ++s) {
        tb::put(m.slot_tag_i, in.slot_tag[w * kSlots + s], (w * kSlots + s) * bits, bits);
      }
    }
  }
  template <class M>
  Out sample(const M& m) const {
    return Out::sample(m, ways);
  }
  Out golden(const In& in) {
    tb::load_golden_set(set, in.way_common_tag, in.slot_valid, in.slot_tag);
    return Out::golden(set, ways, in.common_tag, in.chunk_tag, in.size, in.gran, in.sectors);
  }
  // The co-simulation's stimulus: the random sets below, with out-of-contract inputs too.
  In random(std::mt19937_64& rng) const { return draw(rng, /*in_contract=*/false); }

  // A random request and set. The set is drawn from two common-tags and three memory lines (the
  // request's and two others), laid out as pieces of the request's granularity (sometimes of
  // another), with invalid slots and stray chunks sprinkled in; a third of the requests find
  // their block planted at a random position of a random way, sometimes with one slot broken.
  // The set need not keep the L1's one-copy invariant (SPEC 3): several ways and positions may
  // hit, which exercises the priority of the first way and the lowest position.
  // With in_contract false, one request in ten has an illegal code or an unaligned chunk-tag.
  In draw(std::mt19937_64& rng, bool in_contract) const {
    auto below = [&](uint64_t n) { return rng() % n; };
    auto chance = [&](unsigned pct) { return below(100) < pct; };

    const uint64_t line_space = uint64_t{1} << (bits - 2);
    std::array<uint64_t, 3> lines{};
    for (size_t i = 0; i < lines.size(); ++i) {
      do {
        lines[i] = below(line_space);
      } while (line_space >= lines.size() && std::find(lines.begin(), lines.begin() + i, lines[i]) != lines.begin() + i);
    }
    std::array<uint64_t, 2> commons{};
    if (common_bits > 0) {
      commons[0] = below(uint64_t{1} << common_bits);
      do {
        commons[1] = below(uint64_t{1} << common_bits);
      } while (commons[1] == commons[0]);
    }
    auto other_common = [&] { return chance(75) || common_bits == 0 ? commons[1] : below(uint64_t{1} << common_bits); };

    In in = empty();
    in.gran = below(3);
    in.size = below(3);
    in.common_tag = commons[0];
    in.chunk_tag = lines[0] << 2 | (below(4) & ~((uint64_t{1} << in.size) - 1));
    in.sectors = below(16);

    // About 1, 2, 4 or every way shares the request's common-tag, whatever the associativity.
    const uint64_t sharing = std::array<uint64_t, 4>{1, 2, 4, ways}[below(4)];
    for (unsigned w = 0; w < ways; ++w) {
      in.way_common_tag[w] = below(ways) < sharing ? commons[0] : other_common();
      const uint64_t piece = uint64_t{1} << (chance(75) ? in.gran : below(3));
      for (uint64_t p = 0; p < kSlots; p += piece) {
        if (chance(25)) continue;  // an empty piece
        const uint64_t line = chance(45) ? lines[0] : lines[1 + below(2)];
        const uint64_t first = below(4) & ~(piece - 1);
        for (uint64_t i = 0; i < piece; ++i) put_slot(in, w, p + i, line << 2 | (first + i), chance(92));
      }
      for (unsigned s = 0; s < kSlots; ++s) {
        if (chance(8)) put_slot(in, w, s, lines[below(3)] << 2 | below(4), chance(50));  // a stray chunk
      }
    }
    if (chance(35)) {  // plant the request's max(G, R) block at a random position of a random way
      const unsigned w = static_cast<unsigned>(below(ways));
      const uint64_t span = uint64_t{1} << std::max(in.gran, in.size);
      const uint64_t base = in.chunk_tag & ~(span - 1);
      const uint64_t pos = below(kSlots / span) * span;
      in.way_common_tag[w] = commons[0];
      for (uint64_t i = 0; i < span; ++i) put_slot(in, w, pos + i, base + i, true);
      if (chance(30)) {  // break one slot: invalid, or another chunk
        const uint64_t s = pos + below(span);
        if (chance(50)) {
          put_slot(in, w, s, in.slot_tag[w * kSlots + s], false);
        } else {
          put_slot(in, w, s, lines[below(3)] << 2 | below(4), true);
        }
      }
    }
    if (!in_contract && chance(10)) {
      if (chance(50)) {
        (chance(50) ? in.gran : in.size) = kIllegal;
      } else {
        in.chunk_tag |= below(4);  // unaligned
      }
    }
    return in;
  }

  static void put_slot(In& in, unsigned w, uint64_t s, uint64_t tag, bool valid) {
    in.slot_tag[w * kSlots + s] = tag;
    in.slot_valid[w] = (in.slot_valid[w] & ~(uint64_t{1} << s)) | (uint64_t{valid} << s);
  }

  unsigned ways, bits, common_bits, port_common_bits;
  std::vector<l1d::golden::CacheLine> set;  // the golden model's view of In
};

using Board = tb::Scoreboard<ChunkMatchIo::In, ChunkMatchIo::Out>;
namespace models = tb::l1d_chunk_match;

// One cycle against the golden model; returns the RTL's outputs.
template <class Model>
ChunkMatchIo::Out check(tb::Dut<Model>& dut, ChunkMatchIo& io, Board& board, const ChunkMatchIo::In& in) {
  tb::check_cycle(dut, io, board, in);
  return io.sample(*dut);
}

template <class Config>
class ChunkMatch : public ::testing::Test {};
TYPED_TEST_SUITE(ChunkMatch, models::Configs);

// 10^5 random requests and sets; hits, partial hits and misses must all be frequent, every
// (G, R) pair must see each of them (but G = R = 32 B, where a request is one slot that either
// hits or is absent, cannot be a partial hit), and every way must be the hitting way at least once.
TYPED_TEST(ChunkMatch, RandomMatchesGolden) {
  using Config = TypeParam;
  ChunkMatchIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "golden", "rtl   ");
  std::mt19937_64 rng(11);
  uint64_t hits = 0, partials = 0, misses = 0;
  std::array<std::array<std::array<uint64_t, 3>, 3>, 3> kinds{};  // [gran][size][miss, hit, partial]
  std::vector<uint64_t> hit_ways(io.ways, 0);
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const ChunkMatchIo::In in = io.draw(rng, /*in_contract=*/true);
    const ChunkMatchIo::Out out = check(dut, io, board, in);
    const unsigned kind = out.hit ? 1 : out.partial ? 2 : 0;
    ++kinds[in.gran][in.size][kind];
    (kind == 1 ? hits : kind == 2 ? partials : misses)++;
    if (out.hit && out.hit_way < io.ways) ++hit_ways[out.hit_way];
  }
  std::cout << fmt::format("[ coverage ] {}/{}: {} cycles: {} hits, {} partial hits, {} misses\n", models::kBlock,
                           Config::kName, kRandomCycles, hits, partials, misses);
  EXPECT_EQ(board.cycles(), kRandomCycles);
  for (uint64_t n : {hits, partials, misses}) EXPECT_GE(n, kRandomCycles / 10);
  for (unsigned g = 0; g < 3; ++g) {
    for (unsigned r = 0; r < 3; ++r) {
      for (unsigned k = 0; k < 3; ++k) {
        if (g == k32B && r == k32B && k == 2) {
          EXPECT_EQ(kinds[g][r][k], 0U) << "G = R = 32 B: a partial hit";
        } else {
          EXPECT_GT(kinds[g][r][k], 0U) << "G code " << g << " R code " << r << " kind " << k;
        }
      }
    }
  }
  for (unsigned w = 0; w < io.ways; ++w) EXPECT_GT(hit_ways[w], 0U) << "way " << w << " never hit";
}

// For every way w: the request's block in way w alone hits there; in every way from w up, way w
// still wins (the lowest index); with an earlier way holding it under another common-tag, too.
TYPED_TEST(ChunkMatch, EveryWayHitsAndTheLowestWins) {
  using Config = TypeParam;
  ChunkMatchIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock, "every_way"), 1);
  Board board(fmt::format("{}/{} every way", models::kBlock, Config::kName), "golden", "rtl   ");
  const uint64_t common = io.common_bits > 0 ? 1 : 0;
  const uint64_t chunk_tag = ((uint64_t{1} << (io.bits - 2)) - 1) << 2 | 2;  // the last line, chunk 2
  for (unsigned w = 0; w < io.ways; ++w) {
    for (unsigned all_above = 0; all_above < 2; ++all_above) {
      if (io.common_bits == 0 && all_above != 0) continue;  // no other common-tag to give earlier ways
      ChunkMatchIo::In in = io.empty();
      in.common_tag = common;
      in.chunk_tag = chunk_tag;
      in.gran = k32B;
      in.size = k32B;
      in.sectors = 0xF;
      for (unsigned v = (all_above != 0 ? 0 : w); v < (all_above != 0 ? io.ways : w + 1); ++v) {
        in.way_common_tag[v] = v < w ? common ^ 1 : common;  // earlier ways: another common-tag
        ChunkMatchIo::put_slot(in, v, 3 - (v % 4), chunk_tag, true);
      }
      const ChunkMatchIo::Out out = check(dut, io, board, in);
      EXPECT_TRUE(out.hit) << "way " << w;
      EXPECT_EQ(out.hit_way, w);
      EXPECT_EQ(out.hit_slots, uint64_t{1} << (3 - (w % 4)));
    }
  }
  EXPECT_EQ(board.mismatches(), 0U);
}

// Outside the golden model's contract (module header): the illegal code 3 of gran_i or size_i
// neither hits nor partially hits while copies_o still works, and the low bits of an unaligned
// chunk-tag below the request size are ignored.
TYPED_TEST(ChunkMatch, OutOfContractInputsFollowTheHeader) {
  using Config = TypeParam;
  ChunkMatchIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock, "out_of_contract"), 1);
  Board board(fmt::format("{}/{} out of contract", models::kBlock, Config::kName), "golden", "rtl   ");
  std::mt19937_64 rng(5);
  for (uint64_t c = 0; c < kOutOfContractCycles; ++c) {
    ChunkMatchIo::In in = io.draw(rng, /*in_contract=*/true);
    switch (c % 4) {
      case 0: in.gran = kIllegal; break;
      case 1: in.size = kIllegal; break;
      case 2: in.gran = in.size = kIllegal; break;
      default: in.chunk_tag |= rng() % 4; break;
    }
    check(dut, io, board, in);
  }
  EXPECT_EQ(board.cycles(), kOutOfContractCycles);
}

TYPED_TEST(ChunkMatch, NetlistMatchesRtl) {
  const ChunkMatchIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

// The golden model's directed cases (golden/test/chunk_match_test.cpp) and a few more, on gtx480,
// with the expected outputs written out here (and each cycle checked against the golden model too).
// Typed on gtx480 alone so that their ctest names carry the block like the others'.
using Out = ChunkMatchIo::Out;

Out hit(uint64_t way, uint64_t slots, std::vector<uint64_t> copies = {0, 0, 0, 0}) {
  return {true, false, way, slots, std::move(copies)};
}
Out partial(std::vector<uint64_t> copies = {0, 0, 0, 0}) { return {false, true, 0, 0, std::move(copies)}; }
Out miss(std::vector<uint64_t> copies = {0, 0, 0, 0}) { return {false, false, 0, 0, std::move(copies)}; }

template <class Config>
class Directed {
 public:
  Directed()
      : io_(tb::load_config<Config>()),
        dut_(tb::wave_name<Config>(models::kBlock, "directed"), 1),
        board_(fmt::format("{}/{} directed", models::kBlock, Config::kName), "golden", "rtl   ") {}
  ~Directed() { EXPECT_EQ(board_.mismatches(), 0U); }
  Directed(const Directed&) = delete;
  Directed& operator=(const Directed&) = delete;

  // A way's line: its common-tag and its valid slots as (slot, chunk-tag).
  struct Line {
    unsigned way;
    uint64_t common_tag;
    std::initializer_list<std::pair<unsigned, uint64_t>> slots;
  };
  // The request (size_i, gran_i codes) against a set holding `lines` (every other slot invalid).
  Out run(uint64_t common_tag, uint64_t chunk_tag, uint64_t size, uint64_t gran, std::initializer_list<Line> lines,
          uint64_t sectors = 0xF) {
    ChunkMatchIo::In in = io_.empty();
    in.common_tag = common_tag;
    in.chunk_tag = chunk_tag;
    in.size = size;
    in.gran = gran;
    in.sectors = sectors;
    for (const Line& l : lines) {
      in.way_common_tag[l.way] = l.common_tag;
      for (auto [slot, tag] : l.slots) ChunkMatchIo::put_slot(in, l.way, slot, tag, true);
    }
    return check(in);
  }
  Out check(const ChunkMatchIo::In& in) { return ::check(dut_, io_, board_, in); }
  const ChunkMatchIo& io() const { return io_; }

 private:
  ChunkMatchIo io_;
  tb::Dut<typename Config::Rtl> dut_;
  Board board_;
};

template <class Config>
class ChunkMatchDirected : public ::testing::Test {};
TYPED_TEST_SUITE(ChunkMatchDirected, ::testing::Types<models::gtx480>);

// SPEC section 3: address 0x04000100 (common-tag 0x1, chunk-tag 0x0000), G = 64 B, R = 128 B:
// mask (0, -, +2, -), so heads 0 and 2 are compared and all four slots must be valid.
TYPED_TEST(ChunkMatchDirected, PaperExample) {
  Directed<TypeParam> d;
  const l1d::DecodedAddr a = l1d::AddressSplit(tb::load_config<TypeParam>().l1).decode(0x04000100);
  ASSERT_EQ(a.common_tag, 0x1U);
  ASSERT_EQ(a.chunk_tag, 0x0000U);
  EXPECT_EQ(d.run(a.common_tag, a.chunk_tag, k128B, k64B, {{1, 0x1, {{0, 0x0}, {1, 0x1}, {2, 0x2}, {3, 0x3}}}}),
            hit(1, 0xF, {0, 0xF, 0, 0}));
  // Only the heads are compared: a wrong chunk-tag in slot 1 or 3 still hits.
  EXPECT_EQ(d.run(0x1, 0x0000, k128B, k64B, {{1, 0x1, {{0, 0x0}, {1, 0x7}, {2, 0x2}, {3, 0x3}}}}),
            hit(1, 0xF, {0, 0xD, 0, 0}));
  // Heads 0 and 2 match, but slot 3 (part of the second 64 B piece) is invalid: partial.
  EXPECT_EQ(d.run(0x1, 0x0000, k128B, k64B, {{0, 0x1, {{0, 0x0}, {1, 0x1}, {2, 0x2}}}}), partial({0x7, 0, 0, 0}));
  // The wrong common-tag: a miss, no copies.
  EXPECT_EQ(d.run(0x1, 0x0000, k128B, k64B, {{0, 0x2, {{0, 0x0}, {1, 0x1}, {2, 0x2}, {3, 0x3}}}}), miss());
  // The pieces in the wrong order (chunks 2-3 at slots 0-1): partial.
  EXPECT_EQ(d.run(0x1, 0x0000, k128B, k64B, {{2, 0x1, {{0, 0x2}, {1, 0x3}, {2, 0x0}, {3, 0x1}}}}),
            partial({0, 0, 0xF, 0}));
}

TYPED_TEST(ChunkMatchDirected, G128ComparesOnlyTheHead) {
  Directed<TypeParam> d;
  EXPECT_EQ(d.run(0x5, 0x42, k32B, k128B, {{2, 0x5, {{0, 0x40}, {1, 0x41}, {2, 0x42}, {3, 0x43}}}}),
            hit(2, 0x4, {0, 0, 0xF, 0}));
}

TYPED_TEST(ChunkMatchDirected, G32SmallPiecesAnywhereInTheLine) {
  Directed<TypeParam> d;
  // Slot 3 holds chunk 1 of memory line 0x77, slot 0 chunk 2 of line 0x10.
  EXPECT_EQ(d.run(0x3, 0x77 << 2 | 1, k32B, k32B, {{0, 0x3, {{0, 0x42}, {3, 0x77 << 2 | 1}}}}), hit(0, 0x8, {0x8, 0, 0, 0}));
}

TYPED_TEST(ChunkMatchDirected, G32R64EitherPosition) {
  Directed<TypeParam> d;
  EXPECT_EQ(d.run(0x3, 0x10, k64B, k32B, {{0, 0x3, {{2, 0x10}, {3, 0x11}}}}), hit(0, 0xC, {0xC, 0, 0, 0}));
  // The same chunks out of order are not a hit but a partial hit.
  EXPECT_EQ(d.run(0x3, 0x10, k64B, k32B, {{0, 0x3, {{2, 0x11}, {3, 0x10}}}}), partial({0xC, 0, 0, 0}));
  // Both positions hit: the lowest wins.
  EXPECT_EQ(d.run(0x3, 0x12, k64B, k32B, {{1, 0x3, {{0, 0x12}, {1, 0x13}, {2, 0x12}, {3, 0x13}}}}),
            hit(1, 0x3, {0, 0xF, 0, 0}));
}

TYPED_TEST(ChunkMatchDirected, G64R32FindsTheChunkInsideAPiece) {
  Directed<TypeParam> d;
  // A 64 B piece (chunks 0 and 1 of line 0x9) at slots 2-3.
  EXPECT_EQ(d.run(0x9, 0x25, k32B, k64B, {{1, 0x9, {{2, 0x24}, {3, 0x25}}}}), hit(1, 0x8, {0, 0xC, 0, 0}));
  // Its second slot invalid: the head still matches, but the needed slot does not hold the chunk.
  EXPECT_EQ(d.run(0x9, 0x25, k32B, k64B, {{1, 0x9, {{2, 0x24}}}}), miss({0, 0x4, 0, 0}));
}

TYPED_TEST(ChunkMatchDirected, PartialAcrossLines) {
  Directed<TypeParam> d;
  // A 64 B request at G = 32 B needs chunks 0x20 and 0x21 at one position of one line.
  EXPECT_EQ(d.run(0x1, 0x20, k64B, k32B, {{0, 0x1, {{0, 0x20}}}, {3, 0x1, {{1, 0x21}}}}, 0x3),
            partial({0x1, 0, 0, 0x2}));
  // A 128 B request at G = 64 B whose two pieces sit in two lines.
  EXPECT_EQ(d.run(0x1, 0x20, k128B, k64B, {{1, 0x1, {{0, 0x20}, {1, 0x21}}}, {2, 0x1, {{2, 0x22}, {3, 0x23}}}}),
            partial({0, 0x3, 0xC, 0}));
  // sectors_i selects the copies independently of the request.
  EXPECT_EQ(d.run(0x1, 0x20, k128B, k64B, {{1, 0x1, {{0, 0x20}, {1, 0x21}}}, {2, 0x1, {{2, 0x22}, {3, 0x23}}}}, 0x6),
            partial({0, 0x2, 0x4, 0}));
}

TYPED_TEST(ChunkMatchDirected, CopiesOutsideTheRangeAreNotPartial) {
  Directed<TypeParam> d;
  EXPECT_EQ(d.run(0x1, 0x20, k64B, k32B, {{0, 0x1, {{0, 0x22}, {1, 0x23}}}}), miss({0x3, 0, 0, 0}));
  EXPECT_EQ(d.run(0x1, 0x20, k64B, k32B, {{0, 0x1, {{0, 0x22}, {1, 0x23}}}}, 0x3), miss());
}

TYPED_TEST(ChunkMatchDirected, InvalidSlotsNeverMatch) {
  Directed<TypeParam> d;
  ChunkMatchIo::In in = d.io().empty();
  in.common_tag = 0x1;
  in.chunk_tag = 0x20;
  in.sectors = 0xF;
  in.way_common_tag[0] = 0x1;
  in.slot_tag[0] = 0x20;  // slot 0 of way 0 holds the chunk, but is invalid
  EXPECT_EQ(d.check(in), miss());
}

TYPED_TEST(ChunkMatchDirected, FirstHittingWayWins) {
  Directed<TypeParam> d;
  // Ways 1 and 3 hit; way 0 holds the chunk under another common-tag.
  EXPECT_EQ(d.run(0x2, 0x31, k32B, k32B, {{0, 0x3, {{0, 0x31}}}, {1, 0x2, {{2, 0x31}}}, {3, 0x2, {{0, 0x31}}}}),
            hit(1, 0x4, {0, 0x4, 0, 0x1}));
}

}  // namespace
