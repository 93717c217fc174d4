// `gpusim --policy NAME`: a policy preset (configs/policies/NAME.yaml) or an alias that is a
// preset plus an SM-level runtime controller:
//   dynamic-agelru = agelru + controller dynamic-agelru
//   dynamic-pcal   = pcal   + controller dynamic-pcal
#pragma once

#include <string>
#include <vector>

#include "common/config.h"

namespace l1d::sim {

struct PolicyAlias {
  const char* name;
  const char* preset;
  const char* controller;
};

const std::vector<PolicyAlias>& policy_aliases();

// Applies policy NAME to cfg (ConfigError when neither a preset nor an alias) and returns the
// controllers it implies.
std::vector<std::string> apply_policy(Config& cfg, const std::string& name);

// Every name --policy accepts: the presets, then the aliases.
std::vector<std::string> policy_names();

// Why policy NAME cannot run on `cfg`'s GPU (a sector L1 refuses DyCache's granularities:
// docs/l1d-microarchitecture.md section 14), as apply_policy's one-line error; "" when it can.
std::string policy_conflict(const Config& cfg, const std::string& name);
// The policies of policy_names() that can run on `cfg`'s GPU.
std::vector<std::string> policy_names_for(const Config& cfg);

}  // namespace l1d::sim
