// The AGCB predictor's counters over time (issue 8: "show the predictor's counters over time").
// Every `every` cycles it copies each SM's 256-entry table from the golden L1 behind the SM's
// port; at the end it writes, per sample and per table entry that ever left its reset value in
// any SM, the counter's mean, minimum and maximum over the SMs and how many SMs predict bypass.
// The RTL's table is not visible through the L1 port, so this needs --l1 golden or lockstep.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "sim_cpp/gpu/gpu.h"

namespace l1d::sim {

class AgcbTimeline {
 public:
  // Throws ConfigError unless the policy is AGCB and every SM's port has a golden L1.
  explicit AgcbTimeline(const Gpu& gpu);
  // Attaches the sampler to the GPU (call before Gpu::run).
  void attach(Gpu& gpu, uint64_t every);
  void sample(uint64_t cycle);

  // CSV: cycle,entry,mean,min,max,sms_bypassing (entries that never left reset are left out).
  void write_csv(std::ostream& os) const;
  size_t samples() const { return cycles_.size(); }
  // The table of `sm` at sample `i` (tests).
  const std::vector<uint8_t>& table(size_t i, uint32_t sm) const { return tables_.at(i).at(sm); }

 private:
  const Gpu& gpu_;
  uint32_t entries_, threshold_, reset_;
  std::vector<uint64_t> cycles_;
  std::vector<std::vector<std::vector<uint8_t>>> tables_;  // [sample][sm][entry]
};

}  // namespace l1d::sim
