// l1d_mshr's description of its ports and behaviour, and the shapes it accepts (gen/blocks/l1d_mshr.cpp):
// kept apart from the generator so that each file stays short.
#include "gen/blocks/l1d_mshr_doc.h"

#include <bit>
#include <string>

namespace gen::blocks {

// The shapes the golden L1 accepts (the configuration loader checks them too).
void mshr_validate(const l1d::Config& cfg) {
  if (cfg.l1.mshr_entries < 1 || cfg.l1.mshr_entries > 256) {
    throw l1d::ConfigError("l1d_mshr: l1.mshr_entries must be 1..256 (the MSHR id is 8 bits), got " +
                           std::to_string(cfg.l1.mshr_entries));
  }
  if (cfg.l1.mshr_max_merge < 1 || cfg.l1.mshr_max_merge > 64) {
    throw l1d::ConfigError("l1d_mshr: l1.mshr_max_merge must be 1..64, got " + std::to_string(cfg.l1.mshr_max_merge));
  }
  if (cfg.l1.address_bits < 8 || cfg.l1.address_bits > 64) {
    throw l1d::ConfigError("l1d_mshr: l1.address_bits must be 8..64, got " + std::to_string(cfg.l1.address_bits));
  }
  if (cfg.policy.agcb.entries < 2) {
    throw l1d::ConfigError("l1d_mshr: agcb.entries must be >= 2, got " + std::to_string(cfg.policy.agcb.entries));
  }
}

void mshr_describe_late_buffer(Module& m) {
  m.describe("Staged sector mode: buffer_data_i's bytes come two cycles after the alloc or add (stage D):");
  m.describe("buf_wr_i names the sectors to write into entry buf_wr_entry_i's buffer, and rd_data_o takes a");
  m.describe("buffered sector from the buffer only once it is written there (else from the fill data, which");
  m.describe("holds the same bytes when the entry fetched it).");
}

void mshr_describe(Module& m) {
  m.describe("MSHR file of the L1 (docs/l1d-microarchitecture.md sections 4-6, golden::Mshr): Entries entries,");
  m.describe("each one 128 B memory line (line = address >> 7) with the sectors its read fetches, the fill");
  m.describe("record of its first request (bypass reason, hashed PC, AWID, token), up to MaxMerge requests");
  m.describe("(id, warp, byte mask) in arrival order, and the fill data with the L2 bypass bit.");
  m.describe("Probe (combinational on the registered state), as golden::Mshr::probe_load / store_conflicts:");
  m.describe("  a load (probe_store_i = 0) merges into the lowest valid entry of probe_line_i whose sectors");
  m.describe("  hold every probe_needed_i sector: merge_o if that entry holds fewer than MaxMerge requests,");
  m.describe("  else merge_full_o (even if a higher entry has room); merge_entry_o is that entry, else 0.");
  m.describe("  conflict_o: no such entry (never one for a store) and a valid entry of the line overlaps");
  m.describe("  probe_fetch_i (for a store the L1 drives the store's sectors there).");
  m.describe("  free_entry_o: the lowest free entry (0 when free_o = 0); in_use_o: the valid entries.");
  m.describe("Updates (registered):");
  m.describe("  alloc_i takes entry free_entry_o (ignored when free_o = 0): valid, not filled, the record and");
  m.describe("  request 0 (alloc_id_i, alloc_warp_i, alloc_mask_i);");
  m.describe("  add_i appends a request to add_entry_i (ignored when it holds MaxMerge requests);");
  m.describe("  resp_i writes resp_data_i (byte b at [8*b +: 8]) into resp_entry_i and ORs in resp_l2_bit_i; its");
  m.describe("  last read in flight (one without mshr_merge block) marks it filled;");
  m.describe("  release_i frees release_entry_i.");
  m.describe("Same cycle: the golden L1 gives alloc or add with a response (an add may meet the response");
  m.describe("of its own entry: they write different fields), and release with a response for another");
  m.describe("entry; these combine, as do updates of different entries in general. Defined beyond that:");
  m.describe("  alloc_i with add_i: the alloc is done, the add ignored (S1 either merges or allocates, so");
  m.describe("  one request write port serves both);");
  m.describe("  on one entry, alloc overrides release and response (it can meet them only on a free entry,");
  m.describe("  where they are illegal; its read is already on its way, so the allocation must stand);");
  m.describe("  release overrides add and response (they are lost with the entry).");
  m.describe("Read port (combinational) for the fill unit: entry rd_entry_i's fields, zero when it is free;");
  m.describe("rd_data_o and rd_l2_bit_o zero until it is filled; request rd_req_i's fields, zero when");
  m.describe("rd_req_i >= rd_count_o.");
  m.describe("Cursor port (combinational) for the staged L1's fill cursor: cnt_count_o and cnt_line_o are");
  m.describe("entry cnt_entry_i's request count and line, zero when it is free.");
  m.describe("Reset: every entry free. The record, request and data memories have no reset: no output reads");
  m.describe("a word before the update that makes it visible writes it (a sector of the data that no response");
  m.describe("of the entry named reads what the memory held: the L1 reads only sectors its reads fetched).");
  m.describe("l1.mshr_merge block (contract 13.3; block_i): every entry of a load's line covers it: the probe");
  m.describe("names it as for a merge, merge_missing_o are the needed sectors it lacks and merge_filled_o says");
  m.describe("whether its data is in. add_i with widen_i adds widen_sectors_i to its sectors, and one more read");
  m.describe("to those it waits for. A response writes the sectors resp_sectors_i names (every one when it");
  m.describe("names none); resp_fills_o: it is the entry's last read (the fill FIFO takes the entry). The L2");
  m.describe("bit is the OR of the entry's responses'. rd_sectors_o is the first read's sectors, the block a");
  m.describe("fill places; with widen_place_i (l1.mshr_merge sector, contract 14) it is the entry's sectors,");
  m.describe("first read's and widenings' (all are placed). merge_missing_o leaves out the entry's buffered");
  m.describe("sectors too (answered from the buffer); merge_bypass_o: the merge entry's recorded bypass");
  m.describe("reason is not none (0 when the probe names no entry), the widening read's bypass bit under sector.");
  m.describe("l1.allocation on_miss (contract 13.1): alloc_reserve_i {reserved, way, first slot} is kept in the");
  m.describe("record and read on rd_reserve_o; merge_reserved_o is the reserved bit of the entry merge_o or");
  m.describe("merge_full_o names (0 when neither), for pending_hits.");
  m.describe("l1.sector (contract 14): each entry has a buffered sector mask: alloc_i sets it to alloc_buffer_i,");
  m.describe("add_i ORs in add_buffer_i, and those sectors of buffer_data_i (the line's bytes as the array holds");
  m.describe("them) go into a second memory per sector that rd_data_o reads them from. A load covers an entry");
  m.describe("whose sectors or buffered sectors hold every probe_needed_i sector; a store (probe_store_i)");
  m.describe("conflicts with an entry whose sectors or buffered sectors overlap probe_fetch_i.");
  m.describe("EntryBits and ReqBits are port widths derived from Entries and MaxMerge (do not override them):");
  m.describe("with one entry, or one request per entry, the index keeps one bit.");
}

// l1d_mshr's assertions on its signals (kept here so that l1d_mshr.cpp stays short).
void mshr_assertions(Module& m, const MshrAssertSignals& s) {
  const Expr& entries = s.entries;
  const Expr& max_merge = s.max_merge;
  const Expr& count_w = s.count_w;
  const Expr& valid = s.valid;
  const Expr& filled = s.filled;
  const Expr& counts = s.counts;
  const Expr& resp = s.resp;
  const Expr& resp_entry = s.resp_entry;
  const Expr& add = s.add;
  const Expr& add_entry = s.add_entry;
  const Expr& alloc = s.alloc;
  const Expr& release = s.release;
  const Expr& release_entry = s.release_entry;
  const Expr& free_o = s.free_o;
  const Expr& free_entry_o = s.free_entry_o;
  // Assertions (docs/rtl-verification.md): the input contract the L1 keeps, checked at the clock
  // edge on the registered state before it, and invariants of the state.
  const uint32_t n_entries = s.n_entries_cfg;
  const uint32_t n_merge = s.n_merge_cfg;
  const unsigned entry_bits = n_entries > 1 ? static_cast<unsigned>(std::bit_width(n_entries - 1)) : 1;
  const unsigned count_bits = static_cast<unsigned>(std::bit_width(n_merge));
  // Only where the port can name a missing entry (Verilator warns CMPCONST on a constant compare).
  const bool partial_ids = n_entries < (1U << entry_bits);
  const bool count_can_overflow = n_merge + 1 < (1U << count_bits);
  m.verification("Assertions (docs/rtl-verification.md); not synthesized.", [&](Scope& v) {
    const auto in_range = [&](const Expr& e) { return cast(32, e).lt(entries); };
    const auto pending = [&](const Expr& e) { return valid[e].land(!filled[e]); };
    if (partial_ids) {
      v.comment("Update ports name an existing entry (the port has more codes than there are entries).");
      v.assert_clocked("MshrRespEntryInRange_A", (!resp).lor(in_range(resp_entry)));
      v.assert_clocked("MshrAddEntryInRange_A", (!add).lor(alloc).lor(in_range(add_entry)));
      v.assert_clocked("MshrReleaseEntryInRange_A", (!release).lor(in_range(release_entry)));
    }
    // `ok` for an entry in range (an out-of-range one is the assertion above's).
    const auto if_in_range = [&](const Expr& e, const Expr& ok) { return partial_ids ? (!in_range(e)).lor(ok) : ok; };
    v.comment("A memory response answers a pending entry: valid and not yet filled (not a free entry,");
    v.comment("not a second response for one read).");
    v.assert_clocked("MshrRespPending_A", (!resp).lor(if_in_range(resp_entry, pending(resp_entry))));
    v.comment("A merge goes to a valid entry holding fewer than MaxMerge requests (the probe said merge_o).");
    v.assert_clocked("MshrAddToValidEntry_A", (!add).lor(alloc).lor(if_in_range(add_entry, valid[add_entry])));
    v.assert_clocked("MshrMergeWithinLimit_A",
                     (!add).lor(alloc).lor(if_in_range(
                         add_entry, counts.part(add_entry * count_w, count_w).lt(cast(count_w, max_merge)))));
    v.comment("An entry is freed once: release_i names a valid entry.");
    v.assert_clocked("MshrReleaseValidEntry_A", (!release).lor(if_in_range(release_entry, valid[release_entry])));
    v.comment("State: the entry an allocation takes is free, and free_o says whether one is.");
    v.assert_comb("MshrAllocEntryFree_A", (!free_o).lor(!valid[free_entry_o]));
    v.assert_comb("MshrFreeWhenNotFull_A", free_o.eq(!red_and(valid)));
    if (count_can_overflow) {
      v.comment("State: no entry holds more than MaxMerge requests.");
      Expr count_over = v.logic("count_over", entries);
      v.always_comb({{count_over, zeros()}}, [&](Block& b) {
        b.for_("i", 0, entries, [&](Block& body, const Expr& i) {
          body.assign(count_over[i], counts.part(i * count_w, count_w).gt(cast(count_w, max_merge)));
        });
      });
      v.assert_comb("MshrCountWithinLimit_A", count_over.eq(zeros()));
    }
  });
}

}  // namespace gen::blocks
