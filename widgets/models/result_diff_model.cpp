// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/result_diff_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <algorithm>

namespace wandscope::widgets {
namespace {

QString scoreTip(const DiffHit& h) {
  return QStringLiteral("%1 (f32 bits 0x%2)")
      .arg(ResultDiffModel::scoreText(h.score))
      .arg(scoreBits(h.score), 8, 16, QLatin1Char('0'));
}

QString docText(const DiffHit& h) {
  return h.externalId.isEmpty() ? QString::number(h.doc) : QStringLiteral("%1  %2").arg(h.doc).arg(h.externalId);
}

}  // namespace

ResultDiffModel::ResultDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void ResultDiffModel::setSnapshot(QueryDiffSnapshotPtr snapshot) {
  beginResetModel();
  m_snapshot = std::move(snapshot);
  m_rows = m_snapshot ? static_cast<int>(std::max(m_snapshot->a.hits.size(), m_snapshot->b.hits.size())) : 0;
  endResetModel();
}

const DiffHit* ResultDiffModel::hitA(int row) const noexcept {
  if (!m_snapshot || row < 0 || row >= static_cast<int>(m_snapshot->a.hits.size())) return nullptr;
  return &m_snapshot->a.hits[static_cast<std::size_t>(row)];
}

const DiffHit* ResultDiffModel::hitB(int row) const noexcept {
  if (!m_snapshot || row < 0 || row >= static_cast<int>(m_snapshot->b.hits.size())) return nullptr;
  return &m_snapshot->b.hits[static_cast<std::size_t>(row)];
}

QString ResultDiffModel::scoreText(float score) {
  // As the Explore page's tables, whose explain tables sit below this one: the shortest decimal
  // that reads back as the same f32, so two scores whose bits differ never print alike.
  return formatFigure(score);
}

int ResultDiffModel::firstDivergingRow() const noexcept {
  if (!m_snapshot || !m_snapshot->diff.firstDivergingRank) return -1;
  return static_cast<int>(*m_snapshot->diff.firstDivergingRank) - 1;
}

bool ResultDiffModel::rowDiffers(int row) const noexcept {
  const DiffHit* a = hitA(row);
  const DiffHit* b = hitB(row);
  if (!a && !b) return false;
  if (!a || !b) return true;
  return a->doc != b->doc || scoreBits(a->score) != scoreBits(b->score);
}

QString ResultDiffModel::comparisonText(int row) const {
  const DiffHit* a = hitA(row);
  const DiffHit* b = hitB(row);
  if (!a && !b) return {};
  if (!b) return QStringLiteral("only in %1").arg(labelA());
  if (!a) return QStringLiteral("only in %1").arg(labelB());
  if (a->doc != b->doc) return QStringLiteral("other document");
  if (scoreBits(a->score) != scoreBits(b->score)) return QStringLiteral("score bits differ");
  return QStringLiteral("same");
}

QString ResultDiffModel::labelA() const {
  return m_snapshot && !m_snapshot->a.label.isEmpty() ? m_snapshot->a.label : QStringLiteral("A");
}

QString ResultDiffModel::labelB() const {
  return m_snapshot && !m_snapshot->b.label.isEmpty() ? m_snapshot->b.label : QStringLiteral("B");
}

int ResultDiffModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_rows; }

int ResultDiffModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ResultDiffModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= m_rows) return {};
  const int row = index.row();
  const DiffHit* a = hitA(row);
  const DiffHit* b = hitB(row);
  const bool differs = rowDiffers(row);
  const bool first = row == firstDivergingRow();
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Rank: return row + 1;
        case DocA: return a ? docText(*a) : QString();
        case ScoreA: return a ? scoreText(a->score) : QString();
        case DocB: return b ? docText(*b) : QString();
        case ScoreB: return b ? scoreText(b->score) : QString();
        case Comparison:
          return first ? QStringLiteral("\u25b6 first diverging rank: %1").arg(comparisonText(row)) : comparisonText(row);
        default: return {};
      }
    case SortRole:
      switch (index.column()) {
        case Rank: return row + 1;
        case DocA: return a ? QVariant(a->doc) : QVariant();
        case ScoreA: return a ? QVariant(a->score) : QVariant();
        case DocB: return b ? QVariant(b->doc) : QVariant();
        case ScoreB: return b ? QVariant(b->score) : QVariant();
        case Comparison: return comparisonText(row);
        default: return {};
      }
    case DiffersRole: return differs;
    case IsFirstDivergingRole: return first;
    case Qt::TextAlignmentRole:
      if (index.column() == Rank || index.column() == ScoreA || index.column() == ScoreB) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      }
      return {};
    case Qt::BackgroundRole:
      if (first) return QBrush(QColor(0xd6, 0x27, 0x28, 110));
      if (differs) return QBrush(QColor(0xe6, 0x9f, 0x00, 60));
      return {};
    case Qt::FontRole:
      if (first) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case Qt::ToolTipRole:
      switch (index.column()) {
        case ScoreA: return a ? scoreTip(*a) : QVariant();
        case ScoreB: return b ? scoreTip(*b) : QVariant();
        case DocA:
        case DocB: return QStringLiteral("Document id in the index's numbering (corpus order), then its external id");
        case Comparison:
          return first ? QStringLiteral("The first rank whose document or score bits differ between %1 and %2")
                             .arg(labelA(), labelB())
                       : QStringLiteral("Exact comparison of this rank: document id and f32 score bits");
        default: return {};
      }
    default: return {};
  }
}

QVariant ResultDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Rank: return QStringLiteral("Rank");
    case DocA: return QStringLiteral("%1: document").arg(labelA());
    case ScoreA: return QStringLiteral("%1: score").arg(labelA());
    case DocB: return QStringLiteral("%1: document").arg(labelB());
    case ScoreB: return QStringLiteral("%1: score").arg(labelB());
    case Comparison: return QStringLiteral("%1 vs %2").arg(labelA(), labelB());
    default: return {};
  }
}

}  // namespace wandscope::widgets
