"""Two-level L1D bypassing (Kim & Kim, JIPS): Fig. 3, 4 and 5 on the GTX 1080 preset.

Fig. 3  single-threshold (miss-rate only) bypassing, k = 0.6 .. 0.9, and the L1 turned off, IPC
        over no bypassing. Single threshold k: th_low = th_high = k and th_warp = 0. The decision
        unit (golden/two_level_bypass.h) takes C below th_low, B above th_high, and in between
        (here: a miss rate of exactly k) B only when occupancy_sum * 256 < th_warp_q8 * ..., which
        th_warp = 0 makes impossible: B iff the window's miss rate > k, occupancy never matters.
        "L1 off" is approximated by th_low = th_high = 0, th_warp = 1, a 1-cycle window and a
        10^6-cycle bypass period: after the first miss of a kernel every load miss bypasses.
Fig. 4  two-level bypassing (the paper's thresholds 0.3 / 0.9 / 0.5) over no bypassing.
Fig. 5  accesses and misses that use the L1, normalised to the accesses without bypassing, and
        the fraction of requests bypassed.
"""
from core import Comparison, Figure, Variant, geomean, grid, ipc, mean

NAME = "two-level"
TITLE = "Two-level L1D bypassing (Fig. 3-5)"
PAPER = "Two-level bypassing, JIPS (Kim & Kim)"
SEED = "two-level-l1d-bypassing-jips.txt"
PRESET = "gtx1080"

# The paper's 12 benchmarks -> ours. CF is read as Rodinia CFD (the paper does not expand it);
# MS (CUDA SDK) has no counterpart here.
PAPER_APPS = {"spmv": "SPMV", "btree": "BT", "streamcluster": "STC", "cfd": "CF", "adi": "ADI", "pfilter": "PF",
              "nw": "NW", "lud": "LUD", "jacobi1d": "JCB1D", "shfl": "SHFL", "sqn": "SQN"}
NOT_HERE = ["MS"]
CACHE_FRIENDLY = ["spmv", "btree", "streamcluster", "cfd"]     # "favour L1" in the paper
B_MODE = ["adi", "pfilter", "nw", "lud", "jacobi1d", "shfl", "sqn"]  # "prefer B mode" (and MS)
OFF_BEST = ["adi", "nw", "lud", "jacobi1d"]                      # best with the L1 off (Fig. 3)

NB = Variant("nb", "no bypass", "baseline")
OFF = Variant("off", "L1 off (approx.)", "two-level",
              over={"two_level": {"th_low": 0, "th_high": 0, "th_warp": 1, "window_cycles": 1,
                                  "bypass_period_cycles": 1000000}},
              note="every load miss bypasses after a kernel's first miss")
KS = [Variant(f"k{int(k * 100)}", f"k = {k}", "two-level", over={"two_level": {"th_low": k, "th_high": k, "th_warp": 0}},
              note="miss rate only") for k in (0.6, 0.7, 0.8, 0.9)]
TL = Variant("tl", "two-level", "two-level")


def apps(ctx):
    return ctx.available(list(PAPER_APPS))


def points(ctx):
    return grid([PRESET], apps(ctx), [NB, OFF] + KS + [TL])


def preamble(ctx):
    lack = NOT_HERE + [PAPER_APPS[w] for w in ctx.missing(list(PAPER_APPS))]
    return (f"The paper's 12 benchmarks; we have {12 - len(lack)}" + (f" (not here: {', '.join(lack)})" if lack else "") +
            ". CF is taken to be Rodinia CFD. Averages are geomeans of IPC ratios and plain means of fractions, "
            "over the benchmarks we have. In our L1 a bypassed load still looks up the tags (a hit in B mode is "
            "served) and counts as an access and a miss; the fraction bypassed is bypasses / accesses, and "
            "\"misses that use the L1\" are misses - bypasses.")


def analyse(ctx, res):
    ws = apps(ctx)
    have = lambda names: [w for w in names if w in ws]
    norm = lambda v: (lambda w: res.normalised(ipc, w, v, "nb"))

    def l1(w, v, field):
        s = res.get(w, v)
        return s["l1"][field] if s else None

    def frac_bypassed(v):
        return lambda w: (lambda a, b: b / a if a else None)(l1(w, v, "accesses"), l1(w, v, "bypasses"))

    def used(v, field):  # accesses / misses that used the L1, over the no-bypass accesses
        return lambda w: (lambda x, b, a0: (x - b) / a0 if a0 and x is not None else None)(
            l1(w, v, field), l1(w, v, "bypasses"), l1(w, "nb", "accesses"))

    def cache_miss_rate(v):  # misses / accesses of the requests that used the L1
        return lambda w: (lambda a, m, b: (m - b) / (a - b) if a and a > b else None)(
            l1(w, v, "accesses"), l1(w, v, "misses"), l1(w, v, "bypasses"))

    def geo_rows(cols):
        return [[f"geomean ({len(ws)})"] + [geomean([c(w) for w in ws]) for c in cols]]

    figs = []
    v3 = [OFF] + KS
    c3 = [norm(v.name) for v in v3]
    figs.append(Figure("fig03_single_threshold", "Fig. 3: miss-rate-only bypassing (threshold k) and L1 off, "
                       "IPC / no bypass (gtx1080)", ["workload"] + [v.label for v in v3],
                       [[PAPER_APPS[w]] + [c(w) for c in c3] for w in ws] + geo_rows(c3),
                       ylabel="IPC / IPC without bypassing", hline=1.0,
                       paper="per benchmark, k = 0.6-0.9 and L1 off; k = 0.9 gives +2.5 % on average."))
    v4 = [TL, KS[-1], OFF]
    c4 = [norm(v.name) for v in v4]
    figs.append(Figure("fig04_two_level", "Fig. 4: two-level bypassing, IPC / no bypass (gtx1080)",
                       ["workload"] + [v.label for v in v4],
                       [[PAPER_APPS[w]] + [c(w) for c in c4] for w in ws] + geo_rows(c4),
                       ylabel="IPC / IPC without bypassing", hline=1.0,
                       paper="two-level +6.1 % on average over no bypassing (beside MRPB, APCM, PEMP, CARB, "
                             "which we do not model)."))
    c5 = [used("tl", "accesses"), used("tl", "misses"), frac_bypassed("tl"), cache_miss_rate("nb"),
          cache_miss_rate("tl")]
    rows5 = [[PAPER_APPS[w]] + [c(w) for c in c5] for w in ws]
    rows5.append([f"mean ({len(ws)})"] + [mean([c(w) for w in ws]) for c in c5])
    used5 = ["accesses that use the L1", "misses that use the L1", "bypassed"]
    figs.append(Figure("fig05_accesses", "Fig. 5: L1 accesses and misses that use the L1 (not bypassed) with "
                       "two-level bypassing, over the accesses without bypassing", ["workload"] + used5 +
                       ["miss rate no bypass", "miss rate two-level"], rows5,
                       ylabel="fraction of the no-bypass accesses", series=used5,
                       paper="60 % of requests bypassed on average, 90 % on the B-mode benchmarks; "
                             "miss rate +6.9 % on average."))
    vb = KS + [TL]
    cb = [frac_bypassed(v.name) for v in vb]
    figs.append(Figure("bypassed", "Fraction of requests bypassed, per threshold (gtx1080)",
                       ["workload"] + [v.label for v in vb],
                       [[PAPER_APPS[w]] + [c(w) for c in cb] for w in ws] +
                       [[f"mean ({len(ws)})"] + [mean([c(w) for w in ws]) for c in cb]],
                       ylabel="bypasses / accesses", paper="(not a figure of the paper)"))

    window = 5000  # the preset's two_level.window_cycles: each kernel starts with a window in C mode

    def kernels(w):
        s = res.get(w, "nb")
        if not s:
            return [PAPER_APPS[w], None, None, None, None]
        ks = sorted(k["cycles"] for k in s["result"]["kernels"])
        after = sum(max(0, c - window) for c in ks)
        return [PAPER_APPS[w], len(ks), ks[len(ks) // 2], s["result"]["cycles"], after / s["result"]["cycles"]]
    figs.append(Figure("kernels", "Kernel lengths without bypassing, and the share of cycles after each kernel's "
                       f"first {window}-cycle sampling window: the most that B mode can cover",
                       ["workload", "kernels", "median kernel cycles", "cycles", "after the first window"],
                       [kernels(w) for w in ws], plot=False, fmt="{:.2f}",
                       paper="(not a figure of the paper; explains where two-level cannot act)"))

    comps = [Comparison(f"two-level IPC over no bypass, geomean ({len(ws)})", geomean([norm("tl")(w) for w in ws]),
                        paper=1.061, variants=("nb", "tl")),
             Comparison(f"k = 0.9 IPC over no bypass, geomean ({len(ws)})", geomean([norm("k90")(w) for w in ws]),
                        paper=1.025, variants=("nb", "k90")),
             Comparison(f"two-level: requests bypassed, mean ({len(ws)})", mean([frac_bypassed("tl")(w) for w in ws]),
                        paper=0.60, ref=0.0, unit="%", variants=("tl",))]
    b = have(B_MODE)
    comps.append(Comparison(f"two-level: bypassed on the B-mode benchmarks ({len(b)})",
                            mean([frac_bypassed("tl")(w) for w in b]), paper=0.90, ref=0.0, unit="%",
                            variants=("tl",)))
    cf = have(CACHE_FRIENDLY)
    comps.append(Comparison(f"two-level: bypassed on SPMV, BT, STC, CF ({len(cf)})",
                            mean([frac_bypassed("tl")(w) for w in cf]), paper=0.0, paper_text="nearly all cached",
                            ref=0.0, unit="%", variants=("tl",)))
    comps.append(Comparison(f"two-level IPC on SPMV, BT, STC, CF, geomean ({len(cf)})",
                            geomean([norm("tl")(w) for w in cf]), paper_sign=0, paper_text="similar to no bypass",
                            variants=("nb", "tl")))
    ob = have(OFF_BEST)
    comps.append(Comparison(f"L1 off IPC on ADI, NW, LUD, JCB1D, geomean ({len(ob)})",
                            geomean([norm("off")(w) for w in ob]), paper_sign=1,
                            paper_text="particularly high (Fig. 3)", variants=("nb", "off")))
    if "pfilter" in ws:
        comps.append(Comparison("two-level IPC on PF", norm("tl")("pfilter"), paper=1.046, variants=("nb", "tl")))
    mr = [(lambda a, c: c - a if a is not None and c is not None else None)(cache_miss_rate("nb")(w),
                                                                             cache_miss_rate("tl")(w)) for w in ws]
    comps.append(Comparison("two-level: miss-rate change of the cached requests, mean", mean(mr),
                            paper=0.069, paper_text="+6.9 % on average", ref=0.0, unit="pp", variants=("nb", "tl")))
    return figs, comps
