#!/usr/bin/env python3
"""Rewrite a Yosys netlist (write_verilog -noattr) so that Verilator simulates it right.

    netlist_split_vectors.py IN.v OUT.v

Verilator 5.006 evaluates the assigns that drive one vector as one variable in a single pass,
with no iteration: where bits of a vector are computed from other bits of the same vector (Yosys
writes an output bit that also feeds logic, and aliased bits as `assign {o[6], o[1]} = {o[7],
o[2]};`), a bit read before the assign that drives it gets the previous evaluation's value. The
netlist then settles a step behind, although it is correct (Yosys' eval and the SAT proofs of
synth/equiv_check.sh say so). -O0 and the -fno-* options do not change it (docs/rtl-verification.md,
"Verilator and aliased vector bits"; regression: tb/selftest/alias_netlist.v).

What avoids it: Verilator's split_var, which makes a vector one variable per bit. It cannot split a
port, so each multi-bit output port is driven from an internal copy (`<port>__bits`, every use of
the port in the module body renamed to it) and every multi-bit wire, those copies included, is
marked /*verilator split_var*/. Yosys reads the marks as comments: the file stays the same netlist.
A wire Verilator cannot split (one connected to a black box's port) is left whole, with warning
SPLITVAR, which the netlist models disable.
"""
import re
import sys

# Escaped identifiers (\name followed by white space) and an instance's pin names (.name) are
# skipped whole; plain identifiers renamed.
TOKEN = re.compile(r"\\\S+\s|\.?[A-Za-z_][A-Za-z0-9_$]*")
DECL = re.compile(r"^(\s*)(input|output|wire|reg)\s+(\[[^\]]+\])\s+([A-Za-z_][A-Za-z0-9_$]*)\s*;\s*$")


def rename(line, names):
    return TOKEN.sub(lambda m: names.get(m.group(0), m.group(0)), line)


def split_module(lines):
    outputs = {}  # multi-bit output port -> its range
    inputs = set()
    for line in lines:
        m = DECL.match(line)
        if m and m.group(2) == "output":
            outputs[m.group(4)] = m.group(3)
        elif m and m.group(2) == "input":
            inputs.add(m.group(4))
    names = {o: f"{o}__bits" for o in outputs}
    out = []
    in_header = True  # the module line and its port list, which Yosys may wrap over lines
    for line in lines:
        m = DECL.match(line)
        if in_header or line.strip().startswith(("input", "output")):
            out.append(line)  # the header and the port declarations keep the port names
            if in_header and ");" in line:
                in_header = False
        elif m and m.group(4) in outputs:  # the port's own declaration, then its split copy
            indent, kind, rng, name = m.groups()
            out.append(f"{indent}wire {rng} {name};\n")
            split = " /*verilator split_var*/" if kind == "wire" else ""  # a flop stays whole
            out.append(f"{indent}{kind} {rng} {name}__bits{split};\n")
            out.append(f"{indent}assign {name} = {name}__bits;\n")
        elif m and m.group(2) == "wire" and m.group(4) not in inputs:
            indent, _, rng, name = m.groups()
            out.append(f"{indent}wire {rng} {name} /*verilator split_var*/;\n")
        else:
            out.append(rename(line, names))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: netlist_split_vectors.py IN.v OUT.v")
    with open(sys.argv[1], encoding="utf-8") as f:
        text = f.readlines()
    result, module = [], []
    for line in text:
        if line.startswith("module ") or module:
            module.append(line)
            if line.startswith("endmodule"):
                result += split_module(module)
                module = []
        else:
            result.append(line)
    if module:
        sys.exit(f"netlist_split_vectors: {sys.argv[1]}: a module without endmodule")
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.writelines(result)


if __name__ == "__main__":
    main()
