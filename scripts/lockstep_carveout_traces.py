#!/usr/bin/env python3
"""Lockstep of an adaptive-carveout L1 on kernels of different carveouts (contract 15, 16.5).

  lockstep_carveout_traces.py --gpusim build/bin/gpusim --config tb/block_configs/gtx480_staged_carveout.yaml \
      --traces bfs_rodinia31_bv70,romnn_vectoradd_100,romnn_matrixmul_32 --policies baseline,agcb --out DIR

Each trace of ../shared/traces is rewritten by scripts/carveout_trace_alt.sh (every second kernel
declares 32 KB of shared memory per CTA, so the L1's size alternates between kernels) and run with
every policy three times: --l1 lockstep (exit 0: no mismatch, no RTL assertion), --l1 verilated and
--l1 golden, whose statistics must be identical but for the backend's name and the golden-only
counters (scripts/run_matrix.py without_backend). The run's "L1 carveout:" line must name at least
two L1 sizes. Resizes are counted from the statistics: the kernels in launch order; every
SM's L1 changes at each kernel whose size differs from the previous one's (starting at
l1.size_bytes), one resize per SM (Sm::resize_l1).
Exit 0 if every run passed, 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_matrix import without_backend  # noqa: E402


def resizes(stats, base_bytes):
    """Resizes over the run: every SM gets every kernel's start with its L1 size (Gpu::run_kernel) and
    resizes when the size differs from its last one (Sm::resize_l1), starting at l1.size_bytes."""
    size, changes = base_bytes, 0
    for k in stats["result"]["kernels"]:
        changes += k["l1_bytes"] != size
        size = k["l1_bytes"]
    return changes * stats["run"]["num_sms"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpusim", required=True)
    ap.add_argument("--config", required=True)
    ap.add_argument("--traces", required=True, help="comma list of trace folders in --trace-root")
    ap.add_argument("--trace-root", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "traces"))
    ap.add_argument("--policies", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    alt = os.path.join(os.path.dirname(os.path.abspath(__file__)), "carveout_trace_alt.sh")
    failed, total = 0, 0
    for trace in filter(None, a.traces.split(",")):
        tdir = os.path.join(a.out, trace)
        subprocess.run(["bash", alt, a.trace_root, trace, tdir], check=True)
        for policy in filter(None, a.policies.split(",")):
            stats, line = {}, ""
            for l1 in ("lockstep", "verilated", "golden"):
                out = os.path.join(a.out, f"{trace}.{policy}.{l1}.json")
                r = subprocess.run([a.gpusim, "--config", a.config, "--trace", tdir, "--policy", policy, "--l1", l1,
                                    "--stats", out], capture_output=True, text=True)
                if r.returncode != 0:
                    print(f"FAIL {trace} {policy} --l1 {l1}: exit {r.returncode}\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
                    failed += 1
                    break
                with open(out) as f:
                    stats[l1] = f.read()
                if l1 == "lockstep":
                    line = next((x for x in r.stdout.splitlines() if x.startswith("L1 carveout:")), "")
            else:
                j = json.loads(stats["lockstep"])
                sizes = {k["l1_bytes"] for k in j["result"]["kernels"]}
                same = without_backend(stats["verilated"]) == without_backend(stats["golden"])
                n = resizes(j, int(j["config"]["l1.size_bytes"]))
                ok = same and len(sizes) >= 2 and n > 0
                failed += not ok
                total += n
                print(f"{'ok  ' if ok else 'FAIL'} {trace} {policy}: lockstep clean, {n} resizes, L1 sizes "
                      f"{sorted(s // 1024 for s in sizes)} KB, verilated and golden statistics "
                      f"{'identical' if same else 'DIFFER'}; {line}", flush=True)
    print(f"lockstep_carveout_traces: {total} resizes in lockstep, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
