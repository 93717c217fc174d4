// main() of every testbench executable tb_<block>: GoogleTest plus the testbench options.
//   tb_<block> [gtest flags] [--trace] [+plusarg...]    --trace (or L1D_TRACE=1) writes FST waves
//   (tb/fixture.h); +plusargs reach the models' $test$plusargs (the mutation tests)
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "tb/fixture.h"

namespace tb {
namespace {
std::vector<std::string>& plusargs_mutable() {
  static std::vector<std::string> args;
  return args;
}
bool g_tracing = [] {
  const char* env = std::getenv("L1D_TRACE");
  return env != nullptr && std::strcmp(env, "1") == 0;
}();
}  // namespace

bool tracing() { return g_tracing; }
void set_tracing(bool on) { g_tracing = on; }

std::filesystem::path waves_dir() {
  if (const char* env = std::getenv("L1D_WAVES_DIR"); env != nullptr && *env != '\0') return env;
  return TB_WAVES_DIR;
}

const std::vector<std::string>& plusargs() { return plusargs_mutable(); }

void add_plusargs(VerilatedContext& ctx) {
  // Also without any: a model that calls $test$plusargs (the mutants) aborts unless its context
  // was given command arguments.
  std::vector<const char*> argv{"tb"};
  for (const std::string& a : plusargs()) argv.push_back(a.c_str());
  ctx.commandArgs(static_cast<int>(argv.size()), argv.data());
}

}  // namespace tb

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--trace") {
      tb::set_tracing(true);
    } else if (argv[i][0] == '+') {
      tb::plusargs_mutable().emplace_back(argv[i]);
    } else {
      std::cerr << "error: unknown argument '" << argv[i] << "' (testbench options: --trace, +plusarg)\n";
      return 2;
    }
  }
  return RUN_ALL_TESTS();
}
