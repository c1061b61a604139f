// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/parsed_query.h"

#include <QAbstractTableModel>

namespace wandscope::widgets {

// The analyzed query's terms in query order with the index's statistics for each: df, idf, max
// score and blocks. Terms the index does not contain are kept (they match nothing) and marked.
class TermTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { TermColumn, DfColumn, IdfColumn, MaxScoreColumn, BlocksColumn, ColumnCount };
  // ValueRole: the figure itself (df and blocks as qulonglong, idf and max score as the f32
  // widened to double), empty for a term not in the index.
  enum Role { KnownRole = Qt::UserRole + 1, ValueRole };

  explicit TermTableModel(QObject* parent = nullptr);

  void setQuery(engine::ParsedQuery query);
  void clear();
  const engine::ParsedQuery& query() const noexcept { return m_query; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  engine::ParsedQuery m_query;
};

}  // namespace wandscope::widgets
