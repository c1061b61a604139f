// SPDX-License-Identifier: GPL-3.0-or-later
// DistributionPlot's own behaviour; what it shares with every plot (replots, export, tooltips) is
// in live_plot_test.cpp.
#include "widgets/plots/distribution_plot.h"

#include <gtest/gtest.h>

#include <QFontMetricsF>

namespace wandscope::test {
namespace {

using widgets::DistributionPlot;

TEST(DistributionPlot, LogAxesDropNonPositivePoints) {
  DistributionPlot plot;
  const int series = plot.addSeries(QStringLiteral("df"), DistributionPlot::Style::Points);
  plot.setSeriesData(series, {0, 1, 2, 3}, {1, 0, -1, 4});
  EXPECT_EQ(plot.pointCount(series), 1);
  plot.setLogarithmic(false, false);
  plot.setSeriesData(series, {0, 1, 2, 3}, {1, 0, -1, 4});
  EXPECT_EQ(plot.pointCount(series), 4);
  plot.clearData();
  EXPECT_EQ(plot.pointCount(series), 0);
}

// The export dialog proposes the title as a file name.
TEST(DistributionPlot, TheExportProposesTheTitleAsFileName) {
  struct Probe : DistributionPlot {
    using DistributionPlot::exportFileName;
  } plot;
  EXPECT_EQ(plot.exportFileName(), QStringLiteral("plot.png"));
  plot.setTitle(QStringLiteral("Latency per rung"));
  EXPECT_EQ(plot.exportFileName(), QStringLiteral("Latency-per-rung.png"));
}

// A point's tooltip writes its figures as the reports do: a 30 ns latency in ms read "3e-05" and a
// count of millions "2.5e+06".
TEST(DistributionPlot, PointFiguresAreNeverInExponentForm) {
  struct Probe : DistributionPlot {
    using DistributionPlot::pointToolTip;
  } plot;
  const int series = plot.addSeries(QStringLiteral("p99"), DistributionPlot::Style::Points);
  plot.setLogarithmic(false, false);
  plot.setSeriesData(series, {0.00003}, {2500000});
  const QString tip = plot.pointToolTip(*plot.graph(series), QCPGraphData(0.00003, 2500000));
  EXPECT_TRUE(tip.contains(QStringLiteral(": 0.00003<br>"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral(": 2,500,000"))) << tip.toStdString();
  EXPECT_FALSE(tip.contains(QStringLiteral("e+")) || tip.contains(QStringLiteral("e-"))) << tip.toStdString();
}

// A linear axis labels its ticks as the tooltips write figures: digits grouped, never a power of
// ten ("60000" shed requests on the Load page; "2.5·10^6" from a million).
TEST(DistributionPlot, LinearTickLabelsAreGroupedWithoutExponents) {
  DistributionPlot plot;
  const int series = plot.addSeries(QStringLiteral("shed"), DistributionPlot::Style::Steps);
  plot.setLogarithmic(false, false);
  plot.setSeriesData(series, {0, 1, 2}, {0, 30000, 60000});
  plot.renderPng(400, 300);
  const QVector<QString> labels = plot.yAxis->tickVectorLabels();
  ASSERT_FALSE(labels.isEmpty());
  EXPECT_TRUE(labels.contains(QStringLiteral("20,000")) || labels.contains(QStringLiteral("30,000")))
      << QStringList(labels.begin(), labels.end()).join(QLatin1Char(' ')).toStdString();
  plot.setSeriesData(series, {0, 1}, {1000000, 2500000});
  plot.renderPng(400, 300);
  for (const QString& label : plot.yAxis->tickVectorLabels()) {
    EXPECT_FALSE(label.contains(QLatin1Char('e'))) << label.toStdString();
    EXPECT_TRUE(label.size() < 4 || label.contains(QLatin1Char(','))) << label.toStdString();
  }
}

// A point's tooltip names the value even when the plot is too short to draw the axis label
// (the Load page's "shed (run total)"): it read "run time (s): 3<br>: 12,000".
TEST(DistributionPlot, TheTooltipNamesTheValueWhenTheAxisLabelIsDropped) {
  struct Probe : DistributionPlot {
    using DistributionPlot::pointToolTip;
  } plot;
  const int series = plot.addSeries(QStringLiteral("shed"), DistributionPlot::Style::Steps);
  plot.setLogarithmic(false, false);
  plot.setAxisLabels(QStringLiteral("run time (s)"), QStringLiteral("shed requests over the whole run, settle included"));
  plot.setSeriesData(series, {3}, {12000});
  plot.renderPng(260, 160);
  ASSERT_FALSE(plot.valueLabelShown()) << "the plot is meant to be too short for the label";
  const QString tip = plot.pointToolTip(*plot.graph(series), QCPGraphData(3, 12000));
  EXPECT_TRUE(tip.contains(QStringLiteral("shed requests over the whole run, settle included: 12,000"))) << tip.toStdString();
}

// The x axis's tick labels as drawn at width x height: checks that none overlaps the next.
QStringList tickLabelsAt(DistributionPlot& plot, int width, int height) {
  plot.renderPng(width, height);
  const QVector<double> ticks = plot.xAxis->tickVector();
  const QVector<QString> labels = plot.xAxis->tickVectorLabels();
  EXPECT_EQ(ticks.size(), labels.size());
  const QFontMetricsF metrics(plot.xAxis->tickLabelFont());
  for (qsizetype i = 1; i < std::min(ticks.size(), labels.size()); ++i) {
    const double previousEnd = plot.xAxis->coordToPixel(ticks[i - 1]) + metrics.horizontalAdvance(labels[i - 1]) / 2;
    const double start = plot.xAxis->coordToPixel(ticks[i]) - metrics.horizontalAdvance(labels[i]) / 2;
    EXPECT_LT(previousEnd, start) << width << " px: " << labels[i - 1].toStdString() << " overlaps "
                                  << labels[i].toStdString();
  }
  return QStringList(labels.begin(), labels.end());
}

// Keys that are request rates (a load ladder's rungs) tick at the keys themselves, written as the
// rung table writes rates, not at powers of ten between them ("10^5"); a plot too narrow for every
// label keeps as many as fit apart, the lowest first. A point's tooltip writes its key as a rate
// and names the series as setSeriesToolTipName says.
TEST(DistributionPlot, RateKeysTickAtTheKeysWrittenAsRates) {
  struct Probe : DistributionPlot {
    using DistributionPlot::pointToolTip;
  } plot;
  const int series = plot.addSeries(QStringLiteral("p50"), DistributionPlot::Style::LinePoints);
  plot.setLogarithmic(true, true);
  plot.setKeyTicks(DistributionPlot::KeyTicks::AtRates);
  const QVector<double> rates{17635.2875, 35270.575, 70541.15, 141082.3, 282164.6};
  plot.setSeriesData(series, rates, {1, 2, 3, 4, 5});
  const QStringList wide = tickLabelsAt(plot, 700, 300);
  EXPECT_EQ(plot.xAxis->tickVector(), rates);
  EXPECT_EQ(wide, (QStringList{QStringLiteral("17,635/s"), QStringLiteral("35,271/s"), QStringLiteral("70,541/s"),
                               QStringLiteral("141,082/s"), QStringLiteral("282,165/s")}));

  const QStringList narrow = tickLabelsAt(plot, 200, 200);
  EXPECT_LT(narrow.size(), wide.size());
  ASSERT_FALSE(narrow.isEmpty());
  EXPECT_EQ(narrow.front(), QStringLiteral("17,635/s"));
  for (const QString& label : narrow) EXPECT_TRUE(wide.contains(label)) << label.toStdString();

  plot.setAxisLabels(QStringLiteral("offered load (requests/s)"), QStringLiteral("ms"));
  plot.setSeriesToolTipName(series, QStringLiteral("p50 \u00b7 builtin"));
  const QString tip = plot.pointToolTip(*plot.graph(series), QCPGraphData(rates[1], 2));
  EXPECT_TRUE(tip.contains(QStringLiteral("<b>p50 \u00b7 builtin</b>"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("offered load (requests/s): 35,271/s<br>"))) << tip.toStdString();
  EXPECT_EQ(plot.legendTexts(), QStringList()) << "one series: no legend, and its name unchanged";
  EXPECT_EQ(plot.graph(series)->name(), QStringLiteral("p50"));

  // The same keys on a linear axis, written as figures (concurrencies): ticks at the keys too.
  plot.setLogarithmic(false, true);
  plot.setKeyTicks(DistributionPlot::KeyTicks::AtKeys);
  plot.setSeriesData(series, {1, 2, 3}, {1, 2, 3});
  EXPECT_EQ(tickLabelsAt(plot, 700, 300), (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3")}));
}

}  // namespace
}  // namespace wandscope::test
