// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/corpus/corpus_generator.h"
#include "engine/corpus/corpus_reader.h"
#include "engine/score/bm25.h"
#include "engine/text/analyzer.h"

#include <QMetaType>
#include <QString>
#include <QVector>

namespace wandscope::app {

// Build an index from a corpus file into `out` (replacing an index there), then open it.
struct BuildRequest {
  QString corpus;
  engine::CorpusFormat format = engine::CorpusFormat::Beir;
  engine::AnalyzerKind analyzer = engine::AnalyzerKind::Plain;
  engine::Bm25Params bm25;
  unsigned threads = 0;  // 0 = hardware concurrency
  bool skipBadLines = false;
  QString out;
};

// Generate a synthetic corpus into `corpus`; with `build`, then index it like BuildRequest.
struct GenerateRequest {
  engine::CorpusGeneratorParams params;
  QString corpus;
  bool build = true;
  BuildRequest index;  // its corpus is `corpus`
};

// The embedded default dataset: where it lives and its query sets (name, path), for the Explore
// page's sample queries.
struct DefaultDatasetInfo {
  QString dir;
  QString corpus;
  QString index;
  QVector<QPair<QString, QString>> querySets;   // (name, path)
  QVector<QPair<QString, QString>> sampleQueries;  // (set name, query text): a few of each set
  bool rebuilt = false;
};

}  // namespace wandscope::app

Q_DECLARE_METATYPE(wandscope::app::DefaultDatasetInfo)
