// sqn (SQN, Tango SqueezeNet): fire modules on a C x H x H feature map (CHW floats, batch 1)
// with generated weights. A fire module is a 1x1 "squeeze" convolution to S channels and two
// "expand" convolutions of the squeezed map, 1x1 and 3x3 (padding 1), to E channels each, whose
// outputs are concatenated (channels 0..E-1 and E..2E-1 of the module's output), all with ReLU.
// Each convolution is one kernel, one thread per output element (oc, y, x), as Tango's:
//   acc = bias[oc]; for ic: for ky, kx: if (y', x' inside) acc = fma(w[oc][ic][ky][kx], in[ic][y'][x'], acc)
//   out[off + oc][y][x] = max(acc, 0)
// H x H is a multiple of 32, so a warp is one output channel: its weight loads are one address
// (shared by every thread of the channel, cached), its input loads consecutive pixels. Regular.
// Small on a device whose fill of 8-warp CTAs exceeds gtx480's 90 (issue 21: qv100 640, a100 864)
// keeps one fire module and grows the map to the least H, a multiple of 8, whose every layer has
// the fill's outputs, with c squeeze and expand channels instead of 10 (a shorter per-thread
// channel loop), c the most (at most 5) that keeps the module under small's 1 M warp
// instructions: on qv100 and a100 c = 2, qv100 288 x 288 (2 x 82944 = 165888 outputs, 648 CTAs a
// layer, 0.73 M warp instructions), a100 336 x 336 (225792, 882 CTAs, 0.99 M); c = 3 would be
// 1.09 M / 1.39 M (branch workloads13 ran c = 5: 1.71 M / 2.35 M).
#include <algorithm>
#include <cmath>
#include <map>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

// Small's warp-instruction ceiling (docs/workloads.md "Input sizes"; WorkloadScales checks it on
// gtx480, qv100 and a100).
constexpr uint64_t kSmallCeiling = 1'000'000;
constexpr uint32_t kMaxFilledChannels = 5;  // at most these squeeze and expand channels on a larger device

// Warp instructions of one thread's convolution (the kernel body below): tid, idx, bias load; per
// input channel the loop's ALU and per tap a weight load, (a bounds test for 3x3), an input load,
// an fma and the loop's ALU; ReLU, store, exit.
constexpr uint64_t conv_insts(uint32_t in_ch, uint32_t k) {
  return 6 + uint64_t{in_ch} * (1 + k * k * (k > 1 ? 5 : 4));
}

// The least H, a multiple of 8, whose H x H map of `ch` channels has at least `outputs` elements.
uint32_t least_side(uint32_t ch, uint64_t outputs) {
  uint32_t h = 8;
  while (uint64_t{ch} * h * h < outputs) h += 8;
  return h;
}

// One fire module of c squeeze and c expand channels (input 2c) at the least side whose every
// layer has `outputs` elements: its warp instructions (c x H x H / 32 warps in each layer).
uint64_t module_insts(uint32_t c, uint64_t outputs) {
  const uint32_t h = least_side(c, outputs);
  return uint64_t{c} * h * h / kWarpSize * (conv_insts(2 * c, 1) + conv_insts(c, 1) + conv_insts(c, 3));
}

struct Conv {
  uint32_t in_ch, out_ch, k;   // k x k kernel, padding k / 2
  std::string in, out, param;  // regions: input map, output map, "<param>_w" / "<param>_b"
  uint32_t out_off;            // first output channel in `out`
  Shared<float> w, b;          // w[oc][ic][ky][kx], b[oc]
};

class Sqn final : public GeneratedWorkload {
 public:
  std::string name() const override { return "sqn"; }
  std::string description() const override {
    return "Tango SqueezeNet fire modules: squeeze 1x1, expand 1x1 and 3x3, ReLU";
  }
  WorkloadInfo info() const override {
    return {false, false, "Tango (SQN)",
            in_ ? std::to_string(2 * ex_) + " x " + std::to_string(h_) + " x " + std::to_string(h_) + " input, " +
                      std::to_string(fires_) + (fires_ == 1 ? " fire module" : " fire modules") + " (squeeze " + std::to_string(sq_) + ", expand " +
                      std::to_string(ex_) + " + " + std::to_string(ex_) + ")"
                : "",
            ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    convs_.clear();
    // Small (issue 21): every convolution has at least gtx480's 90 CTAs of 256 outputs (48 x 48 x 10
    // = 23040), one fire module of 10 + 10 channels (a shorter per-thread channel loop; was 2
    // modules of squeeze 16, expand 32 + 32 on 16 x 16: 16 - 32 CTAs a layer).
    h_ = by_scale(scale, 8u, 48u, 32u), fires_ = by_scale(scale, 2u, 1u, 3u);
    sq_ = by_scale(scale, 4u, 10u, 32u), ex_ = by_scale(scale, 8u, 10u, 64u);
    // On a larger device (issue 21) every layer gets the fill's outputs with the most channels c <= 5
    // whose module stays under small's ceiling: a layer's warps are fixed by the fill (c x H x H =
    // fill x 256), so each thread's channel loop is what c shortens (18 + 61 c instructions a warp
    // over the three layers; 5 + 5 channels put small at 1.71 M on qv100 and 2.35 M on a100).
    const uint64_t fill_outputs = uint64_t{fill_ctas(8)} * kCtaThreads;
    if (scale == WorkloadScale::kSmall && uint64_t{sq_} * h_ * h_ < fill_outputs) {
      uint32_t c = kMaxFilledChannels;
      while (c > 1 && module_insts(c, fill_outputs) > kSmallCeiling) --c;
      sq_ = ex_ = c;
      h_ = least_side(c, fill_outputs);
    }
    const uint64_t hw = uint64_t{h_} * h_;
    Rng rng(mix_seed(seed, "sqn"));
    in_ = share(uniform_floats(rng, 2 * ex_ * hw));  // each module's input has as many channels as its output
    std::map<std::string, std::vector<float>> maps{{"input", *in_}};
    std::string prev = "input";
    for (uint32_t f = 2; f < fires_ + 2; ++f) {
      const std::string fire = "fire" + std::to_string(f);
      maps[fire + "_squeeze"].assign(sq_ * hw, 0.0f);
      maps[fire].assign(2 * ex_ * hw, 0.0f);
      convs_.push_back(weights(rng, {2 * ex_, sq_, 1, prev, fire + "_squeeze", fire + "_squeeze1x1", 0, {}, {}}));
      convs_.push_back(weights(rng, {sq_, ex_, 1, fire + "_squeeze", fire, fire + "_expand1x1", 0, {}, {}}));
      convs_.push_back(weights(rng, {sq_, ex_, 3, fire + "_squeeze", fire, fire + "_expand3x3", ex_, {}, {}}));
      prev = fire;
    }
    // Feature maps first (zero but the input), then each convolution's weights and biases.
    layout_.array(mem, "input", *in_);
    for (const Conv& c : convs_) {
      if (c.out_off == 0) layout_.array(mem, c.out, maps.at(c.out));
    }
    for (const Conv& c : convs_) layout_.array(mem, c.param + "_w", *c.w), layout_.array(mem, c.param + "_b", *c.b);

    // One kernel function per convolution shape (1x1, 3x3).
    KernelCode code(kFirstKernelPc);
    std::map<uint32_t, std::array<StaticOp, 12>> ops;
    for (uint32_t k : {1u, 3u}) {
      if (k == 3) code = code.next_kernel();
      ops[k] = {code.alu(kLatIntMad), code.alu(kLatInt), code.load(4),  code.alu(kLatInt),
                code.load(4),         code.alu(kLatInt), code.load(4),  code.alu(kLatFma),
                code.alu(kLatInt),    code.alu(kLatFp),  code.store(4), code.exit()};
    }
    for (const Conv& c : convs_) {
      auto out_vals = share(run(c, maps.at(c.in)));
      std::copy(out_vals->begin(), out_vals->end(),
                maps.at(c.out).begin() + static_cast<std::ptrdiff_t>(c.out_off * hw));
      const auto [tid, idx, ld_b, ic_loop, ld_w, bounds, ld_x, fma, loop, relu, st, exit] = ops.at(c.k);
      const Addr in_base = layout_.region(c.in).base, out_base = layout_.region(c.out).base + 4 * c.out_off * hw;
      const Addr w_base = layout_.region(c.param + "_w").base, b_base = layout_.region(c.param + "_b").base;
      const int h = static_cast<int>(h_), pad = static_cast<int>(c.k / 2);
      const uint32_t in_ch = c.in_ch, k = c.k;
      add_kernel(k == 3 ? "conv3x3_relu" : "conv1x1_relu", c.out_ch * hw, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(out_vals->size());
        const uint64_t oc = w.global_id(0) / hw;  // one channel per warp
        const auto y = [&](uint32_t l) { return static_cast<int>(w.global_id(l) % hw) / h; };
        const auto x = [&](uint32_t l) { return static_cast<int>(w.global_id(l) % hw) % h; };
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(idx, m);
        s.load(ld_b, m, [&](uint32_t) { return b_base + 4 * oc; });
        for (uint32_t ic = 0; ic < in_ch; ++ic) {
          s.alu(ic_loop, m);
          for (int ky = -pad; ky <= pad; ++ky) {
            for (int kx = -pad; kx <= pad; ++kx) {
              const uint64_t wi =
                  ((oc * in_ch + ic) * k + static_cast<uint32_t>(ky + pad)) * k + static_cast<uint32_t>(kx + pad);
              s.load(ld_w, m, [&](uint32_t) { return w_base + 4 * wi; });
              if (k > 1) s.alu(bounds, m);
              const uint32_t in_m = lanes_where(
                  m, [&](uint32_t l) { return y(l) + ky >= 0 && y(l) + ky < h && x(l) + kx >= 0 && x(l) + kx < h; });
              s.load(ld_x, in_m, [&](uint32_t l) {
                return in_base + 4 * (ic * hw + static_cast<uint64_t>((y(l) + ky) * h + x(l) + kx));
              });
              s.alu(fma, in_m);
              s.alu(loop, m);
            }
          }
        }
        s.alu(relu, m);
        s.store(st, m, [&](uint32_t l) {
          return LaneWrite{out_base + 4 * w.global_id(l), bits((*out_vals)[w.global_id(l)])};
        });
        s.exit(exit);
      });
    }
  }

 protected:
  // The layers again, in double: every squeeze map and every module's output.
  void check(ResultCheck& c) const override {
    const uint64_t hw = uint64_t{h_} * h_;
    std::map<std::string, std::vector<double>> maps{{"input", std::vector<double>(in_->begin(), in_->end())}};
    for (const Conv& cv : convs_) {
      const std::vector<double> res = run<double>(cv, maps.at(cv.in));
      auto& out = maps[cv.out];
      out.resize(std::max<uint64_t>(out.size(), (cv.out_off + cv.out_ch) * hw));
      std::copy(res.begin(), res.end(), out.begin() + static_cast<std::ptrdiff_t>(cv.out_off * hw));
    }
    for (uint32_t f = 2; f < fires_ + 2; ++f) {
      const std::string fire = "fire" + std::to_string(f);
      c.close(fire + "_squeeze", maps.at(fire + "_squeeze"), 1e-4, 1e-4);
      c.close(fire, maps.at(fire), 1e-4, 1e-4);
    }
  }

 private:
  // The convolution's weights and biases, scaled for outputs of about unit variance.
  static Conv weights(Rng& rng, Conv c) {
    const float a = std::sqrt(6.0f / static_cast<float>(c.in_ch * c.k * c.k));
    c.w = share(uniform_floats(rng, uint64_t{c.out_ch} * c.in_ch * c.k * c.k, -a, a));
    c.b = share(uniform_floats(rng, c.out_ch, -0.1f, 0.1f));
    return c;
  }
  // One convolution with ReLU, out[oc][y][x] for oc < out_ch; in float, the kernel's order (fma).
  template <typename T = float>
  std::vector<T> run(const Conv& c, const std::vector<T>& in) const {
    const uint64_t hw = uint64_t{h_} * h_;
    const int h = static_cast<int>(h_), pad = static_cast<int>(c.k / 2);
    std::vector<T> out(c.out_ch * hw);
    for (uint64_t oc = 0; oc < c.out_ch; ++oc) {
      for (uint64_t p = 0; p < hw; ++p) {
        const int y = static_cast<int>(p) / h, x = static_cast<int>(p) % h;
        T acc = (*c.b)[oc];
        for (uint64_t ic = 0; ic < c.in_ch; ++ic) {
          for (int ky = -pad; ky <= pad; ++ky) {
            for (int kx = -pad; kx <= pad; ++kx) {
              if (y + ky < 0 || y + ky >= h || x + kx < 0 || x + kx >= h) continue;
              const T wv = (*c.w)[((oc * c.in_ch + ic) * c.k + static_cast<uint32_t>(ky + pad)) * c.k +
                                  static_cast<uint32_t>(kx + pad)];
              acc = std::fma(wv, in[ic * hw + static_cast<uint64_t>((y + ky) * h + x + kx)], acc);
            }
          }
        }
        out[oc * hw + p] = std::max(acc, T(0));
      }
    }
    return out;
  }

  uint32_t h_ = 0, fires_ = 0, sq_ = 0, ex_ = 0;
  Shared<float> in_;
  std::vector<Conv> convs_;
};

}  // namespace

std::unique_ptr<Workload> make_sqn() { return std::make_unique<Sqn>(); }

}  // namespace l1d::sim::wl
