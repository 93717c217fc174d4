// Writing a set of emitted files: one module or package per file, named after it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "gen/emit.h"
#include "gen/ir.h"

namespace gen {

struct SvFile {
  std::string name;      // "<module or package>.sv"
  std::string contents;
  bool is_package = false;
};

class SvFileSet {
 public:
  explicit SvFileSet(FileHeader header) : header_(std::move(header)) {}

  // Emits now, so a later change to the IR object does not change the file.
  void add(const Package& package);
  void add(const Module& module);

  // Packages first (in the order added), then modules: the order tools must read them.
  std::vector<SvFile> files() const;
  // Writes every file into `dir` (created if needed) and returns the paths in read order.
  std::vector<std::filesystem::path> write(const std::filesystem::path& dir) const;

 private:
  void add_file(SvFile file);
  FileHeader header_;
  std::vector<SvFile> files_;
};

}  // namespace gen
