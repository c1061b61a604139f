// SPDX-License-Identifier: GPL-3.0-or-later
// What every LivePlot shares, on each plot of the workbench: coalesced replots (a burst costs one,
// a hidden plot none until shown), the empty text, the title naming the object, the tooltip of the
// point under the pointer, and export to PNG/SVG/PDF with failures reported.
#include "tests/support/temp_dir.h"
#include "widgets/plot_export.h"
#include "widgets/plots/compare_plot.h"
#include "widgets/plots/distribution_plot.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QFontMetrics>
#include <QTest>

namespace wandscope::test {
namespace {

using widgets::ComparePlot;
using widgets::DistributionPlot;

// Gives the plot's first series the value v at one point and a second point beside it; returns
// that first point's (key, value).
QPointF putPoints(DistributionPlot& plot, double v) {
  if (plot.seriesCount() == 0) plot.addSeries(QStringLiteral("terms"), DistributionPlot::Style::Points);
  plot.setSeriesData(0, {1, 100}, {v, 5});
  return {1, v};
}

QPointF putPoints(ComparePlot& plot, double v) {
  plot.setPoint(QStringLiteral("mid-df-2"), 0, v);
  plot.setPoint(QStringLiteral("rare-3"), 0, 2 * v);
  return {0, v};
}

void clearPoints(DistributionPlot& plot) { plot.clearData(); }
void clearPoints(ComparePlot& plot) { plot.clearData(); }

QByteArray head(const QString& path, int n) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.read(n);
}

template <class Plot>
class LivePlotTest : public ::testing::Test {};

using Plots = ::testing::Types<DistributionPlot, ComparePlot>;
TYPED_TEST_SUITE(LivePlotTest, Plots);

TYPED_TEST(LivePlotTest, ABurstOfUpdatesCostsOneReplot) {
  TypeParam plot;
  plot.resize(400, 300);
  plot.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&plot));
  ASSERT_TRUE(QTest::qWaitFor([&] { return !plot.replotPending(); }, 5000));
  const int before = plot.replotCount();
  for (int i = 1; i <= 20; ++i) putPoints(plot, i);
  EXPECT_TRUE(plot.replotPending());
  ASSERT_TRUE(QTest::qWaitFor([&] { return !plot.replotPending(); }, 5000));
  EXPECT_EQ(plot.replotCount(), before + 1);
  EXPECT_EQ(plot.pointCount(0), 2);
}

TYPED_TEST(LivePlotTest, HiddenPlotsDoNotReplotUntilShown) {
  TypeParam plot;
  putPoints(plot, 3);
  QTest::qWait(3 * TypeParam::kReplotIntervalMs);
  EXPECT_TRUE(plot.replotPending());
  EXPECT_EQ(plot.replotCount(), 0);
  plot.show();
  ASSERT_TRUE(QTest::qWaitFor([&] { return !plot.replotPending(); }, 5000));
  EXPECT_EQ(plot.replotCount(), 1);
}

TYPED_TEST(LivePlotTest, TheEmptyTextShowsWhileThereIsNoData) {
  TypeParam plot;
  EXPECT_TRUE(plot.emptyTextShown());
  plot.setEmptyText(QStringLiteral("Nothing measured yet"));
  EXPECT_EQ(plot.emptyText(), QStringLiteral("Nothing measured yet"));
  putPoints(plot, 3);
  plot.renderPng(200, 150);  // settles the pending update
  EXPECT_FALSE(plot.emptyTextShown());
  clearPoints(plot);
  plot.renderPng(200, 150);
  EXPECT_TRUE(plot.emptyTextShown());
}

// A value label longer than its axis is not drawn (the Compare page's plot at 1280x800 showed
// "CPU ms/que"); it comes back when the plot is tall enough, and the plot keeps what was set.
TYPED_TEST(LivePlotTest, TheValueLabelGivesWayInAShortPlot) {
  TypeParam plot;
  plot.setTitle(QStringLiteral("A title"));
  const QString label = QStringLiteral("a long value label of the plot (ms)");
  plot.setValueLabel(label);
  putPoints(plot, 3);
  plot.resize(400, 200);
  plot.show();  // a hidden plot gets its size (and viewport) when shown
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&plot));
  plot.replot();
  EXPECT_LT(plot.axisRect()->height(), QFontMetrics(plot.yAxis->labelFont()).horizontalAdvance(label));
  EXPECT_FALSE(plot.valueLabelShown());
  EXPECT_EQ(plot.valueLabel(), label);
  // Tall enough for the label: 800 pixels, since the Compare plot shares its height with its
  // benefit panel.
  plot.resize(400, 800);
  plot.replot();
  EXPECT_TRUE(plot.valueLabelShown());
  EXPECT_EQ(plot.yAxis->label(), label);
  plot.resize(400, 200);
  plot.replot();
  EXPECT_FALSE(plot.valueLabelShown());
  EXPECT_EQ(plot.valueLabel(), label);
}

TYPED_TEST(LivePlotTest, TheTitleNamesTheObjectUnlessItWasNamedOtherwise) {
  TypeParam plot;
  plot.setTitle(QStringLiteral("Latency per rung"));
  EXPECT_EQ(plot.title(), QStringLiteral("Latency per rung"));
  EXPECT_EQ(plot.objectName(), QStringLiteral("Latency per rung"));
  plot.setTitle(QStringLiteral("CPU per rung"));
  EXPECT_EQ(plot.objectName(), QStringLiteral("CPU per rung"));
  plot.setObjectName(QStringLiteral("cpuPlot"));
  plot.setTitle(QStringLiteral("CPU ms/query"));
  EXPECT_EQ(plot.objectName(), QStringLiteral("cpuPlot"));
}

TYPED_TEST(LivePlotTest, TheTooltipNamesThePointUnderThePointer) {
  TypeParam plot;
  plot.setToolTip(QStringLiteral("the plot's own tooltip"));
  plot.resize(400, 300);
  plot.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&plot));
  const QPointF point = putPoints(plot, 7.25);
  ASSERT_TRUE(QTest::qWaitFor([&] { return !plot.replotPending(); }, 5000));
  const QPointF px = plot.graph(0)->coordsToPixels(point.x(), point.y());
  const QString tip = plot.toolTipAt(px + QPointF(3, -3));
  EXPECT_TRUE(tip.contains(plot.graph(0)->name())) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("7.25"))) << tip.toStdString();
  // Away from every point: the plot's own tooltip.
  EXPECT_EQ(plot.toolTipAt(QPointF(2, 2)), QStringLiteral("the plot's own tooltip"));
}

TYPED_TEST(LivePlotTest, ExportsPngSvgAndPdf) {
  TempDir dir;
  TypeParam plot;
  plot.setTitle(QStringLiteral("Document-frequency distribution"));
  putPoints(plot, 500);
  plot.resize(480, 320);
  const QString base = QString::fromStdString(dir.path().string());
  QString error;
  ASSERT_TRUE(plot.exportTo(base + QStringLiteral("/plot.png"), &error)) << error.toStdString();
  EXPECT_EQ(head(base + QStringLiteral("/plot.png"), 4), QByteArray("\x89PNG", 4));
  ASSERT_TRUE(plot.exportTo(base + QStringLiteral("/plot.svg"), &error)) << error.toStdString();
  EXPECT_TRUE(head(base + QStringLiteral("/plot.svg"), 200).contains("<svg") ||
              head(base + QStringLiteral("/plot.svg"), 200).contains("<?xml"));
  ASSERT_TRUE(plot.exportTo(base + QStringLiteral("/plot.pdf"), &error)) << error.toStdString();
  EXPECT_EQ(head(base + QStringLiteral("/plot.pdf"), 4), QByteArray("%PDF"));
  EXPECT_FALSE(plot.replotPending());  // the export fitted the axes to the data
}

TYPED_TEST(LivePlotTest, ExportFailuresAreReportedNotSilent) {
  TypeParam plot;
  QString error;
  QString signalled;
  QObject::connect(&plot, &TypeParam::exportFailed, [&](const QString& message) { signalled = message; });
  EXPECT_FALSE(plot.exportTo(QStringLiteral("/tmp/plot.bmpx"), &error));
  EXPECT_TRUE(error.contains(QStringLiteral("unknown image format")));
  EXPECT_EQ(signalled, error);
  EXPECT_FALSE(plot.exportTo(QStringLiteral("/nonexistent-dir/x/plot.png"), &error));
  EXPECT_TRUE(error.contains(QStringLiteral("could not be written")));
  EXPECT_FALSE(widgets::plotExportFilter().isEmpty());
}

}  // namespace
}  // namespace wandscope::test
