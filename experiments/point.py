#!/usr/bin/env python3
"""Runs one point of a study: one gpusim command, its statistics and a record of the run.

  point.py --stats S.json --meta S.meta.json --key K --label L [--binary-id H] [--skip-cached]
           [--fallback-golden] -- GPUSIM ARGS...

This is what GNU parallel (and a Slurm array task) runs for each point. It removes S.json,
runs the command, and writes S.meta.json: the key (a hash of the command and the files it
reads, which is how the runner knows a point is unchanged), the command, exit status, seconds,
the backend that produced the numbers and the end of stderr. --skip-cached exits at once when
S.json exists and S.meta.json holds the same key and a clean exit. --fallback-golden: when
`--l1 verilated` has no RTL model for the point's configuration (gpusim exit 2 saying so), the
point is run with `--l1 golden` instead and the record says why. One line on stdout says what
happened; the exit status is gpusim's.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import time

NO_MODEL = "no l1d_top model was built"


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def cached(stats, meta, key):
    m = read_json(meta)
    return bool(m and m.get("key") == key and m.get("rc") == 0 and os.path.exists(stats))


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd):
    start = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return proc.returncode, proc.stderr, time.monotonic() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stats", required=True)
    ap.add_argument("--meta", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--binary-id", default="", help="recorded: the hash of the gpusim binary")
    ap.add_argument("--skip-cached", action="store_true")
    ap.add_argument("--fallback-golden", action="store_true")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    if not cmd:
        ap.error("no command after --")

    if a.skip_cached and cached(a.stats, a.meta, a.key):
        print(f"cached {a.label}", flush=True)
        return 0
    if os.path.exists(a.stats):
        os.remove(a.stats)
    cpu0 = cpu_of_children()
    rc, err, secs = run(cmd)
    ran, fallback = cmd, ""
    if a.fallback_golden and rc == 2 and NO_MODEL in err and "--l1" in cmd:
        i = cmd.index("--l1")
        ran = cmd[:i + 1] + ["golden"] + cmd[i + 2:]
        fallback = err.strip().splitlines()[-1]
        rc, err, more = run(ran)
        secs += more
    stats = read_json(a.stats) if rc == 0 else None
    if rc == 0 and stats is None:
        rc, err = 1, err + f"\n{a.stats}: gpusim exited 0 but wrote no readable statistics"
    meta = {"key": a.key, "gpusim": a.binary_id, "cmd": cmd, "ran": ran, "rc": rc, "seconds": round(secs, 3),
            "cpu_seconds": round(cpu_of_children() - cpu0, 3),
            "backend": stats["run"]["l1"] if stats else None, "fallback": fallback,
            "stderr": "\n".join(err.strip().splitlines()[-20:]), "finished": time.strftime("%Y-%m-%d %H:%M:%S")}
    write_json(a.meta, meta)
    if rc == 0:
        r = stats["result"]
        extra = f", {stats['run']['l1']} (no verilated model)" if fallback else ""
        print(f"ok     {a.label}: IPC {r['ipc']:.3f}, {r['cycles']} cycles, {secs:.1f} s{extra}", flush=True)
    else:
        if os.path.exists(a.stats):
            os.remove(a.stats)
        last = err.strip().splitlines()[-1] if err.strip() else ""
        print(f"FAILED {a.label}: exit {rc} after {secs:.1f} s: {last}", flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
