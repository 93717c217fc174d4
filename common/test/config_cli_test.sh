#!/usr/bin/env bash
# Checks the command-line contract for bad configuration files: exit code exactly 2 and exactly one
# line on stderr that names the field; a good preset runs and exits 0.
#   usage: config_cli_test.sh DEMO_BINARY SOURCE_DIR
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 DEMO_BINARY SOURCE_DIR" >&2
  exit 2
fi
demo=$1
src=$2
if [ ! -x "$demo" ]; then
  echo "not an executable: $demo" >&2
  exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1: $2"; }

# expect_config_error NAME EXPECTED_TEXT ARGS...: the run must exit 2 with one stderr line
# containing EXPECTED_TEXT (normally the field path).
expect_config_error() {
  local name=$1 want=$2
  shift 2
  local rc lines
  "$demo" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  lines=$(wc -l <"$tmp/err")
  if [ "$rc" -ne 2 ]; then
    fail "$name" "exit code $rc, expected 2 (stderr: $(head -c 300 "$tmp/err"))"
  elif [ "$lines" -ne 1 ]; then
    fail "$name" "stderr has $lines lines, expected 1: $(head -c 300 "$tmp/err")"
  elif ! grep -qF -- "$want" "$tmp/err"; then
    fail "$name" "stderr does not mention '$want': $(cat "$tmp/err")"
  else
    pass "$name"
  fi
}

# bad_file NAME EXPECTED_TEXT YAML: writes YAML to a file and runs the demo with --config on it.
bad_file() {
  local name=$1 want=$2 yaml=$3
  printf '%s' "$yaml" >"$tmp/$name.yaml"
  expect_config_error "$name" "$want" --config "$tmp/$name.yaml"
}

bad_file wrong_type   "l1.ways"             $'l1:\n  ways: four\n'
bad_file out_of_range "l1.mshr_entries"     $'l1:\n  mshr_entries: 1000\n'
bad_file unknown_key  "dram.chanels"        $'dram:\n  chanels: 4\n'
bad_file bad_enum     "policy.replacement"  $'policy:\n  replacement: mru\n'
bad_file geometry     "l1.size_bytes"       $'l1:\n  size_bytes: 16384\n  ways: 3\n'
bad_file syntax_error "line 3"              $'l1:\n  ways: [4\n'
expect_config_error missing_file "no such file" --config "$tmp/does_not_exist.yaml"
expect_config_error unknown_preset "nosuch" --preset nosuch

# A good preset must run.
"$demo" --config "$src/configs/gtx480.yaml" --requests 1000 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ]; then
  pass good_preset
else
  fail good_preset "exit code $rc (stderr: $(head -c 300 "$tmp/err"))"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
