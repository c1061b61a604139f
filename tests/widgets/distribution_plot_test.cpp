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

}  // namespace
}  // namespace wandscope::test
