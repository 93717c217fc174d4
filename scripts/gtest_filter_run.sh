#!/usr/bin/env bash
# usage: scripts/gtest_filter_run.sh BUILD JOBS GTEST_FILTER
#
# Runs the GoogleTest cases GTEST_FILTER selects (GoogleTest's own syntax: `*.NetlistMatchesRtl`,
# `L1dTop*.*UnderBackpressure*`) in every gtest binary that BUILD registers with ctest, JOBS binaries
# at a time, from BUILD (the ctest tests' working directory). Since the twelfth round a ctest test is
# a whole gtest suite (cmake/gtest_suites.cmake), so `ctest -R` no longer selects single cases: make
# test-slow runs its cases by name here. The binaries are those of BUILD's *_suites<N>_tests.cmake
# (cmake/gtest_suites_discover.cmake); a binary none of whose cases match is not run. Exits 1 when a
# case fails (each binary's output is printed when it ends), 2 on bad arguments.
set -euo pipefail
if [[ $# -ne 3 || ! -d $1 || ! $2 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 BUILD JOBS GTEST_FILTER (BUILD a build directory, JOBS a positive number)" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
jobs=$2
filter=$3
mapfile -t binaries < <(find "$build" -name '*_suites*_tests.cmake' -print0 | xargs -0 -r \
  sed -n 's/^add_test(\[==\[.*\]==\] \([^ ]*\) \[==\[--gtest_filter=.*/\1/p' | sort -u)
if [[ ${#binaries[@]} -eq 0 ]]; then
  echo "$0: $build registers no gtest binary (*_suites*_tests.cmake): build the tests first" >&2
  exit 2
fi
run_one() {  # <binary>: its cases of the filter, if it has any
  local bin=$1 listed out
  listed=$("$bin" --gtest_list_tests --gtest_filter="$filter" | grep -c '^  ' || true)
  [[ $listed -eq 0 ]] && return 0
  if out=$(cd "$build" && "$bin" --gtest_filter="$filter" 2>&1); then
    echo "$out" | tail -n 3
    echo "gtest_filter_run: ${bin##*/}: $listed cases run, none failed"
  else
    echo "$out"
    echo "gtest_filter_run: ${bin##*/}: FAILED"
    return 1
  fi
}
export -f run_one
export build filter
if ! printf '%s\0' "${binaries[@]}" | xargs -0 -P "$jobs" -n 1 bash -c 'run_one "$0"'; then
  echo "gtest_filter_run: some cases of '$filter' FAILED (above)" >&2
  exit 1
fi
