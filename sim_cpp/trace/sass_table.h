// SASS opcodes of Accel-Sim / NVBit traces: what each mnemonic is to the simulator, and the
// latency table by binary version (docs/simulator.md, "Real traces").
//
// An opcode is looked up by its base mnemonic, the text before the first '.' ("LDG.E.CG" ->
// "LDG"). The class says how the instruction runs:
//  - global / local / generic loads and stores go to the L1 (generic LD/ST are resolved by the
//    address window of their first active lane: shared window -> shared, local window -> local,
//    anything else global);
//  - shared-memory, constant, texture/surface and global-atomic instructions are not modelled in
//    the memory system (no shared-memory or texture model, atomics execute at the L2 on real GPUs
//    and the simulator has none): they run as ALU instructions with their class's latency;
//  - BAR is a CTA-wide barrier (BAR.ARV, arrive without waiting, is an ALU instruction);
//  - EXIT and RET end the warp when they are its last traced instruction (ALU otherwise);
//  - everything else is ALU with its latency class; a mnemonic the table does not know runs as
//    an integer ALU instruction and is counted in the report.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace l1d::sim::trace {

enum class SassClass : uint8_t {
  kGlobalLoad,
  kGlobalStore,
  kLocalLoad,
  kLocalStore,
  kGenericLoad,   // resolved by address window
  kGenericStore,  // resolved by address window
  kShared,
  kConstant,
  kTexture,
  kAtomic,
  kBarrier,
  kExit,
  kAlu,
  kUnsupported,  // TMA bulk copies: a different address format, rejected with an error
};

enum class LatencyClass : uint8_t { kInt, kFp32, kFp64, kSfu, kShared, kConstant, kTexture, kAtomic, kTensor, kControl };
inline constexpr uint32_t kLatencyClasses = 10;

struct OpcodeInfo {
  SassClass cls = SassClass::kAlu;
  LatencyClass lat = LatencyClass::kInt;
};

// nullptr for a mnemonic the table does not know.
const OpcodeInfo* lookup_opcode(std::string_view base);

// Cycles before the warp's next instruction may issue, per latency class, for one GPU family.
struct IsaLatencies {
  const char* family = "";
  uint32_t cycles[kLatencyClasses] = {};
  uint32_t of(LatencyClass c) const { return cycles[static_cast<uint32_t>(c)]; }
};

// nullptr for a binary version (e.g. 61 = sm_61) the table does not know.
const IsaLatencies* latencies_for(uint32_t binary_version);
std::string known_binary_versions();  // "30, 32, ..." for error messages

}  // namespace l1d::sim::trace
