// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/widgets/snapshot_fixtures.h"
#include "widgets/models/counter_table_model.h"
#include "widgets/models/result_table_model.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

namespace wandscope::test {
namespace {

using widgets::ResultTableModel;
using Column = ResultTableModel::Column;

TEST(ResultTableModel, EmptyUntilASnapshotArrives) {
  ResultTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_EQ(model.columnCount(), 5);
  EXPECT_EQ(model.hitRow(0), nullptr);
}

TEST(ResultTableModel, ShowsHitsInRankOrderWithScoreBits) {
  ResultTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
  const auto snapshot = makeSnapshot();
  model.setSnapshot(snapshot);
  EXPECT_EQ(resets.count(), 1);
  ASSERT_EQ(model.rowCount(), 3);
  EXPECT_EQ(model.column(Column::CompareDoc), -1);
  const int docCol = model.column(Column::Doc);
  const int scoreCol = model.column(Column::Score);
  for (int r = 0; r < 3; ++r) {
    const auto& hit = snapshot->rows[static_cast<std::size_t>(r)];
    EXPECT_EQ(model.index(r, model.column(Column::Rank)).data().toInt(), r + 1);
    EXPECT_EQ(model.index(r, docCol).data().toString(), hit.externalId);
    EXPECT_EQ(model.index(r, docCol).data(ResultTableModel::DocIdRole).toUInt(), hit.doc);
    EXPECT_EQ(model.index(r, scoreCol).data(ResultTableModel::ScoreBitsRole).toUInt(), widgets::scoreBits(hit.score));
    EXPECT_TRUE(model.index(r, scoreCol).data(Qt::ToolTipRole).toString().contains(QStringLiteral("bits")));
  }
  const auto highlights = model.index(0, model.column(Column::Snippet)).data(ResultTableModel::HighlightsRole);
  EXPECT_EQ(highlights.value<QList<int>>(), (QList<int>{5, 5, 20, 4}));
  EXPECT_TRUE(model.index(0, model.column(Column::Snippet)).data(Qt::ToolTipRole).toString().contains(
      QStringLiteral("<b>alpha</b>")));
  for (int c = 0; c < model.columnCount(); ++c) {
    EXPECT_FALSE(model.headerData(c, Qt::Horizontal).toString().isEmpty());
    EXPECT_FALSE(model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
  }
  model.setSnapshot(nullptr);
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(ResultTableModel, ComparisonAddsColumnsAndMarksDifferences) {
  ResultTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setSnapshot(makeSnapshot(true, false));
  EXPECT_EQ(model.columnCount(), 8);
  const int match = model.column(Column::Match);
  ASSERT_GE(match, 0);
  for (int r = 0; r < 3; ++r) EXPECT_TRUE(model.index(r, match).data(ResultTableModel::MatchRole).toBool());
  EXPECT_TRUE(model.headerData(model.column(Column::CompareScore), Qt::Horizontal).toString().contains(
      QStringLiteral("exhaustive")));

  model.setSnapshot(makeSnapshot(true, true));
  EXPECT_TRUE(model.index(0, match).data(ResultTableModel::MatchRole).toBool());
  EXPECT_FALSE(model.index(1, match).data(ResultTableModel::MatchRole).toBool());
  EXPECT_EQ(model.index(1, model.column(Column::CompareDoc)).data(ResultTableModel::DocIdRole).toUInt(), 99u);
  EXPECT_TRUE(model.index(1, match).data(Qt::ForegroundRole).isValid());

  // Back to no comparison: the extra columns go away.
  model.setSnapshot(makeSnapshot(false));
  EXPECT_EQ(model.columnCount(), 5);
}

// Both document columns show external ids (the compared one showed internal numbers beside the
// primary's external ids), and two paths of one name are told apart as A and B in every header.
TEST(ResultTableModel, TheComparedColumnShowsExternalIdsAndSamePathsAreLabelledAAndB) {
  ResultTableModel model;
  auto s = std::make_shared<widgets::SearchSnapshot>(*makeSnapshot(true, true));
  for (const auto& h : s->compare->hits) s->compare->externalIds.push_back(QStringLiteral("ext-%1").arg(h.doc));
  model.setSnapshot(s);
  const int compareDoc = model.column(Column::CompareDoc);
  EXPECT_EQ(model.index(1, compareDoc).data().toString(), QStringLiteral("ext-99"));
  EXPECT_TRUE(model.index(1, compareDoc).data(Qt::ToolTipRole).toString().contains(QStringLiteral("internal doc id 99")));
  EXPECT_EQ(model.headerData(compareDoc, Qt::Horizontal).toString(), QStringLiteral("Doc (exhaustive)"));
  EXPECT_EQ(s->pathLabels(), (std::pair{QStringLiteral("bmw"), QStringLiteral("exhaustive")}));

  s->primary.taken = engine::Algorithm::Exhaustive;
  model.setSnapshot(s);
  EXPECT_EQ(model.headerData(model.column(Column::Doc), Qt::Horizontal).toString(), QStringLiteral("Doc (A: exhaustive)"));
  EXPECT_EQ(model.headerData(compareDoc, Qt::Horizontal).toString(), QStringLiteral("Doc (B: exhaustive)"));
  widgets::CounterTableModel counters;
  counters.setSnapshot(s);
  EXPECT_EQ(counters.headerData(1, Qt::Horizontal).toString(), QStringLiteral("A: exhaustive"));
  EXPECT_EQ(counters.headerData(2, Qt::Horizontal).toString(), QStringLiteral("B: exhaustive"));
}

TEST(SearchSnapshot, IdentityComparesDocIdsAndScoreBits) {
  EXPECT_FALSE(makeSnapshot(false)->identical());
  EXPECT_EQ(makeSnapshot(false)->firstDifference(), -1);
  EXPECT_TRUE(makeSnapshot(true, false)->identical());
  EXPECT_EQ(makeSnapshot(true, true)->firstDifference(), 1);
  auto s = std::make_shared<widgets::SearchSnapshot>(*makeSnapshot(true));
  s->compare->hits[2].score = std::nextafter(s->compare->hits[2].score, 100.0f);  // one ULP apart
  EXPECT_EQ(s->firstDifference(), 2);
  s->compare->hits.pop_back();
  EXPECT_EQ(s->firstDifference(), 2);
}

// An external id is corpus text: the Doc tooltips once filled a "%2" in it with the internal id
// ("a41b (internal doc id %2)" for the document "a%2b").
TEST(ResultTableModel, AnIdWithAPercentSignIsShownAsItIs) {
  auto snapshot = std::make_shared<widgets::SearchSnapshot>(*makeSnapshot(true));
  snapshot->rows[0].externalId = QStringLiteral("a%2b");
  snapshot->compare->externalIds = {QStringLiteral("c%1d"), QStringLiteral("d17"), QStringLiteral("d2")};
  ResultTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setSnapshot(snapshot);
  EXPECT_EQ(model.index(0, model.column(Column::Doc)).data(Qt::ToolTipRole).toString(),
            QStringLiteral("a%2b (internal doc id 4)"));
  EXPECT_EQ(model.index(0, model.column(Column::CompareDoc)).data(Qt::ToolTipRole).toString(),
            QStringLiteral("c%1d (internal doc id 4) from the compared path"));
}

}  // namespace
}  // namespace wandscope::test
