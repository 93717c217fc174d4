// pfilter (PF, Rodinia particlefilter, float version): tracks a disk moving through a noisy
// video. Per frame, two kernels (one thread per particle):
//   likelihood_kernel: x = xj[i] + 1 + 5 n1; y = yj[i] - 2 + 2 n2 (store arrayX/Y);
//                      for each of the disk's offsets: gather I[round(x)+dx][round(y)+dy][frame]
//                      likelihood[i] = sum(((v-100)^2 - (v-228)^2) / 800) / count; weights[i] = exp(likelihood) / N
//   find_index_kernel: index = first x with CDF[x] >= u[i] (Rodinia's linear search);
//                      xj[i] = arrayX[index]; yj[i] = arrayY[index]
// The host normalises the weights and builds the CDF and u between them ("CDF<f>", "u<f>"
// regions). The video is Rodinia's layout I[x][y][frame] (a frame's pixels Nfr*4 B apart);
// the gathers follow the particles and the search length follows the weights: irregular.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr int32_t kSize = 128, kRadius = 5;  // frame is kSize x kSize
// Rodinia divides by 50, which makes exp(likelihood) overflow a float on the object (+-327);
// 800 keeps the same ordering within float range (+-20).
constexpr float kScale = 800.0f;

struct Frame {  // one frame's results (float, the kernels' arithmetic)
  std::vector<float> x, y, lik, w, cdf, u, xj, yj;
  std::vector<int32_t> index;
};

struct Filter {
  uint32_t n = 0, frames = 0;
  std::vector<int32_t> video, disk;  // disk: (dx, dy) pairs
  std::vector<float> noise;          // 2 per particle per frame
  float u1[64] = {};
  uint64_t pixel(int64_t x, int64_t y, uint32_t f) const {
    const int64_t ind = std::llabs((x * kSize + y) * (frames + 1) + f);
    return ind >= static_cast<int64_t>(video.size()) ? 0 : static_cast<uint64_t>(ind);
  }
  std::vector<Frame> run(float x0, float y0) const {
    std::vector<Frame> out(frames);
    std::vector<float> xj(n, x0), yj(n, y0);
    for (uint32_t f = 0; f < frames; ++f) {
      Frame& fr = out[f];
      fr.x.resize(n), fr.y.resize(n), fr.lik.resize(n), fr.w.resize(n);
      for (uint64_t i = 0; i < n; ++i) {
        fr.x[i] = xj[i] + 1.0f + 5.0f * noise[(uint64_t{f} * n + i) * 2];
        fr.y[i] = yj[i] - 2.0f + 2.0f * noise[(uint64_t{f} * n + i) * 2 + 1];
        float sum = 0.0f;
        for (size_t d = 0; d < disk.size(); d += 2) {
          const auto v = static_cast<float>(
              video[pixel(std::lround(fr.x[i]) + disk[d], std::lround(fr.y[i]) + disk[d + 1], f + 1)]);
          sum += ((v - 100.0f) * (v - 100.0f) - (v - 228.0f) * (v - 228.0f)) / kScale;
        }
        fr.lik[i] = sum / static_cast<float>(disk.size() / 2);
        fr.w[i] = std::exp(fr.lik[i]) / static_cast<float>(n);
      }
      float total = 0.0f;
      for (float v : fr.w) total += v;
      fr.cdf.resize(n), fr.u.resize(n), fr.index.resize(n), fr.xj.resize(n), fr.yj.resize(n);
      for (uint64_t i = 0; i < n; ++i) fr.cdf[i] = (i ? fr.cdf[i - 1] : 0.0f) + fr.w[i] / total;
      for (uint64_t i = 0; i < n; ++i) {
        fr.u[i] = u1[f] + static_cast<float>(i) / static_cast<float>(n);
        int32_t idx = -1;
        for (uint64_t c = 0; c < n && idx < 0; ++c) idx = fr.cdf[c] >= fr.u[i] ? static_cast<int32_t>(c) : -1;
        fr.index[i] = idx < 0 ? static_cast<int32_t>(n - 1) : idx;
        fr.xj[i] = fr.x[static_cast<uint64_t>(fr.index[i])], fr.yj[i] = fr.y[static_cast<uint64_t>(fr.index[i])];
      }
      xj = fr.xj, yj = fr.yj;
    }
    return out;
  }
};

class Pfilter final : public GeneratedWorkload {
 public:
  std::string name() const override { return "pfilter"; }
  std::string description() const override { return "Rodinia particle filter: likelihood gathers and CDF search"; }
  WorkloadInfo info() const override {
    return {true, false, "Rodinia (PF)",
            f_ ? std::to_string(f_->n) + " particles, " + std::to_string(f_->frames) + " frames of 128 x 128" : "", ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    Rng rng(mix_seed(seed, "pfilter"));
    auto f = std::make_shared<Filter>();
    f->n = by_scale(scale, 128u, 1024u, 8192u), f->frames = by_scale(scale, 2u, 4u, 10u);
    const uint32_t n = f->n, nfr = f->frames + 1;
    for (int32_t dx = -kRadius; dx <= kRadius; ++dx)
      for (int32_t dy = -kRadius; dy <= kRadius; ++dy)
        if (dx * dx + dy * dy <= kRadius * kRadius) f->disk.push_back(dx), f->disk.push_back(dy);
    f->video.resize(uint64_t{kSize} * kSize * nfr);
    for (int32_t x = 0; x < kSize; ++x)
      for (int32_t y = 0; y < kSize; ++y)
        for (uint32_t k = 0; k < nfr; ++k) {  // the disk starts at (64, 64) and moves by (+1, -2) per frame
          const int32_t cx = 64 + static_cast<int32_t>(k), cy = 64 - 2 * static_cast<int32_t>(k);
          const bool in = (x - cx) * (x - cx) + (y - cy) * (y - cy) <= kRadius * kRadius;
          const double v = (in ? 228.0 : 100.0) + 5.0 * rng.normal();
          f->video[f->pixel(x, y, k)] = static_cast<int32_t>(std::clamp(std::lround(v), 0l, 255l));
        }
    f->noise.resize(uint64_t{n} * f->frames * 2);
    for (float& v : f->noise) v = static_cast<float>(rng.normal());
    for (uint32_t k = 0; k < f->frames; ++k) f->u1[k] = rng.unitf() / static_cast<float>(n);
    f_ = f;
    auto frames = std::make_shared<const std::vector<Frame>>(f->run(64.0f, 64.0f));
    const Addr i_base = layout_.array(mem, "I", f->video);
    const Addr x_base = layout_.array(mem, "arrayX", std::vector<float>(n, 0.0f));
    const Addr y_base = layout_.array(mem, "arrayY", std::vector<float>(n, 0.0f));
    const Addr xj_base = layout_.array(mem, "xj", std::vector<float>(n, 64.0f));
    const Addr yj_base = layout_.array(mem, "yj", std::vector<float>(n, 64.0f));
    const Addr lik_base = layout_.array(mem, "likelihood", std::vector<float>(n, 0.0f));
    const Addr w_base = layout_.array(mem, "weights", std::vector<float>(n, 0.0f));
    const auto at = [](Addr base, uint64_t i) { return base + 4 * i; };

    KernelCode ka(kFirstKernelPc);
    const StaticOp tid = ka.alu(kLatIntMad), guard = ka.alu(kLatInt), ld_xj = ka.load(4), ld_yj = ka.load(4);
    const StaticOp rnd = ka.alu(kLatFma), st_x = ka.store(4), st_y = ka.store(4), idx = ka.alu(kLatIntMad);
    const StaticOp ld_i = ka.load(4), acc = ka.alu(kLatFma), loop = ka.alu(kLatInt), div = ka.alu(20);
    const StaticOp st_l = ka.store(4), ex = ka.alu(20), st_w = ka.store(4), exit_a = ka.exit();
    KernelCode kb = ka.next_kernel();
    const StaticOp tid2 = kb.alu(kLatIntMad), guard2 = kb.alu(kLatInt), ld_u = kb.load(4), ld_c = kb.load(4);
    const StaticOp cmp = kb.alu(kLatFp), loop2 = kb.alu(kLatInt), ld_ax = kb.load(4), ld_ay = kb.load(4);
    const StaticOp st_xj = kb.store(4), st_yj = kb.store(4), exit_b = kb.exit();
    for (uint32_t fr = 0; fr < f->frames; ++fr) {
      const Frame* cur = &(*frames)[fr];
      const Addr cdf_base = layout_.array(mem, "CDF" + std::to_string(fr), cur->cdf);
      const Addr u_base = layout_.array(mem, "u" + std::to_string(fr), cur->u);
      add_kernel("likelihood_kernel", n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(n);
        const auto i = [&](uint32_t l) { return w.global_id(l); };
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(guard, w.mask_below(UINT64_MAX));
        s.load(ld_xj, m, [&](uint32_t l) { return at(xj_base, i(l)); });
        s.load(ld_yj, m, [&](uint32_t l) { return at(yj_base, i(l)); });
        s.alu(rnd, m);
        s.store(st_x, m, [&](uint32_t l) { return LaneWrite{at(x_base, i(l)), bits(cur->x[i(l)])}; });
        s.store(st_y, m, [&](uint32_t l) { return LaneWrite{at(y_base, i(l)), bits(cur->y[i(l)])}; });
        for (size_t d = 0; d < f->disk.size(); d += 2) {
          s.alu(idx, m);
          s.load(ld_i, m, [&](uint32_t l) {
            return at(i_base, f->pixel(std::lround(cur->x[i(l)]) + f->disk[d],
                                       std::lround(cur->y[i(l)]) + f->disk[d + 1], fr + 1));
          });
          s.alu(acc, m);
          s.alu(loop, m);
        }
        s.alu(div, m);
        s.store(st_l, m, [&](uint32_t l) { return LaneWrite{at(lik_base, i(l)), bits(cur->lik[i(l)])}; });
        s.alu(ex, m);
        s.store(st_w, m, [&](uint32_t l) { return LaneWrite{at(w_base, i(l)), bits(cur->w[i(l)])}; });
        s.exit(exit_a);
      });
      add_kernel("find_index_kernel", n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(n);
        const auto i = [&](uint32_t l) { return w.global_id(l); };
        s.alu(tid2, w.mask_below(UINT64_MAX));
        s.alu(guard2, w.mask_below(UINT64_MAX));
        s.load(ld_u, m, [&](uint32_t l) { return at(u_base, i(l)); });
        simt_loop(
            m, [&](uint32_t l) { return cur->index[i(l)] + 1; },
            [&](int64_t x, uint32_t am) {
              s.load(ld_c, am, [&](uint32_t) { return at(cdf_base, static_cast<uint64_t>(x)); });
              s.alu(cmp, am);
              s.alu(loop2, am);
            });
        const auto src = [&](uint32_t l) { return static_cast<uint64_t>(cur->index[i(l)]); };
        s.load(ld_ax, m, [&](uint32_t l) { return at(x_base, src(l)); });
        s.load(ld_ay, m, [&](uint32_t l) { return at(y_base, src(l)); });
        s.store(st_xj, m, [&](uint32_t l) { return LaneWrite{at(xj_base, i(l)), bits(cur->xj[i(l)])}; });
        s.store(st_yj, m, [&](uint32_t l) { return LaneWrite{at(yj_base, i(l)), bits(cur->yj[i(l)])}; });
        s.exit(exit_b);
      });
    }
    frames_ = frames;
  }

 protected:
  // The last frame's arrays against the filter re-run from the inputs; the estimate (the mean
  // particle) must follow the disk to within 5 pixels.
  void check(ResultCheck& c) const override {
    const auto ref = f_->run(64.0f, 64.0f);
    const Frame& last = ref.back();
    c.exact("arrayX", last.x);
    c.exact("arrayY", last.y);
    c.exact("likelihood", last.lik);
    c.exact("weights", last.w);
    c.exact("xj", last.xj);
    c.exact("yj", last.yj);
    const auto xj = c.read<float>("xj"), yj = c.read<float>("yj");
    double mx = 0, my = 0;
    for (size_t i = 0; i < xj.size(); ++i) mx += xj[i], my += yj[i];
    mx /= static_cast<double>(xj.size()), my /= static_cast<double>(yj.size());
    const double tx = 64 + f_->frames, ty = 64 - 2.0 * f_->frames;
    if (std::hypot(mx - tx, my - ty) > 5)
      c.fail("estimate (" + std::to_string(mx) + ", " + std::to_string(my) + ") is far from the disk at (" +
             std::to_string(tx) + ", " + std::to_string(ty) + ")");
  }

 private:
  std::shared_ptr<const Filter> f_;
  std::shared_ptr<const std::vector<Frame>> frames_;
};

}  // namespace

std::unique_ptr<Workload> make_pfilter() { return std::make_unique<Pfilter>(); }

}  // namespace l1d::sim::wl
