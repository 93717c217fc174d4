#!/usr/bin/env python3
"""Write the register wrapper that times a block register to register (docs/synthesis.md).

    wrapper.py DESIGN_JSON TOP OUT_V

DESIGN_JSON is Yosys `write_json` of the synthesized design; TOP the block. OUT_V gets module
TOP_synwrap: the same ports as TOP (plus clk_i if TOP has none), every input but clk_i and
rst_ni registered into syn_in_<port> before TOP and every output registered from TOP into
syn_out_<port>. So every timed path of the block, combinational ones included, starts and ends
at a flop, and start and end points name the port or register they belong to. The wrapper
flops have no reset; clk_i and rst_ni go straight to TOP.
"""
import json
import sys

CLOCK, RESET = 'clk_i', 'rst_ni'


def ports_of(design, top):
    module = design['modules'].get(top)
    if module is None:
        raise SystemExit(f'wrapper: no module {top} in the design')
    return [(name, p['direction'], len(p['bits'])) for name, p in module['ports'].items()]


def decl(width):
    return f'[{width - 1}:0] ' if width > 1 else ''


def wrapper(top, ports):
    if any(d == 'inout' for _, d, _ in ports):
        raise SystemExit(f'wrapper: {top} has an inout port')
    names = [n for n, _, _ in ports]
    header = ['input wire clk_i'] if CLOCK not in names else []
    header += [f'{"input" if d == "input" else "output"} wire {decl(w)}{n}' for n, d, w in ports]
    body, conns = [], []
    for n, d, w in ports:
        if n in (CLOCK, RESET):
            conns.append(f'.{n}({n})')
        elif d == 'input':
            body.append(f'  reg {decl(w)}syn_in_{n};')
            body.append(f'  always @(posedge clk_i) syn_in_{n} <= {n};')
            conns.append(f'.{n}(syn_in_{n})')
        else:
            body.append(f'  wire {decl(w)}syn_dut_{n};')
            body.append(f'  reg {decl(w)}syn_out_{n};')
            body.append(f'  always @(posedge clk_i) syn_out_{n} <= syn_dut_{n};')
            body.append(f'  assign {n} = syn_out_{n};')
            conns.append(f'.{n}(syn_dut_{n})')
    lines = [f'// Register wrapper of {top} for register-to-register timing (synth/wrapper.py).',
             f'module {top}_synwrap (', '  ' + ',\n  '.join(header), ');']
    lines += body
    lines.append(f'  {top} u_dut (' + ', '.join(conns) + ');')
    lines.append('endmodule')
    return '\n'.join(lines) + '\n'


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding='utf-8') as f:
        design = json.load(f)
    text = wrapper(argv[2], ports_of(design, argv[2]))
    with open(argv[3], 'w', encoding='utf-8') as f:
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
