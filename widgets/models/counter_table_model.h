// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/models/search_snapshot.h"

#include <QAbstractTableModel>
#include <QString>
#include <QVector>

namespace wandscope::widgets {

// The query's work counters (docs/COUNTERS.md): one row per counter, a value column for the
// primary path and, when the snapshot has a comparison, one for the compared path and their
// difference. With hideZeros() rows that are zero on every shown path are left out.
class CounterTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Role { CounterNameRole = Qt::UserRole + 1, ValueRole };

  explicit CounterTableModel(QObject* parent = nullptr);

  void setSnapshot(SearchSnapshotPtr snapshot);
  void setHideZeros(bool hide);
  bool hideZeros() const noexcept { return m_hideZeros; }

  // The row of a counter ("postings_decoded"), or -1 when it is not shown.
  int rowOf(const QString& counter) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    QString name;
    quint64 a = 0;
    quint64 b = 0;
  };
  void rebuild();

  SearchSnapshotPtr m_snapshot;
  bool m_hideZeros = false;
  QVector<Row> m_rows;
};

}  // namespace wandscope::widgets
