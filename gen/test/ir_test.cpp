// Builder semantics beyond the SV-SUBSET.md list: latch-free always_comb, lowRISC flops,
// drivers, instance checks and functions.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "gen/emit.h"
#include "gen/error.h"
#include "gen/ir.h"

namespace gen {
namespace {

std::string rule_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.rule();
  }
  return "no error";
}

Module clocked(std::string_view name = "top") {
  Module m(name);
  m.clk();
  m.rst_n();
  return m;
}

TEST(Comb, DefaultsAreWholeSignalsListedOnce) {
  Module m("top");
  Expr x = m.logic("x", 4);
  EXPECT_EQ(rule_of([&] { m.always_comb({{x[0], 0}}, [](Block&) {}); }), "comb-default-target");
  EXPECT_EQ(rule_of([&] { m.always_comb({{x, 0}, {x, 1}}, [](Block&) {}); }), "comb-drive-twice");
  EXPECT_EQ(rule_of([&] { m.always_comb({}, [](Block&) {}); }), "comb-no-drives");
}

TEST(Comb, PartialAssignmentsOfADefaultedSignalAreFine) {
  Module m("top");
  Expr a = m.input("a_i", 4);
  Expr x = m.logic("x", 4);
  m.always_comb({{x, zeros()}}, [&](Block& b) {
    b.for_("i", 0, 4, [&](Block& l, const Expr& i) { l.assign(x[i], a[3 - i]); });
  });
  EXPECT_EQ(m.items().size(), 2U);
}

TEST(Ff, FlopsAreNamedQ) {
  Module m = clocked();
  Expr x = m.logic("x", 4);
  EXPECT_EQ(rule_of([&] { m.always_ff_noreset([&](Block& b) { b.assign(x, 0); }); }), "name-style");
  EXPECT_EQ(rule_of([&] { m.always_ff({{x, 0}}, [](Block&) {}); }), "name-style");
}

TEST(Ff, EveryFlopOfAResetBlockHasAResetValue) {
  Module m = clocked();
  Expr a_q = m.logic("a_q");
  Expr b_q = m.logic("b_q");
  EXPECT_EQ(rule_of([&] { m.always_ff({{a_q, 0}}, [&](Block& b) { b.assign(b_q, 1); }); }), "ff-reset-missing");
  EXPECT_EQ(rule_of([&] { m.always_ff({}, [](Block&) {}); }), "ff-no-reset");
}

TEST(Ff, NeedsClockAndReset) {
  Module m("top");
  Expr a_q = m.logic("a_q");
  EXPECT_EQ(rule_of([&] { m.always_ff_noreset([&](Block& b) { b.assign(a_q, 1); }); }), "missing-clock-reset");
  m.clk();
  EXPECT_EQ(rule_of([&] { m.always_ff({{a_q, 0}}, [](Block&) {}); }), "missing-clock-reset");
  m.always_ff_noreset([&](Block& b) { b.assign(a_q, 1); });  // no reset needs no rst_ni
  EXPECT_EQ(m.items().size(), 2U);
}

TEST(Ff, FlopsInGenerateBlocksFindTheModuleClock) {
  Module m = clocked();
  Expr v_q = m.logic("v_q", 4);
  m.gen_for("g_entry", "i", 0, 4, [&](Scope& s, const Expr& i) {
    s.always_ff({{v_q[i], 0}}, [&](Block& b) { b.assign(v_q[i], 1); });
  });
  EXPECT_EQ(m.items().size(), 2U);
}

TEST(Assign, OnlyAssignableNamesMayBeTargets) {
  Package pkg("t_pkg");
  Type st = pkg.enum_("state_e", 1, {"StA", "StB"});
  Module m("top");
  Expr in = m.input("a_i");
  Expr p = m.param("Width", 4);
  EXPECT_EQ(rule_of([&] { m.assign(in, 0); }), "not-lvalue");
  EXPECT_EQ(rule_of([&] { m.assign(p, 0); }), "not-lvalue");
  EXPECT_EQ(rule_of([&] { m.assign(st.item("StA"), in); }), "not-lvalue");
  EXPECT_EQ(rule_of([&] { m.assign(ref("x") + 1, in); }), "not-lvalue");
  Expr x = m.logic("x", 4);
  EXPECT_EQ(rule_of([&] {
              m.always_comb({{x, 0}}, [&](Block& b) {
                b.for_("i", 0, 4, [&](Block& l, const Expr& i) { l.assign(i, 0); });
              });
            }),
            "not-lvalue");
}

TEST(Assign, ConcatenationTargets) {
  Module m("top");
  Expr a = m.input("a_i", 8);
  Expr hi = m.logic("hi", 4);
  Expr lo = m.logic("lo", 4);
  m.assign(concat({hi, lo}), a);
  EXPECT_EQ(emit_expr(m.items().back()->lhs), "{hi, lo}");
}

TEST(Drivers, ProceduralDriversAreExclusive) {
  Module m = clocked();
  Expr a = m.input("a_i", 4);
  Expr x = m.logic("x", 4);
  m.always_comb({{x, a}}, [](Block&) {});
  EXPECT_EQ(rule_of([&] { m.assign(x, a); }), "multiple-drivers");
  EXPECT_EQ(rule_of([&] { m.always_comb({{x, a}}, [](Block&) {}); }), "multiple-drivers");
  Expr y = m.logic("y", 4);
  m.assign(y[0], a[0]);  // bitwise continuous assigns may share a vector
  m.assign(y.slice(3, 1), a.slice(3, 1));
  EXPECT_EQ(rule_of([&] { m.always_comb({{y, a}}, [](Block&) {}); }), "multiple-drivers");
}

TEST(Instance, BuiltModulesAreCheckedForNamesAndCompleteness) {
  Module leaf("leaf");
  leaf.param("Width", 4);
  leaf.input("d_i", 4);
  leaf.output("q_o", 4);
  Module m("top");
  Expr a = m.input("a_i", 4);
  Expr q = m.logic("q", 4);
  EXPECT_EQ(rule_of([&] { m.instance("u_leaf", leaf, {{"Depth", 2}}, {{"d_i", a}, {"q_o", q}}); }),
            "unknown-connection");
  EXPECT_EQ(rule_of([&] { m.instance("u_leaf", leaf, {}, {{"d_i", a}, {"x_o", q}}); }), "unknown-connection");
  EXPECT_EQ(rule_of([&] { m.instance("u_leaf", leaf, {}, {{"d_i", a}}); }), "port-unconnected");
  EXPECT_EQ(rule_of([&] { m.instance("u_leaf", leaf, {}, {{"d_i", a}, {"d_i", a}, {"q_o", q}}); }),
            "duplicate-connection");
  m.instance("u_leaf", leaf, {{"Width", 4}}, {{"d_i", a}, {"q_o", q}});
  // The instance drives q: a second driver is refused.
  EXPECT_EQ(rule_of([&] { m.assign(q, a); }), "multiple-drivers");
}

TEST(Function, ResultAssignmentsAndArity) {
  Package pkg("t_pkg");
  EXPECT_EQ(rule_of([&] { pkg.function("f", Type::logic(), {{"v", Type::logic()}}, [](FunctionBody&) {}); }),
            "function-result");
  EXPECT_EQ(rule_of([&] {
              pkg.function("g", Type::logic(), {{"v", Type::logic()}}, [](FunctionBody& f) {
                f.assign(f.arg("v"), 0);
              });
            }),
            "not-lvalue");
  EXPECT_EQ(rule_of([&] {
              pkg.function("h", Type::logic(), {}, [](FunctionBody& f) {
                f.assign(ref("outside"), 0);
                f.assign(f.result(), 0);
              });
            }),
            "function-assign");
  Function inv = pkg.function("inv", Type::logic(), {{"v", Type::logic()}},
                              [](FunctionBody& f) { f.assign(f.result(), ~f.arg("v")); });
  EXPECT_EQ(emit_expr(inv(ref("a"))), "t_pkg::inv(a)");
  EXPECT_EQ(rule_of([&] { inv(ref("a"), ref("b")); }), "call-arity");
  EXPECT_EQ(rule_of([&] { pkg.function("inv", Type::logic(), {}, [](FunctionBody& f) { f.assign(f.result(), 0); }); }),
            "name-duplicate");
}

TEST(Loops, LoopVariablesMayNotHideNames) {
  Module m("top");
  Expr x = m.logic("x", 4);
  EXPECT_EQ(rule_of([&] {
              m.always_comb({{x, 0}}, [&](Block& b) { b.for_("x", 0, 4, [](Block&, const Expr&) {}); });
            }),
            "name-duplicate");
  EXPECT_EQ(rule_of([&] {
              m.always_comb({{x, 0}}, [&](Block& b) {
                b.for_("i", 0, 4, [](Block& l, const Expr&) { l.for_("i", 0, 2, [](Block&, const Expr&) {}); });
              });
            }),
            "name-duplicate");
}

TEST(Structure, ChainsAndCasesAreWellFormed) {
  Module m("top");
  Expr a = m.input("a_i", 2);
  Expr x = m.logic("x", 2);
  EXPECT_EQ(rule_of([&] {
              m.always_comb({{x, 0}}, [&](Block& b) {
                b.unique_case(a, [](CaseBuilder& c) {
                  c.default_([](Block&) {});
                  c.default_([](Block&) {});
                });
              });
            }),
            "case-default-twice");
  EXPECT_EQ(rule_of([&] {
              m.always_comb({{x, 0}}, [&](Block& b) {
                b.unique_case(a, [](CaseBuilder& c) { c.default_([](Block&) {}); });
              });
            }),
            "case-empty");
  EXPECT_EQ(rule_of([&] {
              m.always_comb({{x, 0}}, [&](Block& b) {
                b.if_(a[0], [](Block&) {}).else_([](Block&) {});
                IfChain chain = b.if_(a[1], [](Block&) {});
                chain.else_([](Block&) {});
                chain.else_if(a[0], [](Block&) {});
              });
            }),
            "if-after-else");
  auto gi = m.gen_if(a.eq(0), "g_a", [](Scope&) {});
  gi.else_("g_b", [](Scope&) {});
  EXPECT_EQ(rule_of([&] { gi.else_("g_c", [](Scope&) {}); }), "if-after-else");
  EXPECT_EQ(rule_of([&] { m.comment("two\nlines"); }), "comment-newline");
}

TEST(Package, EnumsAndStructsAreChecked) {
  Package pkg("t_pkg");
  EXPECT_EQ(rule_of([&] { pkg.enum_("a_e", 1, {"AOne", "ATwo", "AThree"}); }), "enum-value");
  EXPECT_EQ(rule_of([&] { pkg.enum_("b_e", 2, {{"BOne", 4}}); }), "enum-value");
  EXPECT_EQ(rule_of([&] { pkg.enum_("c_e", 2, {}); }), "enum-empty");
  EXPECT_EQ(rule_of([&] { pkg.struct_("d_t", {{"n", Type::int_unsigned()}}); }), "struct-field-type");
  Type inner = pkg.struct_("inner_t", {{"v", Type::logic(3)}});
  Type outer = pkg.alias("outer_t", inner);
  EXPECT_TRUE(outer.is_struct());  // an alias of a struct is still a struct
  EXPECT_EQ(emit_type(outer.field_type("v")), "logic [2:0]");
}

}  // namespace
}  // namespace gen
