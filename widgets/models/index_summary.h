// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/index/index.h"
#include "engine/index/manifest.h"

#include <QMetaType>
#include <QString>
#include <QVector>

#include <memory>

namespace wandscope::widgets {

// What the Index page shows about an opened index: its statistics, settings and the plotted
// distributions, computed once on a worker thread when the index is opened.
struct IndexSummary {
  QString path;
  engine::IndexStatistics stats;
  engine::Manifest manifest;   // analyzer, BM25 parameters, segments, build information
  // Terms per document-frequency bin: bin i holds df in [2^i, 2^(i+1)); keys are the bins' lower
  // bounds, values the number of terms; empty bins are left out (log axes).
  QVector<double> dfBinKeys;
  QVector<double> dfBinCounts;
  // Posting-list length (df) and collection frequency (cf) of the term at each rank (1 = longest
  // list), sampled at logarithmically spaced ranks so the curve has a few hundred points.
  QVector<double> rankKeys;
  QVector<double> rankDf;
  QVector<double> rankCf;
};

using IndexSummaryPtr = std::shared_ptr<const IndexSummary>;

}  // namespace wandscope::widgets

Q_DECLARE_METATYPE(wandscope::widgets::IndexSummaryPtr)
