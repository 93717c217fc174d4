// Workloads are plug-ins (DESIGN.md): a workload is a sequence of kernels; a kernel has a grid
// of CTAs and, per warp, a stream of instructions with per-lane addresses and the instruction's
// PC. Workloads run the real algorithm in C++ on real or generated inputs to produce these
// streams (so access patterns are the algorithm's own). init() writes the inputs, and the
// initial contents of every array the kernels touch, into the functional memory; the values
// the algorithm computes travel with the stores (WarpInst::value) and reach memory through the
// simulated memory system, so every load can be checked against the memory image.
//
// Contract of every workload (checked by sim_cpp/test/workload_test.cpp):
//  - streams are precomputed: a warp's instructions never depend on values loaded in the same
//    kernel from data another warp writes in that kernel;
//  - L1s are not coherent within a kernel (they are flushed at kernel end): no kernel loads a
//    byte another CTA stores in the same kernel unless the stored value equals what was there,
//    and bytes stored by several warps in one kernel all get the same value;
//  - every load/store address lies in memory that init() wrote, aligned to access_bytes;
//  - each static instruction has one PC (8 B apart; loop bodies reuse their PCs), and kernels
//    of different functions do not share PCs;
//  - the same (scale, seed) gives the same memory image and the same streams.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/types.h"
#include "sim_cpp/mem/functional_memory.h"

namespace l1d::sim {

inline constexpr uint32_t kWarpSize = 32;

enum class OpKind : uint8_t { kAlu, kLoad, kStore, kBarrier, kExit };

// Register operands, for the scoreboard of core.load_wait on_use (sim_cpp/core/sm.h): register
// numbers below kRegIds (trace registers: R0-R255 are 0-255, UR0-UR63 256-319, P0-P7 320-327,
// UP0-UP7 328-335; a generated workload numbers its loads' destinations itself, KernelCode).
inline constexpr uint32_t kRegIds = 384;
// A traced instruction has up to 8 destinations (a load's each widened to the 2 registers of an
// 8 B lane or half of a 16 B one) and 8 sources.
inline constexpr uint32_t kMaxInstRegs = 24;

struct WarpInst {
  OpKind kind = OpKind::kAlu;
  uint64_t pc = 0;
  uint32_t latency = 1;             // ALU: cycles before the warp may issue again
  uint32_t access_bytes = 4;        // load/store: bytes per lane (1, 2, 4, 8, or 16: a uint4 / float4)
  uint32_t active_mask = 0xFFFFFFFFu;
  std::array<Addr, kWarpSize> addr{};       // load/store: per active lane, aligned to access_bytes
  std::array<uint64_t, kWarpSize> value{};  // store: per active lane, its low access_bytes (at most 8) bytes
  // A 16-byte store's bytes 8-15 per active lane (read only when access_bytes is 16, so a program
  // that never stores 16 bytes may leave it stale).
  std::array<uint64_t, kWarpSize> value_hi{};
  // Scoreboard operands (core.load_wait on_use): regs[0, writes) are the registers the instruction
  // writes (a load's stay pending until all its requests have returned), regs[writes, writes +
  // reads) those it reads. With reads_all_loads it waits for every pending load whatever its
  // registers: the default, so that a program that declares no registers waits as under
  // core.load_wait on_issue (the generated workloads' undeclared instructions, scripted tests).
  std::array<uint16_t, kMaxInstRegs> regs{};
  uint8_t writes = 0, reads = 0;
  bool reads_all_loads = true;

  // Byte b (0 <= b < access_bytes) of lane's store, little-endian.
  uint8_t store_byte(uint32_t lane, uint32_t b) const {
    return static_cast<uint8_t>(b < 8 ? value[lane] >> (8 * b) : value_hi[lane] >> (8 * (b - 8)));
  }
};

// One warp's instruction stream. The last instruction is kExit; next() after it returns kExit
// again. Memory instructions have at least one active lane.
class WarpProgram {
 public:
  virtual ~WarpProgram() = default;
  virtual WarpInst next() = 0;
  // next() written into `out`, which holds what the previous next_into() of this program wrote
  // there (or anything, before the first call): the SM refills a warp's i-buffer in place, and a
  // program may then leave untouched what the previous instruction left right.
  virtual void next_into(WarpInst& out) { out = next(); }
};

struct KernelGrid {
  uint32_t ctas = 1;
  uint32_t warps_per_cta = 1;
};

// The grid a benchmark itself launches at one point of its algorithm (issue 21): a launch may
// have fewer CTAs than fill the GPU only where the real benchmark's launch at that point has as
// few, e.g. a wavefront's first anti-diagonals or a scan's last level. ctas is the benchmark's
// CTA count there (0: nothing declared), arithmetic its source and grid arithmetic in one line.
struct PublishedLaunch {
  uint32_t ctas = 0;
  std::string arithmetic = {};
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual std::string name() const = 0;
  virtual KernelGrid grid() const = 0;
  // May be called in any order, more than once, and from any thread: the stream depends only on
  // (cta, warp_in_cta). Throws std::out_of_range outside the grid.
  virtual std::unique_ptr<WarpProgram> warp(uint32_t cta, uint32_t warp_in_cta) const = 0;
  // Shared memory one CTA allocates, in bytes (a trace's -shmem). Only l1.carveout adaptive uses it
  // (docs/simulator.md "L1 carveout"); the generated workloads do not model shared memory: 0.
  virtual uint64_t shared_bytes_per_cta() const { return 0; }
  // This launch's published grid (sim_cpp/test/workload_grid_test.cpp); none by default.
  virtual PublishedLaunch published() const { return {}; }
};

// Input size: kTest for unit tests (runs in well under a second), kSmall for `make run`,
// kFull for experiments, kPaper the input the papers' benchmark ran (docs/workloads.md "Input
// sizes" names each one's source). A workload without its own paper input treats kPaper as
// kFull (full already is the paper's input there, or the papers name none).
enum class WorkloadScale : uint8_t { kTest, kSmall, kFull, kPaper };

// The --scale names, in WorkloadScale order, and the parse every tool shares.
inline constexpr const char* kScaleNames[] = {"test", "small", "full", "paper"};
std::optional<WorkloadScale> parse_scale(std::string_view name);

// How a workload is classified in docs/workloads.md.
//  - irregular: some addresses depend on loaded data (indirection: graphs, sparse matrices,
//    hash tables) or data-dependent control flow decides which addresses are touched; regular:
//    every address is an affine function of thread and loop indices.
//  - cache_sensitive: listed in the PCAL/AgeLRU dissertation's Table 3.2 (a 16x larger L1 and
//    L2 give a speedup of 2 or more on GPGPU-Sim's Fermi).
struct WorkloadInfo {
  bool irregular = false;
  bool cache_sensitive = false;
  std::string suite;         // where the algorithm comes from, e.g. "Rodinia", "PolyBench/GPU"
  std::string input;         // the input after init(), e.g. "8192 vertices, 118 K edges"
  std::string input_format;  // file format set_input_file() reads; "" = generated inputs only
  // Issue 21's occupancy rule: at `test` and `small` every launch has at least the CTAs that fill
  // every SM at the workload's occupancy limit, unless the benchmark itself launches fewer at its
  // published input. published_ctas declares that grid for every launch (CTAs per launch; 0 =
  // none declared, the workload fills the GPU), published_grid its source and arithmetic; a grid
  // that changes from launch to launch is declared per launch instead (Kernel::published)
  // (sim_cpp/test/workload_grid_test.cpp enforces the rule).
  uint32_t published_ctas = 0;
  std::string published_grid = {};
};

// The GPU a workload is launched on, for the workloads whose benchmark sizes its grid by the
// device (LonestarGPU's sp: nSM x resident CTAs) and for the cache-sensitive workloads' small
// inputs, which fill the preset (issue 21; docs/workloads.md "Filling qv100 and a100 at small").
// Gpu::run sets it from the preset before
// init(); a workload initialised without it (unit tests, tools that only list inputs) assumes
// gtx480's 15 SMs of 48 warp slots.
struct DeviceShape {
  uint32_t sms = 15;
  uint32_t warps_per_sm = 48;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // Builds the inputs (seeded), writes them to memory, prepares the kernels. May be called
  // again (the previous kernels are discarded).
  virtual void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) = 0;
  virtual uint32_t kernels() const = 0;
  virtual const Kernel& kernel(uint32_t i) const = 0;

  virtual WorkloadInfo info() const { return {}; }
  // A real input instead of the generated one (info().input_format: Matrix Market for sparse
  // matrices, SNAP edge lists for graphs), read by the next init(), which throws ConfigError
  // naming the file and line of a bad file. Throws std::invalid_argument when the workload
  // reads no input files (the default).
  virtual void set_input_file(const std::string& path);
  // The shapes of generated input the workload can make (the graph workloads: "kronecker" and
  // "road", docs/workloads.md), and the one the next init() makes instead of its scale's
  // default ("" = the default). set_generator throws std::invalid_argument naming the shapes
  // allowed (none: the default).
  virtual std::vector<std::string> generators() const { return {}; }
  virtual void set_generator(const std::string& name);

  // The result check. verify(mem) compares every array the kernels write, as `mem` holds it
  // after the last kernel (the simulator's memory image, or the stores applied in order), with
  // a host-side reference computed from the inputs. Returns "" when they agree, else one line:
  // the workload, the array, the first wrong element, its value and the expected one, and how
  // many elements are wrong. Workloads without a check (recorded traces, scripted tests) keep
  // the defaults: has_verify() false, and verify() says there is no check.
  virtual bool has_verify() const { return false; }
  virtual std::string verify(const FunctionalMemory& mem) const;

  void set_device(const DeviceShape& d) { device_ = d; }  // read by the next init()

 protected:
  // Issue 21's fill on the device: the CTAs of warps_per_cta warps that occupy every SM's warp
  // slots (gtx480: 15 x floor(48 / 8) = 90 CTAs of 8 warps; qv100 80 x 8 = 640; a100 108 x 8 = 864).
  uint32_t fill_ctas(uint32_t warps_per_cta) const {
    return device_.sms * (warps_per_cta == 0 ? 0 : device_.warps_per_sm / warps_per_cta);
  }
  // The device's fill over gtx480's (90 CTAs of 8 warps), for workloads whose small input is sized
  // on gtx480 and grows with the device: 1 on gtx480, 64/9 on qv100, 9.6 on a100.
  double fill_over_gtx480() const { return fill_ctas(8) / 90.0; }

  DeviceShape device_;
};

// Registry: one explicit table (workload/registry.cpp), names as `gpusim --workload` takes them.
std::unique_ptr<Workload> make_workload(const std::string& name);  // throws std::invalid_argument
std::vector<std::string> workload_names();

}  // namespace l1d::sim
