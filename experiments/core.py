"""What a study plug-in works with: variants and points in, figures and comparisons out.

A study (experiments/studies/<name>.py) is a module with
  NAME      "dycache"                            (make experiments-NAME, build/experiments/NAME/)
  TITLE     one line for docs/results.md
  PAPER     the paper, and SEED: its text under /work/shared/seeds (or "")
  points(ctx)        -> [Point]                  what to simulate
  analyse(ctx, res)  -> ([Figure], [Comparison]) what to tabulate, plot and set beside the paper
and optionally PRESET (the preset Results.get() uses by default), preamble(ctx) -> Markdown
put above the study's tables (e.g. which of the paper's workloads we lack), and HIDDEN = True
(not part of `all`; the test study is one).

A Variant is a policy preset (configs/policies/NAME.yaml) with some fields changed, and
optionally its GPU preset with some fields changed; the runner writes each as a file of the
same schema and passes it to gpusim with --policy-file / --config. A Point is one gpusim run:
workload x preset x variant at the run's scale and L1 backend.
"""
import math
import os
import re
import subprocess
from dataclasses import dataclass, field

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclass(frozen=True)
class Variant:
    name: str                 # identifier used in file names and columns, e.g. "dy50"
    label: str                # column / legend text, e.g. "DyCache-50"
    policy: str               # base policy preset, configs/policies/<policy>.yaml
    over: dict = field(default_factory=dict, hash=False, compare=False)         # policy fields changed
    preset_over: dict = field(default_factory=dict, hash=False, compare=False)  # GPU preset fields changed
    args: tuple = ()          # further gpusim options, e.g. ("--controller", "dynamic-agelru");
                              # "{stem}" becomes the point's file stem (e.g. for an extra output file)
    l1: str = ""              # the L1 backend, when the variant needs one ("golden": RPR and the
                              # AGCB timeline have no RTL side); "" = the run's --l1
    note: str = ""            # what it stands for, shown in the variant table


@dataclass(frozen=True)
class Point:
    preset: str
    workload: str
    variant: Variant

    @property
    def id(self):
        return f"{self.preset}.{self.workload}.{self.variant.name}"


# The dissertation's cache-sensitive benchmarks (Table 3.2; its PCAL and AgeLRU figures use 12 and
# 14 of them) -> our workloads, with the dissertation's names for the tables.
CACHE_SENSITIVE = {"comd": "CoMD", "invindex": "II", "bfs": "BFS", "cfd": "CFD", "kmeans": "KMN", "strmatch": "SM",
                   "simscore": "SS", "streamcluster": "SCLUSTER", "sssp": "SSSP", "atax": "ATAX", "bicg": "BICG",
                   "gesummv": "GESUMMV", "mvt": "MVT", "sp": "SP", "wordcount": "WC"}


def grid(presets, workloads, variants):
    return [Point(p, w, v) for p in presets for w in workloads for v in variants]


@dataclass
class Figure:
    """One table (CSV + JSON) and, when plot is set, one PNG: kind "bars" (clustered bars: one
    group per row, one bar per series column), "lines" (x = the row key, a number such as a
    cycle; one line per series column) or "scatter" (one point per row: x = the first series
    column, y = the second, labelled with the row key; the rows whose mark column is true are
    highlighted and joined by a line in x order, e.g. a Pareto front)."""
    name: str                 # file stem, e.g. "fig08_ipc"
    title: str
    columns: list             # the first names the row key
    rows: list                # [key, value, ...]; None = missing
    paper: str = ""           # what the paper's figure shows
    ylabel: str = ""
    series: list = None       # columns to plot (default: all value columns; scatter: the first two)
    hline: float = None       # reference line, e.g. 1.0 for normalised IPC
    plot: bool = True
    in_results: bool = True   # also as a table in docs/results.md
    fmt: str = "{:.3f}"
    logy: bool = False
    kind: str = "bars"        # "bars" or "scatter"
    xlabel: str = ""          # scatter: the x axis
    mark: str = None          # scatter: the column whose true values are highlighted and joined
    note: str = ""            # a sentence or two under the title in docs/results.md (and in the JSON)


@dataclass
class Comparison:
    """One number of ours beside the paper's. ref is the no-effect value (1.0 for normalised
    IPC, 0 for a fraction or a change): the direction compares the signs of ours - ref and
    paper - ref, the magnitude ratio is (ours - ref) / (paper - ref)."""
    what: str
    ours: float
    paper: float = None       # None: the paper gives no number (paper_text says what it says)
    paper_text: str = ""
    ref: float = 1.0
    paper_sign: int = None    # for a claim without a number: +1 above ref, -1 below, 0 no change
    unit: str = "x"           # "x": 1.234, "%": 12.3 %, "pp": +1.2 pp (a change of a fraction)
    variants: tuple = ()      # variant names the number comes from (for the backend column)
    note: str = ""

    def direction(self, tol=0.005):
        """Whether ours moves the same way from ref as the paper's (None: nothing to compare).
        Changes within tol of ref count as no change."""
        sign = lambda v: 0 if abs(v - self.ref) <= tol else (1 if v > self.ref else -1)
        paper = sign(self.paper) if self.paper is not None else self.paper_sign
        if self.ours is None or paper is None:
            return None
        return sign(self.ours) == paper

    def magnitude_ratio(self):
        if self.ours is None or self.paper is None or self.paper == self.ref:
            return None
        return (self.ours - self.ref) / (self.paper - self.ref)


# ---- metrics on one gpusim --stats JSON ----

def ipc(s):
    return s["result"]["ipc"]


def miss_rate(s):
    a = s["l1"]["accesses"]
    return s["l1"]["misses"] / a if a else None


def hit_rate(s):
    a = s["l1"]["accesses"]
    return s["l1"]["hits"] / a if a else None


def bypass_fraction(s):
    a = s["l1"]["accesses"]
    return s["l1"]["bypasses"] / a if a else None


def ratio(a, b):
    return a / b if a is not None and b else None


def throttle_variants(limits):
    """Warp throttling on the baseline policy: {limit: Variant}, the limit being the warps per
    scheduler that may issue."""
    return {n: Variant(f"w{n}", f"throttle {n}", "baseline", args=("--warp-limit", str(n))) for n in limits}


def best_warp_limit(res, workload, warp_max, max_variant, throttles):
    """warp-opt: the limit with the best IPC among the throttles and warp-max (the max_variant
    run, warp_max warps), as the dissertation finds it offline; None without results."""
    runs = [(ipc(s), n) for n, s in [(warp_max, res.get(workload, max_variant))] +
            [(n, res.get(workload, v.name)) for n, v in throttles.items()] if s]
    return max(runs)[1] if runs else None


def points_at_warp_opt(preset, workloads, res, warp_opt, variants):
    """A throttling study's second stage: for each workload whose warp-opt warp_opt(res, w)
    is known, a Point per variant of variants(opt)."""
    out = []
    for w in workloads:
        opt = warp_opt(res, w)
        if opt is not None:
            out += [Point(preset, w, v) for v in variants(opt)]
    return out


def pareto_optimal(points):
    """For [(x, y)] with x a cost (smaller is better) and y a benefit (larger is better): a
    list of bools, True where no other point is at least as good in both and better in one.
    Equal points do not dominate each other; a point with x or y None is never optimal."""
    def dominated(i):
        x, y = points[i]
        return any(j != i and qx is not None and qy is not None and qx <= x and qy >= y and (qx < x or qy > y)
                   for j, (qx, qy) in enumerate(points))
    return [x is not None and y is not None and not dominated(i) for i, (x, y) in enumerate(points)]


def geomean(values):
    v = [x for x in values if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else None


def mean(values):
    v = [x for x in values if x is not None]
    return sum(v) / len(v) if v else None


def median(values):
    v = sorted(x for x in values if x is not None)
    if not v:
        return None
    m = len(v) // 2
    return v[m] if len(v) % 2 else (v[m - 1] + v[m]) / 2


class Results:
    """The statistics of a study's points: get(workload, variant[, preset]) is the gpusim
    --stats JSON or None when the point failed or has not run."""

    def __init__(self, points, stats, backends, default_preset, paths=None):
        self.points = points
        self._stats = stats          # point id -> dict
        self.backends = backends     # point id -> "golden" | "verilated" | ...
        self.default_preset = default_preset
        self._paths = paths or {}    # point id -> its statistics file (beside it: the point's extra outputs)

    def get(self, workload, variant, preset=None):
        return self._stats.get(f"{preset or self.default_preset}.{workload}.{variant}")

    def stats_path(self, workload, variant, preset=None):
        return self._paths.get(f"{preset or self.default_preset}.{workload}.{variant}")

    def metric(self, f, workload, variant, preset=None):
        s = self.get(workload, variant, preset)
        return f(s) if s else None

    def normalised(self, f, workload, variant, base, preset=None, base_preset=None):
        return ratio(self.metric(f, workload, variant, preset), self.metric(f, workload, base, base_preset or preset))


class Context:
    """What a study may ask about the run: scale, backend, the workloads gpusim has and
    their regular / irregular tag (docs/workloads.md), and where the synthesis areas of the
    policy presets are (make synth-policies; may not exist)."""

    def __init__(self, gpusim, scale, l1, synth_report=None):
        self.gpusim, self.scale, self.l1 = gpusim, scale, l1
        self.synth_report = synth_report    # make synth-policies' report.json (--synth-report)
        self._workloads = None
        self._classes = None

    def workloads(self):
        if self._workloads is None:
            out = subprocess.run([self.gpusim, "--list-workloads"], capture_output=True, text=True, check=True)
            self._workloads = [w for w in out.stdout.split() if w]
        return self._workloads

    def available(self, names):
        """names that gpusim has, in the given order (the rest are reported by missing())."""
        have = set(self.workloads())
        return [n for n in names if n in have]

    def missing(self, names):
        have = set(self.workloads())
        return [n for n in names if n not in have]

    def pattern(self, workload):
        """'regular' / 'irregular' as docs/workloads.md's generated suite table tags it; for a
        workload not yet in that table, what its source's info() returns; else None."""
        if self._classes is None:
            self._classes = {}
            path = os.path.join(REPO, "docs", "workloads.md")
            if os.path.exists(path):
                with open(path) as f:
                    for line in f:
                        cells = [c.strip() for c in line.strip().strip("|").split("|")]
                        if len(cells) > 3 and cells[2] in ("regular", "irregular"):
                            self._classes[cells[0]] = cells[2]
        if workload not in self._classes:
            src = os.path.join(REPO, "sim_cpp", "workload", f"{workload}.cpp")
            tag = None
            if os.path.exists(src):
                with open(src) as f:
                    m = re.search(r"WorkloadInfo info\(\) const override \{\s*return \{\s*(true|false)\s*,", f.read())
                if m:
                    tag = "irregular" if m.group(1) == "true" else "regular"
            self._classes[workload] = tag
        return self._classes[workload]
