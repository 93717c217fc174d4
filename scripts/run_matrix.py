#!/usr/bin/env python3
"""Runs gpusim over a workload x policy matrix and prints the comparison (make run).

  run_matrix.py --gpusim BIN [--preset NAME|FILE.yaml] [--l1 verilated|lockstep|netlist|golden]
                [--workloads a,b] [--policies p,q] [--scale small] [--jobs N] [--out DIR] [--compare-golden]
                [--require-positive ldst.direct_loads]... [--max-cycles N,W=N,W/P=N]

Every run writes DIR/<workload>.<policy>.<l1>.json (gpusim --stats). The table gives, per
workload, IPC normalised to the baseline policy (first of --policies), the L1 miss rate
(misses / accesses) and the bypass fraction (bypasses / accesses); DIR/summary.md holds the same
and DIR/summary.json the raw numbers. --compare-golden also runs every point with --l1 golden
and checks that both backends' statistics are identical byte for byte, except the one field
that names the backend (run.l1). --require-positive FIELD (a dotted path into the statistics) prints
FIELD's sum over the runs and fails unless some run counted it, e.g. that a matrix exercised a path
(repeatable: every FIELD given must be counted). --max-cycles stops runs after so many GPU cycles
(gpusim --max-cycles: exit 0, the statistics of the cycles run), e.g. to keep a gate-level matrix
short: a comma-separated list of N (every run), W=N (workload W) and W/P=N (W with policy P), the
most specific item applying.
Exit status: 0 all ran (and matched, and FIELD was counted), 1 otherwise.
"""
import argparse
import concurrent.futures
import json
import math
import os
import subprocess
import sys
import time


def run_point(gpusim, preset, workload, policy, l1, scale, out, max_cycles=0):
    stats = os.path.join(out, f"{workload}.{policy}.{l1}.json")
    # A configuration file (tb/configs/gate_small.yaml for --l1 netlist) instead of a preset name.
    where = ["--config", preset] if preset.endswith(".yaml") else ["--preset", preset]
    cmd = [gpusim, *where, "--workload", workload, "--policy", policy, "--scale", scale,
           "--l1", l1, "--stats", stats, "--quiet", "--no-progress"]
    if max_cycles:
        cmd += ["--max-cycles", str(max_cycles)]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if proc.returncode != 0:
        return {"ok": False, "seconds": seconds, "error": (proc.stderr or proc.stdout).strip(), "cmd": " ".join(cmd)}
    with open(stats) as f:
        text = f.read()
    return {"ok": True, "seconds": seconds, "stats": json.loads(text), "text": text, "file": stats}


def parse_max_cycles(ap, spec, workloads, policies):
    """--max-cycles' items as {(workload or None, policy or None): cycles}; an item naming a workload
    or policy outside the matrix, or a count that is not a positive integer, is an error."""
    limits = {}
    for item in filter(None, spec.split(",")):
        key, _, count = item.rpartition("=")
        w, _, p = key.partition("/")
        if not count.isdigit() or int(count) <= 0:
            ap.error(f"--max-cycles: item '{item}': '{count}' is not a positive cycle count")
        if key and (w not in workloads or (p and p not in policies) or ("/" in key and not p)):
            ap.error(f"--max-cycles: item '{item}': expected N, W=N or W/P=N with W in {','.join(workloads)} "
                     f"and P in {','.join(policies)}")
        limits[(w or None, p or None)] = int(count)
    return limits


def limit(limits, workload, policy):
    """The most specific --max-cycles item for one run (0: none)."""
    for key in ((workload, policy), (workload, None), (None, None)):
        if key in limits:
            return limits[key]
    return 0


def without_backend(text):
    j = json.loads(text)
    j["run"].pop("l1", None)
    # Golden-only counters (Accel-Sim's units, golden/l1.h; the staged pipe's decision pairs,
    # docs/simulator.md): the RTL has none.
    j.get("l1", {}).pop("accelsim_sectors", None)
    j.get("l1", {}).pop("staged_m_pairs", None)
    return json.dumps(j, sort_keys=True)


def ratio(a, b):
    return a / b if b else 0.0


def table(title, workloads, policies, cell, fmt):
    lines = [f"### {title}", "", "| workload | " + " | ".join(policies) + " |",
             "|---|" + "---:|" * len(policies)]
    for w in workloads:
        lines.append(f"| {w} | " + " | ".join(fmt(cell(w, p)) for p in policies) + " |")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpusim", required=True)
    ap.add_argument("--preset", default="gtx480")
    ap.add_argument("--l1", default="verilated", choices=["golden", "verilated", "lockstep", "netlist"])
    ap.add_argument("--workloads", default="vecadd,atax,mvt,bfs,spmv,kmeans")
    ap.add_argument("--policies", default="baseline,dycache,agcb,two-level,pcal,agelru,combined")
    ap.add_argument("--scale", default="small", choices=["test", "small", "full", "paper"])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default="build/run")
    ap.add_argument("--compare-golden", action="store_true")
    ap.add_argument("--require-positive", metavar="FIELD", action="append", default=[])
    ap.add_argument("--max-cycles", default="", metavar="N,W=N,W/P=N")
    a = ap.parse_args()

    workloads = [w for w in a.workloads.split(",") if w]
    policies = [p for p in a.policies.split(",") if p]
    os.makedirs(a.out, exist_ok=True)
    backends = [a.l1] + (["golden"] if a.compare_golden and a.l1 != "golden" else [])
    points = [(w, p, b) for w in workloads for p in policies for b in backends]
    limits = parse_max_cycles(ap, a.max_cycles, workloads, policies)
    print(f"run_matrix: {len(workloads)} workloads x {len(policies)} policies on {a.preset}, scale {a.scale}"
          f"{f', cycle limits {a.max_cycles}' if a.max_cycles else ''}, "
          f"L1 {' and '.join(backends)}: {len(points)} runs, {a.jobs} at a time", flush=True)

    results = {}
    failed = 0
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = {pool.submit(run_point, a.gpusim, a.preset, w, p, b, a.scale, a.out, limit(limits, w, p)): (w, p, b) for w, p, b in points}
        for n, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            key = futures[fut]
            r = fut.result()
            results[key] = r
            w, p, b = key
            if r["ok"]:
                res = r["stats"]["result"]
                note = f"{res['cycles']} cycles, IPC {res['ipc']:.3f}"
            else:
                failed += 1
                note = "FAILED: " + r["error"].splitlines()[-1] if r["error"] else "FAILED"
            print(f"[{n:>3}/{len(points)}] {w}/{p} ({b}): {note} ({r['seconds']:.1f} s)", flush=True)

    for key, r in sorted(results.items()):
        if not r["ok"]:
            print(f"\nerror: {key[0]}/{key[1]} ({key[2]}) failed:\n  {r['cmd']}\n  {r['error']}", file=sys.stderr)

    mismatched = []
    compared = 0  # points where both backends ran: a failed run is compared with nothing
    if len(backends) == 2:
        for w in workloads:
            for p in policies:
                x, y = results[(w, p, backends[0])], results[(w, p, backends[1])]
                if not (x["ok"] and y["ok"]):
                    continue
                compared += 1
                if without_backend(x["text"]) != without_backend(y["text"]):
                    mismatched.append(f"{w}/{p}: {x['file']} and {y['file']} differ")

    def get(w, p):
        r = results[(w, p, a.l1)]
        return r["stats"] if r["ok"] else None

    def ipc_norm(w, p):
        s, base = get(w, p), get(w, policies[0])
        return ratio(s["result"]["ipc"], base["result"]["ipc"]) if s and base else None

    def l1_ratio(field):
        return lambda w, p: ratio(get(w, p)["l1"][field], get(w, p)["l1"]["accesses"]) if get(w, p) else None

    num = lambda v: "-" if v is None else f"{v:.3f}"
    pct = lambda v: "-" if v is None else f"{100 * v:.1f} %"
    lines = [f"## gpusim on {a.preset}, scale {a.scale}, L1 {a.l1}", ""]
    lines += table(f"IPC normalised to {policies[0]}", workloads, policies, ipc_norm, num)
    geo = []
    for p in policies:
        v = [ipc_norm(w, p) for w in workloads]
        geo.append(math.exp(sum(math.log(x) for x in v) / len(v)) if all(v) else None)
    lines.append("| geomean | " + " | ".join(num(g) for g in geo) + " |")
    lines += [""] + table("L1 miss rate (misses / accesses)", workloads, policies, l1_ratio("misses"), pct)
    lines += [""] + table("L1 bypass fraction (bypasses / accesses)", workloads, policies, l1_ratio("bypasses"), pct)
    text = "\n".join(lines) + "\n"
    print("\n" + text)
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write(text)
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump({f"{w}/{p}/{b}": {"ok": r["ok"], "seconds": round(r["seconds"], 2),
                                     **({"result": r["stats"]["result"], "l1": r["stats"]["l1"]} if r["ok"] else {})}
                   for (w, p, b), r in sorted(results.items())}, f, indent=2)
    print(f"JSON statistics: {a.out}/<workload>.<policy>.{a.l1}.json; tables: {a.out}/summary.md; "
          f"{time.monotonic() - start:.0f} s in all")
    if len(backends) == 2:
        if mismatched:
            print("error: golden and verilated statistics differ:\n  " + "\n  ".join(mismatched), file=sys.stderr)
        elif compared == len(workloads) * len(policies):
            print(f"golden and {a.l1}: statistics identical for all {compared} points (every field but run.l1)")
        else:
            print(f"golden and {a.l1}: statistics identical for the {compared} of {len(workloads) * len(policies)} "
                  "points where both ran (every field but run.l1); the failed runs are listed above", file=sys.stderr)
    unreached = False
    for name in a.require_positive:
        def field(stats):
            for k in name.split("."):
                stats = stats[k]
            return stats
        per_run = {f"{w}/{p}": field(r["stats"]) for (w, p, b), r in sorted(results.items()) if r["ok"] and b == a.l1}
        total = sum(per_run.values())
        print(f"{name}: {total} over {len(per_run)} runs (" +
              ", ".join(f"{k} {v}" for k, v in per_run.items() if v) + ")")
        if total <= 0:
            print(f"error: no run counted {name}", file=sys.stderr)
            unreached = True
    return 1 if failed or mismatched or unreached else 0


if __name__ == "__main__":
    sys.exit(main())
