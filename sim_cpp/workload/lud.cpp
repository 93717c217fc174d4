// lud (LUD, Rodinia LU decomposition): A = L U in place, without pivoting (A N x N floats,
// diagonally dominant), two kernels per column t in the style of gaussian.cpp:
//   lud_column, thread i < N-1-t:  a[t+1+i][t] /= a[t][t]   (lanes walk down a column: uncoalesced;
//     a CTA of 16 threads per 16-row tile, as Rodinia's lud_perimeter has a CTA per trailing tile)
//   lud_internal, 16 x 16 CTAs over the trailing (N-1-t) x (N-1-t) block, x = column (threadIdx.x:
//     coalesced, 64 B per row of a tile), y = row:  a[t+1+y][t+1+x] -= a[t+1+y][t] * a[t][t+1+x]
// L (unit diagonal, stored below it) and U (on and above it) share a. Rodinia's lud_cuda does
// the same elimination a 16 x 16 block step at a time (lud_diagonal, lud_perimeter and
// lud_internal on shared-memory tiles); this is its column-at-a-time form, the global accesses
// of one elimination step per launch. Regular.
#include <cmath>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kTile = 16;  // Rodinia's BLOCK_SIZE
// Rodinia 3.1 lud_cuda at its published input (`lud_cuda -s 256 -v`): each block step i = 0, 16,
// .. < 256 - 16 launches lud_diagonal<<<1, 16>>>, lud_perimeter<<<k, 32>>> and lud_internal<<<k x
// k, 16 x 16>>> with k = (256 - i) / 16 - 1 trailing tiles (15 .. 1), then lud_diagonal<<<1, 16>>>.
constexpr uint32_t kRodiniaTiles = 256 / kTile - 1;

class Lud final : public GeneratedWorkload {
 public:
  std::string name() const override { return "lud"; }
  std::string description() const override { return "Rodinia LU decomposition, two kernels per column"; }
  WorkloadInfo info() const override {
    return {false, false, "Rodinia (LUD)", n_ ? std::to_string(n_) + " x " + std::to_string(n_) + " floats" : "", ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t n = by_scale(scale, 32u, 128u, 256u);
    Rng rng(mix_seed(seed, "lud"));
    std::vector<float> a = uniform_floats(rng, uint64_t{n} * n, -1.0f, 1.0f);
    for (uint64_t i = 0; i < n; ++i) a[i * n + i] = static_cast<float>(n);  // diagonally dominant
    n_ = n, a0_ = share(a);
    const Addr a_base = layout_.array(mem, "a", a);
    const auto at = [a_base, n](uint64_t r, uint64_t c) { return a_base + 4 * (r * n + c); };

    KernelCode k1(kFirstKernelPc);
    const StaticOp tid1 = k1.alu(kLatIntMad), guard1 = k1.alu(kLatInt), ld_l = k1.load(4), ld_d = k1.load(4);
    const StaticOp div = k1.alu(20), st_l = k1.store(4), exit1 = k1.exit();
    KernelCode k2 = k1.next_kernel();
    const StaticOp tid2 = k2.alu(kLatIntMad), guard2 = k2.alu(kLatInt), ld_m = k2.load(4), ld_u = k2.load(4);
    const StaticOp ld_a = k2.load(4), fma = k2.alu(kLatFma), st_a = k2.store(4), exit2 = k2.exit();
    for (uint32_t t = 0; t + 1 < n; ++t) {
      const uint32_t rest = n - 1 - t;  // rows (and columns) below (right of) the pivot
      std::vector<float> l_col(n, 0.0f);  // column t of L
      for (uint64_t i = t + 1; i < n; ++i) l_col[i] = a[i * n + t] /= a[uint64_t{t} * n + t];
      auto col_now = share(l_col);
      add_kernel("lud_column", rest, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(rest);
        const auto row = [&](uint32_t l) { return w.global_id(l) + t + 1; };
        s.alu(tid1, w.mask_below(UINT64_MAX));
        s.alu(guard1, w.mask_below(UINT64_MAX));
        s.load(ld_l, m, [&](uint32_t l) { return at(row(l), t); });
        s.load(ld_d, m, [&](uint32_t) { return at(t, t); });
        s.alu(div, m);
        s.store(st_l, m, [&](uint32_t l) { return LaneWrite{at(row(l), t), bits((*col_now)[row(l)])}; });
        s.exit(exit1);
      }, kTile);
      // A CTA per 16-row tile of the column (since branch workloads11; one CTA of 256 before), as
      // Rodinia's lud_perimeter<<<k, 32>>> has one per trailing tile (its lud_diagonal<<<1, 16>>>
      // does the pivot block's own rows).
      const uint32_t col_tiles = (rest + kTile - 1) / kTile;
      published(std::min(col_tiles, kRodiniaTiles),
                "Rodinia 3.1 lud_cuda -s 256: lud_perimeter grid k, k = (256 - i) / 16 - 1 trailing tiles at block "
                "step i; here k = " + std::to_string(std::min(col_tiles, kRodiniaTiles)));
      for (uint64_t i = t + 1; i < n; ++i) {
        for (uint64_t j = t + 1; j < n; ++j) {
          a[i * n + j] = std::fma(-a[i * n + t], a[uint64_t{t} * n + j], a[i * n + j]);
        }
      }
      auto a_now = share(a);
      const uint32_t tiles = (rest + kTile - 1) / kTile;
      add_kernel(
          "lud_internal", uint64_t{tiles} * tiles * kTile * kTile,
          [=](WarpStream& s, const WarpCoords& w) {
            const auto col = [&](uint32_t l) { return uint64_t{w.cta % tiles} * kTile + w.thread_in_cta(l) % kTile; };
            const auto row = [&](uint32_t l) { return uint64_t{w.cta / tiles} * kTile + w.thread_in_cta(l) / kTile; };
            const uint32_t all = w.mask_below(UINT64_MAX),
                           m = lanes_where(all, [&](uint32_t l) { return row(l) < rest && col(l) < rest; });
            const auto e = [&](uint32_t l) { return (row(l) + t + 1) * n + col(l) + t + 1; };
            s.alu(tid2, all);
            s.alu(guard2, all);
            s.load(ld_m, m, [&](uint32_t l) { return at(row(l) + t + 1, t); });
            s.load(ld_u, m, [&](uint32_t l) { return at(t, col(l) + t + 1); });
            s.load(ld_a, m, [&](uint32_t l) { return a_base + 4 * e(l); });
            s.alu(fma, m);
            s.store(st_a, m, [&](uint32_t l) { return LaneWrite{a_base + 4 * e(l), bits((*a_now)[e(l)])}; });
            s.exit(exit2);
          },
          kTile * kTile);
      // Rodinia's lud_internal at the block step with as many trailing tiles (k <= 15 at -s 256).
      const uint32_t k = std::min(tiles, kRodiniaTiles);
      published(k * k, "Rodinia 3.1 lud_cuda -s 256: lud_internal grid k x k, k = (256 - i) / 16 - 1 trailing "
                       "tiles at block step i; here k = " + std::to_string(k));
    }
  }

 protected:
  // Doolittle LU in double (row by row: U's row i, then L's column below it); L and U in one array.
  void check(ResultCheck& c) const override {
    const uint64_t n = n_;
    std::vector<double> a(a0_->begin(), a0_->end());
    for (uint64_t i = 0; i < n; ++i) {
      for (uint64_t j = i; j < n; ++j) {  // U[i][j]
        double s = a[i * n + j];
        for (uint64_t k = 0; k < i; ++k) s -= a[i * n + k] * a[k * n + j];
        a[i * n + j] = s;
      }
      for (uint64_t r = i + 1; r < n; ++r) {  // L[r][i]
        double s = a[r * n + i];
        for (uint64_t k = 0; k < i; ++k) s -= a[r * n + k] * a[k * n + i];
        a[r * n + i] = s / a[i * n + i];
      }
    }
    c.close("a", a);
  }

 private:
  uint32_t n_ = 0;
  Shared<float> a0_;
};

}  // namespace

std::unique_ptr<Workload> make_lud() { return std::make_unique<Lud>(); }

}  // namespace l1d::sim::wl
