// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/result_diff.h"
#include "widgets/models/search_snapshot.h"

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace wandscope::widgets {

// One ranked answer of one side of a comparison, as the result-diff view shows it.
struct DiffHit {
  std::uint32_t doc = 0;  // the index's numbering (corpus order), the same for both sides
  float score = 0.0f;     // as the target computed it (its f32 bits are what is compared)
  QString externalId;
};

// What one target answered for the query.
struct DiffSide {
  QString spec;                // "builtin", "plugin:/tmp/a.so", "xapian"
  QString label;               // the comparison's name for it: "A", "B", "B2", ... ("" reads as A / B)
  bool ok = false;             // false: the target failed or has no results to compare
  QString error;               // why not, when !ok
  std::vector<DiffHit> hits;   // rank order
  // Why each hit scored what it did (rows in the same order as `hits`), when the target can
  // explain its scores; nullptr otherwise, with `explainNote` saying why.
  SearchSnapshotPtr explain;
  QString explainNote;
};

// One query of a comparison answered by both targets, computed off the GUI thread and immutable
// once handed over. `generation` is the comparison it belongs to.
struct QueryDiffSnapshot {
  std::uint64_t generation = 0;
  QString querySet;
  QString queryId;
  QString text;
  DiffSide a, b;
  engine::QueryDiff diff;  // exact: doc ids and f32 score bits (engine/bench/result_diff.h)
};

using QueryDiffSnapshotPtr = std::shared_ptr<const QueryDiffSnapshot>;

}  // namespace wandscope::widgets

Q_DECLARE_METATYPE(wandscope::widgets::QueryDiffSnapshotPtr)
