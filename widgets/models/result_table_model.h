// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/models/search_snapshot.h"

#include <QAbstractTableModel>

namespace wandscope::widgets {

// The Explore page's results: one row per hit of the primary run, in rank order. When the
// snapshot carries a comparison run, three more columns show the compared path's doc and score at
// the same rank and whether they match bit for bit. Columns are looked up with column(Column):
// they shift when the comparison columns appear.
class ResultTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum class Column { Rank, Doc, Score, CompareDoc, CompareScore, Match, Title, Snippet };
  enum Role {
    DocIdRole = Qt::UserRole + 1,  // quint32 internal doc id
    ScoreRole,                     // double (the f32 score widened)
    ScoreBitsRole,                 // quint32 bits of the f32 score
    HighlightsRole,                // QList<int> of (start, length) pairs (Snippet column)
    MatchRole,                     // bool, compare columns: same doc and score bits at this rank
  };

  explicit ResultTableModel(QObject* parent = nullptr);

  // Replaces everything (a model reset); nullptr clears.
  void setSnapshot(SearchSnapshotPtr snapshot);
  const SearchSnapshotPtr& snapshot() const noexcept { return m_snapshot; }

  // The model column of `c`, or -1 when it is not shown (the comparison columns without one).
  int column(Column c) const noexcept;
  // The role of a model column.
  Column columnKind(int column) const noexcept;
  // The row's HitRow; nullptr when out of range.
  const HitRow* hitRow(int row) const noexcept;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  bool hasCompare() const noexcept { return m_snapshot && m_snapshot->compare.has_value(); }
  const engine::Hit* compareHit(int row) const noexcept;
  // The compared hit's external id (its internal doc id as text when the snapshot has none).
  QString compareExternalId(int row) const;

  SearchSnapshotPtr m_snapshot;
};

}  // namespace wandscope::widgets
