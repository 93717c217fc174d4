#!/usr/bin/env python3
"""The text work of make synth-sweep (synth/sweep.sh, docs/synthesis.md).

    sweep.py configs BASE.yaml OUTDIR     one YAML file per sweep point, derived from BASE (the
                                          gtx480 preset); prints "point parameter value" lines,
                                          the base point first
    sweep.py changed BASE_RTL POINT_RTL   the modules whose RTL differs from the base point's,
                                          ignoring the comment header (it names the configuration)
    sweep.py report RUN                   RUN/sweep.csv, RUN/sweep.png (gnuplot) from the blocks
                                          synthesized under RUN/points/*/blocks/

One parameter varies at a time around the base point: AGCB table entries 64..1024, ways 4..16
(the size grows with the ways so that the set count, and with it the legality of the Fermi set
hash, stays that of the base), chunk-tag width 12..20 bits.
"""
import csv
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (synth/report.py: one block's numbers)

SWEEP = {
    'agcb_entries': [64, 128, 256, 512, 1024],
    'ways': [4, 8, 12, 16],
    'chunk_tag_bits': [12, 14, 16, 18, 20],
}
LABEL = {'agcb_entries': 'AGCB table entries', 'ways': 'ways (32 sets)',
         'chunk_tag_bits': 'chunk-tag width (bits)'}


def section_value(text, section, key):
    m = re.search(rf'^{section}:\n(?:[ \t].*\n|\n)*?[ \t]+{key}:[ \t]*(\d+)', text, re.M)
    if not m:
        raise SystemExit(f'sweep: no {section}.{key} in the base configuration')
    return int(m.group(1))


def set_value(text, section, key, value):
    pattern = re.compile(rf'(^{section}:\n(?:[ \t].*\n|\n)*?[ \t]+{key}:[ \t]*)\d+', re.M)
    text, n = pattern.subn(rf'\g<1>{value}', text, count=1)
    if n != 1:
        raise SystemExit(f'sweep: cannot set {section}.{key}')
    return text


def set_agcb_entries(text, value):
    text, n = re.subn(r'(agcb:\s*\{\s*entries:\s*)\d+', rf'\g<1>{value}', text, count=1)
    if n != 1:
        raise SystemExit('sweep: no policy agcb entries in the base configuration')
    return text


def base_values(text):
    m = re.search(r'agcb:\s*\{\s*entries:\s*(\d+)', text)
    if not m:
        raise SystemExit('sweep: no policy agcb entries in the base configuration')
    return {'agcb_entries': int(m.group(1)), 'ways': section_value(text, 'l1', 'ways'),
            'chunk_tag_bits': section_value(text, 'l1', 'chunk_tag_bits')}


def point_config(text, param, value):
    if param == 'agcb_entries':
        return set_agcb_entries(text, value)
    if param == 'chunk_tag_bits':
        return set_value(text, 'l1', 'chunk_tag_bits', value)
    ways, size = section_value(text, 'l1', 'ways'), section_value(text, 'l1', 'size_bytes')
    text = set_value(text, 'l1', 'ways', value)
    return set_value(text, 'l1', 'size_bytes', size // ways * value)


def cmd_configs(base_path, outdir):
    with open(base_path, encoding='utf-8') as f:
        text = f.read()
    base = base_values(text)
    os.makedirs(outdir, exist_ok=True)
    lines = []
    with open(os.path.join(outdir, 'base.yaml'), 'w', encoding='utf-8') as f:
        f.write(text)
    lines.append('base base 0')
    for param, values in SWEEP.items():
        for v in values:
            if v == base[param]:
                continue
            name = f'{param}-{v}'
            with open(os.path.join(outdir, name + '.yaml'), 'w', encoding='utf-8') as f:
                f.write(point_config(text, param, v))
            lines.append(f'{name} {param} {v}')
    print('\n'.join(lines))
    return 0


def body(path):
    with open(path, encoding='utf-8') as f:
        lines = f.readlines()
    i = 0
    while i < len(lines) and lines[i].startswith('//'):
        i += 1
    return lines[i:]


def cmd_changed(base_rtl, point_rtl):
    for name in sorted(os.listdir(point_rtl)):
        if not name.endswith('.sv') or name.endswith('_pkg.sv'):
            continue
        base_file = os.path.join(base_rtl, name)
        if not os.path.exists(base_file) or body(base_file) != body(os.path.join(point_rtl, name)):
            print(name[:-3])
    return 0


def cmd_report(run):
    lib = report.load(os.path.join(run, 'lib', 'lib.json'))
    fo4 = report.load(os.path.join(run, 'lib', 'fo4.json'))
    with open(os.path.join(run, 'configs', 'base.yaml'), encoding='utf-8') as f:
        base = base_values(f.read())
    blackboxes = set(os.environ.get('SYN_BLACKBOX', 'l1d_data_sram l1d_ram_1r1w').split())
    rows, failed = [], []
    for param, values in SWEEP.items():
        swept = set()
        for v in values:
            point = 'base' if v == base[param] else f'{param}-{v}'
            bdir = os.path.join(run, 'points', point, 'blocks')
            if point != 'base' and os.path.isdir(bdir):
                swept |= set(os.listdir(bdir))
        for v in values:
            point = 'base' if v == base[param] else f'{param}-{v}'
            for block in sorted(swept):
                r = report.block_row(block, os.path.join(run, 'points', point, 'blocks', block), lib,
                                     fo4['fo4_ns'], None, blackboxes)
                if r['status'] != 'ok':
                    failed.append(f'{point} {block}: {r["error"]}')
                rows.append({'parameter': param, 'value': v, 'block': block, 'status': r['status'],
                             'cells': r.get('cells'), 'area_um2': r.get('area_um2'),
                             'flops': r.get('flops'), 'critical_ns': r.get('critical_ns'),
                             'fo4': r.get('fo4'), 'fmax_mhz': r.get('fmax_mhz')})
    csv_path = os.path.join(run, 'sweep.csv')
    with open(csv_path, 'w', newline='', encoding='utf-8') as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ['parameter'])
        w.writeheader()
        w.writerows(rows)
    plot(run, rows, lib['library'], fo4['fo4_ns'])
    for line in failed:
        print(f'sweep: FAIL {line}', file=sys.stderr)
    print(f'sweep: {len(rows)} rows in {csv_path}, plot {os.path.join(run, "sweep.png")}')
    return 1 if failed else 0


def plot(run, rows, libname, fo4_ns):
    """Area and fmax against each parameter, one line per block (gnuplot, pngcairo)."""
    datadir = os.path.join(run, 'plot')
    os.makedirs(datadir, exist_ok=True)
    script = ['set terminal pngcairo noenhanced size 1500,1200 font ",10"',
              f'set output "{os.path.join(run, "sweep.png")}"',
              f'set multiplot layout 3,2 title "Synthesis sweep, {libname} (FO4 {fo4_ns * 1000:.0f} ps)'
              ' around gtx480: one parameter at a time"',
              'set grid', 'set key top left font ",8"', 'set datafile separator ","']
    for param in SWEEP:
        blocks = sorted({r['block'] for r in rows if r['parameter'] == param})
        files = []
        for b in blocks:
            path = os.path.join(datadir, f'{param}-{b}.csv')
            with open(path, 'w', encoding='utf-8') as f:
                for r in rows:
                    if r['parameter'] == param and r['block'] == b and r['status'] == 'ok':
                        f.write(f'{r["value"]},{r["area_um2"]},{r["fmax_mhz"]}\n')
            files.append((b, path))
        logx = 'set logscale x 2' if param == 'agcb_entries' else 'unset logscale x'
        for col, ylabel in ((2, 'area (um^2)'), (3, 'fmax (MHz)')):
            script += [logx, f'set xlabel "{LABEL[param]}"', f'set ylabel "{ylabel}"',
                       'set logscale y' if col == 2 else 'unset logscale y']
            if not files:
                script.append('set label 1 "no block depends on this parameter" at graph 0.3,0.5')
                script.append('plot NaN notitle')
                script.append('unset label 1')
                continue
            script.append('plot ' + ', '.join(f'"{p}" using 1:{col} with linespoints title "{b}"'
                                              for b, p in files))
    script.append('unset multiplot')
    gp = os.path.join(run, 'sweep.gp')
    with open(gp, 'w', encoding='utf-8') as f:
        f.write('\n'.join(script) + '\n')
    try:
        subprocess.run(['gnuplot', gp], check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(f'sweep: gnuplot failed ({e}); scripts/setup-deps.sh installs gnuplot-nox')


def main(argv):
    if len(argv) == 4 and argv[1] == 'configs':
        return cmd_configs(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == 'changed':
        return cmd_changed(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == 'report':
        return cmd_report(argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
