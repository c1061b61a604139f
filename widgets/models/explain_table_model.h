// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/models/search_snapshot.h"

#include <QAbstractTableModel>

#include <cstddef>
#include <vector>

namespace wandscope::widgets {

// Why one result scored what it did: a row per query term (query order) with its tf in the
// document, idf, weight W and contribution idf * W, then a total row with the contributions
// re-added in query order in f32 - which equals the hit's score bit for bit. With
// setOnlyPresentTerms(true) the rows are only the terms the document holds (tf > 0), still in
// query order; the total row adds every term's contribution all the same.
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

  // Lists only the terms the shown document holds (tf > 0): of a 1,024-term query, the few a
  // document has were buried among a thousand rows of zeros. Off by default.
  void setOnlyPresentTerms(bool only);
  bool onlyPresentTerms() const noexcept { return m_onlyPresent; }
  // The query's terms (0 when nothing is shown), and those of them the shown document holds.
  int termCount() const noexcept;
  int presentTermCount() const noexcept;
  // The query-order index of the term on `row`; -1 for the total row or a row out of range.
  int termIndex(int row) const noexcept;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  void listTerms();

  SearchSnapshotPtr m_snapshot;
  int m_row = -1;
  bool m_onlyPresent = false;
  std::vector<std::size_t> m_terms;  // the query-order indices of the term rows
};

}  // namespace wandscope::widgets
