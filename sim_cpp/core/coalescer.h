// The Fermi coalescer (SPEC section 10): a warp's load or store becomes one L1 request per
// touched 128 B aligned segment, shrunk to 64 B or 32 B when the lanes' bytes fit in the
// aligned half or quarter of it. Requests come out in increasing address order.
// Inactive lanes are ignored (an instruction with no active lane gives no request). Throws
// std::invalid_argument for a non-memory instruction, access_bytes not in {1, 2, 4, 8}, or an
// active lane whose address is not aligned to access_bytes (so no lane crosses a 128 B line).
#pragma once

#include <vector>

#include "common/types.h"
#include "sim_cpp/workload/workload.h"

namespace l1d::sim {

struct CoalescedRequest {
  Addr addr = 0;        // aligned to size
  uint32_t size = 128;  // 32, 64 or 128
  ByteMask byte_mask;   // bytes touched, at their offsets in the 128 B line
  LineData data{};      // stores: the bytes written (later lanes win on overlap)
};

std::vector<CoalescedRequest> coalesce(const WarpInst& inst);
// The same into `out` (replacing its contents), reusing its storage.
void coalesce(const WarpInst& inst, std::vector<CoalescedRequest>& out);

}  // namespace l1d::sim
