// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/term_table_model.h"

#include "widgets/metric_descriptions.h"
#include "widgets/models/search_snapshot.h"

#include <QFont>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>

namespace wandscope::widgets {
namespace {

QString termColumnKey(int column) {
  switch (column) {
    case TermTableModel::TermColumn: return QStringLiteral("term");
    case TermTableModel::DfColumn: return QStringLiteral("df");
    case TermTableModel::IdfColumn: return QStringLiteral("idf");
    case TermTableModel::MaxScoreColumn: return QStringLiteral("max_score");
    case TermTableModel::BlocksColumn: return QStringLiteral("blocks");
    default: return {};
  }
}

}  // namespace

TermTableModel::TermTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TermTableModel::setQuery(engine::ParsedQuery query) {
  beginResetModel();
  m_query = std::move(query);
  endResetModel();
}

void TermTableModel::clear() { setQuery({}); }

int TermTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_query.terms.size());
}

int TermTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TermTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const auto& t = m_query.terms[static_cast<std::size_t>(index.row())];
  const bool known = t.id.has_value();
  const QLocale locale;
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case TermColumn: return QString::fromStdString(t.text);
        case DfColumn: return known ? locale.toString(static_cast<qulonglong>(t.df)) : QStringLiteral("not in index");
        case IdfColumn: return known ? formatFigure(t.idf) : QString();
        case MaxScoreColumn: return known ? formatFigure(t.maxScore) : QString();
        case BlocksColumn: return known ? locale.toString(static_cast<qulonglong>(t.blocks)) : QString();
        default: return {};
      }
    case Qt::ToolTipRole:
      if (!known) {
        return QStringLiteral("\"%1\" is not in the index: it matches no document (an AND query "
                              "then has no results).")
            .arg(QString::fromStdString(t.text));
      }
      // The term whole (a narrow panel elides it), then what the column means.
      if (index.column() == TermColumn) {
        return QStringLiteral("%1\n\n%2").arg(QString::fromStdString(t.text), metricDescription(termColumnKey(TermColumn)));
      }
      return metricDescription(termColumnKey(index.column()));
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(index.column() == TermColumn ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                                                              : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::FontRole:
      if (!known) {
        QFont f = QGuiApplication::font();
        f.setItalic(true);
        return f;
      }
      return {};
    case Qt::ForegroundRole:
      if (!known) return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
      return {};
    case KnownRole: return known;
    case ValueRole:
      if (!known) return {};
      switch (index.column()) {
        case DfColumn: return QVariant::fromValue(static_cast<qulonglong>(t.df));
        case IdfColumn: return QVariant(static_cast<double>(t.idf));
        case MaxScoreColumn: return QVariant(static_cast<double>(t.maxScore));
        case BlocksColumn: return QVariant::fromValue(static_cast<qulonglong>(t.blocks));
        default: return {};
      }
    default: return {};
  }
}

QVariant TermTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
  if (role == Qt::DisplayRole) return metricTitle(termColumnKey(section));
  if (role == Qt::ToolTipRole) return metricDescription(termColumnKey(section));
  return {};
}

}  // namespace wandscope::widgets
