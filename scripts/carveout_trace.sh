#!/usr/bin/env bash
# carveout_trace.sh TRACES OUT: a three-kernel Accel-Sim trace whose kernels get different L1 sizes
# under l1.carveout adaptive (contract 15), for l1.lockstep_carveout. romnn_matrixmul_32's kernel
# (8 KB of shared memory per CTA of 32 warps) three times, the second declaring 32 KB: on
# tb/block_configs/gtx480_carveout.yaml (48 KB unified, options 0 / 16 / 32 KB) the SM's L1 goes
# from its 16 KB base (32 sets) to 32 KB (64 sets), back to 16 KB and to 32 KB again.
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,6p' "$0" >&2; exit 2; }
src=$1/romnn_matrixmul_32
out=$2
[ -f "$src/kernel-1.traceg" ] || { echo "carveout_trace.sh: no $src/kernel-1.traceg" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
grep '^Memcpy' "$src/kernelslist.g" > "$out/kernelslist.g"
for k in 1:8192 2:32768 3:8192; do
  id=${k%%:*}
  sed -e "s/^-shmem = 8192\$/-shmem = ${k##*:}/" -e "s/^-kernel id = 1\$/-kernel id = $id/" \
    "$src/kernel-1.traceg" > "$out/kernel-$id.traceg"
  grep -q "^-shmem = ${k##*:}\$" "$out/kernel-$id.traceg" || { echo "carveout_trace.sh: no -shmem line" >&2; exit 1; }
  echo "kernel-$id.traceg" >> "$out/kernelslist.g"
done
