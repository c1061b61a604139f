// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/bench_profile.h"
#include "engine/bench/run_types.h"

#include <QMetaType>
#include <QString>

#include <memory>
#include <stop_token>

namespace wandscope::app {

// One Load page run as it goes to the load worker: the profile as it will run (overrides
// applied), where to record it and where the default dataset is cached.
struct LoadJob {
  quint64 generation = 0;
  engine::BenchProfile profile;
  QString storePath;  // run store; empty: not recorded
  QString cacheRoot;  // default dataset cache; empty: the user cache directory
  std::stop_token stop;
};

// A finished run crosses to the GUI thread immutable.
using RunReportPtr = std::shared_ptr<const engine::RunReport>;

}  // namespace wandscope::app

Q_DECLARE_METATYPE(wandscope::engine::RungResult)
Q_DECLARE_METATYPE(wandscope::app::RunReportPtr)
