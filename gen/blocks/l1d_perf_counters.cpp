// l1d_perf_counters: the performance-counter unit of the staged L1 (docs/l1d-microarchitecture.md
// section 16.4-16.5): 64-bit event counters kept in carry-save form, so that no path adds more
// than 16 bits in a cycle. The single-cycle l1d_top's 64-bit ripple increment was its worst path
// (69 FO4, issue 24); here a carry out of a 16-bit chunk is registered and added to the next
// chunk one cycle later, and the reader adds the pending carries when it reads.
#include <string>
#include <utility>
#include <vector>

#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

constexpr unsigned kChunkBits = 16;
constexpr unsigned kChunks = 4;  // 64-bit counters
constexpr unsigned kCounterBits = kChunkBits * kChunks;

class PerfCounters final : public RtlBlock {
 public:
  std::string_view name() const override { return "l1d_perf_counters"; }
  std::string_view summary() const override {
    return "performance counters: 64-bit carry-save counters of registered event increments (contract 16.4)";
  }

  Module module(const l1d::Config& cfg) const override {
    (void)cfg;
    Module m(name());
    m.describe("Counters 64-bit event counters in carry-save form (contract sections 16.4-16.5).");
    m.describe("inc_i[i*IncBits +: IncBits] is counter i's increment this cycle; it must come from a register");
    m.describe("(the commit stage's event register), as this unit adds it without registering it first.");
    m.describe("Each counter is four 16-bit chunks; a carry out of chunk k is registered (carry_o) and added");
    m.describe("to chunk k+1 in the next cycle; the carry out of chunk 3 is dropped (the count wraps at 2^64).");
    m.describe("Reading: value(i) = count_o[i*64 +: 64] + sum over k < 3 of carry_o[i*3 + k] << 16*(k+1),");
    m.describe("mod 2^64, which is exactly the sum of every increment presented before the current cycle.");
    m.describe("Reset clears every chunk and carry.");
    Expr counters = m.param("Counters", 8);
    Expr inc_bits = m.param("IncBits", 4);

    m.clk();
    m.rst_n();
    Expr inc = m.input("inc_i", counters * inc_bits);
    Expr count_o = m.output("count_o", counters * kCounterBits);
    Expr carry_o = m.output("carry_o", counters * (kChunks - 1));

    m.gen_for("g_counter", "i", 0, counters, [&](Scope& s, const Expr& i) {
      s.comment("Chunk 0 adds the increment; chunk k > 0 adds the carry chunk k-1 left last cycle;");
      s.comment("the carry out of chunk 3 is dropped (the count wraps at 2^64).");
      std::vector<std::pair<Expr, Expr>> regs;  // (q, d)
      Expr addend = cast(kChunkBits, inc.part(i * inc_bits, inc_bits));
      for (unsigned k = 0; k < kChunks; ++k) {
        const std::string n = std::to_string(k);
        Expr chunk_q = s.logic("chunk" + n + "_q", kChunkBits);
        Expr chunk_d = s.logic("chunk" + n + "_d", kChunkBits);
        regs.emplace_back(chunk_q, chunk_d);
        s.assign(count_o.part(i * kCounterBits + k * kChunkBits, kChunkBits), chunk_q);
        if (k + 1 == kChunks) {
          s.assign(chunk_d, chunk_q + addend);
          break;
        }
        Expr carry_q = s.logic("carry" + n + "_q");
        Expr carry_d = s.logic("carry" + n + "_d");
        regs.emplace_back(carry_q, carry_d);
        s.assign(concat({carry_d, chunk_d}), cast(kChunkBits + 1, chunk_q) + cast(kChunkBits + 1, addend));
        s.assign(carry_o[i * (kChunks - 1) + k], carry_q);
        addend = cast(kChunkBits, carry_q);
      }
      std::vector<Init> resets;
      for (const auto& [q, d] : regs) resets.push_back({q, zeros()});
      s.always_ff(resets, [&](Block& b) {
        for (const auto& [q, d] : regs) b.assign(q, d);
      });
    });
    return m;
  }
};

}  // namespace

const RtlBlock& perf_counters_block() {
  static const PerfCounters block;
  return block;
}

}  // namespace gen::blocks
