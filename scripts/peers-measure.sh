#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Measures CPU ms/query and p50 of our engine (auto algorithm) and the peers (Xapian, SQLite FTS5)
# on every query set of a dataset directory, the first seed's method (`run --repeat`), for AND and
# OR at k = 10. The three targets of one (set, operator) run back to back, so they share the
# machine's state. Then `scripts/peers-table.py OUT` prints the tables (docs/PEERS.md).
#
#   scripts/peers-measure.sh CLI DATA OUT
#     CLI   wandscope-cli (a Release build)
#     DATA  holds idx/ (our index), q-<set>.jsonl; the peers' indexes idx.xapian/ and idx.fts5/
#           (`wandscope-cli peers build --engine E --corpus C --index DATA/idx`)
#     OUT   summaries (sum-<target>-<op>-<set>.json), TREC runs, overlap@10 with ours (ov-*.json)
# Environment: REPEAT (3), WARMUP (1 s), OPS ("and or"), TARGETS ("builtin xapian sqlite-fts5"),
# FTS5_MAX_QUERIES (all): time FTS5 on the first N queries of each set only (it can be very slow).
set -euo pipefail
cli=$1 data=$2 out=$3
repeat=${REPEAT:-3} warmup=${WARMUP:-1} ops=${OPS:-"and or"} targets=${TARGETS:-"builtin xapian sqlite-fts5"}
mkdir -p "$out"
for q in "$data"/q-*.jsonl; do
  set=$(basename "$q" .jsonl); set=${set#q-}
  for op in $ops; do
    for t in $targets; do
      qf=$q
      if [[ $t == sqlite-fts5 && -n ${FTS5_MAX_QUERIES:-} ]]; then
        qf=$out/q-$set.first${FTS5_MAX_QUERIES}.jsonl
        head -n "$FTS5_MAX_QUERIES" "$q" > "$qf"
      fi
      "$cli" run "$data/idx" --target "$t" --queries "$qf" --op "$op" --k 10 --repeat "$repeat" \
        --warmup-s "$warmup" --summary "$out/sum-$t-$op-$set.json" --out "$out/run-$t-$op-$set.trec" \
        2> "$out/log-$t-$op-$set.txt"
      echo "$set $op $t: $(tail -n 1 "$out/log-$t-$op-$set.txt")"
    done
  done
done
# Result agreement: mean overlap@10 of each peer's top-10 with ours, per set (peers-table.py reads it).
for t in $targets; do
  [[ $t == builtin ]] && continue
  for op in $ops; do
    "$cli" peers overlap "$data/idx" --target "$t" --op "$op" --k 10 --queries "$data"/q-*.jsonl \
      --json "$out/ov-$t-$op.json" > "$out/ov-$t-$op.txt"
  done
done
