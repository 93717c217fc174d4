#!/usr/bin/env python3
"""The staged l1d_top's area by structure, from the report.json of synth/synth.sh runs (make
synth-staged; docs/synthesis.md, "The staged l1d_top").

    structures.py REPORT_JSON [VARIANT]     markdown table of one library's run
    structures.py --overhead FULL_JSON CONV_JSON
                                            the policy overhead by structure: FULL_JSON's l1d_top
                                            (every policy) over CONV_JSON's (dcgen --variant
                                            conventional), both of one library

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
    'l1d_core_match_m1': 'decision units (M1/M2) and address decoders',
    'l1d_core_match_m2': 'decision units (M1/M2) and address decoders',
    'l1d_match_fix': 'decision units (M1/M2) and address decoders',
    'l1d_fill_place_m1': 'decision units (M1/M2) and address decoders',
    'l1d_fill_place_m2': 'decision units (M1/M2) and address decoders',
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
    top = top_of(rep, variant)
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


def top_of(rep, variant=None):
    if variant:
        top = next(v for v in rep.get('variants', []) if v['variant'] == variant)
    else:
        top = next(r for r in rep['blocks'] if r['block'] == 'l1d_top')
    if top['status'] != 'ok':
        raise SystemExit(f'structures: l1d_top failed: {top["error"]}')
    return top


def area(g, cells_only=False):
    """A structure's area in um²: flops and other logic; with the macros and black boxes unless cells_only."""
    cells = g['flop_area_um2'] + g['logic_area_um2']
    return cells if cells_only else cells + g['macro_area_um2'] + g['sram_area_um2']


def overhead(full_rep, conv_rep):
    """Markdown: per structure the conventional L1's and the full top's macros, flops, standard-cell
    area and bits, and the difference; then the totals, in um² and in % of the conventional L1
    (standard cells alone, and with the macros and black boxes)."""
    if full_rep['library']['name'] != conv_rep['library']['name']:
        raise SystemExit(f'structures: --overhead of two libraries ({full_rep["library"]["name"]}, '
                         f'{conv_rep["library"]["name"]})')
    full, conv = grouped(top_of(full_rep)), grouped(top_of(conv_rep))
    empty = dict.fromkeys(KEYS, 0)
    lib = full_rep['library']['name']
    out = [f'| structure ({lib}) | conv. macros | conv. flops | conv. cells um² | conv. bits | full macros |'
           ' full flops | full cells um² | full bits | full - conv. um² (with macros) |',
           '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|']
    names = sorted(set(full) | set(conv), key=lambda n: -area(full.get(n, empty)))
    tot_f, tot_c = dict.fromkeys(KEYS, 0), dict.fromkeys(KEYS, 0)
    for n in names:
        f, c = full.get(n, empty), conv.get(n, empty)
        out.append(f'| {n} | {c["macro_count"]} | {c["flops"]} | {area(c, True):.0f} | {c["array_bits"] + c["sram_bits"]} |'
                   f' {f["macro_count"]} | {f["flops"]} | {area(f, True):.0f} | {f["array_bits"] + f["sram_bits"]} |'
                   f' {area(f) - area(c):+.0f} |')
        for k in KEYS:
            tot_f[k] += f[k]
            tot_c[k] += c[k]
    out.append(f'| **total** | {tot_c["macro_count"]} | {tot_c["flops"]} | {area(tot_c, True):.0f} |'
               f' {tot_c["array_bits"] + tot_c["sram_bits"]} | {tot_f["macro_count"]} | {tot_f["flops"]} |'
               f' {area(tot_f, True):.0f} | {tot_f["array_bits"] + tot_f["sram_bits"]} | {area(tot_f) - area(tot_c):+.0f} |')
    cells = area(tot_f, True) - area(tot_c, True)
    whole = area(tot_f) - area(tot_c)
    out.append('')
    out.append(f'Policy overhead ({lib}): standard cells {cells:+.0f} um² = {100 * cells / area(tot_c, True):+.1f} % of '
               f'the conventional L1\'s {area(tot_c, True):.0f} um²; with the macros and black boxes {whole:+.0f} um² = '
               f'{100 * whole / area(tot_c):+.1f} % of {area(tot_c):.0f} um².')
    return '\n'.join(out)


def main(argv):
    if len(argv) == 4 and argv[1] == '--overhead':
        reps = []
        for path in argv[2:]:
            with open(path, encoding='utf-8') as f:
                reps.append(json.load(f))
        print(overhead(*reps))
        return 0
    if len(argv) not in (2, 3) or argv[1].startswith('--'):
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding='utf-8') as f:
        rep = json.load(f)
    print(table(rep, argv[2] if len(argv) == 3 else None))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
