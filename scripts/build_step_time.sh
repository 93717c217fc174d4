#!/usr/bin/env bash
# Runs one build step under /usr/bin/time and appends its CPU seconds to $BUILD_STEP_LOG, so that a
# build's cost can be compared across machine loads (wall seconds in .ninja_log grow with the
# load; user + sys seconds much less). Used as the compiler launcher and the custom-command and
# link launcher of a measuring build (scripts/ninja_log_top.py --cpu-log; docs/performance.md,
# "make test's build"):
#
#   cmake -S . -B build ... -DCMAKE_CXX_COMPILER_LAUNCHER=$PWD/scripts/build_step_time.sh \
#         -DCMAKE_PROJECT_INCLUDE=$PWD/scripts/build_step_time.cmake
#   BUILD_STEP_LOG=$PWD/build/steps.tsv nice ninja -C build -j2
#
# Each line: user, sys, wall seconds, the step's output (the argument after -o, else the command
# shortened to 200 characters). Without BUILD_STEP_LOG the step runs untimed.
set -uo pipefail
[ -n "${BUILD_STEP_LOG:-}" ] || exec "$@"
out=""
prev=""
for a in "$@"; do
  if [ "$prev" = -o ]; then out=$a; break; fi
  prev=$a
done
[ -n "$out" ] || out=$(printf '%s ' "$@" | cut -c1-200)
t=$(mktemp)
/usr/bin/time -f '%U %S %e' -o "$t" "$@"
rc=$?
printf '%s\t%s\n' "$(tail -n 1 "$t" | tr ' ' '\t')" "$out" >>"$BUILD_STEP_LOG"
rm -f "$t"
exit $rc
