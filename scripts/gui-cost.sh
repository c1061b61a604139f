#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What the attached workbench costs a run (issue 6, docs/PERF.md): the same benchmark profile run
# headless by `wandscope-cli bench --profile` and in the GUI by `wandscope --run-profile` (the
# Load page with its live plots drawing, under xvfb-run), alternately, ROUNDS times, the order
# swapped every round so slow drift of a shared machine does not land on one side. Prints a
# table of CPU ms/query (process CPU over completed requests, as the reports define it) per
# cell/rung and query set: the mean without the GUI, with it, and the ratio GUI/CLI.
# Use a closed-loop profile (benchprofiles/smoke.json, or a short copy of bulk-and-seed.json):
# open-loop rungs run at rates calibrated per run, so their rows compare less exactly.
#
# Usage: scripts/gui-cost.sh PROFILE OUT_DIR [ROUNDS]
#   Env: CLI (default build/release/bin/wandscope-cli), GUI (default: wandscope next to CLI),
#   ROUNDS (3; the third argument wins), SCREEN (xvfb screen, default 1600x1000x24).
set -euo pipefail
if [[ $# -lt 2 ]]; then
  sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
profile=$1 out=$2
rounds=${3:-${ROUNDS:-3}}
cli=${CLI:-build/release/bin/wandscope-cli}
gui=${GUI:-$(dirname "$cli")/wandscope}
screen=${SCREEN:-1600x1000x24}
[[ -f $profile ]] || { echo "gui-cost.sh: no such profile: $profile" >&2; exit 2; }
[[ -x $cli ]] || { echo "gui-cost.sh: no CLI at $cli (set CLI=)" >&2; exit 2; }
[[ -x $gui ]] || { echo "gui-cost.sh: no GUI at $gui (set GUI=)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "gui-cost.sh: xvfb-run is needed (apt install xvfb)" >&2; exit 2; }
mkdir -p "$out"

run_cli() {
  "$cli" bench --profile "$profile" --out "$1" --no-db --no-records >"$1.log" 2>&1 ||
    { cat "$1.log" >&2; echo "gui-cost.sh: the CLI run failed" >&2; exit 1; }
}
run_gui() {
  xvfb-run -a -s "-screen 0 $screen" "$gui" --run-profile "$profile" --out "$1" >"$1.log" 2>&1 ||
    { cat "$1.log" >&2; echo "gui-cost.sh: the GUI run failed" >&2; exit 1; }
}

for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then order="cli gui"; else order="gui cli"; fi
  for side in $order; do
    echo "gui-cost.sh: round $r/$rounds: $side" >&2
    rm -rf "$out/$side-$r"
    "run_$side" "$out/$side-$r"
  done
done

python3 - "$out" "$rounds" <<'EOF'
import json, os, statistics, sys

out, rounds = sys.argv[1], int(sys.argv[2])

def cells(path):
    """cell key -> CPU ms/query of one report; open-loop rungs are keyed by their order."""
    with open(path) as f:
        report = json.load(f)
    env = report.get("environment", {})
    got, ladder = {}, {}
    for r in report["rungs"]:
        if r.get("not_run") or r.get("completed", 0) == 0:
            continue
        if r["mode"] == "closed":
            cell = f"closed c={r['concurrency']}"
        else:
            k = (r["target"], r["query_set"], r["mode"])
            ladder[k] = ladder.get(k, 0) + 1
            cell = f"{r['mode']} rung {ladder[k]}"
        got[(r["target"], r["query_set"], cell)] = r["cpu_ms_per_query"]
    return got, env

sides = {"cli": {}, "gui": {}}
envs = {}
for side in sides:
    for i in range(1, rounds + 1):
        got, env = cells(os.path.join(out, f"{side}-{i}", "report.json"))
        envs.setdefault(side, []).append(env)
        for k, v in got.items():
            sides[side].setdefault(k, []).append(v)

for env in envs["gui"]:
    if not env.get("gui_attached"):
        sys.exit("gui-cost.sh: a GUI report is not labelled gui_attached")
for env in envs["cli"]:
    if env.get("gui_attached"):
        sys.exit("gui-cost.sh: a CLI report is labelled gui_attached")

e = envs["cli"][0]
print(f"Profile runs: {rounds} per side, alternating; {e.get('cpu_model', '?')} ({e.get('cores', '?')} cores), "
      f"SIMD {e.get('simd_target', '?')}, {e.get('build_type', '?')} build {e.get('git_commit', '?')[:12]}")
print()
print("| Target | Query set | Cell | CPU ms/query without GUI | with GUI | GUI / CLI |")
print("|---|---|---|---:|---:|---:|")
ratios = []
for key in sorted(set(sides["cli"]) & set(sides["gui"])):
    c = statistics.mean(sides["cli"][key])
    g = statistics.mean(sides["gui"][key])
    ratio = g / c if c > 0 else float("nan")
    ratios.append(ratio)
    spread = lambda xs: f" (±{statistics.stdev(xs):.4f})" if len(xs) > 1 else ""
    print(f"| {key[0]} | {key[1]} | {key[2]} | {c:.4f}{spread(sides['cli'][key])} | "
          f"{g:.4f}{spread(sides['gui'][key])} | {ratio:.3f} |")
if ratios:
    print()
    print(f"Geometric mean GUI/CLI over {len(ratios)} cells: "
          f"{statistics.geometric_mean([r for r in ratios if r > 0]):.3f}")
EOF
