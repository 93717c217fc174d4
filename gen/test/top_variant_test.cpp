// dcgen --variant (gen/blocks/l1d_top_variant.h): the option's checks, and what the conventional
// staged l1d_top changes (docs/generator.md "Variants"): the tag row's width and the tie-off.
#include <gtest/gtest.h>

#include <string>

#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/l1d_top_variant.h"
#include "gen/emit.h"

namespace gen::blocks {
namespace {

const FileHeader kHeader{"top_variant_test", "test"};

l1d::Config staged_gtx480() {
  l1d::Config cfg = l1d::load_preset("gtx480");
  cfg.l1.pipeline = l1d::L1Pipeline::kStaged;
  return cfg;
}

std::string error_of(TopVariant v, const l1d::Config& cfg) {
  try {
    check_top_variant(v, cfg);
  } catch (const l1d::ConfigError& e) {
    return e.what();
  }
  return "";
}

class TopVariantTest : public ::testing::Test {
 protected:
  void TearDown() override { set_top_variant(TopVariant::kFull); }  // the process-wide choice
};

TEST_F(TopVariantTest, NamesAndRefusals) {
  EXPECT_EQ(parse_top_variant("full"), TopVariant::kFull);
  EXPECT_EQ(parse_top_variant("conventional"), TopVariant::kConventional);
  try {
    (void)parse_top_variant("plain");
    ADD_FAILURE() << "no error for --variant plain";
  } catch (const l1d::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("--variant: value 'plain' not allowed (full, conventional)"), std::string::npos)
        << e.what();
  }
  l1d::Config cfg = staged_gtx480();
  EXPECT_EQ(error_of(TopVariant::kConventional, cfg), "");
  EXPECT_NE(error_of(TopVariant::kConventional, l1d::load_preset("gtx480")).find("l1.pipeline single_cycle"),
            std::string::npos);
  l1d::Config dycache = cfg;
  l1d::apply_policy_preset(dycache, "dycache");
  EXPECT_NE(error_of(TopVariant::kConventional, dycache).find("sets cfg_gran_i=3"), std::string::npos);
  l1d::Config agcb = cfg;
  l1d::apply_policy_preset(agcb, "agcb");
  EXPECT_NE(error_of(TopVariant::kConventional, agcb).find("sets cfg_bypass_i=1"), std::string::npos);
  l1d::Config agelru = cfg;
  l1d::apply_policy_preset(agelru, "agelru");
  EXPECT_NE(error_of(TopVariant::kConventional, agelru).find("policy.replacement"), std::string::npos);
  // full takes anything the generator takes
  EXPECT_EQ(error_of(TopVariant::kFull, dycache), "");
  EXPECT_EQ(error_of(TopVariant::kFull, l1d::load_preset("gtx480")), "");
}

// gtx480: 32-bit addresses, 32 sets (5 bits), 16-bit chunk-tags: line-tag 14 bits, common-tag 32 - 7 - 5
// - 14 = 6 bits. Full row per way: 6 + 4 x 16 chunk-tags + 4 x 32 dirty + 8 hpc (256 AGCB entries) + 8
// awid = 214, x 4 ways = 856. Conventional: 6 + 14 + 128 = 148, x 4 = 592.
TEST_F(TopVariantTest, ConventionalRowIsOneTagPerWay) {
  const l1d::Config cfg = staged_gtx480();
  const std::string full = emit(top_block().module(cfg), kHeader);
  set_top_variant(TopVariant::kConventional);
  const std::string conv = emit(top_block().module(cfg), kHeader);
  EXPECT_NE(full.find(".RowBits(856)"), std::string::npos);
  EXPECT_NE(conv.find(".RowBits(592)"), std::string::npos);
  EXPECT_NE(conv.find("logic [55:0] t_line_tag;"), std::string::npos);  // 4 ways x 14 line-tag bits
  EXPECT_NE(conv.find("assign base_bypass = '0;"), std::string::npos);
  EXPECT_NE(conv.find("ConvBaselinePolicy_A"), std::string::npos);
  EXPECT_NE(conv.find("ConvOneTagWay3_A"), std::string::npos);
  EXPECT_EQ(full.find("base_bypass"), std::string::npos);
  EXPECT_EQ(full.find("t_line_tag"), std::string::npos);
  // The policy units still get their inputs, from the constants: synthesis removes their logic.
  EXPECT_NE(conv.find(".cfg_bypass_i       (base_bypass)"), std::string::npos);
}

}  // namespace
}  // namespace gen::blocks
