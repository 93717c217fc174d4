#!/usr/bin/env python3
"""The modules of a list that another module of the list contains (scripts/rtl.sh configs).

    rtl_contained.py DIR MODULE...

prints, one a line, each MODULE that another MODULE of the list instantiates, directly or through
other modules of DIR, when no file of DIR overrides a parameter of it (`MODULE #(`). Yosys's
`hierarchy -check -top PARENT; synth -top PARENT; check -assert` (synth/yosys_check.sh) reads,
synthesizes and checks every module PARENT instantiates, each with its own text and no other
parameters, so such a module is checked inside its parent as it would be alone: rtl.sh configs
synthesizes it once, there. Module references are found as scripts/rtl_digest.py finds them (a
module's name outside comments).
"""
import pathlib
import re
import sys


def contained(d, listed):
    files = sorted(d.glob('*.sv'))
    mods = [f.stem for f in files if not f.name.endswith('_pkg.sv')]
    for m in listed:
        if m not in mods:
            sys.exit(f'rtl_contained.py: no module {m} in {d} (no {m}.sv)')
    code = {f.stem: re.sub(r'//[^\n]*|/\*.*?\*/', ' ', f.read_text(), flags=re.S) for f in files if f.stem in mods}
    word = re.compile(r'\b(' + '|'.join(map(re.escape, mods)) + r')\b')
    refs = {m: set(word.findall(code[m])) - {m} for m in mods}
    overridden = {m for m in mods if any(re.search(r'\b' + re.escape(m) + r'\s*#\s*\(', c) for c in code.values())}
    inside = set()
    for parent in listed:
        seen, todo = set(), [parent]
        while todo:
            for r in refs[todo.pop()] - seen:
                seen.add(r)
                todo.append(r)
        inside |= seen - {parent}
    return [m for m in listed if m in inside and m not in overridden]


def main(argv):
    if len(argv) < 2:
        sys.exit('usage: rtl_contained.py DIR MODULE...')
    d = pathlib.Path(argv[0])
    if not d.is_dir():
        sys.exit(f'rtl_contained.py: {d}: not a directory')
    for m in contained(d, argv[1:]):
        print(m)


if __name__ == '__main__':
    main(sys.argv[1:])
