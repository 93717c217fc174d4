#!/usr/bin/env bash
# make coverage (docs/rtl-verification.md, "Coverage"): line and toggle coverage of the gtx480
# l1d_top (rtl/, LRU replacement) and of the staged one (tb/block_configs/gtx480_staged.yaml) over
# the lockstep runs of the make run matrix's LRU policies and tb_l1d_top's lockstep tests, merged
# by verilator_coverage.
#
#   coverage.sh BUILD_DIR [SCALE] [JOBS]     SCALE of the gpusim runs (default test), JOBS at a time
#
# Writes BUILD_DIR/coverage/: coverage.dat (merged), report.md and report.json (per module: line
# %, toggle %, toggle % of registers raw and after the waivers of scripts/coverage_waivers.txt,
# l1d_top's registers by group, the waived and the uncovered points), annotated/ (the RTL with
# counts).
# The staged l1d_top's go to BUILD_DIR/coverage/staged/ (waivers scripts/coverage_waivers_staged.txt).
# COVERAGE_RESUME=1 keeps BUILD_DIR/coverage/ from an earlier start (normally deleted) and skips each run
# whose counts (runs/NAME.dat) are there, so a matrix run in parts (COVERAGE_WORKLOADS, or a start that
# was stopped) ends in ONE report merging every part's runs; refused when a coverage model changed since
# (models.sha256 there), whose counts would not be the same points.
# The coverage models are built here (gpusim_cov, tb_l1d_top_cov, gpusim_staged_cov,
# tb_l1d_top_staged_cov: not in the default build).
# AgeLRU and combined run on the agelru model, which has no coverage build: not included.
set -euo pipefail
# Debian's interpreter when present: a version manager's python3 shim first on PATH (pyenv's)
# costs ~0.9 CPU-s a start against ~0.07 (docs/performance.md, seventh round).
export PYTHON3="${PYTHON3:-$(command -v /usr/bin/python3 || command -v python3)}"
# The testbench's policy x stream lockstep tests run their whole product here, not make test's
# covering set of it (tb/l1d_top_tb.cpp covering_policy_and_stream): coverage counts every run.
export L1D_TOP_TB_FULL=1
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: coverage.sh BUILD_DIR [SCALE] [JOBS]}
scale=${2:-test}
jobs=${3:-2}
# COVERAGE_TOPS: what to measure (single: rtl/'s single-cycle l1d_top; staged: the staged pipe of
# tb/block_configs/gtx480_staged.yaml, reported in BUILD_DIR/coverage/staged/; repl: l1d_repl_state's
# testbench on FIFO, BIP, DIP and AgeLRU, tb/block_configs/repl_*.yaml, in BUILD_DIR/coverage/repl/<policy>/;
# sector, onmiss, block, gpgpusim: the staged pipe generated for sector mode, allocation on_miss, on_miss
# with merging by line, and gtx480-gpgpusim's whole L1 (on_miss, block and bypass_path direct's store
# query), tb/block_configs/gtx480_staged_<top>.yaml, in BUILD_DIR/coverage/staged_<top>/: not in the
# default list, four more coverage models).
tops=${COVERAGE_TOPS:-single staged repl}
# COVERAGE_WORKLOADS: the make run workloads the gpusim matrices run (comma- or space-separated; default
# all six), e.g. COVERAGE_WORKLOADS=mvt,bfs,spmv,kmeans to count a part of a top's matrix at a time (each
# part's report covers its own runs and the testbench's).
all_workloads=(vecadd atax mvt bfs spmv kmeans)
chosen=${COVERAGE_WORKLOADS:-}
read -r -a workloads <<<"${chosen//,/ }"
[[ ${#workloads[@]} -gt 0 ]] || workloads=("${all_workloads[@]}")
for w in "${workloads[@]}"; do
  [[ " ${all_workloads[*]} " == *" $w "* ]] ||
    { echo "coverage: COVERAGE_WORKLOADS: $w is not one of ${all_workloads[*]}" >&2; exit 2; }
done
[[ ${COVERAGE_RESUME:-0} =~ ^[01]$ ]] ||
  { echo "coverage: COVERAGE_RESUME: ${COVERAGE_RESUME} is not 0 or 1" >&2; exit 2; }
policies=(baseline dycache agcb two-level pcal)
out=$build/coverage
targets=()
for t in $tops; do
  case $t in
    single) targets+=(gpusim_cov tb_l1d_top_cov) ;;
    staged) targets+=(gpusim_staged_cov tb_l1d_top_staged_cov) ;;
    repl) targets+=(tb_l1d_repl_state_cov) ;;
    sector|onmiss|block|gpgpusim) targets+=(gpusim_staged_${t}_cov tb_l1d_top_staged_${t}_cov) ;;
    *) echo "coverage: COVERAGE_TOPS: $t is not single, staged, repl, sector, onmiss, block or gpgpusim" >&2; exit 2 ;;
  esac
done
cmake --build "$build" -j "$jobs" --target "${targets[@]}"
# Each model's checksum (models/TARGET.sha256): a resumed start must count on the models its kept runs did.
if [[ ${COVERAGE_RESUME:-0} == 1 && -d $out ]]; then
  for t in "${targets[@]}"; do
    [[ ! -f $out/models/$t.sha256 ]] || sha256sum --status -c "$out/models/$t.sha256" ||
      { echo "coverage: COVERAGE_RESUME=1: $build/bin/$t was rebuilt since the runs in $out; start without COVERAGE_RESUME" >&2; exit 2; }
  done
  echo "coverage: resuming: $(find "$out" -path '*/runs/*.dat' | wc -l) runs kept in $out"
else
  rm -rf "$out"
fi
mkdir -p "$out/models"
for t in "${targets[@]}"; do sha256sum "$build/bin/$t" >"$out/models/$t.sha256"; done
export COVERAGE_RESUME=${COVERAGE_RESUME:-0}
start=$(date +%s)
# One run into DIR/runs/NAME.dat: every SM's model writes a file; they are merged at once (15
# files of a few MB each).
run_one() {
  local dir=$1 name=$2
  shift 2
  if [[ $COVERAGE_RESUME == 1 && -s $dir/runs/$name.dat ]]; then echo "coverage: $name kept"; return 0; fi
  rm -rf "$dir/raw/$name"  # a stopped start's partial counts
  mkdir -p "$dir/raw/$name" "$dir/runs"
  L1D_COVERAGE_DIR=$dir/raw/$name TB_COVERAGE_DIR=$dir/raw/$name "$@" >"$dir/raw/$name.log" 2>&1 || { echo "coverage: $name failed:"; tail -5 "$dir/raw/$name.log"; return 1; }
  verilator_coverage --write "$dir/runs/$name.dat.part" "$dir/raw/$name"/*.dat >/dev/null
  mv "$dir/runs/$name.dat.part" "$dir/runs/$name.dat"  # whole or absent: a stopped start leaves no half
  rm -rf "$dir/raw/$name"
  echo "coverage: $name done"
}
export -f run_one
# The make run matrix's LRU policies in lockstep: matrix DIR GPUSIM [CONFIG ARGS...].
matrix() {
  local dir=$1 bin=$2
  shift 2
  for w in "${workloads[@]}"; do
    for p in "${policies[@]}"; do
      echo "$dir $w-$p $bin $* --workload $w --policy $p --scale $scale --l1 lockstep --quiet --no-progress"
    done
  done | xargs -P "$jobs" -L 1 bash -c 'run_one "$@"' _
}
# Merge DIR's runs, annotate, report (fails, after writing the report, when a waiver is wrong, or
# with --min-top-registers when l1d_top's registers are below it after waivers: issue 25).
report() {
  local dir=$1 waivers=$2
  shift 2
  echo "coverage: $dir: one report of $(ls "$dir/runs"/*.dat | wc -l) runs ($(cd "$dir/runs" && ls *.dat | sed 's/\.dat$//' | tr '\n' ' '))"
  verilator_coverage --write "$dir/coverage.dat" "$dir/runs"/*.dat >/dev/null
  verilator_coverage --annotate "$dir/annotated" "$dir/coverage.dat" >/dev/null
  "$PYTHON3" "$root/scripts/coverage_report.py" "$dir/coverage.dat" "$dir/report.md" --json "$dir/report.json" \
    --waivers "$waivers" "$@"
}
failed=0
if [[ " $tops " == *" single "* ]]; then
  matrix "$out" "$build/bin/gpusim_cov" --preset gtx480
  # The testbench's lockstep runs: every policy and stream, the GPGPU-Sim 3.x options (write-evict,
  # kernel-end invalidation, line fetch, allocation and merge modes), on-miss block merges, the
  # direct bypass path's B mode and store query (store_query_line_q), and the directed ones
  # (counters' carry to bit 63, also of the three on_miss / block counters, widened addresses /
  # PCs / AWIDs with a slow memory, ids past 2^15, the fill FIFO full, a DyCache sample of 64 B
  # requests, a two-level window full of misses and ready warps).
  tb_tests=LockstepWithGoldenEveryPolicyAndStream:LockstepGpgpuSim3Options:LockstepOnMissBlockMerge:LockstepDirectPathAnswers
  tb_tests+=:CountersCarryToTheirTopBit:CountersCarryUnderOnMissBlock:LockstepCorners:LockstepIdsPast32K:LockstepFillFifoBacksUp:LockstepDyCacheSampleAll64B:LockstepTwoLevelWindowFull
  tb_tests+=:LockstepSector:CountersCarryUnderSector  # sector mode (cfg_sector_i, contract 14)
  tb_tests+=:LockstepSectorMerge:LockstepSectorOnMiss  # sector and block merging, allocation on_miss's reservations
  tb_tests+=:LockstepIdsHighBits  # request id bits 16-31 (the testbench's ids stay below 2^16)
  run_one "$out" tb "$build/bin/tb_l1d_top_cov" --gtest_filter="L1dTop/0.${tb_tests//:/:L1dTop/0.}"
  report "$out" "$root/scripts/coverage_waivers.txt" --min-top-registers 90 || failed=1
fi
if [[ " $tops " == *" staged "* ]]; then
  staged_cfg=$root/tb/block_configs/gtx480_staged.yaml
  matrix "$out/staged" "$build/bin/gpusim_staged_cov" --config "$staged_cfg"
  # Every lockstep test of the staged suite (the L1dTopStaged.Lockstep* runs: every policy and
  # stream with kernel ends, backpressure, and the directed ones of tb/l1d_top_tb.cpp).
  run_one "$out/staged" tb "$build/bin/tb_l1d_top_staged_cov" --gtest_filter='L1dTopStaged.Lockstep*-*Reports*'
  report "$out/staged" "$root/scripts/coverage_waivers_staged.txt" --groups staged --min-top-registers 90 || failed=1
fi
# The staged tops generated for an option: the make run matrix in lockstep on the policies each model
# serves (l1.lockstep_staged_<top>'s), and the testbench's lockstep test of that model (every policy x
# "mixed" and "burst" with kernel ends). Waivers: the staged top's, and the lines of
# scripts/coverage_waivers_staged_options.txt whose first field (tops, comma-separated) names this one.
declare -A opt_policies=([sector]="baseline agcb two-level pcal pcal-bto" [onmiss]="baseline dycache agcb two-level pcal pcal-bto"
                         [block]="baseline dycache agcb two-level pcal pcal-bto elastic32 elastic64"
                         [gpgpusim]="baseline dycache agcb two-level pcal pcal-bto elastic32 elastic64")
declare -A opt_tests=([sector]=L1dTopStagedSector.LockstepEveryPolicy [onmiss]=L1dTopStagedOnMiss.LockstepEveryPolicy
                      [block]=L1dTopStagedBlock.LockstepEveryPolicy
                      [gpgpusim]=L1dTopStaged.LockstepDirectPathAnswers)  # the store query's answers, two-level
lru_policies=("${policies[@]}")
for t in sector onmiss block gpgpusim; do
  [[ " $tops " == *" $t "* ]] || continue
  read -r -a policies <<<"${opt_policies[$t]}"
  matrix "$out/staged_$t" "$build/bin/gpusim_staged_${t}_cov" --config "$root/tb/block_configs/gtx480_staged_$t.yaml"
  run_one "$out/staged_$t" tb "$build/bin/tb_l1d_top_staged_${t}_cov" --gtest_filter="${opt_tests[$t]}"
  { cat "$root/scripts/coverage_waivers_staged.txt"
    awk -v top="$t" '!/^#/ && NF { n = split($1, ts, ","); for (i = 1; i <= n; i++) if (ts[i] == top) { sub(/^[^ ]+ /, ""); print } }' \
      "$root/scripts/coverage_waivers_staged_options.txt"; } >"$out/staged_$t.waivers"
  report "$out/staged_$t" "$out/staged_$t.waivers" --groups staged --min-top-registers 90 || failed=1
done
policies=("${lru_policies[@]}")
if [[ " $tops " == *" repl "* ]]; then
  # Every test of the replacement state's testbench (against golden's policies), each policy's
  # model writing its counts; the netlist co-simulation has no coverage model (skipped).
  repl_policies=(fifo bip dip agelru)  # tb/coverage.cmake's order: typed test i is policy i
  for i in "${!repl_policies[@]}"; do
    p=${repl_policies[$i]}
    run_one "$out/repl/$p" tb "$build/bin/tb_l1d_repl_state_cov" --gtest_filter="ReplState/$i.*"
    report "$out/repl/$p" "$root/scripts/coverage_waivers_repl.txt" || failed=1
  done
fi
echo "coverage: $(( $(date +%s) - start )) s of runs; reports in $out/report.md, staged/report.md, repl/<policy>/report.md (as run)"
exit "$failed"
