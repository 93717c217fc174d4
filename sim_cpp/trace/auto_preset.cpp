// The binary version -> preset table of gpusim --preset auto (auto_preset.h).
#include "sim_cpp/trace/auto_preset.h"

#include <array>
#include <string_view>

#include <fmt/format.h>

#include "sim_cpp/trace/trace_error.h"
#include "sim_cpp/trace/trace_parser.h"

namespace l1d::sim::trace {
namespace {

struct Entry {
  uint32_t version;
  std::string_view preset;
};
// One preset per GPU generation a preset models: the realistic ones (the reference-faithful
// gtx1080-jips / qv100-accelsim stay a choice made by name). sm_61 is Pascal GP10x (GTX 1080),
// sm_70 Volta GV100, sm_80 Ampere GA100, sm_86 Ampere GA10x, sm_90 Hopper GH100.
constexpr std::array kTable = {Entry{61, "gtx1080"}, Entry{70, "qv100"}, Entry{80, "a100"}, Entry{86, "rtx3070"},
                               Entry{90, "h100"}};

}  // namespace

std::string auto_preset_for(uint32_t binary_version) {
  for (const Entry& e : kTable)
    if (e.version == binary_version) return std::string(e.preset);
  return "";
}

std::string auto_preset_table() {
  std::string s;
  for (const Entry& e : kTable) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", e.version, e.preset);
  return s;
}

AutoPreset choose_auto_preset(const std::string& path) {
  const BinaryVersion v = peek_binary_version(path);
  const std::string preset = auto_preset_for(v.version);
  if (preset.empty())
    throw TraceError(v.file, v.line,
                     fmt::format("--preset auto: no preset for binary version {} (known: {}); name one with --preset",
                                 v.version, auto_preset_table()));
  return {preset, v.version};
}

}  // namespace l1d::sim::trace
