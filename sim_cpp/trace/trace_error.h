// The one error type of the trace reader: "file:line: problem" (line 0 when the problem is the
// file as a whole, e.g. it cannot be opened). gpusim turns it into exit code 2.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace l1d::sim::trace {

class TraceError : public std::runtime_error {
 public:
  TraceError(const std::string& file, uint64_t line, const std::string& problem)
      : std::runtime_error(file + ":" + std::to_string(line) + ": " + problem), file_(file), line_(line),
        problem_(problem) {}
  const std::string& file() const { return file_; }
  uint64_t line() const { return line_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_;
  uint64_t line_;
  std::string problem_;
};

}  // namespace l1d::sim::trace
