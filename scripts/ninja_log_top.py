#!/usr/bin/env python3
"""Where a Ninja build's time goes: its steps ranked by duration and summed by kind.

    scripts/ninja_log_top.py BUILD_DIR [--top N] [--cpu-log FILE] [--compare OTHER_BUILD_DIR]

Reads one run of BUILD_DIR/.ninja_log (--session: by default the run with the most steps, a clean
build among later incremental ones; a command with several outputs is one step) and prints the wall time from the first step's start to the last step's end, the sum of
the steps' durations ("step-s": with -j2 on an otherwise idle machine about the CPU time), the
steps by kind (verilated l1d_top models, block models, netlist models, Verilator runs, Yosys,
testbench sources, unit tests, the sim library, ...) and the N longest steps.

--cpu-log FILE: the per-step CPU log of scripts/build_step_time.sh (user, sys, wall, output): the
kinds and the top steps in CPU seconds (user + sys) too, which a loaded machine inflates far
less than wall seconds. --compare OTHER: a second build (its .ninja_log, and its CPU log at
OTHER/steps.tsv or --other-cpu-log) beside the first, kind by kind.
"""
import argparse
import collections
import os
import re
import sys

# (kind, pattern on the step's output path): the first match names the step's kind.
KINDS = [
    ("verilated l1d_top models (evaluation)", r"rtl_blocks/verilated/Vl1d_top[^/]*/Vl1d_top[^/]*__unity\.cpp\.o$|CMakeFiles/Vl1d_top[^/]*\.dir/.*__unity\.cpp\.o$"),
    ("verilated l1d_top models (__Slow, -O0)", r"Vl1d_top[^/]*_slow\.dir/.*\.o$"),
    ("verilated netlist models", r"CMakeFiles/V[^/]*_netlist[^/]*\.dir/.*\.o$"),
    ("verilated mutant models", r"CMakeFiles/V[^/]*_mutants\.dir/.*\.o$"),
    ("verilated block models", r"CMakeFiles/V[^/]*\.dir/.*\.o$"),
    ("Verilator runs", r"__unity\.cpp$|verilate\.sh"),
    ("Yosys netlists", r"_netlist\.v$|yosys_check\.sh"),
    ("netlist splitting", r"_netlist_split\.v$|netlist_split_vectors"),
    ("dcgen runs", r"/rtl/l1d_top\.sv$|rtl_blocks/[^/]+/rtl/|rtl_blocks/[^/]+/[^/]+/[^/]+\.sv$|dcgen "),
    ("precompiled headers", r"cmake_pch\.hxx\.gch$"),
    ("Verilator runtime", r"verilator_runtime\.dir/|verilator_cov\.dir/"),
    ("testbench sources", r"CMakeFiles/tb_[^/]*\.dir/.*\.o$"),
    ("unit-test sources", r"CMakeFiles/[a-z]+_tests\.dir/.*\.o$"),
    ("sim library", r"CMakeFiles/sim\.dir/.*\.o$"),
    ("gen library", r"CMakeFiles/gen\.dir/.*\.o$"),
    ("golden/common/trace/verilated_l1 libraries", r"CMakeFiles/(golden|common|trace|verilated_l1[^/]*)\.dir/.*\.o$"),
    ("tools' mains", r"CMakeFiles/(gpusim|dcgen|l1-golden-demo|trace_fuzz|workload-table|gpusim_bench)\.dir/.*\.o$"),
    ("archives", r"\.a$|^/usr/bin/(ar|ranlib) |cmake -E rm -f lib"),
    ("links", r"(^|/)bin/[^/]+$"),
    ("gtest discovery", r"_tests\.cmake$|GoogleTestAddTests|TEST_TARGET="),
]
KIND_RES = [(k, re.compile(p)) for k, p in KINDS]


def kind_of(output):
    for k, r in KIND_RES:
        if r.search(output):
            return k
    return "other"


def read_sessions(build):
    """The runs of Ninja that BUILD_DIR/.ninja_log holds, oldest first: each a list of (start ms,
    end ms, output, command hash). Ninja restarts its clock at every run and may rewrite (recompact)
    the log in any order, so a step's run is told by its output's mtime (ns since the epoch) less
    its end time: the same, within the time to write a file, for every step of one run."""
    path = os.path.join(build, ".ninja_log")
    entries = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 5:
                continue
            start, end, mtime, output, h = parts[:5]
            start, end = int(start), int(end)
            entries.append((int(mtime) / 1e6 - end, start, end, output, h))
    entries.sort()
    sessions = []
    for offset, start, end, output, h in entries:
        if not sessions or offset - sessions[-1][0] > RUN_GAP_MS:
            sessions.append((offset, []))
        sessions[-1][1].append((start, end, output, h))
    return [steps for _, steps in sessions]


# Two steps whose (mtime - end) differ by more than this are of different runs (a file written a
# few seconds after its step ended still counts as its run's; runs start minutes apart).
RUN_GAP_MS = 30000


def pick_session(sessions, which):
    """which: 'largest' (the most steps: a clean build among later incremental ones), 'last',
    'all' (the last entry of each output over every run, steps of different runs mixed) or N
    (1-based; -1 the last)."""
    if which == "all":
        last = {}
        for s in sessions:
            for start, end, output, h in s:
                last[output] = (start, end, output, h)
        return list(last.values())
    if which == "largest":
        return max(sessions, key=len)
    if which == "last":
        return sessions[-1]
    try:
        i = int(which)
    except ValueError:
        sys.exit(f"ninja_log_top.py: --session {which}: allowed largest, last, all or a run number")
    if i == 0 or abs(i) > len(sessions):
        sys.exit(f"ninja_log_top.py: --session {which}: the log holds {len(sessions)} runs (1..{len(sessions)}, -1 the last)")
    return sessions[i - 1 if i > 0 else i]


def read_ninja_log(build, which="largest"):
    """[(start ms, end ms, [outputs])] of one run of the log (pick_session), a command with
    several outputs one step; and the number of runs the log holds."""
    sessions = read_sessions(build)
    last = {}
    for start, end, output, h in pick_session(sessions, which) if sessions else []:
        last[output] = (start, end, h)
    steps = {}
    for output, (start, end, h) in last.items():
        key = (h, start, end)
        steps.setdefault(key, []).append(output)
    return [(s, e, outs) for (h, s, e), outs in steps.items()], len(sessions)


def read_cpu_log(path):
    """{output: (user + sys, wall)}: the last line of each output (a custom command's key is its
    command line: a step of several commands has several lines)."""
    cpu = {}
    if not path or not os.path.exists(path):
        return cpu
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 4:
                continue
            try:
                user, sys_, wall = float(parts[0]), float(parts[1]), float(parts[2])
            except ValueError:
                continue
            cpu[parts[3]] = (user + sys_, wall)
    return cpu


def cpu_of(outs, build, cpu):
    """The step's CPU seconds from the CPU log, matched by output path (absolute or relative)."""
    for o in outs:
        for key in (o, os.path.join(build, o), os.path.normpath(os.path.join(build, o))):
            if key in cpu:
                return cpu[key][0]
    return None


def summarize(build, cpu_log, which="largest"):
    steps, runs = read_ninja_log(build, which)
    cpu = read_cpu_log(cpu_log)
    kinds = collections.defaultdict(lambda: [0, 0.0, 0.0])
    rows = []
    for s, e, outs in steps:
        dur = (e - s) / 1000.0
        main = sorted(outs, key=lambda o: (not o.endswith(".o"), kind_of(o) == "other", o))[0]
        k = kind_of(main)
        c = cpu_of(outs, build, cpu)
        kinds[k][0] += 1
        kinds[k][1] += dur
        rows.append((dur, c, k, main))
    # CPU by kind from the CPU log's own lines (a custom command is logged by its command line,
    # which names its tool: verilate.sh, yosys_check.sh, dcgen, ar ...), not through the steps.
    for key, (c, _wall) in cpu.items():
        kinds[kind_of(key)][2] += c
    t0 = min(s for s, _, _ in steps) if steps else 0
    t1 = max(e for _, e, _ in steps) if steps else 0
    cpu_total = sum(v[0] for v in cpu.values())
    return {"steps": len(steps), "wall": (t1 - t0) / 1000.0, "step_s": sum(r[0] for r in rows),
            "kinds": kinds, "rows": rows, "cpu_total": cpu_total, "has_cpu": bool(cpu), "runs": runs}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--cpu-log", help="scripts/build_step_time.sh's log (default BUILD/steps.tsv if present)")
    ap.add_argument("--compare", help="another build directory, shown beside this one by kind")
    ap.add_argument("--other-cpu-log")
    ap.add_argument("--session", default="largest",
                    help="which run of a log of several: largest (default), last, all, or N (1-based)")
    a = ap.parse_args()
    cpu_log = a.cpu_log or os.path.join(a.build, "steps.tsv")
    s = summarize(a.build, cpu_log, a.session)
    print(f"{a.build}: {s['steps']} steps, {s['wall']:.1f} s wall (first start to last end), "
          f"{s['step_s']:.1f} step-s" + (f", {s['cpu_total']:.1f} CPU-s (user + sys)" if s["has_cpu"] else "")
          + (f"; run '{a.session}' of the {s['runs']} runs its log holds" if s["runs"] > 1 else ""))
    o = None
    if a.compare:
        o = summarize(a.compare, a.other_cpu_log or os.path.join(a.compare, "steps.tsv"), a.session)
        print(f"{a.compare}: {o['steps']} steps, {o['wall']:.1f} s wall, {o['step_s']:.1f} step-s"
              + (f", {o['cpu_total']:.1f} CPU-s" if o["has_cpu"] else ""))
    print()
    head = "| kind | steps | step-s | CPU-s |"
    if o:
        head += " other steps | other step-s | other CPU-s |"
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    names = sorted(set(s["kinds"]) | set(o["kinds"] if o else []), key=lambda k: -s["kinds"][k][1])
    for k in names:
        n, d, c = s["kinds"][k]
        line = f"| {k} | {n} | {d:.1f} | {c:.1f} |"
        if o:
            n2, d2, c2 = o["kinds"][k]
            line += f" {n2} | {d2:.1f} | {c2:.1f} |"
        print(line)
    print()
    print(f"The {a.top} longest steps of {a.build}:")
    for dur, c, k, out in sorted(s["rows"], key=lambda r: -r[0])[: a.top]:
        cs = f"{c:7.1f}" if c is not None else "      -"
        print(f"{dur:8.1f} s {cs} CPU-s  {k:40.40s} {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
