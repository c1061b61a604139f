// SPDX-License-Identifier: GPL-3.0-or-later
// ComparePlot's live open-loop points: a category per offered rate, appended once, each series'
// point replaced as its figure is refined.
#include "widgets/plots/compare_plot.h"

#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace
}  // namespace wandscope::test
