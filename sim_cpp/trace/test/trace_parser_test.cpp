// The trace reader (sim_cpp/trace/trace_parser.h, line_reader.h, tracez_source.h, sass_table.h):
// every format it takes (versions 3 to 6, non-integer versions, the old prefixed format, raw
// interleaved traces), the three address modes, opcode classes and latencies, the command list,
// xz, zstd and .tracez input, and every error path with the file and line it names.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim_cpp/trace/auto_preset.h"
#include "sim_cpp/trace/line_head_cache.h"
#include "sim_cpp/trace/line_reader.h"
#include "sim_cpp/trace/sass_table.h"
#include "sim_cpp/trace/test/trace_pack.h"
#include "sim_cpp/trace/trace_error.h"
#include "sim_cpp/trace/trace_parser.h"

namespace l1d::sim::trace {
namespace {

const std::string kHeader =
    "-kernel name = _Z1kPf\n"
    "-kernel id = 1\n"
    "-grid dim = (1,1,1)\n"
    "-block dim = (32,1,1)\n"
    "-shmem = 0\n"
    "-nregs = 8\n"
    "-binary version = 61\n"
    "-cuda stream id = 0\n"
    "-shmem base_addr = 0x00007f0000000000\n"
    "-local mem base_addr = 0x00007e0000000000\n"
    "-nvbit version = 1.5.5\n"
    "-accelsim tracer version = 4\n"
    "-enable lineinfo = 0\n"
    "\n"
    "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
    "[adrrescompress?] [mem_addresses]\n"
    "\n";

// One thread block: `warps` is one list of instruction lines per warp (warps 0, 1, ...).
std::string tb(const std::string& xyz, const std::vector<std::vector<std::string>>& warps) {
  std::string s = "#BEGIN_TB\n\nthread block = " + xyz + "\n\n";
  for (size_t w = 0; w < warps.size(); ++w) {
    s += "warp = " + std::to_string(w) + "\ninsts = " + std::to_string(warps[w].size()) + "\n";
    for (const std::string& l : warps[w]) s += l + "\n";
    s += "\n";
  }
  return s + "#END_TB\n\n";
}

// A one-warp kernel whose warp runs `insts`.
std::string one_warp(const std::vector<std::string>& insts) { return kHeader + tb("0,0,0", {insts}); }

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const size_t p = s.find(from);
  if (p == std::string::npos) throw std::logic_error("replace: '" + from + "' not in the text");
  return s.replace(p, from.size(), to);
}

ParsedKernel parse(const std::string& text, const ParseOptions& opt = {}) {
  auto in = LineReader::from_string("k.traceg", text);
  return parse_kernel(*in, opt);
}

// 1-based number of the line where the first occurrence of `marker` ends (a marker may span
// lines to single out a repeated line).
uint64_t line_of(const std::string& text, const std::string& marker) {
  const size_t p = text.find(marker);
  if (p == std::string::npos || marker.empty()) throw std::logic_error("line_of: '" + marker + "' not in the text");
  const auto end = text.begin() + static_cast<std::ptrdiff_t>(p + marker.size() - 1);
  return 1 + static_cast<uint64_t>(std::count(text.begin(), end, '\n'));
}

// The last line's number (the text ends with a newline).
uint64_t last_line(const std::string& text) { return static_cast<uint64_t>(std::count(text.begin(), text.end(), '\n')); }

// parse_kernel_parts over `text`: cut wherever a '#BEGIN_TB' line allows, up to `threads` parts.
ParsedKernel parse_parts(const std::string& text, uint32_t threads, ParseOptions opt = {}) {
  opt.threads = threads;
  opt.min_part_bytes = 1;
  auto in = LineReader::from_string("k.traceg", text);
  return parse_kernel_parts(*in, [&text] { return string_source(text); }, opt);
}

// Every field of a parsed kernel, to compare two readings.
std::string fingerprint(const ParsedKernel& k) {
  std::string s = k.file + "|" + k.header.name + "|" + std::to_string(k.ctas) + "x" + std::to_string(k.warps_per_cta);
  for (const TraceInst& t : k.insts)
    s += " " + std::to_string(t.pc) + "," + std::to_string(t.mask) + "," + std::to_string(t.addr) + "," +
         std::to_string(t.latency) + "," + std::to_string(static_cast<int>(t.kind)) + "," + std::to_string(t.width) + "," +
         std::to_string(static_cast<int>(t.cls)) + "," + std::to_string(t.regs) + "," + std::to_string(t.dsts) + "," +
         std::to_string(t.srcs) + "," + std::to_string(t.stride);
  s += "|";
  for (uint16_t r : k.regs) s += std::to_string(r) + ",";
  s += "|";
  for (uint64_t b : k.warp_begin) s += std::to_string(b) + ",";
  s += "|";
  for (uint8_t e : k.synthetic_exit) s += std::to_string(e);
  s += "|";
  for (Addr a : k.addrs) s += std::to_string(a) + ",";
  s += "|" + std::to_string(k.trace_instructions) + "," + std::to_string(k.memory_instructions) + "," +
       std::to_string(k.wide_accesses) + "," + std::to_string(k.synthetic_exits) + "|";
  for (uint64_t c : k.by_class) s += std::to_string(c) + ",";
  for (const auto& [op, n] : k.unknown_opcodes) s += op + "x" + std::to_string(n) + ",";
  return s;
}

std::string error_of(const std::string& text, const ParseOptions& opt = {}, uint32_t parts = 1) {
  try {
    if (parts > 1)
      parse_parts(text, parts, opt);
    else
      parse(text, opt);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "(accepted)";
}

const std::string kLdg = "0010 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f2b2d500000 4";
const std::string kExit = "0018 ffffffff 0 EXIT 0 0";

// ---------------------------------------------------------------------------------------------
// Formats

TEST(TraceParser, Version4KernelWithTwoBlocksOfTwoWarps) {
  std::string text = replace(replace(kHeader, "(1,1,1)", "(2,1,1)"), "(32,1,1)", "(64,1,1)");
  const std::vector<std::string> w = {"0008 ffffffff 1 R1 MOV 0 0", "0010 ffffffff 1 R2 FFMA 3 R1 R2 R3 0", kLdg,
                                      "0020 ffffffff 0 STG.E 2 R2 R4 4 1 0x7f2b2d500100 4", kExit};
  text += tb("0,0,0", {w, w}) + tb("1,0,0", {w, {"0008 ffffffff 1 R1 MOV 0 0"}});
  const ParsedKernel k = parse(text);
  EXPECT_EQ(k.header.name, "_Z1kPf");
  EXPECT_EQ(k.header.tracer_version, 4u);
  EXPECT_EQ(k.header.binary_version, 61u);
  EXPECT_EQ(k.header.shmem_base, 0x7f0000000000u);
  EXPECT_STREQ(k.isa->family, "Pascal");
  ASSERT_EQ(k.ctas, 2u);
  ASSERT_EQ(k.warps_per_cta, 2u);
  EXPECT_EQ(k.trace_instructions, 16u);
  EXPECT_EQ(k.memory_instructions, 6u);
  EXPECT_EQ(k.by_class[static_cast<uint32_t>(TraceClass::kGlobalLoad)], 3u);
  EXPECT_EQ(k.by_class[static_cast<uint32_t>(TraceClass::kGlobalStore)], 3u);
  EXPECT_EQ(k.by_class[static_cast<uint32_t>(TraceClass::kExit)], 3u);
  ASSERT_EQ(k.warp_begin, (std::vector<uint64_t>{0, 5, 10, 15, 16}));
  // Warp 0: MOV (int latency), FFMA (fp32), LDG, STG, EXIT (the warp's end).
  EXPECT_EQ(k.insts[0].kind, OpKind::kAlu);
  EXPECT_EQ(k.insts[0].latency, k.isa->of(LatencyClass::kInt));
  EXPECT_EQ(k.insts[1].latency, k.isa->of(LatencyClass::kFp32));
  EXPECT_EQ(k.insts[2].kind, OpKind::kLoad);
  EXPECT_EQ(k.insts[2].width, 4u);
  EXPECT_EQ(k.insts[3].kind, OpKind::kStore);
  EXPECT_EQ(k.insts[4].kind, OpKind::kExit);
  EXPECT_EQ(k.insts[4].pc, 0x18u);
  // Block (1,0,0) warp 1 has no EXIT: one is appended when it runs.
  EXPECT_EQ(k.synthetic_exits, 1u);
  EXPECT_EQ(k.synthetic_exit, (std::vector<uint8_t>{0, 0, 0, 1}));
  // Addresses: 32 lanes x 6 memory instructions, mode 1 (base, stride 4): strided, one address each.
  ASSERT_EQ(k.addrs.size(), 6u);
  EXPECT_EQ(k.insts[2].stride, 4);
  EXPECT_EQ(k.lane_address(k.insts[2], 31), 0x7f2b2d500000u + 31 * 4);
  EXPECT_EQ(k.lane_address(k.insts[3], 0), 0x7f2b2d500100u);
}

// The scoreboard operands (core.load_wait on_use): each register file gets its own numbers, and
// the zero / true registers, which nothing waits for, are dropped.
TEST(TraceParser, RegisterOperandsAreNumberedByFile) {
  const ParsedKernel k = parse(one_warp({
      "0010 ffffffff 1 R4 LDG.E 2 R2 R255 4 1 0x1000 4",
      "0018 ffffffff 1 UR5 S2UR 1 R254 0",
      "0020 ffffffff 2 P0 UP6 ISETP.GE.AND 3 P7 UP7 UR63 0",
      kExit,
  }));
  ASSERT_EQ(k.insts.size(), 4u);
  const auto ops = [&](size_t i) {
    const TraceInst& t = k.insts[i];
    return std::vector<uint16_t>(k.regs.begin() + t.regs, k.regs.begin() + t.regs + t.dsts + t.srcs);
  };
  EXPECT_EQ(k.insts[0].dsts, 1u);
  EXPECT_EQ(k.insts[0].srcs, 1u);
  EXPECT_EQ(ops(0), (std::vector<uint16_t>{4, 2}));
  EXPECT_EQ(ops(1), (std::vector<uint16_t>{256 + 5, 254}));
  EXPECT_EQ(k.insts[2].dsts, 2u);
  EXPECT_EQ(k.insts[2].srcs, 0u);
  EXPECT_EQ(ops(2), (std::vector<uint16_t>{320, 328 + 6}));
  EXPECT_EQ(ops(3), std::vector<uint16_t>{});
}

TEST(TraceParser, ThreeAddressModesGiveTheSameLaneAddresses) {
  // Lanes 1..3 and 8 active; mode 1 needs contiguous lanes, so it gets lanes 4..7.
  const ParsedKernel k = parse(one_warp({
      "0010 0000010e 1 R4 LDG.E.64 1 R2 8 0 0x1000 0x1008 0x7ff8 0x0000000000000010",
      "0018 0000010e 1 R4 LDG.E.64 1 R2 8 2 0x1000 8 28656 -32744",
      "0020 000000f0 1 R4 LDG.E.64 1 R2 8 1 0x2000 -8",
      kExit,
  }));
  ASSERT_EQ(k.addrs.size(), 4u + 4 + 1) << "the first two listed, the third strided";
  EXPECT_FALSE(k.insts[0].strided());
  EXPECT_EQ(k.insts[2].stride, -8);
  const std::vector<Addr> want = {0x1000, 0x1008, 0x7ff8, 0x10};
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(k.lane_address(k.insts[0], i), want[i]) << i;
    EXPECT_EQ(k.lane_address(k.insts[1], i), want[i]) << i;
    EXPECT_EQ(k.lane_address(k.insts[2], i), 0x2000u - 8 * i) << i;
  }
  EXPECT_EQ(k.insts[0].width, 8u);
}

// TraceInst's strided form: any address mode whose active lanes step by one stride under a page,
// all on one 2 MiB page, outside local memory; every other load or store lists its lanes. Either
// way lane_address gives the trace's addresses.
TEST(TraceParser, StridedFormKeepsOnePageStepsAndGivesTheSameLanes) {
  const ParsedKernel k = parse(one_warp({
      "0010 0000001e 1 R4 LDG.E 1 R2 4 0 0x1000 0x1004 0x1008 0x100c",  // listed in the trace, stride 4
      "0018 ffffffff 1 R4 LDG.E 1 R2 4 1 0x1ffff0 4",                   // stride 4 across a page boundary
      "0020 00000003 1 R4 LDG.E 1 R2 4 1 0x400000 2097152",             // stride of a whole page
      "0028 0000000f 1 R4 LDG.E 1 R2 4 2 0x3000 4 4 8",                 // deltas, not one stride
      "0030 ffffffff 1 R4 LDG.E 1 R2 4 1 0x5000 0",                     // every lane one address
      "0038 000000f0 1 R4 LDG.E.128 1 R2 16 1 0x6ff0 -16",              // negative, 16 B lanes
      "0040 00000001 1 R4 LDG.E 1 R2 4 1 0x7000 4",                     // one lane
      "0048 0000000f 1 R4 LDL 1 R2 4 1 0x00007e0000000010 4",           // local memory
      kExit,
  }));
  struct Want {
    int32_t stride;  // TraceInst::kListedLanes: listed
    std::vector<Addr> lanes;
  };
  const int32_t listed = TraceInst::kListedLanes;
  std::vector<Addr> across, whole_warp;
  for (uint32_t l = 0; l < 32; ++l) across.push_back(0x1ffff0 + 4 * l), whole_warp.push_back(0x5000);
  const Want want[] = {{4, {0x1000, 0x1004, 0x1008, 0x100c}},
                       {listed, across},
                       {listed, {0x400000, 0x600000}},
                       {listed, {0x3000, 0x3004, 0x3008, 0x3010}},
                       {0, whole_warp},
                       {-16, {0x6ff0, 0x6fe0, 0x6fd0, 0x6fc0}},
                       {listed, {0x7000}}};
  size_t stored = 0;
  for (size_t i = 0; i < std::size(want); ++i) {
    SCOPED_TRACE(i);
    const TraceInst& t = k.insts[i];
    ASSERT_EQ(t.kind, OpKind::kLoad);
    EXPECT_EQ(t.stride, want[i].stride);
    EXPECT_EQ(t.addr, stored);
    ASSERT_EQ(std::popcount(t.mask), static_cast<int>(want[i].lanes.size()));
    for (uint32_t l = 0; l < want[i].lanes.size(); ++l) EXPECT_EQ(k.lane_address(t, l), want[i].lanes[l]) << l;
    stored += t.strided() ? 1 : want[i].lanes.size();
  }
  EXPECT_EQ(k.insts[7].cls, TraceClass::kLocalLoad);
  EXPECT_FALSE(k.insts[7].strided()) << "local addresses are interleaved by thread";
  EXPECT_EQ(k.addrs.size(), stored + 4);
}

TEST(TraceParser, Version5WithLineNumbersAndImmediates) {
  std::string text = replace(replace(kHeader, "version = 4", "version = 5"), "lineinfo = 0", "lineinfo = 1");
  text += tb("0,0,0", {{"12 0008 ffffffff 1 R1 MOV 0 0 -5", "13 " + kLdg + " 16", "14 " + kExit}});
  const ParsedKernel k = parse(text);
  EXPECT_EQ(k.header.tracer_version, 5u);
  EXPECT_TRUE(k.header.lineinfo);
  EXPECT_EQ(k.trace_instructions, 3u);
  EXPECT_EQ(k.insts[1].kind, OpKind::kLoad);
  EXPECT_EQ(k.lane_address(k.insts[1], 1), 0x7f2b2d500004u);
}

TEST(TraceParser, Version3WithoutTheLineinfoLine) {
  std::string text = replace(replace(kHeader, "version = 4", "version = 3"), "-enable lineinfo = 0\n", "");
  text += tb("0,0,0", {{kLdg, kExit}});
  const ParsedKernel k = parse(text);
  EXPECT_EQ(k.header.tracer_version, 3u);
  EXPECT_FALSE(k.header.lineinfo);
  EXPECT_EQ(k.memory_instructions, 1u);
}

TEST(TraceParser, OldFormatPrefixesEveryInstructionWithBlockAndWarp) {
  std::string text = replace(replace(kHeader, "-accelsim tracer version = 4\n", ""), "(32,1,1)", "(64,1,1)");
  text = replace(text, "(1,1,1)", "(1,2,1)");
  text += tb("0,1,0", {{"0 1 0 0 " + kLdg, "0 1 0 0 " + kExit}, {"0 1 0 1 0008 ffffffff 1 R1 MOV 0 0", "0 1 0 1 " + kExit}});
  text += tb("0,0,0", {{"0 0 0 0 " + kExit}, {"0 0 0 1 " + kExit}});
  const ParsedKernel k = parse(text);
  EXPECT_EQ(k.header.tracer_version, 0u);
  EXPECT_EQ(k.ctas, 2u);
  EXPECT_EQ(k.trace_instructions, 6u);
  // Warps in (block, warp) order whatever the file's order: block (0,0,0) first.
  ASSERT_EQ(k.warp_begin, (std::vector<uint64_t>{0, 1, 2, 4, 6}));
  EXPECT_EQ(k.insts[2].kind, OpKind::kLoad);
  EXPECT_EQ(k.insts[4].pc, 0x8u);
}

TEST(TraceParser, RawPrefixedTraceWithInterleavedWarpsKeepsEachWarpsOrder) {
  std::string text = replace(replace(kHeader, "-accelsim tracer version = 4\n", ""), "(32,1,1)", "(64,1,1)");
  text += "0 0 0 1 0008 ffffffff 1 R1 MOV 0 0\n"
          "0 0 0 0 0008 ffffffff 1 R1 MOV 0 0\n"
          "0 0 0 1 0010 ffffffff 1 R1 IADD 0 0\n"
          "0 0 0 0 0010 ffffffff 1 R4 LDG.E 1 R2 4 1 0x1000 4\n"
          "0 0 0 1 0018 ffffffff 0 EXIT 0 0\n";
  const ParsedKernel k = parse(text);
  ASSERT_EQ(k.warp_begin, (std::vector<uint64_t>{0, 2, 5}));
  EXPECT_EQ(k.insts[1].kind, OpKind::kLoad);
  EXPECT_EQ(k.insts[3].pc, 0x10u);
  EXPECT_EQ(k.insts[4].kind, OpKind::kExit);
  EXPECT_EQ(k.synthetic_exit, (std::vector<uint8_t>{1, 0}));
}

TEST(TraceParser, ForcedPrefixReadsAVersion4FileAsRawTrace) {
  ParseOptions opt;
  opt.prefixed = true;
  const ParsedKernel k = parse(kHeader + "0 0 0 0 " + kLdg + "\n0 0 0 0 " + kExit + "\n", opt);
  EXPECT_EQ(k.trace_instructions, 2u);
  EXPECT_EQ(k.insts[1].kind, OpKind::kExit);
}

// ---------------------------------------------------------------------------------------------
// Classes, widths, generic and local addresses

TEST(TraceParser, OpcodeClassesAndLatencies) {
  const ParsedKernel k = parse(one_warp({
      "0008 ffffffff 1 R1 LDS.U.32 1 R5 4 1 0x100 4",      // shared: not modelled, shared latency
      "0010 ffffffff 1 R1 LDC 1 R5 4 1 0x100 0",           // constant
      "0018 ffffffff 0 BAR.SYNC 0 0",                      // barrier
      "0020 ffffffff 0 BAR.ARV 0 0",                       // arrive only: ALU
      "0028 0000000f 0 EXIT 0 0",                          // an exit that is not the last: ALU
      "0030 ffffffff 1 R1 MUFU.RCP 1 R2 0",                // SFU
      "0038 ffffffff 1 R2 DFMA 3 R1 R2 R3 0",              // fp64
      "0040 ffffffff 1 R2 FROBNICATE 0 0",                 // unknown: integer ALU, counted
      "0048 ffffffff 0 ATOM.E.ADD 2 R2 R3 4 1 0x1000 4",   // global atomic: at the L2, not modelled
      "0050 ffffffff 1 R2 TEX.B 1 R2 4 1 0x1000 4",        // texture
      "0058 00000000 1 R4 LDG.E 1 R2 4 0",                 // no active lane: no access
      kExit,
  }));
  const IsaLatencies& lat = *k.isa;
  auto cls = [&](size_t i) { return k.insts[i].cls; };
  EXPECT_EQ(cls(0), TraceClass::kShared);
  EXPECT_EQ(k.insts[0].kind, OpKind::kAlu);
  EXPECT_EQ(k.insts[0].latency, lat.of(LatencyClass::kShared));
  EXPECT_EQ(cls(1), TraceClass::kConstant);
  EXPECT_EQ(k.insts[1].latency, lat.of(LatencyClass::kConstant));
  EXPECT_EQ(k.insts[2].kind, OpKind::kBarrier);
  EXPECT_EQ(cls(3), TraceClass::kBarrier);
  EXPECT_EQ(k.insts[3].kind, OpKind::kAlu);
  EXPECT_EQ(cls(4), TraceClass::kExit);
  EXPECT_EQ(k.insts[4].kind, OpKind::kAlu);
  EXPECT_EQ(k.insts[5].latency, lat.of(LatencyClass::kSfu));
  EXPECT_EQ(k.insts[6].latency, lat.of(LatencyClass::kFp64));
  EXPECT_EQ(cls(7), TraceClass::kUnknown);
  EXPECT_EQ(k.insts[7].latency, lat.of(LatencyClass::kInt));
  EXPECT_EQ(k.unknown_opcodes.at("FROBNICATE"), 1u);
  EXPECT_EQ(cls(8), TraceClass::kAtomic);
  EXPECT_EQ(k.insts[8].kind, OpKind::kAlu);
  EXPECT_EQ(cls(9), TraceClass::kTexture);
  EXPECT_EQ(cls(10), TraceClass::kGlobalLoad);
  EXPECT_EQ(k.insts[10].kind, OpKind::kAlu);
  EXPECT_EQ(k.insts[11].kind, OpKind::kExit);
  EXPECT_EQ(k.memory_instructions, 5u);
  EXPECT_TRUE(k.addrs.empty()) << "no instruction reaches the L1";
}

TEST(TraceParser, GenericAccessesAreResolvedByTheirAddressWindow) {
  const ParsedKernel k = parse(one_warp({
      "0008 ffffffff 1 R1 LD.E 1 R5 4 1 0x00007f0000000100 4",  // shared window
      "0010 ffffffff 1 R1 LD.E 1 R5 4 1 0x00007e0000000100 4",  // local window
      "0018 ffffffff 0 ST.E 2 R5 R1 4 1 0x00007e0000000100 4",  // local window
      "0020 ffffffff 1 R1 LD.E 1 R5 4 1 0x0000000000100000 4",  // global
      kExit,
  }));
  EXPECT_EQ(k.insts[0].cls, TraceClass::kShared);
  EXPECT_EQ(k.insts[0].kind, OpKind::kAlu);
  EXPECT_EQ(k.insts[1].cls, TraceClass::kLocalLoad);
  EXPECT_EQ(k.insts[1].kind, OpKind::kLoad);
  EXPECT_EQ(k.insts[2].cls, TraceClass::kLocalStore);
  EXPECT_EQ(k.insts[3].cls, TraceClass::kGlobalLoad);
  EXPECT_EQ(k.lane_address(k.insts[3], 0), 0x100000u);
}

TEST(TraceParser, LocalMemoryIsInterleavedByThreadAndUniquePerThread) {
  // Every lane of both warps at local offset 0x10 (as the tracer writes them: each thread's own
  // window) and one lane at 0x14.
  std::string text = replace(kHeader, "(32,1,1)", "(64,1,1)");
  const std::vector<std::string> w = {"0008 ffffffff 1 R1 LDL 1 R5 4 1 0x00007e0000000010 0",
                                      "0010 00000001 1 R1 LDL 1 R5 4 0 0x00007e0000000014", kExit};
  const ParsedKernel k = parse(text + tb("0,0,0", {w, w}));
  ASSERT_EQ(k.addrs.size(), 66u);
  // Offset 0x10 = unit 4 of 64 threads: thread g at region + 4 * 64 * 4 + 4 g.
  const Addr region = uint64_t{1} << 62, row = 64 * 4;
  for (uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(k.lane_address(k.insts[0], l), region + 4 * row + 4 * l);
    EXPECT_EQ(k.lane_address(k.insts[3], l), region + 4 * row + 4 * (32 + l));
  }
  EXPECT_EQ(k.lane_address(k.insts[1], 0), region + 5 * row);
  EXPECT_EQ(k.insts[0].cls, TraceClass::kLocalLoad);
}

TEST(TraceParser, AccessWidthsSignedSubwordsAndSixteenBytes) {
  const ParsedKernel k = parse(one_warp({
      "0008 ffffffff 1 R1 LDG.E.S8 1 R5 4 1 0x1001 1",   // the tracer writes 4 for S8
      "0010 ffffffff 1 R1 LDG.E.S16 1 R5 4 1 0x1002 2",
      "0018 ffffffff 1 R1 LDG.E.U16 1 R5 2 1 0x1002 2",
      "0020 ffffffff 1 R1 LDG.E.128 1 R5 16 1 0x2000 16",
      kExit,
  }));
  EXPECT_EQ(k.insts[0].width, 1u);
  EXPECT_EQ(k.insts[1].width, 2u);
  EXPECT_EQ(k.insts[2].width, 2u);
  EXPECT_EQ(k.insts[3].width, 16u);
  EXPECT_EQ(k.wide_accesses, 1u);
}

TEST(TraceParser, IsaOverrideTimesTheTraceAsAnotherGeneration) {
  ParseOptions opt;
  opt.isa_override = 70;
  const ParsedKernel k = parse(one_warp({"0008 ffffffff 1 R1 MOV 0 0", kExit}), opt);
  EXPECT_STREQ(k.isa->family, "Volta");
  EXPECT_EQ(k.insts[0].latency, 4u);
  const ParsedKernel p = parse(one_warp({"0008 ffffffff 1 R1 MOV 0 0", kExit}));
  EXPECT_EQ(p.insts[0].latency, 6u);
}

// The fast reading of instruction lines (ParseOptions::fast_lines) gives the general reading's
// kernel, or its error, on every shared trace and on lines at each field's edges.
TEST(TraceParser, FastLinesReadAsTheGeneralReading) {
  ParseOptions general;
  general.fast_lines = false;
  const auto both = [&](const std::string& text) {
    const std::string fast = error_of(text), slow = error_of(text, general);
    EXPECT_EQ(fast, slow) << text;
    if (fast == "(accepted)" && slow == "(accepted)") {
      EXPECT_EQ(fingerprint(parse(text)), fingerprint(parse(text, general))) << text;
      return true;
    }
    return false;
  };
  const std::string v5 = replace(replace(kHeader, "version = 4", "version = 5"), "lineinfo = 0", "lineinfo = 1");
  uint32_t accepted = 0, lines = 0;
  for (const char* l : {
           // accepted: prefixes, long numbers, blanks, operand files, immediates, the three modes
           "0x0008 0XFFFFFFFF 1 R1 MOV 0 0", "00000000000000008 ffffffff 0 NOP 0 0", "ffffffffffffffff 0000ffff 0 NOP 0 0",
           "0008\tffffffff  2 R254 R255 IADD3.X 3 UR62 UR63 P7 0", "0008 ffffffff 1 UP6 PLOP3.LUT 2 P0 UP7 0 -5",
           "0008 ffffffff 1 R0001 MOV 0 0 18446744073709551615", "0008 ffffffff 1 R1 MOV 0 0 -9223372036854775808",
           "0008 0000000f 1 R1 LDG.E.64 1 R2 8 0 0x7f2b2d500000 0x7f2b2d500008 7f2b2d500010 0X7F2B2D500018",
           "0008 000000f0 1 R1 LDG.E 1 R2 4 1 0x7f2b2d500000 -4", "0008 00000f00 1 R1 LDG.E 1 R2 04 2 0x7f2b2d500000 4 -8 12",
           "0008 00000100 1 R1 LDG.E.S8 1 R2 4 2 0x7f2b2d500003", "0008 00000000 1 R1 LDG.E 1 R2 4 0 7",
           "0008 ffffffff 1 R1 LDL.128 1 R2 16 1 0x00007e0000000010 16", "0008 ffffffff 1 R1 LD.E 1 R2 4 1 0x7f0000000100 4",
           "0008 ffffffff 0 BAR.ARV 0 0", "0008 ffffffff 0 NOPE 0 0", "0008 ffffffff 1 R1 MOV 0 00",
           // rejected, or read differently: every one goes the general way
           "0008 fffffffff 0 NOP 0 0", "0008 ffffffff 9 NOP 0 0", "0008 ffffffff 1 R256 MOV 0 0", "0008 ffffffff 1 UR64 MOV 0 0",
           "0008 ffffffff 1 RZ MOV 0 0", "0008 ffffffff 1 R1 mov 0 0", "0008 ffffffff 1 R1 MOV 0 0 5 6", "0008 ffffffff 1 R1 MOV 0 0 0x5",
           "0008 ffffffff 1 R1 LDG.E 1 R2 4 3 0x10 4", "0008 00000005 1 R1 LDG.E 1 R2 4 1 0x10 4", "0008 ffffffff 1 R1 LDG.E 1 R2 4",
           "0008 00000003 1 R1 LDG.E 1 R2 4 2 0x10 +4", "0008 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1002 4", "0x ffffffff 0 NOP 0 0",
           "0008 ffffffff 0 UTMALDG 0 0", "0008 ffffffff 1 R1 LDG.E 1 R2 1025 1 0x10 4", "0008 ffffffff 1 R1 IADD 1 R1x 0",
           "0008 ffffffff 1 R1 LDG.E 1 R2 3 1 0x30 3", "0008 00000001 1 R1 LDL 1 R2 4 0 0x00007d0000000000"}) {
    const std::string line = l;
    accepted += both(one_warp({line, kExit}));
    both(v5 + tb("0,0,0", {{"12 " + line, kExit}}));
    ++lines;
  }
  EXPECT_EQ(accepted, 17u) << "of " << lines;
  // Structure errors around instruction lines: outside a warp, more lines than 'insts ='.
  both(kHeader + "#BEGIN_TB\nthread block = 0,0,0\n" + kExit + "\n");
  both(replace(one_warp({kExit, kExit}), "insts = 2", "insts = 1"));
  // The shared traces.
  namespace fs = std::filesystem;
  uint32_t files = 0;
  for (const auto& d : fs::directory_iterator(L1D_TRACE_DIR)) {
    if (!d.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(d.path())) {
      const std::string name = f.path().string();
      if (!name.ends_with(".traceg")) continue;
      auto in = LineReader::open_file(name), again = LineReader::open_file(name);
      const ParsedKernel k = parse_kernel(*in);
      EXPECT_GT(k.trace_instructions, 0u) << name;
      EXPECT_EQ(fingerprint(k), fingerprint(parse_kernel(*again, general))) << name;
      ++files;
    }
  }
  EXPECT_GT(files, 4u);
}

// The fast reader keeps the heads of lines it read (line_head_cache.h) and takes them for a line
// that starts with one: warps that repeat heads with other addresses, immediates, blanks and
// endings read as the general reading does, and as each line alone.
TEST(TraceParser, RepeatedHeadsReadAsTheGeneralReading) {
  ParseOptions general;
  general.fast_lines = false;
  const std::vector<std::string> lines = {
      "0008 ffffffff 0 NOP 0 0",        // the head is the whole line: only the whole line takes it
      "0008 ffffffff 0 NOP 0 0 7",      // ... so this one reads its own head (with a blank at its end)
      "0008 ffffffff 0 NOP 0 0  -3",    // ... which this one takes, its extra blank skipped
      "0008 ffffffff 0 NOP 0 0\t12",
      "0010 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f2b2d500000 4",
      "0010 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f2b2d500080 4 0",
      "0010 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f2b2d5fffc0 4",   // over a 2 MiB page: listed lanes
      "0010 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f2b2d500102 4",   // misaligned
      "0010 ffffffff 1 R4 LDG.E 1 R2 4 0 0x7f2b2d500000",     // too few addresses
      "0010 0000000f 1 R4 LDG.E 1 R2 4 0 0x7f2b2d500000 0x7f2b2d500010 0x7f2b2d500004 0x7f2b2d500008",
      "0010 0000000f 1 R4 LDG.E 1 R2 4 2 0x7f2b2d500000 4 4 -12",
      "0010 0000000f 1 R4 LDG.E 1 R2 4 1 0x7f2b2d500000 -4",
      "0010 00000000 1 R4 LDG.E 1 R2 4 1 0x7f2b2d500000 4",
      "0020 ffffffff 1 R1 LDL.128 1 R2 16 1 0x00007e0000000010 16",  // local: every lane translated
      "0020 ffffffff 1 R1 LDL.128 1 R2 16 1 0x00007e0000000020 16",
      "0028 ffffffff 1 R1 LD.E 1 R2 4 1 0x7f0000000100 4",            // generic: shared by its first lane
      "0028 ffffffff 1 R1 LD.E 1 R2 4 1 0x7f2b2d500100 4",
      "0030 ffffffff 2 R254 R255 IADD3.X 3 UR62 UR63 P7 0",
      "0030 ffffffff 2 R254 R255 IADD3.X 3 UR62 UR63 P7 0 5",
      "0030 ffffffff 2 R254 R255 IADD3.X 3 UR62 UR63 P7 05",       // mem_width 5 after a whole-line head
      "0030 ffffffff 2 R254 R255 IADD3.X 3 UR62 UR63 P7 0 0x5",
  };
  // Each line after the accepted ones before it, in two warps: the second warp takes every head
  // from the first.
  std::vector<std::string> good;
  for (const std::string& l : lines) {
    std::vector<std::string> w = good;
    w.push_back(l);
    w.push_back(kExit);
    const std::string text = replace(kHeader, "(32,1,1)", "(64,1,1)") + tb("0,0,0", {w, w});
    const std::string fast = error_of(text), slow = error_of(text, general);
    EXPECT_EQ(fast, slow) << l;
    if (fast == "(accepted)" && slow == "(accepted)") {
      EXPECT_EQ(fingerprint(parse(text)), fingerprint(parse(text, general))) << l;
      good.push_back(l);
    }
  }
  EXPECT_EQ(good.size(), 17u) << "of " << lines.size();
}

TEST(LineHeadCache, FindsAKeptHeadOnlyWhereItsReadingHolds) {
  LineHeadCache c;
  LineHeadFields f;
  f.pc = 0x10;
  f.mask = 0xFFFFu;
  f.mem_width = 4;
  f.dsts = 1;
  f.regs[0] = 4;
  uint32_t head = 0;
  const std::string ldg = "0010 0000ffff 1 R4 LDG.E 1 R2 4 1 0x7f2b2d500000 4";
  const auto head_of = [](const std::string& l, const std::string& rest) { return static_cast<uint32_t>(l.find(rest)); };
  EXPECT_EQ(c.find(ldg, head), nullptr);  // empty
  c.put(ldg, head_of(ldg, "1 0x"), f);
  const LineHeadFields* got = c.find("0010 0000ffff 1 R4 LDG.E 1 R2 4 0 0x7f2b2d500008", head);
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(head, head_of(ldg, "1 0x"));
  EXPECT_EQ(got->pc, 0x10u);
  EXPECT_EQ(got->mask, 0xFFFFu);
  EXPECT_EQ(got->regs[0], 4u);
  EXPECT_EQ(c.find("0010 0000ffff 1 R4 LDG.E 1 R2 4", head), nullptr);  // shorter than the head
  EXPECT_EQ(c.find("0010 0000ffff 1 R4 LDG.E 1 R3 4 1 0x7f2b2d500000 4", head), nullptr);  // another head
  // A head that was its whole line matches that line only (not one it is a prefix of).
  const std::string nop = "0010 0000ffff 1 R4 MOV 0 0";
  c.put(nop, static_cast<uint32_t>(nop.size()), f);
  EXPECT_NE(c.find(nop, head), nullptr);
  EXPECT_EQ(head, nop.size());
  EXPECT_EQ(c.find(nop + "5", head), nullptr);
  EXPECT_EQ(c.find(nop + " 5", head), nullptr);
  // The slot is the first 16 bytes' (PC, mask and destination count): the MOV replaced the LDG.
  EXPECT_EQ(c.find(ldg, head), nullptr);
  // Heads over kMaxText bytes are not kept; short lines hash what they have.
  const std::string long_head = "0010 0000ffff 8 R1 R2 R3 R4 R5 R6 R7 R8 IMAD 8 R9 R10 R11 R12 R13 R14 R15 R16 0 ";
  ASSERT_GT(long_head.size(), LineHeadCache::kMaxText);
  c.put(long_head, static_cast<uint32_t>(long_head.size()), f);
  EXPECT_EQ(c.find(long_head + "7", head), nullptr);
  c.put("0 1 0 N", 7, f);
  EXPECT_NE(c.find("0 1 0 N", head), nullptr);
  EXPECT_EQ(c.find("0 1 0 NO", head), nullptr);
}

TEST(TraceParser, LaneCountIsPopcount) {
  for (uint32_t m : {0u, 1u, 0x80000000u, 0xFFFFFFFFu, 0x0000FFFFu, 0xAAAAAAAAu, 0x55555555u, 0x7FFFFFFFu})
    EXPECT_EQ(lane_count(m), static_cast<uint32_t>(std::popcount(m))) << m;
  uint32_t x = 12345;
  for (int i = 0; i < 100000; ++i) {
    x = x * 1664525u + 1013904223u;
    const uint32_t m = x >> (i % 32);  // masks of every length
    ASSERT_EQ(lane_count(m), static_cast<uint32_t>(std::popcount(m))) << m;
  }
}

TEST(SassTable, ClassesLatenciesAndVersions) {
  ASSERT_NE(lookup_opcode("LDG"), nullptr);
  EXPECT_EQ(lookup_opcode("LDG")->cls, SassClass::kGlobalLoad);
  EXPECT_EQ(lookup_opcode("STL")->cls, SassClass::kLocalStore);
  EXPECT_EQ(lookup_opcode("LD")->cls, SassClass::kGenericLoad);
  EXPECT_EQ(lookup_opcode("BAR")->cls, SassClass::kBarrier);
  EXPECT_EQ(lookup_opcode("EXIT")->cls, SassClass::kExit);
  EXPECT_EQ(lookup_opcode("FFMA")->lat, LatencyClass::kFp32);
  EXPECT_EQ(lookup_opcode("HMMA")->lat, LatencyClass::kTensor);
  EXPECT_EQ(lookup_opcode("LDG.E"), nullptr) << "lookups take the base mnemonic";
  EXPECT_EQ(lookup_opcode("NOPE"), nullptr);
  for (uint32_t v : {30u, 35u, 50u, 52u, 60u, 61u, 70u, 75u, 80u, 86u, 89u, 90u}) {
    const IsaLatencies* t = latencies_for(v);
    ASSERT_NE(t, nullptr) << v;
    for (uint32_t c = 0; c < kLatencyClasses; ++c) EXPECT_GT(t->cycles[c], 0u) << v << " class " << c;
  }
  EXPECT_EQ(latencies_for(61)->of(LatencyClass::kInt), 6u);
  EXPECT_EQ(latencies_for(35)->of(LatencyClass::kInt), 11u);
  EXPECT_EQ(latencies_for(99), nullptr);
  EXPECT_EQ(latencies_for(0), nullptr);
  EXPECT_NE(known_binary_versions().find("61"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Command list, xz, line reader

TEST(TraceParser, CommandListCopiesKernelsAndIgnoredCopiesBack) {
  const std::string list =
      "MemcpyHtoD,0x00007f2b2d500000,400\n"
      "\n"
      "MemcpyHtoD, 0x10 , 0\n"
      "kernel-1.traceg\n"
      "MemcpyDtoH,0x00007f2b2d500000,400\n"
      "/abs/kernel-2.traceg.xz\n";
  auto in = LineReader::from_string("dir/kernelslist.g", list);
  uint64_t ignored = 0;
  const std::vector<CommandLine> c = parse_kernelslist(*in, "dir", &ignored);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].cmd.kind, TraceCommand::Kind::kMemcpy);
  EXPECT_EQ(c[0].cmd.addr, 0x7f2b2d500000u);
  EXPECT_EQ(c[0].cmd.bytes, 400u);
  EXPECT_EQ(c[0].cmd.line, 1u);
  EXPECT_EQ(c[1].cmd.addr, 0x10u);
  EXPECT_EQ(c[1].cmd.bytes, 0u);
  EXPECT_EQ(c[2].cmd.kind, TraceCommand::Kind::kKernel);
  EXPECT_EQ(c[2].cmd.kernel, 0u);
  EXPECT_EQ(c[2].kernel_path, (std::filesystem::path("dir") / "kernel-1.traceg").string());
  EXPECT_EQ(c[3].cmd.kernel, 1u);
  EXPECT_EQ(c[3].kernel_path, "/abs/kernel-2.traceg.xz");
  EXPECT_EQ(c[3].cmd.line, 6u);
  EXPECT_EQ(ignored, 1u);
}

using pack::xz;

TEST(LineReader, PlainAndXzGiveTheSameLinesWithCrlfAndNoFinalNewline) {
  std::string text = "first\r\n\nthird";
  for (int i = 0; i < 20000; ++i) text += "\nline " + std::to_string(i);  // several read chunks
  for (bool compressed : {false, true}) {
    auto in = LineReader::from_string("t", compressed ? xz(text) : text, compressed ? Codec::kXz : Codec::kPlain);
    std::string l;
    ASSERT_TRUE(in->next(l));
    EXPECT_EQ(l, "first");
    ASSERT_TRUE(in->next(l));
    EXPECT_EQ(l, "");
    ASSERT_TRUE(in->next(l));
    EXPECT_EQ(l, "third");
    uint64_t n = 3;
    while (in->next(l)) ++n;
    EXPECT_EQ(n, 20003u);
    EXPECT_EQ(l, "line 19999");
    EXPECT_EQ(in->line_number(), 20003u);
    EXPECT_FALSE(in->next(l));
  }
}

TEST(LineReader, CorruptTruncatedAndNonXzDataAreErrors) {
  const std::string z = xz(one_warp({kLdg, kExit}));
  auto read_all = [](const std::string& data) {
    auto in = LineReader::from_string("k.traceg.xz", data, Codec::kXz);
    std::string l;
    while (in->next(l)) {
    }
  };
  std::string corrupt = z;
  corrupt[corrupt.size() - 12] = static_cast<char>(corrupt[corrupt.size() - 12] ^ 0x55);  // the footer's CRC32
  const std::vector<std::pair<std::string, std::string>> cases = {
      {corrupt, "corrupt xz data"}, {z.substr(0, z.size() - 20), "truncated xz data"}, {"plain text, not compressed\n", "not xz data"}};
  for (const auto& [data, want] : cases) {
    try {
      read_all(data);
      ADD_FAILURE() << "accepted; wanted " << want;
    } catch (const TraceError& e) {
      EXPECT_EQ(e.file(), "k.traceg.xz");
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  }
}

TEST(LineReader, AnOverlongLineIsAnErrorWithItsLineNumber) {
  auto in = LineReader::from_string("t", "ok\n" + std::string(kMaxLineBytes + 1, 'x') + "\n");
  std::string l;
  ASSERT_TRUE(in->next(l));
  try {
    in->next(l);
    ADD_FAILURE() << "accepted";
  } catch (const TraceError& e) {
    EXPECT_EQ(e.line(), 2u);
    EXPECT_NE(std::string(e.what()).find("line longer than"), std::string::npos);
  }
}

TEST(TraceParser, DirectoryWithXzKernelAndErrorsNamingTheListLine) {
  const auto dir = std::filesystem::temp_directory_path() / ("trace_parser_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "kernelslist.g") << "MemcpyHtoD,0x7f2b2d500000,128\nkernel-1.traceg.xz\n";
    std::ofstream(dir / "kernel-1.traceg.xz", std::ios::binary) << xz(one_warp({kLdg, kExit}));
  }
  const TraceSet s = parse_trace_dir(dir.string());
  EXPECT_EQ(s.list_file, (dir / "kernelslist.g").string());
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(s.kernels[0].file, (dir / "kernel-1.traceg.xz").string());
  EXPECT_EQ(s.kernels[0].memory_instructions, 1u);
  ASSERT_EQ(s.commands.size(), 2u);
  // A kernel file that does not exist: the list's line.
  std::ofstream(dir / "kernelslist.g") << "MemcpyHtoD,0x7f2b2d500000,128\n\nkernel-7.traceg\n";
  try {
    parse_trace_dir((dir / "kernelslist.g").string());
    ADD_FAILURE() << "accepted";
  } catch (const TraceError& e) {
    EXPECT_EQ(e.file(), (dir / "kernelslist.g").string());
    EXPECT_EQ(e.line(), 3u);
    EXPECT_NE(std::string(e.what()).find("kernel-7.traceg:0: cannot open"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
  try {
    parse_trace_dir(dir.string());
    ADD_FAILURE() << "accepted";
  } catch (const TraceError& e) {
    EXPECT_EQ(e.line(), 0u);
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// Errors: every one names the file and the line.

struct BadInput {
  const char* what;
  std::string text;
  std::string line_marker;  // the error's line: where this text first ends (line_of); "" = 0; "$" = the last
  std::string message;      // part of the error message
  ParseOptions opt = {};
};

void expect_errors(const std::vector<BadInput>& cases) {
  for (const BadInput& c : cases) {
    const std::string got = error_of(c.text, c.opt);
    const uint64_t line = c.line_marker == "$"   ? last_line(c.text)
                          : c.line_marker.empty() ? 0
                                                  : line_of(c.text, c.line_marker);
    const std::string want = "k.traceg:" + std::to_string(line) + ": ";
    EXPECT_EQ(got.substr(0, want.size()), want) << c.what << ": " << got;
    EXPECT_NE(got.find(c.message), std::string::npos) << c.what << ": " << got << "\n  wanted: " << c.message;
    // Read in parts (cut at every '#BEGIN_TB' line the text has, up to 3), the error is the same.
    EXPECT_EQ(error_of(c.text, c.opt, 3), got) << c.what;
  }
}

TEST(TraceParserErrors, Header) {
  const std::string body = tb("0,0,0", {{kExit}});
  auto h = [&](const std::string& from, const std::string& to) { return replace(kHeader, from, to) + body; };
  ParseOptions isa99;
  isa99.isa_override = 99;
  expect_errors({
      {"empty file", "", "", "empty trace file"},
      {"no instructions", "-kernel name = k\n-grid dim = (1,1,1)\n", "$", "the file ends in the header"},
      {"not a header line", h("-shmem = 0", "shmem = 0"), "shmem = 0", "expected a header line"},
      {"no '='", h("-nregs = 8", "-nregs 8"), "-nregs 8", "header line without '='"},
      {"key twice", h("-shmem = 0", "-nregs = 9"), "-nregs = 8", "'nregs' given twice"},
      {"empty name", h("-kernel name = _Z1kPf", "-kernel name ="), "-kernel name", "empty kernel name"},
      {"kernel id", h("-kernel id = 1", "-kernel id = one"), "-kernel id", "bad value of 'kernel id'"},
      {"grid dim form", h("(1,1,1)", "(1,1)"), "-grid dim", "expected (x,y,z)"},
      {"grid dim zero", h("(1,1,1)", "(0,1,1)"), "-grid dim", "at least 1"},
      {"grid over CUDA limits", h("(1,1,1)", "(1,65536,1)"), "-grid dim", "over the CUDA limits"},
      {"block too big", h("(32,1,1)", "(32,32,2)"), "-block dim", "2048 threads, over 1024"},
      {"grid of too many warps", replace(h("(1,1,1)", "(65535,65535,1)"), "(32,1,1)", "(1024,1,1)"), "-grid dim",
       "over 2^32 warps"},
      {"shmem", h("-shmem = 0", "-shmem = -4"), "-shmem", "bad value of 'shmem'"},
      {"binary version", h("= 61", "= sm_61"), "-binary version", "bad value of 'binary version'"},
      {"base address", h("0x00007f0000000000", "0xg"), "-shmem base_addr", "a hex address"},
      {"tracer version 7", h("version = 4", "version = 7"), "-accelsim tracer", "unsupported accelsim tracer version '7' (0 to 6"},
      {"tracer version 1.", h("version = 4", "version = 1."), "-accelsim tracer",
       "bad value of 'accelsim tracer version': '1.' (a version number such as 5 or 1.2)"},
      {"tracer version x", h("version = 4", "version = 1.x"), "-accelsim tracer", "bad value of 'accelsim tracer version': '1.x'"},
      {"tracer version -1", h("version = 4", "version = -1"), "-accelsim tracer", "bad value of 'accelsim tracer version': '-1'"},
      {"lineinfo 2", h("lineinfo = 0", "lineinfo = 2"), "-enable lineinfo", "bad value of 'enable lineinfo'"},
      {"no name", h("-kernel name = _Z1kPf\n", ""), "#traces", "no '-kernel name' line"},
      {"no grid", h("-grid dim = (1,1,1)\n", ""), "#traces", "no '-grid dim' line"},
      {"no block", h("-block dim = (32,1,1)\n", ""), "#traces", "no '-block dim' line"},
      {"no binary version", h("-binary version = 61\n", ""), "#traces", "no '-binary version' line"},
      {"binary version unknown", h("= 61", "= 99"), "-binary version", "binary version 99 is not in the SASS latency table"},
      {"override unknown", kHeader + body, "", "binary version 99 (the override) is not in the SASS latency table", isa99},
  });
}

TEST(TraceParserErrors, Structure) {
  const std::string two_warps = replace(kHeader, "(32,1,1)", "(64,1,1)");
  const std::string grid2 = replace(kHeader, "(1,1,1)", "(2,1,1)");
  expect_errors({
      {"text after #BEGIN_TB", kHeader + "#BEGIN_TB x\n", "#BEGIN_TB x", "unexpected text after #BEGIN_TB"},
      {"text after #END_TB", replace(one_warp({kExit}), "#END_TB", "#END_TB y"), "#END_TB y", "unexpected text after #END_TB"},
      {"nested #BEGIN_TB", replace(one_warp({kExit}), "#END_TB", "#BEGIN_TB"), kExit + "\n\n#BEGIN_TB", "#BEGIN_TB inside"},
      {"#END_TB outside", kHeader + "#END_TB\n", "#END_TB", "#END_TB outside a thread block"},
      {"block without name", kHeader + "#BEGIN_TB\n#END_TB\n", "#END_TB", "without a 'thread block = x,y,z' line"},
      {"header after start", one_warp({kExit}) + "-shmem = 4\n", "-shmem = 4", "header line after the start"},
      {"block line outside", kHeader + "thread block = 0,0,0\n", "thread block", "outside #BEGIN_TB"},
      {"block line twice", replace(one_warp({kExit}), "warp = 0", "thread block = 0,0,0\nwarp = 0"), "0,0,0\n\nthread block = 0,0,0",
       "second 'thread block' line"},
      {"bad block line", replace(one_warp({kExit}), "= 0,0,0", "= 0,0"), "thread block", "bad thread block line"},
      {"block line without '='", replace(one_warp({kExit}), "thread block = 0,0,0", "thread block 0,0,0"), "thread block",
       "bad thread block line"},
      {"block outside grid", replace(one_warp({kExit}), "= 0,0,0", "= 0,1,0"), "thread block", "outside the grid (1,1,1)"},
      {"block twice", grid2 + tb("0,0,0", {{kExit}}) + tb("0,0,0", {{kExit}}), "thread block = 0,0,0\n\nwarp = 0\ninsts = 1\n" + kExit + "\n\n#END_TB\n\n#BEGIN_TB\n\nthread",
       "appears twice"},
      {"warp line outside", kHeader + "warp = 0\n", "warp = 0", "'warp' line outside a named thread block"},
      {"warp outside block", replace(one_warp({kExit}), "warp = 0", "warp = 1"), "warp = 1", "warp 1 outside a block of 32 threads"},
      {"bad warp line", replace(one_warp({kExit}), "warp = 0", "warp = x"), "warp = x", "bad warp line"},
      {"warp twice", two_warps + replace(tb("0,0,0", {{kExit}, {kExit}}), "warp = 1", "warp = 0"), "warp = 0\ninsts = 1\n" + kExit + "\n\nwarp = 0",
       "warp 0 of thread block (0,0,0) appears twice"},
      {"insts without warp", kHeader + "#BEGIN_TB\nthread block = 0,0,0\ninsts = 1\n", "insts", "'insts' line without a 'warp' line"},
      {"insts twice", replace(one_warp({kExit}), "insts = 1", "insts = 1\ninsts = 1"), "insts = 1\ninsts = 1", "second 'insts' line"},
      {"bad insts", replace(one_warp({kExit}), "insts = 1", "insts = -1"), "insts = -1", "bad insts line"},
      {"warp without insts", replace(one_warp({kExit}), "insts = 1\n" + kExit + "\n", ""), "#END_TB", "has no 'insts =' line"},
      {"instruction outside warp", kHeader + "#BEGIN_TB\nthread block = 0,0,0\n" + kExit + "\n", "0018", "instruction line outside a warp"},
      {"more lines than insts", replace(one_warp({kExit, kExit}), "insts = 2", "insts = 1"),
       kExit + "\n" + kExit, "more instruction lines than 'insts = 1'"},
      {"fewer lines than insts", replace(one_warp({kExit}), "insts = 1", "insts = 3"), "#END_TB", "declares 3 instructions but has 1"},
      {"fewer lines, next warp", two_warps + replace(tb("0,0,0", {{kExit}, {kExit}}), "insts = 1", "insts = 2"), "warp = 1",
       "declares 2 instructions but has 1"},
      {"ends inside block", kHeader + "#BEGIN_TB\nthread block = 0,0,0\n", "$", "ends inside a thread block"},
      {"missing block", grid2 + tb("0,0,0", {{kExit}}), "$", "the trace has 1 of the grid's 2 thread blocks (first missing: (1,0,0))"},
      // The parser reserves its arrays for the grid the blocks read so far predict: a header's grid
      // far larger than the file (here 2^31 - 1 blocks) must still end in this error, not an allocation's.
      {"missing blocks of a huge grid", replace(kHeader, "(1,1,1)", "(2147483647,1,1)") + tb("0,0,0", {{kExit}}) +
                                            tb("1,0,0", {{kExit}}) + tb("2,0,0", {{kExit}}),
       "$", "the trace has 3 of the grid's 2147483647 thread blocks (first missing: (3,0,0))"},
      {"missing warp", two_warps + tb("0,0,0", {{kExit}}), "$", "thread block (0,0,0) has no trace of warp 1"},
  });
}

TEST(TraceParserErrors, InstructionLines) {
  auto inst = [](const std::string& l) { return one_warp({l, kExit}); };
  std::string v5 = replace(replace(kHeader, "version = 4", "version = 5"), "lineinfo = 0", "lineinfo = 1");
  expect_errors({
      {"truncated: mask", inst("0008"), "0008", "truncated line: active mask missing"},
      {"truncated: opcode", inst("0008 ffffffff 1 R1"), "0008", "truncated line: opcode missing"},
      {"truncated: sources", inst("0008 ffffffff 1 R1 IADD 2 R1"), "0008", "truncated line: source register missing"},
      {"truncated: width", inst("0008 ffffffff 1 R1 IADD 1 R1"), "0008", "truncated line: memory width missing"},
      {"truncated: mode", inst("0008 ffffffff 1 R1 LDG.E 1 R1 4"), "0008", "truncated line: address mode missing"},
      {"truncated: lane addresses", inst("0008 00000007 1 R1 LDG.E 1 R1 4 0 0x10 0x14"), "0008",
       "truncated line: lane address missing"},
      {"truncated: stride", inst("0008 ffffffff 1 R1 LDG.E 1 R1 4 1 0x10"), "0008", "truncated line: stride missing"},
      {"truncated: deltas", inst("0008 00000007 1 R1 LDG.E 1 R1 4 2 0x10 4"), "0008", "truncated line: address delta missing"},
      {"bad PC", inst("00z8 ffffffff 0 NOP 0 0"), "00z8", "bad PC: '00z8' is not a 64-bit hex number"},
      {"PC over 64 bits", inst("10000000000000000 ffffffff 0 NOP 0 0"), "10000000000000000", "bad PC"},
      {"wide mask", inst("0008 1ffffffff 0 NOP 0 0"), "0008", "active mask 0x1ffffffff wider than 32 lanes"},
      {"bad dest count", inst("0008 ffffffff x NOP 0 0"), "0008", "bad destination count: 'x'"},
      {"dest count over 8", inst("0008 ffffffff 9 NOP 0 0"), "0008", "bad destination count: 9 is over 8"},
      {"bad dest register", inst("0008 ffffffff 1 Q1 MOV 0 0"), "0008", "bad destination register 'Q1'"},
      {"dest register out of range", inst("0008 ffffffff 1 R256 MOV 0 0"), "0008",
       "destination register 'R256' out of range (R0-R255, UR0-UR63, P0-P7, UP0-UP7)"},
      {"bad opcode", inst("0008 ffffffff 0 mov 0 0"), "0008", "bad opcode 'mov'"},
      {"source predicate out of range", inst("0008 ffffffff 0 IADD 1 P8 0"), "0008", "source register 'P8' out of range"},
      {"bad source register", inst("0008 ffffffff 0 IADD 1 R1x 0"), "0008", "bad source register 'R1x'"},
      {"width over limit", inst("0008 ffffffff 1 R1 LDG.E 1 R1 2048 1 0x10 4"), "0008", "bad memory width: 2048 is over 1024"},
      {"unknown mode", inst("0008 ffffffff 1 R1 LDG.E 1 R1 4 3 0x10 4"), "0008", "unknown address mode 3 (0, 1 or 2)"},
      {"mode 1, gaps", inst("0008 00000005 1 R1 LDG.E 1 R1 4 1 0x10 4"), "0008", "needs contiguous active lanes"},
      {"bad lane address", inst("0008 00000001 1 R1 LDG.E 1 R1 4 0 0xzz"), "0008", "bad lane address: '0xzz'"},
      {"bad stride", inst("0008 ffffffff 1 R1 LDG.E 1 R1 4 1 0x10 4.5"), "0008", "bad stride: '4.5'"},
      {"bad delta", inst("0008 00000003 1 R1 LDG.E 1 R1 4 2 0x10 +-4"), "0008", "bad address delta: '+-4'"},
      {"text after", inst("0008 ffffffff 1 R1 MOV 0 0 5 6"), "0008", "unexpected text after the instruction: '6'"},
      {"bad immediate", inst("0008 ffffffff 1 R1 MOV 0 0 0x5"), "0008", "bad immediate: '0x5'"},
      {"too many addresses", inst("0008 00000001 1 R1 LDG.E 1 R1 4 0 0x10 0x14"), "0008", "bad immediate: '0x14'"},
      {"TMA", inst("0008 ffffffff 0 UTMALDG.2D 2 UR4 UR6 0"), "0008", "unsupported instruction UTMALDG"},
      {"load without addresses", inst("0008 ffffffff 1 R1 LDG.E 1 R2 0"), "0008", "LDG.E without memory addresses"},
      {"odd width", inst("0008 ffffffff 1 R1 LDG.E 1 R2 3 1 0x30 3"), "0008", "memory width 3 of LDG.E is not 1, 2, 4, 8 or 16"},
      {"unaligned", inst("0008 ffffffff 1 R1 LDG.E.64 1 R2 8 1 0x1004 8"), "0008",
       "lane 0 address 0x1004 is not aligned to the access width 8"},
      {"local outside window", inst("0008 00000001 1 R1 LDL 1 R2 4 0 0x00007d0000000000"), "0008",
       "local address 0x7d0000000000 outside the local window"},
      {"v5 line number missing", v5 + tb("0,0,0", {{"0008 ffffffff 1 R1 MOV 0 0"}}), "0008",
       "bad destination count: 'R1'"},  // the PC is read as the line number, the mask as the PC, ...
      {"v5 bad line number", v5 + tb("0,0,0", {{"x1 0008 ffffffff 1 R1 MOV 0 0"}}), "x1", "bad line number: 'x1'"},
  });
}

TEST(TraceParserErrors, PrefixedLines) {
  const std::string old = replace(replace(kHeader, "-accelsim tracer version = 4\n", ""), "(32,1,1)", "(64,1,1)");
  const std::string ok_w1 = "\nwarp = 1\ninsts = 1\n0 0 0 1 " + kExit + "\n";
  auto in_tb = [&](const std::string& l) {
    return old + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n" + l + "\n" + ok_w1 + "#END_TB\n";
  };
  expect_errors({
      {"prefix: bad block x", old + "a 0 0 0 " + kExit + "\n", "a 0 0", "bad thread block x: 'a'"},
      {"prefix: truncated", old + "0 0\n", "0 0", "truncated line: thread block z missing"},
      {"prefix: block outside grid", old + "0 0 1 0 " + kExit + "\n", "0 0 1 0", "thread block (0,0,1) outside the grid"},
      {"prefix: warp outside block", old + "0 0 0 2 " + kExit + "\n", "0 0 0 2", "warp 2 outside a block of 2 warps"},
      {"prefix: other warp", in_tb("0 0 0 1 " + kExit), "0 0 0 1 0018", "the line's warp 1 is not the current warp 0"},
      {"prefix: before block line", old + "#BEGIN_TB\n0 0 0 0 " + kExit + "\n", "0 0 0 0", "before the 'thread block' line"},
      {"prefix: no insts line", old + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n0 0 0 0 " + kExit + "\n", "0 0 0 0",
       "before the warp's 'insts =' line"},
      {"prefix: more than insts", in_tb("0 0 0 0 " + kExit + "\n0 0 0 0 " + kExit),
       "0 0 0 0 0018 ffffffff 0 EXIT 0 0\n0 0 0 0", "more instruction lines than 'insts = 1'"},
  });
  // A line of another block inside a block.
  const std::string grid2 = replace(old, "(1,1,1)", "(2,1,1)");
  expect_errors({{"prefix: other block",
                  grid2 + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n1 0 0 0 " + kExit + "\n", "1 0 0 0",
                  "the line's thread block (1,0,0) is not the current one (0,0,0)"}});
}

TEST(TraceParserErrors, CommandList) {
  auto err = [](const std::string& list) -> std::string {
    try {
      auto in = LineReader::from_string("kernelslist.g", list);
      parse_kernelslist(*in, ".");
    } catch (const TraceError& e) {
      return e.what();
    }
    return "(accepted)";
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"MemcpyHtoD,0x10\nkernel-1.traceg\n", "kernelslist.g:1: bad copy command"},
      {"kernel-1.traceg\nMemcpyHtoDX,0x10,4\n", "kernelslist.g:2: bad copy command"},
      {"MemcpyHtoD,16,4\nkernel-1.traceg\n", "kernelslist.g:1: bad copy address '16'"},
      {"MemcpyHtoD,0xq,4\nkernel-1.traceg\n", "kernelslist.g:1: bad copy address '0xq'"},
      {"MemcpyHtoD,0x10,-4\nkernel-1.traceg\n", "kernelslist.g:1: bad copy size '-4'"},
      {"MemcpyHtoD,0xffffffffffffff00,4096\nkernel-1.traceg\n", "kernelslist.g:1: the copy wraps"},
      {"\nkernel-1.txt\n", "kernelslist.g:2: neither a MemcpyHtoD command nor a kernel trace file"},
      {"MemcpyHtoD,0x10,4\n", "kernelslist.g:1: the command list names no kernel trace"},
      {"", "kernelslist.g:0: the command list names no kernel trace"},
  };
  for (const auto& [list, want] : cases) {
    const std::string got = err(list);
    EXPECT_EQ(got.substr(0, want.size()), want) << got;
  }
}

// ---------------------------------------------------------------------------------------------
// Issue 22: real traces the reader used to refuse.

// A version-6 header (Accel-Sim 2.0's tracer) on an Ampere trace.
std::string v6_header() { return replace(replace(kHeader, "version = 4", "version = 6"), "= 61", "= 80"); }

TEST(TraceParser, NonIntegerTracerVersionIsItsIntegerPartAndDecidesThePrefix) {
  // An NVBit-1.x-era Turing trace says "1.2": Accel-Sim reads 1, the prefixed format. "0" (as
  // no line at all) and "2" are prefixed too; "3.0" is not.
  for (const std::string v : {"1.2", "0", "2", "2.0.1"}) {
    SCOPED_TRACE(v);
    const std::string text = replace(kHeader, "version = 4", "version = " + v) +
                             tb("0,0,0", {{"0 0 0 0 " + kLdg, "0 0 0 0 " + kExit}});
    const ParsedKernel k = parse(text);
    EXPECT_EQ(k.header.tracer_version, static_cast<uint32_t>(v[0] - '0'));
    EXPECT_EQ(k.header.tracer_version_text, v);
    EXPECT_EQ(k.trace_instructions, 2u);
    EXPECT_EQ(k.insts[0].kind, OpKind::kLoad);
  }
  const ParsedKernel k = parse(replace(kHeader, "version = 4", "version = 3.0") + tb("0,0,0", {{kLdg, kExit}}));
  EXPECT_EQ(k.header.tracer_version, 3u);
  EXPECT_EQ(k.insts[0].kind, OpKind::kLoad);
}

TEST(TraceParser, Version3KeepsTheOldFormatCommentButHasNoPrefix) {
  // As the Rodinia BFS trace: the version decides, never the comment.
  std::string text = replace(kHeader, "version = 4", "version = 3");
  text = replace(text, "#traces format = [line_num] PC", "#traces format = threadblock_x threadblock_y threadblock_z warpid_tb PC");
  text += tb("0,0,0", {{kLdg, "0018 ffffffff 0 STG.E 2 R2 R4 4 1 0x7f2b2d500100 4", kExit}});
  const ParsedKernel k = parse(text);
  EXPECT_EQ(k.trace_instructions, 3u);
  EXPECT_EQ(k.insts[1].kind, OpKind::kStore);
  EXPECT_EQ(k.lane_address(k.insts[1], 0), 0x7f2b2d500100u);
}

TEST(TraceParser, Version6RegisterValuesImmediatesAndClusterLines) {
  std::string vals32 = "32";
  for (int l = 0; l < 32; ++l) vals32 += " " + std::to_string(l);
  std::string text = v6_header() + tb("1,0,0", {{
      "0000 ffffffff 1 R1 LDC 0 0 0 NoVal",
      "0010 ffffffff 1 R2 IMAD 2 R1 R3 0 18446744073709551615 Val 1 5 " + vals32 + " 1 ffffffff",  // unsigned immediate
      "0020 ffffffff 1 P0 ISETP.GE 2 R2 UR4 0 -1 7 Val 1 1 1 0x10 1 abc",                         // two immediates, a predicate
      "0028 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f2b2d500000 4 0 NoVal",
      "0030 ffffffff 1 R8 HGMMA.64x8x16.F32 2 UR4 UR6 1 0 0 NoVal",                                 // the commit-group flag
      "0038 ffffffff 0 EXIT 0 0 0",                                                                 // no marker: as Accel-Sim, NoVal
  }});
  text = replace(replace(text, "(1,1,1)", "(2,1,1)"), "thread block = 1,0,0\n",
                 "thread block = 1,0,0\ncluster id = 0,0,0\ncluster cta = 1,0,0\ncluster rank = 1\n");
  text += tb("0,0,0", {{"0000 ffffffff 0 EXIT 0 0 0 NoVal"}});
  const ParsedKernel k = parse(text);
  EXPECT_EQ(k.header.tracer_version, 6u);
  EXPECT_STREQ(k.isa->family, "Ampere");
  EXPECT_EQ(k.trace_instructions, 7u);
  EXPECT_EQ(k.memory_instructions, 1u);
  // Block (0,0,0) first: its EXIT, then block (1,0,0).
  EXPECT_EQ(k.insts[2].latency, k.isa->of(LatencyClass::kInt));
  EXPECT_EQ(k.insts[4].kind, OpKind::kLoad);
  EXPECT_EQ(k.lane_address(k.insts[4], 1), 0x7f2b2d500004u);
  EXPECT_EQ(k.insts[5].latency, k.isa->of(LatencyClass::kTensor));
  EXPECT_EQ(k.insts[6].kind, OpKind::kExit);
  EXPECT_TRUE(k.unknown_opcodes.empty());
}

TEST(TraceParser, RawVersion6LinesCarryTheClusterAfterBlockAndWarp) {
  ParseOptions raw;
  raw.prefixed = true;
  const std::string text = v6_header() + "0 0 0 0 0 0 0 0 0 0 0 " + kLdg + " 0 NoVal\n0 0 0 0 0 0 0 0 0 0 0 " + kExit + " 0 NoVal\n";
  const ParsedKernel k = parse(text, raw);
  EXPECT_EQ(k.trace_instructions, 2u);
  EXPECT_EQ(k.insts[0].kind, OpKind::kLoad);
  EXPECT_EQ(k.insts[1].kind, OpKind::kExit);
}

TEST(TraceParser, Mode2SingleLaneHasNoDeltaAndZeroMasksMakeNoAccess) {
  // Verified against Accel-Sim's parser: mode 2 carries popcount(mask) - 1 deltas, so a single
  // active lane is its base alone and the immediate after it is not a delta; a memory
  // instruction with no active lane (the tracer writes base-stride "0x0 0") makes no access.
  const std::string v5 = replace(kHeader, "version = 4", "version = 5");
  const ParsedKernel k = parse(v5 + tb("0,0,0", {{
      "0008 00000100 1 R4 LDG.E 1 R2 4 2 0x7f2b2d500020 16",    // lane 8 only, immediate 16
      "0010 00000101 1 R4 LDG.E 1 R2 4 2 0x7f2b2d500020 -32 0", // lanes 0 and 8: one delta
      "0018 00000000 1 R4 LDG.E 1 R2 4 1 0x0 0 0",              // no lane, base-stride form
      "0020 00000000 0 STG.E 2 R2 R4 4 0 0",                    // no lane, listed form: no address
      "0028 00000000 1 R4 LDG.E 1 R2 4 2 0x0",                  // no lane, base-delta form: the base
      kExit,
  }}));
  EXPECT_EQ(k.memory_instructions, 5u);
  EXPECT_EQ(k.insts[0].kind, OpKind::kLoad);
  EXPECT_EQ(k.lane_address(k.insts[0], 0), 0x7f2b2d500020u);
  EXPECT_EQ(k.lane_address(k.insts[1], 0), 0x7f2b2d500020u);
  EXPECT_EQ(k.lane_address(k.insts[1], 1), 0x7f2b2d500000u);
  for (size_t i = 2; i < 5; ++i) {
    EXPECT_EQ(k.insts[i].kind, OpKind::kAlu) << i;
    EXPECT_EQ(k.insts[i].mask, 0u) << i;
  }
  EXPECT_EQ(k.insts[3].cls, TraceClass::kGlobalStore);
  EXPECT_EQ(k.addrs.size(), 2u) << "only the two active loads' lanes: one, and two strided (-32)";
  EXPECT_EQ(k.insts[1].stride, -32);
}

TEST(SassTable, AmpereAndHopperOpcodesHaveTheirClasses) {
  struct Want {
    const char* op;
    SassClass cls;
    LatencyClass lat;
  };
  for (const Want& w : std::vector<Want>{
           {"VIADD", SassClass::kAlu, LatencyClass::kInt},        {"VIMNMX", SassClass::kAlu, LatencyClass::kInt},
           {"S2UR", SassClass::kAlu, LatencyClass::kInt},         {"UIADD3", SassClass::kAlu, LatencyClass::kInt},
           {"UIMAD", SassClass::kAlu, LatencyClass::kInt},        {"USHF", SassClass::kAlu, LatencyClass::kInt},
           {"UMOV", SassClass::kAlu, LatencyClass::kInt},         {"PLOP3", SassClass::kAlu, LatencyClass::kInt},
           {"ULDC", SassClass::kConstant, LatencyClass::kConstant}, {"LDC", SassClass::kConstant, LatencyClass::kConstant},
           {"LDGSTS", SassClass::kGlobalLoad, LatencyClass::kInt}, {"LDSM", SassClass::kShared, LatencyClass::kShared},
           {"STAS", SassClass::kShared, LatencyClass::kShared},   {"LDGMC", SassClass::kAtomic, LatencyClass::kAtomic},
           {"HMMA", SassClass::kAlu, LatencyClass::kTensor},      {"IMMA", SassClass::kAlu, LatencyClass::kTensor},
           {"HGMMA", SassClass::kAlu, LatencyClass::kTensor},     {"BSSY", SassClass::kAlu, LatencyClass::kControl},
           {"BSYNC", SassClass::kAlu, LatencyClass::kControl},    {"SYNCS", SassClass::kAlu, LatencyClass::kControl},
           {"UTMACCTL", SassClass::kAlu, LatencyClass::kControl}, {"UTMALDG", SassClass::kUnsupported, LatencyClass::kInt},
       }) {
    const OpcodeInfo* i = lookup_opcode(w.op);
    ASSERT_NE(i, nullptr) << w.op;
    EXPECT_EQ(i->cls, w.cls) << w.op;
    EXPECT_EQ(i->lat, w.lat) << w.op;
  }
  // In a trace: LDGSTS reads global memory through the L1; an unknown mnemonic is counted, not refused.
  const ParsedKernel k = parse(replace(one_warp({"0008 ffffffff 0 LDGSTS.E.BYPASS.128 2 R3 R4 16 1 0x7f2b2d500000 16",
                                                 "0010 ffffffff 1 R2 FUTUREOP.X 0 0", "0018 ffffffff 1 R2 FUTUREOP 0 0", kExit}),
                                       "= 61", "= 80"));
  EXPECT_EQ(k.insts[0].kind, OpKind::kLoad);
  EXPECT_EQ(k.insts[0].width, 16u);
  EXPECT_EQ(k.unknown_opcodes.at("FUTUREOP"), 2u);
  EXPECT_EQ(k.insts[1].kind, OpKind::kAlu);
}

std::vector<std::string> all_lines(LineReader& in) {
  std::vector<std::string> v;
  for (std::string l; in.next(l);) v.push_back(l);
  return v;
}

TEST(LineReader, ZstdGivesTheSameLinesAsPlainInOneOrManyFrames) {
  std::string text = "first\r\n\nthird";
  for (int i = 0; i < 30000; ++i) text += "\nline " + std::to_string(i);  // several read chunks
  auto plain = LineReader::from_string("t", text);
  const std::vector<std::string> want = all_lines(*plain);
  for (size_t frames : {1u, 7u}) {
    auto z = LineReader::from_string("t.zst", pack::zstd(text, frames), Codec::kZstd);
    EXPECT_EQ(all_lines(*z), want) << frames << " frames";
    EXPECT_EQ(z->line_number(), 30003u);
  }
  EXPECT_EQ(codec_for("k.traceg.zst"), Codec::kZstd);
  EXPECT_EQ(codec_for("k.tracez"), Codec::kTracez);
  EXPECT_EQ(codec_for("k.traceg.xz"), Codec::kXz);
  EXPECT_EQ(codec_for("k.traceg"), Codec::kPlain);
}

TEST(LineReader, CorruptTruncatedAndNonZstdDataAreErrors) {
  const std::string z = pack::zstd(one_warp({kLdg, kExit}));
  std::string corrupt = z;
  corrupt[z.size() / 2] = static_cast<char>(corrupt[z.size() / 2] ^ 0x5a);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {z.substr(0, z.size() - 5), "truncated zstd data"},
      {z.substr(0, 3), "truncated zstd data"},
      {"", "empty file, not zstd data"},
      {"plain text, not compressed\n", "corrupt zstd data (Unknown frame descriptor)"},
      {z + "garbage", "corrupt zstd data"},
      {corrupt, "corrupt zstd data"},
  };
  for (const auto& [data, want] : cases) {
    try {
      auto in = LineReader::from_string("k.traceg.zst", data, Codec::kZstd);
      all_lines(*in);
      ADD_FAILURE() << "accepted; wanted " << want;
    } catch (const TraceError& e) {
      EXPECT_EQ(e.file(), "k.traceg.zst");
      EXPECT_GE(e.line(), 1u) << e.what();
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  }
}

// A two-block, two-warp version-6 trace with cluster lines, as text.
std::string v6_two_blocks() {
  std::string text = replace(replace(v6_header(), "(1,1,1)", "(2,1,1)"), "(32,1,1)", "(64,1,1)");
  std::vector<std::string> w0, w1 = {"0008 ffffffff 1 R1 MOV 0 0 0 NoVal", kExit + " 0 NoVal"};
  for (int i = 0; i < 5; ++i) w0.push_back("00" + std::to_string(10 + i) + " ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f2b2d5001" +
                                           std::to_string(10 + i) + "0 4 0 NoVal");
  w0.push_back(kExit + " 0 NoVal");
  for (const char* b : {"0,0,0", "1,0,0"})
    text += replace(tb(b, {w0, w1}), std::string("thread block = ") + b + "\n",
                    std::string("thread block = ") + b + "\ncluster id = 0,0,0\ncluster cta = " + b + "\ncluster rank = " + b[0] + "\n");
  return text;
}

TEST(LineReader, TracezReadsAsTheGroupedTextItStandsFor) {
  const std::string text = v6_two_blocks();
  const ParsedKernel want = parse(text);
  for (const auto& [per_subchunk, dict] : std::vector<std::pair<uint32_t, bool>>{{2048, true}, {2, true}, {3, false}}) {
    SCOPED_TRACE(per_subchunk);
    auto in = LineReader::from_string("k.tracez", pack::tracez(text, per_subchunk, dict), Codec::kTracez);
    // The decoded text: the header as stored, then the structure lines the index gives.
    const std::vector<std::string> lines = all_lines(*in);
    EXPECT_EQ(lines[0], "-kernel name = _Z1kPf");
    const auto begin = std::find(lines.begin(), lines.end(), "#BEGIN_TB");
    ASSERT_NE(begin, lines.end());
    EXPECT_EQ(std::vector<std::string>(begin, begin + 7),
              (std::vector<std::string>{"#BEGIN_TB", "thread block = 0,0,0", "cluster id = 0,0,0", "cluster cta = 0,0,0",
                                        "cluster rank = 0", "warp = 0", "insts = 6"}));
    EXPECT_EQ(lines.back(), "#END_TB");
    auto again = LineReader::from_string("k.tracez", pack::tracez(text, per_subchunk, dict), Codec::kTracez);
    const ParsedKernel k = parse_kernel(*again);
    EXPECT_EQ(k.trace_instructions, want.trace_instructions);
    EXPECT_EQ(k.warp_begin, want.warp_begin);
    EXPECT_EQ(k.addrs, want.addrs);
  }
}

TEST(LineReader, CorruptTracezContainersAreErrorsWithTheirPlace) {
  const std::string good = pack::tracez(v6_two_blocks(), 2);
  auto err = [](const std::string& data) -> std::string {
    try {
      auto in = LineReader::from_string("k.tracez", data, Codec::kTracez);
      parse_kernel(*in);
    } catch (const TraceError& e) {
      return e.what();
    }
    return "(accepted)";
  };
  const uint64_t index_at = [&] {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = v << 8 | static_cast<uint8_t>(good[good.size() - 8 + static_cast<size_t>(i)]);
    return v;
  }();
  auto with_index_at = [&](uint64_t v) {
    std::string s = good.substr(0, good.size() - 8);
    pack::put64(s, v);
    return s;
  };
  // The first warp's first sub-chunk: after the header, the 8-byte compression header, the
  // dictionary, and the warp's two count words and the frame's size word.
  const size_t nul = good.find('\0');
  const uint32_t dict = static_cast<uint8_t>(good[nul + 1]) | static_cast<uint8_t>(good[nul + 2]) << 8;
  const size_t frame = nul + 1 + 8 + dict + 8 + 4;
  std::string cut_frame = good;
  cut_frame[frame + 3] = static_cast<char>(cut_frame[frame + 3] ^ 0x77);
  std::string bad_count = good;
  bad_count[nul + 1 + 8 + dict] = 9;  // the first warp's instruction count word
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"short", "k.tracez:0: .tracez layout: 5 bytes, fewer than the smallest container's 21"},
      {std::string(100, 'x'), "k.tracez:0: .tracez layout: no NUL byte ending the kernel header in the first 100 bytes"},
      {with_index_at(good.size()), "k.tracez:0: .tracez layout: index offset"},
      {with_index_at(good.size() - 12), "k.tracez:0: .tracez layout: the index is cut short at byte"},
      {with_index_at(index_at + 4), "k.tracez:0: .tracez layout:"},
      {good.substr(0, index_at) + good.substr(good.size() - 8), "k.tracez:0: .tracez layout: index offset"},
      {cut_frame, "warp 0 of thread block (0,0,0), sub-chunk 0: corrupt zstd data"},
      {bad_count, "warp 0 of thread block (0,0,0), sub-chunk 0: its data at byte"},
  };
  for (const auto& [data, want] : cases) {
    const std::string got = err(data);
    EXPECT_NE(got.find(want), std::string::npos) << got << "\n  wanted: " << want;
  }
  // A data error names the decoded text's next line.
  const std::string got = err(cut_frame);
  EXPECT_EQ(got.rfind("k.tracez:", 0), 0u) << got;
  EXPECT_NE(got.substr(0, 12), "k.tracez:0: ") << got;
}

TEST(TraceParser, DirectoryWithZstdAndTracezKernelsAndTheNamesTheListTakes) {
  const auto dir = std::filesystem::temp_directory_path() / ("trace_parser_test_z_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string k1 = one_warp({kLdg, kExit}), k2 = v6_two_blocks();
  std::ofstream(dir / "kernelslist.g") << "MemcpyHtoD,0x7f2b2d500000,128\nkernel-1.traceg.zst\nkernel-2.tracez\n";
  std::ofstream(dir / "kernel-1.traceg.zst", std::ios::binary) << pack::zstd(k1);
  std::ofstream(dir / "kernel-2.tracez", std::ios::binary) << pack::tracez(k2);
  const TraceSet s = parse_trace_dir(dir.string());
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_EQ(s.kernels[0].memory_instructions, 1u);
  EXPECT_EQ(s.kernels[1].trace_instructions, parse(k2).trace_instructions);
  std::filesystem::remove_all(dir);
  // Every name Accel-Sim 2.0 writes (and the zstd forms of the text traces).
  const std::string list = "kernel-1.traceg\nkernel-2.traceg.xz\nkernel-3.tracez\nkernel-4.traceg.zst\n"
                           "kernel-5-ctx_0x55dfecb31820.trace\nkernel-6.trace.xz\nkernel-7.trace.zst\n";
  auto in = LineReader::from_string("kernelslist.g", list);
  EXPECT_EQ(parse_kernelslist(*in, ".").size(), 7u);
}

TEST(TraceParserErrors, Version6Lines) {
  auto inst = [](const std::string& l) { return v6_header() + tb("0,0,0", {{l, kExit + " 0 NoVal"}}); };
  std::string vals31 = "32";
  for (int l = 0; l < 31; ++l) vals31 += " 1";
  expect_errors({
      {"value count 5", inst("0008 ffffffff 1 R1 IADD3 1 R2 0 0 Val 5 1 2 3 4 5 1 7"), "0008",
       "bad register value count 5 for register 1 of 2 (1 for the warp or 32, one per lane)"},
      {"31 of 32 values", inst("0008 ffffffff 1 R1 MOV 0 0 0 Val " + vals31), "0008", "truncated line: register value missing"},
      {"values for a missing register", inst("0008 ffffffff 1 R1 MOV 0 0 0 Val 1 5 1 6"), "0008",
       "unexpected text after the instruction: '1'"},
      {"values missing", inst("0008 ffffffff 1 R1 IADD3 1 R2 0 0 Val 1 5"), "0008",
       "truncated line: register value count missing"},
      {"bad value", inst("0008 ffffffff 1 R1 MOV 0 0 0 Val 1 0xzz"), "0008", "bad register value: '0xzz'"},
      {"value over 32 bits", inst("0008 ffffffff 1 R1 MOV 0 0 0 Val 1 100000000"), "0008",
       "register value 0x100000000 over 32 bits"},
      {"bad marker", inst("0008 ffffffff 1 R1 MOV 0 0 0 Vals"), "0008", "bad register value marker 'Vals' (Val or NoVal)"},
      {"three immediates", inst("0008 ffffffff 1 R1 MOV 0 0 1 2 3 NoVal"), "0008", "bad register value marker '3'"},
      {"text after NoVal", inst("0008 ffffffff 1 R1 MOV 0 0 0 NoVal 4"), "0008", "unexpected text after the instruction: '4'"},
      {"GMMA flag missing", inst("0008 ffffffff 1 R8 HGMMA.64x8x16.F32 2 UR4 UR6 0"), "0008",
       "truncated line: memory width missing"},
      {"GMMA flag 2", inst("0008 ffffffff 1 R8 HGMMA.64x8x16.F32 2 UR4 UR6 2 0 0 NoVal"), "0008",
       "bad GMMA commit-group flag: 2 is over 1"},
      {"NoVal before version 6", one_warp({kLdg + " 0 NoVal", kExit}), "0010", "unexpected text after the instruction: 'NoVal'"},
      {"Val before version 6", one_warp({kLdg + " Val 1 5", kExit}), "0010", "bad immediate: 'Val'"},
  });
  const std::string h = v6_header();
  auto block = [&](const std::string& lines) { return h + "#BEGIN_TB\nthread block = 0,0,0\n" + lines + "warp = 0\ninsts = 1\n" + kExit + "\n#END_TB\n"; };
  expect_errors({
      {"cluster id form", block("cluster id = 0,0\n"), "cluster id", "bad cluster id line: 'cluster id = 0,0' (x,y,z)"},
      {"cluster rank form", block("cluster rank = -1\n"), "cluster rank", "bad cluster rank line: 'cluster rank = -1' (a decimal number)"},
      {"cluster key", block("cluster size = 2\n"), "cluster size", "bad cluster line 'cluster size = 2' (cluster id = x,y,z"},
      {"cluster twice", block("cluster cta = 0,0,0\ncluster cta = 0,0,0\n"), "cluster cta = 0,0,0\ncluster cta",
       "second 'cluster cta' line in one thread block"},
      {"cluster outside", h + "cluster rank = 0\n", "cluster rank", "'cluster' line outside a named thread block"},
      {"cluster after warp", replace(block(""), "insts = 1\n", "insts = 1\ncluster rank = 0\n"), "cluster rank",
       "'cluster' line after the thread block's first warp"},
  });
  ParseOptions raw;
  raw.prefixed = true;
  expect_errors({{"raw v6 prefix without the cluster", h + "0 0 0 0 " + kExit + " 0 NoVal\n", "0 0 0 0",
                  "bad cluster id y: 'ffffffff' is not a decimal number", raw}});
}

// ---- --preset auto: the binary version of the first kernel's header picks the preset ----

TEST(AutoPreset, EveryModelledGenerationHasItsPresetAndOthersNone) {
  EXPECT_EQ(auto_preset_for(61), "gtx1080");
  EXPECT_EQ(auto_preset_for(70), "qv100");
  EXPECT_EQ(auto_preset_for(80), "a100");
  EXPECT_EQ(auto_preset_for(86), "rtx3070");
  EXPECT_EQ(auto_preset_for(90), "h100");
  for (uint32_t v : {0u, 20u, 60u, 75u, 89u, 100u}) EXPECT_EQ(auto_preset_for(v), "") << v;
  EXPECT_EQ(auto_preset_table(), "61 gtx1080, 70 qv100, 80 a100, 86 rtx3070, 90 h100");
}

TEST(AutoPreset, ReadsTheFirstKernelsHeaderOnly) {
  const auto dir = std::filesystem::temp_directory_path() / ("trace_auto_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // The first kernel says 80; the second (never read) is not even a trace.
  std::ofstream(dir / "kernelslist.g") << "MemcpyHtoD,0x7f2b2d500000,128\nkernel-1.traceg\nkernel-2.traceg\n";
  std::ofstream(dir / "kernel-1.traceg") << replace(one_warp({kLdg, kExit}), "-binary version = 61", "-binary version = 80");
  std::ofstream(dir / "kernel-2.traceg") << "garbage\n";
  BinaryVersion v = peek_binary_version(dir.string());
  EXPECT_EQ(v.version, 80u);
  EXPECT_EQ(v.file, (dir / "kernel-1.traceg").string());
  EXPECT_EQ(v.line, 7u);
  AutoPreset a = choose_auto_preset((dir / "kernelslist.g").string());
  EXPECT_EQ(a.preset, "a100");
  EXPECT_EQ(a.binary_version, 80u);
  // A compressed kernel reads the same.
  std::ofstream(dir / "kernelslist.g") << "kernel-1.traceg.xz\n";
  std::ofstream(dir / "kernel-1.traceg.xz", std::ios::binary)
      << xz(replace(one_warp({kLdg, kExit}), "-binary version = 61", "-binary version = 90"));
  EXPECT_EQ(choose_auto_preset(dir.string()).preset, "h100");
  // A version without a preset: the header line named, the known ones listed.
  std::ofstream(dir / "kernelslist.g") << "kernel-1.traceg\n";
  std::ofstream(dir / "kernel-1.traceg") << replace(one_warp({kLdg, kExit}), "-binary version = 61", "-binary version = 75");
  try {
    choose_auto_preset(dir.string());
    ADD_FAILURE() << "no error for binary version 75";
  } catch (const TraceError& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "kernel-1.traceg").string() +
                                         ":7: --preset auto: no preset for binary version 75 (known: 61 gtx1080, 70 qv100, "
                                         "80 a100, 86 rtx3070, 90 h100); name one with --preset");
  }
  // No version line; a bad one.
  std::ofstream(dir / "kernel-1.traceg") << replace(one_warp({kLdg, kExit}), "-binary version = 61\n", "");
  try {
    peek_binary_version(dir.string());
    ADD_FAILURE() << "no error without a version line";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("kernel-1.traceg:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("the header has no '-binary version' line"), std::string::npos) << e.what();
  }
  std::ofstream(dir / "kernel-1.traceg") << replace(one_warp({kLdg, kExit}), "= 61", "= sm_61");
  try {
    peek_binary_version(dir.string());
    ADD_FAILURE() << "no error for a bad version";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find(":7: bad value of 'binary version': 'sm_61'"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(AutoPreset, SharedTracesPickTheirGpus) {
  const std::filesystem::path t = L1D_TRACE_DIR;
  const std::pair<const char*, const char*> cases[] = {{"romnn_vectoradd_100", "gtx1080"}, {"bfs_rodinia31_bv70", "qv100"},
                                                       {"vecadd_a100_bv80", "a100"}, {"backprop_h100_bv90", "h100"}};
  for (const auto& [trace, preset] : cases) EXPECT_EQ(choose_auto_preset((t / trace).string()).preset, preset) << trace;
}

// ---------------------------------------------------------------------------------------------
// Reading in parts (gpusim --threads)

// A kernel of `blocks` thread blocks of two warps (one load, one store, an exit each).
std::string many_blocks(uint32_t blocks) {
  std::string text = replace(replace(kHeader, "(1,1,1)", "(" + std::to_string(blocks) + ",1,1)"), "(32,1,1)", "(64,1,1)");
  for (uint32_t b = 0; b < blocks; ++b) {
    const std::string st = "0020 0000ffff 0 STG.E 2 R6 R0 4 1 0x7f2b2d5" + fmt::format("{:05x}", b * 256) + " 4";
    text += tb(std::to_string(b) + ",0,0", {{kLdg, kExit}, {st, "0030 ffffffff 0 NOPE 0 0", kExit}});
  }
  return text;
}

TEST(TraceParserParts, EveryCutGivesTheSameKernelAsOneReader) {
  const std::string text = many_blocks(9);
  const std::string one = fingerprint(parse(text));
  for (uint32_t threads : {2u, 3u, 4u, 9u, 20u}) {
    const ParsedKernel k = parse_parts(text, threads);
    EXPECT_EQ(fingerprint(k), one) << threads;
    EXPECT_EQ(k.parts, std::min(threads, 9u)) << "not read in parts";
  }
  // With CR LF line ends, and blocks written in another order.
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const ParsedKernel k = parse_parts(crlf, 4);
  EXPECT_EQ(fingerprint(k), fingerprint(parse(crlf)));
  EXPECT_EQ(k.parts, 4u);
}

TEST(TraceParserParts, ErrorsAcrossPartsAreTheOneReadersFirstError) {
  const std::string text = many_blocks(6);
  const auto blocks_at = [&](size_t n) {  // offset of the n-th '#BEGIN_TB' (0-based)
    size_t p = 0;
    for (size_t i = 0; i <= n; ++i) p = text.find("#BEGIN_TB", i == 0 ? 0 : p + 1);
    return p;
  };
  const std::string dup_block = replace(text, "thread block = 4,0,0", "thread block = 1,0,0");
  const size_t end2 = text.find("#END_TB\n", blocks_at(2));  // block 2 left open when block 3 begins
  const std::string unclosed = text.substr(0, end2) + text.substr(end2 + 8);
  const std::string late_error = replace(text, "thread block = 5,0,0\n\nwarp = 0\ninsts = 2", "thread block = 5,0,0\n\nwarp = 0\ninsts = 3");
  const std::string two_errors =
      replace(late_error, "thread block = 2,0,0\n\nwarp = 0\ninsts = 2", "thread block = 2,0,0\n\nwarp = 0\ninsts = 7");
  for (const std::string* t : {&dup_block, &unclosed, &late_error, &two_errors}) {
    const std::string one = error_of(*t);
    ASSERT_NE(one, "(accepted)");
    for (uint32_t threads : {2u, 3u, 6u}) EXPECT_EQ(error_of(*t, {}, threads), one) << threads;
  }
  EXPECT_NE(error_of(dup_block).find("thread block (1,0,0) appears twice"), std::string::npos);
  EXPECT_NE(error_of(two_errors).find("declares 7 instructions"), std::string::npos);
}

TEST(TraceParserParts, SharedTracesReadAlikeInParts) {
  namespace fs = std::filesystem;
  uint32_t files = 0, split = 0;
  for (const auto& d : fs::directory_iterator(L1D_TRACE_DIR)) {
    if (!d.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(d.path())) {
      const std::string name = f.path().string();
      if (!name.ends_with(".traceg")) continue;
      auto in = LineReader::open_file(name);
      const std::string one = fingerprint(parse_kernel(*in));
      for (uint32_t threads : {2u, 3u}) {
        ParseOptions o;
        o.threads = threads;
        o.min_part_bytes = 1;
        auto again = LineReader::open_file(name);
        const ParsedKernel k = parse_kernel_parts(*again, [&name] { return file_source(name); }, o);
        EXPECT_EQ(fingerprint(k), one) << name << " in " << threads << " parts";
        split += k.parts > 1;
      }
      ++files;
    }
  }
  EXPECT_GT(files, 4u);
  EXPECT_GT(split, files);  // most kernels have several thread blocks: each is cut in 2 and 3 parts
}

}  // namespace
}  // namespace l1d::sim::trace
