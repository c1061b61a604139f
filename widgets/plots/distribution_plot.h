// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/plots/live_plot.h"

#include <QString>
#include <QStringList>
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
  // A legend entry drawn as a series of that colour and marks would be, standing for several
  // series: a plot of several targets names each target in its colour and each metric by its
  // marks (setSeriesLook), where one entry per series took more room than the plot had.
  struct LegendKey {
    QString name;
    int colour = -1;   // the palette's series colour; -1: the text colour (an entry naming marks)
    int variant = -1;  // setSeriesLook's marks; -1: a plain solid line (an entry naming a colour)
    // Starts a row of its own when the legend takes more than one: the targets on one row, the
    // metrics' marks on the next, rather than a row of both.
    bool newRow = false;
  };

  explicit DistributionPlot(QWidget* parent = nullptr);

  void setAxisLabels(const QString& x, const QString& y);
  void setLogarithmic(bool x, bool y);
  bool logarithmicX() const noexcept { return m_logX; }
  bool logarithmicY() const noexcept { return m_logY; }
  // Where the x axis ticks and how it writes its keys (tick labels and the points' tooltips):
  // - Round: at round numbers, written as figures (the default; a log axis at powers of ten);
  // - Integers: keys are whole numbers (rung indexes): a linear axis ticks only at integers;
  // - AtKeys: at the series' own keys, written as figures (a run's concurrencies: 1, 4, 16);
  // - AtRates: at the series' own keys, written as request rates ("35,271/s", formatRate).
  // At the keys, a ladder's rungs read as themselves (17,635/s, 35,271/s ...), not as points
  // between 10^4 and 10^5; each distinct key is a tick, from the lowest up, except one whose
  // label would touch the last one kept (the points' tooltips still name every key).
  enum class KeyTicks { Round, Integers, AtKeys, AtRates };
  void setKeyTicks(KeyTicks ticks);
  KeyTicks keyTicks() const noexcept { return m_keyTicks; }
  // Adds a series; returns its index for setSeriesData.
  int addSeries(const QString& name, Style style);
  // Replaces a series' points (keys ascending; non-positive values are dropped on log axes) and
  // schedules a replot.
  void setSeriesData(int series, const QVector<double>& keys, const QVector<double>& values);
  // Appends points in bulk (keys ascending and after the series' last key, as live data arrives);
  // the same filtering and coalesced replot as setSeriesData.
  void appendSeriesData(int series, const QVector<double>& keys, const QVector<double>& values);
  void clearData();
  // Removes every series and the legend keys; the next addSeries is series 0 again.
  void clearSeries();
  // Draws a series in the palette's colour `colour` (by default the one of its own index) with
  // the marks of `variant`: 0 a solid line and discs (the default), 1 dashed and squares, 2 dotted
  // and triangles. A plot of several targets gives each target a colour and each metric its marks.
  void setSeriesLook(int series, int colour, int variant);
  // What a point's tooltip names its series by, in place of the series' name (empty: the name):
  // series named by metric alone in the legend ("p50") can say their target in the tooltip.
  void setSeriesToolTipName(int series, const QString& name);
  // Legend entries in place of the series' own (which addSeries adds); empty: the series' own
  // again. Each entry shows its text whole, elided only when longer than kLegendKeyMaxWidth pixels.
  void setLegendKeys(const QVector<LegendKey>& keys);
  static constexpr int kLegendKeyMaxWidth = 180;
  // The legend's entries as they read, in order (keys elided as drawn); empty while it is hidden.
  QStringList legendTexts() const;
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
  // Fits the legend's columns to the plot's width, then lays out as every LivePlot does.
  void updateLayout() override;

 private:
  // One row when the entries fit the width; else as many to a row as the width holds (at least
  // one), each LegendKey::newRow starting a row. A fixed three to a row made a row of a target's
  // name and two metrics wider than the plot, and the entries were cut.
  void fitLegendColumns();
  // The x axis's key as its ticks and tooltips write it (setKeyTicks).
  QString keyText(double key) const;

  bool m_logX = true;
  bool m_logY = true;
  KeyTicks m_keyTicks = KeyTicks::Round;
  QVector<Style> m_styles;
  QVector<int> m_colours;   // per series (setSeriesLook); the series' index when unset
  QVector<int> m_variants;  // per series; 0 when unset
  QVector<QString> m_toolTipNames;  // per series; empty: the series' name
  QVector<LegendKey> m_keys;
};

}  // namespace wandscope::widgets
