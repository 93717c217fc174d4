// Types and expressions of the SystemVerilog IR.
//
// `Expr` and `Type` are small value types holding a shared immutable node, so building a
// tree is cheap and reads like the SystemVerilog it stands for:
//
//   Expr hit = valid_q[way] & tag_q[way].eq(req_tag);
//   Expr next = mux(en_i, cnt_q + lit(8, 1), cnt_q);
//
// Every profile rule that concerns one expression or type (SV-SUBSET.md) is checked by the
// function that builds it; see gen/profile.h. Comparison and logical operators are named
// methods (`a.eq(b)`, `a.land(b)`) so that C++'s `==` and `&&` keep their meaning.
#pragma once

#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gen {

struct ExprNode;
struct TypeNode;
struct TypeDef;

class Expr {
 public:
  // An empty expression: "not given". Using it anywhere is an error.
  Expr() = default;
  // An unsized decimal literal (`5`). Implicit so that `cnt_q + 1` reads naturally.
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  Expr(T value)  // NOLINT(google-explicit-constructor)
      : node_(make_unsized(static_cast<uint64_t>(value), std::cmp_less(value, 0))) {}
  explicit Expr(std::shared_ptr<const ExprNode> node) : node_(std::move(node)) {}

  bool empty() const { return !node_; }
  const ExprNode& node() const;  // throws IrError when empty

  Expr operator[](const Expr& index) const;              // a[i]
  Expr slice(const Expr& hi, const Expr& lo) const;      // a[hi:lo]
  Expr part(const Expr& base, const Expr& width) const;  // a[base +: width]
  Expr field(std::string_view name) const;               // a.name

  Expr eq(const Expr& rhs) const;    // ==
  Expr ne(const Expr& rhs) const;    // !=
  Expr lt(const Expr& rhs) const;    // <
  Expr le(const Expr& rhs) const;    // <=
  Expr gt(const Expr& rhs) const;    // >
  Expr ge(const Expr& rhs) const;    // >=
  Expr land(const Expr& rhs) const;  // &&
  Expr lor(const Expr& rhs) const;   // ||
  Expr ashr(const Expr& rhs) const;  // >>>

 private:
  static std::shared_ptr<const ExprNode> make_unsized(uint64_t value, bool negative);
  std::shared_ptr<const ExprNode> node_;
};

struct StructField;

class Type {
 public:
  enum class Kind { kLogic, kInt, kIntUnsigned, kNamed, kAnonStruct, kVoid };

  Type() = default;  // unknown type
  static Type logic();                          // logic
  static Type logic(const Expr& width);         // logic [width-1:0]  (width 1 -> logic)
  static Type logic_signed(const Expr& width);  // logic signed [width-1:0]
  static Type int_();                           // int
  static Type int_unsigned();                   // int unsigned
  // Outside the profile; they exist so the refusal is tested.
  static Type packed_array(const std::vector<Expr>& widths);  // logic [a-1:0][b-1:0]: refused for >1 dims
  Type packed(const Expr& width) const;  // adds a packed dimension; refused unless this is 1-bit logic
  static Type anonymous_struct(std::vector<StructField> fields);  // refused wherever it is used
  static Type void_();                                            // refused as a function result

  bool empty() const { return !node_; }
  Kind kind() const;
  bool is_signed() const;
  const Expr& width() const;  // packed width of logic; empty for one bit
  const TypeDef* def() const;  // the package typedef of a kNamed type
  bool is_enum() const;
  bool is_struct() const;  // named or anonymous struct
  const std::vector<StructField>& fields() const;  // struct fields (empty otherwise)

  Expr item(std::string_view name) const;              // enum item, as pkg::Item
  Type field_type(std::string_view name) const;        // struct field type; IrError if absent

  explicit Type(std::shared_ptr<const TypeNode> node) : node_(std::move(node)) {}
  const std::shared_ptr<const TypeNode>& ptr() const { return node_; }

 private:
  std::shared_ptr<const TypeNode> node_;
};

struct StructField {
  std::string name;
  Type type;
};

struct EnumItem {
  EnumItem(const char* n) : name(n) {}          // NOLINT: {"StIdle", "StBusy"}
  EnumItem(std::string n) : name(std::move(n)) {}  // NOLINT
  EnumItem(std::string n, uint64_t v) : name(std::move(n)), value(v) {}
  std::string name;
  std::optional<uint64_t> value;  // emitted as `Name = W'dV`
};

// A typedef declared in a package.
struct TypeDef {
  enum class Kind { kEnum, kStruct, kAlias };
  Kind kind = Kind::kAlias;
  std::string package;
  std::string name;
  Type base;  // enum base (logic vector) or aliased type
  std::vector<EnumItem> items;
  std::vector<StructField> fields;
};

struct TypeNode {
  Type::Kind kind = Type::Kind::kLogic;
  bool is_signed = false;
  Expr width;  // kLogic: packed width, empty for one bit
  std::shared_ptr<const TypeDef> def;
  std::vector<StructField> fields;  // kAnonStruct
};

enum class ExprKind {
  kRef,         // name
  kScopedRef,   // pkg::name
  kLiteral,     // 8'd5 4'hF 1'b1
  kUnsized,     // 5
  kFill,        // '0 '1
  kUnary,       // op a
  kBinary,      // a op b
  kTernary,     // c ? t : e
  kConcat,      // {a, b}
  kReplicate,   // {n{a}}
  kIndex,       // a[i]
  kSlice,       // a[hi:lo]
  kPart,        // a[base +: w]
  kMember,      // a.f
  kWidthCast,   // W'(x)
  kSignedCast,  // signed'(x)
  kSysCall,     // $countones(x) ...
  kCall,        // pkg::f(x) / f(x)
};

enum class Op {
  // unary
  kNot, kLogNot, kNeg, kRedAnd, kRedOr, kRedXor,
  // binary
  kMul, kDiv, kMod, kAdd, kSub, kShl, kShr, kAshr, kLt, kLe, kGt, kGe, kEq, kNe,
  kAnd, kXor, kOr, kLogAnd, kLogOr,
};

enum class Radix { kDec, kHex, kBin };

// What a reference denotes; it decides where a name may be assigned.
enum class RefKind { kUnknown, kSignal, kInput, kOutput, kParameter, kLocalparam, kPackageConst,
                     kEnumItem, kGenvar, kLoopVar, kArgument, kLocal, kResult };

struct ExprNode {
  ExprKind kind = ExprKind::kRef;
  Op op = Op::kNot;
  std::string name;     // identifier, member, function or system function ("$clog2")
  std::string package;  // kScopedRef / kCall: the package ("" for a call inside it)
  std::vector<Expr> operands;
  uint64_t value = 0;  // literals
  unsigned width = 0;  // kLiteral
  Radix radix = Radix::kDec;
  bool fill_ones = false;  // kFill
  RefKind ref = RefKind::kUnknown;
  Type type;                  // what the expression denotes, when known
  size_t unpacked_dims = 0;   // remaining unpacked dimensions (memories)
  std::optional<int64_t> const_value;  // parameters and localparams with a known value
};

// --- Building expressions ---------------------------------------------------------------
// An unchecked reference; prefer the handles the module and package builders return,
// which carry the type and what the name denotes.
Expr ref(std::string_view name);
Expr scoped(std::string_view package, std::string_view name);  // pkg::name

Expr lit(unsigned width, uint64_t value);  // 8'd5
Expr hex(unsigned width, uint64_t value);  // 4'hF (digits padded to the width)
Expr bin(unsigned width, uint64_t value);  // 4'b0101
Expr bit(bool value);                      // 1'b1 / 1'b0
Expr zeros();                              // '0
Expr ones();                               // '1 (refused in parameter initialisers)
Expr all_ones(const Expr& width);          // {W{1'b1}}

Expr concat(std::vector<Expr> parts);               // {a, b}
Expr repl(const Expr& count, const Expr& x);        // {n{x}}
Expr mux(const Expr& cond, const Expr& then_value, const Expr& else_value);  // c ? t : e
Expr cast(const Expr& width, const Expr& x);        // W'(x)
// Refused: enum casts (rule enum-cast) and every other typedef cast (rule type-cast).
Expr cast(const Type& type, const Expr& x);
Expr signed_cast(const Expr& x);                    // signed'(x)
Expr to_signed(const Expr& x);                      // $signed(x)
Expr to_unsigned(const Expr& x);                    // $unsigned(x)
Expr countones(const Expr& x);                      // $countones(x)
Expr onehot(const Expr& x);                         // $onehot(x)
Expr onehot0(const Expr& x);                        // $onehot0(x)
Expr clog2(const Expr& x);                          // $clog2(x)
Expr red_and(const Expr& x);                        // &x
Expr red_or(const Expr& x);                         // |x
Expr red_xor(const Expr& x);                        // ^x
Expr call(std::string_view package, std::string_view function, std::vector<Expr> args);

// Outside the profile: these always throw ProfileError (SV-SUBSET.md "Refuse these").
Expr inside(const Expr& x, const std::vector<Expr>& set);
Expr stream_left(const std::vector<Expr>& parts);   // {<<{...}}
Expr stream_right(const std::vector<Expr>& parts);  // {>>{...}}
Expr assignment_pattern(const std::vector<Expr>& parts);  // '{...}
Expr bits(const Type& type);                        // $bits(type)

Expr operator~(const Expr& a);
Expr operator!(const Expr& a);
Expr operator-(const Expr& a);
Expr operator*(const Expr& a, const Expr& b);
Expr operator/(const Expr& a, const Expr& b);
Expr operator%(const Expr& a, const Expr& b);
Expr operator+(const Expr& a, const Expr& b);
Expr operator-(const Expr& a, const Expr& b);
Expr operator<<(const Expr& a, const Expr& b);
Expr operator>>(const Expr& a, const Expr& b);
Expr operator&(const Expr& a, const Expr& b);
Expr operator^(const Expr& a, const Expr& b);
Expr operator|(const Expr& a, const Expr& b);

// --- Analysis ---------------------------------------------------------------------------
// The value of a constant expression built from literals, parameters and localparams with
// known values, + - * / % << >> & | ^, comparisons, ?: and $clog2; nullopt otherwise.
std::optional<int64_t> const_value(const Expr& e);
bool contains_fill_ones(const Expr& e);  // a '1 anywhere in the tree
// The names an lvalue writes (the root identifier of each part); IrError if `e` is not an
// lvalue (a literal, an operator, a package constant, ...).
std::vector<std::string> lvalue_roots(const Expr& e);
// A typed reference, as the builders create them.
Expr make_ref(std::string_view name, RefKind kind, const Type& type, size_t unpacked_dims = 0,
              std::optional<int64_t> value = std::nullopt);
Expr make_scoped_ref(std::string_view package, std::string_view name, RefKind kind, const Type& type,
                     std::optional<int64_t> value = std::nullopt);

}  // namespace gen
