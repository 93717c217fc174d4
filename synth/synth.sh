#!/usr/bin/env bash
# make synth: area and timing of every block of an RTL directory with Yosys 0.23 and OpenSTA
# 2.0.17 (docs/synthesis.md).
#
#   synth.sh [--lib osu018|sky130|sg13g2 | --liberty FILE] [--rtl DIR] [--out DIR] [--jobs N]
#            [--blocks "m1 m2 ..."] [--baseline-rtl DIR [--baseline-const PORT=VALUE,...]]
#            [--variant NAME=DIR[:PORT=VALUE,...]]... [--hier-params 1]
#
# --baseline-rtl DIR: a complete RTL directory for the baseline controller's l1d_top; with it, and
# when the RTL directory holds l1d_top, the report gets the policy-overhead row: RTL_DIR/l1d_top
# (every policy) against DIR/l1d_top. --baseline-const ties inputs of that l1d_top to constants
# (decimal), so that Yosys removes what they leave unreachable: make synth passes the RTL
# directory itself with the configuration inputs at the baseline policy (docs/synthesis.md).
# --variant: one more l1d_top, from DIR with those inputs tied, reported as NAME (the area of one
# policy's hardware: synth/policies.sh).
# --hier-params 1: a hierarchical block's instances with parameter overrides are sub-blocks too,
# each synthesized with its instance's parameters (make synth-staged: the staged l1d_top's
# l1d_tag_read, l1d_issue, l1d_miss_queue, l1d_perf_counters); without it they are flattened into
# the glue.
#
# Environment: PDK_DIR (sky130 and sg13g2; default ../shared/pdk beside the repository),
# SRAM_DIR (the SRAM macros' .lib.gz for sky130 and sg13g2; default PDK_DIR/sram),
# SRAM_UM2_PER_BIT (data SRAM density, needed with --liberty), SYN_BLACKBOX (modules kept as
# black boxes; default l1d_data_sram and l1d_ram_1r1w, the SRAM models), YOSYS, STA.
#
# Steps: synth/library.sh (the library and its FO4), synth/block.sh for every module file of the
# RTL directory (packages excluded: new blocks and l1d_top are picked up as their files appear),
# JOBS at a time, then synth/report.py. Output: OUT/<library>/ (everything, report.md and
# report.json of this run) and OUT/report.md, OUT/report.json (the reports of every library run
# into OUT, this one first). Exit 1 if anything failed.
set -uo pipefail
# Debian's interpreter when present: a version manager's python3 shim first on PATH (pyenv's)
# costs ~0.9 CPU-s a start against ~0.07 (docs/performance.md, seventh round).
export PYTHON3="${PYTHON3:-$(command -v /usr/bin/python3 || command -v python3)}"

root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/synth
lib=osu018 rtl=$root/rtl out=$root/build/synth jobs=$(nproc) blocks="" baseline="" baseline_const=""
hier_params=0
variants=()

usage() {
  sed -n '2,20p' "$0" >&2
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
    --variant) variants+=("$2") ;;
    --hier-params) hier_params=$2 ;;
    *) usage ;;
  esac
  shift 2
done

die() {
  echo "synth: $*" >&2
  exit 1
}
for t in "${YOSYS:-yosys}" "${STA:-sta}" "$PYTHON3"; do
  command -v "$t" >/dev/null || die "$t not found (scripts/setup-deps.sh installs the tools)"
done
[ -d "$rtl" ] || die "no RTL directory $rtl"
if [ -n "$baseline" ]; then
  [ -f "$baseline/l1d_top.sv" ] || die "--baseline-rtl $baseline: no l1d_top.sv there"
  baseline=$(cd "$baseline" && pwd)
fi
if [ -n "$baseline_const" ]; then
  [ -n "$baseline" ] || die "--baseline-const without --baseline-rtl"
fi
check_const() {  # check_const OPTION P=V,...
  local c
  for c in ${2//,/ }; do
    [[ $c =~ ^[A-Za-z_][A-Za-z0-9_]*=[0-9]+$ ]] || die "$1: '$c' is not PORT=DECIMAL"
  done
}
[ -z "$baseline_const" ] || check_const --baseline-const "$baseline_const"
for v in "${variants[@]}"; do
  [[ $v =~ ^([A-Za-z0-9_.-]+)=([^:]+)(:(.*))?$ ]] || die "--variant '$v' is not NAME=DIR[:PORT=VALUE,...]"
  [ -f "${BASH_REMATCH[2]}/l1d_top.sv" ] || die "--variant $v: no l1d_top.sv in ${BASH_REMATCH[2]}"
  check_const --variant "${BASH_REMATCH[4]}"
done
rtl=$(cd "$rtl" && pwd)
mkdir -p "$out" && out=$(cd "$out" && pwd) || die "cannot create $out"
case $jobs in '' | *[!0-9]* | 0) die "--jobs wants a positive number, not '$jobs'" ;; esac
case $hier_params in 0 | 1) ;; *) die "--hier-params wants 0 or 1, not '$hier_params'" ;; esac
start=$(date +%s.%N)

tmplib=$(mktemp -d)
trap 'rm -rf "$tmplib"' EXIT
"$tools/library.sh" "$lib" "$tmplib" || exit 1
# shellcheck source=/dev/null
. "$tmplib/lib.env"
run=$out/$LIB_ID
libdir=$run/lib
# The last run's Yosys CPU seconds per block order the jobs (longest first), else
# synth/job_hints.txt.
last=$("$PYTHON3" -c 'import json,sys
try:
    rep = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    sys.exit(0)
for r in rep.get("blocks", []):
    print(r["block"], r.get("yosys_cpu_s") or 0)' "$run/report.json")
[ -n "$last" ] || last=$(grep -v '^#' "$tools/job_hints.txt")
rm -rf "$run"
mkdir -p "$run/blocks"
mv "$tmplib" "$libdir"
trap - EXIT

# --- the blocks: every module file of the RTL directory, largest first (better packing) ---
if [ -z "$blocks" ]; then
  # Longest first: by the last run's time or the hints, else by file size (bytes as milliseconds).
  blocks=$(for f in "$rtl"/*.sv; do
    [ -e "$f" ] || continue
    b=$(basename "$f" .sv)
    case $b in *_pkg) continue ;; esac
    t=$(awk -v b="$b" '$1 == b { print $2 }' <<<"$last")
    printf '%s %s\n' "${t:-$(awk -v n="$(wc -c <"$f")" 'BEGIN { print n / 1000 }')}" "$b"
  done | sort -rg | awk '{print $2}')
fi
[ -n "$blocks" ] || die "no modules in $rtl"
export SYN_BLACKBOX=${SYN_BLACKBOX-l1d_data_sram l1d_ram_1r1w}
export SYN_CONTEXT_CACHE=$run/context-cache  # sub-blocks in context, shared (synth/hier.sh)

# --- hierarchical blocks: a block whose RTL instantiates other blocks of the RTL directory
# (without parameter overrides; l1d_top) is synthesized as its glue, the sub-blocks black boxes,
# then each sub-block in the context of its instances (synth/context.py), then timed whole ---
sub_blocks() {  # sub_blocks DIR TOP: the blocks of DIR that TOP instantiates
  local f b params=""
  # (the SRAM primitives are never sub-blocks: every block maps its own onto macros)
  [ "$hier_params" = 1 ] && params="|#"
  for f in "$1"/*.sv; do
    b=$(basename "$f" .sv)
    case $b in "$2" | *_pkg | l1d_sram_1rw | l1d_sram_1r1w) continue ;; esac
    case " $SYN_BLACKBOX " in *" $b "*) continue ;; esac
    if grep -qE "^[[:space:]]*$b[[:space:]]+([A-Za-z_][A-Za-z0-9_]*[[:space:]]*\($params)" "$1/$2.sv"; then
      printf '%s ' "$b"
    fi
  done
}

# --- the jobs, as a makefile (jobs.mk) run with make -j: a hierarchical block's sub-blocks wait
# for its glue (their context) and its timing waits for them ---
mk=$run/jobs.mk
all="" glues="" leaves="" note=""
# hier DIR TOP OUT [CONST]: the rules of one hierarchical block: its glue (OUT/glue.done), then
# synth/hier.sh (sub-blocks in context, timing: OUT/timed.done) after this run's standalone
# synthesis of its sub-blocks (which hier.sh reuses where the RTL is the same).
hier() {
  local dir=$1 top=$2 bout=$3 const=${4:-} subs b deps=""
  subs=$(sub_blocks "$dir" "$top")
  # longest first, as the blocks are ordered
  subs=$(for b in $blocks; do case " $subs " in *" $b "*) printf '%s ' "$b" ;; esac; done
    for b in $subs; do grep -qx "$b" <<<"$(printf '%s\n' $blocks)" || printf '%s ' "$b"; done)
  for b in $subs; do
    grep -qx "$b" <<<"$(printf '%s\n' $blocks)" && deps="$deps $run/blocks/$b/status.json"
  done
  {
    echo "$bout/glue.done:"
    echo "	SYN_STAGE=yosys SYN_SUBBLOCKS='$subs' $tools/block.sh $dir $top $libdir $bout $const && touch \$@"
    echo "$bout/timed.done: $bout/glue.done$deps"
    echo "	$tools/hier.sh $dir $top $libdir $bout $rtl $run/blocks $subs && touch \$@"
  } >>"$mk"
  glues="$glues $bout/glue.done"
  all="$all $bout/timed.done"
}
: >"$mk"
mkdir -p "$run/baseline"
# The policy-overhead row: l1d_top with every policy against the baseline LRU controller (the
# two longest runs go first).
if ! grep -qx l1d_top <<<"$(printf '%s\n' $blocks)"; then
  note="no l1d_top in this run (no $rtl/l1d_top.sv, or --blocks without it)"
elif [ -z "$baseline" ]; then
  note="no baseline-only l1d_top given (synth.sh --baseline-rtl DIR; make synth BASELINE_RTL=DIR)"
else
  hier "$baseline" l1d_top "$run/baseline/l1d_top" "$baseline_const"
fi
for v in "${variants[@]}"; do
  [[ $v =~ ^([A-Za-z0-9_.-]+)=([^:]+)(:(.*))?$ ]]
  vdir=$(cd "${BASH_REMATCH[2]}" && pwd)
  mkdir -p "$run/variants/${BASH_REMATCH[1]}"
  printf '%s\n%s\n' "$vdir" "${BASH_REMATCH[4]}" >"$run/variants/${BASH_REMATCH[1]}/variant.txt"
  hier "$vdir" l1d_top "$run/variants/${BASH_REMATCH[1]}/l1d_top" "${BASH_REMATCH[4]}"
done
for b in $blocks; do
  [ -f "$rtl/$b.sv" ] || die "no $rtl/$b.sv"
  if [ -n "$(sub_blocks "$rtl" "$b")" ]; then
    hier "$rtl" "$b" "$run/blocks/$b"
  else
    echo "$run/blocks/$b/status.json:" >>"$mk"
    echo "	$tools/block.sh $rtl $b $libdir $run/blocks/$b" >>"$mk"
    leaves="$leaves $run/blocks/$b/status.json"
  fi
done
printf '%s\n' "$note" >"$run/overhead_note.txt"
# make starts the prerequisites of `all` in this order: the longest block (the tag array, which
# l1d_top's sub-block passes wait for) beside the first glue, then the other glue (the glues are
# the longest runs), the blocks, and the hierarchical blocks' passes as their inputs are ready.
first=$(awk '{ print $1 }' <<<"$leaves")
printf 'all: %s%s%s%s\n.PHONY: all\n' "$first" "$glues" "$leaves" "$all" >"$run/jobs.head"
cat "$run/jobs.head" "$mk" >"$mk.tmp" && mv "$mk.tmp" "$mk" && rm "$run/jobs.head"

echo "synth: $(wc -w <<<"$blocks") blocks$([ -n "$note" ] || echo ", the baseline l1d_top")$([ ${#variants[@]} -eq 0 ] || echo ", ${#variants[@]} variants"), $jobs jobs at a time, in $run"
# A failing block prints its error and is marked in the report; the others go on (make -k).
make -s -k -j "$jobs" -f "$mk" all 2> >(grep -v "^make: \*\*\*" >&2)
end=$(date +%s.%N)

"$PYTHON3" "$tools/report.py" --run "$run" --lib "$LIB_ID" --density "$LIB_SRAM_UM2_PER_BIT" \
  --wall "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" --jobs "$jobs" \
  --baseline-rtl "$baseline" --baseline-const "$baseline_const"
rc=$?
"$PYTHON3" "$tools/report.py" --combine "$out" || rc=1
echo "synth: report in $run/report.md; $out/report.md has every library run so far"
exit $rc
