// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/models/trace_snapshot.h"

#include <QAbstractTableModel>

namespace wandscope::widgets {

// The events of one traced run, one row per event in recording order: step, event, term, doc,
// "to" doc, score, bound and threshold. The tooltip of a row is its narrative. A flat table: the
// trace view keeps its selection in sync with the step shown.
class TraceEventModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { StepColumn, EventColumn, TermColumn, DocColumn, ToColumn, ScoreColumn, BoundColumn, FloorColumn, ColumnCount };
  enum Role { KindRole = Qt::UserRole + 1, ReasonRole, DocRole };

  explicit TraceEventModel(QObject* parent = nullptr);

  // Shows `run` of `snapshot` (the primary or the compared run); null clears.
  void setRun(TraceSnapshotPtr snapshot, const TraceRun* run);
  const TraceRun* run() const noexcept { return m_run; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  TraceSnapshotPtr m_snapshot;
  const TraceRun* m_run = nullptr;
};

}  // namespace wandscope::widgets
