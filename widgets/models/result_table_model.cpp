// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/result_table_model.h"

#include "widgets/metric_descriptions.h"

#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

namespace wandscope::widgets {
namespace {

constexpr ResultTableModel::Column kPlain[] = {
    ResultTableModel::Column::Rank, ResultTableModel::Column::Doc, ResultTableModel::Column::Score,
    ResultTableModel::Column::Title, ResultTableModel::Column::Snippet};
constexpr ResultTableModel::Column kCompared[] = {
    ResultTableModel::Column::Rank,       ResultTableModel::Column::Doc,
    ResultTableModel::Column::Score,      ResultTableModel::Column::CompareDoc,
    ResultTableModel::Column::CompareScore, ResultTableModel::Column::Match,
    ResultTableModel::Column::Title,      ResultTableModel::Column::Snippet};

QString scoreText(engine::Score s) { return formatFigure(s); }

QString bitsText(engine::Score s) {
  return QStringLiteral("0x%1").arg(scoreBits(s), 8, 16, QLatin1Char('0'));
}

}  // namespace

ResultTableModel::ResultTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ResultTableModel::setSnapshot(SearchSnapshotPtr snapshot) {
  beginResetModel();
  m_snapshot = std::move(snapshot);
  endResetModel();
}

int ResultTableModel::column(Column c) const noexcept {
  if (hasCompare()) {
    for (int i = 0; i < static_cast<int>(std::size(kCompared)); ++i) {
      if (kCompared[i] == c) return i;
    }
    return -1;
  }
  for (int i = 0; i < static_cast<int>(std::size(kPlain)); ++i) {
    if (kPlain[i] == c) return i;
  }
  return -1;
}

ResultTableModel::Column ResultTableModel::columnKind(int column) const noexcept {
  if (hasCompare()) return kCompared[column];
  return kPlain[column];
}

const HitRow* ResultTableModel::hitRow(int row) const noexcept {
  if (!m_snapshot || row < 0 || row >= static_cast<int>(m_snapshot->rows.size())) return nullptr;
  return &m_snapshot->rows[static_cast<std::size_t>(row)];
}

const engine::Hit* ResultTableModel::compareHit(int row) const noexcept {
  if (!hasCompare() || row < 0 || row >= static_cast<int>(m_snapshot->compare->hits.size())) return nullptr;
  return &m_snapshot->compare->hits[static_cast<std::size_t>(row)];
}

QString ResultTableModel::compareExternalId(int row) const {
  const engine::Hit* other = compareHit(row);
  if (other == nullptr) return {};
  const auto& ids = m_snapshot->compare->externalIds;
  const auto r = static_cast<std::size_t>(row);
  return r < ids.size() ? ids[r] : QString::number(other->doc);
}

int ResultTableModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !m_snapshot) return 0;
  // With a comparison that returned more hits than the primary, the extra ranks still get rows.
  std::size_t n = m_snapshot->rows.size();
  if (hasCompare()) n = std::max(n, m_snapshot->compare->hits.size());
  return static_cast<int>(n);
}

int ResultTableModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return hasCompare() ? static_cast<int>(std::size(kCompared)) : static_cast<int>(std::size(kPlain));
}

QVariant ResultTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const int row = index.row();
  const Column kind = columnKind(index.column());
  const HitRow* hit = hitRow(row);
  const engine::Hit* other = compareHit(row);
  const bool match = hit && other && hit->doc == other->doc && scoreBits(hit->score) == scoreBits(other->score);

  switch (role) {
    case Qt::DisplayRole:
      switch (kind) {
        case Column::Rank: return row + 1;
        case Column::Doc: return hit ? hit->externalId : QString();
        case Column::Score: return hit ? scoreText(hit->score) : QString();
        case Column::CompareDoc: return other ? compareExternalId(row) : QString();
        case Column::CompareScore: return other ? scoreText(other->score) : QString();
        case Column::Match: return match ? QStringLiteral("=") : QStringLiteral("\u2260");
        case Column::Title: return hit ? hit->title : QString();
        case Column::Snippet: return hit ? hit->snippet : QString();
      }
      return {};
    case Qt::ToolTipRole:
      switch (kind) {
        case Column::Doc:
          // One arg() call: an external id is corpus text, and a "%2" in it must stay as it is.
          return hit ? QStringLiteral("%1 (internal doc id %2)").arg(hit->externalId, QString::number(hit->doc))
                     : QVariant();
        case Column::Score:
          return hit ? QStringLiteral("%1\nf32 bits %2").arg(scoreText(hit->score), bitsText(hit->score))
                     : QVariant();
        case Column::CompareDoc:
          return other ? QStringLiteral("%1 (internal doc id %2) from the compared path")
                             .arg(compareExternalId(row), QString::number(other->doc))
                       : QVariant();
        case Column::CompareScore:
          return other ? QStringLiteral("%1\nf32 bits %2").arg(scoreText(other->score), bitsText(other->score))
                       : QVariant();
        case Column::Match:
          return match ? QStringLiteral("Same document and score bits at this rank")
                       : QStringLiteral("The compared path returned something else at this rank");
        case Column::Title: return hit && !hit->title.isEmpty() ? hit->title : QVariant();
        case Column::Snippet: {
          if (!hit) return {};
          // Rich text: the highlighted words in bold.
          QString html;
          int pos = 0;
          for (int i = 0; i + 1 < hit->highlights.size(); i += 2) {
            const int start = hit->highlights[i];
            const int len = hit->highlights[i + 1];
            html += hit->snippet.mid(pos, start - pos).toHtmlEscaped();
            html += QStringLiteral("<b>") + hit->snippet.mid(start, len).toHtmlEscaped() + QStringLiteral("</b>");
            pos = start + len;
          }
          html += hit->snippet.mid(pos).toHtmlEscaped();
          return QString(QStringLiteral("<p style='white-space:pre-wrap'>") + html + QStringLiteral("</p>"));
        }
        case Column::Rank: return {};
      }
      return {};
    case Qt::TextAlignmentRole:
      switch (kind) {
        case Column::Rank:
        case Column::Score:
        case Column::CompareDoc:
        case Column::CompareScore:
          return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        case Column::Match: return QVariant::fromValue(Qt::Alignment(Qt::AlignCenter));
        default: return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
      }
    case Qt::ForegroundRole:
      if ((kind == Column::CompareDoc || kind == Column::CompareScore || kind == Column::Match) && !match) {
        return QColor(0xd0, 0x30, 0x30);
      }
      return {};
    case Qt::FontRole:
      if (kind == Column::Score || kind == Column::CompareScore) {
        QFont f = QGuiApplication::font();
        f.setFamily(QStringLiteral("monospace"));
        f.setStyleHint(QFont::Monospace);
        return f;
      }
      return {};
    case DocIdRole:
      if (kind == Column::CompareDoc || kind == Column::CompareScore) return other ? QVariant(other->doc) : QVariant();
      return hit ? QVariant(hit->doc) : QVariant();
    case ScoreRole:
      if (kind == Column::CompareDoc || kind == Column::CompareScore) {
        return other ? QVariant(static_cast<double>(other->score)) : QVariant();
      }
      return hit ? QVariant(static_cast<double>(hit->score)) : QVariant();
    case ScoreBitsRole:
      if (kind == Column::CompareDoc || kind == Column::CompareScore) {
        return other ? QVariant(scoreBits(other->score)) : QVariant();
      }
      return hit ? QVariant(scoreBits(hit->score)) : QVariant();
    case HighlightsRole:
      return kind == Column::Snippet && hit ? QVariant::fromValue(hit->highlights) : QVariant();
    case MatchRole: return hasCompare() ? QVariant(match) : QVariant();
    default: return {};
  }
}

QVariant ResultTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
  const Column kind = columnKind(section);
  const auto key = [&]() -> QString {
    switch (kind) {
      case Column::Rank: return QStringLiteral("rank");
      case Column::Doc: return QStringLiteral("doc");
      case Column::Score: return QStringLiteral("score");
      case Column::CompareDoc: return QStringLiteral("doc");
      case Column::CompareScore: return QStringLiteral("score");
      case Column::Match: return QStringLiteral("match");
      case Column::Title: return QStringLiteral("title");
      case Column::Snippet: return QStringLiteral("snippet");
    }
    return {};
  }();
  if (role == Qt::DisplayRole) {
    const auto [a, b] = m_snapshot ? m_snapshot->pathLabels() : std::pair<QString, QString>{};
    switch (kind) {
      case Column::Doc: return hasCompare() ? QStringLiteral("Doc (%1)").arg(a) : metricTitle(key);
      case Column::Score: return hasCompare() ? QStringLiteral("Score (%1)").arg(a) : metricTitle(key);
      case Column::CompareDoc: return QStringLiteral("Doc (%1)").arg(b);
      case Column::CompareScore: return QStringLiteral("Score (%1)").arg(b);
      default: return metricTitle(key);
    }
  }
  if (role == Qt::ToolTipRole) {
    if (kind == Column::CompareDoc) return QStringLiteral("Document returned by the compared path at this rank.");
    if (kind == Column::CompareScore) return QStringLiteral("Score returned by the compared path at this rank.");
    return metricDescription(key);
  }
  return {};
}

}  // namespace wandscope::widgets
