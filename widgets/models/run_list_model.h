// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/store/run_store.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace wandscope::widgets {

// The runs of the run store, one row each (what `wandscope-cli runs list` prints). Sortable and
// searchable through a QSortFilterProxyModel: SortRole gives raw values, SearchRole the text a
// search matches (run id, profile, targets, commit, host).
class RunListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Started, Profile, Targets, Rungs, Status, RunId, Host, Commit, ColumnCount };
  enum Role { SortRole = Qt::UserRole + 1, SearchRole, RunIdRole };

  explicit RunListModel(QObject* parent = nullptr);

  void setRuns(std::vector<engine::RunSummary> runs);
  const std::vector<engine::RunSummary>& runs() const noexcept { return m_runs; }
  // The row of a run id, or -1.
  int rowOf(const QString& runId) const;
  QString runId(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<engine::RunSummary> m_runs;
};

}  // namespace wandscope::widgets
