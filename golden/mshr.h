// MSHR file (microarchitecture doc section 5): entries of one 128 B memory line's sectors,
// each merging up to max_merge requests and buffering the fill data.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "common/types.h"
#include "common/flat_map.h"

namespace l1d::golden {

// kAgeLru: AgeLRU bypassing decided at the miss (l1.allocation on_miss; on_fill decides at the fill).
enum class BypassReason : uint8_t { kNone, kAgcb, kTwoLevel, kPcal, kAgeLru };

struct MshrRequest {
  uint32_t id = 0;
  uint8_t warp = 0;
  ByteMask byte_mask;
};

// 192 bytes, aligned to a host cache line: the fields a probe, a merge and the fill read (all but
// the data) are the first 64 bytes, so a probe of an entry reads one host line (at 208 bytes
// unaligned it read two; docs/performance.md, sixteenth round). Only the order changed.
struct alignas(64) MshrEntry {
  bool valid = false;
  Addr line_addr = 0;      // 128 B aligned memory line
  SectorMask sectors = 0;  // what the reads fetch (l1.mshr_merge block may widen it)
  SectorMask place = 0;    // the block the fill places (the first read's sectors)
  SectorMask arrived = 0;  // sectors whose data has come back
  // l1.sector: sectors a merged load found valid, copied from the array into `data` when it
  // joined (never fetched, never placed; stores to them wait: contract section 14).
  SectorMask buffered = 0;
  uint8_t reads = 1;       // memory reads in flight for this entry
  // l1.allocation on_miss: a way was reserved at the miss, reserved_way and its first slot
  // reserved_pos (section 13.1).
  bool reserved = false;
  BypassReason bypass = BypassReason::kNone;
  uint8_t awid = 0;  // requester's AWID (and hpc, token: of the first request)
  uint32_t reserved_way = 0, reserved_pos = 0;
  uint32_t hpc = 0;
  bool token = true;
  // Filled by the memory response (with data).
  bool filled = false;
  bool l2_bypass_bit = false;
  std::vector<MshrRequest> requests;
  LineData data{};
};
static_assert(sizeof(MshrEntry) == 192);

enum class MshrProbe : uint8_t { kNone, kMerge, kMergeFull, kConflict };

struct MshrProbeResult {
  MshrProbe kind = MshrProbe::kNone;
  uint32_t entry = 0;  // kMerge / kMergeFull
};

class Mshr {
 public:
  Mshr(uint32_t entries, uint32_t max_merge);

  // A load: merge if an entry of the line holds (fetches or buffers) every `needed` sector;
  // conflict if an entry of the line fetches a sector of `fetch`.
  MshrProbeResult probe_load(Addr line_addr, SectorMask needed, SectorMask fetch) const;
  // A store: conflict if an entry of the line fetches or buffers one of its sectors.
  bool store_conflicts(Addr line_addr, SectorMask sectors) const;
  // The entry of a line (l1.mshr_merge block keeps at most one per line).
  std::optional<uint32_t> find_line(Addr line_addr) const;
  // l1.allocation on_miss: the way an entry of the line reserved, if one did.
  std::optional<uint32_t> reserved_way(Addr line_addr) const;

  std::optional<uint32_t> free_entry() const;  // lowest free index
  // Entry i (free) becomes a valid entry of `line_addr`, its other fields as MshrEntry{}.
  MshrEntry& allocate(uint32_t i, Addr line_addr);
  MshrEntry& entry(uint32_t i) { return entries_.at(i); }
  const MshrEntry& entry(uint32_t i) const { return entries_.at(i); }
  // Entry i becomes free (valid false; its other fields are stale until allocate() resets them).
  void release(uint32_t i);
  // Puts an entry back to MshrEntry{}, keeping its request list's storage (no allocation per miss).
  static void reset(MshrEntry& e) {
    std::vector<MshrRequest> requests = std::move(e.requests);
    requests.clear();
    e = MshrEntry{};
    e.requests = std::move(requests);
  }

  uint32_t size() const { return static_cast<uint32_t>(entries_.size()); }
  uint32_t max_merge() const { return max_merge_; }
  uint32_t in_use() const { return in_use_; }
  // Throws std::logic_error if the line index disagrees with the entries.
  void check_index() const;

 private:
  // Line addresses are 128 B aligned, so all-ones marks a free entry.
  static constexpr Addr kFree = ~Addr{0};
  static constexpr uint32_t kMaxEntries = 256;  // the 8-bit MSHR id
  using EntrySet = std::array<uint64_t, kMaxEntries / 64>;
  struct LineHash {
    size_t operator()(Addr a) const { return mix64(a); }
  };
  template <typename F>  // f(i) for each entry of line_addr, lowest first, until f returns true
  bool any_of_line(Addr line_addr, F&& f) const;

  std::vector<MshrEntry> entries_;
  std::vector<Addr> line_;  // the entries' line addresses (kFree when free)
  EntrySet used_{};         // bit i: entry i is valid (free_entry takes the lowest clear bit)
  // The entries of each line in flight: a probe reads only those (docs/performance.md).
  FlatMap<Addr, EntrySet, LineHash> by_line_;
  uint32_t in_use_ = 0;
  uint32_t max_merge_;
};

}  // namespace l1d::golden
