// Testbench of l1d_match_combine (gen/blocks/l1d_match_combine.cpp), stage M2's chunk-match
// decision, against golden::chunk_match and golden::find_copies (SPEC section 3): random requests
// (decoded by tb/match_request_model.h, as l1d_match_request would), random compare fields and
// valid bits, turned into a set the golden model can read (a way's common-tag is the
// request's where common_eq says so, another one elsewhere; a slot holds its chunk index of the
// request's memory line where line_eq says so, of another line elsewhere), so any field vector is
// a set; the unit reads the slot checks l1d_tag_compare makes of those fields (tb/tag_vectors.h);
// and the netlist co-simulation.
#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "l1d_match_combine_models.h"
#include "tb/golden_set.h"
#include "tb/match_out.h"
#include "tb/match_request_model.h"
#include "tb/tag_vectors.h"
#include "tb/testbench.h"

namespace {

constexpr unsigned kSlots = l1d::kSlotsPerLine;
constexpr uint64_t kRandomCycles = 50'000;
constexpr uint64_t kCosimCycles = 10'000;

struct MatchCombineIo {
  struct In {
    uint64_t chunk_tag = 0, size = 0, gran = 0, sectors = 0;
    tb::SlotFields v;
    std::vector<uint64_t> valid;  // per way
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      os << fmt::format("chunk_tag_i {:#x} size_i {} gran_i {} sectors_i {:04b}\n    ", in.chunk_tag, in.size,
                        in.gran, in.sectors)
         << in.v << "\n    valid";
      for (uint64_t b : in.valid) os << fmt::format(" {:04b}", b);
      return os;
    }
  };
  using Out = tb::MatchOut;

  explicit MatchCombineIo(const l1d::Config& cfg) : ways(cfg.l1.ways), bits(cfg.l1.chunk_tag_bits), set(ways) {}

  template <class M>
  void drive(M& m, const In& in) const {
    const tb::MatchRequestDecode d = tb::MatchRequestDecode::of(in.chunk_tag, in.size, in.gran, bits);
    d.put_combine(m);
    tb::TagVectors::check(in.v, {d.compared, d.mask_chunk, d.req_chunks, in.sectors})
        .put(m.common_eq_i, m.tag_ok_i, m.held_i, m.copy_i);
    for (unsigned w = 0; w < ways; ++w) tb::put(m.slot_valid_i, in.valid[w], w * kSlots, kSlots);
  }
  template <class M>
  Out sample(const M& m) const {
    return Out::sample(m, ways);
  }
  // The set the vectors describe, then golden::chunk_match / find_copies on it.
  Out golden(const In& in) {
    const uint64_t line = in.chunk_tag >> 2, other_line = line ^ 1;
    std::vector<uint64_t> common(ways), tags(size_t{ways} * kSlots);
    for (unsigned w = 0; w < ways; ++w) {
      common[w] = in.v.common_eq[w] ? 0 : 1;
      for (unsigned s = 0; s < kSlots; ++s)
        tags[w * kSlots + s] = (((in.v.line_eq[w] >> s) & 1) ? line : other_line) << 2 | ((in.v.chunk[w] >> 2 * s) & 3);
    }
    tb::load_golden_set(set, common, in.valid, tags);
    return Out::golden(set, ways, 0, in.chunk_tag, in.size, in.gran, in.sectors);
  }
  // Each draw picks how often a field is equal or a slot valid (rarely, sometimes, mostly; fewer
  // where there are many ways), with chunks often in order, so that hits, partial hits and misses
  // are all frequent on 4 ways and on 64; the request aligned to its size (the golden model's
  // contract).
  In random(std::mt19937_64& rng) const {
    static constexpr unsigned kFewWays[3] = {60, 85, 97}, kManyWays[3] = {10, 35, 60};
    const unsigned pct = (ways > 8 ? kManyWays : kFewWays)[rng() % 3];
    auto chance = [&](unsigned p) { return rng() % 100 < p; };
    In in;
    in.size = rng() % 3;
    in.gran = rng() % 3;
    in.sectors = rng() & 0xF;
    in.chunk_tag = (rng() & tb::low_mask(bits)) & ~((uint64_t{1} << in.size) - 1);
    for (unsigned w = 0; w < ways; ++w) {
      in.v.common_eq.push_back(chance(pct) ? 1 : 0);
      uint64_t eq = 0, chunks = 0, valid = 0;
      const bool in_order = chance(60);
      for (unsigned s = 0; s < kSlots; ++s) {
        eq |= uint64_t{chance(pct)} << s;
        chunks |= (in_order ? s : rng() & 3) << (2 * s);
        valid |= uint64_t{chance(pct)} << s;
      }
      in.v.line_eq.push_back(eq);
      in.v.chunk.push_back(chunks);
      in.valid.push_back(valid);
    }
    return in;
  }
  unsigned ways, bits;
  std::vector<l1d::golden::CacheLine> set;
};

using Board = tb::Scoreboard<MatchCombineIo::In, MatchCombineIo::Out>;
namespace models = tb::l1d_match_combine;

template <class Config>
class MatchCombine : public ::testing::Test {};
TYPED_TEST_SUITE(MatchCombine, models::Configs);

TYPED_TEST(MatchCombine, RandomVectorsMatchGolden) {
  using Config = TypeParam;
  MatchCombineIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "golden", "rtl   ");
  std::mt19937_64 rng(41);
  std::array<uint64_t, 3> kinds{};  // miss, hit, partial
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const MatchCombineIo::In in = io.random(rng);
    const MatchCombineIo::Out want = io.golden(in);
    tb::check_cycle(dut, io, board, in);
    ++kinds[want.hit ? 1 : want.partial ? 2 : 0];
  }
  std::cout << fmt::format("[ coverage ] {}/{}: {} misses, {} hits, {} partial hits\n", models::kBlock,
                           Config::kName, kinds[0], kinds[1], kinds[2]);
  for (uint64_t n : kinds) EXPECT_GT(n, kRandomCycles / 20);
  EXPECT_EQ(board.mismatches(), 0U);
}

TYPED_TEST(MatchCombine, NetlistMatchesRtl) {
  const MatchCombineIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 9);
}

}  // namespace
