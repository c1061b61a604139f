// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/ratio_table_model.h"

#include "engine/bench/compare_report_writer.h"
#include "engine/bench/compare_stats.h"
#include "engine/core/wording.h"

#include <QBrush>
#include <QFont>

#include <cmath>

namespace wandscope::widgets {
namespace {

const QString kDash = QStringLiteral("\u2014");

// A time as report.md writes it (engine::significant: "0.1234 ms", "12,346 ms", never "1.235e+04
// ms"), so a row pasted from the table reads as the exported report's.
QString ms(double v) {
  return v > 0 && std::isfinite(v) ? QString::fromStdString(engine::significant(v)) + QStringLiteral(" ms") : kDash;
}

bool hasInterval(const engine::RatioEstimate& e) { return std::isfinite(e.ciLow) && std::isfinite(e.ciHigh); }

// "3.5": a floor in per cent with report.md's one decimal.
QString floorPercent(double floor) { return QString::number(floor * 100, 'f', 1); }

QString resultsText(const engine::ResultDiff& d) {
  if (d.queries == 0) return QStringLiteral("not compared");
  if (!d.differs()) {
    return d.orderDiff > 0 ? QStringLiteral("identical (%1 tie orders)").arg(d.orderDiff) : QStringLiteral("identical");
  }
  QString text = QStringLiteral("DIFFER: row_set_diff=%1, score_bit_diff=%2").arg(d.rowSetDiff).arg(d.scoreBitDiff);
  if (d.failed > 0) text += QStringLiteral(", failed=%1").arg(d.failed);
  return text;
}

}  // namespace

RatioTableModel::RatioTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RatioTableModel::setReport(const engine::CompareReport& report) {
  beginResetModel();
  m_rows.clear();
  m_manyTargets = report.targetCount() > 2;
  m_noiseFloor = report.noiseFloor;
  // Per query set: its A vs B rows, then its A/A rows (as the sets finished).
  for (const auto& s : report.scenarios) {
    m_rows.push_back({s, false});
    const bool lastOfSet = &s == &report.scenarios.back() || (&s + 1)->querySet != s.querySet;
    if (!lastOfSet) continue;
    for (const auto& aa : report.aaScenarios) {
      if (aa.querySet == s.querySet) m_rows.push_back({aa, true});
    }
  }
  endResetModel();
}

void RatioTableModel::addScenarios(const std::vector<engine::CompareScenario>& rows,
                                   const std::vector<engine::CompareScenario>& aaRows) {
  if (rows.empty() && aaRows.empty()) return;
  for (const auto& s : rows) {
    if (s.target >= 2 && !m_manyTargets) {
      // Rows already shown said "B" implicitly; from now on every row names its B.
      m_manyTargets = true;
      if (!m_rows.empty()) emit dataChanged(index(0, Metric), index(static_cast<int>(m_rows.size()) - 1, Metric));
    }
  }
  const int first = static_cast<int>(m_rows.size());
  beginInsertRows({}, first, first + static_cast<int>(rows.size() + aaRows.size()) - 1);
  for (const auto& s : rows) m_rows.push_back({s, false});
  for (const auto& s : aaRows) m_rows.push_back({s, true});
  endInsertRows();
}

void RatioTableModel::setNoiseFloor(double floor) {
  if (floor == m_noiseFloor || (std::isnan(floor) && std::isnan(m_noiseFloor))) return;
  m_noiseFloor = floor;
  if (!m_rows.empty()) emit dataChanged(index(0, Verdict), index(static_cast<int>(m_rows.size()) - 1, Verdict));
}

void RatioTableModel::clear() {
  beginResetModel();
  m_rows.clear();
  m_manyTargets = false;
  endResetModel();
}

const engine::CompareScenario* RatioTableModel::scenario(int row) const noexcept {
  return row >= 0 && row < static_cast<int>(m_rows.size()) ? &m_rows[static_cast<std::size_t>(row)].scenario : nullptr;
}

bool RatioTableModel::isAa(int row) const noexcept {
  return row >= 0 && row < static_cast<int>(m_rows.size()) && m_rows[static_cast<std::size_t>(row)].aa;
}

int RatioTableModel::rowOfQuerySet(const QString& querySet) const {
  const std::string set = querySet.toStdString();
  for (std::size_t i = 0; i < m_rows.size(); ++i) {
    if (!m_rows[i].aa && m_rows[i].scenario.querySet == set) return static_cast<int>(i);
  }
  return -1;
}

int RatioTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RatioTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString RatioTableModel::metricTitle(const std::string& metric) {
  if (metric == "cpu_ms_per_query") return QStringLiteral("CPU ms/query");
  if (metric == "p50_ms") return QStringLiteral("p50");
  if (metric == "p99_ms") return QStringLiteral("p99");
  return QString::fromStdString(metric);
}

QColor RatioTableModel::verdictColor(const QString& verdict) {
  QColor c;
  if (verdict == QLatin1String("faster")) {
    c = QColor(0x2c, 0xa0, 0x2c);
  } else if (verdict == QLatin1String("slower")) {
    c = QColor(0xd6, 0x27, 0x28);
  } else if (verdict == QLatin1String("no-difference")) {
    c = QColor(0x1f, 0x77, 0xb4);
  } else if (verdict == QLatin1String("inconclusive")) {
    c = QColor(0xe6, 0x9f, 0x00);
  } else {
    return {};
  }
  c.setAlpha(70);
  return c;
}

QString RatioTableModel::verdictDescription(const QString& verdict) {
  if (verdict == QLatin1String("faster")) {
    return QStringLiteral("B is faster: the whole 95 % interval of the ratio A/B lies above 1 + the noise floor.");
  }
  if (verdict == QLatin1String("slower")) {
    return QStringLiteral("B is slower: the whole 95 % interval of the ratio A/B lies below 1 / (1 + the noise floor).");
  }
  if (verdict == QLatin1String("no-difference")) {
    return QStringLiteral("No detectable difference: the whole 95 % interval lies within the noise floor around 1.");
  }
  if (verdict == QLatin1String("inconclusive")) {
    return QStringLiteral("Inconclusive: the 95 % interval straddles the noise floor; more repetitions (or a quieter "
                          "machine) may decide it.");
  }
  return QStringLiteral("Two runs recorded at different times are not paired samples: the ratio of their figures is "
                        "shown, but no interval and no verdict. Start an interleaved comparison for those.");
}

QVariant RatioTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size())) return {};
  const Row& row = m_rows[static_cast<std::size_t>(index.row())];
  const engine::CompareScenario& s = row.scenario;
  const engine::RatioEstimate& e = s.estimate;
  const bool interval = hasInterval(e);
  const QString verdict = interval ? QString::fromStdString(e.verdict) : QString();
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case QuerySet:
          return row.aa ? QStringLiteral("A/A: %1").arg(QString::fromStdString(s.querySet))
                        : QString::fromStdString(s.querySet);
        case Metric:
          // More than two targets: each row names the B it compares with A.
          return m_manyTargets && !row.aa ? QStringLiteral("%1 (%2 vs A)")
                                                .arg(metricTitle(s.metric),
                                                     QString::fromStdString(engine::CompareReport::targetLabel(s.target)))
                                          : metricTitle(s.metric);
        case A: return ms(s.a);
        case B: return ms(s.b);
        case Benefit:
          return e.ratio > 0 ? QStringLiteral("%1 (%2)").arg(QString::fromStdString(engine::speedupText(e.ratio)),
                                                             QString::fromStdString(engine::percentText(e.ratio)))
                             : kDash;
        case Interval:
          return interval ? QString::fromStdString(engine::intervalText(e.ciLow, e.ciHigh)) : kDash;
        case Verdict:
          if (!interval) return QStringLiteral("not interleaved");
          // As report.md's verdict cell: the raised floor the verdict was judged against.
          return QString::fromStdString(engine::verdictText(e, m_noiseFloor));
        case Results: return resultsText(s.diff);
        default: return {};
      }
    case SortRole:
      switch (index.column()) {
        case QuerySet: return QString::fromStdString(s.querySet);
        case Metric: return QString::fromStdString(s.metric);
        case A: return s.a;
        case B: return s.b;
        case Benefit: return e.ratio;
        case Interval: return interval ? e.ciLow : 0.0;
        case Verdict: return verdict;
        case Results: return static_cast<qulonglong>(s.diff.rowSetDiff + s.diff.scoreBitDiff + s.diff.failed);
        default: return {};
      }
    case VerdictRole: return verdict;
    case QuerySetRole: return QString::fromStdString(s.querySet);
    case TargetRole: return static_cast<int>(row.aa ? 0 : s.target);
    case IsAaRole: return row.aa;
    case Qt::TextAlignmentRole:
      if (index.column() == A || index.column() == B) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case Qt::BackgroundRole:
      if (index.column() == Verdict || index.column() == Benefit) {
        const QColor c = verdictColor(verdict);
        if (c.isValid()) return QBrush(c);
      }
      if (index.column() == Results && s.diff.differs()) return QBrush(verdictColor(QStringLiteral("slower")));
      return {};
    case Qt::FontRole:
      if (index.column() == Verdict || (index.column() == Results && s.diff.differs())) {
        QFont f;
        f.setBold(true);
        return f;
      }
      if (row.aa) {
        QFont f;
        f.setItalic(true);
        return f;
      }
      return {};
    case Qt::ToolTipRole:
      switch (index.column()) {
        case QuerySet:
          return row.aa ? QStringLiteral("A/A calibration: A against a second instance of A. Its interval is the "
                                         "noise floor the A vs B verdicts of this set are judged against.")
                        : QStringLiteral("%1 queries, %2 timed executions per query and target")
                              .arg(s.queries)
                              .arg(s.samplesPerQuery);
        case Metric:
          return s.metric == "cpu_ms_per_query"
                     ? QStringLiteral("Process CPU time over a block divided by its queries, mean over blocks; the "
                                      "benefit uses each query's median thread CPU time.")
                     : QStringLiteral("Nearest-rank median of every query's wall time; the benefit uses each query's "
                                      "median wall time.");
        case A:
        case B:
          return QStringLiteral("Geometric mean over queries of the per-query medians: %1 (the basis of the ratio)")
              .arg(ms(index.column() == A ? s.aGeomean : s.bGeomean));
        case Benefit:
          return QStringLiteral("Ratio A/B of geometric means over queries: above 1, B takes less time. The "
                                "percentage is the change of B's time relative to A's.");
        case Interval:
          return interval ? QStringLiteral("Paired percentile bootstrap 95 % interval of the ratio; noise floor "
                                           "\u00b1%1 %")
                                .arg(e.noiseFloor * 100, 0, 'f', 1)
                          : verdictDescription(QString());
        case Verdict:
          if (interval && engine::noiseFloorRaised(e, m_noiseFloor)) {
            return QStringLiteral("%1 The A/A calibration raised this row's noise floor from \u00b1%2 % to \u00b1%3 %.")
                .arg(verdictDescription(verdict), floorPercent(m_noiseFloor), floorPercent(e.noiseFloor));
          }
          return verdictDescription(verdict);
        case Results:
          if (s.diff.queries == 0) return QStringLiteral("The results of recorded runs are not stored, so not compared.");
          return QStringLiteral("Result equality over %1 queries (k hits, exact doc ids and f32 score bits): "
                                "row_set_diff counts queries whose sets of doc ids differ, score_bit_diff queries "
                                "where a document both returned has other score bits%2. Double-click the row to see "
                                "the differing queries in the Result diff tab.")
              .arg(s.diff.queries)
              .arg(s.diff.firstDivergingRank ? QStringLiteral("; first diverging rank %1").arg(*s.diff.firstDivergingRank)
                                             : QString());
        default: return {};
      }
    default: return {};
  }
}

QVariant RatioTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case QuerySet: return QStringLiteral("Query set");
      case Metric: return QStringLiteral("Metric");
      case A: return QStringLiteral("A");
      case B: return QStringLiteral("B");
      case Benefit: return QStringLiteral("Benefit vs A");
      case Interval: return QStringLiteral("95 % CI");
      case Verdict: return QStringLiteral("Verdict");
      case Results: return QStringLiteral("Results");
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case Benefit: return QStringLiteral("B's speedup over A: the ratio A/B of geometric means over queries");
      case Interval: return QStringLiteral("95 % bootstrap confidence interval of the ratio");
      case Verdict:
        return QStringLiteral("faster / slower: the interval lies beyond the noise floor; no-difference: inside it; "
                              "inconclusive: it straddles it");
      case Results: return QStringLiteral("Whether A and B returned the same documents with the same score bits");
      default: return {};
    }
  }
  return {};
}

}  // namespace wandscope::widgets
