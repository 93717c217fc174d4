// The SystemVerilog IR: statements, modules and packages, built through checking builders.
//
// A module is built top-down with lambdas for nested bodies; every name, profile rule and
// lowRISC convention is checked by the call that introduces it (gen/profile.h,
// gen/names.h), and emission (gen/emit.h) only formats.
//
//   Module m("counter");
//   Expr width = m.param("Width", 8);
//   m.clk();
//   m.rst_n();
//   Expr en = m.input("en_i");
//   Expr count = m.output("count_o", width);
//   Expr cnt_d = m.logic("cnt_d", width);
//   Expr cnt_q = m.logic("cnt_q", width);
//   m.always_comb({{cnt_d, cnt_q}}, [&](Block& b) {
//     b.if_(en, [&](Block& t) { t.assign(cnt_d, cnt_q + 1); });
//   });
//   m.always_ff({{cnt_q, zeros()}}, [&](Block& b) { b.assign(cnt_q, cnt_d); });
//   m.assign(count, cnt_q);
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gen/error.h"
#include "gen/expr.h"
#include "gen/names.h"
#include "gen/profile.h"

namespace gen {

class Scope;

// --- Statements -------------------------------------------------------------------------

enum class StmtKind { kAssign, kIf, kCase, kFor, kComment, kAssert };
enum class CaseKind { kUnique, kPriority, kUnique0 };

struct StmtNode;
using Body = std::vector<std::shared_ptr<StmtNode>>;

struct IfBranch {
  Expr cond;
  Body body;
};

struct CaseItem {
  std::vector<Expr> labels;
  Body body;
};

struct StmtNode {
  StmtKind kind = StmtKind::kAssign;
  // kAssign: `lhs = rhs;` or, in always_ff, `lhs <= rhs;`
  Expr lhs, rhs;
  bool nonblocking = false;
  // kIf: if / else if ... ; else when has_else
  std::vector<IfBranch> branches;
  bool has_else = false;
  Body else_body;
  // kCase
  CaseKind case_kind = CaseKind::kUnique;
  Expr subject;
  std::vector<CaseItem> items;
  bool has_default = false;
  Body default_body;
  // kFor: for (int unsigned var = start; var < bound; var++)
  std::string var;
  Expr start, bound;
  Body body;
  // kComment
  std::string text;
  // kAssert: `label: assert (cond);` (the label in `var`, the condition in `subject`)
};

namespace detail {
enum class ProcKind { kComb, kFf, kFunction };

// State shared by every Block of one always_comb / always_ff / function while it is built.
struct ProcCtx {
  ProcKind kind = ProcKind::kComb;
  const Scope* scope = nullptr;                  // declaration scope for name checks (null in functions)
  const std::set<std::string>* outer = nullptr;  // function: the package's names
  bool restricted = false;                       // assignments only to `allowed`
  std::set<std::string> allowed;                 // comb: drives; ff body: flops with reset; function
  std::set<std::string> assigned;      // roots assigned so far
  std::vector<std::string> loop_vars;  // enclosing procedural loop variables
  bool verification = false;           // comb: inside a verification region (assertions allowed)
  std::vector<std::string> assert_names;  // the labels of the assertions in the body
  std::set<std::string> fn_names;      // function: arguments, locals, its own name
};
}  // namespace detail

class IfChain;
class CaseBuilder;

// A procedural body (always_comb, always_ff, function, or a branch of them).
class Block {
 public:
  using Fn = std::function<void(Block&)>;
  using LoopFn = std::function<void(Block&, const Expr& index)>;
  using CaseFn = std::function<void(CaseBuilder&)>;

  // `lhs = rhs;` (always_comb, function) or `lhs <= rhs;` (always_ff).
  void assign(const Expr& lhs, const Expr& rhs);
  IfChain if_(const Expr& cond, const Fn& then);
  // Each case must end up with a default item (profile rule case-default).
  void unique_case(const Expr& subject, const CaseFn& items);
  void priority_case(const Expr& subject, const CaseFn& items);
  void unique0_case(const Expr& subject, const CaseFn& items);
  // for (int unsigned var = start; var < bound; var++). In always_ff the trip count must
  // be known when built and at most 64 (profile rule reset-loop-64).
  void for_(std::string_view var, const Expr& start, const Expr& bound, const LoopFn& body);
  void comment(std::string_view text);
  // `Name_A: assert (cond);`, an immediate assertion, checked whenever the always_comb runs.
  // Only in an always_comb of a verification region (rule assert-unguarded), not inside a
  // procedural for (rule assert-in-loop). The name (UpperCamelCase_A) says the invariant.
  void assert_(std::string_view name, const Expr& cond);

  // Outside the profile: each of these throws ProfileError.
  void assert_else(std::string_view name, const Expr& cond, std::string_view message);  // action block
  void declare(std::string_view name, const Type& type);  // variable inside begin/end
  void break_();
  void continue_();
  void return_(const Expr& value);
  void unique_if(const Expr& cond, const Fn& then);
  void priority_if(const Expr& cond, const Fn& then);

  Block(detail::ProcCtx* ctx, Body* body) : ctx_(ctx), body_(body) {}

 protected:
  detail::ProcCtx* ctx_;
  Body* body_;

 private:
  void add_case(CaseKind kind, const Expr& subject, const CaseFn& items);
  friend class IfChain;
  friend class CaseBuilder;
};

class IfChain {
 public:
  IfChain& else_if(const Expr& cond, const Block::Fn& then);
  void else_(const Block::Fn& body);

  IfChain(std::shared_ptr<StmtNode> node, detail::ProcCtx* ctx) : node_(std::move(node)), ctx_(ctx) {}

 private:
  std::shared_ptr<StmtNode> node_;
  detail::ProcCtx* ctx_;
};

class CaseBuilder {
 public:
  void item(const Expr& label, const Block::Fn& body);
  void item(std::vector<Expr> labels, const Block::Fn& body);
  void default_(const Block::Fn& body);

  CaseBuilder(StmtNode* node, detail::ProcCtx* ctx) : node_(node), ctx_(ctx) {}

 private:
  StmtNode* node_;
  detail::ProcCtx* ctx_;
};

// --- Module items -----------------------------------------------------------------------

// A signal with its value: always_comb defaults and always_ff reset values.
struct Init {
  Expr target;
  Expr value;
};

// A named connection `.name(value)` of an instance parameter or port.
struct Conn {
  std::string name;
  Expr value;
};

enum class ItemKind {
  kDecl, kLocalparam, kAssign, kAlwaysComb, kAlwaysFf, kInstance, kGenFor, kGenIf, kComment, kVerification, kAssert
};
enum class FfReset { kAsync, kSync, kNone };

struct Item;
using Items = std::vector<std::shared_ptr<Item>>;

struct GenBranch {
  Expr cond;  // empty for the final else
  std::string label;
  Items items;
};

struct Item {
  ItemKind kind = ItemKind::kComment;
  std::string name;  // decl / localparam / instance name; generate label
  Type type;         // decl / localparam
  std::vector<Expr> unpacked;
  bool mem2reg = false;  // decl: (* mem2reg *)
  bool keep = false;     // always_ff: (* keep *), so that synthesis keeps equal registers apart
  Expr lhs, rhs;  // assign; localparam value in rhs
  Body defaults;  // always_comb defaults / always_ff reset branch
  Body body;
  FfReset reset = FfReset::kAsync;
  std::string module;  // instance
  std::vector<Conn> params, ports;
  std::string var;  // generate for
  Expr start, bound;
  Items items;                     // generate for body; verification region
  bool clocked = false;            // assert: in an always_ff (else an always_comb)
  bool gated = false;              // assert: checked only while rst_ni is high
  std::vector<GenBranch> branches;  // generate if
  std::string text;                // comment
};

class Module;

// Declarations and concurrent items; the body of a module or of a generate block.
class Scope {
 public:
  using GenFn = std::function<void(Scope&)>;
  using GenLoopFn = std::function<void(Scope&, const Expr& index)>;

  virtual ~Scope() = default;

  // logic [width-1:0] name [unpacked...];
  Expr logic(std::string_view name, const Expr& width = 1, std::vector<Expr> unpacked = {});
  // <type> name [unpacked...];  (struct and enum signals of package typedefs)
  Expr var(std::string_view name, const Type& type, std::vector<Expr> unpacked = {});
  // (* mem2reg *) logic [width-1:0] name [entries];  a table of flops with one word per entry,
  // each written (and reset) by its entry's generate block and read at a variable index. Yosys
  // turns it into registers either way; the attribute says so, where it would otherwise warn.
  // Verilator then touches only the words read and written, where a flat vector of every
  // entry's flops would be rebuilt whole every cycle.
  Expr register_table(std::string_view name, const Expr& width, const Expr& entries);
  Expr localparam(std::string_view name, const Type& type, const Expr& value);
  Expr localparam(std::string_view name, const Expr& value);  // int unsigned
  // Refused (profile rule localparam-array); exists so the refusal is tested.
  Expr localparam_array(std::string_view name, const Type& type, std::vector<Expr> unpacked, const Expr& value);

  // assign lhs = rhs;
  void assign(const Expr& lhs, const Expr& rhs);
  // always_comb with every driven signal listed with its default, emitted first.
  void always_comb(std::vector<Init> drives, const Block::Fn& body);
  // always_ff with asynchronous active-low reset rst_ni; `resets` lists every flop.
  void always_ff(std::vector<Init> resets, const Block::Fn& body);
  // always_ff with synchronous active-low reset rst_ni.
  void always_ff_sync(std::vector<Init> resets, const Block::Fn& body);
  // always_ff without reset (memories, data paths).
  void always_ff_noreset(const Block::Fn& body);
  // (* keep *) always_ff without reset: registers that hold equal values on purpose (copies of one
  // register, each driving a share of a large fan-out), which Yosys' opt_merge would merge into one.
  void always_ff_noreset_keep(const Block::Fn& body);
  // always_ff whose reset branch is a body (for loops over small memories).
  void always_ff_reset_block(FfReset reset, const Block::Fn& reset_body, const Block::Fn& body);

  // An instance of a module known only by name (a black box).
  void instance(std::string_view name, std::string_view module, std::vector<Conn> params,
                std::vector<Conn> ports);
  // An instance of a module built with this IR: names, completeness and emptiness checked.
  void instance(std::string_view name, const Module& module, std::vector<Conn> params, std::vector<Conn> ports);

  // for (genvar var = start; var < bound; var++) begin : label ... end
  void gen_for(std::string_view label, std::string_view var, const Expr& start, const Expr& bound,
               const GenLoopFn& body);
  class GenIf;
  // if (cond) begin : label ... end [else begin : else_label ... end]
  GenIf gen_if(const Expr& cond, std::string_view label, const GenFn& then);

  void comment(std::string_view text);

  // Verification region: its items print between `ifndef SYNTHESIS and `endif, so simulation
  // (Verilator, which defines neither) and formal (Yosys read_verilog -formal, which defines
  // FORMAL instead of SYNTHESIS) see them and synthesis does not. `why` is its first comment line.
  // Everything the region drives must be declared in it (the rest of the module must not depend
  // on it); assertions are allowed only here (rule assert-unguarded).
  void verification(std::string_view why, const GenFn& body);
  // In a verification region: an immediate assertion in its own always_ff, sampled at every
  // rising edge of clk_i while rst_ni is high (the module's registered state before the edge
  // and the inputs of the cycle): the form for input contracts, which hold for the cycle in
  // which the inputs are sampled.
  //   always_ff @(posedge clk_i or negedge rst_ni) begin if (rst_ni) begin Name_A: assert (cond); end end
  void assert_clocked(std::string_view name, const Expr& cond);
  // In a verification region: an immediate assertion in its own always_comb (gated by rst_ni when
  // the module has one), checked on every evaluation: the form for invariants of the state and
  // of combinational relations (not of inputs held across the clock edge).
  void assert_comb(std::string_view name, const Expr& cond);
  // Outside the profile: throws ProfileError (rule concurrent-assert).
  void assert_property(std::string_view name, const Expr& cond);

  const Items& items() const { return items_; }

  // True when `name` is declared here, in an enclosing scope being built, or below here.
  bool name_taken(std::string_view name) const;

 protected:
  Scope() = default;
  Scope(const Scope&) = default;
  Scope(Scope&&) = default;
  Scope& operator=(const Scope&) = default;
  Scope& operator=(Scope&&) = default;
  void declare_name(std::string_view name, NameKind kind);
  virtual const Module* module() const;
  std::shared_ptr<Item> add(ItemKind kind);

  Scope* parent_ = nullptr;  // only while a generate body is being built
  bool verification_ = false;  // a verification region (or a scope built inside one)
  std::set<std::string> own_names_;
  std::set<std::string> names_below_;
  std::map<std::string, std::string> drivers_;  // root -> what drives it
  Items items_;

 private:
  void add_ff(FfReset reset, std::vector<Init> resets, const Block::Fn* reset_body, const Block::Fn& body);
  void note_driver(const std::string& root, const std::string& by);
  void run_child(Scope& child, const std::function<void()>& fn);
  void add_assert(std::string_view name, const Expr& cond, bool clocked);
  bool in_verification() const;
};

class Scope::GenIf {
 public:
  void else_(std::string_view label, const GenFn& body);
  GenIf(Scope* scope, std::shared_ptr<Item> item) : scope_(scope), item_(std::move(item)) {}

 private:
  Scope* scope_;
  std::shared_ptr<Item> item_;
};

enum class PortDir { kInput, kOutput };

struct Param {
  std::string name;
  Type type;
  Expr value;
};

struct Port {
  PortDir dir = PortDir::kInput;
  std::string name;
  Type type;
};

class Module : public Scope {
 public:
  explicit Module(std::string_view name);

  const std::string& name() const { return name_; }
  const std::vector<Param>& params() const { return params_; }
  const std::vector<Port>& ports() const { return ports_; }
  const Port* find_port(std::string_view name) const;
  // A line of the comment printed just above `module` (what the block is, in a sentence).
  void describe(std::string_view line);
  const std::vector<std::string>& description() const { return description_; }

  // parameter <type> Name = value;  The value may not contain '1 (rule fill-ones-param).
  Expr param(std::string_view name, const Type& type, const Expr& value);
  Expr param(std::string_view name, const Expr& value);  // parameter int unsigned

  Expr clk();    // input logic clk_i
  Expr rst_n();  // input logic rst_ni (active low; async or sync per always_ff)
  Expr input(std::string_view name, const Expr& width = 1);
  Expr input(std::string_view name, const Type& type);
  Expr output(std::string_view name, const Expr& width = 1);
  Expr output(std::string_view name, const Type& type);
  // The general entry; unpacked dimensions are refused (rule unpacked-array-port).
  Expr port(PortDir dir, std::string_view name, const Type& type, const std::vector<Expr>& unpacked = {});

  // Outside the profile: each throws ProfileError.
  void param_type(std::string_view name, const Type& default_type);
  void interface_port(std::string_view name, std::string_view interface_name, std::string_view modport);
  void import_package(std::string_view package);

 protected:
  const Module* module() const override { return this; }

 private:
  std::string name_;
  std::vector<std::string> description_;
  std::vector<Param> params_;
  std::vector<Port> ports_;
};

// --- Packages ---------------------------------------------------------------------------

struct Arg {
  std::string name;
  Type type;
};

struct FunctionDef {
  std::string package;
  std::string name;
  Type result;
  std::vector<Arg> args;
  std::vector<Arg> locals;
  Body body;
};

class FunctionBody : public Block {
 public:
  Expr arg(std::string_view name) const;
  // A function local, declared at the top of the function (struct locals are refused).
  Expr local(std::string_view name, const Type& type);
  // The function name, to which the result is assigned (no `return` in the profile).
  Expr result() const;

  FunctionBody(detail::ProcCtx* ctx, FunctionDef* def) : Block(ctx, &def->body), def_(def) {}

 private:
  FunctionDef* def_;
};

// A callable handle: f(a, b) builds the call expression pkg::f(a, b).
class Function {
 public:
  template <class... A>
  Expr operator()(const A&... args) const {
    return call_with({Expr(args)...});
  }
  Expr call_with(std::vector<Expr> args) const;
  const std::string& name() const { return name_; }

  Function(std::string package, std::string name, size_t arity)
      : package_(std::move(package)), name_(std::move(name)), arity_(arity) {}

 private:
  std::string package_;
  std::string name_;
  size_t arity_;
};

enum class PackageItemKind { kLocalparam, kTypedef, kFunction, kComment };

struct PackageItem {
  PackageItemKind kind = PackageItemKind::kComment;
  std::string name;  // localparam
  Type type;
  Expr value;
  std::shared_ptr<const TypeDef> typedef_;
  std::shared_ptr<const FunctionDef> function;
  std::string text;
};

class Package {
 public:
  explicit Package(std::string_view name);

  const std::string& name() const { return name_; }
  const std::vector<PackageItem>& items() const { return items_; }
  // A line of the comment printed just above `package`.
  void describe(std::string_view line);
  const std::vector<std::string>& description() const { return description_; }

  // localparam <type> Name = value;  referenced as pkg::Name.
  Expr localparam(std::string_view name, const Type& type, const Expr& value);
  Expr localparam(std::string_view name, const Expr& value);  // int unsigned
  // typedef enum logic [width-1:0] { ... } name_e;
  Type enum_(std::string_view name, const Expr& width, std::vector<EnumItem> items);
  // typedef struct packed { ... } name_t;
  Type struct_(std::string_view name, std::vector<StructField> fields);
  // typedef <type> name_t;
  Type alias(std::string_view name, const Type& type);
  // function automatic <result> name(input ...); ... endfunction
  Function function(std::string_view name, const Type& result, std::vector<Arg> args,
                    const std::function<void(FunctionBody&)>& body);
  void comment(std::string_view text);

  // Outside the profile: each throws ProfileError.
  Expr localparam_array(std::string_view name, const Type& type, std::vector<Expr> unpacked, const Expr& value);
  void import_package(std::string_view package);

 private:
  void declare_name(std::string_view name, NameKind kind);
  std::shared_ptr<const TypeDef> add_typedef(TypeDef def);

  std::string name_;
  std::vector<std::string> description_;
  std::set<std::string> names_;
  std::vector<PackageItem> items_;
};

}  // namespace gen
