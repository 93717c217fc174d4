#!/usr/bin/env bash
# Synthesis and timing of one block (run by synth/synth.sh, several in parallel).
#
#   block.sh RTL_DIR TOP LIBDIR OUTDIR [CONST_INPUTS]
#
# CONST_INPUTS: "port=value,port=value" (decimal), inputs of TOP tied to constants
# (SYN_CONST_INPUTS of synth/yosys_map.tcl; the policy-overhead row's baseline).
#
# LIBDIR is what synth.sh prepared for the library: marked.lib, lib.env, abc.constr.
# Yosys (synth/yosys_map.tcl) maps TOP inside its register wrapper, OpenSTA (synth/sta_block.tcl)
# times the register-to-register paths. OUTDIR gets the logs, netlist, stat.json/stat.txt,
# sta.json, timing.rpt and status.json ({"status": "ok"|"fail", "error", "yosys_s", "sta_s"}),
# which synth/report.py reads. A black box of SYN_BLACKBOX (the data SRAM) is not synthesized:
# only its storage is measured (macros.json). Exit 1 when a tool fails or its output is missing.
#
# Hierarchical blocks (l1d_top; synth/synth.sh): SYN_STAGE=yosys runs Yosys only (status
# "synthesized"): on the glue, the sub-blocks (SYN_SUBBLOCKS) black boxes, and on each sub-block
# in context (SYN_CONTEXT, see yosys_map.tcl); then SYN_STAGE=sta times the glue's netlist
# together with the sub-blocks' (SYN_SUB_NETLISTS, paths; the SRAM macros of each sub-block netlist
# are timed too, from the sram_sta.tcl beside it). SYN_PARAMS: the parameters of a sub-block's
# instance ("name=value ...", synth/hier.sh).
set -uo pipefail
# Debian's interpreter when present: a version manager's python3 shim first on PATH (pyenv's)
# costs ~0.9 CPU-s a start against ~0.07 (docs/performance.md, seventh round).
export PYTHON3="${PYTHON3:-$(command -v /usr/bin/python3 || command -v python3)}"

if [ $# -ne 4 ] && [ $# -ne 5 ]; then
  echo "usage: $0 RTL_DIR TOP LIBDIR OUTDIR [PORT=VALUE,...]" >&2
  exit 2
fi
rtl=$1 top=$2 libdir=$3 out=$4 const_inputs=${5:-}
tools=$(cd "$(dirname "$0")" && pwd)
yosys=${YOSYS:-yosys}
sta=${STA:-sta}
# shellcheck source=/dev/null
. "$libdir/lib.env"

stage=${SYN_STAGE:-all}
case $stage in all | yosys | sta) ;; *) echo "$0: SYN_STAGE must be all, yosys or sta" >&2; exit 2 ;; esac
if [ "$stage" != sta ]; then
  rm -rf "$out"
  mkdir -p "$out"
fi

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
status() {  # status ok|fail ERROR YOSYS_S STA_S (wall seconds; CPU seconds from the *.cpu files)
  "$PYTHON3" -c 'import json,sys
def cpu(path):
    try:
        return round(sum(float(x) for x in open(path).read().split()), 2)
    except (OSError, ValueError):
        return None
print(json.dumps({"status": sys.argv[1], "error": sys.argv[2],
    "yosys_s": round(float(sys.argv[3]), 2), "sta_s": round(float(sys.argv[4]), 2),
    "yosys_cpu_s": cpu(sys.argv[5] + "/yosys.cpu"), "sta_cpu_s": cpu(sys.argv[5] + "/sta.cpu")}))' \
    "$@" "$out" >"$out/status.json"
}
fail() {  # fail MESSAGE YOSYS_S STA_S
  status fail "$1" "$2" "$3"
  echo "synth: FAIL $top: $1" >&2
  exit 1
}
# Each tool runs under bash's `time` (user and system CPU seconds into <tool>.cpu) besides the
# wall clock: on a shared machine the wall time says little.

run_yosys() {
  local t0 rc msg
  t0=$(now)
  SYN_RTL_DIR=$rtl SYN_TOP=$top SYN_LIBERTY=$libdir/marked.lib SYN_CONSTR=$libdir/abc.constr \
    SYN_OUT=$out SYN_TOOLS=$tools SYN_TIEHI=$LIB_TIEHI SYN_TIELO=$LIB_TIELO \
    SYN_BLACKBOX=${SYN_BLACKBOX:-} SYN_ABC_ARGS=${SYN_ABC_ARGS:-} SYN_CONST_INPUTS=${const_inputs//,/ } \
    SYN_SUBBLOCKS=${SYN_SUBBLOCKS:-} SYN_CONTEXT=${SYN_CONTEXT:-} SYN_PARAMS=${SYN_PARAMS:-} \
    SYN_SRAM_KIND=${LIB_SRAM_KIND:-} SYN_SRAM_MACROS=$libdir/macros \
    SYN_SRAM_DENSITY=${LIB_SRAM_UM2_PER_BIT:-} SYN_FO4_NS=${LIB_FO4_NS:-} \
    bash -c 'TIMEFORMAT="%U %S"; time "$0" -q -l "$1" -c "$2" >/dev/null 2>"$3"' \
    "$yosys" "$out/yosys.log" "$tools/yosys_map.tcl" "$out/yosys.err" 2>"$out/yosys.cpu"
  rc=$?
  ys=$(elapsed "$t0" "$(now)")
  if [ $rc -ne 0 ]; then
    msg=$(grep -h -m3 'ERROR' "$out/yosys.log" || grep -h -m3 -i 'error' "$out/yosys.err")
    msg=$(tr '\n' ' ' <<<"$msg")
    fail "Yosys: ${msg:-exit $rc} (log: $out/yosys.log)" "$ys" 0
  fi
}

if [ "$stage" = sta ]; then
  ys=$(cat "$out/yosys.wall" 2>/dev/null) || fail "SYN_STAGE=sta before the Yosys stage" 0 0
else
  run_yosys
  case " ${SYN_BLACKBOX:-} " in
    *" $top "*)
      [ -s "$out/macros.json" ] || fail "no storage measured for black box $top" "$ys" 0
      status ok "" "$ys" 0
      exit 0
      ;;
  esac
  for f in netlist.v stat.json stat.txt; do
    [ -s "$out/$f" ] || fail "Yosys wrote no $f" "$ys" 0
  done
  echo "$ys" >"$out/yosys.wall"
  if [ "$stage" = yosys ]; then  # timed later (a glue) or as part of a hierarchical block
    status synthesized "" "$ys" 0
    exit 0
  fi
fi

netlists=$out/netlist.v
srams=$([ -s "$out/sram_sta.tcl" ] && echo "$out/sram_sta.tcl")
for f in ${SYN_SUB_NETLISTS:-}; do
  [ -s "$f" ] || fail "no sub-block netlist $f" "$ys" 0
  netlists="$netlists $f"
  # A sub-block's SRAM macros (the staged l1d_top's tag and data arrays sit in sub-blocks).
  [ -s "$(dirname "$f")/sram_sta.tcl" ] && srams="$srams $(dirname "$f")/sram_sta.tcl"
done

t1=$(now)
STA_LIBERTY=$libdir/marked.lib STA_NETLIST=$netlists STA_TOP=${top}_synwrap \
  STA_DRIVER=$LIB_BUF STA_LOAD=$LIB_LOAD STA_PERIOD=${SYN_PERIOD_NS:-100} \
  STA_REPORT=$out/timing.rpt STA_OUT=$out/sta.json SYN_TOOLS=$tools \
  STA_SRAM=${srams# } STA_PER_INSTANCE=$([ -n "${SYN_SUB_NETLISTS:-}" ] && echo 1 || echo 0) \
  bash -c 'TIMEFORMAT="%U %S"; time "$0" -no_init -no_splash -exit "$1" >"$2" 2>&1' \
  "$sta" "$tools/sta_block.tcl" "$out/sta.log" 2>"$out/sta.cpu"
t2=$(now)
ss=$(elapsed "$t1" "$t2")
# OpenSTA exits 0 whatever happened (synth/sta_common.tcl): judge by its result and its log.
if [ ! -s "$out/sta.json" ] || grep -q '^Error' "$out/sta.log"; then
  msg=$(grep -E '^(Error|sta:)' "$out/sta.log" | head -3 | tr '\n' ' ')
  fail "OpenSTA: ${msg:-no result} (log: $out/sta.log)" "$ys" "$ss"
fi
status ok "" "$ys" "$ss"
