// Testbench of l1d_core_match_m1 (gen/blocks/l1d_core_match_m1.cpp), the stage-M1 half of a core
// request's lookup, on l1d_core_match's model (tb/core_match_model.h): the sectors and the bypass
// reason as section 4 gives them, the chunk match's decode as tb/match_request_model.h and its tag
// compares as tb/tag_vectors.h define them (with the probed sectors), the chunk index of each
// slot's tag; random one-copy-invariant sets, every bypass code; and the netlist co-simulation.
// What the vectors decide against golden::chunk_match is l1d_core_match_m2's testbench.
#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "l1d_core_match_m1_models.h"
#include "tb/core_match_model.h"
#include "tb/match_request_model.h"
#include "tb/tag_vectors.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 50'000;
constexpr uint64_t kCosimCycles = 20'000;

struct CoreMatchM1Io : tb::CoreMatchModel {
  using In = tb::CoreMatchModel::In;
  struct Out {
    Lookup lookup;
    tb::MatchRequestDecode decode;
    tb::TagVectors vectors;
    std::vector<uint64_t> slot_chunk;  // per way, bits [2s +: 2]
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      os << o.lookup << "\n    " << o.decode << "\n    " << o.vectors << "\n    slot_chunk";
      for (uint64_t c : o.slot_chunk) os << fmt::format(" {:08b}", c);
      return os;
    }
  };
  using tb::CoreMatchModel::CoreMatchModel;

  template <class M>
  void drive(M& m, const In& in) const {
    drive_request(m, in);
    drive_tags(m, in);
  }
  template <class M>
  Out sample(const M& m) const {
    Out o{sample_lookup(m), tb::MatchRequestDecode::get(m),
          tb::TagVectors::get(ways, m.common_eq_o, m.tag_ok_o, m.held_o, m.copy_o), {}};
    for (unsigned w = 0; w < ways; ++w) o.slot_chunk.push_back(tb::get(m.slot_chunk_o, w * 8, 8));
    return o;
  }
  Out golden(const In& in) const {
    Out o{lookup(in), tb::MatchRequestDecode::of(in.chunk_tag, in.size, in.gran, bits), {}, {}};
    o.vectors = tb::TagVectors::compare(in.common, in.chunk_tag >> 2, in.way_common, in.tag,
                                        {o.decode.compared, o.decode.mask_chunk, o.decode.req_chunks, copy_sectors(in)});
    for (unsigned w = 0; w < ways; ++w) {
      uint64_t chunks = 0;
      for (unsigned s = 0; s < kSlots; ++s) chunks |= (in.tag[w * kSlots + s] & 3) << (2 * s);
      o.slot_chunk.push_back(chunks);
    }
    return o;
  }
};

using Board = tb::Scoreboard<CoreMatchM1Io::In, CoreMatchM1Io::Out>;
namespace models = tb::l1d_core_match_m1;

template <class Config>
class CoreMatchM1 : public ::testing::Test {};
TYPED_TEST_SUITE(CoreMatchM1, models::Configs);

TYPED_TEST(CoreMatchM1, RandomMatchesModel) {
  using Config = TypeParam;
  CoreMatchM1Io io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "model", "rtl  ");
  std::mt19937_64 rng(19);
  uint64_t tag_ok = 0, held = 0, copy = 0;  // compared slots passing, chunks held, copies (any way, slot)
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const CoreMatchM1Io::In in = io.random(rng);
    const CoreMatchM1Io::Out want = io.golden(in);
    tb::check_cycle(dut, io, board, in);
    for (unsigned w = 0; w < io.ways; ++w) {
      tag_ok += (want.vectors.tag_ok[w] & want.decode.compared) != 0;
      held += want.vectors.held[w] != 0;
      copy += want.vectors.copy[w] != 0;
    }
  }
  for (uint64_t n : {tag_ok, held, copy}) EXPECT_GT(n, kRandomCycles / 10);
  EXPECT_EQ(board.mismatches(), 0U);
}

TYPED_TEST(CoreMatchM1, NetlistMatchesRtl) {
  CoreMatchM1Io io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 11);
}

}  // namespace
