// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/models/index_summary.h"

#include <QAbstractTableModel>
#include <QString>
#include <QVector>

namespace wandscope::widgets {

// The opened index's statistics and settings as (property, value) rows, each with a tooltip
// explaining the metric. Empty until an index summary is set.
class IndexStatsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Role { KeyRole = Qt::UserRole + 1 };

  explicit IndexStatsModel(QObject* parent = nullptr);

  void setSummary(IndexSummaryPtr summary);
  const IndexSummaryPtr& summary() const noexcept { return m_summary; }
  // The row of a metric key ("docs", "terms", ...), or -1.
  int rowOf(const QString& key) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  // "1.5 MiB", "312 B".
  static QString formatBytes(quint64 bytes);

 private:
  struct Row {
    QString key;
    QString value;
    QString detail;  // extra tooltip line (exact numbers)
  };
  IndexSummaryPtr m_summary;
  QVector<Row> m_rows;
};

}  // namespace wandscope::widgets
