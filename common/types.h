// Payloads of the L1 contract (DESIGN.md "The L1 contract", docs/l1d-microarchitecture.md).
// These structs are the C++ side of the ports of one SM's L1; the RTL ports carry the same fields.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <string_view>

namespace l1d {

using Addr = uint64_t;

inline constexpr uint32_t kLineBytes = 128;
inline constexpr uint32_t kChunkBytes = 32;
inline constexpr uint32_t kSlotsPerLine = kLineBytes / kChunkBytes;  // 4

using LineData = std::array<uint8_t, kLineBytes>;
using ByteMask = std::bitset<kLineBytes>;
using SectorMask = uint8_t;  // bit s = 32 B sector s of a 128 B line

enum class MemOp : uint8_t { kLoad, kStore };

// Core -> L1 (valid/ready). The request covers `size` bytes aligned to `size`; byte_mask
// and data are indexed by the byte offset inside the 128 B line that holds the request.
struct CoreReq {
  uint32_t id = 0;      // echoed in the response
  uint8_t warp = 0;     // warp slot in the SM
  uint8_t awid = 0;     // AgeLRU warp ID (launch order mod 256)
  bool token = true;    // PCAL token bit (true when PCAL is off)
  uint64_t pc = 0;
  MemOp op = MemOp::kLoad;
  Addr addr = 0;        // aligned to size
  uint32_t size = 128;  // 32, 64 or 128
  ByteMask byte_mask;   // bytes the lanes touch (loads: what must be returned; stores: what is written)
  LineData data{};      // store data
};

enum class Outcome : uint8_t {
  kHit,           // served from the L1 array
  kMissReturn,    // served by a fill that was (or was merged into) an allocating miss
  kBypassReturn,  // served by a fill that did not allocate
  kStoreAck,      // store accepted (hit update and/or write to memory)
};
std::string_view to_string(Outcome o);

// L1 -> core (valid only; the core always accepts). data holds the request's bytes at
// their offsets in the 128 B line; bytes outside the request are zero.
struct CoreResp {
  uint32_t id = 0;
  uint8_t warp = 0;
  Outcome outcome = Outcome::kHit;
  LineData data{};
};

// L1 -> memory (valid/ready). Reads name the 32 B sectors wanted in the 128 B line at
// line_addr; writes carry a byte mask (write-backs: every byte of the dirty sectors).
struct MemReq {
  Addr line_addr = 0;  // 128 B aligned
  MemOp op = MemOp::kLoad;
  SectorMask sectors = 0;
  ByteMask byte_mask;
  LineData data{};
  bool bypass = false;        // the fill will not allocate in L1 (as decided at the miss)
  bool agcb_bypass = false;   // AGCB predicted bypass: the L2 verifies it with its bypass bit
  uint8_t mshr = 0;           // reads only
  // Nonzero: a direct load of the LDST unit (l1.bypass_path direct), this being its request id;
  // its response goes to the LDST unit, not the L1 (contract section 13.6).
  uint32_t ldst_id = 0;
};

// memory -> L1 (valid only; the L1 always accepts: every read owns an MSHR entry).
struct MemResp {
  uint8_t mshr = 0;
  LineData data{};              // the requested sectors at their offsets
  bool l2_bypass_bit = false;   // AGCB: the L2 line's bypass bit was already set (override: cache it)
  // The sectors this response answers (the read's sector mask). Needed only when an MSHR entry
  // has two reads in flight (l1.mshr_merge block); 0 means "all the entry awaits".
  SectorMask sectors = 0;
  uint32_t ldst_id = 0;  // the read's MemReq::ldst_id: nonzero answers the LDST unit, not the L1
};

}  // namespace l1d
