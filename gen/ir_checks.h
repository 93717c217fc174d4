// Checks shared by the IR builders (gen/ir.cpp, gen/package.cpp). Internal to gen/.
#pragma once

#include <string>
#include <string_view>

#include "gen/error.h"
#include "gen/expr.h"
#include "gen/profile.h"

namespace gen::ir_checks {

inline std::string q(std::string_view s) { return "'" + std::string(s) + "'"; }

inline const ExprNode& need(const Expr& e, std::string_view what) {
  if (e.empty()) throw IrError("empty-expr", std::string(what) + ": an empty expression was given");
  return e.node();
}

// '0 or a number assigned to an enum makes Verilator warn ENUMVALUE (SV-SUBSET.md).
inline void check_enum_value(const Expr& lhs, const Expr& rhs) {
  const ExprNode& l = lhs.node();
  const ExprNode& r = need(rhs, "assigned value");
  const bool literal = r.kind == ExprKind::kFill || r.kind == ExprKind::kLiteral || r.kind == ExprKind::kUnsized;
  if (literal && l.type.is_enum()) {
    refuse(Rule::kZeroToEnum, "a literal assigned to " + q(l.name) + " of enum type " + l.type.def()->name);
  }
}

// A parameter or localparam of enum type initialised with a literal (ENUMVALUE too).
inline void check_enum_init(const Type& type, const Expr& value, std::string_view name) {
  const ExprKind k = value.node().kind;
  if (type.is_enum() && (k == ExprKind::kFill || k == ExprKind::kLiteral || k == ExprKind::kUnsized)) {
    refuse(Rule::kZeroToEnum, "a literal initialises " + q(name) + " of enum type " + type.def()->name);
  }
}

// Types that may appear in a declaration of the profile.
inline void check_type_usable(const Type& t, std::string_view where) {
  if (t.empty()) throw IrError("empty-type", std::string(where) + ": an empty type was given");
  if (t.kind() == Type::Kind::kAnonStruct) refuse(Rule::kAnonymousStruct, std::string(where));
  if (t.kind() == Type::Kind::kVoid) throw IrError("void-type", std::string(where) + ": void is only a function result");
}

}  // namespace gen::ir_checks
