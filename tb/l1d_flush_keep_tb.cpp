// Testbench of l1d_flush_keep (gen/blocks/l1d_flush_keep.cpp), a flush visit of one line, against
// a model written from golden::L1::flush_step (docs/l1d-microarchitecture.md sections 7 and 9):
// random lines whose slots often hold complete, in-order pieces of every granularity (and often
// almost: one slot invalid, out of order or unaligned), and the netlist co-simulation.
#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <ostream>
#include <random>

#include "l1d_flush_keep_models.h"
#include "tb/testbench.h"

namespace {

constexpr unsigned kSlots = 4;
constexpr uint64_t kRandomCycles = 50'000;
constexpr uint64_t kCosimCycles = 20'000;

struct FlushKeepIo {
  struct In {
    uint64_t valid = 0, dirty = 0, gran = 0, keep = 0;
    std::array<uint64_t, kSlots> tag{};
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("valid {:04b} dirty {:04b} gran {} keep {} tags {:#x} {:#x} {:#x} {:#x}", in.valid,
                               in.dirty, in.gran, in.keep, in.tag[0], in.tag[1], in.tag[2], in.tag[3]);
    }
  };
  struct Out {
    uint64_t keep = 0, wb = 0, wb_n = 0;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format("keep {:04b} wb {:04b} ({})", o.keep, o.wb, o.wb_n);
    }
  };

  explicit FlushKeepIo(const l1d::Config& cfg) : bits(cfg.l1.chunk_tag_bits) {}

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.valid_i, in.valid);
    for (unsigned s = 0; s < kSlots; ++s) tb::put(m.chunk_tag_i, in.tag[s], s * bits, bits);
    tb::put(m.dirty_any_i, in.dirty);
    tb::put(m.gran_i, in.gran);
    tb::put(m.keep_i, in.keep);
  }
  template <class M>
  Out sample(const M& m) const {
    return {tb::get(m.keep_o), tb::get(m.writeback_slots_o), tb::get(m.writebacks_o)};
  }
  // golden::L1::flush_step: with keep, every aligned piece of n = G / 32 B slots whose first
  // chunk-tag is n-aligned and whose slots are valid and consecutive stays.
  Out golden(const In& in) const {
    Out o;
    if (in.keep) {
      const uint64_t n = uint64_t{1} << in.gran;
      for (uint64_t p = 0; p < kSlots; p += n) {
        bool whole = (in.tag[p] & (n - 1)) == 0;
        for (uint64_t i = 0; i < n && whole; ++i) whole = ((in.valid >> (p + i)) & 1) && in.tag[p + i] == in.tag[p] + i;
        if (whole) o.keep |= ((uint64_t{1} << n) - 1) << p;
      }
    }
    o.wb = ~o.keep & in.valid & in.dirty & 0xF;
    o.wb_n = static_cast<uint64_t>(std::popcount(o.wb));
    return o;
  }
  In random(std::mt19937_64& rng) const {
    In in;
    const uint64_t x = rng();
    in.valid = (x & 1) ? 0xF : (x >> 1) & 0xF;
    in.dirty = (x >> 5) & 0xF;
    in.gran = ((x >> 9) & 3) % 3;
    in.keep = (x >> 11) & 1;
    // Whole lines in order from an aligned base most of the time, then a disturbance.
    const uint64_t base = (rng() & tb::low_mask(bits)) & ~uint64_t{3};
    for (unsigned s = 0; s < kSlots; ++s) in.tag[s] = (base + s) & tb::low_mask(bits);
    switch ((x >> 12) & 7) {
      case 0: in.tag[(x >> 15) & 3] ^= 1; break;                                  // out of order
      case 1: for (auto& t : in.tag) t = (t + 1) & tb::low_mask(bits); break;   // unaligned
      case 2: in.tag[(x >> 15) & 3] = rng() & tb::low_mask(bits); break;        // a stray chunk
      case 3: std::swap(in.tag[0], in.tag[2]), std::swap(in.tag[1], in.tag[3]); break;  // pieces swapped
      default: break;
    }
    return in;
  }
  unsigned bits;
};

using Board = tb::Scoreboard<FlushKeepIo::In, FlushKeepIo::Out>;
namespace models = tb::l1d_flush_keep;

template <class Config>
class FlushKeep : public ::testing::Test {};
TYPED_TEST_SUITE(FlushKeep, models::Configs);

TYPED_TEST(FlushKeep, RandomMatchesModel) {
  using Config = TypeParam;
  FlushKeepIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "model", "rtl  ");
  std::mt19937_64 rng(23);
  std::array<uint64_t, 3> kept{}, dropped{};  // per G: visits keeping some / no slot with keep on
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const FlushKeepIo::In in = io.random(rng);
    const FlushKeepIo::Out want = io.golden(in);
    tb::check_cycle(dut, io, board, in);
    if (in.keep && in.valid != 0) (want.keep != 0 ? kept : dropped)[in.gran]++;
  }
  for (unsigned g = 0; g < 3; ++g) {
    EXPECT_GT(kept[g], kRandomCycles / 100) << "G code " << g;
    if (g > 0) {
      EXPECT_GT(dropped[g], kRandomCycles / 100) << "G code " << g;
    }
  }
  EXPECT_EQ(board.mismatches(), 0U);
}

TYPED_TEST(FlushKeep, NetlistMatchesRtl) {
  const FlushKeepIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 5);
}

}  // namespace
