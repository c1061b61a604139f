// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/index/index.h"
#include "widgets/models/index_summary.h"

#include <QString>

namespace wandscope::app {

// Computes what the Index page shows about `index` (statistics, settings, the df histogram and
// the rank/length curve). One pass over the lexicon; runs on a worker thread.
widgets::IndexSummary summarizeIndex(const engine::Index& index, const QString& path);

}  // namespace wandscope::app
