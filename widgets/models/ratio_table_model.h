// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/compare_types.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QString>

#include <limits>
#include <vector>

namespace wandscope::widgets {

// The table of a comparison (docs/COMPARE.md): one row per query set, metric and B (B2, ... when
// more than two targets were compared; the metric column then names the B) with A's and B's
// figures, the benefit of B vs A as a speedup, its 95 % interval, the verdict (faster, slower,
// no-difference, inconclusive; coloured, with a tooltip saying what it means) and whether the two
// targets returned the same results (row_set_diff, score_bit_diff). Rows arrive as query sets
// finish (addScenarios) or all at once (setReport); the A/A calibration rows follow, marked.
//
// The verdict reads as report.md's verdict cell: when the A/A calibration raised a row's noise floor
// above the floor the comparison asked for, it says so, "no-difference (floor ±3.5 %)".
//
// A comparison of two recorded runs (History) has no interval: its CI shows an em dash and its
// verdict "not interleaved", because two runs made at different times are not paired samples.
class RatioTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { QuerySet, Metric, A, B, Benefit, Interval, Verdict, Results, ColumnCount };
  enum Role {
    SortRole = Qt::UserRole + 1,  // raw values
    VerdictRole,                  // "faster" | "slower" | "no-difference" | "inconclusive" | ""
    QuerySetRole,                 // the scenario's query set
    IsAaRole,                     // an A/A calibration row
    TargetRole,                   // the B the row compares with A (1 = B, 2 = B2, ...); 0 for A/A rows
  };

  explicit RatioTableModel(QObject* parent = nullptr);

  // Also takes the report's noise floor (setNoiseFloor).
  void setReport(const engine::CompareReport& report);
  // The noise floor the comparison asked for (CompareOptions::noiseFloor, fractional): a row whose
  // floor differs (the A/A calibration raised it) names its own in the verdict. Rows added live
  // (addScenarios) are judged against it; clear() keeps it. NaN (the default): none is named.
  void setNoiseFloor(double floor);
  double noiseFloor() const noexcept { return m_noiseFloor; }
  // Appends a finished query set's rows (A vs B first, then its A/A rows).
  void addScenarios(const std::vector<engine::CompareScenario>& rows,
                    const std::vector<engine::CompareScenario>& aaRows = {});
  void clear();

  const engine::CompareScenario* scenario(int row) const noexcept;
  bool isAa(int row) const noexcept;
  // The first row of `querySet`'s A vs B rows, -1 when there is none.
  int rowOfQuerySet(const QString& querySet) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  // A verdict's colour (for the background tint; translucent so it reads in dark mode too) and
  // its explanation.
  static QColor verdictColor(const QString& verdict);
  static QString verdictDescription(const QString& verdict);
  // "CPU ms/query", "p50" for metric keys.
  static QString metricTitle(const std::string& metric);

 private:
  struct Row {
    engine::CompareScenario scenario;
    bool aa = false;
  };
  std::vector<Row> m_rows;
  bool m_manyTargets = false;  // rows of B2, B3, ...: the metric column names each row's B
  double m_noiseFloor = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace wandscope::widgets
