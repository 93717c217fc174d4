// Loading and validation of preset and policy YAML files (see config.h).
//
// Every field goes through Reader, a small schema-driven walker over one YAML mapping: each call
// names a key, the struct field it fills and the values it allows, and records the key as known,
// so finish() can reject keys nobody asked for (a typo must never silently keep a default).
// Errors are one line, "<file>: <field path>: <problem>", naming the value and what is allowed.
//
// Allowed values, and why (cross-field rules are in check_*() below):
//   seed                  any unsigned 64-bit value
//   core.num_sms          1..256
//   core.warps_per_sm     1..256       warp slots and AgeLRU AWIDs are 8-bit
//   core.threads_per_warp power of two 1..32 (per-lane masks are 32 bits)
//   core.schedulers_per_sm 1..32 and at most warps_per_sm
//   core.instruction_bytes power of two 1..64 (the AGCB hash drops log2 of it); clock 1..10000 MHz
//   core.kernel_launch_cycles 0..10000000 (cycles before a kernel's first CTA; 0: none)
//   core.coalescer        fermi | sector (sim_cpp/core/coalescer.h)
//   core.load_wait        on_issue | on_use (sim_cpp/core/sm.h)
//   core.fetch            ideal | ibuffer (sim_cpp/core/sm.h); core.ibuffer_entries 1..8
//   core.ldst_queue       0..64 (memory instructions waiting behind the LDST unit; sim_cpp/core/sm.h)
//   l1.size_bytes 1024..1048576, ways 1..64; sets = size/(ways*128) a power of two
//   l1.address_bits 16..64; l1.chunk_tag_bits 3..32 and chunk_tag_bits-2 <= line-tag bits
//   l1.set_index fermi_xor only with 32 or 64 sets (the Fermi hash is defined for those)
//   l1.mshr_entries 1..256 (the MSHR id is 8 bits); mshr_max_merge 1..64
//   l1.miss_queue_entries 6..256 (one miss may need 1 read + 4 write-backs + 1 reserved slot)
//   l1.write_policy write_back | write_through | write_evict; l1.allocation on_fill | on_miss;
//   l1.bypass_fetch request | line; l1.mshr_merge stall | block; l1.kernel_end flush | invalidate
//     (invalidate only without dirty state: not with write_back); l1.hit_latency_at response |
//     before_tag | none (before_tag needs hit_latency >= 2: its pipe has hit_latency - 1 stages);
//     l1.bypass_path through_l1 | direct (direct only without dirty state: not with write_back)
//     (docs/l1d-microarchitecture.md section 13)
//   l1.carveout fixed | adaptive; l1.unified_bytes 0..4 MB (0: not given); l1.shared_options_kb a
//     list of 0..4096, strictly ascending, each below unified_bytes. With adaptive: unified_bytes
//     above size_bytes, at least one option, and size_bytes the L1 the largest option leaves as a
//     power-of-two number of sets rounded down or up (the base L1; check_carveout); every kernel L1
//     must pass the address_bits / chunk_tag_bits / set_index rules above (docs/simulator.md)
//   l1.hit_latency, l2.hit_latency, noc.latency, dram.latency 1..10000 cycles
//   l2.size_bytes 1024..2^30, ways 1..64, partitions 1..128, slices_per_partition power of two
//     1..8; sets per slice (size / (partitions * slices * ways * 128)) a power of two
//   l2.mshrs 1..4096, read_buffer 0..4096, dram_out 1..1024 (per slice); fill_latency 1..10000
//   l2.fetch sector or line
//   noc.flit_bytes power of two 8..256; flits_per_cycle 1..16; header_bytes 0..256;
//   noc.src_buffer, dst_buffer 1..1024 packets
//   noc.arbiter fifo | islip (sim_cpp/mem/noc.h); noc.vcs 1..16, input_speedup 1..16,
//     internal_speedup 1..4 (GPGPU-Sim .icnt num_vcs, input_speedup, internal_speedup: 1 / 2 / 1.0
//     in config_fermi_islip.icnt, 1 / 1 / 2.0 in config_pascal_islip.icnt); other than 1 only with islip
//   dram.channels 1..128, bandwidth_gbps 0.1..100000, banks power of two 1..64,
//   dram.row_bytes power of two 128..65536, queue 1..1024, t_rcd_ns, t_rp_ns, t_ras_ns, t_rrd_ns
//   0..1000 (converted to core cycles, at least 1)
//   policy.dycache.sample_requests 1..1000000, threshold_pct 1..99
//   policy.agcb.entries power of two 2..65536, counter_bits 1..8, reset_value and threshold
//     0..2^counter_bits-1; l2_verify true/false (the simulator's L2 bypass-bit check)
//   policy.two_level.window_cycles and bypass_period_cycles 1..1000000; th_low, th_high, th_warp
//     in 0..1 with th_low <= th_high; keep_across_launches true/false
//   policy.pcal.opportunistic, policy.pcal.keep_across_launches (dynamic PCAL) and
//     policy.agelru.keep_across_launches (Dynamic-AgeLRU) true/false
//   policy.bip.mru_one_in power of two 1..1024, lfsr_seed 1..65535 (a 16-bit LFSR must not be 0)
//   policy.dip.psel_bits 1..16, leader_sets_per_policy 1..15 (two leader groups per 32 sets must
//     leave follower sets)
//   policy.rpr.score reuse_distance, counter or age; sample_every power of two 1..64 (the sampled
//     sets are set % sample_every == 0) and, when replacement is rpr, at most the L1's number of
//     sets (else no set would be sampled); default_rd and default_rc 0..15 (4-bit line fields)
//   name, policy.name     1..64 characters of letters, digits, '-', '_', '.'; defaults to the
//                         file's stem, so a policy file without a name is named after its file
#include "common/config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

namespace l1d {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& file, const std::string& path, const std::string& problem) {
  throw ConfigError(fmt::format("{}: {}: {}", file, path, problem));
}

// User text quoted for a message: control characters escaped and long text shortened, so an
// error stays one line whatever the file contains.
std::string shown(std::string_view s) {
  constexpr size_t kMax = 60;
  std::string out = "\"";
  for (size_t i = 0; i < s.size() && i < kMax; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n')
      out += "\\n";
    else if (c == '"')
      out += "\\\"";
    else if (c < 0x20 || c == 0x7f)
      out += fmt::format("\\x{:02x}", c);
    else
      out += s[i];
  }
  if (s.size() > kMax) out += "...";
  return out + "\"";
}

std::string describe(const YAML::Node& v) {
  if (v.IsNull()) return "an empty value";
  if (v.IsSequence()) return "a list";
  if (v.IsMap()) return "a mapping";
  // yaml-cpp tags quoted and block scalars "!": "16" is a string, not a number.
  if (v.Tag() == "!") return shown(v.Scalar()) + " (a string)";
  return shown(v.Scalar());
}

bool plain_scalar(const YAML::Node& v) { return v.IsScalar() && v.Tag() != "!"; }

// A YAML integer: optional sign, then decimal digits or 0x and hex digits.
struct Integer {
  bool negative = false;
  bool too_big = false;  // magnitude does not fit 64 bits
  uint64_t magnitude = 0;
};

std::optional<Integer> parse_integer(std::string_view s) {
  Integer n;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    n.negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty() || s[0] == '+' || s[0] == '-') return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n.magnitude, base);
  if (end != s.data() + s.size()) return std::nullopt;
  n.too_big = ec == std::errc::result_out_of_range;
  return n;
}

std::optional<double> parse_real(std::string_view s) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  double x = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(x)) return std::nullopt;
  return x;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// One spelling of an enum value, as written in YAML.
template <class E>
struct Choice {
  std::string_view name;
  E value;
};

constexpr std::array kSchedulers = {Choice<SchedulerKind>{"gto", SchedulerKind::kGto},
                                    Choice<SchedulerKind>{"lrr", SchedulerKind::kLrr},
                                    Choice<SchedulerKind>{"two_level", SchedulerKind::kTwoLevel}};
constexpr std::array kCoalescers = {Choice<CoalescerKind>{"fermi", CoalescerKind::kFermi},
                                    Choice<CoalescerKind>{"sector", CoalescerKind::kSector}};
constexpr std::array kLoadWaits = {Choice<LoadWait>{"on_issue", LoadWait::kOnIssue},
                                   Choice<LoadWait>{"on_use", LoadWait::kOnUse}};
constexpr std::array kFetchModels = {Choice<FetchModel>{"ideal", FetchModel::kIdeal},
                                     Choice<FetchModel>{"ibuffer", FetchModel::kIbuffer}};
constexpr std::array kSetIndex = {Choice<SetIndexHash>{"linear", SetIndexHash::kLinear},
                                  Choice<SetIndexHash>{"fermi_xor", SetIndexHash::kFermiXor}};
constexpr std::array kWritePolicies = {Choice<WritePolicy>{"write_back", WritePolicy::kWriteBack},
                                       Choice<WritePolicy>{"write_through", WritePolicy::kWriteThrough},
                                       Choice<WritePolicy>{"write_evict", WritePolicy::kWriteEvict}};
constexpr std::array kAllocations = {Choice<AllocationPolicy>{"on_fill", AllocationPolicy::kOnFill},
                                     Choice<AllocationPolicy>{"on_miss", AllocationPolicy::kOnMiss}};
constexpr std::array kBypassFetches = {Choice<BypassFetch>{"request", BypassFetch::kRequest},
                                       Choice<BypassFetch>{"line", BypassFetch::kLine}};
constexpr std::array kMshrMerges = {Choice<MshrMerge>{"stall", MshrMerge::kStall},
                                    Choice<MshrMerge>{"block", MshrMerge::kBlock},
                                    Choice<MshrMerge>{"sector", MshrMerge::kSector}};
constexpr std::array kKernelEnds = {Choice<KernelEndAction>{"flush", KernelEndAction::kFlush},
                                    Choice<KernelEndAction>{"invalidate", KernelEndAction::kInvalidate}};
constexpr std::array kHitLatencyAts = {Choice<HitLatencyAt>{"response", HitLatencyAt::kResponse},
                                       Choice<HitLatencyAt>{"before_tag", HitLatencyAt::kBeforeTag},
                                       Choice<HitLatencyAt>{"none", HitLatencyAt::kNone}};
constexpr std::array kBypassPaths = {Choice<BypassPath>{"through_l1", BypassPath::kThroughL1},
                                     Choice<BypassPath>{"direct", BypassPath::kDirect}};
constexpr std::array kWriteAllocates = {Choice<WriteAllocate>{"none", WriteAllocate::kNone},
                                        Choice<WriteAllocate>{"lazy_fetch_on_read", WriteAllocate::kLazyFetchOnRead}};
constexpr std::array kPipelines = {Choice<L1Pipeline>{"single_cycle", L1Pipeline::kSingleCycle},
                                   Choice<L1Pipeline>{"staged", L1Pipeline::kStaged}};
constexpr std::array kCarveouts = {Choice<Carveout>{"fixed", Carveout::kFixed},
                                  Choice<Carveout>{"adaptive", Carveout::kAdaptive}};
constexpr std::array kReplacements = {Choice<ReplacementKind>{"lru", ReplacementKind::kLru},
                                      Choice<ReplacementKind>{"fifo", ReplacementKind::kFifo},
                                      Choice<ReplacementKind>{"bip", ReplacementKind::kBip},
                                      Choice<ReplacementKind>{"dip", ReplacementKind::kDip},
                                      Choice<ReplacementKind>{"agelru", ReplacementKind::kAgeLru},
                                      Choice<ReplacementKind>{"rpr", ReplacementKind::kRpr}};
constexpr std::array kBypasses = {
    Choice<BypassKind>{"none", BypassKind::kNone}, Choice<BypassKind>{"agcb", BypassKind::kAgcb},
    Choice<BypassKind>{"two_level", BypassKind::kTwoLevel}, Choice<BypassKind>{"pcal", BypassKind::kPcal},
    Choice<BypassKind>{"agelru", BypassKind::kAgeLru}};
constexpr std::array kGranularities = {Choice<GranularityKind>{"fixed128", GranularityKind::kFixed128},
                                       Choice<GranularityKind>{"static64", GranularityKind::kStatic64},
                                       Choice<GranularityKind>{"static32", GranularityKind::kStatic32},
                                       Choice<GranularityKind>{"dynamic", GranularityKind::kDynamic}};

constexpr std::array kL2Fetches = {Choice<L2Fetch>{"sector", L2Fetch::kSector},
                                   Choice<L2Fetch>{"line", L2Fetch::kLine}};

constexpr std::array kNocArbiters = {Choice<NocArbiter>{"fifo", NocArbiter::kFifo},
                                    Choice<NocArbiter>{"islip", NocArbiter::kIslip}};

constexpr std::array kRprScores = {Choice<RprScore>{"reuse_distance", RprScore::kReuseDistance},
                                   Choice<RprScore>{"counter", RprScore::kCounter},
                                   Choice<RprScore>{"age", RprScore::kAge}};

template <class E, size_t N>
std::string spelling(const std::array<Choice<E>, N>& table, E value) {
  for (const auto& c : table)
    if (c.value == value) return std::string(c.name);
  return "?";
}

// Reads the fields of one YAML mapping. A key that is absent leaves its field unchanged.
// Where a Reader reports: `found`, if given, collects the path of every key the file sets;
// `dump`, if given, turns the reader into a describer: every field the schema asks for is
// recorded with its current value (and a section absent from the map is still walked), which is
// how describe_config() lists the resolved configuration without a second list of the fields.
struct Sinks {
  std::vector<std::string>* found = nullptr;
  std::vector<ConfigField>* dump = nullptr;
};

class Reader {
 public:
  Reader(const YAML::Node& map, const std::string& file, std::string path, Sinks sinks = {})
      : file_(file), path_(std::move(path)), sinks_(sinks) {
    for (const auto& kv : map) {
      if (!kv.first.IsScalar())
        fail(file_, path_.empty() ? "top level" : path_,
             "keys must be plain names, got " + describe(kv.first));
      const std::string& key = kv.first.Scalar();
      if (find(key)) fail(file_, where(key), "duplicate key");
      entries_.emplace_back(key, kv.second);
    }
  }

  void u32(std::string_view key, uint32_t& field, uint32_t min, uint32_t max) {
    if (sinks_.dump) record(key, std::to_string(field));
    if (auto v = value(key)) field = static_cast<uint32_t>(integer(key, *v, min, max));
  }

  void pow2(std::string_view key, uint32_t& field, uint32_t min, uint32_t max) {
    if (sinks_.dump) record(key, std::to_string(field));
    auto v = value(key);
    if (!v) return;
    const uint64_t x = integer(key, *v, min, max);
    if (!std::has_single_bit(x))
      fail(file_, where(key),
           fmt::format("value {} not allowed (allowed: powers of two {}..{})", x, min, max));
    field = static_cast<uint32_t>(x);
  }

  void u64(std::string_view key, uint64_t& field, uint64_t min, uint64_t max) {
    if (sinks_.dump) record(key, std::to_string(field));
    if (auto v = value(key)) field = integer(key, *v, min, max);
  }

  void real(std::string_view key, double& field, double min, double max) {
    if (sinks_.dump) record(key, fmt::format("{}", field));
    auto v = value(key);
    if (!v) return;
    const auto x = plain_scalar(*v) ? parse_real(v->Scalar()) : std::nullopt;
    if (!x) fail(file_, where(key), "expected a number, got " + describe(*v));
    if (*x < min || *x > max)
      fail(file_, where(key), fmt::format("value {} out of range (allowed {}..{})", v->Scalar(), min, max));
    field = *x;
  }

  void boolean(std::string_view key, bool& field) {
    if (sinks_.dump) record(key, field ? "true" : "false");
    auto v = value(key);
    if (!v) return;
    // The YAML 1.2 core schema spellings only: "yes"/"on" are too easy to misread.
    static constexpr std::array<std::pair<std::string_view, bool>, 6> kWords = {{{"true", true},
                                                                                 {"True", true},
                                                                                 {"TRUE", true},
                                                                                 {"false", false},
                                                                                 {"False", false},
                                                                                 {"FALSE", false}}};
    if (plain_scalar(*v))
      for (const auto& [word, b] : kWords)
        if (v->Scalar() == word) {
          field = b;
          return;
        }
    fail(file_, where(key), "expected true or false, got " + describe(*v));
  }

  // A YAML list of integers in min..max ("[0, 8, 16]"); dumped in the same spelling.
  void u32_list(std::string_view key, std::vector<uint32_t>& field, uint32_t min, uint32_t max) {
    if (sinks_.dump) record(key, fmt::format("[{}]", fmt::join(field, ", ")));
    auto v = value(key);
    if (!v) return;
    if (!v->IsSequence()) fail(file_, where(key), "expected a list of unsigned integers, got " + describe(*v));
    std::vector<uint32_t> out;
    for (size_t i = 0; i < v->size(); ++i)
      out.push_back(static_cast<uint32_t>(integer(fmt::format("{}[{}]", key, i), (*v)[i], min, max)));
    field = std::move(out);
  }

  // A name used in file names and statistics: letters, digits, '-', '_', '.'.
  void identifier(std::string_view key, std::string& field) {
    if (sinks_.dump) record(key, field);
    auto v = value(key);
    if (!v) return;
    if (!v->IsScalar()) fail(file_, where(key), "expected a name, got " + describe(*v));
    const std::string& s = v->Scalar();
    const bool ok = !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
    if (!ok)
      fail(file_, where(key),
           fmt::format("value {} not allowed (allowed: 1..64 letters, digits, '-', '_', '.')", shown(s)));
    field = s;
  }

  template <class E, size_t N>
  void choice(std::string_view key, E& field, const std::array<Choice<E>, N>& table) {
    if (sinks_.dump) record(key, spelling(table, field));
    auto v = value(key);
    if (!v) return;
    std::vector<std::string> names;
    for (const auto& c : table) {
      if (v->IsScalar() && v->Scalar() == c.name) {  // enum names are strings: quoting is fine
        field = c.value;
        return;
      }
      names.emplace_back(c.name);
    }
    fail(file_, where(key),
         fmt::format("value {} not allowed (allowed: {})", v->IsScalar() ? shown(v->Scalar()) : describe(*v),
                     join(names)));
  }

  // A nested mapping read by body(Reader&); its unknown keys are reported when body returns.
  // An empty section (`l1:` alone) keeps every default.
  template <class F>
  void section(std::string_view key, F&& body) {
    auto v = value(key);
    if (sinks_.dump && (!v || v->IsNull())) {
      Reader inner(YAML::Node(YAML::NodeType::Map), file_, where(key), sinks_);
      body(inner);
      return;
    }
    if (!v || v->IsNull()) return;
    if (!v->IsMap()) fail(file_, where(key), "expected a mapping, got " + describe(*v));
    Reader inner(*v, file_, where(key), sinks_);
    body(inner);
    inner.finish();
  }

  // Rejects every key no read asked for, naming the ones that are allowed here.
  void finish() const {
    for (const auto& [key, node] : entries_)
      if (std::find(known_.begin(), known_.end(), key) == known_.end())
        fail(file_, where(key), fmt::format("unknown key (allowed: {})", join(known_)));
  }

 private:
  const YAML::Node* find(std::string_view key) const {
    for (const auto& [k, node] : entries_)
      if (k == key) return &node;
    return nullptr;
  }

  std::optional<YAML::Node> value(std::string_view key) {
    known_.emplace_back(key);
    if (const YAML::Node* n = find(key)) {
      if (sinks_.found && !n->IsMap()) sinks_.found->push_back(where(key));
      return *n;
    }
    return std::nullopt;
  }

  // Callers test sinks_.dump first, so that a plain load formats no values.
  void record(std::string_view key, std::string value) { sinks_.dump->push_back({where(key), std::move(value), ""}); }

  std::string where(std::string_view key) const {
    std::string k = std::string(key);
    if (k.empty() || k.find_first_of(" \t\n\r\".:") != std::string::npos) k = shown(k);
    return path_.empty() ? k : path_ + "." + k;
  }

  uint64_t integer(std::string_view key, const YAML::Node& v, uint64_t min, uint64_t max) const {
    const auto n = plain_scalar(v) ? parse_integer(v.Scalar()) : std::nullopt;
    if (!n) fail(file_, where(key), "expected an unsigned integer, got " + describe(v));
    const bool zero = n->magnitude == 0 && !n->too_big;
    if ((n->negative && !zero) || n->too_big || n->magnitude < min || n->magnitude > max)
      fail(file_, where(key), fmt::format("value {} out of range (allowed {}..{})", v.Scalar(), min, max));
    return n->magnitude;
  }

  const std::string& file_;
  std::string path_;
  Sinks sinks_;
  std::vector<std::pair<std::string, YAML::Node>> entries_;  // in file order
  std::vector<std::string> known_;                           // in schema order
};

// ---- the schema: one function per section, fields in struct order ----

constexpr uint32_t kMaxLatency = 10000;

void read_core(Reader& r, CoreConfig& c) {
  r.u32("num_sms", c.num_sms, 1, 256);
  r.u32("warps_per_sm", c.warps_per_sm, 1, 256);
  r.pow2("threads_per_warp", c.threads_per_warp, 1, 32);
  r.u32("schedulers_per_sm", c.schedulers_per_sm, 1, 32);
  r.choice("scheduler", c.scheduler, kSchedulers);
  r.pow2("instruction_bytes", c.instruction_bytes, 1, 64);
  r.u32("clock_mhz", c.clock_mhz, 1, 10000);
  r.u32("kernel_launch_cycles", c.kernel_launch_cycles, 0, 10000000);
  r.choice("coalescer", c.coalescer, kCoalescers);
  r.choice("load_wait", c.load_wait, kLoadWaits);
  r.choice("fetch", c.fetch, kFetchModels);
  r.u32("ibuffer_entries", c.ibuffer_entries, 1, 8);
  r.u32("ldst_queue", c.ldst_queue, 0, 64);
}

void read_l1(Reader& r, L1Config& c) {
  r.u32("size_bytes", c.size_bytes, 1024, 1048576);
  r.u32("ways", c.ways, 1, 64);
  r.u32("address_bits", c.address_bits, 16, 64);
  r.u32("chunk_tag_bits", c.chunk_tag_bits, 3, 32);
  r.choice("set_index", c.set_index, kSetIndex);
  r.u32("hit_latency", c.hit_latency, 1, kMaxLatency);
  r.u32("mshr_entries", c.mshr_entries, 1, 256);
  r.u32("mshr_max_merge", c.mshr_max_merge, 1, 64);
  r.u32("miss_queue_entries", c.miss_queue_entries, 6, 256);
  r.choice("write_policy", c.write_policy, kWritePolicies);
  r.boolean("sector", c.sector);
  r.choice("allocation", c.allocation, kAllocations);
  r.choice("bypass_fetch", c.bypass_fetch, kBypassFetches);
  r.choice("mshr_merge", c.mshr_merge, kMshrMerges);
  r.choice("kernel_end", c.kernel_end, kKernelEnds);
  r.choice("hit_latency_at", c.hit_latency_at, kHitLatencyAts);
  r.choice("bypass_path", c.bypass_path, kBypassPaths);
  r.choice("write_allocate", c.write_allocate, kWriteAllocates);
  r.choice("pipeline", c.pipeline, kPipelines);
  r.choice("carveout", c.carveout, kCarveouts);
  r.u32("unified_bytes", c.unified_bytes, 0, 4u << 20);
  r.u32_list("shared_options_kb", c.shared_options_kb, 0, 4096);
}

void read_l2(Reader& r, L2Config& c) {
  r.u32("size_bytes", c.size_bytes, 1024, 1u << 30);
  r.u32("ways", c.ways, 1, 64);
  r.u32("partitions", c.partitions, 1, 128);
  r.u32("hit_latency", c.hit_latency, 1, kMaxLatency);
  r.pow2("slices_per_partition", c.slices_per_partition, 1, 8);
  r.u32("mshrs", c.mshrs, 1, 4096);
  r.u32("fill_latency", c.fill_latency, 1, kMaxLatency);
  r.u32("read_buffer", c.read_buffer, 0, 4096);
  r.u32("dram_out", c.dram_out, 1, 1024);
  r.choice("fetch", c.fetch, kL2Fetches);
}

void read_noc(Reader& r, NocConfig& c) {
  r.u32("latency", c.latency, 1, kMaxLatency);
  r.pow2("flit_bytes", c.flit_bytes, 8, 256);
  r.u32("flits_per_cycle", c.flits_per_cycle, 1, 16);
  r.u32("header_bytes", c.header_bytes, 0, 256);
  r.u32("src_buffer", c.src_buffer, 1, 1024);
  r.u32("dst_buffer", c.dst_buffer, 1, 1024);
  r.choice("arbiter", c.arbiter, kNocArbiters);
  r.u32("vcs", c.vcs, 1, 16);
  r.u32("input_speedup", c.input_speedup, 1, 16);
  r.u32("internal_speedup", c.internal_speedup, 1, 4);
}

void read_dram(Reader& r, DramConfig& c) {
  r.u32("channels", c.channels, 1, 128);
  r.real("bandwidth_gbps", c.bandwidth_gbps, 0.1, 100000);
  r.u32("latency", c.latency, 1, kMaxLatency);
  r.pow2("banks", c.banks, 1, 64);
  r.pow2("row_bytes", c.row_bytes, 128, 65536);
  r.u32("queue", c.queue, 1, 1024);
  r.real("t_rcd_ns", c.t_rcd_ns, 0, 1000);
  r.real("t_rp_ns", c.t_rp_ns, 0, 1000);
  r.real("t_ras_ns", c.t_ras_ns, 0, 1000);
  r.real("t_rrd_ns", c.t_rrd_ns, 0, 1000);
}

void read_policy(Reader& r, PolicyConfig& p) {
  r.identifier("name", p.name);
  r.choice("replacement", p.replacement, kReplacements);
  r.choice("bypass", p.bypass, kBypasses);
  r.choice("granularity", p.granularity, kGranularities);
  r.boolean("bto", p.bto);
  r.section("dycache", [&](Reader& s) {
    s.u32("sample_requests", p.dycache.sample_requests, 1, 1000000);
    s.u32("threshold_pct", p.dycache.threshold_pct, 1, 99);
    s.boolean("keep_large_pieces", p.dycache.keep_large_pieces);
  });
  r.section("agcb", [&](Reader& s) {
    s.pow2("entries", p.agcb.entries, 2, 65536);
    s.u32("counter_bits", p.agcb.counter_bits, 1, 8);
    s.u32("reset_value", p.agcb.reset_value, 0, 255);  // against counter_bits in check_policy
    s.u32("threshold", p.agcb.threshold, 0, 255);
    s.boolean("l2_verify", p.agcb.l2_verify);
  });
  r.section("two_level", [&](Reader& s) {
    s.u32("window_cycles", p.two_level.window_cycles, 1, 1000000);
    s.u32("bypass_period_cycles", p.two_level.bypass_period_cycles, 1, 1000000);
    s.real("th_low", p.two_level.th_low, 0, 1);
    s.real("th_high", p.two_level.th_high, 0, 1);
    s.real("th_warp", p.two_level.th_warp, 0, 1);
    s.boolean("keep_across_launches", p.two_level.keep_across_launches);
  });
  r.section("pcal", [&](Reader& s) {
    s.boolean("opportunistic", p.pcal.opportunistic);
    s.boolean("keep_across_launches", p.pcal.keep_across_launches);
  });
  r.section("agelru", [&](Reader& s) { s.boolean("keep_across_launches", p.agelru.keep_across_launches); });
  r.section("bip", [&](Reader& s) {
    s.pow2("mru_one_in", p.bip.mru_one_in, 1, 1024);
    s.u32("lfsr_seed", p.bip.lfsr_seed, 1, 65535);
  });
  r.section("dip", [&](Reader& s) {
    s.u32("psel_bits", p.dip.psel_bits, 1, 16);
    s.u32("leader_sets_per_policy", p.dip.leader_sets_per_policy, 1, 15);
  });
  r.section("rpr", [&](Reader& s) {
    s.choice("score", p.rpr.score, kRprScores);
    s.pow2("sample_every", p.rpr.sample_every, 1, 64);  // against the L1's sets in check_rpr
    s.u32("default_rd", p.rpr.default_rd, 0, 15);
    s.u32("default_rc", p.rpr.default_rc, 0, 15);
  });
}

// ---- cross-field rules, checked on the merged result ----

void check_core(const CoreConfig& c, const std::string& file) {
  if (c.schedulers_per_sm > c.warps_per_sm)
    fail(file, "core.schedulers_per_sm",
         fmt::format("value {} out of range (allowed 1..{}: at most warps_per_sm)", c.schedulers_per_sm,
                     c.warps_per_sm));
}

void check_l1(const L1Config& c, const std::string& file) {
  const uint32_t way_bytes = c.ways * 128;
  if (c.size_bytes % way_bytes != 0 || !std::has_single_bit(c.size_bytes / way_bytes))
    fail(file, "l1.size_bytes",
         fmt::format("value {} with ways {} gives {}/({}*128) = {:.4g} sets (allowed: a whole power-of-two "
                     "number of sets)",
                     c.size_bytes, c.ways, c.size_bytes, c.ways, double(c.size_bytes) / way_bytes));
  const uint32_t sets = c.sets();
  const uint32_t set_bits = static_cast<uint32_t>(std::countr_zero(sets));
  // 7 offset bits (128 B line) + the set index + at least one tag bit.
  const uint32_t min_address_bits = 7 + set_bits + 1;
  if (c.address_bits < min_address_bits)
    fail(file, "l1.address_bits",
         fmt::format("value {} out of range for {} sets (allowed {}..64)", c.address_bits, sets,
                     min_address_bits));
  // The chunk-tag holds the low chunk_tag_bits-2 bits of the line tag and the 2-bit chunk index.
  const uint32_t line_tag_bits = c.address_bits - 7 - set_bits;
  const uint32_t max_chunk_tag = std::min<uint32_t>(32, line_tag_bits + 2);
  if (c.chunk_tag_bits > max_chunk_tag)
    fail(
        file, "l1.chunk_tag_bits",
        fmt::format("value {} out of range (allowed 3..{}: chunk_tag_bits-2 must fit in the {} line-tag bits "
                    "of address_bits {} with {} sets)",
                    c.chunk_tag_bits, max_chunk_tag, line_tag_bits, c.address_bits, sets));
  if (c.set_index == SetIndexHash::kFermiXor && sets != 32 && sets != 64)
    fail(file, "l1.set_index",
         fmt::format(
             "value \"fermi_xor\" not allowed with {} sets (allowed only with 32 or 64 sets; use linear)",
             sets));
}

// l1.kernel_end invalidate drops every line at once: only legal when no line can be dirty.
void check_l1_fidelity(const L1Config& c, const std::string& file) {
  // Sector mode (contract section 14): one entry per line merges per sector; a miss fetches only
  // its missing sectors, so there is no line-sized bypass fetch.
  if (c.mshr_merge == MshrMerge::kSector && !c.sector)
    fail(file, "l1.mshr_merge",
         "value \"sector\" not allowed with sector false (MSHRs merge per sector only in a sector cache; "
         "allowed: stall, block, or sector true)");
  // Write allocation keeps written sectors valid without dirty state: a sector cache, written through.
  if (c.write_allocate == WriteAllocate::kLazyFetchOnRead && (!c.sector || c.write_policy != WritePolicy::kWriteThrough))
    fail(file, "l1.write_allocate",
         fmt::format("value \"lazy_fetch_on_read\" not allowed with sector {} and write_policy {} (allowed: none, or "
                     "sector true with write_policy write_through)",
                     c.sector ? "true" : "false", to_string(c.write_policy)));
  if (c.sector && c.bypass_fetch == BypassFetch::kLine)
    fail(file, "l1.bypass_fetch",
         "value \"line\" not allowed with sector true (a sector cache fetches the sectors a miss lacks; "
         "allowed: request)");
  if (c.kernel_end == KernelEndAction::kInvalidate && c.write_policy == WritePolicy::kWriteBack)
    fail(file, "l1.kernel_end",
         "value \"invalidate\" not allowed with write_policy write_back (dirty data would be lost; allowed: flush, "
         "or write_policy write_through / write_evict)");
  // A direct load reads memory without looking at the L1: no L1 line may hold newer data.
  if (c.bypass_path == BypassPath::kDirect && c.write_policy == WritePolicy::kWriteBack)
    fail(file, "l1.bypass_path",
         "value \"direct\" not allowed with write_policy write_back (a direct load would miss dirty L1 data; "
         "allowed: through_l1, or write_policy write_through / write_evict)");
  // The before-tag pipe has hit_latency - 1 stages.
  if (c.hit_latency_at == HitLatencyAt::kBeforeTag && c.hit_latency < 2)
    fail(file, "l1.hit_latency",
         fmt::format("value {} out of range with hit_latency_at before_tag (allowed 2..{}: the pipe before the tag "
                     "lookup has hit_latency - 1 stages)",
                     c.hit_latency, kMaxLatency));
  // The staged pipe's own 4 cycles come off the charged hit latency (contract 16.1); the
  // before-tag pipe keeps at least one stage.
  if (c.pipeline == L1Pipeline::kStaged && c.hit_latency_at != HitLatencyAt::kNone) {
    const uint32_t min = kStagedExtraLatency + (c.hit_latency_at == HitLatencyAt::kBeforeTag ? 2 : 0);
    if (c.hit_latency < min)
      fail(file, "l1.hit_latency",
           fmt::format("value {} out of range with pipeline staged and hit_latency_at {} (allowed {}..{}: the staged "
                       "L1's pipe already takes {} cycles of it)",
                       c.hit_latency, to_string(c.hit_latency_at), min, kMaxLatency, kStagedExtraLatency));
  }
  // A miss that reserves may write back 4 dirty copies and 4 dirty victim slots before its read.
  if (c.allocation == AllocationPolicy::kOnMiss && c.write_policy == WritePolicy::kWriteBack && c.miss_queue_entries < 9)
    fail(file, "l1.miss_queue_entries",
         fmt::format("value {} out of range with allocation on_miss and write_back (allowed 9..256: a reserving "
                     "miss may queue 8 write-backs and its read)",
                     c.miss_queue_entries));
}

// ---- l1.carveout (docs/simulator.md "L1 carveout") ----

// The L1 bytes `left` bytes of the unified array give as a power-of-two number of sets of c.ways
// ways, rounded down (0 when not even one set fits) or up.
uint32_t sets_floor_bytes(const L1Config& c, uint64_t left) {
  const uint64_t way_bytes = uint64_t{c.ways} * 128;
  const uint64_t sets = left / way_bytes;
  return sets == 0 ? 0 : static_cast<uint32_t>(std::bit_floor(sets) * way_bytes);
}
uint32_t sets_ceil_bytes(const L1Config& c, uint64_t left) {
  const uint64_t way_bytes = uint64_t{c.ways} * 128;
  return static_cast<uint32_t>(std::bit_ceil(std::max<uint64_t>(1, (left + way_bytes - 1) / way_bytes)) * way_bytes);
}

void check_shared_options(const L1Config& c, const std::string& file) {
  const auto& o = c.shared_options_kb;
  const std::string shown_list = fmt::format("[{}]", fmt::join(o, ", "));
  for (size_t i = 1; i < o.size(); ++i)
    if (o[i] <= o[i - 1])
      fail(file, "l1.shared_options_kb",
           fmt::format("value {} not allowed (allowed: strictly ascending options; {} follows {})", shown_list, o[i],
                       o[i - 1]));
  if (!o.empty() && c.unified_bytes != 0 && uint64_t{o.back()} * 1024 >= c.unified_bytes)
    fail(file, "l1.shared_options_kb",
         fmt::format("value {} out of range with unified_bytes {} (allowed: options below {} KB)", o.back(),
                     c.unified_bytes, c.unified_bytes / 1024));
}

// Every L1 an adaptive kernel can get must split an address as check_l1 requires of size_bytes.
void check_carveout_geometry(const L1Config& c, const std::string& file) {
  for (const uint32_t kb : c.shared_options_kb) {
    L1Config k = c;
    k.size_bytes = carveout_l1_bytes(c, kb);
    const uint32_t sets = k.sets(), set_bits = static_cast<uint32_t>(std::countr_zero(sets));
    const std::string why = fmt::format("the L1 of shared option {} KB has {} sets", kb, sets);
    if (c.address_bits < 7 + set_bits + 1)
      fail(file, "l1.address_bits",
           fmt::format("value {} out of range with carveout adaptive ({}; allowed {}..64)", c.address_bits, why,
                       7 + set_bits + 1));
    const uint32_t max_chunk_tag = std::min<uint32_t>(32, c.address_bits - 7 - set_bits + 2);
    if (c.chunk_tag_bits > max_chunk_tag)
      fail(file, "l1.chunk_tag_bits",
           fmt::format("value {} out of range with carveout adaptive ({}; allowed 3..{})", c.chunk_tag_bits, why,
                       max_chunk_tag));
    if (c.set_index == SetIndexHash::kFermiXor && sets != 32 && sets != 64)
      fail(file, "l1.set_index",
           fmt::format("value \"fermi_xor\" not allowed with carveout adaptive ({}; the Fermi hash needs 32 or 64; "
                       "allowed: linear)",
                       why));
  }
}

// carveout adaptive: unified_bytes above size_bytes, at least one option, and size_bytes the base
// L1: what the largest option leaves, rounded to a power-of-two number of sets (down, or up, as
// a100's reference base dl1 of 32 KB rounds the 28 KB its 164 KB option leaves).
void check_carveout(const L1Config& c, const std::string& file) {
  check_shared_options(c, file);
  if (c.carveout != Carveout::kAdaptive) return;
  if (c.unified_bytes <= c.size_bytes)
    fail(file, "l1.unified_bytes",
         fmt::format("value {} out of range with carveout adaptive (allowed: more than size_bytes {}, up to {})",
                     c.unified_bytes, c.size_bytes, 4u << 20));
  if (c.shared_options_kb.empty())
    fail(file, "l1.shared_options_kb",
         "value [] not allowed with carveout adaptive (allowed: a list of at least one shared-memory option in KB)");
  const uint64_t left = c.unified_bytes - uint64_t{c.shared_options_kb.back()} * 1024;
  const uint32_t lo = sets_floor_bytes(c, left), hi = sets_ceil_bytes(c, left);
  if (c.size_bytes != lo && c.size_bytes != hi)
    fail(file, "l1.size_bytes",
         fmt::format("value {} not allowed with carveout adaptive (allowed: {}{}: the {} B the largest shared option "
                     "{} KB leaves of unified_bytes {}, as a power-of-two number of sets of {} ways rounded down "
                     "or up)",
                     c.size_bytes, lo == 0 || lo == hi ? "" : std::to_string(lo) + " or ", hi, left,
                     c.shared_options_kb.back(), c.unified_bytes, c.ways));
  check_carveout_geometry(c, file);
}

void check_l2(const L2Config& c, const std::string& file) {
  const uint64_t slice = uint64_t{c.partitions} * c.slices_per_partition * c.ways * 128;
  if (c.size_bytes % slice != 0 || !std::has_single_bit(c.size_bytes / slice))
    fail(file, "l2.size_bytes",
         fmt::format(
             "value {} with partitions {}, slices_per_partition {} and ways {} gives {}/({}*{}*{}*128) = {:.4g} "
             "sets per slice (allowed: a whole power of two)",
             c.size_bytes, c.partitions, c.slices_per_partition, c.ways, c.size_bytes, c.partitions,
             c.slices_per_partition, c.ways, double(c.size_bytes) / double(slice)));
}

// The islip router's fields mean nothing to the fifo crossbar: a value there would be ignored.
void check_noc(const NocConfig& c, const std::string& file) {
  if (c.arbiter == NocArbiter::kIslip) return;
  const std::pair<const char*, uint32_t> fields[] = {
      {"vcs", c.vcs}, {"input_speedup", c.input_speedup}, {"internal_speedup", c.internal_speedup}};
  for (const auto& [key, value] : fields)
    if (value != 1)
      fail(file, fmt::format("noc.{}", key),
           fmt::format("value {} not allowed with noc.arbiter fifo (allowed: 1; other values need noc.arbiter islip)",
                       value));
}

// `prefix` is "policy." inside a preset and "" in a policy file, so the path names the file's key.
void check_policy(const PolicyConfig& p, const std::string& file, const std::string& prefix) {
  const uint32_t counter_max = (1u << p.agcb.counter_bits) - 1;
  const auto check_counter = [&](const char* key, uint32_t v) {
    if (v > counter_max)
      fail(file, prefix + "agcb." + key,
           fmt::format("value {} out of range (allowed 0..{} for counter_bits {})", v, counter_max,
                       p.agcb.counter_bits));
  };
  check_counter("reset_value", p.agcb.reset_value);
  check_counter("threshold", p.agcb.threshold);
  if (p.two_level.th_low > p.two_level.th_high)
    fail(file, prefix + "two_level.th_low",
         fmt::format("value {} out of range (allowed 0..{}: at most th_high)", p.two_level.th_low,
                     p.two_level.th_high));
}

// RPR's sampler needs at least one sampled set (set 0 always is one, but a sample_every larger
// than the set count promises a fraction it cannot give). Checked only when RPR is the policy:
// the default of 4 must not reject the one-set test geometries of the other policies.
void check_rpr(const PolicyConfig& p, const L1Config& l1, const std::string& file, const std::string& prefix) {
  if (p.replacement != ReplacementKind::kRpr) return;
  const uint32_t sets = l1.sets();
  if (p.rpr.sample_every > sets)
    fail(file, prefix + "rpr.sample_every",
         fmt::format("value {} out of range (allowed 1..{}: at most the L1's {} sets)", p.rpr.sample_every, sets,
                     sets));
}

void check_sector(const PolicyConfig& p, const L1Config& l1, const std::string& file, const std::string& prefix) {
  if (const std::string why = sector_policy_conflict(p, l1); !why.empty()) fail(file, prefix + "granularity", why);
}

// ---- files ----

YAML::Node parse_file(const fs::path& file) {
  const std::string name = file.string();
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    fail(name, "file", fs::exists(file, ec) ? "not a regular file" : "no such file");
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) fail(name, "file", "cannot be read");
  try {
    YAML::Node doc = YAML::Load(text.str());
    if (!doc.IsMap())
      fail(name, "top level",
           "expected a mapping, got " + (doc.IsNull() ? "an empty document" : describe(doc)));
    return doc;
  } catch (const YAML::Exception& e) {
    std::string msg = e.msg;
    std::replace(msg.begin(), msg.end(), '\n', ' ');
    if (e.mark.is_null()) fail(name, "YAML syntax", msg);
    fail(name, fmt::format("line {}, column {}", e.mark.line + 1, e.mark.column + 1),
         "YAML syntax error: " + msg);
  }
}

std::vector<std::string> yaml_stems(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file(ec) && entry.path().extension() == ".yaml")
      names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

// <dir>/<name>.yaml, provided `name` is one of the files there (so "../x" cannot escape dir).
fs::path find_named(const fs::path& dir, const std::string& name, const char* what) {
  const std::vector<std::string> names = yaml_stems(dir);
  const fs::path file = dir / (name + ".yaml");
  if (std::find(names.begin(), names.end(), name) == names.end())
    fail(file.string(), what,
         fmt::format("{} not found (available: {})", shown(name),
                     names.empty() ? "none in " + dir.string() : join(names)));
  return file;
}

// The top level of the preset schema.
void read_config(Reader& top, Config& c) {
  top.identifier("name", c.name);
  top.u64("seed", c.seed, 0, std::numeric_limits<uint64_t>::max());
  top.section("core", [&](Reader& r) { read_core(r, c.core); });
  top.section("l1", [&](Reader& r) { read_l1(r, c.l1); });
  top.section("l2", [&](Reader& r) { read_l2(r, c.l2); });
  top.section("noc", [&](Reader& r) { read_noc(r, c.noc); });
  top.section("dram", [&](Reader& r) { read_dram(r, c.dram); });
  top.section("policy", [&](Reader& r) { read_policy(r, c.policy); });
}

}  // namespace

namespace {

// A file may start from a preset (`base: NAME`, a file of configs/) and set only what differs:
// "gtx480 with the staged pipe" stays gtx480 in every other field when gtx480.yaml changes.
constexpr int kMaxBaseDepth = 8;

Config load_config_file_at(const fs::path& file, int depth) {
  const std::string name = file.string();
  const YAML::Node doc = parse_file(file);
  std::vector<std::string> found;
  Reader top(doc, name, "", {&found, nullptr});
  std::string base;
  top.identifier("base", base);
  Config c;
  if (!base.empty()) {
    if (depth >= kMaxBaseDepth)
      fail(name, "base", fmt::format("value {} not allowed: more than {} files deep (a cycle of bases?)",
                                     shown(base), kMaxBaseDepth));
    c = load_config_file_at(find_named(config_dir(), base, "base preset"), depth + 1);
  }
  c.name = file.stem().string();
  c.source = base.empty() ? name : name + " (base " + c.source + ")";
  read_config(top, c);
  top.finish();
  check_core(c.core, name);
  check_l1(c.l1, name);
  check_l1_fidelity(c.l1, name);
  check_carveout(c.l1, name);
  check_l2(c.l2, name);
  check_noc(c.noc, name);
  check_policy(c.policy, name, "policy.");
  check_rpr(c.policy, c.l1, name, "policy.");
  check_sector(c.policy, c.l1, name, "policy.");
  for (std::string& path : found)
    if (path != "base") c.set_by.emplace_back(std::move(path), name);
  return c;
}

}  // namespace

Config load_config_file(const fs::path& file) { return load_config_file_at(file, 0); }

std::vector<ConfigField> describe_config(const Config& cfg) {
  Config copy = cfg;
  std::vector<ConfigField> fields;
  const std::string none;
  Reader top(YAML::Node(YAML::NodeType::Map), none, "", {nullptr, &fields});
  read_config(top, copy);
  for (ConfigField& f : fields)
    for (const auto& [path, file] : cfg.set_by)  // the last file to set a field wins
      if (path == f.path) f.source = file;
  return fields;
}

void apply_policy_file(Config& cfg, const fs::path& file) {
  const std::string name = file.string();
  const YAML::Node doc = parse_file(file);
  // Work on a copy so that a bad file leaves cfg untouched.
  PolicyConfig p = cfg.policy;
  p.name = file.stem().string();
  std::vector<std::string> found;
  Reader top(doc, name, "", {&found, nullptr});
  read_policy(top, p);
  top.finish();
  check_policy(p, name, "");
  check_rpr(p, cfg.l1, name, "");
  check_sector(p, cfg.l1, name, "");
  cfg.policy = p;
  cfg.source += " + " + name;
  for (const std::string& path : found) cfg.set_by.emplace_back("policy." + path, name);
}

fs::path config_dir() {
  if (const char* env = std::getenv("L1D_CONFIG_DIR"); env != nullptr && *env != '\0') return env;
#ifndef PROJECT_SOURCE_DIR
#error "PROJECT_SOURCE_DIR must be defined (CMake does it; by hand: -DPROJECT_SOURCE_DIR=\"/path/to/repo\")"
#endif
  return fs::path(PROJECT_SOURCE_DIR) / "configs";
}

Config load_preset(const std::string& name) {
  return load_config_file(find_named(config_dir(), name, "preset"));
}

void apply_policy_preset(Config& cfg, const std::string& name) {
  apply_policy_file(cfg, find_named(config_dir() / "policies", name, "policy preset"));
}

std::vector<std::string> list_presets() { return yaml_stems(config_dir()); }
std::vector<std::string> list_policy_presets() { return yaml_stems(config_dir() / "policies"); }

std::string to_string(ReplacementKind k) { return spelling(kReplacements, k); }
std::string to_string(BypassKind k) { return spelling(kBypasses, k); }
std::string to_string(GranularityKind k) { return spelling(kGranularities, k); }
std::string to_string(RprScore s) { return spelling(kRprScores, s); }
std::string to_string(NocArbiter a) { return spelling(kNocArbiters, a); }
std::string to_string(L2Fetch f) { return spelling(kL2Fetches, f); }
std::string to_string(CoalescerKind k) { return spelling(kCoalescers, k); }
std::string to_string(LoadWait w) { return spelling(kLoadWaits, w); }
std::string to_string(FetchModel f) { return spelling(kFetchModels, f); }
std::string sector_policy_conflict(const PolicyConfig& p, const L1Config& l1) {
  if (!l1.sector || p.granularity == GranularityKind::kFixed128) return "";
  return fmt::format("value \"{}\" not allowed with l1.sector true (a sector line keeps sector i in slot i; "
                     "DyCache's granularities place a chunk at any slot; allowed: fixed128)",
                     spelling(kGranularities, p.granularity));
}

uint32_t carveout_l1_bytes(const L1Config& c, uint32_t shared_kb) {
  const uint64_t unified = c.unified_bytes, shared = uint64_t{shared_kb} * 1024;
  return std::max(c.size_bytes, sets_floor_bytes(c, unified > shared ? unified - shared : 0));
}

uint32_t largest_l1_sets(const L1Config& c) {
  if (c.carveout == Carveout::kFixed || c.shared_options_kb.empty()) return c.sets();
  return carveout_l1_bytes(c, c.shared_options_kb.front()) / (c.ways * 128);
}

std::optional<CarveoutChoice> choose_carveout(const L1Config& c, uint64_t shared_bytes) {
  if (c.carveout == Carveout::kFixed) return CarveoutChoice{0, c.size_bytes};
  for (const uint32_t kb : c.shared_options_kb)
    if (shared_bytes <= uint64_t{kb} * 1024) return CarveoutChoice{kb, carveout_l1_bytes(c, kb)};
  return std::nullopt;
}

uint32_t charged_hit_latency(const L1Config& c) {
  if (c.hit_latency_at == HitLatencyAt::kNone) return 0;
  return c.pipeline == L1Pipeline::kStaged ? c.hit_latency - kStagedExtraLatency : c.hit_latency;
}

std::string rtl_unsupported_l1_option(const L1Config& c) {
  // l1.pipeline is not here: l1d_top is generated for either pipe (contract 16), and a build has
  // a model per pipe it verilated (sim_cpp/verilated/verilated_l1.cmake).
  // l1.hit_latency_at is not here either: every value is the LDST unit's (contract 13.5). before_tag's
  // pipe presents its head on the L1's core port until the port takes it, and holds back the
  // kernel-end and warp-exit events (sim_cpp/core/sm.cpp); the L1 sees ordinary valid/ready traffic.
  // sector: the single-cycle l1d_top's cfg_sector_i (contract 14): on_fill or on_miss (cfg_alloc_i,
  // without dirty state, below), merging stall, block or sector (cfg_merge_i; the last two without
  // dirty state, below) and write_allocate lazy_fetch_on_read (a written bit per slot, generated for such
  // a configuration: gen/blocks/block.h rtl_written_state; the loader allows it only with sector true and
  // write_through). mshr_merge sector needs sector true (the loader refuses it without).
  // The staged l1d_top runs sector mode generated for it (contract 16.5, "Sector mode"), with on_fill
  // or on_miss and merging stall or sector (below), and write allocation generated for it with
  // on_miss (16.5, "Write allocation": its written bits in l1d_line_state's flops; the store's new line
  // comes from the placement unit the on_miss reservation wires to M2's core request).
  if (c.write_allocate != WriteAllocate::kNone && c.pipeline == L1Pipeline::kStaged &&
      c.allocation != AllocationPolicy::kOnMiss)
    return "l1.write_allocate: " + to_string(c.write_allocate) + " with l1.pipeline: staged and l1.allocation: " +
           to_string(c.allocation);
  // carveout adaptive is not here: both l1d_tops take cfg_set_bits_i over arrays of the largest L1's
  // sets (contract 15; the staged pipe's 16.5, "Carveout adaptive on the staged pipe").
  // l1.mshr_entries is not here either: 1..256 (the 8-bit MSHR id, gen/blocks/l1d_mshr_doc.cpp) generate
  // on both pipes; the staged pipe's per-entry registers are generate blocks above 64 entries
  // (gen/blocks/entry_ff.h, the SV subset's reset-loop-64), so qv100-accelsim's 256 run staged too. What
  // the rule still refuses is a miss queue of more than 64 entries, at dcgen (no preset has one).
  // on_miss and block: the single-cycle l1d_top's cfg_alloc_i and cfg_merge_i, without dirty state (it
  // queues no write-back of a reserved victim or of a widening read's copies; contract 13.1, 13.3).
  // The staged l1d_top runs on_miss generated for it (contract 16.5, "Allocation on miss"), as a line
  // cache and in sector mode with merging stall ("In sector mode") or sector ("With merging by
  // sector"); block in sector mode is refused below.
  if (c.allocation != AllocationPolicy::kOnFill && c.write_policy == WritePolicy::kWriteBack)
    return "l1.allocation: " + to_string(c.allocation) + " with l1.write_policy: write_back";
  // The staged l1d_top runs block generated for it (contract 16.5, "Merging by line"), as a line cache
  // only, and sector merging (sector mode's) generated for it ("Merging by sector").
  if (c.mshr_merge == MshrMerge::kBlock && c.pipeline == L1Pipeline::kStaged && c.sector)
    return "l1.mshr_merge: block with l1.pipeline: staged and l1.sector: true";
  if (c.mshr_merge != MshrMerge::kStall && c.write_policy == WritePolicy::kWriteBack)
    return "l1.mshr_merge: " + to_string(c.mshr_merge) + " with l1.write_policy: write_back";
  // direct: the single-cycle l1d_top answers the LDST unit's B-mode and store-pending questions
  // (two_level_bypass_o, store_pending_o; contract 13.6). The staged l1d_top answers them when
  // generated for direct (contract 16.5, "The direct path": its store query also searches l1d_issue's
  // FIFOs, T, M1, M2, C and D), in sector mode too.
  return "";
}

std::string to_string(WritePolicy w) { return spelling(kWritePolicies, w); }
std::string to_string(AllocationPolicy a) { return spelling(kAllocations, a); }
std::string to_string(BypassFetch b) { return spelling(kBypassFetches, b); }
std::string to_string(MshrMerge m) { return spelling(kMshrMerges, m); }
std::string to_string(KernelEndAction k) { return spelling(kKernelEnds, k); }
std::string to_string(L1Pipeline p) { return spelling(kPipelines, p); }
std::string to_string(HitLatencyAt h) { return spelling(kHitLatencyAts, h); }
std::string to_string(BypassPath b) { return spelling(kBypassPaths, b); }
std::string to_string(WriteAllocate w) { return spelling(kWriteAllocates, w); }
std::string to_string(Carveout c) { return spelling(kCarveouts, c); }


}  // namespace l1d
