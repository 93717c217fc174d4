"""Beyond the papers: the mechanisms combined, searched over a small space, and area against IPC.

On the gtx480 preset and the dissertation's cache-sensitive set, every configuration of
  replacement  LRU | AgeLRU
  bypass       none | AGCB | two-level | dynamic PCAL at the workload's warp-opt | AgeLRU bypass
               (AgeLRU bypass only with AgeLRU replacement)
  granularity  fixed 128 B | DyCache-50 (dynamic)
(18 configurations) and the `combined` policy preset (AgeLRU + PCAL + DyCache + BTO) with
dynamic PCAL at warp-opt; and every configuration without PCAL also with its warps throttled to
the workload's warp-opt (warp throttling, the SM mechanism PCAL starts from, is a mechanism of
its own here): 33 configurations. Two stages, as in the PCAL study: first every configuration
without PCAL or throttling and warp throttling over a range of limits (warp-max is the
baseline), which gives each workload its warp-opt; then the configurations at that warp-opt
(dynamic PCAL starts from throttling at warp-opt and chooses EBTNum itself).

Each configuration is the nearest policy preset (configs/policies/) with the selectors that
differ changed, or the preset itself when it is one. The analysis ranks the configurations by
geomean IPC over the baseline, names the best single mechanism and the best combination, and
plots area against IPC: the area of l1d_top built for each synthesized policy preset (make
synth-policies, build/synth-policies/<lib>/report.json, --synth-report) against the geomean
IPC of the configuration that runs that preset, with the Pareto-optimal presets marked.
There is no paper to compare with: the study makes no Comparison.
"""
import json
import os

from core import (CACHE_SENSITIVE as SENSITIVE, REPO, Figure, Point, Variant, best_warp_limit, geomean, ipc,
                  points_at_warp_opt, pareto_optimal, throttle_variants)
import yamlsub

NAME = "combined"
TITLE = "Beyond the papers: combined policies, and area against IPC"
PAPER = "Beyond the papers (no paper numbers)"
SEED = ""
PRESET = "gtx480"

WARPS = 24                            # gtx480: 48 warps per SM, 2 schedulers
LIMITS = [1, 2, 4, 8, 12, 16]         # warp-opt candidates per scheduler (warp-max: the baseline)

REPLACEMENT = ["lru", "agelru"]
BYPASS = ["none", "agcb", "two_level", "pcal", "agelru"]
GRANULARITY = ["fixed128", "dynamic"]
SELECTORS = ("replacement", "bypass", "granularity", "bto")

# The policy presets a configuration may start from, in order of preference on a tie.
PRESETS = ["baseline", "dycache", "agcb", "two-level", "pcal", "agelru", "agelru-bypass", "combined"]
SHORT = {"replacement": {"lru": "lru", "agelru": "age"},  # variant names: age_tl_d = AgeLRU + two-level + DyCache
         "bypass": {"none": "none", "agcb": "agcb", "two_level": "tl", "pcal": "pcal", "agelru": "ageb"},
         "granularity": {"fixed128": "f", "dynamic": "d"}}
MECHANISM = {"agcb": "AGCB", "two_level": "two-level", "pcal": "dynamic PCAL", "agelru": "AgeLRU bypass"}


def _selectors(preset):
    d = yamlsub.load(os.path.join(REPO, "configs", "policies", f"{preset}.yaml"))
    return {k: d[k] for k in SELECTORS}


PRESET_SELECTORS = {p: _selectors(p) for p in PRESETS}


def mechanisms(sel):
    """The mechanisms a configuration adds to the baseline. AgeLRU bypassing needs AgeLRU
    replacement and is one mechanism (the dissertation's), so it does not count that twice."""
    out = []
    if sel["replacement"] == "agelru" and sel["bypass"] != "agelru":
        out.append("AgeLRU")
    if sel["bypass"] != "none":
        out.append(MECHANISM[sel["bypass"]])
    if sel["granularity"] == "dynamic":
        out.append("DyCache-50")
    if sel["bto"] == "true":
        out.append("BTO")
    return out


def nearest_preset(sel):
    """(preset, the selectors to change): fewest changes; on a tie the preset with the same
    bypass (its parameters), then the order of PRESETS."""
    def cost(i_p):
        i, p = i_p
        ps = PRESET_SELECTORS[p]
        return (sum(ps[k] != sel[k] for k in SELECTORS), ps["bypass"] != sel["bypass"], i)
    _, p = min(enumerate(PRESETS), key=cost)
    return p, {k: sel[k] for k in SELECTORS if PRESET_SELECTORS[p][k] != sel[k]}


def _yaml_value(v):
    return {"true": True, "false": False}.get(v, v)


class Config:
    """One configuration of the search: its selectors, name, label and mechanisms. throttle: the
    warps limited to the workload's warp-opt (the SM's warp throttling, PCAL's first step, here
    without PCAL's tokens); PCAL configurations always run at warp-opt."""

    def __init__(self, sel, throttle=False):
        self.sel = sel
        self.pcal = sel["bypass"] == "pcal"
        self.throttle = throttle and not self.pcal
        self.at_warp_opt = self.pcal or self.throttle   # stage 2: needs the workload's warp-opt
        self.mechs = (["throttling at warp-opt"] if self.throttle else []) + mechanisms(sel)
        self.policy, changed = nearest_preset(sel)
        self.over = {k: _yaml_value(v) for k, v in changed.items()}
        # A configuration that is a preset runs it as it is and is named after it.
        self.name = self.policy if not changed else "_".join(SHORT[k][sel[k]] for k in
                                                             ("replacement", "bypass", "granularity"))
        if self.throttle:
            self.name = "thr" if self.name == "baseline" else self.name + "_thr"
        self.label = " + ".join(self.mechs) or "baseline"   # the combined preset: "... + BTO"

    @property
    def kind(self):
        return ["baseline", "single", "combination"][min(len(self.mechs), 2)]

    def variant(self, opt=None):
        args = ("--warp-limit", str(opt)) if self.at_warp_opt else ()
        if self.pcal:
            args += ("--controller", "dynamic-pcal")
        note = ("dynamic PCAL at the workload's warp-opt" if self.pcal else
                "warps throttled to the workload's warp-opt" if self.throttle else "")
        return Variant(self.name, self.label, self.policy, over=self.over, args=args, note=note)


def _configs():
    out = []
    for r in REPLACEMENT:
        for b in BYPASS:
            if b == "agelru" and r != "agelru":
                continue
            for g in GRANULARITY:
                out.append(Config({"replacement": r, "bypass": b, "granularity": g, "bto": "false"}))
    out.append(Config(dict(PRESET_SELECTORS["combined"])))
    # Each configuration without PCAL also with the warps throttled to warp-opt.
    out += [Config(c.sel, throttle=True) for c in list(out) if not c.pcal]
    return out


CONFIGS = _configs()
BY_NAME = {c.name: c for c in CONFIGS}
BASE = BY_NAME["baseline"]            # LRU, no bypass, 128 B lines, all warps (warp-max)
THROTTLE = throttle_variants(LIMITS)


def sensitive(ctx):
    return ctx.available(list(SENSITIVE))


def points(ctx):
    vs = [c.variant() for c in CONFIGS if not c.at_warp_opt] + list(THROTTLE.values())
    return [Point(PRESET, w, v) for w in sensitive(ctx) for v in vs]


def warp_opt(res, w):
    return best_warp_limit(res, w, WARPS, BASE.name, THROTTLE)


def more_points(ctx, res):
    return points_at_warp_opt(PRESET, sensitive(ctx), res, warp_opt,
                              lambda opt: [c.variant(opt) for c in CONFIGS if c.at_warp_opt])


def preamble(ctx):
    lack = [SENSITIVE[w] for w in ctx.missing(list(SENSITIVE))]
    n_pcal = sum(c.pcal for c in CONFIGS)
    n_thr = sum(c.throttle for c in CONFIGS)
    return (f"{len(CONFIGS)} configurations on the cache-sensitive set ({len(sensitive(ctx))} of 15 workloads"
            + (f"; not here: {', '.join(lack)}" if lack else "") + "): replacement LRU or AgeLRU x bypass none, "
            "AGCB, two-level, dynamic PCAL or AgeLRU bypass (with AgeLRU only) x granularity fixed 128 B or "
            f"DyCache-50, and the `combined` preset (AgeLRU + PCAL + DyCache + BTO); and the {n_thr} without PCAL "
            f"again with warp throttling at warp-opt. The {n_pcal} PCAL configurations run dynamic PCAL at the "
            f"workload's warp-opt, the best of throttling to {LIMITS} warps per scheduler and warp-max ({WARPS}, "
            "the baseline), found by the first stage as the dissertation does offline. A *single mechanism* adds "
            "one mechanism to the baseline (warp throttling is one; AgeLRU bypassing, which needs AgeLRU "
            "replacement, is one), a *combination* two or more. Speedups are IPC ratios over the baseline, "
            "averaged as geomeans. No paper reports these combinations, so there is no comparison table; the "
            "area plot needs `make synth-policies` (throttling and dynamic PCAL's controller are in the SM, "
            "not in `l1d_top`'s area).")


def _shown(path):  # relative to the repository when inside it
    rel = os.path.relpath(path, REPO)
    return path if rel.startswith("..") else rel


def read_synth(path):
    """(report, why not): make synth-policies' report.json, or None and the reason."""
    if not path:
        return None, "no synthesis report given (--synth-report)"
    if not os.path.exists(path):
        return None, f"no synthesis report at `{_shown(path)}` (run `make synth-policies`, or pass --synth-report)"
    try:
        with open(path) as f:
            rep = json.load(f)
    except (OSError, ValueError) as e:
        return None, f"the synthesis report `{_shown(path)}` cannot be read ({e})"
    if not isinstance(rep, dict) or not rep.get("variants"):
        return None, f"the synthesis report `{_shown(path)}` has no policy variants (make synth-policies writes them)"
    return rep, ""


def _pct(x):
    return f"{100 * (x - 1):+.1f} %"


def analyse(ctx, res):
    ws = sensitive(ctx)
    label = lambda w: SENSITIVE[w]
    ipc_of = lambda w, v: (lambda s: ipc(s) if s else None)(res.get(w, v))
    norm = lambda name: (lambda w: (lambda a, b: a / b if a and b else None)(ipc_of(w, name), ipc_of(w, BASE.name)))
    opts = {w: warp_opt(res, w) for w in ws}

    gm = {c.name: geomean([norm(c.name)(w) for w in ws]) for c in CONFIGS}
    n_ok = {c.name: sum(norm(c.name)(w) is not None for w in ws) for c in CONFIGS}
    best_of = lambda kind: max((c for c in CONFIGS if c.kind == kind and gm[c.name] is not None),
                               key=lambda c: gm[c.name], default=None)
    single, combo = best_of("single"), best_of("combination")

    ranked = sorted(CONFIGS, key=lambda c: -(gm[c.name] or 0))
    rows = []
    for c in ranked:
        vals = [v for v in (norm(c.name)(w) for w in ws) if v is not None]
        tag = " (best single)" if c is single else (" (best combination)" if c is combo else "")
        rows.append([c.label, c.kind + tag, len(c.mechs), gm[c.name], min(vals, default=None),
                     max(vals, default=None), f"{n_ok[c.name]}/{len(ws)}"])

    if single is None or combo is None:
        verdict = "Too few points ran to compare single mechanisms with combinations."
    elif gm[combo.name] > gm[single.name]:
        verdict = (f"A combination beats every single mechanism: the best, {combo.label}, reaches "
                   f"{gm[combo.name]:.3f}x the baseline, {_pct(gm[combo.name] / gm[single.name])} over the best "
                   f"single mechanism, {single.label} ({gm[single.name]:.3f}x).")
    else:
        verdict = (f"No combination beats the best single mechanism, {single.label} ({gm[single.name]:.3f}x the "
                   f"baseline); the best combination, {combo.label}, reaches {gm[combo.name]:.3f}x "
                   f"({_pct(gm[combo.name] / gm[single.name])} against it).")
    figs = [Figure("ranking", f"Every configuration, geomean IPC over the baseline ({len(ws)} cache-sensitive "
                   "workloads), best first", ["configuration", "kind", "mechanisms", "geomean IPC / baseline",
                                              "worst workload", "best workload", "workloads"],
                   rows, ylabel="IPC / IPC of the baseline (geomean)", series=["geomean IPC / baseline"],
                   hline=1.0, note=verdict)]

    per = lambda c: (lambda w: norm(c.name)(w) if c else None)

    def here(kind):  # the best of one kind on one workload: (IPC / baseline, which; ties named as such)
        def best(w):
            runs = [(norm(c.name)(w), c.label) for c in CONFIGS if c.kind == kind and norm(c.name)(w) is not None]
            if not runs:
                return None, None
            top = max(v for v, _ in runs)
            tied = [lab for v, lab in runs if v == top]
            return top, tied[0] + (f" (tied with {len(tied) - 1} more)" if len(tied) > 1 else "")
        return best
    wrows = []
    for w in ws:
        hs, hc = here("single")(w), here("combination")(w)
        wrows.append([label(w), ipc_of(w, BASE.name), opts[w], per(single)(w), per(combo)(w), hs[0], hs[1],
                      hc[0], hc[1]])
    wrows.append([f"geomean ({len(ws)})", geomean([r[1] for r in wrows]), None,
                  geomean([r[3] for r in wrows]), geomean([r[4] for r in wrows]),
                  geomean([r[5] for r in wrows]), None, geomean([r[7] for r in wrows]), None])
    s_lab = f"best single: {single.label}" if single else "best single"
    c_lab = f"best combination: {combo.label}" if combo else "best combination"
    figs.append(Figure("per_workload", "Per workload: the best single mechanism and combination by geomean and on "
                       "that workload, IPC over the baseline",
                       ["workload", "baseline IPC", "warp-opt", s_lab, c_lab, "best single here", "which single",
                        "best combination here", "which combination"], wrows,
                       ylabel="IPC / IPC of the baseline", series=[s_lab, c_lab, "best single here",
                                                                   "best combination here"], hline=1.0))

    figs.append(pareto_figure(ctx, gm, ws))
    return figs, []


def pareto_figure(ctx, gm, ws):
    """Area of l1d_top built for each synthesized policy preset against the geomean IPC of the
    configuration that runs that preset (pcal, combined: dynamic PCAL at warp-opt)."""
    cols = ["policy preset", "area (um^2)", "geomean IPC / baseline", "Pareto-optimal", "configuration",
            "area / baseline", "SRAM area (um^2)", "flops"]
    title = f"Area of l1d_top per policy preset against geomean IPC over the baseline ({len(ws)} workloads)"
    fig = Figure("pareto", title, cols, [], xlabel="standard-cell area of l1d_top (um^2)",
                 ylabel="IPC / IPC of the baseline (geomean)", series=cols[1:3], mark="Pareto-optimal",
                 kind="scatter", hline=1.0)
    path = ctx.synth_report
    rep, why = read_synth(path)
    if rep is None:
        fig.note = f"No area plot: {why}."
        fig.in_results = False  # an empty table says nothing the note does not
        return fig
    # The presets the study runs as they are, and with warp throttling, which is in the SM and adds
    # nothing to l1d_top: a throttled preset has the preset's area.
    runs = {}
    for c in CONFIGS:
        if not c.over:
            runs.setdefault(c.policy, []).append(c)
    ok = [v for v in rep["variants"] if v.get("status") == "ok" and v.get("area_um2") is not None]
    base_area = next((v["area_um2"] for v in ok if v["variant"] == "baseline"), None)
    rows, unmatched = [], []
    for v in ok:
        if v["variant"] not in runs:
            unmatched.append(v["variant"])
            continue
        sram = v.get("sram_area_um2")
        for c in runs[v["variant"]]:
            rows.append([v["variant"] + (" + throttling" if c.throttle else ""), round(v["area_um2"]), gm[c.name],
                         None, c.label, v["area_um2"] / base_area if base_area else None,  # whole um^2 in the table
                         None if sram is None else round(sram), v.get("flops")])
    marks = pareto_optimal([(r[1], r[2]) for r in rows])
    for r, m in zip(rows, marks):
        r[3] = "yes" if m else "no"
    fig.rows = sorted(rows, key=lambda r: r[1])
    lib = os.path.basename(os.path.dirname(path))
    failed = [v["variant"] for v in rep["variants"] if v.get("status") != "ok"]
    note = [f"Areas from `{_shown(path)}` (library {lib}); the controllers (throttling, dynamic PCAL) are in "
            "the SM, not in these areas: a preset with throttling has the preset's area."]
    front = [r[0] for r in fig.rows if r[3] == "yes"]
    if front:
        note.append("Pareto-optimal (no other preset is at least as small and as fast, and better in one): "
                    + ", ".join(front) + ".")
    if failed:
        note.append("Not synthesized: " + ", ".join(failed) + ".")
    if unmatched:
        note.append("Synthesized but not a configuration of this study: " + ", ".join(unmatched) + ".")
    po = rep.get("policy_overhead") or {}
    if po.get("available") and po.get("full_area_um2") and po.get("baseline_area_um2"):
        note.append(f"l1d_top with every policy selectable at run time: {po['full_area_um2']:.0f} um^2, "
                    f"{po['full_area_um2'] / po['baseline_area_um2']:.2f}x its baseline-tied build.")
    fig.note = " ".join(note)
    return fig
