// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/controllers/history_controller.h"

#include "engine/core/log.h"

#include <exception>
#include <filesystem>

namespace wandscope::app {
namespace {

std::filesystem::path fsPath(const QString& s) { return std::filesystem::path(s.toStdString()); }

void setError(QString* error, const std::exception& e) {
  if (error) *error = QString::fromStdString(e.what());
  engine::log::error(e.what());
}

}  // namespace

HistoryController::HistoryController(QObject* parent)
    : QObject(parent), m_path(QString::fromStdString(engine::RunStore::defaultPath().string())) {}

void HistoryController::setStorePath(const QString& path) {
  if (path == m_path) return;
  m_path = path;
  emit storePathChanged(path);
  emit changed();
}

std::vector<engine::RunSummary> HistoryController::list(const QString& search, QString* error) const {
  try {
    // Listing never creates a store: a missing file simply has no runs yet.
    if (!std::filesystem::exists(fsPath(m_path))) return {};
    const auto store = engine::RunStore::open(fsPath(m_path));
    engine::RunFilter filter;
    filter.search = search.trimmed().toStdString();
    return store.listRuns(filter);
  } catch (const std::exception& e) {
    setError(error, e);
    return {};
  }
}

RunReportPtr HistoryController::load(const QString& runId, QString* error) const {
  try {
    const auto store = engine::RunStore::open(fsPath(m_path));
    // Viewing: a stored rung that cannot be read is left out and named in the report's warnings,
    // the rest of the run stays in sight (it hid the whole run).
    return std::make_shared<const engine::RunReport>(
        store.loadRun(runId.toStdString(), engine::DamagedParts::LeaveOut));
  } catch (const std::exception& e) {
    setError(error, e);
    return nullptr;
  }
}

bool HistoryController::remove(const QString& runId, QString* error) {
  try {
    auto store = engine::RunStore::open(fsPath(m_path));
    if (!store.deleteRun(runId.toStdString())) {
      if (error) *error = QStringLiteral("%1: no run %2").arg(m_path, runId);
      return false;
    }
  } catch (const std::exception& e) {
    setError(error, e);
    return false;
  }
  emit changed();
  return true;
}

std::vector<engine::ComparisonSummary> HistoryController::listComparisons(QString* error) const {
  try {
    if (!std::filesystem::exists(fsPath(m_path))) return {};
    return engine::RunStore::open(fsPath(m_path)).listComparisons();
  } catch (const std::exception& e) {
    setError(error, e);
    return {};
  }
}

CompareReportPtr HistoryController::loadComparison(const QString& compareId, QString* error) const {
  try {
    const auto store = engine::RunStore::open(fsPath(m_path));
    return std::make_shared<const engine::CompareReport>(store.loadComparison(compareId.toStdString()));
  } catch (const std::exception& e) {
    setError(error, e);
    return nullptr;
  }
}

bool HistoryController::saveComparison(const engine::CompareReport& report, QString* error) {
  try {
    engine::RunStore::open(fsPath(m_path)).saveComparison(report);
  } catch (const std::exception& e) {
    setError(error, e);
    return false;
  }
  emit changed();
  return true;
}

bool HistoryController::removeComparison(const QString& compareId, QString* error) {
  try {
    // Deleting never creates a store: a missing file has no comparison to delete.
    if (!std::filesystem::exists(fsPath(m_path))) {
      if (error) *error = QStringLiteral("%1: no comparison %2 (there is no run store)").arg(m_path, compareId);
      return false;
    }
    auto store = engine::RunStore::open(fsPath(m_path));
    if (!store.deleteComparison(compareId.toStdString())) {
      if (error) *error = QStringLiteral("%1: no comparison %2").arg(m_path, compareId);
      return false;
    }
  } catch (const std::exception& e) {
    setError(error, e);
    return false;
  }
  emit changed();
  return true;
}

}  // namespace wandscope::app
