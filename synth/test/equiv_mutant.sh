#!/usr/bin/env bash
# The equivalence proofs can fail (issue 25): a copy of NETLIST.v with one gate changed, the first
# AND of the netlist made an OR, must be reported different by CHECK (synth/equiv_check.sh
# or synth/equiv_seq_check.sh), while the netlist itself must pass it.
#   [MUTANT_MATCH=ERE] synth/test/equiv_mutant.sh CHECK RTL_DIR BLOCK NETLIST.v
set -euo pipefail
if [ $# -ne 4 ]; then
  echo "usage: $0 CHECK RTL_DIR BLOCK NETLIST.v" >&2
  exit 2
fi
check=$1 rtl=$2 block=$3 netlist=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mutant=$dir/$(basename "$netlist")
# The first assign of the netlist with an AND (Yosys writes one gate per assign); its first `&`.
# MUTANT_MATCH (an extended regex) picks the first such assign that also matches it.
line=$( (grep -E '^  assign [^=]+= .* & ' -n "$netlist" | grep -E -m1 "${MUTANT_MATCH:-.}" || true) | cut -d: -f1)
[ -n "$line" ] || { echo "equiv_mutant: no AND in $netlist" >&2; exit 1; }
sed "${line}s/ & / | /" "$netlist" > "$mutant"
echo "equiv_mutant: $block: line $line: $(sed -n "${line}p" "$netlist" | sed 's/^ *//') -> $(sed -n "${line}p" "$mutant" | sed 's/^ *//')"
"$check" "$rtl" "$block" "$netlist" >/dev/null || { echo "equiv_mutant: the netlist itself fails $check" >&2; exit 1; }
set +e
"$check" "$rtl" "$block" "$mutant" > "$dir/out" 2>&1
rc=$?
set -e
if [ "$rc" -eq 1 ] && grep -q 'differ' "$dir/out"; then
  echo "equiv_mutant: $block: the one-gate mutant is found different, as it must"
else
  cat "$dir/out" >&2
  echo "equiv_mutant: $block: the one-gate mutant passed $check (exit $rc): the proof cannot fail" >&2
  exit 1
fi
