#!/usr/bin/env bash
# Checks of the emitted RTL, for make (lint, synth-check) and ctest (tb/rtl_blocks.cmake).
#
#   rtl.sh lint DIR [MODULE...]     verilator --lint-only -Wall on every file of DIR (or the given
#                                   modules), packages read first: each must exit 0 and print nothing
#   rtl.sh synth DIR [MODULE...]    synth/yosys_check.sh on every module of DIR (or the given ones)
#   rtl.sh golden DCGEN             `DCGEN --preset gtx480 --out TMP` reproduces rtl/ byte for byte
#   rtl.sh configs DCGEN CONFIG...  emits each configuration (a preset name or a YAML file) into a
#                                   temporary directory, then lints and synthesizes every module
#                                   (some only, for those RTL_CONFIGS_SYNTH_ONLY names), except a
#                                   module whose files are those of one already checked (below)
#   rtl.sh cli DCGEN                dcgen's command-line contract: exit codes, --list, determinism
set -uo pipefail
# Debian's interpreter when present: a version manager's python3 shim first on PATH (pyenv's)
# costs ~0.9 CPU-s a start against ~0.07 (docs/performance.md, seventh round).
export PYTHON3="${PYTHON3:-$(command -v /usr/bin/python3 || command -v python3)}"

root=$(cd "$(dirname "$0")/.." && pwd)
verilator=${VERILATOR:-verilator}

usage() {
  sed -n '2,10p' "$0" >&2
  exit 2
}

# The modules of DIR (every *.sv but packages), or the arguments.
modules_of() {
  local dir=$1
  shift
  if [ $# -gt 0 ]; then
    printf '%s\n' "$@"
    return
  fi
  local f
  for f in "$dir"/*.sv; do
    [ -e "$f" ] || continue
    case $f in *_pkg.sv) ;; *) basename "$f" .sv ;; esac
  done
}

cmd_lint() {
  local dir=$1
  shift
  local pkgs=() f m out failed=0 n=0
  for f in "$dir"/*_pkg.sv; do [ -e "$f" ] && pkgs+=("$f"); done
  for f in "${pkgs[@]}"; do
    n=$((n + 1))
    if ! out=$("$verilator" --lint-only -Wall "$f" 2>&1) || [ -n "$out" ]; then
      echo "lint: FAIL $f"$'\n'"$out"
      failed=1
    fi
  done
  for m in $(modules_of "$dir" "$@"); do
    n=$((n + 1))
    if ! out=$("$verilator" --lint-only -Wall -y "$dir" --top-module "$m" "${pkgs[@]}" "$dir/$m.sv" 2>&1) ||
      [ -n "$out" ]; then
      echo "lint: FAIL $dir/$m.sv"$'\n'"$out"
      failed=1
    fi
  done
  [ "$n" -gt 0 ] || { echo "lint: no .sv files in $dir"; return 1; }
  [ "$failed" -eq 0 ] && echo "lint: ok, $n files in $dir (verilator --lint-only -Wall: no output)"
  return "$failed"
}

# Each module's Yosys check reads the packages, its file and those of the modules it names
# (scripts/rtl_digest.py --files), linked into a directory of its own, not every file of DIR:
# yosys_check.sh elaborates only what the module instantiates (read_verilog -defer, hierarchy -top),
# but parsed all of DIR each time, about 0.65 of a small module's 1.1 CPU-s on odd_3way40's 37
# files (load 16, 2026-11-29, testcost7). A file the list misses stops hierarchy -check: a failure,
# never a pass.
cmd_synth() {
  local dir=$1
  shift
  local m failed=0 n=0 tmp f line list
  local -A files=()
  list=$("$PYTHON3" "$root/scripts/rtl_digest.py" --files "$dir" $(modules_of "$dir" "$@")) ||
    { echo "synth: rtl_digest.py --files failed on $dir"; return 1; }
  while read -r m line; do
    files[$m]=$line
  done <<<"$list"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  for m in $(modules_of "$dir" "$@"); do
    n=$((n + 1))
    # RTL_SYNTH_SKIP: modules whose Yosys check takes too long for make test (l1d_top: more
    # than 13 CPU minutes); ctest label `slow` and `make synth-check` still run them.
    # Space-separated (CMakeLists.txt joins the list: ctest would split it at ';').
    if [ $# -eq 0 ] && [[ " ${RTL_SYNTH_SKIP-} " == *" $m "* ]]; then
      echo "synth: $m skipped (RTL_SYNTH_SKIP)"
      continue
    fi
    [ -n "${files[$m]-}" ] || { echo "synth: no files of $m in $dir (rtl_digest.py --files)"; failed=1; continue; }
    mkdir -p "$tmp/$m"
    for f in ${files[$m]}; do ln -s "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" "$tmp/$m/"; done
    "$root/synth/yosys_check.sh" "$tmp/$m" "$m" || failed=1
  done
  [ "$n" -gt 0 ] || { echo "synth: no modules in $dir"; return 1; }
  [ "$failed" -eq 0 ] && echo "synth: ok, $n modules in $dir"
  return "$failed"
}

cmd_golden() {
  local dcgen=$1 tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  "$dcgen" --preset gtx480 --out "$tmp" >/dev/null || { echo "golden: dcgen failed"; return 1; }
  if ! diff -r -q "$root/rtl" "$tmp"; then
    diff -r -u "$root/rtl" "$tmp" | head -60
    echo "golden: FAIL: rtl/ is not what 'dcgen --preset gtx480' emits now; run 'make rtl' and commit rtl/"
    return 1
  fi
  echo "golden: ok, rtl/ ($(ls "$root/rtl" | wc -l) files) is byte for byte 'dcgen --preset gtx480'"
}

# module_digests DIR: "MODULE DIGEST" for every module of DIR (scripts/rtl_digest.py: the same
# digest, the same lint and synthesis results).
module_digests() {
  "$PYTHON3" "$root/scripts/rtl_digest.py" "$1"
}

# A module whose digest is that of a module checked before is not linted or synthesized again:
# one of an earlier configuration of this run (gate_small_staged differs from gate_small in two
# files), or one of RTL_CONFIGS_REF (rtl/, the default configuration: make test lints every module
# of it, rtl.lint.*, and synthesizes those of RTL_CONFIGS_REF_SYNTH, the build's netlists and
# rtl.synth.*), of which many are byte for byte the same in every configuration.
cmd_configs() {
  local dcgen=$1
  shift
  local tmp c name e only m d i inside digests failed=0 lint synth skipped_lint skipped_synth
  local -A linted=() synthesized=()
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  if [ -n "${RTL_CONFIGS_REF-}" ]; then
    digests=$(module_digests "$RTL_CONFIGS_REF") && [ -n "$digests" ] ||
      { echo "configs: no module digests of $RTL_CONFIGS_REF (RTL_CONFIGS_REF)"; return 1; }
    while read -r m d; do
      linted[$d]="$m of $RTL_CONFIGS_REF"
      [[ " ${RTL_CONFIGS_REF_SYNTH-} " == *" $m "* ]] && synthesized[$d]="$m of $RTL_CONFIGS_REF"
    done <<<"$digests"
  fi
  for c in "$@"; do
    name=$(basename "$c" .yaml)
    if [ -f "$c" ]; then
      "$dcgen" --config "$c" --out "$tmp/$name" >/dev/null || { echo "configs: dcgen failed on $c"; failed=1; continue; }
    else
      "$dcgen" --preset "$c" --out "$tmp/$name" >/dev/null || { echo "configs: dcgen failed on $c"; failed=1; continue; }
    fi
    echo "== $name"
    # RTL_CONFIGS_SYNTH_ONLY: space-separated NAME:MODULE[,MODULE...] entries, configurations of
    # which only the modules named are synthesized, or NAME:- (lint only); CMakeLists.txt says
    # why that is enough.
    only=""
    for e in ${RTL_CONFIGS_SYNTH_ONLY-}; do
      [ "${e%%:*}" = "$name" ] && only=${e#*:}
    done
    digests=$(module_digests "$tmp/$name") && [ -n "$digests" ] ||
      { echo "configs: no module digests of $name"; failed=1; continue; }
    lint=()
    synth=()
    skipped_lint=""
    skipped_synth=""
    while read -r m d; do
      if [ -n "${linted[$d]-}" ]; then
        skipped_lint+=" $m"
      else
        lint+=("$m")
        linted[$d]="$m of $name"
      fi
      if [ "$only" = "-" ] || { [ -n "$only" ] && [[ ",$only," != *",$m,"* ]]; }; then
        continue
      elif [ -z "$only" ] && [[ " ${RTL_SYNTH_SKIP-} " == *" $m "* ]]; then
        echo "synth: $m skipped (RTL_SYNTH_SKIP)"
      elif [ -n "${synthesized[$d]-}" ]; then
        skipped_synth+=" $m"
      else
        synth+=("$m")
        synthesized[$d]="$m of $name"
      fi
    done <<<"$digests"
    [ -z "$skipped_lint" ] || echo "lint: $name: the same files as a module linted before:$skipped_lint"
    if [ ${#lint[@]} -gt 0 ]; then cmd_lint "$tmp/$name" "${lint[@]}" || failed=1; fi
    if [ "$only" = "-" ]; then
      echo "synth: $name: none, lint only (RTL_CONFIGS_SYNTH_ONLY)"
    elif [ -n "$only" ]; then
      echo "synth: $name: ${only//,/ } only (RTL_CONFIGS_SYNTH_ONLY)"
    fi
    [ -z "$skipped_synth" ] || echo "synth: $name: the same files as a module synthesized before:$skipped_synth"
    # A module another one of this list instantiates with no parameter override is synthesized and
    # checked inside that one (scripts/rtl_contained.py), unless it is a synthesis black box, which
    # yosys_check.sh reads as a black box there (its SYN_BLACKBOX default, repeated here).
    if [ ${#synth[@]} -gt 1 ]; then
      inside=$("$PYTHON3" "$root/scripts/rtl_contained.py" "$tmp/$name" "${synth[@]}") ||
        { echo "configs: rtl_contained.py failed on $name"; failed=1; inside=""; }
      skipped_synth=""
      for m in $inside; do
        [[ " ${SYN_BLACKBOX-l1d_data_sram l1d_ram_1r1w l1d_sram_1rw l1d_sram_1r1w} " == *" $m "* ]] && continue
        skipped_synth+=" $m"
        for i in "${!synth[@]}"; do [ "${synth[$i]}" = "$m" ] && unset 'synth[i]'; done
      done
      synth=("${synth[@]}")
      [ -z "$skipped_synth" ] || echo "synth: $name: synthesized inside a module of this list:$skipped_synth"
    fi
    if [ ${#synth[@]} -gt 0 ]; then cmd_synth "$tmp/$name" "${synth[@]}" || failed=1; fi
  done
  return "$failed"
}

cmd_cli() {
  local dcgen=$1 tmp rc failed=0
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  check() {  # check NAME WANT_RC WANT_STDERR_TEXT ARGS...
    local name=$1 want=$2 text=$3
    shift 3
    "$dcgen" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
      echo "FAIL $name: exit $rc, expected $want: $(head -c 300 "$tmp/err")"
      failed=1
    elif [ -n "$text" ] && { [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -qF -- "$text" "$tmp/err"; }; then
      echo "FAIL $name: stderr should be one line with '$text': $(cat "$tmp/err")"
      failed=1
    else
      echo "PASS $name"
    fi
  }
  printf 'l1:\n  ways: 3\n' >"$tmp/bad.yaml"
  check "list" 0 "" --list
  grep -q '^l1d_tag_mask ' "$tmp/out" || { echo "FAIL list: no l1d_tag_mask in: $(cat "$tmp/out")"; failed=1; }
  check "unknown preset" 2 "error: " --preset nosuch --out "$tmp/x"
  check "bad config file" 2 "l1.size_bytes" --config "$tmp/bad.yaml" --out "$tmp/x"
  check "unknown policy" 2 "error: " --preset gtx480 --policy nosuch --out "$tmp/x"
  check "unknown block" 2 "no block named" --preset gtx480 --block nosuch --out "$tmp/x"
  check "no configuration" 2 "error: " --out "$tmp/x"
  check "no --out" 2 "--out" --preset gtx480
  check "unknown option" 2 "error: " --preset gtx480 --out "$tmp/x" --frobnicate
  check "--preset and --config" 2 "error: " --preset gtx480 --config "$root/configs/gtx480.yaml" --out "$tmp/x"
  # Deterministic, and independent of the spelling of the default configuration and of --block.
  "$dcgen" --preset gtx480 --out "$tmp/a" >/dev/null && "$dcgen" --preset gtx480 --out "$tmp/b" >/dev/null &&
    "$dcgen" --config "$root/configs/gtx480.yaml" --out "$tmp/c" >/dev/null &&
    "$dcgen" --preset gtx480 --block l1d_tag_mask --out "$tmp/d" >/dev/null
  if diff -r -q "$tmp/a" "$tmp/b" >/dev/null && diff -r -q "$tmp/a" "$tmp/c" >/dev/null &&
    cmp -s "$tmp/a/l1d_tag_mask.sv" "$tmp/d/l1d_tag_mask.sv" && [ "$(ls "$tmp/d")" = "l1d_tag_mask.sv" ]; then
    echo "PASS deterministic output"
  else
    echo "FAIL deterministic output"
    failed=1
  fi
  if head -2 "$tmp/a/l1d_tag_mask.sv" | grep -q '^// Generated by: dcgen --preset gtx480$' &&
    head -2 "$tmp/a/l1d_tag_mask.sv" | grep -q '^// Configuration: gtx480 (configs/gtx480.yaml)'; then
    echo "PASS header names command and configuration"
  else
    echo "FAIL header: $(head -2 "$tmp/a/l1d_tag_mask.sv")"
    failed=1
  fi
  return "$failed"
}

[ $# -ge 2 ] || usage
cmd=$1
shift
case $cmd in
  lint | synth) cmd_"$cmd" "$@" ;;
  golden | cli) cmd_"$cmd" "$1" ;;
  configs) cmd_configs "$@" ;;
  *) usage ;;
esac
