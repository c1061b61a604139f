// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/plots/live_plot.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace wandscope::widgets {

// Targets overlaid per query set: one series per target (A, B, B2, ...) over a categorical axis of
// query sets, a point per set as the comparison finishes it (CPU ms/query by default), or of
// offered rates for an open-loop comparison, a point refined after each rung. The legend
// sits in its own row above the axes, outside the data: one line, each target's name elided to
// its share of the width ("B2: builtin:fre..."), so a narrow plot keeps its height for data. Updates only mark the plot dirty; a short
// timer replots (rpQueuedReplot) when dirty and visible, as every LivePlot does. Colours
// follow the palette; the context menu exports PNG/SVG/PDF; hovering a point shows its value.
class ComparePlot : public LivePlot {
  Q_OBJECT
 public:
  explicit ComparePlot(QWidget* parent = nullptr);

  // The categorical axis' label ("query set", "offered rate").
  void setCategoryLabel(const QString& label);
  QString categoryLabel() const { return xAxis->label(); }
  // Names the two series ("A: builtin", "B: builtin:bulk_and=off"); keeps the data.
  void setTargets(const QString& a, const QString& b);
  // One series per target, named "A: ...", "B: ...", "B2: ...", ... (at least two series); keeps
  // the data of the series that remain.
  void setTargets(const QStringList& targets);
  int seriesCount() const { return graphCount(); }
  // The full name ("B2: builtin:freq_prune=off"), whatever the legend shows of it.
  QString seriesName(int series) const;
  // What the legend shows of it at the current width.
  QString legendText(int series) const;
  // Appends a query set's figures for A and B (a value <= 0 or NaN leaves that series' point out).
  void addSet(const QString& querySet, double a, double b);
  // The same for every series: values[i] is series i's (missing entries leave points out).
  void addSet(const QString& querySet, const std::vector<double>& values);
  // Sets one series' point of a category, appending the category when it is new and replacing
  // the series' earlier value there (a live figure that is refined as more samples arrive).
  void setPoint(const QString& category, int series, double value);
  void clearData();

  // A figure of the plot as the ratio table and report.md write it (engine::significant plus the
  // unit: "0.1234 ms", "12,346 ms"); every series is a time in ms.
  static QString valueText(double ms);
  // The hover text of series `series`' point at category `set` ("" when there is none).
  QString pointText(int series, int set) const;

  QStringList querySets() const { return m_sets; }
  int pointCount(int series) const;
  double value(int series, int set) const;  // NaN when absent

 protected:
  void rescale() override;
  void styleSeries(bool dark) override;
  QString pointToolTip(const QCPGraph& g, const QCPGraphData& p) const override;
  QString exportFileName() const override { return QStringLiteral("compare.png"); }

 private:
  QString metricName() const;
  // Puts the legend on one row, eliding each name to an equal share of the plot's width.
  void fitLegend();

  QStringList m_names;  // the series' full names (the graphs' names are the legend's elided ones)
  QStringList m_sets;
  QSharedPointer<QCPAxisTickerText> m_ticker;
};

}  // namespace wandscope::widgets
