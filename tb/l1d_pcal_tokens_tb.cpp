// Testbench of l1d_pcal_tokens (gen/blocks/l1d_pcal_tokens.cpp) against golden::PcalTokenUnit
// (SPEC section 7) on every configuration of RTL_TB_CONFIGS (MaxWarps = the warp slots of one
// scheduler: 24 on gtx480 and the odd geometries, 16 on gtx1080 and qv100):
// - the golden model's directed cases (unlimited by default, tokens on the oldest, age is launch
//   order, hand-over on a holder's exit, a freed token taken by the next launch, non-holder exit,
//   limit up and down, a limit above MaxWarps, relaunch, reset), each through the ports with
//   its literal expectation read back from token_o;
// - launch, exit and set_tokens in one cycle (of one warp, of a holder with a launch, all three);
// - illegal requests (the golden model throws; the RTL ignores them);
// - >= 10^5 random cycles of an SM-like warp pool (one launch and one exit per cycle at most,
//   phases from empty to full, CTA-like launch bursts into the lowest free slots, exits of any
//   resident warp, limits from golden::pcal_decode and the edge values), checked against the
//   golden model and, independently, against "the holders are exactly the min(limit, resident)
//   oldest resident warps" of the pool's own age list; a second golden model that applies
//   set_tokens before launch and exit must agree (the order claim of the module header);
// - the netlist co-simulation with the same pool.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <iostream>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "golden/pcal_tokens.h"
#include "l1d_pcal_tokens_models.h"
#include "tb/testbench.h"

namespace {

using l1d::golden::PcalTokenUnit;

constexpr uint64_t kRandomCycles = 200'000;
constexpr uint64_t kCosimCycles = 50'000;

// The slots of scheduler 0, the one with the most (scheduler s owns w % schedulers == s; the
// simulator sizes each golden::PcalTokenUnit by its scheduler's slots).
uint32_t scheduler_slots(const l1d::Config& c) {
  uint32_t n = 0;
  for (uint32_t w = 0; w < c.core.warps_per_sm; ++w) n += w % c.core.schedulers_per_sm == 0;
  return n;
}

// A per-warp bit vector, 64 warps per word.
using Bits = std::vector<uint64_t>;

std::string hex(const Bits& b) {
  std::string s;
  for (size_t i = b.size(); i-- > 0;) s += fmt::format("{:016x}", b[i]);
  return s;
}
bool test_bit(const Bits& b, uint32_t w) { return ((b[w / 64] >> (w % 64)) & 1) != 0; }
void set_bit(Bits& b, uint32_t w) { b[w / 64] |= uint64_t{1} << (w % 64); }

struct TokensIo {
  struct In {
    bool launch = false;
    uint32_t launch_warp = 0;
    bool exit = false;
    uint32_t exit_warp = 0;
    bool set_tokens = false;
    uint32_t tokens = 0;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("launch_i {} launch_warp_i {} exit_i {} exit_warp_i {} set_tokens_i {} tokens_i {}",
                               in.launch, in.launch_warp, in.exit, in.exit_warp, in.set_tokens, in.tokens);
    }
  };
  struct Out {
    Bits token, resident;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      return os << "token_o " << hex(o.token) << " resident_o " << hex(o.resident);
    }
  };

  // The stimulus: resident warps launched and exiting the way an SM's scheduler drives them
  // (at most one launch and one exit per cycle, launch first; the exit may be the warp launched
  // in that cycle), with a reference of its own: the age list and the limit, from which the
  // expected outputs follow by the invariant alone. Shared by the random test and the
  // co-simulation.
  struct Pool {
    uint32_t max = 0;
    unsigned idx_bits = 1, count_bits = 1;
    std::vector<uint32_t> order;  // resident warps, oldest first
    uint32_t limit = 0;           // clamped to max, as the golden model keeps it
    // Phase parameters.
    uint32_t cap = 0, p_launch = 50, p_exit = 50, p_set = 5, exit_policy = 0;
    bool lowest_slot = true;
    uint32_t burst = 0;  // cycles left of a CTA-like launch burst
    uint64_t cycle = 0;
    // Coverage.
    uint64_t launches_with_token = 0, launches_without = 0, handovers = 0, holder_exits_no_waiter = 0,
             nonholder_exits = 0, limit_up = 0, limit_down = 0, launch_exit_same_warp = 0, all_three = 0,
             full_cycles = 0, empty_cycles = 0, limit_above_max = 0;

    void reset() {
      order.clear();
      limit = max;
      burst = 0;
    }
    Out expected() const {
      Out o{Bits((max + 63) / 64), Bits((max + 63) / 64)};
      for (size_t i = 0; i < order.size(); ++i) {
        set_bit(o.resident, order[i]);
        if (i < limit) set_bit(o.token, order[i]);
      }
      return o;
    }
    bool is_resident(uint32_t w) const { return std::find(order.begin(), order.end(), w) != order.end(); }

    In step(std::mt19937_64& rng) {
      if (cycle++ % 1500 == 0) {
        cap = std::array<uint32_t, 6>{1, 2, max / 2, max - 1, max, max}[rng() % 6];
        p_launch = std::array<uint32_t, 3>{10, 40, 80}[rng() % 3];
        p_exit = std::array<uint32_t, 3>{10, 40, 80}[rng() % 3];
        p_set = std::array<uint32_t, 4>{0, 1, 5, 40}[rng() % 4];
        exit_policy = static_cast<uint32_t>(rng() % 4);
        lowest_slot = rng() % 2 == 0;
      }
      full_cycles += order.size() == max;
      empty_cycles += order.empty();
      In in;
      // Warp numbers are random (anywhere in the port's range) unless their request is on.
      in.launch_warp = static_cast<uint32_t>(rng() & tb::low_mask(idx_bits));
      in.exit_warp = static_cast<uint32_t>(rng() & tb::low_mask(idx_bits));
      in.tokens = static_cast<uint32_t>(rng() & tb::low_mask(count_bits));

      if (burst == 0 && order.size() < cap && rng() % 100 < p_launch / 4) burst = 1 + static_cast<uint32_t>(rng() % 8);
      if (order.size() < cap && (burst > 0 || rng() % 100 < p_launch)) {
        if (burst > 0) --burst;
        std::vector<uint32_t> free;
        for (uint32_t w = 0; w < max; ++w)
          if (!is_resident(w)) free.push_back(w);
        in.launch = true;
        in.launch_warp = lowest_slot ? free.front() : free[rng() % free.size()];
        (order.size() < limit ? launches_with_token : launches_without) += 1;
        order.push_back(in.launch_warp);
      }
      if (!order.empty() && rng() % 100 < p_exit) {
        size_t i = 0;
        switch (exit_policy) {
          case 0: i = rng() % order.size(); break;  // any warp
          case 1: i = rng() % 4 == 0 ? order.size() - 1 : rng() % order.size(); break;  // often the youngest
          case 2: i = rng() % std::max<size_t>(1, std::min<size_t>(limit, order.size())); break;  // a holder
          default: i = order.size() - 1 - rng() % std::min<size_t>(order.size(), 3); break;  // young ones
        }
        i = std::min(i, order.size() - 1);
        in.exit = true;
        in.exit_warp = order[i];
        if (i >= limit) {
          ++nonholder_exits;
        } else if (order.size() > limit) {
          ++handovers;
        } else {
          ++holder_exits_no_waiter;
        }
        launch_exit_same_warp += in.launch && in.launch_warp == in.exit_warp;
        order.erase(order.begin() + static_cast<std::ptrdiff_t>(i));
      }
      if (rng() % 100 < p_set) {
        in.set_tokens = true;
        const uint64_t k = rng() % 10;
        if (k < 6) {  // what the SM drives: the decode of a warp-opt and an EBTNum
          const auto opt = static_cast<uint32_t>(1 + rng() % max);
          const auto ebt = static_cast<int32_t>(rng() % (2 * max + 1)) - static_cast<int32_t>(max);
          in.tokens = l1d::golden::pcal_decode(opt, ebt, max).tokens;
        } else if (k == 6) {
          in.tokens = 0;
        } else if (k == 7) {
          in.tokens = max;
        } else if (k == 8) {
          in.tokens = std::min<uint32_t>(static_cast<uint32_t>(order.size()) + static_cast<uint32_t>(rng() % 3),
                                         static_cast<uint32_t>(tb::low_mask(count_bits)));
        }  // else: the random value drawn above, up to the port's maximum
        const uint32_t next = std::min(in.tokens, max);
        limit_up += next > limit;
        limit_down += next < limit;
        limit_above_max += in.tokens > max;
        all_three += in.launch && in.exit;
        limit = next;
      }
      return in;
    }
  };

  explicit TokensIo(const l1d::Config& c)
      : max_warps(scheduler_slots(c)),
        idx_bits(max_warps > 1 ? static_cast<unsigned>(std::bit_width(max_warps - 1)) : 1U),
        count_bits(static_cast<unsigned>(std::bit_width(max_warps))),
        model(max_warps),
        alt(max_warps) {
    pool.max = max_warps;
    pool.idx_bits = idx_bits;
    pool.count_bits = count_bits;
    pool.reset();
  }

  template <class M>
  void drive(M& m, const In& in) const {
    m.launch_i = in.launch;
    tb::put(m.launch_warp_i, in.launch_warp);
    m.exit_i = in.exit;
    tb::put(m.exit_warp_i, in.exit_warp);
    m.set_tokens_i = in.set_tokens;
    tb::put(m.tokens_i, in.tokens);
  }
  template <class M>
  Out sample(const M& m) const {
    Out o{Bits((max_warps + 63) / 64), Bits((max_warps + 63) / 64)};
    for (uint32_t k = 0; k < o.token.size(); ++k) {
      const unsigned width = std::min(64U, max_warps - 64 * k);
      o.token[k] = tb::get(m.token_o, 64 * k, width);
      o.resident[k] = tb::get(m.resident_o, 64 * k, width);
    }
    return o;
  }
  static Out state(const PcalTokenUnit& u, uint32_t max) {
    Out o{Bits((max + 63) / 64), Bits((max + 63) / 64)};
    for (uint32_t w = 0; w < max; ++w) {
      if (u.has_token(w)) set_bit(o.token, w);
      if (u.resident(w)) set_bit(o.resident, w);
    }
    return o;
  }
  // The registered outputs, then the cycle in the simulator's order: launch, exit, set_tokens.
  // `alt` applies set_tokens first; the module header says the order makes no difference.
  Out golden(const In& in) {
    const Out o = state(model, max_warps);
    if (in.launch) model.launch(in.launch_warp);
    if (in.exit) model.exit(in.exit_warp);
    if (in.set_tokens) model.set_tokens(in.tokens);
    if (in.set_tokens) alt.set_tokens(in.tokens);
    if (in.launch) alt.launch(in.launch_warp);
    if (in.exit) alt.exit(in.exit_warp);
    order_divergences += !(state(alt, max_warps) == state(model, max_warps)) || alt.age_order() != model.age_order();
    return o;
  }
  void reset_models() {
    model.reset();
    alt.reset();
    pool.reset();
  }
  In random(std::mt19937_64& rng) const { return pool.step(rng); }

  uint32_t max_warps;
  unsigned idx_bits, count_bits;
  PcalTokenUnit model, alt;
  uint64_t order_divergences = 0;
  mutable Pool pool;  // random() is const in tb::run_netlist_cosim; the pool is stimulus state
};

using In = TokensIo::In;
using Board = tb::Scoreboard<TokensIo::In, TokensIo::Out>;
namespace models = tb::l1d_pcal_tokens;

template <class Config>
class PcalTokens : public ::testing::Test {
 protected:
  static constexpr const char* kMainTest = "RandomMatchesGoldenAndInvariant";  // its waves: <block>.fst
  PcalTokens()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {
    dut.reset();
  }
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  void cycle(const In& in) { tb::check_cycle(dut, io, board, in); }
  void launch(uint32_t w) { cycle({.launch = true, .launch_warp = w}); }
  void exit(uint32_t w) { cycle({.exit = true, .exit_warp = w}); }
  void set_tokens(uint32_t t) { cycle({.set_tokens = true, .tokens = t}); }
  void launch_all(const std::vector<uint32_t>& ws) {
    for (uint32_t w : ws) launch(w);
  }
  // A cycle whose request the RTL must ignore in part: `driven` goes to the ports, the golden
  // model gets only `legal` (the golden model would throw on the rest).
  void cycle_ignoring(const In& driven, const In& legal) {
    io.drive(*dut, driven);
    dut.settle();
    board.check(dut.cycles(), driven, io.golden(legal), io.sample(*dut));
    dut.tick();
  }
  // The slots holding a token and the resident ones, as the RTL shows them now (one idle cycle,
  // checked against the golden model like every other).
  std::vector<uint32_t> holders() {
    cycle({});
    dut.settle();
    const TokensIo::Out o = io.sample(*dut);
    std::vector<uint32_t> out;
    for (uint32_t w = 0; w < io.max_warps; ++w)
      if (test_bit(o.token, w)) out.push_back(w);
    return out;
  }
  uint32_t residents() {
    dut.settle();
    const TokensIo::Out o = io.sample(*dut);
    uint32_t n = 0;
    for (uint64_t word : o.resident) n += static_cast<uint32_t>(std::popcount(word));
    return n;
  }

  TokensIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
};
TYPED_TEST_SUITE(PcalTokens, models::Configs);

using W = std::vector<uint32_t>;

// UnlimitedByDefaultEveryWarpHoldsAToken: reset leaves the limit at MaxWarps; every slot launched.
TYPED_TEST(PcalTokens, UnlimitedByDefaultEveryWarpHoldsAToken) {
  EXPECT_TRUE(this->holders().empty());
  for (uint32_t w = 0; w < this->io.max_warps; ++w) this->launch(w);
  EXPECT_EQ(this->holders().size(), this->io.max_warps);
  EXPECT_EQ(this->residents(), this->io.max_warps);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// TokensGoToTheOldestWarps, AgeIsLaunchOrderNotSlotNumber.
TYPED_TEST(PcalTokens, TokensGoToTheOldestWarpsInLaunchOrder) {
  this->set_tokens(3);
  this->launch_all({0, 1, 2, 3, 4, 5});
  EXPECT_EQ(this->holders(), (W{0, 1, 2}));
  this->dut.reset();
  this->io.reset_models();
  this->set_tokens(2);
  this->launch_all({5, 2, 7, 1});
  EXPECT_EQ(this->holders(), (W{2, 5}));
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// HolderExitPassesTokenToOldestNonHolder, HolderExitWithNoWaitingWarpLeavesTokenFree,
// NonHolderExitChangesNothing.
TYPED_TEST(PcalTokens, ExitHandsTheTokenToTheOldestNonHolder) {
  if (this->io.max_warps < 14) GTEST_SKIP() << "needs 14 warp slots";
  this->set_tokens(2);
  this->launch_all({10, 11, 12, 13});
  this->exit(10);
  EXPECT_EQ(this->holders(), (W{11, 12}));
  this->exit(13);  // a non-holder: nothing changes
  EXPECT_EQ(this->holders(), (W{11, 12}));
  this->exit(11);  // no warp waits: the token stays free ...
  EXPECT_EQ(this->holders(), (W{12}));
  this->launch(0);  // ... for the next launch
  EXPECT_EQ(this->holders(), (W{0, 12}));
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// SetTokensUpGivesToOldestNonHolders, SetTokensDownTakesFromYoungestHolders (and the later exit
// under the new limit), SetTokensAboveMaxIsClamped (the port's largest value), zero tokens.
TYPED_TEST(PcalTokens, SetTokensTakesEffectAtOnce) {
  this->set_tokens(1);
  this->launch_all({4, 3, 2, 1, 0});
  EXPECT_EQ(this->holders(), (W{4}));
  this->set_tokens(3);
  EXPECT_EQ(this->holders(), (W{2, 3, 4}));
  this->set_tokens(this->io.max_warps);
  EXPECT_EQ(this->holders(), (W{0, 1, 2, 3, 4}));
  this->set_tokens(2);
  EXPECT_EQ(this->holders(), (W{3, 4}));
  this->exit(4);
  EXPECT_EQ(this->holders(), (W{2, 3}));
  this->set_tokens(static_cast<uint32_t>(tb::low_mask(this->io.count_bits)));  // above MaxWarps: all
  EXPECT_EQ(this->holders(), (W{0, 1, 2, 3}));
  this->set_tokens(0);  // zero tokens: every resident warp bypasses
  this->launch_all({5, 6});
  EXPECT_TRUE(this->holders().empty());
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// RelaunchedWarpIsYoungest, ResetReturnsToConstructedState.
TYPED_TEST(PcalTokens, RelaunchIsYoungestAndResetRestoresTheLimit) {
  this->set_tokens(2);
  this->launch_all({0, 1, 2});
  this->exit(0);  // the token passes to 2
  this->launch(0);
  EXPECT_EQ(this->holders(), (W{1, 2}));
  EXPECT_EQ(this->io.model.age_order(), (W{1, 2, 0}));
  this->set_tokens(1);
  this->dut.reset();
  this->io.reset_models();
  EXPECT_EQ(this->residents(), 0U);
  this->launch_all({2, 1});
  EXPECT_EQ(this->holders(), (W{1, 2}));  // the limit is MaxWarps again
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Launch, exit and set_tokens in one cycle.
TYPED_TEST(PcalTokens, LaunchExitAndSetTokensInOneCycle) {
  this->set_tokens(2);
  this->launch_all({0, 1});
  // A holder exits while a new warp launches: the newcomer, the oldest non-holder, gets the token.
  this->cycle({.launch = true, .launch_warp = 2, .exit = true, .exit_warp = 0});
  EXPECT_EQ(this->holders(), (W{1, 2}));
  // A warp launched and exiting in the same cycle leaves no trace.
  this->cycle({.launch = true, .launch_warp = 5, .exit = true, .exit_warp = 5});
  EXPECT_EQ(this->holders(), (W{1, 2}));
  EXPECT_EQ(this->residents(), 2U);
  this->launch_all({3, 4});
  // All three: 5 launches, holder 1 exits, the limit rises to 4: 2, 3, 4, 5 all hold.
  this->cycle({.launch = true, .launch_warp = 5, .exit = true, .exit_warp = 1, .set_tokens = true, .tokens = 4});
  EXPECT_EQ(this->holders(), (W{2, 3, 4, 5}));
  // All three, limit 1: the launched warp exits at once; 2 (oldest) keeps the only token.
  this->cycle({.launch = true, .launch_warp = 0, .exit = true, .exit_warp = 0, .set_tokens = true, .tokens = 1});
  EXPECT_EQ(this->holders(), (W{2}));
  // Limit 0 with a launch: nobody holds; then limit 3 with a launch and the oldest's exit.
  this->cycle({.launch = true, .launch_warp = 6, .set_tokens = true, .tokens = 0});
  EXPECT_TRUE(this->holders().empty());
  this->cycle({.launch = true, .launch_warp = 7, .exit = true, .exit_warp = 2, .set_tokens = true, .tokens = 3});
  EXPECT_EQ(this->holders(), (W{3, 4, 5}));
  EXPECT_EQ(this->io.order_divergences, 0U);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// MisuseThrows in the golden model; the RTL ignores the illegal part of a cycle: a launch of a
// resident warp or of a slot >= MaxWarps (where the port can name one), an exit of a warp that
// is not resident (or >= MaxWarps). "A failed call leaves the state untouched."
TYPED_TEST(PcalTokens, IllegalRequestsChangeNothing) {
  const uint32_t port_max = static_cast<uint32_t>(tb::low_mask(this->io.idx_bits));
  this->set_tokens(2);
  this->launch_all({3, 1, 4});
  this->cycle_ignoring({.launch = true, .launch_warp = 3}, {});
  this->cycle_ignoring({.exit = true, .exit_warp = 5}, {});
  this->cycle_ignoring({.launch = true, .launch_warp = 1, .exit = true, .exit_warp = 9}, {});
  EXPECT_EQ(this->holders(), (W{1, 3}));
  EXPECT_EQ(this->residents(), 3U);
  // A legal launch with an illegal exit, and an ignored launch of a resident warp that exits.
  this->cycle_ignoring({.launch = true, .launch_warp = 6, .exit = true, .exit_warp = 7}, {.launch = true, .launch_warp = 6});
  this->cycle_ignoring({.launch = true, .launch_warp = 3, .exit = true, .exit_warp = 3}, {.exit = true, .exit_warp = 3});
  EXPECT_EQ(this->holders(), (W{1, 4}));
  if (port_max >= this->io.max_warps) {  // slot numbers the port can carry but the unit lacks
    this->cycle_ignoring({.launch = true, .launch_warp = port_max}, {});
    this->cycle_ignoring({.exit = true, .exit_warp = this->io.max_warps}, {});
    this->cycle_ignoring({.launch = true, .launch_warp = this->io.max_warps, .exit = true, .exit_warp = this->io.max_warps}, {});
  }
  EXPECT_EQ(this->residents(), 3U);
  this->launch_all({0, 2});
  this->exit(1);
  EXPECT_EQ(this->holders(), (W{4, 6}));
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Random: the warp pool for kRandomCycles cycles. Each cycle the RTL's outputs are compared
// with the pool's own expectation (first min(limit, resident) warps of its age list) before the
// golden comparison; the golden model's age order must stay the pool's.
TYPED_TEST(PcalTokens, RandomMatchesGoldenAndInvariant) {
  std::mt19937_64 r(20140611);
  uint64_t invariant_mismatches = 0, order_mismatches = 0;
  TokensIo& tio = this->io;
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    const TokensIo::Out expect = tio.pool.expected();
    const In in = tio.pool.step(r);
    tio.drive(*this->dut, in);
    this->dut.settle();
    if (!(tio.sample(*this->dut) == expect) && ++invariant_mismatches <= 5) {
      ADD_FAILURE() << "cycle " << c << ": holders are not the oldest residents\n  expected " << expect << "\n  rtl      "
                    << tio.sample(*this->dut);
    }
    this->cycle(in);
    order_mismatches += tio.model.age_order() != tio.pool.order;
  }
  const auto& p = tio.pool;
  std::cout << "[ coverage   ] " << p.launches_with_token << " launches with a token, " << p.launches_without
            << " without; " << p.handovers << " hand-overs, " << p.holder_exits_no_waiter
            << " holder exits with no waiter, " << p.nonholder_exits << " non-holder exits; limit " << p.limit_up
            << " up, " << p.limit_down << " down, " << p.limit_above_max << " above MaxWarps; "
            << p.launch_exit_same_warp << " launch+exit of one warp, " << p.all_three << " all three; "
            << p.full_cycles << " full, " << p.empty_cycles << " empty cycles\n"
            << "[ invariant  ] " << invariant_mismatches << " mismatches with the pool's oldest-residents expectation, "
            << tio.order_divergences << " divergences of the set_tokens-first golden model\n";
  EXPECT_EQ(invariant_mismatches, 0U);
  EXPECT_EQ(order_mismatches, 0U);
  EXPECT_EQ(tio.order_divergences, 0U);
  for (uint64_t n : {p.launches_with_token, p.launches_without, p.handovers, p.holder_exits_no_waiter,
                     p.nonholder_exits, p.limit_up, p.limit_down, p.limit_above_max, p.launch_exit_same_warp,
                     p.all_three, p.full_cycles, p.empty_cycles}) {
    EXPECT_GT(n, 20U);
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class PcalTokensNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(PcalTokensNetlist, models::Configs);

TYPED_TEST(PcalTokensNetlist, NetlistMatchesRtl) {
  const TokensIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
