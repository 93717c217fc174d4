// State of one L1 line (docs/l1d-microarchitecture.md section 2).
#pragma once

#include <array>
#include <cstdint>

#include "common/types.h"

namespace l1d::golden {

// 12 bytes: the flags together before the two words (with each flag before its word, a Slot was
// 16 bytes and a CacheLine 88; a set's walk reads fewer host cache lines now: docs/performance.md,
// sixteenth round).
struct Slot {
  bool valid = false;
  // l1.allocation on_miss: the slot is held for the chunk `chunk_tag` whose fill is in flight
  // (never valid at the same time; section 13.1).
  bool reserved = false;
  // l1.write_allocate lazy_fetch_on_read (sector mode): a store allocated the slot for chunk
  // `chunk_tag` but wrote only part of it. Not readable (a read misses and fetches it); a store to it
  // hits. Never valid or reserved at the same time (section 14).
  bool written = false;
  // Written bytes not yet in memory, bit b = byte b of the slot. Byte-granular so that a
  // write-back never overwrites bytes another SM wrote to the same sector (L1s are not
  // coherent: only the bytes this L1 wrote may go back).
  uint32_t dirty = 0;
  uint32_t chunk_tag = 0;
};
static_assert(sizeof(Slot) == 12);

struct CacheLine {
  uint64_t common_tag = 0;
  std::array<Slot, kSlotsPerLine> slot{};
  std::array<uint8_t, kSlotsPerLine> slot_rank{0, 1, 2, 3};  // 0 = most recent
  uint32_t hpc = 0;       // AGCB hashed PC of the last accessor
  uint8_t awid = 0;       // AgeLRU: filler's warp ID
  bool priority = false;  // PCAL: filled by a token holder
  // The line's 128 data bytes are not here but in L1::data_ (L1::line_data): a lookup, a victim
  // choice and a fill's tag update read the tags and state of a set without the data beside them
  // (a CacheLine with its data was 216 bytes, the data at offset 88; docs/performance.md).

  bool valid() const {
    for (const Slot& s : slot)
      if (s.valid) return true;
    return false;
  }
  bool any_reserved() const {
    for (const Slot& s : slot)
      if (s.reserved) return true;
    return false;
  }
  // Valid or reserved: the line holds or awaits data.
  bool occupied() const {
    for (const Slot& s : slot)
      if (s.valid || s.reserved) return true;
    return false;
  }
  uint8_t valid_mask() const {
    uint8_t m = 0;
    for (uint32_t i = 0; i < kSlotsPerLine; ++i)
      if (slot[i].valid) m = static_cast<uint8_t>(m | (1u << i));
    return m;
  }
  // Slot i becomes the most recent; the slots that were more recent age by one.
  void promote_slot(uint32_t i) {
    for (auto& r : slot_rank)
      if (r < slot_rank[i]) ++r;
    slot_rank[i] = 0;
  }
};
static_assert(sizeof(CacheLine) == 72);

}  // namespace l1d::golden
