// Defaults of the Workload interface (workload.h).
#include "sim_cpp/workload/workload.h"

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

std::string Workload::verify(const FunctionalMemory&) const {
  return "workload " + name() + " has no result check";
}

}  // namespace l1d::sim
