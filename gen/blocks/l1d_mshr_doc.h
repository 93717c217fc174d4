// l1d_mshr's module description and configuration check (gen/blocks/l1d_mshr_doc.cpp).
#pragma once

#include <cstdint>

#include "common/config.h"
#include "gen/ir.h"

namespace gen::blocks {

// Throws l1d::ConfigError for a shape the golden L1 refuses (entries, merges, address bits, AGCB).
void mshr_validate(const l1d::Config& cfg);
// The module description of l1d_mshr (its header comment in the emitted SystemVerilog).
void mshr_describe(Module& m);
// The staged pipe in sector mode: the buffer's write port at stage D (contract 16.5).
void mshr_describe_late_buffer(Module& m);

// The signals l1d_mshr's assertions read.
struct MshrAssertSignals {
  uint32_t n_entries_cfg, n_merge_cfg;  // l1.mshr_entries, l1.mshr_max_merge
  Expr entries, max_merge, count_w;     // the parameters
  Expr valid, filled, counts, resp, resp_entry, add, add_entry, alloc, release, release_entry, free_o, free_entry_o;
};
// The assertions (docs/rtl-verification.md): the input contract the L1 keeps and state invariants.
void mshr_assertions(Module& m, const MshrAssertSignals& s);

// The staged pipe's probe line compares read a cycle ahead (l1d_mshr_ahead.cpp, contract 16.5): the
// signals they read; the function adds probe_next_line_i and returns the per-entry "valid and of
// probe_line_i" bits (Entries wide) from registers.
struct MshrAheadSignals {
  Expr entries, line_bits;                // the parameters
  Expr valid, lines, probe_line;          // the entries' state (entry e at [e*W +: W]) and the probe's line
  Expr alloc, first_free, alloc_line;     // the allocation port and the entry it takes (one-hot or zero)
  Expr release, release_entry;            // the release port
};
Expr mshr_probe_ahead(Module& m, const MshrAheadSignals& s);

// The fill data memories and their read word (l1d_mshr_data.cpp): the signals they read and
// data_rd_word, the logic they drive (the entry's line, each sector from the fetched or the buffered
// memory).
struct MshrDataSignals {
  Expr clk, entries, entry_w;                          // entry_w: the EntryBits parameter
  unsigned entry_count;                                // the Entries parameter's value
  bool late_buffer;                                    // the staged pipe in sector mode (buf_wr_*)
  Expr resp, resp_entry, resp_sectors, resp_data;      // the memory response port
  Expr alloc_ok, alloc_buffer, add_ok, add_buffer;     // the sectors an alloc or add buffers
  Expr free_entry, req_entry, buffer_data;             // the entries they write, the array's bytes
  Expr buf_wr, buf_wr_entry;                           // late_buffer only: the write at D
  Expr buffered, rd_entry, data_rd_word;               // every entry's buffered sectors; the read port
};
void mshr_fill_data(Module& m, const Module& ram, const MshrDataSignals& s);

}  // namespace gen::blocks
