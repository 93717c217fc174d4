// The workload helpers (kernel_builder.h): PCs, lane masks, stream recording and replay,
// memory layout.
#include <gtest/gtest.h>

#include <bit>
#include <stdexcept>

#include "sim_cpp/workload/kernel_builder.h"

namespace l1d::sim::wl {
namespace {

TEST(WorkloadBuilder, KernelCodeGivesEachStaticInstructionItsOwnPc) {
  KernelCode k(0x100);
  const StaticOp a = k.alu(5), ld = k.load(8), st = k.store(2), bar = k.barrier(), ex = k.exit();
  EXPECT_EQ(a.pc, 0x100u);
  EXPECT_EQ(ld.pc, 0x108u);
  EXPECT_EQ(st.pc, 0x110u);
  EXPECT_EQ(bar.pc, 0x118u);
  EXPECT_EQ(ex.pc, 0x120u);
  EXPECT_EQ(k.end(), 0x128u);
  EXPECT_EQ(a.kind, OpKind::kAlu);
  EXPECT_EQ(a.latency, 5u);
  EXPECT_EQ(ld.bytes, 8u);
  EXPECT_EQ(st.kind, OpKind::kStore);
  // The next kernel function starts at the next 256 B boundary: no PC is shared.
  EXPECT_EQ(k.next_kernel().base(), 0x200u);
  EXPECT_EQ(KernelCode(0x200).next_kernel().base(), 0x200u);
}

// Scoreboard operands (core.load_wait on_use): each static load writes its own register, an
// instruction reads the loads it names, and one that names none waits for every load.
TEST(WorkloadBuilder, LoadsGetRegistersAndInstructionsDeclareWhatTheyRead) {
  KernelCode k(0x100);
  const StaticOp a = k.load(4).reads({}), b = k.load(4).reads({a});
  const StaticOp add = k.alu(4).reads({a, b}), plain = k.alu(4), ex = k.exit();
  EXPECT_EQ(a.dst, 1u);
  EXPECT_EQ(b.dst, 2u);
  EXPECT_THROW(k.alu(1).reads({add}), std::logic_error);  // not a load
  WarpStream s;
  s.load(a, 1u, [](uint32_t) { return Addr{0x1000}; });
  s.load(b, 1u, [](uint32_t) { return Addr{0x2000}; });
  s.alu(add);
  s.alu(plain);
  s.exit(ex);
  auto p = std::move(s).finish();
  const auto regs = [](const WarpInst& i) { return std::vector<uint16_t>(i.regs.begin(), i.regs.begin() + i.writes + i.reads); };
  const WarpInst la = p->next(), lb = p->next(), ia = p->next(), ip = p->next(), ie = p->next();
  EXPECT_FALSE(la.reads_all_loads);
  EXPECT_EQ(la.writes, 1u);
  EXPECT_EQ(la.reads, 0u);
  EXPECT_EQ(regs(la), std::vector<uint16_t>{1});
  EXPECT_EQ(lb.reads, 1u);
  EXPECT_EQ(regs(lb), (std::vector<uint16_t>{2, 1}));
  EXPECT_EQ(ia.writes, 0u);
  EXPECT_EQ(regs(ia), (std::vector<uint16_t>{1, 2}));
  EXPECT_FALSE(ia.reads_all_loads);
  EXPECT_TRUE(ip.reads_all_loads);
  EXPECT_TRUE(ie.reads_all_loads);
}

TEST(WorkloadBuilder, WarpCoordsAndGrid) {
  const WarpCoords w{2, 3, 256};
  EXPECT_EQ(w.thread_in_cta(5), 101u);
  EXPECT_EQ(w.global_id(5), 2u * 256 + 96 + 5);
  // n = 2*256 + 96 + 10: lanes 0..9 are below n.
  EXPECT_EQ(w.mask_below(2 * 256 + 96 + 10), 0x3FFu);
  EXPECT_EQ(w.mask_below(0), 0u);
  EXPECT_EQ(w.mask_below(UINT64_MAX), 0xFFFFFFFFu);
  // A 48-thread CTA: its second warp has 16 lanes.
  EXPECT_EQ((WarpCoords{0, 1, 48}.mask_below(UINT64_MAX)), 0xFFFFu);
  const KernelGrid g = grid_1d(1000);
  EXPECT_EQ(g.ctas, 4u);
  EXPECT_EQ(g.warps_per_cta, 8u);
  EXPECT_EQ(grid_1d(1024).ctas, 4u);
  EXPECT_EQ(grid_1d(48, 48).warps_per_cta, 2u);
}

TEST(WorkloadBuilder, StreamRecordsAndReplaysSparseLanes) {
  KernelCode k(0x200);
  const StaticOp alu = k.alu(4), ld = k.load(4), st = k.store(8), ex = k.exit();
  WarpStream s;
  s.alu(alu);
  s.load(ld, 0x80000005u, [](uint32_t l) { return Addr{0x1000} + 4 * l; });
  s.store(st, 0x00010000u, [](uint32_t l) { return LaneWrite{Addr{0x2000} + 8 * l, 0xABCDull + l}; });
  s.load(ld, 0u, [](uint32_t) -> Addr { throw std::logic_error("no lane: not evaluated"); });
  s.alu(alu, 0u);  // skipped: no lane executes it
  s.exit(ex);
  EXPECT_EQ(s.size(), 4u);
  auto p = std::move(s).finish();
  WarpInst i = p->next();
  EXPECT_EQ(i.kind, OpKind::kAlu);
  EXPECT_EQ(i.pc, 0x200u);
  EXPECT_EQ(i.latency, 4u);
  i = p->next();
  EXPECT_EQ(i.kind, OpKind::kLoad);
  EXPECT_EQ(i.pc, 0x208u);
  EXPECT_EQ(i.active_mask, 0x80000005u);
  EXPECT_EQ(i.access_bytes, 4u);
  EXPECT_EQ(i.addr[0], 0x1000u);
  EXPECT_EQ(i.addr[2], 0x1008u);
  EXPECT_EQ(i.addr[31], 0x107Cu);
  i = p->next();
  EXPECT_EQ(i.kind, OpKind::kStore);
  EXPECT_EQ(i.access_bytes, 8u);
  EXPECT_EQ(i.active_mask, 0x00010000u);
  EXPECT_EQ(i.addr[16], 0x2080u);
  EXPECT_EQ(i.value[16], 0xABCDull + 16);
  EXPECT_EQ(p->next().kind, OpKind::kExit);
  EXPECT_EQ(p->next().kind, OpKind::kExit);  // stays at exit

  // A 16-byte store (a uint4 per lane) keeps both halves of each lane's value.
  KernelCode k16(0x400);
  const StaticOp st16 = k16.store(16), ex16 = k16.exit();
  WarpStream w;
  w.store(st16, 0x00000006u, [](uint32_t l) { return LaneWrite{Addr{0x3000} + 16 * l, 0x1000ull + l, 0x2000ull + l}; });
  w.exit(ex16);
  auto q = std::move(w).finish();
  i = q->next();
  EXPECT_EQ(i.access_bytes, 16u);
  EXPECT_EQ(i.addr[2], 0x3020u);
  EXPECT_EQ(i.value[1], 0x1001u);
  EXPECT_EQ(i.value_hi[1], 0x2001u);
  EXPECT_EQ(i.value_hi[2], 0x2002u);
  EXPECT_EQ(i.store_byte(2, 0), 0x02u);
  EXPECT_EQ(i.store_byte(2, 9), 0x20u);
}

TEST(WorkloadBuilder, StreamRejectsMisuse) {
  KernelCode k(0x100);
  const StaticOp alu = k.alu(4), ld = k.load(4), ex = k.exit();
  WarpStream no_exit;
  no_exit.alu(alu);
  EXPECT_THROW(std::move(no_exit).finish(), std::logic_error);
  WarpStream after_exit;
  after_exit.exit(ex);
  EXPECT_THROW(after_exit.alu(alu), std::logic_error);
  WarpStream wrong_kind;
  EXPECT_THROW(wrong_kind.alu(ld), std::logic_error);
  EXPECT_THROW(wrong_kind.load(alu, 1u, [](uint32_t) { return Addr{0}; }), std::logic_error);
  const GeneratedKernel kern("k", grid_1d(64), 256, [ex](WarpStream& s, const WarpCoords&) { s.exit(ex); });
  EXPECT_NO_THROW(kern.warp(0, 7));
  EXPECT_THROW(kern.warp(1, 0), std::out_of_range);
  EXPECT_THROW(kern.warp(0, 8), std::out_of_range);
}

// A GeneratedKernel produces a long stream window by window, re-running the body; the result
// must be exactly the stream one full recording gives.
TEST(WorkloadBuilder, LongStreamsComeInWindowsIdenticalToOneRecording) {
  KernelCode k(0x100);
  const StaticOp alu = k.alu(4), ld = k.load(4), st = k.store(8), st16 = k.store(16), ex = k.exit();
  const auto body = [=](WarpStream& s, const WarpCoords& w) {
    std::array<uint64_t, kWarpSize> acc{};
    for (uint32_t it = 0; it < 3000; ++it) {
      const uint32_t m = it % 7 == 0 ? 0u : (0x9E3779B9u * (it + 1)) | 1u;
      s.alu(alu, m);
      s.load(ld, m, [&](uint32_t l) { return Addr{0x100000} * w.cta + 4 * (it * 32 + l); });
      for_lanes(m, [&](uint32_t l) { acc[l] += uint64_t{it} * l + 1; });
      s.store(st, m, [&](uint32_t l) { return LaneWrite{Addr{0x800000} + 8 * l, acc[l]}; });
      if (it % 3 == 0) s.store(st16, m, [&](uint32_t l) { return LaneWrite{Addr{0x900000} + 16 * l, it, acc[l]}; });
    }
    s.exit(ex);
  };
  WarpStream whole;
  body(whole, WarpCoords{1, 2, 256});
  ASSERT_GT(whole.size(), GeneratedKernel::kWindowInsts);  // several windows (by both budgets)
  auto want = std::move(whole).finish();
  const GeneratedKernel kern("long", grid_1d(512), 256, body);
  auto got = kern.warp(1, 2);
  for (size_t n = 0;; ++n) {
    const WarpInst a = want->next(), b = got->next();
    ASSERT_EQ(a.kind, b.kind) << n;
    ASSERT_EQ(a.pc, b.pc) << n;
    ASSERT_EQ(a.active_mask, b.active_mask) << n;
    ASSERT_EQ(a.addr, b.addr) << n;
    ASSERT_EQ(a.value, b.value) << n;
    ASSERT_EQ(a.value_hi, b.value_hi) << n;
    if (a.kind == OpKind::kExit) break;
  }
  EXPECT_EQ(got->next().kind, OpKind::kExit);
}

TEST(WorkloadBuilder, GeneratedKernelRejectsBodiesWithoutExitOrNotDeterministic) {
  KernelCode k(0x100);
  const StaticOp alu = k.alu(4), ex = k.exit();
  const GeneratedKernel no_exit("k", grid_1d(32), 256, [=](WarpStream& s, const WarpCoords&) { s.alu(alu); });
  EXPECT_THROW(no_exit.warp(0, 0), std::logic_error);
  auto runs = std::make_shared<int>(0);
  const GeneratedKernel shrinking("k", grid_1d(32), 256, [=](WarpStream& s, const WarpCoords&) {
    const int n = (*runs)++ == 0 ? 5000 : 10;  // the second run gives a shorter stream
    for (int i = 0; i < n; ++i) s.alu(alu);
    s.exit(ex);
  });
  auto p = shrinking.warp(0, 0);
  EXPECT_THROW(
      {
        for (int i = 0; i < 6000; ++i) p->next();
      },
      std::logic_error);
}

TEST(WorkloadBuilder, MemoryLayoutPlacesDistinctAlignedInitialisedArrays) {
  FunctionalMemory mem;
  MemoryLayout layout;
  const std::vector<int32_t> a{1, -2, 3};
  std::vector<float> b(1000);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i) * 0.5f;
  const Addr pa = layout.array(mem, "a", a);
  const Addr pb = layout.array(mem, "b", b);
  EXPECT_EQ(pa, MemoryLayout::kBase);
  EXPECT_EQ(pb % MemoryLayout::kAlign, 0u);
  EXPECT_GE(pb, pa + 3 * 4 + MemoryLayout::kAlign);  // a gap between arrays
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(mem.read<int32_t>(pa + 4 * i), a[i]);
  for (size_t i = 0; i < b.size(); ++i) EXPECT_EQ(mem.read<float>(pb + 4 * i), b[i]);
  EXPECT_EQ(layout.region("b").bytes, 4000u);
  EXPECT_EQ(layout.region("b").elem_bytes, 4u);
  EXPECT_TRUE(layout.region("a").contains(pa + 8, 4));
  EXPECT_FALSE(layout.region("a").contains(pa + 10, 4));
  EXPECT_THROW(layout.region("c"), std::out_of_range);
}

TEST(WorkloadBuilder, RngIsDeterministicAndSpreads) {
  Rng a(7), b(7), c(8);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.next(), b.next());
  EXPECT_NE(a.next(), c.next());
  double sum = 0, sq = 0;
  Rng r(1);
  for (int i = 0; i < 20000; ++i) {
    const double u = r.unit();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    const double z = r.normal();
    sum += z, sq += z * z;
  }
  EXPECT_NEAR(sum / 20000, 0.0, 0.05);
  EXPECT_NEAR(sq / 20000, 1.0, 0.05);
  EXPECT_NE(mix_seed(1, "bfs"), mix_seed(1, "spmv"));
  EXPECT_NE(mix_seed(1, "bfs"), mix_seed(2, "bfs"));
}

// normal_float (kmeans' generation) must give the float normal() * scale rounds to, bit for bit,
// and leave the generator where normal() does.
TEST(WorkloadBuilder, NormalFloatIsNormalTimesScaleRoundedToFloat) {
  for (const double scale : {1.5, 5.0, 0.25}) {
    Rng a(mix_seed(3, "kmeans")), b(mix_seed(3, "kmeans"));
    uint32_t differ = 0;
    for (int i = 0; i < 100000; ++i) {
      const float want = static_cast<float>(a.normal() * scale), got = b.normal_float(scale);
      differ += std::bit_cast<uint32_t>(want) != std::bit_cast<uint32_t>(got);
    }
    EXPECT_EQ(differ, 0u) << "scale " << scale;
    EXPECT_EQ(a.next(), b.next());
  }
}

}  // namespace
}  // namespace l1d::sim::wl
