// bicg (PolyBench/GPU BICG, the BiCGStab sub-kernel): s = A^T r and q = A p, A is NX x NY
// floats, row-major, as its two kernels:
//   bicg_kernel1, thread j < NY:  s[j] = 0; for i < K: s[j] += r[i] * A[i*NY + j]   (column walk)
//   bicg_kernel2, thread i < NX:  q[i] = 0; for j < K: q[i] += A[i*NY + j] * p[j]   (row walk)
// with K = NX = NY at full / paper (PolyBench's loops). Kernel 2's lanes are NY*4 = 16 KB apart
// (32 requests per load) and reuse their lines over the next iterations: the cache-sensitive
// half. As in the CUDA code, s[j] / q[i] are loaded and stored every iteration.
// Grid (issue 21): PolyBench/GPU launches ceil(N / DIM_THREAD_BLOCK_X) CTAs of 256 threads per
// kernel, at its published NX = NY = 4096: 16 CTAs = 128 warps per kernel, on 15 of gtx480's SMs
// but a mean of at most 128 / 30 = 4.3 resident warps per scheduler at any scale (the published
// grid cannot fill the GPU: WorkloadInfo::published_ctas). Every scale launches that grid
// (NX = NY = 4096); test and small are shortened by the per-thread loops instead (issue 21's
// "shorter per-thread loops"): each thread walks only the first K of its column's rows (kernel 1)
// or of its row's columns (kernel 2), K = 2 at test and 64 at small (99 K warp instructions at
// small, where the full loops are 3 M per kernel). The row stride stays NY, so kernel 2's loads
// still touch 32 lines each and reuse them. Only what the loops touch is written to memory (the
// first K rows and the first K columns of every row: TruncatedMatrix; the rest of A's 64 MB is
// reserved, never initialised), with the values of the whole matrix's sequential fill, and the
// result check runs the same truncated loops.
#include <cmath>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

class Bicg final : public GeneratedWorkload {
 public:
  std::string name() const override { return "bicg"; }
  std::string description() const override {
    return "PolyBench BICG s = A^T r, q = A p: column-walk and row-walk kernels";
  }
  WorkloadInfo info() const override {
    return polybench_matrix_info(a_.get(), kPublishedCtas,
                                 "PolyBench/GPU bicg.cu: ceil(N / DIM_THREAD_BLOCK_X) = 4096 / 256 = 16 "
                                 "CTAs per kernel at NX = NY = 4096");
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t nx = 4096, ny = 4096;  // PolyBench's NX, NY at every scale (the grid; header)
    const uint32_t kk = by_scale(scale, 2u, 64u, nx);  // the loops' length (K, header)
    Rng rng(mix_seed(seed, "bicg"));
    auto a = std::make_shared<const TruncatedMatrix>(rng, nx, ny, kk);
    auto r = share(uniform_floats(rng, nx));
    auto p = share(uniform_floats(rng, ny));
    a_ = a, r_ = r, p_ = p;
    const Addr a_base = a->place(mem, layout_, "A");
    const Addr r_base = layout_.array(mem, "r", *r), p_base = layout_.array(mem, "p", *p);
    const Addr s_base = layout_.array(mem, "s", std::vector<float>(ny, 0.0f));
    const Addr q_base = layout_.array(mem, "q", std::vector<float>(nx, 0.0f));

    // Both kernels: out[t] = 0; for k < len: out[t] += A[elem(t, k)] * vec[k].
    const auto add = [&](KernelCode& k, const char* kname, uint32_t threads, uint32_t len, bool column, Addr out,
                         Addr vec_base, Shared<float> vec) {
      const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), st_zero = k.store(4);
      const StaticOp ld_v = k.load(4), ld_a = k.load(4), ld_o = k.load(4), fma = k.alu(kLatFma), st_o = k.store(4);
      const StaticOp loop = k.alu(kLatInt), exit = k.exit();
      add_kernel(kname, threads, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(threads);
        const auto elem = [&](uint64_t t, uint64_t j) { return column ? j * ny + t : t * ny + j; };
        const auto value = [&](uint64_t t, uint64_t j) { return column ? a->at(j, t) : a->at(t, j); };
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(guard, w.mask_below(UINT64_MAX));
        s.store(st_zero, m, [&](uint32_t l) { return LaneWrite{out + 4 * w.global_id(l), bits(0.0f)}; });
        std::array<float, kWarpSize> acc{};
        for (uint32_t j = 0; j < len; ++j) {
          s.load(ld_v, m, [&](uint32_t) { return vec_base + 4 * uint64_t{j}; });
          s.load(ld_a, m, [&](uint32_t l) { return a_base + 4 * elem(w.global_id(l), j); });
          s.load(ld_o, m, [&](uint32_t l) { return out + 4 * w.global_id(l); });
          s.alu(fma, m);
          for_lanes(m, [&](uint32_t l) { acc[l] = std::fma(value(w.global_id(l), j), (*vec)[j], acc[l]); });
          s.store(st_o, m, [&](uint32_t l) { return LaneWrite{out + 4 * w.global_id(l), bits(acc[l])}; });
          s.alu(loop, m);
        }
        s.exit(exit);
      });
    };
    KernelCode code1(kFirstKernelPc);
    add(code1, "bicg_kernel1", ny, kk, true, s_base, r_base, r);
    KernelCode code2 = code1.next_kernel();
    add(code2, "bicg_kernel2", nx, kk, false, q_base, p_base, p);
  }

 protected:
  void check(ResultCheck& c) const override {
    const TruncatedMatrix& a = *a_;
    const uint64_t nx = a.nx(), ny = a.ny(), kk = a.k();
    std::vector<double> s(ny, 0.0), q(nx, 0.0);
    for (uint64_t j = 0; j < ny; ++j) {
      for (uint64_t i = 0; i < kk; ++i) s[j] += static_cast<double>((*r_)[i]) * a.at(i, j);
    }
    for (uint64_t i = 0; i < nx; ++i) {
      for (uint64_t j = 0; j < kk; ++j) q[i] += static_cast<double>(a.at(i, j)) * (*p_)[j];
    }
    c.close("s", s);
    c.close("q", q);
  }

 private:
  static constexpr uint32_t kPublishedCtas = 16;
  std::shared_ptr<const TruncatedMatrix> a_;
  Shared<float> r_, p_;
};

}  // namespace

std::unique_ptr<Workload> make_bicg() { return std::make_unique<Bicg>(); }

}  // namespace l1d::sim::wl
