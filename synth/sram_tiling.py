#!/usr/bin/env python3
"""The SRAM layer's synthesis view: tile each logical array (an instance of l1d_sram_1rw or
l1d_sram_1r1w) onto the SRAM macros of a library and write the wrapper that instantiates them
(docs/synthesis.md, "The SRAM layer").

    sram_tiling.py views --lib LIB --dump DUMP --top TOP --out DIR [--macro-dir D] [--density U --fo4 NS]
    sram_tiling.py tile --lib LIB --kind 1rw|1r1w --words N --width W --gran G
    sram_tiling.py l1-table [--config gtx480]     the tiling table of docs/synthesis.md

`views` reads DUMP (Yosys `dump` of the primitives' elaborated modules: name and parameters) and
writes into DIR: sram_views.v (one wrapper module per logical array), sram_views.ys (the Yosys
commands that swap the behavioural modules for the wrappers), sram_views.json (each array's
tiling, for synth/report.py) and sram_sta.tcl (the macro cells and pins, for synth/sta_block.tcl).
LIB is sky130 or sg13g2 (the macros of ../shared/pdk/sram, their .lib unpacked in --macro-dir), or
osu018 / generic: no macro exists, so each array is one black box of its own shape whose area is
--density um^2 per bit and whose timing (a generated .lib) is stated in FO4 (below).

Why python and not the C++ generator: the tiling depends on the library, which only the synthesis
flow knows, and on the shapes of the elaborated instances, which Yosys computes; the flow around
it (report.py, context.py) is python already. The generator's RTL stays library-free.
Exit 2 with one line `sram_tiling: ...` when an array cannot be built from the library's macros.
"""
import argparse
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Macro:
    """One SRAM macro (numbers from ../shared/pdk/sram/README.md: LEF SIZE, OpenSTA 2.0.17 on the
    .lib at 0.04 ns slews and 0.010 pF load; hold = the worst input's hold constraint)."""
    name: str
    family: str        # sky130 | ihp
    ports: str         # 1rw | 1rw1r | 1r1w | 2rw
    words: int
    bits: int          # usable data bits per word
    addr_bits: int     # width of the address pins (sky130 1rw: one more than the words need)
    lef_w: float
    lef_h: float
    access_ns: float   # clock -> dout; sky130 from the FALLING edge
    hold_ns: float
    min_period_ns: float  # the .lib minimum_period (0: none given)
    mask: str          # byte | bit | none
    spare_col: bool = False  # sky130 1rw: din0/dout0 one bit wider (spare column, spare_wen0)

    @property
    def area_um2(self):
        return self.lef_w * self.lef_h

    @property
    def lib_file(self):
        corner = '_TT_1p8V_25C.lib' if self.family == 'sky130' else '_typ_1p20V_25C.lib'
        return self.name + corner


MACROS = {
    'sky130': [
        Macro('sky130_sram_1kbyte_1rw_32x256_8', 'sky130', '1rw', 256, 32, 9, 478.42, 223.42, 2.948, 1.906,
              7.188, 'byte', spare_col=True),
        Macro('sky130_sram_2kbyte_1rw_32x512_8', 'sky130', '1rw', 512, 32, 10, 483.86, 326.1, 3.492, 1.943,
              8.125, 'byte', spare_col=True),
        Macro('sky130_sram_1kbyte_1rw1r_32x256_8', 'sky130', '1rw1r', 256, 32, 8, 493.38, 403.62, 3.307, 1.766,
              6.875, 'byte'),
        Macro('sky130_sram_2kbyte_1rw1r_32x512_8', 'sky130', '1rw1r', 512, 32, 9, 683.1, 416.54, 2.448, 0.783,
              5.156, 'byte'),
        Macro('sky130_sram_4kbyte_1rw1r_32x1024_8', 'sky130', '1rw1r', 1024, 32, 10, 693.98, 668.82, 2.999, 0.795,
              6.191, 'byte'),
        Macro('sky130_sram_1kbyte_1r1w_8x1024_8', 'sky130', '1r1w', 1024, 8, 10, 463.46, 447.14, 0.342, 0.0,
              1.631, 'none'),
    ],
    'sg13g2': [
        Macro('RM_IHPSG13_1P_64x64_c2_bm_bist', 'ihp', '1rw', 64, 64, 6, 784.48, 64.36, 3.098, 0.617, 0, 'bit'),
        Macro('RM_IHPSG13_1P_256x48_c2_bm_bist', 'ihp', '1rw', 256, 48, 8, 596.48, 118.78, 3.151, 0.635, 0, 'bit'),
        Macro('RM_IHPSG13_1P_256x64_c2_bm_bist', 'ihp', '1rw', 256, 64, 8, 784.48, 118.78, 3.098, 0.617, 0, 'bit'),
        Macro('RM_IHPSG13_1P_1024x64_c2_bm_bist', 'ihp', '1rw', 1024, 64, 10, 784.48, 336.46, 4.377, 0.616, 0,
              'bit'),
        Macro('RM_IHPSG13_2P_256x32_c2_bm_bist', 'ihp', '2rw', 256, 32, 8, 702.83, 136.97, 3.070, 0.517, 0, 'bit'),
    ],
}
# Which macro ports serve which logical array: a 1rw array uses port 0 / A of any macro with a
# read-write port; a 1r1w array writes through port 0 / A and reads through port 1 / B.
USABLE = {'1rw': {'1rw', '1rw1r', '2rw'}, '1r1w': {'1rw1r', '1r1w', '2rw'}}

# Libraries without SRAM macros (osu018, a --liberty file): one black box per array. Its timing is
# stated in FO4 of the library, taken from IHP's RM_IHPSG13_1P_256x64 at 61.8 ps per FO4 (sg13g2's
# measured FO4, docs/synthesis.md): clock -> data 3.098 ns = 50 FO4, worst setup 0.294 ns (A_MEN)
# = 5 FO4, worst hold 0.617 ns (A_DIN, A_BM) = 10 FO4; no minimum period (IHP's libs give none).
BLACKBOX_ACCESS_FO4 = 50
BLACKBOX_SETUP_FO4 = 5
BLACKBOX_HOLD_FO4 = 10


class TilingError(Exception):
    pass


@dataclass
class Tiling:
    lib: str
    kind: str
    words: int
    width: int
    gran: int
    macro: Macro = None    # None: a black box of the array's own shape
    cols: int = 1
    rows: int = 1
    area_um2: float = 0.0
    access_ns: float = 0.0
    hold_ns: float = 0.0
    setup_ns: float = 0.0
    min_period_ns: float = 0.0
    read_edge: str = 'rise'
    notes: list = field(default_factory=list)

    @property
    def count(self):
        return self.cols * self.rows

    @property
    def bits(self):
        return self.words * self.width

    @property
    def waste_bits(self):
        if self.macro is None:
            return 0
        return self.count * self.macro.words * self.macro.bits - self.bits

    @property
    def cell(self):
        return self.macro.name if self.macro else blackbox_name(self.kind, self.words, self.width, self.gran)

    def summary(self):
        return {'kind': self.kind, 'words': self.words, 'width': self.width, 'gran': self.gran,
                'bits': self.bits, 'cell': self.cell, 'count': self.count, 'cols': self.cols,
                'rows': self.rows, 'macro_area_um2': round(self.area_um2 / self.count, 2),
                'area_um2': round(self.area_um2, 1), 'waste_bits': self.waste_bits,
                'access_ns': self.access_ns, 'read_edge': self.read_edge, 'hold_ns': self.hold_ns,
                'min_period_ns': self.min_period_ns, 'blackbox': self.macro is None, 'notes': self.notes}


def blackbox_name(kind, words, width, gran):
    return f'sram_bb_{kind}_{words}x{width}_g{gran}'


def check_shape(kind, words, width, gran):
    if kind not in USABLE:
        raise TilingError(f'kind {kind!r}: 1rw or 1r1w')
    if words < 1 or width < 1 or gran < 1 or width % gran:
        raise TilingError(f'{kind} {words} x {width}, GranBits {gran}: words and width must be >= 1 and '
                          f'Width a multiple of GranBits')


def mask_ok(m, width, gran):
    """Can the macro's columns honour a write mask of GranBits bits? A bit mask always; a byte
    mask when every mask group is whole bytes; a macro without a mask when each macro's columns
    lie inside one mask group (its write enable is the group's mask bit)."""
    if gran == width:
        return True
    if m.mask == 'bit':
        return True
    if m.mask == 'byte':
        return gran % 8 == 0
    return gran % m.bits == 0


def tile(lib, kind, words, width, gran, density=None, fo4_ns=None):
    """The smallest-area tiling of a words x width array (GranBits per mask bit) on lib's macros:
    cols = ceil(width / macro bits) side by side, rows = ceil(words / macro words) deep behind an
    output mux; ties go to fewer macros, then the faster one. Libraries without macros: one black
    box (density um^2/bit, timing in FO4 of fo4_ns)."""
    check_shape(kind, words, width, gran)
    if lib not in MACROS:
        if density is None or fo4_ns is None:
            raise TilingError(f'library {lib}: no SRAM macros, and no density / FO4 for a black box')
        return Tiling(lib, kind, words, width, gran, area_um2=words * width * density,
                      access_ns=round(BLACKBOX_ACCESS_FO4 * fo4_ns, 4), setup_ns=round(BLACKBOX_SETUP_FO4 * fo4_ns, 4),
                      hold_ns=round(BLACKBOX_HOLD_FO4 * fo4_ns, 4),
                      notes=[f'black box at {density} um2/bit, clock -> data {BLACKBOX_ACCESS_FO4} FO4 (assumed)'])
    best = None
    refused = []
    for m in MACROS[lib]:
        if m.ports not in USABLE[kind]:
            continue
        if not mask_ok(m, width, gran):
            refused.append(m.name)
            continue
        cols, rows = math.ceil(width / m.bits), math.ceil(words / m.words)
        key = (round(cols * rows * m.area_um2, 3), cols * rows, m.access_ns)
        if best is None or key < best[0]:
            best = (key, m, cols, rows)
    if best is None:
        why = f' (mask of {gran} bits: {", ".join(refused)} write whole bytes or words)' if refused else ''
        raise TilingError(f'{lib}: no macro can hold a {kind} array of {words} x {width}, GranBits {gran}{why}')
    _, m, cols, rows = best
    t = Tiling(lib, kind, words, width, gran, macro=m, cols=cols, rows=rows, area_um2=cols * rows * m.area_um2,
               access_ns=m.access_ns, hold_ns=m.hold_ns, min_period_ns=m.min_period_ns,
               read_edge='fall' if m.family == 'sky130' else 'rise')
    if m.family == 'sky130':
        t.notes.append('read data on the falling edge: half a cycle for dout -> register')
    return t


# --- the wrapper ----------------------------------------------------------------------------

PORTS = {
    '1rw': [('input', 'clk_i', None), ('input', 'req_i', None), ('input', 'we_i', None),
            ('input', 'addr_i', 'A'), ('input', 'wdata_i', 'W'), ('input', 'wmask_i', 'M'),
            ('output', 'rdata_o', 'W')],
    '1r1w': [('input', 'clk_i', None), ('input', 'wr_en_i', None), ('input', 'wr_addr_i', 'A'),
             ('input', 'wr_data_i', 'W'), ('input', 'wr_mask_i', 'M'), ('input', 'rd_en_i', None),
             ('input', 'rd_addr_i', 'A'), ('output', 'rd_data_o', 'W')],
}


def port_list(kind, addr_bits, width, gran):
    widths = {'A': addr_bits, 'W': width, 'M': width // gran, None: 1}
    out = []
    for direction, name, w in PORTS[kind]:
        n = widths[w]
        rng = f'[{n - 1}:0] ' if n > 1 or w is not None else ''
        out.append((direction, name, n, rng))
    return out


def header(t, module, addr_bits):
    lines = [f'// Synthesis view of l1d_sram_{t.kind} (Words={t.words}, Width={t.width}, GranBits={t.gran},',
             f'// AddrBits={addr_bits}) for {t.lib}, written by synth/sram_tiling.py: ']
    if t.macro:
        lines[-1] += (f'{t.count} x {t.macro.name} ({t.cols} wide, {t.rows} deep), '
                      f'{t.area_um2:.0f} um2, {t.waste_bits} bits unused.')
    else:
        lines[-1] += f'one black box {t.cell}.'
    ports = port_list(t.kind, addr_bits, t.width, t.gran)
    lines.append(f'module {module} (')
    for i, (d, name, _, rng) in enumerate(ports):
        lines.append(f'  {d:6} logic {rng}{name}{"," if i + 1 < len(ports) else ""}')
    lines.append(');')
    return lines


def wrapper(t, module, addr_bits):
    """The synthesizable wrapper: the macros, the row decode, the output mux and (sky130) the
    output hold register."""
    lines = header(t, module, addr_bits)
    if t.macro is None:
        conns = ', '.join(f'.{n}({n})' for _, n, _, _ in port_list(t.kind, addr_bits, t.width, t.gran))
        lines += [f'  {t.cell} u_bb ({conns});', 'endmodule', '']
        return '\n'.join(lines)
    m, w, g = t.macro, t.width, t.gran
    cw = t.cols * m.bits           # padded width
    lb = m.words.bit_length() - 1  # address bits inside a macro
    rb = max((t.rows - 1).bit_length(), 1)
    if t.kind == '1rw':
        wen, waddr, wdata, wmask, ren, raddr, rdata = 'req_i & we_i', 'addr_i', 'wdata_i', 'wmask_i', \
            'req_i & ~we_i', 'addr_i', 'rdata_o'
    else:
        wen, waddr, wdata, wmask, ren, raddr, rdata = 'wr_en_i', 'wr_addr_i', 'wr_data_i', 'wr_mask_i', \
            'rd_en_i', 'rd_addr_i', 'rd_data_o'
    pad = f"{{{cw - w}'d0, {wdata}}}" if cw > w else wdata

    def low(addr):  # the address inside a macro, zero-extended to its pins
        a = f'{addr}[{min(lb, addr_bits) - 1}:0]' if lb > 0 else "1'b0"
        extra = m.addr_bits - min(lb, addr_bits)
        return f"{{{extra}'d0, {a}}}" if extra > 0 else a

    def row(addr):
        if t.rows == 1:
            return "1'b0"
        if addr_bits <= lb:
            return f"{rb}'d0"
        hi = min(addr_bits - 1, lb + rb - 1)
        return f"{rb}'({addr}[{hi}:{lb}])"

    lines += [f'  logic [{cw - 1}:0] wdata;', f'  logic [{cw - 1}:0] bmask;', f'  logic [{t.rows * cw - 1}:0] dout;',
              f'  logic [{rb - 1}:0] wrow, rrow, rrow_q;',
              f'  assign wdata = {pad};', f'  assign wrow = {row(waddr)};', f'  assign rrow = {row(raddr)};']
    lines.append('  // The write mask per bit (padding columns never written).')
    if cw > w:
        lines.append(f"  assign bmask[{cw - 1}:{w}] = '0;")
    lines += [f'  for (genvar i = 0; i < {w // g}; i++) begin : g_mask',
              f'    assign bmask[i * {g} +: {g}] = {{{g}{{{wmask}[i]}}}};', '  end']
    lines += ['  // The row read last selects the output (held, as the macros hold theirs, until the next read).',
              '  always_ff @(posedge clk_i) begin', f'    if ({ren}) rrow_q <= rrow;', '  end']
    for r in range(t.rows):
        for c in range(t.cols):
            lines += macro_instance(t, r, c, wen, ren, low(waddr), low(raddr))
    sel = f'dout[rrow_q * {cw} +: {w}]' if t.rows > 1 else f'dout[{w - 1}:0]'
    if m.family == 'sky130':
        lines += ['  // sky130: dout is valid from half a cycle plus the access time after the reading edge',
                  '  // until the next rising edge only; hold_q keeps the word read for the cycles after.',
                  '  logic rd_q;', f'  logic [{w - 1}:0] hold_q;',
                  '  always_ff @(posedge clk_i) begin', f'    rd_q <= {ren};', f'    if (rd_q) hold_q <= {sel};',
                  '  end', f'  assign {rdata} = rd_q ? {sel} : hold_q;']
    else:
        lines.append(f'  assign {rdata} = {sel};')
    lines += ['endmodule', '']
    return '\n'.join(lines)


# A mask bit drives every mask pin of its group in every macro of the array (one tag-array way:
# 232 A_BM pins on sg13g2, 29 wmask0 pins on sky130): ABC sees no logic between the mask flop and
# the macro pins and buffers nothing, so one small gate would drive them all (0.66 pF and a 5 ns
# slew on sg13g2's first run). Like the buffer tree a placed flow builds, the wrapper gives each
# macro its own strong buffer (a library cell instance, kept by Yosys, timed by OpenSTA) for each
# mask group that has more than MASK_FANOUT pins in the whole array.
MASK_BUFFER = {'sg13g2': ('sg13g2_buf_8', 'A', 'X'), 'sky130': ('sky130_fd_sc_hd__buf_8', 'A', 'X')}
MASK_FANOUT = 8


def cell_stubs(lib):
    """Yosys declarations of the library cells the wrappers instantiate (black boxes until
    OpenSTA links them to the liberty; write_verilog leaves black-box modules out)."""
    if lib not in MASK_BUFFER:
        return ''
    cell, pin_in, pin_out = MASK_BUFFER[lib]
    return f'(* blackbox *)\nmodule {cell} (input {pin_in}, output {pin_out});\nendmodule\n\n'


def macro_mask(t, r, c):
    """One macro's mask pins: the declarations and buffers they need, and the expression (MSB
    first) of its A_BM (one pin per bit) or wmask0 (one pin per byte lane)."""
    m = t.macro
    lo = c * m.bits
    lane = 1 if m.mask == 'bit' else 8
    group_pins = t.rows * (min(t.gran, t.width) // lane)  # pins of one mask group in the array
    buffered = t.lib in MASK_BUFFER and group_pins > MASK_FANOUT
    runs = []  # [group or None for padding, lanes], LSB first
    for b in range(lo, lo + m.bits, lane):
        grp = b // t.gran if b < t.width else None
        if runs and runs[-1][0] == grp:
            runs[-1][1] += 1
        else:
            runs.append([grp, 1])
    pre, parts, first = [], [], lo
    for grp, n in runs:
        if grp is None:
            parts.append(f"{n}'d0")
        elif buffered:
            cell, pin_in, pin_out = MASK_BUFFER[t.lib]
            net = f'bm_r{r}_c{c}_g{grp}'
            pre += [f'  logic {net};', f'  {cell} u_{net} (.{pin_in}(bmask[{grp * t.gran}]), .{pin_out}({net}));']
            parts.append(f'{{{n}{{{net}}}}}')
        elif lane == 1:
            parts.append(f'bmask[{first + n - 1}:{first}]')
        else:
            parts += [f'bmask[{first + lane * k}]' for k in range(n)]
        first += n * lane
    return pre, '{' + ', '.join(reversed(parts)) + '}'


def macro_instance(t, r, c, wen, ren, wlow, rlow):
    m = t.macro
    lo = c * m.bits
    cw = t.cols * m.bits
    base = r * cw + lo
    d = f'wdata[{lo + m.bits - 1}:{lo}]'
    pre, bm = macro_mask(t, r, c) if m.mask != 'none' else ([], '')
    dout = f'dout[{base + m.bits - 1}:{base}]'
    we_row = f'({wen}) & (wrow == {max((t.rows - 1).bit_length(), 1)}\'d{r})'
    re_row = f'({ren}) & (rrow == {max((t.rows - 1).bit_length(), 1)}\'d{r})'
    name = f'u_r{r}_c{c}'
    if m.family == 'ihp':
        tie_a = ['A_DLY(1\'b1)', "A_BIST_EN(1'b0)", "A_BIST_CLK(1'b0)", "A_BIST_MEN(1'b0)", "A_BIST_WEN(1'b0)",
                 "A_BIST_REN(1'b0)", "A_BIST_ADDR('0)", "A_BIST_DIN('0)", "A_BIST_BM('0)"]
        if t.kind == '1rw':
            a = [f'A_CLK(clk_i)', f'A_MEN({we_row} | {re_row})', f'A_WEN({we_row})', f'A_REN({re_row})',
                 f'A_ADDR({wlow})', f'A_DIN({d})', f'A_BM({bm})', f'A_DOUT({dout})']
            b = [] if m.ports != '2rw' else [f'B_{p}' for p in ("CLK(1'b0)", "MEN(1'b0)", "WEN(1'b0)", "REN(1'b0)",
                                                                  "ADDR('0)", "DIN('0)", "BM('0)", 'DOUT()')]
        else:  # A writes, B reads
            a = ['A_CLK(clk_i)', f'A_MEN({we_row})', "A_WEN(1'b1)", "A_REN(1'b0)", f'A_ADDR({wlow})', f'A_DIN({d})',
                 f'A_BM({bm})', 'A_DOUT()']
            b = ['B_CLK(clk_i)', f'B_MEN({re_row})', "B_WEN(1'b0)", "B_REN(1'b1)", f'B_ADDR({rlow})', "B_DIN('0)",
                 "B_BM('0)", f'B_DOUT({dout})']
        if m.ports == '2rw':
            b += ['B_' + p[2:] for p in tie_a]
        pins = a + tie_a + b
    else:
        if m.ports == '1r1w':  # port 0 write-only (no mask: the column's group enables it), port 1 read
            group = lo // t.gran if t.gran != t.width else None
            en = we_row if group is None else f'{we_row} & bmask[{lo}]'
            pins = ['clk0(clk_i)', f'csb0(~({en}))', f'addr0({wlow})', f'din0({d})',
                    'clk1(clk_i)', f'csb1(~({re_row}))', f'addr1({rlow})', f'dout1({dout})']
        elif t.kind == '1rw':
            din = f"{{1'b0, {d}}}" if m.spare_col else d
            dout0 = f'{{unused_r{r}_c{c}, {dout}}}' if m.spare_col else dout
            pins = ['clk0(clk_i)', f'csb0(~({we_row} | {re_row}))', f'web0(~({we_row}))', f'wmask0({bm})',
                    f'addr0({wlow})', f'din0({din})', f'dout0({dout0})']
            if m.spare_col:
                pins.append("spare_wen0(1'b0)")
            if m.ports == '1rw1r':
                pins += ['clk1(clk_i)', "csb1(1'b1)", "addr1('0)", 'dout1()']
        else:  # 1rw1r for a 1r1w array: port 0 writes, port 1 reads
            pins = ['clk0(clk_i)', f'csb0(~({we_row}))', "web0(1'b0)", f'wmask0({bm})', f'addr0({wlow})',
                    f'din0({d})', 'dout0()', 'clk1(clk_i)', f'csb1(~({re_row}))', f'addr1({rlow})', f'dout1({dout})']
    if m.family == 'sky130' and m.spare_col and t.kind == '1rw':
        pre.append(f'  logic unused_r{r}_c{c};')
    return pre + [f'  {m.name} {name} ('] + [f'    .{p}{"," if i + 1 < len(pins) else ""}'
                                            for i, p in enumerate(pins)] + ['  );']


# --- the black box's liberty (libraries without macros) ----------------------------------------

def blackbox_liberty(t, addr_bits):
    """A one-cell liberty for the black box of a library without SRAM macros: scalar timing from
    the FO4-scaled assumptions (tile()), area = bits x density."""
    ports = port_list(t.kind, addr_bits, t.width, t.gran)
    widths = sorted({n for _, _, n, _ in ports if n > 1})
    out = [f'library ({t.cell}_lib) {{', '  delay_model : table_lookup;', '  time_unit : "1ns";',
           '  voltage_unit : "1V";', '  current_unit : "1mA";', '  capacitive_load_unit (1, pf);',
           '  pulling_resistance_unit : "1kohm";', '  leakage_power_unit : "1nW";']
    for edge in ('rise', 'fall'):
        out += [f'  input_threshold_pct_{edge} : 50;', f'  output_threshold_pct_{edge} : 50;',
                f'  slew_lower_threshold_pct_{edge} : 20;', f'  slew_upper_threshold_pct_{edge} : 80;']
    for n in widths:
        out += [f'  type (bus{n}) {{', '    base_type : array;', '    data_type : bit;', f'    bit_width : {n};',
                f'    bit_from : {n - 1};', '    bit_to : 0;', '    downto : true;', '  }']
    out += [f'  cell ({t.cell}) {{', f'    area : {t.area_um2:.3f};', '    dont_touch : true;', '    dont_use : true;']

    def arcs(direction):
        if direction == 'output':
            return ['      timing () {', '        related_pin : "clk_i";', '        timing_type : rising_edge;',
                    f'        cell_rise (scalar) {{ values ("{t.access_ns}"); }}',
                    f'        cell_fall (scalar) {{ values ("{t.access_ns}"); }}',
                    '        rise_transition (scalar) { values ("0.1"); }',
                    '        fall_transition (scalar) { values ("0.1"); }', '      }']
        out2 = []
        for kind, v in (('setup_rising', t.setup_ns), ('hold_rising', t.hold_ns)):
            out2 += ['      timing () {', '        related_pin : "clk_i";', f'        timing_type : {kind};',
                     f'        rise_constraint (scalar) {{ values ("{v}"); }}',
                     f'        fall_constraint (scalar) {{ values ("{v}"); }}', '      }']
        return out2

    for direction, name, n, _ in ports:
        group = f'bus ({name}) {{\n      bus_type : bus{n};' if n > 1 else f'pin ({name}) {{'
        out.append(f'    {group}')
        out.append(f'      direction : {direction};')
        if direction == 'input':
            out.append('      capacitance : 0.005;')
        if name == 'clk_i':
            out.append('      clock : true;')
        else:
            out += arcs(direction)
        out.append('    }')
    out += ['  }', '}', '']
    return '\n'.join(out)


# --- views: every primitive instance of a design -------------------------------------------

MODULE = re.compile(r'^module (\S+)$')
PARAM = re.compile(r'^\s+parameter \\(\w+) (\d+)$')
PRIMITIVES = {'l1d_sram_1rw': '1rw', 'l1d_sram_1r1w': '1r1w'}


def parse_dump(text):
    """The primitives' elaborated modules in a Yosys `dump`: name -> parameters."""
    mods, cur = {}, None
    for line in text.splitlines():
        m = MODULE.match(line)
        if m:
            cur = m.group(1)
            mods[cur] = {}
            continue
        m = PARAM.match(line)
        if m and cur:
            mods[cur][m.group(1)] = int(m.group(2))
    return mods


def views(a):
    with open(a.dump, encoding='utf-8') as f:
        mods = parse_dump(f.read())
    verilog, script, arrays, libs, cells = [], [], [], set(), {}
    for name, p in sorted(mods.items()):
        base = name.split('\\')[-1]
        if base not in PRIMITIVES:
            continue
        kind = PRIMITIVES[base]
        missing = [k for k in ('Words', 'Width', 'GranBits', 'AddrBits') if k not in p]
        if missing:
            raise TilingError(f'module {name}: no parameter {", ".join(missing)} in the Yosys dump')
        t = tile(a.lib, kind, p['Words'], p['Width'], p['GranBits'], a.density, a.fo4)
        is_top = base == a.top and name in (base, '\\' + base)
        view = base if is_top else f'{base}__{a.lib}_{t.words}x{t.width}_g{t.gran}_a{p["AddrBits"]}'
        verilog.append(wrapper(t, view, p['AddrBits']))
        if t.macro:
            libs.add(os.path.join(a.macro_dir, t.macro.lib_file))
        else:
            path = os.path.join(a.out, t.cell + '.lib')
            with open(path, 'w', encoding='utf-8') as f:
                f.write(blackbox_liberty(t, p['AddrBits']))
            libs.add(path)
        cells[t.cell] = t
        if is_top:
            script.append(f'delete {name}')
        else:
            script.append(f'chtype -map {name} {view}')
            script.append(f'delete {name}')
        arrays.append(dict(t.summary(), module=view, addr_bits=p['AddrBits']))
    for lib in sorted(libs):
        if not os.path.isfile(lib):
            raise TilingError(f'no macro liberty {lib} (synth/library.sh unpacks them)')
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, 'sram_views.v'), 'w', encoding='utf-8') as f:
        f.write(cell_stubs(a.lib) + '\n'.join(verilog))
    # The macros first (black-box cells with their .lib pins), then the wrappers that use them.
    ys = [f'read_liberty -lib {lib}' for lib in sorted(libs)]
    ys += [s for s in script if s.startswith('delete') and s.split()[1].lstrip('\\') == a.top]
    ys += [f'read_verilog -sv {os.path.join(a.out, "sram_views.v")}']
    ys += [s for s in script if not (s.startswith('delete') and s.split()[1].lstrip('\\') == a.top)]
    with open(os.path.join(a.out, 'sram_views.ys'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(ys) + '\n')
    with open(os.path.join(a.out, 'sram_views.json'), 'w', encoding='utf-8') as f:
        json.dump({'lib': a.lib, 'arrays': arrays}, f, indent=1)
    with open(os.path.join(a.out, 'sram_sta.tcl'), 'w', encoding='utf-8') as f:
        f.write(sta_facts(sorted(libs), cells))
    return 0


def sta_facts(libs, cells):
    """Tcl for synth/sta_block.tcl: the libraries to load and, per macro cell, its minimum
    period (0: none) and its clock pins."""
    out = [f'set sram_libs {{{" ".join(libs)}}}', 'array set sram_min_period {}', 'array set sram_clocks {}']
    for name, t in sorted(cells.items()):
        if t.macro is None:
            clocks = ['clk_i']
        elif t.macro.family == 'sky130':
            clocks = ['clk0', 'clk1'] if t.macro.ports != '1rw' else ['clk0']
        else:
            clocks = ['A_CLK', 'B_CLK'] if t.macro.ports == '2rw' else ['A_CLK']
        out.append(f'set sram_min_period({name}) {t.min_period_ns}')
        out.append(f'set sram_clocks({name}) {{{" ".join(clocks)}}}')
    return '\n'.join(out) + '\n'


# --- the documentation table -----------------------------------------------------------------

def l1_arrays(config):
    """The arrays of gtx480's L1 as the v2 layer would hold them (docs/synthesis.md): name, kind,
    words, width, GranBits."""
    if config != 'gtx480':
        raise TilingError('l1-table knows gtx480 only')
    # tag/state: 32 sets, 4 ways x 232 bits (l1d_tag_array's 227 bits per way rounded up to
    # bytes, as l1d_sram_demo stores them), one mask bit per way; data: one way's 128 B per word;
    # MSHR: the fill data (32 entries x 1024 bits, whole lines) and the merged requests (32 x 8 =
    # 256 words of 168 bits, gen/blocks/l1d_mshr.cpp); miss queue: 8 entries of 41 + 288 + 1152
    # bits (docs/synthesis.md), one push per cycle in v2.
    return [('tag/state', '1rw', 32, 928, 232), ('data (one way per word)', '1rw', 128, 1024, 8),
            ('MSHR fill data', '1r1w', 32, 1024, 1024), ('MSHR merged requests', '1r1w', 256, 168, 168),
            ('miss-queue payload', '1r1w', 8, 1481, 1481)]


def l1_table(a):
    print('| array | shape | library | macros | area mm² | unused bits | access ns | min period ns |')
    print('|---|---|---|---|---:|---:|---:|---:|')
    for name, kind, words, width, gran in l1_arrays(a.config):
        for lib in ('sky130', 'sg13g2', 'osu018'):
            try:
                t = tile(lib, kind, words, width, gran, density=13.1, fo4_ns=0.0992)
            except TilingError as e:
                print(f'| {name} | {kind} {words} x {width} /{gran} | {lib} | impossible: {e} | | | | |')
                continue
            what = f'{t.count} x {t.cell} ({t.cols} x {t.rows})' if t.macro else t.notes[0]
            edge = ' (fall)' if t.read_edge == 'fall' else ''
            print(f'| {name} | {kind} {words} x {width} /{gran} | {lib} | {what} | {t.area_um2 / 1e6:.3f} |'
                  f' {t.waste_bits} | {t.access_ns}{edge} | {t.min_period_ns or "—"} |')
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    v = sub.add_parser('views')
    v.add_argument('--lib', required=True)
    v.add_argument('--dump', required=True)
    v.add_argument('--top', required=True)
    v.add_argument('--out', required=True)
    v.add_argument('--macro-dir', default='')
    v.add_argument('--density', type=float)
    v.add_argument('--fo4', type=float, help='FO4 delay in ns (black boxes)')
    t = sub.add_parser('tile')
    t.add_argument('--lib', required=True)
    t.add_argument('--kind', required=True)
    for k in ('words', 'width', 'gran'):
        t.add_argument('--' + k, type=int, required=True)
    t.add_argument('--density', type=float)
    t.add_argument('--fo4', type=float)
    l1 = sub.add_parser('l1-table')
    l1.add_argument('--config', default='gtx480')
    a = ap.parse_args()
    try:
        if a.cmd == 'views':
            return views(a)
        if a.cmd == 'tile':
            print(json.dumps(tile(a.lib, a.kind, a.words, a.width, a.gran, a.density, a.fo4).summary()))
            return 0
        return l1_table(a)
    except TilingError as e:
        print(f'sram_tiling: {e}', file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(main())
