// The one printer of the IR. It owns every formatting decision (2-space indentation,
// alignment, blank lines, parentheses), so block generators never format text, and the
// same IR always prints byte-identically.
#pragma once

#include <string>
#include <string_view>

#include "gen/expr.h"
#include "gen/ir.h"

namespace gen {

// Who made a file: printed at the top of every emitted file, with a do-not-edit note.
struct FileHeader {
  std::string command;        // e.g. "dcgen --preset gtx480"
  std::string configuration;  // e.g. "configs/gtx480.yaml (policy baseline)"
};

// One module per file, wrapped in `default_nettype none ... `default_nettype wire.
std::string emit(const Module& module, const FileHeader& header);
std::string emit(const Package& package, const FileHeader& header);

// An expression with the fewest parentheses that keep its meaning (IEEE 1800-2017
// Table 11-2), except that a ?: in the middle operand of another ?: is parenthesised for
// the reader. Names of `package_context` print unqualified.
std::string emit_expr(const Expr& e, std::string_view package_context = {});
std::string emit_type(const Type& t, std::string_view package_context = {});

}  // namespace gen
