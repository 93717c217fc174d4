#!/usr/bin/env bash
# make synth-policies: the area of each policy's hardware, as l1d_top built for that policy
# (docs/synthesis.md; the Pareto plot of `make experiments` reads it).
#
#   policies.sh --dcgen PATH [--lib osu018|sky130|sg13g2 | --liberty FILE] [--out DIR] [--jobs N]
#               [--policies "baseline dycache ..."] [--preset gtx480]
#
# For every policy preset (configs/policies/<name>.yaml), dcgen writes the RTL of the preset
# with that policy (numeric settings and replacement policy built in) and prints the values of
# l1d_top's configuration inputs for it (dcgen --cfg-inputs); synth/synth.sh then synthesizes
# every block of rtl/, l1d_top with every policy and its baseline (the policy-overhead row), and
# one l1d_top per policy with its inputs tied (--variant), hierarchically: a sub-block whose RTL
# is rtl/'s and whose context leaves it whole is synthesized once. Output: OUT/<library>/report.json
# and report.md ("variants"), as make synth writes them. Exit 1 if anything failed.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
lib=osu018 out=$root/build/synth-policies jobs=$(nproc) dcgen="" preset=gtx480
policies="baseline dycache agcb two-level pcal agelru combined"
usage() {
  sed -n '2,14p' "$0" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case $1 in
    --lib | --liberty) lib=$2 ;;
    --out) out=$2 ;;
    --jobs) jobs=$2 ;;
    --dcgen) dcgen=$2 ;;
    --policies) policies=$2 ;;
    --preset) preset=$2 ;;
    *) usage ;;
  esac
  shift 2
done
die() {
  echo "policies: $*" >&2
  exit 1
}
[ -x "$dcgen" ] || die "--dcgen must name the built dcgen"
mkdir -p "$out/rtl" && out=$(cd "$out" && pwd) || die "cannot create $out"

args=()
for p in $policies; do
  [ -f "$root/configs/policies/$p.yaml" ] || die "no policy preset configs/policies/$p.yaml"
  rm -rf "$out/rtl/$p"
  "$dcgen" --preset "$preset" --policy "$p" --out "$out/rtl/$p" >/dev/null || die "dcgen failed for $p"
  const=$("$dcgen" --preset "$preset" --policy "$p" --cfg-inputs) || die "dcgen --cfg-inputs failed for $p"
  args+=(--variant "$p=$out/rtl/$p:$const")
done
base_const=$("$dcgen" --preset "$preset" --policy baseline --cfg-inputs) || die "dcgen --cfg-inputs failed"
exec "$root/synth/synth.sh" --lib "$lib" --out "$out" --jobs "$jobs" \
  --baseline-rtl "$root/rtl" --baseline-const "$base_const" "${args[@]}"
