// Shared helpers for the generated workloads (one file so that each workload stays short):
//  - Rng: a small seeded generator whose output is the same on every platform;
//  - MemoryLayout: places the workload's arrays at distinct, 256 B aligned bases and writes
//    their initial contents (every byte of a placed region is initialised; a reserved region has
//    only the ranges written into it, e.g. TruncatedMatrix's touched rows and columns);
//  - KernelCode: PC allocation, one PC per static instruction, 8 B apart from a per-kernel base;
//  - WarpCoords: the CTA / warp / lane -> thread index arithmetic of a 1-D launch;
//  - WarpStream: records one warp's instructions (compactly, in windows) for a WarpProgram;
//  - GeneratedKernel / GeneratedWorkload: Kernel and Workload built from a per-warp body.
//
// How a workload uses them: init() generates the inputs, runs the algorithm where later kernels
// need its results (e.g. BFS levels), writes the arrays with MemoryLayout, declares each kernel's
// static instructions with KernelCode (in program order) and adds kernels whose body executes the
// 32 threads of one warp in SIMT fashion: a memory instruction is recorded once with the mask of
// the lanes that execute it; an instruction no lane executes is skipped (the warp branches over it).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim_cpp/workload/workload.h"

namespace l1d::sim::wl {

inline constexpr uint32_t kFullMask = 0xFFFFFFFFu;
inline constexpr uint32_t kCtaThreads = 256;  // default CTA size (8 warps)

// ALU latencies (cycles before a dependent instruction may issue), after GPGPU-Sim's Fermi
// (GTX480) opcode latencies: int add/mul 4, int mad 5, fp add/mul 4, fp fma 5.
inline constexpr uint32_t kLatInt = 4;
inline constexpr uint32_t kLatIntMad = 5;
inline constexpr uint32_t kLatFp = 4;
inline constexpr uint32_t kLatFma = 5;

// PC of a workload's first kernel function; the next ones follow it (KernelCode::next_kernel),
// as the kernels of one module do in GPGPU-Sim, so that kernels do not share PCs.
inline constexpr uint64_t kFirstKernelPc = 0x100;

// The bit patterns stored by a store instruction (value holds the low access_bytes bytes).
inline uint64_t bits(float f) { return std::bit_cast<uint32_t>(f); }
inline uint64_t bits(int32_t i) { return static_cast<uint32_t>(i); }

// splitmix64: deterministic across compilers and standard libraries (unlike <random>'s distributions).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += kStep);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }           // bias < n / 2^64
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  float unitf() { return static_cast<float>(unit()); }
  double normal();  // standard normal (Box-Muller)
  // static_cast<float>(normal() * scale), scale > 0: the same float from the same draws, at
  // about half normal()'s cost (Box-Muller's cos, most of it, by a polynomial; libm's value
  // instead wherever the polynomial's error could move the rounding to float).
  float normal_float(double scale);
  // The value unit() returns n calls from now (unit_at(0) is the next one), without drawing it,
  // and skipping n draws: a workload that fills a large array in order can compute only the
  // elements it touches, with the values a sequential fill gives (TruncatedMatrix).
  double unit_at(uint64_t n) const { return static_cast<double>(Rng(state_ + n * kStep).next() >> 11) * 0x1.0p-53; }
  void discard(uint64_t n) { state_ += n * kStep; }

 private:
  static constexpr uint64_t kStep = 0x9E3779B97F4A7C15ull;
  uint64_t state_;
};

// A seed for one workload: mixes the user's seed with a salt (e.g. the workload name).
uint64_t mix_seed(uint64_t seed, std::string_view salt);

// An array in memory. A region placed with MemoryLayout::place is written whole; one reserved with
// MemoryLayout::reserve has only the byte ranges MemoryLayout::write wrote initialised (`written`,
// sorted, disjoint, not adjacent), e.g. a matrix reserved at its published size of which a
// shortened run touches a few rows and columns (TruncatedMatrix). contains() is true only for
// initialised bytes.
struct Region {
  std::string name;
  Addr base = 0;
  uint64_t bytes = 0;
  uint32_t elem_bytes = 4;
  bool partial = false;                       // reserved: only `written` is initialised
  std::vector<std::pair<Addr, Addr>> written = {};  // [begin, end) address ranges, when partial
  bool contains(Addr a, uint32_t n) const;
  // The initialised [begin, end) ranges: the whole region, or `written`.
  std::vector<std::pair<Addr, Addr>> initialised() const;
  uint64_t initialised_bytes() const;
};

// Arrays at distinct bases (bump allocation from 0x1000'0000, 256 B aligned as cudaMalloc is,
// with a 256 B gap between arrays); all of a region's bytes are written when it is placed.
class MemoryLayout {
 public:
  static constexpr Addr kBase = 0x1000'0000;
  static constexpr Addr kAlign = 256;

  void clear() { regions_.clear(); }
  Addr place(FunctionalMemory& mem, std::string name, const void* data, uint64_t bytes, uint32_t elem_bytes);
  template <typename T>
  Addr array(FunctionalMemory& mem, std::string name, const std::vector<T>& v) {
    return place(mem, std::move(name), v.data(), v.size() * sizeof(T), sizeof(T));
  }
  // Places a region of `bytes` without writing it: only what write() then writes is initialised.
  Addr reserve(std::string name, uint64_t bytes, uint32_t elem_bytes);
  // Writes bytes at a, inside the reserved region `name` (std::out_of_range otherwise), and marks them initialised.
  void write(FunctionalMemory& mem, std::string_view name, Addr a, const void* data, uint64_t bytes);
  const std::vector<Region>& regions() const { return regions_; }
  const Region& region(std::string_view name) const;  // throws std::out_of_range

 private:
  Addr next_base() const;
  std::vector<Region> regions_;
};

// Writes bytes to memory a line at a time (FunctionalMemory::apply_write).
void write_bytes(FunctionalMemory& mem, Addr a, const void* data, uint64_t bytes);

// Register operands for the scoreboard (core.load_wait on_use, WarpInst::regs). A generated
// workload models only the registers loads write, the ones a warp can wait for: each static load
// writes its own register (KernelCode numbers them 1, 2, ... in declaration order, so a loop
// body's load writes the same register every iteration, and the next iteration's copy waits for
// the previous one, WAW, as the loop's SASS would). An instruction says which loads' values it
// reads with reads(); one that does not say waits for every load in flight (all_loads), as under
// on_issue, so that a workload waits less only where its author declared it.
inline constexpr uint32_t kMaxUses = 4;

struct StaticOp {
  OpKind kind = OpKind::kAlu;
  uint64_t pc = 0;
  uint32_t latency = 1;
  uint32_t bytes = 4;
  uint8_t dst = 0;  // a load's register (0: the instruction writes none a load could be pending on)
  bool all_loads = true;
  std::array<uint8_t, kMaxUses> uses{};  // the registers of the loads it reads (0: unused)

  // This instruction reads the values of `loads` (static loads of the same kernel) and nothing
  // else a load writes: it waits only while one of them is in flight; reads({}) waits for none.
  StaticOp reads(std::initializer_list<StaticOp> loads) const;
};

// Hands out PCs in program order: declare a kernel's static instructions once, in code order.
class KernelCode {
 public:
  explicit KernelCode(uint64_t base) : base_(base), next_(base) {}
  StaticOp alu(uint32_t latency) { return take({OpKind::kAlu, 0, latency, 4}); }
  StaticOp load(uint32_t bytes);
  StaticOp store(uint32_t bytes) { return take({OpKind::kStore, 0, 1, bytes}); }
  StaticOp barrier() { return take({OpKind::kBarrier, 0, 1, 4}); }
  StaticOp exit() { return take({OpKind::kExit, 0, 1, 4}); }
  uint64_t base() const { return base_; }
  uint64_t end() const { return next_; }
  // The code of the next kernel function: starts at the first 256 B boundary after this one.
  KernelCode next_kernel() const { return KernelCode((next_ + 0xFF) / 0x100 * 0x100); }

 private:
  StaticOp take(StaticOp op) {
    op.pc = next_;
    next_ += 8;
    return op;
  }
  uint64_t base_;
  uint64_t next_;
  uint32_t loads_ = 0;  // the loads declared so far (their registers are 1..loads_)
};

// Thread indices of one warp of a 1-D launch (blockDim.x = threads_per_cta).
struct WarpCoords {
  uint32_t cta = 0;
  uint32_t warp = 0;  // warp in CTA
  uint32_t threads_per_cta = kCtaThreads;

  uint32_t thread_in_cta(uint32_t lane) const { return warp * kWarpSize + lane; }
  uint64_t global_id(uint32_t lane) const { return uint64_t{cta} * threads_per_cta + thread_in_cta(lane); }
  // Lanes that exist (threadIdx.x < blockDim.x) and whose global id is below n (`if (i < n)`).
  uint32_t mask_below(uint64_t n) const;
};

KernelGrid grid_1d(uint64_t threads, uint32_t threads_per_cta = kCtaThreads);

template <typename F>
void for_lanes(uint32_t mask, F&& f) {
  while (mask != 0) {
    f(static_cast<uint32_t>(std::countr_zero(mask)));
    mask &= mask - 1;
  }
}

// The lanes of mask for which pred(lane) holds (a branch condition).
template <typename F>
uint32_t lanes_where(uint32_t mask, F&& pred) {
  uint32_t m = 0;
  for_lanes(mask, [&](uint32_t lane) { m |= (pred(lane) ? 1u : 0u) << lane; });
  return m;
}

// A per-thread loop `for (i = 0; i < len(lane); ++i)` in SIMT: body(i, m) for i below the
// largest trip count, with m the lanes still in the loop (the others wait at the reconvergence
// point, as in a diverged warp).
template <typename Len, typename Body>
void simt_loop(uint32_t mask, Len&& len, Body&& body) {
  std::array<int64_t, kWarpSize> n{};
  int64_t most = 0;
  for_lanes(mask, [&](uint32_t lane) {
    n[lane] = static_cast<int64_t>(len(lane));
    most = std::max(most, n[lane]);
  });
  for (int64_t i = 0; i < most; ++i) body(i, lanes_where(mask, [&](uint32_t lane) { return n[lane] > i; }));
}

// The input-size parameter of a scale: test, small or full; paper is full unless given (where
// full already is the paper's input, or the papers name no input: docs/workloads.md).
template <typename T>
T by_scale(WorkloadScale s, T test, T small, T full) {
  return s == WorkloadScale::kTest ? test : s == WorkloadScale::kSmall ? small : full;
}
template <typename T>
T by_scale(WorkloadScale s, T test, T small, T full, T paper) {
  return s == WorkloadScale::kPaper ? paper : by_scale(s, test, small, full);
}

// Shared read-only data captured by kernel bodies (warps are produced lazily, after init()).
template <typename T>
using Shared = std::shared_ptr<const std::vector<T>>;
template <typename T>
Shared<T> share(std::vector<T> v) {
  return std::make_shared<const std::vector<T>>(std::move(v));
}

// The side of the least square grid, one thread per cell in CTAs of 8 warps, whose CTAs number at
// least `fill_ctas` (Workload::fill_ctas(8): one wave that fills the device), rounded up to a
// multiple of 32 (a warp's row segment): qv100's 640 give 416 (676 CTAs), a100's 864 give 480
// (900). For the stencils (hotspot, srad) on a device that their small grid does not fill.
inline uint32_t fill_square_side(uint32_t fill_ctas) {
  uint32_t side = 32;
  while (uint64_t{side} * side < uint64_t{fill_ctas} * kCtaThreads) side += 32;
  return side;
}

// n uniform floats in [lo, hi).
std::vector<float> uniform_floats(Rng& rng, uint64_t n, float lo = 0.0f, float hi = 1.0f);

// The part of an nx x ny row-major float matrix that a shortened PolyBench-style run touches: the
// first k columns of every row and the first k rows (a thread per row walking k columns, a thread
// per column walking k rows). Its elements are those of uniform_floats(rng, nx * ny) (so k = nx = ny
// is the whole matrix, element for element), computed without the nx * ny draws; rng advances
// past them. place() reserves the whole matrix (the row stride stays ny) and writes only this part.
class TruncatedMatrix {
 public:
  TruncatedMatrix(Rng& rng, uint32_t nx, uint32_t ny, uint32_t k);
  uint32_t nx() const { return nx_; }
  uint32_t ny() const { return ny_; }
  uint32_t k() const { return k_; }
  // A[i][j]; requires j < k or i < k (the touched part).
  float at(uint64_t i, uint64_t j) const { return j < k_ ? cols_[i * k_ + j] : rows_[i * ny_ + j]; }
  Addr place(FunctionalMemory& mem, MemoryLayout& layout, std::string name) const;

 private:
  uint32_t nx_, ny_, k_;
  std::vector<float> cols_;  // nx x k: A[i][j] for j < k
  std::vector<float> rows_;  // k x ny: A[i][j] for i < k (columns below k unused)
};

// The WorkloadInfo of a PolyBench/GPU matrix kernel pair (atax, bicg, mvt) on `a` (nullptr before
// init()): its input ("NX x NY floats, loops over the first K") and its published grid.
WorkloadInfo polybench_matrix_info(const TruncatedMatrix* a, uint32_t published_ctas, std::string published_grid);

// Address and value of one lane's store (value_hi: bytes 8-15 of a 16-byte store).
struct LaneWrite {
  Addr addr = 0;
  uint64_t value = 0;
  uint64_t value_hi = 0;
};

// Records one warp's instruction stream. Instructions whose mask is empty are not recorded.
// The per-lane callbacks (addr, write) must be pure: a GeneratedKernel produces a long stream
// in windows, re-running the warp's body and skipping the callbacks of instructions outside
// the window, so compute per-lane state (accumulators, ...) outside them.
class WarpStream {
 public:
  WarpStream() = default;  // records the whole stream
  void alu(const StaticOp& op, uint32_t mask = kFullMask);
  // addr(lane) -> Addr for every lane in mask.
  template <typename F>
  void load(const StaticOp& op, uint32_t mask, F&& addr) {
    if (!begin(op, OpKind::kLoad, mask)) return;
    for_lanes(mask, [&](uint32_t lane) { pool_.push_back(addr(lane)); });
  }
  // write(lane) -> LaneWrite for every lane in mask.
  template <typename F>
  void store(const StaticOp& op, uint32_t mask, F&& write) {
    if (!begin(op, OpKind::kStore, mask)) return;
    for_lanes(mask, [&](uint32_t lane) {
      const LaneWrite w = write(lane);
      pool_.push_back(w.addr);
      pool_.push_back(w.value);
      if (op.bytes == 16) pool_.push_back(w.value_hi);
    });
  }
  void barrier(const StaticOp& op);
  void exit(const StaticOp& op);
  size_t size() const { return recs_.size(); }  // instructions recorded
  // The recorded stream as a program; the stream must end with exit().
  std::unique_ptr<WarpProgram> finish() &&;

 private:
  friend class RecordedProgram;
  friend class WindowedProgram;
  struct Rec {
    uint64_t pc;
    uint32_t latency;
    uint32_t mask;
    uint32_t first;  // index in pool_ of the first lane's entry
    OpKind kind;
    uint8_t bytes;
    uint8_t dst;  // StaticOp's scoreboard operands
    bool all_loads;
    std::array<uint8_t, kMaxUses> uses;
  };
  struct WindowFull {};  // thrown out of the body when the window is full
  // Records only instructions first, first+1, ... while they fit in the budgets.
  WarpStream(uint64_t first, size_t max_recs, size_t max_pool)
      : first_(first), max_recs_(max_recs), max_pool_(max_pool) {}
  bool begin(const StaticOp& op, OpKind expected, uint32_t mask);
  bool ended() const { return seen_ > 0 && last_kind_ == OpKind::kExit; }
  WarpInst replay(size_t i) const;  // recorded instruction i as a WarpInst
  // Which of a WarpInst's per-lane arrays are known to be all zero (WarpProgram::next_into's
  // target as the last call left it).
  struct LaneZeros {
    bool addr = false, value = false, value_hi = false;
  };
  // replay(i) written into `w`, whose arrays `z` says are zero (those are not cleared again: an
  // ALU instruction after an ALU instruction does not touch the 768 bytes of lanes); updates `z`.
  void replay_into(size_t i, WarpInst& w, LaneZeros& z) const;

  uint64_t seen_ = 0;  // instructions issued by the body so far (recorded or not)
  OpKind last_kind_ = OpKind::kAlu;
  uint64_t first_ = 0;
  size_t max_recs_ = SIZE_MAX;
  size_t max_pool_ = SIZE_MAX;
  std::vector<Rec> recs_;
  std::vector<uint64_t> pool_;  // loads: addr per active lane; stores: addr, value (, value_hi) per active lane
};

// A kernel whose warps are produced by body(stream, coords); body must end with stream.exit(...).
// A warp's program holds at most one window of its stream (kWindowInsts instructions or
// kWindowLaneEntries per-lane entries, about 300 KB) and re-runs the body for the next one, so
// that kFull warps with long loops (ATAX: 24 K instructions, 5 MB) stay small in memory.
class GeneratedKernel final : public Kernel {
 public:
  using Body = std::function<void(WarpStream&, const WarpCoords&)>;
  static constexpr size_t kWindowInsts = 4096;
  static constexpr size_t kWindowLaneEntries = 32768;
  GeneratedKernel(std::string name, KernelGrid grid, uint32_t threads_per_cta, Body body)
      : name_(std::move(name)),
        grid_(grid),
        threads_per_cta_(threads_per_cta),
        body_(std::make_shared<const Body>(std::move(body))) {}
  std::string name() const override { return name_; }
  KernelGrid grid() const override { return grid_; }
  std::unique_ptr<WarpProgram> warp(uint32_t cta, uint32_t warp_in_cta) const override;
  PublishedLaunch published() const override { return published_; }
  void set_published(PublishedLaunch p) { published_ = std::move(p); }

 private:
  std::string name_;
  KernelGrid grid_;
  PublishedLaunch published_;
  uint32_t threads_per_cta_;
  std::shared_ptr<const Body> body_;  // shared with the warps' programs
};

class ResultCheck;  // result_check.h

// Base of the generated workloads: owns the kernels and the memory layout (regions() lets tests
// and tools see where each array lives). Every generated workload has a result check (check())
// and says what it is (info()).
class GeneratedWorkload : public Workload {
 public:
  uint32_t kernels() const override { return static_cast<uint32_t>(kernels_.size()); }
  const Kernel& kernel(uint32_t i) const override;  // throws std::out_of_range
  const std::vector<Region>& regions() const { return layout_.regions(); }
  const Region& region(std::string_view name) const { return layout_.region(name); }
  uint64_t footprint_bytes() const;  // the initialised bytes of all regions

  WorkloadInfo info() const override = 0;
  // Accepted when info().input_format is not empty.
  void set_input_file(const std::string& path) override;
  void set_generator(const std::string& name) override;  // checked against generators()
  bool has_verify() const final { return true; }
  std::string verify(const FunctionalMemory& mem) const final;

 protected:
  void reset() {
    kernels_.clear();
    layout_.clear();
  }
  // The workload's result check: every array the kernels write against the reference.
  virtual void check(ResultCheck& c) const = 0;
  // A 1-D launch of `threads` threads in CTAs of threads_per_cta.
  void add_kernel(std::string name, uint64_t threads, GeneratedKernel::Body body,
                  uint32_t threads_per_cta = kCtaThreads);
  // Declares the last added launch's published grid: the real benchmark launches `ctas` CTAs at
  // this point of its algorithm (Kernel::published; `arithmetic` says where and how).
  void published(uint32_t ctas, std::string arithmetic);

  MemoryLayout layout_;
  std::string input_path_;  // set_input_file(); "" = generate the inputs
  std::string generator_;   // set_generator(); "" = the scale's default shape

 private:
  std::vector<std::unique_ptr<GeneratedKernel>> kernels_;
};

}  // namespace l1d::sim::wl
