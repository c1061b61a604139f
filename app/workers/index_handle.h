// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/index/index.h"
#include "widgets/models/index_summary.h"

#include <QMetaType>

#include <memory>

namespace wandscope::app {

// An opened index as the workbench passes it around: the immutable engine snapshot (shared by
// every query worker; nothing locks it) and the summary computed when it was opened. Crosses
// threads as std::shared_ptr<const IndexHandle>.
struct IndexHandle {
  std::shared_ptr<const engine::Index> index;
  widgets::IndexSummaryPtr summary;
};

using IndexHandlePtr = std::shared_ptr<const IndexHandle>;

}  // namespace wandscope::app

Q_DECLARE_METATYPE(wandscope::app::IndexHandlePtr)
