// Expressions: literals, selects, casts, and precedence-aware printing (fewest parentheses
// that keep the meaning of the tree; IEEE 1800-2017 Table 11-2).
#include <gtest/gtest.h>

#include "gen/emit.h"
#include "gen/error.h"
#include "gen/expr.h"
#include "gen/ir.h"

namespace gen {
namespace {

const Expr a = ref("a"), b = ref("b"), c = ref("c"), d = ref("d"), e = ref("e");

std::string p(const Expr& x) { return emit_expr(x); }

TEST(ExprPrint, SizedLiterals) {
  EXPECT_EQ(p(lit(8, 5)), "8'd5");
  EXPECT_EQ(p(hex(4, 0xF)), "4'hF");
  EXPECT_EQ(p(hex(12, 0xAB)), "12'h0AB");
  EXPECT_EQ(p(bin(4, 0b0101)), "4'b0101");
  EXPECT_EQ(p(bit(true)), "1'b1");
  EXPECT_EQ(p(bit(false)), "1'b0");
  EXPECT_EQ(p(lit(64, ~uint64_t{0})), "64'd18446744073709551615");
  EXPECT_EQ(p(Expr(42)), "42");
  EXPECT_EQ(p(zeros()), "'0");
  EXPECT_EQ(p(ones()), "'1");
  EXPECT_EQ(p(all_ones(ref("Width"))), "{Width{1'b1}}");
}

TEST(ExprPrint, LiteralsThatDoNotFitAreErrors) {
  EXPECT_THROW(lit(4, 16), IrError);
  EXPECT_THROW(hex(0, 0), IrError);
  EXPECT_THROW(bin(65, 0), IrError);
  EXPECT_THROW(Expr(-1), IrError);
}

TEST(ExprPrint, ConcatReplicateAndSelects) {
  EXPECT_EQ(p(concat({a, b.slice(3, 0), repl(2, c)})), "{a, b[3:0], {2{c}}}");
  EXPECT_EQ(p(repl(ref("N") + 1, bit(false))), "{(N + 1){1'b0}}");
  EXPECT_EQ(p(a[3]), "a[3]");
  EXPECT_EQ(p(a[b + 1]), "a[b + 1]");
  EXPECT_EQ(p(a.slice(ref("W") - 1, 0)), "a[W - 1:0]");
  EXPECT_EQ(p(a.part(ref("i") * 8, 8)), "a[i * 8 +: 8]");
  EXPECT_EQ(p(a[1][2]), "a[1][2]");
  EXPECT_EQ(p(a.field("tag").slice(3, 0)), "a.tag[3:0]");
}

// A per-way vector of a 1-way configuration is a plain one-bit `logic` (`[0:0]` is never emitted),
// and SystemVerilog has no bit select of it: bit 0 (a constant 0, a genvar, or a part of width 1)
// is the signal itself; a constant bit above 0 is an error.
TEST(ExprPrint, SelectsOfAOneBitSignalAreTheSignal) {
  Module m("top");
  const Expr one = m.logic("one");
  const Expr vec = m.logic("vec", 4);
  EXPECT_EQ(p(one[0]), "one");
  EXPECT_EQ(p(one[ref("gw")]), "one");
  EXPECT_EQ(p(one.part(ref("gw") * 1, 1)), "one");
  EXPECT_EQ(p(one.part(ref("gw") * 2, 2)), "one[gw * 2 +: 2]");  // not one bit: left as written
  EXPECT_THROW(one[1], IrError);
  EXPECT_EQ(p(vec[0]), "vec[0]");
  EXPECT_EQ(p(a[0]), "a[0]");  // an unchecked reference: its width is not known
}

TEST(ExprPrint, CastsAndSystemFunctions) {
  EXPECT_EQ(p(cast(8, a)), "8'(a)");
  EXPECT_EQ(p(cast(ref("Width"), a + b)), "Width'(a + b)");
  EXPECT_EQ(p(cast(ref("W") + 1, a)), "(W + 1)'(a)");
  EXPECT_EQ(p(signed_cast(a)), "signed'(a)");
  EXPECT_EQ(p(to_signed(a) + to_unsigned(b)), "$signed(a) + $unsigned(b)");
  EXPECT_EQ(p(countones(a)), "$countones(a)");
  EXPECT_EQ(p(onehot(a).land(onehot0(b))), "$onehot(a) && $onehot0(b)");
  EXPECT_EQ(p(clog2(ref("Depth"))), "$clog2(Depth)");
}

TEST(ExprPrint, PackageReferencesAndCalls) {
  EXPECT_EQ(p(scoped("cache_pkg", "Ways")), "cache_pkg::Ways");
  EXPECT_EQ(p(call("cache_pkg", "popcount", {a})), "cache_pkg::popcount(a)");
  EXPECT_EQ(p(call("", "f", {a, b})), "f(a, b)");
  // Inside the package itself its names print unqualified.
  EXPECT_EQ(emit_expr(scoped("cache_pkg", "Ways") + 1, "cache_pkg"), "Ways + 1");
}

// The tricky mixes of the issue: each tree prints with exactly the parentheses it needs.
struct PrecCase {
  const char* want;
  Expr expr;
};

class Precedence : public ::testing::TestWithParam<int> {};

const std::vector<PrecCase>& prec_cases() {
  static const std::vector<PrecCase> cases = {
      {"a & b == c", a & b.eq(c)},                  // == binds tighter than &
      {"(a & b) == c", (a & b).eq(c)},
      {"a << b + 1", a << (b + 1)},                 // + binds tighter than <<
      {"(a << b) + 1", (a << b) + 1},
      {"a - (b - c)", a - (b - c)},                 // left associative
      {"a - b - c", (a - b) - c},
      {"a + b + c", a + (b + c)},                   // associative operator, same op
      {"a + (b - c)", a + (b - c)},                 // different op at the same level keeps them
      {"a / (b * c)", a / (b * c)},
      {"a * b / c", (a * b) / c},
      {"a ^ b | c", (a ^ b) | c},                   // ^ binds tighter than |
      {"a ^ (b | c)", a ^ (b | c)},
      {"a | b & c", a | (b & c)},
      {"a && b || c", a.land(b).lor(c)},
      {"a && (b || c)", a.land(b.lor(c))},
      {"a == b && c != d", a.eq(b).land(c.ne(d))},
      {"a < b == c < d", a.lt(b).eq(c.lt(d))},
      {"a == (b == c)", a.eq(b.eq(c))},
      {"a ? b : c ? d : e", mux(a, b, mux(c, d, e))},  // right associative
      {"(a ? b : c) ? d : e", mux(mux(a, b, c), d, e)},
      {"a ? (b ? c : d) : e", mux(a, mux(b, c, d), e)},  // middle operand: for the reader
      {"(a ? b : c) + d", mux(a, b, c) + d},
      {"a | b ? c : d", mux(a | b, c, d)},
      {"~(a & b)", ~(a & b)},
      {"~a & b", ~a & b},
      {"-(-a)", -(-a)},                            // never the token --
      {"&(&a)", red_and(red_and(a))},              // never the token &&
      {"!(|a)", !red_or(a)},
      {"a & &b", a & red_and(b)},
      {"-a - -b", -a - -b},
      {"a >>> 2 >> 1", a.ashr(2) >> 1},
      {"{a, b} + c[1:0]", concat({a, b}) + c.slice(1, 0)},
      {"a % b < c", (a % b).lt(c)},
      {"a[b ? c : d]", a[mux(b, c, d)]},
  };
  return cases;
}

TEST_P(Precedence, PrintsMinimalCorrectParentheses) {
  const PrecCase& pc = prec_cases()[static_cast<size_t>(GetParam())];
  EXPECT_EQ(p(pc.expr), pc.want);
}

INSTANTIATE_TEST_SUITE_P(Mixes, Precedence, ::testing::Range(0, static_cast<int>(prec_cases().size())));

TEST(ExprBuild, SelectsApplyToNamesOnly) {
  EXPECT_THROW((a + b)[0], IrError);
  EXPECT_THROW(concat({a, b}).slice(1, 0), IrError);
  EXPECT_THROW(call("", "f", {a}).part(0, 2), IrError);
  EXPECT_THROW((a & b).field("x"), IrError);
  EXPECT_THROW(Expr()[0], IrError);
  EXPECT_THROW(a + Expr(), IrError);
}

TEST(ExprBuild, FieldsOfKnownStructsAreChecked) {
  Package pkg("t_pkg");
  Type s = pkg.struct_("req_t", {{"addr", Type::logic(32)}, {"we", Type::logic()}});
  Module m("top");
  Expr req = m.input("req_i", s);
  EXPECT_EQ(p(req.field("addr")), "req_i.addr");
  EXPECT_THROW(req.field("data"), IrError);
  EXPECT_THROW(m.input("x_i", 4).field("addr"), IrError);  // not a struct
}

TEST(ExprBuild, EnumItemsAreScopedAndChecked) {
  Package pkg("t_pkg");
  Type st = pkg.enum_("state_e", 2, {"StIdle", "StBusy"});
  EXPECT_EQ(p(st.item("StBusy")), "t_pkg::StBusy");
  EXPECT_THROW(st.item("StNope"), IrError);
  EXPECT_THROW(Type::logic(2).item("StIdle"), IrError);
}

TEST(ExprBuild, ConstValueFoldsParametersAndClog2) {
  Module m("top");
  Expr depth = m.param("Depth", 48);
  Expr half = m.localparam("Half", depth / 2);
  EXPECT_EQ(const_value(half), 24);
  EXPECT_EQ(const_value(clog2(depth)), 6);
  EXPECT_EQ(const_value(clog2(1)), 0);
  EXPECT_EQ(const_value((depth << 1) + (half % 5)), 100);
  EXPECT_EQ(const_value(mux(depth.gt(32), 1, 2)), 1);
  EXPECT_FALSE(const_value(ref("Unknown") + 1).has_value());
  EXPECT_FALSE(const_value(depth / 0).has_value());
}

TEST(TypePrint, VectorsIntsAndTypedefs) {
  EXPECT_EQ(emit_type(Type::logic()), "logic");
  EXPECT_EQ(emit_type(Type::logic(1)), "logic");
  EXPECT_EQ(emit_type(Type::logic(8)), "logic [7:0]");
  EXPECT_EQ(emit_type(Type::logic(ref("Width"))), "logic [Width-1:0]");
  EXPECT_EQ(emit_type(Type::logic(clog2(ref("Depth")))), "logic [$clog2(Depth)-1:0]");
  EXPECT_EQ(emit_type(Type::logic(ref("A") << 1)), "logic [(A << 1)-1:0]");
  EXPECT_EQ(emit_type(Type::logic_signed(16)), "logic signed [15:0]");
  EXPECT_EQ(emit_type(Type::int_unsigned()), "int unsigned");
  EXPECT_EQ(emit_type(Type::int_()), "int");
  EXPECT_EQ(emit_type(Type::logic().packed(4)), "logic [3:0]");
  Package pkg("t_pkg");
  Type a_t = pkg.alias("addr_t", Type::logic(32));
  EXPECT_EQ(emit_type(a_t), "t_pkg::addr_t");
  EXPECT_EQ(emit_type(a_t, "t_pkg"), "addr_t");
  EXPECT_THROW(Type::logic(0), IrError);
}

}  // namespace
}  // namespace gen
