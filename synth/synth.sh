#!/usr/bin/env bash
# make synth: area and timing of every block of an RTL directory with Yosys 0.23 and OpenSTA
# 2.0.17 (docs/synthesis.md).
#
#   synth.sh [--lib osu018|sky130|sg13g2 | --liberty FILE] [--rtl DIR] [--out DIR] [--jobs N]
#            [--blocks "m1 m2 ..."] [--baseline-rtl DIR [--baseline-const PORT=VALUE,...]]
#
# --baseline-rtl DIR: a complete RTL directory for the baseline controller's l1d_top; with it, and
# when the RTL directory holds l1d_top, the report gets the policy-overhead row: RTL_DIR/l1d_top
# (every policy) against DIR/l1d_top. --baseline-const ties inputs of that l1d_top to constants
# (decimal), so that Yosys removes what they leave unreachable: make synth passes the RTL
# directory itself with the configuration inputs at the baseline policy (docs/synthesis.md).
#
# Environment: PDK_DIR (sky130 and sg13g2; default ../shared/pdk beside the repository),
# SRAM_UM2_PER_BIT (data SRAM density, needed with --liberty), SYN_BLACKBOX (modules kept as
# black boxes; default l1d_data_sram), YOSYS, STA.
#
# Steps: synth/library.sh (the library and its FO4), synth/block.sh for every module file of the
# RTL directory (packages excluded: new blocks and l1d_top are picked up as their files appear),
# JOBS at a time, then synth/report.py. Output: OUT/<library>/ (everything, report.md and
# report.json of this run) and OUT/report.md, OUT/report.json (the reports of every library run
# into OUT, this one first). Exit 1 if anything failed.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/synth
lib=osu018 rtl=$root/rtl out=$root/build/synth jobs=$(nproc) blocks="" baseline="" baseline_const=""

usage() {
  sed -n '2,22p' "$0" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case $1 in
    --lib | --liberty) lib=$2 ;;
    --rtl) rtl=$2 ;;
    --out) out=$2 ;;
    --jobs) jobs=$2 ;;
    --blocks) blocks=$2 ;;
    --baseline-rtl) baseline=$2 ;;
    --baseline-const) baseline_const=$2 ;;
    *) usage ;;
  esac
  shift 2
done

die() {
  echo "synth: $*" >&2
  exit 1
}
for t in "${YOSYS:-yosys}" "${STA:-sta}" python3; do
  command -v "$t" >/dev/null || die "$t not found (scripts/setup-deps.sh installs the tools)"
done
[ -d "$rtl" ] || die "no RTL directory $rtl"
if [ -n "$baseline" ]; then
  [ -f "$baseline/l1d_top.sv" ] || die "--baseline-rtl $baseline: no l1d_top.sv there"
  baseline=$(cd "$baseline" && pwd)
fi
if [ -n "$baseline_const" ]; then
  [ -n "$baseline" ] || die "--baseline-const without --baseline-rtl"
  for c in ${baseline_const//,/ }; do
    [[ $c =~ ^[A-Za-z_][A-Za-z0-9_]*=[0-9]+$ ]] || die "--baseline-const: '$c' is not PORT=DECIMAL"
  done
fi
rtl=$(cd "$rtl" && pwd)
mkdir -p "$out" && out=$(cd "$out" && pwd) || die "cannot create $out"
case $jobs in '' | *[!0-9]* | 0) die "--jobs wants a positive number, not '$jobs'" ;; esac
start=$(date +%s.%N)

tmplib=$(mktemp -d)
trap 'rm -rf "$tmplib"' EXIT
"$tools/library.sh" "$lib" "$tmplib" || exit 1
# shellcheck source=/dev/null
. "$tmplib/lib.env"
run=$out/$LIB_ID
libdir=$run/lib
rm -rf "$run"
mkdir -p "$run/blocks"
mv "$tmplib" "$libdir"
trap - EXIT

# --- the blocks: every module file of the RTL directory, largest first (better packing) ---
if [ -z "$blocks" ]; then
  blocks=$(for f in "$rtl"/*.sv; do
    [ -e "$f" ] || continue
    case $f in *_pkg.sv) ;; *) printf '%s %s\n' "$(wc -c <"$f")" "$(basename "$f" .sv)" ;; esac
  done | sort -rn | awk '{print $2}')
fi
[ -n "$blocks" ] || die "no modules in $rtl"
export SYN_BLACKBOX=${SYN_BLACKBOX-l1d_data_sram}

# --- the policy-overhead row: l1d_top with every policy against the baseline LRU controller ---
# (the baseline build goes first: it and l1d_top are the two longest runs)
jobsfile=$run/jobs.txt
: >"$jobsfile"
note=""
if ! grep -qx l1d_top <<<"$(printf '%s\n' $blocks)"; then
  note="no l1d_top in this run (no $rtl/l1d_top.sv, or --blocks without it)"
elif [ -z "$baseline" ]; then
  note="no baseline-only l1d_top given (synth.sh --baseline-rtl DIR; make synth BASELINE_RTL=DIR)"
else
  echo "$baseline l1d_top $libdir $run/baseline/l1d_top $baseline_const" >>"$jobsfile"
fi
for b in $blocks; do
  [ -f "$rtl/$b.sv" ] || die "no $rtl/$b.sv"
  echo "$rtl $b $libdir $run/blocks/$b" >>"$jobsfile"
done
printf '%s\n' "$note" >"$run/overhead_note.txt"

echo "synth: $(wc -l <"$jobsfile") synthesis runs, $jobs at a time, in $run"
if grep -q ' l1d_top ' "$jobsfile"; then
  # Measured 2026-11-22 on osu018: Yosys 62 CPU minutes (ABC 55 of them on its 250 000 gates).
  echo "synth: l1d_top (and its baseline) take about an hour each (docs/synthesis.md);" \
    "BLOCKS=\"...\" without l1d_top gives every other block in about 90 s"
fi
# Each line holds block.sh's arguments (paths without blanks). A failing block prints its error
# and is marked in the report; the others go on.
xargs -P "$jobs" -L 1 "$tools/block.sh" <"$jobsfile"
end=$(date +%s.%N)

python3 "$tools/report.py" --run "$run" --lib "$LIB_ID" --density "$LIB_SRAM_UM2_PER_BIT" \
  --wall "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" --jobs "$jobs" \
  --baseline-rtl "$baseline" --baseline-const "$baseline_const"
rc=$?
python3 "$tools/report.py" --combine "$out" || rc=1
echo "synth: report in $run/report.md; $out/report.md has every library run so far"
exit $rc
