#!/usr/bin/env python3
"""The staged l1d_top's area by structure, from the report.json of synth/synth.sh runs (make
synth-staged; docs/synthesis.md, "The staged l1d_top").

    structures.py REPORT_JSON [VARIANT]     markdown table of one library's run

The hierarchical l1d_top row lists its sub-blocks (report.py: per instance its flops and their
area, other logic, macros, array bits and black-box SRAM); this groups them into the structures of
contract 16.5. VARIANT: a --variant build of the run (the baseline-policy l1d_top) instead of the
run's own l1d_top. A sub-block not named below is its own structure, so nothing is lost.
"""
import json
import sys

# sub-block -> structure (contract 16.5's units)
STRUCTURE = {
    'l1d_issue': 'issue (A: arbiter, input and replay FIFOs)',
    'l1d_fill_issue': 'fill and flush issue',
    'l1d_flush_walker': 'fill and flush issue',
    'l1d_tag_read': 'tag/state row (SRAM, T..M2 row registers, forwarding)',
    'l1d_line_state': 'line state (valid, ranks, priority: flops)',
    'l1d_addr_decode': 'decision units (M1/M2) and address decoders',
    'l1d_core_match': 'decision units (M1/M2) and address decoders',
    'l1d_fill_place': 'decision units (M1/M2) and address decoders',
    'l1d_flush_keep': 'decision units (M1/M2) and address decoders',
    'l1d_data_stage': 'data array (C/D: one bank per way)',
    'l1d_mshr': 'MSHR file (entries in flops, buffers black boxes)',
    'l1d_miss_queue': 'miss queue (payload in flops)',
    'l1d_agcb_table': 'policy tables (AGCB, two-level, granularity, AgeLRU, replacement)',
    'l1d_two_level': 'policy tables (AGCB, two-level, granularity, AgeLRU, replacement)',
    'l1d_gran_selector': 'policy tables (AGCB, two-level, granularity, AgeLRU, replacement)',
    'l1d_agelru_ages': 'policy tables (AGCB, two-level, granularity, AgeLRU, replacement)',
    'l1d_repl_state': 'policy tables (AGCB, two-level, granularity, AgeLRU, replacement)',
    'l1d_perf_counters': 'performance counters',
}
KEYS = ('macro_count', 'macro_area_um2', 'sram_area_um2', 'flops', 'flop_area_um2', 'logic_area_um2',
        'array_bits', 'sram_bits')


def grouped(top):
    groups = {}
    for b in top['subblocks']:
        g = groups.setdefault(STRUCTURE.get(b['block'], b['block']), dict.fromkeys(KEYS, 0) | {'blocks': []})
        g['blocks'].append(b['block'] + (f' x{b["instances"]}' if b['instances'] > 1 else ''))
        for k in KEYS:
            g[k] += (b.get(k) or 0) * b['instances']
        for c in b.get('macro_cells', []):
            g.setdefault('cells', set()).add(c)
    glue = top['glue']
    groups['glue (pipe registers, M2 branch, response)'] = dict.fromkeys(KEYS, 0) | {
        'blocks': ['l1d_top'], 'flops': glue['flops'], 'flop_area_um2': glue['flop_area_um2'],
        'logic_area_um2': (glue['area_um2'] or 0) - glue['flop_area_um2']}
    return groups


def table(rep, variant=None):
    if variant:
        top = next(v for v in rep.get('variants', []) if v['variant'] == variant)
    else:
        top = next(r for r in rep['blocks'] if r['block'] == 'l1d_top')
    if top['status'] != 'ok':
        raise SystemExit(f'structures: l1d_top failed: {top["error"]}')
    out = [f'| structure ({rep["library"]["name"]}) | macros | macro mm² | flops | flop mm² | other logic mm² |'
           ' SRAM bits (arrays + black boxes) | black-box mm² |',
           '|---|---|---:|---:|---:|---:|---:|---:|']
    total = dict.fromkeys(KEYS, 0)
    for name, g in sorted(grouped(top).items(), key=lambda kv: -(kv[1]['macro_area_um2'] + kv[1]['flop_area_um2']
                                                                  + kv[1]['logic_area_um2'])):
        macros = f'{g["macro_count"]} x {", ".join(sorted(g["cells"]))}' if g['macro_count'] else ''
        out.append(f'| {name} | {macros} | {g["macro_area_um2"] / 1e6:.3f} | {g["flops"]} |'
                   f' {g["flop_area_um2"] / 1e6:.3f} | {g["logic_area_um2"] / 1e6:.3f} |'
                   f' {g["array_bits"] + g["sram_bits"]} | {g["sram_area_um2"] / 1e6:.3f} |')
        for k in KEYS:
            total[k] += g[k]
    out.append(f'| **total** | {total["macro_count"]} | {total["macro_area_um2"] / 1e6:.3f} | {total["flops"]} |'
               f' {total["flop_area_um2"] / 1e6:.3f} | {total["logic_area_um2"] / 1e6:.3f} |'
               f' {total["array_bits"] + total["sram_bits"]} | {total["sram_area_um2"] / 1e6:.3f} |')
    return '\n'.join(out)


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding='utf-8') as f:
        rep = json.load(f)
    print(table(rep, argv[2] if len(argv) == 3 else None))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
