// l1.carveout, l1.unified_bytes, l1.shared_options_kb (docs/simulator.md "L1 carveout"): the
// presets' values from Accel-Sim's configs, the option rule and each validation error as one line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/config.h"

namespace l1d {
namespace {

namespace fs = std::filesystem;

// The error of loading `yaml`, without the "<file>: " prefix; "" when it loads.
std::string load_error(const std::string& yaml) {
  static int n = 0;
  const fs::path f = fs::temp_directory_path() / ("l1d_carveout_" + std::to_string(::getpid()) + "_" +
                                                  std::to_string(n++) + ".yaml");
  std::ofstream(f) << yaml;
  std::string m;
  try {
    load_config_file(f);
  } catch (const ConfigError& e) {
    m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_EQ(m.rfind(f.string() + ": ", 0), 0u) << m;
    m = m.substr(f.string().size() + 2);
  }
  fs::remove(f);
  return m;
}

// gtx480's L1 (16 KB, 4 ways = 32 sets) inside a 64 KB unified array whose largest option, 48 KB,
// leaves exactly 16 KB.
std::string adaptive(const std::string& extra = "", const std::string& options = "[0, 16, 48]",
                     const std::string& unified = "65536") {
  return "l1:\n  size_bytes: 16384\n  ways: 4\n  carveout: adaptive\n  unified_bytes: " + unified +
         "\n  shared_options_kb: " + options + "\n" + extra;
}

TEST(Carveout, PresetsFollowAccelSimsAdaptiveConfigs) {
  struct Row {
    const char* preset;
    uint32_t unified_kb;
    std::vector<uint32_t> options;
    uint32_t base;
  };
  // SM7_QV100 / SM80_A100 / SM90_H100 / SM86_RTX3070: -gpgpu_adaptive_cache_config 1,
  // -gpgpu_unified_l1d_size, -gpgpu_shmem_option.
  const Row rows[] = {{"qv100", 128, {0, 8, 16, 32, 64, 96}, 32768},
                      {"qv100-accelsim", 128, {0, 8, 16, 32, 64, 96}, 32768},
                      {"a100", 192, {0, 8, 16, 32, 64, 164}, 32768},
                      {"h100", 256, {0, 8, 16, 32, 64, 228}, 32768},
                      {"rtx3070", 128, {0, 8, 16, 32, 64, 100}, 32768}};
  for (const Row& r : rows) {
    const Config c = load_preset(r.preset);
    EXPECT_EQ(c.l1.carveout, Carveout::kAdaptive) << r.preset;
    EXPECT_EQ(c.l1.unified_bytes, r.unified_kb * 1024) << r.preset;
    EXPECT_EQ(c.l1.shared_options_kb, r.options) << r.preset;
    EXPECT_EQ(c.l1.size_bytes, r.base) << r.preset;
  }
  for (const char* p : {"gtx480", "gtx480-gpgpusim", "gtx1080", "gtx1080-jips"})
    EXPECT_EQ(load_preset(p).l1.carveout, Carveout::kFixed) << p;
  EXPECT_EQ(L1Config{}.carveout, Carveout::kFixed);
}

TEST(Carveout, TheFirstOptionLargeEnoughRoundedDownToPowerOfTwoSets) {
  const L1Config q = load_preset("qv100").l1;  // 128 KB unified, 64 ways (8 KB per set)
  const auto l1 = [&](uint64_t shared) { return choose_carveout(q, shared)->l1_bytes; };
  EXPECT_EQ(l1(0), 131072u);            // option 0: 16 sets
  EXPECT_EQ(choose_carveout(q, 1)->shared_kb, 8u);
  EXPECT_EQ(l1(1), 65536u);             // option 8: 120 KB = 15 sets -> 8
  EXPECT_EQ(l1(64 * 1024), 65536u);     // option 64: exactly 8 sets
  EXPECT_EQ(choose_carveout(q, 64 * 1024 + 1)->shared_kb, 96u);
  EXPECT_EQ(l1(96 * 1024), 32768u);     // option 96: the base
  EXPECT_FALSE(choose_carveout(q, 96 * 1024 + 1).has_value());
  // a100: 164 KB leaves 28 KB = 3.5 sets, down to 2 sets, but never below the 32 KB base.
  const L1Config a = load_preset("a100").l1;
  EXPECT_EQ(carveout_l1_bytes(a, 164), 32768u);
  EXPECT_EQ(carveout_l1_bytes(a, 0), 131072u);  // 192 KB = 24 sets -> 16
  EXPECT_EQ(carveout_l1_bytes(load_preset("h100").l1, 0), 262144u);
  // Fixed: size_bytes whatever the kernel's shared memory.
  const L1Config g = load_preset("gtx480").l1;
  EXPECT_EQ(choose_carveout(g, 1u << 30)->l1_bytes, 16384u);
}

TEST(Carveout, ValidAdaptiveFileLoadsAndReadsBack) {
  EXPECT_EQ(load_error(adaptive()), "");
  // fixed ignores the unified size (no relation to size_bytes is required).
  EXPECT_EQ(load_error("l1: {carveout: fixed, unified_bytes: 1024}\n"), "");
  const std::vector<ConfigField> f = describe_config(load_preset("qv100"));
  const auto value = [&](const std::string& path) {
    for (const ConfigField& x : f)
      if (x.path == path) return x.value;
    return std::string("?");
  };
  EXPECT_EQ(value("l1.carveout"), "adaptive");
  EXPECT_EQ(value("l1.unified_bytes"), "131072");
  EXPECT_EQ(value("l1.shared_options_kb"), "[0, 8, 16, 32, 64, 96]");
  EXPECT_EQ(to_string(Carveout::kFixed), "fixed");
}

TEST(Carveout, EachMistakeIsOneLineNamingFieldValueAndAllowed) {
  EXPECT_EQ(load_error("l1: {carveout: dynamic}\n"),
            "l1.carveout: value \"dynamic\" not allowed (allowed: fixed, adaptive)");
  EXPECT_EQ(load_error("l1: {unified_bytes: 8388608}\n"),
            "l1.unified_bytes: value 8388608 out of range (allowed 0..4194304)");
  EXPECT_EQ(load_error("l1: {shared_options_kb: 16}\n"),
            "l1.shared_options_kb: expected a list of unsigned integers, got \"16\"");
  EXPECT_EQ(load_error("l1: {shared_options_kb: [0, -8]}\n"),
            "l1.shared_options_kb[1]: value -8 out of range (allowed 0..4096)");
  EXPECT_EQ(load_error(adaptive("", "[0, 48, 16]")),
            "l1.shared_options_kb: value [0, 48, 16] not allowed (allowed: strictly ascending options; 16 follows 48)");
  EXPECT_EQ(load_error(adaptive("", "[0, 64]")),
            "l1.shared_options_kb: value 64 out of range with unified_bytes 65536 (allowed: options below 64 KB)");
  EXPECT_EQ(load_error(adaptive("", "[0, 48]", "16384")),
            "l1.shared_options_kb: value 48 out of range with unified_bytes 16384 (allowed: options below 16 KB)");
  EXPECT_EQ(load_error(adaptive("", "[0]", "16384")),
            "l1.unified_bytes: value 16384 out of range with carveout adaptive (allowed: more than size_bytes 16384, "
            "up to 4194304)");
  EXPECT_EQ(load_error("l1: {carveout: adaptive, unified_bytes: 65536}\n"),
            "l1.shared_options_kb: value [] not allowed with carveout adaptive (allowed: a list of at least one "
            "shared-memory option in KB)");
  EXPECT_EQ(load_error(adaptive("", "[0, 32]")),
            "l1.size_bytes: value 16384 not allowed with carveout adaptive (allowed: 32768: the 32768 B the largest "
            "shared option 32 KB leaves of unified_bytes 65536, as a power-of-two number of sets of 4 ways rounded "
            "down or up)");
  // 64 KB - 40 KB = 24 KB = 48 sets of 4 ways: 32 sets (16 KB, this size) or 64 sets (32 KB).
  EXPECT_EQ(load_error(adaptive("", "[0, 40]")), "");
  EXPECT_EQ(load_error("l1:\n  size_bytes: 8192\n  ways: 4\n  carveout: adaptive\n  unified_bytes: 65536\n"
                       "  shared_options_kb: [0, 40]\n"),
            "l1.size_bytes: value 8192 not allowed with carveout adaptive (allowed: 16384 or 32768: the 24576 B the "
            "largest shared option 40 KB leaves of unified_bytes 65536, as a power-of-two number of sets of 4 ways "
            "rounded down or up)");
  // Every kernel L1 must fit the address split: option 0's 512 sets (256 KB) need 7 + 9 + 1 address bits.
  EXPECT_EQ(load_error(adaptive("  address_bits: 16\n  chunk_tag_bits: 3\n", "[0, 240]", "262144")),
            "l1.address_bits: value 16 out of range with carveout adaptive (the L1 of shared option 0 KB has 512 sets; "
            "allowed 17..64)");
  EXPECT_EQ(load_error(adaptive("  address_bits: 20\n  chunk_tag_bits: 9\n")),
            "l1.chunk_tag_bits: value 9 out of range with carveout adaptive (the L1 of shared option 0 KB has 128 "
            "sets; allowed 3..8)");
  EXPECT_EQ(load_error(adaptive("  set_index: fermi_xor\n")),
            "l1.set_index: value \"fermi_xor\" not allowed with carveout adaptive (the L1 of shared option 0 KB has "
            "128 sets; the Fermi hash needs 32 or 64; allowed: linear)");
}

// Both l1d_tops run adaptive (cfg_set_bits_i: contract 15, the staged pipe's 16.5), also with every
// other qv100-accelsim option on the staged pipe (its preset: nothing is refused).
TEST(Carveout, TheRtlRunsAdaptiveOnBothPipes) {
  L1Config c;
  c.write_policy = WritePolicy::kWriteThrough;
  EXPECT_EQ(rtl_unsupported_l1_option(c), "");
  c.carveout = Carveout::kAdaptive;
  EXPECT_EQ(rtl_unsupported_l1_option(c), "");
  c.pipeline = L1Pipeline::kStaged;
  EXPECT_EQ(rtl_unsupported_l1_option(c), "");
  L1Config q = load_preset("qv100-accelsim").l1;
  ASSERT_EQ(q.carveout, Carveout::kAdaptive);
  q.pipeline = L1Pipeline::kStaged;
  EXPECT_EQ(rtl_unsupported_l1_option(q), "");
}

}  // namespace
}  // namespace l1d
