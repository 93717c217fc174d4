// main() of every testbench executable tb_<block>: GoogleTest plus the testbench options.
//   tb_<block> [gtest flags] [--trace]    --trace (or L1D_TRACE=1) writes FST waves (tb/fixture.h)
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string_view>

#include "tb/fixture.h"

namespace tb {
namespace {
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

}  // namespace tb

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--trace") {
      tb::set_tracing(true);
    } else {
      std::cerr << "error: unknown argument '" << argv[i] << "' (testbench options: --trace)\n";
      return 2;
    }
  }
  return RUN_ALL_TESTS();
}
