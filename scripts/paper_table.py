#!/usr/bin/env python3
"""The paper-vs-ours table of docs/workloads.md: our baseline L1 miss rate and warp occupancy
at `--scale paper` on each paper's preset, beside the numbers the papers print.

  paper_table.py --gpusim BIN [--jobs N] [--threads T] [--scale paper] [--stats-dir DIR] [--update docs/workloads.md]

Runs every workload of PAPER_ROWS once (baseline policy, in parallel with --jobs) and prints a
Markdown table, or with --update replaces the lines between `<!-- paper-table:begin -->` and
`<!-- paper-table:end -->` of the file (with --workload, only those workloads' rows: the others
stay as the file has them). Exit code 1 when a run fails or a result check fails.

Our columns, from gpusim's --stats JSON: L1 miss rate = l1.misses / l1.accesses (partial hits
are misses); resident warps per scheduler = occupancy.resident_warps_per_scheduler_mean (the
dissertation's warp-max is the most warps a scheduler holds: compare with
..._max too); active-warp occupancy = occupancy.active_warp_occupancy (the two-level paper's
warp occupancy: warps with a valid instruction-buffer entry over the warp slots).
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

DISS = "gtx480-gpgpusim"   # the dissertation's GPGPU-Sim Fermi
JIPS = "gtx1080-jips"      # the two-level paper's GPGPU-Sim v4.0 GTX 1080

# (workload, paper's name, preset, paper's L1 miss rate (text) or None, paper's occupancy (text)
# or None, source). Dissertation pages are those of its lists of contents, tables and figures;
# the two-level paper (JIPS) is cited by section (the text we have has no page numbers).
DISS_41 = "dissertation Table 4.1 (warp-max per scheduler), p. 44"
PAPER_ROWS = [
    ("comd", "CoMD", DISS, "7 % at 1 warp / scheduler, 64 % at 8", "warp-max 16 / 24",
     "dissertation 4.1.2, Fig. 4.3a, p. 44-45; " + DISS_41),
    ("invindex", "II", DISS, None, "warp-max 24 / 24", DISS_41),
    ("bfs", "BFS", DISS, None, "warp-max 24 / 24", DISS_41),
    ("kmeans", "KMN", DISS, "94 % (LRU)", "warp-max 24 / 24",
     "dissertation 5.4.1.1 (case study of KMN, Fig. 5.8), p. 134-136; " + DISS_41),
    ("strmatch", "SM", DISS, None, "warp-max 24 / 24", DISS_41),
    ("simscore", "SS", DISS, None, "warp-max 24 / 24", DISS_41),
    ("sssp", "SSSP", DISS, None, "warp-max 24 / 24", DISS_41),
    ("streamcluster", "SCLUSTER", DISS, None, "warp-max 24 / 24", DISS_41),
    ("atax", "ATAX", DISS, None, "warp-max 4 / 24", DISS_41),
    ("bicg", "BICG", DISS, None, "warp-max 4 / 24", DISS_41),
    ("gesummv", "GESUMMV", DISS, None, "warp-max 4 / 24", DISS_41),
    ("mvt", "MVT", DISS, None, "warp-max 4 / 24", DISS_41),
    ("spmv", "SPMV", JIPS, None, "89 %", "two-level paper section 2, Fig. 1"),
    ("btree", "BT", JIPS, None, "84 %", "two-level paper section 2, Fig. 1"),
    ("streamcluster", "STC", JIPS, "73 %", "93 %", "two-level paper section 2, Fig. 1"),
    ("cfd", "CF", JIPS, "4.6 %", None, "two-level paper section 2, Fig. 1; section 4"),
    ("pfilter", "PF", JIPS, "99 %", "< 46 %", "two-level paper section 2, Fig. 1; section 4"),
    ("lud", "LUD", JIPS, "72 %", "18 % (5.8 warps)", "two-level paper section 2, Fig. 1; section 4 (w = 5.8)"),
    ("shfl", "SHFL", JIPS, "68 %", "< 46 %", "two-level paper section 2, Fig. 1; section 4"),
    ("adi", "ADI", JIPS, None, "< 46 %", "two-level paper section 4 (B-mode benchmarks: < 46 %)"),
    ("nw", "NW", JIPS, None, "< 46 %", "two-level paper section 4 (B-mode benchmarks: < 46 %)"),
    ("jacobi1d", "JCB1D", JIPS, None, "< 46 %", "two-level paper section 4 (B-mode benchmarks: < 46 %)"),
    ("sqn", "SQN", JIPS, None, "< 46 %", "two-level paper section 4 (B-mode benchmarks: < 46 %)"),
]

BEGIN, END = "<!-- paper-table:begin -->", "<!-- paper-table:end -->"


def run(gpusim, workload, preset, scale, out_dir, threads):
    stats = os.path.join(out_dir, f"{workload}.{preset}.{scale}.json")
    if os.path.exists(stats):  # a run --stats-dir kept (its check passed: failed runs keep no file)
        with open(stats) as f:
            return {"stats": json.load(f), "secs": 0.0}
    cmd = [gpusim, "--preset", preset, "--workload", workload, "--scale", scale, "--stats", stats + ".tmp",
           "--no-progress", "--threads", str(threads)]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.time() - t0
    if p.returncode != 0 or "result check: passed" not in p.stdout:
        tail = (p.stdout + p.stderr).strip().splitlines()[-1:] or [f"exit {p.returncode}"]
        return {"error": tail[0], "secs": secs}
    os.replace(stats + ".tmp", stats)
    with open(stats) as f:
        return {"stats": json.load(f), "secs": secs}


def key(spec):
    """The start of a spec's table row: '| NAME (`workload`) | preset |'."""
    return f"| {spec[1]} (`{spec[0]}`) | {spec[2]} |"


def row(spec, r):
    w, name, preset, miss, occ, source = spec
    if "error" in r:
        return f"| {name} (`{w}`) | {preset} | {miss or '-'} | failed: {r['error']} | {occ or '-'} | | | | {source} |"
    j = r["stats"]
    l1, o = j["l1"], j["occupancy"]
    ours_miss = 100.0 * l1["misses"] / l1["accesses"] if l1["accesses"] else 0.0
    return (f"| {name} (`{w}`) | {preset} | {miss or '-'} | {ours_miss:.1f} % | {occ or '-'} | "
            f"{o['resident_warps_per_scheduler_mean']:.1f} / {o['resident_warps_per_scheduler_max']} | "
            f"{100.0 * o['active_warp_occupancy']:.0f} % | {o['ctas']} CTAs, {o['sms_used']} SMs | {source} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpusim", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1,
                    help="gpusim --threads of each run (the statistics do not depend on it)")
    ap.add_argument("--scale", default="paper", choices=["test", "small", "full", "paper"])
    ap.add_argument("--workload", action="append", help="only this workload (repeatable)")
    ap.add_argument("--update", help="replace the paper-table section of this file")
    ap.add_argument("--stats-dir", help="keep each run's --stats JSON here and reuse the ones already here")
    a = ap.parse_args()
    specs = [s for s in PAPER_ROWS if not a.workload or s[0] in a.workload]
    if not specs:
        sys.exit(f"paper_table.py: --workload: none of {a.workload} is in the table "
                 f"({', '.join(sorted({s[0] for s in PAPER_ROWS}))})")
    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        d = a.stats_dir or tmp
        os.makedirs(d, exist_ok=True)
        futs = [ex.submit(run, a.gpusim, s[0], s[2], a.scale, d, a.threads) for s in specs]
        results = [f.result() for f in futs]
    for s, r in zip(specs, results):
        print(f"{s[0]:<14} {s[2]:<16} {r['secs']:7.1f} s  {r.get('error', 'passed')}", file=sys.stderr)
    print(f"{len(specs)} runs, {time.time() - t0:.0f} s wall, {sum(r['secs'] for r in results):.0f} s summed",
          file=sys.stderr)
    lines = [f"| paper's name (ours) | preset | paper: L1 miss rate | ours: L1 miss rate ({a.scale}) | "
             "paper: occupancy | ours: resident warps / scheduler, mean / max | ours: active-warp occupancy | "
             "ours: grid | source |",
             "|---|---|---|---:|---|---|---:|---|---|"]
    ok = all("error" not in r for r in results)
    new = {key(s): row(s, r) for s, r in zip(specs, results)}
    if not a.update:
        sys.stdout.write("\n".join(lines + list(new.values())) + "\n")
        return 0 if ok else 1
    with open(a.update) as f:
        text = f.read()
    b, e = text.find(BEGIN), text.find(END)
    if b < 0 or e < b:
        sys.exit(f"paper_table.py: {a.update} has no {BEGIN} ... {END} section")
    # With --workload, the rows not run this time stay as the file has them, in PAPER_ROWS order.
    old = {line[:line.index("|", line.index("|", 1) + 1) + 1]: line
           for line in text[b:e].splitlines() if line.startswith("| ") and "(`" in line}
    lines += [new.get(key(s)) or old[key(s)] for s in PAPER_ROWS if key(s) in new or key(s) in old]
    table = "\n".join(lines) + "\n"
    with open(a.update, "w") as f:
        f.write(text[:b] + BEGIN + "\n" + table + text[e:])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
