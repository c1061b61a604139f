// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/distribution_plot.h"
#include "widgets/views/load_dashboard.h"

#include <gtest/gtest.h>

#include <QTest>

namespace wandscope::test {
namespace {

using widgets::DistributionPlot;
using widgets::LoadDashboard;

int points(const DistributionPlot* p) {
  int n = 0;
  for (int i = 0; i < p->seriesCount(); ++i) n += p->pointCount(i);
  return n;
}

TEST(LoadDashboard, LiveBatchesAppendAndAbsentQuantilesAreNotDrawn) {
  LoadDashboard dashboard;
  dashboard.resize(900, 500);
  dashboard.show();
  widgets::LiveBatch batch;
  for (int i = 0; i < 8; ++i) {
    widgets::LivePoint p;
    p.runSeconds = 0.25 * i;
    p.p50Ms = 1.0 + i;
    if (i % 2 == 0) p.p99Ms = 5.0 + i;  // absent in odd ticks
    p.runShedTotal = static_cast<std::uint64_t>(i);
    p.rssMib = 40 + i;
    batch.points.push_back(p);
  }
  dashboard.appendLive(batch);
  EXPECT_EQ(dashboard.latencyOverTime()->pointCount(0), 8);
  EXPECT_EQ(dashboard.latencyOverTime()->pointCount(1), 4);
  EXPECT_EQ(points(dashboard.shedOverTime()), 8);
  EXPECT_EQ(points(dashboard.rssOverTime()), 8);
  // A second batch appends; the replots of both batches coalesce into few.
  for (auto& p : batch.points) p.runSeconds += 2.0;
  dashboard.appendLive(batch);
  EXPECT_EQ(dashboard.rssOverTime()->pointCount(0), 16);
  EXPECT_TRUE(dashboard.rssOverTime()->replotPending());
  const int before = dashboard.rssOverTime()->replotCount();
  ASSERT_TRUE(QTest::qWaitFor([&] { return !dashboard.rssOverTime()->replotPending(); }, 2000));
  EXPECT_EQ(dashboard.rssOverTime()->replotCount(), before + 1);

  engine::RungResult rung;
  rung.index = 0;
  rung.mode = "open";
  rung.completed = 100;
  rung.p50Ms = 1.5;  // p99 absent: not drawn
  rung.cpuMsPerQuery = 0.3;
  rung.counters = {{"doc_blocks_decoded", 12.0}, {"full_scores", 30.0}, {"windows_skipped_bound", 4.0}};
  dashboard.addRung(rung);
  EXPECT_EQ(dashboard.latencyPerRung()->pointCount(0), 1);
  EXPECT_EQ(dashboard.latencyPerRung()->pointCount(1), 0);
  EXPECT_EQ(points(dashboard.cpuPerRung()), 1);
  EXPECT_EQ(points(dashboard.pruningPerRung()), 3);

  dashboard.setRungs({rung, rung});
  EXPECT_EQ(points(dashboard.latencyOverTime()), 0);  // a stored run has no ticks
  EXPECT_EQ(dashboard.latencyPerRung()->pointCount(0), 2);
  dashboard.clear();
  for (auto* p : dashboard.plots()) EXPECT_EQ(points(p), 0);
}

TEST(LoadDashboard, HiddenPlotsDoNotReplot) {
  LoadDashboard dashboard;  // never shown
  widgets::LiveBatch batch;
  widgets::LivePoint p;
  p.rssMib = 10;
  batch.points.push_back(p);
  dashboard.appendLive(batch);
  QTest::qWait(3 * DistributionPlot::kReplotIntervalMs);
  EXPECT_EQ(dashboard.rssOverTime()->replotCount(), 0);
  EXPECT_TRUE(dashboard.rssOverTime()->replotPending());
}

}  // namespace
}  // namespace wandscope::test
