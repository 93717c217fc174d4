#!/usr/bin/env python3
"""Checks that the studies' points give the same statistics on two L1 backends.

  compare_backends.py [--out build/experiments] [--scale small] [--a golden] [--b verilated] [STUDY...]

After `make experiments` (L1=verilated, its default) and `make experiments L1=golden`, every
study directory holds both points/<preset>.<workload>.<variant>.<scale>.golden.json and ...verilated.json. This
compares each pair as JSON with the field that names the backend (run.l1) and the golden-only
statistics (l1.accelsim_sectors, and on the staged pipe l1.staged_m_pairs) left out, and
prints per study how many pairs there are, how many of the B points really ran on B (a point
without a verilated model of its configuration falls back to golden and says so in its record)
and how many differ. Exit status: 0 every pair identical, 1 a pair differs or a B point has no A
counterpart, 2 nothing to compare.
"""
import argparse
import json
import os
import sys


def stats_without_backend(path):
    with open(path) as f:
        j = json.load(f)
    backend = j.get("run", {}).pop("l1", None)
    j.get("l1", {}).pop("accelsim_sectors", None)  # golden-only counters (golden/l1.h): the RTL has none
    j.get("l1", {}).pop("staged_m_pairs", None)  # golden-only, the staged pipe's decision pairs (docs/simulator.md)
    return j, backend


def first_difference(a, b, where=""):
    """The path of the first differing field of two JSON values, or None."""
    if type(a) is not type(b):
        return where or "/"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{where}/{k}"
            d = first_difference(a[k], b[k], f"{where}/{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{where} (length {len(a)} vs {len(b)})"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{where}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{where}: {a} vs {b}"


def compare_study(study_dir, scale, a, b):
    """(pairs, ran_on_b, problems) for one study directory."""
    points = os.path.join(study_dir, "points")
    suffix_b = f".{scale}.{b}.json"
    pairs = ran_on_b = 0
    problems = []
    for name in sorted(os.listdir(points)) if os.path.isdir(points) else []:
        if not name.endswith(suffix_b) or name.endswith(".meta.json"):
            continue
        stem = name[: -len(suffix_b)]
        path_a = os.path.join(points, f"{stem}.{scale}.{a}.json")
        if not os.path.exists(path_a):
            problems.append(f"{stem}: no {a} point")
            continue
        sa, _ = stats_without_backend(path_a)
        sb, backend = stats_without_backend(os.path.join(points, name))
        pairs += 1
        ran_on_b += backend == b
        d = first_difference(sa, sb)
        if d:
            problems.append(f"{stem}: differs at {d}")
    return pairs, ran_on_b, problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="build/experiments")
    ap.add_argument("--scale", default="small")
    ap.add_argument("--a", default="golden")
    ap.add_argument("--b", default="verilated")
    ap.add_argument("studies", nargs="*")
    args = ap.parse_args(argv)
    studies = args.studies or sorted(d for d in os.listdir(args.out) if os.path.isdir(os.path.join(args.out, d, "points")))
    total = total_b = 0
    bad = []
    for s in studies:
        pairs, ran_on_b, problems = compare_study(os.path.join(args.out, s), args.scale, args.a, args.b)
        total += pairs
        total_b += ran_on_b
        bad += [f"{s}: {p}" for p in problems]
        print(f"{s}: {pairs} pairs, {ran_on_b} ran on {args.b} ({pairs - ran_on_b} fell back to {args.a}), "
              f"{len(problems)} problems")
    for p in bad:
        print("  " + p)
    if total == 0:
        print(f"nothing to compare: no {args.b} point with an {args.a} counterpart under {args.out}", file=sys.stderr)
        return 2
    print(f"{total} pairs ({total_b} on {args.b}): " + ("statistics identical but run.l1" if not bad else
                                                         f"{len(bad)} problems"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
