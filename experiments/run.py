#!/usr/bin/env python3
"""Runs the paper studies and sets our numbers beside the papers' (make experiments).

  run.py [--gpusim BIN] [--scale small] [--l1 golden] [--jobs N] [--out build/experiments]
         [--results docs/results.md] [--force] [--slurm] [--study-dir DIR]
         [--synth-lib osu018 | --synth-report FILE] STUDY... | all | --list

For each study (experiments/studies/<name>.py): its points run through GNU parallel, --jobs at
a time, each skipped when its statistics exist and its command and input files are unchanged
(--force reruns them); then OUT/<study>/points/*.json (gpusim --stats), OUT/<study>/<figure>.csv,
.json and .png, OUT/<study>/run.json (timing), and the study's generated block of --results.
A failed point is reported with its command and stderr; the other points still run and the
tables leave its cells empty; the exit status is then 1. A study that plots against synthesis
areas (combined) reads --synth-report, by default OUT/../synth-policies/LIB/report.json (what
make synth-policies writes; LIB from --synth-lib, $LIB or osu018). --slurm writes
OUT/slurm/<study>.sbatch (a job array, one task per point) and the point list, and runs nothing.
"""
import argparse
import glob
import importlib.util
import json
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import core  # noqa: E402
import execute  # noqa: E402
import report  # noqa: E402
from point import read_json  # noqa: E402

SEEDS = "/work/shared/seeds"


def load_studies(dirs):
    studies = {}
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "*.py"))):
            if os.path.basename(path).startswith("_"):
                continue
            spec = importlib.util.spec_from_file_location(f"study_{os.path.basename(path)[:-3]}", path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            for attr in ("NAME", "TITLE", "points", "analyse"):
                if not hasattr(mod, attr):
                    raise SystemExit(f"experiments: {path} is not a study (no {attr})")
            if mod.NAME in studies:
                raise SystemExit(f"experiments: study {mod.NAME} defined twice ({path})")
            studies[mod.NAME] = mod
    return studies


def backend_summary(jobs_of, metas):
    """'golden' when one backend made every point, else 'verilated 120, golden 60'."""
    count = {}
    for j in jobs_of:
        m = metas.get(j.point.id) or {}
        b = (m.get("backend") or "failed") + (" (no verilated model)" if m.get("fallback") else "")
        count[b] = count.get(b, 0) + 1
    if len(count) == 1:
        return next(iter(count))
    return ", ".join(f"{b} {n}" for b, n in sorted(count.items(), key=lambda kv: -kv[1]))


def run_points(name, points, args, sdir, stage=""):
    """Runs the points not cached (all with --force); returns their jobs and the number run."""
    jobs = execute.prepare(name, points, args.gpusim, args.scale, args.l1, args.out)
    todo = jobs if args.force else [j for j in jobs if not j.cached()]
    # Longest first (by the last recorded run time), so that a slow point does not start last
    # and leave the other cores idle at the end.
    todo = sorted(todo, key=lambda j: -((j.record() or {}).get("seconds") or 0))
    print(f"\n== {name}{stage}: {len(jobs)} points ({len(jobs) - len(todo)} cached), scale {args.scale}, "
          f"L1 {args.l1}, {len(todo)} to run with -j {args.jobs}", flush=True)
    stale = [] if args.force else [j for j in jobs if j.stale()]
    if stale:
        print(f"   note: {len(stale)} cached points were made by another gpusim binary than {args.gpusim} "
              f"(kept; --force or FORCE=1 reruns them)", flush=True)
    execute.run_jobs(todo, args.jobs, os.path.join(sdir, "log" + ("-2" if stage else "")))
    return jobs, len(todo)


def collect(jobs):
    """The records, statistics and backends of jobs, and the failed ones."""
    metas = {j.point.id: read_json(j.meta) for j in jobs}
    stats, backends, failed = {}, {}, []
    for j in jobs:
        m = metas[j.point.id]
        s = read_json(j.stats) if m and m.get("key") == j.key and m.get("rc") == 0 else None
        if s is None:
            failed.append((j, m))
            continue
        stats[j.point.id] = s
        backends[j.point.id] = s["run"]["l1"]
    return metas, stats, backends, failed


def check_unique(name, points):
    ids = [p.id for p in points]
    if len(set(ids)) != len(ids):
        raise SystemExit(f"experiments: study {name} declares a point twice")


def run_study(mod, ctx, args):
    name = mod.NAME
    sdir = os.path.join(args.out, name)
    points = mod.points(ctx)
    check_unique(name, points)
    default_preset = lambda pts: getattr(mod, "PRESET", sorted({p.preset for p in pts})[0])
    if args.slurm:
        jobs = execute.prepare(name, points, args.gpusim, args.scale, args.l1, args.out)
        script, plist = execute.write_slurm(name, jobs, args.out, args.slurm_time)
        later = " (its second stage, which needs these results, is not in it)" if hasattr(mod, "more_points") else ""
        print(f"{name}: {len(jobs)} points -> {script} (point list {plist}){later}")
        return True, None

    start = time.monotonic()
    jobs, ran = run_points(name, points, args, sdir)
    # A study with a second stage (more_points) chooses those points from the first ones' results
    # (PCAL: the EBTNum sweep at each workload's best warp limit).
    if hasattr(mod, "more_points"):
        _, stats, backends, _ = collect(jobs)
        more = mod.more_points(ctx, core.Results(points, stats, backends, default_preset(points)))
        points = points + more
        check_unique(name, points)
        more_jobs, more_ran = run_points(name, more, args, sdir, stage=" (second stage)")
        jobs, ran = jobs + more_jobs, ran + more_ran
    run_secs = time.monotonic() - start

    metas, stats, backends, failed = collect(jobs)
    for j, m in failed:
        print(f"\nerror: {j.label} failed" + (f" (exit {m['rc']})" if m else " (no record)") +
              f"\n  command: {' '.join(m['ran'] if m else j.cmd)}\n  stderr:\n    " +
              ("\n    ".join((m or {}).get("stderr", "").splitlines()) or "(none)"), file=sys.stderr)

    presets = sorted({p.preset for p in points})
    res = core.Results(points, stats, backends, default_preset(points),
                       paths={j.point.id: j.stats for j in jobs if j.point.id in stats})
    figures, comps = mod.analyse(ctx, res)
    meta = {"study": name, "scale": args.scale, "l1": args.l1, "presets": presets}
    pngs = []
    for fig in figures:
        png = report.write_figure(fig, sdir, meta)
        if png:
            pngs.append(png)
    total_secs = time.monotonic() - start

    point_secs = sum((metas[j.point.id] or {}).get("seconds", 0) for j in jobs)
    point_cpu = sum((metas[j.point.id] or {}).get("cpu_seconds", 0) for j in jobs)
    timing = read_json(os.path.join(sdir, "run.json")) or {}
    timing.update({"study": name, "scale": args.scale, "l1": args.l1, "points": len(jobs), "failed": len(failed),
                   "point_seconds_sum": round(point_secs, 1), "point_cpu_seconds_sum": round(point_cpu, 1),
                   "last": {"date": time.strftime("%Y-%m-%d %H:%M"), "jobs": args.jobs, "ran": ran,
                            "wall_seconds": round(total_secs, 1)}})
    if ran == len(jobs) and jobs:
        timing["full_run"] = dict(timing["last"], scale=args.scale, l1=args.l1, points=len(jobs))
    with open(os.path.join(sdir, "run.json"), "w") as f:
        json.dump(timing, f, indent=1)

    section = study_section(mod, ctx, args, jobs, metas, figures, comps, failed, timing, sdir)
    print(f"== {name}: {len(jobs) - len(failed)}/{len(jobs)} points ok, {run_secs:.0f} s running, "
          f"{total_secs:.0f} s in all; {len(figures)} figures in {sdir}/ ({len(pngs)} PNG)", flush=True)
    if comps:
        print(report.comparison_table(comps, lambda v: backend_summary(
            [j for j in jobs if not v or j.point.variant.name in v], metas)), flush=True)
    return not failed, section


def study_section(mod, ctx, args, jobs, metas, figures, comps, failed, timing, sdir):
    rel = os.path.relpath(sdir, core.REPO)
    rel = sdir if rel.startswith("..") else rel
    by_variant = {}
    for j in jobs:
        by_variant.setdefault(j.point.variant.name, (j.point.variant, []))[1].append(j)

    def backend_of(variant_names):
        sel = [j for j in jobs if not variant_names or j.point.variant.name in variant_names]
        return backend_summary(sel, metas)

    presets = sorted({j.point.preset for j in jobs})
    workloads = sorted({j.point.workload for j in jobs})
    full = timing.get("full_run")
    when = (f"last full run {full['wall_seconds']:.0f} s wall with -j {full['jobs']} ({full['date']})"
            if full else "no full run recorded")
    builds = {}
    for j in jobs:
        b = (metas.get(j.point.id) or {}).get("gpusim") or "unknown"
        builds[b] = builds.get(b, 0) + 1
    current = jobs[0].binary_id if jobs else ""
    made_by = "; made by gpusim build " + ", ".join(
        f"`{b}`" + ("" if len(builds) == 1 else f" ({n} points)") for b, n in sorted(builds.items(), key=lambda kv: -kv[1]))
    made_by += " (sha256 prefix" + ("" if set(builds) == {current} else f"; the gpusim given now is `{current}`") + ")"
    out = [f"*{mod.PAPER}* on **{', '.join(presets)}**, `--scale {args.scale}`, L1 backend requested: "
           f"`{args.l1}`. {len(jobs)} points ({len(workloads)} workloads), {len(jobs) - len(failed)} ok; "
           f"{when}; the points took {timing['point_cpu_seconds_sum']:.0f} s of CPU{made_by}. "
           f"Files: `{rel}/` (figures `*.png`, `*.csv`, `*.json`; statistics `points/`). Regenerate: "
           f"`make experiments-{mod.NAME}`.", ""]
    if hasattr(mod, "preamble"):
        out += [mod.preamble(ctx), ""]
    out += ["| variant | configuration | backend |", "|---|---|---|"]
    for vname, (v, js) in by_variant.items():
        conf = f"`{v.policy}`" + (f" + `{json.dumps(v.over, sort_keys=True)}`" if v.over else "")
        conf += f", preset + `{json.dumps(v.preset_over, sort_keys=True)}`" if v.preset_over else ""
        conf += f" ({v.note})" if v.note else ""
        out.append(f"| {v.label} | {conf} | {backend_summary(js, metas)} |")
    if comps:
        out += ["", "**Beside the paper.**", "", report.comparison_table(comps, backend_of)]
    for fig in figures:
        files = f"`{fig.name}.png`, `.csv`" if fig.plot else f"`{fig.name}.csv`, a table"
        paper = f" Paper: {fig.paper}" + ("" if fig.paper.endswith(".") else ".") if fig.paper else ""
        out += ["", f"**{fig.title}** ({files}).{paper}" + (f" {fig.note}" if fig.note else "")]
        if fig.in_results:
            out += ["", report.markdown_table(fig.columns, fig.rows, fig.fmt)]
    if failed:
        out += ["", f"**Failed points ({len(failed)})**: " + ", ".join(f"`{j.point.id}`" for j, _ in failed) +
                " (their cells are empty; the commands and stderr are in `points/*.meta.json`)."]
    return "\n".join(out)


def summary_block(studies, out):
    lines = ["| study | paper | preset | scale | L1 | points | last full run (wall, -j) | CPU time of the points |",
             "|---|---|---|---|---|---:|---:|---:|"]
    for name, mod in studies.items():
        t = read_json(os.path.join(out, name, "run.json"))
        if not t:
            lines.append(f"| {name} | {mod.PAPER} | {getattr(mod, 'PRESET', '')} | - | - | - | not run | - |")
            continue
        full = t.get("full_run")
        wall = f"{full['wall_seconds']:.0f} s, -j {full['jobs']} ({full['date']})" if full else "-"
        lines.append(f"| {name} | {mod.PAPER} | {getattr(mod, 'PRESET', '')} | {t['scale']} | {t['l1']} | "
                     f"{t['points'] - t['failed']}/{t['points']} | {wall} | {t.get('point_cpu_seconds_sum', 0):.0f} s |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("studies", nargs="*", help="study names, or all")
    ap.add_argument("--gpusim", default=os.path.join(core.REPO, "build", "bin", "gpusim"))
    ap.add_argument("--scale", default="small", choices=["test", "small", "full", "paper"])
    ap.add_argument("--l1", default="golden", choices=["golden", "verilated", "lockstep"])
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS") or os.cpu_count() or 1))
    ap.add_argument("--out", default=os.path.join(core.REPO, "build", "experiments"))
    ap.add_argument("--results", default="", help="the Markdown file whose generated blocks are rewritten")
    ap.add_argument("--force", action="store_true", help="rerun every point")
    ap.add_argument("--slurm", action="store_true", help="write Slurm job-array scripts, run nothing")
    ap.add_argument("--slurm-time", default="02:00:00", help="time limit of one array task")
    ap.add_argument("--synth-lib", default=os.environ.get("LIB") or "osu018",
                    help="the library of the synthesis areas studies read (default $LIB or osu018, as make)")
    ap.add_argument("--synth-report", default="",
                    help="make synth-policies' report.json (default: OUT/../synth-policies/LIB/report.json)")
    ap.add_argument("--study-dir", action="append", default=[], help="more study plug-ins (tests)")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()

    studies = load_studies([os.path.join(core.REPO, "experiments", "studies")] + a.study_dir)
    if a.list:
        for n, m in studies.items():
            print(f"{n:<12} {m.TITLE}{' (hidden)' if getattr(m, 'HIDDEN', False) else ''}")
        return 0
    names = a.studies or ["all"]
    if "all" in names:
        names = [n for n, m in studies.items() if not getattr(m, "HIDDEN", False)]
    unknown = [n for n in names if n not in studies]
    if unknown:
        ap.error(f"unknown study {', '.join(unknown)} (known: {', '.join(studies)})")
    if not os.access(a.gpusim, os.X_OK):
        ap.error(f"{a.gpusim}: not an executable (build it: make build, or pass --gpusim)")
    a.gpusim = os.path.abspath(a.gpusim)
    a.out = os.path.abspath(a.out)
    # make synth-policies writes $(BUILD)/synth-policies/<lib>/report.json; make experiments
    # writes $(BUILD)/experiments, so the default is found from --out.
    synth = os.path.abspath(a.synth_report or os.path.join(os.path.dirname(a.out), "synth-policies", a.synth_lib,
                                                           "report.json"))
    ctx = core.Context(a.gpusim, a.scale, a.l1, synth_report=synth)

    ok, blocks, start = True, {}, time.monotonic()
    for n in names:
        good, section = run_study(studies[n], ctx, a)
        ok &= good
        if section is not None:
            blocks[n] = section
    if a.results and blocks:
        shown = {n: m for n, m in studies.items() if not getattr(m, "HIDDEN", False) or n in blocks}
        blocks["summary"] = summary_block(shown, a.out)
        report.update_blocks(a.results, blocks, {n: m.TITLE for n, m in studies.items()}, explained=set(studies))
        print(f"\n{a.results}: generated blocks of {', '.join(n for n in blocks if n != 'summary')} rewritten")
    if not a.slurm:
        print(f"experiments: {', '.join(names)} done in {time.monotonic() - start:.0f} s" +
              ("" if ok else "; some points FAILED (above)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
