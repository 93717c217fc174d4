// backprop (BP, Rodinia back propagation): one training step of a net with n input units, 16
// hidden units and one output; weights w[i][j] (input i = 0..n, i = 0 the bias; hidden j = 1..16)
// row-major, (n+1) x 17 floats, as in Rodinia. Two kernels on 16 x 16 CTAs, one per 16 inputs
// (threadIdx.x = tx: hidden unit tx+1, threadIdx.y = ty: input i = 16*cta + ty + 1; a warp covers
// two rows of 16 weights, 68 B apart):
//   bpnn_layerforward_CUDA: if (tx == 0) load input[i]; load w[i][tx+1]; product in shared
//     memory; 4-step tree sum over ty (barriers); store the tile back to w (Rodinia does);
//     if (tx == 0) hidden_partial_sum[16*cta + ty] = sum over the CTA's inputs for hidden ty+1
//   host, as Rodinia's CPU part: hidden = sigmoid(sum of partial sums + bias weight), the
//     output unit, its delta (target 0.1) and the hidden deltas (written at init, "hidden_delta")
//   bpnn_adjust_weights_cuda: d = 0.3 * delta[tx+1] * input[i] + 0.3 * prev_w[i][tx+1];
//     w[i][tx+1] += d; prev_w[i][tx+1] = d; CTA 0's ty == 0 threads also update the bias row
// Rodinia copies the original weights to the device again before adjust_weights: here that copy
// is its own region ("input_weights"; "input_hidden" is layerforward's). Shared memory is not
// modelled: its work is ALU instructions between the barriers. Weights are scaled by 3 / sqrt(n)
// (Rodinia's [0, 1) saturates the sigmoids at this n, which makes every delta 0). Regular.
#include <bit>
#include <cmath>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kHid = 16, kTile = 16, kCols = kHid + 1;  // Rodinia's hid, HEIGHT / WIDTH
constexpr float kEta = 0.3f, kMomentum = 0.3f, kTarget = 0.1f;

class Backprop final : public GeneratedWorkload {
 public:
  std::string name() const override { return "backprop"; }
  std::string description() const override { return "Rodinia back propagation: layerforward, adjust_weights"; }
  WorkloadInfo info() const override {
    return {false, false, "Rodinia (BP)", n_ ? std::to_string(n_) + " inputs x 16 hidden units, 1 output" : "", ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t n = by_scale(scale, 1440u, 16384u, 65536u), blocks = n / kTile;  // test: 90 CTAs, gtx480 full
    Rng rng(mix_seed(seed, "backprop"));
    std::vector<float> in = uniform_floats(rng, n + 1);
    in[0] = 1.0f;  // the bias unit
    const float scale_w = 3.0f / std::sqrt(static_cast<float>(n));
    std::vector<float> w = uniform_floats(rng, uint64_t{n + 1} * kCols, -scale_w, scale_w);
    std::vector<float> who = uniform_floats(rng, kCols);  // hidden -> output weights (0: bias)
    n_ = n, in_ = share(in), w_ = share(w), who_ = share(who);

    // layerforward: the products, each CTA's tree over ty, and its column sums.
    std::vector<float> tree = w, psum(uint64_t{blocks} * kHid);
    for (uint64_t b = 0; b < blocks; ++b) {
      for (uint64_t j = 1; j < kCols; ++j) {
        const auto e = [&](uint64_t ty) { return (b * kTile + ty + 1) * kCols + j; };
        for (uint64_t ty = 0; ty < kTile; ++ty) tree[e(ty)] = w[e(ty)] * in[b * kTile + ty + 1];
        for (uint64_t p = 2; p <= kTile; p *= 2) {
          for (uint64_t ty = 0; ty < kTile; ty += p) tree[e(ty)] += tree[e(ty + p / 2)];
        }
        psum[b * kHid + j - 1] = tree[e(0)];
      }
    }
    // The host part: hidden and output units, deltas.
    std::vector<float> hidden(kCols, 1.0f), delta(kCols, 0.0f);
    for (uint64_t j = 1; j < kCols; ++j) {
      float sum = 0.0f;
      for (uint64_t b = 0; b < blocks; ++b) sum += psum[b * kHid + j - 1];
      hidden[j] = 1.0f / (1.0f + std::exp(-(sum + w[j])));
    }
    float out = 0.0f;
    for (uint64_t j = 0; j < kCols; ++j) out += who[j] * hidden[j];
    out = 1.0f / (1.0f + std::exp(-out));
    const float out_delta = out * (1.0f - out) * (kTarget - out);
    for (uint64_t j = 1; j < kCols; ++j) delta[j] = hidden[j] * (1.0f - hidden[j]) * out_delta * who[j];
    // adjust_weights (the previous weight changes start at 0, as in Rodinia).
    std::vector<float> adj = w, prev(w.size(), 0.0f);
    for (uint64_t i = 0; i <= n; ++i) {
      for (uint64_t j = 1; j < kCols; ++j) {
        prev[i * kCols + j] = kEta * delta[j] * in[i] + kMomentum * prev[i * kCols + j];
        adj[i * kCols + j] += prev[i * kCols + j];
      }
    }
    auto tree_s = share(tree), psum_s = share(psum), adj_s = share(adj), prev_s = share(prev);

    const Addr in_base = layout_.array(mem, "input", in), fw_base = layout_.array(mem, "input_hidden", w);
    const Addr ps_base = layout_.array(mem, "hidden_partial_sum", std::vector<float>(psum.size(), 0.0f));
    const Addr d_base = layout_.array(mem, "hidden_delta", delta), w_base = layout_.array(mem, "input_weights", w);
    const Addr pw_base = layout_.array(mem, "input_prev_weights", std::vector<float>(w.size(), 0.0f));
    // Thread (tx, ty) of a 16 x 16 CTA.
    const auto tx = [](const WarpCoords& c, uint32_t l) { return uint64_t{c.thread_in_cta(l) % kTile}; };
    const auto ty = [](const WarpCoords& c, uint32_t l) { return uint64_t{c.thread_in_cta(l) / kTile}; };
    const auto row = [=](const WarpCoords& c, uint32_t l) { return uint64_t{c.cta} * kTile + ty(c, l) + 1; };
    const auto idx = [=](const WarpCoords& c, uint32_t l) { return row(c, l) * kCols + tx(c, l) + 1; };

    KernelCode k1(kFirstKernelPc);
    const StaticOp f_idx = k1.alu(kLatIntMad), f_idx_in = k1.alu(kLatIntMad), f_test = k1.alu(kLatInt);
    const StaticOp f_ldin = k1.load(4), f_bar1 = k1.barrier(), f_ldw = k1.load(4), f_bar2 = k1.barrier();
    const StaticOp f_mul = k1.alu(kLatFp), f_bar3 = k1.barrier(), f_add = k1.alu(kLatFp), f_bar4 = k1.barrier();
    const StaticOp f_loop = k1.alu(kLatInt), f_stw = k1.store(4), f_bar5 = k1.barrier(), f_stps = k1.store(4);
    const StaticOp f_exit = k1.exit();
    add_kernel(
        "bpnn_layerforward_CUDA", uint64_t{blocks} * kTile * kTile,
        [=](WarpStream& s, const WarpCoords& c) {
          const uint32_t all = c.mask_below(UINT64_MAX);
          const uint32_t tx0 = lanes_where(all, [&](uint32_t l) { return tx(c, l) == 0; });
          s.alu(f_idx, all);
          s.alu(f_idx_in, all);
          s.alu(f_test, all);
          s.load(f_ldin, tx0, [&](uint32_t l) { return in_base + 4 * row(c, l); });
          s.barrier(f_bar1);
          s.load(f_ldw, all, [&](uint32_t l) { return fw_base + 4 * idx(c, l); });
          s.barrier(f_bar2);
          s.alu(f_mul, all);
          s.barrier(f_bar3);
          for (uint64_t p = 2; p <= kTile; p *= 2) {
            s.alu(f_add, lanes_where(all, [&](uint32_t l) { return ty(c, l) % p == 0; }));
            s.barrier(f_bar4);
            s.alu(f_loop, all);
          }
          s.store(f_stw, all,
                  [&](uint32_t l) { return LaneWrite{fw_base + 4 * idx(c, l), bits((*tree_s)[idx(c, l)])}; });
          s.barrier(f_bar5);
          s.store(f_stps, tx0, [&](uint32_t l) {
            const uint64_t e = uint64_t{c.cta} * kHid + ty(c, l);
            return LaneWrite{ps_base + 4 * e, bits((*psum_s)[e])};
          });
          s.exit(f_exit);
        },
        kTile * kTile);

    KernelCode k2 = k1.next_kernel();
    const StaticOp a_idx = k2.alu(kLatIntMad), a_idx_y = k2.alu(kLatIntMad), a_ldd = k2.load(4), a_ldy = k2.load(4);
    const StaticOp a_ldo = k2.load(4), a_mul = k2.alu(kLatFp), a_fma = k2.alu(kLatFma), a_ldw = k2.load(4);
    const StaticOp a_add = k2.alu(kLatFp), a_stw = k2.store(4), a_ldd2 = k2.load(4), a_ldy2 = k2.load(4);
    const StaticOp a_ldo2 = k2.load(4), a_mul2 = k2.alu(kLatFp), a_fma2 = k2.alu(kLatFma), a_sto = k2.store(4);
    const StaticOp a_bar = k2.barrier(), a_test = k2.alu(kLatInt), b_ldd = k2.load(4), b_ldo = k2.load(4);
    const StaticOp b_fma = k2.alu(kLatFma), b_ldw = k2.load(4), b_add = k2.alu(kLatFp), b_stw = k2.store(4);
    const StaticOp b_ldd2 = k2.load(4), b_ldo2 = k2.load(4), b_fma2 = k2.alu(kLatFma), b_sto = k2.store(4);
    const StaticOp a_exit = k2.exit();
    add_kernel(
        "bpnn_adjust_weights_cuda", uint64_t{blocks} * kTile * kTile,
        [=](WarpStream& s, const WarpCoords& c) {
          const uint32_t all = c.mask_below(UINT64_MAX);
          const auto at = [&](Addr base, uint32_t l) { return base + 4 * idx(c, l); };
          s.alu(a_idx, all);
          s.alu(a_idx_y, all);
          s.load(a_ldd, all, [&](uint32_t l) { return d_base + 4 * (tx(c, l) + 1); });
          s.load(a_ldy, all, [&](uint32_t l) { return in_base + 4 * row(c, l); });
          s.load(a_ldo, all, [&](uint32_t l) { return at(pw_base, l); });
          s.alu(a_mul, all);
          s.alu(a_fma, all);
          s.load(a_ldw, all, [&](uint32_t l) { return at(w_base, l); });
          s.alu(a_add, all);
          s.store(a_stw, all, [&](uint32_t l) { return LaneWrite{at(w_base, l), bits((*adj_s)[idx(c, l)])}; });
          s.load(a_ldd2, all, [&](uint32_t l) { return d_base + 4 * (tx(c, l) + 1); });
          s.load(a_ldy2, all, [&](uint32_t l) { return in_base + 4 * row(c, l); });
          s.load(a_ldo2, all, [&](uint32_t l) { return at(pw_base, l); });
          s.alu(a_mul2, all);
          s.alu(a_fma2, all);
          s.store(a_sto, all, [&](uint32_t l) { return LaneWrite{at(pw_base, l), bits((*prev_s)[idx(c, l)])}; });
          s.barrier(a_bar);
          s.alu(a_test, all);
          // The bias row: w[0][tx+1] (ly[0] = 1), by CTA 0's ty == 0 threads.
          const uint32_t bias = lanes_where(all, [&](uint32_t l) { return c.cta == 0 && ty(c, l) == 0; });
          const auto at0 = [&](Addr base, uint32_t l) { return base + 4 * (tx(c, l) + 1); };
          s.load(b_ldd, bias, [&](uint32_t l) { return at0(d_base, l); });
          s.load(b_ldo, bias, [&](uint32_t l) { return at0(pw_base, l); });
          s.alu(b_fma, bias);
          s.load(b_ldw, bias, [&](uint32_t l) { return at0(w_base, l); });
          s.alu(b_add, bias);
          s.store(b_stw, bias, [&](uint32_t l) { return LaneWrite{at0(w_base, l), bits((*adj_s)[tx(c, l) + 1])}; });
          s.load(b_ldd2, bias, [&](uint32_t l) { return at0(d_base, l); });
          s.load(b_ldo2, bias, [&](uint32_t l) { return at0(pw_base, l); });
          s.alu(b_fma2, bias);
          s.store(b_sto, bias, [&](uint32_t l) { return LaneWrite{at0(pw_base, l), bits((*prev_s)[tx(c, l) + 1])}; });
          s.exit(a_exit);
        },
        kTile * kTile);
  }

 protected:
  // The forward pass, the deltas and the weight update in double.
  void check(ResultCheck& c) const override {
    const uint64_t n = n_, blocks = n / kTile;
    const auto& in = *in_;
    const std::vector<double> w(w_->begin(), w_->end());
    std::vector<double> tree = w, psum(blocks * kHid);
    for (uint64_t b = 0; b < blocks; ++b) {
      for (uint64_t j = 1; j < kCols; ++j) {
        // After the tree, row ty holds the products of rows ty .. ty + span - 1, span = the
        // lowest set bit of ty (16 for ty = 0).
        for (uint64_t ty = 0; ty < kTile; ++ty) {
          const uint64_t span = ty == 0 ? kTile : uint64_t{1} << std::countr_zero(ty);
          double s = 0.0;
          for (uint64_t r = ty; r < ty + span; ++r) s += w[(b * kTile + r + 1) * kCols + j] * in[b * kTile + r + 1];
          tree[(b * kTile + ty + 1) * kCols + j] = s;
        }
        psum[b * kHid + j - 1] = tree[(b * kTile + 1) * kCols + j];
      }
    }
    std::vector<double> hidden(kCols, 1.0), delta(kCols, 0.0);
    for (uint64_t j = 1; j < kCols; ++j) {
      double sum = w[j];
      for (uint64_t b = 0; b < blocks; ++b) sum += psum[b * kHid + j - 1];
      hidden[j] = 1.0 / (1.0 + std::exp(-sum));
    }
    double out = 0.0;
    for (uint64_t j = 0; j < kCols; ++j) out += (*who_)[j] * hidden[j];
    out = 1.0 / (1.0 + std::exp(-out));
    const double out_delta = out * (1.0 - out) * (kTarget - out);
    for (uint64_t j = 1; j < kCols; ++j) delta[j] = hidden[j] * (1.0 - hidden[j]) * out_delta * (*who_)[j];
    std::vector<double> adj = w, prev(w.size(), 0.0);
    for (uint64_t i = 0; i <= n; ++i) {
      for (uint64_t j = 1; j < kCols; ++j) {
        prev[i * kCols + j] = double{kEta} * delta[j] * in[i];
        adj[i * kCols + j] += prev[i * kCols + j];
      }
    }
    c.close("hidden_partial_sum", psum, 1e-4, 1e-7);
    c.close("input_hidden", tree, 1e-4, 1e-7);
    c.close("input_weights", adj, 1e-4, 1e-7);
    c.close("input_prev_weights", prev, 1e-4, 1e-7);
  }

 private:
  uint32_t n_ = 0;
  Shared<float> in_, w_, who_;
};

}  // namespace

std::unique_ptr<Workload> make_backprop() { return std::make_unique<Backprop>(); }

}  // namespace l1d::sim::wl
