// simscore (SS, Mars SimilarityScore): cosine similarity of every pair of documents, each a
// dense feature vector of D floats (document-major). One map task (thread) per pair (i, j),
// pairs in i-major order:
//   dot = |a|^2 = |b|^2 = 0; for f < D: a = doc[i*D + f]; b = doc[j*D + f];
//                                     dot += a b; aa += a a; bb += b b
//   score[pair] = dot / sqrt(aa * bb)
// Within a warp i is (mostly) shared and j walks consecutive documents D*4 bytes apart: 32
// requests per load, each document line reused over the next iterations and by other pairs:
// cache-sensitive. Regular (the pair list is affine in the thread index).
// Issue 21: small has 215 documents = 23005 pairs = 90 CTAs of 8 warps, the 6 per SM that fill
// gtx480's 15 SMs (160 documents launched 50), with 32 features (was 64; a shorter per-thread
// loop; one 128 B line per document: 24 features would fit 215 documents in the L1s, 8.8 % miss).
// Test has small's 215 documents (90 CTAs) with 4 features, a shorter per-thread loop (24 K warp
// instructions, 2.9 K cycles; 24 documents launched 2 CTAs). Full 512.
#include <cmath>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

class Simscore final : public GeneratedWorkload {
 public:
  std::string name() const override { return "simscore"; }
  std::string description() const override { return "Mars SimilarityScore: cosine similarity of all document pairs"; }
  WorkloadInfo info() const override {
    return {false, true, "Mars (SS)",
            docs_ ? std::to_string(docs_) + " documents x " + std::to_string(dim_) + " features" +
                        (kf_ < dim_ ? " (the first " + std::to_string(kf_) + " summed)" : std::string()) + ", " +
                        std::to_string(pairs_->size()) + " pairs"
                  : "",
            ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    uint32_t docs = by_scale(scale, 215u, 215u, 512u), kf = by_scale(scale, 4u, 32u, 128u);
    const uint32_t dim = kf;
    // On a larger device small launches its fill (issue 21): the fewest documents whose pairs fill
    // more than fill - 1 CTAs (qv100 573 documents, 163878 pairs = 641 CTAs; a100 666, 221445 = 866),
    // each thread's loop shortened to the first kf of a document's 32 features, 32 / (the fill over
    // gtx480's), rounded (qv100 5, a100 3; 7 on qv100 cost 3.3x today's qv100 run), so that a
    // run's loads stay near gtx480's; the documents keep 32 floats, one line each. gtx480 keeps
    // 215 documents x 32 summed features.
    if (scale == WorkloadScale::kSmall && fill_ctas(8) > 90) {
      const uint64_t need = uint64_t{fill_ctas(8) - 1} * kCtaThreads;
      while (uint64_t{docs} * (docs - 1) / 2 <= need) ++docs;
      kf = std::max(2u, static_cast<uint32_t>(32 / fill_over_gtx480() + 0.5));
    }
    Rng rng(mix_seed(seed, "simscore"));
    std::vector<float> doc = uniform_floats(rng, uint64_t{docs} * dim);
    for (float& v : doc) v = v < 0.7f ? 0.0f : v;  // sparse-ish term weights, stored dense as in Mars
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t i = 0; i < docs; ++i)
      for (uint32_t j = i + 1; j < docs; ++j) pairs.emplace_back(i, j);
    docs_ = docs, dim_ = dim, kf_ = kf, doc_ = share(doc);
    auto pr = std::make_shared<const std::vector<std::pair<uint32_t, uint32_t>>>(std::move(pairs));
    pairs_ = pr;
    auto d = doc_;
    const auto np = static_cast<uint32_t>(pr->size());
    const Addr d_base = layout_.array(mem, "docs", doc);
    std::vector<int32_t> pair_words;
    for (const auto& [i, j] : *pr)
      pair_words.push_back(static_cast<int32_t>(i)), pair_words.push_back(static_cast<int32_t>(j));
    const Addr p_base = layout_.array(mem, "pairs", pair_words);
    const Addr s_base = layout_.array(mem, "score", std::vector<float>(np, 0.0f));

    KernelCode k(kFirstKernelPc);
    const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), ld_i = k.load(4), ld_j = k.load(4);
    const StaticOp ld_a = k.load(4), ld_b = k.load(4), f1 = k.alu(kLatFma), f2 = k.alu(kLatFma), f3 = k.alu(kLatFma);
    const StaticOp loop = k.alu(kLatInt), mul = k.alu(kLatFp), sq = k.alu(20), div = k.alu(20), st = k.store(4);
    const StaticOp exit = k.exit();
    add_kernel("simscore_map", np, [=](WarpStream& s, const WarpCoords& w) {
      const uint32_t m = w.mask_below(np);
      const auto p = [&](uint32_t l) { return (*pr)[w.global_id(l)]; };
      s.alu(tid, w.mask_below(UINT64_MAX));
      s.alu(guard, w.mask_below(UINT64_MAX));
      s.load(ld_i, m, [&](uint32_t l) { return p_base + 8 * w.global_id(l); });
      s.load(ld_j, m, [&](uint32_t l) { return p_base + 8 * w.global_id(l) + 4; });
      std::array<float, kWarpSize> dot{}, aa{}, bb{};
      for (uint64_t f = 0; f < kf; ++f) {
        s.load(ld_a, m, [&](uint32_t l) { return d_base + 4 * (p(l).first * uint64_t{dim} + f); });
        s.load(ld_b, m, [&](uint32_t l) { return d_base + 4 * (p(l).second * uint64_t{dim} + f); });
        for_lanes(m, [&](uint32_t l) {
          const float a = (*d)[p(l).first * uint64_t{dim} + f], b = (*d)[p(l).second * uint64_t{dim} + f];
          dot[l] = std::fma(a, b, dot[l]), aa[l] = std::fma(a, a, aa[l]), bb[l] = std::fma(b, b, bb[l]);
        });
        s.alu(f1, m);
        s.alu(f2, m);
        s.alu(f3, m);
        s.alu(loop, m);
      }
      s.alu(mul, m);
      s.alu(sq, m);
      s.alu(div, m);
      s.store(st, m, [&](uint32_t l) {
        const float den = std::sqrt(aa[l] * bb[l]);
        return LaneWrite{s_base + 4 * w.global_id(l), bits(den > 0.0f ? dot[l] / den : 0.0f)};
      });
      s.exit(exit);
    });
  }

 protected:
  void check(ResultCheck& c) const override {
    std::vector<double> want;
    for (const auto& [i, j] : *pairs_) {
      double dot = 0, aa = 0, bb = 0;
      for (uint64_t f = 0; f < kf_; ++f) {
        const double a = (*doc_)[i * uint64_t{dim_} + f], b = (*doc_)[j * uint64_t{dim_} + f];
        dot += a * b, aa += a * a, bb += b * b;
      }
      want.push_back(aa * bb > 0 ? dot / std::sqrt(aa * bb) : 0.0);
    }
    c.close("score", want, 1e-4, 1e-5);
  }

 private:
  uint32_t docs_ = 0, dim_ = 0, kf_ = 0;  // kf_: the features a score sums
  Shared<float> doc_;
  std::shared_ptr<const std::vector<std::pair<uint32_t, uint32_t>>> pairs_;
};

}  // namespace

std::unique_ptr<Workload> make_simscore() { return std::make_unique<Simscore>(); }

}  // namespace l1d::sim::wl
