// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/plots/live_plot.h"

#include <QString>
#include <QVector>

namespace wandscope::widgets {

// A log-log distribution plot (terms per df bin, list length by rank, ...), or linear on request.
// Data arrives in bulk through setSeriesData(), which only marks the plot dirty; the replots are
// coalesced, the colours follow the palette and the context menu exports, as for every LivePlot.
// Hovering a point shows its values.
class DistributionPlot : public LivePlot {
  Q_OBJECT
 public:
  enum class Style { Line, Steps, Points, LinePoints };

  explicit DistributionPlot(QWidget* parent = nullptr);

  void setAxisLabels(const QString& x, const QString& y);
  void setLogarithmic(bool x, bool y);
  // Keys are whole numbers (rung indexes): a linear x axis ticks only at integers.
  void setIntegerKeys(bool integer);
  // Adds a series; returns its index for setSeriesData.
  int addSeries(const QString& name, Style style);
  // Replaces a series' points (keys ascending; non-positive values are dropped on log axes) and
  // schedules a replot.
  void setSeriesData(int series, const QVector<double>& keys, const QVector<double>& values);
  // Appends points in bulk (keys ascending and after the series' last key, as live data arrives);
  // the same filtering and coalesced replot as setSeriesData.
  void appendSeriesData(int series, const QVector<double>& keys, const QVector<double>& values);
  void clearData();
  // Shows the series legend in a row under the plot (never over the data); addSeries shows it
  // once there are two series.
  void setLegendVisible(bool visible);
  int seriesCount() const noexcept { return graphCount(); }
  int pointCount(int series) const;

 protected:
  void rescale() override;
  void styleSeries(bool dark) override;
  QString pointToolTip(const QCPGraph& g, const QCPGraphData& p) const override;
  QString exportFileName() const override;

 private:
  bool m_logX = true;
  bool m_logY = true;
  bool m_integerKeys = false;
  QVector<Style> m_styles;
};

}  // namespace wandscope::widgets
