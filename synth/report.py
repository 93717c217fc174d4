#!/usr/bin/env python3
"""Collect one synthesis run into report.json and report.md (docs/synthesis.md says what each
number means).

    report.py --run DIR --lib NAME [--density UM2_PER_BIT] [--wall S] [--jobs N]
              [--baseline-rtl DIR] [--baseline-const PORT=VALUE,...]
    report.py --combine OUTDIR      OUTDIR/report.{md,json}: every library's report, newest first

DIR is synth.sh's run directory: lib/ (lib.json, fo4.json), blocks/<block>/, overhead_note.txt
(why there is no policy-overhead row, or empty) and, for that row, baseline/l1d_top/ (l1d_top
with the baseline LRU controller only) to compare with blocks/l1d_top/ (every policy).
Exit 1 when a block failed or produced an impossible number (no cell, no area, no path).
"""
import argparse
import json
import os
import re
import sys

# Project goals for the register-to-register path (SPEC / issue [Synthesis]): 20 FO4 per block,
# 25 FO4 for the tag stage (tag array read, tag processor, chunk-tag match). l1d_top contains the tag
# stage, so its worst path is held to that stage's goal.
GOAL_FO4 = 20
TAG_STAGE_GOAL_FO4 = 25
TAG_STAGE = {'l1d_tag_array', 'l1d_tag_mask', 'l1d_chunk_match', 'l1d_top'}
POLICY_OVERHEAD_GOAL_PCT = 10.0
# Coarse flop cells of `stat -width` after proc: $dff_8, $adffe_32, $sdff_1 ...
FLOP_WIDTH = re.compile(r'^\$[a-z]*dff[a-z]*_(\d+)$')
# Memories of at least SYN_MACRO_MIN_BITS become black boxes of these types (synth/yosys_map.tcl).
MEMORY_MACRO_PREFIX = 'syn_sram_'


def load(path, default=None):
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except OSError:
        return default
    # Yosys 0.23's `stat -json` of a partial selection leaves a comma before the last brace, and
    # with a parametrised submodule it prints the design's hierarchy as bare text lines
    # ("   $paramod\\l1d_tag_mask\\ChunkTagBits=...   1") inside the JSON: those lines go.
    text = re.sub(r',\s*}\s*$', '}', text)
    # `tee` also catches Yosys warnings printed before the JSON (a black-box pattern that matches
    # no module of this block).
    start = re.search(r'^[\[{]', text, re.M)
    if start:
        text = text[start.start():]
    try:
        return json.loads(text)
    except ValueError:
        pass
    kept = [line for line in text.split('\n') if '"' in line or re.fullmatch(r'[\s{}\[\],]*', line)]
    try:
        return json.loads('\n'.join(kept))
    except ValueError:
        return default


def module_key(stat, name):
    """Yosys names modules \\name in its JSON."""
    for key in ('\\' + name, name):
        if key in stat.get('modules', {}):
            return key
    return None


def chip_areas(path):
    areas = {}
    try:
        with open(path, encoding='utf-8') as f:
            for line in f:
                m = re.search(r"Chip area for module '\\?([^']+)': ([\d.]+)", line)
                if m:
                    areas[m.group(1)] = float(m.group(2))
    except OSError:
        pass
    return areas


def storage_bits(macros, hierarchy, top, blackboxes, skip=()):
    """Bits held by the black boxes of top's hierarchy: per elaborated black-box module its
    memory bits (or, for a model without a memory, its flop bits), times its instance count;
    not below the modules in skip (the sub-blocks of a hierarchical block count their own).
    Module names are compared without Yosys' leading backslash: `stat` names a module `\\m` but
    a cell of that module's type `m` (parametrised ones `$paramod\\m\\...` in both)."""
    if not macros:
        return 0
    def plain(name):
        return name[1:] if name.startswith('\\') else name

    macros = {'modules': {plain(k): v for k, v in macros.get('modules', {}).items()}}
    if hierarchy:
        hierarchy = {'modules': {plain(k): v for k, v in hierarchy.get('modules', {}).items()}}
    per_module = {}
    for name, st in macros.get('modules', {}).items():
        bits = st.get('num_memory_bits', 0)
        if not bits:
            for t, n in st.get('num_cells_by_type', {}).items():
                m = FLOP_WIDTH.match(t)
                if m:
                    bits += n * int(m.group(1))
        per_module[name] = bits
    mods = hierarchy.get('modules', {}) if hierarchy else {}
    top_key = module_key(hierarchy or {}, top)
    if top_key is None:
        return 0
    if top_key in per_module:
        return per_module[top_key]
    total = 0

    def walk(key, mult):
        nonlocal total
        for t, n in mods.get(key, {}).get('num_cells_by_type', {}).items():
            if t in per_module:
                total += mult * n * per_module[t]
            elif t in mods and t not in skip:
                walk(t, mult * n)
    walk(top_key, 1)
    return total


def instance_counts(hierarchy, top, skip=()):
    """How many times each module of top's hierarchy is instantiated (top itself once), from the
    `stat -json` before flattening; names without Yosys' leading backslash. Not below the
    modules in skip (a hierarchical block's sub-blocks: their own runs count what they hold)."""
    def plain(name):
        return name[1:] if name.startswith('\\') else name

    mods = {plain(k): v for k, v in (hierarchy or {}).get('modules', {}).items()}
    counts = {plain(top): 1}

    def walk(key, mult):
        for t, n in mods.get(key, {}).get('num_cells_by_type', {}).items():
            t = plain(t)
            if t in mods:
                counts[t] = counts.get(t, 0) + mult * n
                if t not in skip:
                    walk(t, mult * n)
    walk(plain(top), 1)
    return counts


def is_blackbox_type(t, blackboxes):
    """A black box of SYN_BLACKBOX, or a memory that synth/yosys_map.tcl made an SRAM macro."""
    base = t.split('\\')[-1]
    return base.startswith(MEMORY_MACRO_PREFIX) or any(base == b for b in blackboxes)


def describe(reg, ports):
    """A flop named by its output net: a registered input or output port, or a register of the block."""
    m = re.match(r'^syn_in_(\w+)(\[\d+\])?$', reg)
    if m:
        return f'in {m.group(1)}{m.group(2) or ""}'
    m = re.match(r'^(?:syn_out_)?(\w+)(\[\d+\])?$', reg)
    if m and ports.get(m.group(1)) == 'output':
        return f'out {m.group(1)}{m.group(2) or ""}'
    return reg[len('u_dut/'):] if reg.startswith('u_dut/') else reg


def sram_layer(row, views, by_type, seq, cells, sta, fo4_ns):
    """The SRAM layer's facts of a block (docs/synthesis.md): its arrays and their macros (count x
    LEF area), the flops and the rest of the standard-cell area, and the period: the worst of the
    standard-cell register-to-register path, the path out of a macro (sky130: launched at the
    falling edge, so it gets half the period), the path into a macro, and the macros' .lib
    minimum_period, which OpenSTA 2.0.17 does not check; `limit` names the one that sets it."""
    flop_area = sum(n * cells.get(t, {}).get('area', 0) for t, n in by_type.items() if t in seq)
    # sram_views.json has one entry per elaborated shape; a shape instantiated n times (one bank
    # per way of l1d_data_stage) holds n times its macros.
    layer = {'arrays': views, 'macro_count': sum(a['count'] * a['instances'] for a in views),
             'macro_area_um2': round(sum(a['area_um2'] * a['instances'] for a in views), 1),
             'flop_area_um2': round(flop_area, 1)}
    if row.get('area_um2') is not None:
        layer['logic_area_um2'] = round(row['area_um2'] - flop_area, 1)
    # hilomap gives every constant pin its own tie cell: on sg13g2 the macros' tied BIST and
    # unused-port pins are most of the other logic (a placed design shares a few tie cells).
    ties = {t: n for t, n in by_type.items() if 'tie' in t.lower() and t not in seq}
    layer['tie_cells'] = sum(ties.values())
    layer['tie_area_um2'] = round(sum(n * cells.get(t, {}).get('area', 0) for t, n in ties.items()), 1)
    by_cell = {}
    for a in views:
        by_cell[a['cell']] = by_cell.get(a['cell'], 0) + a['count'] * a['instances']
    layer['macros'] = [{'cell': c, 'count': n, 'found_in_netlist': by_type.get(c, 0)}
                       for c, n in sorted(by_cell.items())]
    sta = sta or {}
    candidates = []
    crit = row.get('critical_ns')
    if crit:
        candidates.append((crit, 'logic (standard-cell register to register)'))
    for key, what in (('macro_to_reg', 'macro output to register'), ('reg_to_macro', 'register to macro input')):
        p = sta.get(key)
        if p:
            p['logic_fo4'] = round(p['logic_ns'] / fo4_ns, 1)
            layer[key] = p
            half = ' (half cycle: read data on the falling edge)' if p['fraction'] < 0.75 else ''
            candidates.append((p['period_ns'], what + half))
    if sta.get('min_period_ns'):
        candidates.append((sta['min_period_ns'], f'macro minimum period ({sta["min_period_cell"]})'))
    layer['min_period_ns'] = sta.get('min_period_ns', 0)
    layer['hold'] = sta.get('hold')
    layer['hold_requirement_ns'] = max(a['hold_ns'] for a in views)
    if candidates:
        period, limit = max(candidates)
        layer.update(period_ns=round(period, 4), fmax_mhz=round(1000.0 / period, 1), limit=limit)
    else:
        layer.update(period_ns=None, fmax_mhz=None, limit='no timed path')
    missing = [m['cell'] for m in layer['macros'] if m['found_in_netlist'] != m['count']]
    if missing:
        row['status'], row['error'] = 'fail', f'SRAM macros missing from the netlist: {", ".join(missing)}'
    row['sram_layer'] = layer


def run_cells(bdir):
    """The library's cells (area, outputs) from the run's lib/, which is above the block's
    directory: RUN/blocks/B, RUN/variants/V/l1d_top, RUN/blocks/l1d_top/sub/SUB."""
    up, cells = os.path.abspath(bdir), {}
    while not cells and os.path.dirname(up) != up:
        up = os.path.dirname(up)
        cells = load(os.path.join(up, 'lib', 'cells.json'), {})
    return cells


def block_row(name, bdir, lib, fo4_ns, density, blackboxes, timed=True):
    """One block's row. timed=False: a sub-block of a hierarchical block, synthesized in context
    (synth/hier.sh) and timed only as part of it; it may come out empty."""
    status = load(os.path.join(bdir, 'status.json'), {'status': 'fail', 'error': 'no status (not run?)',
                                                     'yosys_s': 0, 'sta_s': 0})
    if not timed and status['status'] == 'synthesized':
        status['status'] = 'ok'
    row = {'block': name, 'status': status['status'], 'error': status.get('error', ''),
           'yosys_s': status.get('yosys_s'), 'sta_s': status.get('sta_s'),
           'yosys_cpu_s': status.get('yosys_cpu_s'), 'sta_cpu_s': status.get('sta_cpu_s')}
    if status['status'] != 'ok':
        return row
    # A hierarchical block (synth/synth.sh): its glue here, its sub-blocks in context in sub/.
    subdir = os.path.join(bdir, 'sub')
    subs = sorted(os.listdir(subdir)) if os.path.isdir(subdir) else []
    macros = load(os.path.join(bdir, 'macros.json'))
    hierarchy = load(os.path.join(bdir, 'hierarchy.json'))
    bits = storage_bits(macros, hierarchy, name, blackboxes, skip=set(subs))
    memories = load(os.path.join(bdir, 'mem_macros.json'), [])
    row['sram_macros'] = [f'{m["memory"]} ({m["words"]} x {m["width"]})' for m in memories]
    bits += sum(m['bits'] for m in memories)
    row['sram_bits'] = bits
    row['sram_area_um2'] = round(bits * density, 1) if bits and density else None
    if name in blackboxes:
        row['kind'] = 'black box'
        if not bits:
            row['status'], row['error'] = 'fail', 'the black box holds no storage that Yosys can see'
        return row
    views = load(os.path.join(bdir, 'sram_views.json'), {}).get('arrays', [])
    macro_cells = {a['cell'] for a in views}
    stat = load(os.path.join(bdir, 'stat.json'), {})
    key = module_key(stat, name)
    design = load(os.path.join(bdir, 'block.json'), {})
    ports = {p: d['direction'] for p, d in design.get('modules', {}).get(name, {}).get('ports', {}).items()}
    sta = load(os.path.join(bdir, 'sta.json'), {})
    by_type = stat['modules'][key]['num_cells_by_type'] if key else {}
    seq = set(lib['sequential'])
    lib_cells = run_cells(bdir)
    row['_by_type'] = by_type
    all_by_type = dict(by_type)  # with the sub-blocks' cells (a hierarchical block), below
    sub_views = []
    row['kind'] = 'seq' if 'clk_i' in ports else 'comb'
    row['cells'] = sum(n for t, n in by_type.items()
                       if not is_blackbox_type(t, set(blackboxes) | set(subs)) and t not in macro_cells)
    row['flops'] = sum(n for t, n in by_type.items() if t in seq)
    row['area_um2'] = chip_areas(os.path.join(bdir, 'stat.txt')).get(name)
    if row['area_um2'] is None and not by_type and not timed:
        row['area_um2'] = 0.0  # emptied by its context: `stat` prints no area for an empty module
    if row['area_um2'] is None and subs and row['cells'] == 0:
        row['area_um2'] = 0.0  # glue of sub-block instances only (l1d_core_match): no area line either
    if subs:
        # Glue cells that drive nothing live once the sub-blocks are in context (synth/context.py):
        # a flat synthesis would have removed them.
        dead = load(os.path.join(bdir, 'context', 'glue_dead.json'), {'cells': 0, 'flops': 0, 'area_um2': 0})
        row['glue_dead'] = dead
        row['cells'] -= dead['cells']
        row['flops'] -= dead['flops']
        if row['area_um2'] is not None:
            row['area_um2'] = round(row['area_um2'] - dead['area_um2'], 1)
        row['glue'] = {k: row[k] for k in ('cells', 'flops', 'area_um2')}
        # (the dead cells' split into flops and logic is not known: their flops count here)
        row['glue']['flop_area_um2'] = round(sum(n * lib_cells.get(t, {}).get('area', 0)
                                                 for t, n in by_type.items() if t in seq), 1)
        row['subblocks'] = []
        for sub in subs:
            count = by_type.get(sub, 0)
            r = block_row(sub, os.path.join(subdir, sub), lib, fo4_ns, density, blackboxes, timed=False)
            if r['status'] != 'ok':
                row['status'], row['error'] = 'fail', f'sub-block {sub}: {r["error"]}'
                return row
            # In context, or this run's standalone synthesis of the sub-block (synth/hier.sh).
            path = os.path.join(subdir, sub)
            in_context = (not os.path.islink(path) or
                          os.path.basename(os.path.dirname(os.path.realpath(path))) == 'context-cache')
            row['subblocks'].append({'block': sub, 'instances': count, 'in_context': in_context,
                                     'cells': r['cells'], 'flops': r['flops'], 'area_um2': r['area_um2'],
                                     'sram_bits': r['sram_bits']})
            # Per structure (the staged l1d_top's area table, docs/synthesis.md): per instance its
            # flops' area, the rest of its standard cells, its macros and the bits its arrays hold.
            flop_area = sum(n * lib_cells.get(t, {}).get('area', 0) for t, n in r.get('_by_type', {}).items()
                            if t in seq)
            arrays = r.get('sram_layer', {}).get('arrays', [])
            row['subblocks'][-1].update(
                flop_area_um2=round(flop_area, 1),
                logic_area_um2=round(r['area_um2'] - flop_area, 1) if r['area_um2'] is not None else None,
                macro_count=sum(a['count'] * a['instances'] for a in arrays),
                macro_area_um2=round(sum(a['area_um2'] * a['instances'] for a in arrays), 1),
                macro_cells=sorted({a['cell'] for a in arrays}),
                array_bits=sum(a['words'] * a['width'] * a['instances'] for a in arrays),
                sram_area_um2=r['sram_area_um2'])
            # The sub-block's arrays and cells, as many times as it is instantiated: the block's
            # SRAM layer below counts its macros and flops in the sub-blocks too.
            for a in r.get('sram_layer', {}).get('arrays', []):
                sub_views.append(dict(a, instances=a['instances'] * count, module=f'{sub}/{a["module"]}'))
            for t, n in r.get('_by_type', {}).items():
                all_by_type[t] = all_by_type.get(t, 0) + count * n
            for k in ('cells', 'flops', 'sram_bits'):
                row[k] += count * r[k]
            row['sram_macros'] += [f'{sub}.{m}' for m in r['sram_macros']]
            if row['area_um2'] is not None and r['area_um2'] is not None:
                row['area_um2'] = round(row['area_um2'] + count * r['area_um2'], 1)
            if in_context:
                for k in ('yosys_s', 'yosys_cpu_s'):
                    if row.get(k) is not None and r.get(k) is not None:
                        row[k] = round(row[k] + r[k], 2)
        bits = row['sram_bits']
        row['sram_area_um2'] = round(bits * density, 1) if bits and density else None
    crit = sta.get('critical_ns')
    row['critical_ns'] = crit
    row['fo4'] = round(crit / fo4_ns, 1) if crit else None
    row['fmax_mhz'] = round(1000.0 / crit, 1) if crit else None
    row['depth'] = sta.get('depth')
    if sta.get('per_instance'):
        # A hierarchical block: the worst path ending in each sub-block instance (synth/sta_block.tcl).
        row['per_instance'] = {inst: dict(p, fo4=round(p['ns'] / fo4_ns, 1), start=describe(p['start'], ports),
                                          end=describe(p['end'], ports))
                               for inst, p in sta['per_instance'].items()}
    if views:
        # The glue of a hierarchical block lists the arrays of its sub-blocks too (Yosys
        # elaborates them before they become black boxes): only those outside them are its own.
        counts = instance_counts(hierarchy, name, skip=set(subs))
        for a in views:
            a['instances'] = counts.get(a['module'], 1 if not subs else 0)
        views = [a for a in views if a['instances']]
    views += sub_views
    if views:
        sram_layer(row, views, all_by_type, seq, lib_cells, sta.get('sram'), fo4_ns)
    row['start'] = describe(sta.get('start_reg', '?'), ports)
    row['end'] = describe(sta.get('end_reg', '?'), ports)
    goal = TAG_STAGE_GOAL_FO4 if name in TAG_STAGE else GOAL_FO4
    row['goal_fo4'] = goal
    row['meets_goal'] = row['fo4'] is not None and row['fo4'] <= goal
    if 'sram_layer' in row:
        row['period_ns'] = row['sram_layer']['period_ns']
    macro_area = row['sram_layer']['macro_area_um2'] if 'sram_layer' in row else None
    if (row['sram_area_um2'] is not None or macro_area) and row['area_um2'] is not None:
        row['total_area_um2'] = round(row['area_um2'] + (row['sram_area_um2'] or 0) + (macro_area or 0), 1)
    needed = ('cells', 'area_um2', 'critical_ns') if timed else ()
    if 'sram_layer' in row:
        # A primitive alone may have no standard cell at all (osu018: the black box is all) and no
        # standard-cell register-to-register path: its period comes from the macro paths.
        needed = ('period_ns',) if timed else ()
        if row['area_um2'] is None and row['cells'] == 0:
            row['area_um2'] = 0.0
            row['sram_layer']['logic_area_um2'] = 0.0
    problems = [k for k in needed if not row.get(k) or row[k] <= 0]
    if not timed and row['area_um2'] is None:
        problems.append('area_um2')
    if problems:
        row['status'] = 'fail'
        row['error'] = 'impossible result: ' + ', '.join(f'{k} = {row.get(k)}' for k in problems)
    if timed:
        del row['_by_type']  # only for a hierarchical block's own row (above)
    return row


def overhead(run, lib, fo4_ns, density, blackboxes, baseline_rtl, baseline_const):
    note = ''
    try:
        with open(os.path.join(run, 'overhead_note.txt'), encoding='utf-8') as f:
            note = f.read().strip()
    except OSError:
        note = 'not run'
    result = {'baseline_rtl': baseline_rtl, 'baseline_const': baseline_const,
              'goal_pct': POLICY_OVERHEAD_GOAL_PCT}
    if note:
        result.update(available=False, reason=note)
        return result
    rows = {'full': block_row('l1d_top', os.path.join(run, 'blocks', 'l1d_top'), lib, fo4_ns,
                              density, blackboxes),
            'baseline': block_row('l1d_top', os.path.join(run, 'baseline', 'l1d_top'), lib, fo4_ns,
                                  density, blackboxes)}
    bad = [v for v, r in rows.items() if r['status'] != 'ok']
    if bad:
        result.update(available=False, reason='l1d_top build failed: ' +
                      '; '.join(f'{v}: {rows[v]["error"]}' for v in bad))
        return result
    full, base = rows['full']['area_um2'], rows['baseline']['area_um2']
    pct = 100.0 * (full - base) / base
    result.update(available=True, full_area_um2=full, baseline_area_um2=base,
                  overhead_um2=round(full - base, 1), overhead_pct=round(pct, 2),
                  meets_goal=pct <= POLICY_OVERHEAD_GOAL_PCT,
                  full_sram_um2=rows['full'].get('sram_area_um2'),
                  baseline_sram_um2=rows['baseline'].get('sram_area_um2'),
                  full_cells=rows['full']['cells'], baseline_cells=rows['baseline']['cells'],
                  full_flops=rows['full']['flops'], baseline_flops=rows['baseline']['flops'],
                  full_fo4=rows['full']['fo4'], baseline_fo4=rows['baseline']['fo4'])
    full_total, base_total = rows['full'].get('total_area_um2'), rows['baseline'].get('total_area_um2')
    if full_total and base_total:
        result['overhead_pct_with_sram'] = round(100.0 * (full_total - base_total) / base_total, 2)
    return result


def fmt(v, spec='{:.0f}'):
    return '—' if v is None else spec.format(v)


def secs(r, tool):
    """Wall seconds (CPU seconds) of a tool on a block."""
    wall, cpu = r.get(f'{tool}_s'), r.get(f'{tool}_cpu_s')
    if not wall:
        return '—'
    return f'{wall:.1f}' + (f' ({cpu:.1f})' if cpu is not None else '')


def sram_markdown(rep):
    """The SRAM layer section: per block with l1d_sram_* arrays, the tilings, the area split and
    the period with its limiting element (docs/synthesis.md)."""
    rows = [r for r in rep['blocks'] if r['status'] == 'ok' and r.get('sram_layer')]
    if not rows:
        return []
    fo4 = rep['library']['fo4_ps'] / 1000.0
    out = ['', '## SRAM layer: macros, paths through them, period', '',
           'Arrays (l1d_sram_1rw / l1d_sram_1r1w) tiled by synth/sram_tiling.py; macro area from the LEF size'
           ' (black boxes: bits × density). Paths as the period they need (clk-to-q or the macro\'s access'
           ' time, logic, setup; half a cycle from a falling edge), in ns and in FO4 of the library, and'
           ' their logic alone (from the launching flop\'s Q or the macro\'s read data) in FO4. The .lib'
           ' minimum_period is checked here (OpenSTA 2.0.17 does not). Hold at the macro inputs is reported,'
           ' not fixed (docs/synthesis.md).', '',
           '| block | array | shape (words × bits / mask bits) | macros | macro area um² | unused bits |',
           '|---|---|---|---|---:|---:|']
    for r in rows:
        for a in r['sram_layer']['arrays']:
            n = a.get('instances', 1)
            each = f' per instance, {n} instances' if n > 1 else ''
            out.append(f'| {r["block"]} | {a["module"]} | {a["kind"]} {a["words"]} × {a["width"]} / {a["gran"]} |'
                       f' {a["count"]} × {a["cell"]} ({a["cols"]} wide, {a["rows"]} deep){each} |'
                       f' {a["area_um2"] * n:.0f} | {a["waste_bits"] * n} |')
    out += ['', '| block | macros | macro area um² | flops | flop area um² | other logic um² (tie cells) |'
                ' std r2r ns (FO4) |'
                ' macro → reg ns | reg → macro ns | macro min period ns | hold at macro inputs |'
                ' period ns | fmax MHz | limited by |',
            '|---|---:|---:|---:|---:|---:|---|---|---|---:|---|---:|---:|---|']
    for r in rows:
        L = r['sram_layer']
        std = f'{r["critical_ns"]:.3f} ({r["critical_ns"] / fo4:.1f})' if r['critical_ns'] else '—'

        def path(key):
            p = L.get(key)
            if not p:
                return '—'
            half = ', half cycle' if p['fraction'] < 0.75 else ''
            return f'{p["period_ns"]:.3f} = {p["period_ns"] / fo4:.1f} FO4 (logic {p["logic_fo4"]}{half})'
        h = L.get('hold')
        hold = (f'slack {h["slack_ns"]:.3f} ns, {h["violating_pins"]} of {h["input_pins"]} pins violate'
                f' (need {L["hold_requirement_ns"]} ns)' if h else '—')
        out.append(f'| {r["block"]} | {L["macro_count"]} | {L["macro_area_um2"]:.0f} | {r["flops"]} |'
                   f' {L["flop_area_um2"]:.0f} | {fmt(L.get("logic_area_um2"))} ({L["tie_cells"]}:'
                   f' {L["tie_area_um2"]:.0f}) | {std} | {path("macro_to_reg")} | {path("reg_to_macro")} |'
                   f' {L["min_period_ns"] or "none"} | {hold} | {fmt(L["period_ns"], "{:.3f}")} |'
                   f' {fmt(L["fmax_mhz"], "{:.0f}")} | {L["limit"]} |')
    return out


def structure_markdown(rep):
    """Per hierarchical block, its area by sub-block (structure): the glue, then each sub-block
    times its instances: macros, flops, other standard cells, and the bits it stores."""
    out = []
    for r in rep['blocks']:
        if r['status'] != 'ok' or not r.get('subblocks'):
            continue
        out += ['', f'## {r["block"]}: area by sub-block', '',
                'Standard cells of each sub-block in context times its instances; macros as count × LEF area'
                ' (black boxes: bits × density); bits: the arrays\' words × width, the black-box SRAM bits'
                ' (× density in "SRAM"), and the flops.', '',
                '| sub-block | inst. | macros | macro area um² | SRAM (black box) um² | flops | flop area um² |'
                ' other logic um² | array bits | black-box bits |',
                '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|']
        g = r['glue']
        glue_logic = g['area_um2'] - g['flop_area_um2'] if g['area_um2'] is not None else None
        out.append(f'| (glue) | 1 | | | | {g["flops"]} | {fmt(g["flop_area_um2"])} | {fmt(glue_logic)} | | |')
        for b in r['subblocks']:
            n = b['instances']
            cells = ', '.join(b.get('macro_cells', []))
            out.append(f'| {b["block"]} | {n} | {b.get("macro_count", 0) and str(b["macro_count"] * n) + " × " + cells} |'
                       f' {fmt(b.get("macro_area_um2", 0) * n)} | {fmt((b.get("sram_area_um2") or 0) * n)} |'
                       f' {b["flops"] * n} | {fmt(b.get("flop_area_um2", 0) * n)} |'
                       f' {fmt((b.get("logic_area_um2") or 0) * n)} | {b.get("array_bits", 0) * n} |'
                       f' {(b.get("sram_bits") or 0) * n} |')
        if r.get('per_instance'):
            out += ['', f'Worst standard-cell register-to-register path ending in each instance of {r["block"]}'
                    ' (from any register; "glue": its own registers, "ports": the wrapper\'s output registers):', '',
                    '| ends in | path ns | FO4 | start → end |', '|---|---:|---:|---|']
            for inst, p in sorted(r['per_instance'].items(), key=lambda kv: -kv[1]['ns']):
                out.append(f'| {inst} | {p["ns"]:.3f} | {p["fo4"]} | {p["start"]} → {p["end"]} |')
    return out


def markdown(rep):
    lib, run = rep['library'], rep['run']
    out = [f'# Synthesis report: {lib["name"]}', '',
           f'Library `{lib["liberty_name"]}` from `{lib["source"]}`: {lib["usable_cells"]} usable cells'
           f' ({len(lib["dont_use"])} dont_use). Inputs driven by `{lib["driver"]}`, outputs load'
           f' {lib["load"]} (four `{lib["inverter"]}` inputs), no wire-load model.'
           f' FO4 (`{lib["inverter"]}`, fanout 4) = **{lib["fo4_ps"]:.1f} ps**.', '',
           'Every block is timed register to register inside a wrapper that registers each of its'
           ' ports: path = clk-to-q + logic + setup, ideal clock; FO4 = path / FO4 delay;'
           ' goal 20 FO4 per block, 25 for the tag stage (' + ', '.join(sorted(TAG_STAGE)) + ').',
           f'Wall time {run["wall_s"]} s with {run["jobs"]} parallel jobs; per block the wall and (CPU)'
           ' seconds of each tool.', '',
           '| block | library | kind | cells | area um² | flops | path ns | FO4 | goal | fmax MHz | depth |'
           ' critical path (start → end) | Yosys s (CPU) | STA s (CPU) |',
           '|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---|---:|---:|']
    for r in rep['blocks']:
        if r['status'] != 'ok':
            out.append(f'| {r["block"]} | {lib["name"]} | FAILED | | | | | | | | | {r["error"]} | {secs(r, "yosys")} | |')
            continue
        if r['kind'] == 'black box':
            area = fmt(r['sram_area_um2'])
            out.append(f'| {r["block"]} | {lib["name"]} | black box | — | {area} (SRAM: {r["sram_bits"]} bits ×'
                       f' {rep["sram_um2_per_bit"]} um²/bit) | — | — | — | — | — | — | not timed |'
                       f' {secs(r, "yosys")} | — |')
            continue
        goal = f'{r["goal_fo4"]} {"met" if r["meets_goal"] else "**missed**"}'
        area = fmt(r['area_um2'])
        if r.get('sram_area_um2') is not None:
            area += f' + SRAM {r["sram_area_um2"]:.0f}'
        if r.get('sram_layer'):
            area += f' + macros {r["sram_layer"]["macro_area_um2"]:.0f}'
        if r['critical_ns'] is None:  # no standard-cell register-to-register path (SRAM layer below)
            out.append(f'| {r["block"]} | {lib["name"]} | {r["kind"]} | {r["cells"]} | {area} | {r["flops"]} |'
                       f' — | — | — | — | — | only macro paths (SRAM layer below) | {secs(r, "yosys")} |'
                       f' {secs(r, "sta")} |')
            continue
        out.append(f'| {r["block"]} | {lib["name"]} | {r["kind"]} | {r["cells"]} | {area} | {r["flops"]} |'
                   f' {r["critical_ns"]:.3f} | {r["fo4"]:.1f} | {goal} | {r["fmax_mhz"]:.0f} |'
                   f' {r["depth"]} | {r["start"]} → {r["end"]} | {secs(r, "yosys")} | {secs(r, "sta")} |')
    macros = [(r['block'], m) for r in rep['blocks'] for m in r.get('sram_macros', [])]
    if macros:
        out += ['', f'SRAM macros (memories of at least {rep.get("macro_min_bits", "—")} bits, area at'
                    f' {rep["sram_um2_per_bit"]} um²/bit, not timed): '
                + '; '.join(f'{b}: {m}' for b, m in macros) + '.']
    out += sram_markdown(rep)
    out += structure_markdown(rep)
    po = rep['policy_overhead']
    out += ['', '## Policy overhead: l1d_top with every policy vs the baseline LRU controller', '']
    if po['available']:
        const = po.get('baseline_const') or ''
        fixed = f', inputs {const.replace(",", ", ")}' if const else ''
        out.append('| build | cells | flops | standard-cell area um² | SRAM um² | path FO4 |')
        out.append('|---|---:|---:|---:|---:|---:|')
        out.append(f'| l1d_top, every policy | {po["full_cells"]} | {po["full_flops"]} |'
                   f' {po["full_area_um2"]:.0f} | {fmt(po["full_sram_um2"])} | {po["full_fo4"]} |')
        out.append(f'| l1d_top, baseline LRU only (`{po["baseline_rtl"]}`{fixed}) | {po["baseline_cells"]} |'
                   f' {po["baseline_flops"]} | {po["baseline_area_um2"]:.0f} | {fmt(po["baseline_sram_um2"])} |'
                   f' {po["baseline_fo4"]} |')
        with_sram = po.get('overhead_pct_with_sram')
        out += ['', f'Policy overhead: **+{po["overhead_um2"]:.0f} um², {po["overhead_pct"]:.1f} %** of the'
                    f' baseline controller\'s standard-cell area (goal ≤ {po["goal_pct"]:.0f} %:'
                    f' {"met" if po["meets_goal"] else "**missed**"})'
                    + (f'; {with_sram:.1f} % of the whole cache with its data SRAM.' if with_sram is not None
                       else '.')]
    else:
        out.append(f'Not available: {po["reason"]}.')
    if rep.get('variants'):
        base = po['baseline_area_um2'] if po['available'] else None
        out += ['', '## Variants: l1d_top with configuration inputs tied (synth.sh --variant)', '',
                '| variant | RTL | inputs | cells | flops | standard-cell area um² | vs baseline | SRAM um² | path FO4 |',
                '|---|---|---|---:|---:|---:|---:|---:|---:|']
        for v in rep['variants']:
            if v['status'] != 'ok':
                out.append(f'| {v["variant"]} | `{v["rtl"]}` | {v["const"]} | FAILED: {v["error"]} | | | | | |')
                continue
            rel = f'{100.0 * (v["area_um2"] - base) / base:+.1f} %' if base else '—'
            out.append(f'| {v["variant"]} | `{v["rtl"]}` | {v["const"].replace(",", ", ")} | {v["cells"]} |'
                       f' {v["flops"]} | {v["area_um2"]:.0f} | {rel} | {fmt(v.get("sram_area_um2"))} | {v["fo4"]} |')
    if rep['failures']:
        out += ['', '## Failures', '']
        out += [f'- {f["block"]}: {f["error"]}' for f in rep['failures']]
    return '\n'.join(out) + '\n'


def combine(outdir):
    """OUTDIR/report.md and .json: the reports of every library run under OUTDIR, the one just
    run first (synth.sh runs one library at a time; each keeps OUTDIR/<library>/report.*)."""
    reps = []
    for name in sorted(os.listdir(outdir)):
        rep = load(os.path.join(outdir, name, 'report.json'))
        if rep and 'library' in rep:
            reps.append((os.path.getmtime(os.path.join(outdir, name, 'report.json')), name, rep))
    reps.sort(key=lambda t: (-t[0], t[1]))
    with open(os.path.join(outdir, 'report.json'), 'w', encoding='utf-8') as f:
        json.dump({'libraries': [r for _, _, r in reps]}, f, indent=1)
        f.write('\n')
    parts = []
    for _, name, _ in reps:
        with open(os.path.join(outdir, name, 'report.md'), encoding='utf-8') as f:
            parts.append(f.read())
    with open(os.path.join(outdir, 'report.md'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(parts))
    return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--combine':
        return combine(sys.argv[2])
    ap = argparse.ArgumentParser()
    ap.add_argument('--run', required=True)
    ap.add_argument('--lib', required=True)
    ap.add_argument('--density', default='')
    ap.add_argument('--wall', type=float, default=0)
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--baseline-rtl', default='')
    ap.add_argument('--baseline-const', default='')
    a = ap.parse_args()
    lib = load(os.path.join(a.run, 'lib', 'lib.json'))
    fo4 = load(os.path.join(a.run, 'lib', 'fo4.json'))
    if not lib or not fo4:
        print('report: no library facts in the run directory', file=sys.stderr)
        return 1
    density = float(a.density) if a.density else None
    blackboxes = set(os.environ.get('SYN_BLACKBOX', 'l1d_data_sram l1d_ram_1r1w').split())
    rows = [block_row(b, os.path.join(a.run, 'blocks', b), lib, fo4['fo4_ns'], density, blackboxes)
            for b in sorted(os.listdir(os.path.join(a.run, 'blocks')))]
    rows.sort(key=lambda r: (r['block'] == 'l1d_top', r['block']))
    for r in rows:
        r['library'] = a.lib
    rep = {
        'library': {'name': a.lib, 'liberty_name': lib['library'], 'source': lib['source'],
                    'usable_cells': lib['usable_cells'], 'dont_use': lib['dont_use'],
                    'driver': lib['buffer'], 'load': lib['load'], 'inverter': lib['inverter']['cell'],
                    'fo4_ps': round(fo4['fo4_ns'] * 1000, 2)},
        'sram_um2_per_bit': density,
        'macro_min_bits': int(os.environ.get('SYN_MACRO_MIN_BITS', '4096')),
        'run': {'wall_s': a.wall, 'jobs': a.jobs},
        'blocks': rows,
        'policy_overhead': overhead(a.run, lib, fo4['fo4_ns'], density, blackboxes, a.baseline_rtl,
                                    a.baseline_const),
        'failures': [{'block': r['block'], 'error': r['error']} for r in rows if r['status'] != 'ok'],
    }
    vdir = os.path.join(a.run, 'variants')
    if os.path.isdir(vdir):
        rep['variants'] = []
        for name in sorted(os.listdir(vdir)):
            with open(os.path.join(vdir, name, 'variant.txt'), encoding='utf-8') as f:
                rtl, const = (f.read().split('\n') + [''])[:2]
            v = block_row('l1d_top', os.path.join(vdir, name, 'l1d_top'), lib, fo4['fo4_ns'], density,
                          blackboxes)
            v.update(variant=name, rtl=rtl, const=const)
            rep['variants'].append(v)
            if v['status'] != 'ok':
                rep['failures'].append({'block': f'variant {name}', 'error': v['error']})
    with open(os.path.join(a.run, 'report.json'), 'w', encoding='utf-8') as f:
        json.dump(rep, f, indent=1)
        f.write('\n')
    text = markdown(rep)
    with open(os.path.join(a.run, 'report.md'), 'w', encoding='utf-8') as f:
        f.write(text)
    print(text, end='')
    return 1 if rep['failures'] else 0


if __name__ == '__main__':
    sys.exit(main())
