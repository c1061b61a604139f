// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/widgets/snapshot_fixtures.h"
#include "widgets/models/counter_table_model.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>

namespace wandscope::test {
namespace {

using widgets::CounterTableModel;

int counterCount() {
  int n = 0;
  engine::QueryCounters{}.forEach([&](const char*, std::uint64_t) { ++n; });
  return n;
}

TEST(CounterTableModel, OneRowPerCounter) {
  CounterTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setSnapshot(makeSnapshot());
  EXPECT_EQ(model.rowCount(), counterCount());
  EXPECT_EQ(model.columnCount(), 2);
  const int row = model.rowOf(QStringLiteral("postings_decoded"));
  ASSERT_GE(row, 0);
  EXPECT_EQ(model.index(row, 1).data(CounterTableModel::ValueRole).toULongLong(), 128u);
  EXPECT_EQ(model.index(row, 0).data().toString(), QStringLiteral("Postings decoded"));
  EXPECT_TRUE(model.index(row, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("decoded")));
  EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("bmw"));
}

TEST(CounterTableModel, ComparisonShowsBothPathsAndTheDifference) {
  CounterTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setSnapshot(makeSnapshot(true));
  EXPECT_EQ(model.columnCount(), 4);
  const int row = model.rowOf(QStringLiteral("full_scores"));
  EXPECT_EQ(model.index(row, 1).data(CounterTableModel::ValueRole).toULongLong(), 12u);
  EXPECT_EQ(model.index(row, 2).data(CounterTableModel::ValueRole).toULongLong(), 50u);
  EXPECT_EQ(model.index(row, 3).data(CounterTableModel::ValueRole).toLongLong(), 38);
  EXPECT_EQ(model.index(row, 3).data().toString(), QStringLiteral("+38"));
  EXPECT_EQ(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("exhaustive"));
}

TEST(CounterTableModel, HidingZerosKeepsOnlyCountersWithWork) {
  CounterTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setHideZeros(true);
  model.setSnapshot(makeSnapshot(true));
  EXPECT_EQ(model.rowCount(), 2);  // postings_decoded and full_scores
  EXPECT_EQ(model.rowOf(QStringLiteral("wand_pivots")), -1);
  model.setHideZeros(false);
  EXPECT_EQ(model.rowCount(), counterCount());
  model.setSnapshot(nullptr);
  EXPECT_EQ(model.rowCount(), 0);
}

}  // namespace
}  // namespace wandscope::test
