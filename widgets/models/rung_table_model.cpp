// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/rung_table_model.h"

#include "engine/bench/report_writer.h"
#include "engine/core/wording.h"
#include "widgets/metric_descriptions.h"
#include "widgets/rate_format.h"

#include <QBrush>
#include <QColor>

namespace wandscope::widgets {
namespace {

const char* const kColumnKeys[] = {"rung", "target", "mode", "load", "achieved_rate", "completed",
                                   "shed", "p50_ms", "p99_ms", "cpu_ms_per_query", "rss_mib", "verdict"};

// A count as report.md writes it (engine::grouped): "46,767" whatever the system's locale, which
// grouped the Completed and Shed columns as it liked ("46767", "46.767") beside a report, and
// the table's other figures, saying "46,767".
QString count(std::uint64_t n) { return QString::fromStdString(engine::grouped(n)); }

// Figures as report.md and `wandscope-cli runs show` write them (engine::significant): four
// significant digits, grouped from 1,000 up, never an exponent. Fixed decimals showed a p50 of
// 0.004468 ms as "0.004 ms" and a CPU of 0.0004 ms/query as "0.000", beside a report saying
// otherwise.
QString significant(double v) { return QString::fromStdString(engine::significant(v)); }

QVariant sortValue(const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(-1.0); }

}  // namespace

RungTableModel::RungTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RungTableModel::setRungs(std::vector<engine::RungResult> rungs) {
  beginResetModel();
  m_rungs = std::move(rungs);
  endResetModel();
}

void RungTableModel::addRung(const engine::RungResult& rung) {
  const int row = static_cast<int>(m_rungs.size());
  beginInsertRows({}, row, row);
  m_rungs.push_back(rung);
  endInsertRows();
}

void RungTableModel::clear() { setRungs({}); }

int RungTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rungs.size());
}

int RungTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString RungTableModel::formatMs(const std::optional<double>& ms) {
  return QString::fromStdString(engine::msOrDash(ms));  // as report.md writes it
}

QString RungTableModel::loadText(const engine::RungResult& r) {
  if (r.mode == "open") return formatRate(r.targetRate);
  const QString clients = r.concurrency == 1 ? QStringLiteral("1 client") : QStringLiteral("%1 clients").arg(r.concurrency);
  if (r.querySet.empty()) return clients;
  return QStringLiteral("%1 \u00d7 %2").arg(QString::fromStdString(r.querySet), clients);
}

QVariant RungTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
  const auto& r = m_rungs[static_cast<std::size_t>(index.row())];
  const auto col = static_cast<Column>(index.column());
  if (role == Qt::DisplayRole) {
    switch (col) {
      case Index: return static_cast<qulonglong>(r.index);
      case Target: return QString::fromStdString(r.target);
      case Mode: return QString(QString::fromStdString(r.mode) + (r.partial ? QStringLiteral(" (partial)") : QString()));
      case Load: return loadText(r);
      case Achieved: return significant(r.achievedRate);
      case Completed: return count(r.completed);
      case Shed: return count(r.shed);
      case P50: return formatMs(r.p50Ms);
      case P99: return formatMs(r.p99Ms);
      case CpuPerQuery: return r.completed > 0 ? significant(r.cpuMsPerQuery) : QStringLiteral("\u2014");
      case Rss: return QStringLiteral("%1 MiB").arg(QString::number(r.rssPeakMib, 'f', 1));  // report.md's "{:.1f} MiB"
      case Verdict:
        if (r.mode != "open") return QStringLiteral("\u2013");
        return r.criterion.empty() ? QString::fromStdString(r.verdict)
                                   : QStringLiteral("%1: %2").arg(QString::fromStdString(r.verdict),
                                                                  QString::fromStdString(r.criterion));
      case ColumnCount: break;
    }
    return {};
  }
  if (role == SortRole) {
    switch (col) {
      case Index: return static_cast<qulonglong>(r.index);
      case Target: return QString::fromStdString(r.target);
      case Mode: return QString::fromStdString(r.mode);
      case Load: return r.mode == "open" ? r.targetRate : static_cast<double>(r.concurrency);
      case Achieved: return r.achievedRate;
      case Completed: return static_cast<qulonglong>(r.completed);
      case Shed: return static_cast<qulonglong>(r.shed);
      case P50: return sortValue(r.p50Ms);
      case P99: return sortValue(r.p99Ms);
      case CpuPerQuery: return r.cpuMsPerQuery;
      case Rss: return r.rssPeakMib;
      case Verdict: return QString::fromStdString(r.verdict);
      case ColumnCount: break;
    }
    return {};
  }
  if (role == Qt::TextAlignmentRole) {
    if (col == Target || col == Mode || col == Load || col == Verdict) return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
    return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
  }
  if (role == Qt::ToolTipRole) {
    if ((col == P50 && !r.p50Ms) || (col == P99 && !r.p99Ms)) {
      return QStringLiteral("Absent: %1 completed requests are too few for this quantile. %2")
          .arg(count(r.completed), metricDescription(u"thin_quantile"));
    }
    if (col == P50 && r.p50CiLowMs && r.p50CiHighMs) {
      return QStringLiteral("95 % interval %1 \u2013 %2. %3")
          .arg(formatMs(r.p50CiLowMs), formatMs(r.p50CiHighMs), metricDescription(u"p50_ms"));
    }
    if (col == P99 && r.p99CiLowMs && r.p99CiHighMs) {
      return QStringLiteral("95 % interval %1 \u2013 %2. %3")
          .arg(formatMs(r.p99CiLowMs), formatMs(r.p99CiHighMs), metricDescription(u"p99_ms"));
    }
    if (col == Verdict && r.mode == "open") {
      // The cell is elided when narrow: the tooltip carries the whole verdict.
      return QStringLiteral("%1\n\n%2").arg(data(index, Qt::DisplayRole).toString(),
                                           metricDescription(QString::fromLatin1(kColumnKeys[col])));
    }
    return metricDescription(QString::fromLatin1(kColumnKeys[col]));
  }
  if (role == Qt::ForegroundRole && col == Verdict && r.mode == "open") {
    if (r.verdict == "pass") return QBrush(QColor(0x2e, 0x9e, 0x4f));
    if (r.verdict == "fail") return QBrush(QColor(0xd8, 0x3a, 0x3a));
    return QBrush(QColor(0xc0, 0x80, 0x00));
  }
  return {};
}

QVariant RungTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
  if (role == Qt::DisplayRole) {
    if (section == Index) return QStringLiteral("#");
    return metricTitle(QString::fromLatin1(kColumnKeys[section]));
  }
  if (role == Qt::ToolTipRole) return metricDescription(QString::fromLatin1(kColumnKeys[section]));
  return {};
}

}  // namespace wandscope::widgets
