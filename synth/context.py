#!/usr/bin/env python3
"""The context of the sub-blocks of a hierarchically synthesized block (docs/synthesis.md).

    context.py extract GLUE_DIR TOP LIBDIR OUT_DIR SUB[=SUB_DIR] ...
    context.py wrapper CONTEXT_JSON OUT_V

A block that instantiates other blocks (l1d_top) is synthesized as its glue, the sub-blocks black
boxes, and each sub-block on its own. That loses what a flat synthesis gets for free: an input
the glue ties to a constant, or an output whose value reaches no output of the block, lets
synthesis remove logic inside the sub-block (and in the glue). The policy-overhead row's
baseline (l1d_top with its configuration inputs tied to the baseline policy) depends on exactly
that, so the sub-blocks are synthesized in context, and synth/hier.sh repeats until nothing
changes:

`extract` (OUT_DIR/summary.txt: per sub-block a line "SUB INSTANCES KEY", KEY the context's
constant inputs and unused outputs as one JSON word, "{}" when there are none) reads the glue's
gate-level netlist (GLUE_DIR/netlist.v, Yosys write_verilog -noattr
-noexpr -simple-lhs) and writes OUT_DIR/<SUB>.json for every sub-block SUB: its input ports
whose every bit is a constant (a literal or a tie cell's output), with their value, and its
output ports no bit of which is live. Liveness runs backwards from TOP's outputs through the
glue's cells (LIBDIR/cells.json: their output pins and area) and through the sub-blocks: a
sub-block with a live output needs the input bits its netlist in SUB_DIR reads (all of them
when no SUB_DIR is given yet). OUT_DIR/glue_dead.json has the glue cells that drive nothing live
(cells, flops, area): a flat synthesis would have removed them, synth/report.py subtracts them.
The sub-blocks' ports come from the glue's design (GLUE_DIR/block.json, where they are black
boxes). When a module has several instances, an input counts as constant only if it has the same
value in all of them and an output as unused only if unused in all of them; ports with only some
constant bits are left alone (both err towards a larger sub-block).

`wrapper` writes the Verilog module <SUB>_syn_ctx with the sub-block's ports, which instantiates
the sub-block with those inputs tied and those outputs left open; synth/yosys_map.tcl
(SYN_CONTEXT) flattens it and renames it back to the sub-block, so that the glue's netlist
links to it unchanged.
"""
import json
import os
import re
import sys

TOKEN = re.compile(r"\\\S+|\d+'[bhdo][0-9a-fA-FxXzZ_]+|[A-Za-z_$][\w$]*|\[\d+(?::\d+)?\]|[{}(),;.=]|\S")


def tokens(text):
    return TOKEN.findall(text)


def const_bits(tok):
    """A Verilog literal N'bX / N'hX / N'dX as a list of bits, LSB first ('0', '1', 'x')."""
    m = re.match(r"(\d+)'([bhdo])(.+)$", tok)
    width, base, digits = int(m.group(1)), m.group(2), m.group(3).replace('_', '').lower()
    if base == 'd':
        value = bin(int(digits))[2:]
    elif base in 'ho':
        per = 4 if base == 'h' else 3
        value = ''.join('x' * per if c in 'xz' else bin(int(c, 16))[2:].zfill(per) for c in digits)
    else:
        value = digits.replace('z', 'x')
    value = value.zfill(width)[-width:]
    return list(reversed(value))


class Module:
    """The nets, instances and assigns of one netlist module, bit by bit."""

    def __init__(self, toks):
        self.width = {}       # net -> (msb, lsb)
        self.inputs = set()   # module input nets
        self.outputs = set()  # module output nets
        self.instances = []   # (type, name, {port: [bit, ...]})
        self.assigns = []     # (lhs bits, rhs bits)
        self._parse(toks)

    def bits(self, toks, i):
        """The bits of the expression at toks[i] (LSB first) and the index after it. A bit is a
        (net, index) pair or a constant '0', '1', 'x'."""
        t = toks[i]
        if t == '{':
            parts, i = [], i + 1
            while toks[i] != '}':
                b, i = self.bits(toks, i)
                parts.append(b)
                if toks[i] == ',':
                    i += 1
            out = []
            for b in reversed(parts):  # {msb_part, ..., lsb_part}
                out += b
            return out, i + 1
        if re.match(r"\d+'", t):
            return const_bits(t), i + 1
        name = t.rstrip()
        i += 1
        msb, lsb = self.width.get(name, (0, 0))
        if i < len(toks) and toks[i].startswith('['):
            sel = toks[i][1:-1].split(':')
            hi = int(sel[0])
            lo = int(sel[1]) if len(sel) > 1 else hi
            i += 1
        else:
            hi, lo = msb, lsb
        step = 1 if hi >= lo else -1
        return [(name, b) for b in range(lo, hi + step, step)], i

    def _parse(self, toks):
        i, n = 0, len(toks)
        while i < n:
            t = toks[i]
            if t in ('wire', 'input', 'output', 'reg'):
                j = i + 1
                if toks[j] in ('wire', 'reg'):
                    j += 1
                msb = lsb = 0
                if toks[j].startswith('['):
                    msb, lsb = (int(x) for x in toks[j][1:-1].split(':'))
                    j += 1
                names = []
                while toks[j] != ';':
                    if toks[j] != ',':
                        names.append(toks[j].rstrip())
                    j += 1
                for name in names:
                    self.width[name] = (msb, lsb)
                    if t == 'output':
                        self.outputs.add(name)
                    elif t == 'input':
                        self.inputs.add(name)
                i = j + 1
            elif t == 'assign':
                lhs, j = self.bits(toks, i + 1)
                rhs, j = self.bits(toks, j + 1)  # skip '='
                self.assigns.append((lhs, rhs))
                i = j + 1
            elif t == 'endmodule':
                return
            elif re.match(r'[A-Za-z_\\]', t) and i + 2 < n and toks[i + 2] == '(':
                ctype, name, j = t.rstrip(), toks[i + 1].rstrip(), i + 3
                conns = {}
                while toks[j] != ')':
                    if toks[j] == '.':
                        port = toks[j + 1].rstrip()
                        if toks[j + 3] == ')':
                            conns[port], j = [], j + 4
                        else:
                            conns[port], j = self.bits(toks, j + 3)
                            j += 1  # ')'
                    else:
                        j += 1
                self.instances.append((ctype, name, conns))
                i = j + 2  # ')' ';'
            else:
                i += 1


def module_tokens(text, top):
    m = re.search(r'^module\s+' + re.escape(top) + r'\s*\(', text, re.M)
    if not m:
        raise SystemExit(f'context: no module {top} in the netlist')
    start = text.index(';', m.end()) + 1
    end = text.index('\nendmodule', start)
    return tokens(text[start:end] + '\nendmodule')


def port_deps(sub_dir, sub, lib_cells):
    """Which input ports of the sub-block each of its output ports depends on, through its
    synthesized netlist (flops included): {output: {input, ...}}. A cell of a type that is not in
    the library (an SRAM macro) depends on all of its connections."""
    with open(os.path.join(sub_dir, 'netlist.v'), encoding='utf-8') as f:
        mod = Module(module_tokens(f.read(), sub))
    driver = {}
    for k, (ctype, _, conns) in enumerate(mod.instances):
        outs = lib_cells[ctype]['outputs'] if ctype in lib_cells else None
        for port, bits in conns.items():
            if outs is None or port in outs:
                for b in bits:
                    driver.setdefault(b, []).append(k)
    alias = {}
    for lhs, rhs in mod.assigns:
        for l, r in zip(lhs, rhs):
            if not isinstance(r, str):
                alias[l] = r
    inputs = mod.inputs
    deps = {}
    for port in mod.outputs:
        lo, hi = sorted(mod.width[port])
        work = [(port, i) for i in range(lo, hi + 1)]
        seen_bits, seen_inst, found = set(), set(), set()
        while work:
            b = work.pop()
            if b in seen_bits or isinstance(b, str):
                continue
            seen_bits.add(b)
            if b[0] in inputs:
                found.add(b[0])
            if b in alias:
                work.append(alias[b])
            for k in driver.get(b, ()):
                if k in seen_inst:
                    continue
                seen_inst.add(k)
                ctype, _, conns = mod.instances[k]
                outs = lib_cells[ctype]['outputs'] if ctype in lib_cells else ()
                work += [bit for p, bits in conns.items() if p not in outs for bit in bits]
        deps[port] = found
    return deps


def extract(glue_dir, top, libdir, out_dir, subs):
    """subs: sub-block -> directory of its latest synthesis (in context, or standalone), or None
    (then every output counts as depending on every input)."""
    with open(os.path.join(glue_dir, 'netlist.v'), encoding='utf-8') as f:
        mod = Module(module_tokens(f.read(), top))
    with open(os.path.join(glue_dir, 'block.json'), encoding='utf-8') as f:
        design = json.load(f)['modules']
    with open(os.path.join(libdir, 'cells.json'), encoding='utf-8') as f:
        lib_cells = json.load(f)
    with open(os.path.join(libdir, 'lib.json'), encoding='utf-8') as f:
        lib = json.load(f)
    sequential = set(lib['sequential'])
    ties = {}
    for tie, value in ((lib.get('tiehi'), '1'), (lib.get('tielo'), '0')):
        if tie:
            ties.setdefault(tie[0], {})[tie[1]] = value
    for sub in subs:
        if sub not in design:
            raise SystemExit(f'context: {top} has no sub-block {sub}')

    def ports_of(ctype):
        return {n: p['direction'] for n, p in design[ctype]['ports'].items()} if ctype in design else None

    # Constant nets: tie-cell outputs and nets assigned a literal.
    const = {}
    for ctype, _, conns in mod.instances:
        for port, value in ties.get(ctype, {}).items():
            for b in conns.get(port, []):
                const[b] = value
    for lhs, rhs in mod.assigns:
        for l, r in zip(lhs, rhs):
            if isinstance(r, str):
                const[l] = r

    # Liveness, backwards from TOP's outputs. A library cell needs all its inputs once one of its
    # outputs is live; a sub-block (or another black box, e.g. the data SRAM) needs the inputs it
    # reads once one of its outputs is live; a net of an unknown cell type is always live.
    deps = {sub: port_deps(d, sub, lib_cells) for sub, d in subs.items() if d}
    driver, roots = {}, []
    for k, (ctype, _, conns) in enumerate(mod.instances):
        if ctype in lib_cells:
            outs = set(lib_cells[ctype]['outputs'])
        else:
            ports = ports_of(ctype)
            if ports is None:
                roots += [b for bits in conns.values() for b in bits if not isinstance(b, str)]
                continue
            outs = {p for p, d in ports.items() if d != 'input'}
        for port in outs:
            for b in conns.get(port, []):
                if not isinstance(b, str):
                    driver[b] = (k, port)
    alias = {}
    for lhs, rhs in mod.assigns:
        for l, r in zip(lhs, rhs):
            if not isinstance(r, str):
                alias[l] = r
    roots += [(n, i) for n in mod.outputs for i in range(min(mod.width[n]), max(mod.width[n]) + 1)]
    live_bits, live_inst, live_ports = set(), set(), set()
    work = list(roots)
    while work:
        b = work.pop()
        if b in live_bits:
            continue
        live_bits.add(b)
        if b in alias:
            work.append(alias[b])
        if b not in driver:
            continue
        k, port = driver[b]
        ctype, _, conns = mod.instances[k]
        key = k if ctype in lib_cells else (k, port)  # a library cell needs all its inputs at once
        if key in live_inst:
            continue
        live_inst.add(key)
        live_ports.add((k, port))
        if ctype in lib_cells:
            outs = set(lib_cells[ctype]['outputs'])
            needed = [bit for p, bits in conns.items() if p not in outs for bit in bits]
        else:  # a sub-block or a black box: the inputs of this output (all without a netlist)
            ports = ports_of(ctype)
            wanted = deps[ctype].get(port) if ctype in deps else None
            needed = [bit for p, bits in conns.items() if ports.get(p) == 'input'
                      and (wanted is None or p in wanted) for bit in bits]
        work += [bit for bit in needed if not isinstance(bit, str)]

    dead = {'cells': 0, 'flops': 0, 'area_um2': 0.0}
    for k, (ctype, _, _) in enumerate(mod.instances):
        if ctype in lib_cells and k not in live_inst and lib_cells[ctype]['outputs']:
            dead['cells'] += 1
            dead['flops'] += ctype in sequential
            dead['area_um2'] += lib_cells[ctype]['area']
    dead['area_um2'] = round(dead['area_um2'], 1)

    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, 'glue_dead.json'), 'w', encoding='utf-8') as f:
        json.dump(dead, f)
    written = [f'glue: {dead["cells"]} dead cells ({dead["flops"]} flops, {dead["area_um2"]} um2)']
    summary = []
    for sub in subs:
        ports = {name: (p['direction'], len(p['bits'])) for name, p in design[sub]['ports'].items()}
        insts = [(k, name, conns) for k, (ctype, name, conns) in enumerate(mod.instances) if ctype == sub]
        consts, unused = None, None
        for k, _, conns in insts:
            c, u = {}, set()
            for port, (direction, width) in ports.items():
                bits = conns.get(port, [])
                if direction == 'input':
                    values = [b if isinstance(b, str) else const.get(b) for b in bits]
                    if len(bits) == width and all(v in ('0', '1') for v in values):
                        c[port] = f"{width}'b" + ''.join(reversed(values))
                elif (k, port) not in live_ports:
                    u.add(port)
            consts = c if consts is None else {p: v for p, v in consts.items() if c.get(p) == v}
            unused = u if unused is None else unused & u
        context = {'module': sub, 'instances': [name for _, name, _ in insts],
                   'ports': {p: {'direction': d, 'width': w} for p, (d, w) in ports.items()},
                   'const_inputs': consts or {}, 'unused_outputs': sorted(unused or [])}
        with open(os.path.join(out_dir, f'{sub}.json'), 'w', encoding='utf-8') as f:
            json.dump(context, f, indent=1)
        written.append(f'{sub}: {len(insts)} instance(s), {len(context["const_inputs"])} constant '
                       f'input(s), {len(context["unused_outputs"])} unused output(s)')
        # What decides the sub-block's synthesis, one word ("{}": nothing, the standalone block).
        key = {'const': context['const_inputs'], 'unused': context['unused_outputs']}
        changes = context['const_inputs'] or context['unused_outputs']
        summary.append(f'{sub} {len(insts)} {json.dumps(key, sort_keys=True, separators=(",", ":")) if changes else "{}"}')
    with open(os.path.join(out_dir, 'summary.txt'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(summary) + '\n')
    print('\n'.join(written))


def wrapper(context_json, out_v):
    with open(context_json, encoding='utf-8') as f:
        ctx = json.load(f)
    sub = ctx['module']
    header, conns = [], []
    for port, p in ctx['ports'].items():
        rng = f'[{p["width"] - 1}:0] ' if p['width'] > 1 else ''
        header.append(f'{"input" if p["direction"] == "input" else "output"} wire {rng}{port}')
        if port in ctx['const_inputs']:
            conns.append(f'.{port}({ctx["const_inputs"][port]})')
        elif port in ctx['unused_outputs']:
            conns.append(f'.{port}()')
        else:
            conns.append(f'.{port}({port})')
    lines = [f'// {sub} in the context of its instances (synth/context.py): constant inputs tied,',
             '// unread outputs left open.',
             f'module {sub}_syn_ctx (', '  ' + ',\n  '.join(header), ');',
             f'  {sub} u_ctx (' + ', '.join(conns) + ');', 'endmodule']
    with open(out_v, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


def main(argv):
    if len(argv) >= 6 and argv[1] == 'extract':
        subs = {}
        for arg in argv[6:]:
            sub, _, sub_dir = arg.partition('=')
            subs[sub] = sub_dir or None
        extract(argv[2], argv[3], argv[4], argv[5], subs)
    elif len(argv) == 4 and argv[1] == 'wrapper':
        wrapper(argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
