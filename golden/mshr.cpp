#include "golden/mshr.h"

namespace l1d::golden {

Mshr::Mshr(uint32_t entries, uint32_t max_merge) : entries_(entries), max_merge_(max_merge) {}

MshrProbeResult Mshr::probe_load(Addr line_addr, SectorMask needed, SectorMask fetch) const {
  // One pass: the lowest entry that can merge wins; otherwise any overlap is a conflict.
  bool conflict = false;
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    const MshrEntry& e = entries_[i];
    if (!e.valid || e.line_addr != line_addr) continue;
    if ((needed & ~e.sectors) == 0)
      return {e.requests.size() < max_merge_ ? MshrProbe::kMerge : MshrProbe::kMergeFull, i};
    conflict |= (e.sectors & fetch) != 0;
  }
  if (conflict) return {MshrProbe::kConflict, 0};
  return {};
}

bool Mshr::store_conflicts(Addr line_addr, SectorMask sectors) const {
  for (const MshrEntry& e : entries_)
    if (e.valid && e.line_addr == line_addr && (e.sectors & sectors)) return true;
  return false;
}

std::optional<uint32_t> Mshr::find_line(Addr line_addr) const {
  for (uint32_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].valid && entries_[i].line_addr == line_addr) return i;
  return std::nullopt;
}

std::optional<uint32_t> Mshr::free_entry() const {
  for (uint32_t i = 0; i < entries_.size(); ++i)
    if (!entries_[i].valid) return i;
  return std::nullopt;
}

uint32_t Mshr::in_use() const {
  uint32_t n = 0;
  for (const MshrEntry& e : entries_) n += e.valid;
  return n;
}

}  // namespace l1d::golden
