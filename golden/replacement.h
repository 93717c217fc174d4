// Replacement policies (DESIGN.md "Policies are plug-ins"). A policy owns its per-set state
// and is told about every demand access, hit, miss and fill through explicit hooks that are
// always called (no optional hooks: a forgotten one is how SHiP/DRRIP silently became SRRIP in
// ChampSim). The hooks carry the request's AccessInfo whether or not the policy reads it.
//
// Shared state encoding (the RTL uses the same): per set, a recency rank per way,
// 0 = most recently used ... ways-1 = least recently used; the ranks of a set are always a
// permutation of 0..ways-1; reset gives way w rank w.
#pragma once

#include <bitset>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/config.h"
#include "golden/agelru_counters.h"
#include "golden/line_aligned.h"
#include "golden/rpr_history.h"
#include "golden/rpr_sampler.h"

namespace l1d::golden {

inline constexpr uint32_t kMaxWays = 64;
using WayMask = std::bitset<kMaxWays>;

// What a victim choice may look at besides the policy's own state.
struct VictimContext {
  WayMask eligible;                      // ways the allocation filter allows (never empty)
  const uint8_t* awid = nullptr;         // per way: AWID of the warp that filled it
  const AgeLruCounters* ages = nullptr;  // AgeLRU only
  bool age_filter = true;                // AgeLRU: false = plain LRU (Dynamic-AgeLRU voting)
};

// Who is asking, for the hooks below: RPR builds its signature from these (SPEC 9); the other
// policies ignore them. The L1 fills both in on every call.
struct AccessInfo {
  uint32_t hpc = 0;     // AGCB hashed PC (AgcbPredictor::hash) of the request, or at a fill of the
                        // MSHR entry's first request
  uint8_t rel_age = 0;  // AgeLRU relative age of that request's warp now (0 = the oldest warp)
};

class ReplacementPolicy {
 public:
  ReplacementPolicy(uint32_t sets, uint32_t ways);
  virtual ~ReplacementPolicy() = default;
  virtual std::string name() const = 0;

  // A demand access to set was accepted: every load or store lookup that completes (hit, MSHR
  // merge or miss; not a cycle that failed for resources). Called before that access's on_hit
  // or on_miss (RPR counts set accesses for its reuse distances here).
  virtual void on_access(uint32_t set) = 0;
  // A demand hit (load or store) on (set, way).
  virtual void on_hit(uint32_t set, uint32_t way, const AccessInfo& info) = 0;
  // A load miss that allocated an MSHR entry in set (before any fill; DIP's set dueling counts
  // these). Merges and store misses are not misses in this sense.
  virtual void on_miss(uint32_t set, const AccessInfo& info) = 0;
  // A block was filled into (set, way); info is the MSHR entry's requester.
  virtual void on_fill(uint32_t set, uint32_t way, const AccessInfo& info) = 0;
  // A valid victim among ctx.eligible (the L1 takes invalid ways before asking).
  virtual uint32_t victim(uint32_t set, const VictimContext& ctx) const = 0;

  uint32_t rank(uint32_t set, uint32_t way) const { return ranks_[set * ways_ + way]; }
  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }

 protected:
  void promote(uint32_t set, uint32_t way);  // to rank 0 (MRU)
  void demote(uint32_t set, uint32_t way);   // to rank ways-1 (LRU)
  // The eligible way with the largest rank among `among`.
  uint32_t lru_of(uint32_t set, const WayMask& among) const;

  uint32_t sets_, ways_;
  LineAlignedVector<uint8_t> ranks_;  // a promote reads and writes the set's ranks whole
};

// 16-bit Galois LFSR (taps 0xB400) used by BIP and DIP; the RTL has the same one.
class Lfsr16 {
 public:
  explicit Lfsr16(uint16_t seed) : state_(seed ? seed : 1) {}
  uint16_t next();  // advances one step, returns the new state
  uint16_t state() const { return state_; }

 private:
  uint16_t state_;
};

// Registry: one explicit kind -> (name, factory) table in replacement.cpp; configs pick one.
// (No static self-registration: the golden static library would drop unreferenced objects.)
using ReplacementFactory =
    std::function<std::unique_ptr<ReplacementPolicy>(uint32_t sets, uint32_t ways, const PolicyConfig&)>;
std::unique_ptr<ReplacementPolicy> make_replacement(ReplacementKind kind, uint32_t sets, uint32_t ways,
                                                    const PolicyConfig& cfg);
std::vector<std::string> replacement_names();

// The policies, one .cpp each. Declared here so that the registry and tests can name them.

// LRU: hits and fills go to MRU; the victim is the least recently used eligible way.
class LruPolicy final : public ReplacementPolicy {
 public:
  using ReplacementPolicy::ReplacementPolicy;
  std::string name() const override;
  void on_access(uint32_t set) override;
  void on_hit(uint32_t set, uint32_t way, const AccessInfo& info) override;
  void on_miss(uint32_t set, const AccessInfo& info) override;
  void on_fill(uint32_t set, uint32_t way, const AccessInfo& info) override;
  uint32_t victim(uint32_t set, const VictimContext& ctx) const override;
};

// FIFO: only fills reorder, so ranks are insertion order and hits change nothing.
class FifoPolicy final : public ReplacementPolicy {
 public:
  using ReplacementPolicy::ReplacementPolicy;
  std::string name() const override;
  void on_access(uint32_t set) override;
  void on_hit(uint32_t set, uint32_t way, const AccessInfo& info) override;
  void on_miss(uint32_t set, const AccessInfo& info) override;
  void on_fill(uint32_t set, uint32_t way, const AccessInfo& info) override;
  uint32_t victim(uint32_t set, const VictimContext& ctx) const override;
};

// BIP's insertion coin: one LFSR step per decision; MRU when the low log2(mru_one_in) bits
// are all zero. Shared by BIP and DIP so both make the same choice as the RTL.
class BipInsertion {
 public:
  // Throws std::invalid_argument unless mru_one_in is a power of two and lfsr_seed fits 16 bits.
  explicit BipInsertion(const BipConfig& cfg);
  bool next_goes_to_mru();
  uint16_t lfsr_state() const { return lfsr_.state(); }

 private:
  uint16_t mask_;
  Lfsr16 lfsr_;
};

// BIP: hits go to MRU; fills go to LRU except 1 in mru_one_in (LFSR-chosen) that go to MRU.
class BipPolicy final : public ReplacementPolicy {
 public:
  BipPolicy(uint32_t sets, uint32_t ways, const BipConfig& cfg);
  std::string name() const override;
  void on_access(uint32_t set) override;
  void on_hit(uint32_t set, uint32_t way, const AccessInfo& info) override;
  void on_miss(uint32_t set, const AccessInfo& info) override;
  void on_fill(uint32_t set, uint32_t way, const AccessInfo& info) override;
  uint32_t victim(uint32_t set, const VictimContext& ctx) const override;

 private:
  BipInsertion insertion_;
};

// DIP: set dueling between LRU and BIP insertion with a saturating PSEL counter.
class DipPolicy final : public ReplacementPolicy {
 public:
  enum class Role : uint8_t { kLruLeader, kBipLeader, kFollower };
  // Throws std::invalid_argument for psel_bits outside 1..16 or leader_sets_per_policy > 16.
  DipPolicy(uint32_t sets, uint32_t ways, const DipConfig& dip, const BipConfig& bip);
  std::string name() const override;
  void on_access(uint32_t set) override;
  void on_hit(uint32_t set, uint32_t way, const AccessInfo& info) override;
  void on_miss(uint32_t set, const AccessInfo& info) override;
  void on_fill(uint32_t set, uint32_t way, const AccessInfo& info) override;
  uint32_t victim(uint32_t set, const VictimContext& ctx) const override;

  Role role(uint32_t set) const;
  uint32_t psel() const { return psel_; }
  uint32_t psel_midpoint() const { return psel_mid_; }
  uint32_t psel_max() const { return psel_max_; }

 private:
  uint32_t leaders_;
  uint32_t psel_mid_, psel_max_, psel_;
  BipInsertion insertion_;
};

// AgeLRU (SPEC section 8): LRU ranks; the victim is an inactive warp's line, else the LRU
// line among those of the youngest warp. Needs ctx.awid and ctx.ages (std::logic_error if not).
class AgeLruPolicy final : public ReplacementPolicy {
 public:
  using ReplacementPolicy::ReplacementPolicy;
  std::string name() const override;
  void on_access(uint32_t set) override;
  void on_hit(uint32_t set, uint32_t way, const AccessInfo& info) override;
  void on_miss(uint32_t set, const AccessInfo& info) override;
  void on_fill(uint32_t set, uint32_t way, const AccessInfo& info) override;
  uint32_t victim(uint32_t set, const VictimContext& ctx) const override;
};

// RPR (SPEC 9, dissertation ch. 6; golden model and simulator only, the RTL has none): per line
// a predicted reuse distance RD and reuse count RC, set at the fill from a reuse-history table
// that a sampler trains. Victim: a dead line (inactive warp, or RC 0 except in the age score) by
// LRU, else the lowest score (reuse_distance 256 - RD, counter 256 + RC, age 256 - relative age),
// ties by LRU. LRU ranks move as in LRU. docs/l1d-microarchitecture.md section 12 has the details.
// Needs ctx.awid and ctx.ages (std::logic_error if not).
class RprPolicy final : public ReplacementPolicy {
 public:
  // Throws std::invalid_argument for a sample_every that is not a power of two in 1..64 or
  // exceeds the sets, or a default_rd / default_rc above 15.
  RprPolicy(uint32_t sets, uint32_t ways, const RprConfig& cfg);
  std::string name() const override;
  void on_access(uint32_t set) override;
  void on_hit(uint32_t set, uint32_t way, const AccessInfo& info) override;
  void on_miss(uint32_t set, const AccessInfo& info) override;
  void on_fill(uint32_t set, uint32_t way, const AccessInfo& info) override;
  uint32_t victim(uint32_t set, const VictimContext& ctx) const override;

  // The score of a line (lower is evicted first), as the configured mode computes it.
  static uint32_t score(RprScore mode, uint32_t rd, uint32_t rc, uint32_t relative_age);

  uint32_t line_rd(uint32_t set, uint32_t way) const { return rd_.at(set * ways_ + way); }
  uint32_t line_rc(uint32_t set, uint32_t way) const { return rc_.at(set * ways_ + way); }
  const RprHistoryTable& history() const { return history_; }
  const RprSampler& sampler() const { return sampler_; }

 private:
  RprConfig cfg_;
  RprHistoryTable history_;
  RprSampler sampler_;
  std::vector<uint8_t> rd_, rc_;  // per (set, way): 4-bit predicted reuse distance and count
};

}  // namespace l1d::golden
