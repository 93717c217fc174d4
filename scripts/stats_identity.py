#!/usr/bin/env python3
"""Checks that two gpusim builds (or two argument sets) give byte-identical statistics.

Runs every point of a preset x workload x policy matrix (and, with --traces, each trace on
each preset) twice: once with --base and --base-args, once with --new and --new-args, and
compares the two JSON statistics files byte for byte. A speed-up must leave the statistics
unchanged (docs/performance.md); so must --threads N.

  stats_identity.py --base /tmp/gpusim-old --new build/bin/gpusim --presets gtx480,qv100 --scale test
  stats_identity.py --base build/bin/gpusim --new build/bin/gpusim --new-args="--threads 2" ...
  stats_identity.py --base /tmp/gpusim-old --new build/bin/gpusim --presets "" \
      --configs tb/block_configs/gtx480_staged.yaml --base-args="--l1 verilated" --new-args="--l1 verilated"

A configuration field the base build does not have (a new preset field whose every preset keeps
the old behaviour) is named with --new-field core.load_wait=on_issue: each new run must report
that value under config; the two runs are then compared as parsed JSON with that field dropped
from the new one (numbers compare exactly: JSON keeps every digit gpusim wrote).

Exit 0 if every point is identical, 1 if any differs (the first differing field is printed),
2 on bad input.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import tempfile

# The field-by-field JSON comparison of the backend matrix tool (make experiments-compare).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "experiments"))
from compare_backends import first_difference  # noqa: E402


def listing(gpusim: str, flag: str) -> list[str]:
    out = subprocess.run([gpusim, flag], check=True, capture_output=True, text=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def run(binary: str, extra: list[str], point: list[str], stats: str) -> str:
    cmd = [binary, *point, *extra, "--stats", stats]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return f"exit {r.returncode}: {' '.join(cmd)}: {r.stderr.strip().splitlines()[-1:] }"
    return ""


def compare(args, point: list[str], tmp: str, n: int) -> tuple[str, str]:
    name = " ".join(point)
    a, b = os.path.join(tmp, f"{n}.base.json"), os.path.join(tmp, f"{n}.new.json")
    for binary, extra, out in ((args.base, args.base_args, a), (args.new, args.new_args, b)):
        err = run(binary, shlex.split(extra), point, out)
        if err:
            return name, err
    if args.new_field:
        with open(a) as fa, open(b) as fb:
            ja, jb = json.load(fa), json.load(fb)
        for field in args.new_field:
            key, value = field.split("=", 1)
            got = jb.get("config", {}).pop(key, None)
            if str(got) != value:
                return name, f"config.{key} is {got!r}, --new-field expects {value!r}"
        where = first_difference(ja, jb)
        return name, "" if where is None else f"differs at {where}"
    with open(a, "rb") as fa, open(b, "rb") as fb:
        if fa.read() == fb.read():
            return name, ""
    with open(a) as fa, open(b) as fb:
        ja, jb = json.load(fa), json.load(fb)
    where = first_difference(ja, jb)
    if where is None:
        return name, "differs in formatting only"
    return name, f"differs at {where}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="gpusim binary of the reference run")
    ap.add_argument("--new", required=True, help="gpusim binary of the run to check")
    ap.add_argument("--base-args", default="", help="extra arguments for the reference run")
    ap.add_argument("--new-args", default="", help="extra arguments for the checked run")
    ap.add_argument("--presets", default="gtx480,gtx1080,qv100")
    ap.add_argument("--configs", default="",
                    help="comma list of configuration files (gpusim --config), run like the presets")
    ap.add_argument("--workloads", default="all", help="comma list or 'all' (--list-workloads)")
    ap.add_argument("--policies", default="all", help="comma list or 'all' (--list-policies)")
    ap.add_argument("--scale", default="test", choices=["test", "small", "full", "paper"])
    ap.add_argument("--traces", default="", help="comma list of trace folders, run on every preset")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--new-field", action="append", default=[], metavar="KEY=VALUE",
                    help="a config field only the new build reports, with the value it must have")
    args = ap.parse_args()
    for field in args.new_field:
        if "=" not in field:
            print(f"stats_identity.py: --new-field: {field!r} is not KEY=VALUE", file=sys.stderr)
            return 2
    for b in (args.base, args.new):
        if not os.access(b, os.X_OK):
            print(f"stats_identity.py: --base/--new: {b} is not an executable gpusim", file=sys.stderr)
            return 2
    workloads = listing(args.new, "--list-workloads") if args.workloads == "all" else args.workloads.split(",")
    policies = listing(args.new, "--list-policies") if args.policies == "all" else args.policies.split(",")
    points = []
    machines = [["--preset", p] for p in filter(None, args.presets.split(","))]
    machines += [["--config", c] for c in filter(None, args.configs.split(","))]
    for machine in machines:
        for w in workloads:
            for p in policies:
                points.append([*machine, "--workload", w, "--policy", p, "--scale", args.scale])
        for t in filter(None, args.traces.split(",")):
            points.append([*machine, "--trace", t])
    differing = 0
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(compare, args, pt, tmp, n) for n, pt in enumerate(points)]
        for done, f in enumerate(concurrent.futures.as_completed(futures), 1):
            name, problem = f.result()
            if problem:
                differing += 1
                print(f"DIFFERENT {name}: {problem}", flush=True)
            if done % 50 == 0 or done == len(points):
                print(f"[{done}/{len(points)}] {differing} differing", file=sys.stderr, flush=True)
    print(f"{len(points) - differing} of {len(points)} points byte-identical")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
