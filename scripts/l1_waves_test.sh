#!/usr/bin/env bash
# ctest l1.waves: the waves of the verilated L1 open with the shipped tb/waves/l1d_top.gtkw.
#
#   l1_waves_test.sh GPUSIM WORKDIR
#
# 1. gpusim --l1 verilated --l1-waves: the FST has every signal tb/waves/l1d_top.gtkw lists, and
#    the save file lists every port and flop of l1d_top (scripts/waves.sh file).
# 2. gpusim --l1 lockstep --lockstep-waves: an SM's last cycles are in two valid FST files (its
#    L1 ran longer than the 2000-cycle rotation), which pass the same check.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 GPUSIM WORKDIR" >&2; exit 2; }
gpusim=$1 work=$2
root=$(cd "$(dirname "$0")/.." && pwd)
command -v fst2vcd >/dev/null || { echo "l1_waves_test: fst2vcd (gtkwave) is not installed: skipped"; exit 77; }
rm -rf "$work"
mkdir -p "$work"

"$gpusim" --preset gtx480 --workload vecadd --scale test --l1 verilated --l1-waves "$work/l1d.fst" --quiet --no-progress
"$root/scripts/waves.sh" file l1d_top "$work/l1d.fst"

"$gpusim" --preset gtx480 --workload bfs --scale test --l1 lockstep --lockstep-waves "$work/lockstep" --quiet --no-progress
# An SM whose L1 ran more than one rotation (an idle SM's L1 is not clocked, so not every SM has).
prev=$(ls "$work"/lockstep/l1d_sm*.prev.fst 2>/dev/null | head -1)
[ -n "$prev" ] || { echo "l1_waves_test: no SM's waves were rotated (no $work/lockstep/l1d_sm*.prev.fst)"; exit 1; }
for f in "$prev" "${prev%.prev.fst}.fst"; do
  "$root/scripts/waves.sh" file l1d_top "$f"
done
echo "l1_waves_test: ok"
