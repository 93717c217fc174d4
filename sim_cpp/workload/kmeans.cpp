// kmeans (KMN, Rodinia kmeansPoint): one thread per point finds its nearest centroid.
//   p < npoints:  for c < K: ans = 0; for f < F: diff = features[p*F + f] - clusters[c*F + f];
//                                           ans += diff * diff
//                          if (ans < min) { min = ans; index = c; }
//                 membership[p] = index
// Features are point-major (features[p][f]): the lanes of a warp are F*4 bytes apart, so each
// feature load touches 32 lines that the next F-1 iterations reuse -- the cache-sensitive
// pattern. Centroids live in constant memory (Rodinia's c_clusters): they are operands of the
// subtract, not L1 loads. The host recomputes the centroids between iterations; each
// iteration's centroids are written at init to their own region ("clusters<k>", as if copied
// to the constant bank before that launch). One kernel per iteration.
// Grid: Rodinia launches npoints / 256 CTAs of 256 threads (kmeans_cuda.cu, num_threads =
// BLOCK_SIZE 256); its kdd_cup input (494020 points x 34 features, 5 clusters) gives 1930 CTAs.
// Test and small keep the GPU full (issue 21), shortened by the per-thread loop (clusters) and the
// iterations, never by fewer CTAs. Small: 34560 points = 135 CTAs of 8 warps, one and a half
// waves of the 90 (6 per SM) that gtx480's 15 SMs hold, with 2 clusters and one iteration (full: 5
// and 5). One wave of 90 CTAs (before 2026-11-28) drained warp by warp under GTO and left 14.1
// resident warps per scheduler; 135 CTAs refill the slots the first CTAs free: 17.0, at 310 K warp
// instructions (was 207 K). One cluster would halve that but drop the second pass over a warp's
// lines that throttling keeps as hits (6.87x instead of 7.80x) and leave every membership 0.
// Small keeps full's (kdd_cup's) 34 features, which decide the thrashing: a warp's feature
// loads touch 34 lines, so 2 warps per scheduler (4 per SM, 136 lines) already overflow the 16
// KB L1 (128 lines) and only 1 fits; with 24 features 2 fitted and throttling's best limit was 2.
// Throttling on gtx480-gpgpusim (docs/workloads.md "KMN throttling"): best limit 1 at 7.80x
// (paper scale 8.44x). Test: 2 features, 2 clusters and 2 iterations (the tests check the host
// update between launches): 720 warps x 31 instructions x 2 = 45 K warp instructions; 90 CTAs
// cannot go below 720 x 23 = 17 K per launch with 2 clusters. On a preset larger than gtx480
// small fills that preset instead (Workload::set_device; init() says how).
// `--generator unroll4` (same input) runs the feature loop as nvcc compiles a loop whose trip count
// is known only at run time: unrolled by 4 (four loads, then their subtracts and FMAs) with a
// remainder loop. A model value: the dissertation's binary is not available. It exists for
// core.load_wait on_use (docs/workloads.md "Load wait"): with one load per iteration every
// subtract waits for the load just issued, and the register scoreboard changes nothing.
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kUnroll = 4;  // --generator unroll4

class Kmeans final : public GeneratedWorkload {
 public:
  std::string name() const override { return "kmeans"; }
  std::string description() const override { return "Rodinia k-means assignment (KMN), point-major features"; }

  WorkloadInfo info() const override {
    return {false, true, "Rodinia (KMN)",
            feat_ ? std::to_string(np_) + " points x " + std::to_string(nf_) + " features" +
                        (kf_ < nf_ ? " (the first " + std::to_string(kf_) + " summed)" : std::string()) + ", " +
                        std::to_string(nc_) + " clusters, " + std::to_string(kernels()) + " iterations"
                  : "",
            ""};
  }

  std::vector<std::string> generators() const override { return {"unroll4"}; }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t unroll = generator_ == "unroll4" ? kUnroll : 1;
    struct Size {
      uint32_t points, features, clusters, iterations;
    };
    Size sz = scale == WorkloadScale::kTest    ? Size{23040, 2, 2, 2}
              : scale == WorkloadScale::kSmall ? Size{34560, 34, 2, 1}
                                               : Size{65536, 34, 5, 5};
    // Small on a larger device (issue 21: fill every SM of the preset): 1.5 waves of its fill, as
    // gtx480's 135 CTAs are of its 90 (qv100 960 CTAs, 245760 points; a100 1296, 331776), each
    // thread's distance loop shortened to the first `summed` of its 34 features, 34 / (the fill over
    // gtx480's), rounded, so that a run's feature loads stay near gtx480's (qv100 5, a100 4; 7 on
    // qv100 cost 1.8x today's qv100 run, 10.1 user-s); the points keep their 34
    // features in memory (stride 136 B: a feature load still touches 32 lines), as atax keeps its
    // 4096-float rows and walks the first K. gtx480 keeps 34560 points x 34 summed features.
    uint32_t summed = sz.features;
    if (scale == WorkloadScale::kSmall && fill_ctas(8) > 90) {
      sz.points = fill_ctas(8) * 3 / 2 * kCtaThreads;
      summed = std::max(2u, static_cast<uint32_t>(34 / fill_over_gtx480() + 0.5));
    }
    const uint32_t np = sz.points, nf = sz.features, nc = sz.clusters, kf = summed;
    Rng rng(mix_seed(seed, "kmeans"));
    // Points in nc Gaussian blobs around random centres in [0, 10)^F.
    std::vector<float> centre(uint64_t{nc} * nf);
    for (float& v : centre) v = rng.unitf() * 10.0f;
    auto feat = std::make_shared<std::vector<float>>(uint64_t{np} * nf);
    for (uint32_t p = 0; p < np; ++p) {
      const uint64_t c = rng.below(nc);
      for (uint32_t f = 0; f < nf; ++f) {
        (*feat)[uint64_t{p} * nf + f] = centre[c * nf + f] + rng.normal_float(1.5);  // float(normal() * 1.5)
      }
    }
    np_ = np, nf_ = nf, nc_ = nc, kf_ = kf, feat_ = feat;
    const Addr feat_base = layout_.array(mem, "features", *feat);
    const Addr memb_base = layout_.array(mem, "membership", std::vector<int32_t>(np, -1));

    // Initial centroids: nc distinct random points (Rodinia picks random points).
    std::vector<float> clusters(uint64_t{nc} * nf);
    std::vector<uint32_t> picked;
    while (picked.size() < nc) {
      const auto p = static_cast<uint32_t>(rng.below(np));
      if (std::find(picked.begin(), picked.end(), p) != picked.end()) continue;
      for (uint32_t f = 0; f < nf; ++f) clusters[picked.size() * nf + f] = (*feat)[uint64_t{p} * nf + f];
      picked.push_back(p);
    }

    // Scoreboard operands (core.load_wait on_use): only the subtracts read a loaded value; the
    // index arithmetic, the loop counters, the compare and the store read none.
    KernelCode k(kFirstKernelPc);
    const auto none = [](const StaticOp& op) { return op.reads({}); };
    const StaticOp tid = none(k.alu(kLatIntMad)), guard = none(k.alu(kLatInt)), init_min = none(k.alu(kLatInt));
    const StaticOp cl_init = none(k.alu(kLatInt)), addr = none(k.alu(kLatIntMad));
    const StaticOp ld_f = none(k.load(4)), sub = k.alu(kLatFp).reads({ld_f}), fma = none(k.alu(kLatFma));
    const StaticOp f_loop = none(k.alu(kLatInt));
    const StaticOp cmp = none(k.alu(kLatFp)), sel = none(k.alu(kLatInt)), c_loop = none(k.alu(kLatInt));
    const StaticOp st_m = none(k.store(4)), exit = k.exit();
    // The unrolled loop's instructions follow (their PCs after the exit's, so that the default
    // kernel keeps its PCs).
    std::array<StaticOp, kUnroll> ld_u, sub_u, fma_u;
    for (StaticOp& op : ld_u) op = none(k.load(4));
    for (uint32_t j = 0; j < kUnroll; ++j) sub_u[j] = k.alu(kLatFp).reads({ld_u[j]}), fma_u[j] = none(k.alu(kLatFma));
    const StaticOp u_loop = none(k.alu(kLatInt));

    for (uint32_t it = 0; it < sz.iterations; ++it) {
      layout_.array(mem, "clusters" + std::to_string(it), clusters);
      last_clusters_ = clusters;
      auto memb = std::make_shared<std::vector<int32_t>>(np);
      for (uint32_t p = 0; p < np; ++p) (*memb)[p] = nearest(*feat, clusters, p, nf, nc, kf);

      add_kernel("kmeansPoint", np, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(np);
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(guard, w.mask_below(UINT64_MAX));
        s.alu(init_min, m);
        for (uint32_t c = 0; c < nc; ++c) {
          s.alu(cl_init, m);
          s.alu(addr, m);
          const auto feature = [&](uint32_t f) {
            return [&, f](uint32_t l) { return feat_base + 4 * (w.global_id(l) * nf + f); };
          };
          uint32_t f = 0;
          for (; unroll > 1 && f + unroll <= kf; f += unroll) {  // kUnroll loads, then their uses
            for (uint32_t j = 0; j < unroll; ++j) s.load(ld_u[j], m, feature(f + j));
            for (uint32_t j = 0; j < unroll; ++j) s.alu(sub_u[j], m), s.alu(fma_u[j], m);
            s.alu(u_loop, m);
          }
          for (; f < kf; ++f) {  // the loop (unroll4: its remainder)
            s.load(ld_f, m, feature(f));
            s.alu(sub, m);
            s.alu(fma, m);
            s.alu(f_loop, m);
          }
          s.alu(cmp, m);
          s.alu(sel, m);
          s.alu(c_loop, m);
        }
        s.store(st_m, m, [&](uint32_t l) {
          const uint64_t p = w.global_id(l);
          return LaneWrite{memb_base + 4 * p, bits((*memb)[p])};
        });
        s.exit(exit);
      });

      // Host side: new centroids = mean of their points (an empty cluster keeps its centroid).
      std::vector<float> sum(uint64_t{nc} * nf, 0.0f);
      std::vector<uint32_t> count(nc, 0);
      for (uint32_t p = 0; p < np; ++p) {
        const auto c = static_cast<uint32_t>((*memb)[p]);
        ++count[c];
        for (uint32_t f = 0; f < nf; ++f) sum[uint64_t{c} * nf + f] += (*feat)[uint64_t{p} * nf + f];
      }
      for (uint32_t c = 0; c < nc; ++c) {
        if (count[c] == 0) continue;
        for (uint32_t f = 0; f < nf; ++f) {
          clusters[uint64_t{c} * nf + f] = sum[uint64_t{c} * nf + f] / static_cast<float>(count[c]);
        }
      }
    }
  }

 protected:
  // membership holds the last launch's assignment: each point's centroid (of that launch's
  // centroids) is a nearest one (distances in double; ties within 1e-5 relative accepted).
  void check(ResultCheck& c) const override {
    const auto memb = c.read<int32_t>("membership");
    std::vector<double> dist(nc_);
    const auto distances = [&](size_t p) {
      for (uint32_t k = 0; k < nc_; ++k) {
        dist[k] = 0;
        for (uint32_t f = 0; f < kf_; ++f)
          dist[k] += std::pow(static_cast<double>((*feat_)[p * nf_ + f]) - last_clusters_[uint64_t{k} * nf_ + f], 2);
      }
      return std::min_element(dist.begin(), dist.end()) - dist.begin();
    };
    c.each(
        "membership", memb.size(),
        [&](size_t p) {
          const auto best = distances(p);
          return memb[p] >= 0 && static_cast<uint32_t>(memb[p]) < nc_ && dist[memb[p]] <= dist[best] * (1 + 1e-5) + 1e-6;
        },
        [&](size_t p) {
          return std::to_string(memb[p]) + ", expected a nearest centroid (" + std::to_string(distances(p)) + ")";
        });
  }

 private:
  uint32_t np_ = 0, nf_ = 0, nc_ = 0, kf_ = 0;  // kf_: the features a distance sums
  std::shared_ptr<const std::vector<float>> feat_;
  std::vector<float> last_clusters_;

  // The kernel's arithmetic: float diff, fused ans += diff * diff, strict < (first minimum wins).
  static int32_t nearest(const std::vector<float>& feat, const std::vector<float>& cl, uint64_t p, uint32_t nf,
                         uint32_t nc, uint32_t kf) {
    float best = FLT_MAX;
    int32_t index = 0;
    for (uint32_t c = 0; c < nc; ++c) {
      float ans = 0.0f;
      for (uint32_t f = 0; f < kf; ++f) {
        const float diff = feat[p * nf + f] - cl[uint64_t{c} * nf + f];
        ans = std::fma(diff, diff, ans);
      }
      if (ans < best) best = ans, index = static_cast<int32_t>(c);
    }
    return index;
  }
};

}  // namespace

std::unique_ptr<Workload> make_kmeans() { return std::make_unique<Kmeans>(); }

}  // namespace l1d::sim::wl
