#!/usr/bin/env python3
"""ctest synth.structures: synth/structures.py's area by structure and its --overhead mode (the
full staged l1d_top over the conventional L1, docs/synthesis.md) on two small report.json
documents whose sums are worked out by hand below.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'synth'))
import structures  # noqa: E402


def sub(block, instances=1, flops=0, flop_area=0.0, logic=0.0, macros=0, macro_area=0.0, bits=0, sram_area=0.0,
        sram_bits=0, cells=()):
    return {'block': block, 'instances': instances, 'flops': flops, 'flop_area_um2': flop_area,
            'logic_area_um2': logic, 'macro_count': macros, 'macro_area_um2': macro_area, 'array_bits': bits,
            'sram_area_um2': sram_area, 'sram_bits': sram_bits, 'macro_cells': list(cells)}


def report(lib, subblocks, glue_flops, glue_flop_area, glue_area):
    top = {'block': 'l1d_top', 'status': 'ok', 'subblocks': subblocks,
           'glue': {'flops': glue_flops, 'flop_area_um2': glue_flop_area, 'area_um2': glue_area}}
    return {'library': {'name': lib}, 'blocks': [top]}


# The full top: a tag row of 2 macros (100 um² each), two AGCB-like policy sub-blocks (one per
# instance: 2 x (10 flops, 40 + 60 um²)), an MSHR with a black box; glue 5 flops, 20 of 50 um².
FULL = report('libx', [
    sub('l1d_tag_read', flops=4, flop_area=16.0, logic=24.0, macros=2, macro_area=200.0, bits=64, cells=['M']),
    sub('l1d_agcb_table', instances=2, flops=10, flop_area=40.0, logic=60.0),
    sub('l1d_mshr', flops=3, flop_area=12.0, logic=8.0, sram_area=30.0, sram_bits=96),
], 5, 20.0, 50.0)
# The conventional L1: a tag row of 1 macro, no policy sub-block, the same MSHR; glue 4 flops, 16 of 40 um².
CONV = report('libx', [
    sub('l1d_tag_read', flops=2, flop_area=8.0, logic=12.0, macros=1, macro_area=100.0, bits=32, cells=['M']),
    sub('l1d_mshr', flops=3, flop_area=12.0, logic=8.0, sram_area=30.0, sram_bits=96),
], 4, 16.0, 40.0)


class Overhead(unittest.TestCase):
    def test_rows_and_totals(self):
        text = structures.overhead(FULL, CONV)
        rows = {line.split('|')[1].strip(): [c.strip() for c in line.split('|')[2:-1]]
                for line in text.splitlines() if line.startswith('| ') and not line.startswith('| structure')}
        policy = 'policy tables (AGCB, two-level, granularity, AgeLRU, replacement)'
        tag = 'tag/state row (SRAM, T..M2 row registers, forwarding)'
        # policy tables: absent from the conventional L1; 2 instances x (40 + 60) um², 20 flops
        self.assertEqual(rows[policy], ['0', '0', '0', '0', '0', '20', '200', '0', '+200'])
        # tag row: 1 macro, 20 um² of cells, 32 bits against 2 macros, 40 um², 64 bits: +100 + 20
        self.assertEqual(rows[tag], ['1', '2', '20', '32', '2', '4', '40', '64', '+120'])
        # the glue's other logic is its area less its flops: 40 and 50 um² of cells in all
        self.assertEqual(rows['glue (pipe registers, M2 branch, response)'][2], '40')
        self.assertEqual(rows['glue (pipe registers, M2 branch, response)'][6], '50')
        # totals: cells conv 20 + 20 + 40 = 80, full 40 + 200 + 20 + 50 = 310; with macros and the
        # black box conv 80 + 100 + 30 = 210, full 310 + 200 + 30 = 540
        self.assertEqual(rows['**total**'], ['1', '9', '80', '128', '2', '32', '310', '160', '+330'])
        self.assertIn('standard cells +230 um² = +287.5 % of the conventional L1\'s 80 um²', text)
        self.assertIn('with the macros and black boxes +330 um² = +157.1 % of 210 um²', text)

    def test_libraries_must_match(self):
        other = json.loads(json.dumps(CONV))
        other['library']['name'] = 'liby'
        with self.assertRaises(SystemExit):
            structures.overhead(FULL, other)

    def test_failed_top_is_an_error(self):
        bad = json.loads(json.dumps(FULL))
        bad['blocks'][0].update(status='failed', error='yosys died')
        with self.assertRaisesRegex(SystemExit, 'yosys died'):
            structures.overhead(bad, CONV)

    def test_command_line(self):
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for name, rep in (('full.json', FULL), ('conv.json', CONV)):
                paths.append(os.path.join(d, name))
                with open(paths[-1], 'w', encoding='utf-8') as f:
                    json.dump(rep, f)
            out = subprocess.run([sys.executable, os.path.join(ROOT, 'synth', 'structures.py'), '--overhead', *paths],
                                 capture_output=True, text=True, check=True).stdout
            self.assertIn('+330', out)
            bad = subprocess.run([sys.executable, os.path.join(ROOT, 'synth', 'structures.py'), '--overhead', paths[0]],
                                 capture_output=True, text=True)
            self.assertEqual(bad.returncode, 2)


class Table(unittest.TestCase):
    def test_one_run(self):
        text = structures.table(FULL)
        total = next(line for line in text.splitlines() if line.startswith('| **total**'))
        # 2 macros, 200 um² of macros, 32 flops, flop 0.000088 mm², logic 0.000222 mm², 160 bits, 30 um² black box
        self.assertEqual([c.strip() for c in total.split('|')[2:-1]],
                         ['2', '0.000', '32', '0.000', '0.000', '160', '0.000'])


if __name__ == '__main__':
    unittest.main()
