// Testbench of l1d_addr_decode (gen/blocks/l1d_addr_decode.cpp) against l1d::AddressSplit, the
// golden address split of SPEC section 2, on every configuration of RTL_TB_CONFIGS: random
// addresses, hand-picked ones, the paper's example, and the netlist co-simulation. A configuration
// with an adaptive carveout (qv100) has the active set count as an input (set_bits_i, contract 15):
// each address is decoded at a random legal count, against the golden split of that count.
#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "common/address.h"
#include "l1d_addr_decode_models.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 200'000;
constexpr uint64_t kCosimCycles = 100'000;

// The port binding (tb/testbench.h).
struct AddrDecodeIo {
  struct In {
    uint64_t addr = 0;
    unsigned set_bits = 0;  // log2 of the active sets (set_bits_i; the fixed count without it)
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("addr_i {:#x} set_bits {}", in.addr, in.set_bits);
    }
  };
  struct Out {
    uint64_t set = 0, common_tag = 0, chunk_tag = 0, chunk = 0;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << fmt::format("set_o {:#x} common_tag_o {:#x} chunk_tag_o {:#x} chunk_o {}", o.set, o.common_tag,
                               o.chunk_tag, o.chunk);
    }
  };

  explicit AddrDecodeIo(const l1d::Config& cfg)
      : l1(cfg.l1),
        addr_bits(cfg.l1.address_bits),
        addr_mask(tb::low_mask(cfg.l1.address_bits)),
        min_bits(static_cast<unsigned>(std::countr_zero(cfg.l1.sets()))),
        max_bits(static_cast<unsigned>(std::countr_zero(l1d::largest_l1_sets(cfg.l1)))) {
    for (unsigned b = min_bits; b <= max_bits; ++b) {
      l1d::L1Config k = l1;
      k.size_bytes = (1U << b) * k.ways * 128;
      splits.emplace_back(k);
    }
  }

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.addr_i, in.addr);
    if constexpr (requires { m.set_bits_i; }) tb::put(m.set_bits_i, in.set_bits);
  }
  template <class M>
  Out sample(const M& m) const {
    return {tb::get(m.set_o), tb::get(m.common_tag_o), tb::get(m.chunk_tag_o), tb::get(m.chunk_o)};
  }
  Out golden(const In& in) const {
    const l1d::DecodedAddr d = splits.at(in.set_bits - min_bits).decode(in.addr);
    return {d.set, d.common_tag, d.chunk_tag, d.chunk};
  }
  unsigned random_bits(std::mt19937_64& rng) const { return min_bits + static_cast<unsigned>(rng() % (max_bits - min_bits + 1)); }
  In random(std::mt19937_64& rng) const { return {rng() & addr_mask, random_bits(rng)}; }

  // Zero, all ones, every bit alone and every bit cleared, every run of low ones (the field
  // boundaries), and the paper's example address, at every active set count.
  std::vector<In> hand_picked() const {
    std::vector<In> v;
    for (unsigned s = min_bits; s <= max_bits; ++s) {
      for (const uint64_t a : {uint64_t{0}, addr_mask, 0x04000100 & addr_mask}) v.push_back({a, s});
      for (unsigned b = 0; b < addr_bits; ++b) {
        v.push_back({uint64_t{1} << b, s});
        v.push_back({addr_mask ^ (uint64_t{1} << b), s});
        v.push_back({tb::low_mask(b + 1), s});
        v.push_back({addr_mask ^ tb::low_mask(b + 1), s});
      }
    }
    return v;
  }

  l1d::L1Config l1;
  unsigned addr_bits;
  uint64_t addr_mask;
  unsigned min_bits, max_bits;          // log2 of the fewest and most sets (equal: a fixed carveout)
  std::vector<l1d::AddressSplit> splits;  // the golden split of each count, min_bits first
};

using Board = tb::Scoreboard<AddrDecodeIo::In, AddrDecodeIo::Out>;
namespace models = tb::l1d_addr_decode;

template <class Config>
class AddrDecode : public ::testing::Test {};
TYPED_TEST_SUITE(AddrDecode, models::Configs);

TYPED_TEST(AddrDecode, RandomAddressesMatchGolden) {
  using Config = TypeParam;
  AddrDecodeIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock), 1);
  Board board(fmt::format("{}/{} random", models::kBlock, Config::kName), "golden", "rtl   ");
  std::mt19937_64 rng(1);
  for (uint64_t i = 0; i < kRandomCycles; ++i) tb::check_cycle(dut, io, board, io.random(rng));
}

TYPED_TEST(AddrDecode, HandPickedAddressesMatchGolden) {
  using Config = TypeParam;
  AddrDecodeIo io(tb::load_config<Config>());
  tb::Dut<typename Config::Rtl> dut(tb::wave_name<Config>(models::kBlock, "hand_picked"), 1);
  Board board(fmt::format("{}/{} hand-picked", models::kBlock, Config::kName), "golden", "rtl   ");
  for (const AddrDecodeIo::In& in : io.hand_picked()) tb::check_cycle(dut, io, board, in);
}

TYPED_TEST(AddrDecode, NetlistMatchesRtl) {
  const AddrDecodeIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

// SPEC section 2's test vector, with the values written out rather than taken from the golden
// model: on the gtx480 split a request to 0x04000100 is chunk-tag 0x0000, common-tag 0x01, set 0x02.
TEST(AddrDecodePaper, Gtx480DecodesThePaperExample) {
  tb::Dut<models::gtx480::Rtl> dut("l1d_addr_decode_paper", 1);
  dut->addr_i = 0x04000100;
  dut.settle();
  EXPECT_EQ(dut->chunk_tag_o, 0x0000);
  EXPECT_EQ(dut->common_tag_o, 0x01);
  EXPECT_EQ(dut->set_o, 0x02);
  EXPECT_EQ(dut->chunk_o, 0);
  // The Fermi hash: address bits 13, 17 and 19 flip set bits 0, 3 and 4 (linear set 0).
  dut->addr_i = 0x000A2000;
  dut.settle();
  EXPECT_EQ(dut->set_o, 0x19);
  EXPECT_EQ(dut->chunk_tag_o, 0x288);  // line tag 0xA2, chunk 0
  EXPECT_EQ(dut->common_tag_o, 0);
}

}  // namespace
