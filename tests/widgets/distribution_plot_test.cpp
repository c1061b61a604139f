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

}  // namespace
}  // namespace wandscope::test
