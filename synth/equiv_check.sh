#!/usr/bin/env bash
# Formal equivalence of a combinational block's RTL and its Yosys netlist (issue 25): a miter of
# the two, proven with Yosys' SAT solver for every input at once. It backs the netlist
# co-simulation (tb/testbench.h), whose verilated netlist model can itself be wrong: Verilator
# 5.006 has mis-simulated a netlist that this proof and Yosys' own evaluation found correct
# (docs/rtl-verification.md, "Netlist equivalence").
#   synth/equiv_check.sh RTL_DIR BLOCK NETLIST.v
#   EQUIV_ENGINE=abc synth/equiv_check.sh RTL_DIR BLOCK NETLIST.v
#
# EQUIV_ENGINE=abc proves the same miter with ABC instead of MiniSat: Yosys maps it to an AIG
# (`abc -g AND`, whose script sweeps the two sides' equal internal points together: SAT sweeping
# finds the structure they share) and ABC's `iprove` decides what is left; UNSATISFIABLE (the
# trigger never rises) is the proof, SATISFIABLE a counterexample, anything else undecided (exit
# 2, never a pass). A miter with an undefined constant does not map to an AIG: Yosys stops, exit 2.
# Why: MiniSat on the whole miter has no internal equivalence points, and its time swings with the
# netlist's structure: l1d_core_match's gtx480 netlist, synthesized by Yosys from the same RTL
# (only other files of rtl/ changed, which yosys_check.sh reads too), took 7.9 s in /tmp/cc6 and
# 26.5 s in /tmp/cc7 (45.2 CPU-s at load 16, 2026-11-29); ABC proves it in 4.6 CPU-s at the same
# load, and finds synth/test/equiv_mutant.sh's one-gate mutant (testcost7).
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 RTL_DIR BLOCK NETLIST.v" >&2
  exit 2
fi
rtl=$1 block=$2 netlist=$3
[ -f "$rtl/$block.sv" ] || { echo "equiv_check: $rtl/$block.sv: no such file" >&2; exit 2; }
[ -f "$netlist" ] || { echo "equiv_check: $netlist: no such file" >&2; exit 2; }
# The RTL side reads the packages, BLOCK's file and those of the modules it names, transitively
# (scripts/rtl_digest.py --files), not every file of RTL_DIR: Yosys elaborates only those
# (hierarchy -top), and parsing all of rtl/ was most of a small block's proof (testcost7).
py=${PYTHON3:-$(command -v /usr/bin/python3 || command -v python3)}
files=$("$py" "$(dirname "$0")/../scripts/rtl_digest.py" --files "$rtl" "$block") || exit 2
files=${files#"$block "}
script="read_verilog -defer -sv $files; hierarchy -top $block; proc; flatten; memory; opt_clean"
script+="; rename $block gold; design -stash gold"
script+="; read_verilog $netlist; hierarchy -top ${block}_netlist; proc; flatten; memory; opt_clean"
script+="; rename ${block}_netlist gate; design -stash gate"
script+="; design -copy-from gold -as gold gold; design -copy-from gate -as gate gate"
log=$(mktemp)
trap 'rm -f "$log" "$log.aig"' EXIT
if [ "${EQUIV_ENGINE:-sat}" = abc ]; then
  script+="; miter -equiv -flatten gold gate miter; hierarchy -top miter"
  script+="; flatten; techmap; opt_clean; abc -g AND; opt_clean; write_aiger $log.aig"
  yosys -q -p "$script" > "$log" 2>&1 && ! grep -q 'ERROR' "$log" || {
    cat "$log" >&2
    echo "equiv_check: $block: Yosys could not build the miter's AIG" >&2
    exit 2
  }
  yosys-abc -c "read_aiger $log.aig; print_stats; iprove" > "$log" 2>&1 || true
  if grep -q '^UNSATISFIABLE' "$log"; then
    echo "equiv_check: $block: RTL and netlist equivalent for every input (ABC iprove on the miter)"
    exit 0
  elif grep -q '^SATISFIABLE' "$log"; then
    cat "$log" >&2
    echo "equiv_check: $block: RTL and netlist differ (ABC found a counterexample)" >&2
    exit 1
  fi
  cat "$log" >&2
  echo "equiv_check: $block: undecided (ABC iprove neither proved nor refuted it)" >&2
  exit 2
fi
script+="; miter -equiv -flatten -make_outputs gold gate miter; hierarchy -top miter"
script+="; sat -verify -prove trigger 0 miter"
if yosys -q -p "$script" > "$log" 2>&1 && ! grep -q 'ERROR' "$log"; then
  echo "equiv_check: $block: RTL and netlist equivalent for every input (SAT)"
else
  cat "$log" >&2
  echo "equiv_check: $block: RTL and netlist differ (or the proof failed), see above" >&2
  exit 1
fi
