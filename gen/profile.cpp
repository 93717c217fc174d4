#include "gen/profile.h"

#include <array>
#include <string>

#include "gen/error.h"

namespace gen {
namespace {

constexpr std::array<RuleInfo, 31> kRules = {{
    {Rule::kFillOnesParam, "fill-ones-param", "'1 in a parameter or localparam initialiser",
     "Yosys 0.23 evaluates it as 1, silently (upstream bug)", "all_ones(W), i.e. {W{1'b1}}"},
    {Rule::kProceduralDecl, "procedural-decl", "a variable declared inside a procedural begin/end",
     "outside the measured subset", "declare it in the module or generate scope (function locals are fine)"},
    {Rule::kBreakContinue, "break-continue", "break / continue", "outside the measured subset",
     "guard the loop body with an if"},
    {Rule::kUniqueIf, "unique-if", "unique if / priority if", "outside the measured subset",
     "a plain if/else chain, or unique/priority case"},
    {Rule::kFunctionVoid, "function-void", "function void", "outside the measured subset",
     "a function with a result assigned to its name"},
    {Rule::kParameterType, "parameter-type", "parameter type", "outside the measured subset",
     "generate one module per type from C++"},
    {Rule::kStreaming, "streaming", "streaming operators {<<{...}} / {>>{...}}",
     "outside the measured subset", "an explicit concatenation or a for loop"},
    {Rule::kImport, "import", "import of a package", "outside the measured subset",
     "refer to package members as pkg::name"},
    {Rule::kReturn, "return", "return in a function", "outside the measured subset",
     "assign the result to the function name"},
    {Rule::kInside, "inside", "the inside operator", "outside the measured subset",
     "an OR of == comparisons, or a case"},
    {Rule::kEnumCast, "enum-cast", "an enum cast type_e'(x)", "outside the measured subset",
     "a case that maps values to enum items"},
    {Rule::kMultiDimPacked, "multi-dim-packed", "a multi-dimensional packed array (logic [3:0][7:0], also via a typedef)",
     "Yosys 0.23 silently miscompiles the typedef form", "a flat vector with +: part selects, or an unpacked memory"},
    {Rule::kUnpackedStructArray, "unpacked-struct-array", "an unpacked array of structs (pkg::s_t mem [8])",
     "silently miscompiled", "logic [W-1:0] mem [N] plus a struct temporary"},
    {Rule::kStructFunction, "struct-function", "a function with a struct local, result or argument",
     "one form silently returns 0; a struct argument's fields fail in Yosys 0.23 ('Failed to resolve identifier', "
     "measured by the generator's probe)",
     "pass and return logic vectors (fields as separate arguments), or use always_comb"},
    {Rule::kArrayElementMember, "array-element-member", "a member of an array element (mem[i].field)",
     "outside the measured subset; Yosys without -noautowire builds garbage",
     "copy the element into a struct temporary first"},
    {Rule::kAssignmentPattern, "assignment-pattern", "an assignment pattern '{...}",
     "outside the measured subset", "assign fields one by one, or '0 then fields"},
    {Rule::kZeroToEnum, "zero-to-enum", "'0 or a literal assigned to an enum variable",
     "Verilator 5.006 warns ENUMVALUE", "assign an enum item"},
    {Rule::kBitsOfType, "bits-of-type", "$bits(pkg::type)", "outside the measured subset",
     "a package localparam holding the width"},
    {Rule::kAnonymousStruct, "anonymous-struct", "an anonymous struct (in a port or anywhere)",
     "refused in ports by the measurement; the profile has no other place for it",
     "a packed struct typedef in a package"},
    {Rule::kUnpackedArrayPort, "unpacked-array-port", "a port with unpacked dimensions",
     "outside the measured subset", "a flat packed vector port with +: part selects"},
    {Rule::kLocalparamArray, "localparam-array", "a localparam unpacked or packed 2-D array",
     "outside the measured subset", "a flat localparam vector or a case function"},
    {Rule::kInterfacePort, "interface-port", "an interface at a module boundary", "outside the measured subset",
     "struct-typed ports of package typedefs"},
    {Rule::kEmptyPortConnection, "empty-port-connection", "a port connection .port() left empty",
     "Verilator 5.006 warns PINCONNECTEMPTY", "connect an unused_* net"},
    {Rule::kResetLoop64, "reset-loop-64", "a for loop in an always_ff over more than 64 entries (or an unknown count)",
     "Verilator 5.006 fails with BLKLOOPINIT", "per-entry generate blocks, each with its own always_ff"},
    {Rule::kTypeCast, "type-cast", "a cast to a typedef pkg::t_t'(x)",
     "Yosys 0.23 stops with a syntax error (unexpected TOK_PKG_USER_TYPE), measured by the generator's probe",
     "assign the vector to a signal of the typedef (packed types convert), or cast(width, x)"},
    {Rule::kAssertActionBlock, "assert-action-block", "an assertion with an action block (assert (c) else $error(...))",
     "Yosys 0.23 read_verilog -formal stops with a syntax error (unexpected TOK_ELSE), measured by the generator's "
     "probe", "a plain labelled assertion: its label names the broken invariant, and Verilator prints it"},
    {Rule::kConcurrentAssert, "concurrent-assert", "a concurrent assertion assert property (@(posedge clk_i) ...)",
     "Yosys 0.23 read_verilog -formal stops with a syntax error (unexpected '@'), measured by the generator's probe",
     "Scope::assert_clocked: an immediate assertion in an always_ff, sampled at the clock edge"},
    {Rule::kAssertInLoop, "assert-in-loop", "a labelled assertion inside a procedural for loop",
     "Yosys 0.23 unrolls the loop and fails ('Cannot add procedural assertion ... already created'), measured by "
     "the generator's probe", "fold the loop into a signal and assert it once, or one assertion per generate block"},
    {Rule::kAssertUnguarded, "assert-unguarded", "an assertion outside a verification region",
     "synthesis must not see assertions; the region prints `ifndef SYNTHESIS (Yosys defines SYNTHESIS when it "
     "synthesizes and FORMAL instead with read_verilog -formal; Verilator defines neither)",
     "Scope::verification(...) around the assertions and the signals only they read"},
    {Rule::kCaseDefault, "case-default", "a unique/priority/unique0 case without a default",
     "the measured subset has a default in every case", "add a default item"},
    {Rule::kCombDefaults, "comb-defaults", "an always_comb assignment to a signal without a default",
     "it infers a latch, which both tools reject", "list the signal with its default in always_comb's drives"},
}};

}  // namespace

const RuleInfo& rule_info(Rule rule) {
  for (const RuleInfo& info : kRules) {
    if (info.rule == rule) return info;
  }
  return kRules.front();  // unreachable: every Rule has an entry (tested)
}

std::span<const RuleInfo> all_rules() { return kRules; }

void refuse(Rule rule, std::string_view detail) {
  const RuleInfo& info = rule_info(rule);
  std::string msg = "profile rule '" + std::string(info.id) + "': " + std::string(info.what) + " is refused";
  if (!detail.empty()) msg += " (" + std::string(detail) + ")";
  msg += ". Why: " + std::string(info.reason) + " [SV-SUBSET.md]. Instead: " + std::string(info.instead) + ".";
  throw ProfileError(std::string(info.id), msg);
}

}  // namespace gen
