#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Retrieval quality on the judged collections in ../shared/data: for each collection and analyzer,
# build an index (title + text, BM25 k1 = 0.9, b = 0.4 as Pyserini's BEIR runs), run every query
# at k = 1000 (dropping a hit whose id equals the query id, as Pyserini does) and evaluate.
# Prints a Markdown table (docs/QUALITY.md). Usage: scripts/quality.sh [BUILD_DIR] [WORK_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release}/bin/wandscope-cli
work=${2:-$(mktemp -d)}
data=../shared/data
[[ -x $bin ]] || { echo "quality.sh: build first ($bin missing)" >&2; exit 1; }
[[ -d $data ]] || { echo "quality.sh: $data is absent" >&2; exit 1; }
echo "| collection | analyzer | docs | queries | nDCG@10 | Recall@100 | MAP | MRR@10 |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for c in scifact cranfield cacm medline; do
  corpus=$(ls $data/$c/corpus.jsonl* | head -1)
  for analyzer in plain english; do
    idx=$work/$c-$analyzer
    $bin index build --corpus "$corpus" --analyzer $analyzer --k1 0.9 --b 0.4 --out "$idx" 2>/dev/null
    $bin run "$idx" --queries $data/$c/queries.jsonl --k 1000 --remove-query --out "$work/$c-$analyzer.trec" 2>/dev/null
    json=$($bin eval --qrels $data/$c/qrels.tsv --run "$work/$c-$analyzer.trec" --json)
    docs=$($bin index stats "$idx" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["docs"])')
    python3 - "$c" "$analyzer" "$docs" "$json" <<'PY'
import json, sys
c, a, docs, j = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
print(f"| {c} | {a} | {int(docs):,} | {j['queries']} | {j['ndcg_cut_10']:.4f} | {j['recall_100']:.4f} | {j['map']:.4f} | {j['recip_rank_10']:.4f} |")
PY
  done
done
