"""Figures to CSV, JSON and PNG (gnuplot), and the generated parts of docs/results.md."""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

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
        return plot_lines(fig, base, study_dir)
    if fig.kind != "bars":
        raise ValueError(f"figure {fig.name}: unknown kind {fig.kind!r} (bars, scatter, lines)")
    return plot_bars(fig, base, study_dir)


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


# Series colours: gnuplot colours by column order, so the same variant got different colours in
# different figures of a study. Each study directory keeps a registry: a name's first figure gives
# it the next palette colour, later figures re-use it. Same figures in the same order, same colours.
PALETTE = ["#1f6fb4", "#e8800c", "#2ca02c", "#d62728", "#8c5fc0",
           "#8c564b", "#e071bd", "#707070", "#b5b512", "#17b4c9"]
# Dash types beyond the palette (line plots with more series than colours); gnuplot's numbered
# ones first, then dash patterns of growing length, so any number of levels stays distinct.
DASHES = ["1", "2", "4", "3", "5"]
_registries = {}  # abspath(study_dir) -> {"names": {name: palette index}, "next": palette index}


def _dash(level):
    return DASHES[level] if level < len(DASHES) else f"({4 + 2 * level},4)"


def _series_styles(study_dir, names):
    """(palette index, level) per series name, unique within the figure: the name's registered
    colour at level 0 when free in this figure, else the next free colour, else the next level
    (a dash type, or a fill pattern for bars)."""
    reg = _registries.setdefault(os.path.abspath(study_dir), {"names": {}, "next": 0})
    n = len(PALETTE)
    # Colours of names seen before are reserved first, so a new name does not take one of them.
    reserved = {reg["names"][x] for x in names if x in reg["names"]}
    for x in names:
        if x not in reg["names"]:
            free = [c % n for c in range(reg["next"], reg["next"] + n) if c % n not in reserved]
            reg["names"][x] = free[0] if free else reg["next"] % n
            reg["next"] = reg["names"][x] + 1
            reserved.add(reg["names"][x])
    taken, styles = set(), []
    for x in names:
        want = reg["names"][x]
        level = 0
        while True:
            free = [(want + k) % n for k in range(n) if ((want + k) % n, level) not in taken]
            if free:
                break
            level += 1
        taken.add((free[0], level))
        styles.append((free[0], level))
    return styles


def _line_style(style):
    c, level = style
    return f"lc rgb '{PALETTE[c]}' dt {_dash(level)}"


def _bar_style(style):
    # A second use of a colour in one figure (more than len(PALETTE) series) gets hatching.
    c, level = style
    return f"lc rgb '{PALETTE[c]}'" + (f" fs pattern {3 + level} border rgb '#404040'" if level else "")


# Canvas size: pngcairo's 'sans,10' is about 7.2 px a character (measured on our titles).
CHAR_PX = 7.2
LEFT_PX = 80        # the y tics and label
TITLE_MAX_PX = 900  # a longer title is wrapped, not given a wider canvas


def _key_px(series):
    """The key at the right: the longest entry, the line or box sample and the gaps."""
    return int(CHAR_PX * max([len(str(x)) for x in series] or [0])) + 80


def _fit_title(title, plot_px):
    """The title's lines and the plot width they need: gnuplot centres the title over the plot
    area, so a title wider than the plot ran off the canvas's left edge. Up to TITLE_MAX_PX the
    plot widens; beyond that the title wraps into balanced lines."""
    room = max(plot_px, TITLE_MAX_PX)
    lines = [title]
    if len(title) * CHAR_PX > room:
        n = -(-int(len(title) * CHAR_PX) // int(room))  # ceil
        width = -(-len(title) // n)
        while len(textwrap.wrap(title, width)) > n:
            width += 1
        lines = textwrap.wrap(title, width)
    return lines, max(plot_px, int(CHAR_PX * max(len(x) for x in lines)) + 20)


def _gp_lines(lines):
    """A gnuplot double-quoted string (its \n breaks a line), from lines of plain text."""
    return '"' + "\\n".join(x.replace("\\", "\\\\").replace('"', '\\"') for x in lines) + '"'


def _yrange(fig, rows, idx):
    """0 to the largest plotted value (or the reference line) plus 8 %: gnuplot's autoscale
    ends at the largest value when it is on a tic (e.g. 1.0), and the bar then touches the frame."""
    vals = [r[i] for r in rows for i in idx if isinstance(r[i], (int, float))]
    top = max(vals + ([fig.hline] if fig.hline is not None else []), default=0)
    return f"set yrange [0:{top * 1.08:.6g}]" if top > 0 else "set yrange [0:*]"


def _is_summary(key):
    return str(key).lower().startswith(("geomean", "mean"))


def _summary_separator(rows):
    """A dashed vertical line between the workloads and the first summary row (geomean, mean)
    after them, so the summaries do not read as one more workload; [] when there is none."""
    first = next((i for i, r in enumerate(rows) if _is_summary(r[0])), None)
    if not first:  # none, or only summary rows
        return []
    return [f"set arrow from first {first - 0.5}, graph 0 to first {first - 0.5}, graph 1 "
            "nohead dt 2 lw 1.2 lc rgb '#808080' back"]


def plot_bars(fig, base, study_dir):
    """Clustered bars: one group per row of the CSV, one bar per series column."""
    if not shutil.which("gnuplot"):
        print(f"experiments: gnuplot not found, no {base}.png (make deps installs gnuplot-nox)", file=sys.stderr)
        return None
    idx = [fig.columns.index(x) for x in (fig.series or fig.columns[1:])]
    rows = [r for r in fig.rows if any(r[i] is not None for i in idx)]  # rows with something to plot
    data, series = _write_plot_data(fig, base, rows)
    cols = list(range(2, len(series) + 2))
    n_rows = len(rows)
    key_px = _key_px(series)
    # The plot area the bars need (capped: very wide PNGs are unreadable in docs), then the title.
    plot_px = max(600, min(1900 - LEFT_PX - key_px - 20, n_rows * (11 * len(series) + 12)))
    title, plot_px = _fit_title(fig.title, plot_px)
    width = max(900, LEFT_PX + plot_px + key_px + 20)
    script = [
        f"set terminal pngcairo size {width},640 font 'sans,10' noenhanced",
        f"set output {_gp_str(base + '.png')}",
        "set datafile separator comma",
        "set datafile missing ''",
        f"set title {_gp_lines(title)}",
        f"set ylabel {_gp_str(fig.ylabel)}",
        "set style data histograms",
        "set style histogram clustered gap 1",
        "set style fill solid 0.85 border rgb '#404040'",
        "set boxwidth 0.9",
        "set xtics rotate by -40 scale 0 nomirror",
        "set grid ytics lc rgb '#d0d0d0'",
        "set key outside right top vertical",
        f"set xrange [-0.6:{n_rows - 0.4}]",
        "set logscale y" if fig.logy else _yrange(fig, rows, idx),
    ] + _summary_separator(rows)
    styles = _series_styles(study_dir, fig.series or fig.columns[1:])
    plots = [f"{_gp_str(data)} using {c}:xtic(1) title columnhead({c}) {_bar_style(st)}"
             for c, st in zip(cols, styles)]
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


def plot_lines(fig, base, study_dir):
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
    key_px = _key_px(series)
    title, plot_px = _fit_title(fig.title, 1100 - LEFT_PX - key_px - 20)
    idx = [fig.columns.index(x) for x in (fig.series or fig.columns[1:])]
    script = [
        f"set terminal pngcairo size {max(1100, LEFT_PX + plot_px + key_px + 20)},640 font 'sans,10' noenhanced",
        f"set output {_gp_str(base + '.png')}",
        "set datafile separator comma",
        "set datafile missing ''",
        f"set title {_gp_lines(title)}",
        f"set xlabel {_gp_str(fig.xlabel or fig.columns[0])}",
        f"set ylabel {_gp_str(fig.ylabel)}",
        "set grid lc rgb '#d0d0d0'",
        "set key outside right top vertical",
        _yrange(fig, rows, idx),
    ]
    styles = _series_styles(study_dir, fig.series or fig.columns[1:])
    plots = [f"{_gp_str(data)} using 1:{c} with lines lw 2 {_line_style(st)} title columnhead({c})"
             for c, st in zip(range(2, len(series) + 2), styles)]
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
