#!/usr/bin/env python3
"""ctest synth.sram_tiling: the SRAM tiling of synth/sram_tiling.py against tilings worked out by
hand from the macro table of ../shared/pdk/sram/README.md (LEF areas), and a Yosys 0.23 check
that the wrappers it writes read the macro .lib files as black boxes and keep one cell per macro.

    test_sram_tiling.py [PDK_SRAM_DIR]      (default ../shared/pdk/sram beside the repository)
"""
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'synth'))
import sram_tiling as st  # noqa: E402

SRAM_DIR = os.path.join(os.path.dirname(ROOT), 'shared', 'pdk', 'sram')


class HandTilings(unittest.TestCase):
    def check(self, t, cell, cols, rows, area, waste=None):
        self.assertEqual(t.cell, cell)
        self.assertEqual((t.cols, t.rows), (cols, rows))
        self.assertAlmostEqual(t.area_um2, area, delta=1.0)
        if waste is not None:
            self.assertEqual(t.waste_bits, waste)

    def test_sg13g2_256x1024_byte_mask(self):
        # 256x64 macros, 16 side by side (1024 / 64): 16 x 784.48 x 118.78 = 1 490 888.6 um2.
        # (256x48: 22 x 70 849.9 = 1.56 mm2; 64x64: 64 x 50 489 = 3.2 mm2; 1024x64: 4.2 mm2.)
        self.check(st.tile('sg13g2', '1rw', 256, 1024, 8), 'RM_IHPSG13_1P_256x64_c2_bm_bist', 16, 1, 1490888.6, 0)

    def test_sky130_256x1024_byte_mask(self):
        # 32 x the 1 KB single-port macro (1024 / 32 bits): 32 x 478.42 x 223.42 = 3 420 435.1 um2.
        self.check(st.tile('sky130', '1rw', 256, 1024, 8), 'sky130_sram_1kbyte_1rw_32x256_8', 32, 1, 3420435.1)

    def test_sky130_has_no_bit_mask(self):
        with self.assertRaisesRegex(st.TilingError, 'mask of 1 bits'):
            st.tile('sky130', '1rw', 256, 64, 1)

    def test_gtx480_tag_state_sg13g2(self):
        # 32 x 928 (4 ways x 232 bits): 15 x 64x64 (928 / 64 = 14.5), 15 x 50 489.13 = 757 337 um2,
        # 15 x 64 x 64 - 32 x 928 = 31 744 bits unused; 256x64 would be 15 x 93 180 = 1.40 mm2.
        self.check(st.tile('sg13g2', '1rw', 32, 928, 232), 'RM_IHPSG13_1P_64x64_c2_bm_bist', 15, 1, 757337.0, 31744)

    def test_depth_two_rows(self):
        # 2048 x 64: two 1024x64 macros one above the other (2 x 263 946.1 = 527 892.2 um2);
        # eight 256x64 would take 745 444 um2.
        self.check(st.tile('sg13g2', '1rw', 2048, 64, 64), 'RM_IHPSG13_1P_1024x64_c2_bm_bist', 1, 2, 527892.2, 0)

    def test_sky130_1r1w_whole_words(self):
        # 32 x 1024, whole-word writes: 32 x the 1rw1r 32x256 (493.38 x 403.62 = 199 138.0) = 6 372 417;
        # the 8x1024 1r1w macro would need 128.
        self.check(st.tile('sky130', '1r1w', 32, 1024, 1024), 'sky130_sram_1kbyte_1rw1r_32x256_8', 32, 1, 6372417.3)

    def test_sky130_1r1w_maskless_macro_by_bytes(self):
        # 1024 x 8 with a byte mask: the one 8x1024 1r1w macro (463.46 x 447.14 = 207 231.5), its chip
        # select the mask bit; four 1rw1r 32x256 deep would take 796 552.
        self.check(st.tile('sky130', '1r1w', 1024, 8, 8), 'sky130_sram_1kbyte_1r1w_8x1024_8', 1, 1, 207231.5)

    def test_sg13g2_1r1w_uses_the_two_port_macro(self):
        # 32 x 702.83 x 136.97 = 3 080 531.5 um2 (1024 / 32 bits side by side).
        self.check(st.tile('sg13g2', '1r1w', 32, 1024, 1024), 'RM_IHPSG13_2P_256x32_c2_bm_bist', 32, 1, 3080531.5)

    def test_osu018_black_box(self):
        # 32 x 928 bits x 13.1 um2/bit = 389 017.6 um2; access 50 FO4 of 99.2 ps = 4.96 ns.
        t = st.tile('osu018', '1rw', 32, 928, 232, density=13.1, fo4_ns=0.0992)
        self.check(t, 'sram_bb_1rw_32x928_g232', 1, 1, 389017.6, 0)
        self.assertAlmostEqual(t.access_ns, 4.96)

    def test_bad_shapes(self):
        with self.assertRaisesRegex(st.TilingError, 'multiple of GranBits'):
            st.tile('sg13g2', '1rw', 32, 100, 8)
        with self.assertRaisesRegex(st.TilingError, 'no SRAM macros'):
            st.tile('osu018', '1rw', 32, 64, 8)


def yosys_cells(workdir, lib, kind, words, width, gran, addr_bits):
    """Writes the wrapper of one array and synthesizes it with Yosys: the cell types and counts."""
    t = st.tile(lib, kind, words, width, gran, density=13.1, fo4_ns=0.1)
    libs = []
    if t.macro:
        src = os.path.join(SRAM_DIR, t.macro.lib_file + '.gz')
        dst = os.path.join(workdir, t.macro.lib_file)
        with gzip.open(src, 'rb') as f, open(dst, 'wb') as g:
            shutil.copyfileobj(f, g)
        libs.append(dst)
    else:
        dst = os.path.join(workdir, t.cell + '.lib')
        with open(dst, 'w', encoding='utf-8') as f:
            f.write(st.blackbox_liberty(t, addr_bits))
        libs.append(dst)
    v = os.path.join(workdir, 'view.v')
    with open(v, 'w', encoding='utf-8') as f:
        f.write(st.cell_stubs(lib) + st.wrapper(t, 'view', addr_bits))
    script = ''.join(f'read_liberty -lib {p}; ' for p in libs)
    script += f'read_verilog -sv {v}; hierarchy -check -top view; synth -top view; check -assert; stat'
    r = subprocess.run([os.environ.get('YOSYS', 'yosys'), '-p', script], capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(r.stdout[-3000:] + r.stderr)
    warnings = [line for line in r.stdout.splitlines() if line.startswith('Warning')]
    stat = r.stdout[r.stdout.rfind('Number of cells'):]
    return t, dict((m.group(1), int(m.group(2))) for m in re.finditer(r'^\s+(\S+)\s+(\d+)$', stat, re.M)), warnings


class YosysReadsTheMacros(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def check(self, lib, kind, words, width, gran, addr_bits):
        t, cells, warnings = yosys_cells(self.dir, lib, kind, words, width, gran, addr_bits)
        self.assertEqual(cells.get(t.cell), t.count, cells)
        self.assertEqual(warnings, [])
        return cells

    def test_sg13g2_two_rows(self):
        self.check('sg13g2', '1rw', 2048, 64, 64, 11)

    def test_sg13g2_two_port(self):
        self.check('sg13g2', '1r1w', 32, 96, 1, 5)

    def test_sky130_single_port_with_hold_register(self):
        cells = self.check('sky130', '1rw', 32, 64, 8, 5)
        self.assertGreaterEqual(sum(n for c, n in cells.items() if 'DFF' in c), 64 + 1)  # hold_q, rd_q

    def test_sky130_maskless_macro(self):
        self.check('sky130', '1r1w', 1024, 16, 8, 10)

    def test_black_box(self):
        self.check('osu018', '1r1w', 8, 1481, 1481, 3)


if __name__ == '__main__':
    if len(sys.argv) > 1 and os.path.isdir(sys.argv[1]):
        SRAM_DIR = sys.argv.pop(1)
    unittest.main()
