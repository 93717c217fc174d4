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

fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("l1d_fidelity_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path p = dir / name;
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
  EXPECT_EQ(rtl_unsupported_l1_option(c), "");
  for (const char* p : {"gtx480", "gtx1080", "qv100"}) EXPECT_EQ(rtl_unsupported_l1_option(load_preset(p).l1), "") << p;
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
  // The RTL refuses the first option it lacks, naming the field.
  EXPECT_EQ(rtl_unsupported_l1_option(c.l1), "l1.allocation: on_miss");
  L1Config only_evict;
  only_evict.write_policy = WritePolicy::kWriteEvict;
  EXPECT_EQ(rtl_unsupported_l1_option(only_evict), "l1.write_policy: write_evict");
  L1Config only_latency;  // the hit latency is the simulator's: the RTL runs it
  only_latency.hit_latency_at = HitLatencyAt::kNone;
  EXPECT_EQ(rtl_unsupported_l1_option(only_latency), "");
}

TEST(FidelityFields, BadValuesNameFieldValueAndAllowed) {
  EXPECT_EQ(load_error("l1: {allocation: on_access}\n"),
            "l1.allocation: value \"on_access\" not allowed (allowed: on_fill, on_miss)");
  EXPECT_EQ(load_error("l1: {bypass_fetch: sector}\n"),
            "l1.bypass_fetch: value \"sector\" not allowed (allowed: request, line)");
  EXPECT_EQ(load_error("l1: {mshr_merge: sector}\n"),
            "l1.mshr_merge: value \"sector\" not allowed (allowed: stall, block)");
  EXPECT_EQ(load_error("l1: {write_policy: write_around}\n"),
            "l1.write_policy: value \"write_around\" not allowed (allowed: write_back, write_through, write_evict)");
  EXPECT_EQ(load_error("l1: {kernel_end: drop}\n"),
            "l1.kernel_end: value \"drop\" not allowed (allowed: flush, invalidate)");
  EXPECT_EQ(load_error("l1: {hit_latency_at: before_tag}\n"),
            "l1.hit_latency_at: value \"before_tag\" not allowed (allowed: response, none)");
}

TEST(FidelityFields, CrossFieldRules) {
  EXPECT_EQ(load_error("l1: {write_policy: write_back, kernel_end: invalidate}\n"),
            "l1.kernel_end: value \"invalidate\" not allowed with write_policy write_back (dirty data would be lost; "
            "allowed: flush, or write_policy write_through / write_evict)");
  EXPECT_EQ(load_error("l1: {allocation: on_miss, write_policy: write_back, miss_queue_entries: 8}\n"),
            "l1.miss_queue_entries: value 8 out of range with allocation on_miss and write_back (allowed 9..256: a "
            "reserving miss may queue 8 write-backs and its read)");
  // Without dirty state, the smallest queue is legal on miss.
  EXPECT_NO_THROW(load_config_file(
      write_temp("ok2.yaml", "l1: {allocation: on_miss, write_policy: write_evict, miss_queue_entries: 6}\n")));
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
