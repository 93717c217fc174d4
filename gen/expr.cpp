#include "gen/expr.h"

#include <algorithm>

#include "gen/error.h"
#include "gen/names.h"
#include "gen/profile.h"

namespace gen {
namespace {

using NodePtr = std::shared_ptr<ExprNode>;

NodePtr new_node(ExprKind kind) {
  auto n = std::make_shared<ExprNode>();
  n->kind = kind;
  return n;
}

const ExprNode& need(const Expr& e, std::string_view what) {
  if (e.empty()) throw IrError("empty-expr", std::string(what) + ": an empty expression was given");
  return e.node();
}

Expr unary(Op op, const Expr& a) {
  need(a, "unary operator");
  auto n = new_node(ExprKind::kUnary);
  n->op = op;
  n->operands = {a};
  return Expr(n);
}

Expr binary(Op op, const Expr& a, const Expr& b) {
  need(a, "binary operator");
  need(b, "binary operator");
  auto n = new_node(ExprKind::kBinary);
  n->op = op;
  n->operands = {a, b};
  return Expr(n);
}

Expr sys(std::string_view name, const Expr& x) {
  need(x, name);
  auto n = new_node(ExprKind::kSysCall);
  n->name = name;
  n->operands = {x};
  return Expr(n);
}

Expr literal(unsigned width, uint64_t value, Radix radix) {
  if (width == 0 || width > 64) {
    throw IrError("literal-width", "sized literal width " + std::to_string(width) +
                                       " is outside 1..64 (use repl() or all_ones() for wide constants)");
  }
  if (width < 64 && (value >> width) != 0) {
    throw IrError("literal-width", "value " + std::to_string(value) + " does not fit in " +
                                       std::to_string(width) + " bits");
  }
  auto n = new_node(ExprKind::kLiteral);
  n->width = width;
  n->value = value;
  n->radix = radix;
  return Expr(n);
}

// Bit and part selects apply to names only: SystemVerilog has no select of an arbitrary
// expression (`(a + b)[3]` does not parse).
void check_select_base(const Expr& base, std::string_view what) {
  const ExprKind k = need(base, what).kind;
  if (k != ExprKind::kRef && k != ExprKind::kScopedRef && k != ExprKind::kIndex && k != ExprKind::kMember) {
    throw IrError("select-on-expression",
                  std::string(what) + " applies to a name, an element or a field, not to an expression");
  }
}

NodePtr select(ExprKind kind, const Expr& base, std::vector<Expr> operands, std::string_view what) {
  check_select_base(base, what);
  for (const Expr& o : operands) need(o, what);
  auto n = new_node(kind);
  n->operands.push_back(base);
  for (Expr& o : operands) n->operands.push_back(std::move(o));
  return n;
}

int64_t clog2_of(int64_t v) {
  int64_t r = 0;
  while (r < 63 && (int64_t{1} << r) < v) ++r;
  return r;
}

}  // namespace

// --- Expr -------------------------------------------------------------------------------

std::shared_ptr<const ExprNode> Expr::make_unsized(uint64_t value, bool negative) {
  if (negative) throw IrError("literal-negative", "negative literals are not in the IR; use unary minus");
  auto n = new_node(ExprKind::kUnsized);
  n->value = value;
  return n;
}

const ExprNode& Expr::node() const {
  if (!node_) throw IrError("empty-expr", "an empty expression was used");
  return *node_;
}

namespace {
// A declared one-bit signal (plain `logic`, no packed or unpacked dimension): a per-way or per-slot
// vector of a 1-way configuration. SystemVerilog has no bit select of it, so its bit 0 is itself.
bool one_bit_signal(const ExprNode& n) {
  if (n.kind != ExprKind::kRef || n.unpacked_dims != 0 || n.type.empty()) return false;
  const TypeNode& t = *n.type.ptr();
  return t.kind == Type::Kind::kLogic && t.width.empty() && !t.def;
}
bool is_unsized(const Expr& e, uint64_t v) {
  const ExprNode& n = need(e, "part select width");
  return n.kind == ExprKind::kUnsized && n.value == v;
}
}  // namespace

Expr Expr::operator[](const Expr& index) const {
  if (one_bit_signal(node())) {
    // A constant index must be 0; a genvar or variable one can only be 0 where the select is legal.
    const ExprNode& i = need(index, "bit select");
    if (i.kind == ExprKind::kUnsized && i.value != 0) {
      throw IrError("index-range", "bit " + std::to_string(i.value) + " of the one-bit signal '" + node().name + "'");
    }
    return *this;
  }
  NodePtr n = select(ExprKind::kIndex, *this, {index}, "bit select");
  // Selecting an element of a memory keeps its element type (for the enum checks).
  if (node_->unpacked_dims > 0) {
    n->unpacked_dims = node_->unpacked_dims - 1;
    n->type = node_->type;
  }
  return Expr(n);
}

Expr Expr::slice(const Expr& hi, const Expr& lo) const {
  return Expr(select(ExprKind::kSlice, *this, {hi, lo}, "part select"));
}

Expr Expr::part(const Expr& base, const Expr& width) const {
  // One bit of a one-bit signal (a 1-way configuration's per-way vector): the signal itself.
  if (one_bit_signal(node()) && is_unsized(width, 1)) return *this;
  return Expr(select(ExprKind::kPart, *this, {base, width}, "indexed part select"));
}

Expr Expr::field(std::string_view name) const {
  const ExprNode& b = need(*this, "member access");
  if (b.kind == ExprKind::kIndex) {
    refuse(Rule::kArrayElementMember, "." + std::string(name) + " of an indexed element");
  }
  if (b.kind != ExprKind::kRef && b.kind != ExprKind::kScopedRef && b.kind != ExprKind::kMember) {
    throw IrError("select-on-expression", "member access applies to a name or a field, not to an expression");
  }
  if (!is_legal_identifier(name)) throw IrError("unknown-field", "'" + std::string(name) + "' is not a field name");
  Type field_type;
  if (!b.type.empty()) {
    if (!b.type.is_struct()) {
      throw IrError("unknown-field", "." + std::string(name) + " of an expression that is not a struct");
    }
    field_type = b.type.field_type(name);
  }
  auto n = new_node(ExprKind::kMember);
  n->operands = {*this};
  n->name = name;
  n->type = field_type;
  return Expr(n);
}

Expr Expr::eq(const Expr& rhs) const { return binary(Op::kEq, *this, rhs); }
Expr Expr::ne(const Expr& rhs) const { return binary(Op::kNe, *this, rhs); }
Expr Expr::lt(const Expr& rhs) const { return binary(Op::kLt, *this, rhs); }
Expr Expr::le(const Expr& rhs) const { return binary(Op::kLe, *this, rhs); }
Expr Expr::gt(const Expr& rhs) const { return binary(Op::kGt, *this, rhs); }
Expr Expr::ge(const Expr& rhs) const { return binary(Op::kGe, *this, rhs); }
Expr Expr::land(const Expr& rhs) const { return binary(Op::kLogAnd, *this, rhs); }
Expr Expr::lor(const Expr& rhs) const { return binary(Op::kLogOr, *this, rhs); }
Expr Expr::ashr(const Expr& rhs) const { return binary(Op::kAshr, *this, rhs); }

Expr operator~(const Expr& a) { return unary(Op::kNot, a); }
Expr operator!(const Expr& a) { return unary(Op::kLogNot, a); }
Expr operator-(const Expr& a) { return unary(Op::kNeg, a); }
Expr operator*(const Expr& a, const Expr& b) { return binary(Op::kMul, a, b); }
Expr operator/(const Expr& a, const Expr& b) { return binary(Op::kDiv, a, b); }
Expr operator%(const Expr& a, const Expr& b) { return binary(Op::kMod, a, b); }
Expr operator+(const Expr& a, const Expr& b) { return binary(Op::kAdd, a, b); }
Expr operator-(const Expr& a, const Expr& b) { return binary(Op::kSub, a, b); }
Expr operator<<(const Expr& a, const Expr& b) { return binary(Op::kShl, a, b); }
Expr operator>>(const Expr& a, const Expr& b) { return binary(Op::kShr, a, b); }
Expr operator&(const Expr& a, const Expr& b) { return binary(Op::kAnd, a, b); }
Expr operator^(const Expr& a, const Expr& b) { return binary(Op::kXor, a, b); }
Expr operator|(const Expr& a, const Expr& b) { return binary(Op::kOr, a, b); }

// --- Type -------------------------------------------------------------------------------

namespace {
Type make_type(TypeNode n) { return Type(std::make_shared<const TypeNode>(std::move(n))); }
const TypeNode& need(const Type& t) {
  if (t.empty()) throw IrError("empty-type", "an empty type was used");
  return *t.ptr();
}
}  // namespace

Type Type::logic() { return make_type(TypeNode{}); }

Type Type::logic(const Expr& width) {
  need(width, "logic width");
  TypeNode n;
  // A one-bit vector is plain `logic`; `[0:0]` is never emitted.
  if (!(width.node().kind == ExprKind::kUnsized && width.node().value == 1)) n.width = width;
  if (width.node().kind == ExprKind::kUnsized && width.node().value == 0) {
    throw IrError("zero-width", "logic vectors need a width of at least 1");
  }
  return make_type(std::move(n));
}

Type Type::logic_signed(const Expr& width) {
  Type t = logic(width);
  TypeNode n = *t.ptr();
  n.is_signed = true;
  return make_type(std::move(n));
}

Type Type::int_() { return make_type(TypeNode{Kind::kInt, true, {}, nullptr, {}}); }
Type Type::int_unsigned() { return make_type(TypeNode{Kind::kIntUnsigned, false, {}, nullptr, {}}); }

Type Type::packed_array(const std::vector<Expr>& widths) {
  if (widths.size() > 1) refuse(Rule::kMultiDimPacked, std::to_string(widths.size()) + " packed dimensions");
  if (widths.empty()) return logic();
  return logic(widths.front());
}

Type Type::packed(const Expr& width) const {
  const TypeNode& n = need(*this);
  if (n.kind == Kind::kNamed) {
    refuse(Rule::kMultiDimPacked, "a packed dimension on typedef '" + n.def->name + "'");
  }
  if (n.kind != Kind::kLogic) throw IrError("packed-dim", "only logic takes a packed dimension");
  if (!n.width.empty()) refuse(Rule::kMultiDimPacked, "a second packed dimension on a logic vector");
  return n.is_signed ? logic_signed(width) : logic(width);
}

Type Type::anonymous_struct(std::vector<StructField> fields) {
  TypeNode n;
  n.kind = Kind::kAnonStruct;
  n.fields = std::move(fields);
  return make_type(std::move(n));
}

Type Type::void_() { return make_type(TypeNode{Kind::kVoid, false, {}, nullptr, {}}); }

Type::Kind Type::kind() const { return need(*this).kind; }
bool Type::is_signed() const { return need(*this).is_signed; }
const Expr& Type::width() const { return need(*this).width; }
const TypeDef* Type::def() const { return need(*this).def.get(); }

bool Type::is_enum() const {
  return !empty() && node_->kind == Kind::kNamed && node_->def->kind == TypeDef::Kind::kEnum;
}

bool Type::is_struct() const {
  if (empty()) return false;
  if (node_->kind == Kind::kAnonStruct) return true;
  if (node_->kind != Kind::kNamed) return false;
  const TypeDef* d = node_->def.get();
  // An alias of a struct is a struct too.
  while (d->kind == TypeDef::Kind::kAlias) {
    if (d->base.empty() || d->base.kind() != Kind::kNamed) return d->base.is_struct();
    d = d->base.def();
  }
  return d->kind == TypeDef::Kind::kStruct;
}

const std::vector<StructField>& Type::fields() const {
  static const std::vector<StructField> kNone;
  if (!is_struct()) return kNone;
  if (node_->kind == Kind::kAnonStruct) return node_->fields;
  const TypeDef* d = node_->def.get();
  while (d->kind == TypeDef::Kind::kAlias) {
    if (d->base.kind() != Kind::kNamed) return d->base.fields();
    d = d->base.def();
  }
  return d->fields;
}

Expr Type::item(std::string_view name) const {
  if (!is_enum()) throw IrError("unknown-item", "item() of a type that is not an enum");
  const TypeDef& d = *node_->def;
  const bool found = std::any_of(d.items.begin(), d.items.end(), [&](const EnumItem& i) { return i.name == name; });
  if (!found) throw IrError("unknown-item", "enum " + d.name + " has no item '" + std::string(name) + "'");
  return make_scoped_ref(d.package, name, RefKind::kEnumItem, *this);
}

Type Type::field_type(std::string_view name) const {
  for (const StructField& f : fields()) {
    if (f.name == name) return f.type;
  }
  throw IrError("unknown-field", "struct has no field '" + std::string(name) + "'");
}

// --- Free builders ----------------------------------------------------------------------

Expr ref(std::string_view name) { return make_ref(name, RefKind::kUnknown, Type()); }

Expr scoped(std::string_view package, std::string_view name) {
  return make_scoped_ref(package, name, RefKind::kUnknown, Type());
}

Expr make_ref(std::string_view name, RefKind kind, const Type& type, size_t unpacked_dims,
              std::optional<int64_t> value) {
  if (!is_legal_identifier(name) || is_keyword(name)) {
    throw NameError("name-illegal", "reference to '" + std::string(name) + "', which is not a legal identifier");
  }
  auto n = new_node(ExprKind::kRef);
  n->name = name;
  n->ref = kind;
  n->type = type;
  n->unpacked_dims = unpacked_dims;
  n->const_value = value;
  return Expr(n);
}

Expr make_scoped_ref(std::string_view package, std::string_view name, RefKind kind, const Type& type,
                     std::optional<int64_t> value) {
  if (!is_legal_identifier(package) || !is_legal_identifier(name) || is_keyword(name)) {
    throw NameError("name-illegal", "reference to '" + std::string(package) + "::" + std::string(name) +
                                        "', which is not a legal scoped name");
  }
  auto n = new_node(ExprKind::kScopedRef);
  n->package = package;
  n->name = name;
  n->ref = kind == RefKind::kUnknown ? RefKind::kPackageConst : kind;
  n->type = type;
  n->const_value = value;
  return Expr(n);
}

Expr lit(unsigned width, uint64_t value) { return literal(width, value, Radix::kDec); }
Expr hex(unsigned width, uint64_t value) { return literal(width, value, Radix::kHex); }
Expr bin(unsigned width, uint64_t value) { return literal(width, value, Radix::kBin); }
Expr bit(bool value) { return literal(1, value ? 1 : 0, Radix::kBin); }

Expr zeros() { return Expr(new_node(ExprKind::kFill)); }

Expr ones() {
  auto n = new_node(ExprKind::kFill);
  n->fill_ones = true;
  return Expr(n);
}

Expr all_ones(const Expr& width) { return repl(width, bit(true)); }

Expr concat(std::vector<Expr> parts) {
  if (parts.empty()) throw IrError("empty-concat", "a concatenation needs at least one part");
  for (const Expr& p : parts) need(p, "concatenation");
  auto n = new_node(ExprKind::kConcat);
  n->operands = std::move(parts);
  return Expr(n);
}

Expr repl(const Expr& count, const Expr& x) {
  need(count, "replication count");
  need(x, "replication");
  auto n = new_node(ExprKind::kReplicate);
  n->operands = {count, x};
  return Expr(n);
}

Expr mux(const Expr& cond, const Expr& then_value, const Expr& else_value) {
  need(cond, "?: condition");
  need(then_value, "?: value");
  need(else_value, "?: value");
  auto n = new_node(ExprKind::kTernary);
  n->operands = {cond, then_value, else_value};
  return Expr(n);
}

Expr cast(const Expr& width, const Expr& x) {
  need(width, "cast width");
  need(x, "cast");
  auto n = new_node(ExprKind::kWidthCast);
  n->operands = {width, x};
  return Expr(n);
}

Expr cast(const Type& type, const Expr& x) {
  need(x, "cast");
  if (type.is_enum()) refuse(Rule::kEnumCast, "cast to " + type.def()->name);
  refuse(Rule::kTypeCast, type.empty() || type.kind() != Type::Kind::kNamed ? "cast to a type"
                                                                            : "cast to " + type.def()->name);
}

Expr signed_cast(const Expr& x) {
  need(x, "signed'()");
  auto n = new_node(ExprKind::kSignedCast);
  n->operands = {x};
  return Expr(n);
}

Expr to_signed(const Expr& x) { return sys("$signed", x); }
Expr to_unsigned(const Expr& x) { return sys("$unsigned", x); }
Expr countones(const Expr& x) { return sys("$countones", x); }
Expr onehot(const Expr& x) { return sys("$onehot", x); }
Expr onehot0(const Expr& x) { return sys("$onehot0", x); }
Expr clog2(const Expr& x) { return sys("$clog2", x); }
Expr red_and(const Expr& x) { return unary(Op::kRedAnd, x); }
Expr red_or(const Expr& x) { return unary(Op::kRedOr, x); }
Expr red_xor(const Expr& x) { return unary(Op::kRedXor, x); }

Expr call(std::string_view package, std::string_view function, std::vector<Expr> args) {
  if (!package.empty() && !is_legal_identifier(package)) {
    throw NameError("name-illegal", "'" + std::string(package) + "' is not a package name");
  }
  if (!is_legal_identifier(function) || is_keyword(function)) {
    throw NameError("name-illegal", "'" + std::string(function) + "' is not a function name");
  }
  for (const Expr& a : args) need(a, "function argument");
  auto n = new_node(ExprKind::kCall);
  n->package = package;
  n->name = function;
  n->operands = std::move(args);
  return Expr(n);
}

Expr inside(const Expr&, const std::vector<Expr>&) { refuse(Rule::kInside, "inside {...}"); }
Expr stream_left(const std::vector<Expr>&) { refuse(Rule::kStreaming, "{<<{...}}"); }
Expr stream_right(const std::vector<Expr>&) { refuse(Rule::kStreaming, "{>>{...}}"); }
Expr assignment_pattern(const std::vector<Expr>&) { refuse(Rule::kAssignmentPattern, "'{...}"); }
Expr bits(const Type& type) {
  refuse(Rule::kBitsOfType, type.empty() || type.kind() != Type::Kind::kNamed ? "$bits(type)"
                                                                               : "$bits(" + type.def()->name + ")");
}

// --- Analysis ---------------------------------------------------------------------------

std::optional<int64_t> const_value(const Expr& e) {
  if (e.empty()) return std::nullopt;
  const ExprNode& n = e.node();
  switch (n.kind) {
    case ExprKind::kLiteral:
    case ExprKind::kUnsized:
      return static_cast<int64_t>(n.value);
    case ExprKind::kRef:
    case ExprKind::kScopedRef:
      return n.const_value;
    case ExprKind::kSysCall:
      if (n.name == "$clog2") {
        if (auto v = const_value(n.operands[0])) return clog2_of(*v);
      }
      return std::nullopt;
    case ExprKind::kTernary: {
      auto c = const_value(n.operands[0]);
      if (!c) return std::nullopt;
      return const_value(n.operands[*c != 0 ? 1 : 2]);
    }
    case ExprKind::kBinary: {
      auto a = const_value(n.operands[0]);
      auto b = const_value(n.operands[1]);
      if (!a || !b) return std::nullopt;
      switch (n.op) {
        case Op::kAdd: return *a + *b;
        case Op::kSub: return *a - *b;
        case Op::kMul: return *a * *b;
        case Op::kDiv: return *b == 0 ? std::nullopt : std::optional<int64_t>(*a / *b);
        case Op::kMod: return *b == 0 ? std::nullopt : std::optional<int64_t>(*a % *b);
        case Op::kShl: return *b < 0 || *b > 62 ? std::nullopt : std::optional<int64_t>(*a << *b);
        case Op::kShr: return *b < 0 || *b > 63 ? std::nullopt : std::optional<int64_t>(*a >> *b);
        case Op::kAnd: return *a & *b;
        case Op::kOr: return *a | *b;
        case Op::kXor: return *a ^ *b;
        case Op::kLt: return *a < *b;
        case Op::kLe: return *a <= *b;
        case Op::kGt: return *a > *b;
        case Op::kGe: return *a >= *b;
        case Op::kEq: return *a == *b;
        case Op::kNe: return *a != *b;
        case Op::kLogAnd: return *a && *b;
        case Op::kLogOr: return *a || *b;
        default: return std::nullopt;
      }
    }
    default:
      return std::nullopt;
  }
}

bool contains_fill_ones(const Expr& e) {
  if (e.empty()) return false;
  const ExprNode& n = e.node();
  if (n.kind == ExprKind::kFill && n.fill_ones) return true;
  return std::any_of(n.operands.begin(), n.operands.end(), contains_fill_ones);
}

namespace {
std::string_view ref_kind_name(RefKind k) {
  switch (k) {
    case RefKind::kInput: return "an input port";
    case RefKind::kParameter: return "a parameter";
    case RefKind::kLocalparam: return "a localparam";
    case RefKind::kPackageConst: return "a package constant";
    case RefKind::kEnumItem: return "an enum item";
    case RefKind::kGenvar: return "a genvar";
    case RefKind::kLoopVar: return "a loop variable";
    case RefKind::kArgument: return "a function argument";
    default: return "a name";
  }
}

void collect_roots(const Expr& e, std::vector<std::string>& out) {
  const ExprNode& n = need(e, "assignment target");
  switch (n.kind) {
    case ExprKind::kRef:
      switch (n.ref) {
        case RefKind::kUnknown:
        case RefKind::kSignal:
        case RefKind::kOutput:
        case RefKind::kLocal:
        case RefKind::kResult:
          out.push_back(n.name);
          return;
        default:
          throw IrError("not-lvalue", "'" + n.name + "' (" + std::string(ref_kind_name(n.ref)) +
                                          ") cannot be assigned");
      }
    case ExprKind::kIndex:
    case ExprKind::kSlice:
    case ExprKind::kPart:
    case ExprKind::kMember:
      collect_roots(n.operands[0], out);
      return;
    case ExprKind::kConcat:
      for (const Expr& p : n.operands) collect_roots(p, out);
      return;
    default:
      throw IrError("not-lvalue", "assignment target is not a name, select, field or concatenation of those");
  }
}
}  // namespace

std::vector<std::string> lvalue_roots(const Expr& e) {
  std::vector<std::string> out;
  collect_roots(e, out);
  return out;
}

}  // namespace gen
