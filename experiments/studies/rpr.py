"""RPR, reuse-prediction-based replacement (dissertation ch. 6, SPEC 9): Fig. 6.3 and 6.4 on gtx480.

The dissertation runs RPR on top of the best static CTA throttling ("CTA-opt") and normalises
to the baseline with the maximum number of CTAs, on its eight key benchmarks (II, SS, KMN, CoMD,
BFS, SSSP, SCLUSTER, SM; BFS and SSSP are the irregular two). Ours: warp throttling to the
workload's warp-opt (the best of throttling to LIMITS warps per scheduler and warp-max, found by
a first stage as in the PCAL study) stands for CTA-opt; on it, LRU (throttling alone), AgeLRU,
RPR with the counter score, RPR with the reuse-distance score (the paper's RPR), and RPR with the
age score (which must equal AgeLRU: a check of the implementation). The same RPR/AgeLRU
comparison also at warp-max (no throttling).

RPR has no RTL (SPEC 9: golden model and simulator), so every point of this study runs with
the golden L1.
"""
from core import (CACHE_SENSITIVE as SENSITIVE, Comparison, Figure, Point, Variant, best_warp_limit, geomean, ipc,
                  points_at_warp_opt, miss_rate, throttle_variants)

NAME = "rpr"
TITLE = "RPR: reuse-prediction-based replacement against AgeLRU (Fig. 6.3, 6.4)"
PAPER = "Dissertation (PCAL, AgeLRU, RPR), 2014, ch. 6"
SEED = "pcal-agelru-rpr-dissertation-2014.txt"
PRESET = "gtx480"

KEY = ["invindex", "simscore", "kmeans", "comd", "bfs", "sssp", "streamcluster", "strmatch"]
IRREGULAR = ["bfs", "sssp"]          # the dissertation's irregular two (LonestarGPU)
WARPS = 24                           # gtx480: 48 warps per SM, 2 schedulers
LIMITS = [1, 2, 4, 8, 12, 16]        # warp-opt candidates per scheduler

G = "golden"
MAX = Variant("max", "baseline (warp-max, LRU)", "baseline", l1=G)
THROTTLE = {n: Variant(v.name, v.label, v.policy, args=v.args, l1=G) for n, v in throttle_variants(LIMITS).items()}
# (name, label, policy preset, policy fields changed)
POLICIES = [("age", "AgeLRU", "agelru", {}),
            ("rprc", "RPR counter", "rpr-counter", {}),
            ("rprd", "RPR reuse distance", "rpr", {}),
            ("rpra", "RPR age score", "rpr", {"rpr": {"score": "age"}})]


def at_max():
    return [Variant(f"{n}_max", f"{label} (warp-max)", policy, over=over, l1=G) for n, label, policy, over in POLICIES]


def at_opt(opt):
    return [Variant(n, label, policy, over=over, args=("--warp-limit", str(opt)), l1=G)
            for n, label, policy, over in POLICIES]


def key(ctx):
    return ctx.available(KEY)


def points(ctx):
    return [Point(PRESET, w, v) for w in key(ctx) for v in [MAX] + list(THROTTLE.values()) + at_max()]


def warp_opt(res, w):
    return best_warp_limit(res, w, WARPS, MAX.name, THROTTLE)


def more_points(ctx, res):
    return points_at_warp_opt(PRESET, key(ctx), res, warp_opt, at_opt)


def preamble(ctx):
    lack = [SENSITIVE[w] for w in ctx.missing(KEY)]
    return (f"The dissertation's eight key benchmarks ({len(key(ctx))} here" +
            (f"; not here: {', '.join(lack)}" if lack else "") + "); irregular: BFS, SSSP. Warp throttling to "
            f"the workload's warp-opt (the best of {LIMITS} warps per scheduler and warp-max, {WARPS}) stands for the "
            "paper's CTA-opt; the replacement policies run on top of it. All points use the golden L1 (RPR has "
            "no RTL). Our RPR's decisions (signature, no-prediction values, per-SM table) are in "
            "docs/l1d-microarchitecture.md.")


def analyse(ctx, res):
    ws = key(ctx)
    label = lambda w: SENSITIVE.get(w, w)
    opts = {w: warp_opt(res, w) for w in ws}
    thr = lambda w: None if opts[w] is None else ("max" if opts[w] == WARPS else f"w{opts[w]}")

    def stat(f, variant_of):  # f of the point variant_of(w) names
        return lambda w: (lambda v: res.metric(f, w, v) if v else None)(variant_of(w))

    def over(a, b):
        return lambda w: (lambda x, y: x / y if x is not None and y else None)(a(w), b(w))

    base_ipc, base_mr = stat(ipc, lambda w: "max"), stat(miss_rate, lambda w: "max")
    cols = [("throttling (warp-opt)", thr)] + [(label_, (lambda n: lambda w: n)(n)) for n, label_, _, _ in POLICIES]
    groups = [("regular", [w for w in ws if w not in IRREGULAR]), ("irregular", [w for w in ws if w in IRREGULAR]),
              ("all", ws)]

    def table(name, title, f, base, ylabel, paper, summary):
        series = [(c, over(stat(f, v), base)) for c, v in cols]
        rows = [[label(w)] + [s(w) for _, s in series] for w in ws]
        rows += [[f"{summary} {g} ({len(gw)})"] + [geomean([s(w) for w in gw]) for _, s in series]
                 for g, gw in groups if gw]
        return Figure(name, title, ["workload"] + [c for c, _ in cols], rows, ylabel=ylabel, hline=1.0, paper=paper)

    figs = [
        Figure("warp_opt", "warp-opt per workload (the best throttling limit)", ["workload", "warp-opt"],
               [[label(w), opts[w]] for w in ws], plot=False, fmt="{:.0f}"),
        table("fig6_3_miss_rate", "Fig. 6.3: L1 miss rate over the baseline (warp-max, LRU), policies at warp-opt",
              miss_rate, base_mr, "L1 miss rate / baseline's",
              "throttling -12 % on average; RPR reuse distance lowers II, KMN, SS by 8, 17, 3 %; all raise CoMD, BFS, "
              "SSSP.", "geomean"),
        table("fig6_4_speedup", "Fig. 6.4: IPC over the baseline (warp-max, LRU), policies at warp-opt", ipc,
              base_ipc, "IPC / baseline IPC",
              "throttling +47 %; RPR reuse distance +6 % over throttling, +5 % over AgeLRU on the regular six, "
              "+3.2 % over AgeLRU on all eight; BFS -5 %, SSSP -7 %.", "geomean"),
    ]
    rd_over_age_max = over(stat(ipc, lambda w: "rprd_max"), stat(ipc, lambda w: "age_max"))
    rows = [[label(w)] + [over(stat(ipc, lambda w, n=n: f"{n}_max"), base_ipc)(w) for n, *_ in POLICIES] +
            [rd_over_age_max(w)] for w in ws]
    rows += [[f"geomean {g} ({len(gw)})"] + [geomean([r[i] for r, w in zip(rows, ws) if w in gw])
                                             for i in range(1, len(POLICIES) + 2)] for g, gw in groups if gw]
    figs.append(Figure("warp_max", "Without throttling: IPC over the baseline at warp-max (the table adds RPR reuse "
                       "distance over AgeLRU)", ["workload"] + [p[1] for p in POLICIES] + ["RPR RD / AgeLRU"], rows,
                       ylabel="IPC / baseline IPC", hline=1.0, series=[p[1] for p in POLICIES],
                       paper="(not in the dissertation: RPR is evaluated on CTA-opt)",
                       note="RPR RD / AgeLRU (RPR reuse distance's IPC over AgeLRU's, both at warp-max) has another "
                            "denominator than the other columns: in the table, not plotted."))

    rd_age = over(stat(ipc, lambda w: "rprd"), stat(ipc, lambda w: "age"))
    rd_thr = over(stat(ipc, lambda w: "rprd"), stat(ipc, thr))
    mr_change = lambda w: (lambda a, b: a - b if a is not None and b is not None else None)(
        stat(miss_rate, lambda w: "rprd")(w), stat(miss_rate, thr)(w))
    same = lambda w: (lambda a, b: a is not None and b is not None and a["result"] == b["result"])(
        res.get(w, "rpra"), res.get(w, "age"))
    reg = groups[0][1]
    comps = [Comparison(f"RPR reuse distance over AgeLRU, IPC geomean, key set ({len(ws)})",
                        geomean([rd_age(w) for w in ws]), paper=1.032, variants=("age", "rprd")),
             Comparison(f"RPR reuse distance over AgeLRU, IPC geomean, regular ({len(reg)})",
                        geomean([rd_age(w) for w in reg]), paper=1.05, variants=("age", "rprd")),
             Comparison(f"RPR reuse distance over throttling (CTA-opt), IPC geomean, key set ({len(ws)})",
                        geomean([rd_thr(w) for w in ws]), paper=1.06, variants=("rprd",))]
    for w, paper in (("bfs", 0.95), ("sssp", 0.93)):
        if w in ws:
            comps.append(Comparison(f"{label(w)}: RPR reuse distance over throttling", rd_thr(w), paper=paper,
                                    variants=("rprd",)))
    if "kmeans" in ws:
        comps.append(Comparison("KMN L1 miss rate change, RPR reuse distance - throttling", mr_change("kmeans"),
                                paper=-0.17, ref=0.0, unit="pp", variants=("rprd",),
                                note="the paper's 17 % may be relative; ours is the change of the rate"))
    comps.append(Comparison("RPR with the age score gives AgeLRU's statistics (workloads where identical)",
                            sum(same(w) for w in ws) / len(ws) if ws else None, paper=1.0, ref=0.0, unit="%",
                            paper_text="RPR with Score = 256 - AGE works as AgeLRU (Sec. 6.2.4)",
                            variants=("age", "rpra")))
    return figs, comps
