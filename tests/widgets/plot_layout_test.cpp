// SPDX-License-Identifier: GPL-3.0-or-later
// Layout rules found in the screenshot review (issue 6): plot legends sit outside the data area
// (they covered the newest points of live plots), every legend entry is shown whole, rung axes
// tick at whole rungs, and a rung's verdict - elided in a narrow column - is whole in its tooltip.
#include "widgets/models/rung_table_model.h"
#include "widgets/plots/distribution_plot.h"
#include "widgets/views/load_dashboard.h"

#include <gtest/gtest.h>

#include <QTest>

#include <cmath>

namespace wandscope::test {
namespace {

using widgets::DistributionPlot;
using widgets::LoadDashboard;

engine::RungResult rung(std::uint32_t index) {
  engine::RungResult r;
  r.index = index;
  r.mode = "open";
  r.completed = 100;
  r.p50Ms = 1.0 + index;
  r.p99Ms = 5.0 + index;
  r.cpuMsPerQuery = 0.05;
  r.rssPeakMib = 154.6;
  r.counters = {{"doc_blocks_decoded", 8.0}, {"full_scores", 10.0}, {"windows_skipped_bound", 13.0}};
  r.verdict = "invalid";
  r.criterion = "generator behind: 47.98 % of dispatches > 1000 us late (limit 1 %); shed 8.38 % > 0.1 %";
  return r;
}

TEST(PlotLayout, LegendsNeverCoverTheData) {
  LoadDashboard dashboard;
  dashboard.resize(1260, 320);  // the Load page's plots at 1280x800
  dashboard.show();
  widgets::LiveBatch batch;
  for (int i = 0; i < 20; ++i) {
    widgets::LivePoint p;
    p.runSeconds = 0.25 * i;
    p.p50Ms = 1.0 + i;
    p.p99Ms = 10.0 + i;
    p.rssMib = 154.6;
    batch.points.push_back(p);
  }
  dashboard.appendLive(batch);
  for (std::uint32_t i = 0; i < 4; ++i) dashboard.addRung(rung(i));
  int withLegend = 0;
  for (DistributionPlot* plot : dashboard.plots()) {
    SCOPED_TRACE(plot->objectName().toStdString());
    plot->replot();
    if (plot->seriesCount() < 2) {
      EXPECT_FALSE(plot->legend->visible());
      continue;
    }
    ++withLegend;
    ASSERT_TRUE(plot->legend->visible());
    const QRect data = plot->axisRect()->rect();
    const QRect legend = plot->legend->outerRect();
    EXPECT_FALSE(legend.intersects(data)) << "legend over the data";
    EXPECT_GE(legend.top(), data.bottom()) << "legend under the plot";
    // Every entry gets the width its text needs (no "windows skippe").
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
      auto* item = plot->legend->item(i);
      EXPECT_GE(item->outerRect().width(), item->minimumOuterSizeHint().width()) << i;
    }
  }
  EXPECT_EQ(withLegend, 3);  // latency over time, latency per rung, pruning work
}

TEST(PlotLayout, RungAxesTickAtWholeRungsAndFlatSeriesGetSaneTicks) {
  LoadDashboard dashboard;
  dashboard.resize(1260, 320);
  dashboard.show();
  for (std::uint32_t i = 0; i < 4; ++i) dashboard.addRung(rung(i));
  widgets::LiveBatch batch;
  for (int i = 0; i < 10; ++i) {
    widgets::LivePoint p;
    p.runSeconds = i;
    p.rssMib = 154.6 + 0.001 * i;  // flat to the kB
    batch.points.push_back(p);
  }
  dashboard.appendLive(batch);
  for (DistributionPlot* plot : {dashboard.latencyPerRung(), dashboard.cpuPerRung(), dashboard.pruningPerRung()}) {
    plot->replot();
    for (const double tick : plot->xAxis->tickVector()) EXPECT_EQ(tick, std::round(tick)) << plot->objectName().toStdString();
  }
  DistributionPlot* rss = dashboard.rssOverTime();
  rss->replot();
  EXPECT_GE(rss->yAxis->range().size(), 0.01 * 154.6);
}

TEST(PlotLayout, ALongVerdictIsWholeInItsTooltip) {
  widgets::RungTableModel model;
  model.setRungs({rung(0)});
  const QModelIndex cell = model.index(0, widgets::RungTableModel::Verdict);
  const QString shown = cell.data(Qt::DisplayRole).toString();
  EXPECT_TRUE(shown.startsWith(QStringLiteral("invalid: generator behind")));
  EXPECT_TRUE(cell.data(Qt::ToolTipRole).toString().contains(shown));
}

}  // namespace
}  // namespace wandscope::test
