#!/usr/bin/env bash
# Formal equivalence of a sequential block's RTL and its Yosys netlist (issue 25), the sibling of
# synth/equiv_check.sh (combinational blocks): Yosys' equivalence flow pairs the two designs'
# flops and outputs by name (equiv_make), then proves every pair equal from any state in which the
# pairs already agree (equiv_simple, equiv_induct: induction over the clock edges). What it proves:
# from equal states the two give equal outputs and next states for every input, so started equal
# they agree on every cycle of every run. Reset makes the reset flops equal; a flop without reset
# (datapath) is assumed to start equal on both sides, as the proof cannot know otherwise.
#   synth/equiv_seq_check.sh RTL_DIR BLOCK NETLIST.v
#   EQUIV_ENGINE=abc synth/equiv_seq_check.sh RTL_DIR BLOCK NETLIST.v
#
# EQUIV_ENGINE=abc proves the same two designs with ABC instead (l1d_mshr: Yosys' equiv_simple
# never finishes its `merge_o`, whose lowest-matching-entry logic synthesis restructures, and
# MiniSat gets no internal equivalence points between the two cones). Yosys builds a sequential
# miter of the two (miter -equiv on the ports, the everted black-box pins included), maps it to
# an AIG with every flop starting at 0 on both sides (setundef -init: the reset is a free input, so
# every state a reset reaches is covered too; flops without reset start 0 on both sides, where the
# Yosys flow assumes only that they start equal), and ABC's `dprove` proves its output never rises:
# latch correspondence and SAT sweeping (fraiging) find the equal flops and internal points, and
# induction / reachability on what is left decides the rest. "Networks are equivalent" is an
# unbounded proof; a counterexample prints "not equivalent"; anything else (a resource limit) is
# reported as undecided, never as a pass. The names need not match here, only the ports.
#
# Only the flops (`*_q`, the RTL's naming rule, and `*_q[i]`, a memory's words) and the ports are
# paired: the netlist also keeps
# names of the RTL's next-state wires (`*_d`), which Yosys is free to change where they do not
# matter (a flop with an enable ignores its D when disabled), so pairing them would report
# differences that are none. Both sides take async2sync (the asynchronous reset as a
# multiplexer in front of each flop), which the $equiv proof needs; it changes both alike.
# A netlist that renames or merges flops leaves them unpaired, and the induction then fails: a
# false alarm, never a false proof.
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 RTL_DIR BLOCK NETLIST.v" >&2
  exit 2
fi
rtl=$1 block=$2 netlist=$3
[ -f "$rtl/$block.sv" ] || { echo "equiv_seq_check: $rtl/$block.sv: no such file" >&2; exit 2; }
[ -f "$netlist" ] || { echo "equiv_seq_check: $netlist: no such file" >&2; exit 2; }
pkgs=$(ls "$rtl"/*_pkg.sv 2>/dev/null | tr "\n" " " || true)
# The synthesis black boxes (synth/yosys_check.sh's SYN_BLACKBOX: SRAM macros) stay black boxes on
# both sides, read with -lib: the netlist instantiates them, and their pins are compared (below).
blackboxes=" ${SYN_BLACKBOX-l1d_data_sram l1d_ram_1r1w l1d_sram_1rw l1d_sram_1r1w} "
others="" libs=""
# The packages, BLOCK's file and those of the modules it names, transitively
# (scripts/rtl_digest.py --files), not every file of RTL_DIR: Yosys elaborates only those
# (hierarchy -top), and parsing all of rtl/ was most of a small block's proof (testcost7).
py=${PYTHON3:-$(command -v /usr/bin/python3 || command -v python3)}
files=$("$py" "$(dirname "$0")/../scripts/rtl_digest.py" --files "$rtl" "$block") || exit 2
for f in ${files#"$block "}; do
  m=$(basename "$f" .sv)
  case $m in *_pkg) continue ;; esac
  if [[ "$blackboxes" == *" $m "* && "$m" != "$block" ]]; then libs+=" $f"; else others+=" $f"; fi
done
lib_read=""
[ -z "$libs" ] || lib_read="read_verilog -sv -lib $libs; "
# A black box's instance becomes ports of the block (expose -evert: its inputs outputs, its
# outputs inputs), paired by name like the others, so what the two sides feed it is compared.
evert=""
for bb in $blackboxes; do evert+="; expose -evert t:$bb"; done
prep="proc; flatten; memory; opt_clean; async2sync$evert; rename -hide w:* w:*_q* x:* %u %d"
script="${lib_read}read_verilog -defer -sv $pkgs $others; hierarchy -top $block; $prep"
script+="; rename $block gold; design -stash gold"
script+="; ${lib_read}read_verilog $netlist; hierarchy -top ${block}_netlist; $prep"
script+="; rename ${block}_netlist gate; design -stash gate"
script+="; design -copy-from gold -as gold gold; design -copy-from gate -as gate gate"
log=$(mktemp)
trap 'rm -f "$log" "$log.aig"' EXIT
if [ "${EQUIV_ENGINE:-yosys}" = abc ]; then
  # dffunmap before and after techmap: every flop with an enable or a synchronous reset, coarse or
  # fine, becomes a plain flop and logic, the only kind write_aiger takes.
  script+="; miter -equiv -flatten -ignore_gold_x gold gate miter; hierarchy -top miter"
  script+="; flatten; dffunmap; techmap; opt_clean; dffunmap; abc -g AND; opt_clean"
  script+="; setundef -zero -init; write_aiger -zinit $log.aig"
  yosys -p "$script" > "$log" 2>&1 && ! grep -q '^ERROR' "$log" || {
    grep -m 20 '^ERROR' "$log" >&2 || tail -20 "$log" >&2
    echo "equiv_seq_check: $block: Yosys could not build the miter" >&2
    exit 2
  }
  yosys-abc -c "read_aiger $log.aig; print_stats; dprove" > "$log" 2>&1 || true
  if grep -q '^Networks are equivalent' "$log"; then
    echo "equiv_seq_check: $block: RTL and netlist equivalent from reset on (ABC dprove on the miter: $(grep -m1 -oE 'lat = *[0-9]+' "$log" | grep -oE '[0-9]+') flops)"
    exit 0
  fi
  grep -m 5 -iE 'equivalent|asserted|undecided|error' "$log" >&2 || tail -20 "$log" >&2
  if grep -qiE 'not equivalent|asserted' "$log"; then
    echo "equiv_seq_check: $block: RTL and netlist differ (ABC found a counterexample)" >&2
    exit 1
  fi
  echo "equiv_seq_check: $block: undecided (ABC dprove neither proved nor refuted it)" >&2
  exit 2
fi
script+="; equiv_make gold gate equiv; hierarchy -top equiv"
script+="; equiv_simple; equiv_induct; equiv_status -assert"
if yosys -p "$script" > "$log" 2>&1 && ! grep -q '^ERROR' "$log"; then
  pairs=$(grep -m1 -oE 'Found [0-9]+ \$equiv cells' "$log" | grep -oE '[0-9]+')
  echo "equiv_seq_check: $block: RTL and netlist equivalent from reset on, $pairs flop and output bits paired (induction)"
else
  grep -m 40 -E "^ERROR|^  Unproven" "$log" >&2 || true
  echo "equiv_seq_check: $block: RTL and netlist differ (or the proof failed), see above" >&2
  exit 1
fi
