// The gpusim command: lists, exit codes, byte-identical --stats for the same seed, watchdog
// exit code. Runs the gpusim binary next to this test binary (the CMake layout puts both in
// build/bin); skipped when it is not there.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "sim_cpp/gpu/policies.h"
#include "sim_cpp/workload/workload.h"

namespace l1d::sim {
namespace {

namespace fs = std::filesystem;

fs::path gpusim() { return fs::read_symlink("/proc/self/exe").parent_path() / "gpusim"; }

struct CliResult {
  int code = -1;
  std::string out;
};

// Runs gpusim with `args`; `out` is stdout (plus stderr with merge).
CliResult run(const std::string& args, bool merge_stderr = false) {
  const std::string cmd = gpusim().string() + " " + args + (merge_stderr ? " 2>&1" : " 2>/dev/null");
  CliResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string lines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

std::string slurp(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class GpusimCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(gpusim())) GTEST_SKIP() << "no gpusim binary at " << gpusim();
  }
};

TEST_F(GpusimCli, ListsWhatIsRegistered) {
  CliResult r = run("--list-workloads");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, lines(workload_names()));
  r = run("--list-policies");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, lines(policy_names()));
}

TEST_F(GpusimCli, BadInputIsOneErrorLineAndExitCode2) {
  for (const std::string args :
       {"--config /nonexistent.yaml --workload bfs", "--preset nope --workload bfs",
        "--preset gtx480 --workload bfs --policy nope", "--preset gtx480 --workload nope",
        "--preset gtx480", "--preset gtx480 --workload bfs --scheduler nope",
        "--preset gtx480 --workload bfs --controller dynamic-pcal", "--preset gtx480 --workload bfs --bogus",
        "--preset gtx480 --workload bfs --scale huge"}) {
    const CliResult r = run(args, true);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;
    EXPECT_EQ(r.out.rfind("error: ", 0), 0u) << args << ": " << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << ": " << r.out;
  }
}

TEST_F(GpusimCli, RunsAndWritesIdenticalStatisticsForTheSameSeed) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("gpusim_cli_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string base = "--preset gtx480 --workload spmv --policy dynamic-agelru --scale test --seed 7 --stats ";
  const CliResult a = run(base + (dir / "a.json").string());
  const CliResult b = run(base + (dir / "b.json").string() + " --quiet");
  EXPECT_EQ(a.code, 0);
  EXPECT_EQ(b.code, 0);
  EXPECT_NE(a.out.find("IPC"), std::string::npos);
  EXPECT_TRUE(b.out.empty());
  const std::string ja = slurp(dir / "a.json"), jb = slurp(dir / "b.json");
  EXPECT_FALSE(ja.empty());
  EXPECT_EQ(ja, jb);
  const auto j = nlohmann::json::parse(ja);
  EXPECT_EQ(j["result"]["stop"], "completed");
  EXPECT_EQ(j["load_check"]["mismatches"], 0);
  EXPECT_EQ(j["run"]["seed"], 7);
  fs::remove_all(dir);
}

TEST_F(GpusimCli, WatchdogExitCode3WithAReport) {
  const CliResult r = run("--preset gtx480 --workload kmeans --scale test --drop-response 20 --watchdog 2000 --quiet", true);
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.out.find("watchdog: no progress for 2000 cycles"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dropped response #20"), std::string::npos) << r.out;
}

// --input (docs/workloads.md): a SNAP edge list runs with its result check passing; a bad file
// is one error line naming file and line; a workload without input files refuses one.
TEST_F(GpusimCli, InputFileRunsWithItsResultCheckAndBadFilesNameTheLine) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("gpusim_input_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "ring.txt") << "# a ring\n" << [] {
    std::string e;
    for (int v = 0; v < 300; ++v) e += std::to_string(v) + "\t" + std::to_string((v + 1) % 300) + "\n";
    return e;
  }();
  std::ofstream(dir / "bad.txt") << "1 2\n2 3\n3 x\n";
  CliResult r = run("--preset gtx480 --workload cc --input " + (dir / "ring.txt").string());
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("result check: passed"), std::string::npos) << r.out;
  r = run("--preset gtx480 --workload sssp --input " + (dir / "bad.txt").string(), true);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out.rfind("error: " + (dir / "bad.txt").string() + ":3: ", 0), 0u) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  r = run("--preset gtx480 --workload atax --input " + (dir / "ring.txt").string(), true);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("reads no input file"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

TEST_F(GpusimCli, GeneratorSelectsTheGraphShapeAndRejectsOthersInOneLine) {
  CliResult r = run("--preset gtx480 --workload bfs --scale test --generator road");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("result check: passed"), std::string::npos) << r.out;
  r = run("--preset gtx480 --workload bfs --generator grid", true);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "error: workload bfs has no generated input 'grid' (allowed: kronecker, road)\n");
  r = run("--preset gtx480 --workload atax --generator road", true);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("has one shape of input"), std::string::npos) << r.out;
}


// RPR replacement (SPEC 9: golden model and simulator; the RTL has none): --l1 golden runs the
// rpr presets, --l1 verilated and --l1 lockstep refuse them with exit code 2 and one line naming
// RPR as golden-only (skipped when gpusim was built without Verilator).
TEST_F(GpusimCli, GoldenL1RunsBothRprPresetsWithTheResultCheck) {
  for (const char* policy : {"rpr", "rpr-counter"}) {
    const CliResult r = run(std::string("--preset gtx480 --workload kmeans --scale test --policy ") + policy, true);
    EXPECT_EQ(r.code, 0) << policy << ": " << r.out;
    EXPECT_NE(r.out.find("result check: passed"), std::string::npos) << policy << ": " << r.out;
  }
}

TEST_F(GpusimCli, VerilatedAndLockstepRefuseRprAsGoldenOnly) {
  for (const char* l1 : {"verilated", "lockstep"}) {
    for (const char* policy : {"rpr", "rpr-counter"}) {
      const std::string args =
          std::string("--preset gtx480 --workload vecadd --scale test --l1 ") + l1 + " --policy " + policy;
      const CliResult r = run(args, true);
      if (r.out.find("built without the verilated L1") != std::string::npos)
        GTEST_SKIP() << "gpusim has no verilated L1 in this build";
      EXPECT_EQ(r.code, 2) << args << ": " << r.out;
      EXPECT_EQ(r.out, std::string("error: --l1 verilated/lockstep: policy ") + policy +
                           " uses replacement rpr, which is golden-only (SPEC 9: the RTL has no RPR); run it with "
                           "--l1 golden\n")
          << args;
    }
  }
}


// [Fidelity]: the reference-faithful options the RTL lacks are golden-only until RTL v2: has_verilated_l1
// is false for them and --l1 verilated|lockstep refuses them with exit code 2 and one line naming the
// field (write_through keeps every other L1 field one the RTL runs): write allocation on the staged
// pipe with allocation on_fill (contract 14; the single-cycle l1d_top runs it; the staged one with
// on_miss, 16.5 "Write allocation"),
// mshr_merge block on the staged pipe in sector mode (13.3; the single-cycle l1d_top runs it; the staged
// one as a line cache, and sector merging in sector mode, 16.5). (An adaptive carveout runs on both
// pipes: contract 15, 16.5.) The before-tag pipe (13.5) is the LDST unit's and runs on the RTL (l1.lockstep_before_tag).
TEST_F(GpusimCli, VerilatedRefusesWhatTheRtlLacksNamingTheField) {
  const fs::path dir = fs::temp_directory_path() / ("gpusim_cli_ldst_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::map<std::string, std::string> lines = {
      {"sector", "  sector: true\n  write_allocate: lazy_fetch_on_read\n  pipeline: staged\n"},
      {"block", "  mshr_merge: block\n  pipeline: staged\n  sector: true\n"}};
  for (const auto& [file, field] : {std::pair{"sector", "l1.write_allocate: lazy_fetch_on_read with l1.pipeline: staged and "
                                                               "l1.allocation: on_fill"},
                                    std::pair{"block", "l1.mshr_merge: block with l1.pipeline: staged and l1.sector: true"}}) {
    const fs::path cfg = dir / (std::string(file) + ".yaml");
    std::ofstream(cfg) << "l1:\n  write_policy: write_through\n" << lines.at(file);
    for (const char* l1 : {"verilated", "lockstep"}) {
      const CliResult r = run("--config " + cfg.string() + " --workload vecadd --scale test --l1 " + l1, true);
      if (r.out.find("built without the verilated L1") != std::string::npos)
        GTEST_SKIP() << "gpusim has no verilated L1 in this build";
      EXPECT_EQ(r.code, 2) << r.out;
      EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;  // one line
      EXPECT_NE(r.out.find("sets " + std::string(field) + ", which the RTL l1d_top does not implement"),
                std::string::npos)
          << r.out;
    }
    EXPECT_EQ(run("--config " + cfg.string() + " --workload vecadd --scale test --l1 golden").code, 0) << file;
  }
  fs::remove_all(dir);
}

// --explain-preset lists every field with its value and the file that set it.
TEST_F(GpusimCli, ExplainPresetListsEveryFieldWithItsSource) {
  const CliResult r = run("--explain-preset gtx480-gpgpusim --policy agelru-bypass");
  ASSERT_EQ(r.code, 0) << r.out;
  auto row = [&](const std::string& field) {
    const size_t at = r.out.find("\n" + field + " ");
    if (at == std::string::npos) return std::string();
    return r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
  };
  EXPECT_NE(row("l1.allocation").find("on_miss"), std::string::npos) << r.out;
  EXPECT_NE(row("l1.allocation").find("gtx480-gpgpusim.yaml"), std::string::npos) << r.out;
  EXPECT_NE(row("policy.bypass").find("agelru"), std::string::npos) << r.out;
  EXPECT_NE(row("policy.bypass").find("agelru-bypass.yaml"), std::string::npos) << r.out;
  EXPECT_NE(row("policy.rpr.default_rd").find("default"), std::string::npos) << r.out;
  EXPECT_EQ(run("--explain-preset nosuch").code, 2);
}

// --preset auto with --trace: the trace's binary version picks the preset, the summary and the
// statistics say so; a version without a preset, or auto without a trace, is one error line, exit 2.
// Fixtures: a one-warp kernel (a load, a store, exit) written here with each binary version.
fs::path write_tiny_trace(const fs::path& dir, uint32_t binary_version) {
  fs::create_directories(dir);
  std::ofstream(dir / "kernelslist.g") << "MemcpyHtoD,0x7f0000000000,256\nkernel-1.traceg\n";
  std::ofstream(dir / "kernel-1.traceg") << "-kernel name = _Z4tinyPf\n-kernel id = 1\n-grid dim = (1,1,1)\n"
                                         << "-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n-binary version = "
                                         << binary_version << "\n-cuda stream id = 0\n"
                                         << "-shmem base_addr = 0x00007e0000000000\n"
                                         << "-local mem base_addr = 0x00007d0000000000\n"
                                         << "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n"
                                         << "-enable lineinfo = 0\n\n#traces format = ...\n\n"
                                         << "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
                                         << "0010 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f0000000000 4\n"
                                         << "0020 ffffffff 0 STG.E 2 R2 R4 4 1 0x7f0000000080 4\n"
                                         << "0030 ffffffff 0 EXIT 0 0\n#END_TB\n";
  return dir;
}

TEST_F(GpusimCli, PresetAutoPicksThePresetOfTheTracesBinaryVersion) {
  const fs::path root = fs::path(::testing::TempDir()) / ("gpusim_auto_" + std::to_string(getpid()));
  const std::pair<uint32_t, const char*> cases[] = {{61, "gtx1080"}, {70, "qv100"}, {80, "a100"}, {86, "rtx3070"}, {90, "h100"}};
  for (const auto& [version, preset] : cases) {
    SCOPED_TRACE(version);
    const fs::path dir = write_tiny_trace(root / std::to_string(version), version);
    const fs::path stats = dir / "s.json";
    const CliResult r = run("--preset auto --trace " + dir.string() + " --no-progress --stats " + stats.string(), true);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find(std::string("on ") + preset + ", policy"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(std::string("preset ") + preset + " chosen by --preset auto for the trace's binary version " +
                         std::to_string(version)),
              std::string::npos)
        << r.out;
    const auto j = nlohmann::json::parse(slurp(stats));
    EXPECT_EQ(j["run"]["preset"], preset);
    EXPECT_EQ(j["run"]["preset_auto_binary_version"], version);
    EXPECT_EQ(j["result"]["stop"], "completed");
    EXPECT_EQ(j["result"]["warp_instructions"], 3);
  }
  // A named preset records no auto choice.
  const fs::path dir61 = root / "61";
  const CliResult named = run("--preset qv100 --trace " + dir61.string() + " --quiet --stats " + (dir61 / "n.json").string());
  ASSERT_EQ(named.code, 0);
  EXPECT_TRUE(nlohmann::json::parse(slurp(dir61 / "n.json"))["run"]["preset_auto_binary_version"].is_null());
  fs::remove_all(root);
}

TEST_F(GpusimCli, PresetAutoRefusesAnUnknownVersionAndAMissingTrace) {
  const fs::path dir = write_tiny_trace(fs::path(::testing::TempDir()) / ("gpusim_auto75_" + std::to_string(getpid())), 75);
  CliResult r = run("--preset auto --trace " + dir.string(), true);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out, "error: " + (dir / "kernel-1.traceg").string() +
                       ":7: --preset auto: no preset for binary version 75 (known: 61 gtx1080, 70 qv100, 80 a100, 86 "
                       "rtx3070, 90 h100); name one with --preset\n");
  // The same trace runs on a named preset (75 is in the latency table: only auto lacks a GPU for it).
  EXPECT_EQ(run("--preset qv100 --trace " + dir.string() + " --quiet").code, 0);
  for (const std::string args : {"--preset auto --workload vecadd --scale test", "--preset auto"}) {
    r = run(args, true);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;
    EXPECT_EQ(r.out, "error: --preset auto needs --trace (it picks the preset from the trace's binary version)\n") << args;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace l1d::sim
