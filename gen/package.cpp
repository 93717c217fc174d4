// Packages: localparams, typedefs and automatic functions.
#include <algorithm>

#include "gen/ir.h"
#include "gen/ir_checks.h"

namespace gen {

using namespace ir_checks;  // NOLINT(google-build-using-namespace)
using detail::ProcCtx;
using detail::ProcKind;

Expr FunctionBody::arg(std::string_view name) const {
  for (const Arg& a : def_->args) {
    if (a.name == name) return make_ref(name, RefKind::kArgument, a.type);
  }
  throw IrError("unknown-argument", "function " + def_->name + " has no argument " + q(name));
}

Expr FunctionBody::local(std::string_view name, const Type& type) {
  if (type.is_struct()) refuse(Rule::kStructFunction, "struct local " + q(name) + " in function " + def_->name);
  check_type_usable(type, "function local " + q(name));
  check_name(name, NameKind::kLocal);
  const std::string n(name);
  if (ctx_->fn_names.contains(n) || (ctx_->outer != nullptr && ctx_->outer->contains(n))) {
    throw NameError("name-duplicate", "function local " + q(n) + " duplicates or hides another declaration");
  }
  ctx_->fn_names.insert(n);
  ctx_->allowed.insert(n);
  def_->locals.push_back({n, type});
  return make_ref(name, RefKind::kLocal, type);
}

Expr FunctionBody::result() const { return make_ref(def_->name, RefKind::kResult, def_->result); }

Expr Function::call_with(std::vector<Expr> args) const {
  if (args.size() != arity_) {
    throw IrError("call-arity", name_ + " takes " + std::to_string(arity_) + " arguments, got " +
                                    std::to_string(args.size()));
  }
  return call(package_, name_, std::move(args));
}

Package::Package(std::string_view name) : name_(name) { check_name(name, NameKind::kPackage); }

void Package::declare_name(std::string_view name, NameKind kind) {
  check_name(name, kind);
  if (!names_.insert(std::string(name)).second) {
    throw NameError("name-duplicate", std::string(to_string(kind)) + " " + q(name) + " duplicates another name in " +
                                          name_);
  }
}

Expr Package::localparam(std::string_view name, const Type& type, const Expr& value) {
  need(value, "localparam value");
  if (contains_fill_ones(value)) refuse(Rule::kFillOnesParam, "localparam " + name_ + "::" + std::string(name));
  check_type_usable(type, "localparam " + q(name));
  check_enum_init(type, value, name);
  declare_name(name, NameKind::kLocalparam);
  PackageItem item;
  item.kind = PackageItemKind::kLocalparam;
  item.name = name;
  item.type = type;
  item.value = value;
  items_.push_back(std::move(item));
  return make_scoped_ref(name_, name, RefKind::kPackageConst, type, const_value(value));
}

Expr Package::localparam(std::string_view name, const Expr& value) {
  return localparam(name, Type::int_unsigned(), value);
}

Expr Package::localparam_array(std::string_view name, const Type&, std::vector<Expr>, const Expr&) {
  refuse(Rule::kLocalparamArray, "localparam " + name_ + "::" + std::string(name));
}

void Package::import_package(std::string_view package) {
  refuse(Rule::kImport, "import " + std::string(package) + "::* in package " + name_);
}

std::shared_ptr<const TypeDef> Package::add_typedef(TypeDef def) {
  def.package = name_;
  auto d = std::make_shared<const TypeDef>(std::move(def));
  PackageItem item;
  item.kind = PackageItemKind::kTypedef;
  item.typedef_ = d;
  items_.push_back(std::move(item));
  return d;
}

namespace {
Type named(std::shared_ptr<const TypeDef> def) {
  TypeNode n;
  n.kind = Type::Kind::kNamed;
  n.def = std::move(def);
  return Type(std::make_shared<const TypeNode>(std::move(n)));
}
}  // namespace

Type Package::enum_(std::string_view name, const Expr& width, std::vector<EnumItem> items) {
  if (items.empty()) throw IrError("enum-empty", "enum " + q(name) + " has no items");
  const Type base = Type::logic(width);
  declare_name(name, NameKind::kEnumType);
  const auto w = const_value(width);
  for (const EnumItem& i : items) {
    declare_name(i.name, NameKind::kEnumItem);
    if (i.value && w && *w < 64 && (*i.value >> *w) != 0) {
      throw IrError("enum-value", "enum item " + q(i.name) + " does not fit in " + std::to_string(*w) + " bits");
    }
  }
  if (w && *w < 64 && items.size() > (uint64_t{1} << *w)) {
    throw IrError("enum-value", "enum " + q(name) + " has more items than " + std::to_string(*w) + " bits encode");
  }
  TypeDef def;
  def.kind = TypeDef::Kind::kEnum;
  def.name = name;
  def.base = base;
  def.items = std::move(items);
  return named(add_typedef(std::move(def)));
}

Type Package::struct_(std::string_view name, std::vector<StructField> fields) {
  if (fields.empty()) throw IrError("struct-empty", "struct " + q(name) + " has no fields");
  std::set<std::string> seen;
  for (const StructField& f : fields) {
    check_name(f.name, NameKind::kField);
    check_type_usable(f.type, "field " + q(f.name) + " of struct " + q(name));
    if (f.type.kind() == Type::Kind::kInt || f.type.kind() == Type::Kind::kIntUnsigned) {
      throw IrError("struct-field-type", "field " + q(f.name) + ": packed struct fields are logic or typedefs");
    }
    if (!seen.insert(f.name).second) throw NameError("name-duplicate", "struct " + q(name) + " repeats field " + q(f.name));
  }
  declare_name(name, NameKind::kStructType);
  TypeDef def;
  def.kind = TypeDef::Kind::kStruct;
  def.name = name;
  def.fields = std::move(fields);
  return named(add_typedef(std::move(def)));
}

Type Package::alias(std::string_view name, const Type& type) {
  check_type_usable(type, "typedef " + q(name));
  declare_name(name, NameKind::kTypeAlias);
  TypeDef def;
  def.kind = TypeDef::Kind::kAlias;
  def.name = name;
  def.base = type;
  return named(add_typedef(std::move(def)));
}

Function Package::function(std::string_view name, const Type& result, std::vector<Arg> args,
                           const std::function<void(FunctionBody&)>& body) {
  if (!result.empty() && result.kind() == Type::Kind::kVoid) refuse(Rule::kFunctionVoid, "function " + q(name));
  if (result.is_struct()) refuse(Rule::kStructFunction, "struct result of function " + q(name));
  check_type_usable(result, "result of function " + q(name));
  check_name(name, NameKind::kFunction);
  if (names_.contains(std::string(name))) {
    throw NameError("name-duplicate", "function " + q(name) + " duplicates another name in " + name_);
  }
  auto def = std::make_shared<FunctionDef>();
  def->package = name_;
  def->name = name;
  def->result = result;
  ProcCtx ctx;
  ctx.kind = ProcKind::kFunction;
  ctx.outer = &names_;
  ctx.restricted = true;
  ctx.fn_names.insert(def->name);
  ctx.allowed.insert(def->name);
  for (const Arg& a : args) {
    check_name(a.name, NameKind::kArgument);
    check_type_usable(a.type, "argument " + q(a.name) + " of function " + q(name));
    if (a.type.is_struct()) refuse(Rule::kStructFunction, "struct argument " + q(a.name) + " of function " + q(name));
    if (!ctx.fn_names.insert(a.name).second || names_.contains(a.name)) {
      throw NameError("name-duplicate", "argument " + q(a.name) + " duplicates or hides another declaration");
    }
  }
  def->args = std::move(args);
  FunctionBody fb(&ctx, def.get());
  body(fb);
  if (!ctx.assigned.contains(def->name)) {
    throw IrError("function-result", "function " + q(name) + " never assigns its result (assign to result())");
  }
  declare_name(name, NameKind::kFunction);
  PackageItem item;
  item.kind = PackageItemKind::kFunction;
  item.function = def;
  items_.push_back(std::move(item));
  return Function(name_, def->name, def->args.size());
}

void Package::describe(std::string_view line) {
  if (line.find('\n') != std::string_view::npos) throw IrError("comment-newline", "comments are one line each");
  description_.emplace_back(line);
}

void Package::comment(std::string_view text) {
  if (text.find('\n') != std::string_view::npos) throw IrError("comment-newline", "comments are one line each");
  PackageItem item;
  item.kind = PackageItemKind::kComment;
  item.text = text;
  items_.push_back(std::move(item));
}

}  // namespace gen
