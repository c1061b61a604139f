// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/gui/pages/page.h"
#include "engine/bench/run_types.h"
#include "engine/store/store_run_observer.h"
#include "tests/support/temp_dir.h"

#include <QAction>
#include <QString>

#include <filesystem>
#include <string>
#include <vector>

namespace wandscope::test {

// Stores `report` in the run store at `db` the way a benchmark run does: started, every rung
// finished, run finished.
inline void recordRun(const std::filesystem::path& db, const engine::RunReport& report) {
  engine::StoreRunObserver observer(db);
  observer.onRunStarted(report.header);
  for (const auto& rung : report.rungs) observer.onRungFinished(report.header, rung);
  observer.onRunFinished(report);
}

// The page's menu action whose text is exactly `text` (with its & mnemonic), or nullptr.
inline QAction* menuAction(const app::Page& page, const QString& text) {
  for (QAction* a : page.menuActions()) {
    if (a->text() == text) return a;
  }
  return nullptr;
}

// The environment of a workbench child process: offscreen, its cache, settings and data under
// `dir`, never the user's.
inline std::vector<std::string> workbenchEnv(const TempDir& dir) {
  return {"QT_QPA_PLATFORM=offscreen", "XDG_CACHE_HOME=" + (dir / "cache").string(),
          "XDG_CONFIG_HOME=" + (dir / "config").string(), "XDG_DATA_HOME=" + (dir / "data").string()};
}

}  // namespace wandscope::test
