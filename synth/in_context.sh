#!/usr/bin/env bash
# One sub-block of a hierarchical block in the context of its instances (synth/hier.sh).
#
#   in_context.sh CONTEXT_JSON RTL_DIR SUB LIBDIR OUTDIR
#
# CONTEXT_JSON (synth/context.py extract) names the sub-block's constant inputs and unread
# outputs; synth/block.sh synthesizes SUB with them (SYN_CONTEXT), so that the logic they leave
# useless is removed. Yosys only: the hierarchical block's timing covers the sub-block (which in
# context may have no register left to time on its own).
set -uo pipefail
[ $# -eq 5 ] || { sed -n '2,9p' "$0" >&2; exit 2; }
context=$1 rtl=$2 sub=$3 libdir=$4 out=$5
tools=$(cd "$(dirname "$0")" && pwd)
[ -s "$context" ] || { echo "synth: FAIL $sub: no context $context" >&2; exit 1; }
rm -rf "$out"
SYN_CONTEXT=$context SYN_STAGE=yosys exec "$tools/block.sh" "$rtl" "$sub" "$libdir" "$out"
