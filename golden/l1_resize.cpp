// golden::L1::resize_sets: a new number of sets between kernels, for l1.carveout adaptive (Accel-Sim's
// adaptive L1 / shared-memory carveout; docs/simulator.md "L1 carveout"). Apart from l1.cpp so that
// the change stays out of the cycle code.
#include <stdexcept>

#include <fmt/format.h>

#include "golden/l1.h"

namespace l1d::golden {

bool L1::empty() const {
  for (const auto& set : sets_)
    for (const CacheLine& line : set)
      if (line.occupied()) return false;
  return true;
}

void L1::resize_sets(uint32_t sets) {
  // Only an idle, empty L1 can change shape: a line or an MSHR entry would keep a set index of
  // the old address split. Between kernels (after the kernel-end flush or invalidate) both hold.
  if (!idle()) throw std::logic_error(fmt::format("L1::resize_sets({}): the L1 is not idle", sets));
  if (!empty()) throw std::logic_error(fmt::format("L1::resize_sets({}): the L1 holds valid or reserved lines", sets));
  // Written slots (l1.write_allocate) are not in empty(): the arrays below drop them, which the RTL
  // does not (contract 16.5, "Carveout adaptive on the staged pipe": every kernel end clears them, and
  // the simulator resizes only at a kernel start), so a resize that would need the clear is refused.
  for (const auto& set : sets_)
    for (const CacheLine& line : set)
      for (const Slot& slot : line.slot)
        if (slot.written)
          throw std::logic_error(fmt::format("L1::resize_sets({}): the L1 holds written slots", sets));
  L1Config l1 = cfg_.l1;
  l1.size_bytes = sets * ways_ * 128;
  AddressSplit split(l1);  // throws ConfigError for a set count the address cannot index
  cfg_.l1 = l1;
  split_ = split;
  sets_.assign(sets, std::vector<CacheLine>(ways_));
  data_.assign(size_t{sets} * ways_, LineData{});
  tags_ = TagIndex(sets, ways_, index_lines_per_way(cfg_.l1));
  // Fresh replacement state: its per-set state (ranks, DIP leader sets, RPR's sampled sets) is
  // laid out for the old sets. The AGCB table, the two-level unit, the AgeLRU counters and the
  // granularity selector are per L1, not per set, and keep what they learned.
  replacement_ = make_replacement(cfg_.policy.replacement, sets, ways_, cfg_.policy);
  flush_next_ = 0;
}

}  // namespace l1d::golden
