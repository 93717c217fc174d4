#!/usr/bin/python3
"""A mutated copy of an RTL directory for the assertion mutation tests (docs/rtl-verification.md).

    mutate_rtl.py SRC_DIR OUT_DIR MUTANTS_FILE

Copies every *.sv of SRC_DIR to OUT_DIR and applies every mutant of MUTANTS_FILE, one per line:

    name @@ Assertion_A @@ file.sv @@ old text @@ new text

`old text` must occur exactly once in file.sv; it becomes `new text`, which must select the
mutation at run time with $test$plusargs("mut_<name>") (so one verilated model holds every
mutant of a module and a test picks one with +mut_<name>; without it the model is the RTL).
A mutant may take several lines (the same name and assertion on each, one anchor each: a
mutation of two places), applied in order; the text a line inserts may be the next line's anchor.
Lines starting with '#' and blank lines are skipped. Files are rewritten only when their text
changes (Ninja then rebuilds nothing). Exit 1 with one line naming the file, line and problem.
"""
import pathlib
import sys


def fail(msg):
    print(f"mutate_rtl: {msg}", file=sys.stderr)
    sys.exit(1)


def parse(path):
    mutants = []
    for no, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(" @@ ")]
        if len(fields) != 5:
            fail(f"{path}:{no}: expected 'name @@ Assertion_A @@ file.sv @@ old @@ new', got {len(fields)} fields")
        name, _, file, old, new = fields
        if f'$test$plusargs("mut_{name}")' not in new:
            fail(f'{path}:{no}: the new text of {name} must contain $test$plusargs("mut_{name}")')
        for other in mutants:
            if other[1] == name and other[5] != fields[1]:
                fail(f"{path}:{no}: {name} names {fields[1]}, its line {other[0]} {other[5]}")
        mutants.append((no, name, file, old, new, fields[1]))
    # $test$plusargs matches a prefix: +mut_ab also selects a mutant named a.
    names = sorted({m[1] for m in mutants})
    for a in names:
        for b in names:
            if a != b and b.startswith(a):
                fail(f"{path}: mutant name {a} is a prefix of {b} ($test$plusargs(\"mut_{a}\") matches +mut_{b})")
    return mutants


def main():
    if len(sys.argv) != 4:
        fail("usage: mutate_rtl.py SRC_DIR OUT_DIR MUTANTS_FILE")
    src, out, spec = (pathlib.Path(a) for a in sys.argv[1:])
    texts = {p.name: p.read_text() for p in sorted(src.glob("*.sv"))}
    for no, name, file, old, new, _ in parse(spec):
        if file not in texts:
            fail(f"{spec}:{no}: {name}: no file {file} in {src}")
        count = texts[file].count(old)
        if count != 1:
            fail(f"{spec}:{no}: {name}: '{old}' occurs {count} times in {file}, must occur once")
        texts[file] = texts[file].replace(old, new)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        dst = out / name
        if not dst.exists() or dst.read_text() != text:
            dst.write_text(text)


if __name__ == "__main__":
    main()
