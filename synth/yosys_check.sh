#!/usr/bin/env bash
# Synthesis check of one emitted module with Yosys 0.23, and optionally its netlist.
#
#   yosys_check.sh DIR TOP [NETLIST]
#
# Reads the files of DIR that TOP reaches (packages *_pkg.sv first; scripts/rtl_digest.py --files)
# with `read_verilog -sv -noautowire` (without -noautowire Yosys 0.23 turns some mistakes into
# implicit wires: SV-SUBSET.md), then
#   hierarchy -check -top TOP; synth -top TOP; check -assert
# and prints one line with the cell count (a black box, SYN_BLACKBOX: elaborated only, see
# below). With NETLIST it also writes the synthesized design with TOP renamed TOP_netlist
# (write_verilog -noattr) for the netlist co-simulation (tb/).
# Exit 0 when Yosys succeeds without a warning; otherwise the Yosys log (or its warnings) is
# printed and the exit status is 1.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 DIR TOP [NETLIST]" >&2
  exit 2
fi
dir=$1 top=$2 netlist=${3:-}
yosys=${YOSYS:-yosys}

if [ ! -f "$dir/$top.sv" ]; then
  echo "yosys_check: no $dir/$top.sv" >&2
  exit 2
fi
# Only the files TOP can reach: the packages, TOP's file and those of the modules it names,
# transitively (scripts/rtl_digest.py --files, as scripts/rtl.sh synth does), not every file of DIR.
# Parsing all of rtl/'s 37 files cost about 0.65 of a small module's 1.1 CPU-s (testcost7,
# 2026-11-29), in each of the build's netlist steps; and a block's netlist no longer depends on
# files it does not instantiate. A file the list misses stops `hierarchy -check`: a failure, never
# a pass.
python=${PYTHON3:-$(command -v /usr/bin/python3 || command -v python3)}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
list=$("$python" "$root/scripts/rtl_digest.py" --files "$dir" "$top") ||
  { echo "yosys_check: scripts/rtl_digest.py --files $dir $top failed" >&2; exit 2; }
read -r -a files <<<"${list#* }"
pkgs=()
mods=()
for f in "${files[@]}"; do
  case $f in *_pkg.sv) pkgs+=("$f") ;; *) mods+=("$f") ;; esac
done

log=$(mktemp)
new_netlist=$log.v
trap 'rm -f "$log" "$new_netlist"' EXIT

# -defer: only what TOP instantiates is elaborated (not every large array of DIR). The modules of
# SYN_BLACKBOX other than TOP are read with -lib, as black boxes: TOP's design keeps their
# instances, with their parameters (so a netlist instantiates them as the RTL does and the
# co-simulation links their behavioural models), their ports are checked, and their insides are
# synthesized by their own check.
# The SRAM primitives l1d_sram_1rw and l1d_sram_1r1w are black boxes here too: make synth maps
# them to macros (synth/sram_tiling.py), and the arrays that instantiate them are SRAM-sized.
blackboxes=" ${SYN_BLACKBOX-l1d_data_sram l1d_ram_1r1w l1d_sram_1rw l1d_sram_1r1w} "
libs=()
rest=()
for f in "${mods[@]}"; do
  m=$(basename "$f" .sv)
  if [[ "$blackboxes" == *" $m "* && "$m" != "$top" ]]; then libs+=("$f"); else rest+=("$f"); fi
done
read="read_verilog -defer -sv -noautowire ${pkgs[*]} ${rest[*]}"
[ ${#libs[@]} -eq 0 ] || read+="; read_verilog -sv -noautowire -lib ${libs[*]}"
read+="; hierarchy -check -top $top"
script="$read; synth -top $top; check -assert; stat"
if [ -n "$netlist" ]; then
  script+="; rename $top ${top}_netlist; write_verilog -noattr $new_netlist"
fi
# A black box of synthesis (SYN_BLACKBOX, default l1d_data_sram, l1d_ram_1r1w and the SRAM
# primitives: SRAM or register-file macros in a real L1) is checked as that flow uses it: elaborated, its processes
# and memories inferred, but not mapped to cells (Yosys takes minutes and GBs to turn an
# SRAM-sized memory into flops). Asked for a netlist (the co-simulation of a small shape), it is
# synthesized like any other module: the model maps to flops and matches its RTL.
if [[ "$blackboxes" == *" $top "* && -z "$netlist" ]]; then
  script="$read; proc; opt_clean; memory -nomap; check -assert; stat"
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
