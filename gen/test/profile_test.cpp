// The target profile refuses, when the IR is built, each construct of SV-SUBSET.md
// "Refuse these" (and the conditions of its accepted list: case defaults, comb defaults).
// One parameterized test per refused construct; each checks the rule the error names.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>

#include "gen/error.h"
#include "gen/ir.h"
#include "gen/profile.h"

namespace gen {
namespace {

// A small context most attempts start from.
struct Ctx {
  Package pkg{"t_pkg"};
  Type state = pkg.enum_("state_e", 2, {"StIdle", "StBusy"});
  Type entry = pkg.struct_("entry_t", {{"tag", Type::logic(4)}, {"state", state}});
  Type byte = pkg.alias("byte_t", Type::logic(8));
  Module m{"top"};
  Expr clk = m.clk();
  Expr rst = m.rst_n();
  Expr a = m.input("a_i", 8);
};

void in_comb(const std::function<void(Ctx&, Block&)>& f) {
  Ctx c;
  Expr x = c.m.logic("x", 8);
  c.m.always_comb({{x, 0}}, [&](Block& b) { f(c, b); });
}

void in_function(const std::function<void(Ctx&, FunctionBody&)>& f) {
  Ctx c;
  c.pkg.function("f", Type::logic(8), {{"v", Type::logic(8)}}, [&](FunctionBody& fb) {
    fb.assign(fb.result(), fb.arg("v"));
    f(c, fb);
  });
}

struct Refusal {
  const char* name;  // test name
  Rule rule;
  std::function<void()> attempt;
};

const std::vector<Refusal>& refusals() {
  static const std::vector<Refusal> list = {
      // '1 as a parameter or localparam initialiser (Yosys 0.23 evaluates it as 1).
      {"FillOnesModuleParameter", Rule::kFillOnesParam, [] { Ctx c; c.m.param("Mask", Type::logic(8), ones()); }},
      {"FillOnesInParameterExpression", Rule::kFillOnesParam,
       [] { Ctx c; c.m.param("Mask", Type::logic(8), ones() ^ lit(8, 1)); }},
      {"FillOnesLocalparam", Rule::kFillOnesParam, [] { Ctx c; c.m.localparam("Mask", Type::logic(8), ones()); }},
      {"FillOnesPackageLocalparam", Rule::kFillOnesParam,
       [] { Ctx c; c.pkg.localparam("Mask", Type::logic(8), ones()); }},
      // Variable declarations inside procedural begin/end.
      {"VariableInsideAlwaysComb", Rule::kProceduralDecl,
       [] { in_comb([](Ctx&, Block& b) { b.declare("tmp", Type::logic(4)); }); }},
      {"VariableInsideIfBranch", Rule::kProceduralDecl, [] {
         in_comb([](Ctx& c, Block& b) { b.if_(c.a[0], [](Block& t) { t.declare("tmp", Type::logic()); }); });
       }},
      // break / continue.
      {"Break", Rule::kBreakContinue,
       [] { in_comb([](Ctx&, Block& b) { b.for_("i", 0, 4, [](Block& l, const Expr&) { l.break_(); }); }); }},
      {"Continue", Rule::kBreakContinue,
       [] { in_comb([](Ctx&, Block& b) { b.for_("i", 0, 4, [](Block& l, const Expr&) { l.continue_(); }); }); }},
      // unique if / priority if.
      {"UniqueIf", Rule::kUniqueIf, [] { in_comb([](Ctx& c, Block& b) { b.unique_if(c.a[0], [](Block&) {}); }); }},
      {"PriorityIf", Rule::kUniqueIf,
       [] { in_comb([](Ctx& c, Block& b) { b.priority_if(c.a[0], [](Block&) {}); }); }},
      // function void; parameter type; streaming operators.
      {"FunctionVoid", Rule::kFunctionVoid,
       [] { Ctx c; c.pkg.function("f", Type::void_(), {}, [](FunctionBody&) {}); }},
      {"ParameterType", Rule::kParameterType, [] { Ctx c; c.m.param_type("DataT", Type::logic(8)); }},
      {"StreamingLeft", Rule::kStreaming, [] { Ctx c; stream_left({c.a}); }},
      {"StreamingRight", Rule::kStreaming, [] { Ctx c; stream_right({c.a}); }},
      // import; return; inside; enum casts.
      {"ImportInModule", Rule::kImport, [] { Ctx c; c.m.import_package("t_pkg"); }},
      {"ImportInPackage", Rule::kImport, [] { Package p("other_pkg"); p.import_package("t_pkg"); }},
      {"ReturnInFunction", Rule::kReturn, [] { in_function([](Ctx&, FunctionBody& f) { f.return_(f.arg("v")); }); }},
      {"Inside", Rule::kInside, [] { Ctx c; inside(c.a, {1, 2, 3}); }},
      {"EnumCast", Rule::kEnumCast, [] { Ctx c; cast(c.state, c.a.slice(1, 0)); }},
      {"StructCast", Rule::kTypeCast, [] { Ctx c; cast(c.entry, c.a.slice(5, 0)); }},
      {"AliasCast", Rule::kTypeCast, [] { Ctx c; cast(c.byte, c.a); }},
      // Multi-dimensional packed arrays, directly and through a typedef.
      {"MultiDimPackedLogic", Rule::kMultiDimPacked, [] { Type::packed_array({4, 8}); }},
      {"MultiDimPackedSecondDim", Rule::kMultiDimPacked, [] { Type::logic(8).packed(4); }},
      {"MultiDimPackedThroughTypedef", Rule::kMultiDimPacked, [] { Ctx c; c.byte.packed(4); }},
      {"PackedArrayOfStructs", Rule::kMultiDimPacked, [] { Ctx c; c.entry.packed(4); }},
      // Unpacked arrays of structs; struct locals and results in functions.
      {"UnpackedArrayOfStructs", Rule::kUnpackedStructArray, [] { Ctx c; c.m.var("mem_q", c.entry, {8}); }},
      {"StructLocalInFunction", Rule::kStructFunction,
       [] { in_function([](Ctx& c, FunctionBody& f) { f.local("tmp", c.entry); }); }},
      {"StructResultOfFunction", Rule::kStructFunction, [] {
         Ctx c;
         c.pkg.function("mk", c.entry, {}, [](FunctionBody& f) { f.assign(f.result(), zeros()); });
       }},
      {"StructArgumentOfFunction", Rule::kStructFunction, [] {
         Ctx c;
         c.pkg.function("tag_of", Type::logic(4), {{"e", c.entry}}, [](FunctionBody& f) {
           f.assign(f.result(), f.arg("e").field("tag"));
         });
       }},
      // mem[i].field; assignment patterns.
      {"MemberOfArrayElement", Rule::kArrayElementMember, [] { Ctx c; ref("mem_q")[c.a].field("tag"); }},
      {"AssignmentPattern", Rule::kAssignmentPattern, [] { Ctx c; assignment_pattern({c.a, 0}); }},
      // '0 (or any literal) to an enum variable.
      {"ZeroToEnumCombDefault", Rule::kZeroToEnum, [] {
         Ctx c;
         Expr s = c.m.var("state_d", c.state);
         c.m.always_comb({{s, zeros()}}, [](Block&) {});
       }},
      {"ZeroToEnumAssign", Rule::kZeroToEnum, [] {
         Ctx c;
         c.m.assign(c.m.output("state_o", c.state), zeros());
       }},
      {"ZeroToEnumResetValue", Rule::kZeroToEnum, [] {
         Ctx c;
         Expr s = c.m.var("state_q", c.state);
         c.m.always_ff({{s, zeros()}}, [](Block&) {});
       }},
      {"LiteralToEnumField", Rule::kZeroToEnum, [] {
         Ctx c;
         c.m.assign(c.m.output("entry_o", c.entry).field("state"), lit(2, 0));
       }},
      {"LiteralInitialisesEnumParameter", Rule::kZeroToEnum,
       [] { Ctx c; c.m.param("Mode", c.state, zeros()); }},
      // $bits(pkg::type).
      {"BitsOfType", Rule::kBitsOfType, [] { Ctx c; bits(c.entry); }},
      // Anonymous structs (in ports and anywhere else); unpacked-array ports.
      {"AnonymousStructPort", Rule::kAnonymousStruct,
       [] { Ctx c; c.m.input("x_i", Type::anonymous_struct({{"v", Type::logic()}})); }},
      {"AnonymousStructSignal", Rule::kAnonymousStruct,
       [] { Ctx c; c.m.var("x", Type::anonymous_struct({{"v", Type::logic()}})); }},
      {"UnpackedArrayPort", Rule::kUnpackedArrayPort,
       [] { Ctx c; c.m.port(PortDir::kInput, "x_i", Type::logic(8), {4}); }},
      // localparam unpacked or packed 2-D arrays.
      {"LocalparamUnpackedArray", Rule::kLocalparamArray,
       [] { Ctx c; c.m.localparam_array("Table", Type::logic(8), {4}, zeros()); }},
      {"PackageLocalparamArray", Rule::kLocalparamArray,
       [] { Ctx c; c.pkg.localparam_array("Table", Type::logic(8), {4}, zeros()); }},
      {"LocalparamPacked2D", Rule::kMultiDimPacked,
       [] { Ctx c; c.m.localparam("Table", Type::packed_array({4, 8}), 0); }},
      // Interfaces at module boundaries; .port() left empty.
      {"InterfacePort", Rule::kInterfacePort, [] { Ctx c; c.m.interface_port("bus", "mem_if", "master"); }},
      {"EmptyPortConnection", Rule::kEmptyPortConnection,
       [] { Ctx c; c.m.instance("u_leaf", "leaf", {}, {{"clk_i", c.clk}, {"q_o", Expr()}}); }},
      {"EmptyPortConnectionOfBuiltModule", Rule::kEmptyPortConnection, [] {
         Ctx c;
         Module leaf("leaf");
         leaf.input("d_i");
         leaf.output("q_o");
         c.m.instance("u_leaf", leaf, {}, {{"d_i", c.a[0]}, {"q_o", Expr()}});
       }},
      {"EmptyParameterConnection", Rule::kEmptyPortConnection,
       [] { Ctx c; c.m.instance("u_leaf", "leaf", {{"Width", Expr()}}, {{"clk_i", c.clk}}); }},
      // Loops over more than 64 entries in one always_ff (Verilator BLKLOOPINIT).
      {"ResetLoopOver64", Rule::kResetLoop64, [] {
         Ctx c;
         Expr v = c.m.logic("valid_q", 65);
         c.m.always_ff_reset_block(
             FfReset::kAsync,
             [&](Block& r) { r.for_("i", 0, 65, [&](Block& l, const Expr& i) { l.assign(v[i], bit(false)); }); },
             [](Block&) {});
       }},
      {"ResetLoopOverParameter", Rule::kResetLoop64, [] {
         Ctx c;
         Expr n = c.m.param("Entries", 128);
         Expr v = c.m.logic("valid_q", n);
         c.m.always_ff_reset_block(
             FfReset::kSync,
             [&](Block& r) { r.for_("i", 0, n, [&](Block& l, const Expr& i) { l.assign(v[i], bit(false)); }); },
             [](Block&) {});
       }},
      {"FfLoopWithUnknownTripCount", Rule::kResetLoop64, [] {
         Ctx c;
         Expr v = c.m.logic("v_q", 8);
         c.m.always_ff_noreset([&](Block& b) {
           b.for_("i", 0, ref("N"), [&](Block& l, const Expr& i) { l.assign(v[i], bit(false)); });
         });
       }},
      // Conditions of the accepted list: case default, always_comb defaults.
      {"UniqueCaseWithoutDefault", Rule::kCaseDefault, [] {
         in_comb([](Ctx& c, Block& b) { b.unique_case(c.a, [](CaseBuilder& cb) { cb.item(0, [](Block&) {}); }); });
       }},
      {"PriorityCaseWithoutDefault", Rule::kCaseDefault, [] {
         in_comb([](Ctx& c, Block& b) { b.priority_case(c.a, [](CaseBuilder& cb) { cb.item(0, [](Block&) {}); }); });
       }},
      {"Unique0CaseWithoutDefault", Rule::kCaseDefault, [] {
         in_function([](Ctx&, FunctionBody& f) {
           f.unique0_case(f.arg("v"), [](CaseBuilder& cb) { cb.item(0, [](Block&) {}); });
         });
       }},
      // Assertions: action blocks, concurrent assertions, labels in loops, outside a region.
      {"AssertActionBlock", Rule::kAssertActionBlock, [] {
         Ctx c;
         c.m.verification("checks", [&](Scope& v) {
           Expr x = v.logic("x");
           v.always_comb({{x, 0}}, [&](Block& b) { b.assert_else("XZero_A", c.a[0], "a_i[0] low"); });
         });
       }},
      {"ConcurrentAssert", Rule::kConcurrentAssert, [] {
         Ctx c;
         c.m.verification("checks", [&](Scope& v) { v.assert_property("AZero_A", c.a[0]); });
       }},
      {"AssertInLoop", Rule::kAssertInLoop, [] {
         Ctx c;
         c.m.verification("checks", [&](Scope& v) {
           Expr x = v.logic("x");
           v.always_comb({{x, 0}}, [&](Block& b) {
             b.for_("i", 0, 8, [&](Block& body, const Expr& i) { body.assert_("ABit_A", c.a[i]); });
           });
         });
       }},
      {"AssertOutsideRegion", Rule::kAssertUnguarded, [] { Ctx c; c.m.assert_clocked("AZero_A", c.a[0]); }},
      {"AssertInDesignComb", Rule::kAssertUnguarded, [] { in_comb([](Ctx& c, Block& b) { b.assert_("AZero_A", c.a[0]); }); }},
      {"CombAssignWithoutDefault", Rule::kCombDefaults, [] {
         Ctx c;
         Expr x = c.m.logic("x");
         Expr y = c.m.logic("y");
         c.m.always_comb({{x, 0}}, [&](Block& b) { b.if_(c.a[0], [&](Block& t) { t.assign(y, 1); }); });
       }},
  };
  return list;
}

class ProfileRefuses : public ::testing::TestWithParam<size_t> {};

TEST_P(ProfileRefuses, AtBuildTimeNamingTheRule) {
  const Refusal& r = refusals()[GetParam()];
  const RuleInfo& info = rule_info(r.rule);
  try {
    r.attempt();
    FAIL() << r.name << " was accepted; expected profile rule " << info.id;
  } catch (const ProfileError& e) {
    EXPECT_EQ(e.rule(), info.id) << e.what();
    const std::string msg = e.what();
    EXPECT_NE(msg.find("profile rule '" + std::string(info.id) + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("SV-SUBSET.md"), std::string::npos) << msg;
  }
}

INSTANTIATE_TEST_SUITE_P(SvSubset, ProfileRefuses, ::testing::Range<size_t>(0, refusals().size()),
                         [](const ::testing::TestParamInfo<size_t>& p) { return refusals()[p.param].name; });

TEST(Profile, EveryRuleHasAUniqueIdAndAReason) {
  std::set<std::string_view> ids;
  for (const RuleInfo& info : all_rules()) {
    EXPECT_TRUE(ids.insert(info.id).second) << info.id;
    EXPECT_FALSE(info.what.empty());
    EXPECT_FALSE(info.reason.empty());
    EXPECT_FALSE(info.instead.empty());
    EXPECT_EQ(&rule_info(info.rule), &info);
  }
  EXPECT_EQ(ids.size(), static_cast<size_t>(Rule::kCombDefaults) + 1);
}

TEST(Profile, EveryRuleIsExercisedByARefusalTest) {
  std::set<Rule> covered;
  for (const Refusal& r : refusals()) covered.insert(r.rule);
  for (const RuleInfo& info : all_rules()) EXPECT_TRUE(covered.contains(info.rule)) << info.id;
}

TEST(Profile, DocsListEveryRule) {
#ifdef PROJECT_SOURCE_DIR
  const std::string path = std::string(PROJECT_SOURCE_DIR) + "/docs/sv-subset.md";
#else
  const std::string path = "docs/sv-subset.md";
#endif
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  for (const RuleInfo& info : all_rules()) {
    EXPECT_NE(doc.find("`" + std::string(info.id) + "`"), std::string::npos) << info.id << " missing from " << path;
  }
  EXPECT_NE(doc.find("read_verilog -sv -noautowire"), std::string::npos);
}

// The accepted neighbours of the refused forms build without complaint.
TEST(Profile, AcceptedNeighboursBuild) {
  Ctx c;
  Expr mask = c.m.param("Mask", Type::logic(8), all_ones(8));     // {8{1'b1}}, not '1
  Expr m2 = c.m.localparam("Mask2", Type::logic(8), hex(8, 0xFF));  // a sized literal
  Expr e_q = c.m.var("entry_q", c.entry);
  Expr wide_q = c.m.logic("wide_q", 64);
  Expr out = c.m.logic("out", 8);
  Expr big = c.m.logic("big", 128);
  c.m.always_ff({{e_q, zeros()}}, [&](Block& b) { b.assign(e_q.field("tag"), c.a.slice(3, 0)); });  // '0 to a struct
  c.m.always_ff_reset_block(
      FfReset::kAsync,
      [&](Block& r) { r.for_("i", 0, 64, [&](Block& l, const Expr& i) { l.assign(wide_q[i], bit(false)); }); },
      [&](Block& b) { b.assign(wide_q, repl(8, c.a)); });
  c.m.always_comb({{out, ones()}, {big, zeros()}}, [&](Block& b) {  // '1 outside parameters
    b.assign(out, mask & m2);
    b.for_("i", 0, 128, [&](Block& l, const Expr& i) { l.assign(big[i], c.a[0]); });  // comb loops are not limited
  });
  c.m.gen_for("g_x", "g", 0, 2, [](Scope& s, const Expr&) { s.logic("tmp"); });  // generate-scope declaration
  c.pkg.function("g", Type::logic(8), {{"v", Type::logic(8)}}, [](FunctionBody& f) {
    Expr t = f.local("t", Type::logic(8));  // function local scalar
    f.assign(t, f.arg("v"));
    f.assign(f.result(), t);
  });
  EXPECT_EQ(c.m.items().size(), 9U);
}

}  // namespace
}  // namespace gen
