#!/bin/bash
# Estimates what FaithfulSweep and SectorSweep (sim_cpp/test/gpusim_sweep_test.cpp) cost at
# --scale small: one baseline run per (preset, workload), its user seconds times the number of
# policies the preset accepts (the sweep runs every legal one). An estimate: the policies' run
# times differ from baseline's, and user seconds grow with the machine's load (printed per run).
#   scripts/small_sweep_cost.sh GPUSIM [PRESET ...]   (default: the sweeps' four presets)
# Output: one tab-separated line per run (preset, workload, user s, load), then one summary line
# per preset (# sum, legal policies, estimate, the three costliest workloads).
set -euo pipefail
gpusim=${1:?usage: scripts/small_sweep_cost.sh GPUSIM [PRESET ...]}
shift
presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(gtx480-gpgpusim gtx1080-jips qv100 a100)
tfile=$(mktemp)
trap 'rm -f "$tfile"' EXIT
summary=()
for p in "${presets[@]}"; do
  legal=0
  for pol in $("$gpusim" --list-policies); do  # a refused policy exits at once with an error line
    "$gpusim" --preset "$p" --policy "$pol" --workload vecadd --scale test --max-cycles 1 --quiet \
      --no-progress >/dev/null 2>&1 && legal=$((legal + 1))
  done
  rows=()
  for w in $("$gpusim" --list-workloads); do
    /usr/bin/time -o "$tfile" -f "%U" "$gpusim" --preset "$p" --workload "$w" --scale small --quiet \
      --no-progress >/dev/null 2>&1 || { echo "error: $p $w failed" >&2; exit 1; }
    s=$(tail -1 "$tfile")
    load=$(cut -d' ' -f1 /proc/loadavg)
    printf '%s\t%s\t%s\t%s\n' "$p" "$w" "$s" "$load"
    rows+=("$s $w")
  done
  summary+=("$(printf '%s\n' "${rows[@]}" | awk -v p="$p" -v n="$legal" '
    { sum += $1 } END { printf "# %s: baseline sum %.1f user-s x %d legal policies = %.0f user-s", p, sum, n, sum * n }')")
  summary+=("#   costliest: $(printf '%s\n' "${rows[@]}" | sort -rn | head -3 | tr '\n' ' ')")
done
printf '%s\n' "${summary[@]}"
