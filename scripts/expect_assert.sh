#!/usr/bin/env bash
# A test that must stop at an RTL assertion (docs/rtl-verification.md):
#   expect_assert.sh NAME COMMAND [ARGS...]
# passes when COMMAND exits non-zero and its output names the failed assertion NAME
# (Verilator: "Assertion failed in TOP.<module>.NAME"); fails when it exits 0 or stops otherwise.
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,5p' "$0" >&2; exit 2; }
name=$1
shift
out=$("$@" 2>&1)
rc=$?
if [ "$rc" -eq 0 ]; then
  echo "$out" | tail -20
  echo "expect_assert: FAIL: '$*' exited 0; expected assertion $name to stop it"
  exit 1
fi
if ! grep -qE "Assertion failed in \S*\.$name\b" <<<"$out"; then
  echo "$out" | tail -20
  echo "expect_assert: FAIL: '$*' exited $rc without 'Assertion failed in ...$name'"
  exit 1
fi
grep -m1 "Assertion failed" <<<"$out"
echo "expect_assert: PASS: $name stopped it (exit $rc)"
