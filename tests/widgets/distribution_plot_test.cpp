// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/support/temp_dir.h"
#include "widgets/plot_export.h"
#include "widgets/plots/distribution_plot.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTest>

namespace wandscope::test {
namespace {

using widgets::DistributionPlot;

QByteArray head(const QString& path, int n) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.read(n);
}

TEST(DistributionPlot, ABurstOfUpdatesCostsOneReplot) {
  DistributionPlot plot;
  const int series = plot.addSeries(QStringLiteral("terms"), DistributionPlot::Style::Steps);
  plot.resize(400, 300);
  plot.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&plot));
  ASSERT_TRUE(QTest::qWaitFor([&] { return !plot.replotPending(); }, 5000));
  const int before = plot.replotCount();
  for (int i = 1; i <= 20; ++i) {
    plot.setSeriesData(series, {1, 2, 4, 8}, {double(i), 2, 3, 4});
  }
  EXPECT_TRUE(plot.replotPending());
  ASSERT_TRUE(QTest::qWaitFor([&] { return !plot.replotPending(); }, 5000));
  EXPECT_EQ(plot.replotCount(), before + 1);
  EXPECT_EQ(plot.pointCount(series), 4);
}

TEST(DistributionPlot, HiddenPlotsDoNotReplotUntilShown) {
  DistributionPlot plot;
  const int series = plot.addSeries(QStringLiteral("df"), DistributionPlot::Style::Line);
  plot.setSeriesData(series, {1, 10, 100}, {5, 3, 1});
  QTest::qWait(3 * DistributionPlot::kReplotIntervalMs);
  EXPECT_TRUE(plot.replotPending());
  EXPECT_EQ(plot.replotCount(), 0);
  plot.show();
  ASSERT_TRUE(QTest::qWaitFor([&] { return !plot.replotPending(); }, 5000));
  EXPECT_EQ(plot.replotCount(), 1);
}

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

TEST(DistributionPlot, ExportsPngSvgAndPdf) {
  TempDir dir;
  DistributionPlot plot;
  plot.setTitle(QStringLiteral("Document-frequency distribution"));
  const int series = plot.addSeries(QStringLiteral("terms"), DistributionPlot::Style::Steps);
  plot.setSeriesData(series, {1, 2, 4, 8, 16}, {500, 200, 90, 30, 4});
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
}

TEST(DistributionPlot, ExportFailuresAreReportedNotSilent) {
  DistributionPlot plot;
  QString error;
  EXPECT_FALSE(plot.exportTo(QStringLiteral("/tmp/plot.bmpx"), &error));
  EXPECT_TRUE(error.contains(QStringLiteral("unknown image format")));
  EXPECT_FALSE(plot.exportTo(QStringLiteral("/nonexistent-dir/x/plot.png"), &error));
  EXPECT_TRUE(error.contains(QStringLiteral("could not be written")));
  EXPECT_FALSE(widgets::plotExportFilter().isEmpty());
}

}  // namespace
}  // namespace wandscope::test
