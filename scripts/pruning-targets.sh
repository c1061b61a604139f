#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 3's speed targets on one host, in process (docs/PERF.md, "Where the targets stand"):
#   bulk AND at least 3x cheaper than exhaustive AND on mid-df-2 and mid-df-3;
#   Block-Max WAND / MaxScore (the planner's `auto`) at least 5x cheaper than exhaustive OR on
#   the 3-token sets (mid-df-3, sequential-3, rare-3, rare+common-3), k = 10.
# Each run is one `wandscope-cli compare` per operator (A = builtin:algo=exhaustive, B = builtin,
# i.e. `auto`; for AND also B2 = builtin:algo=bulk-and), interleaved ABBA blocks, results checked
# query by query for identical doc ids and f32 score bits. The ratio is compare's ratio of
# geometric means with its 95 % bootstrap interval; a target counts as met when the median over
# the runs reaches it. Writes OUT_DIR/targets.md (machine, commit, one row per target and set).
#
# Usage: scripts/pruning-targets.sh INDEX_DIR QUERY_DIR OUT_DIR
#   QUERY_DIR holds <set>.jsonl (or q-<set>.jsonl) from `wandscope-cli queries gen --out-dir`.
#   Env: CLI (default build/release/bin/wandscope-cli), RUNS (3), REPETITIONS (6), K (10),
#   WARM_PASSES (compare's --warm-passes, default 3: untimed passes before each timed block).
set -euo pipefail
if [[ $# -ne 3 ]]; then
  sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
index=$(cd "$1" && pwd) qdir=$(cd "$2" && pwd) out=$3
cli=${CLI:-build/release/bin/wandscope-cli}
runs=${RUNS:-3} reps=${REPETITIONS:-6} k=${K:-10} warm=${WARM_PASSES:-3}
[[ -x $cli ]] || { echo "pruning-targets.sh: no CLI at $cli (build first, or set CLI)" >&2; exit 1; }
mkdir -p "$out"

# shellcheck source=scripts/query-file.sh
source "$(dirname "$0")/query-file.sh"

profile() {  # profile NAME OP SET...: a closed-loop profile over the sets
  local name=$1 op=$2 sets="" s
  shift 2
  for s in "$@"; do sets+="${sets:+, }\"$s\": \"$(query_file "$qdir" "$s")\""; done
  cat >"$out/$name.json" <<EOF
{"format_version": 1, "name": "$name", "description": "issue 3 targets: exhaustive vs auto, $op",
 "dataset": {"index": "$index", "query_sets": {$sets}},
 "query": {"op": "$op", "k": $k, "algorithm": "auto"}, "targets": ["builtin"], "seed": 42,
 "mode": "closed", "closed": {"concurrency": [1], "warmup_s": 0.3, "measure_s": 1, "passes": 3}}
EOF
}

profile or3 or mid-df-3 sequential-3 rare-3 rare+common-3
profile and23 and mid-df-2 mid-df-3

# rows RUN_DIR: "set target a b ratio low high" per CPU row of a report's CSV, columns found by
# their header names (docs/FORMAT.md); the quoted scenario name, which holds a comma, is dropped.
rows() {
  sed 's/"[^"]*"//' "$1/report.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next }
    $c["section"] == "ab" && $c["metric"] == "cpu_ms_per_query" {
      printf "%s %s %.4f %.4f %.2f %.2f %.2f\n", $c["query_set"], $c["target"], $c["a"], $c["b"],
        $c["ratio"], $c["ci_low"], $c["ci_high"] }'
}

for r in $(seq 1 "$runs"); do
  echo "pruning-targets.sh: run $r of $runs" >&2
  "$cli" compare --profile "$out/or3.json" --target builtin:algo=exhaustive --target builtin \
    --repetitions "$reps" --warm-passes "$warm" --out "$out/or3-run$r" --no-db >"$out/or3-run$r.log" 2>&1 ||
    { cat "$out/or3-run$r.log" >&2; exit 1; }
  "$cli" compare --profile "$out/and23.json" --target builtin:algo=exhaustive --target builtin \
    --target builtin:algo=bulk-and --repetitions "$reps" --warm-passes "$warm" --out "$out/and23-run$r" --no-db \
    >"$out/and23-run$r.log" 2>&1 || { cat "$out/and23-run$r.log" >&2; exit 1; }
  for d in "$out/or3-run$r" "$out/and23-run$r"; do  # compare reports a difference, exits 0
    if grep -q '"results_differ": *true' "$d/report.json"; then
      echo "pruning-targets.sh: $d: results differ between the paths (see its report.md)" >&2
      exit 1
    fi
  done
  { rows "$out/or3-run$r" | sed 's/^/or /'; rows "$out/and23-run$r" | sed 's/^/and /'; } >"$out/run$r.rows"
done

cpu() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -1; }
model="$(cpu 'model name') (family $(cpu 'cpu family'), model $(cpu model))"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "Issue 3 targets, $(date -u '+%Y-%m-%d %H:%M UTC'), $model, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg),"
  echo "commit $commit$(git diff --quiet 2>/dev/null || echo ' (with local changes)'); $runs runs of \`compare\`, $reps repetitions each, $warm warm passes before each timed block; CPU ms/query of run 1."
  echo
  echo "| Target | Set | path | exhaustive | path's cost | ratio each run [95 % CI] | median | status |"
  echo "|:--|:--|:--|--:|--:|:--|--:|:--|"
  emit() {  # emit OP TARGET_INDEX PATH_NAME GOAL LABEL SET...
    local op=$1 t=$2 path=$3 goal=$4 label=$5 set
    shift 5
    for set in "$@"; do
      local cells="" ratios="" first="- | -"
      for r in $(seq 1 "$runs"); do
        local line
        line=$(awk -v op="$op" -v s="$set" -v t="$t" '$1 == op && $2 == s && $3 == t' "$out/run$r.rows")
        [[ -n $line ]] || continue
        read -r _ _ _ a b ratio low high <<<"$line"
        [[ $r -eq 1 ]] && first="$a | $b"
        cells+="${cells:+, }${ratio}x [$low, $high]"
        ratios+="$ratio "
      done
      local median
      median=$(echo "$ratios" | tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {
        if (NR % 2) print v[(NR+1)/2]; else printf "%.2f\n", (v[NR/2]+v[NR/2+1])/2 }')
      local status
      status=$(awk -v m="$median" -v g="$goal" 'BEGIN { print (m >= g ? "met" : "**not met**") }')
      echo "| $label | $set $op | $path | $first | $cells | ${median}x | $status |"
    done
  }
  emit and 1 auto 3 "bulk AND >= 3x" mid-df-2 mid-df-3
  emit and 2 bulk-and 3 "bulk AND >= 3x" mid-df-2 mid-df-3
  emit or 1 auto 5 "BMW/MaxScore >= 5x" mid-df-3 sequential-3 rare-3 rare+common-3
} >"$out/targets.md"
cat "$out/targets.md"
