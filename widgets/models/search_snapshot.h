// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/search_request.h"
#include "engine/query/search_result.h"
#include "engine/score/bm25.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace wandscope::widgets {

// One result row as the views show it: the hit, its display text and why it scored what it did.
// Built by the app on a worker thread; immutable once handed to the GUI.
struct HitRow {
  engine::DocId doc = 0;
  QString externalId;
  engine::Score score = 0.0f;
  QString title;
  QString snippet;
  QList<int> highlights;    // (start, length) pairs of UTF-16 offsets into `snippet`
  engine::HitExplain explain;
  std::vector<float> weight;  // per query term: the BM25 weight W(tf, dl), 0 when tf is 0
};

// One evaluation of the query by one path: what it returned and the work it did.
struct AlgorithmRun {
  engine::Algorithm requested = engine::Algorithm::Auto;
  engine::Algorithm taken = engine::Algorithm::Exhaustive;
  QString reason;
  engine::QueryCounters counters;
  std::vector<engine::Hit> hits;
  double wallMs = 0;        // analysis, planning and evaluation, on the worker thread
  double cpuMs = 0;         // the worker thread's CPU time for the same span
  // How they were measured: the medians of this many warm runs after the first, or (0) the first
  // run alone, cold, for a query too slow to repeat.
  int timedRuns = 0;
  engine::Score kthScore = 0.0f;  // NaN when fewer than k hits
  bool tieAtK = false;
  std::vector<QString> externalIds;  // the compared run's: parallel to hits (the primary's are in rows)
};

// Everything the Explore page shows about one query, computed off the GUI thread and shared as
// std::shared_ptr<const SearchSnapshot>. `generation` is the controller's request id: a snapshot
// whose generation is not the latest is stale and dropped.
struct SearchSnapshot {
  std::uint64_t generation = 0;
  QString text;
  engine::Operator op = engine::Operator::Or;
  std::size_t k = 10;
  engine::SearchOptions options;
  engine::ParsedQuery query;
  engine::Bm25Params bm25;
  std::uint64_t docs = 0;
  QString simdTarget;        // the SIMD target the kernels ran on ("avx2")
  std::vector<HitRow> rows;  // the primary run's hits, in rank order
  AlgorithmRun primary;
  std::optional<AlgorithmRun> compare;  // the "compare with" path, when one is selected

  // Index of the first rank where the compared run differs from the primary (doc id or score
  // bits), or -1 when both are identical or there is no comparison.
  int firstDifference() const noexcept;
  // Whether the comparison returned exactly the primary's hits: same doc ids, same order, same
  // f32 score bits. False without a comparison.
  bool identical() const noexcept { return compare.has_value() && firstDifference() < 0; }
  // The column labels of the primary and the compared path: the paths' names ("bmm",
  // "exhaustive"), "A: exhaustive" and "B: exhaustive" when both took the same path (the headers
  // read "exhaustive | exhaustive"); the second is empty without a comparison.
  std::pair<QString, QString> pathLabels() const;
};

using SearchSnapshotPtr = std::shared_ptr<const SearchSnapshot>;

// The bits of an f32 score, for exact comparisons and tooltips.
std::uint32_t scoreBits(engine::Score score) noexcept;

// A score, idf, weight or contribution (an f32) as the Explore page's tables and the result diff
// write it: the shortest decimal that reads back as the same f32, never in exponent form; "\u2013"
// for NaN. So every digit the f32 carries shows and none beyond it (1146.3198, not the seven
// decimals 1146.3198242 of its double widening; 3, 12.5), two f32s whose bits differ never print
// alike (3 and 3.0000002, one ulp apart), and a term in every document reads idf 0.00000249999
// as the CLI's 2.49999e-06, not 0.00000. Parsing the text as a float gives the value back.
QString formatFigure(float value);

}  // namespace wandscope::widgets

Q_DECLARE_METATYPE(wandscope::widgets::SearchSnapshotPtr)
