#!/usr/bin/env bash
# Equivalence of two l1d_miss_queue RTLs (issue 25; docs/rtl-verification.md, "l1d_miss_queue: old
# and new RTL equivalent"): the ring write as a run-time part select (the generator before
# d43305e) against the write decoded per lane (after it), or any two versions of the block.
#
#   scripts/mq_equiv_check.sh OLD.sv NEW.sv [ENTRIES BATCH REQBITS]   (default 8 5 1481: gtx480's
#                                                                      staged l1d_top instance)
#   MQ_EQUIV_CONTRACT=0 ...   m_count_i unconstrained (outside the contract the two differ)
#   MQ_EQUIV_LOG=FILE ...     keep Yosys' log
#
# Each RTL is wrapped in formal/l1d_miss_queue_equiv_wrap.sv (m_count_i held to 0..Batch, its
# contract), elaborated at the given parameters without its verification region (-DSYNTHESIS),
# `proc; flatten; memory` (the ring's words become flops u_mq.ring_q[e]), async2sync (the
# asynchronous reset as a multiplexer, alike on both sides), every name but the flops (*_q*) and
# the ports hidden. equiv_make pairs the two sides' flops and ports by name, equiv_simple and
# equiv_induct (temporal induction over equiv_induct's default 4 steps) prove every pair equal from any state in which the
# pairs agree, and equiv_status -assert fails on any pair left unproven. So: started in equal
# states (reset makes the reset flops equal; the ring and the output register have no reset and
# are assumed to start equal), the two give equal outputs and next states on every cycle of every
# input sequence that keeps m_count_i <= Batch. Prints `equivalent` (exit 0) or `differ` (exit 1).
set -euo pipefail
if [ $# -ne 2 ] && [ $# -ne 5 ]; then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
old=$1 new=$2 entries=${3:-8} batch=${4:-5} reqbits=${5:-1481}
for f in "$old" "$new"; do
  [ -f "$f" ] || { echo "mq_equiv_check: $f: no such file" >&2; exit 2; }
  grep -q '^module l1d_miss_queue ' "$f" || { echo "mq_equiv_check: $f: no module l1d_miss_queue" >&2; exit 2; }
done
for v in "$entries" "$batch" "$reqbits"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "mq_equiv_check: ENTRIES BATCH REQBITS: '$v' is not a positive integer" >&2; exit 2; }
done
contract=${MQ_EQUIV_CONTRACT:-1}
wrap=$root/formal/l1d_miss_queue_equiv_wrap.sv
top=l1d_miss_queue_equiv_wrap
params="-chparam Entries $entries -chparam Batch $batch -chparam ReqBits $reqbits -chparam Contract $contract"
prep="proc; flatten; memory; opt_clean; async2sync; rename -hide w:* w:*_q* x:* %u %d"
script=""
for side in gold:$old gate:$new; do
  name=${side%%:*} file=${side#*:}
  late=""  # an RTL with the late field (r_late_i, since timing12): the wrapper connects it
  grep -q 'r_late_i' "$file" && late=-DMQ_LATE_PORT
  script+="read_verilog -sv -DSYNTHESIS $late $file $wrap; hierarchy -top $top $params; $prep"
  script+="; rename $top $name; design -stash $name; "
done
script+="design -copy-from gold -as gold gold; design -copy-from gate -as gate gate"
script+="; equiv_make gold gate equiv; hierarchy -top equiv; select -count t:\$equiv"
script+="; equiv_simple; equiv_induct; equiv_status -assert"
log=${MQ_EQUIV_LOG:-$(mktemp)}
[ -n "${MQ_EQUIV_LOG:-}" ] || trap 'rm -f "$log"' EXIT
shape="Entries $entries, Batch $batch, ReqBits $reqbits, m_count_i $([ "$contract" = 0 ] && echo free || echo "<= Batch")"
if yosys -p "$script" >"$log" 2>&1 && ! grep -q '^ERROR' "$log"; then
  pairs=$(grep -m1 -oE '[0-9]+ objects' "$log" | grep -oE '[0-9]+')
  echo "mq_equiv_check: equivalent ($shape): $pairs flop and output bits paired, all proven"
else
  grep -m 20 -E '^ERROR|Unproven|unproven' "$log" >&2 || tail -20 "$log" >&2
  echo "mq_equiv_check: differ ($shape), or the proof failed: see above" >&2
  exit 1
fi
