"""AGCB, adaptive GPU cache bypassing (UW-Madison course report, 2021): hit rate and IPC over the
baseline with the predictor's counters reset to 15 (the report's final choice: bypass until
reuse is seen) and to 0 (its first try: cache until evictions are seen), each with and without
the L2 bypass-bit verification (policy.agcb.l2_verify), and the predictor's counters over time.

The report's evaluation GPU is the QV100 (its Table 3), so qv100 is this study's preset; gtx480
(the GPU whose GPGPU-Sim results it tried to reproduce first) is run too, as the project's
default GPU. The counters over time come from `gpusim --agcb-timeline` (the golden L1's table,
sampled every 5000 cycles in every SM; the RTL's table is not visible through the L1 port), so
those points run with the golden L1 and must give the same statistics as the reset-15 points.
"""
import csv
import os

from core import Comparison, Figure, Variant, geomean, grid, hit_rate, ipc, mean

NAME = "agcb"
TITLE = "AGCB: PC-indexed bypass prediction with L2 verification"
PAPER = "AGCB course report, UW-Madison 2021"
SEED = "adaptive-gpu-cache-bypassing-2021.txt"
PRESET = "qv100"
PRESETS = ["qv100", "gtx480"]

BASE = Variant("base", "baseline", "baseline")
R15 = Variant("r15", "AGCB reset 15", "agcb", note="counters start at 15: bypass until reuse is seen")
R0 = Variant("r0", "AGCB reset 0", "agcb", over={"agcb": {"reset_value": 0}},
             note="counters start at 0: cache until evictions are seen")
R15NV = Variant("r15nv", "AGCB reset 15, no L2 check", "agcb", over={"agcb": {"l2_verify": False}},
                note="the L2 never overrides a bypass prediction (the course project's predictor)")
R0NV = Variant("r0nv", "AGCB reset 0, no L2 check", "agcb", over={"agcb": {"reset_value": 0, "l2_verify": False}},
               note="counters start at 0, no L2 override")
EVERY = 5000
R15T = Variant("r15t", "AGCB reset 15 (timeline)", "agcb", l1="golden",
               args=("--agcb-timeline", "{stem}.agcb.csv", "--agcb-every", str(EVERY)),
               note=f"reset 15 with the predictor's table sampled every {EVERY} cycles (golden L1)")
VARIANTS = [BASE, R15, R0, R15NV, R0NV]
TIMELINE_FRACTIONS = [i / 20 for i in range(21)]  # the timeline figure's x: fraction of the run


def points(ctx):
    return grid(PRESETS, ctx.workloads(), VARIANTS) + grid([PRESET], ctx.workloads(), [R15T])


def preamble(ctx):
    return ("Four AGCB variants: counters reset to 15 or 0, each with the L2 bypass-bit verification (SPEC 5) and "
            "without it (`agcb.l2_verify: false`: the L2 never turns a bypass prediction into a fill). "
            "The *overridden* column gives the share of bypass predictions the L2 bit turned into fills. "
            f"The counters over time: the reset-15 configuration on {PRESET} again with `gpusim --agcb-timeline` "
            f"(golden L1, every {EVERY} cycles), averaged over the table entries the run used and over the SMs. "
            "Presets: qv100 (the report's evaluation GPU), gtx480 (the project's default).")


def read_timeline(stats_path):
    """{cycle: (mean counter, fraction of (SM, entry) pairs predicting bypass)} over the entries
    that moved, from the CSV beside a timeline point's statistics; None if there is none."""
    path = stats_path[:-len(".json")] + ".agcb.csv"
    if not os.path.exists(path):
        return None
    acc = {}  # cycle -> [sum of the entries' means, entries, SMs predicting bypass summed over entries]
    with open(path) as f:
        for r in csv.DictReader(f):
            a = acc.setdefault(int(r["cycle"]), [0.0, 0, 0])
            a[0] += float(r["mean"])
            a[1] += 1
            a[2] += int(r["sms_bypassing"])
    return {c: (a[0] / a[1], a[2]) for c, a in sorted(acc.items())}


def timeline_figures(ctx, res, ws):
    """The counters over time: mean counter of the used entries per workload, at fractions of the
    run, and a table of where each workload's counters end."""
    lines, table = {}, []
    for w in ws:
        s, path = res.get(w, "r15t"), res.stats_path(w, "r15t")
        tl = read_timeline(path) if s and path else None
        if tl is None:
            continue
        sms = len(s["sms"])
        cycles = s["result"]["cycles"]
        same = res.get(w, "r15")
        agree = same is not None and same["result"] == s["result"] and same["l1"] == s["l1"]
        if not tl:
            table.append([w, 0, None, None, None, agree])
            continue
        with open(path[:-len(".json")] + ".agcb.csv") as f:
            entries = len({r["entry"] for r in csv.DictReader(f)})
        means = list(tl.values())
        lines[w] = [next((m for c, (m, _) in reversed(list(tl.items())) if c <= fr * cycles), None)
                    for fr in TIMELINE_FRACTIONS]
        last_mean, last_byp = means[-1]
        table.append([w, entries, min(m for m, _ in means), last_mean, last_byp / (entries * sms), agree])
    figs = [Figure("counters_table", f"AGCB reset 15: the predictor's counters ({PRESET}, golden L1, "
                   f"every {EVERY} cycles)",
                   ["workload", "entries used", "lowest mean counter", "mean counter at the end",
                    "bypass-predicting at the end", "same statistics as the reset-15 point"], table, plot=False,
                   paper="the report's predictor never left 'bypass' (no speedup); SPEC 5 asks to show counters falling",
                   note="Means over the table entries the workload used (those that ever left 15) and over the SMs; "
                        "'bypass-predicting' is the share of (SM, entry) pairs at or above the threshold 8.")]
    moved = [w for w in lines if any(m is not None and m < 14.5 for m in lines[w])]
    if moved:
        rows = [[fr] + [lines[w][i] for w in moved] for i, fr in enumerate(TIMELINE_FRACTIONS)]
        figs.append(Figure("counters_over_time", f"AGCB reset 15: mean counter of the used entries over the run "
                           f"({PRESET})", ["fraction of the run"] + moved, rows, kind="lines",
                           ylabel="mean 4-bit counter (bypass at >= 8)", hline=8.0, in_results=False,
                           note="Workloads whose used entries' mean fell below 14.5 at some sample."))
    return figs


def analyse(ctx, res):
    ws = ctx.workloads()
    figs, comps = [], []
    for preset in PRESETS:
        def l1(w, v, field):
            s = res.get(w, v, preset)
            return s["l1"][field] if s else None

        hr = lambda v: (lambda w: res.metric(hit_rate, w, v, preset))
        norm = lambda v: (lambda w: res.normalised(ipc, w, v, "base", preset))
        byp = lambda v: (lambda w: (lambda a, b: b / a if a else None)(l1(w, v, "accesses"), l1(w, v, "bypasses")))
        def l2_overrides(w, v):  # the L2's count: l1.agcb_overrides counts a fill again each time it is retried
            s = res.get(w, v, preset)
            return s["memory"]["l2_bypass_overrides"] if s else None
        over = lambda v: (lambda w: (lambda b, o: o / b if b else None)(l1(w, v, "bypasses"), l2_overrides(w, v)))
        groups = [("regular", [w for w in ws if ctx.pattern(w) == "regular"]),
                  ("irregular", [w for w in ws if ctx.pattern(w) == "irregular"]), ("all", ws)]

        agcbs = [R15, R0, R15NV, R0NV]
        ch = [hr("base")] + [hr(v.name) for v in agcbs]
        rows = [[w] + [c(w) for c in ch] for w in ws]
        rows += [[f"mean {g} ({len(gw)})"] + [mean([c(w) for w in gw]) for c in ch] for g, gw in groups]
        def all_zero(v):  # such a variant has no bars: in the table, not plotted
            hs = [h for h in map(hr(v.name), ws) if h is not None]
            return bool(hs) and all(h == 0 for h in hs)
        zero = [v.label for v in agcbs if all_zero(v)]
        figs.append(Figure(f"hit_rate_{preset}", f"L1 hit rate, baseline and AGCB ({preset}" +
                           (f"; {' and '.join(zero)}: 0 on every workload, not plotted)" if zero else ")"),
                           ["workload", "baseline"] + [v.label for v in agcbs], rows, ylabel="L1 hit rate",
                           series=["baseline"] + [v.label for v in agcbs if v.label not in zero],
                           paper="hit ratio of the baseline on Rodinia 3.1 (Fig. 14); AGCB's was not obtained."))
        ci = [norm("r15"), norm("r0"), norm("r15nv"), norm("r0nv"), byp("r15"), over("r15"), byp("r0"), over("r0")]
        names = ["IPC reset 15", "IPC reset 0", "IPC reset 15 no check", "IPC reset 0 no check", "bypassed 15",
                 "overridden 15", "bypassed 0", "overridden 0"]
        rows = [[w] + [c(w) for c in ci] for w in ws]
        # IPC ratios as geomeans, shares as plain means: one summary row each (the plot has the geomeans)
        rows += [[f"geomean {g} ({len(gw)})"] + [geomean([c(w) for w in gw]) for c in ci[:4]] + [None] * 4
                 for g, gw in groups]
        rows += [[f"mean {g} ({len(gw)})"] + [None] * 4 + [mean([c(w) for w in gw]) for c in ci[4:]]
                 for g, gw in groups]
        figs.append(Figure(f"ipc_{preset}", f"AGCB IPC over the baseline ({preset}; the table adds bypass and "
                           "L2-override shares)", ["workload"] + names, rows, ylabel="IPC / baseline IPC", hline=1.0,
                           series=names[:4],
                           paper="no speedup obtained (Section 7); with counters reset to 0 nothing changed."))
        tag = "" if preset == PRESET else f" ({preset})"
        comps += [Comparison(f"AGCB reset 15 IPC geomean, all ({len(ws)}){tag}", geomean([norm("r15")(w) for w in ws]),
                             paper=1.0, paper_text="no speedup; a working one is our goal", variants=("base", "r15")),
                  Comparison(f"AGCB reset 0 IPC geomean, all ({len(ws)}){tag}", geomean([norm("r0")(w) for w in ws]),
                             paper=1.0, paper_text="unchanged from the baseline", variants=("base", "r0")),
                  Comparison(f"AGCB reset 15 without L2 verification, IPC geomean, all ({len(ws)}){tag}",
                             geomean([norm("r15nv")(w) for w in ws]), paper=1.0,
                             paper_text="no speedup (the report's predictor)", variants=("base", "r15nv")),
                  Comparison(f"AGCB reset 15 hit-rate change, mean{tag}",
                             mean([(lambda a, b: b - a if a is not None and b is not None else None)(hr("base")(w), hr("r15")(w))
                                   for w in ws]), paper_sign=1, paper_text="the design's aim: higher (not measured there)",
                             ref=0.0, unit="pp", variants=("base", "r15")),
                  Comparison(f"AGCB reset 15: bypass predictions the L2 overrode, mean{tag}",
                             mean([over("r15")(w) for w in ws]), paper_text="not measured", ref=0.0, unit="%",
                             variants=("r15",))]
    figs += timeline_figures(ctx, res, ws)
    return figs, comps
