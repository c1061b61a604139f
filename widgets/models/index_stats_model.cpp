// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/index_stats_model.h"

#include "widgets/metric_descriptions.h"

#include <QLocale>

namespace wandscope::widgets {

IndexStatsModel::IndexStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

QString IndexStatsModel::formatBytes(quint64 bytes) {
  // IEC units (MiB), as the CLI prints them: "35.4 MB" here beside "35.4 MiB" there read as two sizes.
  return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeIecFormat);
}

void IndexStatsModel::setSummary(IndexSummaryPtr summary) {
  beginResetModel();
  m_summary = std::move(summary);
  m_rows.clear();
  if (m_summary) {
    const QLocale l;
    const auto& s = m_summary->stats;
    const auto& m = m_summary->manifest;
    const auto num = [&](std::uint64_t v) { return l.toString(static_cast<qulonglong>(v)); };
    const auto bytes = [&](std::uint64_t v) {
      return Row{QString(), formatBytes(v), QStringLiteral("%1 bytes").arg(num(v))};
    };
    auto add = [&](const char* key, Row r) {
      r.key = QString::fromLatin1(key);
      m_rows.push_back(std::move(r));
    };
    add("path_index", Row{{}, m_summary->path, {}});
    add("docs", Row{{}, num(s.docs), {}});
    add("terms", Row{{}, num(s.terms), {}});
    add("postings", Row{{}, num(s.postings), {}});
    add("tokens", Row{{}, num(s.totalTokens), {}});
    add("avgdl", Row{{}, l.toString(static_cast<double>(s.avgdl), 'f', 1), {}});
    add("blocks_total", Row{{}, num(s.blocks), {}});
    add("segments", Row{{}, num(s.segments), {}});
    add("analyzer", Row{{}, QString::fromStdString(m.analyzer), {}});
    add("k1", Row{{}, QString::number(static_cast<double>(m.bm25.k1)), {}});
    add("b", Row{{}, QString::number(static_cast<double>(m.bm25.b)), {}});
    add("bytes_total", bytes(s.totalBytes()));
    add("bytes_terms", bytes(s.termsBytes));
    add("bytes_postings", bytes(s.postingsBytes));
    add("bytes_bounds", bytes(s.boundsBytes));
    add("bytes_docs", bytes(s.docsBytes));
    add("bytes_store", bytes(s.storeBytes));
    add("bits_posting", Row{{}, l.toString(s.postingBitsPerPosting(), 'f', 2), {}});
    add("bits_search", Row{{}, l.toString(s.searchBitsPerPosting(), 'f', 2), {}});
    add("format", Row{{}, QString::number(m.formatVersion), {}});
    add("generation", Row{{}, num(m.generation), {}});
    if (!m.build.corpus.empty()) {
      add("built_from", Row{{}, QString::fromStdString(m.build.corpus),
                            QStringLiteral("%1 corpus bytes").arg(num(m.build.corpusBytes))});
    }
    if (m.build.threads > 0) add("build_threads", Row{{}, QString::number(m.build.threads), {}});
    if (m.build.seconds > 0) add("build_seconds", Row{{}, QStringLiteral("%1 s").arg(l.toString(m.build.seconds, 'f', 2)), {}});
    if (!m.build.createdUtc.empty()) add("created", Row{{}, QString::fromStdString(m.build.createdUtc), {}});
    if (!m.build.tool.empty()) add("tool", Row{{}, QString::fromStdString(m.build.tool), {}});
  }
  endResetModel();
}

int IndexStatsModel::rowOf(const QString& key) const {
  for (int i = 0; i < m_rows.size(); ++i) {
    if (m_rows[i].key == key) return i;
  }
  return -1;
}

int IndexStatsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int IndexStatsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 2; }

QVariant IndexStatsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const Row& r = m_rows[index.row()];
  switch (role) {
    case Qt::DisplayRole: return index.column() == 0 ? metricTitle(r.key) : r.value;
    case Qt::ToolTipRole: {
      QString tip = metricDescription(r.key);
      if (!r.detail.isEmpty()) tip += QStringLiteral("\n") + r.detail;
      if (index.column() == 1 && r.key == QLatin1String("path_index")) tip = r.value + QStringLiteral("\n") + tip;
      return tip;
    }
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
    case KeyRole: return r.key;
    default: return {};
  }
}

QVariant IndexStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  if (section == 0) return QStringLiteral("Property");
  if (section == 1) return QStringLiteral("Value");
  return {};
}

}  // namespace wandscope::widgets
