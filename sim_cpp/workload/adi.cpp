// adi (ADI, PolyBench/GPU ADI as in the two-level bypassing paper): alternating direction implicit
// sweeps over N x N floats A (off-diagonals), B (diagonal, reduced in place by the elimination)
// and X (right-hand side, replaced by the solution); T time steps of PolyBench/GPU's six kernels:
//   row sweep, thread r < N owns row r (lanes N*4 bytes apart: 32 requests per load; the lines a
//   warp touches are reused by the next iterations of its walk):
//     adi_kernel1: for k = 1..N-1:  X[r][k] -= X[r][k-1] * A[r][k] / B[r][k-1]
//                                   B[r][k] -= A[r][k] * A[r][k] / B[r][k-1]
//     adi_kernel2: X[r][N-1] /= B[r][N-1]
//     adi_kernel3: for k = N-2..0:  X[r][k] = (X[r][k] - A[r][k+1] * X[r][k+1]) / B[r][k]
//   column sweep, thread c < N owns column c (coalesced), one launch per row index i:
//     adi_kernel4, i = 1..N-1:      the elimination step of kernel 1 between rows i-1 and i
//     adi_kernel5:                  X[N-1][c] /= B[N-1][c]
//     adi_kernel6, i = N-2..0:      X[i][c] = (X[i][c] - A[i+1][c] * X[i+1][c]) / B[i][c]
// The back substitutions solve the tridiagonal systems the eliminations factor (PolyBench's use
// shifted indices, X[k] from X[k-1], A[k-1], B[k-1]: the same walk over the same lines). As in
// the CUDA code (no __restrict__), operands are reloaded after a store. B starts diagonally
// dominant (B in [2, 3), A in [0, 0.25)), so every sweep is a contraction. Regular.
// Issue 21 (fill the GPU, shorten by loops): test and small keep PolyBench/GPU's STANDARD N = 1024,
// so every kernel launches its grid, ceil(1024 / 256) = 4 CTAs (N = 128 launched 1), and are
// shortened by the walk: each sweep solves the first `walk` elements of every line (the row sweep
// the first `walk` columns of every row, the column sweep the first `walk` rows: 2 walk + 2
// launches a step), 32 at small (one 128 B line of each row, reused by the next 31 iterations;
// 64, two lines, until branch workloads13) and 2 at test (one elimination step a line: each
// row-walk load is 32 requests); full and paper walk all N. Only the touched part of
// A, B and X (the first `walk` columns of every row and the first `walk` rows) is written to
// memory, with the values of the whole arrays' sequential fill (Rng::unit_at), as TruncatedMatrix
// does for atax; the result check compares that part.
#include <cmath>
#include <string>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

// PolyBench/GPU's grid: ceil(N / 256) CTAs of 256 for all six kernels, 4 at its N = 1024 (adi.cuh's
// STANDARD_DATASET), which every scale launches.
constexpr uint32_t kPublishedCtas = (1024 + 255) / 256;

// The elements of an n x n row-major array that sweeps of `walk` touch: the first `walk` columns of
// every row (held as an n x walk array) and the first `walk` rows (walk x n; its first `walk`
// columns unused). When walk = n, the n x walk part is the whole array, element (i, j) at i n + j.
template <typename T>
struct Touched {
  uint64_t n = 0, walk = 0;
  std::vector<T> cols, rows;
  Touched(uint64_t n_, uint64_t walk_) : n(n_), walk(walk_), cols(n * walk), rows(walk < n ? walk * n : 0) {}
  template <typename U>
  explicit Touched(const Touched<U>& o) : n(o.n), walk(o.walk), cols(o.cols.begin(), o.cols.end()), rows(o.rows.begin(), o.rows.end()) {}
  T& operator()(uint64_t i, uint64_t j) { return j < walk ? cols[i * walk + j] : rows[i * n + j]; }
  const T& operator()(uint64_t i, uint64_t j) const { return j < walk ? cols[i * walk + j] : rows[i * n + j]; }
  // The touched elements of row i: all n when i < walk, else the first walk.
  uint64_t row_length(uint64_t i) const { return i < walk ? n : walk; }
};

// The touched elements of uniform_floats(rng, n * n, lo, hi), computed without the n * n draws;
// rng advances past them.
Touched<float> touched_floats(Rng& rng, uint64_t n, uint64_t walk, float lo, float hi) {
  Touched<float> v(n, walk);
  for (uint64_t i = 0; i < n; ++i) {
    for (uint64_t j = 0; j < v.row_length(i); ++j) v(i, j) = lo + (hi - lo) * static_cast<float>(rng.unit_at(i * n + j));
  }
  rng.discard(n * n);
  return v;
}

// What a kernel stores: a row sweep's values at (r, k < walk) as an n x walk array, a column
// sweep's at (i < walk, c) as the first walk rows (both the whole array when walk = n).
std::vector<float> row_part(const Touched<float>& v) { return v.cols; }
std::vector<float> column_part(const Touched<float>& v) {
  std::vector<float> out(v.walk * v.n);
  for (uint64_t i = 0; i < v.walk; ++i)
    for (uint64_t c = 0; c < v.n; ++c) out[i * v.n + c] = v(i, c);
  return out;
}

class Adi final : public GeneratedWorkload {
 public:
  std::string name() const override { return "adi"; }
  std::string description() const override { return "PolyBench ADI: row sweeps (a row per thread), column sweeps"; }
  WorkloadInfo info() const override {
    return {false, false, "PolyBench/GPU (two-level paper ADI)",
            n_ ? std::to_string(n_) + " x " + std::to_string(n_) + " floats, " + std::to_string(steps_) + " steps" +
                     (walk_ < n_ ? ", sweeps over the first " + std::to_string(walk_) : std::string())
               : "",
            "", kPublishedCtas,
            "PolyBench/GPU adi.cu (STANDARD_DATASET N = 1024): every kernel's grid1.x = ceil(N / DIM_THREAD_BLOCK_X "
            "256) = 4 CTAs"};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t n = 1024, walk = by_scale(scale, 2u, 32u, n), steps = by_scale(scale, 1u, 1u, 2u);
    Rng rng(mix_seed(seed, "adi"));
    Touched<float> a = touched_floats(rng, n, walk, 0.0f, 0.25f), b = touched_floats(rng, n, walk, 2.0f, 3.0f);
    Touched<float> x = touched_floats(rng, n, walk, 0.0f, 1.0f);
    n_ = n, walk_ = walk, steps_ = steps;
    a0_ = std::make_shared<const Touched<float>>(a), b0_ = std::make_shared<const Touched<float>>(b);
    x0_ = std::make_shared<const Touched<float>>(x);
    // The whole arrays (walk = n), or only their touched part written into reserved regions.
    const auto place = [&](const std::string& name, const Touched<float>& v) {
      std::vector<float> row(n);
      if (walk == n) return layout_.array(mem, name, v.cols);
      const Addr base = layout_.reserve(name, uint64_t{n} * n * 4, 4);
      for (uint64_t i = 0; i < n; ++i) {
        for (uint64_t j = 0; j < v.row_length(i); ++j) row[j] = v(i, j);
        layout_.write(mem, name, base + i * n * 4, row.data(), v.row_length(i) * 4);
      }
      return base;
    };
    const Addr a_base = place("A", a), b_base = place("B", b), x_base = place("X", x);
    const auto at = [n](Addr base, uint64_t r, uint64_t c) { return base + 4 * (r * n + c); };

    // Kernels 1 and 4 (elimination), 2 and 5 (last element), 3 and 6 (back substitution).
    KernelCode k1(kFirstKernelPc);
    const StaticOp tid1 = k1.alu(kLatIntMad), guard1 = k1.alu(kLatInt), addr1 = k1.alu(kLatIntMad);
    const StaticOp e_ldx = k1.load(4), e_ldxp = k1.load(4), e_lda = k1.load(4), e_ldbp = k1.load(4);
    const StaticOp e_mul = k1.alu(kLatFp), e_div = k1.alu(20), e_sub = k1.alu(kLatFp), e_stx = k1.store(4);
    const StaticOp e_lda2 = k1.load(4), e_ldb = k1.load(4), e_ldbp2 = k1.load(4), e_mul2 = k1.alu(kLatFp);
    const StaticOp e_div2 = k1.alu(20), e_sub2 = k1.alu(kLatFp), e_stb = k1.store(4), loop1 = k1.alu(kLatInt);
    const StaticOp exit1 = k1.exit();
    KernelCode k2 = k1.next_kernel();
    const StaticOp tid2 = k2.alu(kLatIntMad), guard2 = k2.alu(kLatInt), l_ldx = k2.load(4), l_ldb = k2.load(4);
    const StaticOp l_div = k2.alu(20), l_stx = k2.store(4), exit2 = k2.exit();
    KernelCode k3 = k2.next_kernel();
    const StaticOp tid3 = k3.alu(kLatIntMad), guard3 = k3.alu(kLatInt), addr3 = k3.alu(kLatIntMad);
    const StaticOp s_ldx = k3.load(4), s_lda = k3.load(4), s_ldxn = k3.load(4), s_ldb = k3.load(4);
    const StaticOp s_fma = k3.alu(kLatFma), s_div = k3.alu(20), s_stx = k3.store(4), loop3 = k3.alu(kLatInt);
    const StaticOp exit3 = k3.exit();
    KernelCode k4 = k3.next_kernel();
    const StaticOp tid4 = k4.alu(kLatIntMad), guard4 = k4.alu(kLatInt);
    const StaticOp c_ldx = k4.load(4), c_ldxp = k4.load(4), c_lda = k4.load(4), c_ldbp = k4.load(4);
    const StaticOp c_mul = k4.alu(kLatFp), c_div = k4.alu(20), c_sub = k4.alu(kLatFp), c_stx = k4.store(4);
    const StaticOp c_lda2 = k4.load(4), c_ldb = k4.load(4), c_ldbp2 = k4.load(4), c_mul2 = k4.alu(kLatFp);
    const StaticOp c_div2 = k4.alu(20), c_sub2 = k4.alu(kLatFp), c_stb = k4.store(4), exit4 = k4.exit();
    KernelCode k5 = k4.next_kernel();
    const StaticOp tid5 = k5.alu(kLatIntMad), guard5 = k5.alu(kLatInt), m_ldx = k5.load(4), m_ldb = k5.load(4);
    const StaticOp m_div = k5.alu(20), m_stx = k5.store(4), exit5 = k5.exit();
    KernelCode k6 = k5.next_kernel();
    const StaticOp tid6 = k6.alu(kLatIntMad), guard6 = k6.alu(kLatInt);
    const StaticOp u_ldx = k6.load(4), u_lda = k6.load(4), u_ldxn = k6.load(4), u_ldb = k6.load(4);
    const StaticOp u_fma = k6.alu(kLatFma), u_div = k6.alu(20), u_stx = k6.store(4), exit6 = k6.exit();

    // The host runs each sweep in float; a kernel stores the values its sweep leaves (every
    // element is written once per sweep).
    for (uint32_t t = 0; t < steps; ++t) {
      for (uint64_t r = 0; r < n; ++r) {  // row elimination
        for (uint64_t k = 1; k < walk; ++k) {
          x(r, k) -= x(r, k - 1) * a(r, k) / b(r, k - 1);
          b(r, k) -= a(r, k) * a(r, k) / b(r, k - 1);
        }
      }
      auto x1 = share(row_part(x)), b1 = share(row_part(b));  // (r, k) at r * walk + k
      for (uint64_t r = 0; r < n; ++r) {  // row back substitution
        x(r, walk - 1) /= b(r, walk - 1);
        for (uint64_t k = walk - 1; k-- > 0;) x(r, k) = (x(r, k) - a(r, k + 1) * x(r, k + 1)) / b(r, k);
      }
      auto x2 = share(row_part(x));
      add_kernel("adi_kernel1", n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(n);
        const auto r = [&](uint32_t l) { return w.global_id(l); };
        s.alu(tid1, w.mask_below(UINT64_MAX));
        s.alu(guard1, w.mask_below(UINT64_MAX));
        s.alu(addr1, m);
        for (uint64_t k = 1; k < walk; ++k) {
          s.load(e_ldx, m, [&](uint32_t l) { return at(x_base, r(l), k); });
          s.load(e_ldxp, m, [&](uint32_t l) { return at(x_base, r(l), k - 1); });
          s.load(e_lda, m, [&](uint32_t l) { return at(a_base, r(l), k); });
          s.load(e_ldbp, m, [&](uint32_t l) { return at(b_base, r(l), k - 1); });
          s.alu(e_mul, m);
          s.alu(e_div, m);
          s.alu(e_sub, m);
          s.store(e_stx, m, [&](uint32_t l) { return LaneWrite{at(x_base, r(l), k), bits((*x1)[r(l) * walk + k])}; });
          s.load(e_lda2, m, [&](uint32_t l) { return at(a_base, r(l), k); });
          s.load(e_ldb, m, [&](uint32_t l) { return at(b_base, r(l), k); });
          s.load(e_ldbp2, m, [&](uint32_t l) { return at(b_base, r(l), k - 1); });
          s.alu(e_mul2, m);
          s.alu(e_div2, m);
          s.alu(e_sub2, m);
          s.store(e_stb, m, [&](uint32_t l) { return LaneWrite{at(b_base, r(l), k), bits((*b1)[r(l) * walk + k])}; });
          s.alu(loop1, m);
        }
        s.exit(exit1);
      });
      add_kernel("adi_kernel2", n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(n);
        const auto e = [&](uint32_t l) { return w.global_id(l) * n + walk - 1; };
        s.alu(tid2, w.mask_below(UINT64_MAX));
        s.alu(guard2, w.mask_below(UINT64_MAX));
        s.load(l_ldx, m, [&](uint32_t l) { return x_base + 4 * e(l); });
        s.load(l_ldb, m, [&](uint32_t l) { return b_base + 4 * e(l); });
        s.alu(l_div, m);
        s.store(l_stx, m, [&](uint32_t l) {
          return LaneWrite{x_base + 4 * e(l), bits((*x2)[w.global_id(l) * walk + walk - 1])};
        });
        s.exit(exit2);
      });
      add_kernel("adi_kernel3", n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(n);
        const auto r = [&](uint32_t l) { return w.global_id(l); };
        s.alu(tid3, w.mask_below(UINT64_MAX));
        s.alu(guard3, w.mask_below(UINT64_MAX));
        s.alu(addr3, m);
        for (uint64_t k = walk - 1; k-- > 0;) {
          s.load(s_ldx, m, [&](uint32_t l) { return at(x_base, r(l), k); });
          s.load(s_lda, m, [&](uint32_t l) { return at(a_base, r(l), k + 1); });
          s.load(s_ldxn, m, [&](uint32_t l) { return at(x_base, r(l), k + 1); });
          s.load(s_ldb, m, [&](uint32_t l) { return at(b_base, r(l), k); });
          s.alu(s_fma, m);
          s.alu(s_div, m);
          s.store(s_stx, m, [&](uint32_t l) { return LaneWrite{at(x_base, r(l), k), bits((*x2)[r(l) * walk + k])}; });
          s.alu(loop3, m);
        }
        s.exit(exit3);
      });

      for (uint64_t i = 1; i < walk; ++i) {  // column elimination
        for (uint64_t c = 0; c < n; ++c) {
          x(i, c) -= x(i - 1, c) * a(i, c) / b(i - 1, c);
          b(i, c) -= a(i, c) * a(i, c) / b(i - 1, c);
        }
      }
      auto x3 = share(column_part(x)), b3 = share(column_part(b));  // (i, c) at i * n + c
      for (uint64_t c = 0; c < n; ++c) x(walk - 1, c) /= b(walk - 1, c);
      for (uint64_t i = walk - 1; i-- > 0;) {  // column back substitution
        for (uint64_t c = 0; c < n; ++c) x(i, c) = (x(i, c) - a(i + 1, c) * x(i + 1, c)) / b(i, c);
      }
      auto x4 = share(column_part(x));
      for (uint64_t i = 1; i < walk; ++i) {
        add_kernel("adi_kernel4", n, [=](WarpStream& s, const WarpCoords& w) {
          const uint32_t m = w.mask_below(n);
          const auto c = [&](uint32_t l) { return w.global_id(l); };
          s.alu(tid4, w.mask_below(UINT64_MAX));
          s.alu(guard4, w.mask_below(UINT64_MAX));
          s.load(c_ldx, m, [&](uint32_t l) { return at(x_base, i, c(l)); });
          s.load(c_ldxp, m, [&](uint32_t l) { return at(x_base, i - 1, c(l)); });
          s.load(c_lda, m, [&](uint32_t l) { return at(a_base, i, c(l)); });
          s.load(c_ldbp, m, [&](uint32_t l) { return at(b_base, i - 1, c(l)); });
          s.alu(c_mul, m);
          s.alu(c_div, m);
          s.alu(c_sub, m);
          s.store(c_stx, m, [&](uint32_t l) { return LaneWrite{at(x_base, i, c(l)), bits((*x3)[i * n + c(l)])}; });
          s.load(c_lda2, m, [&](uint32_t l) { return at(a_base, i, c(l)); });
          s.load(c_ldb, m, [&](uint32_t l) { return at(b_base, i, c(l)); });
          s.load(c_ldbp2, m, [&](uint32_t l) { return at(b_base, i - 1, c(l)); });
          s.alu(c_mul2, m);
          s.alu(c_div2, m);
          s.alu(c_sub2, m);
          s.store(c_stb, m, [&](uint32_t l) { return LaneWrite{at(b_base, i, c(l)), bits((*b3)[i * n + c(l)])}; });
          s.exit(exit4);
        });
      }
      add_kernel("adi_kernel5", n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(n);
        const auto e = [&](uint32_t l) { return uint64_t{walk - 1} * n + w.global_id(l); };
        s.alu(tid5, w.mask_below(UINT64_MAX));
        s.alu(guard5, w.mask_below(UINT64_MAX));
        s.load(m_ldx, m, [&](uint32_t l) { return x_base + 4 * e(l); });
        s.load(m_ldb, m, [&](uint32_t l) { return b_base + 4 * e(l); });
        s.alu(m_div, m);
        s.store(m_stx, m, [&](uint32_t l) { return LaneWrite{x_base + 4 * e(l), bits((*x4)[e(l)])}; });
        s.exit(exit5);
      });
      for (uint64_t i = walk - 1; i-- > 0;) {
        add_kernel("adi_kernel6", n, [=](WarpStream& s, const WarpCoords& w) {
          const uint32_t m = w.mask_below(n);
          const auto c = [&](uint32_t l) { return w.global_id(l); };
          s.alu(tid6, w.mask_below(UINT64_MAX));
          s.alu(guard6, w.mask_below(UINT64_MAX));
          s.load(u_ldx, m, [&](uint32_t l) { return at(x_base, i, c(l)); });
          s.load(u_lda, m, [&](uint32_t l) { return at(a_base, i + 1, c(l)); });
          s.load(u_ldxn, m, [&](uint32_t l) { return at(x_base, i + 1, c(l)); });
          s.load(u_ldb, m, [&](uint32_t l) { return at(b_base, i, c(l)); });
          s.alu(u_fma, m);
          s.alu(u_div, m);
          s.store(u_stx, m, [&](uint32_t l) { return LaneWrite{at(x_base, i, c(l)), bits((*x4)[i * n + c(l)])}; });
          s.exit(exit6);
        });
      }
    }
  }

 protected:
  // The same sweeps in double, over the first `walk` elements of each line. A line is a row
  // (element (line, k) at line*N + k) or a column (at k*N + line); X and B after the last step,
  // where the sweeps touched them (the rest is not initialised in memory).
  void check(ResultCheck& c) const override {
    const uint64_t n = n_, walk = walk_;
    const Touched<double> a(*a0_);
    Touched<double> b(*b0_), x(*x0_);
    const auto sweep = [&](bool rows) {
      for (uint64_t line = 0; line < n; ++line) {
        const auto e = [&](Touched<double>& v, uint64_t k) -> double& { return rows ? v(line, k) : v(k, line); };
        const auto ea = [&](uint64_t k) { return rows ? a(line, k) : a(k, line); };
        for (uint64_t k = 1; k < walk; ++k) {
          e(x, k) -= e(x, k - 1) * ea(k) / e(b, k - 1);
          e(b, k) -= ea(k) * ea(k) / e(b, k - 1);
        }
        e(x, walk - 1) /= e(b, walk - 1);
        for (uint64_t k = walk - 1; k-- > 0;) e(x, k) = (e(x, k) - ea(k + 1) * e(x, k + 1)) / e(b, k);
      }
    };
    for (uint32_t t = 0; t < steps_; ++t) {
      sweep(true);
      sweep(false);
    }
    // The touched elements of X and B, as c.close compares (X: 1e-4 relative, 1e-6 absolute).
    const auto close = [&](const char* region, const Touched<double>& want, double rel, double abs) {
      const std::vector<float> got = c.read<float>(region);
      if (got.size() != n * n) return c.fail(std::string(region) + ": " + std::to_string(got.size()) + " elements");
      const auto good = [&](size_t e) {
        return e % n >= walk && e / n >= walk ? true
                                              : std::fabs(got[e] - want(e / n, e % n)) <= abs + rel * std::fabs(want(e / n, e % n));
      };
      c.each(region, got.size(), good,
             [&](size_t e) { return std::to_string(got[e]) + ", expected " + std::to_string(want(e / n, e % n)); });
    };
    close("X", x, 1e-4, 1e-6);
    close("B", b, 1e-4, 1e-5);
  }

 private:
  uint32_t n_ = 0, walk_ = 0, steps_ = 0;
  std::shared_ptr<const Touched<float>> a0_, b0_, x0_;
};

}  // namespace

std::unique_ptr<Workload> make_adi() { return std::make_unique<Adi>(); }

}  // namespace l1d::sim::wl
