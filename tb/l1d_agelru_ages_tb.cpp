// Testbench of l1d_agelru_ages (gen/blocks/l1d_agelru_ages.cpp) against golden::AgeLruCounters
// (SPEC section 8) on every configuration of RTL_TB_CONFIGS:
// - the active test and relative age over all 2^24 (Oldest, Youngest, id) triples, through the
//   query ports, with every (Oldest, Youngest) pair reached by real launch / exit sequences (a
//   launch advances Youngest, an exit of the oldest warp names any next oldest), plus every
//   empty state; each result is checked against the golden model and against a second,
//   independent formulation ((id - Oldest) mod 256 <= (Youngest - Oldest) mod 256);
// - the golden model's directed cases (first launch, numbering, wrap from 255 to 0, exit of the
//   oldest / of another warp / of the last warp / while empty, relaunch after empty, launch and
//   exit in one cycle);
// - >= 10^5 random cycles of a warp pool (up to 255 live warps, exits in and out of age order,
//   AWIDs wrapping every 256 launches) with queries near the range ends, and the netlist
//   co-simulation with the same pool.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <iostream>
#include <optional>
#include <ostream>
#include <random>
#include <vector>

#include "golden/agelru_counters.h"
#include "l1d_agelru_ages_models.h"
#include "tb/testbench.h"

namespace {

constexpr uint64_t kRandomCycles = 400'000;
constexpr uint64_t kCosimCycles = 100'000;

// The port binding (tb/testbench.h). golden() returns the registered counters and the queries
// on them, then applies the cycle's launch and exit (launch first).
struct AgesIo {
  struct In {
    bool launch = false, exit = false;
    uint32_t exit_awid = 0;
    bool exit_has_next = false;
    uint32_t exit_next = 0;
    std::vector<uint32_t> ids;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      os << fmt::format("launch_i {} exit_i {} exit_awid_i {} exit_has_next_i {} exit_next_i {} id_i", in.launch,
                        in.exit, in.exit_awid, in.exit_has_next, in.exit_next);
      for (uint32_t id : in.ids) os << ' ' << id;
      return os;
    }
  };
  struct Out {
    uint32_t oldest = 0, youngest = 0;
    bool empty = false;
    std::vector<uint32_t> active, rel_age;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      os << fmt::format("oldest_o {} youngest_o {} empty_o {} active_o/rel_age_o", o.oldest, o.youngest, o.empty);
      for (size_t q = 0; q < o.active.size(); ++q) os << ' ' << o.active[q] << '/' << o.rel_age[q];
      return os;
    }
  };

  explicit AgesIo(const l1d::Config& c) : queries(c.l1.ways + 1) {}

  template <class M>
  void drive(M& m, const In& in) const {
    m.launch_i = in.launch;
    m.exit_i = in.exit;
    m.exit_awid_i = static_cast<uint8_t>(in.exit_awid);
    m.exit_has_next_i = in.exit_has_next;
    m.exit_next_i = static_cast<uint8_t>(in.exit_next);
    for (unsigned q = 0; q < queries; ++q) tb::put(m.id_i, q < in.ids.size() ? in.ids[q] : 0, q * 8, 8);
  }
  template <class M>
  Out sample(const M& m) const {
    Out o{m.oldest_o, m.youngest_o, m.empty_o != 0, std::vector<uint32_t>(queries), std::vector<uint32_t>(queries)};
    for (unsigned q = 0; q < queries; ++q) {
      o.active[q] = static_cast<uint32_t>(tb::get(m.active_o, q, 1));
      o.rel_age[q] = static_cast<uint32_t>(tb::get(m.rel_age_o, q * 8, 8));
    }
    return o;
  }
  Out golden(const In& in) {
    Out o{model.oldest(), model.youngest(), model.empty(), std::vector<uint32_t>(queries),
          std::vector<uint32_t>(queries)};
    for (unsigned q = 0; q < queries; ++q) {
      const auto id = static_cast<uint8_t>(q < in.ids.size() ? in.ids[q] : 0);
      o.active[q] = model.active(id);
      o.rel_age[q] = model.relative_age(id);
    }
    if (in.launch) model.launch();
    if (in.exit) {
      model.exit(static_cast<uint8_t>(in.exit_awid),
                 in.exit_has_next ? std::optional<uint8_t>(static_cast<uint8_t>(in.exit_next)) : std::nullopt);
    }
    return o;
  }

  // A pool of running warps that drives launches and exits the way an SM does: AWIDs in launch
  // order, exits of the oldest (reporting the next oldest live warp) or of younger warps, and
  // queries near the ends of the live range. Shared by the random test and the co-simulation.
  struct Pool {
    std::deque<uint8_t> live;  // AWIDs of running warps, oldest first
    uint8_t next_awid = 0;     // Youngest + 1 (the reset Youngest is 255)
    uint32_t cap = 48, p_launch = 30, p_exit = 30;
    uint64_t cycle = 0, launches = 0, oldest_exits = 0, other_exits = 0, empties = 0;

    In step(std::mt19937_64& rng, unsigned queries) {
      if (cycle++ % 3000 == 0) {
        cap = std::array<uint32_t, 5>{1, 4, 48, 200, 255}[rng() % 5];
        p_launch = std::array<uint32_t, 3>{10, 40, 70}[rng() % 3];
        p_exit = std::array<uint32_t, 3>{10, 40, 70}[rng() % 3];
      }
      In in;
      in.exit_awid = static_cast<uint32_t>(rng() & 255);  // junk unless exit
      in.exit_has_next = (rng() & 1) != 0;
      in.exit_next = static_cast<uint32_t>(rng() & 255);
      in.launch = live.size() < cap && rng() % 100 < p_launch;
      if (in.launch) {
        live.push_back(next_awid++);
        ++launches;
      }
      in.exit = rng() % 100 < p_exit;
      if (in.exit && !live.empty()) {
        const size_t idx = rng() % 2 == 0 ? 0 : rng() % live.size();
        in.exit_awid = live[idx];
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(idx));
        if (idx == 0) {
          in.exit_has_next = !live.empty();
          if (in.exit_has_next) in.exit_next = live.front();
          ++oldest_exits;
          empties += live.empty();
        } else {
          ++other_exits;
        }
      }
      const auto o = static_cast<uint8_t>(live.empty() ? next_awid : live.front());
      const auto y = static_cast<uint8_t>(next_awid - 1);
      for (unsigned q = 0; q < queries; ++q) {
        const uint64_t k = rng() % 8;
        const int delta = static_cast<int>(rng() % 3) - 1;
        const uint8_t id = k < 2   ? static_cast<uint8_t>(o + delta)
                           : k < 4 ? static_cast<uint8_t>(y + delta)
                           : k < 6 && !live.empty() ? live[rng() % live.size()]
                                                    : static_cast<uint8_t>(rng());
        in.ids.push_back(id);
      }
      return in;
    }
  };
  In random(std::mt19937_64& rng) const { return pool.step(rng, queries); }

  unsigned queries;
  l1d::golden::AgeLruCounters model;
  mutable Pool pool;  // random() is const in tb::run_netlist_cosim; the pool is stimulus state
};

using Board = tb::Scoreboard<AgesIo::In, AgesIo::Out>;
namespace models = tb::l1d_agelru_ages;

template <class Config>
class AgeLruAges : public ::testing::Test {
 protected:
  static constexpr const char* kMainTest = "RandomMatchesGolden";  // its waves: <block>.fst
  AgeLruAges()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {
    dut.reset();
  }
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  void cycle(AgesIo::In in) { tb::check_cycle(dut, io, board, in); }
  void launch() { cycle({.launch = true, .ids = {}}); }
  void exit(uint32_t awid, std::optional<uint32_t> next) {
    cycle({.exit = true, .exit_awid = awid, .exit_has_next = next.has_value(), .exit_next = next.value_or(0), .ids = {}});
  }
  // One cycle without launch or exit, querying `ids` (padded with zeros).
  void query(std::vector<uint32_t> ids) { cycle({.ids = std::move(ids)}); }
  void query_all() {
    for (uint32_t base = 0; base < 256; base += io.queries) {
      std::vector<uint32_t> ids;
      for (uint32_t q = 0; q < io.queries; ++q) ids.push_back((base + q) & 255);
      query(ids);
    }
  }

  AgesIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
};
TYPED_TEST_SUITE(AgeLruAges, models::Configs);

// All 2^24 (Oldest, Youngest, id) triples of a live range, and all 256 x 256 (Youngest, id)
// pairs of an empty one. The counters are moved only through the ports: from reset, one
// launch; then for each Youngest, 256 exits of the current oldest naming each Oldest in turn
// as the next oldest, each followed by ceil(256 / Queries) query cycles covering every id,
// then a launch (Youngest + 1). Then 256 times: the last warp exits (empty, Oldest =
// Youngest + 1), every id is queried, and a launch starts a fresh range.
TYPED_TEST(AgeLruAges, ActiveAndRelativeAgeOverAllTriples) {
  std::vector<bool> seen(size_t{1} << 24);
  uint64_t independent_mismatches = 0, empty_checks = 0;
  const auto check_outputs = [&] {
    this->dut.settle();
    const AgesIo::Out rtl = this->io.sample(*this->dut);
    for (uint32_t q = 0; q < this->io.queries; ++q) {
      const auto id = static_cast<uint8_t>(tb::get(this->dut->id_i, q * 8, 8));
      const auto o = static_cast<uint8_t>(rtl.oldest), y = static_cast<uint8_t>(rtl.youngest);
      const bool expected = !rtl.empty && static_cast<uint8_t>(id - o) <= static_cast<uint8_t>(y - o);
      independent_mismatches += (rtl.active[q] != 0) != expected;
      independent_mismatches += rtl.rel_age[q] != static_cast<uint8_t>(id - o);
      if (rtl.empty) {
        ++empty_checks;
      } else {
        seen[(size_t{o} << 16) | (size_t{y} << 8) | id] = true;
      }
    }
  };
  // Query cycles with the independent check of their outputs before the cycle ends.
  const auto query_all_checked = [&] {
    for (uint32_t base = 0; base < 256; base += this->io.queries) {
      AgesIo::In in;
      for (uint32_t q = 0; q < this->io.queries; ++q) in.ids.push_back((base + q) & 255);
      this->io.drive(*this->dut, in);
      check_outputs();
      this->cycle(in);
    }
  };

  this->launch();  // AWID 0: Oldest = Youngest = 0
  for (uint32_t y = 0; y < 256; ++y) {
    for (uint32_t o = 0; o < 256; ++o) {
      this->exit(this->io.model.oldest(), o);  // the oldest exits; `o` is reported as the next oldest
      query_all_checked();
    }
    this->launch();
  }
  for (uint32_t i = 0; i < 256; ++i) {
    this->exit(this->io.model.oldest(), std::nullopt);  // the only warp left exits: empty
    ASSERT_TRUE(this->io.model.empty());
    query_all_checked();
    this->launch();
  }
  const auto covered = static_cast<uint64_t>(std::count(seen.begin(), seen.end(), true));
  std::cout << "[ coverage   ] " << covered << " of 2^24 live (Oldest, Youngest, id) triples, " << empty_checks
            << " empty-state queries, " << independent_mismatches << " mismatches with the independent test\n";
  EXPECT_EQ(covered, uint64_t{1} << 24);
  EXPECT_GE(empty_checks, 256U * 256U);
  EXPECT_EQ(independent_mismatches, 0U);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// ResetIsEmptyWithYoungest255, FirstLaunchGetsZeroAndIsOldestAndYoungest,
// LaunchesNumberInOrderAndKeepOldest, ExitOfOldestAdvancesToNextOldest,
// ExitOfNonOldestChangesNothing, LastExitEmptiesAndNothingIsActive, ExitWhileEmptyIsIgnored,
// RelaunchAfterEmptyStartsAFreshRange.
TYPED_TEST(AgeLruAges, LaunchAndExitSequences) {
  this->query({0, 255, 1});
  this->dut.settle();
  EXPECT_EQ(this->dut->empty_o, 1U);
  EXPECT_EQ(this->dut->youngest_o, 255U);
  this->exit(0, 5);  // while empty: ignored
  this->query_all();
  for (int i = 0; i < 4; ++i) this->launch();  // AWIDs 0..3
  this->query_all();
  this->exit(2, 3);  // not the oldest: nothing changes
  this->query_all();
  this->exit(0, 2);  // warp 1 already gone: Oldest jumps to 2
  this->query_all();
  this->exit(2, 3);
  this->exit(3, std::nullopt);  // last warp: empty, Oldest = 4
  this->query_all();
  this->dut.settle();
  EXPECT_EQ(this->dut->empty_o, 1U);
  EXPECT_EQ(this->dut->oldest_o, 4U);
  this->launch();  // AWID 4, a fresh range
  this->query_all();
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// AwidWrapsFrom255ToZero / LaunchFromYoungest255GivesZero: one warp kept live while the oldest
// retires after each launch, so AWIDs run past 255 twice; and launch and exit in one cycle
// (launch first): of the oldest, of the warp launched into an empty SM, of the last warp.
TYPED_TEST(AgeLruAges, WrapAroundAndLaunchWithExitInOneCycle) {
  this->launch();
  for (uint32_t i = 1; i <= 520; ++i) {
    const auto next = static_cast<uint32_t>(static_cast<uint8_t>(this->io.model.youngest() + 1));
    this->cycle({.launch = true, .exit = true, .exit_awid = this->io.model.oldest(), .exit_has_next = true,
                 .exit_next = next,
                 .ids = {next, this->io.model.oldest(), static_cast<uint32_t>(static_cast<uint8_t>(next + 1))}});
  }
  this->query_all();
  this->exit(this->io.model.oldest(), std::nullopt);
  ASSERT_TRUE(this->io.model.empty());
  // Launch into an empty SM and the new warp's exit in the same cycle: empty again.
  const auto fresh = static_cast<uint32_t>(static_cast<uint8_t>(this->io.model.youngest() + 1));
  this->cycle({.launch = true, .exit = true, .exit_awid = fresh, .exit_has_next = false, .ids = {}});
  this->query_all();
  this->dut.settle();
  EXPECT_EQ(this->dut->empty_o, 1U);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Random: the warp pool (AgesIo::Pool) for kRandomCycles cycles.
TYPED_TEST(AgeLruAges, RandomMatchesGolden) {
  std::mt19937_64 r(13);
  for (uint64_t c = 0; c < kRandomCycles; ++c) this->cycle(this->io.pool.step(r, this->io.queries));
  const auto& p = this->io.pool;
  std::cout << "[ coverage   ] " << p.oldest_exits << " oldest exits (" << p.empties << " to empty), "
            << p.other_exits << " other exits, " << p.launches << " launches (AWIDs wrap every 256)\n";
  EXPECT_GT(p.empties, 10U);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class AgeLruAgesNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(AgeLruAgesNetlist, models::Configs);

TYPED_TEST(AgeLruAgesNetlist, NetlistMatchesRtl) {
  const AgesIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
