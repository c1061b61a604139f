#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Whole-query CPU ms/query of several variants of the engine on the seed query sets, for the
# tables of docs/PERF.md where only the build or a process-wide setting changes: SIMD targets
# (issue 4) and counting compiled in or out (issue 3). A variant is NAME=COMMAND, where COMMAND is
# a wandscope-cli invocation up to (not including) its subcommand, e.g.
#   VARIANTS='scalar=build/release/bin/wandscope-cli --simd scalar;avx3=build/release/bin/wandscope-cli --simd avx3'
# Each cell is `COMMAND run INDEX --algo auto --repeat 3` (process CPU time over completed
# queries, mean of forward/reverse/forward passes). Per set the variants run in ROUNDS rounds with
# the lead rotating each round, and a cell is the median over rounds, so slow drift of a shared
# machine does not land on one variant. Every run's results are compared with the first
# variant's byte for byte (`--format dump`) and a difference fails the run.
#
# Usage: scripts/variant-table.sh INDEX_DIR QUERY_DIR OUT_DIR [SET...]
#   QUERY_DIR holds <set>.jsonl (from `wandscope-cli queries gen --sets ... --out-dir`) or q-<set>.jsonl.
#   Env: VARIANTS (default: every SIMD target build/release/bin/wandscope-cli runs here; the first is the
#   reference), ROUNDS (5), K (10), REPEAT (3), WARMUP_S (0.5), OPS ("and or").
set -euo pipefail
if [[ $# -lt 3 ]]; then
  sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
index=$1 qdir=$2 out=$3
shift 3
sets=("$@")
[[ ${#sets[@]} -gt 0 ]] || sets=(mid-df-1 mid-df-2 mid-df-3 sequential-2 sequential-3 sequential-5 rare-2 rare-3
  rare+common-2 rare+common-3 rare+common-5)
cli=build/release/bin/wandscope-cli
if [[ -z ${VARIANTS:-} ]]; then  # every SIMD target this CPU supports, from `simd --json`
  VARIANTS=$("$cli" simd --json | sed 's/.*"supported":\[\([^]]*\)\].*/\1/' | tr -d '"' | tr ',' '\n' |
    while read -r t; do printf '%s=%s --simd %s;' "$t" "$cli" "$t"; done)
  VARIANTS=${VARIANTS%;}
fi
IFS=';' read -r -a variants <<<"$VARIANTS"
names=() cmds=()
for v in "${variants[@]}"; do
  [[ $v == *=* ]] || { echo "variant-table.sh: a variant is NAME=COMMAND, got '$v'" >&2; exit 2; }
  names+=("${v%%=*}") cmds+=("${v#*=}")
done
rounds=${ROUNDS:-5} k=${K:-10} repeat=${REPEAT:-3} warmup=${WARMUP_S:-0.5}
ops=${OPS:-and or}
mkdir -p "$out"

cpu() { sed -n 's/^ *"cpu_ms_per_query": \([0-9.e+-]*\),*$/\1/p' "$1"; }
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR]=$1} END{print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# shellcheck source=scripts/query-file.sh
source "$(dirname "$0")/query-file.sh"

n=${#names[@]}
table="$out/table.md"
header="| Query set | op |"
for name in "${names[@]}"; do header+=" $name |"; done
header+=" fastest vs ${names[0]} | slowest vs ${names[0]} |"
echo "$header" >"$table"
echo "$header" | sed 's/[^|]/-/g; s/^|-/|:/' | sed 's/-|/:|/g' >>"$table"
for op in $ops; do
  for set in "${sets[@]}"; do
    echo "variant-table.sh: $op $set" >&2
    qfile=$(query_file "$qdir" "$set")
    declare -A runs=()
    ref_dump="$out/$set.$op.${names[0]}.r0.dump"
    for ((r = 0; r < rounds; r++)); do
      for ((j = 0; j < n; j++)); do
        i=$(((j + r) % n))
        base="$out/$set.$op.${names[$i]}.r$r"
        # shellcheck disable=SC2086  # COMMAND is a word list by design
        ${cmds[$i]} run "$index" --queries "$qfile" --op "$op" --k "$k" --algo auto \
          --format dump --out "$base.dump" --repeat "$repeat" --warmup-s "$warmup" --summary "$base.json" \
          2>"$base.log" || { cat "$base.log" >&2; exit 1; }
        if [[ -f $ref_dump ]] && ! cmp -s "$base.dump" "$ref_dump"; then
          echo "variant-table.sh: $set $op ${names[$i]} round $r: results differ from ${names[0]}" >&2
          exit 1
        fi
        runs[${names[$i]}]+="$(cpu "$base.json") "
      done
    done
    row="| $set | $op |" ref="" best="" worst=""
    for name in "${names[@]}"; do
      c=$(echo "${runs[$name]}" | median)
      row+=$(printf ' %.4f |' "$c")
      if [[ -z $ref ]]; then ref=$c; continue; fi
      if [[ -z $best ]] || awk -v c="$c" -v b="$best" 'BEGIN{exit !(c<b)}'; then best=$c; fi
      if [[ -z $worst ]] || awk -v c="$c" -v b="$worst" 'BEGIN{exit !(c>b)}'; then worst=$c; fi
    done
    row+=$(printf ' %.2fx | %.2fx |' "$(echo "$ref $best" | awk '{print $1/$2}')" "$(echo "$ref $worst" | awk '{print $1/$2}')")
    echo "$row" >>"$table"
  done
done
echo "variant-table.sh: wrote $table" >&2
cat "$table"
