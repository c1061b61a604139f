// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/compare_types.h"
#include "widgets/plots/live_plot.h"

#include <QMargins>
#include <QPointF>
#include <QRect>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace wandscope::widgets {

// Targets overlaid per query set: one series per target (A, B, B2, ...) over a categorical axis of
// query sets, a point per set as the comparison finishes it (CPU ms/query by default), or of
// offered rates for an open-loop comparison, a point refined after each rung. The legend
// sits in its own rows above the axes, outside the data, and names every target whole: as many
// columns as fit the width, then more rows; only a name longer than the whole width is elided,
// in the middle ("B2: builtin:freq_pr...simd_merge=off", the label and the distinguishing tail
// stay), and hovering an entry shows the full name. The category names under the benefit panel
// are level when they fit their category, on two or three alternating lines when that makes them
// fit, and slanted only beyond that. Updates only mark the plot dirty; a short timer replots
// (rpQueuedReplot) when dirty and visible, as every LivePlot does. Colours follow the palette; the
// context menu exports PNG/SVG/PDF; hovering a point shows its value.
//
// Under the figures, on the same categories, a second panel shows what the verdict is about: each
// B's benefit vs A (the ratio A/B the report compares, 1 = no change, a dashed line) with the
// report's 95 % bootstrap interval of that ratio as an error bar, and the noise floor around 1 as a
// grey band. The figures alone (means, medians) said nothing about how sure a difference is, and
// the report has no interval of the figures themselves, only of the ratio. A row without an
// interval (recorded runs, not interleaved) gets its point without a bar, and its hover text says
// so. The bars' whiskers are wider than the markers, so a bar shorter than its marker (an interval
// of a few per cent on an axis spanning 0.6 to 1.2) still shows at both ends of the point, and its
// hover text says the bar is that short and how to zoom the axis. The Bs of a category stand a
// marker's width and more apart where the category is wide enough.
class ComparePlot : public LivePlot {
  Q_OBJECT
 public:
  explicit ComparePlot(QWidget* parent = nullptr);

  // The categorical axis' label ("query set", "offered rate"), under the benefit panel, which
  // carries the category names for both panels.
  void setCategoryLabel(const QString& label);
  QString categoryLabel() const;
  // Names the two series ("A: builtin", "B: builtin:bulk_and=off"); keeps the data.
  void setTargets(const QString& a, const QString& b);
  // One series per target, named "A: ...", "B: ...", "B2: ...", ... (at least two series); keeps
  // the data of the series that remain.
  void setTargets(const QStringList& targets);
  int seriesCount() const { return static_cast<int>(m_series.size()); }
  // The full name ("B2: builtin:freq_prune=off"), whatever the legend shows of it.
  QString seriesName(int series) const;
  // What the legend shows of it at the current width.
  QString legendText(int series) const;
  // Where the legend draws series' entry (widget pixels, after a replot); empty when it has none.
  QRect legendRect(int series) const;
  // The hover text of the legend entry at `pos` (the series' full name); "" when there is none.
  QString legendToolTipAt(const QPointF& pos) const;
  // How the category names under the benefit panel are laid out at the current width.
  enum class CategoryLabels { Level, Staggered, Slanted };
  CategoryLabels categoryLabels() const noexcept { return m_categoryLabels; }
  // The benefit points' marker size and the error bars' whisker width, in pixels.
  static constexpr int kBenefitMarkerSize = 7;
  static constexpr int kWhiskerWidth = 13;
  // Appends a query set's figures for A and B (a value <= 0 or NaN leaves that series' point out).
  void addSet(const QString& querySet, double a, double b);
  // The same for every series: values[i] is series i's (missing entries leave points out).
  void addSet(const QString& querySet, const std::vector<double>& values);
  // Sets one series' point of a category, appending the category when it is new and replacing
  // the series' earlier value there (a live figure that is refined as more samples arrive).
  void setPoint(const QString& category, int series, double value);
  // Clears the figures and the benefits.
  void clearData();

  // The benefit panel: B `series`' (1 = B, 2 = B2, ...) ratio A/B at `category` (appended when
  // new), the report's 95 % interval [ciLow, ciHigh] as its bar and its noise floor as the band
  // around 1. NaN bounds draw no bar; a ratio <= 0 or NaN removes the point.
  void setBenefit(const QString& category, int series, const engine::RatioEstimate& estimate);
  int benefitCount(int series) const;
  double benefit(int series, int set) const;  // NaN when absent
  // The interval the error bar at that point draws (its ends, read back from the bar's data);
  // nullopt when the point has no bar or there is no point.
  std::optional<std::pair<double, double>> benefitInterval(int series, int set) const;
  // The hover text of that benefit point ("" when there is none).
  QString benefitText(int series, int set) const;
  // The panel's caption: what the points and the bars are.
  QString benefitCaption() const;
  QCPAxisRect* benefitRect() const noexcept { return m_benefitRect; }

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
  // The legend's entries have a tooltip of their own (the full name); the rest is LivePlot's.
  bool event(QEvent* event) override;

 private:
  QString metricName() const;
  // Lays the legend out in as many columns as its whole names fit (one row when they all do),
  // eliding in the middle only a name wider than the plot.
  void fitLegend();
  // Chooses level, staggered or slanted category names for the width a category has, with room
  // at the sides for the outer names, and writes the ticks.
  void fitCategoryLabels();
  // The pixels of the benefit panel's data area per category (estimated before the first layout).
  double categoryPixels() const;
  // Appends `category` when it is new; its index.
  int categoryIndex(const QString& category);
  // The benefit graph and its error bars of every B, redrawn from m_estimates (the points of the
  // Bs of one category sit side by side around it), and the noise floor bands.
  void rebuildBenefits();
  // Series `series`' horizontal offset from its category in the benefit panel.
  double benefitOffset(int series) const;
  void rescaleBenefits();

  QStringList m_names;  // the series' full names (the graphs' names are the legend's elided ones)
  QStringList m_sets;
  QSharedPointer<QCPAxisTickerText> m_ticker;
  std::vector<QCPGraph*> m_series;  // the figures: A, B, B2, ... (in the main axis rect)
  // The benefit panel: per series its ratio graph and error bars (none for A, series 0).
  QCPAxisRect* m_benefitRect = nullptr;
  QCPTextElement* m_benefitTitle = nullptr;
  QCPItemStraightLine* m_one = nullptr;
  QCPItemText* m_benefitEmpty = nullptr;
  std::vector<QCPGraph*> m_ratios;
  std::vector<QCPErrorBars*> m_bars;
  std::vector<QCPItemRect*> m_bands;  // the noise floor around 1, per category that has one
  std::map<std::pair<int, int>, engine::RatioEstimate> m_estimates;  // (series, set)
  double m_benefitStep = 0.12;  // benefitOffset's distance between the Bs, in categories
  CategoryLabels m_categoryLabels = CategoryLabels::Level;
  QMargins m_benefitMargins;  // the benefit rect's own minimum margins, before room for the names
};

}  // namespace wandscope::widgets
