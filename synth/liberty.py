#!/usr/bin/env python3
"""Prepare a liberty file for the synthesis flow and describe it (synth/README in docs/synthesis.md).

    liberty.py SRC OUT_LIB OUT_JSON [--dont-use PATTERN ...] [--keep-wire-load]

Reads SRC (plain or .gz: Yosys 0.23 and OpenSTA 2.0.17 read neither .lib.gz, and OpenSTA
silently loads nothing from one) and writes
  OUT_LIB   a plain copy in which every cell whose name contains a PATTERN gets
            `dont_use : true;` (Yosys 0.23 has no dont_use option: ABC and dfflibmap honour the
            attribute in the file) and the library's default_wire_load is removed, so that
            every library is timed the same way: pin loads only, no wire-load model;
  OUT_JSON  what the flow needs to know about it: cell count, the X1 inverter (FO4 and the
            output load: four of its inputs), the smallest buffer (the input driving cell),
            tie cells for hilomap, and the sequential cells (the flop count); the same
            facts as shell variables in OUT_JSON with .env for .json (LIB_INV, LIB_LOAD ...).
Exit 1 with one line on stderr when the library has no usable cell, no inverter or no buffer.
"""
import gzip
import json
import os
import re
import sys

# One lexical item of a liberty file: a group header `name (args) {`, a complex attribute
# `name (args);`, a simple attribute `name : value;`, or the end of a group.
TOKEN = re.compile(
    r'(?P<group>[A-Za-z_][\w.]*)\s*\((?P<gargs>[^()]*)\)\s*\{'
    r'|(?P<complex>[A-Za-z_][\w.]*)\s*\((?:[^()"]|"[^"]*")*\)\s*;?'
    r'|(?P<attr>[A-Za-z_][\w.]*)\s*:\s*(?P<value>"[^"]*"|[^;\n]*?)\s*;'
    r'|(?P<close>\})')
COMMENT = re.compile(r'/\*.*?\*/', re.S)
CELL_HEADER = re.compile(r'(\bcell\s*\(\s*"?([\w$.\[\]]+)"?\s*\)\s*\{)')
DEFAULT_WIRE_LOAD = re.compile(r'^\s*default_wire_load\s*:[^;]*;[ \t]*\n?', re.M)


def read_text(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8', errors='replace') as f:
        return f.read()


def unquote(s):
    s = s.strip()
    return s[1:-1] if len(s) >= 2 and s[0] == '"' and s[-1] == '"' else s


def scan_cells(text):
    """The cells of a library: name -> {area, dont_use, sequential, pins: name -> attrs}."""
    cells = {}
    stack = []  # (kind, name) of the open groups
    cell = pin = None
    for m in TOKEN.finditer(COMMENT.sub('', text)):
        if m.group('group'):
            kind, name = m.group('group'), unquote(m.group('gargs'))
            stack.append((kind, name))
            if kind == 'cell' and len(stack) == 2:
                cell = cells.setdefault(name, {'area': 0.0, 'dont_use': False, 'sequential': False,
                                               'pins': {}})
            elif cell is not None and kind in ('ff', 'latch', 'ff_bank', 'latch_bank', 'statetable'):
                cell['sequential'] = True
            elif cell is not None and kind == 'pin' and len(stack) == 3:
                pin = cell['pins'].setdefault(name, {})
        elif m.group('close'):
            if stack:
                kind, _ = stack.pop()
                if kind == 'cell' and len(stack) == 1:
                    cell = None
                elif kind == 'pin' and len(stack) == 2:
                    pin = None
        elif m.group('attr') and cell is not None:
            name, value = m.group('attr'), unquote(m.group('value'))
            if pin is not None and len(stack) == 3:
                if name in ('direction', 'function', 'capacitance'):
                    pin[name] = value
            elif len(stack) == 2:
                if name == 'area':
                    cell['area'] = float(value)
                elif name == 'dont_use':
                    cell['dont_use'] = value.lower() == 'true'
    return cells


def normalized(function):
    return re.sub(r'[\s()]', '', function)


def pins_by_direction(cell):
    ins = [p for p, a in cell['pins'].items() if a.get('direction') == 'input']
    outs = [p for p, a in cell['pins'].items() if a.get('direction') == 'output']
    return ins, outs


def plain(name):
    """Not a clock, delay, low-power or otherwise special-purpose variant."""
    return not re.search(r'clk|dly|delay|lp|probe|iso|kapwr|bleeder', name, re.I)


def one_input_cells(cells, want):
    """Usable one-input one-output cells computing `want` (A or !A), smallest area first,
    then the weakest (smallest input capacitance)."""
    found = []
    for name, cell in cells.items():
        if cell['dont_use'] or cell['sequential'] or not plain(name):
            continue
        ins, outs = pins_by_direction(cell)
        if len(ins) != 1 or len(outs) != 1:
            continue
        f = normalized(cell['pins'][outs[0]].get('function', ''))
        a = ins[0]
        if f == (a if want == 'A' else '!' + a) or (want == '!A' and f == a + "'"):
            cap = float(cell['pins'][a].get('capacitance', 0) or 0)
            found.append((cell['area'], cap, name, a, outs[0]))
    found.sort()
    return found


def tie_cells(cells):
    hi = lo = None
    for name in sorted(cells):
        cell = cells[name]
        if cell['dont_use']:
            continue
        ins, outs = pins_by_direction(cell)
        if ins:
            continue
        for o in outs:
            f = normalized(cell['pins'][o].get('function', ''))
            if f == '1' and hi is None:
                hi = [name, o]
            elif f == '0' and lo is None:
                lo = [name, o]
    return hi, lo


def mark(text, patterns, keep_wire_load):
    marked = []

    def add_dont_use(m):
        if any(p in m.group(2) for p in patterns):
            marked.append(m.group(2))
            return m.group(1) + '\n    dont_use : true;'
        return m.group(1)

    if patterns:
        text = CELL_HEADER.sub(add_dont_use, text)
    if not keep_wire_load:
        text = DEFAULT_WIRE_LOAD.sub('', text)
    return text, marked


def main(argv):
    args = argv[1:]
    keep_wire_load = '--keep-wire-load' in args
    args = [a for a in args if a != '--keep-wire-load']
    patterns = []
    if '--dont-use' in args:
        i = args.index('--dont-use')
        patterns = args[i + 1:]
        args = args[:i]
    if len(args) != 3:
        sys.stderr.write(__doc__)
        return 2
    src, out_lib, out_json = args
    try:
        text = read_text(src)
    except OSError as e:
        print(f'liberty: cannot read {src}: {e.strerror}', file=sys.stderr)
        return 1
    text, marked = mark(text, patterns, keep_wire_load)
    cells = scan_cells(text)
    lib_name = re.search(r'\blibrary\s*\(\s*"?([\w.\-]+)', text)
    usable = [n for n, c in cells.items() if not c['dont_use']]
    if not usable:
        print(f'liberty: {src} has no usable cell (empty, truncated or not a liberty file)',
              file=sys.stderr)
        return 1
    invs = one_input_cells(cells, '!A')
    bufs = one_input_cells(cells, 'A')
    if not invs or not bufs:
        print(f'liberty: {src} has no {"inverter" if not invs else "buffer"} cell', file=sys.stderr)
        return 1
    _, inv_cap, inv, inv_in, inv_out = invs[0]
    _, _, buf, _, _ = bufs[0]
    hi, lo = tie_cells(cells)
    time_unit = re.search(r'time_unit\s*:\s*"?1\s*([pn]s)', text)
    cap_unit = re.search(r'capacitive_load_unit\s*\(\s*([\d.]+)\s*,\s*"?(\w+)', text)
    info = {
        'source': src,
        'library': lib_name.group(1) if lib_name else '?',
        'cells': len(cells),
        'usable_cells': len(usable),
        'dont_use_marked': sorted(marked),
        'dont_use': sorted(n for n, c in cells.items() if c['dont_use']),
        'inverter': {'cell': inv, 'in': inv_in, 'out': inv_out, 'input_cap': inv_cap},
        'buffer': buf,
        'load': round(4 * inv_cap, 6),
        'tiehi': hi,
        'tielo': lo,
        'sequential': sorted(n for n, c in cells.items() if c['sequential']),
        'time_unit': time_unit.group(1) if time_unit else 'ns',
        'cap_unit': f'{cap_unit.group(1)} {cap_unit.group(2)}' if cap_unit else '?',
        'wire_load': 'kept' if keep_wire_load else 'none',
    }
    if info['time_unit'] != 'ns':
        print(f'liberty: {src}: time unit {info["time_unit"]}; the flow expects 1ns', file=sys.stderr)
        return 1
    cap_scale = {'pf': 1000.0, 'ff': 1.0}.get(cap_unit.group(2).lower() if cap_unit else '', 0.0)
    if not cap_scale:
        print(f'liberty: {src}: capacitance unit {info["cap_unit"]}; the flow expects pf or ff',
              file=sys.stderr)
        return 1
    cap_scale *= float(cap_unit.group(1))
    info['load_ff'] = round(info['load'] * cap_scale, 4)
    with open(out_lib, 'w', encoding='utf-8') as f:
        f.write(text)
    with open(out_json, 'w', encoding='utf-8') as f:
        json.dump(info, f, indent=1)
        f.write('\n')
    # Area and output pins per cell, for the liveness analysis of synth/context.py.
    with open(os.path.join(os.path.dirname(out_json), 'cells.json'), 'w', encoding='utf-8') as f:
        json.dump({n: {'area': c['area'], 'outputs': pins_by_direction(c)[1]} for n, c in cells.items()},
                  f)
    # The same facts for the shell scripts (`. lib.env`).
    shell = {
        'LIB_NAME': info['library'], 'LIB_INV': inv, 'LIB_INV_IN': inv_in, 'LIB_INV_OUT': inv_out,
        'LIB_BUF': buf, 'LIB_LOAD': info['load'], 'LIB_LOAD_FF': info['load_ff'],
        'LIB_TIEHI': ' '.join(hi) if hi else '', 'LIB_TIELO': ' '.join(lo) if lo else '',
        'LIB_CELLS': len(usable),
    }
    with open(out_json.rsplit('.', 1)[0] + '.env', 'w', encoding='utf-8') as f:
        for k, v in shell.items():
            f.write(f"{k}='{v}'\n")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
