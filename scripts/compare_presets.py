#!/usr/bin/env python3
"""Sets two presets side by side on the dissertation's cache-sensitive workloads (docs/simulator.md,
"Realistic vs reference-faithful"): baseline IPC, L1 miss rate, reservation failures by cause and
the NoC request latency, one gpusim run per workload and preset (golden L1), printed as a Markdown
table. Usage:

  scripts/compare_presets.py --gpusim build/bin/gpusim [--presets gtx480,gtx480-gpgpusim]
                             [--scale small] [--policy baseline] [--jobs 2] [--out DIR]
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "experiments"))
import core  # noqa: E402  (the cache-sensitive set is defined once, in experiments/core.py)

FAILS = ["mshr_full", "merge_full", "mshr_conflict", "miss_queue_full", "line_alloc"]


def run(gpusim, preset, workload, policy, scale, out):
    stats = os.path.join(out, f"{preset}_{workload}_{policy}.json")
    cmd = [gpusim, "--preset", preset, "--workload", workload, "--policy", policy, "--scale", scale,
           "--l1", "golden", "--stats", stats, "--quiet", "--no-progress"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
    with open(stats) as f:
        return json.load(f)


def row(j):
    l1 = j["l1"]["total"] if "total" in j["l1"] else j["l1"]
    rf = l1["reservation_failures"]
    lat = j.get("latency", {})
    return {"ipc": j["result"]["ipc"], "miss": 1 - l1["hit_rate"],
            "fails": {k: rf.get(k, 0) for k in FAILS},
            "noc": lat.get("noc_request_mean", float("nan")), "cycles": j["result"]["cycles"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpusim", required=True)
    ap.add_argument("--presets", default="gtx480,gtx480-gpgpusim")
    ap.add_argument("--scale", default="small", choices=["test", "small", "full", "paper"])
    ap.add_argument("--policy", default="baseline")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default="build/compare_presets")
    a = ap.parse_args()
    presets = a.presets.split(",")
    if len(presets) != 2:
        raise SystemExit(f"--presets: {a.presets!r}: name exactly two presets, comma-separated")
    os.makedirs(a.out, exist_ok=True)
    work = [(p, w) for w in core.CACHE_SENSITIVE for p in presets]
    res = {}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futs = {pool.submit(run, a.gpusim, p, w, a.policy, a.scale, a.out): (p, w) for p, w in work}
        for n, f in enumerate(concurrent.futures.as_completed(futs), 1):
            res[futs[f]] = row(f.result())
            print(f"\r{n}/{len(work)} runs", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    a0, b0 = presets
    print(f"| workload | IPC {a0} | IPC {b0} | L1 miss {a0} | L1 miss {b0} | "
          f"res. fails {a0} (full/merge/conflict/queue/line) | res. fails {b0} | NoC req. lat. {a0} | {b0} |")
    print("|---|---|---|---|---|---|---|---|---|")
    for w, short in core.CACHE_SENSITIVE.items():
        x, y = res[(a0, w)], res[(b0, w)]
        fx = "/".join(str(x["fails"][k]) for k in FAILS)
        fy = "/".join(str(y["fails"][k]) for k in FAILS)
        print(f"| {short} | {x['ipc']:.3f} | {y['ipc']:.3f} | {100 * x['miss']:.1f} % | {100 * y['miss']:.1f} % | "
              f"{fx} | {fy} | {x['noc']:.1f} | {y['noc']:.1f} |")


if __name__ == "__main__":
    main()
