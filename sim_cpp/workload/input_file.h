// Errors in a workload's input file (Matrix Market, SNAP edge list): one line "file:line:
// problem" (line 0: the file as a whole, e.g. it cannot be opened). A ConfigError, so gpusim
// reports it as a bad command line (exit code 2).
#pragma once

#include <cstdint>
#include <string>

#include "common/config.h"

namespace l1d::sim::wl {

struct InputFileError : ConfigError {
  InputFileError(const std::string& file, uint64_t line, const std::string& problem)
      : ConfigError(file + ":" + std::to_string(line) + ": " + problem) {}
};

}  // namespace l1d::sim::wl
