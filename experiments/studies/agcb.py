"""AGCB, adaptive GPU cache bypassing (UW-Madison course report, 2021): hit rate and IPC over the
baseline with the predictor's counters reset to 15 (the report's final choice: bypass until
reuse is seen) and to 0 (its first try: cache until evictions are seen).

The report's evaluation GPU is the QV100 (its Table 3), so qv100 is this study's preset; gtx480
(the GPU whose GPGPU-Sim results it tried to reproduce first) is run too, as the project's
default GPU. L2 verification (the bypass bit) is not a configuration option: the L2 always
verifies an AGCB bypass prediction (sim_cpp/mem/l2_bank.cpp, golden::l2_bypass_override), so
"without L2 verification" cannot be run; the tables show how often the verification overrode a
bypass prediction instead. gpusim reports no per-PC counter values, so the counters over time
are future work.
"""
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
VARIANTS = [BASE, R15, R0]


def points(ctx):
    return grid(PRESETS, ctx.workloads(), VARIANTS)


def preamble(ctx):
    return ("**L2 verification cannot be switched off**: the policy has no such field and the L2 verifies every AGCB "
            "bypass prediction (`sim_cpp/mem/l2_bank.cpp`), so the with/without-verification pair of the brief is "
            "not run; the *overridden* column gives the share of bypass predictions the L2 bit turned into fills. "
            "**Predictor counters over time** are not reported by gpusim (no per-PC counter statistics): future "
            "work. Presets: qv100 (the report's evaluation GPU), gtx480 (the project's default).")


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

        ch = [hr("base"), hr("r15"), hr("r0")]
        rows = [[w] + [c(w) for c in ch] for w in ws]
        rows += [[f"mean {g} ({len(gw)})"] + [mean([c(w) for w in gw]) for c in ch] for g, gw in groups]
        figs.append(Figure(f"hit_rate_{preset}", f"L1 hit rate, baseline and AGCB ({preset})",
                           ["workload", "baseline", "AGCB reset 15", "AGCB reset 0"], rows, ylabel="L1 hit rate",
                           paper="hit ratio of the baseline on Rodinia 3.1 (Fig. 14); AGCB's was not obtained."))
        ci = [norm("r15"), norm("r0"), byp("r15"), over("r15"), byp("r0"), over("r0")]
        names = ["IPC reset 15", "IPC reset 0", "bypassed 15", "overridden 15", "bypassed 0", "overridden 0"]
        rows = [[w] + [c(w) for c in ci] for w in ws]
        rows += [[f"geomean/mean {g} ({len(gw)})"] + [geomean([c(w) for w in gw]) for c in ci[:2]] +
                 [mean([c(w) for w in gw]) for c in ci[2:]] for g, gw in groups]
        figs.append(Figure(f"ipc_{preset}", f"AGCB IPC over the baseline, bypass and L2-override shares ({preset})",
                           ["workload"] + names, rows, ylabel="IPC / baseline IPC", hline=1.0,
                           series=names[:2],
                           paper="no speedup obtained (Section 7); with counters reset to 0 nothing changed."))
        tag = "" if preset == PRESET else f" ({preset})"
        comps += [Comparison(f"AGCB reset 15 IPC geomean, all ({len(ws)}){tag}", geomean([norm("r15")(w) for w in ws]),
                             paper=1.0, paper_text="no speedup; a working one is our goal", variants=("base", "r15")),
                  Comparison(f"AGCB reset 0 IPC geomean, all ({len(ws)}){tag}", geomean([norm("r0")(w) for w in ws]),
                             paper=1.0, paper_text="unchanged from the baseline", variants=("base", "r0")),
                  Comparison(f"AGCB reset 15 hit-rate change, mean{tag}",
                             mean([(lambda a, b: b - a if a is not None and b is not None else None)(hr("base")(w), hr("r15")(w))
                                   for w in ws]), paper_sign=1, paper_text="the design's aim: higher (not measured there)",
                             ref=0.0, unit="pp", variants=("base", "r15")),
                  Comparison(f"AGCB reset 15: bypass predictions the L2 overrode, mean{tag}",
                             mean([over("r15")(w) for w in ws]), paper_text="not measured", ref=0.0, unit="%",
                             variants=("r15",))]
    return figs, comps
