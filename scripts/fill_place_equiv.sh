#!/usr/bin/env bash
# The staged pipe's l1d_fill_place_m2 (the victim only selects: gen/blocks/l1d_fill_place_m2.cpp,
# victim_selects) equal to the single-cycle form, output for output, for every input: a Yosys 0.23
# miter of the two combinational modules, proved by `sat -prove-asserts` (MiniSat), on each
# configuration given (its own `l1.pipeline` replaced by single_cycle and by staged), then the
# same miter with the staged form mutated (a whole-line fill into a free line no longer replacing
# nothing; since timing16 also such a fill's queue room read as room for one write-back), each of
# which must fail: so the check can fail. The staged form has one more input and output (room_n_i:
# the miss queue's room for k = 0..4 write-backs; room_o: for this placement's, prepared per way):
# the single-cycle form gets them as the top computed them, room_o = room_n_i[writebacks_o].
#
#   fill_place_equiv.sh DCGEN CONFIG.yaml...
#
# FPE_MUTANTS=none skips the mutants (make test's formal.fill_place_staged: the miters of the
# per-way staged form take about 2 CPU-s more with them; formal.fill_place_staged_mutants, label
# slow, runs them).
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,9p' "$0" >&2; exit 2; }
dcgen=$1
shift
yosys=${YOSYS:-yosys}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# emit YAML PIPELINE DIR: dcgen's l1d_fill_place_m2 for YAML with l1.pipeline set to PIPELINE.
emit() {
  local yaml=$1 pipe=$2 dir=$3
  mkdir -p "$dir"
  grep -v '^  pipeline:' "$yaml" | sed "s/^l1:\$/l1:\n  pipeline: $pipe/" >"$dir/cfg.yaml"
  grep -q "^  pipeline: $pipe" "$dir/cfg.yaml" || { echo "fill_place_equiv: $yaml: no top-level 'l1:' map"; exit 1; }
  "$dcgen" --config "$dir/cfg.yaml" --block l1d_fill_place_m2 --out "$dir" >/dev/null ||
    { echo "fill_place_equiv: dcgen failed on $yaml ($pipe)"; exit 1; }
}

# prove GOLD GATE: 0 if the two modules are equal for every input.
prove() {
  sed -e 's/^module l1d_fill_place_m2 (/module gold (\n  input  logic [4:0]  room_n_i,\n  output logic        room_o,/' \
      -e 's/^endmodule/  assign room_o = room_n_i[writebacks_o];\nendmodule/' "$1" >"$tmp/gold.sv"
  sed 's/^module l1d_fill_place_m2/module gate/' "$2" >"$tmp/gate.sv"
  "$yosys" -q -p "read_verilog -sv $tmp/gold.sv $tmp/gate.sv; proc; opt_clean;
    miter -equiv -flatten -make_assert gold gate miter; hierarchy -top miter;
    sat -verify -prove-asserts miter" >"$tmp/sat.log" 2>&1
}

fail=0
for yaml in "$@"; do
  name=$(basename "$yaml" .yaml)
  emit "$yaml" single_cycle "$tmp/$name/single"
  emit "$yaml" staged "$tmp/$name/staged"
  gold=$tmp/$name/single/l1d_fill_place_m2.sv
  gate=$tmp/$name/staged/l1d_fill_place_m2.sv
  if cmp -s "$gold" "$gate"; then
    echo "FAIL $name: the staged l1d_fill_place_m2 is the single-cycle one (no staged form emitted)"
    fail=1
    continue
  fi
  if prove "$gold" "$gate"; then
    echo "PASS $name: staged l1d_fill_place_m2 == single-cycle, every input"
  else
    echo "FAIL $name: the two forms differ"; tail -40 "$tmp/sat.log"; fail=1
  fi
  [ "${FPE_MUTANTS:-all}" = none ] && continue
  mutant() {  # mutant NAME SED: the staged form edited by SED must differ from the single-cycle one
    sed "$2" "$gate" >"$tmp/$name/mutant.sv"
    if cmp -s "$gate" "$tmp/$name/mutant.sv"; then
      echo "FAIL $name: the mutant ($1) no longer applies (update its sed)"; fail=1
    elif prove "$gold" "$tmp/$name/mutant.sv"; then
      echo "FAIL $name: the mutant ($1) was not found"; fail=1
    else
      echo "PASS $name: the mutant ($1) differs (found)"
    fi
  }
  mutant "free line replacing the victim's slots" '/assign replaces_valid_o/s/: to_victim & (/: (/'
  mutant "free line's room read as one write-back's" '/assign room_o/s/room_n_i\[0\]/room_n_i[1]/'
done
exit $fail
