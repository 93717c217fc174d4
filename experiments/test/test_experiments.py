#!/usr/bin/env python3
"""Tests of the experiments runner (ctest experiments.unit and experiments.smoke).

  test_experiments.py [unittest args]      # the unit tests; the Smoke class skips without $GPUSIM
  GPUSIM=build/bin/gpusim test_experiments.py Smoke

Unit: the YAML subset against every file of configs/, comparisons (direction, effect size),
the DyCache study's aggregation on canned statistics (made-up IPCs whose geomeans are known),
Pareto marking and the scatter plot, the combined study's configurations, ranking, verdict and
Pareto front on canned statistics and a hand-written synthesis report, and the rewriting of
docs/results.md's generated blocks, the golden/verilated comparison of points, and
scripts/results_summary_rows.py (docs/results.md's summaries over spliced rows). Smoke: the runner on the two-point test
study (experiments/test/studies/smoke.py) at --scale test through GNU parallel: CSV, JSON and PNG
appear, a second run finds both points cached, and a study with a failing point still runs its
other point, reports the failing command and its stderr, and exits 1.
"""
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
EXP = os.path.dirname(HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, EXP)

import compare_backends  # noqa: E402
import core  # noqa: E402
import report  # noqa: E402
import yamlsub  # noqa: E402


def read(path):
    with open(path) as f:
        return f.read()


def load_study(name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"t_{name}", os.path.join(EXP, "studies", f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class YamlSubset(unittest.TestCase):
    def test_every_config_round_trips(self):
        files = glob.glob(os.path.join(core.REPO, "configs", "*.yaml")) + \
            glob.glob(os.path.join(core.REPO, "configs", "policies", "*.yaml"))
        self.assertGreater(len(files), 5)
        for f in files:
            d = yamlsub.load(f)
            self.assertEqual(yamlsub.parse(yamlsub.dump(d)), d, f)

    def test_merge_changes_only_the_named_fields(self):
        base = yamlsub.load(os.path.join(core.REPO, "configs", "gtx480.yaml"))
        m = yamlsub.merge(base, {"l1": {"size_bytes": 49152, "ways": 6}, "policy": {"dycache": {"keep_large_pieces": True}}})
        self.assertEqual(m["l1"]["size_bytes"], "49152")
        self.assertEqual(m["l1"]["ways"], "6")
        self.assertEqual(m["l1"]["hit_latency"], base["l1"]["hit_latency"])
        self.assertEqual(m["policy"]["dycache"]["keep_large_pieces"], "true")
        self.assertEqual(m["policy"]["dycache"]["threshold_pct"], base["policy"]["dycache"]["threshold_pct"])
        self.assertEqual(m["dram"], base["dram"])

    def test_flow_lists_of_plain_scalars_read_and_merge(self):
        self.assertEqual(yamlsub.parse("a: [0,  8, 16]\nb: []\n"), {"a": "[0, 8, 16]", "b": "[]"})
        self.assertEqual(yamlsub.merge({"a": "[0]"}, {"a": [0, 8]}), {"a": "[0, 8]"})

    def test_unsupported_yaml_is_an_error(self):
        for text in ["a:\n  - 1\n", "a: [1, [2]]\n", "a: ['x']\n", "a: 'x'\n", "a: 1\na: 2\n", "a:\n    b: 1\n  c: 2\n"]:
            with self.assertRaises(yamlsub.YamlSubsetError, msg=text):
                yamlsub.parse(text)
        with self.assertRaises(yamlsub.YamlSubsetError):
            yamlsub.merge({"a": {"b": "1"}}, {"a": 3})


class Comparisons(unittest.TestCase):
    def test_direction_and_effect_size(self):
        c = core.Comparison("x", 1.10, paper=1.40)
        self.assertTrue(c.direction())
        self.assertAlmostEqual(c.magnitude_ratio(), 0.25)
        self.assertFalse(core.Comparison("x", 0.95, paper=1.40).direction())
        self.assertTrue(core.Comparison("x", 1.003, paper_sign=0).direction())  # within tolerance: no change
        self.assertFalse(core.Comparison("x", 0.9, paper_sign=1).direction())
        self.assertIsNone(core.Comparison("x", 0.9).direction())
        self.assertIsNone(core.Comparison("x", 1.2, paper=1.0).magnitude_ratio())
        c = core.Comparison("miss", -0.20, paper=-0.35, ref=0.0, unit="%")
        self.assertTrue(c.direction())
        self.assertIn("-20.0 %", report.comparison_table([c], lambda v: "golden"))

    def test_geomean_skips_missing(self):
        self.assertAlmostEqual(core.geomean([2.0, None, 8.0]), 4.0)
        self.assertIsNone(core.geomean([None]))
        self.assertEqual(core.median([3, None, 1, 2]), 2)


class FakeCtx:
    def __init__(self, workloads, irregular):
        self._w, self._irr = workloads, irregular
        self.scale, self.l1 = "test", "golden"
        self.synth_report = None

    def workloads(self):
        return list(self._w)

    def available(self, names):
        return [n for n in names if n in self._w]

    def missing(self, names):
        return [n for n in names if n not in self._w]

    def pattern(self, w):
        return "irregular" if w in self._irr else "regular"


def fake_stats(ipc, accesses=1000, misses=500):
    return {"result": {"ipc": ipc, "cycles": 1000}, "run": {"l1": "golden"},
            "l1": {"accesses": accesses, "misses": misses, "hits": accesses - misses, "bypasses": 0,
                   "agcb_overrides": 0}}


class DyCacheAggregation(unittest.TestCase):
    """Canned statistics for every point of the DyCache study: the baseline has IPC 1 and
    DyCache-50 IPC 1.40 on the paper's irregular apps, 0.99 on its regular ones (the paper's
    numbers), so the study must report exactly those geomeans."""

    def test_paper_geomeans_come_back(self):
        dy = load_study("dycache")
        extra = ["vecadd"]  # not one of the paper's apps: must not enter its groups
        ws = list(dy.PAPER_APPS) + extra
        ctx = FakeCtx(ws, set(dy.PAPER_IRREGULAR))
        pts = dy.points(ctx)
        stats = {}
        for p in pts:
            v = p.variant.name
            irregular = p.workload in dy.PAPER_IRREGULAR
            value = 1.0
            if v == "dy50":
                value = 1.40 if irregular else 0.99
                if p.workload in extra:
                    value = 5.0
            stats[p.id] = fake_stats(value, misses=300 if v == "dy50" else 500)
        res = core.Results(pts, stats, {k: "golden" for k in stats}, dy.PRESET)
        figs, comps = dy.analyse(ctx, res)
        by = {c.what: c for c in comps}
        self.assertAlmostEqual(by["DyCache-50 IPC geomean, paper irregular (9)"].ours, 1.40)
        self.assertAlmostEqual(by["DyCache-50 IPC geomean, paper regular (10)"].ours, 0.99)
        self.assertAlmostEqual(by["DyCache-50 IPC geomean, paper all (19)"].ours,
                               math.exp((9 * math.log(1.40) + 10 * math.log(0.99)) / 19))
        self.assertAlmostEqual(by["DyCache-50 miss-rate change, median of the paper's apps"].ours, -0.40)
        self.assertTrue(by["DyCache-50 IPC geomean, paper irregular (9)"].direction())
        fig8 = next(f for f in figs if f.name == "fig08_ipc")
        self.assertEqual(len(fig8.rows), len(ws) + 6)  # every workload + 6 geomean rows
        row = next(r for r in fig8.rows if r[0] == "bfs")
        self.assertAlmostEqual(row[fig8.columns.index("DyCache-50")], 1.40)
        # A missing point leaves an empty cell, not an exception.
        del stats["gtx480.bfs.dy50"]
        figs, _ = dy.analyse(ctx, core.Results(pts, stats, {}, dy.PRESET))
        row = next(r for r in next(f for f in figs if f.name == "fig08_ipc").rows if r[0] == "bfs")
        self.assertIsNone(row[4])


class ScatterAndPareto(unittest.TestCase):
    def test_pareto_marking_on_a_hand_written_example(self):
        #            cost  benefit
        pts = [(100.0, 1.00),   # smallest: optimal
               (120.0, 1.00),   # bigger, no faster than the first: dominated
               (150.0, 1.20),   # optimal
               (150.0, 1.10),   # same area as the one above, slower: dominated
               (200.0, 1.20),   # bigger, as fast: dominated
               (250.0, 1.30),   # optimal
               (250.0, 1.30),   # equal to the one above: equal points do not dominate each other
               (300.0, None)]   # no IPC: never optimal
        self.assertEqual(core.pareto_optimal(pts), [True, False, True, False, False, True, True, False])
        self.assertEqual(core.pareto_optimal([]), [])

    @unittest.skipUnless(shutil.which("gnuplot"), "needs gnuplot")
    def test_a_scatter_figure_writes_a_png(self):
        fig = core.Figure("front", "area against IPC", ["preset", "area", "ipc", "front", "note"],
                          [["a", 100.0, 1.0, "yes", "x"], ["b", 150.0, 1.2, "yes", "x"], ["c", 180.0, 1.1, "no", "x"],
                           ["d", None, 1.5, "no", "no area: left out"]],
                          kind="scatter", mark="front", xlabel="area (um^2)", ylabel="IPC", hline=1.0, note="n")
        with tempfile.TemporaryDirectory() as d:
            png = report.write_figure(fig, d, {"study": "t"})
            self.assertEqual(png, os.path.join(d, "front.png"))
            with open(png, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            self.assertEqual(read(os.path.join(d, "front.plot.csv")).splitlines()[1:],
                             ["a,100.0,1.0,1", "b,150.0,1.2,1", "c,180.0,1.1,0"])
            self.assertEqual(read(os.path.join(d, "front.front.csv")).splitlines()[1:], ["a,100.0,1.0", "b,150.0,1.2"])
            with open(os.path.join(d, "front.json")) as f:
                j = json.load(f)
            self.assertEqual((j["kind"], j["mark"], j["note"]), ("scatter", "front", "n"))
            # Nothing to plot: no PNG, and no stale one left behind.
            fig.rows = [["d", None, 1.5, "no", ""]]
            self.assertIsNone(report.write_figure(fig, d, {}))
            self.assertFalse(os.path.exists(png))
            with self.assertRaises(ValueError):
                report.write_figure(core.Figure("z", "t", ["k", "v"], [["a", 1.0]], kind="pie"), d, {})


class CombinedStudy(unittest.TestCase):
    """The combined study on canned statistics: every IPC is 1 except a few chosen ones, so the
    ranking, the verdict and the Pareto front are known."""

    def setUp(self):
        self.st = load_study("combined")
        self.ws = ["kmeans", "bfs", "vecadd"]     # vecadd is not cache-sensitive: not in the study
        self.ctx = FakeCtx(self.ws, set())

    def test_configurations(self):
        st = self.st
        # 2 x 4 x 2 + AgeLRU bypass x 2 + the combined preset, and the 14 without PCAL throttled
        self.assertEqual(len(st.CONFIGS), 33)
        by = st.BY_NAME
        for preset in ["baseline", "dycache", "agcb", "two-level", "pcal", "agelru", "agelru-bypass", "combined"]:
            self.assertEqual((by[preset].policy, by[preset].over), (preset, {}), preset)
        self.assertEqual(by["age_tl_d"].over, {"replacement": "agelru", "granularity": "dynamic"})
        self.assertEqual((by["age_pcal_d"].policy, by["age_pcal_d"].over), ("combined", {"bto": False}))
        self.assertEqual(by["agelru-bypass"].kind, "single")       # AgeLRU bypass is one mechanism
        self.assertEqual(by["age_ageb_d"].kind, "combination")
        self.assertEqual([c.name for c in st.CONFIGS if c.pcal], ["pcal", "lru_pcal_d", "age_pcal_f", "age_pcal_d",
                                                                 "combined"])
        self.assertEqual((by["thr"].policy, by["thr"].over, by["thr"].label, by["thr"].kind),
                         ("baseline", {}, "throttling at warp-opt", "single"))
        self.assertEqual((by["age_agcb_f_thr"].label, by["age_agcb_f_thr"].kind),
                         ("throttling at warp-opt + AgeLRU + AGCB", "combination"))
        self.assertEqual(len([c for c in st.CONFIGS if c.throttle]), 14)
        for c in st.CONFIGS:  # every selector change is a real change of the preset it starts from
            ps = st.PRESET_SELECTORS[c.policy]
            self.assertTrue(all(str(v).lower() != ps[k] for k, v in c.over.items()), c.name)

    def run_study(self, ipcs, synth_report=None):
        """ipcs: {(workload, variant): IPC}, the rest 1.0; returns the figures."""
        st, ctx = self.st, self.ctx
        ctx.synth_report = synth_report
        pts = st.points(ctx)
        self.assertEqual(len(pts), 2 * (14 + len(st.LIMITS)))
        stats = {p.id: fake_stats(ipcs.get((p.workload, p.variant.name), 1.0)) for p in pts}
        more = st.more_points(ctx, core.Results(pts, stats, {}, st.PRESET))
        self.assertEqual(len(more), 2 * 19)
        for p in more:
            opt = str(st.warp_opt(core.Results(pts, stats, {}, st.PRESET), p.workload))
            pcal = st.BY_NAME[p.variant.name].pcal
            self.assertEqual(p.variant.args, ("--warp-limit", opt) + (("--controller", "dynamic-pcal") if pcal else ()))
            stats[p.id] = fake_stats(ipcs.get((p.workload, p.variant.name), 1.0))
        figs, comps = st.analyse(ctx, core.Results(pts + more, stats, {}, st.PRESET))
        self.assertEqual(comps, [])
        return {f.name: f for f in figs}

    def test_a_combination_that_wins_is_named(self):
        figs = self.run_study({("kmeans", "w8"): 1.1, ("bfs", "w12"): 1.05,
                               ("kmeans", "thr"): 1.1, ("bfs", "thr"): 1.0,             # single: 1.0488
                               ("kmeans", "agelru"): 1.21, ("bfs", "agelru"): 1.0,      # single: geomean 1.1
                               ("kmeans", "dycache"): 1.0, ("bfs", "dycache"): 1.0404,  # single: geomean 1.02
                               ("kmeans", "age_pcal_d"): 1.44, ("bfs", "age_pcal_d"): 1.0})  # combination: 1.2
        rank = figs["ranking"]
        self.assertEqual(rank.rows[0][:2], ["AgeLRU + dynamic PCAL + DyCache-50", "combination (best combination)"])
        self.assertAlmostEqual(rank.rows[0][3], 1.2)
        self.assertEqual(rank.rows[1][:2], ["AgeLRU", "single (best single)"])
        self.assertIn("A combination beats every single mechanism: the best, AgeLRU + dynamic PCAL + DyCache-50, "
                      "reaches 1.200x the baseline, +9.1 % over the best single mechanism, AgeLRU (1.100x).", rank.note)
        thr = next(r for r in rank.rows if r[0] == "throttling at warp-opt")
        self.assertEqual(thr[1], "single")
        self.assertAlmostEqual(thr[3], math.sqrt(1.1 * 1.0))
        per = figs["per_workload"]
        km = next(r for r in per.rows if r[0] == "KMN")
        self.assertEqual(km[1:3], [1.0, 8])                       # baseline IPC, warp-opt
        self.assertAlmostEqual(km[3], 1.21)
        self.assertAlmostEqual(km[4], 1.44)
        self.assertEqual(km[5:7], [1.21, "AgeLRU"])
        bfs = next(r for r in per.rows if r[0] == "BFS")
        self.assertEqual(bfs[6], "DyCache-50")                    # the best single on BFS is not the geomean's
        self.assertIn("No area plot: no synthesis report given", figs["pareto"].note)
        self.assertEqual(figs["pareto"].rows, [])

    def test_no_combination_beating_a_single_mechanism_is_said(self):
        figs = self.run_study({("kmeans", "agcb"): 1.5, ("kmeans", "age_agcb_f"): 1.2})
        self.assertIn("No combination beats the best single mechanism, AGCB (1.225x the baseline); the best "
                      "combination, AgeLRU + AGCB, reaches 1.095x (-10.6 % against it).", figs["ranking"].note)

    def test_the_pareto_front_from_a_synthesis_report(self):
        rep = {"variants": [{"variant": "baseline", "status": "ok", "area_um2": 100.0, "sram_area_um2": 50.0,
                             "flops": 10},
                            {"variant": "dycache", "status": "ok", "area_um2": 130.0, "flops": 12},
                            {"variant": "agcb", "status": "ok", "area_um2": 120.0, "flops": 11},
                            {"variant": "pcal", "status": "ok", "area_um2": 140.0, "flops": 13},
                            {"variant": "elastic32", "status": "ok", "area_um2": 90.0},
                            {"variant": "combined", "status": "failed"}],
               "policy_overhead": {"available": True, "full_area_um2": 300.0, "baseline_area_um2": 100.0}}
        ipcs = {("kmeans", "agcb"): 1.21, ("bfs", "agcb"): 1.0,        # 1.1 at area 120
                ("kmeans", "dycache"): 1.0404, ("bfs", "dycache"): 1.0,  # 1.02 at area 130: dominated by agcb
                ("kmeans", "pcal"): 1.44,                                # 1.2 at area 140
                ("kmeans", "thr"): 1.1,                                  # throttling: 1.0488 at the baseline's area
                ("kmeans", "agcb_thr"): 1.44}                            # 1.2 at area 120: pcal is dominated
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "osu018"))
            path = os.path.join(d, "osu018", "report.json")
            with open(path, "w") as f:
                json.dump(rep, f)
            fig = self.run_study(ipcs, synth_report=path)["pareto"]
        self.assertEqual([(r[0], r[1], r[3]) for r in fig.rows],
                         [("baseline", 100.0, "no"), ("baseline + throttling", 100.0, "yes"), ("agcb", 120.0, "no"),
                          ("agcb + throttling", 120.0, "yes"), ("dycache", 130.0, "no"),
                          ("dycache + throttling", 130.0, "no"), ("pcal", 140.0, "no")])
        self.assertAlmostEqual(fig.rows[6][2], 1.2)
        self.assertAlmostEqual(fig.rows[1][2], math.sqrt(1.1))
        self.assertAlmostEqual(fig.rows[2][5], 1.2)  # area over the baseline's
        self.assertIn("(library osu018)", fig.note)
        self.assertIn(": baseline + throttling, agcb + throttling.", fig.note)
        self.assertIn("Not synthesized: combined.", fig.note)
        self.assertIn("not a configuration of this study: elastic32.", fig.note)
        self.assertIn("300 um^2, 3.00x", fig.note)


class AgcbTimeline(unittest.TestCase):
    """The AGCB study's counters over time from hand-written timeline CSVs."""

    def test_table_and_lines_from_timeline_files(self):
        st = load_study("agcb")
        ctx = FakeCtx(["kmeans", "bicg"], set())
        pts = st.points(ctx)
        self.assertEqual(len([p for p in pts if p.variant.name == "r15t"]), 2)
        stats, paths = {}, {}
        with tempfile.TemporaryDirectory() as d:
            for p in pts:
                s = fake_stats(1.0)
                s["result"]["cycles"] = 20000
                s["sms"] = [{}, {}]  # two SMs
                s["memory"] = {"l2_bypass_overrides": 0}
                stats[p.id] = s
                paths[p.id] = os.path.join(d, p.id + ".json")
            # bicg: two entries move; their means 15, 12 -> 9, 4 -> 7, 2 over three samples.
            with open(os.path.join(d, "qv100.bicg.r15t.agcb.csv"), "w") as f:
                f.write("cycle,entry,mean,min,max,sms_bypassing\n"
                        "5000,3,15.000,15,15,2\n5000,4,12.000,10,14,2\n"
                        "10000,3,9.000,8,10,2\n10000,4,4.000,4,4,0\n"
                        "15000,3,7.000,6,8,1\n15000,4,2.000,2,2,0\n")
            # kmeans: nothing moved (header only).
            with open(os.path.join(d, "qv100.kmeans.r15t.agcb.csv"), "w") as f:
                f.write("cycle,entry,mean,min,max,sms_bypassing\n")
            stats["qv100.kmeans.r15t"]["result"]["ipc"] = 0.9  # differs from the r15 point
            figs, _ = st.analyse(ctx, core.Results(pts, stats, {}, st.PRESET, paths=paths))
        by = {f.name: f for f in figs}
        rows = {r[0]: r for r in by["counters_table"].rows}
        self.assertEqual(rows["bicg"][1:], [2, 4.5, 4.5, 1 / 4, True])  # (7+2)/2; 1 of 2 SMs x 2 entries
        self.assertEqual(rows["kmeans"][1:], [0, None, None, None, False])
        lines = by["counters_over_time"]
        self.assertEqual(lines.columns, ["fraction of the run", "bicg"])
        at = {r[0]: r[1] for r in lines.rows}
        self.assertIsNone(at[0.0])           # before the first sample
        self.assertEqual(at[0.25], 13.5)     # cycle 5000
        self.assertEqual(at[0.5], 6.5)       # cycle 10000
        self.assertEqual(at[1.0], 4.5)       # the last sample

    def test_variants_pick_their_backend_and_name_their_files(self):
        import execute
        v = core.Variant("t", "t", "agcb", l1="golden", args=("--agcb-timeline", "{stem}.agcb.csv"))
        with tempfile.TemporaryDirectory() as d:
            gpusim = os.path.join(d, "gpusim")
            with open(gpusim, "w") as f:
                f.write("x")
            jobs = execute.prepare("s", [core.Point("gtx480", "bfs", v)], gpusim, "small", "verilated", d)
        cmd = jobs[0].cmd
        stem = os.path.join(d, "s", "points", "gtx480.bfs.t.small.golden")
        self.assertEqual(cmd[cmd.index("--l1") + 1], "golden")
        self.assertEqual(cmd[cmd.index("--agcb-timeline") + 1], stem + ".agcb.csv")
        self.assertEqual(jobs[0].stats, stem + ".json")
        self.assertFalse(jobs[0].fallback)

    def test_a_moved_result_tree_keeps_its_keys(self):
        import execute
        v = core.Variant("t", "t", "agcb", over={"agcb": {"reset_value": 0}}, args=("--agcb-timeline", "{stem}.csv"))
        keys = []
        with tempfile.TemporaryDirectory() as d:
            gpusim = os.path.join(d, "gpusim")
            with open(gpusim, "w") as f:
                f.write("x")
            for out in (os.path.join(d, "a"), os.path.join(d, "elsewhere", "b")):
                keys.append(execute.prepare("s", [core.Point("gtx480", "bfs", v)], gpusim, "small", "golden", out)[0].key)
            v2 = core.Variant("t", "t", "agcb", over={"agcb": {"reset_value": 1}}, args=("--agcb-timeline", "{stem}.csv"))
            keys.append(execute.prepare("s", [core.Point("gtx480", "bfs", v2)], gpusim, "small", "golden", out)[0].key)
        self.assertEqual(keys[0], keys[1])
        self.assertNotEqual(keys[1], keys[2])  # a changed policy file still changes the key


class AgeRankHits(unittest.TestCase):
    def test_fig_5_8_from_hits_by_age_rank(self):
        st = load_study("agelru")
        ctx = FakeCtx(["kmeans"], set())
        pts = st.points(ctx)
        stats = {p.id: fake_stats(1.0) for p in pts}
        for s in stats.values():
            s["l1"]["reservation_failures"] = {}
            s["memory"] = {"avg_round_trip": 300}
        hits = {"lru": [10, 10, 10, 10, 10], "age": [40, 30, 20, 10, 0], "bip": [12, 12, 12, 12, 12]}
        for v, h in hits.items():
            stats[f"gtx480.kmeans.{v}"]["ldst"] = {"load_hits_by_age_rank": h}
        figs, comps = st.analyse(ctx, core.Results(pts, stats, {}, st.PRESET))
        fig = next(f for f in figs if f.name == "fig5_08_kmn_hits_by_age")
        self.assertEqual(fig.rows[0], [0, 0.2, 0.8, 0.24])
        self.assertEqual(len(fig.rows), 5)
        by = {c.what: c.ours for c in comps}
        self.assertAlmostEqual(by["KMN L1 hits, AgeLRU over LRU"], 2.0)
        self.assertAlmostEqual(by["KMN L1 hits, BIP over LRU"], 1.2)
        # Five resident warps: the oldest sixth is the oldest one, 40 of AgeLRU's 100 hits.
        share = next(c for c in comps if c.what.startswith("KMN: share of AgeLRU's hits"))
        self.assertIn("oldest 1 of the 5 resident warps", share.what)
        self.assertAlmostEqual(share.ours, 0.4)
        self.assertAlmostEqual(share.ref, 0.2)
        # Statistics from before the counter existed: no figure, no exception.
        del stats["gtx480.kmeans.bip"]["ldst"]
        figs, _ = st.analyse(ctx, core.Results(pts, stats, {}, st.PRESET))
        self.assertFalse(any(f.name == "fig5_08_kmn_hits_by_age" for f in figs))

    @unittest.skipUnless(shutil.which("gnuplot"), "needs gnuplot")
    def test_a_lines_figure_writes_a_png(self):
        fig = core.Figure("tl", "over time", ["x", "a", "b"], [[0.0, 15.0, None], [0.5, 10.0, 14.0], [1.0, 5.0, 13.0]],
                          kind="lines", hline=8.0)
        with tempfile.TemporaryDirectory() as d:
            png = report.write_figure(fig, d, {})
            with open(png, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            self.assertEqual(read(os.path.join(d, "tl.plot.csv")).splitlines(), ["x,a,b", "0.0,15.0,", "0.5,10.0,14.0",
                                                                                 "1.0,5.0,13.0"])

    @unittest.skipUnless(shutil.which("gnuplot"), "needs gnuplot")
    def test_plotted_names_lose_their_commas(self):
        # gnuplot's columnhead() would cut "reset 15, no check" at the comma: two series, one name.
        fig = core.Figure("c", "bars", ["w", "reset 15", "reset 15, no check"], [["bfs", 1.0, 0.5]])
        with tempfile.TemporaryDirectory() as d:
            report.write_figure(fig, d, {})
            self.assertEqual(read(os.path.join(d, "c.plot.csv")).splitlines(), ["w,reset 15,reset 15; no check",
                                                                                "bfs,1.0,0.5"])
            self.assertIn('"reset 15, no check"', read(os.path.join(d, "c.csv")))


class RprStudy(unittest.TestCase):
    def test_two_stages_and_the_comparisons(self):
        st = load_study("rpr")
        ws = ["kmeans", "bfs", "vecadd"]  # vecadd is not one of the key benchmarks
        ctx = FakeCtx(ws, set())
        pts = st.points(ctx)
        self.assertEqual(len(pts), 2 * (1 + len(st.LIMITS) + 4))
        self.assertTrue(all(p.variant.l1 == "golden" for p in pts))
        # warp-opt: kmeans 4, bfs warp-max.
        ipcs = {("kmeans", "w4"): 2.0, ("kmeans", "age"): 2.2, ("kmeans", "rprd"): 2.42, ("kmeans", "rpra"): 2.2,
                ("bfs", "age"): 1.0, ("bfs", "rprd"): 0.9, ("bfs", "rpra"): 1.0}
        stats = {p.id: fake_stats(ipcs.get((p.workload, p.variant.name), 1.0)) for p in pts}
        more = st.more_points(ctx, core.Results(pts, stats, {}, st.PRESET))
        args = {(p.workload, p.variant.name): p.variant.args for p in more}
        self.assertEqual(args[("kmeans", "rprd")], ("--warp-limit", "4"))
        self.assertEqual(args[("bfs", "rprd")], ("--warp-limit", "24"))
        for p in more:
            stats[p.id] = fake_stats(ipcs.get((p.workload, p.variant.name), 1.0))
        figs, comps = st.analyse(ctx, core.Results(pts + more, stats, {}, st.PRESET))
        by = {c.what: c.ours for c in comps}
        self.assertAlmostEqual(by["RPR reuse distance over AgeLRU, IPC geomean, key set (2)"], math.sqrt(1.1 * 0.9))
        self.assertAlmostEqual(by["RPR reuse distance over AgeLRU, IPC geomean, regular (1)"], 1.1)
        self.assertAlmostEqual(by["BFS: RPR reuse distance over throttling"], 0.9)
        self.assertAlmostEqual(by["RPR with the age score gives AgeLRU's statistics (workloads where identical)"], 1.0)
        speed = {r[0]: r for r in next(f for f in figs if f.name == "fig6_4_speedup").rows}
        self.assertEqual(speed["KMN"][1:3], [2.0, 2.2])  # throttling, AgeLRU at warp-opt over warp-max


class ResultsFile(unittest.TestCase):
    def test_blocks_are_rewritten_and_the_rest_kept(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "results.md")
            with open(path, "w") as f:
                f.write("# R\n\n" + report.BEGIN.format("a") + "\nold\n" + report.END.format("a") +
                        "\n\n### Why\n\nhand-written text\n")
            report.update_blocks(path, {"a": "new table", "b": "b table"}, {"b": "Study B"}, explained={"b"})
            text = read(path)
            self.assertIn("new table", text)
            self.assertNotIn("old", text)
            self.assertIn("hand-written text", text)
            self.assertIn("## Study B", text)
            self.assertIn("(to be written)", text)
            report.update_blocks(path, {"b": "b again"}, {})
            text = read(path)
            self.assertEqual(text.count("## Study B"), 1)
            self.assertIn("b again", text)
            self.assertIn("new table", text)


class CompareBackends(unittest.TestCase):
    def write(self, d, name, stats):
        os.makedirs(os.path.join(d, "s", "points"), exist_ok=True)
        with open(os.path.join(d, "s", "points", name), "w") as f:
            json.dump(stats, f)

    def run_compare(self, d):
        import contextlib
        import io
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            rc = compare_backends.main(["--out", d])
        return rc, out.getvalue()

    def test_identical_but_the_backend_passes_and_counts_fallbacks(self):
        st = lambda l1, hits: {"run": {"l1": l1, "seed": 1}, "l1": {"hits": hits, "by": [1, 2]}}
        with tempfile.TemporaryDirectory() as d:
            self.write(d, "gtx480.bfs.a.small.golden.json", st("golden", 5))
            self.write(d, "gtx480.bfs.a.small.verilated.json", st("verilated", 5))
            self.write(d, "gtx480.bfs.b.small.golden.json", st("golden", 7))
            self.write(d, "gtx480.bfs.b.small.verilated.json", st("golden", 7))  # no model: fell back
            self.write(d, "gtx480.bfs.b.small.verilated.meta.json", {"backend": "golden"})  # not statistics
            rc, out = self.run_compare(d)
            self.assertEqual(rc, 0, out)
            self.assertIn("s: 2 pairs, 1 ran on verilated (1 fell back to golden), 0 problems", out)

    def test_a_differing_counter_or_a_missing_golden_point_fails(self):
        with tempfile.TemporaryDirectory() as d:
            self.write(d, "p.w.a.small.golden.json", {"run": {"l1": "golden"}, "l1": {"hits": 5, "by": [1, 2]}})
            self.write(d, "p.w.a.small.verilated.json", {"run": {"l1": "verilated"}, "l1": {"hits": 5, "by": [1, 3]}})
            self.write(d, "p.w.c.small.verilated.json", {"run": {"l1": "verilated"}})
            rc, out = self.run_compare(d)
            self.assertEqual(rc, 1, out)
            self.assertIn("p.w.a: differs at /l1/by[1]: 2 vs 3", out)
            self.assertIn("p.w.c: no golden point", out)

    def test_nothing_to_compare_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            self.write(d, "p.w.a.small.golden.json", {"run": {"l1": "golden"}})
            self.assertEqual(self.run_compare(d)[0], 2)


class FigureStyles(unittest.TestCase):
    """Series colours fixed by name within a study, distinct within a figure; headroom, title
    room and the summary separator of the bar charts (read from the .gp scripts)."""

    @staticmethod
    def styles(d, name):
        """{series name: (colour, dash type or fill pattern)} of d/name.gp."""
        import re
        header = read(os.path.join(d, name + ".plot.csv")).splitlines()[0].split(",")
        out = {}
        for line in read(os.path.join(d, name + ".gp")).splitlines():
            col = re.search(r"columnhead\((\d+)\)", line)
            if col:
                rgb = re.search(r"lc rgb '(#[0-9a-f]{6})'", line).group(1)
                dash = re.search(r" (?:dt|fs pattern) (\S+)", line)
                out[header[int(col.group(1)) - 1]] = (rgb, dash.group(1) if dash else "1")
        return out

    @unittest.skipUnless(shutil.which("gnuplot"), "needs gnuplot")
    def test_a_name_keeps_its_colour_in_every_figure_of_a_study(self):
        a = core.Figure("a", "replacement", ["w", "AgeLRU", "BIP", "DIP"], [["bfs", 1.0, 0.9, 1.1]])
        b = core.Figure("b", "more", ["w", "LRU", "BIP", "Dynamic-AgeLRU", "AgeLRU"], [["bfs", 1.0, 0.9, 1.1, 1.2]])
        c = core.Figure("c", "over time", ["x", "DIP", "AgeLRU"], [[0.0, 1.0, 2.0], [1.0, 2.0, 3.0]], kind="lines")
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as other:
            for fig in (a, b, c):
                report.write_figure(fig, d, {})
            sa, sb, sc = (self.styles(d, n) for n in "abc")
            self.assertEqual(sa["AgeLRU"][0], sb["AgeLRU"][0])
            self.assertEqual(sa["AgeLRU"][0], sc["AgeLRU"][0])
            self.assertEqual(sa["BIP"][0], sb["BIP"][0])
            self.assertEqual(sa["DIP"][0], sc["DIP"][0])
            for s in (sa, sb, sc):
                self.assertEqual(len({v[0] for v in s.values()}), len(s), s)
            # Another study starts its own registry; the same figures in the same order, the same colours.
            for fig in (a, b, c):
                report.write_figure(fig, other, {})
            self.assertEqual([self.styles(other, n) for n in "abc"], [sa, sb, sc])

    @unittest.skipUnless(shutil.which("gnuplot"), "needs gnuplot")
    def test_more_series_than_colours_vary_the_dashes(self):
        n = len(report.PALETTE)
        names = [f"w{i}" for i in range(2 * n + 3)]
        lines = core.Figure("t", "counters", ["x"] + names, [[0.0] + [1.0] * len(names), [1.0] + [2.0] * len(names)],
                            kind="lines")
        # w0 and w{n} share a colour in the study's registry; in one figure the later one moves.
        bars = core.Figure("b", "two", ["w", "w0", f"w{n}"], [["bfs", 1.0, 2.0]])
        with tempfile.TemporaryDirectory() as d:
            report.write_figure(lines, d, {})
            report.write_figure(bars, d, {})
            st = self.styles(d, "t")
            self.assertEqual(len(st), len(names))
            self.assertEqual(len(set(st.values())), len(names), st)
            self.assertEqual(st["w0"][0], st[f"w{n}"][0])
            sb = self.styles(d, "b")
            self.assertNotEqual(sb["w0"][0], sb[f"w{n}"][0])
            self.assertEqual(sb["w0"][0], st["w0"][0])

    @unittest.skipUnless(shutil.which("gnuplot"), "needs gnuplot")
    def test_headroom_title_room_and_the_summary_separator(self):
        title = "Fig. 5.10: L1 reservation failures per access, AgeLRU replacement vs bypassing " \
                "(the paper plots the LDST stall ratio they cause), and a few more words to wrap"
        fig = core.Figure("h", title, ["w", "AgeLRU", "AgeLRU bypass"],
                          [["bfs", 1.0, 0.5], ["kmeans", 0.2, 0.4], ["geomean (2)", 0.45, 0.45]])
        with tempfile.TemporaryDirectory() as d:
            report.write_figure(fig, d, {})
            gp = read(os.path.join(d, "h.gp"))
            self.assertIn("set yrange [0:1.08]", gp)
            width = int(gp.split("size ")[1].split(",")[0])
            shown = gp.split("set title ")[1].splitlines()[0].strip('"').split("\\n")
            self.assertGreater(len(shown), 1)  # too long for one line: wrapped
            self.assertEqual(" ".join(shown), title)
            self.assertGreaterEqual(width, 6.5 * max(map(len, shown)) + 6.5 * len("AgeLRU bypass"))
            self.assertIn("set arrow from first 1.5, graph 0 to first 1.5, graph 1 nohead", gp)


class StudyFigureLabels(unittest.TestCase):
    """What the study figures say they average and plot, on canned statistics."""

    def test_pcal_ebt_geomean_is_over_the_legal_points_and_says_so(self):
        st = load_study("pcal")
        ctx = FakeCtx(["comd", "kmeans", "bfs"], set())
        pts = st.points(ctx)
        # warp-opt: comd warp-max (24: only EBTNum < 0 legal), kmeans 1 (only > 0), bfs 2 (-1 and > 0).
        opt = {("comd", "max"): 2.0, ("kmeans", "w1"): 2.0, ("bfs", "w2"): 2.0}
        stats = {p.id: fake_stats(opt.get((p.workload, p.variant.name), 1.0)) for p in pts}
        more = st.more_points(ctx, core.Results(pts, stats, {}, st.PRESET))
        sweep = {("comd", "s_m4"): 1.0, ("comd", "s_m1"): 4.0, ("bfs", "s_m1"): 1.0}  # over throttling: 0.5, 2, 0.5
        for p in more:
            stats[p.id] = fake_stats(sweep.get((p.workload, p.variant.name), 2.0))
        figs, _ = st.analyse(ctx, core.Results(pts + more, stats, {}, st.PRESET))
        by = {f.name: f for f in figs}
        for name in ("fig4_13_ebt_sweep", "fig4_24_ebt_sweep_bto"):
            fig = by[name]
            self.assertIn("(EBTNum 0 = throttling; empty: not legal at that warp-opt)", fig.title)
            self.assertEqual(fig.rows[-1][0], "geomean of the legal points (1-2 of 3)")
            self.assertIn("EBTNum -4 over 1, -2 over 1, -1 over 2, +1 over 2, +2 over 2, +4 over 2, +8 over 2 "
                          "of the 3 workloads", fig.note)
        g = dict(zip(by["fig4_13_ebt_sweep"].columns, by["fig4_13_ebt_sweep"].rows[-1]))
        self.assertAlmostEqual(g["-4"], 0.5)  # comd alone
        self.assertAlmostEqual(g["-1"], 1.0)  # comd 2 and bfs 0.5
        self.assertEqual(by["fig4_12_static_vs_throttling"].rows[-1][0], "geomean (3)")

    def test_agcb_summary_rows_and_a_variant_with_no_hits(self):
        st = load_study("agcb")
        ctx = FakeCtx(["kmeans", "bfs"], {"bfs"})
        pts = st.points(ctx)
        stats = {}
        for p in pts:
            stats[p.id] = fake_stats(1.0, misses=1000 if p.variant.name == "r15nv" else 500)  # r15nv: no hits
            stats[p.id]["memory"] = {"l2_bypass_overrides": 0}
        figs, _ = st.analyse(ctx, core.Results(pts, stats, {}, st.PRESET))
        by = {f.name: f for f in figs}
        hr = by["hit_rate_qv100"]
        self.assertNotIn(st.R15NV.label, hr.series)
        self.assertIn(st.R0NV.label, hr.series)
        self.assertIn(f"{st.R15NV.label}: 0 on every workload, not plotted", hr.title)
        self.assertIn(st.R15NV.label, hr.columns)  # still in the table
        rows = {r[0]: r for r in by["ipc_qv100"].rows}
        self.assertEqual(rows["geomean all (2)"][5:], [None] * 4)  # shares are means, not geomeans
        self.assertEqual(rows["mean all (2)"][1:5], [None] * 4)
        self.assertFalse(any("geomean/mean" in str(r[0]) for r in by["ipc_qv100"].rows))


@unittest.skipUnless(os.environ.get("GPUSIM"), "set GPUSIM to the gpusim binary")
class Smoke(unittest.TestCase):
    def setUp(self):
        self.keep = os.environ.get("EXPERIMENTS_TEST_OUT")  # kept for a look after the test
        self.out = self.keep or tempfile.mkdtemp(prefix="experiments-test-")
        shutil.rmtree(self.out, ignore_errors=True)
        os.makedirs(self.out)

    def tearDown(self):
        if not self.keep:
            shutil.rmtree(self.out, ignore_errors=True)

    def run_runner(self, study_dir, study, *extra):
        cmd = [sys.executable, os.path.join(EXP, "run.py"), "--gpusim", os.environ["GPUSIM"], "--scale", "test",
               "--jobs", "2", "--out", self.out, "--study-dir", study_dir,
               "--results", os.path.join(self.out, "results.md"), study, *extra]
        return subprocess.run(cmd, capture_output=True, text=True)

    def test_two_points_give_csv_json_png_and_are_cached(self):
        p = self.run_runner(os.path.join(HERE, "studies"), "smoke")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        sdir = os.path.join(self.out, "smoke")
        for f in ["ipc.csv", "ipc.json", "ipc.png", "run.json", "points/gtx480.vecadd.base.test.golden.json",
                  "points/gtx480.vecadd.dy25.test.golden.json", "inputs/dy25.policy.yaml"]:
            self.assertTrue(os.path.exists(os.path.join(sdir, f)), f)
        with open(os.path.join(sdir, "ipc.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        with open(os.path.join(sdir, "ipc.json")) as f:
            self.assertEqual(json.load(f)["rows"][0][0], "vecadd")
        with open(os.path.join(sdir, "points", "gtx480.vecadd.dy25.test.golden.json")) as f:
            self.assertEqual(json.load(f)["run"]["policy"], "dy25")
        self.assertIn("experiments:generated smoke begin", read(os.path.join(self.out, "results.md")))
        again = self.run_runner(os.path.join(HERE, "studies"), "smoke")
        self.assertEqual(again.returncode, 0, again.stdout + again.stderr)
        self.assertIn("2 points (2 cached)", again.stdout)

    def test_a_second_stage_runs_on_the_first_stage_results(self):
        p = self.run_runner(os.path.join(HERE, "studies"), "staged")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("== staged (second stage): 1 points (0 cached)", p.stdout)
        pts = os.path.join(self.out, "staged", "points")
        with open(os.path.join(pts, "gtx480.vecadd.w2.test.golden.json")) as f:
            w2 = json.load(f)
        with open(os.path.join(pts, "gtx480.vecadd.w4.test.golden.json")) as f:
            w4 = json.load(f)
        self.assertEqual((w2["run"]["warp_limit"], w4["run"]["warp_limit"]), (2, 4))  # Variant.args reached gpusim
        best = 2 if w2["result"]["ipc"] > w4["result"]["ipc"] else 4
        with open(os.path.join(pts, "gtx480.vecadd.pcal.test.golden.json")) as f:
            pcal = json.load(f)
        self.assertEqual((pcal["run"]["policy"], pcal["run"]["warp_limit"]), ("pcal", best))
        with open(os.path.join(self.out, "staged", "best.json")) as f:
            self.assertEqual(json.load(f)["rows"][0][1], best)
        again = self.run_runner(os.path.join(HERE, "studies"), "staged")
        self.assertIn("== staged (second stage): 1 points (1 cached)", again.stdout)

    def test_a_failing_point_is_reported_and_fails_the_study(self):
        p = self.run_runner(os.path.join(HERE, "studies_fail"), "broken")
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("error: broken/gtx480.vecadd.bad failed (exit 2)", p.stderr)
        self.assertIn("command: ", p.stderr)
        self.assertIn("threshold_pct", p.stderr)  # gpusim's message
        self.assertTrue(os.path.exists(os.path.join(self.out, "broken", "points", "gtx480.vecadd.base.test.golden.json")))
        self.assertIn("Failed points (1)", read(os.path.join(self.out, "results.md")))


class SplicedSummaryRows(unittest.TestCase):
    """scripts/results_summary_rows.py: the summary rows of docs/results.md's tables that hold a
    spliced workload's row (shfl, pfilter, sp) agree with the rows above them, and the script finds
    and rewrites a stale one (and leaves a summary over no spliced row alone)."""
    SCRIPT = os.path.join(os.path.dirname(EXP), "scripts", "results_summary_rows.py")
    TABLE = ("| workload | ipc | group (paper / ours) |\n|---|---|---|\n"
             "| a | 1.000 | paper regular / ours regular |\n| b | 4.000 | paper regular / ours regular |\n"
             "| geomean (2) | {} | - |\n")

    def run_script(self, path, spliced, mode):
        return subprocess.run([sys.executable, self.SCRIPT, path, "--spliced", spliced, mode],
                              capture_output=True, text=True)

    def test_results_md_summaries_agree_with_their_rows(self):
        r = self.run_script(os.path.join(os.path.dirname(EXP), "docs", "results.md"), "shfl,pfilter,sp", "--check")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # every Beside-the-paper row is checked: a row whose text no rule matches any more is not
        self.assertNotIn("no QUOTES entry", r.stderr)
        self.assertEqual(r.stderr.count("unverifiable: "), 1, r.stderr)  # RPR's age score, bounded only

    def test_a_stale_summary_is_found_and_rewritten(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "results.md")
            with open(path, "w") as f:
                f.write(self.TABLE.format("3.000"))
            self.assertEqual(self.run_script(path, "c", "--check").returncode, 0)  # no spliced row in it
            self.assertEqual(self.run_script(path, "a", "--check").returncode, 1)
            self.assertEqual(read(path), self.TABLE.format("3.000"))  # --check writes nothing
            self.assertEqual(self.run_script(path, "a", "--write").returncode, 0)
            self.assertEqual(read(path), self.TABLE.format("2.000"))  # geomean(1, 4)
            self.assertEqual(self.run_script(path, "a", "--check").returncode, 0)

    # A DyCache section: Fig. 8 with a bare group summary (a geomean), and a Beside-the-paper row
    # quoting it (paper 1.400 over ref 1: ours 2.000 is effect +2.50, same direction).
    SECTION = ("## DyCache: test\n\n**Beside the paper.**\n\n"
               "| what | paper | ours | same direction | ours / paper (effect size) | backend |\n"
               "|---|---:|---:|:---:|---:|---|\n"
               "| DyCache-50 IPC geomean, paper irregular (2) | 1.400 | {} | golden |\n"
               "| DyCache-50 speedup at 48 KB over its speedup at 16 KB (paper all) | lower (Fig. 10) | {} | golden |\n\n"
               "**Fig. 8: IPC**\n\n| workload | DyCache-50 | group (paper / ours) |\n|---|---:|---:|\n"
               "| a | 1.000 | paper irregular / ours irregular |\n| b | 4.000 | paper irregular / ours irregular |\n"
               "| paper irregular (2) | {} |  |\n\n"
               "**Fig. 10: 48 KB**\n\n| workload | DyCache-50 16 KB | DyCache-50 48 KB |\n|---|---:|---:|\n"
               "| a | 1.000 | 1.000 |\n| b | 4.000 | 2.000 |\n| paper all (2) | 2.000 | 1.414 |\n")

    def test_a_stale_beside_the_paper_cell_is_found_and_rewritten(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "results.md")
            stale = self.SECTION.format("0.900 | **no** | -0.25", "1.004 | **no** | -", "0.900")
            with open(path, "w") as f:
                f.write(stale)
            r = self.run_script(path, "b", "--check")
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertIn("paper irregular (2) | 0.900 |   ->  paper irregular (2) | 2.000", r.stdout)  # the summary
            self.assertIn("1.400 | 0.900 | **no** | -0.25  ->", r.stdout)                     # the quote of it
            self.assertIn("| 0.707 | yes | -", r.stdout)                                      # 1.414 / 2.000
            self.assertEqual(read(path), stale)  # --check writes nothing
            self.assertEqual(self.run_script(path, "b", "--write").returncode, 0)
            self.assertEqual(read(path), self.SECTION.format("2.000 | yes | +2.50", "0.707 | yes | -", "2.000"))
            self.assertEqual(self.run_script(path, "b", "--check").returncode, 0)
            # a quote is checked against its table whether or not a row of it was spliced
            with open(path, "w") as f:
                f.write(self.SECTION.format("2.000 | yes | +2.50", "1.004 | **no** | -", "2.000"))
            r = self.run_script(path, "c", "--check")
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertEqual(r.stdout.count("  ->  "), 1, r.stdout)

    # An AgeLRU section: the worst Dynamic-AgeLRU IPC over the AgeLRU-unfriendly workloads (those
    # below 0.97 with AgeLRU in Fig. 5.14), the lowest cell of Fig. 5.15's unfriendly table: 0.960
    # (b). Paper 0.970 over ref 1: effect (0.960 - 1) / (0.970 - 1) = +1.33, same direction.
    AGELRU = ("## AgeLRU: test\n\n**Beside the paper.**\n\n"
              "| what | paper | ours | same direction | ours / paper (effect size) | backend |\n"
              "|---|---:|---:|:---:|---:|---|\n"
              "| Dynamic-AgeLRU replacement: worst IPC over LRU on the AgeLRU-unfriendly workloads (a, b) | 0.970 | "
              "{} | verilated |\n\n"
              "**Fig. 5.14: every workload**\n\n| workload | AgeLRU |\n|---|---:|\n"
              "| a | 0.900 |\n| b | 0.950 |\n| c | {} |\n| geomean (3) | 0.950 |\n\n"
              "**Fig. 5.15: replacement (AgeLRU-unfriendly workloads)**\n\n"
              "| workload | AgeLRU | Dynamic-AgeLRU |\n|---|---:|---:|\n"
              "| a | 0.900 | 0.990 |\n| b | 0.950 | 0.960 |\n| geomean (2) | 0.925 | 0.975 |\n")

    def test_a_stale_worst_of_a_named_set_is_found_and_rewritten(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "results.md")
            fresh = self.AGELRU.format("0.960 | yes | +1.33", "1.000")
            for stale in (self.AGELRU.format("0.950 | yes | +1.67", "1.000"),    # a stale number
                          self.AGELRU.format("0.960 | **no** | +1.33", "1.000")):  # a stale direction
                with open(path, "w") as f:
                    f.write(stale)
                r = self.run_script(path, "z", "--check")
                self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
                self.assertIn("  ->  ", r.stdout)
                self.assertIn("| 0.960 | yes | +1.33", r.stdout)
                self.assertEqual(read(path), stale)  # --check writes nothing
                self.assertEqual(self.run_script(path, "z", "--write").returncode, 0)
                self.assertEqual(read(path), fresh)
                self.assertEqual(self.run_script(path, "z", "--check").returncode, 0)
            # c below 0.97 in Fig. 5.14: the unfriendly set is a, b, c, the row's text is stale; an
            # error that --write cannot fix (it exits 1 and leaves the row)
            wrong = self.AGELRU.format("0.960 | yes | +1.33", "0.960")
            with open(path, "w") as f:
                f.write(wrong)
            for mode in ("--check", "--write"):
                r = self.run_script(path, "z", mode)
                self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
                self.assertIn("error: names (a, b); the unfriendly table has (a, b), Fig. 5.14's AgeLRU below "
                              "0.97 (a, b, c)", r.stderr)
                self.assertEqual(read(path), wrong)


if __name__ == "__main__":
    unittest.main()
