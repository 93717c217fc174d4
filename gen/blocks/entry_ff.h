// Per-entry registers of a file of N entries (an MSHR file's, or a verification region's shadow of
// it), updated entry by entry under conditions on the entry's index. Up to 64 entries they are one
// always_ff with a for loop over the entries; above 64 the SV subset refuses that loop (rule
// reset-loop-64, docs/sv-subset.md: Verilator 5.006 stops with BLKLOOPINIT), so each entry gets its
// own always_ff in a generate block instead, over its own flops, which continuous assigns place in
// the file's vectors. The two forms are the same registers with the same next state (the body is
// the same, given the entry's index as a loop variable or as a genvar), and the loop form is the
// one every configuration of 64 entries or fewer had before, so its RTL did not change.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gen/ir.h"

namespace gen::blocks {

// One field of every entry: `vec` holds entry e's at [e * width +: width], or at bit [e] when
// `bit_select` (a one-bit flag per entry). `local` names the per-entry form's flop inside the
// generate block (a *_q name that no signal of the module has).
struct EntryField {
  Expr vec;
  unsigned width;
  std::string local;
  bool bit_select = false;
};

// The most entries one always_ff may loop over (profile rule reset-loop-64).
inline constexpr unsigned kMaxFfLoopEntries = 64;

// body(block, e, q): the update of entry e, q[k] its field k (read and written through q only).
using EntryFfBody = std::function<void(Block&, const Expr&, const std::vector<Expr>&)>;

inline Expr entry_field(const EntryField& f, const Expr& e) {
  return f.bit_select ? f.vec[e] : f.vec.part(e * f.width, f.width);
}

// The registers of `fields` for entries 0 .. n - 1 (`bound`: n as the RTL spells it, a literal or
// the module's parameter): reset to 0 (an asynchronous reset, always_ff) when `reset`, else without
// reset (always_ff_noreset). `label` is the generate block of the per-entry form (g_...), `var` the
// entry's loop variable, and g<var> its genvar (a genvar may not share a procedural loop's name).
inline void entry_ff(Scope& s, std::string_view label, std::string_view var, unsigned n, const Expr& bound,
                     const std::vector<EntryField>& fields, bool reset, const EntryFfBody& body) {
  if (n <= kMaxFfLoopEntries) {
    std::vector<Init> resets;
    for (const EntryField& f : fields) resets.push_back({f.vec, zeros()});
    const Block::Fn loop = [&](Block& b) {
      b.for_(var, 0, bound, [&](Block& be, const Expr& e) {
        std::vector<Expr> q;
        for (const EntryField& f : fields) q.push_back(entry_field(f, e));
        body(be, e, q);
      });
    };
    if (reset) {
      s.always_ff(resets, loop);
    } else {
      s.always_ff_noreset(loop);
    }
    return;
  }
  s.gen_for(label, "g" + std::string(var), 0, bound, [&](Scope& g, const Expr& e) {
    std::vector<Expr> q;
    std::vector<Init> resets;
    for (const EntryField& f : fields) {
      q.push_back(g.logic(f.local, f.width));
      resets.push_back({q.back(), zeros()});
    }
    const Block::Fn update = [&](Block& b) { body(b, e, q); };
    if (reset) {
      g.always_ff(resets, update);
    } else {
      g.always_ff_noreset(update);
    }
    for (size_t k = 0; k < fields.size(); ++k) g.assign(entry_field(fields[k], e), q[k]);
  });
}

}  // namespace gen::blocks
