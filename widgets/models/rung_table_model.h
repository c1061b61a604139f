// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/run_types.h"

#include <QAbstractTableModel>
#include <QString>

#include <optional>
#include <vector>

namespace wandscope::widgets {

// The rungs of a benchmark run, one row each, filled in as rungs finish (addRung) or all at once
// for a stored run (setRungs). Quantiles the run reported as absent (too few samples, the
// nearest-rank rule) show as an em dash with a tooltip saying why - never as a number. SortRole
// gives raw values (absent quantiles sort first) for a QSortFilterProxyModel.
class RungTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    Index,
    Target,
    Mode,
    Load,
    Achieved,
    Completed,
    Shed,
    P50,
    P99,
    CpuPerQuery,
    Rss,
    Verdict,
    ColumnCount
  };
  enum Role { SortRole = Qt::UserRole + 1 };

  explicit RungTableModel(QObject* parent = nullptr);

  void setRungs(std::vector<engine::RungResult> rungs);
  void addRung(const engine::RungResult& rung);
  void clear();
  const std::vector<engine::RungResult>& rungs() const noexcept { return m_rungs; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  // "12.35 ms" for a value (four significant digits, "1.5 s" from 1,000 ms up: as report.md
  // writes it), the em dash for an absent one.
  static QString formatMs(const std::optional<double>& ms);
  // "400/s" for an open-loop rung, "mid-df-2 x 2 clients" for a closed one.
  static QString loadText(const engine::RungResult& rung);

 private:
  std::vector<engine::RungResult> m_rungs;
};

}  // namespace wandscope::widgets
