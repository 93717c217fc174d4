// gpusim --trace DIR --preset auto: the GPU preset for the trace's SASS binary version, so a trace
// runs on the GPU it was taken on without naming it (docs/simulator.md, "Real traces").
#pragma once

#include <cstdint>
#include <string>

namespace l1d::sim::trace {

// The preset of binary version `v` (61 gtx1080, 70 qv100, 80 a100, 86 rtx3070, 90 h100), or ""
// when no preset models that GPU generation.
std::string auto_preset_for(uint32_t binary_version);
// "61 gtx1080, 70 qv100, ..." for messages.
std::string auto_preset_table();

struct AutoPreset {
  std::string preset;
  uint32_t binary_version = 0;
};
// Reads the first kernel's '-binary version' of the trace at `path` (kernelslist.g or its
// directory) and picks its preset. Throws TraceError (file:line: problem) when the header cannot be
// read or has no version, or the version has no preset.
AutoPreset choose_auto_preset(const std::string& path);

}  // namespace l1d::sim::trace
