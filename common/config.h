// Configuration: one struct per section of a preset YAML file (configs/<preset>.yaml).
// Loading validates every field; a bad file raises ConfigError with one line naming the
// file, the field, the value and the allowed range. Commands turn that into exit code 2.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace l1d {

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class SchedulerKind : uint8_t { kGto, kLrr, kTwoLevel };
enum class SetIndexHash : uint8_t { kLinear, kFermiXor };
enum class WritePolicy : uint8_t { kWriteBack, kWriteThrough };
enum class ReplacementKind : uint8_t { kLru, kFifo, kBip, kDip, kAgeLru, kRpr };
enum class BypassKind : uint8_t { kNone, kAgcb, kTwoLevel, kPcal, kAgeLru };
enum class GranularityKind : uint8_t { kFixed128, kStatic64, kStatic32, kDynamic };
// RPR's cache-line score (dissertation 6.2.4): which quantity orders the non-dead lines.
enum class RprScore : uint8_t { kReuseDistance, kCounter, kAge };

struct CoreConfig {
  uint32_t num_sms = 15;
  uint32_t warps_per_sm = 48;
  uint32_t threads_per_warp = 32;
  uint32_t schedulers_per_sm = 2;
  SchedulerKind scheduler = SchedulerKind::kGto;
  uint32_t instruction_bytes = 8;  // SASS instruction size: the AGCB hash drops log2 of it
  uint32_t clock_mhz = 700;
};

struct L1Config {
  uint32_t size_bytes = 16384;
  uint32_t ways = 4;
  uint32_t address_bits = 32;
  uint32_t chunk_tag_bits = 16;
  SetIndexHash set_index = SetIndexHash::kLinear;
  uint32_t hit_latency = 35;  // modelled by the simulator outside the L1
  uint32_t mshr_entries = 32;
  uint32_t mshr_max_merge = 8;
  uint32_t miss_queue_entries = 8;
  WritePolicy write_policy = WritePolicy::kWriteBack;
  bool sector = false;  // informational: the preset's real L1 is a sector cache (see docs)

  uint32_t sets() const { return size_bytes / (ways * 128); }
};

struct L2Config {
  uint32_t size_bytes = 786432;
  uint32_t ways = 16;
  uint32_t partitions = 6;
  uint32_t hit_latency = 100;
};

struct NocConfig {
  uint32_t latency = 8;
  uint32_t flit_bytes = 32;
};

struct DramConfig {
  uint32_t channels = 6;
  double bandwidth_gbps = 179.2;
  uint32_t latency = 100;
  uint32_t banks = 16;
  uint32_t row_bytes = 2048;
};

struct DyCacheConfig {
  uint32_t sample_requests = 1000;
  uint32_t threshold_pct = 50;
  bool keep_large_pieces = false;  // the paper's proposed small-to-large fix (option)
};

struct AgcbConfig {
  uint32_t entries = 256;
  uint32_t counter_bits = 4;
  uint32_t reset_value = 15;
  uint32_t threshold = 8;
  // The L2 bypass-bit check (SPEC 5). Off: every predicted bypass bypasses (the course
  // project's predictor, which never let a block in); an experiment switch, read by the L2.
  bool l2_verify = true;
};

struct TwoLevelConfig {
  uint32_t window_cycles = 5000;
  uint32_t bypass_period_cycles = 5000;
  double th_low = 0.3;
  double th_high = 0.9;
  double th_warp = 0.5;  // fraction of the SM's maximum warps
};

struct PcalConfig {
  bool opportunistic = false;
};

struct BipConfig {
  uint32_t mru_one_in = 32;  // 1 of this many fills goes to MRU
  uint32_t lfsr_seed = 0xACE1;
};

struct DipConfig {
  uint32_t psel_bits = 10;
  uint32_t leader_sets_per_policy = 1;  // per 32 sets
};

// RPR, reuse-prediction-based replacement (SPEC 9, dissertation ch. 6); golden model only.
struct RprConfig {
  RprScore score = RprScore::kReuseDistance;  // the dissertation's best configuration
  uint32_t sample_every = 4;  // the sampler watches the sets with set % sample_every == 0 (1/4, SPEC 9)
  // A line whose signature has no prediction yet gets these (the paper's zero would make every
  // new block dead on arrival): a middling distance and one expected reuse.
  uint32_t default_rd = 8;
  uint32_t default_rc = 1;
};

struct PolicyConfig {
  std::string name = "baseline";
  ReplacementKind replacement = ReplacementKind::kLru;
  BypassKind bypass = BypassKind::kNone;
  GranularityKind granularity = GranularityKind::kFixed128;
  bool bto = false;  // bypass traffic optimisation: bypasses fetch only the sectors they touch
  DyCacheConfig dycache;
  AgcbConfig agcb;
  TwoLevelConfig two_level;
  PcalConfig pcal;
  BipConfig bip;
  DipConfig dip;
  RprConfig rpr;
};

struct Config {
  std::string name;
  std::string source;  // the file(s) it came from, for messages
  uint64_t seed = 1;
  CoreConfig core;
  L1Config l1;
  L2Config l2;
  NocConfig noc;
  DramConfig dram;
  PolicyConfig policy;
};

// Loads and validates one YAML file of the preset schema.
Config load_config_file(const std::filesystem::path& file);
// Merges a policy file (the `policy:` section schema, at top level) into cfg.policy.
void apply_policy_file(Config& cfg, const std::filesystem::path& file);

// Where presets live: $L1D_CONFIG_DIR if set, else the source tree's configs/.
std::filesystem::path config_dir();
// configs/<name>.yaml; ConfigError listing the available presets when it does not exist.
Config load_preset(const std::string& name);
// configs/policies/<name>.yaml merged into cfg; ConfigError listing those available.
void apply_policy_preset(Config& cfg, const std::string& name);
std::vector<std::string> list_presets();
std::vector<std::string> list_policy_presets();

std::string to_string(ReplacementKind k);
std::string to_string(BypassKind k);
std::string to_string(GranularityKind k);
std::string to_string(RprScore s);

}  // namespace l1d
