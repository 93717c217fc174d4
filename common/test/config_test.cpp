// Tests of the configuration loader: the shipped presets carry SPEC section 1's numbers, every
// policy preset applies, and each class of mistake in a file gives one exact, one-line message.
#include "common/config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace l1d {
namespace {

namespace fs = std::filesystem;

// A fresh directory under the system temp dir, removed when the test ends.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("l1d_config_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  fs::path write(const std::string& name, const std::string& text) const {
    const fs::path p = path_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p;
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The message of the ConfigError that f throws; fails the test if there is none or if the
// message is not exactly one line.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << "message is not one line: " << m;
    return m;
  }
  ADD_FAILURE() << "expected a ConfigError";
  return "";
}

// Loads a preset-schema file with the given text and returns its error message.
std::string load_error(const std::string& yaml) {
  TempDir dir;
  const fs::path f = dir.write("bad.yaml", yaml);
  const std::string m = error_of([&] { load_config_file(f); });
  // Every message starts with the file, so that the user knows which file to open.
  EXPECT_EQ(m.rfind(f.string() + ": ", 0), 0u) << m;
  return m.substr(std::min(m.size(), f.string().size() + 2));
}

// ---- the shipped presets ----

TEST(Presets, Gtx480MatchesSpecSection1) {
  const Config c = load_preset("gtx480");
  EXPECT_EQ(c.name, "gtx480");
  EXPECT_EQ(c.core.num_sms, 15u);
  EXPECT_EQ(c.core.warps_per_sm, 48u);
  EXPECT_EQ(c.core.warps_per_sm * c.core.threads_per_warp, 1536u);
  EXPECT_EQ(c.core.schedulers_per_sm, 2u);
  EXPECT_EQ(c.core.scheduler, SchedulerKind::kGto);
  EXPECT_EQ(c.core.instruction_bytes, 8u);
  EXPECT_EQ(c.core.clock_mhz, 700u);
  EXPECT_EQ(c.l1.size_bytes, 16384u);
  EXPECT_EQ(c.l1.ways, 4u);
  EXPECT_EQ(c.l1.sets(), 32u);
  EXPECT_EQ(c.l1.address_bits, 32u);
  EXPECT_EQ(c.l1.chunk_tag_bits, 16u);
  EXPECT_EQ(c.l1.set_index, SetIndexHash::kFermiXor);
  EXPECT_EQ(c.l1.hit_latency, 35u);
  EXPECT_EQ(c.l1.mshr_entries, 32u);
  EXPECT_EQ(c.l1.mshr_max_merge, 8u);
  EXPECT_EQ(c.l1.miss_queue_entries, 8u);
  EXPECT_EQ(c.l1.write_policy, WritePolicy::kWriteBack);
  EXPECT_FALSE(c.l1.sector);
  EXPECT_EQ(c.l2.size_bytes, 768u * 1024);
  EXPECT_EQ(c.l2.ways, 16u);
  EXPECT_EQ(c.l2.partitions, 6u);
  EXPECT_EQ(c.dram.channels, 6u);
  EXPECT_DOUBLE_EQ(c.dram.bandwidth_gbps, 179.2);
  EXPECT_EQ(c.policy.name, "baseline");
  EXPECT_EQ(c.policy.replacement, ReplacementKind::kLru);
  EXPECT_EQ(c.policy.bypass, BypassKind::kNone);
  EXPECT_EQ(c.policy.granularity, GranularityKind::kFixed128);
  EXPECT_EQ(c.policy.bip.lfsr_seed, 0xACE1u);  // written in hex in the file
  EXPECT_EQ(c.policy.agcb.reset_value, 15u);
  EXPECT_TRUE(c.policy.agcb.l2_verify);
  EXPECT_NE(c.source.find("gtx480.yaml"), std::string::npos);
}

TEST(Presets, Gtx1080MatchesTwoLevelPaper) {
  const Config c = load_preset("gtx1080");
  EXPECT_EQ(c.name, "gtx1080");
  EXPECT_EQ(c.core.num_sms, 20u);
  EXPECT_EQ(c.core.warps_per_sm * c.core.threads_per_warp, 2048u);
  EXPECT_EQ(c.core.schedulers_per_sm, 4u);
  EXPECT_EQ(c.l1.size_bytes, 24u * 1024);
  EXPECT_EQ(c.l1.ways, 48u);
  EXPECT_EQ(c.l1.sets(), 4u);
  EXPECT_EQ(c.l1.set_index, SetIndexHash::kLinear);
  EXPECT_EQ(c.l1.hit_latency, 82u);
  EXPECT_EQ(c.l1.mshr_entries, 16u);
  EXPECT_EQ(c.l1.miss_queue_entries, 32u);
  EXPECT_EQ(c.l1.write_policy, WritePolicy::kWriteThrough);
  EXPECT_TRUE(c.l1.sector);
  EXPECT_EQ(c.l2.size_bytes, 2u * 1024 * 1024);
  EXPECT_EQ(c.dram.channels, 8u);
  EXPECT_DOUBLE_EQ(c.dram.bandwidth_gbps, 320.0);
}

TEST(Presets, Qv100MatchesAgcbReport) {
  const Config c = load_preset("qv100");
  EXPECT_EQ(c.name, "qv100");
  EXPECT_EQ(c.core.num_sms, 80u);
  EXPECT_EQ(c.core.warps_per_sm, 64u);
  EXPECT_EQ(c.core.instruction_bytes, 16u);
  EXPECT_EQ(c.l1.size_bytes, 32u * 1024);
  EXPECT_EQ(c.l1.ways, 64u);
  EXPECT_EQ(c.l1.sets(), 4u);
  EXPECT_EQ(c.l1.set_index, SetIndexHash::kLinear);
  EXPECT_TRUE(c.l1.sector);
  EXPECT_LE(c.l1.mshr_entries, 256u);  // the MSHR id is 8 bits
  EXPECT_EQ(c.l2.size_bytes, 6u * 1024 * 1024);
  EXPECT_EQ(c.l2.ways, 24u);
  EXPECT_EQ(c.policy.replacement, ReplacementKind::kLru);
}

TEST(Presets, ListedSortedAndLoadable) {
  const std::vector<std::string> names = list_presets();
  EXPECT_EQ(names, (std::vector<std::string>{"a100", "gtx1080", "gtx1080-jips", "gtx480", "gtx480-gpgpusim", "h100", "qv100",
                                             "qv100-accelsim", "rtx3070"}));
  for (const auto& n : names) EXPECT_EQ(load_preset(n).name, n);
}

// ---- the shipped policy presets ----

struct PolicyCase {
  const char* name;
  ReplacementKind replacement;
  BypassKind bypass;
  GranularityKind granularity;
  bool bto;
};

void PrintTo(const PolicyCase& c, std::ostream* os) { *os << c.name; }

class PolicyPresets : public ::testing::TestWithParam<PolicyCase> {};

TEST_P(PolicyPresets, AppliesToGtx480) {
  const PolicyCase& p = GetParam();
  Config c = load_preset("gtx480");
  const L1Config l1_before = c.l1;
  apply_policy_preset(c, p.name);
  EXPECT_EQ(c.policy.name, p.name);
  EXPECT_EQ(c.policy.replacement, p.replacement);
  EXPECT_EQ(c.policy.bypass, p.bypass);
  EXPECT_EQ(c.policy.granularity, p.granularity);
  EXPECT_EQ(c.policy.bto, p.bto);
  EXPECT_EQ(c.l1.ways, l1_before.ways);  // a policy file never touches the GPU
  EXPECT_NE(c.source.find("gtx480.yaml + "), std::string::npos) << c.source;
  EXPECT_NE(c.source.find(std::string(p.name) + ".yaml"), std::string::npos) << c.source;
}

using R = ReplacementKind;
using B = BypassKind;
using G = GranularityKind;
const PolicyCase kPolicyCases[] = {
    {"agcb", R::kLru, B::kAgcb, G::kFixed128, false},
    {"agelru", R::kAgeLru, B::kNone, G::kFixed128, false},
    {"agelru-bypass", R::kAgeLru, B::kAgeLru, G::kFixed128, false},
    {"agelru-bypass-bto", R::kAgeLru, B::kAgeLru, G::kFixed128, true},
    {"baseline", R::kLru, B::kNone, G::kFixed128, false},
    {"bip", R::kBip, B::kNone, G::kFixed128, false},
    {"combined", R::kAgeLru, B::kPcal, G::kDynamic, true},
    {"dip", R::kDip, B::kNone, G::kFixed128, false},
    {"dycache", R::kLru, B::kNone, G::kDynamic, false},
    {"elastic32", R::kLru, B::kNone, G::kStatic32, false},
    {"elastic64", R::kLru, B::kNone, G::kStatic64, false},
    {"fifo", R::kFifo, B::kNone, G::kFixed128, false},
    {"pcal", R::kLru, B::kPcal, G::kFixed128, false},
    {"pcal-bto", R::kLru, B::kPcal, G::kFixed128, true},
    {"rpr", R::kRpr, B::kNone, G::kFixed128, false},
    {"rpr-counter", R::kRpr, B::kNone, G::kFixed128, false},
    {"two-level", R::kLru, B::kTwoLevel, G::kFixed128, false},
};

INSTANTIATE_TEST_SUITE_P(All, PolicyPresets, ::testing::ValuesIn(kPolicyCases), [](const auto& param_info) {
  std::string n = param_info.param.name;
  for (char& ch : n)
    if (ch == '-') ch = '_';
  return n;
});

TEST(PolicyPresetFiles, ExactlyTheTestedOnesExistAndApplyToEveryGpu) {
  std::vector<std::string> expected;
  for (const auto& p : kPolicyCases) expected.emplace_back(p.name);
  ASSERT_EQ(list_policy_presets(), expected);
  for (const auto& gpu : list_presets())
    for (const auto& pol : expected) {
      Config c = load_preset(gpu);
      Config probe = c;  // the policy's granularity, read on a line cache
      probe.l1.sector = false;
      probe.l1.mshr_merge = MshrMerge::kStall;
      apply_policy_preset(probe, pol);
      // A sector cache refuses DyCache's granularities (contract section 14), with the field named.
      if (c.l1.sector && probe.policy.granularity != GranularityKind::kFixed128) {
        try {
          apply_policy_preset(c, pol);
          ADD_FAILURE() << gpu << " + " << pol << ": a sector L1 accepted granularity " << to_string(probe.policy.granularity);
        } catch (const ConfigError& e) {
          EXPECT_NE(std::string(e.what()).find("granularity: value"), std::string::npos) << e.what();
        }
        continue;
      }
      apply_policy_preset(c, pol);
      EXPECT_EQ(c.policy.name, pol) << gpu;
    }
  // Parameters the papers fix.
  Config c = load_preset("gtx480");
  apply_policy_preset(c, "dycache");
  EXPECT_EQ(c.policy.dycache.threshold_pct, 50u);
  EXPECT_EQ(c.policy.dycache.sample_requests, 1000u);
  apply_policy_preset(c, "two-level");
  EXPECT_DOUBLE_EQ(c.policy.two_level.th_low, 0.3);
  EXPECT_DOUBLE_EQ(c.policy.two_level.th_high, 0.9);
  EXPECT_EQ(c.policy.two_level.window_cycles, 5000u);
}

// ---- merging and defaults ----

TEST(PolicyFile, OnlyKeysPresentOverride) {
  TempDir dir;
  const fs::path f = dir.write("mine.yaml", "granularity: static32\ndycache: {threshold_pct: 75}\n");
  Config c = load_preset("gtx480");
  c.policy.replacement = ReplacementKind::kFifo;  // pretend an earlier file chose FIFO
  apply_policy_file(c, f);
  EXPECT_EQ(c.policy.granularity, GranularityKind::kStatic32);
  EXPECT_EQ(c.policy.dycache.threshold_pct, 75u);
  EXPECT_EQ(c.policy.dycache.sample_requests, 1000u);  // untouched key of a touched section
  EXPECT_EQ(c.policy.replacement, ReplacementKind::kFifo);
  EXPECT_EQ(c.policy.name, "mine");  // no name: key, so the file's stem
  EXPECT_NE(c.source.find(" + " + f.string()), std::string::npos) << c.source;
}

TEST(ConfigFile, MissingKeysKeepStructDefaults) {
  TempDir dir;
  const Config c = load_config_file(dir.write("tiny.yaml", "l1: {hit_latency: 40}\npolicy:\n"));
  const Config d;
  EXPECT_EQ(c.name, "tiny");  // named after the file
  EXPECT_EQ(c.l1.hit_latency, 40u);
  EXPECT_EQ(c.l1.ways, d.l1.ways);
  EXPECT_EQ(c.l1.size_bytes, d.l1.size_bytes);
  EXPECT_EQ(c.core.num_sms, d.core.num_sms);
  EXPECT_DOUBLE_EQ(c.dram.bandwidth_gbps, d.dram.bandwidth_gbps);
  EXPECT_EQ(c.policy.name, d.policy.name);
  EXPECT_EQ(c.seed, d.seed);
}

TEST(ConfigFile, AgcbL2VerifyReadsBack) {
  TempDir dir;
  const Config c = load_config_file(dir.write("noverify.yaml", "policy:\n  agcb: {l2_verify: false}\n"));
  EXPECT_FALSE(c.policy.agcb.l2_verify);
  EXPECT_EQ(c.policy.agcb.threshold, Config{}.policy.agcb.threshold);
}

TEST(ConfigFile, ToStringSpellingsReadBack) {
  // Every enum spelling to_string produces is accepted by the loader (plain or quoted) and means
  // the same value.
  TempDir dir;
  for (R r : {R::kLru, R::kFifo, R::kBip, R::kDip, R::kAgeLru, R::kRpr})
    for (B b : {B::kNone, B::kAgcb, B::kTwoLevel, B::kPcal, B::kAgeLru})
      for (G g : {G::kFixed128, G::kStatic64, G::kStatic32, G::kDynamic}) {
        const fs::path f =
            dir.write("p.yaml", "replacement: " + to_string(r) + "\nbypass: \"" + to_string(b) +
                                    "\"\ngranularity: '" + to_string(g) + "'\n");
        Config c;
        apply_policy_file(c, f);
        EXPECT_EQ(c.policy.replacement, r);
        EXPECT_EQ(c.policy.bypass, b);
        EXPECT_EQ(c.policy.granularity, g);
      }
  EXPECT_EQ(to_string(R::kAgeLru), "agelru");
  EXPECT_EQ(to_string(B::kTwoLevel), "two_level");
  EXPECT_EQ(to_string(G::kFixed128), "fixed128");
  for (RprScore s : {RprScore::kReuseDistance, RprScore::kCounter, RprScore::kAge}) {
    Config c;
    apply_policy_file(c, dir.write("s.yaml", "rpr: {score: " + to_string(s) + "}\n"));
    EXPECT_EQ(c.policy.rpr.score, s);
  }
  EXPECT_EQ(to_string(RprScore::kReuseDistance), "reuse_distance");
}

// ---- RPR (SPEC 9) ----

TEST(RprConfig, PresetsAndDefaults) {
  const RprConfig d;
  EXPECT_EQ(d.score, RprScore::kReuseDistance);
  EXPECT_EQ(d.sample_every, 4u);
  EXPECT_EQ(d.default_rd, 8u);
  EXPECT_EQ(d.default_rc, 1u);
  Config c = load_preset("gtx480");
  apply_policy_preset(c, "rpr");
  EXPECT_EQ(c.policy.replacement, ReplacementKind::kRpr);
  EXPECT_EQ(c.policy.rpr.score, RprScore::kReuseDistance);
  EXPECT_EQ(c.policy.rpr.sample_every, 4u);
  EXPECT_EQ(c.policy.rpr.default_rd, 8u);
  EXPECT_EQ(c.policy.rpr.default_rc, 1u);
  apply_policy_preset(c, "rpr-counter");
  EXPECT_EQ(c.policy.rpr.score, RprScore::kCounter);
  TempDir dir;
  c = load_config_file(dir.write(
      "r.yaml", "policy:\n  replacement: rpr\n  rpr: {score: age, sample_every: 1, default_rd: 0, default_rc: 15}\n"));
  EXPECT_EQ(c.policy.rpr.score, RprScore::kAge);
  EXPECT_EQ(c.policy.rpr.sample_every, 1u);
  EXPECT_EQ(c.policy.rpr.default_rd, 0u);
  EXPECT_EQ(c.policy.rpr.default_rc, 15u);
}

TEST(RprConfig, FieldErrorsAreOneLine) {
  EXPECT_EQ(load_error("policy:\n  rpr: {score: lru}\n"),
            "policy.rpr.score: value \"lru\" not allowed (allowed: reuse_distance, counter, age)");
  EXPECT_EQ(load_error("policy:\n  rpr: {sample_every: 3}\n"),
            "policy.rpr.sample_every: value 3 not allowed (allowed: powers of two 1..64)");
  EXPECT_EQ(load_error("policy:\n  rpr: {sample_every: 128}\n"),
            "policy.rpr.sample_every: value 128 out of range (allowed 1..64)");
  EXPECT_EQ(load_error("policy:\n  rpr: {default_rd: 16}\n"),
            "policy.rpr.default_rd: value 16 out of range (allowed 0..15)");
  EXPECT_EQ(load_error("policy:\n  rpr: {default_rc: -1}\n"),
            "policy.rpr.default_rc: value -1 out of range (allowed 0..15)");
}

TEST(RprConfig, SampleEveryIsAtMostTheSetsWhenRprIsTheReplacement) {
  // The default L1 has 32 sets.
  EXPECT_EQ(load_error("policy:\n  replacement: rpr\n  rpr: {sample_every: 64}\n"),
            "policy.rpr.sample_every: value 64 out of range (allowed 1..32: at most the L1's 32 sets)");
  TempDir dir;
  EXPECT_NO_THROW(load_config_file(dir.write("ok.yaml", "policy:\n  rpr: {sample_every: 64}\n")));  // LRU
  // A policy file is checked against the L1 it is merged into (qv100: 4 sets), with its own keys.
  Config c = load_preset("qv100");
  const fs::path f = dir.write("rpr8.yaml", "replacement: rpr\nrpr: {sample_every: 8}\n");
  EXPECT_EQ(error_of([&] { apply_policy_file(c, f); }),
            f.string() + ": rpr.sample_every: value 8 out of range (allowed 1..4: at most the L1's 4 sets)");
  EXPECT_EQ(c.policy.replacement, ReplacementKind::kLru);
  apply_policy_preset(c, "rpr");  // 4 of 4: set 0 is sampled
  EXPECT_EQ(c.policy.rpr.sample_every, 4u);
}

TEST(ConfigDir, EnvironmentVariableOverridesSourceTree) {
  TempDir dir;
  dir.write("mygpu.yaml", "name: mygpu\ncore: {num_sms: 2}\n");
  dir.write("policies/mypol.yaml", "replacement: bip\n");
  ASSERT_EQ(::setenv("L1D_CONFIG_DIR", dir.path().c_str(), 1), 0);
  const fs::path seen = config_dir();
  const auto presets = list_presets();
  const auto policies = list_policy_presets();
  Config c = load_preset("mygpu");
  apply_policy_preset(c, "mypol");
  ::unsetenv("L1D_CONFIG_DIR");
  EXPECT_EQ(seen, dir.path());
  EXPECT_EQ(presets, std::vector<std::string>{"mygpu"});
  EXPECT_EQ(policies, std::vector<std::string>{"mypol"});
  EXPECT_EQ(c.core.num_sms, 2u);
  EXPECT_EQ(c.policy.replacement, ReplacementKind::kBip);
  EXPECT_EQ(config_dir(), fs::path(PROJECT_SOURCE_DIR) / "configs");
}

// `base: NAME` starts a file from a preset of the config directory; the file's own keys override
// it, a chain of bases resolves in order, and a cycle is refused in one line.
TEST(ConfigFile, BaseStartsFromAPresetAndOverridesOnlyItsKeys) {
  TempDir dir;
  dir.write("gpu.yaml", "core: {num_sms: 3}\nl1: {ways: 8, hit_latency: 30}\nl2: {slices_per_partition: 2}\n");
  dir.write("gpu-fast.yaml", "base: gpu\nl1: {hit_latency: 10}\n");
  const fs::path mine = dir.write("mine.yaml", "base: gpu-fast\nl1: {pipeline: staged}\n");
  dir.write("loop-a.yaml", "base: loop-b\n");
  dir.write("loop-b.yaml", "base: loop-a\n");
  ASSERT_EQ(::setenv("L1D_CONFIG_DIR", dir.path().c_str(), 1), 0);
  const Config c = load_config_file(mine);
  const std::string cycle = error_of([&] { load_preset("loop-a"); });
  const std::string missing = error_of([&] { load_config_file(dir.write("x.yaml", "base: nosuch\n")); });
  ::unsetenv("L1D_CONFIG_DIR");
  EXPECT_EQ(c.name, "mine");
  EXPECT_EQ(c.core.num_sms, 3u);                  // from gpu
  EXPECT_EQ(c.l1.ways, 8u);                       // from gpu
  EXPECT_EQ(c.l2.slices_per_partition, 2u);      // from gpu
  EXPECT_EQ(c.l1.hit_latency, 10u);               // gpu-fast overrides gpu
  EXPECT_EQ(c.l1.pipeline, L1Pipeline::kStaged);  // mine's own key
  EXPECT_NE(cycle.find("base: value \"loop-"), std::string::npos) << cycle;
  EXPECT_NE(cycle.find("more than 8 files deep"), std::string::npos) << cycle;
  EXPECT_NE(missing.find("nosuch"), std::string::npos) << missing;
  EXPECT_NE(missing.find("available:"), std::string::npos) << missing;
  // The sources name the file that set each field last.
  std::map<std::string, std::string> source;
  for (const ConfigField& f : describe_config(c)) source[f.path] = f.source;
  EXPECT_EQ(source["l1.pipeline"], mine.string());
  EXPECT_EQ(source["l1.hit_latency"], (dir.path() / "gpu-fast.yaml").string());
  EXPECT_EQ(source["l1.ways"], (dir.path() / "gpu.yaml").string());
}

// The papers' choices for what runtime controllers keep across kernel launches (config.h).
TEST(ConfigDefaults, KeepAcrossLaunchesAsThePapersDescribe) {
  for (const std::string preset : {"gtx480", "gtx480-gpgpusim", "gtx1080-jips", "qv100"}) {
    const Config c = load_preset(preset);
    EXPECT_TRUE(c.policy.pcal.keep_across_launches) << preset;
    EXPECT_TRUE(c.policy.agelru.keep_across_launches) << preset;
    EXPECT_FALSE(c.policy.two_level.keep_across_launches) << preset;
  }
}

// ---- one test per class of error ----

TEST(ConfigErrors, WrongType) {
  EXPECT_EQ(load_error("l1: {ways: four}\n"), "l1.ways: expected an unsigned integer, got \"four\"");
  EXPECT_EQ(load_error("l1:\n  ways: \"16\"\n"),
            "l1.ways: expected an unsigned integer, got \"16\" (a string)");
  EXPECT_EQ(load_error("l1: {ways: 2.5}\n"), "l1.ways: expected an unsigned integer, got \"2.5\"");
  EXPECT_EQ(load_error("l1: {ways: [4]}\n"), "l1.ways: expected an unsigned integer, got a list");
  EXPECT_EQ(load_error("l1: {ways: }\n"), "l1.ways: expected an unsigned integer, got an empty value");
  EXPECT_EQ(load_error("policy: {bto: yes}\n"), "policy.bto: expected true or false, got \"yes\"");
  EXPECT_EQ(load_error("policy:\n  agelru: {keep_across_launches: 1}\n"),
            "policy.agelru.keep_across_launches: expected true or false, got \"1\"");
  EXPECT_EQ(load_error("dram: {bandwidth_gbps: fast}\n"),
            "dram.bandwidth_gbps: expected a number, got \"fast\"");
  EXPECT_EQ(load_error("l1: 16384\n"), "l1: expected a mapping, got \"16384\"");
}

TEST(ConfigErrors, OutOfRange) {
  EXPECT_EQ(load_error("l1: {ways: 65}\n"), "l1.ways: value 65 out of range (allowed 1..64)");
  EXPECT_EQ(load_error("l1: {ways: -4}\n"), "l1.ways: value -4 out of range (allowed 1..64)");
  EXPECT_EQ(load_error("l1: {mshr_entries: 257}\n"),
            "l1.mshr_entries: value 257 out of range (allowed 1..256)");
  EXPECT_EQ(load_error("l1: {miss_queue_entries: 5}\n"),
            "l1.miss_queue_entries: value 5 out of range (allowed 6..256)");
  EXPECT_EQ(load_error("seed: 99999999999999999999999\n"),
            "seed: value 99999999999999999999999 out of range (allowed 0..18446744073709551615)");
  EXPECT_EQ(load_error("policy:\n  two_level: {th_high: 1.5}\n"),
            "policy.two_level.th_high: value 1.5 out of range (allowed 0..1)");
  EXPECT_EQ(load_error("policy:\n  dycache: {threshold_pct: 100}\n"),
            "policy.dycache.threshold_pct: value 100 out of range (allowed 1..99)");
}

TEST(ConfigErrors, NotAPowerOfTwo) {
  EXPECT_EQ(load_error("policy:\n  agcb: {entries: 100}\n"),
            "policy.agcb.entries: value 100 not allowed (allowed: powers of two 2..65536)");
  EXPECT_EQ(load_error("core: {instruction_bytes: 12}\n"),
            "core.instruction_bytes: value 12 not allowed (allowed: powers of two 1..64)");
  EXPECT_EQ(load_error("policy:\n  bip: {mru_one_in: 2048}\n"),
            "policy.bip.mru_one_in: value 2048 out of range (allowed 1..1024)");
}

struct UnknownKeyCase {
  const char* name;
  const char* yaml;
  const char* message;
};

void PrintTo(const UnknownKeyCase& c, std::ostream* os) { *os << c.yaml; }

class UnknownKey : public ::testing::TestWithParam<UnknownKeyCase> {};

TEST_P(UnknownKey, IsAnErrorListingTheAllowedKeys) {
  EXPECT_EQ(load_error(GetParam().yaml), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Sections, UnknownKey,
    ::testing::Values(
        UnknownKeyCase{"top", "name: x\npolciy: {}\n",
                       "polciy: unknown key (allowed: base, name, seed, core, l1, l2, noc, dram, policy)"},
        UnknownKeyCase{
            "l1", "l1:\n  ways: 4\n  wayz: 8\n",
            "l1.wayz: unknown key (allowed: size_bytes, ways, address_bits, chunk_tag_bits, set_index, "
            "hit_latency, mshr_entries, mshr_max_merge, miss_queue_entries, write_policy, sector, allocation, "
            "bypass_fetch, mshr_merge, kernel_end, hit_latency_at, bypass_path, write_allocate, pipeline, carveout, "
            "unified_bytes, shared_options_kb)"},
        UnknownKeyCase{
            "dram", "dram: {chanels: 4}\n",
            "dram.chanels: unknown key (allowed: channels, bandwidth_gbps, latency, banks, row_bytes, queue, "
            "t_rcd_ns, t_rp_ns, t_ras_ns, t_rrd_ns)"},
        UnknownKeyCase{"noc", "noc: {flits: 2}\n",
                       "noc.flits: unknown key (allowed: latency, flit_bytes, flits_per_cycle, header_bytes, "
                       "src_buffer, dst_buffer, arbiter, vcs, input_speedup, internal_speedup)"},
        UnknownKeyCase{"l2", "l2: {slices: 2}\n",
                       "l2.slices: unknown key (allowed: size_bytes, ways, partitions, hit_latency, "
                       "slices_per_partition, mshrs, fill_latency, read_buffer, dram_out, fetch)"},
        UnknownKeyCase{
            "policy", "policy: {replacment: lru}\n",
            "policy.replacment: unknown key (allowed: name, replacement, bypass, granularity, bto, "
            "dycache, agcb, two_level, pcal, agelru, bip, dip, rpr)"},
        UnknownKeyCase{
            "policy_agcb", "policy:\n  agcb: {entires: 256}\n",
            "policy.agcb.entires: unknown key (allowed: entries, counter_bits, reset_value, threshold, "
            "l2_verify)"},
        UnknownKeyCase{"policy_rpr", "policy:\n  rpr: {sampel_every: 4}\n",
                       "policy.rpr.sampel_every: unknown key (allowed: score, sample_every, default_rd, default_rc)"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(ConfigErrors, BadEnumValue) {
  EXPECT_EQ(load_error("policy: {replacement: mru}\n"),
            "policy.replacement: value \"mru\" not allowed (allowed: lru, fifo, bip, dip, agelru, rpr)");
  EXPECT_EQ(load_error("l1: {set_index: xor}\n"),
            "l1.set_index: value \"xor\" not allowed (allowed: linear, fermi_xor)");
  EXPECT_EQ(load_error("policy: {bypass: \"pcal \"}\n"),  // quoting is fine, the spelling must be exact
            "policy.bypass: value \"pcal \" not allowed (allowed: none, agcb, two_level, pcal, agelru)");
  EXPECT_EQ(load_error("core: {scheduler: rr}\n"),
            "core.scheduler: value \"rr\" not allowed (allowed: gto, lrr, two_level)");
  EXPECT_EQ(load_error("policy: {granularity: 64}\n"),
            "policy.granularity: value \"64\" not allowed (allowed: fixed128, static64, static32, dynamic)");
}

TEST(ConfigErrors, BadL1Geometry) {
  EXPECT_EQ(load_error("l1: {size_bytes: 16384, ways: 3}\n"),
            "l1.size_bytes: value 16384 with ways 3 gives 16384/(3*128) = 42.67 sets (allowed: a whole "
            "power-of-two number of sets)");
  EXPECT_EQ(load_error("l1: {size_bytes: 24576, ways: 4, set_index: linear}\n"),
            "l1.size_bytes: value 24576 with ways 4 gives 24576/(4*128) = 48 sets (allowed: a whole "
            "power-of-two number of sets)");
  EXPECT_EQ(load_error("l1: {size_bytes: 24576, ways: 48, set_index: fermi_xor}\n"),
            "l1.set_index: value \"fermi_xor\" not allowed with 4 sets (allowed only with 32 or 64 sets; use "
            "linear)");
  EXPECT_EQ(load_error("l1: {chunk_tag_bits: 23}\n"),
            "l1.chunk_tag_bits: value 23 out of range (allowed 3..22: chunk_tag_bits-2 must fit in the 20 "
            "line-tag bits of address_bits 32 with 32 sets)");
  EXPECT_EQ(load_error("l1: {size_bytes: 1048576, ways: 1, address_bits: 20, set_index: linear}\n"),
            "l1.address_bits: value 20 out of range for 8192 sets (allowed 21..64)");
  EXPECT_EQ(
      load_error("l2: {size_bytes: 786432, ways: 16, partitions: 5}\n"),
      "l2.size_bytes: value 786432 with partitions 5, slices_per_partition 1 and ways 16 gives "
      "786432/(5*1*16*128) = 76.8 sets per slice (allowed: a whole power of two)");
  EXPECT_EQ(load_error("l2: {size_bytes: 786432, ways: 12, partitions: 6, slices_per_partition: 2}\n"),
            "l2.size_bytes: value 786432 with partitions 6, slices_per_partition 2 and ways 12 gives "
            "786432/(6*2*12*128) = 42.67 sets per slice (allowed: a whole power of two)");
}

// ---- the memory-system fields (noc, l2, dram) and core.kernel_launch_cycles ----

TEST(MemoryFields, PresetsCarryTheInterconnectCorrectionAndTodaysModelValues) {
  for (const char* name : {"gtx480", "gtx1080", "qv100"}) {
    SCOPED_TRACE(name);
    const Config c = load_preset(name);
    // GPGPU-Sim / Accel-Sim: interconnect at the core clock, 8 B control header, 2 L2
    // sub-partitions per memory channel.
    EXPECT_EQ(c.noc.flits_per_cycle, 1u);
    EXPECT_EQ(c.noc.header_bytes, 8u);
    EXPECT_EQ(c.noc.flit_bytes, 32u);
    EXPECT_EQ(c.l2.slices_per_partition, 2u);
    // Everything else as the model had it before the fields existed.
    EXPECT_EQ(c.noc.src_buffer, 8u);
    EXPECT_EQ(c.noc.dst_buffer, 8u);
    EXPECT_EQ(c.l2.mshrs, 128u);
    EXPECT_EQ(c.l2.fill_latency, 13u);
    EXPECT_EQ(c.l2.read_buffer, 192u);
    EXPECT_EQ(c.l2.dram_out, 16u);
    EXPECT_EQ(c.l2.fetch, L2Fetch::kSector);
    EXPECT_EQ(c.dram.queue, 64u);
    EXPECT_DOUBLE_EQ(c.dram.t_rcd_ns, 13.0);
    EXPECT_DOUBLE_EQ(c.dram.t_rp_ns, 13.0);
    EXPECT_DOUBLE_EQ(c.dram.t_ras_ns, 30.0);
    EXPECT_DOUBLE_EQ(c.dram.t_rrd_ns, 6.5);
    EXPECT_EQ(c.core.kernel_launch_cycles, 0u);
  }
}

TEST(MemoryFields, StructDefaultsAreTheModelWithTheCorrectedInterconnect) {
  const Config d;
  EXPECT_EQ(d.noc.flits_per_cycle, 1u);
  EXPECT_EQ(d.noc.header_bytes, 8u);
  EXPECT_EQ(d.l2.slices_per_partition, 1u);
  EXPECT_EQ(d.l2.fetch, L2Fetch::kSector);
  EXPECT_EQ(d.core.kernel_launch_cycles, 0u);
}

TEST(MemoryFields, EveryFieldReadsBack) {
  TempDir dir;
  const Config c = load_config_file(dir.write(
      "m.yaml",
      "core: {kernel_launch_cycles: 5000}\n"
      "l2: {slices_per_partition: 2, mshrs: 32, fill_latency: 4, read_buffer: 0, dram_out: 64, fetch: line}\n"
      "noc: {flits_per_cycle: 2, header_bytes: 0, src_buffer: 3, dst_buffer: 5}\n"
      "dram: {queue: 16, t_rcd_ns: 12.99, t_rp_ns: 14.1, t_ras_ns: 0, t_rrd_ns: 3.5}\n"));
  EXPECT_EQ(c.core.kernel_launch_cycles, 5000u);
  EXPECT_EQ(c.l2.slices_per_partition, 2u);
  EXPECT_EQ(c.l2.mshrs, 32u);
  EXPECT_EQ(c.l2.fill_latency, 4u);
  EXPECT_EQ(c.l2.read_buffer, 0u);
  EXPECT_EQ(c.l2.dram_out, 64u);
  EXPECT_EQ(c.l2.fetch, L2Fetch::kLine);
  EXPECT_EQ(c.noc.flits_per_cycle, 2u);
  EXPECT_EQ(c.noc.header_bytes, 0u);
  EXPECT_EQ(c.noc.src_buffer, 3u);
  EXPECT_EQ(c.noc.dst_buffer, 5u);
  EXPECT_EQ(c.dram.queue, 16u);
  EXPECT_DOUBLE_EQ(c.dram.t_rcd_ns, 12.99);
  EXPECT_DOUBLE_EQ(c.dram.t_rp_ns, 14.1);
  EXPECT_DOUBLE_EQ(c.dram.t_ras_ns, 0.0);
  EXPECT_DOUBLE_EQ(c.dram.t_rrd_ns, 3.5);
  EXPECT_EQ(to_string(L2Fetch::kLine), "line");
  EXPECT_EQ(to_string(L2Fetch::kSector), "sector");
}

// ---- noc.arbiter (sim_cpp/mem/noc.h): fifo everywhere but the GPGPU-Sim presets ----

TEST(NocArbiter, DefaultIsFifoAndOnlyTheGpgpuSimPresetsSetIslip) {
  const Config d;
  EXPECT_EQ(d.noc.arbiter, NocArbiter::kFifo);
  EXPECT_EQ(d.noc.vcs, 1u);
  EXPECT_EQ(d.noc.input_speedup, 1u);
  EXPECT_EQ(d.noc.internal_speedup, 1u);
  for (const std::string& name : list_presets()) {
    SCOPED_TRACE(name);
    const Config c = load_preset(name);
    if (name == "gtx480-gpgpusim") {  // config_fermi_islip.icnt: num_vcs 1, input_speedup 2, internal_speedup 1.0
      EXPECT_EQ(c.noc.arbiter, NocArbiter::kIslip);
      EXPECT_EQ(c.noc.vcs, 1u);
      EXPECT_EQ(c.noc.input_speedup, 2u);
      EXPECT_EQ(c.noc.internal_speedup, 1u);
    } else if (name == "gtx1080-jips") {  // config_pascal_islip.icnt: num_vcs 1, input_speedup 1, internal_speedup 2.0
      EXPECT_EQ(c.noc.arbiter, NocArbiter::kIslip);
      EXPECT_EQ(c.noc.vcs, 1u);
      EXPECT_EQ(c.noc.input_speedup, 1u);
      EXPECT_EQ(c.noc.internal_speedup, 2u);
    } else {
      EXPECT_EQ(c.noc.arbiter, NocArbiter::kFifo);
    }
  }
}

TEST(NocArbiter, FieldsReadBackAndBadValuesAreOneLine) {
  TempDir dir;
  const Config c = load_config_file(
      dir.write("n.yaml", "noc: {arbiter: islip, vcs: 4, input_speedup: 2, internal_speedup: 3}\n"));
  EXPECT_EQ(c.noc.arbiter, NocArbiter::kIslip);
  EXPECT_EQ(c.noc.vcs, 4u);
  EXPECT_EQ(c.noc.input_speedup, 2u);
  EXPECT_EQ(c.noc.internal_speedup, 3u);
  EXPECT_EQ(to_string(NocArbiter::kIslip), "islip");
  EXPECT_EQ(to_string(NocArbiter::kFifo), "fifo");
  EXPECT_EQ(load_error("noc: {arbiter: wavefront}\n"),
            "noc.arbiter: value \"wavefront\" not allowed (allowed: fifo, islip)");
  EXPECT_EQ(load_error("noc: {arbiter: islip, vcs: 0}\n"), "noc.vcs: value 0 out of range (allowed 1..16)");
  EXPECT_EQ(load_error("noc: {arbiter: islip, input_speedup: 17}\n"),
            "noc.input_speedup: value 17 out of range (allowed 1..16)");
  EXPECT_EQ(load_error("noc: {arbiter: islip, internal_speedup: 5}\n"),
            "noc.internal_speedup: value 5 out of range (allowed 1..4)");
  EXPECT_EQ(load_error("noc: {vcs: 4}\n"),
            "noc.vcs: value 4 not allowed with noc.arbiter fifo (allowed: 1; other values need noc.arbiter islip)");
  EXPECT_EQ(load_error("noc: {arbiter: fifo, internal_speedup: 2}\n"),
            "noc.internal_speedup: value 2 not allowed with noc.arbiter fifo (allowed: 1; other values need noc.arbiter "
            "islip)");
}

TEST(MemoryFields, BadValuesAreOneLineNamingFieldValueAndAllowed) {
  EXPECT_EQ(load_error("l2: {fetch: block}\n"), "l2.fetch: value \"block\" not allowed (allowed: sector, line)");
  EXPECT_EQ(load_error("l2: {slices_per_partition: 3}\n"),
            "l2.slices_per_partition: value 3 not allowed (allowed: powers of two 1..8)");
  EXPECT_EQ(load_error("l2: {slices_per_partition: 16}\n"),
            "l2.slices_per_partition: value 16 out of range (allowed 1..8)");
  EXPECT_EQ(load_error("l2: {mshrs: 0}\n"), "l2.mshrs: value 0 out of range (allowed 1..4096)");
  EXPECT_EQ(load_error("l2: {fill_latency: 0}\n"), "l2.fill_latency: value 0 out of range (allowed 1..10000)");
  EXPECT_EQ(load_error("l2: {read_buffer: 5000}\n"), "l2.read_buffer: value 5000 out of range (allowed 0..4096)");
  EXPECT_EQ(load_error("l2: {dram_out: 0}\n"), "l2.dram_out: value 0 out of range (allowed 1..1024)");
  EXPECT_EQ(load_error("noc: {flits_per_cycle: 0}\n"), "noc.flits_per_cycle: value 0 out of range (allowed 1..16)");
  EXPECT_EQ(load_error("noc: {header_bytes: 300}\n"), "noc.header_bytes: value 300 out of range (allowed 0..256)");
  EXPECT_EQ(load_error("noc: {src_buffer: 0}\n"), "noc.src_buffer: value 0 out of range (allowed 1..1024)");
  EXPECT_EQ(load_error("noc: {dst_buffer: 2000}\n"), "noc.dst_buffer: value 2000 out of range (allowed 1..1024)");
  EXPECT_EQ(load_error("dram: {queue: 0}\n"), "dram.queue: value 0 out of range (allowed 1..1024)");
  EXPECT_EQ(load_error("dram: {t_rcd_ns: -1}\n"), "dram.t_rcd_ns: value -1 out of range (allowed 0..1000)");
  EXPECT_EQ(load_error("dram: {t_rp_ns: slow}\n"), "dram.t_rp_ns: expected a number, got \"slow\"");
  EXPECT_EQ(load_error("dram: {t_ras_ns: 1001}\n"), "dram.t_ras_ns: value 1001 out of range (allowed 0..1000)");
  EXPECT_EQ(load_error("dram: {t_rrd_ns: [1]}\n"), "dram.t_rrd_ns: expected a number, got a list");
  EXPECT_EQ(load_error("core: {kernel_launch_cycles: 10000001}\n"),
            "core.kernel_launch_cycles: value 10000001 out of range (allowed 0..10000000)");
}

// ---- core.coalescer (sim_cpp/core/coalescer.h) ----

TEST(CoalescerField, DefaultsToFermiReadsSectorAndRefusesOthers) {
  EXPECT_EQ(Config{}.core.coalescer, CoalescerKind::kFermi);
  TempDir dir;
  EXPECT_EQ(load_config_file(dir.write("s.yaml", "core: {coalescer: sector}\n")).core.coalescer, CoalescerKind::kSector);
  EXPECT_EQ(load_config_file(dir.write("f.yaml", "core: {coalescer: fermi}\n")).core.coalescer, CoalescerKind::kFermi);
  EXPECT_EQ(load_error("core: {coalescer: volta}\n"), "core.coalescer: value \"volta\" not allowed (allowed: fermi, sector)");
  EXPECT_EQ(load_error("core: {coalescer: [sector]}\n"), "core.coalescer: value a list not allowed (allowed: fermi, sector)");
  EXPECT_EQ(to_string(CoalescerKind::kSector), "sector");
  EXPECT_EQ(to_string(CoalescerKind::kFermi), "fermi");
}

// GPGPU-Sim coalesces in 32 B sectors from coalesce arch 40 on (Maxwell and later): every preset of
// a Pascal or later GPU uses the sector coalescer, the Fermi ones the Fermi rules.
TEST(CoalescerField, PresetsChooseByGeneration) {
  for (const char* name : {"gtx480", "gtx480-gpgpusim"}) EXPECT_EQ(load_preset(name).core.coalescer, CoalescerKind::kFermi) << name;
  for (const char* name : {"gtx1080", "gtx1080-jips", "qv100", "qv100-accelsim", "a100", "rtx3070", "h100"}) {
    const Config c = load_preset(name);
    EXPECT_EQ(c.core.coalescer, CoalescerKind::kSector) << name;
    EXPECT_TRUE(c.l1.sector) << name;
  }
}

// ---- core.load_wait (sim_cpp/core/sm.h): on_issue everywhere until a preset argues otherwise ----

TEST(LoadWaitField, DefaultsToOnIssueInEveryPresetReadsOnUseAndRefusesOthers) {
  EXPECT_EQ(Config{}.core.load_wait, LoadWait::kOnIssue);
  for (const std::string& name : list_presets()) EXPECT_EQ(load_preset(name).core.load_wait, LoadWait::kOnIssue) << name;
  TempDir dir;
  EXPECT_EQ(load_config_file(dir.write("u.yaml", "core: {load_wait: on_use}\n")).core.load_wait, LoadWait::kOnUse);
  EXPECT_EQ(load_config_file(dir.write("i.yaml", "core: {load_wait: on_issue}\n")).core.load_wait, LoadWait::kOnIssue);
  EXPECT_EQ(load_error("core: {load_wait: scoreboard}\n"),
            "core.load_wait: value \"scoreboard\" not allowed (allowed: on_issue, on_use)");
  EXPECT_EQ(to_string(LoadWait::kOnUse), "on_use");
  EXPECT_EQ(to_string(LoadWait::kOnIssue), "on_issue");
}

// ---- core.fetch (sim_cpp/core/sm.h): ideal everywhere until a preset argues otherwise ----

TEST(FetchField, DefaultsToIdealInEveryPresetReadsIbufferAndRefusesOthers) {
  EXPECT_EQ(Config{}.core.fetch, FetchModel::kIdeal);
  EXPECT_EQ(Config{}.core.ibuffer_entries, 2u);
  for (const std::string& name : list_presets()) EXPECT_EQ(load_preset(name).core.fetch, FetchModel::kIdeal) << name;
  TempDir dir;
  const Config c = load_config_file(dir.write("f.yaml", "core: {fetch: ibuffer, ibuffer_entries: 4}\n"));
  EXPECT_EQ(c.core.fetch, FetchModel::kIbuffer);
  EXPECT_EQ(c.core.ibuffer_entries, 4u);
  EXPECT_EQ(load_error("core: {fetch: icache}\n"), "core.fetch: value \"icache\" not allowed (allowed: ideal, ibuffer)");
  EXPECT_EQ(load_error("core: {ibuffer_entries: 0}\n"), "core.ibuffer_entries: value 0 out of range (allowed 1..8)");
  EXPECT_EQ(load_error("core: {ibuffer_entries: 9}\n"), "core.ibuffer_entries: value 9 out of range (allowed 1..8)");
  EXPECT_EQ(to_string(FetchModel::kIbuffer), "ibuffer");
  EXPECT_EQ(to_string(FetchModel::kIdeal), "ideal");
}

// ---- core.ldst_queue (sim_cpp/core/sm.h): 0 (no queue) by default and in every realistic preset;
// the reference-faithful ones follow their reference: gtx480-gpgpusim 4 (GPGPU-Sim 3.x's GTX480
// config: ID_OC_MEM 1 + 2 memory collector units + OC_EX_MEM 1), gtx1080-jips and qv100-accelsim 16
// (GPGPU-Sim 4.x's SM6_TITANX / SM7_QV100 configs: ID_OC_MEM 4 + 8 generic collector units +
// OC_EX_MEM 4) ----

TEST(LdstQueueField, DefaultsToNoQueueAndRefusesOutOfRange) {
  EXPECT_EQ(Config{}.core.ldst_queue, 0u);
  const std::map<std::string, uint32_t> faithful = {{"gtx480-gpgpusim", 4u}, {"gtx1080-jips", 16u}, {"qv100-accelsim", 16u}};
  for (const auto& [name, queue] : faithful) EXPECT_EQ(load_preset(name).core.ldst_queue, queue) << name;
  for (const std::string& name : list_presets())
    EXPECT_EQ(load_preset(name).core.ldst_queue, faithful.count(name) ? faithful.at(name) : 0u) << name;
  TempDir dir;
  EXPECT_EQ(load_config_file(dir.write("q.yaml", "core: {ldst_queue: 4}\n")).core.ldst_queue, 4u);
  EXPECT_EQ(load_error("core: {ldst_queue: 65}\n"), "core.ldst_queue: value 65 out of range (allowed 0..64)");
  EXPECT_EQ(load_error("core: {ldst_queue: -1}\n").rfind("core.ldst_queue: ", 0), 0u);
}

TEST(ConfigErrors, BadPolicyCrossFieldValues) {
  EXPECT_EQ(load_error("policy:\n  agcb: {counter_bits: 3}\n"),
            "policy.agcb.reset_value: value 15 out of range (allowed 0..7 for counter_bits 3)");
  EXPECT_EQ(load_error("policy:\n  agcb: {counter_bits: 3, reset_value: 7, threshold: 9}\n"),
            "policy.agcb.threshold: value 9 out of range (allowed 0..7 for counter_bits 3)");
  EXPECT_EQ(load_error("policy:\n  two_level: {th_low: 0.95}\n"),
            "policy.two_level.th_low: value 0.95 out of range (allowed 0..0.9: at most th_high)");
}

TEST(ConfigErrors, YamlSyntaxErrorIsOneLineWithFileAndPosition) {
  EXPECT_EQ(load_error("l1:\n  ways: [4\n"),
            "line 3, column 1: YAML syntax error: end of sequence flow not found");
  EXPECT_EQ(load_error("l1:\n\tways: 4\n"),
            "line 2, column 6: YAML syntax error: illegal map value");  // a tab
}

TEST(ConfigErrors, EmptyMissingAndDuplicate) {
  EXPECT_EQ(load_error("# nothing here\n"), "top level: expected a mapping, got an empty document");
  EXPECT_EQ(load_error("- l1\n"), "top level: expected a mapping, got a list");
  EXPECT_EQ(load_error("l1: {ways: 4}\nl1: {ways: 8}\n"), "l1: duplicate key");
  const std::string m = error_of([] { load_config_file("/nonexistent/dir/x.yaml"); });
  EXPECT_EQ(m, "/nonexistent/dir/x.yaml: file: no such file");
}

TEST(ConfigErrors, UnknownPresetListsTheAvailableOnes) {
  const std::string m = error_of([] { load_preset("nosuch"); });
  EXPECT_EQ(m, (config_dir() / "nosuch.yaml").string() +
                   ": preset: \"nosuch\" not found (available: a100, gtx1080, gtx1080-jips, gtx480, gtx480-gpgpusim, h100, qv100, qv100-accelsim, "
                   "rtx3070)");
  // A path is not a preset name: it cannot reach files outside the presets directory.
  EXPECT_NE(error_of([] { load_preset("../configs/gtx480"); }).find("not found"), std::string::npos);
}

TEST(ConfigErrors, UnknownPolicyPresetListsTheAvailableOnes) {
  Config c = load_preset("gtx480");
  const std::string m = error_of([&] { apply_policy_preset(c, "lfu"); });
  EXPECT_NE(m.find("policy preset: \"lfu\" not found (available: agcb, agelru, "), std::string::npos) << m;
  EXPECT_NE(m.find("two-level)"), std::string::npos) << m;
}

TEST(ConfigErrors, BadPolicyFileNamesItsOwnKeysAndLeavesConfigUnchanged) {
  TempDir dir;
  const fs::path f = dir.write("bad_policy.yaml", "replacement: bip\nbip: {lfsr_seed: 0}\n");
  Config c = load_preset("gtx480");
  const std::string source = c.source;
  EXPECT_EQ(error_of([&] { apply_policy_file(c, f); }),
            f.string() + ": bip.lfsr_seed: value 0 out of range (allowed 1..65535)");
  EXPECT_EQ(c.policy.replacement, ReplacementKind::kLru);
  EXPECT_EQ(c.policy.name, "baseline");
  EXPECT_EQ(c.source, source);
  const fs::path g = dir.write("typo.yaml", "granularty: dynamic\n");
  EXPECT_NE(error_of([&] { apply_policy_file(c, g); }).find(": granularty: unknown key (allowed: name, "),
            std::string::npos);
}

}  // namespace
}  // namespace l1d
