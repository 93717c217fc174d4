#!/usr/bin/env bash
# make coverage (docs/rtl-verification.md, "Coverage"): line and toggle coverage of the gtx480
# l1d_top (rtl/, LRU replacement) over the lockstep runs of the make run matrix's LRU policies and
# tb_l1d_top's lockstep test, merged by verilator_coverage.
#
#   coverage.sh BUILD_DIR [SCALE] [JOBS]     SCALE of the gpusim runs (default test), JOBS at a time
#
# Writes BUILD_DIR/coverage/: coverage.dat (merged), report.md and report.json (per module: line
# %, toggle %, toggle % of registers raw and after the waivers of scripts/coverage_waivers.txt,
# l1d_top's registers by group, the waived and the uncovered points), annotated/ (the RTL with
# counts).
# The coverage models are built here (gpusim_cov, tb_l1d_top_cov: not in the default build).
# AgeLRU and combined run on the agelru model, which has no coverage build: not included.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: coverage.sh BUILD_DIR [SCALE] [JOBS]}
scale=${2:-test}
jobs=${3:-2}
workloads=(vecadd atax mvt bfs spmv kmeans)
policies=(baseline dycache agcb two-level pcal)
out=$build/coverage
cmake --build "$build" -j "$jobs" --target gpusim_cov tb_l1d_top_cov
rm -rf "$out"
mkdir -p "$out/raw" "$out/runs"
start=$(date +%s)
# One run: every SM's model writes a file; they are merged at once (15 files of a few MB each).
run_one() {
  local name=$1
  shift
  mkdir -p "$out/raw/$name"
  L1D_COVERAGE_DIR=$out/raw/$name "$@" >"$out/raw/$name.log" 2>&1 || { echo "coverage: $name failed:"; tail -5 "$out/raw/$name.log"; return 1; }
  verilator_coverage --write "$out/runs/$name.dat" "$out/raw/$name"/*.dat >/dev/null
  rm -rf "$out/raw/$name"
  echo "coverage: $name done"
}
export -f run_one
export out
for w in "${workloads[@]}"; do
  for p in "${policies[@]}"; do
    echo "$w-$p $build/bin/gpusim_cov --preset gtx480 --workload $w --policy $p --scale $scale --l1 lockstep --quiet --no-progress"
  done
done | xargs -P "$jobs" -L 1 bash -c 'run_one "$@"' _
# The testbench's lockstep runs: every policy and stream, and the directed ones (counters' carry
# to bit 63, widened addresses / PCs / AWIDs with a slow memory, ids past 2^15, the fill FIFO full,
# a DyCache sample of 64 B requests, a two-level window full of misses and ready warps).
tb_tests=LockstepWithGoldenEveryPolicyAndStream:CountersCarryToTheirTopBit:LockstepCorners:LockstepIdsPast32K:LockstepFillFifoBacksUp:LockstepDyCacheSampleAll64B:LockstepTwoLevelWindowFull
run_one tb "$build/bin/tb_l1d_top_cov" --gtest_filter="L1dTop/0.${tb_tests//:/:L1dTop/0.}"
verilator_coverage --write "$out/coverage.dat" "$out/runs"/*.dat >/dev/null
verilator_coverage --annotate "$out/annotated" "$out/coverage.dat" >/dev/null
# Fails (after writing the report) when a waiver is wrong or l1d_top's registers are below 90 %
# after waivers (issue 25).
python3 "$root/scripts/coverage_report.py" "$out/coverage.dat" "$out/report.md" --json "$out/report.json" \
  --waivers "$root/scripts/coverage_waivers.txt" --min-top-registers 90
echo "coverage: $(( $(date +%s) - start )) s of runs; report in $out/report.md"
