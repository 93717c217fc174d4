// The target profile: the SystemVerilog subset that both Verilator 5.006 and Yosys 0.23
// accept and compile correctly (measured in /work/shared/SV-SUBSET.md; the implemented
// profile is documented in docs/sv-subset.md).
//
// The IR builders call `refuse()` the moment a caller asks for a construct outside the
// profile, so illegal output cannot be built, let alone emitted.
#pragma once

#include <span>
#include <string_view>

namespace gen {

enum class Rule {
  // SV-SUBSET.md "Refuse these".
  kFillOnesParam,        // '1 as a parameter / localparam initialiser
  kProceduralDecl,       // variable declaration inside a procedural begin/end
  kBreakContinue,        // break / continue
  kUniqueIf,             // unique if / priority if
  kFunctionVoid,         // function void
  kParameterType,        // parameter type
  kStreaming,            // streaming operators {<<{}} {>>{}}
  kImport,               // import pkg::*
  kReturn,               // return in functions
  kInside,               // inside
  kEnumCast,             // type_e'(x)
  kMultiDimPacked,       // logic [3:0][7:0], also through a typedef
  kUnpackedStructArray,  // pkg::s_t mem [8]
  kStructFunction,       // struct locals, results or arguments in functions
  kArrayElementMember,   // mem[i].field
  kAssignmentPattern,    // '{...}
  kZeroToEnum,           // '0 (or any literal) assigned to an enum variable
  kBitsOfType,           // $bits(pkg::type)
  kAnonymousStruct,      // anonymous struct types (in ports and anywhere else)
  kUnpackedArrayPort,    // unpacked-array ports
  kLocalparamArray,      // localparam unpacked / packed 2-D arrays
  kInterfacePort,        // interfaces at module boundaries
  kEmptyPortConnection,  // .port() left empty
  kResetLoop64,          // for loop over more than 64 entries in one always_ff
  // Measured by gen/test/subset_tools_test.cpp (not in SV-SUBSET.md's lists).
  kTypeCast,             // pkg::t_t'(x): Yosys 0.23 syntax error
  kAssertActionBlock,    // assert (c) else $error(...): Yosys 0.23 syntax error
  kConcurrentAssert,     // assert property (@(posedge clk) ...): Yosys 0.23 syntax error
  kAssertInLoop,         // a labelled assertion inside a procedural for: Yosys 0.23 duplicate cell
  kAssertUnguarded,      // an assertion outside a verification region (`ifndef SYNTHESIS)
  // Conditions attached to SV-SUBSET.md's accepted list.
  kCaseDefault,          // unique/priority/unique0 case must have a default
  kCombDefaults,         // always_comb assigns defaults first (no latches)
};

struct RuleInfo {
  Rule rule;
  std::string_view id;       // stable short id, e.g. "fill-ones-param"
  std::string_view what;     // the refused construct
  std::string_view reason;   // why, citing the measurement
  std::string_view instead;  // what to write instead
};

const RuleInfo& rule_info(Rule rule);
std::span<const RuleInfo> all_rules();

// Throws ProfileError naming the rule, its reason and `detail` (where it happened).
[[noreturn]] void refuse(Rule rule, std::string_view detail);

}  // namespace gen
