// l1d_mshr's description of its ports and behaviour, and the shapes it accepts (gen/blocks/l1d_mshr.cpp):
// kept apart from the generator so that each file stays short.
#include "gen/blocks/l1d_mshr_doc.h"

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
  m.describe("fill places.");
  m.describe("l1.allocation on_miss (contract 13.1): alloc_reserve_i {reserved, way, first slot} is kept in the");
  m.describe("record and read on rd_reserve_o; merge_reserved_o is the reserved bit of the entry merge_o or");
  m.describe("merge_full_o names (0 when neither), for pending_hits.");
  m.describe("EntryBits and ReqBits are port widths derived from Entries and MaxMerge (do not override them):");
  m.describe("with one entry, or one request per entry, the index keeps one bit.");
}

}  // namespace gen::blocks
