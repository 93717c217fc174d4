// heartwall (HW, Rodinia heart wall tracking): P sample points on the heart wall are tracked
// through F frames of a W x W image sequence (floats; generated: a textured image moving with a
// periodic "heartbeat" displacement, plus per-frame noise). As in Rodinia, a first kernel cuts
// each point's T x T template out of frame 0; then one kernel per frame, one CTA per point, one
// thread per candidate displacement (dy, dx) in [-8, 8) x [-8, 8) around the point's previous
// position (loaded from the previous frame's result):
//   for i, j < T: t = tmpl[p][i][j]; f = frame[y0 + dy + i][x0 + dx + j]
//                 sf += f; sff += f * f; sft += f * t; st += t; stt += t * t
//   corr[p][c] = (sft - sf * st / n) / sqrt((sff - sf^2 / n) * (stt - st^2 / n))   (normalised cross-correlation)
//   CTA-wide arg max (shared memory tree, 8 steps); thread 0 stores the new position pos[f][p]
// Rodinia's endo / epi point sets, template sizes and its cumulative-sum form of the
// correlation become one point set, one template size and the direct sums. The template loads
// are one address per warp (cached), a warp's frame loads are two rows of 16 pixels. Regular.
// Grid (issue 21): Rodinia 3.1's heartwall launches `kernel<<<blocks, threads>>>` once per frame
// with blocks.x = common.allPoints = ALL_POINTS = ENDO_POINTS + EPI_POINTS = 20 + 31 = 51 CTAs of
// threads.x = NUMBER_THREADS = 256 (define.c; main.cu), whatever the video: 51 CTAs of 8 warps
// cannot fill gtx480's 15 x 6 = 90 CTA slots. Every scale tracks those 51 points (the published
// grid, WorkloadInfo::published_ctas); test and small are shortened by frames and by the
// template (per-thread loop of T x T) instead: test 1 frame of 3 x 3, small 2 frames of 8 x 8
// (full: 20 frames, Rodinia's run of test.avi 20, of 16 x 16; Rodinia's tSize 25 is 51 x 51).
#include <algorithm>
#include <cmath>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr int kSearch = 16;                     // candidates per axis: displacements -8..7
constexpr uint32_t kCands = kSearch * kSearch;  // 256 = one CTA
constexpr int kDrift = 3;                       // largest displacement of the image from frame 0
constexpr uint32_t kPublishedPoints = 51;       // Rodinia's ALL_POINTS: 20 endo + 31 epi (header)

class Heartwall final : public GeneratedWorkload {
 public:
  std::string name() const override { return "heartwall"; }
  std::string description() const override { return "Rodinia heart wall: template tracking by normalised correlation"; }
  WorkloadInfo info() const override {
    return {false, false, "Rodinia (HW)",
            frames_
                ? std::to_string(points_) + " points, " + std::to_string(frames_) + " frames of " + std::to_string(w_) +
                      " x " + std::to_string(w_) + ", " + std::to_string(t_) + " x " + std::to_string(t_) + " templates"
                : "",
            "", kPublishedPoints,
            "Rodinia 3.1 heartwall main.cu: blocks.x = common.allPoints = ALL_POINTS = ENDO_POINTS 20 + EPI_POINTS 31 "
            "= 51 CTAs of NUMBER_THREADS = 256 threads (define.c), one launch per frame"};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    w_ = by_scale(scale, 64, 128, 256), t_ = by_scale(scale, 3, 8, 16);
    points_ = kPublishedPoints, frames_ = by_scale(scale, 1u, 2u, 20u);
    Rng rng(mix_seed(seed, "heartwall"));
    // The image: a coarse random field (8 px cells, bilinear) and a fine texture; frame f shows
    // it displaced by (oy, ox)(f), with noise.
    const int wd = w_, big = wd + 2 * kDrift, cells = big / 8 + 2;
    const std::vector<float> coarse = uniform_floats(rng, uint64_t(cells * cells)),
                             fine = uniform_floats(rng, uint64_t(big * big), 0.0f, 0.3f);
    const auto image = [&](int y, int x) {
      const float fy = static_cast<float>(y) / 8.0f, fx = static_cast<float>(x) / 8.0f;
      const int cy = static_cast<int>(fy), cx = static_cast<int>(fx);
      const float ay = fy - static_cast<float>(cy), ax = fx - static_cast<float>(cx);
      const auto at = [&](int i, int j) { return coarse[static_cast<size_t>(i * cells + j)]; };
      return (1 - ay) * ((1 - ax) * at(cy, cx) + ax * at(cy, cx + 1)) +
             ay * ((1 - ax) * at(cy + 1, cx) + ax * at(cy + 1, cx + 1)) + fine[static_cast<size_t>(y * big + x)];
    };
    std::vector<float> frames(uint64_t(frames_ + 1) * wd * wd);
    for (uint32_t f = 0; f <= frames_; ++f) {
      const double ph = 2 * M_PI * f / 7.0;
      const int oy = static_cast<int>(std::lround(kDrift * std::sin(ph))),
                ox = static_cast<int>(std::lround(kDrift * std::sin(ph * 0.5 + 1)));
      for (int y = 0; y < wd; ++y) {
        for (int x = 0; x < wd; ++x)
          frames[(uint64_t{f} * wd + y) * wd + x] = image(y + kDrift + oy, x + kDrift + ox) + 0.02f * rng.unitf();
      }
    }
    // The points: a ring far enough from the border for every window.
    const double radius = wd / 2.0 - (kSearch / 2 + t_ + 2 * kDrift + 2);
    std::vector<int32_t> pos0(2 * points_);
    for (uint32_t p = 0; p < points_; ++p) {
      const double a = 2 * M_PI * p / points_ + rng.unit() * 0.1;
      pos0[2 * p] = static_cast<int32_t>(wd / 2 + std::lround(radius * std::sin(a)));
      pos0[2 * p + 1] = static_cast<int32_t>(wd / 2 + std::lround(radius * std::cos(a)));
    }
    frames_img_ = share(frames), pos0_ = share(pos0);
    auto p0 = pos0_;
    // The tracking, host side: templates, then per frame the correlations and positions.
    std::vector<float> tmpl = templates<float>();
    const Track<float> tr = track<float>(tmpl);
    auto tmpl_s = share(tmpl), corr_s = share(tr.corr);
    auto pos_s = share(tr.pos);

    const Addr fr_base = layout_.array(mem, "frames", frames);
    const Addr pos_base = layout_.array(mem, "positions", [&] {  // frame 0's given, the others found
      std::vector<int32_t> v(uint64_t{frames_ + 1} * 2 * points_, 0);
      std::copy(pos0.begin(), pos0.end(), v.begin());
      return v;
    }());
    const Addr t_base = layout_.array(mem, "templates", std::vector<float>(tmpl.size(), 0.0f));
    const Addr c_base = layout_.array(mem, "corr", std::vector<float>(tr.corr.size(), 0.0f));
    const uint32_t t = t_, tt = t_ * t_, np = points_, ww = w_;
    const int64_t half = t_ / 2;
    const auto frame_at = [=](uint64_t f, int64_t y, int64_t x) {
      return fr_base + 4 * ((f * ww + static_cast<uint64_t>(y)) * ww + static_cast<uint64_t>(x));
    };

    // Templates: CTA p, thread (i, j): tmpl[p][i][j] = frame0[y0 - T/2 + i][x0 - T/2 + j].
    KernelCode k1(kFirstKernelPc);
    const StaticOp a_tid = k1.alu(kLatIntMad), a_py = k1.load(4), a_px = k1.load(4), a_addr = k1.alu(kLatIntMad);
    const StaticOp a_ld = k1.load(4), a_st = k1.store(4), a_exit = k1.exit();
    add_kernel(
        "heartwall_template", uint64_t{np} * tt,
        [=](WarpStream& s, const WarpCoords& w) {
          const uint32_t m = w.mask_below(UINT64_MAX);
          const auto p = [&](uint32_t) { return uint64_t{w.cta}; };
          const auto iy = [&](uint32_t l) { return static_cast<int64_t>(w.thread_in_cta(l) / t); };
          const auto ix = [&](uint32_t l) { return static_cast<int64_t>(w.thread_in_cta(l) % t); };
          s.alu(a_tid, m);
          s.load(a_py, m, [&](uint32_t l) { return pos_base + 8 * p(l); });
          s.load(a_px, m, [&](uint32_t l) { return pos_base + 8 * p(l) + 4; });
          s.alu(a_addr, m);
          s.load(a_ld, m, [&](uint32_t l) {
            return frame_at(0, (*p0)[2 * p(l)] - half + iy(l), (*p0)[2 * p(l) + 1] - half + ix(l));
          });
          s.store(a_st, m, [&](uint32_t l) {
            const uint64_t e = p(l) * tt + w.thread_in_cta(l);
            return LaneWrite{t_base + 4 * e, bits((*tmpl_s)[e])};
          });
          s.exit(a_exit);
        },
        tt);

    KernelCode k2 = k1.next_kernel();
    const StaticOp b_tid = k2.alu(kLatIntMad), b_py = k2.load(4), b_px = k2.load(4), b_addr = k2.alu(kLatIntMad);
    const StaticOp b_lt = k2.load(4), b_lf = k2.load(4), b_sum = k2.alu(kLatFp), b_sq = k2.alu(kLatFma);
    const StaticOp b_cross = k2.alu(kLatFma), b_tsum = k2.alu(kLatFma), b_loop = k2.alu(kLatInt);
    const StaticOp b_num = k2.alu(kLatFma), b_var = k2.alu(kLatFma), b_sqrt = k2.alu(kLatFp), b_div = k2.alu(kLatFp);
    const StaticOp b_st = k2.store(4), b_red = k2.alu(kLatFp), b_bar = k2.barrier(), b_spos = k2.alu(kLatInt);
    const StaticOp b_sty = k2.store(4), b_stx = k2.store(4), b_exit = k2.exit();
    for (uint32_t f = 1; f <= frames_; ++f) {
      add_kernel("heartwall_track", uint64_t{np} * kCands, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(UINT64_MAX);
        const uint64_t p = w.cta, prev = (uint64_t{f} - 1) * np + p;
        const auto dy = [&](uint32_t l) { return static_cast<int64_t>(w.thread_in_cta(l) / kSearch) - kSearch / 2; };
        const auto dx = [&](uint32_t l) { return static_cast<int64_t>(w.thread_in_cta(l) % kSearch) - kSearch / 2; };
        const int64_t y0 = (*pos_s)[2 * prev] - half, x0 = (*pos_s)[2 * prev + 1] - half;
        s.alu(b_tid, m);
        s.load(b_py, m, [&](uint32_t) { return pos_base + 8 * prev; });
        s.load(b_px, m, [&](uint32_t) { return pos_base + 8 * prev + 4; });
        s.alu(b_addr, m);
        for (uint32_t i = 0; i < t; ++i) {
          for (uint32_t j = 0; j < t; ++j) {
            s.load(b_lt, m, [&](uint32_t) { return t_base + 4 * (p * tt + i * t + j); });
            s.load(b_lf, m, [&](uint32_t l) { return frame_at(f, y0 + dy(l) + i, x0 + dx(l) + j); });
            for (const StaticOp& op : {b_sum, b_sq, b_cross, b_tsum, b_loop}) s.alu(op, m);
          }
        }
        for (const StaticOp& op : {b_num, b_var, b_sqrt, b_div}) s.alu(op, m);
        s.store(b_st, m, [&](uint32_t l) {
          const uint64_t e = ((uint64_t{f} - 1) * np + p) * kCands + w.thread_in_cta(l);
          return LaneWrite{c_base + 4 * e, bits((*corr_s)[e])};
        });
        for (uint32_t stride = kCands / 2; stride > 0; stride /= 2) {  // arg max in shared memory
          s.alu(b_red, lanes_where(m, [&](uint32_t l) { return w.thread_in_cta(l) < stride; }));
          s.barrier(b_bar);
        }
        const uint64_t cur = uint64_t{f} * np + p;
        if (w.warp == 0) {
          s.alu(b_spos, 1u);
          s.store(b_sty, 1u, [&](uint32_t) { return LaneWrite{pos_base + 8 * cur, bits((*pos_s)[2 * cur])}; });
          s.store(b_stx, 1u, [&](uint32_t) { return LaneWrite{pos_base + 8 * cur + 4, bits((*pos_s)[2 * cur + 1])}; });
        }
        s.exit(b_exit);
      });
    }
  }

 protected:
  // The tracking again in double: templates, every correlation map and every position.
  void check(ResultCheck& c) const override {
    const std::vector<double> tmpl = templates<double>();
    const Track<double> tr = track<double>(tmpl);
    c.close("templates", tmpl, 0.0, 0.0);
    c.exact("positions", tr.pos);
    c.close("corr", tr.corr, 1e-3, 1e-3);  // float sums: sff - sf^2 / n cancels
  }

 private:
  template <typename T>
  struct Track {
    std::vector<T> corr;       // [frame - 1][point][candidate]
    std::vector<int32_t> pos;  // [frame][point][y, x]
  };
  template <typename T>
  std::vector<T> templates() const {
    const uint64_t w = w_, t = t_;
    std::vector<T> tmpl(points_ * t * t);
    for (uint64_t p = 0; p < points_; ++p) {
      for (uint64_t i = 0; i < t * t; ++i)
        tmpl[p * t * t + i] =
            (*frames_img_)[static_cast<uint64_t>((*pos0_)[2 * p] - t_ / 2 + static_cast<int>(i / t)) * w +
                           static_cast<uint64_t>((*pos0_)[2 * p + 1] - t_ / 2 + static_cast<int>(i % t))];
    }
    return tmpl;
  }
  // Correlations in T, in the kernel's order; the first largest correlation wins.
  template <typename T>
  Track<T> track(const std::vector<T>& tmpl) const {
    const uint64_t w = w_, tt = uint64_t(t_) * t_;
    const T n = static_cast<T>(tt);
    Track<T> r{std::vector<T>(uint64_t{frames_} * points_ * kCands),
               std::vector<int32_t>(uint64_t{frames_ + 1} * 2 * points_)};
    std::copy(pos0_->begin(), pos0_->end(), r.pos.begin());
    for (uint64_t f = 1; f <= frames_; ++f) {
      for (uint64_t p = 0; p < points_; ++p) {
        const int32_t* prev = &r.pos[((f - 1) * points_ + p) * 2];
        uint32_t best = 0;
        for (uint32_t c = 0; c < kCands; ++c) {
          const int y0 = prev[0] - t_ / 2 + static_cast<int>(c / kSearch) - kSearch / 2;
          const int x0 = prev[1] - t_ / 2 + static_cast<int>(c % kSearch) - kSearch / 2;
          T sf = 0, sff = 0, sft = 0, st = 0, stt = 0;
          for (uint64_t i = 0; i < tt; ++i) {
            const T tv = tmpl[p * tt + i];
            const T fv = (*frames_img_)[(f * w + static_cast<uint64_t>(y0 + static_cast<int>(i / t_))) * w +
                                        static_cast<uint64_t>(x0 + static_cast<int>(i % t_))];
            sf += fv, sff = std::fma(fv, fv, sff), sft = std::fma(fv, tv, sft), st += tv, stt = std::fma(tv, tv, stt);
          }
          const T var = (sff - sf * sf / n) * (stt - st * st / n);
          T& out = r.corr[((f - 1) * points_ + p) * kCands + c];
          out = var > 0 ? (sft - sf * st / n) / std::sqrt(var) : T(0);
          if (out > r.corr[((f - 1) * points_ + p) * kCands + best]) best = c;
        }
        // (kept inside the frame should a point be lost; the generated motion stays far inside)
        const int lo = kSearch / 2 + t_, hi = w_ - kSearch / 2 - t_;
        r.pos[(f * points_ + p) * 2] = std::clamp(prev[0] + static_cast<int32_t>(best / kSearch) - kSearch / 2, lo, hi);
        r.pos[(f * points_ + p) * 2 + 1] =
            std::clamp(prev[1] + static_cast<int32_t>(best % kSearch) - kSearch / 2, lo, hi);
      }
    }
    return r;
  }

  int w_ = 0, t_ = 0;
  uint32_t points_ = 0, frames_ = 0;
  Shared<float> frames_img_;
  Shared<int32_t> pos0_;
};

}  // namespace

std::unique_ptr<Workload> make_heartwall() { return std::make_unique<Heartwall>(); }

}  // namespace l1d::sim::wl
