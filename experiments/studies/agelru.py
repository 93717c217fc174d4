"""AgeLRU (dissertation ch. 5, SPEC 8): Fig. 5.6, 5.7, 5.9-5.17 on the gtx480 preset.

Fig. 5.6/5.7   AgeLRU replacement, BIP and DIP over LRU: IPC and L1 miss rate, cache-sensitive set
Fig. 5.9/5.10  AgeLRU bypassing: IPC, and reservation failures (the paper's stall cause) per access
Fig. 5.11-5.13 AgeLRU bypassing with BTO: IPC and memory round-trip latency
Fig. 5.14      AgeLRU replacement / bypass / bypass+BTO over LRU on every workload
Fig. 5.15-5.17 AgeLRU, Dynamic-AgeLRU, BIP, DIP (replacement), and AgeLRU vs Dynamic-AgeLRU for
               bypass and bypass+BTO, on the cache-sensitive set and on the AgeLRU-unfriendly
               workloads (ours: where AgeLRU replacement loses more than 3 % to LRU; the paper's
               GEMM, 3MM and ATAXI are not in our suite)
Fig. 5.8       KMN's L1 hits by the issuing warp's age rank on its scheduler, LRU / AgeLRU / BIP,
               normalised to LRU's total hits (gpusim's ldst.load_hits_by_age_rank)
"""
from core import CACHE_SENSITIVE as SENSITIVE, Comparison, Figure, Variant, geomean, ipc, grid, miss_rate

NAME = "agelru"
TITLE = "AgeLRU replacement and bypassing, Dynamic-AgeLRU, BIP and DIP (Fig. 5.6-5.17)"
PAPER = "Dissertation (PCAL, AgeLRU, RPR), 2014, ch. 5"
SEED = "pcal-agelru-rpr-dissertation-2014.txt"
PRESET = "gtx480"

UNFRIENDLY_DROP = 0.97  # AgeLRU replacement below this fraction of LRU's IPC: "AgeLRU-unfriendly"

DYN = ("--controller", "dynamic-agelru")
LRU = Variant("lru", "LRU", "baseline")
AGE = Variant("age", "AgeLRU", "agelru")
AGEB = Variant("ageb", "AgeLRU bypass", "agelru-bypass")
AGEBT = Variant("agebt", "AgeLRU bypass+BTO", "agelru-bypass-bto")
BIP = Variant("bip", "BIP", "bip")
DIP = Variant("dip", "DIP", "dip", note="set dueling LRU / BIP, 10-bit PSEL (the paper's optimal DIP is not defined)")
DYNR = Variant("dyn", "Dynamic-AgeLRU", "agelru", args=DYN)
DYNB = Variant("dynb", "Dynamic-AgeLRU bypass", "agelru-bypass", args=DYN)
DYNBT = Variant("dynbt", "Dynamic-AgeLRU bypass+BTO", "agelru-bypass-bto", args=DYN)
VARIANTS = [LRU, AGE, AGEB, AGEBT, BIP, DIP, DYNR, DYNB, DYNBT]


def sensitive(ctx):
    return ctx.available(list(SENSITIVE))


def points(ctx):
    return grid([PRESET], ctx.workloads(), VARIANTS)


def preamble(ctx):
    lack = [SENSITIVE[w] for w in ctx.missing(list(SENSITIVE))]
    return ("Every workload runs every variant; the cache-sensitive set is the dissertation's Table 3.2 "
            f"({len(sensitive(ctx))} of 15 here" + (f"; not here: {', '.join(lack)}" if lack else "") + "). "
            "Speedups are IPC ratios over LRU, averaged as geomeans. BIP and DIP have no bypassing variant "
            "here (the dissertation's BIP bypassing is not modelled), so Fig. 5.9, 5.11, 5.16 and 5.17 show "
            "AgeLRU and Dynamic-AgeLRU only. The AgeLRU-unfriendly set is ours: the workloads where AgeLRU "
            f"replacement reaches less than {UNFRIENDLY_DROP:.0%} of LRU's IPC.")


def kmn_hits_by_age(res):
    """Fig. 5.8: KMN's load hits by age rank (0 = the oldest resident warp of its scheduler; the
    paper's axis runs the other way), each policy's count over LRU's total. None when a point
    is missing or predates the statistic."""
    stats = [res.get("kmeans", v.name) for v in (LRU, AGE, BIP)]
    if not all(s and "load_hits_by_age_rank" in s.get("ldst", {}) for s in stats):
        return None
    hits = [s["ldst"]["load_hits_by_age_rank"] for s in stats]
    base = sum(hits[0])
    if not base:
        return None
    n = max(len(h) for h in hits)
    rows = [[r] + [(h[r] if r < len(h) else 0) / base for h in hits] for r in range(n)]
    return Figure("fig5_08_kmn_hits_by_age", "Fig. 5.8: KMN L1 hits by warp age rank (0 = oldest), over LRU's "
                  "total hits", ["age rank"] + [v.label for v in (LRU, AGE, BIP)], rows,
                  ylabel="hits / LRU's total hits",
                  paper="AgeLRU 2.9x LRU's hits, BIP 1.24x; with AgeLRU the 4 oldest warps get 49 % of the hits, "
                        "BIP spreads its extra hits over all warps.")


def analyse(ctx, res):
    ws_all = ctx.workloads()
    ws = sensitive(ctx)
    label = lambda w: SENSITIVE.get(w, w)
    norm = lambda v: (lambda w: res.normalised(ipc, w, v, "lru"))

    def stat(v, f):
        return lambda w: (lambda s: f(s) if s else None)(res.get(w, v))

    def failures_per_access(s):
        a = s["l1"]["accesses"]
        return sum(s["l1"]["reservation_failures"].values()) / a if a else None

    def round_trip(s):
        return s["memory"]["avg_round_trip"]

    def table(name, title, ylabel, workloads, variants, f, summary, paper, hline=None):
        cols = [f(v.name) for v in variants]
        rows = [[label(w)] + [c(w) for c in cols] for w in workloads]
        if summary and workloads:
            rows.append([f"geomean ({len(workloads)})"] + [geomean([c(w) for w in workloads]) for c in cols])
        return Figure(name, title, ["workload"] + [v.label for v in variants], rows, ylabel=ylabel, hline=hline,
                      paper=paper)

    unfriendly = [w for w in ws_all if (norm("age")(w) or 1.0) < UNFRIENDLY_DROP]
    figs = [
        table("fig5_06_replacement", "Fig. 5.6: replacement, IPC over LRU (cache-sensitive set)",
              "IPC / IPC with LRU", ws, [AGE, BIP, DIP], norm, True,
              "AgeLRU +4 % on average over 14 benchmarks (KMN +13 %, GESUMMV +21 %, CoMD +7 %).", 1.0),
        table("fig5_07_miss_rate", "Fig. 5.7: L1 miss rate with LRU, AgeLRU and BIP (cache-sensitive set)",
              "L1 miss rate", ws, [LRU, AGE, BIP], lambda v: stat(v, miss_rate), False,
              "KMN: LRU 94 %, BIP 93 %, AgeLRU 83 %."),
        table("fig5_09_bypass", "Fig. 5.9: AgeLRU bypassing, IPC over LRU (cache-sensitive set)",
              "IPC / IPC with LRU", ws, [AGE, AGEB], norm, True,
              "AgeLRU bypassing +8 % on average; SCLUSTER +55 %.", 1.0),
        table("fig5_10_reservation_failures", "Fig. 5.10: L1 reservation failures per access, AgeLRU replacement "
              "vs bypassing (the paper plots the LDST stall ratio they cause)", "reservation failures / access",
              ws, [AGE, AGEB], lambda v: stat(v, failures_per_access), False,
              "bypassing removes most of SCLUSTER's reservation-failure stalls."),
        table("fig5_11_bypass_bto", "Fig. 5.11/5.12: AgeLRU bypassing with and without BTO, IPC over LRU "
              "(cache-sensitive set)", "IPC / IPC with LRU", ws, [AGEB, AGEBT], norm, True,
              "bypassing+BTO +28 % on average; BTO helps II, KMN, SM, SS, WC and CFD most.", 1.0),
        table("fig5_13_round_trip", "Fig. 5.13: memory round-trip latency (cycles), AgeLRU bypassing with and "
              "without BTO", "cycles", ws, [AGEB, AGEBT], lambda v: stat(v, round_trip), False,
              "BTO cuts the round trip of II, KMN, SM, SS, WC and CFD markedly."),
        table("fig5_14_all", "Fig. 5.14: AgeLRU replacement, bypassing, bypassing+BTO over LRU, every workload",
              "IPC / IPC with LRU", ws_all, [AGE, AGEB, AGEBT], norm, True,
              "most workloads do not respond; three (GEMM, 3MM, ATAXI) lose with AgeLRU.", 1.0),
    ]
    kmn = kmn_hits_by_age(res)
    if kmn:
        figs.append(kmn)
    groups = [("sensitive", "cache-sensitive set", ws), ("unfriendly", "AgeLRU-unfriendly workloads", unfriendly)]
    for gname, gtext, gws in groups:
        if not gws:
            continue
        figs.append(table(f"fig5_15_replacement_{gname}", f"Fig. 5.15: AgeLRU, Dynamic-AgeLRU, BIP, DIP replacement, "
                          f"IPC over LRU ({gtext})", "IPC / IPC with LRU", gws, [AGE, DYNR, BIP, DIP], norm, True,
                          "Dynamic-AgeLRU replacement loses at most 3 % on the LRU-friendly benchmarks.", 1.0))
        figs.append(table(f"fig5_16_17_bypass_{gname}", f"Fig. 5.16/5.17: AgeLRU and Dynamic-AgeLRU bypassing, without "
                          f"and with BTO, IPC over LRU ({gtext})", "IPC / IPC with LRU", gws,
                          [AGEB, DYNB, AGEBT, DYNBT], norm, True,
                          "Dynamic-AgeLRU loses at most 6 % (bypassing) and 3 % (with BTO).", 1.0))

    kmn_comps = []
    if kmn:
        total = lambda v: sum(r[1 + [LRU, AGE, BIP].index(v)] or 0 for r in kmn.rows)
        # The paper's 4 oldest of 24 resident warps are the oldest sixth; at small scale KMN may
        # keep fewer warps resident (the ranks seen), so compare the oldest sixth of those, and
        # judge the direction against the even share of that many warps.
        ranks = len(kmn.rows)
        k = max(1, round(ranks / 6))
        oldest = sum(r[2] or 0 for r in kmn.rows[:k]) / total(AGE) if total(AGE) else None
        kmn_comps = [Comparison("KMN L1 hits, AgeLRU over LRU", total(AGE), paper=2.9, variants=("lru", "age")),
                  Comparison("KMN L1 hits, BIP over LRU", total(BIP), paper=1.24, variants=("lru", "bip")),
                  Comparison(f"KMN: share of AgeLRU's hits going to the oldest {k} of the {ranks} resident warps of "
                             "a scheduler (the paper: 4 of 24)", oldest, paper=0.49, ref=k / ranks, unit="%",
                             variants=("age",),
                             note=f"even shares would be {k}/{ranks} = {100 * k / ranks:.0f} % (the paper's 4/24 = 17 %)")]
    g = lambda v: geomean([norm(v)(w) for w in ws])
    n = len(ws)
    comps = [Comparison(f"AgeLRU replacement IPC over LRU, geomean ({n})", g("age"), paper=1.04, variants=("lru", "age")),
             Comparison(f"AgeLRU bypassing IPC over LRU, geomean ({n})", g("ageb"), paper=1.08, variants=("lru", "ageb")),
             Comparison(f"AgeLRU bypassing+BTO IPC over LRU, geomean ({n})", g("agebt"), paper=1.28,
                        variants=("lru", "agebt")),
             Comparison(f"BIP replacement IPC over LRU, geomean ({n})", g("bip"), paper_sign=0,
                        paper_text="about LRU's (Fig. 5.6)", variants=("lru", "bip"))]
    if "kmeans" in ws:
        mr = lambda v: stat(v, miss_rate)("kmeans")
        lru_mr, age_mr = mr("lru"), mr("age")
        comps.append(Comparison("KMN L1 miss rate change, AgeLRU - LRU",
                                age_mr - lru_mr if lru_mr is not None and age_mr is not None else None,
                                paper=-0.11, paper_text="94 % -> 83 %", ref=0.0, unit="pp", variants=("lru", "age")))
    if "streamcluster" in ws:
        comps.append(Comparison("SCLUSTER AgeLRU bypassing IPC over LRU", norm("ageb")("streamcluster"), paper=1.55,
                                variants=("lru", "ageb")))
    worst = lambda v, group: min([x for x in (norm(v)(w) for w in group) if x is not None], default=None)
    if unfriendly:
        names = ", ".join(label(w) for w in unfriendly)
        for v, paper in (("dyn", 0.97), ("dynb", 0.94), ("dynbt", 0.97)):
            comps.append(Comparison(f"Dynamic-AgeLRU {dict(dyn='replacement', dynb='bypassing', dynbt='bypassing+BTO')[v]}:"
                                    f" worst IPC over LRU on the AgeLRU-unfriendly workloads ({names})",
                                    worst(v, unfriendly), paper=paper, variants=("lru", v)))
    else:
        comps.append(Comparison("AgeLRU-unfriendly workloads (AgeLRU replacement below "
                                f"{UNFRIENDLY_DROP:.0%} of LRU)", None, paper_text="GEMM, 3MM, ATAXI",
                                note="none among ours", variants=("lru", "age")))
    comps.append(Comparison(f"Dynamic-AgeLRU replacement: worst IPC over LRU, cache-sensitive set ({n})",
                            worst("dyn", ws), paper_sign=0, paper_text="no large loss", variants=("lru", "dyn")))
    return figs, comps + kmn_comps
