// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/counter_table_model.h"

#include "widgets/metric_descriptions.h"

#include <QBrush>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>

namespace wandscope::widgets {

CounterTableModel::CounterTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CounterTableModel::setSnapshot(SearchSnapshotPtr snapshot) {
  beginResetModel();
  m_snapshot = std::move(snapshot);
  rebuild();
  endResetModel();
}

void CounterTableModel::setHideZeros(bool hide) {
  if (hide == m_hideZeros) return;
  beginResetModel();
  m_hideZeros = hide;
  rebuild();
  endResetModel();
}

void CounterTableModel::rebuild() {
  m_rows.clear();
  if (!m_snapshot) return;
  QVector<Row> rows;
  m_snapshot->primary.counters.forEach([&](const char* name, std::uint64_t v) {
    rows.push_back(Row{QString::fromLatin1(name), v, 0});
  });
  if (m_snapshot->compare) {
    int i = 0;
    m_snapshot->compare->counters.forEach([&](const char*, std::uint64_t v) { rows[i++].b = v; });
  }
  for (const auto& r : rows) {
    if (m_hideZeros && r.a == 0 && r.b == 0) continue;
    m_rows.push_back(r);
  }
}

int CounterTableModel::rowOf(const QString& counter) const {
  for (int i = 0; i < m_rows.size(); ++i) {
    if (m_rows[i].name == counter) return i;
  }
  return -1;
}

int CounterTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CounterTableModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return m_snapshot && m_snapshot->compare ? 4 : 2;
}

QVariant CounterTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const Row& r = m_rows[index.row()];
  const QLocale locale;
  const qint64 diff = static_cast<qint64>(r.b) - static_cast<qint64>(r.a);
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case 0: return metricTitle(r.name);
        case 1: return locale.toString(r.a);
        case 2: return locale.toString(r.b);
        case 3:
          if (diff == 0) return QStringLiteral("0");
          return QString((diff > 0 ? QStringLiteral("+") : QString()) + locale.toString(diff));
        default: return {};
      }
    case Qt::ToolTipRole: {
      QString tip = QStringLiteral("<b>%1</b> (%2)<br>%3").arg(metricTitle(r.name), r.name, metricDescription(r.name));
      if (index.column() == 3) tip += QStringLiteral("<br>Compared path minus primary path.");
      return tip;
    }
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(index.column() == 0 ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                                                     : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ForegroundRole: {
      const bool zero = (index.column() == 1 && r.a == 0) || (index.column() == 2 && r.b == 0) ||
                        (index.column() == 3 && diff == 0) || (index.column() == 0 && r.a == 0 && r.b == 0);
      if (zero) return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
      return {};
    }
    case CounterNameRole: return r.name;
    case ValueRole:
      switch (index.column()) {
        case 1: return QVariant::fromValue(r.a);
        case 2: return QVariant::fromValue(r.b);
        case 3: return QVariant::fromValue(diff);
        default: return {};
      }
    default: return {};
  }
}

QVariant CounterTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
  const auto [a, b] = m_snapshot ? m_snapshot->pathLabels() : std::pair<QString, QString>{};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case 0: return QStringLiteral("Counter");
      case 1: return a.isEmpty() ? QStringLiteral("Value") : a;
      case 2: return b;
      case 3: return QStringLiteral("\u0394");
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case 0: return QStringLiteral("Work counters of the query; hover a row for its definition.");
      case 1: return QStringLiteral("Counters of the primary path (%1).").arg(a);
      case 2: return QStringLiteral("Counters of the compared path (%1).").arg(b);
      case 3: return QStringLiteral("Compared minus primary: negative means the compared path did less work.");
      default: return {};
    }
  }
  return {};
}

}  // namespace wandscope::widgets
