#include "gen/emit.h"

#include <algorithm>
#include <cstdio>

#include "gen/error.h"

namespace gen {
namespace {

// --- Expressions ------------------------------------------------------------------------

// Binding strength, IEEE 1800-2017 Table 11-2 (larger binds tighter).
constexpr int kPrimary = 100;
constexpr int kUnaryPrec = 90;
constexpr int kTernaryPrec = 5;

int op_prec(Op op) {
  switch (op) {
    case Op::kMul: case Op::kDiv: case Op::kMod: return 80;
    case Op::kAdd: case Op::kSub: return 70;
    case Op::kShl: case Op::kShr: case Op::kAshr: return 60;
    case Op::kLt: case Op::kLe: case Op::kGt: case Op::kGe: return 50;
    case Op::kEq: case Op::kNe: return 40;
    case Op::kAnd: return 30;
    case Op::kXor: return 25;
    case Op::kOr: return 20;
    case Op::kLogAnd: return 15;
    case Op::kLogOr: return 10;
    default: return kUnaryPrec;
  }
}

// `a op (b op c)` == `a op b op c` for these, so the right operand needs no parentheses
// when it is the same operator (all operands are sized to the same context width first).
bool associative(Op op) {
  return op == Op::kAdd || op == Op::kMul || op == Op::kAnd || op == Op::kOr || op == Op::kXor ||
         op == Op::kLogAnd || op == Op::kLogOr;
}

std::string_view op_text(Op op) {
  switch (op) {
    case Op::kNot: return "~";
    case Op::kLogNot: return "!";
    case Op::kNeg: return "-";
    case Op::kRedAnd: return "&";
    case Op::kRedOr: return "|";
    case Op::kRedXor: return "^";
    case Op::kMul: return "*";
    case Op::kDiv: return "/";
    case Op::kMod: return "%";
    case Op::kAdd: return "+";
    case Op::kSub: return "-";
    case Op::kShl: return "<<";
    case Op::kShr: return ">>";
    case Op::kAshr: return ">>>";
    case Op::kLt: return "<";
    case Op::kLe: return "<=";
    case Op::kGt: return ">";
    case Op::kGe: return ">=";
    case Op::kEq: return "==";
    case Op::kNe: return "!=";
    case Op::kAnd: return "&";
    case Op::kXor: return "^";
    case Op::kOr: return "|";
    case Op::kLogAnd: return "&&";
    case Op::kLogOr: return "||";
  }
  return "?";
}

int prec(const Expr& e) {
  const ExprNode& n = e.node();
  switch (n.kind) {
    case ExprKind::kUnary: return kUnaryPrec;
    case ExprKind::kBinary: return op_prec(n.op);
    case ExprKind::kTernary: return kTernaryPrec;
    default: return kPrimary;
  }
}

std::string literal_text(const ExprNode& n) {
  std::string digits;
  switch (n.radix) {
    case Radix::kDec:
      return std::to_string(n.width) + "'d" + std::to_string(n.value);
    case Radix::kHex: {
      char buf[24];
      std::snprintf(buf, sizeof buf, "%llX", static_cast<unsigned long long>(n.value));
      digits = buf;
      const size_t want = (n.width + 3) / 4;
      if (digits.size() < want) digits.insert(0, want - digits.size(), '0');
      return std::to_string(n.width) + "'h" + digits;
    }
    case Radix::kBin:
      for (unsigned i = n.width; i-- > 0;) digits.push_back(((n.value >> i) & 1U) != 0 ? '1' : '0');
      return std::to_string(n.width) + "'b" + digits;
  }
  return {};
}

// `types_pkg`: the package whose typedefs print unqualified (its own, inside a package).
// `values_pkg`: the package whose localparams, enum items and functions print unqualified.
// Inside package function bodies values are always qualified: Yosys 0.23 fails to resolve
// unqualified own-package enum items there ("Failed to resolve identifier ... for width
// detection"), while qualified typedef names inside their own package are not found at all.
class ExprPrinter {
 public:
  explicit ExprPrinter(std::string_view pkg) : types_pkg_(pkg), values_pkg_(pkg) {}
  ExprPrinter(std::string_view types_pkg, std::string_view values_pkg)
      : types_pkg_(types_pkg), values_pkg_(values_pkg) {}

  std::string print(const Expr& e) const {
    const ExprNode& n = e.node();
    switch (n.kind) {
      case ExprKind::kRef: return n.name;
      case ExprKind::kScopedRef: return qualified(values_pkg_, n.package, n.name);
      case ExprKind::kLiteral: return literal_text(n);
      case ExprKind::kUnsized: return std::to_string(n.value);
      case ExprKind::kFill: return n.fill_ones ? "'1" : "'0";
      case ExprKind::kUnary:
        // Operands that are not primaries get parentheses, nested unaries included, so
        // that `- -a` or `& &a` never turn into the tokens `--` or `&&`.
        return std::string(op_text(n.op)) + sub(n.operands[0], kUnaryPrec + 1);
      case ExprKind::kBinary: {
        const int p = op_prec(n.op);
        const Expr& r = n.operands[1];
        const bool same_assoc = associative(n.op) && r.node().kind == ExprKind::kBinary && r.node().op == n.op;
        return sub(n.operands[0], p) + " " + std::string(op_text(n.op)) + " " + sub(r, same_assoc ? p : p + 1);
      }
      case ExprKind::kTernary:
        return sub(n.operands[0], kTernaryPrec + 1) + " ? " + sub(n.operands[1], kTernaryPrec + 1) + " : " +
               sub(n.operands[2], kTernaryPrec);
      case ExprKind::kConcat: return "{" + list(n.operands, 0) + "}";
      case ExprKind::kReplicate:
        return "{" + sub(n.operands[0], kPrimary) + "{" + print(n.operands[1]) + "}}";
      case ExprKind::kIndex: return sub(n.operands[0], kPrimary) + "[" + print(n.operands[1]) + "]";
      case ExprKind::kSlice:
        return sub(n.operands[0], kPrimary) + "[" + print(n.operands[1]) + ":" + print(n.operands[2]) + "]";
      case ExprKind::kPart:
        return sub(n.operands[0], kPrimary) + "[" + print(n.operands[1]) + " +: " + print(n.operands[2]) + "]";
      case ExprKind::kMember: return sub(n.operands[0], kPrimary) + "." + n.name;
      case ExprKind::kWidthCast: return sub(n.operands[0], kPrimary) + "'(" + print(n.operands[1]) + ")";
      case ExprKind::kSignedCast: return "signed'(" + print(n.operands[0]) + ")";
      case ExprKind::kSysCall: return n.name + "(" + list(n.operands, 0) + ")";
      case ExprKind::kCall:
        return (n.package.empty() ? n.name : qualified(values_pkg_, n.package, n.name)) + "(" +
               list(n.operands, 0) + ")";
    }
    return {};
  }

  // `e`, parenthesised when it binds less tightly than `min_prec` requires.
  std::string sub(const Expr& e, int min_prec) const {
    std::string s = print(e);
    return prec(e) < min_prec ? "(" + s + ")" : s;
  }

  std::string type(const Type& t) const {
    switch (t.kind()) {
      case Type::Kind::kLogic: {
        std::string s = t.is_signed() ? "logic signed" : "logic";
        if (!t.width().empty()) s += " [" + range(t.width()) + "]";
        return s;
      }
      case Type::Kind::kInt: return "int";
      case Type::Kind::kIntUnsigned: return "int unsigned";
      case Type::Kind::kNamed: return qualified(types_pkg_, t.def()->package, t.def()->name);
      case Type::Kind::kAnonStruct:
      case Type::Kind::kVoid: break;  // refused when built
    }
    throw IrError("emit-type", "a type outside the profile reached the printer");
  }

  // `hi:lo` of a packed width: `7:0`, `Width-1:0`.
  std::string range(const Expr& width) const {
    const ExprNode& w = width.node();
    if (w.kind == ExprKind::kUnsized || w.kind == ExprKind::kLiteral) return std::to_string(w.value - 1) + ":0";
    return sub(width, op_prec(Op::kSub)) + "-1:0";
  }

 private:
  static std::string qualified(std::string_view here, const std::string& pkg, const std::string& name) {
    return pkg.empty() || pkg == here ? name : pkg + "::" + name;
  }

  std::string list(const std::vector<Expr>& es, size_t from) const {
    std::string s;
    for (size_t i = from; i < es.size(); ++i) {
      if (i > from) s += ", ";
      s += print(es[i]);
    }
    return s;
  }

  std::string_view types_pkg_;
  std::string_view values_pkg_;
};

// --- Lines ------------------------------------------------------------------------------

class Writer {
 public:
  explicit Writer(std::string_view pkg) : x_(pkg) {}
  explicit Writer(ExprPrinter x) : x_(x) {}

  void line(int indent, const std::string& text) {
    out_.append(static_cast<size_t>(indent) * 2, ' ');
    out_ += text;
    out_ += '\n';
  }
  void blank() { out_ += '\n'; }
  void append(const std::string& text) { out_ += text; }
  std::string take() { return std::move(out_); }
  const ExprPrinter& x() const { return x_; }

  std::string assign_text(const StmtNode& s) const {
    return x_.print(s.lhs) + (s.nonblocking ? " <= " : " = ") + x_.print(s.rhs) + ";";
  }

  void body(const Body& b, int ind) {
    for (const auto& s : b) stmt(*s, ind);
  }

  // A case item or default: one assignment stays on the label's line.
  void case_arm(const std::string& label, const Body& b, int ind) {
    if (b.empty()) {
      line(ind, label + ": ;");
    } else if (b.size() == 1 && b.front()->kind == StmtKind::kAssign) {
      line(ind, label + ": " + assign_text(*b.front()));
    } else {
      line(ind, label + ": begin");
      body(b, ind + 1);
      line(ind, "end");
    }
  }

  void stmt(const StmtNode& s, int ind) {
    switch (s.kind) {
      case StmtKind::kAssign:
        line(ind, assign_text(s));
        return;
      case StmtKind::kComment:
        line(ind, "// " + s.text);
        return;
      case StmtKind::kIf:
        for (size_t i = 0; i < s.branches.size(); ++i) {
          line(ind, std::string(i == 0 ? "if (" : "end else if (") + x_.print(s.branches[i].cond) + ") begin");
          body(s.branches[i].body, ind + 1);
        }
        if (s.has_else) {
          line(ind, "end else begin");
          body(s.else_body, ind + 1);
        }
        line(ind, "end");
        return;
      case StmtKind::kCase: {
        const char* kw = s.case_kind == CaseKind::kUnique     ? "unique case ("
                         : s.case_kind == CaseKind::kPriority ? "priority case ("
                                                              : "unique0 case (";
        line(ind, kw + x_.print(s.subject) + ")");
        for (const CaseItem& item : s.items) {
          std::string labels;
          for (size_t i = 0; i < item.labels.size(); ++i) labels += (i > 0 ? ", " : "") + x_.print(item.labels[i]);
          case_arm(labels, item.body, ind + 1);
        }
        case_arm("default", s.default_body, ind + 1);
        line(ind, "endcase");
        return;
      }
      case StmtKind::kAssert:
        line(ind, s.var + ": assert (" + x_.print(s.subject) + ");");
        return;
      case StmtKind::kFor:
        line(ind, "for (int unsigned " + s.var + " = " + x_.print(s.start) + "; " + s.var + " < " +
                      x_.sub(s.bound, op_prec(Op::kLt) + 1) + "; " + s.var + "++) begin");
        body(s.body, ind + 1);
        line(ind, "end");
        return;
    }
  }

  // `.name(value)` lines with the parentheses aligned.
  void connections(const std::vector<Conn>& conns, int ind) {
    size_t w = 0;
    for (const Conn& c : conns) w = std::max(w, c.name.size());
    for (size_t i = 0; i < conns.size(); ++i) {
      std::string name = conns[i].name;
      name.resize(w, ' ');
      line(ind, "." + name + "(" + x_.print(conns[i].value) + ")" + (i + 1 < conns.size() ? "," : ""));
    }
  }

  void item(const Item& it, int ind) {
    switch (it.kind) {
      case ItemKind::kDecl: {
        std::string s = std::string(it.mem2reg ? "(* mem2reg *) " : "") + x_.type(it.type) + " " + it.name +
                        (it.unpacked.empty() ? "" : " ");
        for (const Expr& d : it.unpacked) s += "[" + x_.print(d) + "]";
        line(ind, s + ";");
        return;
      }
      case ItemKind::kLocalparam:
        line(ind, "localparam " + x_.type(it.type) + " " + it.name + " = " + x_.print(it.rhs) + ";");
        return;
      case ItemKind::kAssign:
        line(ind, "assign " + x_.print(it.lhs) + " = " + x_.print(it.rhs) + ";");
        return;
      case ItemKind::kComment:
        line(ind, "// " + it.text);
        return;
      case ItemKind::kAlwaysComb:
        line(ind, "always_comb begin");
        body(it.defaults, ind + 1);
        body(it.body, ind + 1);
        line(ind, "end");
        return;
      case ItemKind::kAlwaysFf:
        ff(it, ind);
        return;
      case ItemKind::kInstance:
        if (it.params.empty()) {
          line(ind, it.module + " " + it.name + " (");
        } else {
          line(ind, it.module + " #(");
          connections(it.params, ind + 1);
          line(ind, ") " + it.name + " (");
        }
        connections(it.ports, ind + 1);
        line(ind, ");");
        return;
      case ItemKind::kGenFor:
        line(ind, "for (genvar " + it.var + " = " + x_.print(it.start) + "; " + it.var + " < " +
                      x_.sub(it.bound, op_prec(Op::kLt) + 1) + "; " + it.var + "++) begin : " + it.name);
        items(it.items, ind + 1);
        line(ind, "end");
        return;
      case ItemKind::kVerification:
        line(0, "`ifndef SYNTHESIS");
        line(ind, "// " + it.text);
        items(it.items, ind);
        line(0, "`endif");
        return;
      case ItemKind::kAssert: {
        const std::string check = it.name + ": assert (" + x_.print(it.rhs) + ");";
        line(ind, it.clocked ? std::string(it.gated ? "always_ff @(posedge clk_i or negedge rst_ni) begin"
                                                     : "always_ff @(posedge clk_i) begin")
                             : "always_comb begin");
        if (it.gated) {
          line(ind + 1, "if (rst_ni) begin");
          line(ind + 2, check);
          line(ind + 1, "end");
        } else {
          line(ind + 1, check);
        }
        line(ind, "end");
        return;
      }
      case ItemKind::kGenIf:
        for (size_t i = 0; i < it.branches.size(); ++i) {
          const GenBranch& b = it.branches[i];
          const std::string head = b.cond.empty() ? "else begin : " : "if (" + x_.print(b.cond) + ") begin : ";
          line(ind, (i == 0 ? "" : "end ") + head + b.label);
          items(b.items, ind + 1);
        }
        line(ind, "end");
        return;
    }
  }

  void ff(const Item& it, int ind) {
    const std::string keep = it.keep ? "(* keep *) " : "";
    if (it.reset == FfReset::kAsync) {
      line(ind, keep + "always_ff @(posedge clk_i or negedge rst_ni) begin");
    } else {
      line(ind, keep + "always_ff @(posedge clk_i) begin");
    }
    if (it.reset == FfReset::kNone) {
      body(it.body, ind + 1);
    } else {
      line(ind + 1, "if (!rst_ni) begin");
      body(it.defaults, ind + 2);
      line(ind + 1, "end else begin");
      body(it.body, ind + 2);
      line(ind + 1, "end");
    }
    line(ind, "end");
  }

  // Consecutive declarations, localparams or assigns form one paragraph; every other item
  // is its own paragraph; a comment sticks to the item after it.
  static int group(ItemKind k) {
    switch (k) {
      case ItemKind::kDecl: return 1;
      case ItemKind::kLocalparam: return 2;
      case ItemKind::kAssign: return 3;
      case ItemKind::kComment: return 4;
      default: return 0;
    }
  }

  void items(const Items& list, int ind) {
    for (size_t i = 0; i < list.size(); ++i) {
      if (i > 0) {
        const int prev = group(list[i - 1]->kind);
        const int cur = group(list[i]->kind);
        const bool joined = prev == 4 || (prev == cur && prev != 0);
        if (!joined) blank();
      }
      item(*list[i], ind);
    }
  }

 private:
  ExprPrinter x_;
  std::string out_;
};

void header(Writer& w, const FileHeader& h) {
  for (const std::string* s : {&h.command, &h.configuration}) {
    if (s->find('\n') != std::string::npos) throw IrError("header-newline", "file header fields are one line each");
  }
  w.line(0, "// Generated by: " + h.command);
  w.line(0, "// Configuration: " + h.configuration);
  w.line(0, "// Do not edit: this file is generated; change the generator or the configuration and regenerate.");
  w.blank();
  w.line(0, "`default_nettype none");
  w.blank();
}

void description(Writer& w, const std::vector<std::string>& lines) {
  for (const std::string& l : lines) w.line(0, l.empty() ? "//" : "// " + l);
}

void footer(Writer& w) {
  w.blank();
  w.line(0, "`default_nettype wire");
}

std::string pad(std::string s, size_t width) {
  s.resize(std::max(width, s.size()), ' ');
  return s;
}

void module_header(Writer& w, const Module& m) {
  const ExprPrinter& x = w.x();
  if (m.params().empty()) {
    w.line(0, "module " + m.name() + (m.ports().empty() ? ";" : " ("));
  } else {
    w.line(0, "module " + m.name() + " #(");
    for (size_t i = 0; i < m.params().size(); ++i) {
      const Param& p = m.params()[i];
      w.line(1, "parameter " + x.type(p.type) + " " + p.name + " = " + x.print(p.value) +
                    (i + 1 < m.params().size() ? "," : ""));
    }
    w.line(0, m.ports().empty() ? ");" : ") (");
  }
  if (m.ports().empty()) return;
  size_t tw = 0;
  for (const Port& p : m.ports()) tw = std::max(tw, x.type(p.type).size());
  for (size_t i = 0; i < m.ports().size(); ++i) {
    const Port& p = m.ports()[i];
    w.line(1, pad(p.dir == PortDir::kInput ? "input" : "output", 6) + " " + pad(x.type(p.type), tw) + " " + p.name +
                  (i + 1 < m.ports().size() ? "," : ""));
  }
  w.line(0, ");");
}

void typedef_lines(Writer& w, const TypeDef& d) {
  const ExprPrinter& x = w.x();
  switch (d.kind) {
    case TypeDef::Kind::kEnum: {
      w.line(1, "typedef enum " + x.type(d.base) + " {");
      const auto width = const_value(d.base.width().empty() ? Expr(1) : d.base.width());
      for (size_t i = 0; i < d.items.size(); ++i) {
        const EnumItem& item = d.items[i];
        std::string s = item.name;
        if (item.value) {
          s += " = " + (width ? emit_expr(lit(static_cast<unsigned>(*width), *item.value)) : std::to_string(*item.value));
        }
        w.line(2, s + (i + 1 < d.items.size() ? "," : ""));
      }
      w.line(1, "} " + d.name + ";");
      return;
    }
    case TypeDef::Kind::kStruct: {
      w.line(1, "typedef struct packed {");
      size_t tw = 0;
      for (const StructField& f : d.fields) tw = std::max(tw, x.type(f.type).size());
      for (const StructField& f : d.fields) w.line(2, pad(x.type(f.type), tw) + " " + f.name + ";");
      w.line(1, "} " + d.name + ";");
      return;
    }
    case TypeDef::Kind::kAlias:
      w.line(1, "typedef " + x.type(d.base) + " " + d.name + ";");
      return;
  }
}

void function_lines(Writer& w, const FunctionDef& f) {
  const ExprPrinter& x = w.x();
  std::string args;
  for (size_t i = 0; i < f.args.size(); ++i) {
    args += (i > 0 ? ", " : "") + std::string("input ") + x.type(f.args[i].type) + " " + f.args[i].name;
  }
  w.line(1, "function automatic " + x.type(f.result) + " " + f.name + "(" + args + ");");
  for (const Arg& l : f.locals) w.line(2, x.type(l.type) + " " + l.name + ";");
  Writer body(ExprPrinter(f.package, ""));  // values qualified, see ExprPrinter
  body.body(f.body, 2);
  w.append(body.take());
  w.line(1, "endfunction");
}

}  // namespace

std::string emit_expr(const Expr& e, std::string_view package_context) {
  return ExprPrinter(package_context).print(e);
}

std::string emit_type(const Type& t, std::string_view package_context) {
  return ExprPrinter(package_context).type(t);
}

std::string emit(const Module& module, const FileHeader& h) {
  Writer w("");
  header(w, h);
  description(w, module.description());
  module_header(w, module);
  if (!module.items().empty()) {
    w.blank();
    w.items(module.items(), 1);
    w.blank();
  }
  w.line(0, "endmodule");
  footer(w);
  return w.take();
}

std::string emit(const Package& package, const FileHeader& h) {
  Writer w(package.name());
  header(w, h);
  description(w, package.description());
  w.line(0, "package " + package.name() + ";");
  const auto& items = package.items();
  if (!items.empty()) w.blank();
  for (size_t i = 0; i < items.size(); ++i) {
    const PackageItem& it = items[i];
    if (i > 0) {
      const PackageItemKind prev = items[i - 1].kind;
      const bool joined = prev == PackageItemKind::kComment ||
                          (prev == PackageItemKind::kLocalparam && it.kind == PackageItemKind::kLocalparam);
      if (!joined) w.blank();
    }
    switch (it.kind) {
      case PackageItemKind::kLocalparam:
        w.line(1, "localparam " + w.x().type(it.type) + " " + it.name + " = " + w.x().print(it.value) + ";");
        break;
      case PackageItemKind::kTypedef:
        typedef_lines(w, *it.typedef_);
        break;
      case PackageItemKind::kFunction:
        function_lines(w, *it.function);
        break;
      case PackageItemKind::kComment:
        w.line(1, "// " + it.text);
        break;
    }
  }
  if (!items.empty()) w.blank();
  w.line(0, "endpackage");
  footer(w);
  return w.take();
}

}  // namespace gen
