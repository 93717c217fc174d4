#!/usr/bin/env bash
# A test that must stop at an RTL assertion (docs/rtl-verification.md):
#   expect_assert.sh NAME COMMAND [ARGS...]
# passes when COMMAND exits non-zero and its output names the failed assertion NAME
# (Verilator: "Assertion failed in TOP.<module>.NAME"); fails when it exits 0 or stops otherwise.
# NAME `mismatch`: passes when COMMAND fails with a testbench scoreboard mismatch (tb/testbench.h:
# "mismatch at cycle"), for a mutant no assertion sees but the comparison with golden does.
# NAME `lockstep`: the same for tb/l1d_top_tb.cpp's lockstep runs, which report a difference from
# golden as a test failure ("first mismatch at cycle").
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,9p' "$0" >&2; exit 2; }
name=$1
shift
out=$("$@" 2>&1)
rc=$?
if [ "$rc" -eq 0 ]; then
  echo "$out" | tail -20
  echo "expect_assert: FAIL: '$*' exited 0; expected $name to stop it"
  exit 1
fi
if [ "$name" = mismatch ]; then
  want="mismatch at cycle"
  pattern=": mismatch at cycle [0-9]+"
elif [ "$name" = lockstep ]; then
  want="first mismatch at cycle"
  pattern="first mismatch at cycle [0-9]+"
else
  want="Assertion failed in ...$name"
  pattern="Assertion failed in \S*\.$name\b"
fi
if ! grep -qE "$pattern" <<<"$out"; then
  echo "$out" | tail -20
  echo "expect_assert: FAIL: '$*' exited $rc without '$want'"
  exit 1
fi
grep -m1 -E "$pattern" <<<"$out"
echo "expect_assert: PASS: $name stopped it (exit $rc)"
