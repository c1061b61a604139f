// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/distribution_plot.h"
#include "widgets/views/load_dashboard.h"

#include <gtest/gtest.h>

#include <QSet>
#include <QTest>

#include <map>

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

engine::RungResult targetRung(std::uint32_t index, const std::string& target, double p50) {
  engine::RungResult r;
  r.index = index;
  r.target = target;
  r.mode = "open";
  r.completed = 1000;
  r.p50Ms = p50;
  r.p99Ms = 4 * p50;
  r.cpuMsPerQuery = 0.1 * p50;
  r.counters = {{"doc_blocks_decoded", 12.0}, {"full_scores", 30.0}, {"windows_skipped_bound", 4.0}};
  return r;
}

QList<double> keysOf(const QCPGraph* g) {
  QList<double> keys;
  for (const auto& p : *g->data()) keys << p.key;
  return keys;
}

// The series of `plot` whose name (what its tooltips say) names `target` and, when given, `metric`.
QList<const QCPGraph*> seriesNaming(const DistributionPlot* plot, const QString& target, const QString& metric = {}) {
  QList<const QCPGraph*> found;
  for (int i = 0; i < plot->seriesCount(); ++i) {
    const QString name = plot->graph(i)->name();
    if (name.contains(target) && (metric.isEmpty() || name.contains(metric))) found << plot->graph(i);
  }
  return found;
}

// A run of two targets: each per-rung plot draws each target as its own series (one line from
// target A's last rung to target B's first was a curve that does not exist), in a colour of its
// own, with a legend naming the targets under the plot and tooltips naming the target. The closed
// loop interleaves the targets' cells (rungs 0, 2 for A; 1, 3 for B), the ladders follow each other.
TEST(LoadDashboard, EachTargetOfARunIsItsOwnSeriesPerRung) {
  const QString a = QStringLiteral("builtin");
  const QString b = QStringLiteral("synthetic:service_us=200");
  std::vector<engine::RungResult> rungs;
  for (std::uint32_t i = 0; i < 4; ++i) {
    rungs.push_back(targetRung(i, i % 2 == 0 ? a.toStdString() : b.toStdString(), 1.0 + i));
    rungs.back().mode = "closed";
  }
  for (std::uint32_t i = 4; i < 10; ++i) rungs.push_back(targetRung(i, i < 7 ? a.toStdString() : b.toStdString(), 0.5 * i));
  const std::map<QString, QList<double>> expected = {{a, {0, 2, 4, 5, 6}}, {b, {1, 3, 7, 8, 9}}};

  LoadDashboard dashboard;
  dashboard.resize(1260, 320);  // the Load page's plots at 1280x800
  dashboard.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&dashboard));
  for (const auto& r : rungs) dashboard.addRung(r);  // live, as on the Load page

  struct Expect {
    DistributionPlot* plot;
    QStringList metrics;
  };
  const Expect plots[] = {{dashboard.latencyPerRung(), {QStringLiteral("p50"), QStringLiteral("p99")}},
                          {dashboard.cpuPerRung(), {QString()}},
                          {dashboard.pruningPerRung(),
                           {QStringLiteral("windows skipped"), QStringLiteral("blocks decoded"),
                            QStringLiteral("candidates scored")}}};
  for (const Expect& e : plots) {
    SCOPED_TRACE(e.plot->objectName().toStdString());
    EXPECT_EQ(e.plot->seriesCount(), 2 * e.metrics.size()) << "one series per target and metric";
    QSet<QRgb> targetColours;
    for (const auto& [target, keys] : expected) {
      for (const QString& metric : e.metrics) {
        SCOPED_TRACE((target + QLatin1Char(' ') + metric).toStdString());
        const auto series = seriesNaming(e.plot, target, metric);
        ASSERT_EQ(series.size(), 1);
        EXPECT_EQ(keysOf(series[0]), keys) << "only the target's own rungs";
        targetColours << series[0]->pen().color().rgb();
      }
    }
    // Within a target the metrics share its colour: one colour per target.
    EXPECT_EQ(targetColours.size(), 2);
    // The legend names the targets (and, with several metrics, their marks).
    const QStringList legend = e.plot->legendTexts();
    EXPECT_TRUE(legend.contains(a)) << legend.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(legend.contains(b)) << legend.join(QStringLiteral(" | ")).toStdString();
  }

  // The legend sits under the data, never over it, and its entries get the width they need.
  for (const Expect& e : plots) {
    SCOPED_TRACE(e.plot->objectName().toStdString());
    e.plot->replot();
    const QRect data = e.plot->axisRect()->rect();
    EXPECT_FALSE(e.plot->legend->outerRect().intersects(data)) << "legend over the data";
    EXPECT_GE(e.plot->legend->outerRect().top(), data.bottom());
    EXPECT_LE(e.plot->legend->outerRect().right(), e.plot->width());
    for (int i = 0; i < e.plot->legend->itemCount(); ++i) {
      auto* item = e.plot->legend->item(i);
      if (item == nullptr) continue;  // an empty cell of the last row
      EXPECT_GE(item->outerRect().width(), item->minimumOuterSizeHint().width()) << i;
    }
  }

  // Pruning work: the targets on one row, the metrics' marks on the next (a row of both was wider
  // than the plot).
  const QCPLegend* pruning = dashboard.pruningPerRung()->legend;
  EXPECT_EQ(dashboard.pruningPerRung()->legendTexts(),
            (QStringList{a, b, QStringLiteral("windows"), QStringLiteral("blocks"), QStringLiteral("candidates")}));
  ASSERT_EQ(pruning->rowCount(), 2);
  ASSERT_EQ(pruning->columnCount(), 3);
  EXPECT_EQ(pruning->element(0, 2), nullptr);
  EXPECT_NE(pruning->element(1, 2), nullptr);

  // A point's tooltip names its target.
  DistributionPlot* cpu = dashboard.cpuPerRung();
  cpu->replot();
  const auto bSeries = seriesNaming(cpu, b);
  ASSERT_EQ(bSeries.size(), 1);
  const QCPGraphData& p = *bSeries[0]->data()->begin();
  const QString tip = cpu->toolTipAt(bSeries[0]->coordsToPixels(p.key, p.value));
  EXPECT_TRUE(tip.contains(b)) << tip.toStdString();

  // A stored run of one target, shown after: drawn as before (a series per metric, named by it,
  // in the metrics' colours, the legend naming the metrics).
  std::vector<engine::RungResult> single;
  for (std::uint32_t i = 0; i < 3; ++i) single.push_back(targetRung(i, a.toStdString(), 1.0 + i));
  dashboard.setRungs(single);
  DistributionPlot* latency = dashboard.latencyPerRung();
  ASSERT_EQ(latency->seriesCount(), 2);
  EXPECT_EQ(latency->graph(0)->name(), QStringLiteral("p50"));
  EXPECT_EQ(latency->graph(1)->name(), QStringLiteral("p99"));
  EXPECT_EQ(keysOf(latency->graph(0)), (QList<double>{0, 1, 2}));
  EXPECT_NE(latency->graph(0)->pen().color(), latency->graph(1)->pen().color());
  EXPECT_EQ(latency->graph(1)->pen().style(), Qt::SolidLine);
  EXPECT_EQ(latency->legendTexts(), (QStringList{QStringLiteral("p50"), QStringLiteral("p99")}));
  EXPECT_EQ(dashboard.cpuPerRung()->seriesCount(), 1);
  EXPECT_FALSE(dashboard.cpuPerRung()->legend->visible());
  EXPECT_EQ(dashboard.pruningPerRung()->seriesCount(), 3);
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
