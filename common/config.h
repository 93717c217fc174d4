// Configuration: one struct per section of a preset YAML file (configs/<preset>.yaml).
// Loading validates every field; a bad file raises ConfigError with one line naming the
// file, the field, the value and the allowed range. Commands turn that into exit code 2.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace l1d {

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class SchedulerKind : uint8_t { kGto, kLrr, kTwoLevel };
// How the LDST unit turns a warp's memory instruction into L1 requests (sim_cpp/core/coalescer.h):
// fermi = one request per touched 128 B line shrunk to 64/32 B (GPGPU-Sim's Fermi rules, SPEC 10);
// sector = one 128 B-line request per touched line whose byte mask names the touched 32 B sectors
// (GPGPU-Sim 4 / Accel-Sim coalescing for sm_60+, every access in 32 B sectors).
enum class CoalescerKind : uint8_t { kFermi, kSector };
// When a warp waits for its loads (sim_cpp/core/sm.h, docs/simulator.md "Load wait"):
// on_issue = after a load issues, the warp issues nothing until every request of it has returned
// (this project's model before core.load_wait); on_use = a register scoreboard, as GPGPU-Sim's
// (scoreboard.cc): a load's destination registers are pending until its data returns, and only
// an instruction that reads or writes a pending register waits (the warp's exit waits for all).
enum class LoadWait : uint8_t { kOnIssue, kOnUse };
// How a warp's next instructions reach its instruction buffer (sim_cpp/core/sm.h, docs/simulator.md
// "Fetch"): ideal = a 1-entry buffer refilled in the cycle its instruction issues (this project's
// model before core.fetch); ibuffer = GPGPU-Sim's front end (shader.cc fetch / decode): one warp a
// cycle, round robin among the warps whose core.ibuffer_entries-entry buffer is empty, is fetched
// and decoded the next cycle, and a warp with an empty buffer cannot issue.
enum class FetchModel : uint8_t { kIdeal, kIbuffer };
enum class SetIndexHash : uint8_t { kLinear, kFermiXor };
// write_evict (GPGPU-Sim's global stores): a store hit invalidates the slots it hits and every
// store goes to memory; the L1 keeps no dirty state.
enum class WritePolicy : uint8_t { kWriteBack, kWriteThrough, kWriteEvict };
// The reference-faithful L1 options (docs/l1d-microarchitecture.md section 13, SPEC 12).
enum class AllocationPolicy : uint8_t { kOnFill, kOnMiss };  // when a missing block gets its line
enum class BypassFetch : uint8_t { kRequest, kLine };          // what a bypassing load miss fetches
// a load overlapping an in-flight entry; kSector needs l1.sector (contract section 14)
enum class MshrMerge : uint8_t { kStall, kBlock, kSector };
enum class KernelEndAction : uint8_t { kFlush, kInvalidate };  // what the L1 does at kernel end
// Where l1.hit_latency is charged: on every L1 response (today's model), nowhere (GPGPU-Sim 3.x: a
// hit completes in the LDST unit's cache stage) or in a pipe between the LDST unit and the L1's
// tag lookup (GPGPU-Sim 4.x's l1_latency_queue; contract section 13.5).
enum class HitLatencyAt : uint8_t { kResponse, kNone, kBeforeTag };
// How a load bypassed by a decision known at the LDST unit (two-level B mode) reaches memory:
// through the L1 (tags, MSHR, miss queue) or from the LDST unit straight to the memory port
// (GPGPU-Sim's bypassL1D path; contract section 13.6).
enum class BypassPath : uint8_t { kThroughL1, kDirect };
// What a sector L1's store miss allocates (contract section 14): nothing, or GPGPU-Sim 4.x's
// LAZY_FETCH_ON_READ write allocation (the line is allocated and the written sectors kept without a
// fetch; a sector the store writes only in part is fetched by the next read that needs it).
enum class WriteAllocate : uint8_t { kNone, kLazyFetchOnRead };
// l1.carveout: fixed = the L1 is always size_bytes; adaptive = each kernel's L1 is what the unified
// L1 / shared memory leaves after the kernel's shared-memory carveout (Accel-Sim's
// -gpgpu_adaptive_cache_config 1; carveout_l1_bytes below).
enum class Carveout : uint8_t { kFixed, kAdaptive };
// l1.pipeline (contract section 16): when the L1's decisions happen. single_cycle = one request in
// S1, decided the cycle after it fires (section 3, today's l1d_top); staged = RTL v2's pipe of
// arbitrate / tag read / match / commit / data / respond stages around the same decisions.
enum class L1Pipeline : uint8_t { kSingleCycle, kStaged };
// l2.fetch: what an L2 read miss fetches from DRAM (GPGPU-Sim 3.x's line L2 / a sector L2).
enum class L2Fetch : uint8_t { kSector, kLine };
enum class NocArbiter : uint8_t { kFifo, kIslip };
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
  uint32_t kernel_launch_cycles = 0;  // cycles the GPU waits before a kernel's first CTA
  CoalescerKind coalescer = CoalescerKind::kFermi;
  LoadWait load_wait = LoadWait::kOnIssue;
  FetchModel fetch = FetchModel::kIdeal;
  uint32_t ibuffer_entries = 2;  // fetch ibuffer: instructions one fetch decodes (GPGPU-Sim IBUFFER_SIZE)
  // Memory instructions that may wait, issued, behind the busy LDST unit (sim_cpp/core/sm.h,
  // docs/simulator.md "LDST queue"): 0 = a warp's memory instruction issues only into a free LDST
  // unit (this project's model before the field); N = it issues while fewer than N wait, and the
  // unit takes them in issue order (GPGPU-Sim's ID_OC_MEM register, memory operand collector units
  // and OC_EX_MEM register in front of ldst_unit's dispatch register).
  uint32_t ldst_queue = 0;
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
  // A sector cache: per-32 B-sector valid bits, misses fetch only missing sectors (contract section 14).
  bool sector = false;
  // Reference-faithful options; the defaults are this project's realistic L1 (contract section 13).
  AllocationPolicy allocation = AllocationPolicy::kOnFill;
  BypassFetch bypass_fetch = BypassFetch::kRequest;
  MshrMerge mshr_merge = MshrMerge::kStall;
  KernelEndAction kernel_end = KernelEndAction::kFlush;
  HitLatencyAt hit_latency_at = HitLatencyAt::kResponse;
  BypassPath bypass_path = BypassPath::kThroughL1;
  WriteAllocate write_allocate = WriteAllocate::kNone;
  L1Pipeline pipeline = L1Pipeline::kSingleCycle;
  // Unified L1 / shared memory (docs/simulator.md "L1 carveout"). With carveout adaptive,
  // size_bytes is the base (smallest) L1 and unified_bytes the capacity shared with the shared
  // memory; shared_options_kb the carveouts a kernel can get, ascending.
  Carveout carveout = Carveout::kFixed;
  uint32_t unified_bytes = 0;  // 0: not given
  std::vector<uint32_t> shared_options_kb;

  uint32_t sets() const { return size_bytes / (ways * 128); }
};

// The carveout a kernel gets (docs/simulator.md "L1 carveout").
struct CarveoutChoice {
  uint32_t shared_kb = 0;  // the shared-memory option chosen (fixed carveout: 0)
  uint32_t l1_bytes = 0;   // the L1 the kernel runs with
};
// The L1 an adaptive carveout of `shared_kb` KB leaves: unified_bytes - shared_kb KB, as a
// power-of-two number of sets of l1.ways ways rounded DOWN (Accel-Sim instead changes the
// associativity at a fixed number of sets; our L1 has at most 64 ways), and never below
// size_bytes, the base L1.
uint32_t carveout_l1_bytes(const L1Config& c, uint32_t shared_kb);
// The most sets any kernel's L1 has: with an adaptive carveout the L1 the smallest shared-memory
// option leaves, otherwise size_bytes'. The RTL builds its arrays for this many (contract 15).
uint32_t largest_l1_sets(const L1Config& c);
// Accel-Sim's rule (shader.cc, adaptive_cache_config): a kernel whose CTAs need `shared_bytes`
// of shared memory per SM (per CTA x the most CTAs an SM holds) gets the first option >= it.
// Fixed carveout: {0, size_bytes}. std::nullopt when no option is large enough.
std::optional<CarveoutChoice> choose_carveout(const L1Config& c, uint64_t shared_bytes);
// The cycles the simulator charges for l1.hit_latency (contract 16.1): the staged L1's own pipe
// is kStagedExtraLatency cycles longer than single_cycle's, so its share comes off the preset's
// hit latency, which stays the total its source gives (with hit_latency_at none nothing is charged).
inline constexpr uint32_t kStagedExtraLatency = 5;
uint32_t charged_hit_latency(const L1Config& c);

// The memory system behind the L1 (sim_cpp/mem/; fields, values and sources in docs/simulator.md,
// "Memory-system fields"). The defaults are the gtx480 preset's model.
struct L2Config {
  uint32_t size_bytes = 786432;
  uint32_t ways = 16;
  uint32_t partitions = 6;
  uint32_t hit_latency = 100;
  uint32_t slices_per_partition = 1;  // L2 banks per partition, each with its own NoC ports
  uint32_t mshrs = 128;               // per slice: lines with a DRAM fetch in flight
  uint32_t fill_latency = 13;         // DRAM data back -> response ready
  uint32_t read_buffer = 192;         // per slice: reads held beyond the hit pipeline (waiting / output)
  uint32_t dram_out = 16;             // per slice: DRAM-bound requests buffered before it refuses
  L2Fetch fetch = L2Fetch::kSector;
};

struct NocConfig {
  uint32_t latency = 8;
  uint32_t flit_bytes = 32;
  uint32_t flits_per_cycle = 1;  // per port per core cycle (the interconnect at the core clock)
  uint32_t header_bytes = 8;     // control bytes in every packet
  uint32_t src_buffer = 8;       // packets per injection buffer
  uint32_t dst_buffer = 8;       // packets per ejection buffer (credits: latency + this)
  // How the crossbar arbitrates (sim_cpp/mem/noc.h). fifo: one FIFO per input, one packet per
  // output at a time, round robin per output (the model before the field existed). islip:
  // GPGPU-Sim's intersim2 input-queued router (iq_router.cpp, islip.cpp): `vcs` virtual
  // channels per input (one packet each), one-iteration iSLIP switch allocation over
  // inputs x input_speedup crossbar inputs (a VC uses crossbar input vc % input_speedup), and a
  // switch internal_speedup times the channel rate feeding output queues.
  NocArbiter arbiter = NocArbiter::kFifo;
  uint32_t vcs = 1;               // islip only: virtual channels per input (.icnt num_vcs)
  uint32_t input_speedup = 1;     // islip only: crossbar inputs per input port (.icnt input_speedup)
  uint32_t internal_speedup = 1;  // islip only: switch rate / channel rate (.icnt internal_speedup)
};

struct DramConfig {
  uint32_t channels = 6;
  double bandwidth_gbps = 179.2;
  uint32_t latency = 100;
  uint32_t banks = 16;
  uint32_t row_bytes = 2048;
  uint32_t queue = 64;      // FR-FCFS scheduler queue per channel
  double t_rcd_ns = 13.0;   // activate -> column command
  double t_rp_ns = 13.0;    // precharge -> activate
  double t_ras_ns = 30.0;   // activate -> earliest precharge
  double t_rrd_ns = 6.5;    // activate -> next activate in the channel
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
  // false: every kernel launch abandons the window or bypass period and samples afresh (Kim &
  // Kim, JIPS, section 3: "Sampling begins when a thread block is allocated to each SM after a
  // new kernel launches"); true: the window, the bypass period and the mode run on across
  // launches, so kernels shorter than a window still complete one.
  bool keep_across_launches = false;
};

struct PcalConfig {
  bool opportunistic = false;
  // Dynamic PCAL's state machine (EBTNum, its state, the phase detector, the sampling window)
  // across kernel launches. true (the dissertation, 4.4.3: Init is the state "when an
  // application starts" and "the state machine moves to the next state only when a new phase
  // is detected"); false: Init at every launch.
  bool keep_across_launches = true;
};

// Dynamic-AgeLRU's parallel voting (controller dynamic-agelru).
struct AgeLruConfig {
  // true (the dissertation, 5.3: voting starts "when a new program phase is detected or the
  // program just starts"): the vote's winner, the phase detector and the sampling window survive
  // kernel launches; false: a new vote at every launch.
  bool keep_across_launches = true;
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
  AgeLruConfig agelru;
  BipConfig bip;
  DipConfig dip;
  RprConfig rpr;
};

struct Config {
  std::string name;
  std::string source;  // the file(s) it came from, for messages
  // (field path, file) for every field a file set, in load order (describe_config's sources).
  std::vector<std::pair<std::string, std::string>> set_by;
  uint64_t seed = 1;
  CoreConfig core;
  L1Config l1;
  L2Config l2;
  NocConfig noc;
  DramConfig dram;
  PolicyConfig policy;
};

// One field of a resolved configuration: its path ("l1.allocation"), its value as YAML spells it,
// and the file that set it ("" = the built-in default).
struct ConfigField {
  std::string path, value, source;
};
// Every field of the preset schema, in schema order (gpusim --explain-preset, the JSON statistics).
std::vector<ConfigField> describe_config(const Config& cfg);

// Loads and validates one YAML file of the preset schema. A top-level `base: NAME` starts it from
// configs/NAME.yaml (itself possibly based on another), so the file sets only what differs.
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
std::string to_string(L2Fetch f);
std::string to_string(NocArbiter a);
std::string to_string(CoalescerKind k);
std::string to_string(LoadWait w);
std::string to_string(FetchModel f);
// Why policy `p` cannot run on an L1 with l1.sector true (its granularity is not fixed128: contract
// section 14), as the rest of a one-line error after the field name; "" when it can.
std::string sector_policy_conflict(const PolicyConfig& p, const L1Config& l1);
// The first L1 option the RTL l1d_top does not implement, as "l1.<field>: <value>", or "" when it
// implements them all (gpusim --l1 verilated|lockstep refuses the others).
std::string rtl_unsupported_l1_option(const L1Config& c);
std::string to_string(WritePolicy w);
std::string to_string(AllocationPolicy a);
std::string to_string(BypassFetch b);
std::string to_string(MshrMerge m);
std::string to_string(KernelEndAction k);
std::string to_string(L1Pipeline p);
std::string to_string(HitLatencyAt h);
std::string to_string(BypassPath b);
std::string to_string(WriteAllocate w);
std::string to_string(Carveout c);


}  // namespace l1d
