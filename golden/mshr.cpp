#include "golden/mshr.h"

#include <bit>

#include <fmt/format.h>

namespace l1d::golden {

Mshr::Mshr(uint32_t entries, uint32_t max_merge)
    : entries_(entries), line_(entries, kFree), by_line_(entries), max_merge_(max_merge) {
  if (entries > kMaxEntries)
    throw std::invalid_argument(fmt::format("MSHR: {} entries, at most {} (8-bit id)", entries, kMaxEntries));
}

template <typename F>
bool Mshr::any_of_line(Addr line_addr, F&& f) const {
  const EntrySet* set = by_line_.find(line_addr);
  if (!set) return false;
  for (uint32_t word = 0; word < set->size(); ++word)
    for (uint64_t bits = (*set)[word]; bits; bits &= bits - 1)
      if (f(word * 64 + static_cast<uint32_t>(std::countr_zero(bits)))) return true;
  return false;
}

MshrProbeResult Mshr::probe_load(Addr line_addr, SectorMask needed, SectorMask fetch) const {
  // The lowest entry that can merge wins; otherwise any overlap is a conflict.
  MshrProbeResult r;
  bool conflict = false;
  const bool merges = any_of_line(line_addr, [&](uint32_t i) {
    const MshrEntry& e = entries_[i];
    if ((needed & ~(e.sectors | e.buffered)) != 0) {
      conflict |= (e.sectors & fetch) != 0;
      return false;
    }
    r = {e.requests.size() < max_merge_ ? MshrProbe::kMerge : MshrProbe::kMergeFull, i};
    return true;
  });
  if (!merges && conflict) r = {MshrProbe::kConflict, 0};
  return r;
}

bool Mshr::store_conflicts(Addr line_addr, SectorMask sectors) const {
  return any_of_line(line_addr,
                     [&](uint32_t i) { return ((entries_[i].sectors | entries_[i].buffered) & sectors) != 0; });
}

std::optional<uint32_t> Mshr::reserved_way(Addr line_addr) const {
  std::optional<uint32_t> way;
  any_of_line(line_addr, [&](uint32_t i) {
    if (entries_[i].reserved) way = entries_[i].reserved_way;
    return way.has_value();
  });
  return way;
}

std::optional<uint32_t> Mshr::find_line(Addr line_addr) const {
  std::optional<uint32_t> found;
  any_of_line(line_addr, [&](uint32_t i) { return found = i, true; });
  return found;
}

std::optional<uint32_t> Mshr::free_entry() const {
  if (in_use_ == line_.size()) return std::nullopt;
  // A word of 64 entries at a time: qv100's 256 entries, most of them in use under load, were
  // read one by one on every miss.
  for (uint32_t word = 0; word * 64 < line_.size(); ++word)
    if (const uint64_t free = ~used_[word]) {
      const uint32_t i = word * 64 + static_cast<uint32_t>(std::countr_zero(free));
      return i < line_.size() ? std::optional<uint32_t>(i) : std::nullopt;
    }
  return std::nullopt;
}

MshrEntry& Mshr::allocate(uint32_t i, Addr line_addr) {
  MshrEntry& e = entries_.at(i);
  if (e.valid) throw std::logic_error(fmt::format("MSHR entry {} allocated while in use", i));
  reset(e);
  e.valid = true;
  e.line_addr = line_addr;
  line_[i] = line_addr;
  used_[i / 64] |= uint64_t{1} << (i % 64);
  by_line_[line_addr][i / 64] |= uint64_t{1} << (i % 64);
  ++in_use_;
  return e;
}

void Mshr::release(uint32_t i) {
  MshrEntry& e = entries_.at(i);
  if (e.valid) {
    EntrySet* set = by_line_.find(e.line_addr);
    (*set)[i / 64] &= ~(uint64_t{1} << (i % 64));
    if (*set == EntrySet{}) by_line_.erase(e.line_addr);
    --in_use_;
  }
  // Only marked free: allocate() resets the entry's fields when it is used again (resetting it
  // here too zeroed every released entry twice; docs/performance.md).
  e.valid = false;
  line_[i] = kFree;
  used_[i / 64] &= ~(uint64_t{1} << (i % 64));
}

void Mshr::check_index() const {
  uint32_t used = 0;
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    const MshrEntry& e = entries_[i];
    used += e.valid;
    if (line_[i] != (e.valid ? e.line_addr : kFree) || ((used_[i / 64] >> (i % 64)) & 1) != e.valid)
      throw std::logic_error(fmt::format("MSHR entry {}: line index out of step with the entry", i));
    const EntrySet* set = e.valid ? by_line_.find(e.line_addr) : nullptr;
    if (e.valid && (!set || !(((*set)[i / 64] >> (i % 64)) & 1)))
      throw std::logic_error(fmt::format("MSHR entry {}: missing from the per-line index", i));
  }
  uint32_t indexed = 0;
  by_line_.for_each([&](Addr, const EntrySet& s) {
    for (uint64_t w : s) indexed += static_cast<uint32_t>(std::popcount(w));
  });
  if (used != in_use_ || indexed != used)
    throw std::logic_error(fmt::format("MSHR: {} entries valid, {} counted, {} indexed", used, in_use_, indexed));
}

}  // namespace l1d::golden
