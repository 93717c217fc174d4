// bicg (PolyBench/GPU BICG, the BiCGStab sub-kernel): s = A^T r and q = A p, A is NX x NY
// floats, row-major, as its two kernels:
//   bicg_kernel1, thread j < NY:  s[j] = 0; for i < NX: s[j] += r[i] * A[i*NY + j]   (column walk)
//   bicg_kernel2, thread i < NX:  q[i] = 0; for j < NY: q[i] += A[i*NY + j] * p[j]   (row walk)
// Kernel 2's lanes are NY*4 bytes apart (32 requests per load) and reuse their lines over the
// next iterations: the cache-sensitive half. As in the CUDA code, s[j] / q[i] are loaded and
// stored every iteration.
// Grid (issue 21): PolyBench/GPU launches ceil(N / DIM_THREAD_BLOCK_X) CTAs of 256 threads per
// kernel, at its published NX = NY = 4096: 16 CTAs = 128 warps, a mean of at most 4.3 resident
// warps per scheduler on gtx480 (15 SMs x 2 schedulers) at any scale. Both kernels keep their
// grid only if both dimensions keep theirs (one walks rows, the other columns): a shorter walk in
// one kernel is a smaller grid in the other (4096 x 48: kernel 2 one CTA walking 4096 rows), and
// 4096 x 4096 is about 3 M warp instructions per kernel, 3x the small ceiling. Decision: small
// stays 512 x 512 (2 CTAs per kernel, 4 SMs); full runs the published 4096 x 4096 (16 CTAs).
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
    return {false, true, "PolyBench/GPU", a_ ? std::to_string(nx_) + " x " + std::to_string(ny_) + " floats" : "", ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t nx = by_scale(scale, 256u, 512u, 4096u), ny = by_scale(scale, 64u, 512u, 4096u);
    Rng rng(mix_seed(seed, "bicg"));
    auto a = share(uniform_floats(rng, uint64_t{nx} * ny));
    auto r = share(uniform_floats(rng, nx));
    auto p = share(uniform_floats(rng, ny));
    nx_ = nx, ny_ = ny, a_ = a, r_ = r, p_ = p;
    const Addr a_base = layout_.array(mem, "A", *a);
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
        const auto elem = [&](uint64_t t, uint64_t kk) { return column ? kk * ny + t : t * ny + kk; };
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(guard, w.mask_below(UINT64_MAX));
        s.store(st_zero, m, [&](uint32_t l) { return LaneWrite{out + 4 * w.global_id(l), bits(0.0f)}; });
        std::array<float, kWarpSize> acc{};
        for (uint32_t kk = 0; kk < len; ++kk) {
          s.load(ld_v, m, [&](uint32_t) { return vec_base + 4 * uint64_t{kk}; });
          s.load(ld_a, m, [&](uint32_t l) { return a_base + 4 * elem(w.global_id(l), kk); });
          s.load(ld_o, m, [&](uint32_t l) { return out + 4 * w.global_id(l); });
          s.alu(fma, m);
          for_lanes(m, [&](uint32_t l) { acc[l] = std::fma((*a)[elem(w.global_id(l), kk)], (*vec)[kk], acc[l]); });
          s.store(st_o, m, [&](uint32_t l) { return LaneWrite{out + 4 * w.global_id(l), bits(acc[l])}; });
          s.alu(loop, m);
        }
        s.exit(exit);
      });
    };
    KernelCode code1(kFirstKernelPc);
    add(code1, "bicg_kernel1", ny, nx, true, s_base, r_base, r);
    KernelCode code2 = code1.next_kernel();
    add(code2, "bicg_kernel2", nx, ny, false, q_base, p_base, p);
  }

 protected:
  void check(ResultCheck& c) const override {
    std::vector<double> s(ny_, 0.0), q(nx_, 0.0);
    for (uint64_t i = 0; i < nx_; ++i) {
      for (uint64_t j = 0; j < ny_; ++j) {
        s[j] += static_cast<double>((*r_)[i]) * (*a_)[i * ny_ + j];
        q[i] += static_cast<double>((*a_)[i * ny_ + j]) * (*p_)[j];
      }
    }
    c.close("s", s);
    c.close("q", q);
  }

 private:
  uint32_t nx_ = 0, ny_ = 0;
  Shared<float> a_, r_, p_;
};

}  // namespace

std::unique_ptr<Workload> make_bicg() { return std::make_unique<Bicg>(); }

}  // namespace l1d::sim::wl
