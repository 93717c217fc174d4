// Reader of Accel-Sim / NVBit trace directories (docs/simulator.md, "Real traces"): the command
// list `kernelslist.g` and the kernel traces it names (`kernel-N.traceg`, `.traceg.xz`,
// `.traceg.zst`, Accel-Sim 2.0's `.tracez`, raw `.trace[.xz|.zst]`; line_reader.h decodes them).
//
// Kernel trace: header lines `-key = value` up to the first line starting with '#', then
// `#BEGIN_TB` / `thread block = x,y,z` / [version 6: `cluster id = x,y,z` / `cluster cta =
// x,y,z` / `cluster rank = r`] / (`warp = w` / `insts = n` / n instruction lines)... / `#END_TB`.
// An instruction line is
//   [prefix] [line_num] PC mask dest_num [Rd..] opcode src_num [Rs..] [gmma] mem_width
//   [mode addresses] [imm [imm2]] [NoVal | Val values]
// The tracer version's integer part ("1.2" is 1) decides the format: below 3 (or no version
// line) every line has the prefix `tb_x tb_y tb_z warp` (raw `.trace` files too; raw version-6
// lines add the cluster: id x,y,z, cta x,y,z, rank); line_num when `-enable lineinfo = 1`; one
// immediate in newer version-4/5 traces; version 6 adds a GMMA commit-group flag, a second
// immediate and the register values (per register 1 or 32 hex values).
// Address modes (for mem_width > 0): 0 = one hex address per active lane; 1 = hex base and a
// decimal stride over contiguous active lanes; 2 = hex base and one signed decimal delta per
// further active lane (popcount(mask) - 1 of them), each relative to the previous lane. In
// prefixed traces the structure lines are optional: the prefix places every instruction (raw
// traces interleave warps).
//
// Everything is checked; any problem throws TraceError "file:line: problem".
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/types.h"
#include "sim_cpp/trace/line_reader.h"
#include "sim_cpp/trace/sass_table.h"
#include "sim_cpp/workload/workload.h"

namespace l1d::sim::trace {

// Address windows of generic (LD/ST) accesses, from the header's base addresses. The trace does
// not give their sizes; 16 MiB holds the largest shared memory per block (228 KiB) and local
// memory per thread (512 KiB) with room to spare.
inline constexpr uint64_t kWindowBytes = uint64_t{16} << 20;

// The page size of the simulator's page table (trace_workload.h), which TraceInst's strided form
// respects: 2 MiB pages (cudaMalloc's large pages).
inline constexpr uint32_t kPageBits = 21;

// The number of active lanes of a mask. std::popcount is a libgcc call on the baseline x86-64
// target (no POPCNT instruction); this is the usual sum of bit pairs, nibbles and bytes, a dozen
// inline instructions (the reader and the trace warps count every memory line's lanes).
constexpr uint32_t lane_count(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  m = (m + (m >> 4)) & 0x0F0F0F0Fu;
  return (m * 0x01010101u) >> 24;
}

// What a trace line is, for the statistics (the opcode's class after generic resolution).
enum class TraceClass : uint8_t {
  kGlobalLoad,
  kGlobalStore,
  kLocalLoad,
  kLocalStore,
  kShared,
  kConstant,
  kTexture,
  kAtomic,
  kBarrier,
  kExit,
  kAlu,
  kUnknown,  // mnemonic not in the table: runs as integer ALU
};
inline constexpr uint32_t kTraceClasses = 12;
const char* to_string(TraceClass c);

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
};

struct KernelHeader {
  std::string name;
  int64_t kernel_id = 0;
  Dim3 grid, block;
  uint64_t shmem = 0, nregs = 0, stream_id = 0;
  uint32_t binary_version = 0;
  Addr shmem_base = 0, local_base = 0;
  std::string nvbit_version;
  uint32_t tracer_version = 0;     // integer part of the version line; 0: none. Below 3: the prefixed format
  std::string tracer_version_text;  // the line's value as written ("1.2"), empty without one
  bool lineinfo = false;
  std::vector<std::string> ignored_keys;  // header keys this reader does not use
};

// One traced warp instruction, as the simulator runs it.
//
// A load's or store's lane addresses are kept in one of two forms (ParsedKernel::lane_address
// reads either). Strided (the common coalesced access, whatever address mode the trace wrote it
// in): the active lanes' addresses step by a constant `stride`, all in one 2 MiB page, none
// local; ParsedKernel::addrs holds the first one only. Listed: every active lane's address.
// The strided form keeps the kernel's address array (and the simulator's reads of it) about a
// lane count smaller; the page condition lets the page table translate the first address alone
// (docs/performance.md, eighteenth round).
struct TraceInst {
  uint64_t pc = 0;
  uint32_t mask = 0;
  uint32_t addr = 0;     // kLoad / kStore: index of the first active lane's address in ParsedKernel::addrs
  uint16_t latency = 1;  // kAlu: cycles before the warp's next issue
  OpKind kind = OpKind::kAlu;
  uint8_t width = 0;     // kLoad / kStore: bytes per lane: 1, 2, 4, 8 or 16
  TraceClass cls = TraceClass::kAlu;
  uint8_t dsts = 0, srcs = 0;  // register operands: ParsedKernel::regs[regs, regs + dsts + srcs)
  uint32_t regs = 0;
  // kLoad / kStore: kListedLanes, or the strided form's stride: the k-th active lane's address
  // is addrs[addr] + k * stride (|stride| < one page). Last, so that it fills the padding and no
  // positional initialisation of the fields before it changes meaning.
  int32_t stride = kListedLanes;

  static constexpr int32_t kListedLanes = INT32_MIN;  // not a stride of the strided form
  bool strided() const { return stride != kListedLanes; }
};
static_assert(sizeof(TraceInst) == 32, "the strided form's stride fills TraceInst's padding");


struct ParsedKernel {
  std::string file;
  KernelHeader header;
  const IsaLatencies* isa = nullptr;
  uint32_t ctas = 0, warps_per_cta = 0;
  std::vector<TraceInst> insts;        // warp by warp, warps in (CTA, warp) order
  std::vector<uint64_t> warp_begin;    // ctas * warps_per_cta + 1 offsets into insts
  std::vector<uint8_t> synthetic_exit; // per warp: 1 when its trace does not end with EXIT / RET
  std::vector<Addr> addrs;             // the loads' and stores' lane addresses (virtual), TraceInst's two forms
  // Register operands as WarpInst numbers them (kRegIds), destinations then sources, without RZ,
  // URZ, PT and UPT (a write to them is discarded, so nothing waits for them).
  std::vector<uint16_t> regs;

  // Counts of the trace's own lines.
  uint64_t trace_instructions = 0;   // instruction lines
  uint64_t memory_instructions = 0;  // lines with mem_width > 0
  std::array<uint64_t, kTraceClasses> by_class{};
  std::map<std::string, uint64_t> unknown_opcodes;
  uint64_t wide_accesses = 0;        // 16 B-per-lane loads/stores (each runs as two 8 B halves)
  uint64_t synthetic_exits = 0;
  uint32_t parts = 1;  // the pieces the instruction stream was read in (parse_kernel_parts)

  uint32_t warps() const { return ctas * warps_per_cta; }
  // The address of load / store t's k-th active lane (lowest lane first), in either form.
  Addr lane_address(const TraceInst& t, uint32_t k) const {
    return t.strided() ? addrs[t.addr] + static_cast<uint64_t>(int64_t{t.stride} * k) : addrs[t.addr + k];
  }
};

struct TraceCommand {
  enum class Kind : uint8_t { kMemcpy, kKernel };
  Kind kind = Kind::kKernel;
  Addr addr = 0;        // kMemcpy: destination (virtual)
  uint64_t bytes = 0;   // kMemcpy
  uint32_t kernel = 0;  // kKernel: index into TraceSet::kernels
  uint64_t line = 0;    // in the command list
};

struct TraceSet {
  std::string list_file;  // the kernelslist.g read
  std::vector<TraceCommand> commands;
  std::vector<ParsedKernel> kernels;
  uint64_t ignored_commands = 0;  // MemcpyDtoH lines (no effect on the device)
};

struct ParseOptions {
  std::optional<uint32_t> isa_override;  // time every kernel as this binary version
  bool prefixed = false;                 // force the tb/warp prefix (raw .trace files)
  // parse_kernel_parts (and parse_trace_dir on plain-text kernel traces): up to `threads` parts of
  // at least `min_part_bytes` each, read side by side. The result is the same for every count.
  uint32_t threads = 1;
  uint64_t min_part_bytes = uint64_t{4} << 20;
  // Common instruction lines are read by a fast scanner that hands anything unusual to the
  // general reading (which names the errors); false reads every line the general way (tests
  // check that both give the same kernel).
  bool fast_lines = true;
};

// `path`: a kernelslist.g file or the directory holding one.
std::string kernelslist_path(const std::string& path);
TraceSet parse_trace_dir(const std::string& path, const ParseOptions& opt = {});
// One kernel trace from `in` (file names in errors come from the reader).
ParsedKernel parse_kernel(LineReader& in, const ParseOptions& opt = {});
// parse_kernel on up to opt.threads threads (gpusim --threads): `in` reads plain text from its
// start, and every reopen() is a new seekable source of the same bytes. The instruction stream is
// cut at '#BEGIN_TB' lines into parts read side by side; the result, or the error thrown, is
// parse_kernel's (a prefixed trace, a short one or one without such lines is read as one part).
ParsedKernel parse_kernel_parts(LineReader& in, const std::function<std::unique_ptr<ByteSource>()>& reopen,
                                const ParseOptions& opt = {});
// The command list alone; kernel lines become paths resolved against the list's directory.
struct CommandLine {
  TraceCommand cmd;
  std::string kernel_path;  // kKernel
};
std::vector<CommandLine> parse_kernelslist(LineReader& in, const std::string& dir, uint64_t* ignored = nullptr);

// The '-binary version' of the first kernel trace the command list at `path` (kernelslist.g or
// its directory) names, read from that kernel's header alone (gpusim --preset auto picks the GPU
// before reading the trace). `line` gets the header line's number, `file` the kernel file's name.
// Throws TraceError when the list or the header is unreadable or the header has no such line.
struct BinaryVersion {
  uint32_t version = 0;
  std::string file;
  uint64_t line = 0;
};
BinaryVersion peek_binary_version(const std::string& path);

}  // namespace l1d::sim::trace
