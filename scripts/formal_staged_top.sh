#!/usr/bin/env bash
# Bounded model checking of the staged l1d_top as a whole (issue 25; docs/rtl-verification.md,
# "The staged l1d_top as a whole"): every assertion of dcgen's RTL of tb/configs/gate_small_staged.yaml
# (the staged pipe's Staged*_A, l1d_top's Top*_A and its blocks' Mshr*, Mq*, Issue*, Fill*, Flush*,
# Repl*, Agcb*, Age*) for DEPTH cycles from reset, in the environment of formal/l1d_top_staged_fv.sv.
#
#   scripts/formal_staged_top.sh DCGEN [DEPTH]     (default DEPTH 6)
#   FV_TOP_LOG=FILE ...                            keep Yosys' log
#
# Yosys 0.23: read_verilog -sv -formal (FORMAL defined: the verification regions are in), prep
# -flatten, memory_map, async2sync; the three input contracts about the inputs the harness leaves
# free (TopCfgStable_A, TopMemRespMshrInRange_A, MshrRespPending_A) become assumptions (chformal
# -assert2assume); then `sat -seq DEPTH -prove-asserts -set-assumes` (MiniSat), flops without reset
# (the SRAM models' words, payload registers) starting undefined, as formal.sh's harnesses do.
# Prints PASS with the depth and the assertion count, or FAIL with the counterexample's tail.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n '2,15p' "$0" >&2; exit 2; }
dcgen=$1 depth=${2:-6}
[[ "$depth" =~ ^[1-9][0-9]*$ ]] || { echo "formal_staged_top: DEPTH '$depth' is not a positive integer" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$dcgen" --config "$root/tb/configs/gate_small_staged.yaml" --out "$tmp/rtl" >/dev/null \
  || { echo "formal_staged_top: dcgen failed"; exit 1; }
log=${FV_TOP_LOG:-$tmp/yosys.log}
contracts="n:*TopCfgStable_A n:*TopMemRespMshrInRange_A %u n:*MshrRespPending_A %u"
files=$(ls "$tmp"/rtl/*_pkg.sv 2>/dev/null; ls "$tmp"/rtl/*.sv | grep -v '_pkg\.sv$')
script="read_verilog -sv -formal $(echo $files) $root/formal/l1d_top_staged_fv.sv"
script+="; prep -flatten -top l1d_top_staged_fv; memory_map; opt -fast; async2sync"
script+="; select -assert-count 3 t:\$assert $contracts %i; chformal -assert2assume t:\$assert $contracts %i"
script+="; select -list t:\$assert; select -count t:\$assert; stat"
# FV_TOP_PREP=FILE: write the prepared design there (RTLIL) before the run, for reruns at other depths.
[ -z "${FV_TOP_PREP:-}" ] || script+="; write_rtlil $FV_TOP_PREP"
script+="; sat -seq $depth -prove-asserts -set-assumes -set-init-undef -enable_undef -set-def-inputs"
start=$(date +%s)
yosys -p "$script" >"$log" 2>&1
n=$(grep -oE '[0-9]+ objects' "$log" | tail -1 | grep -oE '[0-9]+')
if grep -q "SAT proof finished - no model found: SUCCESS" "$log"; then
  echo "formal_staged_top: PASS: ${n:-?} assertions hold for $depth cycles from reset ($(( $(date +%s) - start )) s wall)"
  exit 0
fi
grep -E "^ERROR|failed|FAIL" "$log" | head -5
tail -60 "$log" | grep -E "\\\\.*_A|assert|Time|-------" | head -40
echo "formal_staged_top: FAIL at depth $depth (counterexample or error; FV_TOP_LOG=FILE keeps the log)"
exit 1
