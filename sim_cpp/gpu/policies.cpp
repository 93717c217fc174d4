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

std::string policy_conflict(const Config& cfg, const std::string& name) {
  Config copy = cfg;
  try {
    apply_policy(copy, name);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::vector<std::string> policy_names_for(const Config& cfg) {
  std::vector<std::string> names;
  for (const std::string& n : policy_names())
    if (policy_conflict(cfg, n).empty()) names.push_back(n);
  return names;
}

}  // namespace l1d::sim
