// A memo of instruction lines' heads for the trace reader's fast path (trace_parser.cpp,
// KernelParser::fast_instruction).
//
// A trace repeats its lines' heads: every warp of an elementwise kernel runs the same PCs with
// the same mask, registers, opcode and memory width, so only the addresses and immediates after
// them differ (and an ALU line is all head). The head of a line is its text from the start
// through the memory-width field and the blanks after it. What the reader takes from a head is a
// function of that text alone (and of the kernel's header, fixed for one parser), so a line
// whose text starts with a head read before may take that reading instead of reading the
// characters again: a look-up and one compare of the head's bytes instead of a scan of each
// field (docs/performance.md, twentieth round).
//
// The table is direct-mapped on a hash of the line's first 16 bytes (PC and mask); a miss or a
// different head in the slot simply reads the line and replaces the slot. Heads over kMaxText
// bytes are not kept.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "sim_cpp/trace/sass_table.h"

namespace l1d::sim::trace {

// What the fast reader takes from a head: the fields before the addresses.
struct LineHeadFields {
  static constexpr uint32_t kMaxRegs = 16;  // destinations then sources, RZ / URZ / PT / UPT left out
  uint64_t pc = 0;
  uint32_t mask = 0;
  uint32_t mem_width = 0;
  uint32_t lane_width = 0;                 // the opcode's bytes per lane (S8 / S16 fixed), when mem_width > 0
  const OpcodeInfo* info = nullptr;        // the opcode's table entry; nullptr: not in the table
  uint16_t opcode_at = 0, opcode_len = 0;  // the opcode's place in the head's text
  uint8_t dsts = 0, srcs = 0;              // kept register operands (ParsedKernel::regs' counts)
  std::array<uint16_t, kMaxRegs> regs{};   // the first dsts + srcs are used
};

class LineHeadCache {
 public:
  static constexpr uint32_t kSlotBits = 8;  // 256 slots of 144 B: 36 KiB
  static constexpr uint32_t kMaxText = 64;  // longer heads are read every time

  // The slot's fields when `line` starts with the head kept there and the head's reading would
  // be the same on `line`; nullptr otherwise. Where the head ends with a blank (the memory width
  // had a field after it), any text may follow it; a head that is the whole line it was read
  // from (no blank after the width) matches only that whole line. `head_bytes` is then the head's
  // length: the reader goes on at line[head_bytes] (after further blanks, if any).
  const LineHeadFields* find(std::string_view line, uint32_t& head_bytes) const {
    const Slot& s = slots_[slot_of(line)];
    if (s.len == 0 || s.len > line.size() || std::memcmp(s.text.data(), line.data(), s.len) != 0) return nullptr;
    if (!s.ends_blank && line.size() != s.len) return nullptr;
    head_bytes = s.len;
    return &s.fields;
  }

  // Keeps `line`'s first `head_bytes` bytes (its head, read as `fields`) in the line's slot.
  // `head_bytes` counts the blanks after the memory width; the head ends with one unless it is
  // the whole line.
  void put(std::string_view line, uint32_t head_bytes, const LineHeadFields& fields) {
    if (head_bytes == 0 || head_bytes > kMaxText || head_bytes > line.size()) return;
    Slot& s = slots_[slot_of(line)];
    std::memcpy(s.text.data(), line.data(), head_bytes);
    s.len = static_cast<uint16_t>(head_bytes);
    s.ends_blank = line[head_bytes - 1] == ' ' || line[head_bytes - 1] == '\t';
    s.fields = fields;
  }

 private:
  struct Slot {
    std::array<char, kMaxText> text{};
    uint16_t len = 0;  // 0: empty
    bool ends_blank = false;
    LineHeadFields fields;
  };

  // A multiplicative hash of the first 16 bytes (fewer when the line is shorter), which hold the
  // PC and the active mask of a common line.
  static uint32_t slot_of(std::string_view line) {
    uint64_t w[2] = {0, 0};
    if (line.size() >= 16)
      std::memcpy(w, line.data(), 16);  // two loads (a variable length is a call to memcpy)
    else
      std::memcpy(w, line.data(), line.size());
    const uint64_t h = (w[0] * 0x9E3779B97F4A7C15ull) ^ (w[1] * 0xC2B2AE3D27D4EB4Full);
    return static_cast<uint32_t>((h ^ (h >> 29)) * 0x94D049BB133111EBull >> (64 - kSlotBits));
  }

  std::array<Slot, size_t{1} << kSlotBits> slots_{};
};

}  // namespace l1d::sim::trace
