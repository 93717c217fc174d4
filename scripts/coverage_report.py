#!/usr/bin/python3
"""Report of a merged Verilator coverage file (make coverage, docs/rtl-verification.md).

    coverage_report.py COVERAGE.dat REPORT.md [--json REPORT.json]

Per module (summed over its instances): line points (Verilator's v_line / v_branch pages) and
toggle points (v_toggle: each bit's 0->1 and 1->0), covered = hit at least once, and the toggle
coverage of the module's registers (signals named *_q, lowRISC style). Then every uncovered
point: module, line, what it is (Verilator's comment: the signal and bit for a toggle point).
"""
import argparse
import collections
import json
import re
import sys


def points(path):
    """(keys, count) per point of a coverage.dat written by Verilator 5."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"C '(.*)' (\d+)$", line.rstrip("\n"))
            if not m:
                continue
            keys = dict(kv.split("\x02", 1) for kv in m.group(1).split("\x01") if "\x02" in kv)
            yield keys, int(m.group(2))


def kind_of(page):
    if page.startswith("v_toggle/"):
        return "toggle"
    if page.startswith(("v_line/", "v_branch/")):
        return "line"
    return None


def signal_of(comment):
    # Toggle comments are the signal with its bit and direction, e.g. "s1_addr_q[3]:0->1".
    return re.split(r"[\[:]", comment, maxsplit=1)[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dat")
    ap.add_argument("report")
    ap.add_argument("--json")
    a = ap.parse_args()
    stats = collections.defaultdict(lambda: {"line": [0, 0], "toggle": [0, 0], "reg_toggle": [0, 0]})
    uncovered = collections.defaultdict(list)
    for keys, count in points(a.dat):
        kind = kind_of(keys.get("page", ""))
        if kind is None:
            continue
        module = keys["page"].split("/", 1)[1]
        comment = keys.get("o", "")
        hit = count > 0
        s = stats[module]
        s[kind][0] += hit
        s[kind][1] += 1
        if kind == "toggle" and signal_of(comment).endswith("_q"):
            s["reg_toggle"][0] += hit
            s["reg_toggle"][1] += 1
        if not hit:
            uncovered[module].append((kind, int(keys.get("l", 0)), comment, keys.get("h", "")))
    if not stats:
        sys.exit(f"coverage_report: no coverage points in {a.dat}")

    def pct(pair):
        return f"{100.0 * pair[0] / pair[1]:.1f} % ({pair[0]} / {pair[1]})" if pair[1] else "-"

    out = ["# RTL coverage (make coverage)", "", f"From `{a.dat}`.", "",
           "| module | line | toggle | toggle of registers (*_q) |", "|---|---|---|---|"]
    for module in sorted(stats):
        s = stats[module]
        out.append(f"| {module} | {pct(s['line'])} | {pct(s['toggle'])} | {pct(s['reg_toggle'])} |")
    out += ["", "## Uncovered points", ""]
    for module in sorted(uncovered):
        out.append(f"### {module} ({len(uncovered[module])})")
        out.append("")
        # Toggle points of one signal are grouped: a wide vector has a point per bit and direction.
        grouped = collections.OrderedDict()
        for kind, line, comment, hier in sorted(uncovered[module], key=lambda u: (u[0], u[1], u[2])):
            key = (kind, line, signal_of(comment) if kind == "toggle" else comment)
            grouped.setdefault(key, []).append(comment)
        for (kind, line, what), items in grouped.items():
            detail = f" ({len(items)} points, e.g. {items[0]})" if len(items) > 1 else ""
            out.append(f"- {kind} line {line}: {what}{detail}")
        out.append("")
    with open(a.report, "w") as f:
        f.write("\n".join(out) + "\n")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({m: {k: {"covered": v[0], "points": v[1]} for k, v in s.items()} for m, s in stats.items()}, f,
                      indent=1, sort_keys=True)
    s = stats.get("l1d_top")
    if s:
        print(f"coverage: l1d_top line {pct(s['line'])}, toggle {pct(s['toggle'])}, registers {pct(s['reg_toggle'])}")


if __name__ == "__main__":
    main()
