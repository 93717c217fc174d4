// RPR replacement is golden-only (SPEC 9: RTL optional; docs/l1d-microarchitecture.md section
// 12): l1d_repl_state refuses it with a ConfigError, so dcgen exits 2 with one line naming RPR.
// The dcgen part runs the dcgen binary next to this test binary (build/bin); skipped without it.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "common/config.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

namespace fs = std::filesystem;

l1d::Config with_policy(const char* policy) {
  l1d::Config c = l1d::load_preset("gtx480");
  l1d::apply_policy_preset(c, policy);
  return c;
}

TEST(DcgenRpr, ReplStateRefusesRprAsGoldenOnly) {
  for (const char* policy : {"rpr", "rpr-counter"}) {
    SCOPED_TRACE(policy);
    try {
      (void)repl_state_block().module(with_policy(policy));
      ADD_FAILURE() << "no error";
    } catch (const l1d::ConfigError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("rpr is golden-only (SPEC 9"), std::string::npos) << m;
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
  }
  EXPECT_NO_THROW((void)repl_state_block().module(with_policy("agelru")));
}

TEST(DcgenRpr, DcgenExitsTwoWithOneLineNamingRpr) {
  const fs::path dcgen = fs::read_symlink("/proc/self/exe").parent_path() / "dcgen";
  if (!fs::exists(dcgen)) GTEST_SKIP() << "no dcgen binary at " << dcgen;
  const fs::path out = fs::temp_directory_path() / ("dcgen_rpr_test_" + std::to_string(::getpid()));
  const std::string cmd = dcgen.string() + " --preset gtx480 --policy rpr --out " + out.string() + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string text;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) text.append(buf.data(), n);
  const int status = pclose(p);
  fs::remove_all(out);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2) << text;
  EXPECT_EQ(text.rfind("error: l1d_repl_state: replacement rpr is golden-only (SPEC 9", 0), 0u) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
}

}  // namespace
}  // namespace gen::blocks
