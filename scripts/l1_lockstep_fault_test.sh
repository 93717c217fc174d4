#!/usr/bin/env bash
# ctest l1.lockstep_fault: gpusim --l1 lockstep catches an RTL fault at the cycle it happens.
#
#   l1_lockstep_fault_test.sh GPUSIM
#
# --l1-fault-cycle N adds one to the hit counter flop of SM 0's verilated l1d_top right before the
# clock edge that ends its cycle N (sim_cpp/verilated/verilated_l1.h). The same run without the
# fault must pass lockstep; with it, gpusim must exit 4 with a report of SM 0 at cycle N that names
# the hit counter, golden's value and the RTL's one more. Two fault cycles, so a checker that always
# reported the same cycle would fail, on the two models of the default build (LRU: baseline;
# AgeLRU: combined), on kmeans, whose SM 0 has hits by then. A fault cycle past the run's end must
# be reported as not injected.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 GPUSIM" >&2; exit 2; }
gpusim=$1

for case in baseline:700 combined:1500; do
  policy=${case%:*} cycle=${case#*:}
  run=(--preset gtx480 --workload kmeans --policy "$policy" --scale test --l1 lockstep --quiet --no-progress)
  "$gpusim" "${run[@]}" || { echo "l1_lockstep_fault_test: $policy without a fault failed (exit $?)"; exit 1; }
  set +e
  err=$("$gpusim" "${run[@]}" --l1-fault-cycle "$cycle" 2>&1 >/dev/null)
  rc=$?
  set -e
  if [ "$rc" -ne 4 ]; then
    echo "l1_lockstep_fault_test: fault at cycle $cycle: exit $rc, expected 4 (lockstep mismatch); stderr:"
    echo "$err"
    exit 1
  fi
  if ! grep -q "lockstep mismatch: SM 0 cycle $cycle (golden vs rtl)" <<<"$err"; then
    echo "l1_lockstep_fault_test: fault at cycle $cycle not reported at SM 0 cycle $cycle:"
    echo "$err"
    exit 1
  fi
  line=$(grep -E "^  counter hits: golden [0-9]+ rtl [0-9]+$" <<<"$err" || true)
  read -r g r < <(sed -E 's/.*golden ([0-9]+) rtl ([0-9]+)/\1 \2/' <<<"$line")
  if [ -z "$line" ] || [ "$r" -ne $((g + 1)) ]; then
    echo "l1_lockstep_fault_test: fault at cycle $cycle: expected the hit counter to differ by one:"
    echo "$err"
    exit 1
  fi
  echo "l1_lockstep_fault_test: $policy, fault at cycle $cycle reported at cycle $cycle (hits: golden $g, rtl $r)"
done

# A fault cycle the run never reaches injects nothing: the run passes and gpusim says so.
err=$("$gpusim" --preset gtx480 --workload kmeans --scale test --l1 lockstep --quiet --no-progress \
      --l1-fault-cycle 1000000000 2>&1 >/dev/null) || { echo "l1_lockstep_fault_test: unreached fault: exit $?"; exit 1; }
grep -q "warning: --l1-fault-cycle 1000000000: SM 0's L1 ran fewer cycles, no fault was injected" <<<"$err" ||
  { echo "l1_lockstep_fault_test: unreached fault not reported; stderr:"; echo "$err"; exit 1; }

# The option is refused where there is no RTL to fault.
set +e
"$gpusim" --preset gtx480 --workload bfs --scale test --l1 golden --l1-fault-cycle 10 --quiet --no-progress 2>/dev/null
rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "l1_lockstep_fault_test: --l1 golden --l1-fault-cycle: exit $rc, expected 2"; exit 1; }
echo "l1_lockstep_fault_test: ok"
