// dcgen: emits the RTL blocks of gen/blocks/ for one configuration, one module per file.
//
//   dcgen --preset gtx480 --out rtl                  every block; this is what rtl/ holds
//   dcgen --config my-gpu.yaml --policy pcal --out /tmp/rtl --block l1d_tag_mask
//   dcgen --list
//   dcgen --preset gtx480 --policy pcal --cfg-inputs   l1d_top's cfg_*_i values for the policy
//   dcgen --config tb/block_configs/gtx480_staged.yaml --variant conventional --out /tmp/conv
//                                                    the staged top as a conventional L1 (docs/generator.md)
//
// Every file starts with the command and the configuration that produced it; the output
// depends on nothing else (not on --out, --block or the working directory), so the same
// command always writes the same bytes. Exit codes: 0 done, 1 a generator or file error,
// 2 a bad configuration or argument (one line "error: ..." on stderr).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "common/config.h"
#include "gen/blocks/block.h"
#include "gen/blocks/l1d_top_cfg.h"
#include "gen/blocks/l1d_top_variant.h"
#include "gen/error.h"
#include "gen/sv_file.h"

namespace {

namespace fs = std::filesystem;
using gen::blocks::RtlBlock;

struct Usage : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A --config file that is one of the presets is named as that preset, so both spellings of
// the default configuration emit the same bytes.
std::string preset_of(const std::string& config_file) {
  const fs::path file(config_file);
  std::error_code ec;
  const fs::path preset = l1d::config_dir() / file.filename();
  if (file.extension() == ".yaml" && fs::exists(preset, ec) && fs::equivalent(file, preset, ec)) {
    return file.stem().string();
  }
  return {};
}

// An adaptive carveout's arrays are built for the largest L1 a kernel can get (contract 15), not
// for size_bytes (the base L1) that describe() prints.
std::string adaptive_arrays(const l1d::L1Config& l1) {
  if (l1.carveout != l1d::Carveout::kAdaptive) return "";
  const uint32_t sets = l1d::largest_l1_sets(l1);
  return fmt::format("; carveout adaptive: arrays for {} sets ({} B), the active sets from cfg_set_bits_i", sets,
                     uint64_t{sets} * l1.ways * 128);
}

std::string describe(const l1d::Config& cfg, const std::string& source) {
  const l1d::L1Config& l1 = cfg.l1;
  const l1d::PolicyConfig& p = cfg.policy;
  return fmt::format(
      "{} ({}): L1 {} B, {}-way, {} set{}, {}-bit addresses, {}-bit chunk-tags, {} set index; policy {} "
      "(replacement {}, bypass {}, granularity {})",
      cfg.name, source, l1.size_bytes, l1.ways, l1.sets(), l1.sets() == 1 ? "" : "s", l1.address_bits, l1.chunk_tag_bits,
      l1.set_index == l1d::SetIndexHash::kFermiXor ? "fermi_xor" : "linear", p.name, l1d::to_string(p.replacement),
      l1d::to_string(p.bypass), l1d::to_string(p.granularity)) + adaptive_arrays(l1);
}

std::vector<const RtlBlock*> selected_blocks(const std::vector<std::string>& names) {
  if (names.empty()) return gen::blocks::all_blocks();
  std::vector<const RtlBlock*> out;
  for (const std::string& n : names) {
    const RtlBlock* b = gen::blocks::find_block(n);
    if (b == nullptr) {
      std::string known;
      for (const RtlBlock* k : gen::blocks::all_blocks()) known += (known.empty() ? "" : ", ") + std::string(k->name());
      throw Usage(fmt::format("--block: no block named '{}' (blocks: {})", n, known));
    }
    out.push_back(b);
  }
  return out;
}

int list_blocks() {
  size_t w = 0;
  for (const RtlBlock* b : gen::blocks::all_blocks()) w = std::max(w, b->name().size());
  for (const RtlBlock* b : gen::blocks::all_blocks()) fmt::print("{:<{}}  {}\n", b->name(), w, b->summary());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Emit the SystemVerilog blocks of the L1 for one configuration, one module per <module>.sv file.\n"
               "Exit 2 on a bad configuration or argument."};
  std::string preset, config_file, policy, out;
  std::vector<std::string> only;
  bool list = false;
  auto* preset_opt = app.add_option("--preset", preset, "GPU preset: configs/NAME.yaml");
  app.add_option("--config", config_file, "any YAML file of the preset schema (instead of --preset)")
      ->excludes(preset_opt);
  app.add_option("--policy", policy,
                 "policy preset configs/policies/NAME.yaml (default: the configuration's own policy section)");
  app.add_option("--out", out, "directory for the <module>.sv files (created if needed)");
  app.add_option("--block", only, "emit only this block (repeatable; see --list)");
  app.add_flag("--list", list, "list the blocks and exit");
  std::string variant = "full";
  app.add_option("--variant", variant,
                 "l1d_top variant: full (default) or conventional (the staged top as a plain LRU L1 of the same "
                 "geometry; docs/generator.md)");
  bool cfg_inputs = false;
  app.add_flag("--cfg-inputs", cfg_inputs,
               "print l1d_top's configuration inputs for the policy (port=value,...) and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  }

  try {
    if (list) return list_blocks();
    if (preset.empty() == config_file.empty()) throw Usage("give one of --preset NAME or --config FILE");
    if (out.empty() && !cfg_inputs) throw Usage("--out DIR is required");
    const std::vector<const RtlBlock*> blocks = selected_blocks(only);

    if (preset.empty()) preset = preset_of(config_file);
    const bool named = !preset.empty();
    l1d::Config cfg = named ? l1d::load_preset(preset) : l1d::load_config_file(config_file);
    if (!policy.empty()) l1d::apply_policy_preset(cfg, policy);
    const gen::blocks::TopVariant top_variant = gen::blocks::parse_top_variant(variant);
    gen::blocks::check_top_variant(top_variant, cfg);
    gen::blocks::set_top_variant(top_variant);
    if (cfg_inputs) {
      fmt::print("{}\n", gen::blocks::format_cfg_inputs(gen::blocks::l1d_top_cfg_inputs(cfg)));
      return 0;
    }

    gen::FileHeader header;
    header.command = named ? "dcgen --preset " + preset : "dcgen --config " + config_file;
    if (!policy.empty()) header.command += " --policy " + policy;
    if (top_variant != gen::blocks::TopVariant::kFull) header.command += " --variant " + variant;
    header.configuration = describe(cfg, named ? "configs/" + preset + ".yaml" : config_file);

    gen::SvFileSet files(header);
    std::set<std::string> packages;  // blocks may share a package: write it once
    for (const RtlBlock* b : blocks) {
      if (auto pkg = b->package(cfg); pkg && packages.insert(pkg->name()).second) files.add(*pkg);
      files.add(b->module(cfg));
    }
    const auto written = files.write(out);
    fmt::print("dcgen: wrote {} file{} to {}\n", written.size(), written.size() == 1 ? "" : "s", out);
    return 0;
  } catch (const Usage& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  } catch (const l1d::ConfigError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  } catch (const gen::Error& e) {
    fmt::print(stderr, "error: generator rule {}: {}\n", e.rule(), e.what());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
}
