// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/widgets/snapshot_fixtures.h"
#include "widgets/models/explain_table_model.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>

#include <cmath>

namespace wandscope::test {
namespace {

using widgets::ExplainTableModel;

TEST(ExplainTableModel, ContributionsAddUpToTheScore) {
  ExplainTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(model.rowCount(), 0);
  const auto snapshot = makeSnapshot();
  for (int r = 0; r < 3; ++r) {
    model.setResult(snapshot, r);
    ASSERT_EQ(model.rowCount(), 4);  // three terms and the total
    EXPECT_TRUE(model.sumMatchesScore()) << r;
    EXPECT_EQ(widgets::scoreBits(model.contributionSum()),
              widgets::scoreBits(snapshot->rows[static_cast<std::size_t>(r)].explain.score));
    EXPECT_TRUE(model.index(3, 0).data(ExplainTableModel::IsTotalRole).toBool());
    EXPECT_FALSE(model.index(0, 0).data(ExplainTableModel::IsTotalRole).toBool());
  }
  model.setResult(snapshot, 0);
  EXPECT_EQ(model.index(0, ExplainTableModel::TfColumn).data().toString(), QStringLiteral("3"));
  EXPECT_DOUBLE_EQ(model.index(0, ExplainTableModel::ContributionColumn).data(ExplainTableModel::ValueRole).toDouble(),
                   static_cast<double>(3.1f));
  // The unknown term has no tf.
  EXPECT_EQ(model.index(2, ExplainTableModel::TfColumn).data().toString(), QStringLiteral("\u2013"));
  EXPECT_EQ(model.index(3, ExplainTableModel::ShareColumn).data().toString(), QStringLiteral("100%"));
  for (int c = 0; c < ExplainTableModel::ColumnCount; ++c) {
    EXPECT_FALSE(model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty()) << c;
  }
}

// A score, contribution or idf below 1 keeps as many significant digits as the column's decimals
// (a contribution of a term in every document read 0.0000055); from 1 up, the decimals as before.
TEST(ExplainTableModel, SmallFiguresKeepTheirSignificantDigits) {
  EXPECT_EQ(widgets::formatFigure(0.0000055123456, 7), QStringLiteral("0.000005512346"));
  EXPECT_EQ(widgets::formatFigure(11.033596, 7), QStringLiteral("11.0335960"));
  EXPECT_EQ(widgets::formatFigure(0.5, 5), QStringLiteral("0.50000"));
  EXPECT_EQ(widgets::formatFigure(0.0, 7), QStringLiteral("0.0000000"));
  EXPECT_EQ(widgets::formatFigure(1e-30, 7), QStringLiteral("0.000000000000"));
  EXPECT_EQ(widgets::formatFigure(std::nan(""), 7), QStringLiteral("\u2013"));
}

TEST(ExplainTableModel, OutOfRangeRowsAreEmpty) {
  ExplainTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setResult(makeSnapshot(), 5);
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_EQ(model.hit(), nullptr);
  model.setResult(makeSnapshot(), -1);
  EXPECT_EQ(model.rowCount(), 0);
  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
}

}  // namespace
}  // namespace wandscope::test
