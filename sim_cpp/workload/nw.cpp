// nw (NW, Rodinia Needleman-Wunsch): global alignment of two random sequences of length N with a
// substitution table and gap penalty 10, score matrix (N+1) x (N+1) ints. As in Rodinia's
// needle kernels, the matrix is processed in 16 x 16 blocks, one block-anti-diagonal per kernel,
// one 16-thread CTA per block (thread tx owns column tx of the block):
//   if (tx == 0) load the north-west corner; 16 loads of reference[row ty][tx];
//   load the west column element tx and the north row element tx;
//   31 wavefront steps in shared memory (compute if tx is on the step's diagonal, then barrier);
//   16 stores of score[row ty][tx]
// The row-strided reference and score accesses (one 64 B row piece per instruction, 16 rows)
// make it irregular-looking but the addresses are affine: regular.
#include <algorithm>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kBlock = 16;
constexpr int32_t kPenalty = 10;
// Rodinia 3.1's needle at its published input (`needle 2048 10`): block_width = 2048 / 16 = 128,
// so its wavefront is launches of dimGrid(i) CTAs, i = 1 .. 128 (needle_cuda_shared_1), then
// i = 127 .. 1 (needle_cuda_shared_2).
constexpr uint32_t kRodiniaBlockWidth = 2048 / kBlock;

std::vector<int32_t> align(const std::vector<int32_t>& ref, uint32_t cols) {  // the DP, row by row
  std::vector<int32_t> s(ref.size(), 0);
  for (uint32_t i = 0; i < cols; ++i) s[i] = -static_cast<int32_t>(i) * kPenalty, s[uint64_t{i} * cols] = s[i];
  for (uint64_t i = 1; i < cols; ++i)
    for (uint64_t j = 1; j < cols; ++j)
      s[i * cols + j] = std::max({s[(i - 1) * cols + j - 1] + ref[i * cols + j], s[(i - 1) * cols + j] - kPenalty,
                                  s[i * cols + j - 1] - kPenalty});
  return s;
}

class Nw final : public GeneratedWorkload {
 public:
  std::string name() const override { return "nw"; }
  std::string description() const override { return "Rodinia Needleman-Wunsch, 16x16 blocks by anti-diagonal"; }
  WorkloadInfo info() const override {
    return {false, false, "Rodinia (NW)",
            cols_ ? "two sequences of " + std::to_string(cols_ - 1) + ", int matrices" : "", ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t n = by_scale(scale, 128u, 512u, 4096u), cols = n + 1, blocks = n / kBlock;
    Rng rng(mix_seed(seed, "nw"));
    int32_t table[24][24];  // a BLOSUM-like symmetric substitution table: matches score high
    for (int a = 0; a < 24; ++a)
      for (int b = 0; b <= a; ++b)
        table[a][b] = table[b][a] =
            a == b ? 4 + static_cast<int32_t>(rng.below(8)) : static_cast<int32_t>(rng.below(7)) - 4;
    std::vector<uint32_t> s1(cols), s2(cols);
    for (uint32_t i = 1; i < cols; ++i)
      s1[i] = static_cast<uint32_t>(rng.below(24)), s2[i] = static_cast<uint32_t>(rng.below(24));
    std::vector<int32_t> ref(uint64_t{cols} * cols, 0), score(ref.size(), 0);
    for (uint64_t i = 1; i < cols; ++i)
      for (uint64_t j = 1; j < cols; ++j) ref[i * cols + j] = table[s1[i]][s2[j]];
    for (uint32_t i = 0; i < cols; ++i)
      score[i] = -static_cast<int32_t>(i) * kPenalty, score[uint64_t{i} * cols] = score[i];
    cols_ = cols, ref_ = share(ref);
    auto result = share(align(ref, cols));
    const Addr ref_base = layout_.array(mem, "reference", ref), m_base = layout_.array(mem, "score", score);

    KernelCode k(kFirstKernelPc);
    const StaticOp idx = k.alu(kLatIntMad), ld_nw = k.load(4), ld_ref = k.load(4), bar1 = k.barrier();
    const StaticOp ld_w = k.load(4), bar2 = k.barrier(), ld_n = k.load(4), bar3 = k.barrier();
    const StaticOp step = k.alu(kLatInt + kLatInt), bar4 = k.barrier(), st = k.store(4), exit = k.exit();
    for (uint32_t d = 0; d + 1 < 2 * blocks; ++d) {
      const uint32_t first = d < blocks ? 0 : d - blocks + 1, count = std::min(d, blocks - 1) - first + 1;
      add_kernel(
          "needle_cuda_shared", uint64_t{count} * kBlock,
          [=](WarpStream& s, const WarpCoords& w) {
            const uint64_t bx = first + w.cta, by = d - bx;            // block column and row
            const uint64_t corner = by * kBlock * cols + bx * kBlock;  // north-west corner element
            const uint32_t m = w.mask_below(UINT64_MAX);
            const auto at = [&](Addr base, uint64_t e) { return base + 4 * e; };
            s.alu(idx, m);
            s.load(ld_nw, 1u, [&](uint32_t) { return at(m_base, corner); });
            for (uint64_t ty = 0; ty < kBlock; ++ty)
              s.load(ld_ref, m, [&](uint32_t tx) { return at(ref_base, corner + cols + 1 + ty * cols + tx); });
            s.barrier(bar1);
            s.load(ld_w, m, [&](uint32_t tx) { return at(m_base, corner + cols + uint64_t{tx} * cols); });
            s.barrier(bar2);
            s.load(ld_n, m, [&](uint32_t tx) { return at(m_base, corner + 1 + tx); });
            s.barrier(bar3);
            for (uint32_t st_i = 0; st_i < 2 * kBlock - 1; ++st_i) {  // the block's anti-diagonals
              s.alu(step, lanes_where(m, [&](uint32_t tx) { return tx <= st_i && st_i - tx < kBlock; }));
              s.barrier(bar4);
            }
            for (uint64_t ty = 0; ty < kBlock; ++ty)
              s.store(st, m, [&](uint32_t tx) {
                const uint64_t e = corner + cols + 1 + ty * cols + tx;
                return LaneWrite{at(m_base, e), bits((*result)[e])};
              });
            s.exit(exit);
          },
          kBlock);
      // Rodinia's launch as far from the nearer end of its wavefront as this one: dimGrid(i) with
      // i = that distance + 1 (1 .. 32 at small), whatever the input's size.
      const uint32_t from_end = std::min(d, 2 * blocks - 2 - d);
      published(std::min(from_end + 1, kRodiniaBlockWidth),
                "Rodinia 3.1 needle.cu at 2048 x 2048: dimGrid(i) CTAs of 16 threads, i = 1 .. 128 .. 1 by "
                "anti-diagonal; here i = " + std::to_string(from_end + 1) + " (launch " + std::to_string(from_end) +
                    " from the nearer end)");
    }
  }

 protected:
  void check(ResultCheck& c) const override { c.exact("score", align(*ref_, cols_)); }

 private:
  uint32_t cols_ = 0;
  Shared<int32_t> ref_;
};

}  // namespace

std::unique_ptr<Workload> make_nw() { return std::make_unique<Nw>(); }

}  // namespace l1d::sim::wl
