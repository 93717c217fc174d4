// Shared recency-rank state, the LFSR, and the policy registry.
#include "golden/replacement.h"

#include <bit>
#include <cstring>
#include <stdexcept>

namespace l1d::golden {

ReplacementPolicy::ReplacementPolicy(uint32_t sets, uint32_t ways) : sets_(sets), ways_(ways) {
  // Ranks are stored in uint8_t and way masks are kMaxWays wide.
  if (sets == 0) throw std::invalid_argument("replacement: sets must be at least 1");
  if (ways == 0 || ways > kMaxWays) {
    throw std::invalid_argument("replacement: ways must be in 1.." + std::to_string(kMaxWays) + ", got " +
                                std::to_string(ways));
  }
  ranks_.resize(static_cast<size_t>(sets) * ways);
  for (uint32_t s = 0; s < sets; ++s) {
    for (uint32_t w = 0; w < ways; ++w) ranks_[s * ways + w] = static_cast<uint8_t>(w);
  }
}

namespace {

void check_index(uint32_t set, uint32_t way, uint32_t sets, uint32_t ways) {
  if (set >= sets || way >= ways) {
    throw std::out_of_range("replacement: (set " + std::to_string(set) + ", way " + std::to_string(way) +
                            ") outside " + std::to_string(sets) + "x" + std::to_string(ways));
  }
}

}  // namespace

void ReplacementPolicy::promote(uint32_t set, uint32_t way) {
  check_index(set, way, sets_, ways_);
  uint8_t* r = &ranks_[set * ways_];
  const uint8_t old = r[way];
  // Ways that were more recent than `way` age by one; the permutation is preserved. Written as a
  // store to every way so that the compiler vectorises it (64 ways on qv100). The bound is a
  // local: a store through uint8_t* may alias ways_, so a loop on the member re-read it every
  // iteration and was not vectorised (one byte per iteration, about 600 instructions a call).
  const uint32_t n = ways_;
  for (uint32_t w = 0; w < n; ++w) r[w] = static_cast<uint8_t>(r[w] + (r[w] < old));
  r[way] = 0;
}

void ReplacementPolicy::demote(uint32_t set, uint32_t way) {
  check_index(set, way, sets_, ways_);
  uint8_t* r = &ranks_[set * ways_];
  const uint8_t old = r[way];
  // Ways that were less recent than `way` move up by one to close the gap it leaves (local
  // bound: see promote).
  const uint32_t n = ways_;
  for (uint32_t w = 0; w < n; ++w) r[w] = static_cast<uint8_t>(r[w] - (r[w] > old));
  r[way] = static_cast<uint8_t>(ways_ - 1);
}

uint32_t ReplacementPolicy::lru_of(uint32_t set, const WayMask& among) const {
  check_index(set, 0, sets_, ways_);
  const uint8_t* r = &ranks_[size_t{set} * ways_];
  uint32_t best = ways_;
  // Only the ways of `among`, lowest first (ranks are a permutation: no ties).
  const uint64_t in_set = ways_ == 64 ? ~uint64_t{0} : (uint64_t{1} << ways_) - 1;
  // Every way eligible (no reservation, no filter): the LRU way is the one ranked ways - 1, found
  // by memchr's vector compare instead of a walk of 48-64 ranks (lru_of was 3-5 % of the sector
  // presets' small runs; docs/performance.md). A missing rank (never, check_invariants checks the
  // permutation) falls through to the walk.
  if ((among.to_ullong() & in_set) == in_set)
    if (const void* p = std::memchr(r, static_cast<int>(ways_ - 1), ways_))
      return static_cast<uint32_t>(static_cast<const uint8_t*>(p) - r);
  for (uint64_t m = among.to_ullong() & in_set; m; m &= m - 1) {
    const auto w = static_cast<uint32_t>(std::countr_zero(m));
    if (best == ways_ || r[w] > r[best]) best = w;
  }
  // The L1 guarantees a non-empty eligible mask (its filters have fallbacks, SPEC section 3);
  // an empty one is a caller bug, not a bypass request.
  if (best == ways_) throw std::logic_error("replacement: no eligible way in set " + std::to_string(set));
  return best;
}

uint16_t Lfsr16::next() {
  // Galois form, shifting right: the bit shifted out feeds back through the taps.
  const bool out = (state_ & 1u) != 0;
  state_ = static_cast<uint16_t>(state_ >> 1);
  if (out) state_ = static_cast<uint16_t>(state_ ^ 0xB400u);
  return state_;
}

namespace {

struct RegistryEntry {
  ReplacementKind kind;
  const char* name;
  ReplacementFactory make;
};

// The one place that knows every policy. Adding a policy = one class + one row here.
const std::vector<RegistryEntry>& registry() {
  static const std::vector<RegistryEntry> table = {
      {ReplacementKind::kLru, "lru",
       [](uint32_t s, uint32_t w, const PolicyConfig&) { return std::make_unique<LruPolicy>(s, w); }},
      {ReplacementKind::kFifo, "fifo",
       [](uint32_t s, uint32_t w, const PolicyConfig&) { return std::make_unique<FifoPolicy>(s, w); }},
      {ReplacementKind::kBip, "bip",
       [](uint32_t s, uint32_t w, const PolicyConfig& c) { return std::make_unique<BipPolicy>(s, w, c.bip); }},
      {ReplacementKind::kDip, "dip",
       [](uint32_t s, uint32_t w, const PolicyConfig& c) {
         return std::make_unique<DipPolicy>(s, w, c.dip, c.bip);
       }},
      {ReplacementKind::kAgeLru, "agelru",
       [](uint32_t s, uint32_t w, const PolicyConfig&) { return std::make_unique<AgeLruPolicy>(s, w); }},
      {ReplacementKind::kRpr, "rpr",
       [](uint32_t s, uint32_t w, const PolicyConfig& c) { return std::make_unique<RprPolicy>(s, w, c.rpr); }},
  };
  return table;
}

}  // namespace

std::unique_ptr<ReplacementPolicy> make_replacement(ReplacementKind kind, uint32_t sets, uint32_t ways,
                                                    const PolicyConfig& cfg) {
  for (const RegistryEntry& e : registry()) {
    if (e.kind == kind) return e.make(sets, ways, cfg);
  }
  throw std::invalid_argument("replacement: no policy registered for kind " +
                              std::to_string(static_cast<unsigned>(kind)));
}

std::vector<std::string> replacement_names() {
  std::vector<std::string> names;
  for (const RegistryEntry& e : registry()) names.emplace_back(e.name);
  return names;
}

}  // namespace l1d::golden
