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
  EXPECT_EQ(model.index(1, TermTableModel::IdfColumn).data().toString(), QStringLiteral("0.9"));
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

// A term in every document of 200,000 has idf 2.5e-6: five fixed decimals showed it as 0.00000
// (and its max score too) where wandscope-cli search --explain prints 2.49999e-06. Every figure
// is the shortest decimal that reads back as its f32, never in exponent form.
TEST(TermTableModel, TinyFiguresKeepTheirDigits) {
  TermTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  engine::ParsedQuery q;
  q.terms.push_back(engine::QueryTerm{"everywhere", 1u, 200'000, 2.49999e-06f, 5.35741e-06f, 1563});
  q.terms.push_back(engine::QueryTerm{"often", 2u, 19'974, 0.00132581f, 0.00278997f, 157});
  q.terms.push_back(engine::QueryTerm{"usual", 3u, 1'057, 2.93987f, 4.57816f, 9});
  model.setQuery(q);
  EXPECT_EQ(model.index(0, TermTableModel::IdfColumn).data().toString(), QStringLiteral("0.00000249999"));
  EXPECT_EQ(model.index(0, TermTableModel::MaxScoreColumn).data().toString(), QStringLiteral("0.00000535741"));
  EXPECT_EQ(model.index(1, TermTableModel::IdfColumn).data().toString(), QStringLiteral("0.00132581"));
  EXPECT_EQ(model.index(2, TermTableModel::IdfColumn).data().toString(), QStringLiteral("2.93987"));
  EXPECT_EQ(model.index(2, TermTableModel::MaxScoreColumn).data().toString(), QStringLiteral("4.57816"));
  // The figures themselves, for exact comparisons.
  EXPECT_EQ(model.index(0, TermTableModel::IdfColumn).data(TermTableModel::ValueRole).toDouble(),
            static_cast<double>(2.49999e-06f));
  EXPECT_EQ(model.index(0, TermTableModel::DfColumn).data(TermTableModel::ValueRole).toULongLong(), 200'000u);
}

}  // namespace
}  // namespace wandscope::test
