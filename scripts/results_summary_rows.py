#!/usr/bin/env python3
"""Recomputes the summary rows of docs/results.md's per-workload tables from the rows above them.

The experiments runner (experiments/run.py) writes each table from its points' statistics, summary
rows included. When single workloads' rows are rerun and spliced in by hand (docs/results.md says
which: shfl, pfilter, sp), the summary rows keep the old rows' values. This script recomputes them
from the table's cells as printed (3 decimals), with the runner's own geomean and mean
(experiments/core.py), over the rows of the group the summary row names, for the summary rows
whose group holds a workload named by --spliced (the others are the runner's own and stay):

  geomean|mean [paper|ours] regular|irregular|all (N),   geomean (N) / mean (N)
  and dycache's bare paper|ours regular|irregular|all (N) (a geomean)

Group membership: dycache's Fig. 8 table's "group (paper / ours)" column (docs/workloads.md's tags
and the DyCache paper's grouping); a row whose group has no workload in that column, or whose
count N differs from the rows found, is left alone and reported. Cells "-" are skipped. The
rounding of the printed cells moves a recomputed summary by at most about 0.001; with --check
the script reports every summary row it would change, and exits 1 if any does. A spliced
workload's rows are found by its name or, in the two-level study's tables, its paper name
(pfilter -> PF).

Then the "Beside the paper" rows that quote these tables are checked against them
(scripts/results_quotes.py): a row whose "ours" number disagrees with the cells it quotes is
reported (--check: exit 1) or rewritten with its direction and effect size (--write); a row whose
text is stale or whose tables are missing is an error either way (exit 1, nothing rewritten).

  scripts/results_summary_rows.py docs/results.md --spliced shfl,pfilter,sp --check
  scripts/results_summary_rows.py docs/results.md --spliced shfl,pfilter,sp --write
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "experiments"))
from core import geomean, mean  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_quotes import check_beside  # noqa: E402
from two_level import PAPER_APPS as TWO_LEVEL_LABELS  # noqa: E402  (results_quotes put studies/ on the path)

SUMMARY = re.compile(r"^(?:(geomean|mean)(?: (paper|ours))?(?: (regular|irregular|all))?"
                     r"|()(paper|ours) (regular|irregular|all)) \((\d+)\)$")


def summary(label):
    """(aggregate, side, group, N) of a summary row's label, or None. A bare 'paper regular (10)'
    (dycache's Fig. 8, 10 and 12: experiments/studies/dycache.py's label) is a geomean."""
    m = SUMMARY.match(label)
    if not m:
        return None
    if m.group(4) is not None:
        return "geomean", m.group(5), m.group(6), int(m.group(7))
    return m.group(1), m.group(2) or "ours", m.group(3) or "all", int(m.group(7))


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def groups_from(lines):
    """{'paper regular': [...], 'ours irregular': [...], ...} from dycache's group column."""
    g = {}
    for ln in lines:
        c = cells(ln) if ln.startswith("| ") else []
        if len(c) >= 2 and re.match(r"^(paper (ir)?regular|not in paper) / ours (ir)?regular$", c[-1]):
            paper, ours = c[-1].split(" / ")
            if paper != "not in paper":
                g.setdefault(paper, []).append(c[0])
            g.setdefault(ours, []).append(c[0])
    return g


def number(s):
    try:
        return float(s)
    except ValueError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results")
    ap.add_argument("--spliced", required=True, type=lambda v: v.split(","),
                    help="the workloads whose rows were rerun and spliced in (comma-separated)")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    a = ap.parse_args()
    lines = open(a.results).read().split("\n")
    groups = groups_from(lines)
    # a spliced workload's row label: its name, or the two-level study's paper name (pfilter -> PF)
    spliced = set(a.spliced) | {TWO_LEVEL_LABELS[w] for w in a.spliced if w in TWO_LEVEL_LABELS}
    changed = 0
    i = 0
    while i < len(lines):
        if not (lines[i].startswith("| workload |") and i + 1 < len(lines) and lines[i + 1].startswith("|---")):
            i += 1
            continue
        header = cells(lines[i])
        start = i + 2
        end = start
        while end < len(lines) and lines[end].startswith("|"):
            end += 1
        rows = [(k, cells(lines[k])) for k in range(start, end)]
        body = {c[0]: c for _, c in rows if not summary(c[0])}
        for k, c in rows:
            m = summary(c[0])
            if not m:
                continue
            agg, side, grp, n = m
            fn = geomean if agg == "geomean" else mean
            if grp == "all" and side == "ours":
                members = list(body)
            else:
                names = groups.get(f"{side} {grp}", []) if grp != "all" else (
                    groups.get(f"{side} regular", []) + groups.get(f"{side} irregular", []))
                members = [w for w in body if w in names]
            if not members or len(members) != n:
                print(f"{a.results}:{k + 1}: '{c[0]}': {len(members)} rows found, left alone", file=sys.stderr)
                continue
            new = list(c)
            for col in range(1, len(header)):
                if col >= len(c) or number(c[col]) is None:
                    continue
                vals = [number(body[w][col]) for w in members if col < len(body[w])]
                vals = [v for v in vals if v is not None]
                if len(vals) != len(members):
                    continue
                new[col] = f"{fn(vals):.3f}"
            if not any(w in spliced for w in members):
                continue  # the runner's own summary: none of its rows was spliced in since
            if new != c:
                changed += 1
                print(f"{a.results}:{k + 1}: {' | '.join(c)}  ->  {' | '.join(new)}")
                lines[k] = "| " + " | ".join(new) + " |"
        i = end
    beside_changed, errors = check_beside(lines, a.results, lambda msg: print(msg, file=sys.stderr))
    changed += beside_changed
    if a.write:
        with open(a.results, "w") as f:
            f.write("\n".join(lines))
    return 1 if (a.check and changed) or errors else 0


if __name__ == "__main__":
    sys.exit(main())
