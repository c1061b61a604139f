#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Generates engine/text/unicode_tables.cpp, the character tables of the analyzer.

    python3 scripts/gen_unicode_tables.py            # rewrite engine/text/unicode_tables.cpp
    python3 scripts/gen_unicode_tables.py --check    # exit 1 if the committed file is stale
    python3 scripts/gen_unicode_tables.py -o FILE    # write elsewhere ('-' for stdout)

Only the standard library is used; the Unicode version is the one of this Python's `unicodedata`
and is written into the generated file (the analyzer's tokens depend on it, so a new version
means a new analyzer identity). The output is deterministic.

Tables (both sorted, looked up by binary search):
  token ranges  code points of general category L*, M* or Nd, as merged [first, last] ranges
  lower ranges  the simple lowercase mapping: what str.lower() gives for one code point when the
                result is one code point; runs with a common delta and stride 1 or 2
"""

import argparse
import bisect
import pathlib
import sys
import unicodedata

MAX_CODE_POINT = 0x10FFFF
REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = REPO_ROOT / "engine" / "text" / "unicode_tables.cpp"
COLUMNS = 100


def is_token_char(cp):
    category = unicodedata.category(chr(cp))
    return category[0] in "LM" or category == "Nd"


def lower_simple(cp):
    if 0xD800 <= cp <= 0xDFFF:
        return cp
    lowered = chr(cp).lower()
    return ord(lowered) if len(lowered) == 1 else cp


def token_ranges():
    ranges = []
    for cp in range(MAX_CODE_POINT + 1):
        if not is_token_char(cp):
            continue
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    return ranges


def lower_runs(mapping):
    """Groups {cp: lower} into [first, last, delta, stride] runs that do not overlap.

    A stride-2 run only skips code points that have no mapping of their own (the alternating
    upper/lower pairs of Latin Extended, Cyrillic, ...), so every code point inside a run's span
    that is not on its stride maps to itself."""
    runs = []
    for cp in sorted(mapping):
        delta = mapping[cp] - cp
        if runs:
            run = runs[-1]
            if run[2] == delta:
                step = cp - run[1]
                if run[0] == run[1] and step in (1, 2):
                    run[1], run[3] = cp, step
                    continue
                if step == run[3]:
                    run[1] = cp
                    continue
        runs.append([cp, cp, delta, 1])
    return runs


def check_invariants(mapping):
    """What the analyzer relies on: lowercasing keeps a token char a token char and is idempotent,
    so re-analyzing a token yields the same token."""
    for cp, lower in mapping.items():
        assert is_token_char(cp) == is_token_char(lower), f"U+{cp:04X} changes class when lowered"
        assert lower_simple(lower) == lower, f"U+{cp:04X} lowercases twice"
        assert not 0xD800 <= lower <= 0xDFFF
    assert not is_token_char(0xFFFD)
    for cp in range(0x80):
        expected = chr(cp).isascii() and chr(cp).isalnum()
        assert is_token_char(cp) == expected, f"ASCII U+{cp:04X} is not what the fast path assumes"


def verify_tables(token, runs, mapping):
    """Runs the C++ lookups (below) in Python over every code point against the direct answer."""
    token_firsts = [first for first, _ in token]
    run_firsts = [run[0] for run in runs]
    for cp in range(MAX_CODE_POINT + 1):
        i = bisect.bisect_right(token_firsts, cp) - 1
        assert (i >= 0 and cp <= token[i][1]) == is_token_char(cp), f"token table at U+{cp:04X}"
        i = bisect.bisect_right(run_firsts, cp) - 1
        lower = cp
        if i >= 0:
            first, last, delta, stride = runs[i]
            if cp <= last and (cp - first) % stride == 0:
                lower = cp + delta
        assert lower == mapping.get(cp, cp), f"lowercase table at U+{cp:04X}"


def format_rows(items, indent="    "):
    """Packs comma-separated items into lines of at most COLUMNS characters."""
    lines, line = [], indent
    for item in items:
        piece = item + ","
        if line != indent and len(line) + 1 + len(piece) > COLUMNS:
            lines.append(line)
            line = indent
        line = line + (" " if line != indent else "") + piece
    if line != indent:
        lines.append(line)
    return "\n".join(lines)


def hex_cp(cp):
    return f"0x{cp:04X}"


# The generated file; @NAME@ placeholders are filled in by generate().
TEMPLATE = """// SPDX-License-Identifier: GPL-3.0-or-later
// GENERATED FILE - do not edit. Written by scripts/gen_unicode_tables.py from Python's
// unicodedata, Unicode @VERSION@. Regenerate with `python3 scripts/gen_unicode_tables.py`.
//
// @TOKEN_COUNT@ token ranges (general category L*, M*, Nd) and @RUN_COUNT@ lowercase runs
// (@MAPPED_COUNT@ code points whose simple lowercase mapping is another code point).
#include "engine/text/unicode_tables.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>

namespace wandscope::engine {
namespace {

// [first, last], sorted and disjoint.
struct TokenRange {
  char32_t first;
  char32_t last;
};

// Code points first, first + stride, ..., last map to themselves + delta; sorted and disjoint
// spans, and code points inside a span but off its stride map to themselves.
struct LowerRun {
  char32_t first;
  char32_t last;
  std::int32_t delta;
  std::uint32_t stride;
};

// clang-format off
constexpr TokenRange kTokenRanges[] = {
@TOKEN_ROWS@
};

constexpr LowerRun kLowerRuns[] = {
@LOWER_ROWS@
};
// clang-format on

// The last element whose `first` is <= cp, or nullptr.
template <typename T, std::size_t N>
const T* findRange(const T (&table)[N], char32_t cp) noexcept {
  const T* it =
      std::upper_bound(std::begin(table), std::end(table), cp,
                       [](char32_t value, const T& range) { return value < range.first; });
  return it == std::begin(table) ? nullptr : it - 1;
}

}  // namespace

bool isTokenChar(char32_t cp) noexcept {
  const TokenRange* range = findRange(kTokenRanges, cp);
  return range != nullptr && cp <= range->last;
}

char32_t toLowerSimple(char32_t cp) noexcept {
  if (cp < 0x80) return (cp >= U'A' && cp <= U'Z') ? cp + 0x20 : cp;
  const LowerRun* run = findRange(kLowerRuns, cp);
  if (run == nullptr || cp > run->last || (cp - run->first) % run->stride != 0) return cp;
  return static_cast<char32_t>(static_cast<std::int32_t>(cp) + run->delta);
}

const char* unicodeVersion() noexcept {
  return "@VERSION@";
}

}  // namespace wandscope::engine
"""


def generate():
    token = token_ranges()
    mapping = {}
    for cp in range(MAX_CODE_POINT + 1):
        lower = lower_simple(cp)
        if lower != cp:
            mapping[cp] = lower
    check_invariants(mapping)
    runs = lower_runs(mapping)
    verify_tables(token, runs, mapping)
    version = unicodedata.unidata_version

    token_items = [f"{{{hex_cp(a)}, {hex_cp(b)}}}" for a, b in token]
    lower_items = [f"{{{hex_cp(a)}, {hex_cp(b)}, {d}, {s}}}" for a, b, d, s in runs]

    values = {
        "@VERSION@": version,
        "@TOKEN_COUNT@": str(len(token)),
        "@RUN_COUNT@": str(len(runs)),
        "@MAPPED_COUNT@": str(len(mapping)),
        "@TOKEN_ROWS@": format_rows(token_items),
        "@LOWER_ROWS@": format_rows(lower_items),
    }
    text = TEMPLATE
    for key, value in values.items():
        text = text.replace(key, value)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default=str(DEFAULT_OUTPUT),
                        help="output file, '-' for stdout (default: %(default)s)")
    parser.add_argument("--check", action="store_true",
                        help="compare with the output file instead of writing it")
    args = parser.parse_args()
    text = generate()
    if args.check:
        current = pathlib.Path(args.output).read_text(encoding="utf-8")
        if current != text:
            print(f"{args.output} is stale: rerun scripts/gen_unicode_tables.py", file=sys.stderr)
            return 1
        return 0
    if args.output == "-":
        sys.stdout.write(text)
    else:
        pathlib.Path(args.output).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
