// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/explain_table_model.h"

#include "widgets/metric_descriptions.h"

#include <QFont>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>

#include <algorithm>

namespace wandscope::widgets {
namespace {

QString explainColumnKey(int column) {
  switch (column) {
    case ExplainTableModel::TermColumn: return QStringLiteral("term");
    case ExplainTableModel::TfColumn: return QStringLiteral("tf");
    case ExplainTableModel::IdfColumn: return QStringLiteral("idf");
    case ExplainTableModel::WeightColumn: return QStringLiteral("weight");
    case ExplainTableModel::ContributionColumn: return QStringLiteral("contribution");
    case ExplainTableModel::ShareColumn: return QStringLiteral("share");
    default: return {};
  }
}

}  // namespace

ExplainTableModel::ExplainTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ExplainTableModel::setResult(SearchSnapshotPtr snapshot, int row) {
  beginResetModel();
  m_snapshot = std::move(snapshot);
  m_row = row;
  listTerms();
  endResetModel();
}

void ExplainTableModel::setOnlyPresentTerms(bool only) {
  if (only == m_onlyPresent) return;
  beginResetModel();
  m_onlyPresent = only;
  listTerms();
  endResetModel();
}

void ExplainTableModel::listTerms() {
  m_terms.clear();
  const HitRow* h = hit();
  if (!h) return;
  const std::size_t n = m_snapshot->query.terms.size();
  m_terms.reserve(n);
  for (std::size_t t = 0; t < n; ++t) {
    if (!m_onlyPresent || (t < h->explain.tf.size() && h->explain.tf[t] > 0)) m_terms.push_back(t);
  }
}

int ExplainTableModel::termCount() const noexcept {
  return hit() ? static_cast<int>(m_snapshot->query.terms.size()) : 0;
}

int ExplainTableModel::presentTermCount() const noexcept {
  const HitRow* h = hit();
  if (!h) return 0;
  return static_cast<int>(std::count_if(h->explain.tf.begin(), h->explain.tf.end(), [](std::uint32_t tf) { return tf > 0; }));
}

int ExplainTableModel::termIndex(int row) const noexcept {
  if (row < 0 || row >= static_cast<int>(m_terms.size())) return -1;
  return static_cast<int>(m_terms[static_cast<std::size_t>(row)]);
}

const HitRow* ExplainTableModel::hit() const noexcept {
  if (!m_snapshot || m_row < 0 || m_row >= static_cast<int>(m_snapshot->rows.size())) return nullptr;
  const HitRow* h = &m_snapshot->rows[static_cast<std::size_t>(m_row)];
  // A row without explain data (the worker did not compute it) shows nothing rather than zeros.
  if (h->explain.contribution.size() != m_snapshot->query.terms.size()) return nullptr;
  return h;
}

engine::Score ExplainTableModel::contributionSum() const noexcept {
  const HitRow* h = hit();
  if (!h) return 0.0f;
  engine::Score sum = 0.0f;
  for (const engine::Score c : h->explain.contribution) sum += c;  // query order, f32, as BM25 scores
  return sum;
}

bool ExplainTableModel::sumMatchesScore() const noexcept {
  const HitRow* h = hit();
  return h && scoreBits(contributionSum()) == scoreBits(h->score);
}

int ExplainTableModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !hit()) return 0;
  return static_cast<int>(m_terms.size()) + 1;
}

int ExplainTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ExplainTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const HitRow* h = hit();
  if (!h) return {};
  const bool total = index.row() == static_cast<int>(m_terms.size());
  const double score = static_cast<double>(h->score);
  const bool someHidden = m_terms.size() < m_snapshot->query.terms.size();

  if (total) {
    switch (role) {
      case Qt::DisplayRole:
        switch (index.column()) {
          // The sum is over every term, shown or not: say so when some are hidden.
          case TermColumn:
            return someHidden ? QStringLiteral("\u03a3 (all %1 terms, query order)")
                                    .arg(QLocale().toString(static_cast<qulonglong>(m_snapshot->query.terms.size())))
                              : QStringLiteral("\u03a3 (query order)");
          case ContributionColumn: return formatFigure(contributionSum());
          case ShareColumn: return score > 0 ? QStringLiteral("100%") : QString();
          default: return QString();
        }
      case Qt::ToolTipRole: {
        QString tip = sumMatchesScore()
                          ? QStringLiteral("The contributions added in query order in f32 equal the score, bit for bit.")
                          : QStringLiteral("The sum differs from the reported score: this is a bug, please report it.");
        if (someHidden) tip += QStringLiteral(" Every term is added, the hidden ones (not in this document) too.");
        return tip;
      }
      case Qt::FontRole: {
        QFont f = QGuiApplication::font();
        f.setBold(true);
        return f;
      }
      case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() == TermColumn ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                                                                : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
      case ValueRole:
        return index.column() == ContributionColumn ? QVariant(static_cast<double>(contributionSum())) : QVariant();
      case IsTotalRole: return true;
      default: return {};
    }
  }

  const std::size_t row = m_terms[static_cast<std::size_t>(index.row())];
  const auto& term = m_snapshot->query.terms[row];
  const std::uint32_t tf = row < h->explain.tf.size() ? h->explain.tf[row] : 0;
  const engine::Score contribution = h->explain.contribution[row];
  const float weight = row < h->weight.size() ? h->weight[row] : 0.0f;
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case TermColumn: return QString::fromStdString(term.text);
        case TfColumn: return term.id ? QString::number(tf) : QStringLiteral("\u2013");
        case IdfColumn: return term.id ? formatFigure(term.idf) : QString();
        case WeightColumn: return tf > 0 ? formatFigure(weight) : QString();
        case ContributionColumn: return formatFigure(contribution);
        case ShareColumn:
          return score > 0 ? QStringLiteral("%1%").arg(100.0 * static_cast<double>(contribution) / score, 0, 'f', 1)
                           : QString();
        default: return {};
      }
    case Qt::ToolTipRole:
      if (!term.id) return QStringLiteral("Not in the index: contributes nothing.");
      return metricDescription(explainColumnKey(index.column()));
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(index.column() == TermColumn ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                                                              : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ForegroundRole:
      if (tf == 0) return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
      return {};
    case ValueRole:
      switch (index.column()) {
        case TfColumn: return QVariant(tf);
        case IdfColumn: return QVariant(static_cast<double>(term.idf));
        case WeightColumn: return QVariant(static_cast<double>(weight));
        case ContributionColumn: return QVariant(static_cast<double>(contribution));
        default: return {};
      }
    case IsTotalRole: return false;
    default: return {};
  }
}

QVariant ExplainTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
  if (role == Qt::DisplayRole) return metricTitle(explainColumnKey(section));
  if (role == Qt::ToolTipRole) return metricDescription(explainColumnKey(section));
  return {};
}

}  // namespace wandscope::widgets
