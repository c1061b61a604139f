// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/compare_job.h"
#include "app/workers/load_job.h"
#include "engine/store/run_store.h"

#include <QObject>
#include <QString>

#include <vector>

namespace wandscope::app {

// The run store as the History page uses it: list (searchable), load and delete runs. Each call
// opens its own short-lived connection (RunStore is one connection per thread; WAL readers never
// block the load worker that is writing a run), so these are quick single-statement reads and
// writes on the GUI thread. Errors (a damaged or foreign file) come back as messages naming the
// file, never as exceptions.
class HistoryController : public QObject {
  Q_OBJECT
 public:
  explicit HistoryController(QObject* parent = nullptr);

  void setStorePath(const QString& path);
  const QString& storePath() const noexcept { return m_path; }

  // Runs matching `search` (run id, profile, target, commit; empty: all), newest first.
  std::vector<engine::RunSummary> list(const QString& search, QString* error = nullptr) const;
  RunReportPtr load(const QString& runId, QString* error = nullptr) const;
  bool remove(const QString& runId, QString* error = nullptr);

  // Stored A/B comparisons (the Compare page's, `wandscope-cli compare`'s), newest first.
  std::vector<engine::ComparisonSummary> listComparisons(QString* error = nullptr) const;
  CompareReportPtr loadComparison(const QString& compareId, QString* error = nullptr) const;
  // Stores a finished (or stopped, partial) comparison, creating the store if needed; emits
  // changed() so History lists it.
  bool saveComparison(const engine::CompareReport& report, QString* error = nullptr);
  // Deletes a stored comparison (exact id; runs are untouched) and emits changed(); false with a
  // message naming the store when there is no such comparison or the store cannot be written.
  bool removeComparison(const QString& compareId, QString* error = nullptr);

 signals:
  void storePathChanged(const QString& path);
  // A run or comparison was added (by the Load or Compare page) or deleted: lists should refresh.
  void changed();

 public slots:
  void notifyChanged() { emit changed(); }

 private:
  QString m_path;
};

}  // namespace wandscope::app
