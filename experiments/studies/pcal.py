"""PCAL (dissertation ch. 4, SPEC 7): Fig. 4.12, 4.13, 4.22-4.25, 4.28 on the gtx480 preset.

Two stages, as the dissertation searches: first warp throttling over a range of warp limits per
scheduler (warp-max = the baseline, all 24), which gives each workload its warp-opt (the limit
with the best IPC); then, at that workload's warp-opt, static PCAL over an EBTNum sweep (> 0:
extra non-token warps; < 0: fewer token holders, same total; 0 would be pure throttling), with
and without BTO, static PCAL with opportunistic caching, and dynamic PCAL (which starts from
throttling at warp-opt and chooses EBTNum itself), with and without BTO.
"""
from core import (CACHE_SENSITIVE as SENSITIVE, Comparison, Figure, Point, Variant, best_warp_limit, geomean, ipc,
                  points_at_warp_opt, throttle_variants)

NAME = "pcal"
TITLE = "PCAL: warp throttling, static and dynamic PCAL, BTO, opportunistic caching (Fig. 4.12-4.28)"
PAPER = "Dissertation (PCAL, AgeLRU, RPR), 2014, ch. 4"
SEED = "pcal-agelru-rpr-dissertation-2014.txt"
PRESET = "gtx480"

WARPS = 24                             # gtx480: 48 warps per SM, 2 schedulers
LIMITS = [1, 2, 3, 4, 6, 8, 12, 16]    # warp-opt candidates per scheduler (warp-max: the baseline)
EBTS = [-4, -2, -1, 1, 2, 4, 8]        # static PCAL's EBTNum sweep, where legal at warp-opt

MAX = Variant("max", "warp-max", "baseline", note="all 24 warps per scheduler issue")
THROTTLE = throttle_variants(LIMITS)


def sensitive(ctx):
    return ctx.available(list(SENSITIVE))


def points(ctx):
    return [Point(PRESET, w, v) for w in sensitive(ctx) for v in [MAX] + list(THROTTLE.values())]


def warp_opt(res, w):
    return best_warp_limit(res, w, WARPS, MAX.name, THROTTLE)


def legal_ebts(opt):
    return [e for e in EBTS if 1 <= opt + e <= WARPS]  # token holders >= 1, warps <= the scheduler's


def vname(prefix, e):  # a variant name gpusim accepts as a policy name: s_p2 (+2), s_m1 (-1)
    return f"{prefix}_{'p' if e > 0 else 'm'}{abs(e)}"


def pcal_variant(name, label, policy, opt, ebt=None, over=None, dynamic=False):
    args = ("--warp-limit", str(opt)) + (("--ebt", str(ebt)) if ebt is not None else ()) + \
           (("--controller", "dynamic-pcal") if dynamic else ())
    return Variant(name, label, policy, over=over or {}, args=args)


def stage2(opt):
    vs = []
    for e in legal_ebts(opt):
        vs.append(pcal_variant(vname("s", e), f"static PCAL {e:+d}", "pcal", opt, e))
        vs.append(pcal_variant(vname("b", e), f"static PCAL-BTO {e:+d}", "pcal-bto", opt, e))
        vs.append(pcal_variant(vname("o", e), f"static PCAL opportunistic {e:+d}", "pcal", opt, e,
                               over={"pcal": {"opportunistic": True}}))
    vs.append(pcal_variant("dyn", "dynamic PCAL", "pcal", opt, dynamic=True))
    vs.append(pcal_variant("dynb", "dynamic PCAL-BTO", "pcal-bto", opt, dynamic=True))
    return vs


def more_points(ctx, res):
    return points_at_warp_opt(PRESET, sensitive(ctx), res, warp_opt, stage2)


def preamble(ctx):
    return (f"The cache-sensitive set (dissertation Table 3.2, {len(sensitive(ctx))} workloads here; the PCAL "
            f"figures use 12). Throttling limits {LIMITS} warps per scheduler and warp-max ({WARPS}); warp-opt is "
            f"the best of them per workload. Static PCAL runs at warp-opt with EBTNum in {EBTS} where legal "
            "(1 <= warp-opt + EBTNum <= 24); \"optimal static PCAL\" is the best EBTNum per workload, as the "
            "dissertation selects it (EBTNum 0, throttling at warp-opt, included). Speedups are IPC ratios, averaged as geomeans.")


def analyse(ctx, res):
    ws = sensitive(ctx)
    label = lambda w: SENSITIVE[w]
    ipc_of = lambda w, v: (lambda s: ipc(s) if s else None)(res.get(w, v))
    opts = {w: warp_opt(res, w) for w in ws}

    throttle = lambda w: ipc_of(w, "max" if opts[w] == WARPS else f"w{opts[w]}") if opts[w] else None

    def best(w, prefix):  # the best IPC over the EBTNum sweep of one kind and its EBTNum; EBTNum 0
        # is throttling at warp-opt, a candidate of the sweep as in the dissertation (Fig. 4.13)
        runs = [(ipc_of(w, vname(prefix, e)), e) for e in legal_ebts(opts[w])] if opts[w] else []
        runs = [r for r in runs + [(throttle(w), 0)] if r[0] is not None]
        return max(runs) if runs else (None, None)

    def over(base):  # IPC of f(w) over IPC of variant base
        return lambda f: (lambda w: (lambda a, b: a / b if a and b else None)(f(w), ipc_of(w, base)))

    static = lambda w: best(w, "s")[0]
    static_bto = lambda w: best(w, "b")[0]
    opportunistic = lambda w: best(w, "o")[0]
    dyn = lambda w: ipc_of(w, "dyn")
    dyn_bto = lambda w: ipc_of(w, "dynb")
    vs_max = over("max")

    def fig(name, title, cols, paper, base="warp-max", summary=None, note=""):
        rows = [[label(w)] + [c(w) for _, c in cols] for w in ws]
        rows.append([summary or f"geomean ({len(ws)})"] + [geomean([c(w) for w in ws]) for _, c in cols])
        return Figure(name, title, ["workload"] + [n for n, _ in cols], rows, ylabel=f"IPC / IPC at {base}",
                      hline=1.0, paper=paper, note=note)

    figs = [Figure("warp_opt", "warp-opt per workload (the best throttling limit) and the best EBTNum there",
                   ["workload", "warp-opt", "throttle / warp-max", "best EBTNum", "best EBTNum with BTO"],
                   [[label(w), opts[w], vs_max(throttle)(w), best(w, "s")[1], best(w, "b")[1]] for w in ws],
                   plot=False, fmt="{:.2f}", paper="(the dissertation gives warp-opt per benchmark in Fig. 4.13)")]
    figs.append(fig("fig4_12_static_vs_throttling", "Fig. 4.12: optimal static PCAL and optimal warp throttling, "
                    "IPC over warp-max", [("throttling", vs_max(throttle)), ("static PCAL", vs_max(static))],
                    "static PCAL above throttling on most benchmarks."))
    ebt_cols = lambda prefix: [(f"{e:+d}", (lambda e: lambda w: (lambda a, b: a / b if a and b else None)(
        ipc_of(w, vname(prefix, e)), throttle(w)))(e)) for e in EBTS]

    def ebt_fig(name, title, prefix, paper):  # each column's geomean is over the workloads where it is legal
        cols = ebt_cols(prefix)
        counts = [sum(1 for w in ws if (c(w) or 0) > 0) for _, c in cols]
        note = ("The geomean row averages each column over the workloads with a value there (those where that "
                "EBTNum is legal at their warp-opt), so the columns average different sets: EBTNum " +
                ", ".join(f"{e} over {k}" for (e, _), k in zip(cols, counts)) + f" of the {len(ws)} workloads.")
        span = f"{min(counts)}-{max(counts)}" if min(counts) != max(counts) else f"{min(counts)}"
        return fig(name, title + " (EBTNum 0 = throttling; empty: not legal at that warp-opt)", cols, paper,
                   base="warp-opt", summary=f"geomean of the legal points ({span} of {len(ws)})", note=note)
    figs.append(ebt_fig("fig4_13_ebt_sweep", "Fig. 4.13: static PCAL as EBTNum varies, IPC over throttling at warp-opt",
                        "s", "the best EBTNum differs per benchmark; some only gain with EBTNum < 0."))
    figs.append(fig("fig4_22_dynamic", "Fig. 4.22: optimal throttling, optimal static PCAL, dynamic PCAL, IPC over "
                    "warp-max", [("throttling", vs_max(throttle)), ("static PCAL", vs_max(static)),
                                 ("dynamic PCAL", vs_max(dyn))],
                    "dynamic PCAL reaches most of the best static PCAL's gain."))
    figs.append(fig("fig4_23_bto", "Fig. 4.23: optimal throttling, static PCAL, static PCAL-BTO, IPC over warp-max",
                    [("throttling", vs_max(throttle)), ("static PCAL", vs_max(static)),
                     ("static PCAL-BTO", vs_max(static_bto))], "+41 %, +56 %, +67 % on average over 12 benchmarks."))
    figs.append(ebt_fig("fig4_24_ebt_sweep_bto", "Fig. 4.24: static PCAL-BTO as EBTNum varies, IPC over throttling "
                        "at warp-opt", "b", "BTO lets more bypassing warps run (SCLUSTER 3.45x -> 3.67x)."))
    figs.append(fig("fig4_25_dynamic_bto", "Fig. 4.25: with BTO: optimal throttling, static PCAL-BTO, dynamic "
                    "PCAL-BTO, IPC over warp-max", [("throttling", vs_max(throttle)),
                                                    ("static PCAL-BTO", vs_max(static_bto)),
                                                    ("dynamic PCAL-BTO", vs_max(dyn_bto))],
                    "dynamic PCAL-BTO close to the best static PCAL-BTO."))
    figs.append(fig("opportunistic", "Opportunistic caching: optimal static PCAL without and with it, IPC over "
                    "warp-max", [("static PCAL", vs_max(static)), ("opportunistic", vs_max(opportunistic))],
                    "(section 4.6; no figure of its own)"))
    figs.append(fig("fig4_28_overall", "Fig. 4.28: overall, IPC over warp-max",
                    [("throttling", vs_max(throttle)), ("static PCAL", vs_max(static)),
                     ("static PCAL-BTO", vs_max(static_bto)), ("dynamic PCAL", vs_max(dyn)),
                     ("dynamic PCAL-BTO", vs_max(dyn_bto))],
                    "56 % over warp-max and 16 % over throttling overall."))

    g = lambda f: geomean([f(w) for w in ws])
    n = len(ws)
    pairs = lambda f, base: geomean([(lambda a, b: a / b if a and b else None)(f(w), base(w)) for w in ws])
    comps = [Comparison(f"optimal throttling IPC over warp-max, geomean ({n})", g(vs_max(throttle)), paper=1.41,
                        variants=("max",) + tuple(v.name for v in THROTTLE.values())),
             Comparison(f"optimal static PCAL IPC over warp-max, geomean ({n})", g(vs_max(static)), paper=1.56,
                        variants=("max",)),
             Comparison(f"optimal static PCAL-BTO IPC over warp-max, geomean ({n})", g(vs_max(static_bto)),
                        paper=1.67, variants=("max",)),
             Comparison(f"optimal static PCAL-BTO IPC over optimal throttling, geomean ({n})",
                        pairs(static_bto, throttle), paper=1.18, variants=()),
             Comparison(f"dynamic PCAL IPC over optimal static PCAL, geomean ({n})", pairs(dyn, static),
                        paper_sign=0, paper_text="competitive with the best static choice", variants=("dyn",)),
             Comparison(f"opportunistic caching over optimal static PCAL, geomean ({n})", pairs(opportunistic, static),
                        paper_sign=1, paper_text="uses blocks the token holders leave (no number)", variants=())]
    return figs, comps
