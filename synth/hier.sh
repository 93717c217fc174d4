#!/usr/bin/env bash
# The sub-blocks and the timing of a hierarchical block, once its glue is synthesized
# (synth/synth.sh; docs/synthesis.md).
#
#   hier.sh RTL_DIR TOP LIBDIR OUTDIR STANDALONE_RTL STANDALONE_DIR SUB...
#
# OUTDIR holds the glue (synth/block.sh with SYN_STAGE=yosys, the SUBs black boxes). Each pass
# derives every sub-block's context from the glue and from the sub-blocks' latest netlists
# (synth/context.py extract: constant inputs, outputs that reach nothing live) and synthesizes
# again, in context, each sub-block whose context changed (synth/block.sh with SYN_CONTEXT and
# SYN_STAGE=yosys: not timed alone, the whole is timed below, and in context a sub-block may have
# no register left); a sub-block
# whose context is empty is STANDALONE_DIR/<SUB> (this run's synthesis of it on its own, from
# STANDALONE_RTL) when that exists and its RTL is the same (comment lines aside: dcgen's header
# names the policy). Removing logic from one sub-block can leave outputs of another without a live
# reader, so the passes go on until no context changes (at most 4). The last pass's contexts stay
# in OUTDIR/context/ (with glue_dead.json), the sub-blocks in OUTDIR/sub/<SUB>; then OpenSTA
# times the glue with the sub-blocks (synth/block.sh with SYN_STAGE=sta). Exit 1 on any failure.
# SYN_HIER_JOBS (default 2): sub-blocks synthesized at the same time within a pass.
#
# SYN_CONTEXT_CACHE (a directory, optional): sub-blocks in context are kept there under a hash of
# their RTL (comment lines aside), context and library, and shared by every hierarchical block of
# the run that needs the same one (make synth-policies builds l1d_top nine times).
set -uo pipefail
# Debian's interpreter when present: a version manager's python3 shim first on PATH (pyenv's)
# costs ~0.9 CPU-s a start against ~0.07 (docs/performance.md, seventh round).
export PYTHON3="${PYTHON3:-$(command -v /usr/bin/python3 || command -v python3)}"
[ $# -ge 7 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
rtl=$1 top=$2 libdir=$3 out=$4 alone_rtl=$5 alone=$6
shift 6
subs="$*"
tools=$(cd "$(dirname "$0")" && pwd)
fail() {
  echo "synth: FAIL $top: $*" >&2
  "$PYTHON3" -c 'import json,sys; print(json.dumps({"status": "fail", "error": sys.argv[1]}))' "$*" >"$out/status.json"
  exit 1
}

strip_comments() { grep -v '^[[:space:]]*//' "$1"; }

# The context a sub-block was last synthesized in ("" = not yet; "{}" = none: the standalone run).
# A sub-block instantiated with parameters (synth.sh --hier-params) has them in the glue's
# sub_params/<SUB>.txt and is never the standalone run, which has the defaults.
declare -A done_ctx latest params
for s in $subs; do
  done_ctx[$s]=""
  latest[$s]=""
  params[$s]=$(cat "$out/sub_params/$s.txt" 2>/dev/null)
  if [ -z "${params[$s]}" ] && [ -d "$alone/$s" ] && grep -q '"status": "ok"' "$alone/$s/status.json" 2>/dev/null &&
    cmp -s <(strip_comments "$rtl/$s.sv") <(strip_comments "$alone_rtl/$s.sv"); then
    done_ctx[$s]="{}"
    latest[$s]=$alone/$s
  fi
done
in_context() {  # in_context CONTEXT SUB DIR: Yosys only (block.sh with SYN_CONTEXT)
  rm -rf "$3"
  SYN_CONTEXT=$1 SYN_STAGE=yosys SYN_PARAMS=${params[$2]} "$tools/block.sh" "$rtl" "$2" "$libdir" "$3"
}
# synth_in_context CONTEXT SUB KEY: OUT/sub/SUB, synthesized or from the cache.
synth_in_context() {
  local context=$1 s=$2 k=$3 hash entry
  rm -rf "$out/sub/$s"
  if [ -z "${SYN_CONTEXT_CACHE:-}" ]; then
    in_context "$context" "$s" "$out/sub/$s"
    return
  fi
  mkdir -p "$SYN_CONTEXT_CACHE"
  hash=$({ strip_comments "$rtl/$s.sv"; echo "$k ${params[$s]}"; cat "$libdir/lib.json"; } | sha1sum | cut -c1-16)
  entry=$SYN_CONTEXT_CACHE/$s-$hash
  (
    flock 9
    grep -qs '"status": "synthesized"' "$entry/status.json" || in_context "$context" "$s" "$entry"
  ) 9>"$entry.lock" || return 1
  ln -s "$entry" "$out/sub/$s"
}

rm -rf "$out/context" "$out/sub"
mkdir -p "$out/sub"
pass=1
while :; do
  ctx=$out/context.$pass
  args=""
  for s in $subs; do args="$args $s${latest[$s]:+=${latest[$s]}}"; done
  # shellcheck disable=SC2086
  "$PYTHON3" "$tools/context.py" extract "$out" "$top" "$libdir" "$ctx" $args >"$ctx.txt" 2>&1 ||
    fail "context.py: $(tail -1 "$ctx.txt")"
  # The sub-blocks whose context changed, synthesized SYN_HIER_JOBS at a time (SUBs come longest
  # first from synth.sh, so the tag array starts at once).
  changed="" names=()
  declare -A count=()
  while read -r s n k; do
    count[$s]=$n
    [ "$n" -gt 0 ] && [ "$k" != "${done_ctx[$s]}" ] || continue
    while [ "$(jobs -rp | wc -l)" -ge "${SYN_HIER_JOBS:-2}" ]; do wait -n; done
    # (exit status in a file: `wait -n` above may already have reaped the job)
    { synth_in_context "$ctx/$s.json" "$s" "$k"; echo $? >"$out/sub/.$s.rc"; } </dev/null &
    names+=("$s")
    done_ctx[$s]=$k
    latest[$s]=$out/sub/$s
    changed="$changed $s"
  done <"$ctx/summary.txt"
  wait
  for n in "${names[@]}"; do
    [ "$(cat "$out/sub/.$n.rc" 2>/dev/null)" = 0 ] ||
      fail "sub-block $n in context (pass $pass): $(cat "$out/sub/$n/status.json" 2>/dev/null)"
    rm -f "$out/sub/.$n.rc"
  done
  echo "pass $pass:${changed:- no change}" >>"$out/passes.txt"
  [ -n "$changed" ] && [ $pass -lt 4 ] || break
  rm -rf "$ctx"
  pass=$((pass + 1))
done
mv "$ctx" "$out/context"
mv "$ctx.txt" "$out/context.txt"
rm -f "$out"/context.*.txt

# Sub-blocks with an instance: those the glue kept (Yosys drops an instance nothing reads).
nets=""
for s in $subs; do
  if [ -e "$out/sub/$s" ]; then
    nets="$nets $out/sub/$s/netlist.v"
  elif [ "${count[$s]:-0}" -gt 0 ]; then
    [ -n "${latest[$s]}" ] || fail "sub-block $s was never synthesized"
    ln -s "${latest[$s]}" "$out/sub/$s"
    nets="$nets $out/sub/$s/netlist.v"
  fi
done
SYN_STAGE=sta SYN_SUB_NETLISTS="$nets" exec "$tools/block.sh" "$rtl" "$top" "$libdir" "$out"
