// Defaults of the Workload interface (workload.h).
#include "sim_cpp/workload/workload.h"

#include <stdexcept>

namespace l1d::sim {

void Workload::set_input_file(const std::string& path) {
  throw std::invalid_argument("workload " + name() + " reads no input file (" + path + "); it generates its inputs");
}

std::string Workload::verify(const FunctionalMemory&) const {
  return "workload " + name() + " has no result check";
}

}  // namespace l1d::sim
