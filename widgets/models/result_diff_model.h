// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/models/query_diff_snapshot.h"

#include <QAbstractTableModel>

namespace wandscope::widgets {

// One query's top-k from targets A and B side by side, rank by rank: A's document and score, B's
// document and score, and how the rank compares (same document and score bits, other score bits,
// another document, or a rank only one side has). The first diverging rank - the first rank whose
// (document, score bits) differ, as the comparison counts it - is highlighted; every differing
// rank is tinted.
class ResultDiffModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Rank, DocA, ScoreA, DocB, ScoreB, Comparison, ColumnCount };
  enum Role { SortRole = Qt::UserRole + 1, DiffersRole, IsFirstDivergingRole };

  explicit ResultDiffModel(QObject* parent = nullptr);

  void setSnapshot(QueryDiffSnapshotPtr snapshot);
  void clear() { setSnapshot(nullptr); }
  const QueryDiffSnapshotPtr& snapshot() const noexcept { return m_snapshot; }

  // The row of the first diverging rank, -1 when both answers are identical (or no snapshot).
  int firstDivergingRow() const noexcept;
  // Whether rank `row` differs (document or score bits, or only one side has it).
  bool rowDiffers(int row) const noexcept;
  // "same", "score bits differ", "other document", "only in A", "only in B" (the B the snapshot
  // puts beside A: "only in B2").
  QString comparisonText(int row) const;
  // The sides' names in the comparison: "A", and "B", "B2", ... (DiffSide::label).
  QString labelA() const;
  QString labelB() const;
  // A score as the result diff writes it everywhere (cells, tooltips, the explain line) and the
  // Explore page's tables do (formatFigure): the shortest decimal that reads back as the same f32,
  // never an exponent, so two scores whose bits differ never print alike ("3", "3.0000002").
  static QString scoreText(float score);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  const DiffHit* hitA(int row) const noexcept;
  const DiffHit* hitB(int row) const noexcept;

  QueryDiffSnapshotPtr m_snapshot;
  int m_rows = 0;
};

}  // namespace wandscope::widgets
