// The reference-faithful L1 fields (docs/l1d-microarchitecture.md section 13) and the resolved
// configuration listing (describe_config, gpusim --explain-preset).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/config.h"

namespace l1d {
namespace {

namespace fs = std::filesystem;

// One directory per test process (ctest runs each test in a process of its own), removed when the
// process ends: without the removal every run left a /tmp/l1d_fidelity_test_<pid> behind.
class ProcessTempDir {
 public:
  ProcessTempDir() : dir_(fs::temp_directory_path() / ("l1d_fidelity_test_" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
  }
  ~ProcessTempDir() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  ProcessTempDir(const ProcessTempDir&) = delete;
  ProcessTempDir& operator=(const ProcessTempDir&) = delete;
  const fs::path& path() const { return dir_; }

 private:
  fs::path dir_;
};

fs::path write_temp(const std::string& name, const std::string& text) {
  static const ProcessTempDir dir;
  const fs::path p = dir.path() / name;
  std::ofstream(p) << text;
  return p;
}

// The one-line message of loading `yaml`, without the leading "<file>: ".
std::string load_error(const std::string& yaml) {
  const fs::path f = write_temp("bad.yaml", yaml);
  try {
    load_config_file(f);
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_EQ(m.rfind(f.string() + ": ", 0), 0u) << m;
    return m.substr(f.string().size() + 2);
  }
  ADD_FAILURE() << "expected a ConfigError for: " << yaml;
  return "";
}

TEST(FidelityFields, DefaultsAreTheRealisticL1TheRtlImplements) {
  const L1Config c;
  EXPECT_EQ(c.allocation, AllocationPolicy::kOnFill);
  EXPECT_EQ(c.bypass_fetch, BypassFetch::kRequest);
  EXPECT_EQ(c.mshr_merge, MshrMerge::kStall);
  EXPECT_EQ(c.kernel_end, KernelEndAction::kFlush);
  EXPECT_EQ(c.hit_latency_at, HitLatencyAt::kResponse);
  EXPECT_EQ(c.bypass_path, BypassPath::kThroughL1);
  EXPECT_EQ(rtl_unsupported_l1_option(c), "");
  EXPECT_EQ(rtl_unsupported_l1_option(load_preset("gtx480").l1), "");
  // Sector caches (contract section 14): the single-cycle l1d_top runs them with on_fill and any
  // merging, block and sector merging without dirty state (their geometries still need models of
  // their own); qv100 resizes its L1 between kernels (cfg_set_bits_i, contract 15); gtx1080-jips
  // (sector merging, write-evict) runs whole, and so does qv100-accelsim (its write allocation: a
  // written bit per slot in an l1d_top generated for it, contract 14).
  EXPECT_EQ(rtl_unsupported_l1_option(load_preset("gtx1080-jips").l1), "");
  EXPECT_EQ(rtl_unsupported_l1_option(load_preset("gtx1080").l1), "");
  EXPECT_EQ(rtl_unsupported_l1_option(load_preset("qv100").l1), "");
  EXPECT_EQ(rtl_unsupported_l1_option(load_preset("qv100-accelsim").l1), "");
  L1Config sector = load_preset("gtx1080").l1;
  sector.allocation = AllocationPolicy::kOnMiss;  // gtx1080 is write-through: built (cfg_alloc_i, contract 14)
  EXPECT_EQ(rtl_unsupported_l1_option(sector), "");
  sector.write_policy = WritePolicy::kWriteBack;
  EXPECT_EQ(rtl_unsupported_l1_option(sector), "l1.allocation: on_miss with l1.write_policy: write_back");
  sector.write_policy = WritePolicy::kWriteThrough;
  sector.allocation = AllocationPolicy::kOnFill;
  for (const MshrMerge merge : {MshrMerge::kBlock, MshrMerge::kSector}) {
    sector.mshr_merge = merge;  // gtx1080 is write-through: built (cfg_merge_i 1 and 2)
    EXPECT_EQ(rtl_unsupported_l1_option(sector), "");
    sector.write_policy = WritePolicy::kWriteBack;
    EXPECT_EQ(rtl_unsupported_l1_option(sector),
              "l1.mshr_merge: " + to_string(merge) + " with l1.write_policy: write_back");
    sector.write_policy = WritePolicy::kWriteThrough;
  }
  sector.mshr_merge = MshrMerge::kStall;
  sector.pipeline = L1Pipeline::kStaged;  // built: the staged l1d_top generated for sector mode (contract 16.5)
  EXPECT_EQ(rtl_unsupported_l1_option(sector), "");
  sector.allocation = AllocationPolicy::kOnMiss;  // built: generated for on_miss in sector mode (16.5)
  EXPECT_EQ(rtl_unsupported_l1_option(sector), "");
  sector.mshr_merge = MshrMerge::kSector;  // built: generated for on_miss with sector merging (16.5)
  EXPECT_EQ(rtl_unsupported_l1_option(sector), "");
  sector.allocation = AllocationPolicy::kOnFill;  // built: generated for sector merging (contract 16.5)
  EXPECT_EQ(rtl_unsupported_l1_option(sector), "");
  sector.mshr_merge = MshrMerge::kBlock;  // merging by line in sector mode: single-cycle only
  EXPECT_EQ(rtl_unsupported_l1_option(sector), "l1.mshr_merge: block with l1.pipeline: staged and l1.sector: true");
  sector.mshr_merge = MshrMerge::kStall;
  sector.write_allocate = WriteAllocate::kLazyFetchOnRead;  // staged: refused with on_fill (16.5 "Write allocation")
  EXPECT_EQ(rtl_unsupported_l1_option(sector),
            "l1.write_allocate: lazy_fetch_on_read with l1.pipeline: staged and l1.allocation: on_fill");
  sector.allocation = AllocationPolicy::kOnMiss;  // built: generated for write allocation with on_miss
  EXPECT_EQ(rtl_unsupported_l1_option(sector), "");
  sector.mshr_merge = MshrMerge::kSector;  // ... with sector merging too (gtx480_staged_lazy.yaml)
  EXPECT_EQ(rtl_unsupported_l1_option(sector), "");
  sector.allocation = AllocationPolicy::kOnFill;
  sector.mshr_merge = MshrMerge::kStall;
  sector.pipeline = L1Pipeline::kSingleCycle;
  EXPECT_EQ(rtl_unsupported_l1_option(sector), "");  // built (contract 14, "Write allocation")
  // qv100-accelsim on the staged pipe: its sector mode with on_miss and sector merging is built (16.5,
  // "With merging by sector"), its write allocation (16.5, "Write allocation") and its adaptive carveout
  // (16.5, "Carveout adaptive on the staged pipe"): nothing of it is refused.
  L1Config qv = load_preset("qv100-accelsim").l1;
  qv.pipeline = L1Pipeline::kStaged;
  EXPECT_EQ(rtl_unsupported_l1_option(qv), "");
  qv.write_allocate = WriteAllocate::kNone;
  EXPECT_EQ(rtl_unsupported_l1_option(qv), "");
  qv.carveout = Carveout::kFixed;
  EXPECT_EQ(rtl_unsupported_l1_option(qv), "");
}

TEST(FidelityFields, EveryValueReadsBack) {
  const Config c = load_config_file(write_temp("ok.yaml",
                                               "l1:\n  allocation: on_miss\n  bypass_fetch: line\n  mshr_merge: block\n"
                                               "  write_policy: write_evict\n  kernel_end: invalidate\n"
                                               "  hit_latency_at: none\n"));
  EXPECT_EQ(c.l1.allocation, AllocationPolicy::kOnMiss);
  EXPECT_EQ(c.l1.bypass_fetch, BypassFetch::kLine);
  EXPECT_EQ(c.l1.mshr_merge, MshrMerge::kBlock);
  EXPECT_EQ(c.l1.write_policy, WritePolicy::kWriteEvict);
  EXPECT_EQ(c.l1.kernel_end, KernelEndAction::kInvalidate);
  EXPECT_EQ(c.l1.hit_latency_at, HitLatencyAt::kNone);
  // The RTL runs GPGPU-Sim 3.x's L1 (on_miss, block: single-cycle l1d_top, without dirty state).
  EXPECT_EQ(rtl_unsupported_l1_option(c.l1), "");
  L1Config on_miss_wb;  // the RTL queues no write-back of a reserved victim
  on_miss_wb.allocation = AllocationPolicy::kOnMiss;
  EXPECT_EQ(rtl_unsupported_l1_option(on_miss_wb), "l1.allocation: on_miss with l1.write_policy: write_back");
  on_miss_wb.pipeline = L1Pipeline::kStaged;  // the staged l1d_top generated for on_miss (contract 16.5)
  EXPECT_EQ(rtl_unsupported_l1_option(on_miss_wb), "l1.allocation: on_miss with l1.write_policy: write_back");
  on_miss_wb.write_policy = WritePolicy::kWriteEvict;
  EXPECT_EQ(rtl_unsupported_l1_option(on_miss_wb), "");
  L1Config block_wb;
  block_wb.mshr_merge = MshrMerge::kBlock;
  EXPECT_EQ(rtl_unsupported_l1_option(block_wb), "l1.mshr_merge: block with l1.write_policy: write_back");
  block_wb.write_policy = WritePolicy::kWriteEvict;
  EXPECT_EQ(rtl_unsupported_l1_option(block_wb), "");
  block_wb.pipeline = L1Pipeline::kStaged;  // the staged l1d_top generated for block (contract 16.5)
  EXPECT_EQ(rtl_unsupported_l1_option(block_wb), "");
  block_wb.sector = true;
  EXPECT_EQ(rtl_unsupported_l1_option(block_wb), "l1.mshr_merge: block with l1.pipeline: staged and l1.sector: true");
  L1Config evict_invalidate;  // l1d_top's cfg_write_i and cfg_kernel_end_inv_i
  evict_invalidate.write_policy = WritePolicy::kWriteEvict;
  evict_invalidate.kernel_end = KernelEndAction::kInvalidate;
  EXPECT_EQ(rtl_unsupported_l1_option(evict_invalidate), "");
  L1Config line_fetch;  // cfg_line_fetch_i
  line_fetch.bypass_fetch = BypassFetch::kLine;
  EXPECT_EQ(rtl_unsupported_l1_option(line_fetch), "");
  L1Config only_latency;  // the hit latency is the simulator's: the RTL runs it
  only_latency.hit_latency_at = HitLatencyAt::kNone;
  EXPECT_EQ(rtl_unsupported_l1_option(only_latency), "");
}

// Contract 13.5 / 13.6: the before-tag pipe and the direct bypass path (simulator paths around
// the L1). The before-tag pipe is the LDST unit's and leaves the L1 unchanged, so every l1d_top runs
// it; direct runs on the single-cycle l1d_top, which answers the LDST unit's B-mode and store-pending
// questions, and on the staged one generated for it.
TEST(FidelityFields, BeforeTagAndDirectReadBackAndWhereTheRtlRunsThem) {
  const Config c = load_config_file(write_temp("ldst.yaml",
                                               "l1:\n  write_policy: write_through\n  hit_latency_at: before_tag\n"
                                               "  bypass_path: direct\n"));
  EXPECT_EQ(c.l1.hit_latency_at, HitLatencyAt::kBeforeTag);
  EXPECT_EQ(c.l1.bypass_path, BypassPath::kDirect);
  EXPECT_EQ(to_string(c.l1.hit_latency_at), "before_tag");
  EXPECT_EQ(to_string(c.l1.bypass_path), "direct");
  EXPECT_EQ(rtl_unsupported_l1_option(c.l1), "");
  L1Config staged_before_tag;
  staged_before_tag.pipeline = L1Pipeline::kStaged;
  staged_before_tag.hit_latency_at = HitLatencyAt::kBeforeTag;
  EXPECT_EQ(rtl_unsupported_l1_option(staged_before_tag), "");
  L1Config only_direct;
  only_direct.write_policy = WritePolicy::kWriteThrough;
  only_direct.bypass_path = BypassPath::kDirect;
  EXPECT_EQ(rtl_unsupported_l1_option(only_direct), "");
  only_direct.pipeline = L1Pipeline::kStaged;  // the staged l1d_top generated for direct (contract 16.5)
  EXPECT_EQ(rtl_unsupported_l1_option(only_direct), "");
  only_direct.sector = true;  // in sector mode too (contract 16.5, "The direct path")
  EXPECT_EQ(rtl_unsupported_l1_option(only_direct), "");
  EXPECT_EQ(rtl_unsupported_l1_option(load_preset("gtx1080-jips").l1), "");
  // gtx480-gpgpusim runs on the RTL as it is (every L1 option of it is one l1d_top implements).
  EXPECT_EQ(rtl_unsupported_l1_option(load_preset("gtx480-gpgpusim").l1), "");
  // The faithful presets set them where their reference simulator does.
  EXPECT_EQ(load_preset("gtx480-gpgpusim").l1.hit_latency_at, HitLatencyAt::kNone);
  for (const char* p : {"gtx480-gpgpusim", "gtx1080-jips", "qv100-accelsim"})
    EXPECT_EQ(load_preset(p).l1.bypass_path, BypassPath::kDirect) << p;
  for (const char* p : {"gtx1080-jips", "qv100-accelsim"})
    EXPECT_EQ(load_preset(p).l1.hit_latency_at, HitLatencyAt::kBeforeTag) << p;
}

// Sector mode's legal combinations (contract section 14), each refusal one line naming the field.
TEST(FidelityFields, SectorModeRefusesWhatASectorLineCannotHold) {
  EXPECT_EQ(load_error("l1: {mshr_merge: sector}\n"),
            "l1.mshr_merge: value \"sector\" not allowed with sector false (MSHRs merge per sector only in a "
            "sector cache; allowed: stall, block, or sector true)");
  EXPECT_EQ(load_error("l1: {sector: true, bypass_fetch: line}\n"),
            "l1.bypass_fetch: value \"line\" not allowed with sector true (a sector cache fetches the sectors a "
            "miss lacks; allowed: request)");
  EXPECT_EQ(load_error("l1: {sector: true}\npolicy: {granularity: dynamic}\n"),
            "policy.granularity: value \"dynamic\" not allowed with l1.sector true (a sector line keeps sector i "
            "in slot i; DyCache's granularities place a chunk at any slot; allowed: fixed128)");
  EXPECT_EQ(load_error("l1: {sector: true, write_allocate: lazy_fetch_on_read}\n"),
            "l1.write_allocate: value \"lazy_fetch_on_read\" not allowed with sector true and write_policy "
            "write_back (allowed: none, or sector true with write_policy write_through)");
  EXPECT_EQ(load_error("l1: {write_policy: write_through, write_allocate: lazy_fetch_on_read}\n"),
            "l1.write_allocate: value \"lazy_fetch_on_read\" not allowed with sector false and write_policy "
            "write_through (allowed: none, or sector true with write_policy write_through)");
  EXPECT_EQ(load_preset("qv100-accelsim").l1.write_allocate, WriteAllocate::kLazyFetchOnRead);
  const Config c = load_config_file(write_temp("sector.yaml", "l1: {sector: true, mshr_merge: sector}\n"));
  EXPECT_TRUE(c.l1.sector);
  EXPECT_EQ(c.l1.mshr_merge, MshrMerge::kSector);
  // contract 14's RTL merges by sector without dirty state only
  EXPECT_EQ(rtl_unsupported_l1_option(c.l1), "l1.mshr_merge: sector with l1.write_policy: write_back");
  PolicyConfig p = c.policy;
  p.granularity = GranularityKind::kStatic32;
  EXPECT_NE(sector_policy_conflict(p, c.l1), "");
  p.granularity = GranularityKind::kFixed128;
  EXPECT_EQ(sector_policy_conflict(p, c.l1), "");
}

TEST(FidelityFields, BadValuesNameFieldValueAndAllowed) {
  EXPECT_EQ(load_error("l1: {allocation: on_access}\n"),
            "l1.allocation: value \"on_access\" not allowed (allowed: on_fill, on_miss)");
  EXPECT_EQ(load_error("l1: {bypass_fetch: sector}\n"),
            "l1.bypass_fetch: value \"sector\" not allowed (allowed: request, line)");
  EXPECT_EQ(load_error("l1: {mshr_merge: word}\n"),
            "l1.mshr_merge: value \"word\" not allowed (allowed: stall, block, sector)");
  EXPECT_EQ(load_error("l1: {write_policy: write_around}\n"),
            "l1.write_policy: value \"write_around\" not allowed (allowed: write_back, write_through, write_evict)");
  EXPECT_EQ(load_error("l1: {kernel_end: drop}\n"),
            "l1.kernel_end: value \"drop\" not allowed (allowed: flush, invalidate)");
  EXPECT_EQ(load_error("l1: {hit_latency_at: after_tag}\n"),
            "l1.hit_latency_at: value \"after_tag\" not allowed (allowed: response, before_tag, none)");
  EXPECT_EQ(load_error("l1: {bypass_path: icnt}\n"),
            "l1.bypass_path: value \"icnt\" not allowed (allowed: through_l1, direct)");
}

TEST(FidelityFields, CrossFieldRules) {
  EXPECT_EQ(load_error("l1: {write_policy: write_back, kernel_end: invalidate}\n"),
            "l1.kernel_end: value \"invalidate\" not allowed with write_policy write_back (dirty data would be lost; "
            "allowed: flush, or write_policy write_through / write_evict)");
  EXPECT_EQ(load_error("l1: {allocation: on_miss, write_policy: write_back, miss_queue_entries: 8}\n"),
            "l1.miss_queue_entries: value 8 out of range with allocation on_miss and write_back (allowed 9..256: a "
            "reserving miss may queue 8 write-backs and its read)");
  EXPECT_EQ(load_error("l1: {write_policy: write_back, bypass_path: direct}\n"),
            "l1.bypass_path: value \"direct\" not allowed with write_policy write_back (a direct load would miss "
            "dirty L1 data; allowed: through_l1, or write_policy write_through / write_evict)");
  EXPECT_EQ(load_error("l1: {hit_latency: 1, hit_latency_at: before_tag}\n"),
            "l1.hit_latency: value 1 out of range with hit_latency_at before_tag (allowed 2..10000: the pipe before "
            "the tag lookup has hit_latency - 1 stages)");
  // Without dirty state, the smallest queue is legal on miss.
  EXPECT_NO_THROW(load_config_file(
      write_temp("ok2.yaml", "l1: {allocation: on_miss, write_policy: write_evict, miss_queue_entries: 6}\n")));
}

// l1.pipeline (contract section 16): read back, an option the RTL generator takes, the hit latency
// the simulator charges, and the smallest hit latency that leaves room for the staged pipe.
TEST(FidelityFields, PipelineStagedChargesFiveCyclesLess) {
  const Config c = load_config_file(write_temp("staged.yaml", "l1:\n  pipeline: staged\n  hit_latency: 35\n"));
  EXPECT_EQ(c.l1.pipeline, L1Pipeline::kStaged);
  EXPECT_EQ(to_string(c.l1.pipeline), "staged");
  EXPECT_EQ(rtl_unsupported_l1_option(c.l1), "");
  EXPECT_EQ(charged_hit_latency(c.l1), 30u);
  L1Config single;
  single.hit_latency = 35;
  EXPECT_EQ(charged_hit_latency(single), 35u);
  EXPECT_EQ(L1Config{}.pipeline, L1Pipeline::kSingleCycle);
  single.hit_latency_at = HitLatencyAt::kNone;
  EXPECT_EQ(charged_hit_latency(single), 0u);
  EXPECT_EQ(load_error("l1: {pipeline: deep}\n"),
            "l1.pipeline: value \"deep\" not allowed (allowed: single_cycle, staged)");
  EXPECT_EQ(load_error("l1: {pipeline: staged, hit_latency: 4}\n"),
            "l1.hit_latency: value 4 out of range with pipeline staged and hit_latency_at response (allowed "
            "5..10000: the staged L1's pipe already takes 5 cycles of it)");
  EXPECT_EQ(load_error("l1: {pipeline: staged, hit_latency: 6, write_policy: write_through, hit_latency_at: "
                       "before_tag}\n"),
            "l1.hit_latency: value 6 out of range with pipeline staged and hit_latency_at before_tag (allowed "
            "7..10000: the staged L1's pipe already takes 5 cycles of it)");
  EXPECT_NO_THROW(load_config_file(write_temp("none.yaml", "l1: {pipeline: staged, hit_latency: 1, hit_latency_at: none}\n")));
}

TEST(DescribeConfig, ListsEveryFieldWithItsValueAndSource) {
  const fs::path f = write_temp("src.yaml", "name: src\nl1:\n  allocation: on_miss\n  write_policy: write_evict\n  ways: 8\n  size_bytes: 32768\n");
  Config c = load_config_file(f);
  const fs::path pol = write_temp("pol.yaml", "bypass: agcb\n");
  apply_policy_file(c, pol);
  const std::vector<ConfigField> fields = describe_config(c);
  auto find = [&](const std::string& path) {
    auto it = std::find_if(fields.begin(), fields.end(), [&](const ConfigField& x) { return x.path == path; });
    EXPECT_NE(it, fields.end()) << path;
    return it == fields.end() ? ConfigField{} : *it;
  };
  EXPECT_EQ(find("l1.allocation").value, "on_miss");
  EXPECT_EQ(find("l1.allocation").source, f.string());
  EXPECT_EQ(find("l1.ways").value, "8");
  EXPECT_EQ(find("l1.mshr_merge").value, "stall");
  EXPECT_EQ(find("l1.mshr_merge").source, "");  // the default
  EXPECT_EQ(find("policy.bypass").value, "agcb");
  EXPECT_EQ(find("policy.bypass").source, pol.string());
  EXPECT_EQ(find("policy.agcb.threshold").value, "8");
  EXPECT_EQ(find("name").value, "src");
  // Every field of the schema is listed once: the memory system's too.
  EXPECT_EQ(find("dram.channels").value, std::to_string(c.dram.channels));
  for (size_t i = 0; i < fields.size(); ++i)
    for (size_t k = i + 1; k < fields.size(); ++k) EXPECT_NE(fields[i].path, fields[k].path);
  EXPECT_GT(fields.size(), 60u);
}

}  // namespace
}  // namespace l1d
