#!/usr/bin/env bash
# Waves of one RTL block: run its testbench with FST tracing and open GTKWave with the block's
# save file, or check that save file against the waves.
#
#   waves.sh open BLOCK [BUILD_DIR]   (make waves BLOCK=...) builds tb_BLOCK, runs the tests of the
#                                     default configuration with --trace, then opens
#                                     BUILD_DIR/waves/BLOCK.fst with tb/waves/BLOCK.gtkw in GTKWave
#                                     (or prints the command when there is no display)
#   waves.sh check BLOCK TB_EXE [TEST]
#                                     (ctest rtl.waves.BLOCK) every signal tb/waves/BLOCK.gtkw
#                                     lists exists in the FST the testbench writes, and every
#                                     port and every flop (*_q) of the block is listed; the
#                                     check runs one test of the default configuration (TEST,
#                                     default the first): every FST of the RTL model has the
#                                     whole header
#   waves.sh file BLOCK FST           the same check of a given FST file (e.g. gpusim --l1-waves)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  sed -n '2,16p' "$0" >&2
  exit 2
}

# The default configuration is the first of RTL_TB_CONFIGS (tb/rtl_blocks.cmake): gtest index 0.
run_traced() {  # run_traced TB_EXE WAVES_DIR [FILTER]
  L1D_WAVES_DIR=$2 "$1" --gtest_filter="${3:-*/0.*}" --trace
}
# The test of the default configuration (Suite/0.Test) named TEST, else the first one: the check
# needs the FST's header only, which every test writes whole, so it runs one test, not all.
pick_test() {  # pick_test TB_EXE [TEST]
  "$1" --gtest_list_tests --gtest_filter="*/0.${2:-*}" |
    awk '/^[^ ]/ { suite = $1; next } suite != "" { print suite $1; exit }'
}

[ $# -ge 2 ] || usage
mode=$1 block=$2
save=$root/tb/waves/$block.gtkw
[ -f "$save" ] || { echo "waves: no save file $save" >&2; exit 1; }

case $mode in
  open)
    build=${3:-$root/build}
    cmake --build "$build" --target "tb_$block"
    run_traced "$build/bin/tb_$block" "$build/waves"
    fst=$build/waves/$block.fst
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && command -v gtkwave >/dev/null; then
      gtkwave "$fst" "$save"
    else
      echo "waves: no display; open the waves with:"
      echo "  gtkwave $fst $save"
    fi
    ;;
  check | file)
    [ $# -eq 3 ] || { [ "$mode" = check ] && [ $# -eq 4 ]; } || usage
    command -v fst2vcd >/dev/null || { echo "waves: fst2vcd (gtkwave) is not installed: skipped"; exit 77; }
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    if [ "$mode" = check ]; then
      test=$(pick_test "$3" "${4:-}")
      [ -n "$test" ] || { echo "waves: $3 has no test ${4:-} of the default configuration"; exit 1; }
      run_traced "$3" "$tmp" "$test" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
      # <block>.fst (the main test's), else the one the test wrote of the RTL model.
      fst=$tmp/$block.fst
      [ -f "$fst" ] || fst=$(find "$tmp" -name "${block}_*.fst" ! -name '*_netlist.fst' | sort | head -n 1)
      [ -n "$fst" ] || { echo "waves: test $test of $3 wrote no FST of $block"; exit 1; }
    else
      fst=$3
    fi
    [ -s "$fst" ] || { echo "waves: no FST file $fst"; exit 1; }
    # Full names of the FST's variables: scope.scope.name[range], as GTKWave shows them.
    # (awk stops at the end of the header; fst2vcd then dies of SIGPIPE, which is fine.)
    (fst2vcd "$fst" 2>/dev/null || true) | awk '
      $1 == "$scope" { scope[++depth] = $3; next }
      $1 == "$upscope" { depth--; next }
      $1 == "$var" { path = ""; for (i = 1; i <= depth; i++) path = path scope[i] "."
                     print path $5 ($6 == "$end" ? "" : $6) }
      $1 == "$enddefinitions" { exit }' >"$tmp/names"
    [ -s "$tmp/names" ] || { echo "waves: $fst has no variables"; exit 1; }
    [ -s "$save" ] || { echo "waves: $save is empty"; exit 1; }
    # One awk pass each (a grep per signal cost l1d_top's check about 5 CPU-s; testcost6,
    # 2026-11-29): every signal line of the save file (not blank, not a [section], @flags, -comment
    # or *marker line) must be a variable of the FST, exactly.
    missing=0
    awk -v save="$save" -v block="$block" -v count="$tmp/listed" '
      FNR == NR { have[$0] = 1; next }
      $0 == "" || /^[[@*-]/ { next }
      { listed++ }
      !($0 in have) { printf "waves: %s lists %s, which %s.fst does not have\n", save, $0, block; bad = 1 }
      END { print listed + 0 > count; exit bad }' "$tmp/names" "$save" || missing=1
    listed=$(cat "$tmp/listed")
    # Complete: every port (the FST's top-level variables) and every flop (*_q) is listed, but
    # not the flops inside instances of other blocks (u_*: l1d_top), which their own save files list.
    sed -n "s/^TOP\.\([^.]*\)$/TOP.$block.\1/p; /^TOP\.$block\..*_q\(\[[0-9:]*\]\)\{0,1\}$/p" "$tmp/names" |
      grep -v "^TOP\.$block\.u_" >"$tmp/required" || true
    awk -v save="$save" 'FNR == NR { listed[$0] = 1; next }
      !($0 in listed) { print "waves: " save " does not list " $0; bad = 1 }
      END { exit bad }' "$save" "$tmp/required" || missing=1
    [ "$missing" -eq 0 ] || exit 1
    echo "waves: ok, tb/waves/$block.gtkw lists $listed signals of $fst, every port and flop among them"
    ;;
  *) usage ;;
esac
