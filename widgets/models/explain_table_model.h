// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/models/search_snapshot.h"

#include <QAbstractTableModel>

namespace wandscope::widgets {

// Why one result scored what it did: a row per query term (query order) with its tf in the
// document, idf, weight W and contribution idf * W, then a total row with the contributions
// re-added in query order in f32 - which equals the hit's score bit for bit.
class ExplainTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { TermColumn, TfColumn, IdfColumn, WeightColumn, ContributionColumn, ShareColumn, ColumnCount };
  enum Role { ValueRole = Qt::UserRole + 1, IsTotalRole };

  explicit ExplainTableModel(QObject* parent = nullptr);

  // Shows result `row` of `snapshot` (-1 or out of range: empty).
  void setResult(SearchSnapshotPtr snapshot, int row);
  void clear() { setResult(nullptr, -1); }
  const HitRow* hit() const noexcept;
  // The contributions added in query order in f32 (the total row), and whether its bits equal the
  // hit's score.
  engine::Score contributionSum() const noexcept;
  bool sumMatchesScore() const noexcept;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  SearchSnapshotPtr m_snapshot;
  int m_row = -1;
};

}  // namespace wandscope::widgets
