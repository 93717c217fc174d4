#!/usr/bin/env bash
# Bounded model checking of generated blocks (docs/rtl-verification.md), for make formal and ctest.
#
#   formal.sh DCGEN [JOB...]     JOB: mshr mshrahead agcb agcbahead repl replfwd mq mqwide issue fill walk tagrd perf fillpos issuevr fillvr
#                                mqequiv (proofs), mut-<name>
#                                (a mutated RTL copy whose counterexample must name the expected
#                                assertion); default: all
#
# The RTL is dcgen's output for formal/fv_small.yaml; each harness formal/<module>_fv.sv is read
# with it by Yosys 0.23 (read_verilog -sv -formal: FORMAL defined, so the blocks' `ifndef
# SYNTHESIS assertions are in), flattened, and checked for DEPTH cycles from reset.
# FV_ENGINE=abc (the default since testcost8, 2026-11-29): Yosys writes the harness as an AIGER
# (write_aiger -zinit: every register without a reset value starts free, every x constant is a
# free input each cycle, the $assume cells are constraints) and ABC's bmc3 checks DEPTH frames
# (`fold; bmc3 -F DEPTH`: a frame counts only while every constraint held up to it). The same
# bounded check as the native engines below in a sixth of the CPU: formal.prove and prove_pipe
# (eight harnesses and perf) 70.3 -> 12.5 CPU-s at load 16-18 (docs/performance.md, ninth round);
# each mutant must still be found by it. ABC names no assertion in its answer: rerun a failing job with FV_ENGINE=native for
# the named counterexample (formal.prove_native, make test-slow, runs the proofs on both).
# FV_ENGINE=native: Yosys's SAT-based BMC (`sat -seq DEPTH -prove-asserts -set-assumes`, MiniSat), except the staged pipe's
# units (l1d_issue, l1d_fill_issue, l1d_flush_walker, l1d_tag_read), which yosys-smtbmc checks with
# z3 (write_smt2, then `yosys-smtbmc -s z3 --unroll --presat`). z3 4.8.12 needs --unroll: in
# smtbmc's default incremental mode it did not finish step 0 of these harnesses, not even of
# l1d_issue's alone, within minutes; unrolled, l1d_issue_fv passes depth 14. boolector 3.2.2
# rejects the SMT-LIB smtbmc 0.23 writes (docs/rtl-verification.md, "Solver").
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
dcgen=$1
shift
yosys=${YOSYS:-yosys}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$dcgen" --config "$root/formal/fv_small.yaml" --out "$tmp/rtl" >/dev/null || { echo "formal: dcgen failed"; exit 1; }

# Depths: a full entry lifetime of the 4-entry, MaxMerge-2 MSHR file takes reset (1), allocate
# (1), a merge (1), the response (1), and the fill unit's start and two reads, the second with the
# release (3): 7 cycles; DEPTH_MSHR 8 covers it from reset, with any other entries' traffic
# interleaved. The AGCB counters saturate after 3 steps from their reset value 1 either way;
# DEPTH_AGCB 10 covers a climb to 3, a push beyond it and a fall below 0.
FV_ENGINE=${FV_ENGINE:-abc}
case $FV_ENGINE in abc | native) ;; *) echo "formal: FV_ENGINE=$FV_ENGINE: abc or native"; exit 2 ;; esac
DEPTH_MSHR=${DEPTH_MSHR:-8}
DEPTH_AGCB=${DEPTH_AGCB:-10}
# The replacement ranks: any 2 steps reach every update; DEPTH_REPL 5 gives sequences of 4.
DEPTH_REPL=${DEPTH_REPL:-5}
# The staged AGCB table against the single-cycle one (agcbahead): its prediction is registered a
# cycle ahead with the update arriving at that edge forwarded; DEPTH_AGCBAHEAD 8 has reset, a climb
# from the reset value 1 to 3 and back to 0 with both updates on one entry at any step (5 CPU-s).
DEPTH_AGCBAHEAD=${DEPTH_AGCBAHEAD:-8}
# The staged ranks against the single-cycle ones (replfwd): a pending update is one cycle old, so
# reset and two steps have a pulse pair pending while the next pair arrives and any set is queried;
# DEPTH_REPLFWD 3 took 9 s, 4 took 42 s (2 cores at load 12), 6 did not finish in 15 minutes. Since
# timing11 the victim's order is read a cycle ahead (M1) with the pending pair forwarded there, and
# is used a cycle later: a pair at 1, pending at 2 while the order is read, used at 3 needs depth 4.
DEPTH_REPLFWD=${DEPTH_REPLFWD:-4}
# The staged MSHR file's probe against the single-cycle one (mshrahead): the line compares are one
# cycle old, corrected for one allocation and one release at the edge; DEPTH_MSHRAHEAD 6 has reset and
# five edges of free traffic on 4 entries (every entry allocated, freed and taken again).
DEPTH_MSHRAHEAD=${DEPTH_MSHRAHEAD:-6}
# The miss queue (3 entries, batches of up to 2): reset (cycle 0), a full queue decided at cycles
# 1 and 2 (2 + 1 requests), at D at 3 and 4, offered from 4, 5 and 6 (one per cycle, the third
# behind the first batch), drained at 6, 7 and 8 if memory waited: 9 cycles; DEPTH_MQ 12 adds three
# after it, so the ring's pointers wrap and new batches land behind the wrapped tail.
DEPTH_MQ=${DEPTH_MQ:-12}
# mqwide: the same harness at the staged top's 1 481 payload bits (not in the default jobs: 77 CPU-s,
# 3.8 GB at depth 8; DEPTH_MQWIDE=12: 845 CPU-s, 5.9 GB; 2026-11-28). Depth 8: an entry's whole life (decided at 1, at D at 3, offered
# and taken from 4) with memory waiting up to three cycles.
DEPTH_MQWIDE=${DEPTH_MQWIDE:-8}
# l1d_issue (stage A, contract 16.2-16.3): a request fires at cycle 1, is in the input FIFO from 2,
# at A 2, T 3, M1 4, M2 5, where it fails: it and the three younger core requests (M1, T, A's pick)
# go to the replay FIFO, which A drains at 6-9, so they reach M2 at 9-12; a second failure at 9
# replays them again, the first back at M2 at 13. DEPTH_ISSUE 14 (cycles 0-13) covers a full
# replay FIFO filled, drained and refilled, with fill and flush operations interleaved at will.
DEPTH_ISSUE=${DEPTH_ISSUE:-14}
# l1d_fill_issue (3 entries of up to 3 requests): a response at the edge of cycle 1 puts its entry in
# the FIFO at 2; A takes its steps at 2-4, M2 sees them at 5-7. Step 0 waiting at 5 rewinds it: taken
# again at 6-8, at M2 at 9-11; a merge after the last step was issued makes M2 rewind once more
# (step 3 taken at 12, at M2 at 15). DEPTH_FILL 12 (make test: cycles 0-11) covers an entry's whole
# life with one rewind of either kind (the grow rewind's mutant fails at 11) and a second entry
# queued behind it; DEPTH_FILL=16 (ctest formal.prove_deep, label slow: about 25 CPU-s against 4)
# covers both rewinds of one entry.
DEPTH_FILL=${DEPTH_FILL:-12}
# l1d_flush_walker (5 lines): a start at cycle 1, lines 0-4 taken at 2-6, at M2 at 5-9, the finish
# at 9. A wait at M2 costs 4 cycles (the line taken again the cycle after, at M2 three later).
# A walk with one wait finishes at 13; DEPTH_WALK 20 (cycles 0-19) covers it with a restart or a
# cancel at any point, two waits, or a whole walk followed by the next one's first visits at M2.
DEPTH_WALK=${DEPTH_WALK:-20}
# l1d_tag_read: a row read at A (cycle a) is at M2 at a + 3, and what it must see is written at
# a - 1 or earlier (the SRAM), a, a + 1, a + 2 or a + 3 (forwarded; the last from M2's row at
# a + 2, m2_new_row_i). DEPTH_TAGRD 8 has reads from cycle 1 to 4 reach M2, each with every
# write history of its window and before it.
DEPTH_TAGRD=${DEPTH_TAGRD:-8}
# issuevr / fillvr: the valid/ready properties of the issue and fill harnesses (FV_VALID_READY),
# alone, at those harnesses' depths (make test-slow).
DEPTH_ISSUEVR=${DEPTH_ISSUEVR:-$DEPTH_ISSUE}
DEPTH_FILLVR=${DEPTH_FILLVR:-$DEPTH_FILL}

# mutants: name | file | sed expression | harness | depth | the assertion expected in the trace
mutants=(
  "mut-mshr-alloc-used|l1d_mshr.sv|s/assign free = ~valid;/assign free = ~(valid >> 1);/|mshr|4|MshrAllocEntryFree_A"
  "mut-mshr-free-o|l1d_mshr.sv|s/assign free_o = .first_free;/assign free_o = first_free[0];/|mshr|4|MshrFreeWhenNotFull_A"
  "mut-mshr-merge-slot0|l1d_mshr.sv|s/assign req_slot = alloc_ok ? '0 : add_slot;/assign req_slot = '0;/|mshr|8|FvReadMatchesShadow_A"
  "mut-mshr-count-over|l1d_mshr.sv|s/!= CountBits'(MaxMerge);/!= CountBits'(MaxMerge + 1);/|mshr|6|MshrCountWithinLimit_A"
  "mut-mshrahead-no-alloc-fix|l1d_mshr_staged.sv|s/{Entries{ahead_alloc_eq_q}}/{Entries{1'b0}}/|mshrahead|4|FvMshrAheadEqual_A"
  "mut-mshrahead-no-free-fix|l1d_mshr_staged.sv|s/ahead_free_q <= release_i ?.*;/ahead_free_q <= '0;/|mshrahead|4|FvMshrAheadEqual_A"
  "mut-repl-hit-promote|l1d_repl_state.sv|s/rank < hit_from ?/rank > hit_from ?/|repl|3|ReplHitRanksPermutation_A"
  "mut-repl-fill-promote|l1d_repl_state.sv|s/rank < fill_from ?/rank > fill_from ?/|repl|3|ReplFillRanksPermutation_A"
  "mut-repl-reset|l1d_repl_state.sv|s/<= WayIdxBits'(i);/<= '0;/|repl|2|ReplQueryRanksPermutation_A"
  "mut-replfwd-no-fill-fwd|l1d_repl_state_staged.sv|s/? fill_new : query_hit_fwd;/? query_hit_fwd : query_hit_fwd;/|replfwd|3|FvReplStagedEqual_A"
  "mut-replfwd-no-hit-fwd|l1d_repl_state_staged.sv|s/? hit_new : query_base;/? query_base : query_base;/|replfwd|3|FvReplStagedEqual_A"
  "mut-replfwd-no-order-fill|l1d_repl_state_staged.sv|s/assign order_fill_here = fill_q \&/assign order_fill_here = 1'b0 \&/|replfwd|3|FvReplStagedEqual_A"
  "mut-replfwd-no-order-hit|l1d_repl_state_staged.sv|s/assign order_hit_here = hit_q \&/assign order_hit_here = 1'b0 \&/|replfwd|3|FvReplStagedEqual_A"
  "mut-replfwd-no-next-fill-fwd|l1d_repl_state_staged.sv|s/? fill_new : next_hit_fwd;/? next_hit_fwd : next_hit_fwd;/|replfwd|4|FvReplStagedEqual_A"
  "mut-agcb-dec-wrap|l1d_agcb_table.sv|s/dec_q \&\& dec_old != '0 ?/dec_q ?/|agcb|5|AgcbDecNoUnderflow_A"
  "mut-agcb-inc-wrap|l1d_agcb_table.sv|s/inc_old != '1 ?/1'b1 ?/|agcb|5|AgcbIncNoOverflow_A"
  "mut-agcbahead-no-inc-fwd|l1d_agcb_table_ahead.sv|s/assign inc_hit_next = inc_i \&\& inc_idx_i == hpc_next;/assign inc_hit_next = 1'b0;/|agcbahead|8|FvAgcbAheadEqualsDirect_A"
  "mut-agcbahead-inc-no-dec|l1d_agcb_table_ahead.sv|s/bypass_inc_q <= dec_hit_next ?/bypass_inc_q <= 1'b0 ?/|agcbahead|8|FvAgcbAheadEqualsDirect_A"
  "mut-mq-reveal-late|l1d_miss_queue.sv|s/WideBits'(total_q) + WideBits'(n_d_q) > WideBits'(vis_q)/WideBits'(total_q) > WideBits'(vis_q)/|mq|6|FvOfferedOnTime_A"
  "mut-mq-lane-swap|l1d_miss_queue.sv|s/= LaneBits'(off);/= LaneBits'(off + 1'b1);/|mq|7|FvOfferedIsOldest_A"
  "mut-issue-m1-lost|l1d_issue.sv|s/assign m1_back = squash_core_i \&\& m1_kind_q == 2'd1;/assign m1_back = 1'b0;/|issue|12|FvCoreInOrderAtM2_A"
  "mut-issue-front-order|l1d_issue.sv|s/back_m1_q <= m1_req_q;/back_m1_q <= t_req_q;/|issue|12|FvCoreInOrderAtM2_A"
  "mut-issue-ready-comb|l1d_issue.sv|s/assign core_req_ready_o = !in1_valid_q;/assign core_req_ready_o = !in1_valid_q \&\& !fill_valid_i;/|issuevr|4|FvReadyHeldUntilFire_A"
  "mut-issue-skid-gap|l1d_issue.sv|s/if (fire \&\& !head_left) begin/if (fire \&\& !in0_valid_q) begin/|issuevr|10|FvNothingLostWhenEmpty_A"
  "mut-fill-rewind-step0|l1d_fill_issue.sv|s/step_d = rewind_step_i;/step_d = '0;/|fill|12|FvFillInOrderAtM2_A"
  "mut-fill-offer-moves|l1d_fill_issue.sv|s/pos_d = pos_d - 1'd1;/pos_d = pos_d;/|fillvr|8|FvFillOfferHeld_A"
  "mut-walk-cancel-after-start|l1d_flush_walker.sv|s/if (cancel_i) begin/if (cancel_i \&\& !start_i) begin/|walk|4|FvWalkEnds_A"
  "mut-walk-rewind-skip|l1d_flush_walker.sv|s/cursor_d = rewind_line_i;/cursor_d = rewind_line_i + 1'd1;/|walk|10|FvWalkInOrderAtM2_A"
  "mut-tagrd-no-w1|l1d_tag_read.sv|s/: w1_valid_q \&\& w1_set_q == t_set_q ? w1_row_q : sram_row;/: sram_row;/|tagrd|6|FvTagReadM1Newest_A"
  "mut-tagrd-no-m2-mux|l1d_tag_read.sv|s/assign m2_row_d = m2_valid_i \&\& m2_set_q == m1_set_q ? m2_new_row_i : m1_row_o;/assign m2_row_d = m1_row_o;/|tagrd|6|FvTagReadM2Newest_A"
)

# The performance counters (contract 16.5) are proved by temporal induction, not a bounded run: a
# carry into their third 16-bit chunk needs 2^32 / 15 cycles. Their property is inductive, so the
# proof holds for every count; MAXSTEPS_PERF bounds the induction length tried. Yosys proves it at
# induction length 2 (`-seq 1 -tempinduct`: "Induction step proven" at 2, length 1 fails). An induction
# proof of any length is a proof, so the bound only decides when to give up: 3 leaves a step of
# margin, and mut-perf-carry must fail at this same bound (testcost8, 2026-11-29: it was 6, and the
# mutant spent 7 of formal.mutants' 14 CPU-s failing lengths 4-6 too; perf and the mutant 9.2 ->
# 4.9 CPU-s at load 17).
MAXSTEPS_PERF=${MAXSTEPS_PERF:-3}

# l1d_fill_issue's cursor position pos_q (no port) is at most 3 at gtx480's 32 entries: proved by
# k-induction (yosys-smtbmc -i) of FvFillPosIsInFlightLast_A, which is 1-inductive, plus the bounded
# base case of the same length; DEPTH_FILLPOS 4 is both (the mutant's bound breaks at cycle 6: BMC to 8),
# and a cover that the bound is reached (the environment's assumptions leave it reachable).
DEPTH_FILLPOS=${DEPTH_FILLPOS:-4}

# mqequiv: l1d_miss_queue as the generator emitted it before d43305e (the ring written through a
# run-time part select of the batch) and as dcgen emits it now (the write decoded per lane) are
# equivalent under the block's contract m_count_i <= Batch (scripts/mq_equiv_check.sh: Yosys
# equiv_make / equiv_induct, unbounded). The old RTL is git's (the old generator's checked-in
# output; its module text is the same for every configuration, only the parameters differ). Shapes
# ENTRIES:BATCH:REQBITS: gtx480's 8 entries and 5 lanes at 1 and 64 payload bits (no control signal
# reads the payload and each payload bit is the same logic of its own lane bits, so the width
# changes nothing but the size: gtx480's staged 1 481 did not fit, see docs/rtl-verification.md),
# gate_small's 6 entries, and an odd shape (11 entries, 9 lanes). Then two checks that it can
# fail: the new RTL with its last lane never written (mut-mqequiv-last-lane) and the two without
# the contract (a lane >= Batch: the old RTL read past the batch, the new writes nothing) must not
# be proved equal.
MQEQUIV_OLD=${MQEQUIV_OLD:-d43305e^:rtl/l1d_miss_queue.sv}
MQEQUIV_SHAPES=${MQEQUIV_SHAPES:-8:5:1 8:5:64 6:5:8 11:9:4}

# mqequiv_old FILE: the old RTL into FILE; 1 (with a message) without git's history.
mqequiv_old() {
  git -C "$root" show "$MQEQUIV_OLD" >"$1" 2>/dev/null && grep -q '^module l1d_miss_queue ' "$1" \
    || { echo "formal: mqequiv: git show $MQEQUIV_OLD failed (needs the repository's history)"; return 1; }
}

# fillpos_smt2 RTLDIR LOG ONLY: write LOG.smt2 of the fill harness at gtx480's shape with its pos_q
# probe connected, every assertion deleted but those named *ONLY*.
fillpos_smt2() {
  local dir=$1 log=$2 only=$3
  "$yosys" -p "read_verilog -sv -formal -DFV_FILL_POS $dir/l1d_fill_issue.sv $root/formal/l1d_fill_issue_fv.sv;
    prep -flatten -top l1d_fill_issue_fv; memory_map; opt -fast; async2sync;
    select -assert-count 1 w:u_dut.pos_q; cd l1d_fill_issue_fv; connect -set dut_pos_q u_dut.pos_q; cd ..;
    select -assert-min 1 t:\$assert n:*$only* %i; delete t:\$assert n:*$only* %d; select -list t:\$assert;
    dffunmap; write_smt2 -wires $log.smt2" >"$log" 2>&1
}

# fillpos RTLDIR LOG: 0 when the base case (BMC) and the induction step both pass.
fillpos() {
  local dir=$1 log=$2
  fillpos_smt2 "$dir" "$log" FvFillPos || return 1
  yosys-smtbmc -s z3 --unroll --presat --noprogress -t "$DEPTH_FILLPOS" "$log.smt2" >>"$log" 2>&1 || return 1
  yosys-smtbmc -s z3 --unroll --presat --noprogress -i -t "$DEPTH_FILLPOS" "$log.smt2" >>"$log" 2>&1 || return 1
  # Not vacuous: pos_q = 3 is reached (cycle 5: three one-request entries taken at cycles 2-4).
  yosys-smtbmc -s z3 --unroll --presat --noprogress -c -t 6 "$log.smt2" >>"$log" 2>&1 || return 1
  [ "$(grep -c "Status: PASSED" "$log")" = 3 ] && grep -q "Temporal induction successful" "$log" \
    && grep -q "Reached cover statement at FvFillPosReachesBound_C" "$log"
}

# induct RTLDIR LOG: 0 when temporal induction proves l1d_perf_counters_fv's assertion.
induct() {
  local dir=$1 log=$2
  "$yosys" -p "read_verilog -sv -formal $dir/l1d_perf_counters.sv $root/formal/l1d_perf_counters_fv.sv;
    prep -flatten -top l1d_perf_counters_fv; async2sync; select -assert-min 1 t:\$assert;
    sat -tempinduct -prove-asserts -set-init-undef -enable_undef -set-def-inputs -seq 1 -maxsteps $MAXSTEPS_PERF" \
    >"$log" 2>&1
  grep -q "Induction step proven: SUCCESS" "$log"
}

# coi HARNESS ONLY: the Yosys commands that cut the design down to the cone of influence of the
# kept $assert and $assume cells before the proof (docs/rtl-verification.md, "Cone of influence").
# `sat` and write_smt2 encode every cell of the module, also logic that no kept assertion or
# assumption reads. opt_clean removes a cell only when no output bit of it reaches a port, a kept
# wire or an $assert/$assume/$cover cell, so the same traces violate the same kept assertions: the
# proof and each mutant's counterexample are unchanged, the problem smaller.
# - With ONLY (a mutant: every other assertion deleted after opt -fast): opt_clean drops the
#   deleted assertions' cones.
# - l1d_mshr_fv: a word-level cell is kept whole for one read bit; each of its 8 request words is
#   134 bits (the 5-bit id the assertions read, the warp bit and a 128-bit byte mask nothing reads),
#   one $dffe each and 134-bit read $muxes. simplemap splits gates, $mux and flops into single-bit
#   cells (same init values, same undef model), whose unread bits opt_clean then removes: depth 8
#   748 694 SAT variables -> 317 767.
# Elsewhere nothing: the other harnesses have no such words (simplemap; opt_clean gave 1-3 % more
# variables), and a reordered problem can cost MiniSat more (repl, depth 5: 9.3 CPU-s as it is,
# 29.7 with simplemap, 34.0 with opt_clean alone, which removed nothing; 2026-11-29, load 18).
coi() {
  local harness=$1 only=$2
  if [ "$harness" = mshr ] || [ "$harness" = mshrahead ]; then
    echo "simplemap; opt_clean;"
  elif [ -n "$only" ]; then
    echo "opt_clean;"
  fi
}

# run HARNESS DEPTH RTLDIR LOG [ONLY]: 0 when the bounded proof holds (with ONLY: of that one
# assertion, every other $assert cell deleted; the script fails if there is no such assertion).
run() {
  local harness=$1 depth=$2 dir=$3 log=$4 only=${5:-} files top keep="" defs=""
  case $harness in
    issuevr) defs="-DFV_VALID_READY"; harness=issue; only=${only:-FvReadyHeldUntilFire_A} ;;
    fillvr) defs="-DFV_VALID_READY"; harness=fill; only=${only:-FvFillOfferHeld_A} ;;
    mqwide) defs="-DFV_MQ_PAYLOAD=1481"; harness=mq ;;
    mshrahead) only=${only:-AheadEqual_A} ;;
  esac
  case $harness in
    mshr) files="$dir/l1d_mshr.sv $dir/l1d_ram_1r1w.sv $root/formal/l1d_mshr_fv.sv"; top=l1d_mshr_fv ;;
    mshrahead) files="$dir/l1d_mshr.sv $dir/l1d_mshr_staged.sv $dir/l1d_ram_1r1w.sv $root/formal/l1d_mshr_ahead_fv.sv"
      top=l1d_mshr_ahead_fv ;;
    agcb) files="$dir/l1d_agcb_table.sv $root/formal/l1d_agcb_table_fv.sv"; top=l1d_agcb_table_fv ;;
    agcbahead) files="$dir/l1d_agcb_table.sv $dir/l1d_agcb_table_ahead.sv $root/formal/l1d_agcb_table_ahead_fv.sv"
      top=l1d_agcb_table_ahead_fv ;;
    repl) files="$dir/l1d_repl_state.sv $root/formal/l1d_repl_state_fv.sv"; top=l1d_repl_state_fv ;;
    replfwd) files="$dir/l1d_repl_state.sv $dir/l1d_repl_state_staged.sv $root/formal/l1d_repl_state_fwd_fv.sv"
      top=l1d_repl_state_fwd_fv ;;
    mq) files="$dir/l1d_miss_queue.sv $root/formal/l1d_miss_queue_fv.sv"; top=l1d_miss_queue_fv ;;
    issue) files="$dir/l1d_issue.sv $root/formal/l1d_issue_fv.sv"; top=l1d_issue_fv ;;
    fill) files="$dir/l1d_fill_issue.sv $root/formal/l1d_fill_issue_fv.sv"; top=l1d_fill_issue_fv ;;
    walk) files="$dir/l1d_flush_walker.sv $root/formal/l1d_flush_walker_fv.sv"; top=l1d_flush_walker_fv ;;
    tagrd) files="$dir/l1d_tag_read.sv $dir/l1d_sram_1r1w.sv $root/formal/l1d_tag_read_fv.sv"; top=l1d_tag_read_fv ;;
  esac
  # Every assertion (block and harness) is a $assert cell named after its label; sat proves all
  # of them at every step.
  [ -z "$only" ] || keep="select -assert-min 1 t:\$assert n:*$only %i; delete t:\$assert n:*$only %d;"
  local script="read_verilog -sv -formal $defs $files; prep -flatten -top $top; memory_map; opt -fast; async2sync;"
  script+=" $keep $(coi "$harness" "$only") select -list t:\$assert;"
  if [ "$FV_ENGINE" = abc ]; then
    # Gates and plain flops only (write_aiger's input); setundef makes x constants free inputs.
    "$yosys" -p "$script techmap; opt -fast; setundef -undriven -anyseq; setundef -anyseq; dffunmap; aigmap;
      opt_clean; write_aiger -zinit $log.aig" >"$log" 2>&1 || return 1
    yosys-abc -c "read_aiger $log.aig; print_stats; fold; bmc3 -F $depth" >>"$log" 2>&1
    grep -q "No output asserted in $depth frames" "$log"
    return
  fi
  if [[ " issue fill walk tagrd " == *" $harness "* ]]; then
    # yosys-smtbmc: registers without reset start free, as -set-init-undef makes them for sat.
    "$yosys" -p "$script dffunmap; write_smt2 -wires $log.smt2" >"$log" 2>&1 || return 1
    yosys-smtbmc -s z3 --unroll --presat --noprogress -t "$depth" "$log.smt2" >>"$log" 2>&1
    grep -q "Status: PASSED" "$log"
    return
  fi
  script+=" sat -seq $depth -prove-asserts -set-assumes -set-init-undef -enable_undef -set-def-inputs -show-ports"
  "$yosys" -p "$script" >"$log" 2>&1
  grep -q "SAT proof finished - no model found: SUCCESS" "$log"
}

# mutate JOB FILE SED: the RTL copied to $tmp/JOB with FILE edited by SED; 1 (and a FAIL line)
# when the edit changed nothing.
mutate() {
  cp -r "$tmp/rtl" "$tmp/$1"
  sed -i "$3" "$tmp/$1/$2"
  if cmp -s "$tmp/rtl/$2" "$tmp/$1/$2"; then echo "formal: FAIL $1: the mutation changed nothing"; return 1; fi
}

# expect_trace JOB PATTERN WHAT: after a mutant's check failed, PASS when its log ($tmp/JOB.log)
# shows PATTERN, else FAIL (an error rather than the counterexample WHAT names); 1 on FAIL.
expect_trace() {
  if ! grep -qE "$2" "$tmp/$1.log"; then
    echo "formal: FAIL $1: no $3 (error?):"; tail -20 "$tmp/$1.log"; return 1
  fi
  printf 'formal: PASS %s: %s (%.1f s)\n' "$1" "$3" "$(echo "$(date +%s.%N) - $start" | bc)"
}

jobs=("$@")
[ ${#jobs[@]} -gt 0 ] || jobs=(mshr mshrahead agcb agcbahead repl replfwd mq issue fill walk tagrd perf fillpos issuevr fillvr mqequiv mut-perf-carry mut-fillpos-no-pop mut-mqequiv-last-lane $(printf '%s\n' "${mutants[@]}" | cut -d'|' -f1))
# The staged pipe's l1d_repl_state (jobs replfwd, mut-replfwd-*), l1d_agcb_table (agcbahead) and l1d_mshr
# (mshrahead, mut-mshrahead-*), renamed to sit beside fv_small's.
if printf '%s\n' "${jobs[@]}" | grep -q 'replfwd\|agcbahead\|mshrahead'; then
  "$dcgen" --config "$root/formal/fv_small_staged.yaml" --out "$tmp/rtl_staged" >/dev/null || { echo "formal: dcgen failed"; exit 1; }
  sed 's/^module l1d_repl_state /module l1d_repl_state_staged /' "$tmp/rtl_staged/l1d_repl_state.sv" \
    >"$tmp/rtl/l1d_repl_state_staged.sv"
  sed 's/^module l1d_agcb_table /module l1d_agcb_table_ahead /' "$tmp/rtl_staged/l1d_agcb_table.sv" \
    >"$tmp/rtl/l1d_agcb_table_ahead.sv"
  sed 's/^module l1d_mshr /module l1d_mshr_staged /' "$tmp/rtl_staged/l1d_mshr.sv" >"$tmp/rtl/l1d_mshr_staged.sv"
fi
failed=0
for j in "${jobs[@]}"; do
  start=$(date +%s.%N)
  case $j in
    mshr | mshrahead | agcb | agcbahead | repl | replfwd | mq | mqwide | issue | fill | walk | tagrd | issuevr | fillvr)
      depth=DEPTH_${j^^}
      if run "$j" "${!depth}" "$tmp/rtl" "$tmp/$j.log"; then
        printf 'formal: PASS %s (depth %s, %.1f s)\n' "$j" "${!depth}" "$(echo "$(date +%s.%N) - $start" | bc)"
      else
        echo "formal: FAIL $j (depth ${!depth}): counterexample or error:"; tail -40 "$tmp/$j.log"; failed=1
      fi
      ;;
    perf)
      if induct "$tmp/rtl" "$tmp/perf.log"; then
        printf 'formal: PASS perf (induction, %.1f s)\n' "$(echo "$(date +%s.%N) - $start" | bc)"
      else
        echo "formal: FAIL perf: induction did not prove the read-out:"; tail -20 "$tmp/perf.log"; failed=1
      fi
      ;;
    fillpos)
      if fillpos "$tmp/rtl" "$tmp/fillpos.log"; then
        printf 'formal: PASS fillpos (pos_q <= 3: base case depth %s and induction, %.1f s)\n' "$DEPTH_FILLPOS" \
          "$(echo "$(date +%s.%N) - $start" | bc)"
      else
        echo "formal: FAIL fillpos: counterexample, failed induction or error:"; tail -30 "$tmp/fillpos.log"; failed=1
      fi
      ;;
    mqequiv)
      mqequiv_old "$tmp/mq_old.sv" || { failed=1; continue; }
      for shape in $MQEQUIV_SHAPES; do
        # shellcheck disable=SC2046
        if out=$("$root/scripts/mq_equiv_check.sh" "$tmp/mq_old.sv" "$tmp/rtl/l1d_miss_queue.sv" $(tr : ' ' <<<"$shape") 2>&1); then
          printf 'formal: PASS mqequiv %s: %s (%.1f s)\n' "$shape" "${out#mq_equiv_check: }" "$(echo "$(date +%s.%N) - $start" | bc)"
        else
          echo "formal: FAIL mqequiv $shape:"; echo "$out" | tail -20; failed=1
        fi
        start=$(date +%s.%N)
      done
      if MQ_EQUIV_CONTRACT=0 "$root/scripts/mq_equiv_check.sh" "$tmp/mq_old.sv" "$tmp/rtl/l1d_miss_queue.sv" 8 5 1 >"$tmp/$j.nc.log" 2>&1; then
        echo "formal: FAIL mqequiv: proved equal without the contract (the old RTL's lanes >= Batch should differ)"; failed=1
      elif grep -qE "ERROR: Found [0-9]+ unproven .* in 'equiv_status" "$tmp/$j.nc.log"; then
        printf 'formal: PASS mqequiv without the contract: not equal, as it must (%.1f s)\n' "$(echo "$(date +%s.%N) - $start" | bc)"
      else
        echo "formal: FAIL mqequiv without the contract: error:"; tail -20 "$tmp/$j.nc.log"; failed=1
      fi
      ;;
    mut-mqequiv-last-lane)
      # The new RTL's last batch lane is never written: seen only when a batch of Batch requests
      # arrives. The old and the mutated RTL must not be proved equal.
      mqequiv_old "$tmp/mq_old.sv" || { failed=1; continue; }
      if ! mutate "$j" l1d_miss_queue.sv "s/k < Batch; k++/k < Batch - 1; k++/"; then
        failed=1
      elif "$root/scripts/mq_equiv_check.sh" "$tmp/mq_old.sv" "$tmp/$j/l1d_miss_queue.sv" 8 5 1 >"$tmp/$j.log" 2>&1; then
        echo "formal: FAIL $j: the mutated RTL was proved equal to the old one"; failed=1
      else
        expect_trace "$j" "ERROR: Found [0-9]+ unproven .* in 'equiv_status" "ring bits left unproven (not equal)" || failed=1
      fi
      ;;
    mut-fillpos-no-pop)
      # The head's completion (done_i) no longer moves the cursor back: the bound alone, by BMC,
      # must fail (4 one-request entries taken at cycles 2-5 put pos_q at 4 at cycle 6).
      if ! mutate "$j" l1d_fill_issue.sv "s/pos_d = pos_d - 1'd1;/pos_d = pos_d;/"; then
        failed=1
      elif ! fillpos_smt2 "$tmp/$j" "$tmp/$j.log" FvFillPosBound_A; then
        echo "formal: FAIL $j: error:"; tail -20 "$tmp/$j.log"; failed=1
      elif yosys-smtbmc -s z3 --unroll --presat --noprogress -t 8 "$tmp/$j.log.smt2" >>"$tmp/$j.log" 2>&1; then
        echo "formal: FAIL $j: the mutated RTL passed, expected FvFillPosBound_A to fire"; failed=1
      else
        expect_trace "$j" "Assert failed in .*FvFillPosBound_A" "counterexample at depth <= 8 of FvFillPosBound_A" \
          || failed=1
      fi
      ;;
    mut-perf-carry)
      # The carry into chunk 2 dropped: wrong only after 2^32 / 15 cycles, so no bounded run shows
      # it, but the induction must fail.
      if ! mutate "$j" l1d_perf_counters.sv "s/17'(16'(carry1_q))/17'(16'(1'b0))/"; then
        failed=1
      elif induct "$tmp/$j" "$tmp/$j.log"; then
        echo "formal: FAIL $j: induction proved the mutated counters"; failed=1
      else
        expect_trace "$j" "Reached maximum number of time steps -> proof failed" \
          "induction failure on the mutated counters" || failed=1
      fi
      ;;
    mut-*)
      line=$(printf '%s\n' "${mutants[@]}" | grep "^$j|") || { echo "formal: no job $j"; failed=1; continue; }
      IFS='|' read -r _ file expr harness depth want <<<"$line"
      mutate "$j" "$file" "$expr" || { failed=1; continue; }
      # Only the expected assertion is kept: a counterexample is then one of it.
      if run "$harness" "$depth" "$tmp/$j" "$tmp/$j.log" "$want"; then
        echo "formal: FAIL $j: the mutated RTL passed, expected $want to fire"; failed=1
      else
        expect_trace "$j" "model found: FAIL|Assert failed in .*$want|Output [0-9]+ of miter .* was asserted in frame" \
          "counterexample at depth <= $depth of $want" \
          || failed=1
      fi
      ;;
    *) echo "formal: unknown job $j"; failed=1 ;;
  esac
done
exit "$failed"
