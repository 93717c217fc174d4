// Unit tests of the block generators (gen/blocks/): the registry, emission for every preset and
// the odd test geometries, parameters taken from the configuration, and the emitted tag-mask
// table against masks written out by hand here (not computed with golden::tag_mask).
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <set>
#include <string>

#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/l1d_top_cfg.h"
#include "gen/emit.h"

namespace gen::blocks {
namespace {

namespace fs = std::filesystem;

const FileHeader kHeader{"blocks_test", "test"};

std::vector<l1d::Config> all_test_configs() {
  std::vector<l1d::Config> cfgs;
  for (const char* p : {"gtx480", "gtx1080", "qv100"}) cfgs.push_back(l1d::load_preset(p));
  for (const auto& f : fs::directory_iterator(fs::path(PROJECT_SOURCE_DIR) / "tb" / "configs")) {
    cfgs.push_back(l1d::load_config_file(f.path()));
  }
  return cfgs;
}

std::optional<int64_t> param_value(const Module& m, const std::string& name) {
  for (const Param& p : m.params()) {
    if (p.name == name) return const_value(p.value);
  }
  return std::nullopt;
}

TEST(BlockRegistry, NamesAreUniqueAndFound) {
  std::set<std::string_view> names;
  ASSERT_FALSE(all_blocks().empty());
  for (const RtlBlock* b : all_blocks()) {
    EXPECT_TRUE(names.insert(b->name()).second) << b->name();
    EXPECT_FALSE(b->summary().empty()) << b->name();
    EXPECT_EQ(find_block(b->name()), b);
  }
  EXPECT_EQ(find_block("l1d_no_such_block"), nullptr);
  EXPECT_EQ(find_block("l1d_tag_mask"), &tag_mask_block());
  EXPECT_EQ(find_block("l1d_addr_decode"), &addr_decode_block());
}

TEST(BlockRegistry, EveryBlockEmitsForEveryTestConfigurationDeterministically) {
  for (const l1d::Config& cfg : all_test_configs()) {
    for (const RtlBlock* b : all_blocks()) {
      SCOPED_TRACE(cfg.name + " / " + std::string(b->name()));
      const Module m = b->module(cfg);
      EXPECT_EQ(m.name(), b->name());  // the file is <name>.sv
      const std::string text = emit(m, kHeader);
      EXPECT_EQ(emit(b->module(cfg), kHeader), text);
    }
  }
}

// The blocks sized by the L1 geometry refuse one the golden model refuses.
TEST(BlockRegistry, IllegalGeometryIsAConfigError) {
  l1d::Config cfg = l1d::load_preset("gtx480");
  cfg.l1.ways = 3;  // 16384 / (3 * 128) sets: not a power of two
  EXPECT_THROW(addr_decode_block().module(cfg), l1d::ConfigError);
  EXPECT_THROW(tag_mask_block().module(cfg), l1d::ConfigError);
}

// l1d_top's configuration inputs per policy preset, written out by hand from the encodings in
// l1d_top's description (bypass: 0 none, 1 AGCB, 2 two-level, 3 PCAL, 4 AgeLRU; granularity:
// 0 fixed 128 B, 1 static 64 B, 2 static 32 B, 3 dynamic).
TEST(TopCfgInputs, PolicyPresetsGiveTheHandWrittenValues) {
  const auto inputs = [](const char* policy) {
    l1d::Config cfg = l1d::load_preset("gtx480");
    l1d::apply_policy_preset(cfg, policy);
    return format_cfg_inputs(l1d_top_cfg_inputs(cfg));
  };
  const std::string none =
      "cfg_bto_i=0,cfg_opportunistic_i=0,cfg_keep_large_i=0,cfg_line_fetch_i=0,cfg_write_i=0,cfg_kernel_end_inv_i=0,"
      "cfg_alloc_i=0,cfg_merge_i=0,cfg_sector_i=0";
  EXPECT_EQ(inputs("baseline"), "cfg_bypass_i=0,cfg_gran_i=0," + none);
  EXPECT_EQ(inputs("dycache"), "cfg_bypass_i=0,cfg_gran_i=3," + none);
  EXPECT_EQ(inputs("elastic32"), "cfg_bypass_i=0,cfg_gran_i=2," + none);
  EXPECT_EQ(inputs("elastic64"), "cfg_bypass_i=0,cfg_gran_i=1," + none);
  EXPECT_EQ(inputs("agcb"), "cfg_bypass_i=1,cfg_gran_i=0," + none);
  EXPECT_EQ(inputs("two-level"), "cfg_bypass_i=2,cfg_gran_i=0," + none);
  EXPECT_EQ(inputs("pcal"), "cfg_bypass_i=3,cfg_gran_i=0," + none);
  const std::string wb =
      ",cfg_line_fetch_i=0,cfg_write_i=0,cfg_kernel_end_inv_i=0,cfg_alloc_i=0,cfg_merge_i=0,cfg_sector_i=0";
  EXPECT_EQ(inputs("pcal-bto"), "cfg_bypass_i=3,cfg_gran_i=0,cfg_bto_i=1,cfg_opportunistic_i=0,cfg_keep_large_i=0" + wb);
  EXPECT_EQ(inputs("agelru-bypass"), "cfg_bypass_i=4,cfg_gran_i=0," + none);
  EXPECT_EQ(inputs("combined"), "cfg_bypass_i=3,cfg_gran_i=3,cfg_bto_i=1,cfg_opportunistic_i=0,cfg_keep_large_i=0" + wb);
}

// The L1's bypass fetch, write policy, kernel-end action, allocation, MSHR merge and sector mode
// (write: 0 write-back, 1 write-through, 2 write-evict; alloc 1 on_miss; merge 1 block, 2 sector; sector 1).
TEST(TopCfgInputs, BypassFetchWritePolicyAndKernelEndComeFromTheL1) {
  const auto inputs = [](const char* preset) {
    const auto all = l1d_top_cfg_inputs(l1d::load_preset(preset));
    return format_cfg_inputs({all.end() - 6, all.end()});
  };
  EXPECT_EQ(inputs("gtx480"),
            "cfg_line_fetch_i=0,cfg_write_i=0,cfg_kernel_end_inv_i=0,cfg_alloc_i=0,cfg_merge_i=0,cfg_sector_i=0");
  EXPECT_EQ(inputs("gtx1080"),
            "cfg_line_fetch_i=0,cfg_write_i=1,cfg_kernel_end_inv_i=0,cfg_alloc_i=0,cfg_merge_i=0,cfg_sector_i=1");
  EXPECT_EQ(inputs("gtx480-gpgpusim"),
            "cfg_line_fetch_i=1,cfg_write_i=2,cfg_kernel_end_inv_i=1,cfg_alloc_i=1,cfg_merge_i=1,cfg_sector_i=0");
  EXPECT_EQ(inputs("gtx1080-jips"),  // merge 2: l1.mshr_merge sector (contract 14)
            "cfg_line_fetch_i=0,cfg_write_i=2,cfg_kernel_end_inv_i=1,cfg_alloc_i=0,cfg_merge_i=2,cfg_sector_i=1");
}

// l1.allocation on_miss and l1.mshr_merge block run on the staged l1d_top generated for them as a
// line cache (contract 16.5); in sector mode on_miss runs there with merging stall or sector
// ("Allocation on miss", "In sector mode", "With merging by sector"), and block only on the
// single-cycle one (contract 13.3, 14): the staged generator refuses it with one line naming the field.
TEST(TopBlock, StagedRefusesBlockMergeInSectorMode) {
  l1d::Config cfg = l1d::load_preset("gtx480");
  cfg.l1.pipeline = l1d::L1Pipeline::kStaged;
  cfg.l1.write_policy = l1d::WritePolicy::kWriteEvict;
  const auto refused = [](const l1d::Config& c, const std::string& field) {
    try {
      (void)top_block().module(c);
      ADD_FAILURE() << "no error for " << field;
    } catch (const l1d::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  };
  l1d::Config on_miss = cfg;
  on_miss.l1.allocation = l1d::AllocationPolicy::kOnMiss;
  EXPECT_NO_THROW((void)top_block().module(on_miss)) << "on_miss";
  on_miss.l1.sector = true;  // merging stall: built (tb/block_configs/gtx480_staged_sector_onmiss.yaml)
  EXPECT_NO_THROW((void)top_block().module(on_miss)) << "on_miss in sector mode";
  on_miss.l1.mshr_merge = l1d::MshrMerge::kSector;  // built (gtx480_staged_sector_onmiss_merge.yaml)
  EXPECT_NO_THROW((void)top_block().module(on_miss)) << "on_miss in sector mode with sector merging";
  l1d::Config block = cfg;
  block.l1.mshr_merge = l1d::MshrMerge::kBlock;
  EXPECT_NO_THROW((void)top_block().module(block)) << "block";
  block.l1.sector = true;
  refused(block, "l1.mshr_merge block");
  cfg.l1.pipeline = l1d::L1Pipeline::kSingleCycle;
  cfg.l1.allocation = l1d::AllocationPolicy::kOnMiss;
  cfg.l1.mshr_merge = l1d::MshrMerge::kBlock;
  EXPECT_NO_THROW((void)top_block().module(cfg));
}

// l1.write_allocate lazy_fetch_on_read runs on the staged l1d_top generated for it with allocation
// on_miss (contract 16.5, "Write allocation"): l1d_line_state then has the written bits' ports; with
// on_fill the staged generator refuses it (one line naming the field), and a staged configuration
// without write allocation has no written bits.
TEST(TopBlock, StagedWriteAllocationWithOnMissOnly) {
  const auto has_port = [](const Module& m, const std::string& name) {
    for (const Port& p : m.ports())
      if (p.name == name) return true;
    return false;
  };
  l1d::Config cfg = l1d::load_preset("gtx480");
  cfg.l1.pipeline = l1d::L1Pipeline::kStaged;
  cfg.l1.sector = true;
  cfg.policy.granularity = l1d::GranularityKind::kFixed128;
  cfg.l1.write_policy = l1d::WritePolicy::kWriteThrough;
  EXPECT_FALSE(has_port(line_state_block().module(cfg), "rd_written_o"));
  cfg.l1.write_allocate = l1d::WriteAllocate::kLazyFetchOnRead;
  try {
    (void)top_block().module(cfg);
    ADD_FAILURE() << "no error for write allocation with on_fill";
  } catch (const l1d::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("l1.write_allocate lazy_fetch_on_read"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("on_miss"), std::string::npos) << e.what();
  }
  cfg.l1.allocation = l1d::AllocationPolicy::kOnMiss;
  EXPECT_NO_THROW((void)top_block().module(cfg));
  EXPECT_TRUE(has_port(line_state_block().module(cfg), "rd_written_o"));
  EXPECT_TRUE(has_port(line_state_block().module(cfg), "wr_written_i"));
  // The single-cycle array is not the staged pipe's: its written bits are l1d_line_state's.
  EXPECT_FALSE(has_port(tag_array_block().module(cfg), "rd_written_o"));
}

// l1.bypass_path direct runs on the staged l1d_top generated for it (contract 16.5,
// "The direct path"): it then has the single-cycle top's three ports, and l1d_issue and l1d_miss_queue
// their key search; a through_l1 staged top and its units have none of them.
TEST(TopBlock, StagedDirectWhenGeneratedForIt) {
  const auto has_port = [](const Module& m, const std::string& name) {
    for (const Port& p : m.ports())
      if (p.name == name) return true;
    return false;
  };
  l1d::Config cfg = l1d::load_preset("gtx480-gpgpusim");
  cfg.l1.pipeline = l1d::L1Pipeline::kStaged;
  const Module direct = top_block().module(cfg);
  for (const char* port : {"two_level_bypass_o", "store_query_line_i", "store_pending_o"})
    EXPECT_TRUE(has_port(direct, port)) << port;
  for (const RtlBlock* unit : {&issue_block(), &miss_queue_block()}) {
    EXPECT_TRUE(has_port(unit->module(cfg), "find_i")) << unit->name();
    EXPECT_TRUE(has_port(unit->module(cfg), "found_o")) << unit->name();
  }
  l1d::Config through = cfg;
  through.l1.bypass_path = l1d::BypassPath::kThroughL1;
  const Module plain = top_block().module(through);
  for (const char* port : {"two_level_bypass_o", "store_query_line_i", "store_pending_o"})
    EXPECT_FALSE(has_port(plain, port)) << port;
  for (const RtlBlock* unit : {&issue_block(), &miss_queue_block()})
    EXPECT_FALSE(has_port(unit->module(through), "found_o")) << unit->name();
  // The single-cycle pipe's units are not l1d_top's: generated for direct, they stay as they were.
  l1d::Config single = cfg;
  single.l1.pipeline = l1d::L1Pipeline::kSingleCycle;
  EXPECT_FALSE(has_port(issue_block().module(single), "found_o"));
  // In sector mode too (gtx1080-jips on the staged pipe, contract 16.5 "The direct path").
  l1d::Config sector = cfg;
  sector.l1.sector = true;
  sector.l1.allocation = l1d::AllocationPolicy::kOnFill;
  sector.l1.mshr_merge = l1d::MshrMerge::kStall;
  const Module sector_top = top_block().module(sector);
  for (const char* port : {"two_level_bypass_o", "store_query_line_i", "store_pending_o"})
    EXPECT_TRUE(has_port(sector_top, port)) << port;
}

// l1.mshr_merge sector runs on the staged l1d_top generated for it (contract 16.5, "Merging by
// sector"): gtx1080-jips's whole L1 on the staged pipe has the memory response's sectors, and its
// sector_merge (widen_place_i, the widening read's bypass mark) follows cfg_merge_i; a staged top
// generated for block ties it to 0 and keeps the merge entry's bypass unused.
TEST(TopBlock, StagedSectorMergeOnlyWhenGeneratedForIt) {
  l1d::Config cfg = l1d::load_preset("gtx1080-jips");
  cfg.l1.pipeline = l1d::L1Pipeline::kStaged;
  const std::string jips = emit(top_block().module(cfg), kHeader);
  EXPECT_NE(jips.find("mem_resp_sectors_i,"), std::string::npos);  // the port
  EXPECT_NE(jips.find("assign sector_merge = cfg_merge_q == 2'd2;"), std::string::npos);
  EXPECT_NE(jips.find("(p_merge_bypass),"), std::string::npos);  // u_mshr's merge_bypass_o
  l1d::Config block = l1d::load_preset("gtx480-gpgpusim");
  block.l1.pipeline = l1d::L1Pipeline::kStaged;
  const std::string line = emit(top_block().module(block), kHeader);
  EXPECT_NE(line.find("assign sector_merge = 1'b0;"), std::string::npos);
  EXPECT_NE(line.find("(unused_merge_bypass),"), std::string::npos);
}

// The SV subset's reset-loop-64 (docs/sv-subset.md): the staged l1d_top's registers kept per MSHR entry
// (l1d_mshr's copied_q, the verification region's shadows) are one always_ff looping over the entries
// up to 64 of them and per-entry generate blocks above (gen/blocks/entry_ff.h). qv100-accelsim's whole
// L1 on the staged pipe (256 MSHRs) generates; the same L1 with 64 MSHRs keeps the loops.
TEST(TopBlock, StagedMshrRegistersPerEntryAbove64) {
  l1d::Config cfg = l1d::load_config_file(fs::path(PROJECT_SOURCE_DIR) / "tb" / "block_configs" /
                                          "qv100_accelsim_staged.yaml");
  ASSERT_EQ(cfg.l1.mshr_entries, 256U);
  const std::string mshr = emit(mshr_block().module(cfg), kHeader);
  EXPECT_NE(mshr.find("for (genvar gi = 0; gi < Entries; gi++) begin : g_copied"), std::string::npos);
  const std::string top = emit(top_block().module(cfg), kHeader);
  for (const char* block : {"g_sva_res_live", "g_sva_res_where", "g_sva_sm"})
    EXPECT_NE(top.find(std::string("for (genvar ge = 0; ge < 256; ge++) begin : ") + block), std::string::npos) << block;
  cfg.l1.mshr_entries = 64;
  const std::string mshr64 = emit(mshr_block().module(cfg), kHeader);
  EXPECT_EQ(mshr64.find("g_copied"), std::string::npos);
  EXPECT_NE(mshr64.find("copied_q[i * 4 +: 4] <= "), std::string::npos);
  const std::string top64 = emit(top_block().module(cfg), kHeader);
  EXPECT_EQ(top64.find("g_sva_"), std::string::npos);
  EXPECT_NE(top64.find("sva_res_live_q[e] <= 1'b1;"), std::string::npos);
  EXPECT_NE(top64.find("sva_sm_req_q[e * 4 +: 4] <= s1_fetch_eff;"), std::string::npos);
}

TEST(AddrDecodeBlock, ParametersComeFromTheConfiguration) {
  const Module g480 = addr_decode_block().module(l1d::load_preset("gtx480"));
  EXPECT_EQ(param_value(g480, "AddrBits"), 32);
  EXPECT_EQ(param_value(g480, "SetBits"), 5);
  EXPECT_EQ(param_value(g480, "ChunkTagBits"), 16);
  EXPECT_EQ(param_value(g480, "FermiHash"), 1);
  EXPECT_EQ(param_value(g480, "SetIdxBits"), 5);
  EXPECT_EQ(param_value(g480, "CommonTagBits"), 6);  // SPEC section 2: 6 bits for 16 KB / 4-way / 32 sets

  const Module g1080 = addr_decode_block().module(l1d::load_preset("gtx1080"));
  EXPECT_EQ(param_value(g1080, "SetBits"), 2);
  EXPECT_EQ(param_value(g1080, "FermiHash"), 0);
  EXPECT_EQ(param_value(g1080, "CommonTagBits"), 9);

  // One set and no common-tag bits keep one-bit ports (read as zero).
  l1d::Config odd = l1d::load_preset("gtx480");
  odd.l1.size_bytes = 8192;
  odd.l1.ways = 64;
  odd.l1.set_index = l1d::SetIndexHash::kLinear;
  odd.l1.chunk_tag_bits = 27;  // the whole 25-bit line tag
  const Module one_set = addr_decode_block().module(odd);
  EXPECT_EQ(param_value(one_set, "SetBits"), 0);
  EXPECT_EQ(param_value(one_set, "SetIdxBits"), 1);
  EXPECT_EQ(param_value(one_set, "CommonTagBits"), 1);
}

// --- The tag-mask table -------------------------------------------------------------------

constexpr int X = -1;  // slot not compared

struct HandMask {
  unsigned g, r;              // granularity and request size, bytes
  std::array<int, 4> op;      // per slot s = 0..3: the offset added to the base chunk-tag, or X
  const char* spec_notation;  // as SPEC section 3 writes it
};

// Written out from SPEC section 3's rule (only piece heads are compared; R <= G: every head
// against the base; R > G: the R/G pieces in order at +G/32 steps), not from golden::tag_mask.
const HandMask kHandMasks[] = {
    {32, 32, {0, 0, 0, 0}, "(0, 0, 0, 0)"},
    {32, 64, {0, 1, 0, 1}, "(0, +1, 0, +1)"},  // SPEC: two candidate positions
    {32, 128, {0, 1, 2, 3}, "(0, +1, +2, +3)"},  // SPEC example
    {64, 32, {0, X, 0, X}, "(0, -, 0, -)"},
    {64, 64, {0, X, 0, X}, "(0, -, 0, -)"},
    {64, 128, {0, X, 2, X}, "(0, -, +2, -)"},  // SPEC example and the paper's
    {128, 32, {0, X, X, X}, "(0, -, -, -)"},   // "when G is 128 only the first chunk-tag is compared"
    {128, 64, {0, X, X, X}, "(0, -, -, -)"},
    {128, 128, {0, X, X, X}, "(0, -, -, -)"},
};

unsigned code(unsigned bytes) { return bytes == 32 ? 0 : bytes == 64 ? 1 : 2; }

// The case arm the table must hold for `m`: compared_o = slots compared (slot 3 first),
// mask_offset = two bits per slot (slot 3 first).
std::string expected_arm(const HandMask& m) {
  std::string compared, offset;
  for (int s = 3; s >= 0; --s) {
    const int op = m.op[static_cast<size_t>(s)];
    compared += op == X ? '0' : '1';
    const int o = op == X ? 0 : op;
    offset += (o & 2) != 0 ? '1' : '0';
    offset += (o & 1) != 0 ? '1' : '0';
  }
  return "      {2'd" + std::to_string(code(m.g)) + ", 2'd" + std::to_string(code(m.r)) + "}: begin\n" +
         "        // G = " + std::to_string(m.g) + " B, R = " + std::to_string(m.r) + " B: " + m.spec_notation + "\n" +
         "        compared_o = 4'b" + compared + ";\n" + "        mask_offset = 8'b" + offset + ";\n" + "      end\n";
}

TEST(TagMaskBlock, EmittedTableHoldsTheHandWrittenMasks) {
  for (const l1d::Config& cfg : all_test_configs()) {
    const std::string text = emit(tag_mask_block().module(cfg), kHeader);
    for (const HandMask& m : kHandMasks) {
      SCOPED_TRACE(cfg.name + ": G = " + std::to_string(m.g) + ", R = " + std::to_string(m.r));
      EXPECT_NE(text.find(expected_arm(m)), std::string::npos) << "expected:\n" << expected_arm(m) << "in:\n" << text;
    }
    // Nine legal (G, R) pairs and a default (the illegal code 3) that keeps the all-zero defaults.
    size_t arms = 0;
    for (size_t at = text.find(": begin\n"); at != std::string::npos; at = text.find(": begin\n", at + 1)) ++arms;
    EXPECT_EQ(arms, 9U);
    EXPECT_NE(text.find("      default: ;\n"), std::string::npos);
    EXPECT_NE(text.find("    compared_o = '0;\n    mask_offset = '0;\n"), std::string::npos);
  }
}

TEST(TagMaskBlock, ChunkTagWidthComesFromTheConfiguration) {
  l1d::Config cfg = l1d::load_preset("qv100");
  EXPECT_EQ(param_value(tag_mask_block().module(cfg), "ChunkTagBits"), 16);
  cfg.l1.chunk_tag_bits = 9;
  EXPECT_EQ(param_value(tag_mask_block().module(cfg), "ChunkTagBits"), 9);
}

}  // namespace
}  // namespace gen::blocks
