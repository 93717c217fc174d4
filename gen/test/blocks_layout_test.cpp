// Every registered block follows the pattern of docs/generator.md "Adding a block": its RTL is
// committed in rtl/, it has a testbench tb/<block>_tb.cpp, a GTKWave save file
// tb/waves/<block>.gtkw and an add_rtl_block(<block>) line in CMakeLists.txt; and nothing in
// rtl/ or CMakeLists.txt names a block the registry does not have.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

namespace fs = std::filesystem;
const fs::path kRoot = PROJECT_SOURCE_DIR;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::set<std::string> registered() {
  std::set<std::string> names;
  for (const RtlBlock* b : all_blocks()) names.emplace(b->name());
  return names;
}

TEST(BlockLayout, EveryBlockHasRtlTestbenchWavesAndCmakeEntry) {
  const std::string cmake = read(kRoot / "CMakeLists.txt");
  for (const std::string& name : registered()) {
    for (const fs::path& file : {fs::path("rtl") / (name + ".sv"), fs::path("tb") / (name + "_tb.cpp"),
                                 fs::path("tb") / "waves" / (name + ".gtkw")}) {
      EXPECT_TRUE(fs::exists(kRoot / file)) << "block " << name << " has no " << file.string()
                                            << (file.begin()->string() == "rtl" ? " (run `make rtl`)" : "");
    }
    EXPECT_TRUE(std::regex_search(cmake, std::regex("add_rtl_block\\(" + name + "[ )]")))
        << "block " << name << ": CMakeLists.txt has no add_rtl_block(" << name << ")";
  }
}

TEST(BlockLayout, NothingNamesAnUnregisteredBlock) {
  const std::set<std::string> names = registered();
  for (const auto& f : fs::directory_iterator(kRoot / "rtl")) {
    const std::string stem = f.path().stem().string();
    const bool package = stem.size() > 4 && stem.ends_with("_pkg");
    EXPECT_TRUE(package || names.contains(stem)) << f.path() << " is not a registered block's module";
  }
  const std::string cmake = read(kRoot / "CMakeLists.txt");
  const std::regex call(R"(add_rtl_block\((\w+))");
  for (auto it = std::sregex_iterator(cmake.begin(), cmake.end(), call); it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE(names.contains((*it)[1].str())) << (*it)[0].str() << " names no registered block";
  }
}

}  // namespace
}  // namespace gen::blocks
