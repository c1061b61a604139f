// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/bench_profile.h"
#include "engine/bench/compare_runner.h"
#include "engine/bench/compare_types.h"

#include <QMetaType>
#include <QString>

#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace wandscope::app {

// One Compare page comparison as it goes to the compare worker: the profile (its dataset, query
// sets, op, k, algorithm, seed), the target specs (A, B and any further B2, B3, ...) and the
// runner's options, as the CLI's `compare` takes them.
struct CompareJob {
  quint64 generation = 0;
  engine::BenchProfile profile;
  std::string a, b;
  std::vector<std::string> more;  // B2, B3, ...: each compared against A as B is
  // A, B, B2, ...
  std::vector<std::string> targets() const {
    std::vector<std::string> all{a, b};
    all.insert(all.end(), more.begin(), more.end());
    return all;
  }
  unsigned repetitions = 3;
  unsigned warmPasses = engine::CompareOptions::kDefaultWarmPasses;  // untimed passes before each timed block
  double warmupSeconds = -1;  // < 0: the profile's closed warmup_s, as the CLI
  bool aa = false;
  double noiseFloor = 0.02;
  unsigned bootstrapSamples = 2000;
  QString cacheRoot;          // default dataset cache; empty: the user cache directory
  std::stop_token stop;
  // Preparing the targets again for the result diff after the run: triggered at shutdown or by the
  // next comparison, not by the user's Stop (a stopped comparison's finished sets keep their diff).
  std::stop_token sessionStop;
};

// A finished comparison crosses to the GUI thread immutable.
using CompareReportPtr = std::shared_ptr<const engine::CompareReport>;

// One finished query set's table rows, as the runner reports them while it goes.
struct CompareSetRows {
  std::vector<engine::CompareScenario> rows;    // A vs B (then B2, ...): CPU ms/query, p50
  std::vector<engine::CompareScenario> aaRows;  // A vs A, with --aa
};
using CompareSetRowsPtr = std::shared_ptr<const CompareSetRows>;

// The queries of a finished comparison, for choosing one to look at side by side.
struct CompareQuerySet {
  QString name;
  std::vector<QString> ids;
  std::vector<QString> texts;
};
using CompareQuerySetsPtr = std::shared_ptr<const std::vector<CompareQuerySet>>;

}  // namespace wandscope::app

Q_DECLARE_METATYPE(wandscope::app::CompareReportPtr)
Q_DECLARE_METATYPE(wandscope::app::CompareSetRowsPtr)
Q_DECLARE_METATYPE(wandscope::app::CompareQuerySetsPtr)
Q_DECLARE_METATYPE(wandscope::engine::OpenLatencyPoint)
