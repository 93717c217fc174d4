#include "gen/sv_file.h"

#include <algorithm>
#include <fstream>

#include "gen/error.h"

namespace gen {

void SvFileSet::add_file(SvFile file) {
  const bool dup = std::any_of(files_.begin(), files_.end(), [&](const SvFile& f) { return f.name == file.name; });
  if (dup) throw NameError("name-duplicate", "two design units would both be written to " + file.name);
  files_.push_back(std::move(file));
}

void SvFileSet::add(const Package& package) { add_file({package.name() + ".sv", emit(package, header_), true}); }

void SvFileSet::add(const Module& module) { add_file({module.name() + ".sv", emit(module, header_), false}); }

std::vector<SvFile> SvFileSet::files() const {
  std::vector<SvFile> out = files_;
  std::stable_partition(out.begin(), out.end(), [](const SvFile& f) { return f.is_package; });
  return out;
}

std::vector<std::filesystem::path> SvFileSet::write(const std::filesystem::path& dir) const {
  std::filesystem::create_directories(dir);
  std::vector<std::filesystem::path> paths;
  for (const SvFile& f : files()) {
    const std::filesystem::path p = dir / f.name;
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << f.contents;
    if (!out) throw std::runtime_error("cannot write " + p.string());
    paths.push_back(p);
  }
  return paths;
}

}  // namespace gen
