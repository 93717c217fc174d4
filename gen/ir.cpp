// Procedural blocks, module scopes and modules.
#include "gen/ir.h"

#include <algorithm>

#include "gen/ir_checks.h"

namespace gen {

using namespace ir_checks;  // NOLINT(google-build-using-namespace)
using detail::ProcCtx;
using detail::ProcKind;

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Whether `root` may be assigned by the process being built.
void check_root(ProcCtx& ctx, const std::string& root) {
  switch (ctx.kind) {
    case ProcKind::kComb:
      if (!ctx.allowed.contains(root)) {
        refuse(Rule::kCombDefaults, q(root) + " is assigned but is not among the always_comb drives");
      }
      return;
    case ProcKind::kFf:
      if (!ends_with(root, "_q")) {
        throw NameError("name-style", "flop " + q(root) +
                                          " assigned in always_ff breaks the lowRISC convention: flops are named "
                                          "*_q (next state *_d)");
      }
      if (ctx.restricted && !ctx.allowed.contains(root)) {
        throw IrError("ff-reset-missing", "flop " + q(root) +
                                              " is assigned in an always_ff with reset but has no reset value; "
                                              "list it in the resets or use always_ff_noreset");
      }
      return;
    case ProcKind::kFunction:
      if (!ctx.allowed.contains(root)) {
        throw IrError("function-assign", "a function may assign only its locals and its result, not " + q(root));
      }
      return;
  }
}

std::shared_ptr<StmtNode> make_assign(ProcCtx& ctx, const Expr& lhs, const Expr& rhs) {
  need(lhs, "assignment target");
  const std::vector<std::string> roots = lvalue_roots(lhs);
  check_enum_value(lhs, rhs);
  for (const std::string& r : roots) check_root(ctx, r);
  ctx.assigned.insert(roots.begin(), roots.end());
  auto s = std::make_shared<StmtNode>();
  s->kind = StmtKind::kAssign;
  s->lhs = lhs;
  s->rhs = rhs;
  s->nonblocking = ctx.kind == ProcKind::kFf;
  return s;
}

}  // namespace

// --- Block ------------------------------------------------------------------------------

void Block::assign(const Expr& lhs, const Expr& rhs) { body_->push_back(make_assign(*ctx_, lhs, rhs)); }

IfChain Block::if_(const Expr& cond, const Fn& then) {
  need(cond, "if condition");
  auto s = std::make_shared<StmtNode>();
  s->kind = StmtKind::kIf;
  s->branches.push_back({cond, {}});
  body_->push_back(s);
  Block inner(ctx_, &s->branches.back().body);
  then(inner);
  return IfChain(s, ctx_);
}

IfChain& IfChain::else_if(const Expr& cond, const Block::Fn& then) {
  need(cond, "else if condition");
  if (node_->has_else) throw IrError("if-after-else", "else_if() after else_()");
  node_->branches.push_back({cond, {}});
  Block inner(ctx_, &node_->branches.back().body);
  then(inner);
  return *this;
}

void IfChain::else_(const Block::Fn& body) {
  if (node_->has_else) throw IrError("if-after-else", "a second else_()");
  node_->has_else = true;
  Block inner(ctx_, &node_->else_body);
  body(inner);
}

void Block::unique_case(const Expr& subject, const CaseFn& items) { add_case(CaseKind::kUnique, subject, items); }
void Block::priority_case(const Expr& subject, const CaseFn& items) {
  add_case(CaseKind::kPriority, subject, items);
}
void Block::unique0_case(const Expr& subject, const CaseFn& items) { add_case(CaseKind::kUnique0, subject, items); }

void Block::add_case(CaseKind kind, const Expr& subject, const CaseFn& items) {
  need(subject, "case subject");
  auto s = std::make_shared<StmtNode>();
  s->kind = StmtKind::kCase;
  s->case_kind = kind;
  s->subject = subject;
  CaseBuilder cb(s.get(), ctx_);
  items(cb);
  if (!s->has_default) refuse(Rule::kCaseDefault, "call default_() in the case builder");
  if (s->items.empty()) throw IrError("case-empty", "a case needs at least one item besides the default");
  body_->push_back(s);
}

void CaseBuilder::item(const Expr& label, const Block::Fn& body) { item(std::vector<Expr>{label}, body); }

void CaseBuilder::item(std::vector<Expr> labels, const Block::Fn& body) {
  if (labels.empty()) throw IrError("case-label", "a case item needs at least one label");
  for (const Expr& l : labels) need(l, "case label");
  node_->items.push_back({std::move(labels), {}});
  Block inner(ctx_, &node_->items.back().body);
  body(inner);
}

void CaseBuilder::default_(const Block::Fn& body) {
  if (node_->has_default) throw IrError("case-default-twice", "a case has one default");
  node_->has_default = true;
  Block inner(ctx_, &node_->default_body);
  body(inner);
}

void Block::for_(std::string_view var, const Expr& start, const Expr& bound, const LoopFn& body) {
  check_name(var, NameKind::kLoopVar);
  const std::string v(var);
  const bool clash = (ctx_->scope != nullptr && ctx_->scope->name_taken(v)) ||
                     std::find(ctx_->loop_vars.begin(), ctx_->loop_vars.end(), v) != ctx_->loop_vars.end() ||
                     ctx_->fn_names.contains(v) || (ctx_->outer != nullptr && ctx_->outer->contains(v));
  if (clash) throw NameError("name-duplicate", "loop variable " + q(v) + " hides another declaration");
  need(start, "loop start");
  need(bound, "loop bound");
  if (ctx_->kind == ProcKind::kFf) {
    const auto lo = const_value(start);
    const auto hi = const_value(bound);
    if (!lo || !hi) refuse(Rule::kResetLoop64, "the trip count of loop " + q(v) + " is not known when built");
    if (*hi - *lo > 64) refuse(Rule::kResetLoop64, "loop " + q(v) + " runs " + std::to_string(*hi - *lo) + " times");
  }
  auto s = std::make_shared<StmtNode>();
  s->kind = StmtKind::kFor;
  s->var = v;
  s->start = start;
  s->bound = bound;
  body_->push_back(s);
  ctx_->loop_vars.push_back(v);
  Block inner(ctx_, &s->body);
  body(inner, make_ref(v, RefKind::kLoopVar, Type::int_unsigned()));
  ctx_->loop_vars.pop_back();
}

void Block::comment(std::string_view text) {
  if (text.find('\n') != std::string_view::npos) throw IrError("comment-newline", "comments are one line each");
  auto s = std::make_shared<StmtNode>();
  s->kind = StmtKind::kComment;
  s->text = text;
  body_->push_back(s);
}

void Block::assert_(std::string_view name, const Expr& cond) {
  if (ctx_->kind != ProcKind::kComb || !ctx_->verification) {
    refuse(Rule::kAssertUnguarded, "assertion " + q(name) + " outside an always_comb of a verification region");
  }
  if (!ctx_->loop_vars.empty()) refuse(Rule::kAssertInLoop, "assertion " + q(name) + " in loop " + q(ctx_->loop_vars.back()));
  check_name(name, NameKind::kAssertion);
  const std::string n(name);
  const bool clash = (ctx_->scope != nullptr && ctx_->scope->name_taken(n)) ||
                     std::find(ctx_->assert_names.begin(), ctx_->assert_names.end(), n) != ctx_->assert_names.end();
  if (clash) throw NameError("name-duplicate", "assertion " + q(n) + " duplicates another name");
  need(cond, "assertion condition");
  ctx_->assert_names.push_back(n);
  auto s = std::make_shared<StmtNode>();
  s->kind = StmtKind::kAssert;
  s->var = n;
  s->subject = cond;
  body_->push_back(s);
}

void Block::assert_else(std::string_view name, const Expr&, std::string_view) {
  refuse(Rule::kAssertActionBlock, "assertion " + q(name));
}

void Block::declare(std::string_view name, const Type&) {
  refuse(Rule::kProceduralDecl, q(name) + " declared inside a procedural block");
}
void Block::break_() { refuse(Rule::kBreakContinue, "break"); }
void Block::continue_() { refuse(Rule::kBreakContinue, "continue"); }
void Block::return_(const Expr&) { refuse(Rule::kReturn, "return"); }
void Block::unique_if(const Expr&, const Fn&) { refuse(Rule::kUniqueIf, "unique if"); }
void Block::priority_if(const Expr&, const Fn&) { refuse(Rule::kUniqueIf, "priority if"); }

// --- Scope ------------------------------------------------------------------------------

bool Scope::name_taken(std::string_view name) const {
  const std::string n(name);
  if (names_below_.contains(n)) return true;
  for (const Scope* s = this; s != nullptr; s = s->parent_) {
    if (s->own_names_.contains(n)) return true;
  }
  return false;
}

void Scope::declare_name(std::string_view name, NameKind kind) {
  check_name(name, kind);
  if (name_taken(name)) {
    throw NameError("name-duplicate",
                    std::string(to_string(kind)) + " " + q(name) + " duplicates or hides another declaration");
  }
  own_names_.insert(std::string(name));
}

const Module* Scope::module() const { return parent_ != nullptr ? parent_->module() : nullptr; }

std::shared_ptr<Item> Scope::add(ItemKind kind) {
  auto item = std::make_shared<Item>();
  item->kind = kind;
  items_.push_back(item);
  return item;
}

void Scope::note_driver(const std::string& root, const std::string& by) {
  auto it = drivers_.find(root);
  if (it != drivers_.end() && !(it->second == "assign" && by == "assign")) {
    throw IrError("multiple-drivers", q(root) + " is driven by " + it->second + " and by " + by);
  }
  drivers_[root] = by;
}

void Scope::run_child(Scope& child, const std::function<void()>& fn) {
  child.parent_ = this;
  fn();
  child.parent_ = nullptr;
  names_below_.insert(child.own_names_.begin(), child.own_names_.end());
  names_below_.insert(child.names_below_.begin(), child.names_below_.end());
}

Expr Scope::logic(std::string_view name, const Expr& width, std::vector<Expr> unpacked) {
  return var(name, Type::logic(width), std::move(unpacked));
}

Expr Scope::var(std::string_view name, const Type& type, std::vector<Expr> unpacked) {
  check_type_usable(type, "signal " + q(name));
  if (!unpacked.empty() && type.is_struct()) refuse(Rule::kUnpackedStructArray, "signal " + q(name));
  if (unpacked.size() > 2) {
    throw IrError("unpacked-dims", "signal " + q(name) + ": more than two unpacked dimensions were not measured");
  }
  for (const Expr& d : unpacked) need(d, "unpacked dimension");
  declare_name(name, NameKind::kSignal);
  auto item = add(ItemKind::kDecl);
  item->name = name;
  item->type = type;
  item->unpacked = std::move(unpacked);
  return make_ref(name, RefKind::kSignal, type, item->unpacked.size());
}

Expr Scope::register_table(std::string_view name, const Expr& width, const Expr& entries) {
  Expr e = logic(name, width, {entries});
  items_.back()->mem2reg = true;
  return e;
}

Expr Scope::localparam(std::string_view name, const Type& type, const Expr& value) {
  need(value, "localparam value");
  if (contains_fill_ones(value)) refuse(Rule::kFillOnesParam, "localparam " + q(name));
  check_type_usable(type, "localparam " + q(name));
  check_enum_init(type, value, name);
  declare_name(name, NameKind::kLocalparam);
  auto item = add(ItemKind::kLocalparam);
  item->name = name;
  item->type = type;
  item->rhs = value;
  return make_ref(name, RefKind::kLocalparam, type, 0, const_value(value));
}

Expr Scope::localparam(std::string_view name, const Expr& value) {
  return localparam(name, Type::int_unsigned(), value);
}

Expr Scope::localparam_array(std::string_view name, const Type&, std::vector<Expr>, const Expr&) {
  refuse(Rule::kLocalparamArray, "localparam " + q(name));
}

void Scope::assign(const Expr& lhs, const Expr& rhs) {
  need(lhs, "assign target");
  const std::vector<std::string> roots = lvalue_roots(lhs);
  check_enum_value(lhs, rhs);
  for (const std::string& r : roots) note_driver(r, "assign");
  auto item = add(ItemKind::kAssign);
  item->lhs = lhs;
  item->rhs = rhs;
}

void Scope::always_comb(std::vector<Init> drives, const Block::Fn& body) {
  if (drives.empty()) throw IrError("comb-no-drives", "always_comb must list the signals it drives");
  ProcCtx ctx;
  ctx.kind = ProcKind::kComb;
  ctx.scope = this;
  ctx.restricted = true;
  auto item = std::make_shared<Item>();
  item->kind = ItemKind::kAlwaysComb;
  for (const Init& d : drives) {
    const ExprNode& t = need(d.target, "always_comb drive");
    if (t.kind != ExprKind::kRef) {
      throw IrError("comb-default-target", "always_comb drives are whole signals, so every bit has a default");
    }
    if (!ctx.allowed.insert(t.name).second) throw IrError("comb-drive-twice", q(t.name) + " is listed twice");
    item->defaults.push_back(make_assign(ctx, d.target, d.value));
  }
  ctx.verification = in_verification();
  Block b(&ctx, &item->body);
  body(b);
  for (const std::string& r : ctx.allowed) note_driver(r, "always_comb");
  for (const std::string& a : ctx.assert_names) declare_name(a, NameKind::kAssertion);
  items_.push_back(item);
}

bool Scope::in_verification() const {
  for (const Scope* s = this; s != nullptr; s = s->parent_) {
    if (s->verification_) return true;
  }
  return false;
}

void Scope::verification(std::string_view why, const GenFn& body) {
  if (why.find('\n') != std::string_view::npos) throw IrError("comment-newline", "comments are one line each");
  if (in_verification()) throw IrError("verification-nested", "a verification region inside another one");
  auto item = add(ItemKind::kVerification);
  item->text = why;
  Scope child;
  child.verification_ = true;
  run_child(child, [&] { body(child); });
  for (const auto& [root, by] : child.drivers_) {
    if (!child.own_names_.contains(root)) {
      throw IrError("verification-drives-design", q(root) + " is driven (by " + by +
                                                      ") in a verification region but declared outside it: "
                                                      "synthesis would lose that driver");
    }
  }
  item->items = std::move(child.items_);
}

void Scope::add_assert(std::string_view name, const Expr& cond, bool clocked) {
  if (!in_verification()) refuse(Rule::kAssertUnguarded, "assertion " + q(name));
  need(cond, "assertion condition");
  const Module* m = module();
  if (clocked && (m == nullptr || m->find_port("clk_i") == nullptr)) {
    throw IrError("missing-clock-reset", "a clocked assertion needs the input clk_i; call Module::clk() first");
  }
  declare_name(name, NameKind::kAssertion);
  auto item = add(ItemKind::kAssert);
  item->name = name;
  item->rhs = cond;
  item->clocked = clocked;
  item->gated = m != nullptr && m->find_port("rst_ni") != nullptr;
}

void Scope::assert_clocked(std::string_view name, const Expr& cond) { add_assert(name, cond, true); }
void Scope::assert_comb(std::string_view name, const Expr& cond) { add_assert(name, cond, false); }
void Scope::assert_property(std::string_view name, const Expr&) {
  refuse(Rule::kConcurrentAssert, "assertion " + q(name));
}

void Scope::add_ff(FfReset reset, std::vector<Init> resets, const Block::Fn* reset_body, const Block::Fn& body) {
  const Module* m = module();
  if (m == nullptr || m->find_port("clk_i") == nullptr) {
    throw IrError("missing-clock-reset", "always_ff needs the input clk_i; call Module::clk() first");
  }
  if (reset != FfReset::kNone && m->find_port("rst_ni") == nullptr) {
    throw IrError("missing-clock-reset", "always_ff with reset needs the input rst_ni; call Module::rst_n() first");
  }
  ProcCtx ctx;
  ctx.kind = ProcKind::kFf;
  ctx.scope = this;
  auto item = std::make_shared<Item>();
  item->kind = ItemKind::kAlwaysFf;
  item->reset = reset;
  for (const Init& r : resets) item->defaults.push_back(make_assign(ctx, r.target, r.value));
  if (reset_body != nullptr) {
    Block rb(&ctx, &item->defaults);
    (*reset_body)(rb);
  }
  if (reset != FfReset::kNone) {
    if (ctx.assigned.empty()) throw IrError("ff-no-reset", "an always_ff with reset needs at least one reset value");
    ctx.allowed = ctx.assigned;
    ctx.restricted = true;
  }
  Block b(&ctx, &item->body);
  body(b);
  for (const std::string& r : ctx.assigned) note_driver(r, "always_ff");
  items_.push_back(item);
}

void Scope::always_ff(std::vector<Init> resets, const Block::Fn& body) {
  add_ff(FfReset::kAsync, std::move(resets), nullptr, body);
}

void Scope::always_ff_sync(std::vector<Init> resets, const Block::Fn& body) {
  add_ff(FfReset::kSync, std::move(resets), nullptr, body);
}

void Scope::always_ff_noreset(const Block::Fn& body) { add_ff(FfReset::kNone, {}, nullptr, body); }

void Scope::always_ff_noreset_keep(const Block::Fn& body) {
  add_ff(FfReset::kNone, {}, nullptr, body);
  items_.back()->keep = true;
}

void Scope::always_ff_reset_block(FfReset reset, const Block::Fn& reset_body, const Block::Fn& body) {
  if (reset == FfReset::kNone) throw IrError("ff-no-reset", "always_ff_reset_block needs kAsync or kSync");
  add_ff(reset, {}, &reset_body, body);
}

void Scope::instance(std::string_view name, std::string_view module, std::vector<Conn> params,
                     std::vector<Conn> ports) {
  check_name(module, NameKind::kModule);
  std::set<std::string> seen;
  for (const Conn& c : params) {
    check_name(c.name, NameKind::kParameter);
    if (c.value.empty()) refuse(Rule::kEmptyPortConnection, "parameter ." + c.name + "()");
    if (!seen.insert(c.name).second) throw IrError("duplicate-connection", "." + c.name + " is connected twice");
  }
  seen.clear();
  for (const Conn& c : ports) {
    if (!is_legal_identifier(c.name) || is_keyword(c.name)) {
      throw NameError("name-illegal", "port name " + q(c.name) + " is not a legal identifier");
    }
    if (c.value.empty()) refuse(Rule::kEmptyPortConnection, "." + c.name + "() on instance " + q(name));
    if (!seen.insert(c.name).second) throw IrError("duplicate-connection", "." + c.name + " is connected twice");
  }
  declare_name(name, NameKind::kInstance);
  auto item = add(ItemKind::kInstance);
  item->name = name;
  item->module = module;
  item->params = std::move(params);
  item->ports = std::move(ports);
}

void Scope::instance(std::string_view name, const Module& module, std::vector<Conn> params, std::vector<Conn> ports) {
  for (const Conn& c : params) {
    const bool known = std::any_of(module.params().begin(), module.params().end(),
                                   [&](const Param& p) { return p.name == c.name; });
    if (!known) throw IrError("unknown-connection", "module " + module.name() + " has no parameter " + q(c.name));
  }
  for (const Conn& c : ports) {
    if (module.find_port(c.name) == nullptr) {
      throw IrError("unknown-connection", "module " + module.name() + " has no port " + q(c.name));
    }
  }
  for (const Port& p : module.ports()) {
    const bool connected = std::any_of(ports.begin(), ports.end(), [&](const Conn& c) { return c.name == p.name; });
    if (!connected) {
      throw IrError("port-unconnected", "port " + q(p.name) + " of " + module.name() + " instance " + q(name) +
                                            " is not connected (connect an unused_* net)");
    }
  }
  // Output connections are driven by the instance.
  std::vector<std::string> driven;
  for (const Conn& c : ports) {
    if (!c.value.empty() && module.find_port(c.name)->dir == PortDir::kOutput) {
      const std::vector<std::string> roots = lvalue_roots(c.value);
      driven.insert(driven.end(), roots.begin(), roots.end());
    }
  }
  instance(name, module.name(), std::move(params), std::move(ports));
  for (const std::string& r : driven) note_driver(r, "instance " + std::string(name));
}

void Scope::gen_for(std::string_view label, std::string_view var, const Expr& start, const Expr& bound,
                    const GenLoopFn& body) {
  need(start, "generate for start");
  need(bound, "generate for bound");
  declare_name(label, NameKind::kGenerateBlock);
  auto item = add(ItemKind::kGenFor);
  item->name = label;
  item->var = var;
  item->start = start;
  item->bound = bound;
  Scope child;
  run_child(child, [&] {
    child.declare_name(var, NameKind::kLoopVar);
    body(child, make_ref(var, RefKind::kGenvar, Type()));
  });
  item->items = std::move(child.items_);
}

Scope::GenIf Scope::gen_if(const Expr& cond, std::string_view label, const GenFn& then) {
  need(cond, "generate if condition");
  declare_name(label, NameKind::kGenerateBlock);
  auto item = add(ItemKind::kGenIf);
  Scope child;
  run_child(child, [&] { then(child); });
  item->branches.push_back({cond, std::string(label), std::move(child.items_)});
  return GenIf(this, item);
}

void Scope::GenIf::else_(std::string_view label, const GenFn& body) {
  if (item_->branches.back().cond.empty()) throw IrError("if-after-else", "a second else_() on a generate if");
  scope_->declare_name(label, NameKind::kGenerateBlock);
  Scope child;
  scope_->run_child(child, [&] { body(child); });
  item_->branches.push_back({Expr(), std::string(label), std::move(child.items_)});
}

void Scope::comment(std::string_view text) {
  if (text.find('\n') != std::string_view::npos) throw IrError("comment-newline", "comments are one line each");
  add(ItemKind::kComment)->text = text;
}

// --- Module -----------------------------------------------------------------------------

Module::Module(std::string_view name) : name_(name) { check_name(name, NameKind::kModule); }

void Module::describe(std::string_view line) {
  if (line.find('\n') != std::string_view::npos) throw IrError("comment-newline", "comments are one line each");
  description_.emplace_back(line);
}

const Port* Module::find_port(std::string_view name) const {
  for (const Port& p : ports_) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

Expr Module::param(std::string_view name, const Type& type, const Expr& value) {
  need(value, "parameter value");
  if (contains_fill_ones(value)) refuse(Rule::kFillOnesParam, "parameter " + q(name));
  check_type_usable(type, "parameter " + q(name));
  check_enum_init(type, value, name);
  declare_name(name, NameKind::kParameter);
  params_.push_back({std::string(name), type, value});
  return make_ref(name, RefKind::kParameter, type, 0, const_value(value));
}

Expr Module::param(std::string_view name, const Expr& value) { return param(name, Type::int_unsigned(), value); }

Expr Module::clk() { return input("clk_i"); }
Expr Module::rst_n() { return input("rst_ni"); }
Expr Module::input(std::string_view name, const Expr& width) { return port(PortDir::kInput, name, Type::logic(width)); }
Expr Module::input(std::string_view name, const Type& type) { return port(PortDir::kInput, name, type); }
Expr Module::output(std::string_view name, const Expr& width) {
  return port(PortDir::kOutput, name, Type::logic(width));
}
Expr Module::output(std::string_view name, const Type& type) { return port(PortDir::kOutput, name, type); }

Expr Module::port(PortDir dir, std::string_view name, const Type& type, const std::vector<Expr>& unpacked) {
  if (!unpacked.empty()) refuse(Rule::kUnpackedArrayPort, "port " + q(name));
  check_type_usable(type, "port " + q(name));
  declare_name(name, dir == PortDir::kInput ? NameKind::kInput : NameKind::kOutput);
  ports_.push_back({dir, std::string(name), type});
  return make_ref(name, dir == PortDir::kInput ? RefKind::kInput : RefKind::kOutput, type);
}

void Module::param_type(std::string_view name, const Type&) { refuse(Rule::kParameterType, "parameter type " + q(name)); }

void Module::interface_port(std::string_view name, std::string_view interface_name, std::string_view modport) {
  refuse(Rule::kInterfacePort, std::string(interface_name) + "." + std::string(modport) + " " + q(name));
}

void Module::import_package(std::string_view package) {
  refuse(Rule::kImport, "import " + std::string(package) + "::* in module " + name_);
}

}  // namespace gen
