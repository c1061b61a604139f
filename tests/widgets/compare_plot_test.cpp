// SPDX-License-Identifier: GPL-3.0-or-later
// ComparePlot's live open-loop points: a category per offered rate, appended once, each series'
// point replaced as its figure is refined.
#include "widgets/plots/compare_plot.h"

#include "engine/core/wording.h"

#include <gtest/gtest.h>

#include <QTest>

#include <cmath>
#include <vector>

namespace wandscope::test {
namespace {

using widgets::ComparePlot;

TEST(ComparePlot, SetPointAppendsACategoryOnceAndReplacesTheSeriesValue) {
  ComparePlot plot;
  plot.setPoint(QStringLiteral("200/s"), 0, 1.5);
  plot.setPoint(QStringLiteral("400/s"), 0, 2.5);
  plot.setPoint(QStringLiteral("200/s"), 1, 4.0);
  EXPECT_EQ(plot.querySets(), (QStringList{QStringLiteral("200/s"), QStringLiteral("400/s")}));
  EXPECT_EQ(plot.pointCount(0), 2);
  EXPECT_EQ(plot.pointCount(1), 1);
  EXPECT_TRUE(plot.replotPending());

  // A later ladder refines A's figure at 200/s: replaced, not added.
  plot.setPoint(QStringLiteral("200/s"), 0, 1.25);
  EXPECT_EQ(plot.querySets().size(), 2);
  EXPECT_EQ(plot.pointCount(0), 2);
  EXPECT_EQ(plot.value(0, 0), 1.25);
  EXPECT_EQ(plot.value(0, 1), 2.5);
  EXPECT_EQ(plot.value(1, 0), 4.0);
  EXPECT_TRUE(std::isnan(plot.value(1, 1)));

  // No figure (NaN, <= 0) removes the point; an unknown series changes nothing.
  plot.setPoint(QStringLiteral("400/s"), 0, std::nan(""));
  EXPECT_EQ(plot.pointCount(0), 1);
  plot.setPoint(QStringLiteral("800/s"), 2, 1.0);
  EXPECT_EQ(plot.querySets().size(), 2);

  plot.setCategoryLabel(QStringLiteral("offered rate"));
  EXPECT_EQ(plot.categoryLabel(), QStringLiteral("offered rate"));
  plot.clearData();
  EXPECT_TRUE(plot.querySets().isEmpty());
  EXPECT_EQ(plot.pointCount(0) + plot.pointCount(1), 0);
}

// More than two targets: a series per target (A, B, B2, ...), named, with its own points; back to
// two drops the extra series.
TEST(ComparePlot, ASeriesPerTarget) {
  ComparePlot plot;
  EXPECT_EQ(plot.seriesCount(), 2);
  plot.setTargets(QStringList{QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"),
                              QStringLiteral("builtin:k=5")});
  ASSERT_EQ(plot.seriesCount(), 3);
  EXPECT_EQ(plot.seriesName(0), QStringLiteral("A: builtin"));
  EXPECT_EQ(plot.seriesName(1), QStringLiteral("B: builtin:bulk_and=off"));
  EXPECT_EQ(plot.seriesName(2), QStringLiteral("B2: builtin:k=5"));
  plot.addSet(QStringLiteral("mid-df-2"), std::vector<double>{1.0, 2.0, 3.0});
  plot.addSet(QStringLiteral("rare-2"), std::vector<double>{1.5, std::nan(""), 0.5});
  EXPECT_EQ(plot.pointCount(0), 2);
  EXPECT_EQ(plot.pointCount(1), 1);
  EXPECT_EQ(plot.pointCount(2), 2);
  EXPECT_EQ(plot.value(2, 0), 3.0);
  EXPECT_EQ(plot.value(2, 1), 0.5);
  plot.setPoint(QStringLiteral("mid-df-2"), 2, 2.5);  // the live open-loop path reaches B2 too
  EXPECT_EQ(plot.value(2, 0), 2.5);
  plot.setTargets(QStringLiteral("a"), QStringLiteral("b"));
  EXPECT_EQ(plot.seriesCount(), 2);
  EXPECT_EQ(plot.pointCount(0), 2);  // A's and B's data stay
}

// A point's hover text writes its figure as the ratio table and report.md do (engine::significant
// and "ms"): before, 'g' 4 gave "1.235e+04 CPU ms/query" and "1.23e-05" for the same figures the
// table writes "12,346 ms" and "0.0000123 ms".
TEST(ComparePlot, HoverTextWritesFiguresAsTheReport) {
  ComparePlot plot;
  plot.setTargets(QStringList{QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off")});
  plot.addSet(QStringLiteral("slow-set"), std::vector<double>{12345.6, 0.0000123});
  const QString a = plot.pointText(0, 0);
  EXPECT_TRUE(a.contains(QStringLiteral("slow-set: 12,346 ms (CPU ms/query)"))) << a.toStdString();
  EXPECT_TRUE(a.contains(QStringLiteral("A: builtin"))) << a.toStdString();
  const QString b = plot.pointText(1, 0);
  EXPECT_TRUE(b.contains(QStringLiteral("slow-set: 0.0000123 ms"))) << b.toStdString();
  EXPECT_EQ(ComparePlot::valueText(12345.6), QString::fromStdString(engine::significant(12345.6)) + QStringLiteral(" ms"));
  // An open-loop plot's label carries its unit, which the figure already has: "(p50 latency)".
  plot.setValueLabel(QStringLiteral("p50 latency (ms)"));
  EXPECT_TRUE(plot.pointText(0, 0).contains(QStringLiteral("12,346 ms (p50 latency)"))) << plot.pointText(0, 0).toStdString();
  EXPECT_EQ(plot.pointText(0, 1), QString());  // no such category
  // A plot too short for its value label (the axis drops it) still names the figure when hovered.
  plot.setValueLabel(QStringLiteral("due-time p50 latency of every request at this rate (ms)"));
  plot.resize(400, 120);
  plot.show();  // a hidden plot gets its size (and viewport) when shown
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&plot));
  plot.replot();
  ASSERT_FALSE(plot.valueLabelShown());
  EXPECT_TRUE(plot.pointText(0, 0).contains(QStringLiteral("12,346 ms (due-time p50 latency of every request at this rate)")))
      << plot.pointText(0, 0).toStdString();
}

// Three targets in a narrow plot (the Compare page's at 1280x800): the legend is one row inside the
// plot, each name elided to its share but never below its label, so the data keeps the height; the
// full names stay the series' (and the hover text's). The legend took two rows and ran past the
// right edge ("B: builtin:bulk_an").
TEST(ComparePlot, ThreeTargetsLegendIsOneRowInsideANarrowPlot) {
  ComparePlot plot;
  plot.setTargets(QStringList{QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"),
                              QStringLiteral("builtin:freq_prune=off")});
  plot.addSet(QStringLiteral("mid-df-1"), std::vector<double>{0.0094, 0.0149, 0.0087});
  plot.resize(300, 220);
  plot.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&plot));
  QTest::qWait(3 * ComparePlot::kReplotIntervalMs);
  plot.replot(QCustomPlot::rpImmediateRefresh);

  EXPECT_EQ(plot.legend->rowCount(), 1);
  EXPECT_EQ(plot.legend->columnCount(), 3);
  EXPECT_LE(plot.legend->outerRect().right(), plot.width());
  for (int i = 0; i < plot.legend->itemCount(); ++i) {
    EXPECT_LE(plot.legend->item(i)->outerRect().right(), plot.width()) << i;
  }
  EXPECT_EQ(plot.seriesName(1), QStringLiteral("B: builtin:bulk_and=off"));
  EXPECT_EQ(plot.seriesName(2), QStringLiteral("B2: builtin:freq_prune=off"));
  for (int i = 0; i < 3; ++i) {
    const QString label = i == 0 ? QStringLiteral("A") : i == 1 ? QStringLiteral("B") : QStringLiteral("B2");
    EXPECT_TRUE(plot.legendText(i).startsWith(label)) << plot.legendText(i).toStdString();
  }
  EXPECT_TRUE(plot.pointText(2, 0).contains(QStringLiteral("B2: builtin:freq_prune=off"))) << plot.pointText(2, 0).toStdString();

  // Wide enough, the names are whole.
  plot.resize(1000, 220);
  QTest::qWait(3 * ComparePlot::kReplotIntervalMs);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(plot.legendText(i), plot.seriesName(i)) << i;
}

}  // namespace
}  // namespace wandscope::test
