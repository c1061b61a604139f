// SPDX-License-Identifier: GPL-3.0-or-later
// ComparePlot's live open-loop points: a category per offered rate, appended once, each series'
// point replaced as its figure is refined.
#include "widgets/plots/compare_plot.h"

#include "engine/bench/compare_stats.h"
#include "engine/core/wording.h"

#include <gtest/gtest.h>

#include <QTest>

#include <algorithm>
#include <cmath>
#include <string>
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

// Three targets in a narrow plot (the Compare page's at 1280x800): the legend names every target
// whole, in as many columns as fit and then more rows, inside the plot; a spec wider than the
// plot is elided in the middle (its label and its tail stay) and its entry's tooltip has it all.
// Elided to equal shares of one row, a 300-pixel plot showed "B: builtin:..." and "B2: builtin:...":
// nothing said which colour was which build.
TEST(ComparePlot, LegendNamesEveryTargetWholeOrInItsTooltip) {
  ComparePlot plot;
  plot.setTargets(QStringList{QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"),
                              QStringLiteral("builtin:freq_prune=off")});
  plot.addSet(QStringLiteral("mid-df-1"), std::vector<double>{0.0094, 0.0149, 0.0087});
  plot.resize(300, 260);
  plot.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&plot));
  const auto settle = [&plot] {
    QTest::qWait(3 * ComparePlot::kReplotIntervalMs);
    plot.replot(QCustomPlot::rpImmediateRefresh);
  };
  const auto entriesInsideAndApart = [&plot] {
    for (int i = 0; i < plot.seriesCount(); ++i) {
      const QRect r = plot.legendRect(i);
      EXPECT_FALSE(r.isEmpty()) << i;
      EXPECT_GE(r.left(), 0) << i;
      EXPECT_LE(r.right(), plot.width()) << i;
      for (int j = i + 1; j < plot.seriesCount(); ++j) EXPECT_FALSE(r.intersects(plot.legendRect(j))) << i << " " << j;
    }
  };
  settle();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(plot.legendText(i), plot.seriesName(i)) << "at 300 px, " << i;
  entriesInsideAndApart();
  EXPECT_TRUE(plot.pointText(2, 0).contains(QStringLiteral("B2: builtin:freq_prune=off"))) << plot.pointText(2, 0).toStdString();
  // Hovering an entry names its target.
  EXPECT_TRUE(plot.legendToolTipAt(plot.legendRect(1).center()).contains(QStringLiteral("B: builtin:bulk_and=off")));
  EXPECT_EQ(plot.legendToolTipAt(QPointF(plot.width() / 2.0, plot.height() - 2.0)), QString());

  // Wide enough, one row.
  plot.resize(1000, 260);
  settle();
  EXPECT_EQ(plot.legend->rowCount(), 1);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(plot.legendText(i), plot.seriesName(i)) << i;

  // A spec wider than the plot: elided in the middle, "B2: " and its end kept; the tooltip whole.
  const QString spec = QStringLiteral("builtin:freq_prune=off,candidate_prune=off,lazy_freq=off,window_jump=off,"
                                      "slice_resume=off,simd_merge=off");
  plot.setTargets(QStringList{QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"), spec});
  plot.resize(400, 260);
  settle();
  const QString shown = plot.legendText(2);
  EXPECT_TRUE(shown.startsWith(QStringLiteral("B2: builtin:"))) << shown.toStdString();
  EXPECT_TRUE(shown.endsWith(QStringLiteral("simd_merge=off"))) << shown.toStdString();
  EXPECT_LT(shown.size(), plot.seriesName(2).size());
  EXPECT_EQ(plot.legendText(1), plot.seriesName(1));
  entriesInsideAndApart();
  const QString tip = plot.legendToolTipAt(plot.legendRect(2).center());
  EXPECT_TRUE(tip.contains(spec)) << tip.toStdString();
}

// The category names under the benefit panel: level when they fit, on two or three alternating
// lines when that makes them fit, slanted only beyond; never over one another, and inside the
// widget. At 300 pixels they were slanted at -25 degrees and ran into each other.
TEST(ComparePlot, CategoryNamesNeverOverlapAndStayInside) {
  ComparePlot plot;
  plot.setTargets(QStringList{QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off")});
  for (const char* set : {"mid-df-1", "mid-df-2", "mid-df-3", "sequential-2", "rare-2", "rare+common-3"}) {
    plot.addSet(QString::fromLatin1(set), std::vector<double>{0.0094, 0.0149});
  }
  plot.show();
  QCPAxis* keys = plot.benefitRect()->axis(QCPAxis::atBottom);
  const QFontMetrics metrics(keys->tickLabelFont());
  for (const int width : {1000, 420, 330}) {
    SCOPED_TRACE("plot width " + std::to_string(width));
    plot.resize(width, 300);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&plot));
    QTest::qWait(3 * ComparePlot::kReplotIntervalMs);
    plot.replot(QCustomPlot::rpImmediateRefresh);
    QTest::qWait(3 * ComparePlot::kReplotIntervalMs);  // the margins for the outer names settle
    plot.replot(QCustomPlot::rpImmediateRefresh);
    ASSERT_NE(plot.categoryLabels(), ComparePlot::CategoryLabels::Slanted);
    EXPECT_EQ(keys->tickLabelRotation(), 0.0);
    const auto ticks = qSharedPointerCast<QCPAxisTickerText>(keys->ticker())->ticks();
    ASSERT_EQ(ticks.size(), 6);
    struct Label {
      double left, right;
      int line;
    };
    std::vector<Label> labels;
    for (auto it = ticks.cbegin(); it != ticks.cend(); ++it) {
      const QString text = it.value();
      const auto line = static_cast<int>(text.size() - QStringView(text).trimmed().size());  // leading newlines
      const double w = metrics.horizontalAdvance(text.trimmed());
      EXPECT_EQ(text.trimmed(), plot.querySets().value(static_cast<int>(it.key())));
      const double x = keys->coordToPixel(it.key());
      labels.push_back({x - w / 2, x + w / 2, line});
      EXPECT_GE(x - w / 2, 0) << text.toStdString();
      EXPECT_LE(x + w / 2, plot.width()) << text.toStdString();
    }
    for (std::size_t i = 0; i < labels.size(); ++i) {
      for (std::size_t j = i + 1; j < labels.size(); ++j) {
        if (labels[i].line == labels[j].line) {
          EXPECT_LT(labels[i].right, labels[j].left) << i << " and " << j;
        }
      }
    }
    if (width == 1000) {
      EXPECT_EQ(plot.categoryLabels(), ComparePlot::CategoryLabels::Level);
    }
    if (width == 330) {
      EXPECT_EQ(plot.categoryLabels(), ComparePlot::CategoryLabels::Staggered);
    }
  }
}

// The benefit points: a bar shorter than its marker shows its whiskers beside it, the Bs of a set
// a whisker apart, and the hover text says how short the bar is and how to zoom; the axis fits
// every interval and 1 with a little room, no more.
TEST(ComparePlot, ShortBarsShowAndSaySo) {
  ComparePlot plot;
  plot.setTargets(QStringList{QStringLiteral("builtin"), QStringLiteral("builtin:bulk_and=off"),
                              QStringLiteral("builtin:freq_prune=off")});
  const char* sets[] = {"mid-df-1", "mid-df-2", "mid-df-3", "sequential-2", "rare-2", "rare+common-3"};
  const double ratios[] = {0.670, 0.715, 0.768, 0.947, 1.045, 1.171};
  for (int i = 0; i < 6; ++i) {
    const QString set = QString::fromLatin1(sets[i]);
    plot.addSet(set, std::vector<double>{0.0073, 0.0073 / ratios[i], 0.0071});
    plot.setBenefit(set, 1, {ratios[i], ratios[i] * 0.985, ratios[i] * 1.015, 0.02, "slower"});
    plot.setBenefit(set, 2, {1.03, 1.02, 1.04, 0.02, "faster"});
  }
  plot.resize(380, 330);
  plot.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&plot));
  QTest::qWait(3 * ComparePlot::kReplotIntervalMs);
  plot.replot(QCustomPlot::rpImmediateRefresh);

  QCPAxis* keys = plot.benefitRect()->axis(QCPAxis::atBottom);
  QCPAxis* values = plot.benefitRect()->axis(QCPAxis::atLeft);
  double lo = 1, hi = 1;
  int shortBars = 0;
  for (int set = 0; set < 6; ++set) {
    for (int series = 1; series <= 2; ++series) {
      SCOPED_TRACE(std::string(sets[set]) + " B" + std::to_string(series));
      const auto interval = plot.benefitInterval(series, set);
      ASSERT_TRUE(interval.has_value());
      lo = std::min({lo, interval->first, 1 / 1.02});
      hi = std::max({hi, interval->second, 1.02});
      const double pixels = std::abs(values->coordToPixel(interval->second) - values->coordToPixel(interval->first));
      const QString tip = plot.benefitText(series, set);
      EXPECT_TRUE(tip.contains(QString::fromStdString(engine::intervalText(interval->first, interval->second))));
      EXPECT_EQ(pixels < ComparePlot::kBenefitMarkerSize + 2, tip.contains(QStringLiteral("At this scale the bar is")))
          << pixels << " px: " << tip.toStdString();
      if (pixels < ComparePlot::kBenefitMarkerSize + 2) ++shortBars;
    }
  }
  EXPECT_GT(shortBars, 0) << "the +-1.5 % intervals on an axis from 0.6 to 1.2 are a few pixels";
  // The whiskers stick out of the markers.
  EXPECT_GT(ComparePlot::kWhiskerWidth, ComparePlot::kBenefitMarkerSize + 3);
  // B and B2 of a set stand more than a whisker apart, so their bars do not merge (0.12 of a
  // category put them 6 pixels apart, markers over each other). The benefit panel's graphs are
  // B's then B2's.
  std::vector<const QCPGraph*> benefits;
  for (int i = 0; i < plot.graphCount(); ++i) {
    if (plot.graph(i)->keyAxis() == keys) benefits.push_back(plot.graph(i));
  }
  ASSERT_EQ(benefits.size(), 2u);
  const auto keyOf = [&](std::size_t b, int set) { return benefits[b]->data()->at(set)->key; };
  for (int set = 0; set < 6; ++set) {
    const double apart = std::abs(keys->coordToPixel(keyOf(1, set)) - keys->coordToPixel(keyOf(0, set)));
    EXPECT_GE(apart, ComparePlot::kWhiskerWidth) << sets[set];
  }
  // The axis: 1, every interval and the noise floor band, with some room, but not much more.
  EXPECT_LE(values->range().lower, lo);
  EXPECT_GE(values->range().upper, hi);
  EXPECT_LE(values->range().size(), (hi - lo) * 1.35 + 0.05) << values->range().lower << " .. " << values->range().upper;
}

}  // namespace
}  // namespace wandscope::test
