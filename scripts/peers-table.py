#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Prints the ours-vs-peers tables (docs/PEERS.md) from scripts/peers-measure.sh summaries.

usage: scripts/peers-table.py OUT [--sets a,b,...]
One table per operator: CPU ms/query (mean over passes) and wall p50 for ours, Xapian and FTS5,
and the ratios peer / ours ("ours vs Xapian 12.3x" = ours is 12.3 times cheaper), with geometric
means over the query sets present for all three.
"""
import json
import math
import pathlib
import sys

ORDER = ["mid-df-1", "mid-df-2", "mid-df-3", "sequential-2", "sequential-3", "sequential-5", "rare-2", "rare-3",
         "rare+common-2", "rare+common-3", "rare+common-5"]
TARGETS = ["builtin", "xapian", "sqlite-fts5"]


def load(out, target, op, qset):
    f = out / f"sum-{target}-{op}-{qset}.json"
    return json.loads(f.read_text()) if f.exists() else None


def fmt_ms(v):
    if v is None:
        return "-"
    return f"{v:.4f}" if v < 1 else f"{v:.3f}" if v < 100 else f"{v:.1f}"


def geo(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def main():
    out = pathlib.Path(sys.argv[1])
    sets = [s for s in ORDER if any(out.glob(f"sum-*-*-{s}.json"))]
    extra = sorted({p.name.split("-", 3)[3][:-5] for p in out.glob("sum-*.json")} - set(ORDER))
    sets += extra
    for op in ["and", "or"]:
        rows = []
        for s in sets:
            r = [load(out, t, op, s) for t in TARGETS]
            if not any(r):
                continue
            rows.append((s, r))
        if not rows:
            continue
        print(f"\n### {op.upper()}, k = 10: CPU ms/query (wall p50 ms)\n")
        print("| Query set | ours | Xapian | FTS5 | ours vs Xapian | ours vs FTS5 |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        ratios_x, ratios_f, cols = [], [], [[], [], []]
        for s, r in rows:
            cells = []
            for i, x in enumerate(r):
                if x is None:
                    cells.append("-")
                    cols[i].append(None)
                    continue
                n = x["queries"]
                note = "" if i != 2 or n >= 100 else f" [{n} q]"
                p50 = x.get("wall_ms_p50")
                cells.append(f"{fmt_ms(x['cpu_ms_per_query'])} ({fmt_ms(p50)}){note}")
                cols[i].append(x["cpu_ms_per_query"])
            ours = r[0]["cpu_ms_per_query"] if r[0] else None
            rx = r[1]["cpu_ms_per_query"] / ours if ours and r[1] else None
            rf = r[2]["cpu_ms_per_query"] / ours if ours and r[2] else None
            ratios_x.append(rx)
            ratios_f.append(rf)
            print(f"| {s} | {cells[0]} | {cells[1]} | {cells[2]} | "
                  f"{'-' if rx is None else f'{rx:.1f}x'} | {'-' if rf is None else f'{rf:.1f}x'} |")
        g = [geo(c) for c in cols]
        gx, gf = geo(ratios_x), geo(ratios_f)
        print(f"| **geometric mean** | {fmt_ms(g[0])} | {fmt_ms(g[1])} | {fmt_ms(g[2])} | "
              f"{'-' if gx is None else f'**{gx:.1f}x**'} | {'-' if gf is None else f'**{gf:.1f}x**'} |")
        worst = min((x for x in ratios_x if x is not None), default=None)
        if worst is not None:
            print(f"\nLowest ours-vs-Xapian ratio: {worst:.2f}x"
                  f" ({'never slower than Xapian' if worst >= 1 else 'SLOWER than Xapian on some set'}).")


def overlap_table(out):
    """Mean overlap@10 with ours from `peers overlap --json` files OUT/ov-<target>-<op>.json."""
    data = {}
    for t in TARGETS[1:]:
        for op in ["and", "or"]:
            f = out / f"ov-{t}-{op}.json"
            if f.exists():
                data[(t, op)] = {s["query_set"]: s for s in json.loads(f.read_text())["sets"]}
    if not data:
        return
    print("\n### Mean overlap@10 with our top-10 (queries with identical top-10 sets)\n")
    print("| Query set | Xapian AND | Xapian OR | FTS5 AND | FTS5 OR |")
    print("| --- | ---: | ---: | ---: | ---: |")
    names = [s for s in ORDER if any(s in d for d in data.values())]
    for s in names:
        cells = []
        for key in [("xapian", "and"), ("xapian", "or"), ("sqlite-fts5", "and"), ("sqlite-fts5", "or")]:
            x = data.get(key, {}).get(s)
            cells.append("-" if x is None else f"{x['mean_overlap']:.3f} ({x['identical_sets']})")
        print(f"| {s} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
    overlap_table(pathlib.Path(sys.argv[1]))
