// Identifier rules for emitted SystemVerilog.
//
// Policy (docs/sv-subset.md "Names"): names chosen by a generator are never renamed
// silently. A keyword, an illegal identifier or a name that breaks the lowRISC convention
// for its kind is a gen::NameError at the moment the IR is built. `legalize()` exists for
// names derived from data (config strings), where a predictable rename is wanted.
#pragma once

#include <string>
#include <string_view>

namespace gen {

// What a name denotes; each kind has a lowRISC spelling rule.
enum class NameKind {
  kModule,         // lower_snake, not ending in _pkg
  kPackage,        // lower_snake ending in _pkg
  kParameter,      // UpperCamelCase
  kLocalparam,     // UpperCamelCase
  kInput,          // lower_snake ending in _i (active low: _ni)
  kOutput,         // lower_snake ending in _o (active low: _no)
  kSignal,         // lower_snake, no port suffix
  kEnumType,       // lower_snake ending in _e
  kStructType,     // lower_snake ending in _t
  kTypeAlias,      // lower_snake ending in _t
  kEnumItem,       // UpperCamelCase
  kField,          // lower_snake
  kGenerateBlock,  // g_ + lower_snake
  kInstance,       // u_ + lower_snake
  kFunction,       // lower_snake
  kArgument,       // lower_snake
  kLocal,          // lower_snake (function local)
  kLoopVar,        // lower_snake (procedural for or genvar)
  kAssertion,      // UpperCamelCase ending in _A (lowRISC prim_assert style), e.g. MshrRespPending_A
};

std::string_view to_string(NameKind kind);

// True for every keyword of IEEE 1800-2017 Annex B (Table B.1).
bool is_keyword(std::string_view name);

// A simple identifier of the profile: [A-Za-z_][A-Za-z0-9_]*. `$` and escaped
// identifiers are legal SystemVerilog but deliberately outside the profile.
bool is_legal_identifier(std::string_view name);

bool is_lower_snake(std::string_view name);
bool is_upper_camel(std::string_view name);

// Throws NameError (rule "name-illegal", "name-keyword" or "name-style").
void check_name(std::string_view name, NameKind kind);

// Predictable rename for data-derived text: every character outside [A-Za-z0-9_] becomes
// '_', a leading digit gets an "n" prefix, empty text becomes "n", and a keyword gets
// the suffix "_sv". The result is a legal identifier (not necessarily lowRISC style).
std::string legalize(std::string_view raw);

}  // namespace gen
