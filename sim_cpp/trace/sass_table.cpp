// The SASS opcode and latency tables (sass_table.h).
//
// Mnemonics: NVIDIA's CUDA Binary Utilities instruction-set reference (Kepler to Hopper), checked
// against the opcode tables of Accel-Sim's trace-driven front end (gpu-simulator/ISA_Def/, up to
// hopper_opcode.h). Classes of the memory-touching mnemonics (the simulator's memory system is
// global and local memory through the L1):
//  - LDG / STG, LDL / STL, LD / ST (generic: by address window): through the L1;
//  - LDGSTS (Ampere+ async copy global -> shared): a global load (its global read goes through
//    the L1, as Accel-Sim treats it; the shared-memory write is not modelled);
//  - LDS, STS, LDSM, STSM, ATOMS, and Hopper's STAS / REDAS (distributed shared memory): shared;
//  - LDC, ULDC: constant; ATOM, ATOMG, RED, REDG, LDGMC (multimem reduction load): global atomics
//    at the L2; TEX..., SULD, SUST, SUATOM, SURED, SUQ, SUQUERY: texture / surface;
//  - UTMALDG, UTMASTG, UTMAPF, UTMAREDG, UBLKCP, UBLKPF, UBLKRED (TMA bulk copies): refused,
//    their lines carry a different address format; UTMACCTL / UTMACMDFLUSH (descriptor cache
//    control, command flush) move no data: control;
//  - barriers and fences with a memory operand (SYNCS, ARRIVES, DEPBAR, MEMBAR, ...): control.
// Latencies, cycles until a dependent instruction may issue (the simulator has no register
// scoreboard: the warp waits this long after every instruction of the class):
//  - int / fp32: the dependent-issue latency NVIDIA documents: about 11 cycles on compute
//    capability 3.x (CUDA C Programming Guide, "Multiprocessor Level"), 6 on Maxwell and Pascal
//    (Maxwell / Pascal tuning guides), 4 on Volta and later (Volta / Turing tuning guides);
//  - the other classes are approximations of published microbenchmark results (Jia et al.,
//    "Dissecting the NVIDIA Volta / Turing GPU Architecture via Microbenchmarking", 2018/2019:
//    shared-memory load 23-26 cycles before Volta, 19 on Volta/Turing) and of Accel-Sim's trace
//    configurations (SFU 20 and DP 8 on Volta, texture as a fixed 200-cycle unit); global atomics
//    get an unloaded L2 round trip (200). They matter little to L1 studies: none touches the L1.
#include "sim_cpp/trace/sass_table.h"

#include <unordered_map>

namespace l1d::sim::trace {
namespace {

using C = SassClass;
using L = LatencyClass;

struct Entry {
  std::string_view name;
  OpcodeInfo info;
};

// clang-format off
constexpr Entry kOpcodes[] = {
    // memory through the L1
    {"LDG", {C::kGlobalLoad, L::kInt}}, {"STG", {C::kGlobalStore, L::kInt}},
    {"LDGSTS", {C::kGlobalLoad, L::kInt}},  // async global->shared copy: its global read
    {"LDL", {C::kLocalLoad, L::kInt}}, {"STL", {C::kLocalStore, L::kInt}},
    {"LD", {C::kGenericLoad, L::kInt}}, {"ST", {C::kGenericStore, L::kInt}},
    // memory the simulator does not model
    {"LDS", {C::kShared, L::kShared}}, {"STS", {C::kShared, L::kShared}}, {"LDSM", {C::kShared, L::kShared}},
    {"STSM", {C::kShared, L::kShared}}, {"ATOMS", {C::kShared, L::kShared}}, {"STAS", {C::kShared, L::kShared}},
    {"REDAS", {C::kShared, L::kShared}},
    {"LDC", {C::kConstant, L::kConstant}}, {"ULDC", {C::kConstant, L::kConstant}},
    {"ATOM", {C::kAtomic, L::kAtomic}}, {"ATOMG", {C::kAtomic, L::kAtomic}}, {"RED", {C::kAtomic, L::kAtomic}},
    {"REDG", {C::kAtomic, L::kAtomic}}, {"LDGMC", {C::kAtomic, L::kAtomic}},
    {"TEX", {C::kTexture, L::kTexture}}, {"TLD", {C::kTexture, L::kTexture}}, {"TLD4", {C::kTexture, L::kTexture}},
    {"TMML", {C::kTexture, L::kTexture}}, {"TXD", {C::kTexture, L::kTexture}}, {"TXQ", {C::kTexture, L::kTexture}},
    {"TEXS", {C::kTexture, L::kTexture}}, {"TLDS", {C::kTexture, L::kTexture}}, {"TLD4S", {C::kTexture, L::kTexture}},
    {"SULD", {C::kTexture, L::kTexture}}, {"SUST", {C::kTexture, L::kTexture}}, {"SUATOM", {C::kTexture, L::kTexture}},
    {"SURED", {C::kTexture, L::kTexture}}, {"SUQ", {C::kTexture, L::kTexture}}, {"SUQUERY", {C::kTexture, L::kTexture}},
    // TMA / bulk copies (Hopper): their trace lines use another address format
    {"UTMALDG", {C::kUnsupported, L::kInt}}, {"UTMASTG", {C::kUnsupported, L::kInt}},
    {"UTMAPF", {C::kUnsupported, L::kInt}}, {"UTMAREDG", {C::kUnsupported, L::kInt}},
    {"UBLKCP", {C::kUnsupported, L::kInt}}, {"UBLKPF", {C::kUnsupported, L::kInt}},
    {"UBLKRED", {C::kUnsupported, L::kInt}},
    // synchronisation and warp end
    {"BAR", {C::kBarrier, L::kControl}}, {"EXIT", {C::kExit, L::kControl}}, {"RET", {C::kExit, L::kControl}},
    // integer and logic
    {"IADD", {C::kAlu, L::kInt}}, {"IADD3", {C::kAlu, L::kInt}}, {"IADD32I", {C::kAlu, L::kInt}},
    {"IMAD", {C::kAlu, L::kInt}}, {"IMAD32I", {C::kAlu, L::kInt}}, {"IMADSP", {C::kAlu, L::kInt}},
    {"IMUL", {C::kAlu, L::kInt}}, {"IMUL32I", {C::kAlu, L::kInt}}, {"IMNMX", {C::kAlu, L::kInt}},
    {"IABS", {C::kAlu, L::kInt}}, {"ISCADD", {C::kAlu, L::kInt}}, {"ISCADD32I", {C::kAlu, L::kInt}},
    {"ISET", {C::kAlu, L::kInt}}, {"ISETP", {C::kAlu, L::kInt}}, {"ICMP", {C::kAlu, L::kInt}},
    {"LEA", {C::kAlu, L::kInt}}, {"LOP", {C::kAlu, L::kInt}}, {"LOP3", {C::kAlu, L::kInt}},
    {"LOP32I", {C::kAlu, L::kInt}}, {"SHL", {C::kAlu, L::kInt}}, {"SHR", {C::kAlu, L::kInt}},
    {"SHF", {C::kAlu, L::kInt}}, {"BFE", {C::kAlu, L::kInt}}, {"BFI", {C::kAlu, L::kInt}},
    {"BMSK", {C::kAlu, L::kInt}}, {"BREV", {C::kAlu, L::kInt}}, {"FLO", {C::kAlu, L::kInt}},
    {"POPC", {C::kAlu, L::kInt}}, {"PRMT", {C::kAlu, L::kInt}}, {"SEL", {C::kAlu, L::kInt}},
    {"SGXT", {C::kAlu, L::kInt}}, {"XMAD", {C::kAlu, L::kInt}}, {"IDP", {C::kAlu, L::kInt}},
    {"IDP4A", {C::kAlu, L::kInt}}, {"VABSDIFF", {C::kAlu, L::kInt}}, {"VABSDIFF4", {C::kAlu, L::kInt}},
    {"VADD", {C::kAlu, L::kInt}}, {"VMAD", {C::kAlu, L::kInt}}, {"VMNMX", {C::kAlu, L::kInt}},
    {"VSET", {C::kAlu, L::kInt}}, {"VSETP", {C::kAlu, L::kInt}}, {"VSHL", {C::kAlu, L::kInt}},
    {"VSHR", {C::kAlu, L::kInt}}, {"MOV", {C::kAlu, L::kInt}}, {"MOV32I", {C::kAlu, L::kInt}},
    {"MOVM", {C::kAlu, L::kInt}}, {"SHFL", {C::kAlu, L::kInt}}, {"S2R", {C::kAlu, L::kInt}},
    {"CS2R", {C::kAlu, L::kInt}}, {"S2UR", {C::kAlu, L::kInt}}, {"R2UR", {C::kAlu, L::kInt}},
    {"R2P", {C::kAlu, L::kInt}}, {"P2R", {C::kAlu, L::kInt}}, {"PSET", {C::kAlu, L::kInt}},
    {"PSETP", {C::kAlu, L::kInt}}, {"PLOP3", {C::kAlu, L::kInt}}, {"CSET", {C::kAlu, L::kInt}},
    {"CSETP", {C::kAlu, L::kInt}}, {"NOP", {C::kAlu, L::kInt}}, {"VOTE", {C::kAlu, L::kInt}},
    {"VOTEU", {C::kAlu, L::kInt}}, {"MATCH", {C::kAlu, L::kInt}}, {"REDUX", {C::kAlu, L::kInt}},
    {"UIADD3", {C::kAlu, L::kInt}}, {"UIMAD", {C::kAlu, L::kInt}}, {"ULOP", {C::kAlu, L::kInt}},
    {"ULOP3", {C::kAlu, L::kInt}}, {"ULOP32I", {C::kAlu, L::kInt}}, {"USHF", {C::kAlu, L::kInt}},
    {"USHL", {C::kAlu, L::kInt}}, {"USHR", {C::kAlu, L::kInt}}, {"ULEA", {C::kAlu, L::kInt}},
    {"USEL", {C::kAlu, L::kInt}}, {"UMOV", {C::kAlu, L::kInt}}, {"UFLO", {C::kAlu, L::kInt}},
    {"UPOPC", {C::kAlu, L::kInt}}, {"UPRMT", {C::kAlu, L::kInt}}, {"UBREV", {C::kAlu, L::kInt}},
    {"UBMSK", {C::kAlu, L::kInt}}, {"UISETP", {C::kAlu, L::kInt}}, {"UPLOP3", {C::kAlu, L::kInt}},
    {"UPSETP", {C::kAlu, L::kInt}}, {"USGXT", {C::kAlu, L::kInt}}, {"UP2UR", {C::kAlu, L::kInt}},
    {"UR2UP", {C::kAlu, L::kInt}}, {"UCLEA", {C::kAlu, L::kInt}}, {"UF2FP", {C::kAlu, L::kInt}},
    {"VOTE_VTG", {C::kAlu, L::kInt}}, {"QSPC", {C::kAlu, L::kInt}}, {"CSMTEST", {C::kAlu, L::kInt}},
    {"GETLMEMBASE", {C::kAlu, L::kInt}}, {"SETLMEMBASE", {C::kAlu, L::kInt}}, {"LEPC", {C::kAlu, L::kInt}},
    {"SETCTAID", {C::kAlu, L::kInt}}, {"PMTRIG", {C::kAlu, L::kInt}},
    // Hopper vector-integer forms (IADD3 / IMNMX with a second operation fused)
    {"VIADD", {C::kAlu, L::kInt}}, {"VIADDMNMX", {C::kAlu, L::kInt}}, {"VIMNMX", {C::kAlu, L::kInt}},
    {"VIMNMX3", {C::kAlu, L::kInt}},
    // fp32 / fp16
    {"FADD", {C::kAlu, L::kFp32}}, {"FADD32I", {C::kAlu, L::kFp32}}, {"FMUL", {C::kAlu, L::kFp32}},
    {"FMUL32I", {C::kAlu, L::kFp32}}, {"FFMA", {C::kAlu, L::kFp32}}, {"FFMA32I", {C::kAlu, L::kFp32}},
    {"FMNMX", {C::kAlu, L::kFp32}}, {"FSET", {C::kAlu, L::kFp32}}, {"FSETP", {C::kAlu, L::kFp32}},
    {"FCMP", {C::kAlu, L::kFp32}}, {"FSEL", {C::kAlu, L::kFp32}}, {"FSWZ", {C::kAlu, L::kFp32}},
    {"FSWZADD", {C::kAlu, L::kFp32}}, {"FCHK", {C::kAlu, L::kFp32}}, {"HADD2", {C::kAlu, L::kFp32}},
    {"HADD2_32I", {C::kAlu, L::kFp32}}, {"HFMA2", {C::kAlu, L::kFp32}}, {"HFMA2_32I", {C::kAlu, L::kFp32}},
    {"HMUL2", {C::kAlu, L::kFp32}}, {"HMUL2_32I", {C::kAlu, L::kFp32}}, {"HSET2", {C::kAlu, L::kFp32}},
    {"HSETP2", {C::kAlu, L::kFp32}}, {"HMNMX2", {C::kAlu, L::kFp32}}, {"VHMNMX", {C::kAlu, L::kFp32}},
    // conversions and special functions (quarter-rate units)
    {"F2F", {C::kAlu, L::kSfu}}, {"F2I", {C::kAlu, L::kSfu}}, {"I2F", {C::kAlu, L::kSfu}},
    {"I2I", {C::kAlu, L::kSfu}}, {"FRND", {C::kAlu, L::kSfu}}, {"F2FP", {C::kAlu, L::kSfu}},
    {"I2FP", {C::kAlu, L::kSfu}}, {"F2IP", {C::kAlu, L::kSfu}}, {"I2IP", {C::kAlu, L::kSfu}},
    {"MUFU", {C::kAlu, L::kSfu}}, {"RRO", {C::kAlu, L::kSfu}},
    // fp64
    {"DADD", {C::kAlu, L::kFp64}}, {"DMUL", {C::kAlu, L::kFp64}}, {"DFMA", {C::kAlu, L::kFp64}},
    {"DMNMX", {C::kAlu, L::kFp64}}, {"DSET", {C::kAlu, L::kFp64}}, {"DSETP", {C::kAlu, L::kFp64}},
    // tensor cores
    {"HMMA", {C::kAlu, L::kTensor}}, {"IMMA", {C::kAlu, L::kTensor}}, {"BMMA", {C::kAlu, L::kTensor}},
    {"DMMA", {C::kAlu, L::kTensor}}, {"HGMMA", {C::kAlu, L::kTensor}}, {"IGMMA", {C::kAlu, L::kTensor}},
    {"QGMMA", {C::kAlu, L::kTensor}},
    // control flow, convergence, fences
    {"BRA", {C::kAlu, L::kControl}}, {"BRX", {C::kAlu, L::kControl}}, {"BRXU", {C::kAlu, L::kControl}},
    {"JMP", {C::kAlu, L::kControl}}, {"JMX", {C::kAlu, L::kControl}}, {"JMXU", {C::kAlu, L::kControl}},
    {"CALL", {C::kAlu, L::kControl}}, {"JCAL", {C::kAlu, L::kControl}}, {"CAL", {C::kAlu, L::kControl}},
    {"PRET", {C::kAlu, L::kControl}}, {"BSSY", {C::kAlu, L::kControl}}, {"BSYNC", {C::kAlu, L::kControl}},
    {"BREAK", {C::kAlu, L::kControl}}, {"BPT", {C::kAlu, L::kControl}}, {"BMOV", {C::kAlu, L::kControl}},
    {"WARPSYNC", {C::kAlu, L::kControl}}, {"SSY", {C::kAlu, L::kControl}}, {"SYNC", {C::kAlu, L::kControl}},
    {"PBK", {C::kAlu, L::kControl}}, {"BRK", {C::kAlu, L::kControl}}, {"PCNT", {C::kAlu, L::kControl}},
    {"CONT", {C::kAlu, L::kControl}}, {"PEXIT", {C::kAlu, L::kControl}}, {"KILL", {C::kAlu, L::kControl}},
    {"NANOSLEEP", {C::kAlu, L::kControl}}, {"YIELD", {C::kAlu, L::kControl}}, {"RPCMOV", {C::kAlu, L::kControl}},
    {"LONGJMP", {C::kAlu, L::kControl}}, {"PLONGJMP", {C::kAlu, L::kControl}}, {"DEPBAR", {C::kAlu, L::kControl}},
    {"LDGDEPBAR", {C::kAlu, L::kControl}}, {"MEMBAR", {C::kAlu, L::kControl}}, {"ERRBAR", {C::kAlu, L::kControl}},
    {"CCTL", {C::kAlu, L::kControl}}, {"CCTLL", {C::kAlu, L::kControl}}, {"CCTLT", {C::kAlu, L::kControl}},
    {"B2R", {C::kAlu, L::kControl}}, {"R2B", {C::kAlu, L::kControl}}, {"ELECT", {C::kAlu, L::kControl}},
    {"FENCE", {C::kAlu, L::kControl}}, {"ARRIVES", {C::kAlu, L::kControl}}, {"SYNCS", {C::kAlu, L::kControl}},
    {"ACQBULK", {C::kAlu, L::kControl}}, {"ENDCOLLECTIVE", {C::kAlu, L::kControl}},
    {"CGAERRBAR", {C::kAlu, L::kControl}}, {"WARPGROUP", {C::kAlu, L::kControl}},
    {"WARPGROUPSET", {C::kAlu, L::kControl}}, {"UCGABAR_ARV", {C::kAlu, L::kControl}},
    {"UCGABAR_WAIT", {C::kAlu, L::kControl}}, {"USETMAXREG", {C::kAlu, L::kControl}}, {"RTT", {C::kAlu, L::kControl}},
    {"TEXDEPBAR", {C::kAlu, L::kControl}}, {"UTMACCTL", {C::kAlu, L::kControl}},
    {"UTMACMDFLUSH", {C::kAlu, L::kControl}},
};

// Columns: int, fp32, fp64, sfu, shared, constant, texture, atomic, tensor, control.
constexpr IsaLatencies kKepler{"Kepler", {11, 11, 11, 22, 26, 11, 200, 200, 11, 11}};
constexpr IsaLatencies kMaxwell{"Maxwell", {6, 6, 8, 14, 23, 8, 200, 200, 6, 6}};
constexpr IsaLatencies kPascal{"Pascal", {6, 6, 8, 14, 24, 8, 200, 200, 6, 6}};
constexpr IsaLatencies kVolta{"Volta", {4, 4, 8, 20, 19, 8, 200, 200, 8, 4}};
constexpr IsaLatencies kTuring{"Turing", {4, 4, 8, 20, 19, 8, 200, 200, 8, 4}};
constexpr IsaLatencies kAmpere{"Ampere", {4, 4, 8, 20, 23, 8, 200, 200, 16, 4}};
constexpr IsaLatencies kAda{"Ada", {4, 4, 8, 20, 23, 8, 200, 200, 16, 4}};
constexpr IsaLatencies kHopper{"Hopper", {4, 4, 8, 20, 23, 8, 200, 200, 16, 4}};

struct Version {
  uint32_t version;
  const IsaLatencies* table;
};
constexpr Version kVersions[] = {
    {30, &kKepler}, {32, &kKepler}, {35, &kKepler}, {37, &kKepler},
    {50, &kMaxwell}, {52, &kMaxwell}, {53, &kMaxwell},
    {60, &kPascal}, {61, &kPascal}, {62, &kPascal},
    {70, &kVolta}, {72, &kVolta}, {75, &kTuring},
    {80, &kAmpere}, {86, &kAmpere}, {87, &kAmpere}, {89, &kAda}, {90, &kHopper},
};
// clang-format on

}  // namespace

const OpcodeInfo* lookup_opcode(std::string_view base) {
  static const std::unordered_map<std::string_view, OpcodeInfo> table = [] {
    std::unordered_map<std::string_view, OpcodeInfo> t;
    for (const Entry& e : kOpcodes) t.emplace(e.name, e.info);
    return t;
  }();
  const auto it = table.find(base);
  return it == table.end() ? nullptr : &it->second;
}

const IsaLatencies* latencies_for(uint32_t binary_version) {
  for (const Version& v : kVersions)
    if (v.version == binary_version) return v.table;
  return nullptr;
}

std::string known_binary_versions() {
  std::string s;
  for (const Version& v : kVersions) s += (s.empty() ? "" : ", ") + std::to_string(v.version);
  return s;
}

}  // namespace l1d::sim::trace
