#!/usr/bin/python3
"""Report of a merged Verilator coverage file (make coverage, docs/rtl-verification.md).

    coverage_report.py COVERAGE.dat REPORT.md [--json REPORT.json] [--waivers FILE]
                       [--min-top-registers PCT]

Per module (summed over its instances): line points (Verilator's v_line / v_branch pages) and
toggle points (v_toggle: one per bit, hit when the bit changed), covered = hit at least once, and
the toggle coverage of the module's registers (signals named *_q, lowRISC style), raw and after
the waivers. Then l1d_top's registers by group, the waived points with their reasons, and every
uncovered point: module, line, what it is (Verilator's comment: the signal and bit).

A waiver (FILE, scripts/coverage_waivers.txt) names a module, a register and a bit range that no
run can toggle, with the argument why. It is checked, not trusted: a waiver that matches no point,
or matches a point some run did toggle, is an error (the argument was wrong or is stale).
--min-top-registers: exit 1 when l1d_top's registers after waivers are below PCT.
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
    # Toggle comments are the signal with its bit (and, in newer Verilators, the direction),
    # e.g. "s1_addr_q[3]" or "s1_addr_q[3]:0->1".
    return re.split(r"[\[:]", comment, maxsplit=1)[0]


def bit_of(comment):
    """The last index of a toggle comment (the bit of a vector), None for a 1-bit signal."""
    idx = re.findall(r"\[(\d+)\]", comment.split(":", 1)[0])
    return int(idx[-1]) if idx else None


# l1d_top's registers by what they hold (the groups of docs/rtl-verification.md's table).
TOP_GROUPS = [
    ("event counters (cnt_*)", r"cnt_"),
    ("configuration (cfg_*)", r"cfg_"),
    ("S1 request (s1_*)", r"s1_"),
    ("core response (resp_*)", r"resp_"),
    ("fill FIFO and fill state (fifo_*, fill_*)", r"(fifo_|fill_)"),
    ("flush walker (flush*)", r"flush"),
    ("miss queue (mq*)", r"mq"),
    ("policy state (agelru_en_q, gran_prev_q)", r"(agelru_en_q|gran_prev_q)$"),
    # the verification region's flops (not synthesized): the memory request's held copy and the miss
    # queue's order check (TopMissQueueInOrder_A: push and pop numbers, each entry's number)
    ("assertion state (mem_stalled_q, mem_offered_q, sva_*)", r"(mem_(stalled|offered)_q$|sva_)"),
    ("direct-path store query (store_query_line_q)", r"store_query_"),
]


# The staged l1d_top's (contract 16: the pipe registers T, M1, M2, C, D, R of every operation).
STAGED_GROUPS = [
    ("configuration (cfg_*)", r"cfg_"),
    ("operation pipe T, M1, M2 (t_*, m1_*, m2_*)", r"(t|m1|m2)_"),
    ("core response C, D, R (resp_*)", r"resp_"),
    ("tag/state row write at C (tag_wr_*)", r"tag_wr_"),
    ("data array at C and D (data_*, lane_*)", r"(data_|lane_)"),
    ("miss-queue batch at C and D (wb_*, final_*, push_*, st_*)", r"(wb_|final_|push_|st_)"),
    ("event increments at C (inc_*)", r"inc_"),
    ("fill state (fill_*)", r"fill_"),
    ("flush walker (flush*)", r"flush"),
    ("policy state (agelru_en_q)", r"agelru_en_q$"),
    ("assertion state (mem_*, sva_*)", r"(mem_(stalled|offered)_q|sva_)"),
]


def group_of(signal, groups=None):
    for name, pattern in groups or TOP_GROUPS:
        if re.match(pattern, signal):
            return name
    return "other"


def bit_ranges(comments):
    """The bits of one signal's toggle comments as ranges, e.g. "bits 3-5, 9"; the comments
    themselves when they are not one vector's bits (arrays: several indices)."""
    bits = sorted({bit_of(c) for c in comments if bit_of(c) is not None})
    if len(bits) != len(comments) or any(len(re.findall(r"\[", c.split(":", 1)[0])) != 1 for c in comments):
        return ", ".join(comments)
    runs = []
    for b in bits:
        if runs and b == runs[-1][1] + 1:
            runs[-1][1] = b
        else:
            runs.append([b, b])
    return "bits " + ", ".join(f"{lo}-{hi}" if hi > lo else f"{lo}" for lo, hi in runs)


class Waiver:
    def __init__(self, where, module, signal, lo, hi, reason):
        self.where, self.module, self.signal, self.lo, self.hi, self.reason = where, module, signal, lo, hi, reason
        self.matched = 0
        self.hit = []  # comments of waived points some run did toggle (an error)

    def covers(self, module, comment):
        if module != self.module or signal_of(comment) != self.signal:
            return False
        bit = bit_of(comment)
        return self.lo is None or (bit is not None and self.lo <= bit <= self.hi)

    def bits(self):
        return "" if self.lo is None else f"[{self.hi}:{self.lo}]" if self.hi != self.lo else f"[{self.lo}]"


def read_waivers(path):
    """Lines `module signal[hi:lo] reason` (or `signal` for every bit); # starts a comment line."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = re.match(r"(\S+)\s+(\w+)(?:\[(\d+)(?::(\d+))?\])?\s+(\S.*)$", line)
            if not m:
                sys.exit(f"coverage_report: {path}:{n}: expected 'module signal[hi:lo] reason', got '{line}'")
            module, signal, hi, lo, reason = m.groups()
            hi = None if hi is None else int(hi)
            lo = hi if lo is None else int(lo) if hi is not None else None
            if hi is not None and lo > hi:
                sys.exit(f"coverage_report: {path}:{n}: bit range [{hi}:{lo}] of {signal}: the high bit first")
            out.append(Waiver(f"{path}:{n}", module, signal, lo, hi, reason))
    return out


def pct(pair):
    return f"{100.0 * pair[0] / pair[1]:.1f} % ({pair[0]} / {pair[1]})" if pair[1] else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dat")
    ap.add_argument("report")
    ap.add_argument("--json")
    ap.add_argument("--waivers")
    ap.add_argument("--min-top-registers", type=float)
    ap.add_argument("--groups", choices=["single", "staged"], default="single",
                    help="l1d_top's register groups: the single-cycle top's or the staged one's")
    a = ap.parse_args()
    top_groups = STAGED_GROUPS if a.groups == "staged" else TOP_GROUPS
    waivers = read_waivers(a.waivers) if a.waivers else []
    # Per module: [covered, points] of line, toggle, registers' toggle raw, and after waivers.
    stats = collections.defaultdict(lambda: {k: [0, 0] for k in ("line", "toggle", "reg_toggle", "reg_toggle_waived")})
    groups = collections.defaultdict(lambda: [0, 0, 0])  # l1d_top's registers: covered, points, waived
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
        waiver = None
        if kind == "toggle" and signal_of(comment).endswith("_q"):
            waiver = next((w for w in waivers if w.covers(module, comment)), None)
            s["reg_toggle"][0] += hit
            s["reg_toggle"][1] += 1
            if waiver:
                waiver.matched += 1
                if hit:
                    waiver.hit.append(comment)
            else:
                s["reg_toggle_waived"][0] += hit
                s["reg_toggle_waived"][1] += 1
            if module == "l1d_top":
                g = groups[group_of(signal_of(comment), top_groups)]
                g[0] += hit
                g[1] += 1
                g[2] += waiver is not None
        if not hit and waiver is None:
            uncovered[module].append((kind, int(keys.get("l", 0)), comment))
    if not stats:
        sys.exit(f"coverage_report: no coverage points in {a.dat}")
    errors = [f"{w.where}: waiver of {w.module} {w.signal}{w.bits()} matches no register toggle point"
              for w in waivers if not w.matched]
    errors += [f"{w.where}: waiver of {w.module} {w.signal}{w.bits()} covers {len(w.hit)} points a run did toggle, "
               f"e.g. {w.hit[0]}: it is reachable, not waivable" for w in waivers if w.hit]

    out = ["# RTL coverage (make coverage)", "", f"From `{a.dat}`.", "",
           "| module | line | toggle | toggle of registers (*_q) | registers after waivers |", "|---|---|---|---|---|"]
    for module in sorted(stats):
        s = stats[module]
        out.append(f"| {module} | {pct(s['line'])} | {pct(s['toggle'])} | {pct(s['reg_toggle'])} "
                   f"| {pct(s['reg_toggle_waived'])} |")
    if groups:
        out += ["", "## l1d_top's registers by group", "",
                "| group | covered / points | waived | after waivers |", "|---|---|---|---|"]
        for name in [g for g, _ in top_groups] + ["other"]:
            if name in groups:
                c, n, w = groups[name]
                out.append(f"| {name} | {c} / {n} | {w} | {pct([c, n - w])} |")
    if waivers:
        out += ["", "## Waived register toggle points", "", "| module | register | points | why |", "|---|---|---|---|"]
        for w in waivers:
            out.append(f"| {w.module} | `{w.signal}{w.bits()}` | {w.matched} | {w.reason} |")
    out += ["", "## Uncovered points (not waived)", ""]
    for module in sorted(uncovered):
        out.append(f"### {module} ({len(uncovered[module])})")
        out.append("")
        # Toggle points of one signal are grouped: a wide vector has a point per bit.
        grouped = collections.OrderedDict()
        for kind, line, comment in sorted(uncovered[module]):
            key = (kind, line, signal_of(comment) if kind == "toggle" else comment)
            grouped.setdefault(key, []).append(comment)
        for (kind, line, what), items in grouped.items():
            detail = (f" ({len(items)} points: {bit_ranges(items)})" if len(items) > 1
                      else f" ({items[0]})" if items[0] != what else "")
            out.append(f"- {kind} line {line}: {what}{detail}")
        out.append("")
    if errors:
        out += ["## Waiver errors", ""] + [f"- {e}" for e in errors] + [""]
    with open(a.report, "w") as f:
        f.write("\n".join(out) + "\n")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({m: {k: {"covered": v[0], "points": v[1]} for k, v in s.items()} for m, s in stats.items()}, f,
                      indent=1, sort_keys=True)
    for e in errors:
        print(f"coverage_report: {e}", file=sys.stderr)
    s = stats.get("l1d_top")
    if s:
        print(f"coverage: l1d_top line {pct(s['line'])}, toggle {pct(s['toggle'])}, registers {pct(s['reg_toggle'])} "
              f"raw, {pct(s['reg_toggle_waived'])} after waivers")
    if errors:
        sys.exit(1)
    if a.min_top_registers is not None:
        if not s:
            sys.exit("coverage_report: --min-top-registers: no l1d_top in the coverage file")
        c, n = s["reg_toggle_waived"]
        if n == 0 or 100.0 * c / n < a.min_top_registers:
            sys.exit(f"coverage_report: l1d_top's registers {pct([c, n])} after waivers, below the required "
                     f"{a.min_top_registers} %")


if __name__ == "__main__":
    main()
