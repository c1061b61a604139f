// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/widgets/snapshot_fixtures.h"
#include "widgets/models/term_table_model.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>

namespace wandscope::test {
namespace {

using widgets::TermTableModel;

TEST(TermTableModel, ListsTermsAndMarksUnknownOnes) {
  TermTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(model.rowCount(), 0);
  model.setQuery(makeSnapshot()->query);
  ASSERT_EQ(model.rowCount(), 3);
  EXPECT_EQ(model.index(0, TermTableModel::TermColumn).data().toString(), QStringLiteral("alpha"));
  EXPECT_EQ(model.index(0, TermTableModel::DfColumn).data().toString(), QStringLiteral("10"));
  EXPECT_EQ(model.index(1, TermTableModel::IdfColumn).data().toString(), QStringLiteral("0.90000"));
  EXPECT_TRUE(model.index(0, 0).data(TermTableModel::KnownRole).toBool());
  // gamma is not in the index: marked, and its statistics left blank.
  EXPECT_FALSE(model.index(2, 0).data(TermTableModel::KnownRole).toBool());
  EXPECT_EQ(model.index(2, TermTableModel::DfColumn).data().toString(), QStringLiteral("not in index"));
  EXPECT_TRUE(model.index(2, TermTableModel::IdfColumn).data().toString().isEmpty());
  EXPECT_TRUE(model.index(2, 0).data(Qt::FontRole).value<QFont>().italic());
  EXPECT_TRUE(model.index(2, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("not in the index")));
  for (int c = 0; c < TermTableModel::ColumnCount; ++c) {
    EXPECT_FALSE(model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty()) << c;
  }
  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
}

}  // namespace
}  // namespace wandscope::test
