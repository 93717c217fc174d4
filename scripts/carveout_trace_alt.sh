#!/usr/bin/env bash
# carveout_trace_alt.sh TRACES NAME OUT: Accel-Sim trace NAME of TRACES rewritten so that its kernels
# get different L1 sizes under l1.carveout adaptive (contract 15, 16.5): kernel i declares 32 KB of
# shared memory per CTA (-shmem = 32768) when i is even, none when i is odd; a one-kernel trace is
# repeated three times (kernel ids 1-3). On a 48 KB unified array with options 0 / 16 / 32 KB
# (tb/block_configs/gtx480_staged_carveout.yaml) the SM's L1 goes from its 16 KB base (32 sets) to
# 32 KB (64 sets) at kernel 1 and alternates between 16 and 32 KB after. Memcpy lines and the kernels'
# instructions are unchanged. For l1.lockstep_staged_carveout_traces (scripts/carveout_trace.sh is
# the single-cycle pipe's l1.lockstep_carveout's matrixmul trace).
set -euo pipefail
[ $# -eq 3 ] || { sed -n '2,9p' "$0" >&2; exit 2; }
src=$1/$2
out=$3
[ -f "$src/kernelslist.g" ] || { echo "carveout_trace_alt.sh: no $src/kernelslist.g" >&2; exit 1; }
kernels=$(grep -vc '^Memcpy' "$src/kernelslist.g" || true)
[ "$kernels" -ge 1 ] || { echo "carveout_trace_alt.sh: $src/kernelslist.g lists no kernel" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
id=0
emit() {  # emit FILE: the next kernel, from FILE, with its id and shared memory
  id=$((id + 1))
  local shmem=$(( id % 2 == 0 ? 32768 : 0 ))
  sed -e "s/^-shmem = [0-9]*\$/-shmem = $shmem/" -e "s/^-kernel id = [0-9]*\$/-kernel id = $id/" \
    "$src/$1" > "$out/kernel-$id.traceg"
  grep -q "^-shmem = $shmem\$" "$out/kernel-$id.traceg" || { echo "carveout_trace_alt.sh: $1 has no -shmem line" >&2; exit 1; }
  echo "kernel-$id.traceg" >> "$out/kernelslist.g"
}
while IFS= read -r line; do
  case $line in
    Memcpy*) echo "$line" >> "$out/kernelslist.g" ;;
    '') ;;
    *) if [ "$kernels" -eq 1 ]; then emit "$line"; emit "$line"; emit "$line"; else emit "$line"; fi ;;
  esac
done < "$src/kernelslist.g"
