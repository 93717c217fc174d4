// l1d_tag_array: the per-line state of the L1 (microarchitecture doc section 2; golden model:
// golden::CacheLine; the line data, golden::L1::line_data, is l1d_data_sram's). One combinational
// read of a whole set, one registered write of any subset of a set's ways, and the kernel-end
// clear of every priority bit.
//
// Structure: one memory per field with one word per set (way w's slice at [w*W +: W], as on the
// ports), written by one always_ff at the run-time set (the reset and the kernel-end priority
// clear are loops over the sets, at most 64: SV-SUBSET reset-loop-64); the read port is a loop
// over the sets. Earlier forms: the sets' flops concatenated into one flat vector per field
// (Verilator rebuilt 30 kbit of vectors every cycle), then one generate block per set writing
// its own word (Verilator kept a delayed-write flag per set, way and field, about 1100, set and
// tested every clock edge: a third of the verilated L1's time, docs/performance.md). Yosys maps
// all three to the same cells within 0.1 %.
#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "common/address.h"
#include "gen/blocks/block.h"

namespace gen::blocks {
namespace {

constexpr unsigned kSlots = l1d::kSlotsPerLine;
constexpr unsigned kDirtyBits = l1d::kChunkBytes;  // per slot, a byte mask
constexpr unsigned kRankBits = 2;                   // per slot, 0 = most recent of the line
constexpr unsigned kAwidBits = 8;
// Reset value of one line's slot ranks: slot s has rank s ({2'd3, 2'd2, 2'd1, 2'd0}).
constexpr uint64_t kResetRanks = 0xE4;

// Two blocks from one generator: l1d_tag_array (every field: the single-cycle l1d_top's array)
// and l1d_line_state (only the fields that must reset or clear at once, valid, slot_rank and
// priority: the staged l1d_top keeps the others in l1d_tag_read's SRAM, contract 16.5).
class TagArray final : public RtlBlock {
 public:
  explicit TagArray(bool line_state) : line_state_(line_state) {}
  std::string_view name() const override { return line_state_ ? "l1d_line_state" : "l1d_tag_array"; }
  std::string_view summary() const override {
    return line_state_ ? "staged L1 line state in flops: per slot valid and rank, per line priority"
                       : "tag/state array: per line common-tag, per slot valid/dirty/chunk-tag/rank, hpc, awid, priority";
  }

  Module module(const l1d::Config& cfg) const override {
    const l1d::AddressSplit split(cfg.l1);  // refuses a geometry the golden model refuses
    const uint32_t entries = cfg.policy.agcb.entries;
    if (!std::has_single_bit(entries) || entries < 2) {
      throw l1d::ConfigError("l1d_tag_array: agcb.entries must be a power of two >= 2, got " +
                             std::to_string(entries));
    }
    Module m(name());
    m.describe("Tag and state array of the L1 (docs/l1d-microarchitecture.md section 2, golden::CacheLine");
    m.describe("without its data): per line (set, way) common_tag, per slot valid, dirty (a byte mask),");
    m.describe("chunk_tag and slot_rank (0 = most recent), hpc (AGCB hashed PC), awid (AgeLRU) and priority");
    m.describe("(PCAL). Flat layouts, the same on the read and write ports: way w's field of width W at");
    m.describe("[w*W +: W], slot s of way w at [(w*4+s)*W +: W].");
    m.describe("Read (combinational on the registered array): every way of set rd_set_i.");
    m.describe("Write (registered): each way w with wr_way_en_i[w] of set wr_set_i takes its slice of every");
    m.describe("wr_* field. clear_priority_i (kernel end): every line's priority becomes 0 at the same edge,");
    m.describe("overriding a write of 1 in that cycle; clear_valid_i (kernel end with l1.kernel_end invalidate)");
    m.describe("does the same to every slot's valid bit.");
    // The staged pipe generated for allocation on_miss keeps the reserved bits in flip-flops (16.5).
    const bool reserved_flops = line_state_ && cfg.l1.pipeline == l1d::L1Pipeline::kStaged &&
                                cfg.l1.allocation == l1d::AllocationPolicy::kOnMiss;
    if (!line_state_ || reserved_flops) {
      m.describe("reserved (per slot, l1.allocation on_miss, contract 13.1): the slot is held for a fill in");
      m.describe("flight; it is written like every other field, reset to 0 and not cleared by clear_valid_i.");
    }
    // l1d_tag_array of the single-cycle pipe, or l1d_line_state of a staged pipe generated for it.
    const bool written = rtl_written_state(cfg) && line_state_ == (cfg.l1.pipeline == l1d::L1Pipeline::kStaged);
    if (written) {
      m.describe("written (per slot, l1.write_allocate lazy_fetch_on_read, contract 14): a store allocated the slot");
      m.describe("without its data; written like every other field, reset to 0 and cleared by clear_valid_i.");
    }
    m.describe("Reset: every slot invalid and clean, slot s of every line rank s, every other field 0.");
    if (line_state_) {
      m.describe("This is l1d_line_state: the fields valid, slot_rank and priority only (the staged L1 keeps");
      m.describe("the others in an SRAM row, contract 16.5)" + std::string(reserved_flops ? ", and reserved" : "") +
                 std::string(written ? ", and written." : "."));
    }
    m.describe("CommonTagBits is at least 1: without common-tag bits in the address that field keeps one bit,");
    m.describe("which l1d_top writes 0. With one set, rd_set_i and wr_set_i keep one bit and are ignored.");
    Expr sets = m.param("Sets", rtl_array_sets(cfg));
    Expr ways = m.param("Ways", cfg.l1.ways);
    // Only the full array has the SRAM-held fields (and their widths' parameters).
    const bool all = !line_state_;
    Expr cm_bits = all ? m.param("CommonTagBits", std::max(split.common_tag_bits(), 1U)) : Expr(1U);
    Expr ct_bits = all ? m.param("ChunkTagBits", split.chunk_tag_bits()) : Expr(1U);
    Expr hpc_bits = all ? m.param("HpcBits", static_cast<uint32_t>(std::countr_zero(entries))) : Expr(1U);
    const Expr set_w = mux(sets.gt(1), clog2(sets), 1);

    // One field: its per-way width, the write and read ports, the per-set flops' reset value.
    struct Field {
      const char* name;
      Expr width;
      Expr reset;
      bool kept;        // in this block
      Expr port_width;  // all ways
      Expr wr, rd;
      Expr q;  // the flops: one word per set, way w's field at [w*width +: width]
    };
    std::vector<Field> fields = {
        {"common_tag", cm_bits, zeros(), all, ways * cm_bits, {}, {}, {}},
        {"valid", Expr(kSlots), zeros(), true, ways * kSlots, {}, {}, {}},
        {"dirty", Expr(kSlots * kDirtyBits), zeros(), all, ways * kSlots * kDirtyBits, {}, {}, {}},
        {"chunk_tag", kSlots * ct_bits, zeros(), all, ways * kSlots * ct_bits, {}, {}, {}},
        {"slot_rank", Expr(kSlots * kRankBits), repl(ways, hex(8, kResetRanks)), true, ways * kSlots * kRankBits, {}, {}, {}},
        {"hpc", hpc_bits, zeros(), all, ways * hpc_bits, {}, {}, {}},
        {"awid", Expr(kAwidBits), zeros(), all, ways * kAwidBits, {}, {}, {}},
        {"priority", Expr(1), zeros(), true, ways, {}, {}, {}},
        // l1.allocation on_miss (contract 13.1): the slot awaits its fill. In the single-cycle array,
        // and in l1d_line_state only when generated for on_miss (the staged pipe's flop fields).
        {"reserved", Expr(kSlots), zeros(), all || reserved_flops, ways * kSlots, {}, {}, {}},
        // l1.write_allocate lazy_fetch_on_read (contract 14): only in an array generated for it.
        {"written", Expr(kSlots), zeros(), written, ways * kSlots, {}, {}, {}},
    };
    std::erase_if(fields, [](const Field& f) { return !f.kept; });

    m.clk();
    m.rst_n();
    Expr rd_set = m.input("rd_set_i", set_w);
    for (Field& f : fields) f.rd = m.output(std::string("rd_") + f.name + "_o", f.port_width);
    Expr wr_set = m.input("wr_set_i", set_w);
    Expr wr_way_en = m.input("wr_way_en_i", ways);
    for (Field& f : fields) f.wr = m.input(std::string("wr_") + f.name + "_i", f.port_width);
    Expr clear_priority = m.input("clear_priority_i");
    Expr clear_valid = m.input("clear_valid_i");
    auto field_q = [&](std::string_view name) {
      return std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return f.name == name; })->q;
    };

    m.comment("Every set's state: one memory per field, one word per set.");
    for (Field& f : fields) f.q = m.register_table(std::string(f.name) + "_q", ways * f.width, sets);

    // One always_ff writes the ways of set `index` (a later write to the same bits wins, so the
    // kernel-end clears after the writes override a priority or valid bit written in the same cycle).
    auto write = [&](Scope& g, const Expr& index) {
      g.always_ff_reset_block(
          FfReset::kAsync,
          [&](Block& r) {
            r.for_("s", 0, sets, [&](Block& body, const Expr& s) {
              for (const Field& f : fields) body.assign(f.q[s], f.reset);
            });
          },
          [&](Block& b) {
            b.for_("w", 0, ways, [&](Block& body, const Expr& w) {
              body.if_(wr_way_en[w], [&](Block& t) {
                for (const Field& f : fields) {
                  t.assign(f.q[index].part(w * f.width, f.width), f.wr.part(w * f.width, f.width));
                }
              });
            });
            for (const auto& [clear, field] : {std::pair{clear_priority, "priority"}, std::pair{clear_valid, "valid"}}) {
              b.if_(clear, [&](Block& t) {
                t.for_("s", 0, sets, [&](Block& body, const Expr& s) {
                  body.assign(field_q(field)[s], zeros());
                  // Kernel-end invalidation clears written slots too (golden::L1::step).
                  if (written && std::string_view(field) == "valid") body.assign(field_q("written")[s], zeros());
                });
              });
            }
          });
    };
    m.comment("The write port: the ways of set wr_set_i, at a run-time index.");
    m.gen_if(sets.gt(1), "g_write", [&](Scope& g) { write(g, wr_set); }).else_("g_write_one_set", [&](Scope& g) {
      Expr unused_wr_set = g.logic("unused_wr_set");
      g.assign(unused_wr_set, wr_set);
      write(g, lit(1, 0));
    });

    m.comment("The read port: every way of set rd_set_i, a multiplexer over the sets (written as a loop:");
    m.comment("Yosys makes q[rd_set_i] an AND-OR of decoded selects, 46 % more cells than this mux tree).");
    m.gen_if(sets.gt(1), "g_read", [&](Scope& g) {
      std::vector<Init> drives;
      for (const Field& f : fields) drives.push_back({f.rd, zeros()});
      g.always_comb(drives, [&](Block& b) {
        b.for_("s", 0, sets, [&](Block& body, const Expr& s) {
          body.if_(rd_set.eq(cast(set_w, s)), [&](Block& t) {
            for (const Field& f : fields) t.assign(f.rd, f.q[s]);
          });
        });
      });
    }).else_("g_read_one_set", [&](Scope& g) {
      Expr unused_rd_set = g.logic("unused_rd_set");
      g.assign(unused_rd_set, rd_set);
      for (const Field& f : fields) g.assign(f.rd, f.q[lit(1, 0)]);
    });
    return m;
  }

 private:
  bool line_state_;
};

}  // namespace

const RtlBlock& tag_array_block() {
  static const TagArray block(false);
  return block;
}

const RtlBlock& line_state_block() {
  static const TagArray block(true);
  return block;
}

}  // namespace gen::blocks
