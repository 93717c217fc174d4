#include "sim_cpp/gpu/policies.h"

namespace l1d::sim {

const std::vector<PolicyAlias>& policy_aliases() {
  static const std::vector<PolicyAlias> kAliases = {
      {"dynamic-agelru", "agelru", "dynamic-agelru"},
      {"dynamic-pcal", "pcal", "dynamic-pcal"},
  };
  return kAliases;
}

std::vector<std::string> apply_policy(Config& cfg, const std::string& name) {
  for (const PolicyAlias& a : policy_aliases()) {
    if (name != a.name) continue;
    apply_policy_preset(cfg, a.preset);
    cfg.policy.name = a.name;
    return {a.controller};
  }
  apply_policy_preset(cfg, name);
  return {};
}

std::vector<std::string> policy_names() {
  std::vector<std::string> v = list_policy_presets();
  for (const PolicyAlias& a : policy_aliases()) v.emplace_back(a.name);
  return v;
}

}  // namespace l1d::sim
