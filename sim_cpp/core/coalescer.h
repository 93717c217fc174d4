// The coalescers: a warp's load or store becomes L1 requests (core.coalescer picks one).
//  - fermi (SPEC section 10): one L1 request per touched 128 B aligned segment, shrunk to 64 B or
//    32 B when the lanes' bytes fit in the aligned half or quarter of it;
//  - sector (GPGPU-Sim 4 / Accel-Sim, sm_60+): one 128 B request per touched line, line-aligned,
//    whose byte mask is exactly the touched bytes (so the L1 sees the touched 32 B sectors).
// Both emit requests in increasing address order and carry store data at line offsets.
// Inactive lanes are ignored (an instruction with no active lane gives no request). Throws
// std::invalid_argument for a non-memory instruction, access_bytes not in {1, 2, 4, 8, 16}, or an
// active lane whose address is not aligned to access_bytes (so no lane crosses a 128 B line).
#pragma once

#include <vector>

#include "common/config.h"
#include "common/types.h"
#include "sim_cpp/workload/workload.h"

namespace l1d::sim {

struct CoalescedRequest {
  Addr addr = 0;        // aligned to size
  uint32_t size = 128;  // 32, 64 or 128
  ByteMask byte_mask;   // bytes touched, at their offsets in the 128 B line
  LineData data{};      // stores: the bytes written (later lanes win on overlap)
};

// A coalescer writes an instruction's requests into `out` (replacing its contents, reusing its
// storage: the SM coalesces every memory instruction into one buffer).
using CoalesceFn = void (*)(const WarpInst& inst, std::vector<CoalescedRequest>& out);

// The Fermi coalescer.
std::vector<CoalescedRequest> coalesce(const WarpInst& inst);
void coalesce(const WarpInst& inst, std::vector<CoalescedRequest>& out);

// The sector coalescer.
std::vector<CoalescedRequest> coalesce_sector(const WarpInst& inst);
void coalesce_sector(const WarpInst& inst, std::vector<CoalescedRequest>& out);

// The coalescer a preset's core.coalescer names.
CoalesceFn coalescer_for(CoalescerKind kind);

}  // namespace l1d::sim
