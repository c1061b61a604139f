#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The pruning table of docs/PERF.md (the first seed's method): for each query set, CPU ms/query of
# the exhaustive oracle and of every pruning path, and of the bulk AND (AND) and bmm (OR) with each optimisation
# switched off, measured with `wandscope-cli run --repeat 3` (process CPU time over completed
# queries, mean of forward/reverse/forward passes). Every path's results are compared with the
# oracle's byte for byte (`--format dump` holds the f32 score bits) and a difference fails the run.
#
# Usage: scripts/pruning-table.sh INDEX_DIR QUERY_DIR OUT_DIR [SET...]
#   QUERY_DIR holds <set>.jsonl (or q-<set>.jsonl) files (wandscope-cli queries gen --sets ... --out-dir);
#   SET defaults to the seed's eleven sets. Env: CLI (default build/release/bin/wandscope-cli),
#   K (10), REPEAT (3), WARMUP_S (0.5), OPS ("and or").
set -euo pipefail
if [[ $# -lt 3 ]]; then
  sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
index=$1 qdir=$2 out=$3
shift 3
sets=("$@")
[[ ${#sets[@]} -gt 0 ]] || sets=(mid-df-1 mid-df-2 mid-df-3 sequential-2 sequential-3 sequential-5 rare-2 rare-3
  rare+common-2 rare+common-3 rare+common-5)
cli=${CLI:-build/release/bin/wandscope-cli}
k=${K:-10} repeat=${REPEAT:-3} warmup=${WARMUP_S:-0.5}
ops=${OPS:-and or}
mkdir -p "$out"

# cpu ms/query from a summary file (no jq on a minimal machine).
cpu() { sed -n 's/^ *"cpu_ms_per_query": \([0-9.e+-]*\),*$/\1/p' "$1"; }

# measure SET OP NAME ALGO [OPT]: one row cell; checks results against the oracle's dump.
measure() {
  local set=$1 op=$2 name=$3 algo=$4 opt=${5:-}
  local base="$out/$set.$op.$name"
  local qfile="$qdir/$set.jsonl"
  [[ -f $qfile ]] || qfile="$qdir/q-$set.jsonl"
  local args=("$cli" run "$index" --queries "$qfile" --op "$op" --k "$k" --algo "$algo"
    --format dump --out "$base.dump" --repeat "$repeat" --warmup-s "$warmup" --summary "$base.json")
  [[ -n $opt ]] && args+=(--opt "$opt")
  "${args[@]}" 2>"$base.log" || { cat "$base.log" >&2; exit 1; }
  if [[ $name != exhaustive ]] && ! cmp -s "$base.dump" "$out/$set.$op.exhaustive.dump"; then
    echo "pruning-table.sh: $set $op $name: results differ from the exhaustive oracle" >&2
    exit 1
  fi
  cpu "$base.json"
}

and_cols=(exhaustive block-max-and bulk-and auto)
and_offs=(long_windows freq_prune candidate_prune lazy_freq window_jump slice_resume window_skip simd_merge)
or_cols=(exhaustive wand bmw maxscore bmm taat auto)
# bmm's switches, each off alone (bulk_or=off is the document-at-a-time bmm).
or_offs=(bulk_or bound_first window_skip candidate_prune)

for op in $ops; do
  table="$out/table-$op.md"
  if [[ $op == and ]]; then
    header="| Query set | exhaustive | block-max-and | bulk-and | auto | bulk-and vs exhaustive |"
    for o in "${and_offs[@]}"; do header+=" $o=off |"; done
  else
    header="| Query set | exhaustive | wand | bmw | maxscore | bmm | taat | auto | best vs exhaustive |"
    for o in "${or_offs[@]}"; do header+=" bmm $o=off |"; done
  fi
  echo "$header" >"$table"
  echo "$header" | sed 's/[^|]/-/g; s/^|-/|:/' | sed 's/-|/:|/g' >>"$table"
  for set in "${sets[@]}"; do
    echo "pruning-table.sh: $op $set" >&2
    row="| $set |"
    ex=$(measure "$set" "$op" exhaustive exhaustive)
    if [[ $op == and ]]; then
      declare -A v=()
      for a in "${and_cols[@]:1}"; do v[$a]=$(measure "$set" "$op" "$a" "$a"); done
      row+=$(printf ' %.4f | %.4f | %.4f | %.4f | %.2fx |' "$ex" "${v[block-max-and]}" "${v[bulk-and]}" "${v[auto]}" \
        "$(echo "$ex ${v[bulk-and]}" | awk '{print $1/$2}')")
      for o in "${and_offs[@]}"; do
        off=$(measure "$set" "$op" "bulk-and-no-$o" bulk-and "$o=off")
        row+=$(printf ' %.4f (%.2fx) |' "$off" "$(echo "$off ${v[bulk-and]}" | awk '{print $1/$2}')")
      done
    else
      best=""
      bmm=""
      row+=$(printf ' %.4f |' "$ex")
      for a in "${or_cols[@]:1}"; do
        c=$(measure "$set" "$op" "$a" "$a")
        row+=$(printf ' %.4f |' "$c")
        [[ $a == bmm ]] && bmm=$c
        if [[ $a != auto ]] && { [[ -z $best ]] || awk -v c="$c" -v b="$best" 'BEGIN{exit !(c<b)}'; }; then best=$c; fi
      done
      row+=$(printf ' %.2fx |' "$(echo "$ex $best" | awk '{print $1/$2}')")
      for o in "${or_offs[@]}"; do
        off=$(measure "$set" "$op" "bmm-no-$o" bmm "$o=off")
        row+=$(printf ' %.4f (%.2fx) |' "$off" "$(echo "$off $bmm" | awk '{print $1/$2}')")
      done
    fi
    echo "$row" >>"$table"
  done
  echo "pruning-table.sh: wrote $table" >&2
done
cat "$out"/table-*.md
