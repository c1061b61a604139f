// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/distribution_plot.h"
#include "widgets/rate_format.h"
#include "widgets/views/load_dashboard.h"

#include <gtest/gtest.h>

#include <QFontMetricsF>
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
// Closed cells and open rungs share no load axis: the points are keyed by rung index.
TEST(LoadDashboard, EachTargetOfARunIsItsOwnSeriesPerRung) {
  const QString a = QStringLiteral("builtin");
  const QString b = QStringLiteral("synthetic:service_us=200");
  std::vector<engine::RungResult> rungs;
  for (std::uint32_t i = 0; i < 4; ++i) {
    rungs.push_back(targetRung(i, i % 2 == 0 ? a.toStdString() : b.toStdString(), 1.0 + i));
    rungs.back().mode = "closed";
    rungs.back().concurrency = 1 + i / 2;
  }
  for (std::uint32_t i = 4; i < 10; ++i) {
    rungs.push_back(targetRung(i, i < 7 ? a.toStdString() : b.toStdString(), 0.5 * i));
    rungs.back().targetRate = 1000.0 * (1 << ((i - 4) % 3));
  }
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
    EXPECT_EQ(e.plot->xAxis->label(), QStringLiteral("rung"));
    EXPECT_EQ(e.plot->xAxis->scaleType(), QCPAxis::stLinear);
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

engine::RungResult openRung(std::uint32_t index, const std::string& target, double rate, double p50) {
  engine::RungResult r = targetRung(index, target, p50);
  r.targetRate = rate;
  return r;
}

engine::RungResult closedRung(std::uint32_t index, const std::string& target, unsigned clients, double p50) {
  engine::RungResult r = targetRung(index, target, p50);
  r.mode = "closed";
  r.concurrency = clients;
  return r;
}

QList<DistributionPlot*> perRungPlots(const LoadDashboard& d) {
  return {d.latencyPerRung(), d.cpuPerRung(), d.pruningPerRung()};
}

// Every series of `plot` that has points holds exactly `keys`.
void expectKeys(const DistributionPlot* plot, const QList<double>& keys) {
  SCOPED_TRACE(plot->title().toStdString());
  int drawn = 0;
  for (int i = 0; i < plot->seriesCount(); ++i) {
    if (plot->pointCount(i) == 0) continue;  // pruning's windows skipped: 0 on a log axis
    ++drawn;
    EXPECT_EQ(keysOf(plot->graph(i)), keys) << plot->graph(i)->name().toStdString();
  }
  EXPECT_GT(drawn, 0);
}

// The x axis's tick labels as drawn, after the plot's coalesced replot: none overlaps the next.
QStringList settledTickLabels(DistributionPlot* plot) {
  EXPECT_TRUE(QTest::qWaitFor([&] { return !plot->replotPending(); }, 2000));
  plot->replot();
  const QVector<double> ticks = plot->xAxis->tickVector();
  const QVector<QString> labels = plot->xAxis->tickVectorLabels();
  EXPECT_EQ(ticks.size(), labels.size());
  const QFontMetricsF metrics(plot->xAxis->tickLabelFont());
  for (qsizetype i = 1; i < std::min(ticks.size(), labels.size()); ++i) {
    const double previousEnd = plot->xAxis->coordToPixel(ticks[i - 1]) + metrics.horizontalAdvance(labels[i - 1]) / 2;
    const double start = plot->xAxis->coordToPixel(ticks[i]) - metrics.horizontalAdvance(labels[i]) / 2;
    EXPECT_LT(previousEnd, start) << labels[i - 1].toStdString() << " overlaps " << labels[i].toStdString();
  }
  return QStringList(labels.begin(), labels.end());
}

// A load test reads latency against the load offered. A ladder of open-loop rungs is drawn at the rungs' rates, not at 0, 1, 2, 3: on a log
// axis once the rates span 3x (geometric rungs fall evenly spaced there), ticked at the rates as
// the rung table writes them, and a point's tooltip names target, rate and value. The axis is
// decided again as each rung arrives: the points drawn so far move with it.
TEST(LoadDashboard, OpenRungsAreDrawnAtTheirOfferedRate) {
  const std::string target = "builtin";
  // 1/8, 1/4, 1/2, 3/4 and 1x of a calibrated 141,082.3/s.
  const QList<double> rates = {17635.2875, 35270.575, 70541.15, 105811.725, 141082.3};
  LoadDashboard dashboard;
  dashboard.resize(1260, 320);  // the Load page's plots at 1280x800
  dashboard.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&dashboard));

  dashboard.addRung(openRung(0, target, rates[0], 1.0));
  for (DistributionPlot* plot : perRungPlots(dashboard)) {
    SCOPED_TRACE(plot->title().toStdString());
    EXPECT_EQ(plot->xAxis->label(), QStringLiteral("offered load (requests/s)"));
    EXPECT_EQ(plot->xAxis->scaleType(), QCPAxis::stLinear) << "one rate spans no factor";
    expectKeys(plot, {rates[0]});
  }
  dashboard.addRung(openRung(1, target, rates[1], 1.2));
  EXPECT_EQ(dashboard.latencyPerRung()->xAxis->scaleType(), QCPAxis::stLinear) << "2x: still linear";
  dashboard.addRung(openRung(2, target, rates[2], 1.5));
  for (DistributionPlot* plot : perRungPlots(dashboard)) {
    EXPECT_EQ(plot->xAxis->scaleType(), QCPAxis::stLogarithmic) << plot->title().toStdString() << ": 4x";
    expectKeys(plot, rates.mid(0, 3));
  }
  dashboard.addRung(openRung(3, target, rates[3], 2.5));
  dashboard.addRung(openRung(4, target, rates[4], 9.0));
  for (DistributionPlot* plot : perRungPlots(dashboard)) {
    EXPECT_EQ(plot->xAxis->scaleType(), QCPAxis::stLogarithmic) << plot->title().toStdString();
    expectKeys(plot, rates);
  }

  // Ticked at the rates, written as the rung table writes them ("35,271/s"), never over each other.
  QStringList rateTexts;
  for (const double rate : rates) rateTexts << widgets::formatRate(rate);
  for (DistributionPlot* plot : perRungPlots(dashboard)) {
    SCOPED_TRACE(plot->title().toStdString());
    const QStringList labels = settledTickLabels(plot);
    ASSERT_GE(labels.size(), 3) << labels.join(QLatin1Char(' ')).toStdString();
    EXPECT_EQ(labels.front(), QStringLiteral("17,635/s"));
    for (const QString& label : labels) EXPECT_TRUE(rateTexts.contains(label)) << label.toStdString();
  }

  // A point's tooltip: the target (one target: the legend names only p50 and p99), the rate, the value.
  DistributionPlot* latency = dashboard.latencyPerRung();
  EXPECT_EQ(latency->legendTexts(), (QStringList{QStringLiteral("p50"), QStringLiteral("p99")}));
  const QCPGraph* p50 = latency->graph(0);
  const QString tip = latency->toolTipAt(p50->coordsToPixels(rates[1], 1.2));
  EXPECT_TRUE(tip.contains(QStringLiteral("p50 \u00b7 builtin"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("offered load (requests/s): 35,271/s"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("ms: 1.2"))) << tip.toStdString();

  // A stored run shown after the live one is keyed by its own rungs, from scratch.
  dashboard.setRungs({closedRung(0, target, 4, 1.0), closedRung(1, target, 8, 2.0)});
  EXPECT_EQ(latency->xAxis->label(), QStringLiteral("concurrency (clients)"));
  EXPECT_EQ(latency->xAxis->scaleType(), QCPAxis::stLinear);
  expectKeys(latency, {4, 8});
  dashboard.clear();
  EXPECT_EQ(latency->xAxis->label(), QStringLiteral("rung"));
}

// Closed-loop rungs have no offered rate but a number of clients: the points are keyed by it, on
// a log axis for 1 ... 16 clients, ticked at the counts.
TEST(LoadDashboard, ClosedRungsAreDrawnAtTheirConcurrency) {
  LoadDashboard dashboard;
  dashboard.resize(1260, 320);
  dashboard.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&dashboard));
  const QList<double> clients = {1, 2, 4, 8, 16};
  std::vector<engine::RungResult> rungs;
  for (std::uint32_t i = 0; i < 5; ++i) {
    rungs.push_back(closedRung(i, "builtin", static_cast<unsigned>(clients[i]), 1.0 + i));
  }
  dashboard.setRungs(rungs);
  for (DistributionPlot* plot : perRungPlots(dashboard)) {
    SCOPED_TRACE(plot->title().toStdString());
    EXPECT_EQ(plot->xAxis->label(), QStringLiteral("concurrency (clients)"));
    EXPECT_EQ(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
    expectKeys(plot, clients);
    EXPECT_EQ(settledTickLabels(plot),
              (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("4"), QStringLiteral("8"),
                           QStringLiteral("16")}));
  }
  const QCPGraph* cpu = dashboard.cpuPerRung()->graph(0);
  const QString tip = dashboard.cpuPerRung()->toolTipAt(cpu->coordsToPixels(4, 0.3));
  EXPECT_TRUE(tip.contains(QStringLiteral("<b>builtin</b>"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("concurrency (clients): 4<br>"))) << tip.toStdString();
}

// Where the rungs have no one load axis the points fall back to the rung index ("rung", as the
// rung table numbers them): open and closed rungs in one run, and a target offered one rate twice
// (its two points would share an x). Live, the fallback redraws the rungs already drawn.
// Two targets offered the same rates are no repeat: each has its series.
TEST(LoadDashboard, MixedOrRepeatedLoadsFallBackToRungIndexes) {
  LoadDashboard dashboard;
  dashboard.resize(1260, 320);
  dashboard.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&dashboard));
  DistributionPlot* latency = dashboard.latencyPerRung();

  dashboard.addRung(openRung(0, "builtin", 1000, 1.0));
  dashboard.addRung(openRung(1, "builtin", 2000, 2.0));
  expectKeys(latency, {1000, 2000});
  dashboard.addRung(closedRung(2, "builtin", 4, 3.0));  // open and closed
  for (DistributionPlot* plot : perRungPlots(dashboard)) {
    SCOPED_TRACE(plot->title().toStdString());
    EXPECT_EQ(plot->xAxis->label(), QStringLiteral("rung"));
    EXPECT_EQ(plot->xAxis->scaleType(), QCPAxis::stLinear);
    expectKeys(plot, {0, 1, 2});
  }

  dashboard.clear();
  dashboard.addRung(openRung(0, "builtin", 1000, 1.0));
  dashboard.addRung(openRung(1, "builtin", 4000, 2.0));
  dashboard.addRung(openRung(2, "builtin", 1000, 3.0));  // the same rate again
  EXPECT_EQ(latency->xAxis->label(), QStringLiteral("rung"));
  EXPECT_EQ(latency->xAxis->scaleType(), QCPAxis::stLinear);
  expectKeys(latency, {0, 1, 2});

  // Closed-loop cells of two query sets at one concurrency repeat it.
  dashboard.setRungs({closedRung(0, "builtin", 2, 1.0), closedRung(1, "builtin", 2, 1.5)});
  EXPECT_EQ(latency->xAxis->label(), QStringLiteral("rung"));
  expectKeys(latency, {0, 1});

  // Two targets, one ladder each at the same rates: keyed by rate, both series at the same x.
  dashboard.setRungs({openRung(0, "builtin", 1000, 1.0), openRung(1, "builtin", 1500, 2.0),
                      openRung(2, "synthetic", 1000, 0.5), openRung(3, "synthetic", 1500, 0.7)});
  EXPECT_EQ(latency->xAxis->label(), QStringLiteral("offered load (requests/s)"));
  EXPECT_EQ(latency->xAxis->scaleType(), QCPAxis::stLinear) << "1.5x: linear";
  ASSERT_EQ(latency->seriesCount(), 4);
  expectKeys(latency, {1000, 1500});
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
