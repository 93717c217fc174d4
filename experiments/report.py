"""Figures to CSV, JSON and PNG (gnuplot), and the generated parts of docs/results.md."""
import csv
import json
import os
import re
import shutil
import subprocess
import sys

# ---- figures ----


def _cell(v, fmt):
    if v is None:
        return "-"
    if isinstance(v, float):
        return fmt.format(v)
    return str(v)


def markdown_table(columns, rows, fmt="{:.3f}"):
    lines = ["| " + " | ".join(columns) + " |", "|---|" + "---:|" * (len(columns) - 1)]
    lines += ["| " + " | ".join(_cell(v, fmt) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def write_figure(fig, study_dir, meta):
    """study_dir/<name>.csv, .json and (fig.plot) .png; returns the PNG path or None."""
    base = os.path.join(study_dir, fig.name)
    with open(base + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(fig.columns)
        for row in fig.rows:
            w.writerow(["" if v is None else (round(v, 6) if isinstance(v, float) else v) for v in row])
    with open(base + ".json", "w") as f:
        extra = {"kind": fig.kind, "xlabel": fig.xlabel, "mark": fig.mark} if fig.kind != "bars" else {}
        json.dump({"title": fig.title, "paper": fig.paper, "columns": fig.columns, "rows": fig.rows,
                   "ylabel": fig.ylabel, **extra, **({"note": fig.note} if fig.note else {}), **meta}, f, indent=1)
    if not fig.plot:
        return None
    if fig.kind == "scatter":
        return plot_scatter(fig, base)
    if fig.kind == "lines":
        return plot_lines(fig, base)
    if fig.kind != "bars":
        raise ValueError(f"figure {fig.name}: unknown kind {fig.kind!r} (bars, scatter, lines)")
    return plot_bars(fig, base)


def _gp_str(s):
    return "'" + str(s).replace("'", "''") + "'"


def _write_plot_data(fig, base, rows):
    """Writes base.plot.csv: the key column and the plotted series of `rows` (a missing cell
    empty); returns (its path, the series names)."""
    series = fig.series or fig.columns[1:]
    idx = [fig.columns.index(x) for x in series]
    data = base + ".plot.csv"
    with open(data, "w", newline="") as f:
        w = csv.writer(f)
        # gnuplot's columnhead() splits a quoted header at its commas: none in the plotted names.
        w.writerow([str(c).replace(",", ";") for c in [fig.columns[0]] + series])
        for r in rows:
            w.writerow([r[0]] + ["" if r[i] is None else r[i] for i in idx])
    return data, series


def plot_bars(fig, base):
    """Clustered bars: one group per row of the CSV, one bar per series column."""
    if not shutil.which("gnuplot"):
        print(f"experiments: gnuplot not found, no {base}.png (make deps installs gnuplot-nox)", file=sys.stderr)
        return None
    idx = [fig.columns.index(x) for x in (fig.series or fig.columns[1:])]
    rows = [r for r in fig.rows if any(r[i] is not None for i in idx)]  # rows with something to plot
    data, series = _write_plot_data(fig, base, rows)
    cols = list(range(2, len(series) + 2))
    n_rows = len(rows)
    width = max(900, min(1900, 260 + n_rows * (11 * len(series) + 12)))
    script = [
        f"set terminal pngcairo size {width},640 font 'sans,10' noenhanced",
        f"set output {_gp_str(base + '.png')}",
        "set datafile separator comma",
        "set datafile missing ''",
        f"set title {_gp_str(fig.title)}",
        f"set ylabel {_gp_str(fig.ylabel)}",
        "set style data histograms",
        "set style histogram clustered gap 1",
        "set style fill solid 0.85 border rgb '#404040'",
        "set boxwidth 0.9",
        "set xtics rotate by -40 scale 0 nomirror",
        "set grid ytics lc rgb '#d0d0d0'",
        "set key outside right top vertical",
        f"set xrange [-0.6:{n_rows - 0.4}]",
        "set logscale y" if fig.logy else "set yrange [0:*]",
    ]
    plots = [f"{_gp_str(data)} using {c}:xtic(1) title columnhead({c})" for c in cols]
    if fig.hline is not None:
        plots.append(f"{fig.hline} with lines lc rgb 'black' dt 2 lw 1.5 notitle")
    script.append("plot " + ", \\\n     ".join(plots))
    return _run_gnuplot(script, base)


def _run_gnuplot(script, base):
    """Writes base.gp and runs it; base.png, or None (and why on stderr) if gnuplot failed."""
    gp = base + ".gp"
    with open(gp, "w") as f:
        f.write("\n".join(script) + "\n")
    proc = subprocess.run(["gnuplot", gp], capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.exists(base + ".png"):
        print(f"experiments: gnuplot failed on {gp}:\n{proc.stderr}", file=sys.stderr)
        return None
    return base + ".png"


def plot_lines(fig, base):
    """x = the row key (a number, e.g. a cycle), one line per series column; a series' missing
    cells break its line."""
    if not shutil.which("gnuplot"):
        print(f"experiments: gnuplot not found, no {base}.png (make deps installs gnuplot-nox)", file=sys.stderr)
        return None
    rows = [r for r in fig.rows if isinstance(r[0], (int, float))]
    if os.path.exists(base + ".png"):
        os.remove(base + ".png")
    if not rows:
        return None
    data, series = _write_plot_data(fig, base, rows)
    script = [
        "set terminal pngcairo size 1100,640 font 'sans,10' noenhanced",
        f"set output {_gp_str(base + '.png')}",
        "set datafile separator comma",
        "set datafile missing ''",
        f"set title {_gp_str(fig.title)}",
        f"set xlabel {_gp_str(fig.xlabel or fig.columns[0])}",
        f"set ylabel {_gp_str(fig.ylabel)}",
        "set grid lc rgb '#d0d0d0'",
        "set key outside right top vertical",
        "set yrange [0:*]",
    ]
    plots = [f"{_gp_str(data)} using 1:{c} with lines lw 2 title columnhead({c})" for c in range(2, len(series) + 2)]
    if fig.hline is not None:
        plots.append(f"{fig.hline} with lines lc rgb 'black' dt 2 lw 1.5 notitle")
    script.append("plot " + ", \\\n     ".join(plots))
    return _run_gnuplot(script, base)


def plot_scatter(fig, base):
    """One point per row: x = the first series column, y = the second, each labelled with the
    row key; rows whose fig.mark column is true are drawn in red and joined in x order (a
    Pareto front). Rows without x or y are left out; with none left there is no PNG."""
    if not shutil.which("gnuplot"):
        print(f"experiments: gnuplot not found, no {base}.png (make deps installs gnuplot-nox)", file=sys.stderr)
        return None
    series = (fig.series or fig.columns[1:])[:2]
    if len(series) < 2:
        raise ValueError(f"figure {fig.name}: a scatter plot needs two value columns")
    xi, yi = fig.columns.index(series[0]), fig.columns.index(series[1])
    mi = fig.columns.index(fig.mark) if fig.mark else None
    rows = [r for r in fig.rows if isinstance(r[xi], (int, float)) and isinstance(r[yi], (int, float))]
    if os.path.exists(base + ".png"):
        os.remove(base + ".png")  # an old plot must not stand for data that is gone
    if not rows:
        return None
    marked = lambda r: mi is not None and bool(r[mi]) and r[mi] not in ("no", "false", "0")
    data, front = base + ".plot.csv", base + ".front.csv"
    with open(data, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([fig.columns[0], series[0], series[1], "marked"])
        for r in rows:
            w.writerow([r[0], r[xi], r[yi], 1 if marked(r) else 0])
    with open(front, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([fig.columns[0], series[0], series[1]])
        for r in sorted((r for r in rows if marked(r)), key=lambda r: (r[xi], r[yi])):
            w.writerow([r[0], r[xi], r[yi]])
    xs, ys = [r[xi] for r in rows], [r[yi] for r in rows]
    pad = lambda lo, hi, f: (hi - lo) * f if hi > lo else (abs(hi) * f or 1.0)
    px, py = pad(min(xs), max(xs), 0.12), pad(min(ys), max(ys), 0.12)
    ylo, yhi = min(ys) - py, max(ys) + py
    if fig.hline is not None:
        ylo, yhi = min(ylo, fig.hline - py / 2), max(yhi, fig.hline + py / 2)
    script = [
        "set terminal pngcairo size 1000,700 font 'sans,10' noenhanced",
        f"set output {_gp_str(base + '.png')}",
        "set datafile separator comma",
        f"set title {_gp_str(fig.title)}",
        f"set xlabel {_gp_str(fig.xlabel or series[0])}",
        f"set ylabel {_gp_str(fig.ylabel or series[1])}",
        "set grid lc rgb '#d0d0d0'",
        "set key outside right top vertical",
        f"set xrange [{min(xs) - px}:{max(xs) + px * 2.5}]",  # room for the labels on the right
        f"set yrange [{ylo}:{yhi}]",
    ]
    plots = [f"{_gp_str(data)} using 2:3 skip 1 with points pt 7 ps 1.3 lc rgb '#7090b0' "
             f"title {_gp_str(fig.columns[0])}"]
    if mi is not None and any(marked(r) for r in rows):
        plots.append(f"{_gp_str(front)} using 2:3 skip 1 with linespoints pt 7 ps 1.7 lw 1.5 lc rgb '#c03030' "
                     f"title {_gp_str(fig.mark)}")
    plots.append(f"{_gp_str(data)} using 2:3:1 skip 1 with labels left offset char 0.8,0.5 tc rgb '#303030' notitle")
    if fig.hline is not None:
        plots.append(f"{fig.hline} with lines lc rgb 'black' dt 2 lw 1.5 notitle")
    script.append("plot " + ", \\\n     ".join(plots))
    return _run_gnuplot(script, base)


# ---- docs/results.md ----

def fmt_value(v, unit):
    if v is None:
        return "-"
    if unit == "pp":
        return f"{100 * v:+.1f} pp"
    return f"{100 * v:.1f} %" if unit == "%" else f"{v:.3f}"


def comparison_table(comps, backend_of):
    lines = ["| what | paper | ours | same direction | ours / paper (effect size) | backend |",
             "|---|---:|---:|:---:|---:|---|"]
    for c in comps:
        paper = c.paper_text or fmt_value(c.paper, c.unit)
        if c.paper is not None and c.paper_text:
            paper = f"{fmt_value(c.paper, c.unit)} ({c.paper_text})"
        if c.paper is None and c.paper_sign is not None and not c.paper_text:
            paper = {1: "higher", -1: "lower", 0: "no change"}[c.paper_sign]
        d = c.direction()
        r = c.magnitude_ratio()
        ours = fmt_value(c.ours, c.unit) + (f" ({c.note})" if c.note else "")
        lines.append(f"| {c.what} | {paper} | {ours} | {'-' if d is None else ('yes' if d else '**no**')} | "
                     f"{'-' if r is None else f'{(r if abs(r) >= 0.005 else 0.0):+.2f}'} | {backend_of(c.variants)} |")
    return "\n".join(lines)


BEGIN = "<!-- experiments:generated {} begin: make experiments rewrites this block -->"
END = "<!-- experiments:generated {} end -->"


def update_blocks(path, blocks, titles, explained=()):
    """Replaces each named generated block of path (creating the file, or appending a section
    for a study whose block is missing). Everything outside the blocks, such as the
    hand-written explanation under each study, is kept as it is."""
    text = "# Results\n"
    if os.path.exists(path):
        with open(path) as f:
            text = f.read()
    for name, body in blocks.items():
        b, e = BEGIN.format(name), END.format(name)
        block = f"{b}\n{body.rstrip()}\n{e}"
        pat = re.compile(re.escape(b) + r".*?" + re.escape(e), re.S)
        if pat.search(text):
            text = pat.sub(lambda _: block, text, count=1)
        else:
            text = text.rstrip() + f"\n\n## {titles.get(name, name)}\n\n{block}\n"
            if name in explained:
                text += "\n### Why our numbers differ\n\n(to be written)\n"
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
