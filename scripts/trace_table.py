#!/usr/bin/env python3
"""Runs real traces on GPU presets and prints one markdown table of their L1 and L2 numbers.

  trace_table.py --gpusim BIN --traces DIR[,DIR...] [--presets auto,gtx480,...] [--jobs N]

Each trace runs on every preset named; `auto` is gpusim's `--preset auto` (the preset of the
trace's binary version), reported with the preset it chose. Columns: cycles, IPC, L1 hits, sector
misses, line misses (misses without a held line) and L2 accesses (memory.reads + memory.writes), from gpusim's
--stats JSON.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile


def run(gpusim, trace, preset, out_dir):
    stats = os.path.join(out_dir, f"{os.path.basename(trace)}.{preset}.json")
    cmd = [gpusim, "--preset", preset, "--trace", trace, "--stats", stats]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return {"error": (p.stdout + p.stderr).strip().splitlines()[-1:] or ["exit %d" % p.returncode]}
    chosen = re.search(r"preset (\S+) chosen by --preset auto", p.stdout)
    with open(stats) as f:
        j = json.load(f)
    return {"stats": j, "chosen": chosen.group(1) if chosen else preset, "summary": p.stdout}


def row(trace, preset, r):
    name = os.path.basename(trace.rstrip("/"))
    if "error" in r:
        return f"| {name} | {preset} | failed: {r['error'][0]} | | | | | |"
    j, out = r["stats"], r["summary"]
    m = re.search(r"completed: (\d+) cycles, (\d+) warp instructions, IPC ([0-9.]+)", out)
    cycles, ipc = (int(m.group(1)), m.group(3)) if m else ("?", "?")
    l1 = j["l1"]
    line_misses = l1["misses"] - l1.get("sector_misses", 0)
    mem = j["memory"]  # what reached the memory system: reads and writes at the L2 slices
    l2_acc = mem["reads"] + mem["writes"]
    label = preset if preset != "auto" else f"auto -> {r['chosen']}"
    return (f"| {name} | {label} | {cycles:,} | {ipc} | {l1['hits']:,} | {l1.get('sector_misses', 0):,} | "
            f"{line_misses:,} | {l2_acc:,} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpusim", required=True)
    ap.add_argument("--traces", required=True, help="comma-separated trace directories")
    ap.add_argument("--presets", default="auto,gtx480,gtx1080,qv100,a100,rtx3070,h100")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    traces = [t for t in a.traces.split(",") if t]
    presets = [p for p in a.presets.split(",") if p]
    for t in traces:
        if not os.path.isdir(t):
            sys.exit(f"trace_table.py: --traces: {t} is not a directory")
    with tempfile.TemporaryDirectory() as tmp:
        points = [(t, p) for t in traces for p in presets]
        print(f"trace_table: {len(points)} runs, {a.jobs} at a time", file=sys.stderr)
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            results = list(pool.map(lambda tp: run(a.gpusim, tp[0], tp[1], tmp), points))
    print("| trace | preset | cycles | IPC | L1 hits | L1 sector misses | L1 line misses | L2 accesses |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for (t, p), r in zip(points, results):
        print(row(t, p, r))


if __name__ == "__main__":
    main()
