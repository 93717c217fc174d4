// Real traces end to end (sim_cpp/trace/trace_workload.h): both romnn shared traces
// (../shared/traces, L1D_TRACE_DIR) run on gtx480, gtx1080 and qv100 with the instruction and
// memory-instruction counts the trace files themselves give (counted here by a separate reader,
// and the tracer's stats.csv); every shared trace reads with the counts its files declare; every
// format variant of a trace (versions 5 and 6, prefixed, "1.2", address modes, xz, zstd, .tracez)
// runs cycle for cycle like the original; the host-to-device copies reach the L2
// (MemorySystem::preload_l2, L2Bank::preload); the page table.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "common/config.h"
#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/gpu/policies.h"
#include "sim_cpp/mem/address_map.h"
#include "sim_cpp/mem/l2_bank.h"
#include "sim_cpp/mem/mem_params.h"
#include "sim_cpp/mem/memory_system.h"
#include "sim_cpp/trace/test/trace_pack.h"
#include "sim_cpp/trace/test/trace_variants.h"
#include "sim_cpp/trace/trace_error.h"
#include "sim_cpp/trace/trace_workload.h"

namespace l1d::sim::trace {
namespace {

namespace fs = std::filesystem;

const fs::path kTraces = L1D_TRACE_DIR;
const char* const kTraceNames[] = {"romnn_vectoradd_100", "romnn_matrixmul_32"};

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// What a version-4 trace file holds, counted line by line without the reader: instruction
// lines are the lines after the header whose first word is a hex PC.
struct FileCounts {
  uint64_t instructions = 0, memory = 0;  // memory: mem_width > 0
  uint64_t global_loads = 0, global_stores = 0, shared = 0, other_memory = 0;
  uint64_t warps = 0, declared = 0;  // "warp =" lines, sum of "insts ="
};

FileCounts count_file(const fs::path& p) {
  std::ifstream f(p);
  FileCounts c;
  bool body = false;
  for (std::string line; std::getline(f, line);) {
    const std::vector<std::string> w = variants::words(line);
    if (w.empty()) continue;
    if (w[0][0] == '#') body = true;
    if (!body) continue;
    if (w[0] == "warp") ++c.warps;
    if (w[0] == "insts") c.declared += std::stoull(w[2]);
    if (!variants::is_instruction(w)) continue;
    ++c.instructions;
    const size_t nd = std::stoul(w[2]);
    const std::string& op = w[3 + nd];
    const size_t ns = std::stoul(w[4 + nd]);
    if (std::stoul(w[5 + nd + ns]) == 0) continue;
    ++c.memory;
    const bool active = std::stoul(w[1], nullptr, 16) != 0;
    if (op.rfind("LDG.", 0) == 0 && active)
      ++c.global_loads;
    else if (op.rfind("STG.", 0) == 0 && active)
      ++c.global_stores;
    else if (op.rfind("LDS.", 0) == 0 || op.rfind("STS", 0) == 0)
      ++c.shared;
    else
      ++c.other_memory;
  }
  return c;
}

// total_insts of the tracer's stats.csv (header line, then one line per kernel).
uint64_t stats_csv_total_insts(const fs::path& p) {
  std::ifstream f(p);
  std::string header, row;
  std::getline(f, header);
  std::getline(f, row);
  std::vector<std::string> h, r;
  for (std::istringstream s(header); std::getline(s, header, ',');) h.push_back(variants::join(variants::words(header)));
  for (std::istringstream s(row); std::getline(s, row, ',');) r.push_back(variants::join(variants::words(row)));
  for (size_t i = 0; i < h.size() && i < r.size(); ++i)
    if (h[i] == "total_insts") return std::stoull(r[i]);
  ADD_FAILURE() << "no total_insts in " << p;
  return 0;
}

struct TraceRunResult {
  RunResult r;
  nlohmann::json stats;
  uint64_t sm_loads = 0, sm_stores = 0, sm_instructions = 0;
  uint64_t parallel_cycles = 0;
  uint64_t ticked_cycles = 0;  // not skipped (Gpu::skipped_cycles): only those can run on the threads
};

TraceRunResult run_trace(const fs::path& dir, const std::string& preset = "gtx480", const std::string& policy = "",
              bool preload = true, unsigned threads = 1) {
  Config cfg = load_preset(preset);
  SimOptions opt;
  opt.threads = threads;
  opt.parallel_min_sms = 2;  // threaded runs go parallel in every cycle with two clocked SMs
  if (!policy.empty()) opt.controllers = apply_policy(cfg, policy);
  auto w = load_trace_workload(dir.string(), {std::nullopt, cfg.l1.address_bits});
  Gpu gpu(cfg, opt);
  if (preload) attach_copies(gpu, *w);
  TraceRunResult out;
  out.r = gpu.run(*w, WorkloadScale::kSmall);
  out.stats = gpu.stats_json();
  out.parallel_cycles = gpu.parallel_cycles();
  out.ticked_cycles = gpu.result().cycles - gpu.skipped_cycles();
  for (uint32_t s = 0; s < gpu.num_sms(); ++s) {
    out.sm_loads += gpu.sm(s).stats().loads;
    out.sm_stores += gpu.sm(s).stats().stores;
    out.sm_instructions += gpu.sm(s).stats().instructions;
  }
  return out;
}

// Accel-Sim's L1D units (golden/l1.h AccelSimCounters, docs/simulator.md): per 32 B sector a
// request touches, so the read and write totals are fixed by the trace and the coalescer alone
// and must equal Accel-Sim's own for the same trace (../shared/traces/ACCELSIM-REFERENCE.md,
// "L1D breakdown": R total and W total, SM7_QV100 config).
TEST(TraceRun, AccelSimSectorTotalsMatchTheReference) {
  struct Ref {
    const char* trace;
    uint64_t reads, writes;
  };
  const Ref refs[] = {{"romnn_vectoradd_100", 26, 13},
                      {"romnn_matrixmul_32", 256, 128},
                      {"bfs_rodinia31_bv70", 72615, 18014},
                      {"vecadd_a100_bv80", 12500, 6250}};
  for (const Ref& r : refs) {
    const nlohmann::json a = run_trace(kTraces / r.trace, "qv100-accelsim").stats.at("l1").at("accelsim_sectors");
    EXPECT_EQ(a.at("read").at("total").get<uint64_t>(), r.reads) << r.trace;
    EXPECT_EQ(a.at("write").at("total").get<uint64_t>(), r.writes) << r.trace;
    const nlohmann::json& rd = a.at("read");
    EXPECT_EQ(rd.at("hit").get<uint64_t>() + rd.at("miss").get<uint64_t>() + rd.at("sector_miss").get<uint64_t>() +
                  rd.at("mshr_hit").get<uint64_t>(),
              r.reads)
        << r.trace << ": the outcomes do not add up to the total";
  }
}

// result.kernels[k].l1: each kernel's own L1 counts (the difference of the totals at its start
// and end); over a multi-kernel trace they add up to the run's.
TEST(TraceRun, PerKernelL1CountsAddUpToTheRun) {
  const nlohmann::json s = run_trace(kTraces / "bfs_rodinia31_bv70", "gtx480").stats;
  const nlohmann::json& kernels = s.at("result").at("kernels");
  ASSERT_EQ(kernels.size(), 16u);
  for (const char* field : {"accesses", "hits", "misses", "merges", "mem_reads", "mem_writes", "cycles"}) {
    uint64_t sum = 0;
    for (const nlohmann::json& k : kernels) sum += k.at("l1").at(field).get<uint64_t>();
    EXPECT_EQ(sum, s.at("l1").at(field).get<uint64_t>()) << field;
  }
  uint64_t conflicts = 0;
  for (const nlohmann::json& k : kernels)
    conflicts += k.at("l1").at("reservation_failures").at("mshr_conflict").get<uint64_t>();
  EXPECT_EQ(conflicts, s.at("l1").at("reservation_failures").at("mshr_conflict").get<uint64_t>());
  EXPECT_GT(kernels[8].at("l1").at("accesses").get<uint64_t>(), kernels[0].at("l1").at("accesses").get<uint64_t>());
}

// gpusim --threads (docs/performance.md): the statistics of a trace run do not depend on the
// number of threads.
TEST(TraceRun, SharedTracesGiveIdenticalStatisticsOnOneTwoAndThreeThreads) {
  const std::pair<const char*, const char*> runs[] = {{"vecadd_a100_bv80", "qv100-accelsim"},
                                                      {"bfs_rodinia31_bv70", "gtx480"}};
  for (const auto& [name, preset] : runs) {
    const std::string one = run_trace(kTraces / name, preset, "", true, 1).stats.dump();
    for (unsigned t : {2u, 3u}) {
      const TraceRunResult threaded = run_trace(kTraces / name, preset, "", true, t);
      EXPECT_EQ(threaded.stats.dump(), one) << name << " on " << preset << ", " << t << " threads";
      EXPECT_GT(threaded.parallel_cycles, threaded.ticked_cycles / 10) << name << ": the threads were hardly used";
    }
  }
}

TEST(TraceRun, BothSharedTracesRunOnEveryPresetWithTheTraceFilesOwnCounts) {
  for (const char* name : kTraceNames) {
    SCOPED_TRACE(name);
    const fs::path dir = kTraces / name;
    const FileCounts c = count_file(dir / "kernel-1.traceg");
    // The file agrees with itself and with the tracer's own count.
    EXPECT_EQ(c.instructions, c.declared);
    EXPECT_EQ(c.instructions, stats_csv_total_insts(dir / "stats.csv"));
    EXPECT_EQ(c.other_memory, 0u) << "a memory class this test does not count";
    EXPECT_EQ(c.warps, 32u);

    const auto w = load_trace_workload(dir.string());
    const ParsedKernel& k = w->trace().kernels.at(0);
    EXPECT_EQ(k.trace_instructions, c.instructions);
    EXPECT_EQ(k.memory_instructions, c.memory);
    EXPECT_EQ(k.by_class[static_cast<uint32_t>(TraceClass::kGlobalLoad)], c.global_loads);
    EXPECT_EQ(k.by_class[static_cast<uint32_t>(TraceClass::kGlobalStore)], c.global_stores);
    EXPECT_EQ(k.by_class[static_cast<uint32_t>(TraceClass::kShared)], c.shared);
    EXPECT_EQ(k.synthetic_exits, 0u) << "every traced warp ends with EXIT";
    EXPECT_TRUE(k.unknown_opcodes.empty());

    for (const std::string preset : {"gtx480", "gtx1080", "qv100", "a100", "rtx3070", "h100"}) {
      SCOPED_TRACE(preset);
      const TraceRunResult run = run_trace(dir, preset);
      ASSERT_EQ(run.r.stop, StopReason::kCompleted) << run.r.watchdog_report;
      EXPECT_EQ(run.r.warp_instructions, c.instructions);
      EXPECT_EQ(run.sm_instructions, c.instructions);
      EXPECT_EQ(run.sm_loads, c.global_loads);
      EXPECT_EQ(run.sm_stores, c.global_stores);
      EXPECT_EQ(run.r.load_mismatches, 0u) << run.r.first_mismatch;
      EXPECT_GE(run.r.loads_checked, c.global_loads);
      const nlohmann::json& l1 = run.stats["l1"];
      EXPECT_GE(l1["loads"].get<uint64_t>(), c.global_loads);
      EXPECT_GE(l1["stores"].get<uint64_t>(), c.global_stores);
      EXPECT_EQ(l1["hits"].get<uint64_t>() + l1["misses"].get<uint64_t>(), l1["accesses"].get<uint64_t>());
      std::printf("%s on %s: %llu cycles, %llu warp instructions, L1 %llu accesses, %llu hits, %llu misses\n",
                  name, preset.c_str(), static_cast<unsigned long long>(run.r.cycles),
                  static_cast<unsigned long long>(run.r.warp_instructions),
                  static_cast<unsigned long long>(l1["accesses"].get<uint64_t>()),
                  static_cast<unsigned long long>(l1["hits"].get<uint64_t>()),
                  static_cast<unsigned long long>(l1["misses"].get<uint64_t>()));
    }
  }
}

// Every shared trace folder (including the Volta BFS, the Ampere vector add and the Hopper
// backprop, versions 3 and 5) reads: as many kernels as its command list names, and in each the
// instruction lines its 'insts =' lines declare.
TEST(TraceRun, EverySharedTraceReadsWithTheCountsItsFilesDeclare) {
  uint32_t folders = 0;
  for (const auto& e : fs::directory_iterator(kTraces)) {
    if (!fs::exists(e.path() / "kernelslist.g")) continue;
    SCOPED_TRACE(e.path().string());
    ++folders;
    std::ifstream list(e.path() / "kernelslist.g");
    std::vector<std::string> files;
    for (std::string l; std::getline(list, l);)
      if (l.rfind("kernel", 0) == 0) files.push_back(l);
    const auto w = load_trace_workload(e.path().string());
    ASSERT_EQ(w->trace().kernels.size(), files.size());
    for (size_t k = 0; k < files.size(); ++k) {
      const FileCounts c = count_file(e.path() / files[k]);
      EXPECT_EQ(w->trace().kernels[k].trace_instructions, c.declared) << files[k];
      EXPECT_EQ(w->trace().kernels[k].trace_instructions, c.instructions) << files[k];
      EXPECT_TRUE(w->trace().kernels[k].unknown_opcodes.empty()) << files[k];
    }
  }
  EXPECT_GE(folders, 5u);
}

TEST(TraceRun, EveryFormatOfATraceRunsCycleForCycleLikeTheOriginal) {
  const fs::path tmp = fs::temp_directory_path() / ("trace_run_test_" + std::to_string(::getpid()));
  using variants::Format;
  for (const char* name : kTraceNames) {
    SCOPED_TRACE(name);
    const fs::path dir = kTraces / name;
    const std::string kernel = slurp(dir / "kernel-1.traceg"), list = slurp(dir / "kernelslist.g");
    const TraceRunResult ref = run_trace(dir);
    const std::pair<const char*, std::string> forms[] = {
        {"v5", variants::rewrite(kernel, Format::kV5)},
        {"old", variants::rewrite(kernel, Format::kOld)},
        {"1.2", variants::rewrite(kernel, Format::kOld12)},
        {"v6", variants::rewrite(kernel, Format::kV6)},
        {"mode0", variants::rewrite(kernel, Format::kMode0)},
        {"mode2", variants::rewrite(kernel, Format::kMode2)},
        {".xz", pack::xz(kernel)},
        {".zst", pack::zstd(kernel, 3)},
        {"z", pack::tracez(variants::rewrite(kernel, Format::kV6), 100)},
    };
    for (const auto& [form, text] : forms) {
      SCOPED_TRACE(form);
      ASSERT_NE(text, kernel);
      fs::remove_all(tmp);
      fs::create_directories(tmp);
      // The compressed forms' names: kernel-1.traceg.xz, kernel-1.traceg.zst, kernel-1.tracez.
      const std::string f = form;
      const std::string file = f == "z" ? "kernel-1.tracez" : f[0] == '.' ? "kernel-1.traceg" + f : "kernel-1.traceg";
      std::ofstream(tmp / file, std::ios::binary) << text;
      std::string l = list;
      l.replace(l.find("kernel-1.traceg"), 15, file);
      std::ofstream(tmp / "kernelslist.g") << l;
      const TraceRunResult run = run_trace(tmp);
      EXPECT_EQ(run.stats["result"], ref.stats["result"]);
      EXPECT_EQ(run.stats["l1"], ref.stats["l1"]);
      EXPECT_EQ(run.stats["memory"], ref.stats["memory"]);
    }
  }
  fs::remove_all(tmp);
}

TEST(TraceRun, CopiesLeaveTheirLinesInTheL2) {
  // matrixmul loads only from its two 4 KiB copies (whole lines): with the copies preloaded no
  // load goes to DRAM; without, the first touch of every line does.
  const fs::path dir = kTraces / "romnn_matrixmul_32";
  const TraceRunResult with = run_trace(dir, "gtx480", "", true);
  const TraceRunResult without = run_trace(dir, "gtx480", "", false);
  const nlohmann::json& m = with.stats["memory"];
  EXPECT_GT(m["reads"].get<uint64_t>(), 0u);
  EXPECT_EQ(m["dram_reads"].get<uint64_t>(), 0u);
  EXPECT_EQ(m["l2_hits"].get<uint64_t>(), m["reads"].get<uint64_t>());
  EXPECT_GT(without.stats["memory"]["dram_reads"].get<uint64_t>(), 0u);
  EXPECT_LT(with.r.cycles, without.r.cycles);
  EXPECT_EQ(with.r.load_mismatches + without.r.load_mismatches, 0u);
}

TEST(TraceRun, EveryPolicyAndPresetCompletesTheVectorAddTrace) {
  const fs::path dir = kTraces / "romnn_vectoradd_100";
  for (const std::string preset : {"gtx480", "gtx1080", "qv100", "a100", "rtx3070", "h100"}) {
    // A sector L1 (all but gtx480) refuses DyCache's granularities (contract section 14).
    const std::vector<std::string> policies = policy_names_for(load_preset(preset));
    EXPECT_GE(policies.size(), preset == "gtx480" ? policy_names().size() : 12u) << preset;
    for (const std::string& policy : policies) {
      SCOPED_TRACE(preset + " " + policy);
      const TraceRunResult run = run_trace(dir, preset, policy);
      EXPECT_EQ(run.r.stop, StopReason::kCompleted) << run.r.watchdog_report;
      EXPECT_EQ(run.r.warp_instructions, 344u);
      EXPECT_EQ(run.r.load_mismatches, 0u) << run.r.first_mismatch;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Scoreboard operands (core.load_wait on_use)

// A load writes every register its lane's bytes fill: the halves of a 16 B load to R4 write R4-R5
// and R6-R7; other instructions keep the trace's operands; registers are always declared.
TEST(TraceWorkload, LoadsWriteTheRegistersTheirWidthFills) {
  TraceSet s;
  s.list_file = "list";
  s.commands.push_back({TraceCommand::Kind::kKernel, 0, 0, 0, 1});
  ParsedKernel k;
  k.header.name = "k";
  k.ctas = k.warps_per_cta = 1;
  k.warp_begin = {0, 3};
  k.synthetic_exit = {1};
  k.addrs = {0x1000, 0x2000};
  TraceInst wide{0x10, 1, 0, 1, OpKind::kLoad, 16, TraceClass::kGlobalLoad, 1, 1, 0};  // R4 <- [R2]
  TraceInst dbl{0x18, 1, 1, 1, OpKind::kLoad, 8, TraceClass::kGlobalLoad, 1, 0, 2};    // R254 <- [...]
  TraceInst add{0x20, 1, 0, 4, OpKind::kAlu, 0, TraceClass::kAlu, 1, 2, 3};            // R8 <- R4, R7
  k.insts = {wide, dbl, add};
  k.regs = {4, 2, 254, 8, 4, 7};
  s.kernels.push_back(k);
  const TraceWorkload w(s, {});
  auto p = w.kernel(0).warp(0, 0);
  const auto ops = [](const WarpInst& i) {
    EXPECT_FALSE(i.reads_all_loads);
    return std::pair(std::vector<uint16_t>(i.regs.begin(), i.regs.begin() + i.writes),
                     std::vector<uint16_t>(i.regs.begin() + i.writes, i.regs.begin() + i.writes + i.reads));
  };
  using Ops = std::pair<std::vector<uint16_t>, std::vector<uint16_t>>;
  EXPECT_EQ(ops(p->next()), (Ops{{4, 5}, {2}}));
  EXPECT_EQ(ops(p->next()), (Ops{{6, 7}, {2}}));
  EXPECT_EQ(ops(p->next()), (Ops{{254}, {}}));  // R255 is RZ: not a register a load fills
  EXPECT_EQ(ops(p->next()), (Ops{{8}, {4, 7}}));
  const WarpInst exit = p->next();
  EXPECT_EQ(exit.kind, OpKind::kExit);
  EXPECT_EQ(ops(exit), (Ops{{}, {}}));
}

// ---------------------------------------------------------------------------------------------
// Page table and memory image

// A strided instruction's lanes (TraceInst's strided form) reach the SM as the listed form's
// would: each the translation of its own address, 16 B lanes in two halves, stores with the
// image's bytes (contiguous lanes read as one run: TraceWorkload::content_run), inactive lanes 0
// through next(). Through next_into() (the SM's refill in place) only what the instruction uses
// is written: its active lanes' addresses, and values if it is a store.
TEST(TraceWorkload, StridedAndListedLanesGiveTheSameWarpInstructions) {
  TraceSet s;
  s.list_file = "list";
  s.commands.push_back({TraceCommand::Kind::kMemcpy, 0x7f0000200000, 4096, 0, 1});
  s.commands.push_back({TraceCommand::Kind::kKernel, 0, 0, 0, 2});
  ParsedKernel k;
  k.header.name = "k";
  k.ctas = 1;
  k.warps_per_cta = 2;
  k.synthetic_exit = {1, 1};
  // Warp 0 strided, warp 1 the same lanes listed. The k-th active lane's address is first +
  // k * stride.
  struct Access {
    uint32_t mask;
    OpKind kind;
    uint8_t width;
    int32_t stride;
    Addr first;
  };
  const std::vector<Access> accesses = {
      {0xF0u, OpKind::kLoad, 16, -16, 0x7f0000600ff0},             // lanes 4-7, two halves
      {0xFFFFFFFFu, OpKind::kStore, 4, 8, 0x7f0000200010},         // every lane, with gaps
      {0x7u, OpKind::kLoad, 8, 0, 0x7f0000200100},                 // lanes 0-2, one address
      {0xFFFFFFFFu, OpKind::kStore, 4, 4, 0x7f0000200200},         // one run inside the copy
      {0x0FF0F0F0u, OpKind::kStore, 2, 2, 0x7f0000200ff0},         // one run across the copy's end
      {0xFFFFFFFFu, OpKind::kStore, 8, 8, 0x7f0000600800},         // one run outside every copy
      {0x80000001u, OpKind::kStore, 1, 1, 0x7f0000200fff}};        // two lanes, across the end
  const auto lane_addrs = [](const Access& x) {
    std::vector<Addr> a;
    for (int32_t c = 0; c < std::popcount(x.mask); ++c) a.push_back(x.first + static_cast<uint64_t>(int64_t{x.stride} * c));
    return a;
  };
  const auto n = static_cast<uint32_t>(accesses.size());
  for (const bool strided : {true, false})
    for (uint32_t i = 0; i < n; ++i) {
      const Access& x = accesses[i];
      TraceInst t;
      t.pc = 0x10 * (i + 1);
      t.mask = x.mask;
      t.kind = x.kind;
      t.width = x.width;
      t.addr = static_cast<uint32_t>(k.addrs.size());
      if (strided) {
        t.stride = x.stride;
        k.addrs.push_back(x.first);
      } else {
        const std::vector<Addr> a = lane_addrs(x);
        k.addrs.insert(k.addrs.end(), a.begin(), a.end());
      }
      ASSERT_EQ(t.strided(), strided);
      k.insts.push_back(t);
    }
  k.warp_begin = {0, n, 2 * n};
  s.kernels.push_back(k);
  TraceWorkload w(s, {});
  FunctionalMemory mem;
  w.init(mem, WorkloadScale::kTest, 3);
  auto ps = w.kernel(0).warp(0, 0), pb = w.kernel(0).warp(0, 0), pl = w.kernel(0).warp(0, 1);
  WarpInst buffered;  // pb through next_into, as the SM refills its i-buffer
  uint32_t run_stores = 0;
  for (uint32_t j = 0, i = 0; i <= n; ++j) {  // every access (the 16 B load in two halves), then the exit
    SCOPED_TRACE(j);
    const WarpInst s1 = ps->next(), l1 = pl->next();
    pb->next_into(buffered);
    ASSERT_EQ(s1.kind, l1.kind);
    ASSERT_EQ(buffered.kind, l1.kind);
    EXPECT_EQ(s1.addr, l1.addr);
    EXPECT_EQ(s1.value, l1.value);
    EXPECT_EQ(s1.access_bytes, l1.access_bytes);
    if (i == n) {
      EXPECT_EQ(s1.kind, OpKind::kExit);
      break;
    }
    const Access& x = accesses[i];
    const bool high = x.width == 16 && j == 1;
    const std::vector<Addr> a = lane_addrs(x);
    for (uint32_t l = 0, c = 0; l < 32; ++l) {
      if (!(x.mask >> l & 1u)) {
        EXPECT_EQ(s1.addr[l], 0u) << l;
        EXPECT_EQ(s1.value[l], 0u) << l;
        continue;
      }
      const Addr pa = w.translate(a[c++]) + (high ? 8 : 0);
      EXPECT_EQ(s1.addr[l], pa) << l;
      EXPECT_EQ(buffered.addr[l], pa) << l;
      if (x.kind == OpKind::kStore) {
        EXPECT_EQ(s1.value[l], w.content_value(pa, x.width)) << l;
        EXPECT_EQ(buffered.value[l], s1.value[l]) << l;
      }
    }
    run_stores += x.kind == OpKind::kStore && x.stride == x.width;
    if (x.width != 16 || high) ++i;
  }
  EXPECT_EQ(run_stores, 4u);
}

// The shortcuts of the eighth speed round (docs/performance.md) against the per-byte
// definitions: content_value through a span the caller keeps, init()'s vectorised byte hashes,
// and the page table built on several threads.
TEST(TraceWorkload, FastPathsMatchThePerByteDefinitions) {
  TraceSet s;
  s.list_file = "list";
  // Two copies 24 bytes apart on one page, a third on the next page; pages for the kernel too.
  s.commands.push_back({TraceCommand::Kind::kMemcpy, 0x7f0000200010, 200, 0, 1});
  s.commands.push_back({TraceCommand::Kind::kMemcpy, 0x7f00002000f0, 37, 0, 2});
  s.commands.push_back({TraceCommand::Kind::kMemcpy, 0x7f0000400000, 1000, 0, 3});
  s.commands.push_back({TraceCommand::Kind::kKernel, 0, 0, 0, 4});
  ParsedKernel k;
  k.header.name = "k";
  k.ctas = k.warps_per_cta = 1;
  k.warp_begin = {0, 0};
  k.synthetic_exit = {1};
  for (uint32_t i = 0; i < 1000; ++i) k.addrs.push_back((i % 3 == 0 ? 0x7f0000600000 : 0x7f0000200000) + 8 * i);
  s.kernels.push_back(k);
  const TraceWorkload w(s, {});
  TraceOptions three;
  three.threads = 3;
  const TraceWorkload w3(s, three);
  EXPECT_EQ(w3.pages(), w.pages());
  EXPECT_EQ(w3.trace().kernels[0].addrs, w.trace().kernels[0].addrs);

  const Addr lo = w.translate(0x7f0000200000), hi = w.translate(0x7f0000400000) + 1100;
  const auto by_bytes = [&](Addr pa, uint32_t bytes) {
    uint64_t v = 0;
    for (uint32_t b = 0; b < bytes; ++b) v |= uint64_t{w.content(pa + b)} << (8 * b);
    return v;
  };
  // One span reused across calls, in increasing, decreasing and scattered order.
  for (const uint32_t bytes : {1u, 2u, 4u, 8u}) {
    TraceWorkload::ContentSpan span;
    for (Addr a = lo; a + bytes <= lo + 0x200; ++a) ASSERT_EQ(w.content_value(a, bytes, span), by_bytes(a, bytes)) << a;
    for (Addr a = lo + 0x200; a-- > lo;) ASSERT_EQ(w.content_value(a, bytes, span), by_bytes(a, bytes)) << a;
    uint64_t x = 12345;
    for (int i = 0; i < 2000; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const Addr a = lo + (x >> 33) % (hi - lo);
      ASSERT_EQ(w.content_value(a, bytes, span), by_bytes(a, bytes)) << a;
      ASSERT_EQ(w.content_value(a, bytes), by_bytes(a, bytes)) << a;
    }
  }
  // content_run: runs of several lengths at every offset, inside a copy, across copies' ends
  // and outside them, through one span, forwards, backwards and scattered.
  for (const uint32_t n : {1u, 3u, 32u, 128u, 256u}) {
    TraceWorkload::ContentSpan span;
    std::array<uint8_t, 256> run;
    const auto check = [&](Addr a) {
      w.content_run(a, n, span, run.data());
      for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(run[i], w.content(a + i)) << a << " + " << i;
    };
    for (Addr a = lo; a < lo + 0x200; ++a) check(a);
    for (Addr a = lo + 0x200; a-- > lo;) check(a);
    uint64_t x = 999;
    for (int i = 0; i < 500; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      check(lo + (x >> 33) % (hi - lo));
    }
  }
  // init() writes content() into every copied byte (the hashes of whole and partial lines).
  FunctionalMemory mem;
  TraceWorkload wi(s, three);
  wi.init(mem, WorkloadScale::kTest, 7);
  uint32_t copied = 0;
  const Addr third = w.translate(0x7f0000400000);
  for (const auto& [from, to] : {std::pair{lo, lo + 0x400}, std::pair{third - 64, hi}})
    for (Addr a = from; a < to; ++a) {
      ASSERT_EQ(mem.read8(a), wi.content(a)) << a;
      copied += wi.content(a) != FunctionalMemory::initial_byte(a);
    }
  EXPECT_GT(copied, 1000u);  // the copies' bytes are not the untouched image's
}

TEST(TraceWorkload, PagesGetFramesInVirtualOrderAndKeepTheirOffsets) {
  TraceSet s;
  s.list_file = "list";
  s.commands.push_back({TraceCommand::Kind::kMemcpy, 0x7f0000200010, 64, 0, 1});
  s.commands.push_back({TraceCommand::Kind::kKernel, 0, 0, 0, 2});
  ParsedKernel k;
  k.header.name = "k";
  k.ctas = k.warps_per_cta = 1;
  k.warp_begin = {0, 0};
  k.synthetic_exit = {1};
  k.addrs = {0x7f0000600020, 0x10};  // pages 0x3f800003, 0
  s.kernels.push_back(k);
  const TraceWorkload w(s, {});
  EXPECT_EQ(w.pages(), 3u);
  EXPECT_EQ(w.translate(0x10), 0x10u);
  EXPECT_EQ(w.translate(0x7f0000200010), (uint64_t{1} << kPageBits) + 0x10);
  EXPECT_EQ(w.translate(0x7f0000600020), (uint64_t{2} << kPageBits) + 0x20);
  EXPECT_THROW(w.translate(0x7f0000400000), std::out_of_range);
  EXPECT_EQ(w.trace().kernels[0].addrs, (std::vector<Addr>{(uint64_t{2} << kPageBits) + 0x20, 0x10}));
  ASSERT_EQ(w.copies_before(0).size(), 1u);
  EXPECT_EQ(w.copies_before(0)[0].pa, (uint64_t{1} << kPageBits) + 0x10);
  // The image: copied bytes differ from the untouched image's bytes (somewhere), the rest are
  // the untouched image's.
  const Addr c = (uint64_t{1} << kPageBits) + 0x10;
  uint32_t differ = 0;
  for (Addr a = c; a < c + 64; ++a) differ += w.content(a) != FunctionalMemory::initial_byte(a);
  EXPECT_GT(differ, 32u);
  for (Addr a : {c - 1, c + 64, Addr{0x10}}) EXPECT_EQ(w.content(a), FunctionalMemory::initial_byte(a));
  // A warp without instructions exits at once.
  EXPECT_EQ(w.kernel(0).warp(0, 0)->next().kind, OpKind::kExit);
  EXPECT_THROW(w.kernel(0).warp(1, 0), std::out_of_range);
  // Three pages do not fit a 22-bit (two-page) address space.
  try {
    TraceWorkload small(s, {std::nullopt, 22});
    ADD_FAILURE() << "accepted";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("the trace touches 3 pages of 2 MiB, the 22-bit physical address space holds 2"),
              std::string::npos)
        << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// preload_l2

TEST(PreloadL2, CopiedSectorsHitInTheL2AndTheRestOfTheirLinesMiss) {
  const Config cfg = load_preset("gtx480");
  FunctionalMemory image;
  MemorySystem ms(cfg, image);
  // [0x10010, 0x10010 + 300): line 0x10000 sectors 0-3, line 0x10080 all, line 0x10100
  // sectors 0-1 (up to 0x1013b).
  ms.preload_l2(0x10010, 300);
  EXPECT_EQ(ms.stats().requests, 0u) << "untimed: no request";
  auto read = [&](Addr line, SectorMask sectors) {
    MemReq r;
    r.line_addr = line;
    r.sectors = sectors;
    while (!ms.request_ready(0)) ms.tick();
    ms.request(0, r);
    for (int i = 0; i < 100000; ++i) {
      if (ms.response(0)) return;
      ms.tick();
    }
    ADD_FAILURE() << "no response";
  };
  read(0x10000, 0xF);
  read(0x10080, 0xF);
  read(0x10100, 0x3);
  EXPECT_EQ(ms.stats().l2_hits, 3u);
  EXPECT_EQ(ms.stats().dram_reads, 0u);
  read(0x10100, 0x4);  // sector 2 of the last line: not copied
  read(0x10180, 0x1);  // after the copy
  EXPECT_EQ(ms.stats().l2_misses, 2u);
  EXPECT_EQ(ms.stats().dram_reads, 2u);
  // Only between kernels: not while a request is in flight.
  MemReq r;
  r.line_addr = 0x20000;
  r.sectors = 1;
  ms.request(0, r);
  EXPECT_THROW(ms.preload_l2(0x30000, 128), std::logic_error);
}

TEST(PreloadL2, BankAllocatesValidDirtySectorsAndEvictsInLruOrder) {
  const Config cfg = load_preset("gtx480");
  const MemParams p = derive_mem_params(cfg);
  const AddressMap map(p.partitions, p.dram_banks, p.dram_lines_per_row);
  FunctionalMemory image;
  MemorySystemStats stats;
  L2Bank bank(p, map, image, &stats);
  // ways + 1 lines of one set of partition 0.
  std::vector<Addr> set;
  for (uint64_t l = 0; set.size() < p.l2_ways + 1; ++l)
    if (map.partition(l * kLineBytes) == 0 && map.local_line(l * kLineBytes) % p.l2_sets == 5) set.push_back(l * kLineBytes);
  bank.preload(set[0], 0b0110);
  SectorMask valid = 0, dirty = 0;
  ASSERT_TRUE(bank.holds(set[0], &valid, &dirty));
  EXPECT_EQ(valid, 0b0110);
  EXPECT_EQ(dirty, 0b0110);
  bank.preload(set[0], 0b0001);
  ASSERT_TRUE(bank.holds(set[0], &valid, &dirty));
  EXPECT_EQ(valid, 0b0111);
  for (size_t i = 1; i < set.size(); ++i) bank.preload(set[i], 0xF);
  EXPECT_FALSE(bank.holds(set[0])) << "the least recently used line is the victim";
  for (size_t i = 1; i < set.size(); ++i) EXPECT_TRUE(bank.holds(set[i])) << i;
  EXPECT_TRUE(bank.idle()) << "untimed: no write-back queued";
}

}  // namespace
}  // namespace l1d::sim::trace

// l1.carveout adaptive on qv100 (docs/simulator.md "L1 carveout"): the header's -shmem decides.
// matrixmul: 8 KB per CTA of 32 warps, 2 CTAs per SM of 64 warps: 16 KB, option 16 -> 64 KB;
// vectoradd and bfs declare none -> 128 KB; gtx480 is fixed at 16 KB.
namespace l1d::sim::trace {
namespace {
TEST(TraceRun, AdaptiveCarveoutFollowsTheKernelHeadersShmem) {
  const auto bytes = [](const char* trace, const char* preset) {
    std::vector<uint32_t> out;
    const nlohmann::json stats = run_trace(kTraces / trace, preset).stats;  // kept alive for the loop
    for (const nlohmann::json& k : stats.at("result").at("kernels"))
      out.push_back(k.at("l1_bytes").get<uint32_t>());
    return out;
  };
  EXPECT_EQ(bytes("romnn_matrixmul_32", "qv100"), std::vector<uint32_t>{65536});
  EXPECT_EQ(bytes("romnn_vectoradd_100", "qv100"), std::vector<uint32_t>{131072});
  EXPECT_EQ(bytes("romnn_matrixmul_32", "gtx480"), std::vector<uint32_t>{16384});
}
}  // namespace
}  // namespace l1d::sim::trace
