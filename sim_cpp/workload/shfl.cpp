// shfl (SHFL, CUDA SDK 8.0 shfl_scan): inclusive prefix sum of n ints in CTAs of 256 threads,
// as the sample's two kernels:
//   shfl_scan_test: v = data[id]; warp scan of v by 5 __shfl_up steps (if (lane >= i) v += n);
//     lane 31 puts the warp's sum in shared memory; barrier; warp 0 scans the 8 warp sums the
//     same way; barrier; v += the sum of the warps before; data[id] = v; the CTA's last thread
//     stores partial_sums[blockIdx.x] = v
//   uniform_add (CTAs 1..B-1): thread 0 loads partial_sums[blockIdx.x - 1] into shared memory;
//     barrier; data[id] += it
// The block sums are scanned by the same kernel, recursively until one CTA holds them (the
// sample's 65536 ints need one level; larger n more), then each level adds its scanned sums.
// A shuffle and the shared-memory accesses are ALU instructions (not modelled); the loads and
// stores of data and partial_sums are coalesced. Regular.
#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kWarps = kCtaThreads / kWarpSize;  // 8 warps per CTA

// Inclusive scan.
std::vector<int32_t> scanned(const std::vector<int32_t>& v) {
  std::vector<int32_t> s(v.size());
  int32_t sum = 0;
  for (size_t i = 0; i < v.size(); ++i) s[i] = sum += v[i];
  return s;
}

// The sum of each CTA's elements.
std::vector<int32_t> block_sums(const std::vector<int32_t>& v) {
  std::vector<int32_t> sums((v.size() + kCtaThreads - 1) / kCtaThreads, 0);
  for (size_t i = 0; i < v.size(); ++i) sums[i / kCtaThreads] += v[i];
  return sums;
}

class Shfl final : public GeneratedWorkload {
 public:
  std::string name() const override { return "shfl"; }
  std::string description() const override { return "CUDA SDK shfl_scan: warp-shuffle prefix sum, block sums added"; }
  WorkloadInfo info() const override {
    return {false, false, "CUDA SDK 8.0 (SHFL)", in_ ? std::to_string(in_->size()) + " ints" : "", ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    // paper: the sample's own input (shfl_scan.cu, shuffle_simple_test: n_elements = 65536), the
    // SDK 8.0 SHFL the two-level paper runs (its section 4).
    const uint32_t n = by_scale(scale, 1u << 13, 1u << 18, 1u << 22, 1u << 16);
    Rng rng(mix_seed(seed, "shfl"));
    std::vector<int32_t> in(n);
    for (int32_t& x : in) x = static_cast<int32_t>(rng.below(16));
    in_ = share(in);
    // Level l scans len[l] elements in CTAs of 256; its block sums are level l+1's input.
    std::vector<std::vector<int32_t>> level{in};
    while (level.back().size() > kCtaThreads) level.push_back(block_sums(level.back()));
    levels_ = static_cast<uint32_t>(level.size());
    std::vector<Addr> base{layout_.array(mem, "data", in)};
    for (uint32_t l = 1; l < levels_; ++l)
      base.push_back(layout_.array(mem, "partial_sums" + std::to_string(l), std::vector<int32_t>(level[l].size(), 0)));

    KernelCode k1(kFirstKernelPc);
    const StaticOp s_tid = k1.alu(kLatIntMad), s_ld = k1.load(4), s_shfl = k1.alu(kLatInt), s_add = k1.alu(kLatInt);
    const StaticOp s_put = k1.alu(kLatInt), s_bar1 = k1.barrier(), s_get = k1.alu(kLatInt), s_wshfl = k1.alu(kLatInt);
    const StaticOp s_wadd = k1.alu(kLatInt), s_wput = k1.alu(kLatInt), s_bar2 = k1.barrier(), s_sum = k1.alu(kLatInt);
    const StaticOp s_addsum = k1.alu(kLatInt), s_st = k1.store(4), s_test = k1.alu(kLatInt), s_stp = k1.store(4);
    const StaticOp s_exit = k1.exit();
    KernelCode k2 = k1.next_kernel();
    const StaticOp u_tid = k2.alu(kLatIntMad), u_ldp = k2.load(4), u_bar = k2.barrier(), u_ld = k2.load(4);
    const StaticOp u_add = k2.alu(kLatInt), u_st = k2.store(4), u_exit = k2.exit();

    // Scans: level 0 first, then its block sums, ...; each stores the block-local scan.
    for (uint32_t l = 0; l < levels_; ++l) {
      const auto& v = level[l];
      const uint64_t len = v.size(), blocks = (len + kCtaThreads - 1) / kCtaThreads;
      std::vector<int32_t> local(len);
      for (uint64_t i = 0; i < len; ++i) local[i] = v[i] + (i % kCtaThreads ? local[i - 1] : 0);
      auto out = share(local);
      const Addr data = base[l], partial = l + 1 < levels_ ? base[l + 1] : 0;
      add_kernel("shfl_scan_test", blocks * kCtaThreads, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(len);
        const auto id = [&](uint32_t lane) { return w.global_id(lane); };
        s.alu(s_tid, kFullMask);
        s.load(s_ld, m, [&](uint32_t lane) { return data + 4 * id(lane); });
        for (uint32_t i = 1; i < kWarpSize; i *= 2) {  // __shfl_up(v, i), if (lane >= i) v += n
          s.alu(s_shfl, kFullMask);
          s.alu(s_add, lanes_where(kFullMask, [&](uint32_t lane) { return lane >= i; }));
        }
        s.alu(s_put, 1u << (kWarpSize - 1));  // sums[warp_id] = v
        s.barrier(s_bar1);
        if (w.warp == 0) {  // warp 0 scans the warp sums
          const uint32_t sm = (1u << kWarps) - 1;
          s.alu(s_get, sm);
          for (uint32_t i = 1; i < kWarps; i *= 2) {
            s.alu(s_wshfl, sm);
            s.alu(s_wadd, lanes_where(sm, [&](uint32_t lane) { return lane >= i; }));
          }
          s.alu(s_wput, sm);
        }
        s.barrier(s_bar2);
        if (w.warp > 0) s.alu(s_sum, kFullMask);  // blockSum = sums[warp_id - 1]
        s.alu(s_addsum, kFullMask);
        s.store(s_st, m, [&](uint32_t lane) { return LaneWrite{data + 4 * id(lane), bits((*out)[id(lane)])}; });
        s.alu(s_test, kFullMask);
        if (partial != 0 && w.warp == kWarps - 1) {
          s.store(s_stp, m & (1u << (kWarpSize - 1)), [&](uint32_t lane) {
            return LaneWrite{partial + 4 * uint64_t{w.cta}, bits((*out)[id(lane)])};
          });
        }
        s.exit(s_exit);
      });
    }
    // Uniform adds, top level down: CTA b adds the scanned sums of blocks 0..b to block b+1.
    for (uint32_t l = levels_ - 1; l-- > 0;) {
      const uint64_t len = level[l].size(), blocks = (len + kCtaThreads - 1) / kCtaThreads;
      auto out = share(scanned(level[l]));
      const Addr data = base[l], partial = base[l + 1];
      add_kernel("uniform_add", (blocks - 1) * kCtaThreads, [=](WarpStream& s, const WarpCoords& w) {
        const auto id = [&](uint32_t lane) { return w.global_id(lane) + kCtaThreads; };
        const uint32_t m = lanes_where(kFullMask, [&](uint32_t lane) { return id(lane) < len; });
        s.alu(u_tid, kFullMask);
        if (w.warp == 0) s.load(u_ldp, 1u, [&](uint32_t) { return partial + 4 * uint64_t{w.cta}; });
        s.barrier(u_bar);
        s.load(u_ld, m, [&](uint32_t lane) { return data + 4 * id(lane); });
        s.alu(u_add, m);
        s.store(u_st, m, [&](uint32_t lane) { return LaneWrite{data + 4 * id(lane), bits((*out)[id(lane)])}; });
        s.exit(u_exit);
      });
    }
  }

 protected:
  // Every level holds the inclusive scan of its input: the data, and each level's block sums.
  void check(ResultCheck& c) const override {
    std::vector<int32_t> v = *in_;
    for (uint32_t l = 0; l < levels_; ++l) {
      c.exact(l == 0 ? "data" : "partial_sums" + std::to_string(l), scanned(v));
      v = block_sums(v);
    }
  }

 private:
  uint32_t levels_ = 0;
  Shared<int32_t> in_;
};

}  // namespace

std::unique_ptr<Workload> make_shfl() { return std::make_unique<Shfl>(); }

}  // namespace l1d::sim::wl
