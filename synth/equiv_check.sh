#!/usr/bin/env bash
# Formal equivalence of a combinational block's RTL and its Yosys netlist (issue 25): a miter of
# the two, proven with Yosys' SAT solver for every input at once. It backs the netlist
# co-simulation (tb/testbench.h), whose verilated netlist model can itself be wrong: Verilator
# 5.006 has mis-simulated a netlist that this proof and Yosys' own evaluation found correct
# (docs/rtl-verification.md, "Netlist equivalence").
#   synth/equiv_check.sh RTL_DIR BLOCK NETLIST.v
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 RTL_DIR BLOCK NETLIST.v" >&2
  exit 2
fi
rtl=$1 block=$2 netlist=$3
[ -f "$rtl/$block.sv" ] || { echo "equiv_check: $rtl/$block.sv: no such file" >&2; exit 2; }
[ -f "$netlist" ] || { echo "equiv_check: $netlist: no such file" >&2; exit 2; }
pkgs=$(ls "$rtl"/*_pkg.sv 2>/dev/null | tr "\n" " " || true)
others=$(ls "$rtl"/*.sv | grep -v '_pkg\.sv$' | tr "\n" " ")
script="read_verilog -defer -sv $pkgs $others; hierarchy -top $block; proc; flatten; memory; opt_clean"
script+="; rename $block gold; design -stash gold"
script+="; read_verilog $netlist; hierarchy -top ${block}_netlist; proc; flatten; memory; opt_clean"
script+="; rename ${block}_netlist gate; design -stash gate"
script+="; design -copy-from gold -as gold gold; design -copy-from gate -as gate gate"
script+="; miter -equiv -flatten -make_outputs gold gate miter; hierarchy -top miter"
script+="; sat -verify -prove trigger 0 miter"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if yosys -q -p "$script" > "$log" 2>&1 && ! grep -q 'ERROR' "$log"; then
  echo "equiv_check: $block: RTL and netlist equivalent for every input (SAT)"
else
  cat "$log" >&2
  echo "equiv_check: $block: RTL and netlist differ (or the proof failed), see above" >&2
  exit 1
fi
