#!/usr/bin/env bash
# ctest synth.smoke: the synthesis flow of make synth works, and fails when it should.
#
#   smoke.sh [WORKDIR]
#
# SYNTH_SMOKE_PARTS (default "real fixture nested1 broken") names the parts run: real (1), fixture
# (2), nested1 / nested0 (2b with --hier-params 1 / 0), broken (3). make test runs the default;
# ctest synth.smoke_nested0 (label slow, make test-slow) runs nested0, the second instance of 2b's
# nested-macro check (testcost8, 2026-11-29: 8.5 of this test's 53 CPU-s at load 16; it adds only
# that l1d_nest_mid, without --hier-params, is flattened into the glue).
#
# 1. Three small blocks of rtl/ on osu018 (synth/synth.sh, on a copy of their files): exit 0, and every report row has
#    cells, area and a path > 0, a path between 2 and 100 FO4, flops for the sequential block
#    only, and the FO4 of the library is between 20 and 500 ps.
# 2. Black boxes, SRAM macros, hierarchical synthesis and the policy-overhead row
#    (synth/test/fixture, its baseline the same RTL with cfg_policy_i tied to 0): the SRAM area is
#    the bits of the two data SRAM instances (2 x 32 x 8) and of the one large memory (512 x 16)
#    times the density, the small memory stays in flops; l1d_top is its glue plus the sub-block
#    l1d_policy_unit in context (its unread dbg_o, and in the baseline its constant en_i, remove
#    its flops), and the overhead is > 0; of two variants, cfg_policy_i tied to 1 and nothing
#    tied, the second shares the full build's synthesis of the sub-block.
# 2b. SRAM primitives nested two levels down, in the glue and in a sub-block (sg13g2 macros; the
#    flow used to lose the sub-blocks' macros: "SRAM macros missing from the netlist").
# 3. Broken inputs make the flow fail with the right message: an empty liberty file; a latch
#    (synth/test/fixture-latch: Yosys leaves an internal cell unmapped); and OpenSTA handed an
#    empty library (it prints an error and carries on: the flow must notice).
set -uo pipefail
# Debian's interpreter when present: a version manager's python3 shim first on PATH (pyenv's)
# costs ~0.9 CPU-s a start against ~0.07 (docs/performance.md, seventh round).
export PYTHON3="${PYTHON3:-$(command -v /usr/bin/python3 || command -v python3)}"

root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d)}
[ $# -ge 1 ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
failed=0
parts=" ${SYNTH_SMOKE_PARTS:-real fixture nested1 broken} "
part() { [[ $parts == *" $1 "* ]]; }
for p in $parts; do
  case $p in real | fixture | nested0 | nested1 | broken) ;;
    *) echo "smoke.sh: SYNTH_SMOKE_PARTS: unknown part '$p' (real, fixture, nested0, nested1, broken)"; exit 2 ;;
  esac
done
pass() { echo "PASS $1"; }
fail() {
  echo "FAIL $1"
  failed=1
}

# --- 1. real blocks ---
# rtl/'s files of the three blocks (leaves: they instantiate nothing), copied into a directory of
# their own: synth.sh scans every file of its RTL directory for each block's sub-blocks (two
# processes a file) and each block's Yosys parses every file there (read_verilog -defer), so on
# all 37 of rtl/ the run was 7.2 of this test's 39.6 s (idle, /tmp/cc7.log); the flow and the
# checks below are the same (testcost7, 2026-11-29).
if part real; then
blocks="l1d_addr_decode l1d_tag_mask l1d_agelru_ages"
mkdir -p "$work/ok-rtl"
for b in $blocks; do cp "$root/rtl/$b.sv" "$work/ok-rtl/"; done
if "$root/synth/synth.sh" --rtl "$work/ok-rtl" --out "$work/ok" --jobs 2 --blocks "$blocks" >"$work/ok.log" 2>&1; then
  pass "synth.sh on $blocks"
else
  cat "$work/ok.log"
  fail "synth.sh on $blocks: exit status $?"
fi
if "$PYTHON3" - "$work/ok/osu018/report.json" "$blocks" "$work/ok/report.json" <<'EOF'; then
import json, sys
rep = json.load(open(sys.argv[1]))
assert json.load(open(sys.argv[3]))['libraries'] == [rep], 'combined report.json'
fo4 = rep['library']['fo4_ps']
assert 20 < fo4 < 500, f'FO4 {fo4} ps'
rows = {r['block']: r for r in rep['blocks']}
assert sorted(rows) == sorted(sys.argv[2].split()), f'rows {sorted(rows)}'
for name, r in rows.items():
    assert r['status'] == 'ok' and r['library'] == 'osu018', f'{name}: {r}'
    assert r['cells'] > 0 and r['area_um2'] > 0 and r['critical_ns'] > 0, f'{name}: {r}'
    assert 2 < r['fo4'] < 100, f'{name}: {r["fo4"]} FO4'
    assert abs(r['fo4'] * fo4 / 1000 - r['critical_ns']) < 0.01 * r['critical_ns'] + 0.001, name
    assert (r['flops'] > 0) == (r['kind'] == 'seq'), f'{name}: {r["flops"]} flops, {r["kind"]}'
    assert r['start'] and r['end'] and r['yosys_s'] > 0 and r['sta_s'] > 0, f'{name}: {r}'
assert rows['l1d_agelru_ages']['flops'] >= 17, rows['l1d_agelru_ages']
assert not rep['policy_overhead']['available']
print('report: ' + ', '.join(f'{n} {r["cells"]} cells {r["area_um2"]:.0f} um2 {r["fo4"]} FO4'
                             for n, r in sorted(rows.items())))
EOF
  pass "report.json has sane numbers"
else
  fail "report.json numbers"
fi
fi  # real

# --- 2. black box and policy overhead on the fixture ---
if part fixture; then
if "$root/synth/synth.sh" --rtl "$root/synth/test/fixture" --out "$work/fixture" --jobs 2 \
  --baseline-rtl "$root/synth/test/fixture" --baseline-const cfg_policy_i=0 \
  --variant "on=$root/synth/test/fixture:cfg_policy_i=1" --variant "free=$root/synth/test/fixture" \
  >"$work/fixture.log" 2>&1 &&
  "$PYTHON3" - "$work/fixture/osu018/report.json" <<'EOF'; then
import json, os, sys
rep = json.load(open(sys.argv[1]))
rows = {r['block']: r for r in rep['blocks']}
top, density = rows['l1d_top'], rep['sram_um2_per_bit']
assert top['status'] == 'ok' and top['sram_bits'] == 2 * 32 * 8 + 512 * 16, top
assert abs(top['sram_area_um2'] - (512 + 8192) * density) < 1, top
assert top['sram_macros'] == ['l1d_top/buf_q (512 x 16)'], top['sram_macros']
assert top['flops'] == 2 * 8 + 4 * 8, top  # acc_q, pol_q, the table (the wrapper's flops not counted)
assert rows['l1d_data_sram']['kind'] == 'black box' and rows['l1d_data_sram']['sram_bits'] == 16 * 8
po = rep['policy_overhead']
assert po['available'] and po['overhead_um2'] > 0 and po['overhead_pct'] > 0, po
assert po['baseline_flops'] <= po['full_flops'] - 8, po  # pol_q is gone
assert po['full_area_um2'] == top['area_um2'] and po['baseline_sram_um2'] == top['sram_area_um2'], po
# Hierarchical: the glue and the sub-block add up; the sub-block is in context in both builds.
sub, = top['subblocks']
assert sub['block'] == 'l1d_policy_unit' and sub['instances'] == 1 and sub['in_context'], sub
assert sub['flops'] == 8 and top['glue']['flops'] == 8 + 4 * 8, top  # sum_q; acc_q, the table
assert abs(top['area_um2'] - top['glue']['area_um2'] - sub['area_um2']) < 1, top
alone = rows['l1d_policy_unit']
assert alone['flops'] == 16 and alone['area_um2'] > sub['area_um2'], alone  # dbg_q only alone
base_ctx = json.load(open(sys.argv[1].replace('report.json', 'baseline/l1d_top/context/l1d_policy_unit.json')))
assert base_ctx['const_inputs'] == {'en_i': "1'b0"} and base_ctx['unused_outputs'] == ['dbg_o'], base_ctx
full_ctx = json.load(open(sys.argv[1].replace('report.json', 'blocks/l1d_top/context/l1d_policy_unit.json')))
assert full_ctx['const_inputs'] == {} and full_ctx['unused_outputs'] == ['dbg_o'], full_ctx
# Variants: cfg_policy_i tied to 1 keeps the policy unit (en_i constant 1 in its context); with
# nothing tied, the build is the full one and shares its synthesis of the sub-block in context.
free, on = rep['variants']
assert on['variant'] == 'on' and on['status'] == 'ok' and on['const'] == 'cfg_policy_i=1', on
assert on['flops'] == top['flops'] and on['area_um2'] > po['baseline_area_um2'], (on, po)
assert free['variant'] == 'free' and free['area_um2'] == top['area_um2'], (free, top)
cache = os.path.join(os.path.dirname(sys.argv[1]), 'context-cache')
assert len([e for e in os.listdir(cache) if not e.endswith('.lock')]) == 3, os.listdir(cache)
print(f'fixture: SRAM {top["sram_bits"]} bits {top["sram_area_um2"]} um2, overhead {po["overhead_pct"]} %,'
      f' l1d_policy_unit {sub["area_um2"]} um2 in context, {alone["area_um2"]} alone')
EOF
  pass "black-box SRAM area and policy-overhead row"
else
  cat "$work/fixture.log"
  fail "black-box SRAM area and policy-overhead row"
fi
fi  # fixture

# --- 2b. SRAM primitives nested below the top and inside sub-blocks (synth/test/fixture-nested-sram
# with rtl/'s l1d_sram_1rw / l1d_sram_1r1w), sg13g2's macros: every macro is in the netlists,
# counted once per instance, and timed by OpenSTA; with --hier-params 1 the parameterized
# l1d_nest_mid is a sub-block synthesized with its instance's parameter, without it it is
# flattened into the glue ---
nested=$work/nested-rtl
mkdir -p "$nested"
cp "$root"/synth/test/fixture-nested-sram/*.sv "$root/rtl/l1d_sram_1rw.sv" "$root/rtl/l1d_sram_1r1w.sv" "$nested/"
for hp in 0 1; do
  part nested$hp || continue
  if "$root/synth/synth.sh" --lib sg13g2 --rtl "$nested" --out "$work/nested$hp" --jobs 2 --blocks l1d_top \
    --hier-params $hp >"$work/nested$hp.log" 2>&1 &&
    "$PYTHON3" - "$work/nested$hp/sg13g2" $hp <<'EOF'; then
import json, os, sys
run, hier_params = sys.argv[1], sys.argv[2] == '1'
top, = json.load(open(os.path.join(run, 'report.json')))['blocks']
assert top['status'] == 'ok', top
L = top['sram_layer']
# u_mid's 1r1w (one two-port macro) and each bank's 1rw (one 64x64 macro), each found in a netlist
assert {(m['cell'], m['count'], m['found_in_netlist']) for m in L['macros']} == {
    ('RM_IHPSG13_2P_256x32_c2_bm_bist', 1, 1), ('RM_IHPSG13_1P_64x64_c2_bm_bist', 2, 2)}, L['macros']
assert L['macro_count'] == 3 and L['macro_to_reg'] and L['reg_to_macro'], L
sta = json.load(open(os.path.join(run, 'blocks', 'l1d_top', 'sta.json')))
assert sta['sram']['macros'] == 3, sta  # OpenSTA found all three with their liberty cells
subs = {s['block']: s for s in top['subblocks']}
assert subs['l1d_nest_bank']['instances'] == 2 and subs['l1d_nest_bank']['macro_count'] == 1, subs
assert subs['l1d_nest_bank']['array_bits'] == 32 * 32 and subs['l1d_nest_bank']['flops'] == 5, subs
# the worst path ending in each bank (its addr_q) and in the glue (mid_q)
assert {'u_bank0', 'u_bank1', 'glue'} <= set(top['per_instance']), top['per_instance']
assert 'addr_q[' in top['per_instance']['u_bank0']['end'], top['per_instance']
params = os.path.join(run, 'blocks', 'l1d_top', 'sub_params', 'l1d_nest_mid.txt')
if hier_params:
    assert 'l1d_nest_mid' in subs and open(params).read().split() == ['Width=32'], subs
else:
    assert 'l1d_nest_mid' not in subs and not os.path.exists(params), subs
print(f'nested, hier-params {int(hier_params)}: {L["macro_count"]} macros {L["macro_area_um2"]:.0f} um2,'
      f' {L["period_ns"]} ns ({L["limit"]})')
EOF
    pass "nested SRAM macros, --hier-params $hp"
  else
    cat "$work/nested$hp.log"
    fail "nested SRAM macros, --hier-params $hp"
  fi
done

# --- 3. broken inputs ---
expect_fail() {  # expect_fail NAME TEXT COMMAND...
  local name=$1 text=$2
  shift 2
  if "$@" >"$work/$name.log" 2>&1; then
    fail "$name: the flow succeeded"
  elif ! grep -qF -- "$text" "$work/$name.log"; then
    cat "$work/$name.log"
    fail "$name: no '$text' in the output"
  else
    pass "$name fails: $(grep -F -m1 -- "$text" "$work/$name.log")"
  fi
}
if part broken; then
: >"$work/empty.lib"
expect_fail empty_liberty "no usable cell" \
  "$root/synth/synth.sh" --liberty "$work/empty.lib" --out "$work/empty" --blocks l1d_addr_decode
expect_fail unmapped_latch "unmapped internal cells" \
  "$root/synth/synth.sh" --rtl "$root/synth/test/fixture-latch" --out "$work/latch" --jobs 1
mkdir -p "$work/sta"
expect_fail sta_empty_library "no cell loaded" \
  env STA_LIBERTY="$work/empty.lib" STA_NETLIST=/dev/null STA_TOP=x STA_DRIVER=x STA_LOAD=0 \
  STA_PERIOD=10 STA_REPORT="$work/sta/r" STA_OUT="$work/sta/out.json" SYN_TOOLS="$root/synth" \
  sh -c 'sta -no_init -no_splash -exit "$SYN_TOOLS/sta_block.tcl"; test -s "$STA_OUT"'
fi  # broken

exit $failed
