// The name legalizer: keywords, illegal identifiers, lowRISC spelling per kind, duplicates.
#include <gtest/gtest.h>

#include <string>

#include "gen/error.h"
#include "gen/ir.h"
#include "gen/names.h"

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

TEST(Names, KeywordListCoversIeee1800_2017) {
  // A sample from every era of the language: Verilog-1995, 2001, SV-2005, 2009, 2012.
  for (const char* kw : {"module", "wire", "generate", "logic", "always_ff", "unique0", "interconnect",
                         "implements", "nettype", "soft", "s_until_with", "accept_on", "checker", "untyped",
                         "eventually", "xor", "bit", "ref", "type", "table"}) {
    EXPECT_TRUE(is_keyword(kw)) << kw;
  }
  for (const char* not_kw : {"clk_i", "Module", "logic_q", "data", "tag", "valid", "sv", "byte_t"}) {
    EXPECT_FALSE(is_keyword(not_kw)) << not_kw;
  }
}

TEST(Names, LegalIdentifiers) {
  EXPECT_TRUE(is_legal_identifier("a"));
  EXPECT_TRUE(is_legal_identifier("_x9"));
  EXPECT_FALSE(is_legal_identifier(""));
  EXPECT_FALSE(is_legal_identifier("9lives"));
  EXPECT_FALSE(is_legal_identifier("a-b"));
  EXPECT_FALSE(is_legal_identifier("a b"));
  EXPECT_FALSE(is_legal_identifier("cost$"));  // legal SV, outside the profile
  EXPECT_FALSE(is_legal_identifier("\\escaped "));
}

TEST(Names, KeywordsAreRefusedForEveryKind) {
  EXPECT_EQ(rule_of([] { check_name("logic", NameKind::kSignal); }), "name-keyword");
  EXPECT_EQ(rule_of([] { Module m("module"); }), "name-keyword");
  EXPECT_EQ(rule_of([] { Module m("top"); m.logic("table"); }), "name-keyword");
  EXPECT_EQ(rule_of([] { Module m("top"); m.gen_for("g_x", "bit", 0, 2, [](Scope&, const Expr&) {}); }),
            "name-keyword");
}

TEST(Names, IllegalIdentifiersAreRefused) {
  EXPECT_EQ(rule_of([] { check_name("2fast", NameKind::kSignal); }), "name-illegal");
  EXPECT_EQ(rule_of([] { Module m("top"); m.input("data-i"); }), "name-illegal");
  EXPECT_EQ(rule_of([] { ref("a.b"); }), "name-illegal");
}

TEST(Names, LowRiscSpellingPerKind) {
  struct Case {
    const char* name;
    NameKind kind;
    bool ok;
  };
  const Case cases[] = {
      {"cache_ctrl", NameKind::kModule, true},     {"CacheCtrl", NameKind::kModule, false},
      {"cache_pkg", NameKind::kModule, false},     {"cache_pkg", NameKind::kPackage, true},
      {"cache", NameKind::kPackage, false},        {"NumWays", NameKind::kParameter, true},
      {"NUM_WAYS", NameKind::kParameter, false},   {"num_ways", NameKind::kLocalparam, false},
      {"req_valid_i", NameKind::kInput, true},     {"rst_ni", NameKind::kInput, true},
      {"req_valid", NameKind::kInput, false},      {"resp_o", NameKind::kOutput, true},
      {"resp_i", NameKind::kOutput, false},        {"hit_way", NameKind::kSignal, true},
      {"hit_o", NameKind::kSignal, false},         {"hit__way", NameKind::kSignal, false},
      {"hit_", NameKind::kSignal, false},          {"state_e", NameKind::kEnumType, true},
      {"state_t", NameKind::kEnumType, false},     {"req_t", NameKind::kStructType, true},
      {"StIdle", NameKind::kEnumItem, true},       {"ST_IDLE", NameKind::kEnumItem, false},
      {"g_bank", NameKind::kGenerateBlock, true},  {"bank", NameKind::kGenerateBlock, false},
      {"u_mshr", NameKind::kInstance, true},       {"mshr", NameKind::kInstance, false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(rule_of([&] { check_name(c.name, c.kind); }), c.ok ? "no error" : "name-style")
        << c.name << " as " << to_string(c.kind);
  }
}

TEST(Names, DuplicatesInOneScopeAreErrors) {
  Module m("top");
  m.input("a_i");
  m.logic("x");
  EXPECT_EQ(rule_of([&] { m.logic("x"); }), "name-duplicate");
  EXPECT_EQ(rule_of([&] { m.input("a_i"); }), "name-duplicate");
  EXPECT_EQ(rule_of([&] { m.localparam("Depth", 4); m.param("Depth", 2); }), "name-duplicate");
}

TEST(Names, GenerateScopesMayNotHideOuterNames) {
  Module m("top");
  m.logic("tmp");
  // Inner declaration hiding an outer one (Verilator VARHIDDEN).
  EXPECT_EQ(rule_of([&] { m.gen_for("g_a", "i", 0, 2, [](Scope& s, const Expr&) { s.logic("tmp"); }); }),
            "name-duplicate");
  // Outer declaration after an inner one of the same name.
  m.gen_for("g_b", "i", 0, 2, [](Scope& s, const Expr&) { s.logic("inner"); });
  EXPECT_EQ(rule_of([&] { m.logic("inner"); }), "name-duplicate");
}

TEST(Names, SiblingGenerateScopesMayReuseNames) {
  Module m("top");
  m.gen_for("g_a", "i", 0, 2, [](Scope& s, const Expr&) { s.logic("tmp"); });
  m.gen_for("g_b", "i", 0, 2, [](Scope& s, const Expr&) { s.logic("tmp"); });
  EXPECT_EQ(m.items().size(), 2U);
  EXPECT_EQ(rule_of([&] { m.gen_for("g_a", "j", 0, 2, [](Scope&, const Expr&) {}); }), "name-duplicate");
}

TEST(Names, PackageNamesShareOneScope) {
  Package p("cache_pkg");
  p.enum_("state_e", 2, {"StIdle", "StBusy"});
  EXPECT_EQ(rule_of([&] { p.enum_("mode_e", 1, {"StIdle"}); }), "name-duplicate");
  EXPECT_EQ(rule_of([&] { p.localparam("StBusy", 1); }), "name-duplicate");
  EXPECT_EQ(rule_of([&] { p.struct_("req_t", {{"a", Type::logic()}, {"a", Type::logic()}}); }), "name-duplicate");
}

TEST(Names, LegalizeRenamesPredictably) {
  EXPECT_EQ(legalize("gtx480-l1"), "gtx480_l1");
  EXPECT_EQ(legalize("32kb"), "n32kb");
  EXPECT_EQ(legalize(""), "n");
  EXPECT_EQ(legalize("logic"), "logic_sv");
  EXPECT_EQ(legalize("a.b c"), "a_b_c");
  EXPECT_EQ(legalize(legalize("x y")), legalize("x y"));  // idempotent
  for (const char* raw : {"module", "9", "é", "a$b"}) EXPECT_TRUE(is_legal_identifier(legalize(raw))) << raw;
}

}  // namespace
}  // namespace gen
