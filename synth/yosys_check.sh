#!/usr/bin/env bash
# Synthesis check of one emitted module with Yosys 0.23, and optionally its netlist.
#
#   yosys_check.sh DIR TOP [NETLIST]
#
# Reads every file of DIR (packages *_pkg.sv first) with `read_verilog -sv -noautowire` (without
# -noautowire Yosys 0.23 turns some mistakes into implicit wires: SV-SUBSET.md), then
#   hierarchy -check -top TOP; synth -top TOP; check -assert
# and prints one line with the cell count. With NETLIST it also writes the synthesized design
# with TOP renamed TOP_netlist (write_verilog -noattr) for the netlist co-simulation (tb/).
# Exit 0 when Yosys succeeds without a warning; otherwise the Yosys log (or its warnings) is
# printed and the exit status is 1.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 DIR TOP [NETLIST]" >&2
  exit 2
fi
dir=$1 top=$2 netlist=${3:-}
yosys=${YOSYS:-yosys}

shopt -s nullglob
pkgs=("$dir"/*_pkg.sv)
mods=()
for f in "$dir"/*.sv; do
  case $f in *_pkg.sv) ;; *) mods+=("$f") ;; esac
done
if [ ! -f "$dir/$top.sv" ]; then
  echo "yosys_check: no $dir/$top.sv" >&2
  exit 2
fi

log=$(mktemp)
new_netlist=$log.v
trap 'rm -f "$log" "$new_netlist"' EXIT

script="read_verilog -sv -noautowire ${pkgs[*]} ${mods[*]}; hierarchy -check -top $top; synth -top $top; check -assert; stat"
if [ -n "$netlist" ]; then
  script+="; rename $top ${top}_netlist; write_verilog -noattr $new_netlist"
fi

if ! "$yosys" -p "$script" >"$log" 2>&1; then
  cat "$log"
  echo "yosys_check: FAIL $top (Yosys: read_verilog -sv -noautowire; hierarchy -check; synth; check -assert)" >&2
  exit 1
fi
cells=$(grep -E '^ +Number of cells:' "$log" | tail -1 | awk '{print $4}')
warnings=$(grep -c '^Warning:' "$log" || true)
if [ "$warnings" != 0 ]; then
  grep '^Warning:' "$log"
  echo "yosys_check: FAIL $top: $warnings Yosys warnings" >&2
  exit 1
fi
if [ -n "$netlist" ]; then
  # Replaced only when it changed, so that the build does not re-verilate an identical netlist.
  mkdir -p "$(dirname "$netlist")"
  cmp -s "$new_netlist" "$netlist" || cp "$new_netlist" "$netlist"
fi
echo "yosys_check: ok $top: ${cells:-?} cells${netlist:+, netlist $netlist}"
