// shfl (SHFL, CUDA SDK 8.0 shfl_scan): the sample's two tests, as its main() runs them.
// 1. shuffle_simple_test: inclusive prefix sum of n ints in CTAs of 256 threads, two kernels:
//   shfl_scan_test: v = data[id]; warp scan of v by 5 __shfl_up steps (if (lane >= i) v += n);
//     lane 31 puts the warp's sum in shared memory; barrier; warp 0 scans the 8 warp sums the
//     same way; barrier; v += the sum of the warps before; data[id] = v; the CTA's last thread
//     stores partial_sums[blockIdx.x] = v
//   uniform_add (CTAs 1..B-1): thread 0 loads partial_sums[blockIdx.x - 1] into shared memory;
//     barrier; data[id] += it
// The block sums are scanned by the same kernel, recursively until one CTA holds them (the
// sample's 65536 ints need one level; larger n more), then each level adds its scanned sums.
// 2. shuffle_integral_image_test: the integral image of a 1920-pixel-wide greyscale image of h
//    rows (the sample: 1080; its image is cudaMemset to 1 in every byte, and so is ours), two
//    kernels (shfl_integral_image.cuh):
//   shfl_intimage_rows: a CTA of 120 threads per row (4 warps, the last of 24 lanes); thread t
//     loads the row's pixels 16t..16t+15 as one uint4 (16 B per lane), scans them in registers,
//     scans the 16-pixel sums across the CTA (__shfl_up, shared memory) and writes its 16 ints
//     of the row's prefix sums as four uint4 stores, reordered by __shfl_xor so that the 4
//     threads t = 4g..4g+3 write uint4s 16g + {t%4, (t+2)%4 + 8, t%4 + 4, (t+2)%4 + 12}: each
//     store instruction of a warp touches 64 B in each of 8 lines;
//   shfl_vertical_shfl: 1920 / 32 = 60 CTAs of 32 x 8 threads; thread (x, y) walks its column
//     down in h / 8 steps (the sample hard-codes 135 = 1080 / 8): load the int of row
//     y + 8 * step, column sums of the 8 rows in shared memory (3 barriers), store it back.
//     Small on qv100 / a100 (the sample's 1080 rows) walks the first 64 rows only (8 steps), to
//     stay under small's 1 M warp instructions; the rows below keep the row sums (and the check
//     expects them).
// A shuffle and the shared-memory accesses are ALU instructions (not modelled); the loads and
// stores of data, partial_sums, the image and the integral image are the sample's, at their
// widths (the uint4 accesses 16 B per lane). Regular.
#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kWarps = kCtaThreads / kWarpSize;  // 8 warps per CTA

// The integral image (shfl_integral_image.cuh and shuffle_integral_image_test): the kernels
// hard-code a 1920-pixel row (120 uint4 of pixels in, 480 uint4 of sums out) and 8-row steps.
constexpr uint32_t kImageWidth = 1920;
constexpr uint32_t kRowThreads = kImageWidth / 16;  // 16 pixels per thread
constexpr uint32_t kColumnRows = 8;                 // blockDim.y of shfl_vertical_shfl
constexpr uint32_t kColumnThreads = kWarpSize * kColumnRows;
// The sample's inputs, fixed in its source: shuffle_simple_test's n_elements = 65536 (grids of
// 65536 / 256 = 256 and 255 CTAs) and shuffle_integral_image_test's h = 1080 rows (a CTA each).
constexpr uint32_t kSampleInts = 1u << 16;
constexpr uint32_t kSampleRows = 1080;
// The rows shfl_vertical_shfl walks at small on a device that runs the sample's 1080 rows (issue
// 21: qv100, a100): 8 steps of 8 rows.
constexpr uint32_t kGrownWalkRows = 64;

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
    return {false, false, "CUDA SDK 8.0 (SHFL)",
            in_ ? std::to_string(in_->size()) + " ints; a " + std::to_string(kImageWidth) + " x " +
                      std::to_string(rows_) + " integral image" +
                      (walk_rows_ < rows_ ? ", columns summed down its first " + std::to_string(walk_rows_) + " rows"
                                          : std::string())
                : "",
            ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    // paper: the sample's own input (shfl_scan.cu, shuffle_simple_test: n_elements = 65536), the
    // SDK 8.0 SHFL the two-level paper runs (its section 4). Small runs it too (256 CTAs fill
    // gtx480; 2^18 before the integral image was modelled, whose kernels now take most of small's
    // 0.5 M warp instructions).
    const uint32_t n = by_scale(scale, 1u << 13, 1u << 16, 1u << 22, 1u << 16);
    // The image's rows (shuffle_integral_image_test: h = 1080 at full and paper). small and test
    // run fewer rows, i.e. fewer steps of the column walk: 240 rows are still 240 CTAs of the rows
    // kernel (gtx480 holds 180 of 4 warps), and the column kernel's 60 CTAs are the sample's own grid
    // at any height (width / 32).
    rows_ = by_scale(scale, 8u, 240u, kSampleRows);
    // On a device with more 4-warp CTA slots than small's 240 rows (issue 21: qv100 80 x 16 = 1280,
    // a100 108 x 16 = 1728; gtx480 15 x 12 = 180), small runs the sample's 1080 rows, its
    // shfl_intimage_rows grid (declared below); the two scan kernels launch the sample's grids.
    // Its column kernel then walks only the first kGrownWalkRows rows (8 of the sample's 135 steps, a
    // shorter per-thread loop over its own 60 CTAs): the 1080 rows' walk, 1.3 M warp instructions,
    // put small at 2.09 M, over its 1 M ceiling; the rows kernel alone is 0.81 M (1080 CTAs of
    // 4 warps, about 188 instructions a warp, none of them a loop to shorten). The rows below
    // keep the rows kernel's row sums.
    walk_rows_ = rows_;
    if (scale == WorkloadScale::kSmall && fill_ctas((kRowThreads + kWarpSize - 1) / kWarpSize) > rows_) {
      rows_ = kSampleRows;
      walk_rows_ = kGrownWalkRows;
    }
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
      // The sample scans its 256 block sums in one CTA: p_blockSize = min(n_partialSums = 65536 /
      // 256, 256) = 256, p_gridSize = iDivUp(256, 256) = 1.
      if (l == 0)
        published(kSampleInts / kCtaThreads,
                  "CUDA SDK 8.0 shfl_scan.cu, shuffle_simple_test: shfl_scan_test<<<gridSize = n_elements / "
                  "blockSize = 65536 / 256 = 256, 256>>>");
      if (l > 0 && blocks == 1)
        published(1, "CUDA SDK 8.0 shfl_scan.cu at 65536 ints: the block sums' scan, shfl_scan_test<<<"
                     "iDivUp(256, min(256, 256)) = 1, 256>>>");
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
      if (l == 0)
        published(kSampleInts / kCtaThreads - 1,
                  "CUDA SDK 8.0 shfl_scan.cu, shuffle_simple_test: uniform_add<<<gridSize - 1 = 255, 256>>>");
    }
    add_integral_image(mem, k2.next_kernel());
  }

 protected:
  // Every level holds the inclusive scan of its input: the data, and each level's block sums.
  void check(ResultCheck& c) const override {
    std::vector<int32_t> v = *in_;
    for (uint32_t l = 0; l < levels_; ++l) {
      c.exact(l == 0 ? "data" : "partial_sums" + std::to_string(l), scanned(v));
      v = block_sums(v);
    }
    c.exact("integral_image", integral_image(pixels_, walk_rows_));
  }

 private:
  // Prefix sums of the image's rows (across = true) or of a row-sum image's columns, the latter
  // down the first `rows` rows only (the column kernel's walk; the rows below keep their values).
  static std::vector<uint32_t> prefix_sums(const std::vector<uint32_t>& v, bool across, uint64_t rows = 0) {
    std::vector<uint32_t> s(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      const bool first = across ? i % kImageWidth == 0 : (i < kImageWidth || i >= rows * kImageWidth);
      s[i] = v[i] + (first ? 0 : s[i - (across ? 1 : kImageWidth)]);
    }
    return s;
  }
  // The integral image as the two kernels leave it: every row's prefix sums, then the column sums
  // of the first walk_rows rows.
  static std::vector<uint32_t> integral_image(const std::vector<uint8_t>& pixels, uint32_t walk_rows) {
    return prefix_sums(prefix_sums(std::vector<uint32_t>(pixels.begin(), pixels.end()), true), false, walk_rows);
  }

  void add_integral_image(FunctionalMemory& mem, KernelCode k3) {
    const uint32_t rows = rows_, walk_rows = walk_rows_;
    // cudaMemset(d_data, 1, sz): every pixel 1 (which also keeps the sample's int_to_uchar4, whose
    // masks without parentheses read every byte of an int as its low byte, exact).
    pixels_ = std::vector<uint8_t>(uint64_t{rows} * kImageWidth, 1);
    const Addr img = layout_.array(mem, "image", pixels_);
    const Addr out = layout_.array(mem, "integral_image", std::vector<uint32_t>(pixels_.size(), 0));
    const auto row_sums = share(prefix_sums(std::vector<uint32_t>(pixels_.begin(), pixels_.end()), true));
    const auto sums = share(integral_image(pixels_, walk_rows));

    // shfl_intimage_rows. Thread t's 16 sums in registers: 16 adds, 12 to fold the 4-pixel groups;
    // per __shfl_up step one shuffle and 17 adds (result[0..15], sum) where lane >= i.
    const StaticOp r_tid = k3.alu(kLatIntMad), r_ld = k3.load(16), r_unpack = k3.alu(kLatInt);
    const StaticOp r_fold = k3.alu(kLatInt), r_shfl = k3.alu(kLatInt), r_add = k3.alu(kLatInt);
    const StaticOp r_put = k3.alu(kLatInt), r_bar1 = k3.barrier(), r_get = k3.alu(kLatInt);
    const StaticOp r_wshfl = k3.alu(kLatInt), r_wadd = k3.alu(kLatInt), r_wput = k3.alu(kLatInt);
    const StaticOp r_bar2 = k3.barrier(), r_sum = k3.alu(kLatInt), r_addsum = k3.alu(kLatInt);
    const StaticOp r_xor = k3.alu(kLatInt), r_sel = k3.alu(kLatInt), r_st = k3.store(16), r_exit = k3.exit();
    constexpr uint32_t kSums = 16;
    add_kernel(
        "shfl_intimage_rows", uint64_t{rows} * kRowThreads,
        [=](WarpStream& s, const WarpCoords& w) {
          const uint32_t m = w.mask_below(UINT64_MAX), row = w.cta;
          s.alu(r_tid, m);
          s.load(r_ld, m, [&](uint32_t lane) {
            return img + 16 * (uint64_t{row} * kRowThreads + w.thread_in_cta(lane));
          });
          for (uint32_t i = 0; i < kSums; ++i) s.alu(r_unpack, m);
          for (uint32_t i = 0; i < 12; ++i) s.alu(r_fold, m);
          for (uint32_t i = 1; i < kWarpSize; i *= 2) {
            s.alu(r_shfl, m);
            const uint32_t up = lanes_where(m, [&](uint32_t lane) { return lane >= i; });
            for (uint32_t j = 0; j <= kSums; ++j) s.alu(r_add, up);
          }
          s.alu(r_put, m & (1u << (kWarpSize - 1)));
          s.barrier(r_bar1);
          if (w.warp == 0) {  // warp 0 scans the warp sums: i = 1 .. 32 as the sample's loop
            s.alu(r_get, m);
            for (uint32_t i = 1; i <= kWarpSize; i *= 2) {
              s.alu(r_wshfl, m);
              s.alu(r_wadd, lanes_where(m, [&](uint32_t lane) { return lane >= i; }));
            }
            s.alu(r_wput, m);
          }
          s.barrier(r_bar2);
          if (w.warp > 0) {
            s.alu(r_sum, m);
            for (uint32_t i = 0; i < kSums; ++i) s.alu(r_addsum, m);
          }
          // Four stores, each after four selects of the uint4 it writes; the first also after 12
          // __shfl_xor (result[4..15]), the third after 16 more (all of result[]), as the sample.
          const uint32_t group_offset[4] = {0, 8, 4, 12};
          for (uint32_t k = 0; k < 4; ++k) {
            const uint32_t xors = k == 0 ? 12 : k == 2 ? 16 : 0;
            for (uint32_t i = 0; i < xors; ++i) s.alu(r_xor, m);
            for (uint32_t i = 0; i < 4; ++i) s.alu(r_sel, m);
            s.store(r_st, m, [&](uint32_t lane) {
              const uint32_t t = w.thread_in_cta(lane), rot = k % 2 == 0 ? t % 4 : (t + 2) % 4;
              const uint32_t q = (t / 4) * 16 + group_offset[k] + rot;  // uint4 index in the row
              const auto sum = [&](uint32_t e) {
                return uint64_t{(*row_sums)[uint64_t{row} * kImageWidth + 4 * q + e]};
              };
              return LaneWrite{out + 16 * (uint64_t{row} * kImageWidth / 4 + q), sum(0) | sum(1) << 32,
                               sum(2) | sum(3) << 32};
            });
          }
          s.exit(r_exit);
        },
        kRowThreads);
    published(kSampleRows,
              "CUDA SDK 8.0 shfl_scan.cu, shuffle_integral_image_test: shfl_intimage_rows<<<h = 1080, 120>>> "
              "(a CTA per row of its 1920 x 1080 image)");

    // shfl_vertical_shfl: warp y of a CTA is the threads of threadIdx.y = y.
    KernelCode k4 = k3.next_kernel();
    const StaticOp v_tid = k4.alu(kLatIntMad), v_zero = k4.alu(kLatInt), v_bar0 = k4.barrier();
    const StaticOp v_addr = k4.alu(kLatIntMad), v_ld = k4.load(4), v_put = k4.alu(kLatInt), v_bar1 = k4.barrier();
    const StaticOp v_get = k4.alu(kLatInt), v_shfl = k4.alu(kLatInt), v_add = k4.alu(kLatInt);
    const StaticOp v_put2 = k4.alu(kLatInt), v_bar2 = k4.barrier(), v_above = k4.alu(kLatInt);
    const StaticOp v_step = k4.alu(kLatInt), v_bar3 = k4.barrier(), v_st = k4.store(4), v_exit = k4.exit();
    add_kernel(
        "shfl_vertical_shfl", uint64_t{kImageWidth / kWarpSize} * kColumnThreads,
        [=](WarpStream& s, const WarpCoords& w) {
          const uint32_t y = w.warp;
          const auto col = [&](uint32_t lane) { return w.cta * kWarpSize + lane; };
          s.alu(v_tid, kFullMask);
          s.alu(v_zero, kFullMask);
          s.barrier(v_bar0);
          for (uint32_t step = 0; step < walk_rows / kColumnRows; ++step) {
            const uint32_t r = y + step * kColumnRows;
            const auto at = [&](uint32_t lane) { return out + 4 * (uint64_t{r} * kImageWidth + col(lane)); };
            s.alu(v_addr, kFullMask);
            s.load(v_ld, kFullMask, at);
            s.alu(v_put, kFullMask);
            s.barrier(v_bar1);
            s.alu(v_get, kFullMask);
            for (uint32_t i = 1; i <= kColumnRows; i *= 2) {  // lane_id = tidx % 8
              s.alu(v_shfl, kFullMask);
              s.alu(v_add, lanes_where(kFullMask, [&](uint32_t lane) { return lane % kColumnRows >= i; }));
            }
            s.alu(v_put2, kFullMask);
            s.barrier(v_bar2);
            if (y > 0) s.alu(v_above, kFullMask);
            s.alu(v_step, kFullMask);
            s.alu(v_step, kFullMask);
            s.barrier(v_bar3);
            s.store(v_st, kFullMask, [&](uint32_t lane) {
              return LaneWrite{at(lane), (*sums)[uint64_t{r} * kImageWidth + col(lane)]};
            });
          }
          s.exit(v_exit);
        },
        kColumnThreads);
    published(kImageWidth / kWarpSize,
              "CUDA SDK 8.0 shfl_scan.cu: shfl_vertical_shfl<<<w / blockSz.x = 1920 / 32 = 60, (32, 8)>>>, at any h");
  }

  uint32_t levels_ = 0;
  uint32_t rows_ = 0, walk_rows_ = 0;
  std::vector<uint8_t> pixels_;
  Shared<int32_t> in_;
};

}  // namespace

std::unique_ptr<Workload> make_shfl() { return std::make_unique<Shfl>(); }

}  // namespace l1d::sim::wl
