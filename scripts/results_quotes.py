"""The "Beside the paper" rows of docs/results.md recomputed from the tables they quote.

Each study's generated block in docs/results.md has a "Beside the paper" table (what | paper |
ours | same direction | ours / paper (effect size) | backend), made by the study's analyse()
(experiments/studies/*.py) from the points' statistics. Most of its "ours" numbers are also
printed in a table below it: a summary row (geomean / mean over a group), a cell of one workload,
or an aggregate of a column over named workloads. When workloads' rows are rerun and spliced in by
hand, scripts/results_summary_rows.py recomputes the summary rows, and this module recomputes the
"ours" cells that quote them, with the direction and effect-size columns (experiments/core.py's
Comparison, experiments/report.py's formats). QUOTES below says, per study section, which table
cells each row quotes; the same formulas as the study's analyse(), over the printed cells.

A row that quotes one printed cell (exact=True: a summary row or one workload's cell, or the
lowest of a column) agrees when its number is that cell in the row's unit; a row computed from
several cells (a ratio, median, sum, difference, or an aggregate over named workloads) agrees when
it is within TOL of the recomputed value (the printed cells' rounding moves it by at most about
0.001), and its note, if any, is the recomputed one. Its same-direction and effect-size cells must
be those of its own number (the effect within what the number's last digit moves it); --write
rewrites a row that disagrees in any of them.

Errors (exit 1, --write cannot fix them): a table a rule names is missing, the cells give no
number, or the row's text is stale (it names another set or count of workloads than its tables
print: Stale). An "unverifiable" rule is reported on every run with its reason: the row's number
is not derivable from anything printed (RPR's age-score row compares whole statistics), and is
only checked against a bound the tables give (upper=True). A Beside row that no QUOTES entry
matches is reported as not checked (experiments.unit asserts docs/results.md has none).
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "experiments"))
sys.path.insert(0, os.path.join(HERE, "..", "experiments", "studies"))
from core import Comparison, geomean, mean, median  # noqa: E402
from report import fmt_value  # noqa: E402
import agelru  # noqa: E402
import two_level  # noqa: E402

TOL = 0.002  # a fraction or ratio; 0.2 % / 0.2 pp for the % and pp units


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def number(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


class Table:
    def __init__(self, title, header, rows):
        self.title, self.header, self.rows = title, header, rows   # rows: [cells], in order
        self.by_key = {r[0]: r for r in rows}

    def cell(self, key, col):
        if key not in self.by_key:
            raise KeyError(f"row '{key}' not in table '{self.title[:60]}'")
        if col not in self.header:
            raise KeyError(f"column '{col}' not in table '{self.title[:60]}'")
        r = self.by_key[key]
        i = self.header.index(col)
        return number(r[i]) if i < len(r) else None

    def column(self, keys, col):
        return [self.cell(k, col) for k in keys]


class Section:
    """One '## ' section of results.md: its tables by their bold title, its Beside-the-paper rows."""

    def __init__(self, heading):
        self.heading, self.tables, self.beside = heading, [], []   # beside: [(line index, cells)]
        self.all = []   # every section of the file, for a row that quotes another study's table

    def doc(self, head):
        """The file's one section whose heading starts with head."""
        found = [x for x in self.all if x.heading.startswith(head)]
        if len(found) != 1:
            raise KeyError(f"{len(found)} sections headed '{head}'")
        return found[0]

    def table(self, title_part, *more):
        """The one table whose bold title holds title_part (and each of more)."""
        found = [t for t in self.tables if all(p in t.title for p in (title_part,) + more)]
        if len(found) != 1:
            raise KeyError(f"{len(found)} tables titled '{' ... '.join((title_part,) + more)}' in section "
                           f"'{self.heading}'")
        return found[0]

    def paper_apps(self):
        """DyCache's 19: the rows of Fig. 8 whose group column names a paper group."""
        t = self.table("Fig. 8:")
        return [r[0] for r in t.rows if r[-1].startswith("paper ")]


def sections(lines):
    out, cur, title = [], None, ""
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("## "):
            cur = Section(ln[3:].strip())
            out.append(cur)
        elif ln.startswith("**"):
            title = ln
        elif ln.startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("|---") and cur:
            header = cells(ln)
            end = i + 2
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            rows = [cells(lines[k]) for k in range(i + 2, end)]
            if title.startswith("**Beside the paper") and header[:3] == ["what", "paper", "ours"]:
                cur.beside += [(k, cells(lines[k])) for k in range(i + 2, end)]
            else:
                cur.tables.append(Table(title, header, rows))
            i = end
            continue
        i += 1
    for sec in out:
        sec.all = out
    return out


# ---- what each Beside row quotes: (section heading prefix, regex on "what", spec) ----
# spec: ours(section, match) -> value or (value, note); ref, unit, sign (the paper's direction when
# it gives no number) as the study's Comparison has them (ref_of(match): a ref the row's text gives);
# exact: the row quotes one printed cell; upper: ours is only an upper bound of the row's number;
# unverifiable: why the row's number cannot be derived from the printed tables (reported each run).
# ours may look at another study's section (section.doc(heading)) and raises Stale when the row's
# text names other workloads than its tables.

def _dy_median(s, m):
    apps = s.paper_apps()
    ch = s.table("Fig. 9:").column(apps, "DyCache-50 change")
    band = sum(1 for c in ch if c is not None and -0.60 <= c <= -0.10)
    return median(ch), f"{band} of {len(apps)} apps down 10-60 %"


def _pair(table, key, a, b, f):
    return lambda s, m: (lambda x, y: f(x, y) if x is not None and y else None)(
        s.table(table).cell(key(m), a), s.table(table).cell(key(m), b))


def _tl(names):  # two-level's workload names -> its tables' row labels
    return [two_level.PAPER_APPS[w] for w in names if w in two_level.PAPER_APPS]


QUOTES = [
    ("DyCache", r"^(?P<v>.+) IPC geomean, paper (?P<g>regular|irregular|all) \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: s.table("Fig. 8:").cell(f"paper {m['g']} ({m['n']})", m["v"]), exact=True)),
    ("DyCache", r"^DyCache-50 IPC geomean, ours (?P<g>regular|irregular) \((?P<n>\d+), our tags\)$",
     dict(ours=lambda s, m: s.table("Fig. 8:").cell(f"ours {m['g']} ({m['n']})", "DyCache-50"), exact=True)),
    ("DyCache", r"^DyCache-50 miss-rate change, median of the paper's apps$", dict(ours=_dy_median, ref=0.0, unit="%")),
    ("DyCache", r"^BFS: Elastic-32 IPC over DyCache-50$",
     dict(ours=_pair("Fig. 8:", lambda m: "bfs", "Elastic-32", "DyCache-50", lambda x, y: x / y))),
    ("DyCache", r"^DyCache-50 speedup at 48 KB over its speedup at 16 KB \(paper all\)$",
     dict(ours=lambda s, m: _pair("Fig. 10:", lambda m: f"paper all ({len(s.paper_apps())})", "DyCache-50 48 KB",
                                  "DyCache-50 16 KB", lambda x, y: x / y)(s, m), sign=-1)),
    ("DyCache", r"^baseline IPC 48 KB / 16 KB, geomean \(paper all\)$",
     dict(ours=lambda s, m: s.table("Fig. 11:").cell(f"geomean paper all ({len(s.paper_apps())})",
                                                     "IPC 48 KB / 16 KB"), exact=True)),
    ("DyCache", r"^baseline miss-rate change 16 -> 48 KB, mean \(paper all\)$",
     dict(ours=lambda s, m: _pair("Fig. 11:", lambda m: f"mean paper all ({len(s.paper_apps())})", "miss rate 48 KB",
                                  "miss rate 16 KB", lambda x, y: x / y - 1)(s, m), ref=0.0, unit="%", sign=-1)),
    ("DyCache", r"^DyCache-50 (?P<k>5K|10K) over 1K samples, geomean \(paper all\)$",
     dict(ours=lambda s, m: s.table("Fig. 12:").cell(f"paper all ({len(s.paper_apps())})", f"{m['k']} / 1K"), exact=True)),
    ("DyCache", r"^DyCache-50 keep-large over DyCache-50, geomean of BFS, CFD, SC$",
     dict(ours=lambda s, m: geomean(s.table("Granularity retention").column(["bfs", "cfd", "streamcluster"],
                                                                            "IPC keep / DyCache-50")), sign=1)),
    ("Two-level", r"^(?P<v>two-level|k = 0\.9) IPC over no bypass, geomean \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: s.table("Fig. 4:").cell(f"geomean ({m['n']})", m["v"]), exact=True)),
    ("Two-level", r"^two-level: requests bypassed, mean \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: s.table("Fig. 5:").cell(f"mean ({m['n']})", "bypassed"), ref=0.0, unit="%", exact=True)),
    ("Two-level", r"^two-level: bypassed on the B-mode benchmarks \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: mean(s.table("Fig. 5:").column(_tl(two_level.B_MODE), "bypassed")), ref=0.0, unit="%")),
    ("Two-level", r"^two-level: bypassed on SPMV, BT, STC, CF \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: mean(s.table("Fig. 5:").column(_tl(two_level.CACHE_FRIENDLY), "bypassed")),
          ref=0.0, unit="%")),
    ("Two-level", r"^two-level IPC on SPMV, BT, STC, CF, geomean \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: geomean(s.table("Fig. 4:").column(_tl(two_level.CACHE_FRIENDLY), "two-level")), sign=0)),
    ("Two-level", r"^L1 off IPC on ADI, NW, LUD, JCB1D, geomean \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: geomean(s.table("Fig. 3:").column(_tl(two_level.OFF_BEST), "L1 off (approx.)")), sign=1)),
    ("Two-level", r"^two-level IPC on PF$", dict(ours=lambda s, m: s.table("Fig. 4:").cell("PF", "two-level"), exact=True)),
    ("Two-level", r"^two-level: miss-rate change of the cached requests, mean$",
     dict(ours=lambda s, m: mean([(lambda a, b: b - a if a is not None and b is not None else None)(
         t.cell(r[0], "miss rate no bypass"), t.cell(r[0], "miss rate two-level"))
         for t in [s.table("Fig. 5:")] for r in t.rows if not r[0].startswith("mean (")]), ref=0.0, unit="pp")),
]


def _agcb_ipc(s, m):
    v = m["v"] or m["v2"]
    col = {"reset 15": "IPC reset 15", "reset 0": "IPC reset 0",
           "reset 15 without L2 verification": "IPC reset 15 no check"}[v]
    return s.table(f"AGCB IPC over the baseline ({m['preset'] or 'qv100'}").cell(f"geomean all ({m['n']})", col)


def _agcb_hit_change(s, m):
    t = s.table(f"L1 hit rate, baseline and AGCB ({m['preset'] or 'qv100'}")
    return mean([(lambda a, b: b - a if a is not None and b is not None else None)(
        t.cell(r[0], "baseline"), t.cell(r[0], "AGCB reset 15")) for r in t.rows if not r[0].startswith("mean ")])


QUOTES += [
    ("AGCB", r"^AGCB (?:(?P<v>reset 15 without L2 verification), |(?P<v2>reset 15|reset 0) )IPC geomean, "
             r"all \((?P<n>\d+)\)(?: \((?P<preset>gtx480)\))?$", dict(ours=_agcb_ipc, exact=True)),
    ("AGCB", r"^AGCB reset 15 hit-rate change, mean(?: \((?P<preset>gtx480)\))?$",
     dict(ours=_agcb_hit_change, ref=0.0, unit="pp", sign=1)),
    ("AGCB", r"^AGCB reset 15: bypass predictions the L2 overrode, mean(?: \((?P<preset>gtx480)\))?$",
     dict(ours=lambda s, m: s.table(f"AGCB IPC over the baseline ({m['preset'] or 'qv100'}").cell(
         "mean all (35)", "overridden 15"), ref=0.0, unit="%", exact=True)),
    ("AgeLRU", r"^(?P<v>AgeLRU) replacement IPC over LRU, geomean \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: s.table("Fig. 5.6:").cell(f"geomean ({m['n']})", m["v"]), exact=True)),
    ("AgeLRU", r"^(?P<v>BIP) replacement IPC over LRU, geomean \((?P<n>\d+)\)$",  # the paper: about LRU's
     dict(ours=lambda s, m: s.table("Fig. 5.6:").cell(f"geomean ({m['n']})", m["v"]), exact=True, sign=0)),
    ("AgeLRU", r"^AgeLRU bypassing IPC over LRU, geomean \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: s.table("Fig. 5.9:").cell(f"geomean ({m['n']})", "AgeLRU bypass"), exact=True)),
    ("AgeLRU", r"^AgeLRU bypassing\+BTO IPC over LRU, geomean \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: s.table("Fig. 5.11/5.12:").cell(f"geomean ({m['n']})", "AgeLRU bypass+BTO"), exact=True)),
    ("PCAL", r"^optimal (?P<v>throttling|static PCAL) IPC over warp-max, geomean \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: s.table("Fig. 4.12:").cell(f"geomean ({m['n']})", m["v"]), exact=True)),
    ("PCAL", r"^dynamic PCAL IPC over optimal static PCAL, geomean \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: geomean([(lambda d, st: d / st if d is not None and st else None)(
         t.cell(r[0], "dynamic PCAL"), t.cell(r[0], "static PCAL"))
         for t in [s.table("Fig. 4.22:")] for r in t.rows if not r[0].startswith("geomean")]), sign=0)),
    ("RPR", r"^RPR reuse distance over (?P<v>AgeLRU|throttling)(?: \(CTA-opt\))?, IPC geomean, "
            r"(?:key set|(?P<g>regular)) \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: _pair("Fig. 6.4:", lambda m: f"geomean {m['g'] or 'all'} ({m['n']})", "RPR reuse distance",
                                  "AgeLRU" if m["v"] == "AgeLRU" else "throttling (warp-opt)", lambda x, y: x / y)(s, m))),
    ("RPR", r"^(?P<w>BFS|SSSP): RPR reuse distance over throttling$",
     dict(ours=lambda s, m: _pair("Fig. 6.4:", lambda m: m["w"], "RPR reuse distance", "throttling (warp-opt)",
                                  lambda x, y: x / y)(s, m))),
]


# ---- the AgeLRU, PCAL and RPR studies' other rows (experiments/studies/agelru.py, pcal.py, rpr.py) ----

class Stale(Exception):
    """A row's "what" no longer names what its tables print (another set, another count): the row
    text itself is stale, to be fixed by hand (--write cannot)."""


def _body(t, n=None):
    """A table's workload rows (not its geomean / mean rows); n: the count the row's "what" names."""
    rows = [r for r in t.rows if not re.match(r"^(geomean|mean)\b", r[0])]
    if n is not None and len(rows) != int(n):
        raise Stale(f"names {n} workloads, table '{t.title[:60]}' has {len(rows)}")
    return rows


def _ratio_geomean(title, num, den):  # geomean over the rows of num / den (pcal.py's pairs())
    def f(s, m):
        t = s.table(title)
        return geomean([(lambda a, b: a / b if a is not None and b else None)(t.cell(r[0], num), t.cell(r[0], den))
                        for r in _body(t, m["n"])])
    return f


def _unfriendly_worst(title, col):
    """agelru.py's worst(v, unfriendly): the lowest cell of col over the AgeLRU-unfriendly table,
    whose workloads must be the row's list and Fig. 5.14's AgeLRU cells below UNFRIENDLY_DROP."""
    def f(s, m):
        named = m["names"].split(", ")
        t = s.table(title, "(AgeLRU-unfriendly workloads)")
        rows = [r[0] for r in _body(t)]
        all_ = s.table("Fig. 5.14:")
        age = {r[0]: all_.cell(r[0], "AgeLRU") for r in _body(all_)}
        below = [w for w in age if (age[w] or 1.0) < agelru.UNFRIENDLY_DROP]
        # a cell printed as 0.970 may be either side of the threshold: either is the study's set
        edge = {w for w in age if age[w] is not None and abs(age[w] - agelru.UNFRIENDLY_DROP) < 0.0006}
        if not (named == rows and set(below) - edge <= set(named) <= set(below) | edge
                and named == [w for w in age if w in named]):
            raise Stale(f"names ({', '.join(named)}); the unfriendly table has ({', '.join(rows)}), Fig. 5.14's "
                        f"AgeLRU below {agelru.UNFRIENDLY_DROP} ({', '.join(below)})")
        return min((x for x in t.column(rows, col) if x is not None), default=None)
    return f


def _sensitive_worst(s, m):
    t = s.table("Fig. 5.15:", "(cache-sensitive set)")
    return min((x for x in t.column([r[0] for r in _body(t, m["n"])], "Dynamic-AgeLRU") if x is not None),
               default=None)


def _kmn_hits(col):  # agelru.py's total(v): the sum of Fig. 5.8's column (each rank over LRU's total hits)
    return lambda s, m: sum(x or 0 for x in s.table("Fig. 5.8:").column([r[0] for r in s.table("Fig. 5.8:").rows], col))


def _kmn_oldest_share(s, m):
    """agelru.py: the oldest k = round(ranks / 6) of the ranks seen, their share of AgeLRU's hits."""
    t = s.table("Fig. 5.8:")
    ranks = len(t.rows)
    k = max(1, round(ranks / 6))
    if (int(m["k"]), int(m["ranks"])) != (k, ranks):
        raise Stale(f"names the oldest {m['k']} of {m['ranks']} warps; Fig. 5.8 has {ranks} ranks (oldest {k})")
    age = t.column([r[0] for r in t.rows], "AgeLRU")
    share = sum(x or 0 for x in age[:k]) / sum(x or 0 for x in age) if sum(x or 0 for x in age) else None
    return share, f"even shares would be {k}/{ranks} = {100 * k / ranks:.0f} % (the paper's 4/24 = 17 %)"


def _rpr_kmn_mr_change(s, m):
    """rpr.py's mr_change: KMN's miss rate with RPR reuse distance minus at throttling (warp-opt).
    Fig. 6.3 prints both over the baseline's (warp-max, LRU) miss rate, which the AgeLRU study's
    Fig. 5.7 prints (its LRU column: the same gtx480 baseline point at --scale small; golden and
    verilated statistics are identical, docs/results.md's "Backend" paragraph)."""
    t = s.table("Fig. 6.3:")
    base = s.doc("AgeLRU").table("Fig. 5.7:").cell("KMN", "LRU")
    rd, thr = t.cell("KMN", "RPR reuse distance"), t.cell("KMN", "throttling (warp-opt)")
    return (base * (rd - thr) if None not in (base, rd, thr) else None,
            "the paper's 17 % may be relative; ours is the change of the rate")


def _rpr_age_identical_bound(s, m):
    """At most the share of workloads whose AgeLRU and RPR age score cells agree in Fig. 6.3 and 6.4
    (identical statistics print identical cells; identical cells do not prove identical statistics)."""
    a, b = s.table("Fig. 6.3:"), s.table("Fig. 6.4:")
    ws = [r[0] for r in _body(b)]
    same = [all(t.cell(w, "AgeLRU") is not None and t.cell(w, "AgeLRU") == t.cell(w, "RPR age score")
                for t in (a, b)) for w in ws]
    return sum(same) / len(same) if same else None


QUOTES += [
    ("AgeLRU", r"^KMN L1 miss rate change, AgeLRU - LRU$",
     dict(ours=lambda s, m: s.table("Fig. 5.7:").cell("KMN", "AgeLRU") - s.table("Fig. 5.7:").cell("KMN", "LRU"),
          ref=0.0, unit="pp")),
    ("AgeLRU", r"^SCLUSTER AgeLRU bypassing IPC over LRU$",
     dict(ours=lambda s, m: s.table("Fig. 5.9:").cell("SCLUSTER", "AgeLRU bypass"), exact=True)),
    ("AgeLRU", r"^Dynamic-AgeLRU (?P<v>replacement|bypassing|bypassing\+BTO): worst IPC over LRU on the "
               r"AgeLRU-unfriendly workloads \((?P<names>[^()]+)\)$",
     dict(ours=lambda s, m: {"replacement": _unfriendly_worst("Fig. 5.15:", "Dynamic-AgeLRU"),
                             "bypassing": _unfriendly_worst("Fig. 5.16/5.17:", "Dynamic-AgeLRU bypass"),
                             "bypassing+BTO": _unfriendly_worst("Fig. 5.16/5.17:", "Dynamic-AgeLRU bypass+BTO")
                             }[m["v"]](s, m), exact=True)),
    ("AgeLRU", r"^Dynamic-AgeLRU replacement: worst IPC over LRU, cache-sensitive set \((?P<n>\d+)\)$",
     dict(ours=_sensitive_worst, sign=0, exact=True)),
    ("AgeLRU", r"^KMN L1 hits, (?P<v>AgeLRU|BIP) over LRU$", dict(ours=lambda s, m: _kmn_hits(m["v"])(s, m))),
    ("AgeLRU", r"^KMN: share of AgeLRU's hits going to the oldest (?P<k>\d+) of the (?P<ranks>\d+) resident warps "
               r"of a scheduler \(the paper: 4 of 24\)$",
     dict(ours=_kmn_oldest_share, unit="%", ref_of=lambda m: int(m["k"]) / int(m["ranks"]))),
    ("PCAL", r"^optimal static PCAL-BTO IPC over warp-max, geomean \((?P<n>\d+)\)$",
     dict(ours=lambda s, m: s.table("Fig. 4.23:").cell(f"geomean ({m['n']})", "static PCAL-BTO"), exact=True)),
    ("PCAL", r"^optimal static PCAL-BTO IPC over optimal throttling, geomean \((?P<n>\d+)\)$",
     dict(ours=_ratio_geomean("Fig. 4.23:", "static PCAL-BTO", "throttling"))),
    ("PCAL", r"^opportunistic caching over optimal static PCAL, geomean \((?P<n>\d+)\)$",
     dict(ours=_ratio_geomean("Opportunistic caching:", "opportunistic", "static PCAL"), sign=1)),
    ("RPR", r"^KMN L1 miss rate change, RPR reuse distance - throttling$",
     dict(ours=_rpr_kmn_mr_change, ref=0.0, unit="pp")),
    ("RPR", r"^RPR with the age score gives AgeLRU's statistics \(workloads where identical\)$",
     dict(ours=_rpr_age_identical_bound, ref=0.0, unit="%", upper=True,
          unverifiable="rpr.py compares the two points' whole result statistics, which no table prints; "
                       "checked only against the share of workloads whose printed cells agree (an upper bound)")),
]


def cell_value(text, unit, whole=False):
    """The number a cell starts with ('0.920', '-35.0 % (...)', '+6.9 pp (...)'), as a fraction for
    % and pp, or None. whole: nothing but a parenthesis may follow it (the paper's cells)."""
    m = re.match(r"^([+-]?\d+(?:\.\d+)?)(?: (%|pp))?" + (r"(?: \(|$)" if whole else ""), text)
    if not m:
        return None
    v = float(m.group(1))
    return v / 100 if unit in ("%", "pp") else v


def _direction_cells(what, v, c, spec, unit, ref, note):
    """The same-direction and effect-size cells of a row whose number is v (experiments/report.py's
    comparison_table)."""
    comp = Comparison(what, v, paper=cell_value(c[1], unit, whole=True), ref=ref, unit=unit,
                      paper_sign=spec.get("sign"), note=note or "")
    d, r = comp.direction(), comp.magnitude_ratio()
    return ("-" if d is None else ("yes" if d else "**no**"),
            "-" if r is None else f"{(r if abs(r) >= 0.005 else 0.0):+.2f}", comp)


def _effect_agrees(printed, want, comp):
    """The printed effect size against the one of the row's rounded number: the number's last digit
    (half a unit: 0.0005) moves it by 0.0005 / |paper - ref|, its own rounding by 0.005."""
    if want == "-" or printed == "-":
        return printed == want
    p = number(printed)
    return p is not None and abs(p - float(want)) <= 0.0005 / abs(comp.paper - comp.ref) + 0.0051


def check_beside(lines, path, report):
    """Recomputes every Beside-the-paper row QUOTES covers, with its direction and effect size;
    rewrites lines in place where they disagree. Returns (rows changed, rows that are wrong and
    cannot be rewritten: a stale "what", a missing table, an upper bound exceeded)."""
    changed = errors = 0
    for sec in sections(lines):
        for k, c in sec.beside:
            what = c[0]
            specs = [(re.match(rx, what), spec) for head, rx, spec in QUOTES if sec.heading.startswith(head)]
            specs = [(m, spec) for m, spec in specs if m]
            if not specs:
                report(f"{path}:{k + 1}: '{what}': no QUOTES entry (scripts/results_quotes.py), not checked")
                continue
            m, spec = specs[0]
            unit = spec.get("unit", "x")
            ref = spec["ref_of"](m) if "ref_of" in spec else spec.get("ref", 1.0)
            try:
                got = spec["ours"](sec, m)
                got, note = got if isinstance(got, tuple) else (got, None)
                if got is None:
                    raise Stale("the cells it quotes give no number")
            except (KeyError, Stale) as e:
                report(f"{path}:{k + 1}: '{what}': error: {e.args[0]}")
                errors += 1
                continue
            quoted = cell_value(c[2], unit)
            text = fmt_value(got, unit) + (f" ({note})" if note else "")
            if spec.get("unverifiable"):
                report(f"{path}:{k + 1}: '{what}': unverifiable: {spec['unverifiable']}")
            if spec.get("upper"):
                agrees = quoted is not None and quoted <= got + TOL
                if not agrees:
                    report(f"{path}:{k + 1}: '{what}': error: {c[2]} is above what its tables allow ({text})")
                    errors += 1
                    continue
            elif spec.get("exact"):
                agrees = c[2] == text
            else:
                agrees = quoted is not None and abs(quoted - got) <= TOL and (not note or c[2].endswith(f"({note})"))
            d, r, comp = _direction_cells(what, quoted if agrees else got, c, spec, unit, ref, note)
            if agrees and c[3] == d and _effect_agrees(c[4], r, comp):
                continue
            new = list(c)
            if not agrees:
                new[2] = text
            new[3], new[4] = d, r
            changed += 1
            print(f"{path}:{k + 1}: {' | '.join(c[:5])}  ->  {' | '.join(new[:5])}")
            lines[k] = "| " + " | ".join(new) + " |"
    return changed, errors
