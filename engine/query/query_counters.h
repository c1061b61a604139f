// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

#ifndef WANDSCOPE_COUNTERS_ENABLED
#define WANDSCOPE_COUNTERS_ENABLED 1
#endif

namespace wandscope::engine {

inline constexpr bool kCountersEnabled = WANDSCOPE_COUNTERS_ENABLED != 0;

inline void countUp(std::uint64_t& counter, std::uint64_t n = 1) noexcept {
  if constexpr (kCountersEnabled) counter += n;
}

// Per-query work counters. Each is defined once for every path in docs/COUNTERS.md; a path that
// never does a kind of work leaves its counter at 0. Plain integers (no atomics): a query runs on
// one thread, and counting stays on in benchmarks. Every increment goes through countUp() so a
// build configured with -DWANDSCOPE_COUNTERS=OFF compiles counting out; that build exists only to
// measure what counting costs (docs/PERF.md), and its counters all read 0.
struct QueryCounters {
  std::uint64_t postingsDecoded = 0;        // doc ids decoded (block sizes summed)
  std::uint64_t docBlocksDecoded = 0;       // doc-id blocks decoded
  std::uint64_t freqBlocksDecoded = 0;      // frequency blocks decoded (full blocks and tails)
  std::uint64_t blocksSkipped = 0;          // blocks a cursor moved past without decoding
  std::uint64_t windowsTotal = 0;           // bulk AND windows examined
  std::uint64_t windowsSkippedEmpty = 0;    // windows with no common document
  std::uint64_t windowsSkippedBound = 0;    // windows whose bound could not beat the floor
  std::uint64_t windowsJumped = 0;          // empty windows left by jumping to the lead's next doc
  std::uint64_t candidatesSeen = 0;         // documents that reached candidate evaluation
  std::uint64_t candidatesPrunedTable = 0;  // candidates rejected by the frequency prune table
  std::uint64_t candidatesPrunedLimit = 0;  // candidates rejected by the per-candidate bound
  std::uint64_t fullScores = 0;             // documents whose full score was computed
  std::uint64_t heapInserts = 0;            // documents that entered the top-k
  std::uint64_t thresholdRaises = 0;        // times the k-th score (the floor) rose
  std::uint64_t wandPivots = 0;             // pivots selected (WAND, BMW)
  std::uint64_t shallowAdvances = 0;        // block-pointer moves without decoding
  std::uint64_t pruneTableRebuilds = 0;     // frequency prune tables built
  std::uint64_t maxscoreEssential = 0;      // MaxScore: postings visited in essential lists
  std::uint64_t maxscoreNonEssential = 0;   // MaxScore: probes of non-essential lists
  std::uint64_t windowsBoundFirst = 0;      // windowed bmm: windows bounded by block maxima before scoring

  // Calls f(name, value) for every counter, in declaration order; names are snake_case and are
  // the keys used by reports, JSON and the GUI.
  template <typename F>
  void forEach(F&& f) const {
    f("postings_decoded", postingsDecoded);
    f("doc_blocks_decoded", docBlocksDecoded);
    f("freq_blocks_decoded", freqBlocksDecoded);
    f("blocks_skipped", blocksSkipped);
    f("windows_total", windowsTotal);
    f("windows_skipped_empty", windowsSkippedEmpty);
    f("windows_skipped_bound", windowsSkippedBound);
    f("windows_jumped", windowsJumped);
    f("candidates_seen", candidatesSeen);
    f("candidates_pruned_table", candidatesPrunedTable);
    f("candidates_pruned_limit", candidatesPrunedLimit);
    f("full_scores", fullScores);
    f("heap_inserts", heapInserts);
    f("threshold_raises", thresholdRaises);
    f("wand_pivots", wandPivots);
    f("shallow_advances", shallowAdvances);
    f("prune_table_rebuilds", pruneTableRebuilds);
    f("maxscore_essential", maxscoreEssential);
    f("maxscore_non_essential", maxscoreNonEssential);
    f("windows_bound_first", windowsBoundFirst);
  }

  QueryCounters& operator+=(const QueryCounters& o) noexcept;
};

}  // namespace wandscope::engine
