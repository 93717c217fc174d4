#!/usr/bin/env python3
"""Prints cmake/gtest_suite_costs.txt from a measured ctest run (docs/performance.md, twelfth round).

usage: gtest_suite_costs.py BUILD [--min SECONDS] [--split SECONDS] [--old COSTLIST]

BUILD is a build directory after an idle `ctest -LE slow -j 2` (make test's run): its
Testing/Temporary/CTestCostData.txt gives each test's average seconds and its
*_suites<N>_tests.cmake files (cmake/gtest_suites_discover.cmake) name the suite tests. The data may
come from a build of one ctest test per gtest case too (before the twelfth round: `Suite.Case`,
`Prefix/Suite.Case/0  # GetParam() = ...`, `Suite.Case<Type>`): a case's time then counts towards its
suite's, and a suite longer than --split (15 s) is split into ceil(time / --split) parts, its cases listed with their
times. From a per-suite run a split suite's parts (`Suite[1/2]` ...) add up to the suite's time and
its case lines are kept from --old (the checked-in list). Suites under --min (1 s) are left out:
ctest starts them after the listed ones.
"""
import argparse
import math
import glob
import os
import re
import sys


def suite_names(build):
    """The ctest names gtest_suites_discover.cmake wrote, without a part's `[i/n]`."""
    names = set()
    for path in glob.glob(os.path.join(build, "**", "*_suites*_tests.cmake"), recursive=True):
        with open(path) as f:
            for m in re.finditer(r"^add_test\(\[==\[(.*?)\]==\]", f.read(), re.M):
                names.add(re.sub(r"\[\d+/\d+\]$", "", m.group(1)))
    return names


def case_to_suite(name):
    """An old per-case ctest name -> (suite test name, case), or None."""
    name = name.split("  # ")[0]
    prefix = "tb." if name.startswith("tb.") else ""
    rest = name[len(prefix):]
    typed = re.match(r"^([A-Za-z0-9_/]+)\.([A-Za-z0-9_/]+)<(.+)>$", rest)
    if typed:
        return f"{prefix}{typed.group(1)}<{typed.group(3)}>", typed.group(2)
    plain = re.match(r"^([A-Za-z0-9_/]+)\.([A-Za-z0-9_]+(/.*)?)$", rest)  # CMake 3.25 names some /"param"
    if plain:
        return prefix + plain.group(1), plain.group(2)
    return None


def old_case_lines(path):
    """suite -> [(case, seconds)] from an existing cost list's indented lines."""
    cases, current = {}, None
    if path and os.path.exists(path):
        for line in open(path):
            line = line.split("#")[0].rstrip()
            if not line.strip():
                continue
            if line[0] in " \t":
                case, sec = line.split()
                cases.setdefault(current, []).append((case, float(sec)))
            else:
                current = line.split()[0]
    return cases


HEADER = """\
# The ctest COST of the long gtest suites (cmake/gtest_suites.cmake, docs/performance.md, "make
# test's ctest, twelfth round"): with no timing data of its own (a clean clone, as make test and CI
# run), ctest starts the tests in descending COST, so that the long suites start with the other
# long tests (CMakeLists.txt's COST list, same unit) instead of in definition order.
#
#   <ctest name of a suite> <seconds> [<parts>]
#     <case> <seconds>            (a split suite's cases: the parts are packed longest first)
#
# Seconds: wall seconds per test under an idle make test (`ctest -LE slow -j 2`), the average of
# the runs in BUILD/Testing/Temporary/CTestCostData.txt; from a build of one ctest test per gtest
# case (before the twelfth round), a suite's is the sum of its cases' (their process starts
# included, 12-37 ms each). Suites under 1 s are left out. A suite over 15 s runs as ceil(seconds / 15)
# parts, `Suite[1/2]` ...; its cases under 0.05 s are not listed (10 ms each).
# Regenerate after an idle `ctest -LE slow -j 2` on a build:
#   /usr/bin/python3 scripts/gtest_suite_costs.py BUILD > cmake/gtest_suite_costs.txt
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--min", type=float, default=1.0)
    ap.add_argument("--split", type=float, default=15.0)
    ap.add_argument("--old", default=os.path.join(os.path.dirname(__file__), "..", "cmake", "gtest_suite_costs.txt"))
    args = ap.parse_args()
    names = suite_names(args.build)
    if not names:
        sys.exit(f"gtest_suite_costs.py: {args.build}: no *_suites*_tests.cmake (build the tests first)")
    costs = {}
    for line in open(os.path.join(args.build, "Testing", "Temporary", "CTestCostData.txt")):
        fields = line.rsplit(None, 2)
        if line.startswith("---") or len(fields) != 3:
            break  # the list of failed tests follows
        costs[fields[0]] = float(fields[2])
    suites, cases = {}, {}
    for test, sec in costs.items():
        whole = re.sub(r"\[\d+/\d+\]$", "", test)
        if whole in names:  # a per-suite run
            suites[whole] = suites.get(whole, 0.0) + sec
            continue
        mapped = case_to_suite(test)
        if mapped and mapped[0] in names:
            suites[mapped[0]] = suites.get(mapped[0], 0.0) + sec
            cases.setdefault(mapped[0], []).append((mapped[1], sec))
    old = old_case_lines(args.old)
    print(HEADER, end="")
    print(f"# From: {os.path.abspath(args.build)}/Testing/Temporary/CTestCostData.txt")
    for suite, sec in sorted(suites.items(), key=lambda kv: -kv[1]):
        if sec < args.min:
            continue
        listed = cases.get(suite) or old.get(suite)
        if sec > args.split and listed:
            print(f"{suite} {sec:.1f} {math.ceil(sec / args.split)}")
            for case, csec in sorted(listed, key=lambda kv: -kv[1]):
                if csec >= 0.05:
                    print(f"  {case} {csec:.2f}")
        else:
            print(f"{suite} {sec:.1f}")


if __name__ == "__main__":
    main()
