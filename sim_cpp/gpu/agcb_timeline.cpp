#include "sim_cpp/gpu/agcb_timeline.h"

#include <algorithm>

#include <fmt/format.h>

namespace l1d::sim {

AgcbTimeline::AgcbTimeline(const Gpu& gpu)
    : gpu_(gpu),
      entries_(gpu.config().policy.agcb.entries),
      threshold_(gpu.config().policy.agcb.threshold),
      reset_(gpu.config().policy.agcb.reset_value) {
  if (gpu.config().policy.bypass != BypassKind::kAgcb)
    throw ConfigError("the AGCB timeline needs an AGCB policy (policy.bypass agcb), not bypass " +
                      to_string(gpu.config().policy.bypass));
  for (uint32_t s = 0; s < gpu.num_sms(); ++s)
    if (!gpu.sm(s).l1().golden_model())
      throw ConfigError("the AGCB timeline reads the golden L1's table: use --l1 golden or lockstep");
}

void AgcbTimeline::attach(Gpu& gpu, uint64_t every) {
  if (every == 0) throw ConfigError("the AGCB timeline's sampling period must be at least 1 cycle");
  gpu.set_cycle_sampler(every, [this](uint64_t cycle) { sample(cycle); });
}

void AgcbTimeline::sample(uint64_t cycle) {
  cycles_.push_back(cycle);
  auto& per_sm = tables_.emplace_back(gpu_.num_sms());
  for (uint32_t s = 0; s < gpu_.num_sms(); ++s) {
    const golden::AgcbPredictor& p = gpu_.sm(s).l1().golden_model()->agcb();
    per_sm[s].resize(entries_);
    for (uint32_t e = 0; e < entries_; ++e) per_sm[s][e] = static_cast<uint8_t>(p.counter(e));
  }
}

void AgcbTimeline::write_csv(std::ostream& os) const {
  std::vector<bool> moved(entries_, false);
  for (const auto& per_sm : tables_)
    for (const auto& t : per_sm)
      for (uint32_t e = 0; e < entries_; ++e) moved[e] = moved[e] || t[e] != reset_;
  os << "cycle,entry,mean,min,max,sms_bypassing\n";
  for (size_t i = 0; i < cycles_.size(); ++i) {
    for (uint32_t e = 0; e < entries_; ++e) {
      if (!moved[e]) continue;
      uint32_t sum = 0, lo = 255, hi = 0, bypassing = 0;
      for (const auto& t : tables_[i]) {
        sum += t[e];
        lo = std::min<uint32_t>(lo, t[e]);
        hi = std::max<uint32_t>(hi, t[e]);
        bypassing += t[e] >= threshold_;
      }
      const double mean = tables_[i].empty() ? 0.0 : static_cast<double>(sum) / static_cast<double>(tables_[i].size());
      os << fmt::format("{},{},{:.3f},{},{},{}\n", cycles_[i], e, mean, lo, hi, bypassing);
    }
  }
}

}  // namespace l1d::sim
