"""DyCache (Fang et al., IEEE Access 2018): Fig. 8-12 and the granularity-retention option.

Fig. 8  IPC of Elastic-Cache-32/64 and DyCache-25/50/75 over the 128 B baseline, every workload,
        geomeans of the regular and irregular groups (the paper's own grouping of its 19
        applications, which we have, and our docs/workloads.md tags over all workloads).
Fig. 9  L1 miss rates of the same six caches.
Fig. 10 DyCache-50/75 over the baseline of the same size, 16 KB and 48 KB (the paper's 19).
Fig. 11 the baseline's miss rate at 16 KB and 48 KB, and its IPC gain.
Fig. 12 DyCache-50 with 5K and 10K-request samples over 1K (the paper's 19).
Option  dycache.keep_large_pieces (the fix the paper proposes, not evaluated there), all workloads.
GTX 480 (the paper's GPGPU-Sim configuration); 48 KB = 64 sets x 6 ways, as GPGPU-Sim's 48 KB L1.
"""
from core import Comparison, Figure, Variant, geomean, grid, ipc, mean, median, miss_rate

NAME = "dycache"
TITLE = "DyCache: multi-grain L1 management (Fig. 8-12)"
PAPER = "DyCache, IEEE Access 2018"
SEED = "dycache-ieee-access-2018.txt"
PRESET = "gtx480"

# The paper's Table 1 and its grouping (Section V.A); name here -> abbreviation there.
PAPER_REGULAR = {"backprop": "BP", "bc": "BC", "btree": "BT", "gaussian": "GE", "gc": "GC", "heartwall": "HW",
                 "hotspot": "HP", "lud": "LUD", "nw": "NW", "srad": "SRAD"}
PAPER_IRREGULAR = {"bfs": "BFS", "cfd": "CFD", "cc": "CC", "dc": "DC", "kmeans": "KC", "pfilter": "PF",
                   "streamcluster": "SC", "sssp": "SSSP", "tc": "TC"}
PAPER_APPS = {**PAPER_REGULAR, **PAPER_IRREGULAR}

L1_48KB = {"l1": {"size_bytes": 49152, "ways": 6}}
BASE = Variant("base", "baseline 128 B", "baseline")
MAIN = [Variant("e32", "Elastic-32", "elastic32"),
        Variant("e64", "Elastic-64", "elastic64"),
        Variant("dy25", "DyCache-25", "dycache", over={"dycache": {"threshold_pct": 25}}),
        Variant("dy50", "DyCache-50", "dycache"),
        Variant("dy75", "DyCache-75", "dycache", over={"dycache": {"threshold_pct": 75}})]
KEEP = Variant("dy50keep", "DyCache-50 keep-large", "dycache", over={"dycache": {"keep_large_pieces": True}},
               note="granularity retention on a small-to-large switch")
SIZE48 = [Variant("base48", "baseline 48 KB", "baseline", preset_over=L1_48KB, note="48 KB, 6-way"),
          Variant("dy50_48", "DyCache-50 48 KB", "dycache", preset_over=L1_48KB, note="48 KB, 6-way"),
          Variant("dy75_48", "DyCache-75 48 KB", "dycache", over={"dycache": {"threshold_pct": 75}},
                  preset_over=L1_48KB, note="48 KB, 6-way")]
SAMPLES = [Variant("dy50_s5k", "DyCache-50 5K", "dycache", over={"dycache": {"sample_requests": 5000}}),
           Variant("dy50_s10k", "DyCache-50 10K", "dycache", over={"dycache": {"sample_requests": 10000}})]

# Section V.A: geomean normalised IPC (E-32, E-64, Dy-25, Dy-50, Dy-75).
PAPER_GEOMEAN = {"all": [1.12, 1.09, 1.12, 1.18, 1.18],
                 "regular": [0.92, 0.94, 0.92, 0.99, 1.01],
                 "irregular": [1.36, 1.25, 1.37, 1.40, 1.39]}


def paper_apps(ctx):
    return ctx.available(list(PAPER_APPS))


def order(ctx):
    """The paper's regular apps, its irregular apps, then our other workloads."""
    paper = ctx.available(list(PAPER_REGULAR)) + ctx.available(list(PAPER_IRREGULAR))
    return paper + [w for w in ctx.workloads() if w not in PAPER_APPS]


def points(ctx):
    return (grid([PRESET], order(ctx), [BASE] + MAIN + [KEEP]) +
            grid([PRESET], paper_apps(ctx), SIZE48 + SAMPLES))


def preamble(ctx):
    lack = ctx.missing(list(PAPER_APPS))
    have = len(PAPER_APPS) - len(lack)
    differ = [f"{PAPER_APPS[w]} {ctx.pattern(w)}" for w in ctx.available(list(PAPER_APPS))
              if ctx.pattern(w) != ("irregular" if w in PAPER_IRREGULAR else "regular")]
    return (f"We have {have} of the paper's 19 applications" + (f" (missing: {', '.join(lack)})" if lack else "") +
            "; the *paper* geomeans below use its own grouping (regular: " +
            ", ".join(PAPER_REGULAR.values()) + "; irregular: " + ", ".join(PAPER_IRREGULAR.values()) +
            f"), the *ours* geomeans our docs/workloads.md tags over all {len(ctx.workloads())} workloads" +
            (f" (which put {', '.join(differ)})." if differ else "."))


def group_rows(label_fn, groups, columns_fn, agg=geomean):
    return [[label_fn(g, ws)] + [agg([f(w) for w in ws]) for f in columns_fn] for g, ws in groups]


def analyse(ctx, res):
    wls = order(ctx)
    papers = paper_apps(ctx)
    groups_paper = [("paper regular", [w for w in papers if w in PAPER_REGULAR]),
                    ("paper irregular", [w for w in papers if w in PAPER_IRREGULAR]),
                    ("paper all", papers)]
    groups_ours = [("ours regular", [w for w in wls if ctx.pattern(w) == "regular"]),
                   ("ours irregular", [w for w in wls if ctx.pattern(w) == "irregular"]),
                   ("ours all", wls)]
    label = lambda g, ws: f"{g} ({len(ws)})"
    tag = lambda w: (("paper " + ("regular" if w in PAPER_REGULAR else "irregular")) if w in PAPER_APPS
                     else "not in paper") + f" / ours {ctx.pattern(w) or '?'}"

    def norm(v, base="base"):
        return lambda w: res.normalised(ipc, w, v, base)

    def miss(v):
        return lambda w: res.metric(miss_rate, w, v)

    figs = []
    # Fig. 8
    cols = [norm(v.name) for v in MAIN]
    rows = [[w] + [f(w) for f in cols] + [tag(w)] for w in wls]
    g8 = group_rows(label, groups_paper + groups_ours, cols)
    figs.append(Figure("fig08_ipc", "Fig. 8: IPC normalised to the 128 B baseline (gtx480, 16 KB)",
                       ["workload"] + [v.label for v in MAIN] + ["group (paper / ours)"],
                       rows + [r + [""] for r in g8], ylabel="IPC / baseline IPC", hline=1.0,
                       series=[v.label for v in MAIN],
                       paper="normalised IPC of the five caches for its 19 applications; geomeans in the text."))
    # Fig. 9
    vs = [BASE] + MAIN
    cols9 = [miss(v.name) for v in vs]
    change = lambda w: (lambda b, d: d / b - 1 if b and d is not None else None)(miss("base")(w), miss("dy50")(w))
    rows9 = [[w] + [f(w) for f in cols9] + [change(w)] for w in wls]
    rows9 += group_rows(lambda g, ws: f"mean {g} ({len(ws)})", groups_paper + groups_ours, cols9 + [change], agg=mean)
    figs.append(Figure("fig09_miss", "Fig. 9: L1 miss rate (misses / accesses)",
                       ["workload"] + [v.label for v in vs] + ["DyCache-50 change"], rows9,
                       ylabel="miss rate", series=[v.label for v in vs],
                       paper="miss rates of baseline, Elastic-Cache and DyCache; DyCache lowest for most apps, "
                             "down 10-60 %."))
    # Fig. 10 / 11
    c10 = [norm("dy50"), norm("dy75"), norm("dy50_48", "base48"), norm("dy75_48", "base48")]
    names10 = ["DyCache-50 16 KB", "DyCache-75 16 KB", "DyCache-50 48 KB", "DyCache-75 48 KB"]
    figs.append(Figure("fig10_48kb", "Fig. 10: DyCache over the same-size baseline, 16 KB and 48 KB",
                       ["workload"] + names10, [[w] + [f(w) for f in c10] for w in papers] +
                       group_rows(label, groups_paper, c10), ylabel="IPC / baseline IPC (same size)", hline=1.0,
                       paper="the speedup of DyCache drops at 48 KB (no numbers)."))
    c11 = [miss("base"), miss("base48"), norm("base48")]
    rows11 = [[w] + [f(w) for f in c11] for w in papers]
    rows11 += [r + [None] for r in group_rows(lambda g, ws: f"mean {g} ({len(ws)})", groups_paper, c11[:2], agg=mean)]
    gain11 = group_rows(lambda g, ws: f"geomean {g} ({len(ws)})", groups_paper, c11[2:])
    rows11 += [[r[0], None, None, r[1]] for r in gain11]
    figs.append(Figure("fig11_base48", "Fig. 11: the baseline's miss rate at 16 KB and 48 KB (the table adds its "
                       "IPC 48 KB / 16 KB, plotted in fig11_ipc48)",
                       ["workload", "miss rate 16 KB", "miss rate 48 KB", "IPC 48 KB / 16 KB"], rows11,
                       ylabel="miss rate", series=["miss rate 16 KB", "miss rate 48 KB"],
                       paper="the baseline's miss rate drops at 48 KB; its IPC rises by 24 % on average."))
    figs.append(Figure("fig11_ipc48", "Fig. 11 (IPC): the baseline's IPC at 48 KB over 16 KB",
                       ["workload", "IPC 48 KB / 16 KB"], [[r[0], r[3]] for r in rows11 if r[3] is not None],
                       ylabel="IPC 48 KB / IPC 16 KB", hline=1.0, in_results=False,
                       paper="the baseline's IPC rises by 24 % on average at 48 KB.",
                       note="Its values are the last column of Fig. 11's table above."))
    # Fig. 12
    c12 = [norm("dy50_s5k", "dy50"), norm("dy50_s10k", "dy50")]
    figs.append(Figure("fig12_sample", "Fig. 12: DyCache-50 with 5K / 10K-request samples over 1K",
                       ["workload", "5K / 1K", "10K / 1K"],
                       [[w] + [f(w) for f in c12] for w in papers] + group_rows(label, groups_paper, c12),
                       ylabel="IPC / IPC with 1K samples", hline=1.0,
                       paper="longer samples help some apps and hurt others (no average)."))
    # Granularity retention
    ck = [norm("dy50keep", "dy50"), norm("dy50keep"), miss("dy50"), miss("dy50keep")]
    moved = [w for w in wls if ck[0](w) is not None and abs(ck[0](w) - 1) >= 0.0005]  # shows in 3 decimals
    figs.append(Figure("keep_large", "Granularity retention: DyCache-50 with keep_large_pieces, IPC over DyCache-50",
                       ["workload", "IPC keep / DyCache-50", "IPC keep / baseline", "miss DyCache-50", "miss keep"],
                       [[w] + [f(w) for f in ck] for w in wls] +
                       [r + [None, None] for r in group_rows(lambda g, ws: f"geomean {g} ({len(ws)})",
                                                             groups_paper + groups_ours, ck[:2])],
                       ylabel="IPC keep / IPC DyCache-50", hline=1.0, series=["IPC keep / DyCache-50"],
                       paper="proposed for BFS, CFD and SC (Section V.A), not evaluated.",
                       note=f"IPC keep / DyCache-50 differs from 1.000 on {len(moved)} of the {len(wls)} workloads" +
                            (f" ({', '.join(moved)})" if moved else "") + "; elsewhere IPC keep / baseline (in the "
                            "table, not plotted) equals Fig. 8's DyCache-50 column."))

    comps = []
    for g, ws in groups_paper:
        key = g.split()[1]
        for v, p in zip(MAIN, PAPER_GEOMEAN[key]):
            comps.append(Comparison(f"{v.label} IPC geomean, {g} ({len(ws)})", geomean([norm(v.name)(w) for w in ws]),
                                    paper=p, variants=("base", v.name)))
    for g, ws in groups_ours[:2]:
        comps.append(Comparison(f"DyCache-50 IPC geomean, {g} ({len(ws)}, our tags)",
                                geomean([norm("dy50")(w) for w in ws]),
                                paper=PAPER_GEOMEAN[g.split()[1]][3], paper_text="paper's own grouping",
                                variants=("base", "dy50")))
    changes = [change(w) for w in papers]
    in_band = sum(1 for c in changes if c is not None and -0.60 <= c <= -0.10)
    comps.append(Comparison("DyCache-50 miss-rate change, median of the paper's apps", median(changes),
                            paper=-0.35, paper_text="down 10-60 % on most apps; middle", ref=0.0, unit="%",
                            note=f"{in_band} of {len(papers)} apps down 10-60 %", variants=("base", "dy50")))
    bfs = res.normalised(ipc, "bfs", "e32", "dy50")
    comps.append(Comparison("BFS: Elastic-32 IPC over DyCache-50", bfs, paper=1.20, variants=("e32", "dy50")))
    g16 = geomean([norm("dy50")(w) for w in papers])
    g48 = geomean([norm("dy50_48", "base48")(w) for w in papers])
    comps.append(Comparison("DyCache-50 speedup at 48 KB over its speedup at 16 KB (paper all)",
                            g48 / g16 if g48 and g16 else None, paper_sign=-1, paper_text="lower (Fig. 10)",
                            variants=("base", "dy50", "base48", "dy50_48")))
    comps.append(Comparison("baseline IPC 48 KB / 16 KB, geomean (paper all)",
                            geomean([norm("base48")(w) for w in papers]), paper=1.24, paper_text="+24 % on average",
                            variants=("base", "base48")))
    comps.append(Comparison("baseline miss-rate change 16 -> 48 KB, mean (paper all)",
                            (lambda a, b: b / a - 1 if a and b else None)(
                                mean([miss("base")(w) for w in papers]), mean([miss("base48")(w) for w in papers])),
                            paper_sign=-1, paper_text="drops (Fig. 11)", ref=0.0, unit="%",
                            variants=("base", "base48")))
    for v in SAMPLES:
        comps.append(Comparison(f"{v.label} over 1K samples, geomean (paper all)",
                                geomean([norm(v.name, "dy50")(w) for w in papers]),
                                paper_text="no average; helps some, hurts others", variants=("dy50", v.name)))
    comps.append(Comparison("DyCache-50 keep-large over DyCache-50, geomean of BFS, CFD, SC",
                            geomean([norm("dy50keep", "dy50")(w) for w in ctx.available(["bfs", "cfd", "streamcluster"])]),
                            paper_sign=1, paper_text="proposed fix for their losses, not evaluated",
                            variants=("dy50", "dy50keep")))
    return figs, comps
