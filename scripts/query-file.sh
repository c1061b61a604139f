# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the measuring scripts (pruning-targets.sh, variant-table.sh), not run.
# query_file DIR SET: prints the set's query file in DIR, <set>.jsonl (as `wandscope-cli queries
# gen --sets ... --out-dir` names them) or q-<set>.jsonl; exits with a message naming both if
# neither exists.
query_file() {
  local f
  for f in "$1/$2.jsonl" "$1/q-$2.jsonl"; do
    [[ -f $f ]] && { echo "$f"; return; }
  done
  echo "${0##*/}: no $2.jsonl or q-$2.jsonl in $1" >&2
  exit 1
}
