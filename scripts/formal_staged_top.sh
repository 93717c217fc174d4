#!/usr/bin/env bash
# Bounded model checking of the staged l1d_top as a whole (issue 25; docs/rtl-verification.md,
# "The staged l1d_top as a whole"): the assertions of dcgen's RTL of tb/configs/gate_small_staged.yaml
# (the staged pipe's Staged*_A, l1d_top's Top*_A and its blocks' Mshr*, Mq*, Issue*, Fill*, Flush*,
# Repl*, Agcb*) for DEPTH cycles from reset, in the environment of formal/l1d_top_staged_fv.sv.
#
#   scripts/formal_staged_top.sh DCGEN [DEPTH] [PART]     (default DEPTH 14, PART control)
#     PART control: every assertion except the two that compare whole payloads (below)
#     PART held:    only TopMemReqHeld_A and MqHeldUntilReady_A (the memory request, data included,
#                   held while it waits for ready)
#   FV_TOP_MUTANT=NAME ...   apply mutant NAME of tb/mutants/l1d_top_staged.txt (always on) and keep
#                            only the assertion that file names for it (PART is ignored); exit 0
#                            only if that assertion fails within DEPTH cycles
#   FV_TOP_LOG=FILE ...      keep Yosys' log
#   FV_TOP_CONFIG=onmiss ... the staged top generated for allocation on_miss instead
#                            (formal/fv_top_staged_onmiss.yaml: gate_small_staged's geometry, on_miss,
#                            write_evict; the harness's OnMiss 1 drives cfg_alloc_i 1, cfg_write_i 2):
#                            its reservation assertions (Staged*Reserv*_A) beside the others; FV_TOP_MUTANT
#                            then names a mutant of tb/mutants/l1d_top_staged_onmiss.txt
#
# Why two parts: no control assertion reads a data bit, but the two payload assertions read the
# miss queue's 1 481-bit entries, so they pull every data path into the problem. With them removed,
# bit-level cone-of-influence reduction (techmap to single-bit cells, then opt_clean) drops the data
# array, the request and response data and the payload bits (about 10 000 of 57 900 flop bits stay).
# Yosys 0.23: read_verilog -sv -formal, prep -flatten; the three
# input contracts about inputs the harness leaves free (TopCfgStable_A, TopMemRespMshrInRange_A,
# MshrRespPending_A) become assumptions (chformal -assert2assume); memory_map, opt -fast,
# async2sync; then `sat -seq DEPTH
# -prove-asserts -set-assumes` (MiniSat). Flops without a reset (SRAM words, payload registers) start
# at free values, any value a real chip may power up with (no X modelling: the first attempt with
# -enable_undef did not fit in 12 GB at depth 3).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n '2,19p' "$0" >&2; exit 2; }
dcgen=$1 depth=${2:-14} part=${3:-control}
[[ "$depth" =~ ^[1-9][0-9]*$ ]] || { echo "formal_staged_top: DEPTH '$depth' is not a positive integer" >&2; exit 2; }
held="n:*TopMemReqHeld_A n:*MqHeldUntilReady_A %u"
case "$part" in
  control) keep="delete t:\$assert $held %i" ;;
  held) keep="delete t:\$assert $held %d" ;;
  *) echo "formal_staged_top: PART '$part' is not one of: control, held" >&2; exit 2 ;;
esac
case "${FV_TOP_CONFIG:-staged}" in
  staged) config=$root/tb/configs/gate_small_staged.yaml mutants=$root/tb/mutants/l1d_top_staged.txt on_miss=0 ;;
  onmiss) config=$root/formal/fv_top_staged_onmiss.yaml mutants=$root/tb/mutants/l1d_top_staged_onmiss.txt on_miss=1 ;;
  *) echo "formal_staged_top: FV_TOP_CONFIG '$FV_TOP_CONFIG' is not one of: staged, onmiss" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$dcgen" --config "$config" --out "$tmp/rtl" >/dev/null \
  || { echo "formal_staged_top: dcgen failed"; exit 1; }
mutant=${FV_TOP_MUTANT:-}
if [ -n "$mutant" ]; then
  target=$(grep "^$mutant @@" "$mutants" | awk -F ' @@ ' '{print $2}')
  [ -n "$target" ] || { echo "formal_staged_top: no mutant '$mutant' in $mutants" >&2; exit 2; }
  keep="delete t:\$assert n:*$target %d"
  /usr/bin/python3 "$root/scripts/mutate_rtl.py" "$tmp/rtl" "$tmp/mut" "$mutants" || exit 1
  # The mutated copy selects each mutant with $test$plusargs, which Yosys cannot read: this one on,
  # the others off.
  sed -i -e "s/\\\$test\\\$plusargs(\"mut_$mutant\")/1'b1/g" -e "s/\\\$test\\\$plusargs(\"mut_[a-z0-9_]*\")/1'b0/g" "$tmp"/mut/*.sv
  cp "$tmp"/rtl/*_pkg.sv "$tmp/mut/" 2>/dev/null
  rtl=$tmp/mut
else
  rtl=$tmp/rtl
fi
log=${FV_TOP_LOG:-$tmp/yosys.log}
contracts="n:*TopCfgStable_A n:*TopMemRespMshrInRange_A %u n:*MshrRespPending_A %u"
files=$(ls "$rtl"/*_pkg.sv 2>/dev/null; ls "$rtl"/*.sv | grep -v '_pkg\.sv$')
script="read_verilog -sv -formal $(echo $files) $root/formal/l1d_top_staged_fv.sv"
script+="; chparam -set OnMiss $on_miss l1d_top_staged_fv"
# The contracts become assumptions right after prep, where all three are still cells: by
# 2026-11-29 the passes after it (memory_map, opt -fast, async2sync) removed one of them on this
# harness, whose cfg_* inputs are constants, and the count failed before any proof.
script+="; prep -flatten -top l1d_top_staged_fv"
script+="; select -assert-count 3 t:\$assert $contracts %i; chformal -assert2assume t:\$assert $contracts %i"
script+="; memory_map; opt -fast; async2sync"
script+="; $keep; opt_clean; techmap; opt -fast; opt_clean"
script+="; select -list t:\$assert; select -count t:\$assert; stat"
script+="; sat -seq $depth -prove-asserts -set-assumes -show-inputs"
start=$(date +%s)
yosys -p "$script" >"$log" 2>&1
n=$(grep -oE '^[0-9]+ objects' "$log" | tail -1 | grep -oE '[0-9]+')
secs=$(( $(date +%s) - start ))
if grep -q "SAT proof finished - no model found: SUCCESS" "$log"; then
  if [ -n "$mutant" ]; then
    echo "formal_staged_top: mutant $mutant NOT found: ${n:-?} assertions hold for $depth cycles ($secs s wall)"
    exit 1
  fi
  echo "formal_staged_top: PASS (${FV_TOP_CONFIG:-staged} $part): ${n:-?} assertions hold for $depth cycles from reset ($secs s wall)"
  exit 0
fi
if grep -q "SAT proof finished - model found: FAIL" "$log"; then
  if [ -n "$mutant" ]; then
    echo "formal_staged_top: mutant $mutant found: $target fails within $depth cycles ($secs s wall)"
    exit 0
  fi
  echo "formal_staged_top: FAIL (${FV_TOP_CONFIG:-staged} $part) within $depth cycles (a counterexample)"
  echo "formal_staged_top: FV_TOP_LOG=FILE keeps the log with the counterexample"
  exit 1
fi
grep -E "^ERROR" "$log" | head -5
echo "formal_staged_top: no result (error or timeout; FV_TOP_LOG=FILE keeps the log)"
exit 1
