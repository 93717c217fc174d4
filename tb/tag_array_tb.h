// The testbench of l1d_tag_array and l1d_line_state (gen/blocks/l1d_tag_array.cpp; included by
// tb/l1d_tag_array_tb.cpp and tb/l1d_line_state_tb.cpp, each after its `namespace models = ...`)
// against the tag store of golden::L1: one golden::CacheLine per (set, way), all of whose fields
// the array holds (the line data is golden::L1::line_data, l1d_data_sram's), starting from
// CacheLine's own defaults (the reset state) and written field by field as golden/l1.cpp does
// on a fill, a hit or a flush; a kernel end clears every line's priority (golden L1
// apply_events). Cases on every configuration of RTL_TB_CONFIGS (or CONFIGS, CMakeLists.txt):
// - the reset state of every set (and slot s of every line has rank s);
// - a write is visible from the next cycle, only in the enabled ways of its set;
// - the kernel-end clears (priority; valid with l1.kernel_end invalidate) reach every set and
//   override a write of the same cycle;
// - every field at all ones and back to zero (no bit lost at a field boundary);
// - >= 10^5 random cycles (random ways of random sets written with random fields, reads mostly of
//   the written set and of a few hot sets, clears now and then), and the netlist co-simulation
//   (on the two small configurations: gtx480's netlist takes two minutes to build).
// l1d_line_state holds only valid, slot_rank and priority: the other fields are neither driven
// nor compared there. l1d_tag_array also holds each slot's reserved bit (l1.allocation on_miss,
// contract 13.1: CacheLine's Slot::reserved), which a kernel-end valid clear leaves as it is.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "common/address.h"
#include "golden/cache_line.h"
#include "tb/bitvec.h"
#include "tb/testbench.h"

namespace {

using l1d::golden::CacheLine;
using tb::BitVec;

constexpr uint64_t kRandomCycles = 100'000;
constexpr uint64_t kCosimCycles = 10'000;
constexpr unsigned kSlots = l1d::kSlotsPerLine;

// Field widths of one configuration (per slot for dirty, chunk-tag and rank).
struct Shape {
  explicit Shape(const l1d::Config& c) {
    const l1d::AddressSplit split(c.l1);
    sets = l1d::largest_l1_sets(c.l1);  // the arrays' sets (an adaptive carveout's largest L1, contract 15)
    ways = c.l1.ways;
    common_bits = std::max(split.common_tag_bits(), 1U);
    common_used = split.common_tag_bits();
    tag_bits = split.chunk_tag_bits();
    hpc_bits = static_cast<unsigned>(std::countr_zero(c.policy.agcb.entries));
  }
  unsigned sets, ways, common_bits, common_used, tag_bits, hpc_bits;
  static constexpr unsigned kDirtyBits = 32, kRankBits = 2, kAwidBits = 8;
};

// Every way's state of one set as the flat ports carry it (read and write ports alike).
struct SetState {
  explicit SetState(const Shape& s)
      : common(s.ways * s.common_bits),
        valid(s.ways * kSlots),
        dirty(s.ways * kSlots * Shape::kDirtyBits),
        tag(s.ways * kSlots * s.tag_bits),
        rank(s.ways * kSlots * Shape::kRankBits),
        hpc(s.ways * s.hpc_bits),
        awid(s.ways * Shape::kAwidBits),
        priority(s.ways),
        reserved(s.ways * kSlots) {}
  BitVec common, valid, dirty, tag, rank, hpc, awid, priority, reserved;

  void put_line(const Shape& s, unsigned w, const CacheLine& l) {
    common.set(w * s.common_bits, s.common_bits, l.common_tag);
    for (unsigned k = 0; k < kSlots; ++k) {
      const unsigned i = w * kSlots + k;
      valid.set(i, 1, l.slot[k].valid);
      dirty.set(i * Shape::kDirtyBits, Shape::kDirtyBits, l.slot[k].dirty);
      tag.set(i * s.tag_bits, s.tag_bits, l.slot[k].chunk_tag);
      rank.set(i * Shape::kRankBits, Shape::kRankBits, l.slot_rank[k]);
      reserved.set(i, 1, l.slot[k].reserved);
    }
    hpc.set(w * s.hpc_bits, s.hpc_bits, l.hpc);
    awid.set(w * Shape::kAwidBits, Shape::kAwidBits, l.awid);
    priority.set(w, 1, l.priority);
  }
  // Way w's fields into a golden line (its data untouched).
  void get_line(const Shape& s, unsigned w, CacheLine& l) const {
    l.common_tag = common.get(w * s.common_bits, s.common_bits);
    for (unsigned k = 0; k < kSlots; ++k) {
      const unsigned i = w * kSlots + k;
      l.slot[k].valid = valid.get(i, 1) != 0;
      l.slot[k].dirty = static_cast<uint32_t>(dirty.get(i * Shape::kDirtyBits, Shape::kDirtyBits));
      l.slot[k].chunk_tag = static_cast<uint32_t>(tag.get(i * s.tag_bits, s.tag_bits));
      l.slot_rank[k] = static_cast<uint8_t>(rank.get(i * Shape::kRankBits, Shape::kRankBits));
      l.slot[k].reserved = reserved.get(i, 1) != 0;
    }
    l.hpc = static_cast<uint32_t>(hpc.get(w * s.hpc_bits, s.hpc_bits));
    l.awid = static_cast<uint8_t>(awid.get(w * Shape::kAwidBits, Shape::kAwidBits));
    l.priority = priority.get(w, 1) != 0;
  }

  bool operator==(const SetState&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const SetState& v) {
    return os << "common_tag " << v.common << " valid " << v.valid << " dirty " << v.dirty << " chunk_tag " << v.tag
              << " slot_rank " << v.rank << " hpc " << v.hpc << " awid " << v.awid << " priority " << v.priority
              << " reserved " << v.reserved;
  }
};

// The port binding (tb/testbench.h). golden() returns the read of rd_set from the golden lines,
// then applies the cycle's write and kernel-end clear (the clear last, as in golden::L1).
struct TagArrayIo {
  // A block with every field (l1d_tag_array), or only valid, slot_rank, priority (l1d_line_state).
  template <class M>
  static constexpr bool kFull = requires(M& m) { m.wr_common_tag_i; };

  struct In {
    explicit In(const Shape& s) : way_en(s.ways), wr(s) {}
    uint64_t rd_set = 0, wr_set = 0;
    BitVec way_en;
    SetState wr;
    bool clear_priority = false;
    bool clear_valid = false;
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      return os << fmt::format("rd_set_i {} wr_set_i {} clear_priority_i {} clear_valid_i {} wr_way_en_i ",
                               in.rd_set, in.wr_set, in.clear_priority, in.clear_valid)
                << in.way_en << " wr_*: " << in.wr;
    }
  };
  using Out = SetState;

  TagArrayIo(const l1d::Config& c, bool full_) : full(full_), shape(c), lines(shape.sets * shape.ways) {}

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.rd_set_i, in.rd_set);
    tb::put(m.wr_set_i, in.wr_set);
    in.way_en.store(m.wr_way_en_i);
    in.wr.valid.store(m.wr_valid_i);
    in.wr.rank.store(m.wr_slot_rank_i);
    in.wr.priority.store(m.wr_priority_i);
    if constexpr (kFull<M>) {
      in.wr.common.store(m.wr_common_tag_i);
      in.wr.dirty.store(m.wr_dirty_i);
      in.wr.tag.store(m.wr_chunk_tag_i);
      in.wr.hpc.store(m.wr_hpc_i);
      in.wr.awid.store(m.wr_awid_i);
      in.wr.reserved.store(m.wr_reserved_i);
    }
    m.clear_priority_i = in.clear_priority;
    m.clear_valid_i = in.clear_valid;
  }
  template <class M>
  Out sample(const M& m) const {
    Out o(shape);
    o.valid.load(m.rd_valid_o);
    o.rank.load(m.rd_slot_rank_o);
    o.priority.load(m.rd_priority_o);
    if constexpr (kFull<M>) {
      o.common.load(m.rd_common_tag_o);
      o.dirty.load(m.rd_dirty_o);
      o.tag.load(m.rd_chunk_tag_o);
      o.hpc.load(m.rd_hpc_o);
      o.awid.load(m.rd_awid_o);
      o.reserved.load(m.rd_reserved_o);
    }
    return o;
  }
  // With one set the index ports are ignored: every index means set 0.
  unsigned set_of(uint64_t idx) const { return shape.sets == 1 ? 0U : static_cast<unsigned>(idx); }
  CacheLine& line(unsigned set, unsigned way) { return lines[set * shape.ways + way]; }

  Out golden(const In& in) {
    Out o(shape);
    const unsigned rs = set_of(in.rd_set);
    for (unsigned w = 0; w < shape.ways; ++w) o.put_line(shape, w, line(rs, w));
    if (!full) {  // l1d_line_state: the fields it does not hold read as the sampler leaves them
      const SetState none(shape);
      o.common = none.common, o.dirty = none.dirty, o.tag = none.tag, o.hpc = none.hpc, o.awid = none.awid;
      o.reserved = none.reserved;
    }
    const unsigned ws = set_of(in.wr_set);
    for (unsigned w = 0; w < shape.ways; ++w)
      if (in.way_en.get(w, 1) != 0) in.wr.get_line(shape, w, line(ws, w));
    if (in.clear_priority)
      for (CacheLine& l : lines) l.priority = false;
    if (in.clear_valid)
      for (CacheLine& l : lines)
        for (auto& slot : l.slot) slot.valid = false;
    return o;
  }

  // A random write of random fields; the common tag stays within the address's common-tag bits
  // (zero when it has none, as l1d_top writes it).
  void randomize(In& in, std::mt19937_64& rng) const {
    for (unsigned w = 0; w < shape.ways; ++w) {
      CacheLine l;
      l.common_tag = shape.common_used == 0 ? 0 : rng() & tb::low_mask(shape.common_used);
      for (unsigned k = 0; k < kSlots; ++k) {
        const uint64_t r = rng();
        l.slot[k].valid = (r & 1) != 0;
        l.slot[k].dirty = (r & 6) == 0 ? 0 : static_cast<uint32_t>(r >> 32);
        l.slot[k].chunk_tag = static_cast<uint32_t>(rng() & tb::low_mask(shape.tag_bits));
        l.slot_rank[k] = static_cast<uint8_t>((r >> 8) & 3);
        l.slot[k].reserved = (r & 0x30) == 0x30;  // a quarter of the slots
      }
      const uint64_t r = rng();
      l.hpc = static_cast<uint32_t>(r & tb::low_mask(shape.hpc_bits));
      l.awid = static_cast<uint8_t>(r >> 16);
      l.priority = ((r >> 24) & 1) != 0;
      in.wr.put_line(shape, w, l);
    }
  }
  uint64_t random_set(std::mt19937_64& rng) const { return shape.sets == 1 ? rng() & 1 : rng() % shape.sets; }

  // Co-simulation stimulus: random writes of random ways, reads anywhere, clears now and then.
  In random(std::mt19937_64& rng) const {
    In in(shape);
    in.rd_set = random_set(rng);
    in.wr_set = (rng() & 1) != 0 ? in.rd_set : random_set(rng);
    for (unsigned w = 0; w < shape.ways; ++w) in.way_en.set(w, 1, (rng() & 3) == 0);
    randomize(in, rng);
    in.clear_priority = (rng() & 31) == 0;
    in.clear_valid = (rng() & 31) == 0;
    return in;
  }

  bool full;
  Shape shape;
  std::vector<CacheLine> lines;
};

using Board = tb::Scoreboard<TagArrayIo::In, TagArrayIo::Out>;

template <class Config>
class TagArray : public ::testing::Test {
 protected:
  TagArray()
      : io(tb::load_config<Config>(), TagArrayIo::kFull<typename Config::Rtl>),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {
    dut.reset();
  }
  static constexpr const char* kMainTest = "RandomMatchesGolden";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  TagArrayIo::In idle(uint64_t rd_set) const {
    TagArrayIo::In in(io.shape);
    in.rd_set = rd_set;
    return in;
  }
  void cycle(const TagArrayIo::In& in) { tb::check_cycle(dut, io, board, in); }
  void read_all() {
    for (uint64_t s = 0; s < io.shape.sets; ++s) cycle(idle(s));
  }
  // The RTL's priority bits of set s now (read without a clock edge).
  uint64_t priority_now(uint64_t s) {
    tb::put(dut->rd_set_i, s);
    dut->wr_way_en_i = 0;
    dut->clear_priority_i = 0;
    dut->clear_valid_i = 0;
    dut.settle();
    BitVec p(io.shape.ways);
    p.load(dut->rd_priority_o);
    return p.get(0, std::min(io.shape.ways, 64U));
  }

  TagArrayIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{5};
};
TYPED_TEST_SUITE(TagArray, models::Configs);

// Reset: every line is golden::CacheLine{} (invalid, clean, slot s of rank s, the rest 0).
TYPED_TEST(TagArray, ResetStateInEverySet) {
  this->read_all();
  EXPECT_EQ(this->board.mismatches(), 0U);
  tb::put(this->dut->rd_set_i, 0);
  this->dut.settle();
  BitVec rank(this->io.shape.ways * kSlots * 2);
  rank.load(this->dut->rd_slot_rank_o);
  for (unsigned w = 0; w < this->io.shape.ways; ++w)
    for (unsigned k = 0; k < kSlots; ++k) EXPECT_EQ(rank.get((w * kSlots + k) * 2, 2), k) << "way " << w;
}

// A write is seen from the next cycle (the same cycle's read of that set shows the old state),
// in the enabled ways of its set only; the other sets keep their state.
TYPED_TEST(TagArray, WriteVisibleNextCycleInItsWaysOnly) {
  const Shape& s = this->io.shape;
  const uint64_t set = s.sets - 1;
  for (unsigned pattern = 0; pattern < 3; ++pattern) {
    TagArrayIo::In in = this->idle(set);
    in.wr_set = set;
    for (unsigned w = 0; w < s.ways; ++w) in.way_en.set(w, 1, pattern == 2 || (w % 2) == pattern);
    this->io.randomize(in, this->rng);
    this->cycle(in);  // reads the old state of `set`
    this->cycle(this->idle(set));
  }
  this->read_all();
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Kernel end: every priority bit of every set clears, also one written in the same cycle.
TYPED_TEST(TagArray, ClearPriorityReachesEverySetAndOverridesAWrite) {
  const Shape& s = this->io.shape;
  for (uint64_t set = 0; set < s.sets; ++set) {
    TagArrayIo::In in = this->idle(set);
    in.wr_set = set;
    for (unsigned w = 0; w < s.ways; ++w) in.way_en.set(w, 1, 1);
    this->io.randomize(in, this->rng);
    for (unsigned w = 0; w < s.ways; ++w) in.wr.priority.set(w, 1, 1);
    this->cycle(in);
  }
  EXPECT_NE(this->priority_now(0), 0U);
  TagArrayIo::In in = this->idle(0);
  in.wr_set = 0;
  for (unsigned w = 0; w < s.ways; ++w) in.way_en.set(w, 1, 1);
  for (unsigned w = 0; w < s.ways; ++w) in.wr.priority.set(w, 1, 1);
  in.clear_priority = true;
  this->cycle(in);
  this->read_all();
  for (uint64_t set = 0; set < s.sets; ++set) EXPECT_EQ(this->priority_now(set), 0U) << "set " << set;
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Kernel end with l1.kernel_end invalidate: every valid bit of every set clears, also one written
// in the same cycle (the read-back compares the RTL with the golden lines, all invalid by then);
// reserved bits stay (their fills are in flight; l1d_line_state has none, the golden lines' are not
// compared there).
TYPED_TEST(TagArray, ClearValidReachesEverySetAndOverridesAWrite) {
  const Shape& s = this->io.shape;
  for (int round = 0; round < 2; ++round) {
    TagArrayIo::In in = this->idle(0);
    for (uint64_t set = 0; set < s.sets; ++set) {
      in = this->idle(set);
      in.wr_set = set;
      for (unsigned w = 0; w < s.ways; ++w) in.way_en.set(w, 1, 1);
      this->io.randomize(in, this->rng);
      for (unsigned w = 0; w < s.ways; ++w) in.wr.valid.set(w * kSlots, kSlots, 0xF);
      if (round == 1 && set + 1 == s.sets) in.clear_valid = true;  // with the last write
      this->cycle(in);
    }
    if (round == 0) {
      in = this->idle(0);
      in.clear_valid = true;
      this->cycle(in);
    }
    this->read_all();
    bool reserved = false;  // the random writes reserved some slots: the clear leaves them (compared)
    for (const CacheLine& l : this->io.lines)
      for (const auto& slot : l.slot) {
        ASSERT_FALSE(slot.valid);
        reserved |= slot.reserved;
      }
    EXPECT_TRUE(reserved);
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Every field of every way at all ones, then back to zero: no bit is lost or shared at a field
// or way boundary.
TYPED_TEST(TagArray, AllOnesAndZeros) {
  const Shape& s = this->io.shape;
  for (bool ones : {true, false, true}) {
    for (uint64_t set = 0; set < s.sets; ++set) {
      TagArrayIo::In in = this->idle(set);
      in.wr_set = set;
      for (unsigned w = 0; w < s.ways; ++w) {
        in.way_en.set(w, 1, 1);
        CacheLine l;
        if (ones) {
          l.common_tag = tb::low_mask(s.common_used);
          for (unsigned k = 0; k < kSlots; ++k) {
            l.slot[k] = {.valid = true, .dirty = ~0U, .chunk_tag = static_cast<uint32_t>(tb::low_mask(s.tag_bits))};
            l.slot[k].reserved = true;
          }
          l.slot_rank = {3, 3, 3, 3};
          l.hpc = static_cast<uint32_t>(tb::low_mask(s.hpc_bits));
          l.awid = 0xFF;
          l.priority = true;
        } else {
          l.slot_rank = {0, 0, 0, 0};
        }
        in.wr.put_line(s, w, l);
      }
      this->cycle(in);
    }
    this->read_all();
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Random: writes of random ways (one way, a few, or all) of a set among a few hot ones or any,
// reads of the written set (its old state), of hot sets or any, clears 1 in 64 cycles.
TYPED_TEST(TagArray, RandomMatchesGolden) {
  std::mt19937_64& r = this->rng;
  const Shape& s = this->io.shape;
  const uint64_t hot[3] = {0, s.sets - 1, s.sets / 2};
  const auto pick = [&] { return (r() & 3) == 0 ? this->io.random_set(r) : hot[r() % 3]; };
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    TagArrayIo::In in(s);
    in.wr_set = pick();
    in.rd_set = (r() & 3) == 0 ? in.wr_set : pick();
    const uint64_t kind = r() % 4;
    if (kind == 1) {
      in.way_en.set(static_cast<unsigned>(r() % s.ways), 1, 1);
    } else if (kind == 2) {
      for (unsigned w = 0; w < s.ways; ++w) in.way_en.set(w, 1, (r() & 3) == 0);
    } else if (kind == 3) {
      for (unsigned w = 0; w < s.ways; ++w) in.way_en.set(w, 1, 1);
    }
    if (kind != 0) this->io.randomize(in, r);
    in.clear_priority = (r() & 63) == 0;
    in.clear_valid = (r() & 63) == 0;
    this->cycle(in);
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

template <class Config>
class TagArrayNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(TagArrayNetlist, models::Configs);

// Only the configurations with a netlist (NETLIST_CONFIGS in CMakeLists.txt: the small ones).
TYPED_TEST(TagArrayNetlist, NetlistMatchesRtl) {
  const TagArrayIo io(tb::load_config<TypeParam>(), TagArrayIo::kFull<typename TypeParam::Rtl>);
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
