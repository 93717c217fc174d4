#!/usr/bin/env bash
# Prepare a liberty file for the flow and measure its FO4 delay (synth/synth.sh, synth/sweep.sh).
#
#   library.sh osu018|sky130|sg13g2|FILE.lib[.gz] LIBDIR
#
# Writes into LIBDIR: marked.lib (plain copy with dont_use marks and no wire-load model),
# lib.json / lib.env (synth/liberty.py: inverter, driving buffer, load, tie cells, flops),
# abc.constr (ABC's driving cell and load, in fF), fo4.json (synth/fo4.tcl) and adds LIB_ID and
# LIB_SRAM_UM2_PER_BIT to lib.env. sky130 and sg13g2 come from PDK_DIR (default ../shared/pdk
# beside the repository); a FILE takes SRAM_UM2_PER_BIT from the environment (else the data SRAM
# area is reported as unknown). Prints one line; exit 1 with a message on any problem.
set -uo pipefail
# Debian's interpreter when present: a version manager's python3 shim first on PATH (pyenv's)
# costs ~0.9 CPU-s a start against ~0.07 (docs/performance.md, seventh round).
export PYTHON3="${PYTHON3:-$(command -v /usr/bin/python3 || command -v python3)}"

if [ $# -ne 2 ]; then
  echo "usage: $0 osu018|sky130|sg13g2|FILE.lib LIBDIR" >&2
  exit 2
fi
which=$1 libdir=$2
root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/synth
pdk=${PDK_DIR:-$root/../shared/pdk}

die() {
  echo "synth: $*" >&2
  exit 1
}

# Data SRAM densities in um^2 per bit of a whole macro (docs/synthesis.md, "The data SRAM"):
# sky130 6.84 (SRAM22 sram22_2048x64m8w8, 16 KB, 1126.0 x 796.2 um), sg13g2 4.47 (IHP
# RM_IHPSG13_1P_4096x8_c3_bm_bist, 32 kbit, 236.8 x 618.3 um), osu018 13.1 (the sky130 figure
# scaled by (180/130)^2: no open 0.18 um SRAM macro at hand).
dont_use=()
case $which in
  osu018)
    src=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
    [ -f "$src" ] || die "no $src (Debian package qflow-tech-osu018; scripts/setup-deps.sh installs it)"
    id=osu018 density=13.1
    ;;
  sky130 | sg13g2)
    [ -d "$pdk" ] || die "LIB=$which needs the liberty files of ../shared/pdk: no directory $pdk (set PDK_DIR)"
    if [ "$which" = sky130 ]; then
      src=$pdk/sky130_fd_sc_hd__tt_025C_1v80.lib.gz density=6.84
      dont_use=(__probe_p_ __probec_p_ __lpflow_)
    else
      src=$pdk/sg13g2_stdcell_typ_1p20V_25C.lib.gz density=4.47
      dont_use=(_lgcp_ _slgcp_ _sighold _dlygate)
    fi
    [ -f "$src" ] || die "LIB=$which: no $src (set PDK_DIR to the directory that holds it)"
    id=$which
    ;;
  *.lib | *.lib.gz | */*)
    src=$which
    [ -f "$src" ] || die "no liberty file $src"
    id=$(basename "$src")
    id=${id%.gz}
    id=${id%.lib}
    density=""
    ;;
  *) die "unknown library '$which': osu018, sky130, sg13g2, or LIBERTY=/path/file.lib" ;;
esac
density=${SRAM_UM2_PER_BIT:-$density}

mkdir -p "$libdir"
"$PYTHON3" "$tools/liberty.py" "$src" "$libdir/marked.lib" "$libdir/lib.json" \
  ${dont_use[@]:+--dont-use "${dont_use[@]}"} || die "cannot use the liberty file $src"
printf "LIB_ID='%s'\nLIB_SRAM_UM2_PER_BIT='%s'\n" "$id" "$density" >>"$libdir/lib.env"
# The SRAM layer (synth/sram_tiling.py, docs/synthesis.md): sky130 and sg13g2 tile l1d_sram_*
# arrays onto the macros of SRAM_DIR (default PDK_DIR/sram), whose .lib.gz are unpacked into
# LIBDIR/macros (neither Yosys 0.23 nor OpenSTA 2.0.17 reads .lib.gz); other libraries get one
# black box per array at the density above. LIB_FO4_NS (below) times those black boxes.
case $id in
  sky130 | sg13g2)
    sram_dir=${SRAM_DIR:-$pdk/sram}
    mkdir -p "$libdir/macros"
    n=0
    for f in "$sram_dir"/*.lib.gz; do
      [ -e "$f" ] || continue
      gunzip -c "$f" >"$libdir/macros/$(basename "$f" .gz)" || die "cannot unpack $f"
      n=$((n + 1))
    done
    [ "$n" -gt 0 ] || die "LIB=$id: no SRAM macro liberty files (*.lib.gz) in $sram_dir (set SRAM_DIR)"
    printf "LIB_SRAM_KIND='%s'\n" "$id" >>"$libdir/lib.env"
    ;;
  *) printf "LIB_SRAM_KIND='blackbox'\n" >>"$libdir/lib.env" ;;
esac
# shellcheck source=/dev/null
. "$libdir/lib.env"
printf 'set_driving_cell %s\nset_load %s\n' "$LIB_BUF" "$LIB_LOAD_FF" >"$libdir/abc.constr"

FO4_LIBERTY=$libdir/marked.lib FO4_INV=$LIB_INV FO4_INV_IN=$LIB_INV_IN FO4_INV_OUT=$LIB_INV_OUT \
  FO4_DIR=$libdir FO4_OUT=$libdir/fo4.json SYN_TOOLS=$tools \
  "${STA:-sta}" -no_init -no_splash -exit "$tools/fo4.tcl" >"$libdir/fo4.log" 2>&1
if [ ! -s "$libdir/fo4.json" ] || grep -q '^Error' "$libdir/fo4.log"; then
  cat "$libdir/fo4.log" >&2
  die "FO4 measurement failed for $src"
fi
printf "LIB_FO4_NS='%s'\n" "$("$PYTHON3" -c 'import json,sys; print(json.load(open(sys.argv[1]))["fo4_ns"])' "$libdir/fo4.json")" \
  >>"$libdir/lib.env"
echo "synth: library $id ($LIB_NAME, $LIB_CELLS usable cells), $(grep -o '^fo4: .*' "$libdir/fo4.log")"
