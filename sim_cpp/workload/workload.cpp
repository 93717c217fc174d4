// Defaults of the Workload interface (workload.h).
#include "sim_cpp/workload/workload.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace l1d::sim {

std::optional<WorkloadScale> parse_scale(std::string_view name) {
  for (size_t i = 0; i < std::size(kScaleNames); ++i)
    if (name == kScaleNames[i]) return static_cast<WorkloadScale>(i);
  return std::nullopt;
}

void Workload::set_input_file(const std::string& path) {
  throw std::invalid_argument("workload " + name() + " reads no input file (" + path + "); it generates its inputs");
}

void Workload::set_generator(const std::string& name) {
  const std::vector<std::string> allowed = generators();
  if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) return;
  std::string list;
  for (const std::string& g : allowed) list += (list.empty() ? "" : ", ") + g;
  throw std::invalid_argument("workload " + this->name() + " has no generated input '" + name + "' (" +
                              (list.empty() ? "it has one shape of input, no choice" : "allowed: " + list) + ")");
}

std::string Workload::verify(const FunctionalMemory&) const {
  return "workload " + name() + " has no result check";
}

}  // namespace l1d::sim
