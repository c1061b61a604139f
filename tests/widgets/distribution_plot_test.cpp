// SPDX-License-Identifier: GPL-3.0-or-later
// DistributionPlot's own behaviour; what it shares with every plot (replots, export, tooltips) is
// in live_plot_test.cpp.
#include "widgets/plots/distribution_plot.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace wandscope::test
