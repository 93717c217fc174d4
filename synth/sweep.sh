#!/usr/bin/env bash
# make synth-sweep: area and fmax of the blocks against AGCB table entries, ways and chunk-tag
# width, one parameter at a time around gtx480 (docs/synthesis.md).
#
#   sweep.sh --dcgen PATH [--lib osu018|sky130|sg13g2 | --liberty FILE] [--out DIR] [--jobs N]
#
# For every point synth/sweep.py derives a configuration from configs/gtx480.yaml and dcgen
# emits it; the blocks whose RTL differs from the base point's for some value of a parameter are
# synthesized at every value of that parameter (synth/block.sh, JOBS at a time). Only blocks that
# make synth covers are swept (a module file in SWEEP_RTL, default rtl/); SWEEP_SKIP and the
# black boxes (SYN_BLACKBOX) are left out. SWEEP_SKIP defaults to l1d_top and the two flop
# arrays l1d_mshr and l1d_tag_array, minutes of synthesis per point each (docs/synthesis.md).
# Output: OUT/<library>/sweep.csv and sweep.png (gnuplot), everything else beside them. Exit 1
# if anything failed.
set -uo pipefail
# Debian's interpreter when present: a version manager's python3 shim first on PATH (pyenv's)
# costs ~0.9 CPU-s a start against ~0.07 (docs/performance.md, seventh round).
export PYTHON3="${PYTHON3:-$(command -v /usr/bin/python3 || command -v python3)}"

root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/synth
lib=osu018 out=$root/build/synth-sweep jobs=$(nproc) dcgen=""

usage() {
  sed -n '2,14p' "$0" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case $1 in
    --lib | --liberty) lib=$2 ;;
    --out) out=$2 ;;
    --jobs) jobs=$2 ;;
    --dcgen) dcgen=$2 ;;
    *) usage ;;
  esac
  shift 2
done
die() {
  echo "sweep: $*" >&2
  exit 1
}
[ -x "$dcgen" ] || die "--dcgen must name the built dcgen"
command -v gnuplot >/dev/null || die "gnuplot not found (scripts/setup-deps.sh installs gnuplot-nox)"
case $jobs in '' | *[!0-9]* | 0) die "--jobs wants a positive number, not '$jobs'" ;; esac
start=$(date +%s)

tmplib=$(mktemp -d)
trap 'rm -rf "$tmplib"' EXIT
"$tools/library.sh" "$lib" "$tmplib" || exit 1
# shellcheck source=/dev/null
. "$tmplib/lib.env"
run=$out/$LIB_ID
rm -rf "$run"
mkdir -p "$run/points"
mv "$tmplib" "$run/lib"
trap - EXIT
export SYN_BLACKBOX=${SYN_BLACKBOX-l1d_data_sram l1d_ram_1r1w}
skip=" ${SWEEP_SKIP-l1d_top l1d_mshr l1d_tag_array} $SYN_BLACKBOX "

"$PYTHON3" "$tools/sweep.py" configs "$root/configs/gtx480.yaml" "$run/configs" >"$run/points.txt" ||
  die "cannot derive the sweep configurations"
while read -r point _ _; do
  "$dcgen" --config "$run/configs/$point.yaml" --out "$run/points/$point/rtl" >/dev/null ||
    die "dcgen failed on $run/configs/$point.yaml"
done <"$run/points.txt"

# The blocks each parameter changes, then one job per (point, block).
jobsfile=$run/jobs.txt
: >"$jobsfile"
declare -A base_blocks=()
for param in $(awk 'NR > 1 { print $2 }' "$run/points.txt" | sort -u); do
  points=$(awk -v p="$param" '$2 == p { print $1 }' "$run/points.txt")
  changed=$(for point in $points; do
    "$PYTHON3" "$tools/sweep.py" changed "$run/points/base/rtl" "$run/points/$point/rtl"
  done | sort -u)
  for b in $changed; do
    case $skip in *" $b "*) continue ;; esac
    [ -f "${SWEEP_RTL:-$root/rtl}/$b.sv" ] || continue
    base_blocks[$b]=1
    for point in $points; do
      echo "$run/points/$point/rtl $b $run/lib $run/points/$point/blocks/$b" >>"$jobsfile"
    done
  done
done
for b in "${!base_blocks[@]}"; do
  echo "$run/points/base/rtl $b $run/lib $run/points/base/blocks/$b" >>"$jobsfile"
done
[ -s "$jobsfile" ] || die "no block depends on the swept parameters"
# Largest RTL first, for better packing of the parallel jobs.
while read -r dir b rest; do
  echo "$(wc -c <"$dir/$b.sv") $dir $b $rest"
done <"$jobsfile" | sort -rn | cut -d' ' -f2- >"$jobsfile.sorted"
echo "sweep: $(wc -l <"$jobsfile") synthesis runs over $(wc -l <"$run/points.txt") points, $jobs at a time, in $run"
xargs -P "$jobs" -L 1 "$tools/block.sh" <"$jobsfile.sorted"

"$PYTHON3" "$tools/sweep.py" report "$run"
rc=$?
echo "sweep: $(($(date +%s) - start)) s"
exit $rc
